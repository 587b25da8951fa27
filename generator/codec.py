"""Caches as data: values packed with msgpack, read back without running any code.

``.sitegen/`` travels (CI restores it, people copy it between checkouts), so
what it holds must be data a crafted file cannot turn into code, as a pickle
can. A cache file here is a header naming what it holds and the version of
its layout, a seal, and the body: msgpack, with extension types for the few
Python values sitegen keeps (tuples, sets, dates, paths, and its own record
classes, looked up by name among those registered with :func:`record`). The
seal is an HMAC-SHA-256 of header and body under the checkout's own secret
(:func:`generator.cache.local_key`): a file crafted, or copied from another
checkout, cannot pass for what this one made, and so cannot put into a page
what no source holds. A file that fails any check is :class:`Garbled`, which
every reader of a cache treats as a miss.
"""

from __future__ import annotations

import dataclasses
import functools
import hmac
from collections import Counter
from datetime import date, datetime, timedelta, timezone
from pathlib import Path, PurePath
from typing import Any, BinaryIO, Iterable, TypeVar
from zoneinfo import ZoneInfo

import msgpack

# Each cache's layout version, in one place: bump one when what it stores changes shape.
VERSIONS = {
    "state": 9,          # .sitegen/state.msgpack (generator.state.BuildState: files and stamps as columns)
    "records": 16,       # .sitegen/records.msgpack (generator.state.Records; 16: a summary's front matter packed,
                         # its keys; a tuple in many plan inputs stored once)
    "records-changes": 5,  # an entry of .sitegen/records.journal (generator.state.Records.changes)
    "document": 12,      # .sitegen/cache/documents/ (generator.site.Document, by parse key)
    "version-files": 6,  # .sitegen/versions/ (a docs version's files as last built, and the settings it read)
    "api-pages": 1,      # .sitegen/versions/api-*.msgpack (a version's API reference pages, as last rendered)
    "api-listing": 1,    # .sitegen/cache/listings/ (a file of an API reference, highlighted line by line, by its bytes)
    "api-inventory": 1,  # .sitegen/inventories/ (a Sphinx inventory fetched from a URL: generator.api.inventory)
    "site-yaml": 1,      # .sitegen/site-yaml.msgpack (site.yaml's YAML, parsed: generator.config)
    "data-yaml": 1,      # .sitegen/cache/data/ (a data file's YAML, parsed, by its bytes: generator.build)
    "tutorial-labels": 1,  # .sitegen/cache/tutorial-labels/ (a tutorial's slug, title and MyST labels, by its digest)
    "vendor-uses": 1,    # .sitegen/cache/vendor-uses.msgpack (the vendored libraries each page refers to, by its digest)
    "link-check": 1,     # .sitegen/cache/link-check.msgpack (each page's link warnings, as the last build checked them)
    "link-check-changes": 1,  # an entry of .sitegen/cache/link-check.journal (generator.linkcheck)
    "notebook-run": 1,   # <notebooks.cache_dir>/notebooks/ (JSON runs, shared between machines: part of their key)
}

SEAL = 32     # bytes of the seal, after the header

_TUPLE, _FROZENSET, _SET, _DATETIME, _DATE, _PATH, _RECORD, _BIGINT = range(1, 9)
_RECORDS: dict[str, type] = {}

T = TypeVar("T", bound=type)


class Garbled(ValueError):
    """A cache file that is not what this sitegen wrote: another version, damaged, or crafted."""


def record(cls: T) -> T:
    """Register a dataclass whose instances caches may hold (rebuilt field by field, by name)."""
    _RECORDS[cls.__qualname__] = cls
    return cls


def dumps(kind: str, value: Any, key: bytes) -> bytes:
    """``value`` as the bytes of a cache file holding a ``kind``, sealed with ``key``."""
    body = msgpack.packb(value, default=_encode, strict_types=True, use_bin_type=True)
    header = _header(kind)
    return header + _seal(key, header, body).digest() + body


