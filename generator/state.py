"""What one build leaves for the next: file stamps, output records, dependency digests.

A build starts by comparing the site's files with the sizes and modification
times saved here and reads again only the files that moved, so an unchanged
site costs a walk of its folders. It checks the output directory the same
way: an output edited or deleted by hand is made again, a stray file removed.
The state is data files (:mod:`generator.codec`): a small one with the
stamps, all that a build with nothing to do reads (as columns it compares
with its scans whole: :class:`~generator.stamps.FileTable`, :class:`~generator.stamps.Stamps`), replaced atomically by
each build; and the records of what each output read, read only by a build
with work to do. Those are a file written whole now and then, and a journal
of what each build since changed in them, appended to: an edit build writes
what it changed, not the records of every output. An unreadable, foreign or
older file is ignored, which only makes the next build a full one.
Dependency keys are stored once, in a table the records index.
"""

from __future__ import annotations

import array
import bisect
import itertools
import mmap
import operator
import secrets
import sys
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

from generator import codec, gcpolicy
from generator.cache import local_key, write_atomic
from generator.deps import KeyIndex
from generator.site import summaries_of_columns, summary_columns
from generator.stamps import FileRecord, FileTable, Stamp, Stamps

# The journal is folded into the records file when it grows past this share of that file,
# and a build that changed more than this share of the records writes them whole.
JOURNAL_SHARE = 0.25
# ... or when it holds this many entries: every build reads each, and a post's edit is 1.3 KB, so
# the share alone would let thousands pile up. At 10,000 posts an entry costs 0.04 ms to read and
# writing the records whole 1.5-2 s: 128 keeps the reading under 6 ms and the writes to one build
# in 128 (the cost of both, per build, is lowest near 200 and nearly flat around it).
JOURNAL_ENTRIES = 128

Key = tuple             # a dependency key (generator.deps)


