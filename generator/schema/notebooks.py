"""The site.yaml section of the tutorials (``notebooks``): how they are executed and shown,
and what a pattern of them may set over a notebook's own metadata."""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from generator.errors import SiteError
from generator.layout import CACHE_DIR, NOTEBOOKS


Execute = Literal["auto", "never", "always"]


@dataclass(frozen=True)
class TutorialSettings:
    """What site.yaml's ``notebooks.tutorials`` says of the tutorials a pattern matches: the
    keys a notebook's own ``sitegen`` metadata may set, for files kept as upstream wrote them."""

    requires: list[str] | None = None
    device: str | None = None
    timeout: int | None = None
    execute: Execute | None = None

    def validate(self, path: Path, prefix: str) -> None:
        if self.timeout is not None and self.timeout <= 0:
            raise SiteError(f"key '{prefix}timeout': expected a positive number of seconds, got {self.timeout}", path)


@dataclass(frozen=True)
class Notebooks:
    """How tutorials in ``notebooks/`` are executed and shown (see generator/notebooks/)."""

    timeout: int = 120              # seconds per cell; a notebook's metadata may override it
    workers: int = 0                # notebooks executed at once; 0: one per CPU core
    cache_dir: str = CACHE_DIR          # relative to the site; copy it to reuse results elsewhere
    cache: str = ""                 # a shared cache behind it: a folder or fsspec URL (s3://, https://...)
    executor: str = "local"         # "local", or a Dask scheduler's address: tcp://host:8786
    trusted: bool | list[str] = False   # show cells' HTML/JS/SVG unsanitized: all, or these files
    allow_unexecuted: bool = False  # show stored outputs when a notebook cannot run here
    output_limit: int = 100_000     # characters of one text output before it is cut
    execute: Execute = "auto"       # auto: run unless cached; never: show the stored outputs; always: run
    problems: Literal["error", "warn"] = "error"   # a broken output or missing image: stop, or note it
    embeds: list[str] = field(default_factory=list)    # hosts whose iframes outputs may show (sandboxed)
    exclude: list[str] = field(default_factory=list)   # paths in notebooks/ (fnmatch) that are no tutorials: data
    # path pattern in notebooks/ (fnmatch: "tvm/*.py") -> settings over the file's own, later patterns last
    tutorials: dict[str, TutorialSettings] = field(default_factory=dict)

    def validate(self, path: Path, prefix: str) -> None:
        if self.workers < 0:
            raise SiteError(f"key '{prefix}workers': expected 0 (one per core) or more, got {self.workers}", path)
        for i, host in enumerate(self.embeds):
            if not re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*",
                                host):
                raise SiteError(f"key '{prefix}embeds[{i}]': expected a host name (www.youtube-nocookie.com), "
                                f"got {host!r}", path)

    def settings_for(self, path: Path) -> list[tuple[str, TutorialSettings]]:
        """The ``tutorials`` entries (pattern, settings) that match the tutorial at ``path``, in order."""
        name = path.relative_to(NOTEBOOKS).as_posix()
        return [(pattern, settings) for pattern, settings in self.tutorials.items()
                if fnmatch.fnmatchcase(name, pattern)]

    def trusts(self, path: Path) -> bool:
        """Whether the tutorial at ``path`` (``notebooks/x.ipynb``) is trusted."""
        if isinstance(self.trusted, bool):
            return self.trusted
        return path.relative_to(NOTEBOOKS).as_posix() in self.trusted
