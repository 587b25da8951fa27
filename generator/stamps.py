"""What the site's files look like on disk, and which of them moved since the last build.

A file is known by its stamp (size, modification time): a build reads again only the files
whose stamp moved. The state stores the stamps as columns (:class:`FileTable` for the inputs,
:class:`Stamps` for the outputs) that a build with nothing to do compares whole with its scans,
making no record per file; :class:`FileIndex` gives the inputs' digests, re-read where a stamp
moved. :mod:`generator.state` keeps these between builds.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.cache import digest
from generator.errors import SiteError

# A file modified this close to the moment it was stamped may be modified again
# within the same timestamp tick: its stamp is not trusted and it is re-hashed.
RACY_NS = 2_000_000_000

# Folders inside folders, far beyond any real site's: each level is a frame of the walks here and
# of the standard library's (Path.rglob), which a thousand levels would take past Python's limit.
MAX_FOLDER_DEPTH = 100

Stamp = tuple[int, int]  # (size, mtime_ns)


def file_stamp(stat: os.stat_result) -> Stamp:
    return stat.st_size, stat.st_mtime_ns


def scan(folder: Path, prefix: str = "", follow_links: bool = True, empty: list[str] | None = None) -> dict[str, Stamp]:
    """Every file under ``folder`` (``prefix`` + relative POSIX path) with its stamp.

    With ``follow_links=False`` a symbolic link is listed as a file, never entered.
    Folders holding nothing are added to ``empty``, if given.
    A folder that cannot be read, or a link that leads back into a folder it is
    in, is a :class:`SiteError` naming it: taking it for empty would remove its
    pages from the site. So is a folder more than :data:`MAX_FOLDER_DEPTH` deep.
    """
    names, sizes, mtimes = scan_columns(folder, prefix, follow_links, empty)
    return dict(zip(names, zip(sizes, mtimes)))


def scan_columns(folder: Path, prefix: str = "", follow_links: bool = True,
                 empty: list[str] | None = None) -> tuple[list[str], list[int], list[int]]:
    """:func:`scan` as three lists: names, sizes, modification times (in the order the folders
    list them, which stays the same while they do): what :class:`FileIndex` compares with the
    state's columns, making no object per file."""
    found: tuple[list[str], list[int], list[int]] = ([], [], [])
    _scan(os.fspath(folder), prefix, follow_links, empty, frozenset(), found)
    return found


