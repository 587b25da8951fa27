"""The output directory: find what differs from the last build, write and remove files.

Files are replaced atomically (a preview server reading one never sees half of
it) and only when their bytes differ from what is there, so unchanged files
keep their modification times and a publish sees no spurious changes. A build
made in worker processes hands its files over through :class:`Staging`: each
worker writes the files whose bytes changed into a staging folder, and only
once every file is made are they moved into the output directory.

Every path written or removed passes :func:`confined`, which proves it lies
inside the output directory (symbolic links followed), whatever produced it:
the plan, a bundle, or a state file from an earlier build.
"""

from __future__ import annotations

import errno
import os
import secrets
import shutil
from functools import partial
from stat import S_ISDIR, S_ISREG
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from generator.cache import write_atomic
from generator.config import Config
from generator.deps import value_digest
from generator.errors import SiteError
from generator.files import is_output_path
from generator.layout import CONFIG_FILE, OUTPUT_MARKER, SOURCES
from generator.stamps import Stamp, Stamps, file_stamp, scan
from generator.state import OutputRecord

TREE = "tree"       # the staging folder's copy of a new output directory (beside 16-hex-digit names)
SPILLED = "spilled"  # derived files made, waiting for their jobs (Staging.spill)
MARKER_NOTE = (b"sitegen made this folder: a build replaces and removes the files in it.\n"
               b"Remove this file to keep sitegen from building into this folder again.\n")


def safe_output_dir(config: Config) -> Path:
    """The output directory (links followed), refused if writing there could destroy the site's
    sources or files sitegen did not make.

    A build removes what it finds in the output folder and did not make (strays), so a folder
    outside the site must be new, empty, or one a build made (:data:`OUTPUT_MARKER` in it):
    ``output: ../x``, an absolute path or a ``_site`` link to elsewhere never names a folder
    of someone else's files.
    """
    out = config.output_dir.resolve()
    root = config.root.resolve()
    sources = [root / name for name in (*SOURCES, *config.static_paths, *config.theme_paths)]
    where = root / CONFIG_FILE
    if root.is_relative_to(out) or any(out.is_relative_to(s) for s in sources):
        raise SiteError(f"key 'output': {config.output!r} would overwrite the site's sources", where)
    if os.path.exists(out) and not out.is_dir():
        raise SiteError(f"key 'output': {config.output!r} is a file, not a folder", where)
    if not out.is_relative_to(root) and not made_by_us(out):
        link = "" if str(out) == os.path.normpath(config.output_dir) else f" (a link to {out})"
        raise SiteError(f"key 'output': {config.output!r}{link} is a folder outside the site holding "
                        f"files sitegen did not put there (it has no {OUTPUT_MARKER}): name a new or "
                        "empty folder", where)
    return out


def made_by_us(folder: Path) -> bool:
    """Is ``folder`` missing, empty, or marked by a build as its output folder?"""
    try:
        if S_ISREG(os.lstat(folder / OUTPUT_MARKER).st_mode):
            return True
    except OSError:
        pass
    try:
        with os.scandir(folder) as listing:
            return next(listing, None) is None
    except FileNotFoundError:
        return True
    except OSError:          # unreadable: not known to be ours
        return False


def mark_ours(folder: Path) -> None:
    """Leave :data:`OUTPUT_MARKER` in ``folder``: a build made it, and may remove its files later."""
    marker = folder / OUTPUT_MARKER
    if marker.is_symlink() or not marker.is_file():
        write_atomic(marker, MARKER_NOTE)


def confined(out_dir: Path, rel: str, unlink: bool = False) -> Path:
    """``out_dir/rel``, proved to lie inside ``out_dir`` once links are followed; else SiteError.

    With ``unlink``, a symbolic link in the output that stands for a folder on
    the way is removed first (a build writes into real folders only).
    """
    if not is_output_path(rel):
        raise SiteError(f"refusing to write or remove {rel!r}: not a file path inside the output folder",
                        out_dir)
    path, top = out_dir / rel, out_dir.resolve()
    if unlink and not path.parent.resolve().is_relative_to(top):
        link = next((p for p in reversed(path.parents)
                     if p != out_dir and p.is_relative_to(out_dir) and p.is_symlink()), None)
        if link is not None:
            link.unlink()
    if not path.parent.resolve().is_relative_to(top):
        raise SiteError(f"refusing to write or remove /{rel}: a symbolic link leads it outside "
                        "the output folder", out_dir)
    return path


