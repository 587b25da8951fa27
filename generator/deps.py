"""Dependency tracking: which inputs each output read while it was rendered.

A render runs inside :func:`tracing`. Everything that hands an input to a
template records a *key* naming that input: the template loader
(``("template", "base.html")``), ``site.data`` (``("data", "team")``), and the
views below, which stand in for documents and collections and record each
read (``("doc", "content/posts/a.md", "title")``, ``("seq", ("posts",), "slice", 0, 5,
None)``), and :class:`Settings` for the config (``("setting",
"posts_per_page")``: a site.yaml edit makes again only the outputs that read
what it changed), and :mod:`generator.references` for a MyST reference to another
page (``("ref", "content/posts/a.md", "ref", "label")``: where the site's labels lead it). A key names an input, not its value; a :class:`Resolver` gives the
value's digest against a given site. If every key an output read resolves to
the same digest after an edit, rendering it again would give the same bytes,
so the builder skips it (a "verifying trace": dependencies are whatever the
render actually touched, through any template, include or filter). A render
may also :func:`warn`: its warnings travel with its trace, so that they reach
the build from a worker process as its reads do.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from generator.authors import DATA_NAME as AUTHORS, Author, data_file, directory
from generator.cache import digest
from generator.config import SettingsView, setting_digest
from generator.errors import warning
from generator.site import Document, Site, author_url
from generator.tracing import Trace, record, tracing, warn  # noqa: F401 (where renders and planners find them)
from generator.urls import relative_url

if TYPE_CHECKING:
    from generator.myst import Target

Key = tuple

# Document fields that assembly sets (the rest depend only on the source).
LINKED_FIELDS = frozenset({"previous", "next"})
LINKED_HTML = ("content", "excerpt")     # HTML whose MyST references the site's labels link (Views.linked)
PLACEMENT_KEYS = ("seq", "names")   # what the collections hold, in which order: by documents' placement
MISSING = "-"


class Settings(SettingsView):
    """The config as renders and planners see it: each setting read is a key,
    ``("setting", "archives.tags")``, resolved by :func:`generator.config.setting_digest`."""

    __slots__ = ()

    def _note(self, name: str, value: Any) -> None:
        record(("setting", name))


def value_digest(value: Any) -> str:
    """A digest of a plain value (text, numbers, dates, lists and dicts of them)."""
    if isinstance(value, str):
        return digest("s", value)
    if isinstance(value, Document):  # a neighbour: who it is; its fields are keys of their own
        return f"doc:{value.source}"
    if value is None:
        return "none"
    if isinstance(value, bytes):
        return digest("b", value)
    return digest("r", repr(value))


class Views:
    """Recording stand-ins for one site's documents and collections.

    Keys of collections: ``("seq", name, read, *args)`` where ``name`` is
    ``("posts",)``, ``("pages",)``, ``("years",)``, ``("years", 2019)``,
    ``("tags", "gpu")``, ``("categories", "news")`` (or a taxonomy's), ``("collections", "docs")``
    (a collection of site.yaml's) and ``read`` one of
    ``len``, ``all``, ``at`` (an index) or ``slice`` (start, stop, step);
    ``("names", "tags")`` is the list of tag names (``"data"``: of data files).
    """

    def __init__(self, site: Site):
        self.site = site
        self.settings = Settings(site.config)
        self._documents: dict[int, DocumentView] = {}

    def document(self, doc: Document) -> DocumentView:
        view = self._documents.get(id(doc))
        if view is None:
            view = self._documents[id(doc)] = DocumentView(doc, self)
        return view

    def linked(self, doc: Document, html: str) -> str:
        """``doc``'s ``html`` with the MyST references to other pages linked (:func:`linked`)."""
        if "myst-unresolved" not in html:
            return html
        return linked(self.site, doc.source, html)

    def sequence(self, name: Key) -> SequenceView:
        wrap = self._year if name == ("years",) else self.document
        return SequenceView(name, _sequence(name, self.site), wrap)

    def groups(self, kind: str) -> GroupsView:
        return GroupsView(kind, self.site.collection(kind), self)

    def authors(self) -> AuthorsView:
        return AuthorsView(self.site, self)

    def collections(self) -> CollectionsView:
        return CollectionsView(self.site, self)

    def _year(self, item: tuple[int, list[Document]]) -> tuple[int, SequenceView]:
        return item[0], self.sequence(("years", item[0]))


class DocumentView:
    """A document as templates see it: every field read is recorded."""

    __slots__ = ("_doc", "_views", "_source")
    front_matter_keys = True    # Liquid's post.KEY reads meta[KEY] (see generator.liquid.JekyllContext)

    def __init__(self, doc: Document, views: Views):
        self._doc = doc
        self._views = views
        self._source = str(doc.source)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        record(("doc", self._source, name))
        if name == "content" and self._doc.deferred is not None:
            warn(warning("its Liquid lists the site's documents, so its body is rendered on its own "
                         "page only: a listing or feed reading its content shows it empty", self._doc.source))
        if name == "description":   # the excerpt's text as the page shows it
            return self._doc.described(self._views.linked(self._doc, self._doc.excerpt))
        value = getattr(self._doc, name)
        if name in LINKED_HTML:
            return self._views.linked(self._doc, value)
        return self._views.document(value) if isinstance(value, Document) else value

    def __getitem__(self, name: str) -> Any:
        """A field, else a key of the front matter (``post["section"]``, as Jekyll's document
        reads, where a converted include cannot know a document from a mapping); the title of a
        page the import titled from its file name is nil, as Jekyll's (minima's nav lists the titled)."""
        if name == "title" and self.__getattr__("meta").get("untitled"):
            return None
        try:
            return self.__getattr__(name)
        except AttributeError:
            meta = self.__getattr__("meta")
            if isinstance(name, str) and name in meta:
                return meta[name]
            raise KeyError(name) from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DocumentView) and other._source == self._source

    def __hash__(self) -> int:
        return hash(self._source)

    def __repr__(self) -> str:
        return f"<document {self._source}>"


class SequenceView(Sequence):
    """A list of documents (or of years) that records what is read of it.

    A ``Sequence``, so that Liquid's ``for`` (which loops over sequences only)
    sees it as the list it stands for.

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
        if not isinstance(index, int):      # Liquid's site.posts.first asks ["first"] before its own first
            raise TypeError(f"list indices must be integers or slices, not {type(index).__name__}")
        self._read("at", index)
        return self._wrap(self._items[index])

    def __repr__(self) -> str:
        return f"<{'/'.join(map(str, self._name))} list>"


class GroupsView(Mapping):
    """``site.tags``, ``site.categories`` or a taxonomy's: name -> posts; the names are one key."""

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


class CollectionsView(Sequence):
    """``site.collections``: each collection of site.yaml as Jekyll shows one (``label``,
    ``output``, ``docs``), by label as Jekyll's ``SiteDrop`` sorts them; their names are one key
    (``("names", "collections")``), the documents of each a collection (``("collections",
    NAME)``), ``output`` a setting."""

    def __init__(self, site: Site, views: Views):
        self._names = sorted(site.collections)
        self._views = views

    def __getitem__(self, index: Any) -> Any:
        record(("names", "collections"))
        if isinstance(index, slice):
            return [self[i] for i in range(len(self._names))[index]]
        name = self._names[index]
        return {"label": name, "output": self._views.settings.collections[name].output,
                "docs": self._views.sequence(("collections", name))}

    def __len__(self) -> int:
        record(("names", "collections"))
        return len(self._names)


class AuthorsView(Mapping):
    """``site.authors``: key -> the person of content/data/authors.yml, in the file's order;
    ``of(name)`` is the person a post's ``author`` names by key or name, or None. What the
    file says is one key (``("data", "authors")``), with the setting that switches author pages
    on (without them there are none), each person's posts a collection."""

    def __init__(self, site: Site, views: Views):
        self._site = site
        self._views = views
        self._known = directory(site.people, data_file(site.config)) if site.people else {}

    def of(self, name: str) -> PersonView | None:
        self._read()
        key = self._known.get(str(name))
        return None if key is None else self[key]

    def __getitem__(self, key: str) -> PersonView:
        self._read()
        return PersonView(self._site.people[key], author_url(self._views.settings, key), self._views)

    def __iter__(self) -> Iterator[str]:
        self._read()
        return iter(self._site.people)

    def __len__(self) -> int:
        self._read()
        return len(self._site.people)

    def _read(self) -> None:
        """Note the file, and the setting without which no one is in it."""
        record(("data", AUTHORS))
        record(("setting", "archives.authors"))


class PersonView:
    """One author as templates see them: ``key``, ``name``, ``link``, ``avatar`` (a path of the
    site), ``bio``, ``url`` (their page) and ``posts`` (newest first)."""

    __slots__ = ("_person", "_url", "_views")

    def __init__(self, person: Author, url: str, views: Views):
        self._person, self._url, self._views = person, url, views

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if name == "posts":
            return self._views.sequence((AUTHORS, self._person.key))
        record(("data", AUTHORS))
        if name == "url":
            return self._url
        return self._person.avatar_url if name == "avatar" else getattr(self._person, name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PersonView) and other._person.key == self._person.key

    def __hash__(self) -> int:
        return hash(self._person.key)

    def __repr__(self) -> str:
        return f"<author {self._person.key}>"


class KeyIndex:
    """The keys outputs read, grouped so that a build resolves only those an edit may change.

    A document's own fields change only when its source does, so they are
    filed under the source; the links between neighbours change only when the
    order of the posts does; the collections and their names only when a
    document is placed anew (or appears, or goes); templates, files and data
    are resolved on every build.
    """

    def __init__(self, keys: Iterable[Key] = (), grouped: GroupedKeys | None = None):
        """``keys``, and ``grouped``'s documents' keys, looked at only for the documents asked of
        (a records file's, :class:`generator.state.Digests`: 127,000 at 10,000 posts)."""
        self.by_source: dict[str, list[Key]] = defaultdict(list)
        self.links: list[Key] = []
        self.placement: list[Key] = []
        self.always: list[Key] = []
        self.grouped = grouped
        self.extend(keys)

    def extend(self, keys: Iterable[Key]) -> KeyIndex:
        for key in keys:
            head = key[0]
            if head == "doc":
                (self.links if key[2] in LINKED_FIELDS else self.by_source[key[1]]).append(key)
            elif head in PLACEMENT_KEYS:
                self.placement.append(key)
            else:
                self.always.append(key)
        return self

    def candidates(self, sources: Iterable[str], reordered: bool, placed: bool = True) -> Iterator[Key]:
        """The keys that may resolve differently now that ``sources`` changed (and the order of posts;
        ``placed``: where documents are, when it may differ from the last build's site)."""
        grouped = self.grouped
        yield from self.always
        if placed:
            yield from self.placement
        if reordered:
            yield from self.links
            if grouped is not None:
                yield from (key for key in grouped.recorded_documents() if key[2] in LINKED_FIELDS)
        for source in sources:
            yield from self.by_source.get(source, ())
            if grouped is not None:
                yield from (key for key in grouped.recorded_of(source) if key[2] not in LINKED_FIELDS)


class GroupedKeys(Protocol):
    """Keys of documents, by source (:class:`generator.state.Digests`)."""

    def recorded_of(self, source: str) -> Iterable[Key]: ...

    def recorded_documents(self) -> Iterable[Key]: ...


class Resolver:
    """What a key names in one site, as a value to compare (``documents``: every parsed one, by source).

    Large values (a page's content) are compared by digest; a collection read
    by the identities of its elements, as they are.
    """

    def __init__(self, site: Site, documents: Mapping[str, Document],
                 file_digest: Callable[[str], str | None], template_digest: Callable[[str], str | None]):
        self.site = site
        self.documents = documents
        self.file_digest = file_digest
        self.template_digest = template_digest     # a name in the theme chain: see Renderer.template_digest
        self._names = {id(doc): source for source, doc in documents.items()}
        self._identities: dict[Key, tuple] = {}    # per collection, computed once

    def __call__(self, key: Key) -> str:
        head = key[0]
        if head == "doc":
            _, source, name = key
            try:
                doc = self.documents[source]
                return doc.known_digest(name) or value_digest(getattr(doc, name))
            except (KeyError, AttributeError):
                return MISSING
        if head == "seq":
            return self._replay(key[1], key[2], key[3:])
        if head == "names":
            return tuple(self.site.collection(key[1]))
        if head == "template":
            return self.template_digest(key[1]) or MISSING
        if head == "file":
            return self.file_digest(key[1]) or MISSING
        if head == "data":
            data = self.site.data
            return value_digest(data[key[1]]) if key[1] in data else MISSING
        if head == "time":         # the build's time, as a page showed it (generator.buildtime)
            return self.site.time.isoformat() if key[1] == "iso" else self.site.time.strftime(key[1])
        if head == "setting":
            return setting_digest(self.site.config, key[1])
        if head in ("ref", "page-ref"):      # a MyST reference to another page's label: where it leads, if anywhere
            _, source, role, text = key
            labels = self.site.labels if head == "ref" else self.site.page_labels
            target = labels.find(self.site.config.root / source, role, text)
            return MISSING if target is None else value_digest(target)
        raise ValueError(f"unknown dependency key {key!r}")

    def identities(self, name: Key) -> tuple:
        """What names each element of a collection: a document's source, a year's number."""
        found = self._identities.get(name)
        if found is None:
            items = _sequence(name, self.site)
            found = (tuple(year for year, _ in items) if name == ("years",)
                     else tuple(map(self._names.__getitem__, map(id, items))))
            self._identities[name] = found
        return found

    def _replay(self, name: Key, read: str, args: tuple) -> Any:
        """Do on a collection the read a :class:`SequenceView` recorded (identities stand for elements)."""
        ids = self.identities(name)
        if read == "len":
            return len(ids)
        if read == "all":
            return ids
        if read == "at":
            try:
                return ids[args[0]]
            except IndexError:
                return MISSING
        if read == "slice":
            return ids[slice(*args)]
        raise ValueError(f"unknown sequence read {read!r}")


def _sequence(name: Key, site: Site) -> list:
    kind = name[0]
    if kind == "years":
        return site.years if len(name) == 1 else dict(site.years).get(name[1], [])
    collection = site.collection(kind)
    return collection if len(name) == 1 else collection.get(name[1], [])


def asked(site: Any, url: Callable[[str], str], tree: Path | None = None) -> Callable[[Path, str, str], Target | None]:
    """``site``'s table of MyST labels (:attr:`generator.site.Site.labels`,
    :mod:`generator.references`) as a render asks it (a post's, or the docs section's for what
    its own pages and tutorials do not resolve), targets at ``url(path)`` (``baseurl`` in front):
    each question a key, so what asked it is made again when the answer changes (the target's
    heading edited, the label coming or going). ``tree``: that of a docs version built from a
    git ref, whose pages (named by their path there) reach the posts' and pages' labels alone
    (:attr:`generator.site.Site.page_labels`): the site's docs pages and tutorials are another
    version's, its own it resolves itself."""
    root = site.config.root
    frozen = tree is not None and tree != root
    head, labels, base = ("page-ref", site.page_labels, tree.resolve()) if frozen else ("ref", site.labels, root)

    def find(source: Path, role: str, text: str) -> Target | None:
        source = source.resolve() if frozen else source     # a tutorial's folder is resolved
        if not source.is_relative_to(base):
            return None
        rel = source.relative_to(base).as_posix()
        record((head, rel, role, text))
        target = labels.find(root / rel, role, text)
        return target and dataclasses.replace(target, url=url(target.url))

    return find


def linked(site: Any, source: Path, html: str) -> str:
    """``html`` of the post or page of ``source`` (its content, its excerpt: on its own page, in a
    listing, in a feed) with the MyST references its parse left unresolved linked by ``site``'s
    table, ``baseurl`` in front."""
    from generator.myst import resolve     # with Python-Markdown: a build with nothing to do loads neither

    record(("setting", "baseurl"))
    find = asked(site, functools.partial(relative_url, site.config))
    return resolve(html, functools.partial(find, site.config.root / source))[0]