def _scan(folder: str, prefix: str, follow_links: bool, empty: list[str] | None,
          within: frozenset[tuple[int, int]], found: tuple[list[str], list[int], list[int]]) -> None:
    """:func:`scan_columns` of one folder into ``found``; ``within``: the folders (device, inode)
    it is in. Its files are stat'ed relative to it: a shorter path for the kernel to walk."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except (FileNotFoundError, NotADirectoryError):
        return
    except OSError as exc:
        raise SiteError(f"cannot read this folder: {exc.strerror or exc}", prefix.rstrip("/") or folder) from None
    try:
        try:
            with os.scandir(fd) as listing:
                entries = list(listing)
            if follow_links:   # the folders a link must not lead back into
                here = os.fstat(fd)
                within = within | {(here.st_dev, here.st_ino)}
        except OSError as exc:
            raise SiteError(f"cannot read this folder: {exc.strerror or exc}", prefix.rstrip("/") or folder) from None
        if not entries and empty is not None and prefix:
            empty.append(prefix.rstrip("/"))
        files, folders = [], []
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=follow_links):
                    folders.append(entry)
                elif not follow_links or entry.is_file():
                    files.append(entry)
            except OSError as exc:
                raise SiteError(f"cannot read: {exc.strerror or exc}", prefix + entry.name) from None
        try:
            stats = [entry.stat(follow_symlinks=follow_links) for entry in files]
        except OSError:         # one removed while we looked, a dangling link, or unreadable
            files, stats = _stat_each(files, prefix, follow_links)
        names, sizes, mtimes = found
        names.extend([prefix + entry.name for entry in files])
        sizes.extend([stat.st_size for stat in stats])
        mtimes.extend([stat.st_mtime_ns for stat in stats])
        for entry in folders:
            name = prefix + entry.name
            try:
                if follow_links and entry.is_symlink():
                    target = entry.stat()
                    if (target.st_dev, target.st_ino) in within:
                        raise SiteError("symbolic link loop: it leads back into a folder it is in", name)
            except FileNotFoundError:  # removed while we looked
                continue
            except OSError as exc:
                raise SiteError(f"cannot read: {exc.strerror or exc}", name) from None
            if name.count("/") >= MAX_FOLDER_DEPTH:
                raise SiteError(f"folders nested more than {MAX_FOLDER_DEPTH} deep: "
                                "move what this folder holds nearer the top", name)
            _scan(os.path.join(folder, entry.name), name + "/", follow_links, empty, within, found)
    finally:
        os.close(fd)


def _stat_each(files: list[os.DirEntry], prefix: str, follow_links: bool) -> tuple[list, list]:
    """The files of a folder still there, and their stats (:func:`_scan`, when one is not)."""
    kept, stats = [], []
    for entry in files:
        try:
            stats.append(entry.stat(follow_symlinks=follow_links))
        except FileNotFoundError:  # removed while we looked, or a dangling link
            continue
        except OSError as exc:
            raise SiteError(f"cannot read: {exc.strerror or exc}", prefix + entry.name) from None
        kept.append(entry)
    return kept, stats


@dataclass
class FileRecord:
    stamp: Stamp
    digest: str
    trusted: bool      # False if the file may change again without its stamp moving


class FileTable(MutableMapping):
    """Input file -> its :class:`FileRecord`, held as the columns the state stores: names, sizes,
    modification times, digests, trusted.

    A build with nothing to do compares a scan's columns with these, whole (:meth:`moved`),
    and makes no record: a dict of 100,000 records cost more to make than the scan. Each
    record is made when asked for, and the index of the names on the first lookup.
    """

    __slots__ = ("names", "sizes", "mtimes", "digests", "trusted", "_at")

    def __init__(self, names: list[str] | None = None, sizes: list[int] | None = None,
                 mtimes: list[int] | None = None, digests: list[str] | None = None,
                 trusted: list[bool] | None = None):
        self.names, self.sizes, self.mtimes = names or [], sizes or [], mtimes or []
        self.digests, self.trusted = digests or [], trusted or []
        if not len(self.names) == len(self.sizes) == len(self.mtimes) == len(self.digests) == len(self.trusted):
            raise ValueError("columns of different lengths")
        self._at: dict[str, int] | None = None

    @classmethod
    def of(cls, records: Mapping[str, FileRecord]) -> FileTable:
        """``records`` as a table, in their order."""
        if isinstance(records, FileTable):
            return records
        values = records.values()
        return cls(list(records), [r.stamp[0] for r in values], [r.stamp[1] for r in values],
                   [r.digest for r in values], [r.trusted for r in values])

    def columns(self) -> list[list]:
        return [self.names, self.sizes, self.mtimes, self.digests, self.trusted]

    def copy(self) -> FileTable:
        return FileTable(*map(list, self.columns()))

    def records(self) -> dict[str, FileRecord]:
        """Every record, in a dict (for a build that looks many up: the preview's)."""
        return dict(zip(self.names, map(FileRecord, zip(self.sizes, self.mtimes), self.digests, self.trusted)))

    def arranged(self, names: list[str]) -> FileTable | None:
        """A copy with its rows in the order of ``names`` (a scan's), if it has those names and
        no other; else None."""
        if names == self.names:
            return self.copy()
        at = self._index()
        order = list(map(at.get, names))
        if len(order) != len(self.names) or None in order or len(set(order)) != len(order):
            return None
        return FileTable(*(list(map(column.__getitem__, order)) for column in self.columns()))

    def moved(self, sizes: list[int], mtimes: list[int]) -> list[int]:
        """Where a scan of the same names found ``sizes`` and ``mtimes`` other than these, or
        a file's stamp is not to be trusted yet: its index."""
        if sizes == self.sizes and mtimes == self.mtimes and all(self.trusted):
            return []
        return [i for i, (size, mtime, known_size, known_mtime, trusted)
                in enumerate(zip(sizes, mtimes, self.sizes, self.mtimes, self.trusted))
                if not trusted or size != known_size or mtime != known_mtime]

    def _index(self) -> dict[str, int]:
        if self._at is None:
            self._at = dict(zip(self.names, range(len(self.names))))
        return self._at

    def __getitem__(self, name: str) -> FileRecord:
        i = self._index()[name]
        return FileRecord((self.sizes[i], self.mtimes[i]), self.digests[i], self.trusted[i])

    def __contains__(self, name: object) -> bool:
        return name in self._index()

    def __setitem__(self, name: str, record: FileRecord) -> None:
        at = self._index()
        i = at.get(name)
        if i is None:
            at[name] = len(self.names)
            self.names.append(name)
            self.sizes.append(record.stamp[0])
            self.mtimes.append(record.stamp[1])
            self.digests.append(record.digest)
            self.trusted.append(record.trusted)
        else:
            self.sizes[i], self.mtimes[i] = record.stamp
            self.digests[i], self.trusted[i] = record.digest, record.trusted

    def __delitem__(self, name: str) -> None:
        i = self._index()[name]
        for column in self.columns():
            del column[i]
        self._at = None

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)


