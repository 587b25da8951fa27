"""A canary outside a site: files a build must neither open nor publish nor change.

Opening is seen by a Python audit hook (``open`` events, PEP 578), so "unread" means
no code of this process opened the file, not merely that its bytes did not reach
the output. A hook cannot be removed: one is installed once and records only while
a :class:`Canary` is watching.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

SECRET = "CANARY-7f3a9c-SECRET"

_watching: list["Canary"] = []


def _hook(event: str, args: tuple) -> None:
    if event == "open" and _watching and isinstance(args[0], (str, bytes, os.PathLike)):
        opened = os.path.realpath(os.fsdecode(args[0]))     # lexical '..' and links resolved
        for canary in _watching:
            if opened.startswith(canary.prefix):
                canary.opened.append(opened)


sys.addaudithook(_hook)


class Canary:
    """``folder`` with a secret in a ``.yml``, a ``.md``, a ``config`` and an ``index.html``."""

    NAMES = ("canary.yml", "canary.md", "config", "index.html")

    def __init__(self, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        for name in self.NAMES:
            (folder / name).write_text(f"secret: {SECRET}\n" if name.endswith(".yml") else f"<p>{SECRET}</p>\n")
        self.folder = folder
        self.prefix = os.path.realpath(folder) + os.sep
        self.opened: list[str] = []
        self.before = self.files()

    def files(self) -> dict[str, tuple[bytes, int]]:
        return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in self.folder.iterdir()}

    @contextlib.contextmanager
    def watch(self) -> Iterator["Canary"]:
        """Record what the code run inside the ``with`` block opens in the canary's folder."""
        _watching.append(self)
        try:
            yield self
        finally:
            _watching.remove(self)

    def assert_untouched(self, *outputs: Path) -> None:
        """Unopened, unchanged, and its secret in none of ``outputs`` (folders, looked at whole)."""
        assert self.opened == [], f"the build opened {self.opened}"
        assert self.files() == self.before
        for out in outputs:
            for path in out.rglob("*") if out.is_dir() else ():
                if path.is_file():
                    assert SECRET.encode() not in path.read_bytes(), f"{path} holds the canary's secret"