def dumps_exact(kind: str, value: Any, key: bytes) -> bytes | None:
    """:func:`dumps`, if what it gives reads back as ``value`` (the same ``repr``: a parse kept
    instead of parsing again must be the parse); else None."""
    try:
        data = dumps(kind, value, key)
        return data if repr(loads(kind, data, key)) == repr(value) else None
    except (TypeError, ValueError, OverflowError):      # a value a cache cannot hold
        return None


class Items:
    """A long array (or, with ``pairs``, a map) in a value for :func:`dump`: packed item by item,
    so that neither it nor the bytes it packs to are ever whole in memory."""

    def __init__(self, count: int, items: Iterable[Any], pairs: bool = False):
        self.count, self.items, self.pairs = count, items, pairs


def dump(kind: str, value: dict[str, Any], file: BinaryIO, key: bytes) -> None:
    """Write to ``file`` (seekable, empty) what :func:`dumps` gives for ``value``, a mapping
    whose :class:`Items` are packed as they are made: a file of a large ``kind`` (the records)."""
    header = _header(kind)
    file.write(header + bytes(SEAL))        # the seal, once the body is known
    body = _seal(key, header)
    packer = msgpack.Packer(default=_encode, strict_types=True, use_bin_type=True)

    def out(data: bytes) -> None:
        body.update(data)
        file.write(data)

    out(packer.pack_map_header(len(value)))
    for name, section in value.items():
        out(packer.pack(name))
        if not isinstance(section, Items):
            out(packer.pack(section))
            continue
        out(packer.pack_map_header(section.count) if section.pairs else packer.pack_array_header(section.count))
        done, batch = 0, []
        for item in section.items:
            batch.extend(map(packer.pack, item) if section.pairs else (packer.pack(item),))
            done += 1
            if len(batch) >= 4096:
                out(b"".join(batch))
                batch.clear()
        out(b"".join(batch))
        if done != section.count:
            raise ValueError(f"{name}: {done} items where {section.count} were announced")
    file.seek(len(header))
    file.write(body.digest())


def loads(kind: str, data: bytes, key: bytes) -> Any:
    """The value in a cache file of ``kind`` sealed with ``key``; :class:`Garbled` if it fails any check."""
    header = _header(kind)
    with memoryview(data) as whole:     # not a copy: the records are megabytes
        body = whole[len(header) + SEAL:]
        with body:
            if whole[:len(header)] != header or not hmac.compare_digest(
                    _seal(key, header, body).digest(), whole[len(header):len(header) + SEAL]):
                raise Garbled(f"not a {kind} cache of this sitegen and checkout")
            try:
                return _unpack(body)
            except Exception as exc:  # whatever the bytes provoke in the decoder, it is a miss
                raise Garbled(f"unreadable {kind} cache: {exc}") from None


_SCALARS = (str, bool, float, type(None), datetime, date)
_CONTAINERS = (list, dict)


def _arrays(value: Any) -> Any:
    """``value`` as plain msgpack, if it is made of tuples, lists, text, numbers, dates and None
    only (a plan input, a tuple of posts): a tuple of anything but tuples and lists as an array,
    any other tuple as ``{"t": array}``, a list as ``{"l": array}``, a date as the codec stores
    it; else :data:`_NOT_PLAIN`."""
    kind = type(value)
    if kind is tuple or kind is list:
        items = [_arrays(item) for item in value]
        if any(item is _NOT_PLAIN for item in items):
            return _NOT_PLAIN
        if kind is tuple and not any(type(item) in _CONTAINERS for item in items):
            return items
        return {"t" if kind is tuple else "l": items}
    if kind in _SCALARS or (kind is int and -2 ** 63 <= value < 2 ** 64):
        return value
    return _NOT_PLAIN


_NOT_PLAIN = object()


