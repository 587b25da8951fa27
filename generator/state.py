"""What one build leaves for the next: file stamps, output records, dependency digests.

A build starts by comparing the site's files with the sizes and modification
times saved here and reads again only the files that moved, so an unchanged
site costs a walk of its folders. It checks the output directory the same
way: an output edited or deleted by hand is made again, a stray file removed.
The state is one data file (:mod:`generator.codec`), replaced atomically; an
unreadable, foreign or older one is ignored, which only makes the next build
a full one. Dependency keys are stored once, in a table the records index.
"""

from __future__ import annotations

import gc
import hashlib
import os
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Iterable

from generator import codec
from generator.cache import digest, write_atomic
from generator.errors import SiteError

# A file modified this close to the moment it was stamped may be modified again
# within the same timestamp tick: its stamp is not trusted and it is re-hashed.
RACY_NS = 2_000_000_000

Stamp = tuple[int, int]  # (size, mtime_ns)
Key = tuple             # a dependency key (generator.deps)


def file_stamp(stat: os.stat_result) -> Stamp:
    return stat.st_size, stat.st_mtime_ns


def scan(folder: Path, prefix: str = "", follow_links: bool = True, empty: list[str] | None = None,
         _within: frozenset[tuple[int, int]] = frozenset()) -> dict[str, Stamp]:
    """Every file under ``folder`` (``prefix`` + relative POSIX path) with its stamp.

    With ``follow_links=False`` a symbolic link is listed as a file, never entered.
    Folders holding nothing are added to ``empty``, if given.
    A folder that cannot be read, or a link that leads back into a folder it is
    in, is a :class:`SiteError` naming it: taking it for empty would remove its
    pages from the site.
    """
    found: dict[str, Stamp] = {}
    shown = prefix.rstrip("/") or folder
    try:
        entries = list(os.scandir(folder))
        if follow_links:   # the folders a link must not lead back into
            here = folder.stat()
            _within = _within | {(here.st_dev, here.st_ino)}
    except (FileNotFoundError, NotADirectoryError):
        return found
    except OSError as exc:
        raise SiteError(f"cannot read this folder: {exc.strerror or exc}", shown) from None
    if not entries and empty is not None and prefix:
        empty.append(prefix.rstrip("/"))
    for entry in entries:
        name = prefix + entry.name
        try:
            if entry.is_dir(follow_symlinks=follow_links):
                if entry.is_symlink():
                    target = entry.stat()
                    if (target.st_dev, target.st_ino) in _within:
                        raise SiteError("symbolic link loop: it leads back into a folder it is in", name)
                found.update(scan(Path(entry.path), name + "/", follow_links, empty, _within))
            elif entry.is_file() or not follow_links:
                found[name] = file_stamp(entry.stat(follow_symlinks=follow_links))
        except FileNotFoundError:  # removed while we looked, or a dangling link
            continue
        except OSError as exc:
            raise SiteError(f"cannot read: {exc.strerror or exc}", name) from None
    return found


@dataclass
class FileRecord:
    stamp: Stamp
    digest: str
    trusted: bool      # False if the file may change again without its stamp moving