class Stamps(Mapping):
    """Output path -> its stamp as the last build left it, held as the columns the state stores:
    the outputs in runs of one folder (each run's folder and length), then their names in it,
    sizes and modification times.

    A build with nothing to do stats each run's names relative to its folder and compares them
    with the columns (:func:`generator.output.moved_outputs`), making no path nor stamp per
    output; the paths and the dict are made on first use.
    """

    __slots__ = ("folders", "counts", "names", "sizes", "mtimes", "_paths", "_dict")

    def __init__(self, folders: list[str] | None = None, counts: list[int] | None = None,
                 names: list[str] | None = None, sizes: list[int] | None = None, mtimes: list[int] | None = None):
        self.folders, self.counts = folders or [], counts or []
        self.names, self.sizes, self.mtimes = names or [], sizes or [], mtimes or []
        if not len(self.names) == len(self.sizes) == len(self.mtimes) == sum(self.counts) \
                or len(self.folders) != len(self.counts):
            raise ValueError("columns of different lengths")
        self._paths: list[str] | None = None
        self._dict: dict[str, Stamp] | None = None

    @classmethod
    def of(cls, stamps: Mapping[str, Stamp]) -> Stamps:
        """``stamps`` as columns, in their order (a build makes a folder's outputs one after another)."""
        if isinstance(stamps, Stamps):
            return stamps
        folders, counts, names = [], [], []
        for folder, paths in itertools.groupby(stamps, lambda path: path.rpartition("/")[0]):
            inside = [path[len(folder) + 1:] for path in paths] if folder else list(paths)
            folders.append(folder)
            counts.append(len(inside))
            names.extend(inside)
        values = stamps.values()
        return cls(folders, counts, names, [size for size, _ in values], [mtime for _, mtime in values])

    def columns(self) -> list[list]:
        return [self.folders, self.counts, self.names, self.sizes, self.mtimes]

    def runs(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[str, int, int]]:
        """The runs of outputs of one folder, cut to those from ``start`` to ``stop``: each one's
        folder, and where it begins and ends in :attr:`names`."""
        stop = len(self.names) if stop is None else stop
        at = 0
        for folder, count in zip(self.folders, self.counts):
            begin, end = max(at, start), min(at + count, stop)
            if begin < end:
                yield folder, begin, end
            at += count

    @property
    def paths(self) -> list[str]:
        """Each output's path, in order."""
        if self._paths is None:
            self._paths = []
            for folder, begin, end in self.runs():
                names = self.names[begin:end]
                self._paths.extend([f"{folder}/{name}" for name in names] if folder else names)
        return self._paths

    def _lookup(self) -> dict[str, Stamp]:
        if self._dict is None:
            self._dict = dict(zip(self.paths, zip(self.sizes, self.mtimes)))
        return self._dict

    def __getitem__(self, path: str) -> Stamp:
        return self._lookup()[path]

    def __contains__(self, path: object) -> bool:
        return path in self._lookup()

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.names)

    def keys(self) -> Any:         # the dict's view: set operations over 267,000 outputs in C
        return self._lookup().keys()

    def items(self) -> Any:
        return self._lookup().items()