def check_outputs(out_dir: Path, stamps: Mapping[str, Stamp], folders: dict[str, int] | None = None,
                  upto: int | None = None) -> tuple[set[str], set[str], list[str]]:
    """Outputs that are not as the last build left them, files it did not make (its
    :data:`OUTPUT_MARKER` aside), and empty folders (a build killed between making a
    folder and writing into it leaves one).

    ``folders`` (the output's folders and their modification times, as the last
    build left them) spares listing a folder whose time did not move: a file
    added, removed or renamed in it would have moved it. Each output is looked
    at by its stamp either way: with ``upto``, the first ``upto`` of ``stamps``
    only (:func:`moved_outputs` of the others, elsewhere).
    """
    if folders is None:
        empty: list[str] = []
        found = scan(out_dir, follow_links=False, empty=empty)
        tampered = {path for path, stamp in stamps.items() if found.get(path) != stamp}
        return tampered, found.keys() - stamps.keys() - {OUTPUT_MARKER}, empty
    top = os.fspath(out_dir)
    tampered = moved_outputs(out_dir, stamps, 0, upto)
    strays: set[str] = set()
    empty = []
    for folder, mtime in folders.items():
        where = f"{top}/{folder}" if folder else top
        try:
            stat = os.lstat(where)
        except OSError:          # gone: its files are missing, and so tampered
            continue
        if S_ISDIR(stat.st_mode) and stat.st_mtime_ns == mtime:
            continue
        prefix = f"{folder}/" if folder else ""
        try:
            with os.scandir(where) as listing:
                entries = list(listing)
        except OSError:           # not a folder any more: what it held is missing
            continue
        if not entries and folder:
            empty.append(folder)
        for entry in entries:
            rel = prefix + entry.name
            if entry.is_dir(follow_symlinks=False):
                if rel not in folders:    # a folder no build made: all of it
                    strays.update(scan(Path(entry.path), rel + "/", follow_links=False, empty=empty))
                    if not any(os.scandir(entry.path)):
                        empty.append(rel)
            elif rel not in stamps and rel != OUTPUT_MARKER:
                strays.add(rel)
    return tampered, strays, empty


def folder_stamps(out_dir: Path, paths: Iterable[str], last: dict[str, int] | None = None) -> dict[str, int]:
    """The folders holding ``paths`` (and their folders, and the output directory as ``""``),
    each with its modification time now; with ``last``, those folders looked at again (the
    files written or removed) and the others as ``last`` has them."""
    names = {""}
    for path in paths:
        parts = path.split("/")[:-1]
        names.update("/".join(parts[:n]) for n in range(1, len(parts) + 1))
    top, found = os.fspath(out_dir), dict(last or {})
    for name in names:
        try:
            found[name] = os.lstat(f"{top}/{name}" if name else top).st_mtime_ns
        except OSError:          # removed with its last file
            found.pop(name, None)
    return found


def moved_outputs(out_dir: Path, stamps: Mapping[str, Stamp], start: int = 0, stop: int | None = None) -> set[str]:
    """The outputs (of ``stamps``, those from ``start`` to ``stop``) whose stamps are not the
    ones there: changed or gone. Each run of one folder's outputs is stat'ed relative to that
    folder and compared with the columns (:class:`generator.stamps.Stamps`), making no path nor
    stamp per output: 266,000 at 100,000 posts."""
    columns = Stamps.of(stamps)
    top, moved = os.fspath(out_dir), set()
    for folder, begin, end in columns.runs(start, stop):
        names = columns.names[begin:end]
        moved.update(f"{folder}/{name}" if folder else name
                     for name, stat, size, mtime in zip(names, _lstats(top, folder, names),
                                                        columns.sizes[begin:end], columns.mtimes[begin:end])
                     if stat is None or stat.st_size != size or stat.st_mtime_ns != mtime)
    return moved