class FileIndex:
    """The digests of the site's input files, re-read only when their stamps move.

    ``roots`` (files and folders relative to ``root``) are scanned on every
    build, and so are the ``extra`` files outside them that a page read (a
    source listing). The saved records change only through :meth:`snapshot`,
    once the build that used them has succeeded.
    """

    def __init__(self, root: Path, roots: tuple[str, ...], known: dict[str, FileRecord],
                 extra: set[str] = frozenset()):
        self.root = root
        self.roots = roots
        self.known = known
        self.extra = extra
        self.current: dict[str, FileRecord] = {}
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
            stamps = self._stat(self.roots)
        else:
            hinted = [name for name in hint if any(name == r or name.startswith(r + "/") for r in self.roots)]

            def reported(name: str) -> bool:
                return any(name == h or name.startswith(h + "/") for h in hinted)

            self.current = {name: record for name, record in self.known.items()
                            if record.trusted and name not in self.extra and not reported(name)}
            stamps = self._stat(hinted + [name for name in self.known
                                          if name not in self.current and not reported(name)])
        for name in self.extra:
            self.digest(name)
        for name, stamp in stamps.items():
            self._check(name, stamp)
        self.changed.update(self.known.keys() - self.current.keys())
        self.listing_changed = self.current.keys() != self.known.keys()
        return self.changed

    def _stat(self, names: Iterable[str]) -> dict[str, Stamp]:
        """The stamps of the files named, and of every file under the folders named."""
        stamps: dict[str, Stamp] = {}
        for name in names:
            path = self.root / name
            try:
                if path.is_dir():
                    stamps.update(scan(path, name + "/"))
                elif path.is_file():
                    stamps[name] = file_stamp(path.stat())
            except FileNotFoundError:  # gone while we looked
                continue
        return stamps

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

    def snapshot(self) -> dict[str, FileRecord]:
        return dict(self.current)

    def tree_digest(self, folder: str) -> str:
        """One digest of every file under ``folder`` (names included), from the last scan."""
        inside = sorted(name for name in self.current if name == folder or name.startswith(folder + "/"))
        return digest(*(part for name in inside for part in (name, self.current[name].digest)))

    def _check(self, name: str, stamp: Stamp) -> FileRecord | None:
        known = self.known.get(name)
        if known is not None and known.trusted and known.stamp == stamp:
            record = known
        else:
            try:
                data = (self.root / name).read_bytes()
            except FileNotFoundError:   # gone since it was listed
                return None
            except OSError as exc:      # there, but unreadable: not the same as gone
                raise SiteError(f"cannot read: {exc.strerror or exc}", name) from None
            record = FileRecord(stamp, hashlib.sha256(data).hexdigest(),
                                trusted=time.time_ns() - stamp[1] > RACY_NS)
            if known is None or known.digest != record.digest:
                self.changed.add(name)
        self.current[name] = record
        return record


@dataclass
class OutputRecord:
    """One file in the output directory as the last build left it."""

    inputs: Any                 # what the plan passed in (compared with ==)
    reads: frozenset            # dependency keys its render read
    digest: str                 # of the bytes written
    stamp: Stamp                # of the file after writing


@dataclass
class BundleRecord:
    """A bundle (:class:`generator.outputs.Bundle`) as it last ran."""

    inputs: Any
    reads: frozenset
    files: dict[str, tuple[str, bool]]  # path -> (origin, listed in the sitemap)
    report: Any                         # what it said it did


@dataclass
class DerivedRecord:
    """One group of a derived planner's files (:class:`generator.outputs.Derived`) as last made."""

    inputs: str                         # the digest of the paths and bytes it was made from; OUT_OF_DATE:
                                        # its pages changed since, and a build left it to the next one
    files: dict[str, str]               # path -> origin


OUT_OF_DATE = ""