class FileIndex:
    """The digests of the site's input files, re-read only when their stamps move.

    ``roots`` (files and folders relative to ``root``) are scanned on every
    build, and so are the ``extra`` files outside them that a page read (a
    source listing). The saved records change only through :meth:`snapshot`,
    once the build that used them has succeeded.
    """

    def __init__(self, root: Path, roots: tuple[str, ...], known: Mapping[str, FileRecord],
                 extra: set[str] = frozenset(), admit: Callable[[str], None] | None = None):
        self.root = root
        self.roots = tuple(r for r in dict.fromkeys(roots)       # none twice, none inside another
                           if not any(r.startswith(other + "/") for other in roots))
        self.known = known
        self.extra = extra
        self.admit = admit               # raises to refuse a file before its bytes are read
        self.current: MutableMapping[str, FileRecord] = {}
        self.changed: set[str] = set()
        self.listing_changed = True      # a file appeared or went since the saved records

    def rescan(self, hint: Iterable[str] | None = None) -> set[str]:
        """Stat the files again; return those whose bytes changed, appeared or went.

        ``hint`` (the files and folders a watcher saw change) limits the work to
        them, to files whose stamps are not to be trusted yet and to the extra
        files; every other file is taken to be as the saved records say.
        """
        self.current, self.changed = {}, set()
        if hint is None:
            names, sizes, mtimes = self._stat_columns(self.roots)
            extra = sorted(name for name in self.extra if not self._within_roots(name))
            for name, stamp in self._stat(extra).items():
                names.append(name)
                sizes.append(stamp[0])
                mtimes.append(stamp[1])
            same = self.known.arranged(names) if isinstance(self.known, FileTable) else None
            if same is not None:        # the same files: only those whose stamps moved are looked at
                self.current = same
                for i in same.moved(sizes, mtimes):
                    self._check(names[i], (sizes[i], mtimes[i]))
                self.listing_changed = len(self.current) != len(self.known)     # one went as it was read
            else:
                for name, size, mtime in zip(names, sizes, mtimes):
                    self._check(name, (size, mtime))
                self.listing_changed = self.current.keys() != self.known.keys()
            if self.listing_changed:
                self.changed.update(self.known.keys() - self.current.keys())
            return self.changed
        if isinstance(self.known, FileTable):      # the preview's rebuilds look many up
            self.known = self.known.records()
        hinted = [name for name in hint if self._within_roots(name)]
        exact = set(hinted)
        folders = tuple(h + "/" for h in hinted if h not in self.known)   # a known file holds nothing
        self.current = {name: record for name, record in self.known.items() if record.trusted}
        for name in (*self.extra, *exact):
            self.current.pop(name, None)
        if folders:
            self.current = {name: record for name, record in self.current.items()
                            if not name.startswith(folders)}
        unsure = sorted(name for name in self.known.keys() - self.current.keys()
                        if name not in exact and not (folders and name.startswith(folders)))
        stamps = self._stat(hinted + unsure)
        for name in self.extra:
            self.digest(name)
        for name, stamp in stamps.items():
            self._check(name, stamp)
        self.changed.update(self.known.keys() - self.current.keys())
        self.listing_changed = self.current.keys() != self.known.keys()
        return self.changed

    def _within_roots(self, name: str) -> bool:
        return any(name == r or name.startswith(r + "/") for r in self.roots)

    def _stat_columns(self, names: Iterable[str]) -> tuple[list[str], list[int], list[int]]:
        """The names and stamps (sizes, modification times) of the files named, and of every
        file under the folders named, as columns (:func:`scan_columns`)."""
        found: tuple[list[str], list[int], list[int]] = ([], [], [])
        for name in names:
            path = self.root / name
            try:
                if path.is_dir():
                    for column, more in zip(found, scan_columns(path, name + "/")):
                        column.extend(more)
                elif path.is_file():
                    stat = path.stat()
                    for column, value in zip(found, (name, stat.st_size, stat.st_mtime_ns)):
                        column.append(value)
            except FileNotFoundError:  # gone while we looked
                continue
        return found

    def _stat(self, names: Iterable[str]) -> dict[str, Stamp]:
        """The stamps of the files named, and of every file under the folders named."""
        names, sizes, mtimes = self._stat_columns(names)
        return dict(zip(names, zip(sizes, mtimes)))

    def digest(self, name: str) -> str | None:
        """The digest of a file's bytes, or None if there is no such file."""
        record = self.current.get(name)
        if record is None:
            try:
                stamp = file_stamp((self.root / name).stat())
            except OSError:
                return None
            record = self._check(name, stamp)
        return record.digest if record else None

    def snapshot(self) -> MutableMapping[str, FileRecord]:
        return self.current.copy() if isinstance(self.current, FileTable) else dict(self.current)

    def tree_digest(self, folder: str) -> str:
        """One digest of every file under ``folder`` (names included), from the last scan."""
        prefix = folder + "/"
        inside = sorted(name for name in self.current if name.startswith(prefix) or name == folder)
        return digest(*(part for name in inside for part in (name, self.current[name].digest)))

    def _check(self, name: str, stamp: Stamp) -> FileRecord | None:
        known = self.known.get(name)
        if known is not None and known.trusted and known.stamp == stamp:
            record = known
        else:
            if self.admit is not None:
                self.admit(name)
            try:
                data = (self.root / name).read_bytes()
            except FileNotFoundError:   # gone since it was listed
                self.current.pop(name, None)
                return None
            except OSError as exc:      # there, but unreadable: not the same as gone
                raise SiteError(f"cannot read: {exc.strerror or exc}", name) from None
            record = FileRecord(stamp, hashlib.sha256(data).hexdigest(),
                                trusted=time.time_ns() - stamp[1] > RACY_NS)
            if known is None or known.digest != record.digest:
                self.changed.add(name)
        self.current[name] = record
        return record