def _lstats(top: str, folder: str, names: list[str]) -> list[os.stat_result | None]:
    """The ``lstat`` of each of ``names`` in ``folder`` (under ``top``), None for one gone:
    relative to the folder's descriptor, a shorter path for the kernel to walk (a third less time)."""
    try:
        fd = os.open(f"{top}/{folder}" if folder else top, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:             # gone, or not a folder: its files are gone
        return [None] * len(names)
    try:
        try:
            return list(map(partial(os.lstat, dir_fd=fd), names))
        except OSError:         # one is gone: each by itself
            return [_lstat(name, fd) for name in names]
    finally:
        os.close(fd)


def _lstat(name: str, folder: int) -> os.stat_result | None:
    try:
        return os.lstat(name, dir_fd=folder)
    except OSError:
        return None


def delete_outputs(out_dir: Path, paths: set[str], folders: Iterable[str] = ()) -> list[str]:
    """Remove files no longer produced, and the folders they leave empty; and empty ``folders``."""
    deleted = []
    for rel in sorted(folders):
        remove_empty_folders(out_dir, confined(out_dir, rel))
    for rel in sorted(paths):
        path = confined(out_dir, rel)
        if not (path.is_symlink() or path.is_file()):
            continue
        path.unlink()
        deleted.append(rel)
        remove_empty_folders(out_dir, path.parent)
    return deleted


def remove_empty_folders(out_dir: Path, folder: Path) -> None:
    """Remove ``folder`` and its parents up to (not including) ``out_dir`` while they are empty."""
    for parent in (folder, *folder.parents):
        if parent == out_dir or not parent.is_relative_to(out_dir):
            break
        try:
            parent.rmdir()
        except OSError:   # not empty (or not a folder): nothing above it is empty either
            break


class Staging:
    """Made files waiting in ``folder`` (beside the output directory) until the build has made all.

    :meth:`put` (in any process) keeps a file that differs from what the
    output holds; :meth:`commit` moves the kept files into place, each in one
    rename; :meth:`discard` forgets them, for a build that failed.

    When there is no output directory yet (a first build, a CI build), this
    process places each staged file (:meth:`place`) in a copy of the output's tree as
    its job's result arrives, while the workers go on, and :meth:`commit` moves
    that tree into place in one rename: a cold build of 10,000 posts spent 1.7 s
    renaming its files one by one after every core had finished. (The workers
    write into one folder: creating 10,000 files in as many new folders took them
    2.2 s longer.)
    """

    def __init__(self, out_dir: Path, folder: Path, stamps: dict[str, Stamp], records: dict[str, OutputRecord]):
        self.out_dir, self.folder, self.stamps, self.records = out_dir, folder, stamps, records
        self.top = out_dir.resolve()
        self.tree = None if os.path.lexists(out_dir) else folder / TREE   # the output to be, staged whole
        shutil.rmtree(folder, ignore_errors=True)     # a killed build's leftovers

    def put(self, rel: str, data: bytes) -> tuple[str | None, Stamp | None]:
        """``(the staged file's name, None)``, or ``(None, its stamp)`` if the output holds ``data``."""
        path = self.out_dir / rel
        if (rel in self.stamps or path.exists()) and is_output_path(rel) \
                and path.parent.resolve().is_relative_to(self.top):
            record = self.records.get(rel)
            stamp = _holds(path, data, self.stamps.get(rel), record.digest if record else None)
            if stamp is not None:
                return None, stamp
        name = secrets.token_hex(8)
        _create(self.folder / name, data)
        return name, None

    def spill(self, data: bytes) -> Path:
        """A file of the staging folder holding ``data``, until a job makes its output of it: a
        derived file (a search index's part), made in a worker, that this process would otherwise
        hold until the build ends (1.2 GiB of index at 100,000 posts)."""
        path = self.folder / SPILLED / secrets.token_hex(8)
        _create(path, data)
        return path

    def place(self, rel: str, name: str) -> str:
        """The staged file ``name`` moved to ``rel`` in the staged tree, if there is one: its new name."""
        if self.tree is None or not is_output_path(rel):
            return name
        try:
            _move_into(self.folder / name, self.tree / rel)
        except OSError:     # a file where the plan has a folder, or the other way round
            return name
        return f"{TREE}/{rel}"

    def commit(self, staged: dict[str, str]) -> dict[str, Stamp]:
        """Move the staged files (output path -> staged name) into place; their stamps."""
        if not self._commit_tree(staged):
            if staged:
                self.out_dir.mkdir(parents=True, exist_ok=True)
                mark_ours(self.out_dir)
            proved = set()      # folders proved to lie inside the output directory
            for rel, name in sorted(staged.items()):
                path = self.out_dir / rel
                if path.parent not in proved or not is_output_path(rel):
                    confined(self.out_dir, rel, unlink=True)
                    proved.add(path.parent)
                _move(self.out_dir, path, self.folder / name)
        self.discard()
        return {rel: file_stamp((self.out_dir / rel).stat()) for rel in sorted(staged)}

    def _commit_tree(self, staged: dict[str, str]) -> bool:
        """Whether the staged tree became the output directory: every file was staged in it, and
        there is still no output directory (nor a link of its name)."""
        if self.tree is None or not staged or os.path.lexists(self.out_dir) \
                or any(name != f"{TREE}/{rel}" for rel, name in staged.items()):
            return False
        try:
            mark_ours(self.tree)
            self.out_dir.parent.mkdir(parents=True, exist_ok=True)
            os.rename(self.tree, self.out_dir)
        except OSError:         # another file system: file by file
            return False
        return True

    def discard(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


class OutputFiles(Mapping):
    """The bytes of some files of the output directory, read when asked for."""

    def __init__(self, out_dir: Path, paths: Iterable[str]):
        self.out_dir, self.paths = out_dir, sorted(paths)

    def __getitem__(self, rel: str) -> bytes:
        if rel not in self.paths:
            raise KeyError(rel)
        return (self.out_dir / rel).read_bytes()

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)


def _create(path: Path, data: bytes) -> None:
    """A new file at ``path`` holding ``data``, its folder made if missing."""
    try:
        out = open(path, "xb")    # the mode any write gives; a failed build discards it
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        out = open(path, "xb")
    with out:
        out.write(data)


def _move_into(source: Path, path: Path) -> None:
    """``source`` renamed ``path``, which must not exist, its folders made if missing."""
    if os.path.lexists(path):
        raise FileExistsError(path)
    try:
        os.rename(source, path)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.rename(source, path)


def _holds(path: Path, data: bytes, last: Stamp | None, digest: str | None) -> Stamp | None:
    """The stamp of ``path`` if it already holds exactly ``data`` (``last``: its stamp when the
    last build made it, with bytes of ``digest``), else None."""
    try:
        if path.is_symlink():
            return None
        stamp = file_stamp(path.stat())
        if digest is not None and last == stamp:
            return stamp if digest == value_digest(data) else None
        return stamp if stamp[0] == len(data) and path.read_bytes() == data else None
    except OSError:
        return None


def _move(out_dir: Path, path: Path, staged: Path) -> None:
    """Replace ``path`` with the staged file: its folder made, a file or folder in the way cleared."""
    for attempt in range(2):
        try:
            os.replace(staged, path)
            return
        except OSError as exc:
            if exc.errno == errno.EXDEV:     # the output directory is on another file system
                write_atomic(path, staged.read_bytes())
                return
            if attempt:
                raise
        _clear_the_way(out_dir, path)
        path.parent.mkdir(parents=True, exist_ok=True)


def _clear_the_way(out_dir: Path, path: Path) -> None:
    """Remove the files where ``path``'s folders belong, and a folder where it belongs."""
    for parent in reversed(path.parents):
        if parent.is_relative_to(out_dir) and parent != out_dir and (parent.is_file() or parent.is_symlink()):
            parent.unlink()
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