@dataclass
class BuildState:
    world: str = ""                                            # config, options, code
    files: dict[str, FileRecord] = field(default_factory=dict)
    outputs: dict[str, OutputRecord] = field(default_factory=dict)
    documents: dict[str, str] = field(default_factory=dict)    # source -> parse key
    digests: dict[tuple, Any] = field(default_factory=dict)    # dependency key -> its value, compared
    bundles: dict[str, BundleRecord] = field(default_factory=dict)
    external: tuple = ()                # (planner, what it depends on outside the files): git refs
    order: tuple = ()                   # the published posts, in order (which sets their neighbours)
    horizon: datetime | None = None     # when the next future-dated post gets published
    floor: datetime | None = None       # the newest published post's date: a clock set back
                                        # before it holds that post back again
    planned: dict[str, int] = field(default_factory=dict)   # planner name -> how many files it planned
    derived: dict[str, dict[str, DerivedRecord]] = field(default_factory=dict)  # planner -> group -> record

    def derived_out_of_date(self) -> bool:
        """Whether a build left files derived from pages (a search index) behind the pages."""
        return any(r.inputs == OUT_OF_DATE for groups in self.derived.values() for r in groups.values())

    @classmethod
    def load(cls, path: Path) -> BuildState:
        """The state saved at ``path``, or an empty one if there is none that this sitegen wrote."""
        # Tens of thousands of small objects, none in a cycle: the cyclic collector,
        # set off again and again while they are made, would only walk them.
        enabled = gc.isenabled()
        gc.disable()
        try:
            return cls.from_data(codec.loads("state", path.read_bytes()))
        except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):  # garbled, wrong shape
            return cls()
        finally:
            if enabled:
                gc.enable()

    def save(self, path: Path) -> None:
        write_atomic(path, codec.dumps("state", self.to_data()))

    def to_data(self) -> dict[str, Any]:
        """Plain values, each dependency key and each plan input stored once (as pickle's memo did)."""
        inputs = list({repr(r.inputs): r.inputs for r in self.outputs.values()}.values())
        inputs_index = {repr(value): i for i, value in enumerate(inputs)}
        keys = list(self.digests)
        index = {key: i for i, key in enumerate(keys)}
        for reads in [r.reads for r in self.outputs.values()] + [b.reads for b in self.bundles.values()]:
            for key in reads:
                if key not in index:
                    index[key] = len(keys)
                    keys.append(key)
        return {
            "world": self.world,
            "files": {name: [*r.stamp, r.digest, r.trusted] for name, r in self.files.items()},
            "keys": [list(key) for key in keys],     # the outer tuple as an array: quick to read
            "values": [self.digests.get(key) for key in keys],
            "known": len(self.digests),
            "inputs": inputs,
            "outputs": {path: [inputs_index[repr(r.inputs)], [index[k] for k in r.reads], r.digest, *r.stamp]
                        for path, r in self.outputs.items()},
            "documents": self.documents,
            "bundles": {name: [b.inputs, [index[k] for k in b.reads],
                               {path: list(how) for path, how in b.files.items()}, b.report]
                        for name, b in self.bundles.items()},
            "external": self.external, "order": list(self.order),
            "horizon": self.horizon, "floor": self.floor, "planned": self.planned,
            "derived": {name: {group: [r.inputs, r.files] for group, r in groups.items()}
                        for name, groups in self.derived.items()},
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> BuildState:
        keys = list(map(tuple, data["keys"]))
        inputs = data["inputs"]
        known = data["known"]
        state = cls(
            world=str(data["world"]),
            files={name: FileRecord((size, mtime), digest, bool(trusted))
                   for name, (size, mtime, digest, trusted) in data["files"].items()},
            outputs={path: OutputRecord(inputs[i], frozenset(map(keys.__getitem__, reads)), digest, (size, mtime))
                     for path, (i, reads, digest, size, mtime) in data["outputs"].items()},
            documents=dict(data["documents"]),
            digests=dict(zip(keys[:known], data["values"][:known])),
            bundles={name: BundleRecord(inputs, frozenset(keys[i] for i in reads),
                                        {path: (origin, listed) for path, (origin, listed) in files.items()},
                                        report)
                     for name, (inputs, reads, files, report) in data["bundles"].items()},
            external=data["external"], order=tuple(data["order"]),
            horizon=data["horizon"], floor=data["floor"], planned=dict(data["planned"]),
            derived={name: {group: DerivedRecord(inputs, dict(files)) for group, (inputs, files) in groups.items()}
                     for name, groups in data["derived"].items()})
        if not all(isinstance(v, str) for v in state.documents.values()) \
                or not all(isinstance(path, str) and isinstance(r.digest, str) for path, r in state.outputs.items()):
            raise TypeError("state records of the wrong types")
        return state

