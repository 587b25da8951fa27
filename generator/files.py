"""Files already made, by output path: the one container every step that makes files fills.

A file is its path (relative to where the container is published, ``prefix``),
its bytes, and its origin: what made it, named in the error when a second
step claims the same path. Some are kept out of the sitemap (redirect stubs,
copies under an alias).
"""

from __future__ import annotations

import errno
from collections.abc import Mapping
from pathlib import Path

from generator.errors import SiteError


# What file systems take: a name (one segment) of at most 255 bytes (ext4, APFS, NTFS), and a
# path of at most 4096 with the output folder's own in front (2048 leaves it room).
NAME_BYTES = 255
PATH_BYTES = 2048


def is_output_path(rel: str) -> bool:
    """Whether ``rel`` is a clean relative file path: no ``..``, ``.`` or empty segment, no NUL.
    Asked of every planned path (267,000 at 100,000 posts), so by finding, not by splitting."""
    wrapped = f"/{rel}/"        # a segment is empty, "." or ".." where these find it
    return bool(rel) and "\0" not in rel and "//" not in wrapped and "/./" not in wrapped and "/../" not in wrapped


def is_file(path: Path) -> bool:
    """``path.is_file()``, with a name too long for any file system (a layout or ``source``
    named in front matter) answered False rather than raised, as a missing file is."""
    try:
        return path.is_file()
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            return False
        raise


def check_output_path(rel: str, origin: str | Path) -> None:
    """Refuse, naming ``origin``, a path that would leave the output folder or that no file
    system would take (the write would fail half-way through the build)."""
    if not is_output_path(rel):
        raise SiteError(f"{rel!r} is not a path inside the output folder", origin)
    size = len(rel.encode())
    if size <= NAME_BYTES:      # nearly every path: no name in it can be too long
        return
    long = next((part for part in rel.split("/") if len(part.encode()) > NAME_BYTES), None)
    if long is not None:
        raise SiteError(f"its output /{rel[:60]}... has a name of {len(long.encode())} bytes, more than "
                        f"the {NAME_BYTES} a file system takes: shorten the file's name or its permalink",
                        origin)
    if size > PATH_BYTES:
        raise SiteError(f"its output /{rel[:60]}... has a path of {size} bytes, more than "
                        f"{PATH_BYTES}: shorten its folders' names or its permalink", origin)


class Files(dict):
    """Path -> bytes, with each file's origin; a second claim on a path is refused, naming both.

    ``prefix`` is the URL the paths are below (in messages); ``where`` the file an
    error is reported at (default: the second claimant).
    """

    def __init__(self, prefix: str = "/", where: str | Path | None = None) -> None:
        super().__init__()
        self.prefix = prefix
        self.where = where
        self.origins: dict[str, str] = {}
        self.unlisted: set[str] = set()

    def add(self, path: str, data: bytes | str, origin: str | Path, listed: bool = True) -> None:
        check_output_path(path, self.where or origin)
        if path in self:
            raise SiteError(f"{self.prefix}{path} is claimed by both {self.origins[path]} and {origin}",
                            self.where or origin)
        self[path] = data.encode("utf-8") if isinstance(data, str) else data
        self.origins[path] = str(origin)
        if not listed:
            self.unlisted.add(path)

    def mount(self, prefix: str, files: Mapping[str, bytes], origin: str | Path | None = None,
              listed: bool = True) -> None:
        """Place ``files`` below ``prefix`` (``tutorials/``, ``docs/v2/``), each with its own origin
        (``files`` is a :class:`Files`) or with ``origin``; the same checks as :meth:`add`."""
        origins = getattr(files, "origins", {})
        for rel, data in files.items():
            self.add(prefix + rel, data, origin or origins[rel], listed)