class KeyTable(Sequence):
    """The dependency keys of a records file, by their index there (which the records and the
    journal's entries use): each document's keys together (its ``span``), then the others.

    An edit build asks the index of a few keys (those that changed), so none is indexed ahead:
    a document's are found in its span, the others' index is made on first use (a few thousand);
    every key's once many were asked of. Nor is a document's key made before it is asked for:
    the documents' keys are 1.6 million at 100,000 posts, and an edit asks for some thousands.
    """

    _others: dict[tuple, int] | None = None
    _index: dict[tuple, int] | None = None  # every key's, once asked of many (a template edit's build)
    _keys: list[tuple] | None = None        # every key, once the table was gone through whole
    _rows: dict[str, int] | None = None     # a document's source -> its place among the documents
    _asked = 0

    def __init__(self, documents: Mapping[str, Sequence[str]] = {}, others: Iterable[tuple] = ()):
        """The keys ``("doc", source, field)`` of each source's ``documents`` fields, then ``others``."""
        self.named = documents          # source -> its fields, in its keys' order
        self._named = documents if type(documents) is dict else {}    # ... those named so far
        self.sources = list(documents)
        sizes = documents.sizes() if isinstance(documents, FieldNames) else map(len, documents.values())
        self.starts = array.array("q", itertools.accumulate(sizes, initial=0))
        self.documents = self.starts.pop()     # where the other keys begin
        self.others = list(others)

    def span(self, source: str) -> tuple[int, int] | None:
        """Where the keys of document ``source`` begin and end, if the table has it."""
        if self._rows is None:
            self._rows = dict(zip(self.sources, range(len(self.sources))))
        d = self._rows.get(source)
        if d is None:
            return None
        return self.starts[d], self.starts[d + 1] if d + 1 < len(self.starts) else self.documents

    @classmethod
    def of(cls, keys: Iterable[tuple]) -> KeyTable:
        """A table of ``keys``, grouped."""
        documents: dict[str, list[str]] = {}
        others = []
        for key in keys:
            if key[0] == "doc":
                documents.setdefault(key[1], []).append(key[2])
            else:
                others.append(key)
        return cls(documents, others)

    def __len__(self) -> int:
        return self.documents + len(self.others)

    def __getitem__(self, i: int | slice) -> Any:
        if self._keys is not None:
            return self._keys[i]
        if isinstance(i, slice):
            at = range(*i.indices(len(self)))
            if at.step == 1 and at.start >= self.documents:     # the others' (ungrouped keys)
                return self.others[at.start - self.documents:at.stop - self.documents]
            return [self[j] for j in at] if len(at) < 1024 else self.whole()[i]
        if i < 0:
            i += len(self)
        if i >= self.documents:
            return self.others[i - self.documents]
        if i < 0:
            raise IndexError("key index out of range")
        d = bisect.bisect_right(self.starts, i) - 1     # a document without keys starts where the next does
        source = self.sources[d]
        names = self._named.get(source) or self.names_of(source)      # no call where named before
        return ("doc", source, names[i - self.starts[d]])

    def names_of(self, source: str) -> list[str]:
        """The fields of document ``source`` that have keys, in their order (named once: a journal
        entry may ask of one document's keys thousands of times)."""
        names = self._named.get(source)
        if names is None:
            names = self._named[source] = self.named[source]
        return names

    def __iter__(self) -> Iterator[tuple]:
        if self._keys is not None:
            return iter(self._keys)
        return itertools.chain((("doc", source, name) for source, names in self.named.items() for name in names),
                               self.others)

    def whole(self) -> list[tuple]:
        """Every key, made once (for a build that goes through them all)."""
        if self._keys is None:
            self._keys = list(iter(self))
        return self._keys

    def indexed(self) -> dict[tuple, int]:
        """Every key's index, made once (for a build that asks of many)."""
        if self._index is None:
            self._index = {key: i for i, key in enumerate(self)}
        return self._index

    def position(self, key: tuple) -> int | None:
        """The index of ``key``, or None if the table has not got it."""
        if self._index is not None:
            return self._index.get(key)
        self._asked += 1
        if self._asked > max(64, len(self) // 8):    # asked of about as many as an index costs to make
            return self.indexed().get(key)
        if key[0] == "doc":
            span = self.span(key[1])
            if span is None or len(key) != 3:
                return None
            try:
                return span[0] + self.names_of(key[1]).index(key[2])
            except ValueError:
                return None
        if self._others is None:
            self._others = {key: i for i, key in enumerate(self.others, self.documents)}
        return self._others.get(key)

    def ids_of(self, keys: Iterable[tuple]) -> set[int]:
        """The indices of those of ``keys`` the table has."""
        return {i for i in map(self.position, keys) if i is not None}


class FieldNames(Mapping):
    """Source -> the names of its document's fields that outputs read, as a records file holds
    them (numbers into ``fields``): named when asked (1.6 million at 100,000 posts; an edit asks
    of some thousands)."""

    def __init__(self, fields: list[str], sources: list[str], numbers: list[list[int]]):
        self.fields, self.numbers = fields, dict(zip(sources, numbers, strict=True))

    def __getitem__(self, source: str) -> list[str]:
        return list(map(self.fields.__getitem__, self.numbers[source]))

    def __iter__(self) -> Iterator[str]:
        return iter(self.numbers)

    def __len__(self) -> int:
        return len(self.numbers)

    def sizes(self) -> Iterator[int]:
        """How many fields each source has, in order."""
        return map(len, self.numbers.values())


_NONE = object()        # not there (None, in a records file, says a key has no digest)


class Digests(Mapping):
    """Dependency key -> the digest of what it named: a records file's (a :class:`DigestRun` in its
    :class:`KeyTable`'s order, None where it has none), under those set since (``own``).

    Not a dict: a build looks up the digests of the few keys an edit may have moved and changes
    fewer, and hashing every key into a dict (127,000 at 10,000 posts) cost as much as the rest
    of reading the records.
    """

    __slots__ = ("own", "table", "_values", "_known")

    def __init__(self, own: Mapping[tuple, Any] | None = None, table: KeyTable | None = None,
                 values: Sequence | None = None):
        self.own = dict(own or {})
        self.table = KeyTable() if table is None else table
        self._values = [] if values is None else values
        if len(self._values) != len(self.table):
            raise ValueError("not a digest for each key of the table")
        self._known = len(self._values) - self._values.count(None)

    def _recorded(self, key: tuple) -> Any:
        if not self._values:            # none read from a file (a full build's)
            return _NONE
        i = self.table.position(key)
        return _NONE if i is None or self._values[i] is None else self._values[i]

    def __getitem__(self, key: tuple) -> Any:
        value = self.own.get(key, _NONE)
        if value is _NONE:
            value = self._recorded(key)
            if value is _NONE:
                raise KeyError(key)
        return value

    def __contains__(self, key: object) -> bool:
        return key in self.own or self._recorded(key) is not _NONE

    def __iter__(self) -> Iterator[tuple]:
        return (key for key, _ in self.items())

    def items(self) -> Iterator[tuple[tuple, Any]]:     # as a dict's, but once through
        own = self.own
        yield from ((key, value) for key, value in zip(self.table, self._values)
                    if value is not None and key not in own)
        yield from own.items()

    def __len__(self) -> int:
        return self._known + sum(self._recorded(key) is _NONE for key in self.own)

    def __setitem__(self, key: tuple, value: Any) -> None:
        self.own[key] = value

    def update(self, pairs: Mapping[tuple, Any] | Iterable[tuple[tuple, Any]]) -> None:
        self.own.update(pairs)

    def copy(self) -> Digests:
        """A copy whose changes are its own (the file's digests are never changed)."""
        copy = Digests.__new__(Digests)
        copy.own, copy.table, copy._values, copy._known = dict(self.own), self.table, self._values, self._known
        return copy

    def recorded_of(self, source: str) -> list[tuple]:
        """The keys of the document ``source`` that the file has digests of."""
        start, end = self.table.span(source) or (0, 0)
        return [key for key, value in zip(self.table[start:end], self._values[start:end]) if value is not None]

    def recorded_documents(self) -> Iterator[tuple]:
        """The keys of documents that the file has digests of."""
        end = self.table.documents
        return (key for key, value in zip(self.table[:end], self._values[:end]) if value is not None)

    def ungrouped(self) -> list[tuple]:
        """The keys with a digest but those of documents the file has: the file's others, and all set since."""
        start = self.table.documents
        return [*(key for key, value in zip(self.table[start:], self._values[start:]) if value is not None),
                *self.own]


class OutputRecord:
    """One file in the output directory as the last build made it (its stamp: BuildState.stamps):
    what the plan passed in (compared with ==), the dependency keys its render read, and the
    digest of the bytes written.

    Read from the records file, the keys stay that file's (:class:`ReadsFile`, where it is
    output ``number``) until :attr:`reads` is asked for: an edit build asks :meth:`read_any`
    of every output, which the file answers for all of them at once, and wants the keys of the
    few it makes again. Read from the journal, they are indices into the file's ``table``.
    """

    __slots__ = ("inputs", "digest", "_reads", "_coded", "_table", "_file", "_number")

    def __init__(self, inputs: Any, reads: frozenset | None, digest: str,
                 coded: Collection[int] | None = None, table: KeyTable | None = None,
                 file: ReadsFile | None = None, number: int = -1):
        self.inputs, self.digest = inputs, digest
        self._reads, self._coded, self._table = reads, coded, table
        self._file, self._number = file, number

    @property
    def reads(self) -> frozenset:
        if self._reads is None:
            if self._file is not None:
                self._reads = self._file.reads(self._number)
            else:
                self._reads = frozenset(map(self._table.__getitem__, self._coded))
        return self._reads

    def read_any(self, keys: Collection[Key], found: dict[int, set[int]]) -> bool:
        """Whether it read any of ``keys``; ``found`` keeps, for the next, what was found of them.

        An output of the records file looks itself up among the outputs the file says read one
        of ``keys`` (found once per file, :meth:`ReadsFile.readers`); one read from the journal
        looks up its few indices among those of ``keys`` (found once per table); a process that
        asks again and again (the preview) made the latter a set first (:meth:`coded`).
        """
        if self._reads is not None:
            return not self._reads.isdisjoint(keys)
        if self._file is not None:
            readers = found.get(id(self._file))
            if readers is None:
                readers = found[id(self._file)] = self._file.readers(keys)
            return self._number in readers
        ids = found.get(id(self._table))
        if ids is None:
            ids = found[id(self._table)] = self._table.ids_of(keys)
        return not ids.isdisjoint(self._coded)

    def coded(self) -> frozenset[int] | None:
        """The indices of the keys read from the journal, as a set from now on (None for any other
        record): for a process that will ask :meth:`read_any` again and again."""
        if self._coded is not None and type(self._coded) is not frozenset:
            self._coded = frozenset(self._coded)
        return self._coded

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, OutputRecord) and (self.inputs, self.digest) == (other.inputs, other.digest)
                and self.reads == other.reads)

    def __repr__(self) -> str:
        return f"OutputRecord({self.inputs!r}, {self.digest!r}, {len(self.reads)} reads)"


