"""Dependency tracking: which inputs each output read while it was rendered.

A render runs inside :func:`tracing`. Everything that hands an input to a
template records a *key* naming that input: the template loader
(``("template", "base.html")``), ``site.data`` (``("data", "team")``), and the
views below, which stand in for documents and collections and record each
read (``("doc", "content/posts/a.md", "title")``, ``("posts", "slice", 0, 5,
None)``). A key names an input, not its value; :func:`resolve` gives the
value's digest against a given site. If every key an output read resolves to
the same digest after an edit, rendering it again would give the same bytes,
so the builder skips it (a "verifying trace": dependencies are whatever the
render actually touched, through any template, include or filter).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from generator.cache import digest
from generator.site import Document, Site

Key = tuple

# Document fields that assembly sets (the rest depend only on the source).
LINKED_FIELDS = frozenset({"previous", "next"})
MISSING = "-"

_reads: ContextVar[set[Key] | None] = ContextVar("sitegen_reads", default=None)


def record(key: Key) -> None:
    """Note that the render in progress (if any) read the input named ``key``."""
    reads = _reads.get()
    if reads is not None:
        reads.add(key)


@contextmanager
def tracing() -> Iterator[set[Key]]:
    """Collect the keys read by the code run inside the ``with`` block."""
    reads: set[Key] = set()
    token = _reads.set(reads)
    try:
        yield reads
    finally:
        _reads.reset(token)


def value_digest(value: Any) -> str:
    """A digest of a plain value (text, numbers, dates, lists and dicts of them)."""
    if isinstance(value, Document):
        return digest("doc", str(value.source))
    if isinstance(value, bytes):
        return digest("b", value)
    if isinstance(value, str):
        return digest("s", value)
    return digest("r", repr(value))


def identity(item: Any) -> Any:
    """What names an element of a collection: a document's source, a year's number."""
    if isinstance(item, Document):
        return str(item.source)
    if isinstance(item, tuple):  # (year, posts) in site.years
        return item[0]
    return item


class Views:
    """Recording stand-ins for one site's documents and collections.

    Keys of collections: ``("seq", name, read, *args)`` where ``name`` is
    ``("posts",)``, ``("pages",)``, ``("years",)``, ``("years", 2019)``,
    ``("tags", "gpu")`` or ``("categories", "news")`` and ``read`` one of
    ``len``, ``all``, ``at`` (an index) or ``slice`` (start, stop, step);
    ``("names", "tags")`` is the list of tag names (``"data"``: of data files).
    """

    def __init__(self, site: Site):
        self.site = site
        self._documents: dict[int, DocumentView] = {}

    def document(self, doc: Document) -> DocumentView:
        view = self._documents.get(id(doc))
        if view is None:
            view = self._documents[id(doc)] = DocumentView(doc, self)
        return view

    def sequence(self, name: Key) -> SequenceView:
        wrap = self._year if name == ("years",) else self.document
        return SequenceView(name, _sequence(name, self.site), wrap)

    def groups(self, kind: str) -> GroupsView:
        return GroupsView(kind, getattr(self.site, kind), self)

    def _year(self, item: tuple[int, list[Document]]) -> tuple[int, SequenceView]:
        return item[0], self.sequence(("years", item[0]))


class DocumentView:
    """A document as templates see it: every field read is recorded."""

    __slots__ = ("_doc", "_views", "_source")

    def __init__(self, doc: Document, views: Views):
        self._doc = doc
        self._views = views
        self._source = str(doc.source)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        record(("doc", self._source, name))
        value = getattr(self._doc, name)
        return self._views.document(value) if isinstance(value, Document) else value

    def __getitem__(self, name: str) -> Any:
        try:
            return self.__getattr__(name)
        except AttributeError:
            raise KeyError(name) from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DocumentView) and other._source == self._source

    def __hash__(self) -> int:
        return hash(self._source)

    def __repr__(self) -> str:
        return f"<document {self._source}>"


class SequenceView:
    """A list of documents (or of years) that records what is read of it.

    The whole list records its length, single elements and full iteration as
    separate keys; a slice (``site.posts[:5]``) is read as one key: the
    identities of the elements in it.
    """

    __slots__ = ("_name", "_items", "_wrap", "_span")

    def __init__(self, name: Key, items: list, wrap: Callable[[Any], Any],
                 span: tuple | None = None):
        self._name = name
        self._items = items
        self._wrap = wrap
        self._span = span

    def _read(self, *what: Any) -> None:
        if self._span is None:
            record(("seq", self._name, *what))
        else:
            record(("seq", self._name, "slice", *self._span))

    def __len__(self) -> int:
        self._read("len")
        return len(self._items)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __iter__(self) -> Iterator[Any]:
        self._read("all")
        return map(self._wrap, self._items)

    def __reversed__(self) -> Iterator[Any]:
        self._read("all")
        return map(self._wrap, reversed(self._items))

    def __contains__(self, item: Any) -> bool:
        return any(item == element for element in self)

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            span = self._span
            if span is None:
                span = (index.start, index.stop, index.step)
            else:  # a slice of a slice: read the outer one whole
                self._read()
            return SequenceView(self._name, self._items[index], self._wrap, span)
        self._read("at", index)
        return self._wrap(self._items[index])

    def __repr__(self) -> str:
        return f"<{'/'.join(map(str, self._name))} list>"


class GroupsView(Mapping):
    """``site.tags`` or ``site.categories``: name -> posts; the names are one key."""

    def __init__(self, kind: str, groups: dict[str, list[Document]], views: Views):
        self._kind = kind
        self._groups = groups
        self._views = views

    def __getitem__(self, name: str) -> SequenceView:
        record(("names", self._kind))
        if name not in self._groups:
            raise KeyError(name)
        return self._views.sequence((self._kind, name))

    def __iter__(self) -> Iterator[str]:
        record(("names", self._kind))
        return iter(self._groups)

    def __len__(self) -> int:
        record(("names", self._kind))
        return len(self._groups)


def resolve(key: Key, site: Site, file_digest: Callable[[str], str | None],
            documents: Mapping[str, Document]) -> str:
    """The digest of what ``key`` names now (``documents``: every parsed one, by source)."""
    head = key[0]
    if head == "doc":
        _, source, name = key
        try:
            return value_digest(getattr(documents[source], name))
        except (KeyError, AttributeError):
            return MISSING
    if head == "seq":
        return value_digest(_replay(_sequence(key[1], site), key[2], key[3:]))
    if head == "names":
        return value_digest(list(getattr(site, key[1])))
    if head == "template":
        return file_digest(f"templates/{key[1]}") or MISSING
    if head == "file":
        return file_digest(key[1]) or MISSING
    if head == "data":
        return value_digest(site.data[key[1]]) if key[1] in site.data else MISSING
    raise ValueError(f"unknown dependency key {key!r}")


def _sequence(name: Key, site: Site) -> list:
    kind = name[0]
    if kind == "years":
        return site.years if len(name) == 1 else dict(site.years).get(name[1], [])
    collection = getattr(site, kind)
    return collection if len(name) == 1 else collection.get(name[1], [])


def _replay(items: list, read: str, args: tuple) -> Any:
    """Do on ``items`` the read a :class:`SequenceView` recorded."""
    if read == "len":
        return len(items)
    if read == "all":
        return [identity(item) for item in items]
    if read == "at":
        try:
            return identity(items[args[0]])
        except IndexError:
            return MISSING
    if read == "slice":
        return [identity(item) for item in items[slice(*args)]]
    raise ValueError(f"unknown sequence read {read!r}")
