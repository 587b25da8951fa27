"""A content-addressed store on disk: values filed under a hash of their inputs.

A key is a hash of everything a result depends on, so an entry never goes
stale: a changed input is simply a different key. Writes go through a
temporary file and a rename, so a crashed build never leaves half an entry.
Entries are sealed with the checkout's own secret (:func:`local_key`), so
one that was crafted, or made elsewhere, is a miss.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from generator import codec
from generator.layout import KEY_FILE, KEY_VARIABLE

KEY_BYTES = 32


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


def local_key(state_dir: Path) -> bytes:
    """The secret this checkout's cache files are sealed with (:mod:`generator.codec`), so that
    a file crafted, or copied from another checkout, is a miss: ``$SITEGEN_CACHE_KEY`` if set
    (CI, whose checkouts are fresh but whose ``.sitegen/cache`` is restored), else
    ``.sitegen/key``, made on first use, readable by its owner only, never read through a link.
    Where there is no ``.sitegen/`` to keep it in, or it is a link (see :mod:`generator.statedir`),
    a key of this call only: nothing is trusted, and nothing is written through the link."""
    shared = os.environ.get(KEY_VARIABLE)
    if shared:
        return hashlib.sha256(shared.encode("utf-8", "surrogateescape")).digest()
    if state_dir.is_symlink():
        return os.urandom(KEY_BYTES)
    path = state_dir / KEY_FILE
    for _ in range(3):
        key, there = _read_key(path)
        if key is not None:
            return key
        try:
            return _make_key(path, replace=there)
        except FileExistsError:     # another process made it meanwhile: read theirs
            continue
        except OSError:             # no .sitegen/ yet, or not ours to write
            break
    return os.urandom(KEY_BYTES)


def _read_key(path: Path) -> tuple[bytes | None, bool]:
    """The key in ``path``, if it holds one; and whether there is something there. A file read
    before is known by its inode and time: a build asks a few times, an edit build dozens."""
    try:
        stat = os.lstat(path)
    except FileNotFoundError:
        return None, False
    except OSError:
        return None, True
    known = _read.get(path)
    if known is not None and known[0] == _identity(stat):
        return known[1], True
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return None, False
    except OSError:                 # a link, or unreadable: to be replaced
        return None, True
    with os.fdopen(fd, "rb") as file:
        which = _identity(os.fstat(fd))     # of the file read, whatever moved since the lstat
        key = file.read(KEY_BYTES + 1)
    if len(key) != KEY_BYTES:
        return None, True
    _read[path] = (which, key)
    return key, True


_read: dict[Path, tuple[tuple[int, ...], bytes]] = {}   # key files read: their identity, their key


def _identity(stat: os.stat_result) -> tuple[int, ...]:
    return stat.st_dev, stat.st_ino, stat.st_mtime_ns, stat.st_mode


def _make_key(path: Path, replace: bool) -> bytes:
    """A new key, written to ``path``: over what is there only if ``replace``, else a
    ``FileExistsError`` should another process have made one first."""
    key = os.urandom(KEY_BYTES)
    tmp = path.parent / f".{path.name}.{os.urandom(6).hex()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(key)
        if replace:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return key


class DataCache:
    """Values of one kind (see :mod:`generator.codec`) by key, one file each under ``folder``.

    Entries are sealed with ``key`` (:func:`local_key`). An entry that cannot be
    read back, is not sealed with it (crafted, or copied from another checkout)
    or holds a value ``valid`` refuses, is a miss: the caller makes the value
    again and the entry is replaced.
    """

    def __init__(self, folder: Path, kind: str, key: bytes, valid: Callable[[Any], bool] = lambda value: True):
        self.folder = folder
        self.kind = kind
        self.key = key
        self.valid = valid

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.msgpack"

    def get(self, key: str) -> Any | None:
        try:
            value = codec.loads(self.kind, self._path(key).read_bytes(), self.key)
        except (OSError, codec.Garbled):
            return None
        return value if self.valid(value) else None

    def put(self, key: str, value: Any, exact: bool = False) -> None:
        """File ``value`` under ``key``; with ``exact``, only if it reads back the same
        (:func:`codec.dumps_exact`: a parse kept in place of parsing again)."""
        if exact:
            data = codec.dumps_exact(self.kind, value, self.key)
            if data is None:
                return
        else:
            try:
                data = codec.dumps(self.kind, value, self.key)
            except (TypeError, ValueError, OverflowError):   # a value a cache cannot hold: not cached
                return
        write_atomic(self._path(key), data)