_INDEX = next(code for code in "IL" if array.array(code).itemsize == 4)


def packed(numbers: Iterable[int]) -> bytes:
    """Numbers (key indices, offsets) as little-endian 32-bit bytes, as a records file holds them."""
    run = array.array(_INDEX, numbers)
    if sys.byteorder == "big":
        run.byteswap()
    return run.tobytes()


def unpacked(data: bytes) -> array.array:
    """The numbers :func:`packed` gave ``data``; a ``TypeError`` for bytes it cannot have given."""
    if type(data) is not bytes or len(data) % 4:
        raise TypeError("packed numbers of the wrong shape")
    run = array.array(_INDEX, data)
    if sys.byteorder == "big":
        run.byteswap()
    return run


class ReadsFile:
    """The keys each output of a records file read, as the file holds them: the indices (into
    ``table``) of every output's keys in one run of packed numbers, and where each output's
    part begins (``starts``, one more than the outputs: the last is the run's end).

    Held so, an edit build does not make half a million numbers (at 10,000 posts) to ask each
    output whether it read one of a few keys: :meth:`readers` finds each of those keys in the
    run, once for every output.
    """

    def __init__(self, run: bytes, starts: bytes, table: KeyTable):
        self.run, self.starts, self.table = run, unpacked(starts), table
        starts = self.starts
        if type(run) is not bytes or len(run) % 4 or not starts or starts[0] != 0 or starts[-1] * 4 != len(run) \
                or any(a > b for a, b in zip(starts, starts[1:])):
            raise TypeError("the outputs' reads of the wrong shape")

    def __len__(self) -> int:
        return len(self.starts) - 1

    def ids(self, number: int) -> array.array:
        """The indices of the keys output ``number`` read."""
        return unpacked(self.run[4 * self.starts[number]:4 * self.starts[number + 1]])

    def reads(self, number: int) -> frozenset:
        return frozenset(map(self.table.__getitem__, self.ids(number)))

    def readers(self, keys: Iterable[Key]) -> set[int]:
        """The numbers of the outputs that read any of ``keys``."""
        found: set[int] = set()
        run, starts = self.run, self.starts
        for i in self.table.ids_of(keys):
            pattern = i.to_bytes(4, "little")
            at = run.find(pattern)
            while at >= 0:
                if at % 4:              # the end of one number and the start of the next
                    at = run.find(pattern, at + 1)
                    continue
                found.add(bisect.bisect_right(starts, at // 4) - 1)
                at = run.find(pattern, at + 4)
        return found


class DigestRun(Sequence):
    """A records file's digests in its table's order: each SHA-256 digest (64 hex digits, five
    in six of them) as its 32 bytes in one run, made text only when looked up; any other value
    (None, a tuple of posts, a number, a tagged text) by its index in ``others``.

    Read so, an edit build makes text of the few thousand digests it compares, not of every one
    (107,784 of 127,357 at 10,000 posts), and the file holds half the bytes for them.
    """

    __slots__ = ("run", "others")

    def __init__(self, run: bytes, others: dict[int, Any]):
        if type(run) is not bytes or len(run) % 32 or type(others) is not dict \
                or not all(type(i) is int and 0 <= i < len(run) // 32 for i in others):
            raise TypeError("digests of the wrong shape")
        self.run, self.others = run, others

    @classmethod
    def read(cls, run: bytes, at: bytes, values: list) -> DigestRun:
        """The run a records file holds: ``values`` at the indices packed in ``at`` (checked at
        once, not one by one: 252,000 of them at 100,000 posts)."""
        indices = unpacked(at)
        if type(run) is not bytes or len(run) % 32 or len(indices) != len(values) \
                or (indices and max(indices) >= len(run) // 32):
            raise TypeError("digests of the wrong shape")
        made = cls.__new__(cls)
        made.run, made.others = run, dict(zip(indices, values))
        return made

    @classmethod
    def of(cls, values: Iterable[Any]) -> DigestRun:
        run, others, empty = bytearray(), {}, bytes(32)
        for i, value in enumerate(values):
            raw = _digest_bytes(value)
            if raw is None:
                others[i] = value
            run += empty if raw is None else raw
        return cls(bytes(run), others)

    def __len__(self) -> int:
        return len(self.run) // 32

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if not -len(self) <= i < len(self):
            raise IndexError("digest index out of range")
        i %= len(self)
        value = self.others.get(i, _NONE)
        return self.run[32 * i:32 * i + 32].hex() if value is _NONE else value

    def __iter__(self) -> Iterator[Any]:
        text, others = self.run.hex(), self.others
        return (text[64 * i:64 * i + 64] if (value := others.get(i, _NONE)) is _NONE else value
                for i in range(len(self)))

    def count(self, value: Any) -> int:
        if value is None:           # what Digests asks: the keys without a digest
            return sum(v is None for v in self.others.values())
        return super().count(value)


def _digest_bytes(value: Any) -> bytes | None:
    """``value``'s 32 bytes if it is a SHA-256 digest as ``hexdigest()`` writes it, else None."""
    if type(value) is not str or len(value) != 64:
        return None
    try:
        raw = bytes.fromhex(value)
    except ValueError:
        return None
    return raw if raw.hex() == value else None


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
    settings: tuple[str, ...] = ()      # the settings it read, as the recording view names them


OUT_OF_DATE = ""


@dataclass
class Records:
    """What each output and bundle read, by what digests: wanted only by a build with work to do."""

    outputs: dict[str, OutputRecord] = field(default_factory=dict)
    documents: dict[str, str] = field(default_factory=dict)    # source -> Parsed.placed_key
    digests: Digests = field(default_factory=Digests)          # dependency key -> its value, compared
    bundles: dict[str, BundleRecord] = field(default_factory=dict)
    order: tuple = ()                   # the published posts, in order (which sets their neighbours)
    summaries: dict[str, tuple[str, dict]] = field(default_factory=dict)   # source -> (parse key,
                                        # its document but the HTML: generator.site.summary)
    derived: dict[str, dict[str, DerivedRecord]] = field(default_factory=dict)  # planner -> group -> record
    unsaved: set | None = field(default=None, repr=False, compare=False)   # the keys whose digests may
                                        # differ from the records' files (None: any of them)
    entries: int = field(default=0, repr=False, compare=False)   # the journal's entries they hold

    @property
    def table(self) -> KeyTable:
        """The records file's keys, by which its outputs and the journal's entries name them."""
        return self.digests.table

    # --- questions the engine asks (it leaves the records' layout to them) -----

    def outdated(self, paths: Iterable[str], jobs: Mapping[str, Any], moved: Collection[Key]) -> set[str]:
        """The ``paths`` whose outputs are not recorded, were made from other inputs than their
        ``jobs``' now (``jobs[path].inputs``), or read any of the ``moved`` keys. The inputs are
        compared in C (every output of the site: 267,000 at 100,000 posts)."""
        paths = list(paths)
        records = list(map(self.outputs.get, paths))
        found = set(itertools.compress(paths, map(operator.not_, records)))      # not recorded
        if found:
            paths = list(itertools.compress(paths, records))
            records = list(filter(None, records))
        inputs = operator.attrgetter("inputs")
        found.update(itertools.compress(paths, map(operator.ne, map(inputs, records),
                                                   map(inputs, map(jobs.__getitem__, paths)))))
        if moved:
            asked: dict = {}        # what read_any found of ``moved``, file by file
            found.update(path for path, record in zip(paths, records) if record.read_any(moved, asked))
        return found

    def reparsed(self, parse_keys: Mapping[str, str]) -> set[str]:
        """The sources (source -> its placed key now) parsed from something else or placed
        elsewhere than last time, new or gone."""
        old = self.documents
        return {source for source, key in parse_keys.items() if old.get(source) != key} | \
            (old.keys() - parse_keys.keys())

    def changed(self, keys: Iterable[Key], resolve: Callable[[Key], str]) -> dict[Key, str]:
        """Of the recorded ``keys``, those whose digest (as ``resolve`` finds it now) differs from
        the recorded one: key -> its digest now."""
        digests, changed = self.digests, {}
        for key in keys:
            now = resolve(key)
            if now != digests[key]:
                changed[key] = now
        return changed

    def key_index(self) -> KeyIndex:
        """The recorded keys, indexed by what may change them (a document's under its source)."""
        return KeyIndex(self.digests.ungrouped(), grouped=self.digests)

    def recorded_keys(self) -> Iterator[Key]:
        """Each dependency key the records hold a digest of, once."""
        return iter(self.digests)

    def ready_to_ask(self) -> None:
        """Decode now what the questions about outputs would decode on first use (each output's
        read keys, as a set): for a process that will ask again and again (the preview)."""
        for record in self.outputs.values():
            record.coded()

    def derived_files(self) -> set[str]:
        """The files the derived planners made (a search index)."""
        return {path for groups in self.derived.values() for record in groups.values() for path in record.files}

    def to_data(self) -> dict[str, Any]:
        """Plain values, each dependency key and each plan input stored once (as pickle's memo did);
        the long tables as :class:`codec.Items`, packed as they are made (:func:`codec.dump`)."""
        inputs = list({repr(r.inputs): r.inputs for r in self.outputs.values()}.values())
        inputs_index = {repr(value): i for i, value in enumerate(inputs)}
        keys = dict.fromkeys(self.digests)
        for reads in [r.reads for r in self.outputs.values()] + [b.reads for b in self.bundles.values()]:
            keys.update(dict.fromkeys(reads))
        table = KeyTable.of(keys)
        values = DigestRun.of(self.digests.get(key) for key in table)
        self.digests = Digests(table=table, values=values)
        index = table.indexed()
        reads = [[index[k] for k in r.reads] for r in self.outputs.values()]
        fields = list(dict.fromkeys(name for names in table.named.values() for name in names))
        field_index = {name: i for i, name in enumerate(fields)}
        return {
            # Each document's keys as the numbers of their fields, by source; any other key as an array.
            "sources": table.sources,
            "fields": fields,
            "documents_keys": codec.Items(len(table.named), (list(map(field_index.__getitem__, names))
                                                             for names in table.named.values())),
            "other_keys": codec.tuple_column(table.others),
            "digests": values.run,
            # The digests that are not SHA-256 ones (tuples of posts, mostly) and the plan inputs (tuples
            # of text, mostly) with their tuples as arrays: read back with no extension hook for each.
            "other_at": packed(values.others),
            "other_values": codec.tuple_column(values.others.values()),
            "inputs": codec.tuple_column(inputs),
            "outputs": codec.Items(len(self.outputs), ((path, [inputs_index[repr(r.inputs)], r.digest])
                                                       for path, r in self.outputs.items()), pairs=True),
            # Every output's keys in one run (ReadsFile), in the outputs' order, and where each begins.
            "reads": packed(itertools.chain.from_iterable(reads)),
            "reads_starts": packed(itertools.accumulate(map(len, reads), initial=0)),
            "documents": self.documents,
            "bundles": _bundles_data(self.bundles, index.__getitem__),
            "order": list(self.order),
            # Each document's summary field by field (generator.site.summary_columns), by source.
            "summaries": {"sources": list(self.summaries), "keys": [key for key, _ in self.summaries.values()],
                          "columns": summary_columns(fields for _, fields in self.summaries.values())},
            "derived": _derived_data(self.derived),
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Records:
        fields = data["fields"]
        numbered = list(filter(None, data["documents_keys"]))     # checked whole in C: named when asked
        if not all(isinstance(name, str) for name in fields) or numbered and (
                max(map(max, numbered)) >= len(fields) or min(map(min, numbered)) < 0):
            raise TypeError("documents' keys out of place")
        keys = KeyTable(FieldNames(fields, data["sources"], data["documents_keys"]),
                        codec.tuples_of_column(data["other_keys"]))
        inputs = codec.tuples_of_column(data["inputs"])
        reads = ReadsFile(data["reads"], data["reads_starts"], keys)
        if len(reads) != len(data["outputs"]):
            raise TypeError("not the reads of every output")
        records = cls(
            outputs={path: OutputRecord(inputs[i], None, digest, None, None, reads, n)
                     for n, (path, (i, digest)) in enumerate(data["outputs"].items())},
            documents=dict(data["documents"]),
            digests=Digests(table=keys, values=DigestRun.read(data["digests"], data["other_at"], codec.tuples_of_column(data["other_values"]))),
            bundles=_bundles_from(data["bundles"], keys.__getitem__),
            order=tuple(data["order"]),
            summaries=dict(zip(data["summaries"]["sources"], zip(
                data["summaries"]["keys"], summaries_of_columns(data["summaries"]["columns"]), strict=True),
                strict=True)),
            derived=_derived_from(data["derived"]),
            unsaved=set())
        records._check()
        return records

    def _check(self, documents: Mapping[str, Any] | None = None, summaries: Mapping[str, Any] | None = None,
               outputs: Mapping[str, OutputRecord] | None = None) -> None:
        """Refuse records of the wrong types (a file another sitegen wrote): all of them, or the
        entries given (what a journal entry changed: each entry checked once, not every entry
        again with each of the journal's)."""
        documents = self.documents if documents is None else documents
        summaries = self.summaries if summaries is None else summaries
        outputs = self.outputs if outputs is None else outputs
        if not all(isinstance(v, str) for v in documents.values()) \
                or not all(isinstance(key, str) and isinstance(fields, dict) for key, fields in summaries.values()) \
                or not all(isinstance(path, str) and isinstance(r.digest, str) for path, r in outputs.items()):
            raise TypeError("state records of the wrong types")

    def copy(self) -> Records:
        """A copy whose tables are its own (the records in them are never changed, only replaced)."""
        return Records(dict(self.outputs), dict(self.documents), self.digests.copy(), dict(self.bundles),
                       self.order, dict(self.summaries), dict(self.derived),
                       None if self.unsaved is None else set(self.unsaved), self.entries)

    def changes(self, old: Records) -> dict[str, Any] | None:
        """What differs from ``old``, as plain values for :meth:`apply`; None if that is more than
        :data:`JOURNAL_SHARE` of the records (written whole, it is smaller and quicker to read)."""
        outputs = differing(self.outputs, old.outputs, operator.is_not)    # records are replaced, not changed
        looked_at = self.digests.keys() if self.unsaved is None else self.unsaved & self.digests.keys()
        digests = [(key, self.digests[key]) for key in looked_at
                   if key not in old.digests or old.digests[key] != self.digests[key]]
        summaries = differing(self.summaries, old.summaries, operator.ne)
        if any(len(changed) > JOURNAL_SHARE * len(table) for changed, table in (
                (outputs, self.outputs), (digests, self.digests), (summaries, self.summaries))):
            return None
        def coded(key: tuple) -> int | list:    # a key of the records file by its index there
            i = old.table.position(key)
            return list(key) if i is None else i

        return {
            "outputs": {path: [r.inputs, [coded(key) for key in r.reads], r.digest] for path, r in outputs.items()},
            "outputs_gone": list(itertools.filterfalse(self.outputs.__contains__, old.outputs)),
            "digests": [[coded(key), value] for key, value in digests],
            "documents": differing(self.documents, old.documents, operator.ne),
            "documents_gone": list(itertools.filterfalse(self.documents.__contains__, old.documents)),
            "summaries": {source: list(entry) for source, entry in summaries.items()},
            "summaries_gone": list(itertools.filterfalse(self.summaries.__contains__, old.summaries)),
            **({} if self.order == old.order else {"order": list(self.order)}),
            **({} if self.bundles == old.bundles else {"bundles": _bundles_data(self.bundles, coded)}),
            **({} if self.derived == old.derived else _derived_changes(self.derived, old.derived)),
        }

    def apply(self, changes: dict[str, Any]) -> None:
        """Make the changes :meth:`changes` found (read back from the journal)."""
        keys: dict[tuple, tuple] = {}    # one object per key, as the records file gives

        def key_of(coded: int | list) -> tuple:
            if isinstance(coded, int):
                return self.table[coded]
            key = tuple(coded)
            return keys.setdefault(key, key)

        for path in changes["outputs_gone"]:
            del self.outputs[path]
        # Reads that are all keys of the records file stay that file's indices, as its own outputs' do.
        outputs = {path: OutputRecord(inputs, None, digest_, reads, self.table) if all(type(k) is int for k in reads)
                   else OutputRecord(inputs, frozenset(map(key_of, reads)), digest_)
                   for path, (inputs, reads, digest_) in changes["outputs"].items()}
        self.outputs.update(outputs)
        self.digests.update((key_of(key), value) for key, value in changes["digests"])
        for source in changes["documents_gone"]:
            del self.documents[source]
        self.documents.update(changes["documents"])
        for source in changes["summaries_gone"]:
            del self.summaries[source]
        summaries = {source: (key, fields) for source, (key, fields) in changes["summaries"].items()}
        self.summaries.update(summaries)
        if "order" in changes:
            self.order = tuple(changes["order"])
        if "bundles" in changes:
            self.bundles = _bundles_from(changes["bundles"], key_of)
        if "derived" in changes:      # the groups that changed, of the planners there are
            derived = {name: dict(self.derived.get(name, {})) for name in changes["derived_names"]}
            for name, group in changes["derived_gone"]:
                derived[name].pop(group, None)
            for name, groups in _derived_from(changes["derived"]).items():
                derived[name].update(groups)
            self.derived = derived
        self._check(changes["documents"], summaries, outputs)

    def drop_unread(self) -> None:
        """Forget the digests of keys no output or bundle reads any more."""
        live = set().union(*(r.reads for r in self.outputs.values()), *(b.reads for b in self.bundles.values()))
        self.digests = Digests({key: value for key, value in self.digests.items() if key in live})


def differing(new: Mapping[str, Any], old: Mapping[str, Any], differ: Callable[[Any, Any], bool]) -> dict[str, Any]:
    """The entries of ``new`` whose value ``differ``s from ``old``'s (None where it has none), in
    ``new``'s order: gone through in C (the outputs of a site, 267,000 at 100,000 posts)."""
    return dict(itertools.compress(new.items(), map(differ, map(old.get, new.keys()), new.values())))


def _bundles_data(bundles: dict[str, BundleRecord], code: Callable[[tuple], Any]) -> dict[str, list]:
    """The bundles' records as plain values, each key read as ``code`` gives it."""
    return {name: [b.inputs, [code(key) for key in b.reads], {path: list(how) for path, how in b.files.items()},
                   b.report] for name, b in bundles.items()}


def _bundles_from(data: dict[str, list], key_of: Callable[[Any], tuple]) -> dict[str, BundleRecord]:
    return {name: BundleRecord(inputs, frozenset(map(key_of, reads)),
                               {path: (origin, listed) for path, (origin, listed) in files.items()}, report)
            for name, (inputs, reads, files, report) in data.items()}


def _derived_data(derived: dict[str, dict[str, DerivedRecord]]) -> dict[str, dict[str, list]]:
    return {name: {group: [r.inputs, r.files, r.settings] for group, r in groups.items()}
            for name, groups in derived.items()}


def _derived_changes(new: dict[str, dict[str, DerivedRecord]], old: dict[str, dict[str, DerivedRecord]]) -> dict:
    """The derived groups that changed, not all of them: a search index in parts has many."""
    return {"derived_names": list(new),
            "derived_gone": [[name, group] for name, groups in old.items() if name in new
                             for group in groups if group not in new[name]],
            "derived": _derived_data({name: {group: r for group, r in groups.items()
                                             if old.get(name, {}).get(group) != r} for name, groups in new.items()})}


def _derived_from(data: dict[str, dict[str, list]]) -> dict[str, dict[str, DerivedRecord]]:
    return {name: {group: DerivedRecord(inputs, dict(files), tuple(settings))
                   for group, (inputs, files, settings) in groups.items()}
            for name, groups in data.items()}


@dataclass
class BuildState:
    """What one build leaves for the next, in two files: this, which a build with nothing to do
    reads alone (stamps, what decides whether anything is to do), and its :class:`Records`,
    read on first use (:attr:`records`)."""

    world: str = ""                                            # the site's structure, options, code
    files: MutableMapping[str, FileRecord] = field(default_factory=dict)   # a FileTable, as read
    stamps: Mapping[str, Stamp] = field(default_factory=dict)  # each output as the last build left it (Stamps)
    folders: dict[str, int] | None = None   # the output's folders, modification times (None: unknown)
    extra: tuple[str, ...] = ()         # files outside the inputs that outputs read (a source listing's)
    reports: dict[str, Any] = field(default_factory=dict)      # bundle name -> what it last reported
    external: tuple = ()                # (planner, what it depends on outside the files): git refs
    horizon: datetime | None = None     # when the next future-dated post gets published
    floor: datetime | None = None       # the newest published post's date: a clock set back
                                        # before it holds that post back again
    planned: dict[str, int] = field(default_factory=dict)   # planner name -> how many files it planned
    behind: bool = False                # a build left files derived from pages (a search index)
                                        # behind the pages (Records.derived says which)
    saved: Records | None = field(default=None, repr=False)  # the records, once read or made
    where: Path | None = field(default=None, repr=False)     # the records' file, until they are read
    generation: str = ""                # names the records file written with this state
    journal: int = 0                    # the bytes of the records' journal that go with it
    on_disk: Records | None = field(default=None, repr=False)  # the records as their files hold them

    def derived_out_of_date(self) -> bool:
        """Whether a build left files derived from pages (a search index) behind the pages."""
        return self.behind

    @property
    def records(self) -> Records:
        """The records; empty if their files are missing or not the ones written with this state
        (a build killed between the writes), which makes the next build a full one."""
        if self.saved is None:
            self.saved = Records()
            if self.where is not None:
                try:
                    with gcpolicy.paused():
                        self.saved = read_records(self.where, self.generation, self.journal,
                                                  local_key(self.where.parent))
                    self.on_disk = self.saved.copy()
                except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):
                    pass
        return self.saved

    @classmethod
    def load(cls, path: Path) -> BuildState:
        """The state saved at ``path``, or an empty one if there is none that this sitegen wrote."""
        try:
            with gcpolicy.paused():
                state = cls.from_data(codec.loads("state", path.read_bytes(), local_key(path.parent)))
        except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):  # garbled, wrong shape
            return cls()
        state.where = records_path(path)
        return state

    def save(self, path: Path) -> None:
        """Write the records (what changed since they were last written, to their journal, or
        them whole), then this state naming them (replaced at once).

        Written whole, the records first lose the keys nothing reads any more.
        """
        records, where, key = self.records, records_path(path), local_key(path.parent)
        changes = None
        if self.on_disk is not None and self.generation:
            changes = records.changes(self.on_disk)
        entry = b"" if changes is None else codec.dumps("records-changes", {"generation": self.generation,
                                                                            **changes}, key)
        try:
            whole = where.stat().st_size
        except OSError:
            whole = 0
        if changes is not None and self.journal + len(entry) <= JOURNAL_SHARE * whole \
                and self.on_disk.entries < JOURNAL_ENTRIES:
            with open(journal_path(path), "a+b") as journal:
                journal.truncate(self.journal)      # past it: what a build that died wrote
                journal.write(len(entry).to_bytes(8, "little") + entry)
            self.journal += 8 + len(entry)
            records.entries = self.on_disk.entries + 1
        else:
            records.entries = 0
            records.drop_unread()
            self.extra = files_read(records.digests)
            self.generation, self.journal = secrets.token_hex(8), 0
            write_atomic(where, partial(codec.dump, "records", {"generation": self.generation, **records.to_data()},
                                         key=key))
        write_atomic(path, codec.dumps("state", self.to_data(), key))
        if not self.journal:
            journal_path(path).unlink(missing_ok=True)
        records.unsaved = set()
        self.on_disk = records.copy()

    def to_data(self) -> dict[str, Any]:
        """Plain values (lists, not tuples: they read back without a hook per value); the files'
        and the outputs' stamps as columns, lists of strings and numbers, which read back without
        a Python object per file beyond those (:class:`~generator.stamps.FileTable`, :class:`~generator.stamps.Stamps`)."""
        return {
            "world": self.world,
            "files": FileTable.of(self.files).columns(),
            "stamps": Stamps.of(self.stamps).columns(), "folders": self.folders,
            "extra": list(self.extra), "reports": self.reports,
            "external": self.external, "horizon": self.horizon, "floor": self.floor,
            "planned": self.planned, "behind": self.behind, "generation": self.generation,
            "journal": self.journal,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> BuildState:
        state = cls(
            world=str(data["world"]),
            files=FileTable(*data["files"]), stamps=Stamps(*data["stamps"]),
            folders=None if data["folders"] is None else dict(data["folders"]),
            extra=tuple(data["extra"]), reports=dict(data["reports"]),
            external=data["external"], horizon=data["horizon"], floor=data["floor"],
            planned=dict(data["planned"]), behind=bool(data["behind"]), generation=str(data["generation"]),
            journal=int(data["journal"]))
        if not all(type(column) is list for column in (*state.files.columns(), *state.stamps.columns())) \
                or not all(all(map(isinstance, names, itertools.repeat(str)))
                           for names in (state.files.names, state.stamps.folders, state.stamps.names, state.extra)):
            raise TypeError("state of the wrong types")
        return state


def records_path(state_path: Path) -> Path:
    return state_path.with_name("records.msgpack")


def journal_path(state_path: Path) -> Path:
    return state_path.with_name("records.journal")


def read_records(where: Path, generation: str, journal: int, key: bytes) -> Records:
    """The records in the file ``where`` and the first ``journal`` bytes of its journal, if both
    were written with the state naming ``generation`` and sealed with ``key``; else a ``ValueError``."""
    with open(where, "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        data = codec.loads("records", mapped, key)
    if data["generation"] != generation:
        raise ValueError("records of another build")
    records = Records.from_data(data)
    if journal:
        with open(journal_path(where), "rb") as file:
            entries = file.read(journal)
        if len(entries) != journal:
            raise ValueError("a journal cut short")
        at = 0
        while at < journal:
            size = int.from_bytes(entries[at:at + 8], "little")
            changes = codec.loads("records-changes", entries[at + 8:at + 8 + size], key)
            if changes["generation"] != generation:
                raise ValueError("a journal entry of another build")
            records.apply(changes)
            records.entries += 1
            at += 8 + size
    return records


def files_read(keys: Iterable[tuple]) -> tuple[str, ...]:
    """The files outputs read as ``("file", path)`` keys (some lie outside the inputs: a source listing's)."""
    return tuple(sorted(key[1] for key in keys if key[0] == "file"))
