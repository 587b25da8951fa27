"""A content-addressed store on disk: values filed under a hash of their inputs.

A key is a hash of everything a result depends on, so an entry never goes
stale: a changed input is simply a different key. Writes go through a
temporary file and a rename, so a crashed build never leaves half an entry.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from generator import codec


def digest(*parts: str | bytes) -> str:
    """One hash of several parts (length-prefixed, so parts cannot run together)."""
    return hasher(*parts).hexdigest()


def hasher(*parts: str | bytes) -> Any:
    """The hash :func:`digest` feeds ``parts`` to, left open: for many digests that begin alike."""
    h = hashlib.sha256()
    _feed(h, parts)
    return h


def digest_after(prefix: Any, *parts: str | bytes) -> str:
    """:func:`digest` of the parts ``prefix`` (a :func:`hasher`) was fed, then of ``parts``."""
    h = prefix.copy()
    _feed(h, parts)
    return h.hexdigest()


def _feed(h: Any, parts: tuple[str | bytes, ...]) -> None:
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)


def write_atomic(path: Path, data: bytes | Callable[[BinaryIO], None]) -> None:
    """Replace ``path`` with ``data`` all at once (or with what ``data`` writes to the file).

    The file gets the mode a plain ``open(path, "w")`` gives (0666 less the
    umask), not mkstemp's 0600: a web server running as another user must be
    able to read a copied output folder.
    """
    tmp = path.parent / f".{path.name}.{os.urandom(6).hex()}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(tmp, flags, 0o666)
    except FileNotFoundError:   # its folder made only then: a cache's thousand writes ask for it once
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, flags, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            if callable(data):
                data(f)
            else:
                f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class DataCache:
    """Values of one kind (see :mod:`generator.codec`) by key, one file each under ``folder``.

    An entry that cannot be read back, or holds a value ``valid`` refuses (a
    file crafted to pass as an entry), is a miss: the caller makes the value
    again and the entry is replaced.
    """

    def __init__(self, folder: Path, kind: str, valid: Callable[[Any], bool] = lambda value: True):
        self.folder = folder
        self.kind = kind
        self.valid = valid

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.msgpack"

    def get(self, key: str) -> Any | None:
        try:
            value = codec.loads(self.kind, self._path(key).read_bytes())
        except (OSError, codec.Garbled):
            return None
        return value if self.valid(value) else None

    def put(self, key: str, value: Any, exact: bool = False) -> None:
        """File ``value`` under ``key``; with ``exact``, only if it reads back the same
        (:func:`codec.dumps_exact`: a parse kept in place of parsing again)."""
        if exact:
            data = codec.dumps_exact(self.kind, value)
            if data is None:
                return
        else:
            try:
                data = codec.dumps(self.kind, value)
            except (TypeError, ValueError, OverflowError):   # a value a cache cannot hold: not cached
                return
        write_atomic(self._path(key), data)