def tuple_column(values: Iterable[Any]) -> dict[str, Any]:
    """``values`` as plain msgpack where each is made of tuples, lists and scalars (:func:`_arrays`:
    read back with no extension hook but for a date, by :func:`tuples_of_column`); the others
    (a dict, a set) by their index, as the codec stores them. A tuple that is an item of more
    than one value's tuple (a listing page's settings, the same for 50,000 pages at 100,000
    posts) is stored once, in ``shared``, and each value names it by its number: read back,
    those values share one tuple."""
    plain, others = [], {}
    for i, value in enumerate(values):
        arrays = _arrays(value)
        if arrays is _NOT_PLAIN:
            others[i], arrays = value, None
        plain.append(arrays)
    # The tuples in values' tuples (in arrays, a list or {"t": ...}), by their bytes: a key that
    # tells 1, 1.0 and True apart, as equality does not.
    inner = [[_pack(item) if type(item) is list or type(item) is dict and "t" in item else None
              for item in arrays["t"]] if type(arrays) is dict and "t" in arrays else None for arrays in plain]
    counts = Counter(key for keys in inner if keys for key in keys if key is not None)
    numbers = {key: n for n, key in enumerate(key for key, count in counts.items() if count > 1)}
    shared = [None] * len(numbers)
    for arrays, keys in zip(plain, inner):
        if keys:
            items = arrays["t"]
            for j, key in enumerate(keys):
                n = numbers.get(key)
                if n is not None:
                    shared[n], items[j] = items[j], {"s": n}
    return {"plain": plain, "others": others, "shared": shared}


def _from_arrays(value: dict, shared: list) -> tuple | list:
    """The tuple or list :func:`_arrays` gave ``value`` for: its arrays (flat tuples) made
    tuples by ``tuple``, not by a call of this per value; ``{"s": n}``, the ``shared`` tuple n."""
    (kind, items), = value.items()
    if kind == "s":
        if type(items) is not int or not 0 <= items < len(shared):
            raise TypeError("a column's shared value out of place")
        return shared[items]
    items = [tuple(item) if type(item) is list else _from_arrays(item, shared) if type(item) is dict else item
             for item in items]
    if kind == "t":
        return tuple(items)
    if kind == "l":
        return items
    raise TypeError("a column's value of an unknown shape")


def tuples_of_column(column: dict[str, Any]) -> list:
    """The values :func:`tuple_column` stored, in its order."""
    shared = [tuple(value) if type(value) is list else _from_arrays(value, ()) for value in column["shared"]]
    values = [tuple(value) if type(value) is list else _from_arrays(value, shared) if type(value) is dict else value
              for value in column["plain"]]
    for i, value in column["others"].items():
        if type(i) is not int or i < 0:
            raise TypeError("a column's value out of place")
        values[i] = value
    return values


def _header(kind: str) -> bytes:
    return f"sitegen {kind} {VERSIONS[kind]}\n".encode()


def _seal(key: bytes, *parts: bytes | memoryview) -> Any:
    """The HMAC of ``parts`` under ``key``, left open for more (SHA-256: on this machine three
    times as fast as keyed BLAKE2b, and the records are megabytes)."""
    seal = hmac.new(key, digestmod="sha256")
    for part in parts:
        seal.update(part)
    return seal


def _unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, ext_hook=_decode, strict_map_key=False, raw=False)


def pack(value: Any) -> bytes:
    """``value`` packed on its own, as in a cache file: a part of a sealed file that its reader
    keeps packed until asked for it (a summary's front matter: :mod:`generator.site`)."""
    return _pack(value)


def unpack(data: bytes) -> Any:
    """The value :func:`pack` gave ``data`` for (bytes of a file that passed its seal)."""
    return _unpack(data)


# A nested value's packer starts with a small buffer: ``packb``'s starts with 256 KiB, which
# malloc maps and unmaps for each tuple and record of a value (29 a document: 0.16 -> 0.08 ms).
NESTED_BUFFER = 1024


def _pack(value: Any) -> bytes:
    return msgpack.Packer(default=_encode, strict_types=True, use_bin_type=True, buf_size=NESTED_BUFFER).pack(value)


def _encode(value: Any) -> msgpack.ExtType:
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return msgpack.ExtType(_TUPLE, _pack(list(value)))
    if isinstance(value, frozenset):
        return msgpack.ExtType(_FROZENSET, _pack(list(value)))
    if isinstance(value, set):
        return msgpack.ExtType(_SET, _pack(list(value)))
    if isinstance(value, datetime):
        return msgpack.ExtType(_DATETIME, datetime_text(value).encode())
    if isinstance(value, date):
        return msgpack.ExtType(_DATE, _pack(value.isoformat()))
    if isinstance(value, PurePath):
        return msgpack.ExtType(_PATH, _pack(value.as_posix()))
    if isinstance(value, int) and not isinstance(value, bool):
        return msgpack.ExtType(_BIGINT, _pack(str(value)))
    if isinstance(value, str):        # a subclass (Markup): its text
        return str(value)
    if isinstance(value, dict):       # a subclass (defaultdict): its items
        return dict(value)
    if isinstance(value, list):
        return list(value)
    if dataclasses.is_dataclass(value) and _RECORDS.get(type(value).__qualname__) is type(value):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value) if f.init and f.compare}
        return msgpack.ExtType(_RECORD, _pack([type(value).__qualname__, fields]))
    raise TypeError(f"a cache cannot hold {type(value).__name__}")


def _zone(tz: Any) -> Any:
    if tz is None:
        return None
    if isinstance(tz, ZoneInfo):
        return tz.key
    if isinstance(tz, timezone):
        return tz.utcoffset(None).total_seconds()
    raise TypeError(f"a cache cannot hold the time zone {tz!r}")


_EMPTY = _pack([])
_PAIR = b"\x92"        # how an array of two begins: a datetime as an earlier sitegen wrote it
_ZONES: dict[str, Any] = {}


def datetime_text(value: datetime) -> str:
    """``value`` as its naive ISO text, then (if aware) a NUL and its zone's key or UTC offset in
    seconds: plain text, for a table that holds thousands of dates (:func:`datetime_of`)."""
    zone = _zone(value.tzinfo)
    text = value.replace(tzinfo=None).isoformat()
    return text if zone is None else f"{text}\0{zone}"


@functools.lru_cache(maxsize=1 << 17)
def datetime_of(data: str) -> datetime:
    """The datetime :func:`datetime_text` gave ``data`` for: the one value the records hold
    thousands of (a post's date), read without a msgpack call of its own; and thrice each (the
    summary's date and its front matter's, the sitemap's inputs), so made once for the three."""
    text, _, zone = data.partition("\0")
    naive = datetime.fromisoformat(text)
    if not zone:
        return naive
    tz = _ZONES.get(zone)
    if tz is None:
        try:
            tz = timezone(timedelta(seconds=float(zone)))
        except ValueError:
            tz = ZoneInfo(zone)
        _ZONES[zone] = tz
    return datetime.combine(naive, naive.time(), tz)     # a third of replace(tzinfo=tz)'s time


def _decode(code: int, data: bytes) -> Any:
    if data == _EMPTY and code == _TUPLE:     # most tuples in the records (a document's warnings)
        return ()
    if code == _DATETIME and data[:1] != _PAIR:
        return datetime_of(data.decode())
    value = _unpack(data)
    if code == _TUPLE:
        return tuple(value)
    if code == _FROZENSET:
        return frozenset(value)
    if code == _SET:
        return set(value)
    if code == _DATETIME:          # written by an earlier sitegen: [naive ISO text, zone]
        naive, zone = value
        tz = None if zone is None else ZoneInfo(zone) if isinstance(zone, str) else timezone(timedelta(seconds=zone))
        return datetime.fromisoformat(naive).replace(tzinfo=tz)
    if code == _DATE:
        return date.fromisoformat(value)
    if code == _PATH:
        return Path(value)
    if code == _BIGINT:
        return int(value)
    if code == _RECORD:
        name, fields = value
        return _RECORDS[name](**fields)
    raise ValueError(f"unknown extension type {code}")
