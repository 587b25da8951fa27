"""The Site model: documents, their URLs, and the collections built from them.

``parse_document`` turns one source into a :class:`Document` and depends on
nothing but that source, the settings it reads and the files its Liquid reads
(both noted in the document), so it can be cached and run in parallel.
``assemble`` then sees all documents at once: it places them (URL, date:
:mod:`generator.placement`), drops drafts and future posts, orders the blog, links neighbours, groups the posts by year and by each
taxonomy (tags, categories, site.yaml's own), and refuses two documents that claim
one URL.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import operator
import re
import string
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgpack

from generator import codec
from generator.authors import Author, data_file, posts_by_author, read_people
from generator.config import Collection, Config, LiquidSettings, SettingsView
from generator.errors import SiteError, warning
from generator.headings import Heading
from generator.layout import PAGES, POSTS
from generator.links import document_anchors, document_links, well_formed_links
from generator.placement import at_most, place, place_all, slugify, string_list, taxonomy_names
from generator.schema.outputs import SITE_COLLECTIONS
from generator.sources import Source, has_liquid, load_source
from generator.text import plain_text, shorten
from generator.urls import output_path

if TYPE_CHECKING:
    from generator import myst
    from generator.readers import Parsed

# Liquid (python-liquid), Markdown and the readers are imported where a document is parsed or
# rendered: a build with nothing to do loads none of them.



@codec.record
@dataclass
class Document:
    """A page of the site, ready for a template."""

    source: Path
    kind: str                       # "post" or "page"
    url: str                        # site-relative, starts with "/"
    title: str
    layout: str
    content: str                    # HTML
    toc: tuple[Heading, ...] = ()
    date: datetime | None = None
    authors: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    excerpt: str = ""               # HTML
    reading_time: int = 0           # minutes (generator.reading); 0 until its content is known
    draft: bool = False
    redirect_from: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    inputs: tuple[tuple[str, str], ...] = ()    # files its Liquid read (path, sha256), besides its source
    settings: tuple[tuple[str, str], ...] = ()  # settings its parse read (dotted name, digest of the value)
    warnings: tuple[str, ...] = ()              # the parse's
    links: tuple[tuple[int, str, str, str, str], ...] = ()   # its links into the site (generator.links)
    anchors: tuple[str, ...] = ()                # the ids of its HTML: what a link's #fragment may name
    targets: tuple[tuple, ...] = ()              # its MyST labels (generator.myst.targets_of), placed by the site
    unread: tuple[str, ...] = ()                # warnings of front matter keys nothing reads: each build's
                                                # own, as its templates decide (engine.documents.warn_unknown_keys)
    deferred: tuple[str, int] | None = None     # (body, its first line): Liquid to run with the whole site
    previous: Document | None = field(default=None, repr=False, compare=False)
    next: Document | None = field(default=None, repr=False, compare=False)

    @functools.cached_property
    def output_path(self) -> str:  # cached: asked for every document on every (re)build
        return output_path(self.url)

    @property
    def meta_keys(self) -> tuple:
        """The front matter's keys: all a build asks of most documents' front matter (which keys
        nothing reads, whether it redirects), which a :class:`LazyDocument` answers from its
        summary without reading the front matter itself."""
        return tuple(self.meta)

    def known_digest(self, name: str) -> str | None:
        """The digest of field ``name`` (:func:`generator.deps.value_digest`) where it is known
        without reading the field (:class:`SlimDocument`), else None."""
        return None

    @property
    def reported(self) -> tuple[str, ...]:
        """What to warn its author of: the parse's warnings and the front matter keys nothing reads."""
        return self.warnings + self.unread

    @property
    def description(self) -> str:
        """Plain text for the meta description and share cards: the front matter's, else the
        excerpt's text, cut at a word to at most 300 characters."""
        return self.described(self.excerpt)

    def described(self, excerpt: str) -> str:
        """:attr:`description` with ``excerpt`` for the excerpt's HTML: as a page shows it, its
        MyST references to other pages linked, so the text names their targets' titles."""
        return shorten(plain_text(str(self.meta.get("description") or excerpt)), 300)


# The large parts of a document (its HTML): a build that renders few pages reads them for those.
HEAVY_FIELDS = ("content", "toc", "excerpt")


class _Deferred:
    """A field of a :class:`LazyDocument`: read with the other large ones on first use."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, doc: Any, owner: type | None = None) -> Any:
        if doc is None:
            return self
        found = doc.__dict__
        if self.name not in found:
            full = found.pop("_full")()
            for name in HEAVY_FIELDS:
                found.setdefault(name, getattr(full, name))
        return found[self.name]

    def __set__(self, doc: Any, value: Any) -> None:
        doc.__dict__[self.name] = value


class _Packed:
    """A field of a :class:`LazyDocument` that its summary may hold as the bytes the records
    file packed it to (:data:`PACKED`): read from those on first use."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, doc: Any, owner: type | None = None) -> Any:
        if doc is None:
            return self
        value = doc.__dict__[self.name]
        if type(value) is bytes:
            value = doc.__dict__[self.name] = _PACKED_READ[self.name](value)
        return value

    def __set__(self, doc: Any, value: Any) -> None:
        doc.__dict__[self.name] = value


class _Summed:
    """A value a :class:`Document` works out that a :class:`LazyDocument` holds as its summary
    says (:attr:`Document.meta_keys`)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, doc: Any, owner: type | None = None) -> Any:
        return self if doc is None else doc.__dict__[self.name]


class LazyDocument(Document):
    """A document as the last build summed it up (:func:`summary`): everything but its HTML,
    which ``full()`` (the parse cache, or a parse) gives the first time a render wants it,
    and its front matter, links and anchors, which are read from the records' bytes when first
    asked for (its front matter's keys are in the summary).

    A build after an edit holds every document of the site, and renders and checks few.
    """

    content = _Deferred()
    toc = _Deferred()
    excerpt = _Deferred()
    meta = _Packed()
    links = _Packed()
    anchors = _Packed()
    meta_keys = _Summed()

    def __init__(self, full: Any, source: Path, fields: dict[str, Any]):   # noqa: D107 - no dataclass init
        self.__dict__.update(fields, source=source, previous=None, next=None, _full=full)


class _Reread(_Deferred):
    """A field of a :class:`SlimDocument`: read when wanted, not kept, but for the last
    few documents read (a page's render asks for its content, toc and excerpt in turn, and
    for its neighbours')."""

    def __get__(self, doc: Any, owner: type | None = None) -> Any:
        if doc is None:
            return self
        found = doc.__dict__
        if self.name in found:          # set since (the preview's edit, swapped in)
            return found[self.name]
        held = _recent.pop(id(doc), None)
        if held is None or held[0] is not doc:
            held = (doc, found["_full"]())
            if len(_recent) >= RECENT:
                del _recent[next(iter(_recent))]
        _recent[id(doc)] = held
        return getattr(held[1], self.name)

    def __set__(self, doc: Any, value: Any) -> None:
        super().__set__(doc, value)
        doc.__dict__["_digests"].pop(self.name, None)     # the digest kept is the old value's


RECENT = 16
_recent: dict[int, tuple[Any, Any]] = {}     # the SlimDocuments last read, in full, the latest last


class SlimDocument(LazyDocument):
    """A document parsed by this build, held without its HTML but the excerpt (which listings
    show), the rest of which ``full()`` reads again from the parse cache whenever a render
    wants it: the engine holds every document of the site, and its render workers (forked
    from it) render each; had they the HTML, a cold build of 100,000 posts would hold GiBs
    of it. The digests of the fields not held are, for the records (:meth:`known_digest`)."""

    REREAD = ("content", "toc")
    content = _Reread()
    toc = _Reread()

    def __init__(self, full: Any, doc: Document, digests: dict[str, str]):   # noqa: D107 - no dataclass init
        super().__init__(full, doc.source, {**summary(doc), "excerpt": doc.excerpt})
        self.__dict__["_digests"] = digests

    def known_digest(self, name: str) -> str | None:
        return self.__dict__["_digests"].get(name)


# A summary's fields: the document's but the large ones, and its front matter's keys (asked of
# every document by every build, where its front matter is read of few).
SUMMED_UP = [*(f.name for f in dataclasses.fields(Document)
               if f.name not in (*HEAVY_FIELDS, "source", "previous", "next")), "meta_keys"]


_summed_up = operator.attrgetter(*SUMMED_UP)


def summary(doc: Document) -> dict[str, Any]:
    """A document's fields but the large ones (and the source, and its neighbours)."""
    return dict(zip(SUMMED_UP, _summed_up(doc)))


def _each(convert: Any) -> Any:
    return lambda values: list(map(convert, values))


def _or_none(convert: Any) -> Any:
    return lambda value: None if value is None else convert(value)


def _nested(value: tuple) -> list:
    return [list(item) for item in value]


def _read_nested(values: list) -> list:
    return [tuple(map(tuple, value)) if value else () for value in values]


def _read_flat(values: list) -> list:
    return list(map(tuple, values))


def _shared(convert: Any) -> Any:
    """A column of few distinct values (the settings each parse read, the front matter's keys:
    most documents have the same) as those values, once each (each ``convert``-ed), and each
    document's number among them."""
    def store(values: list) -> dict[str, list]:
        distinct: dict[tuple, int] = {}
        numbers = [distinct.setdefault(value, len(distinct)) for value in values]
        return {"values": list(map(convert, distinct)), "numbers": numbers}
    return store


def _read_shared(read: Any) -> Any:
    """The column :func:`_shared` stored, its values read by ``read``: one object for each
    distinct value (a parse key made of one is worked out once,
    :func:`generator.engine.documents.parse_key`)."""
    def column(stored: dict[str, list]) -> list:
        values = read(stored["values"])
        return [values[number] for number in stored["numbers"]]
    return column


def _msgpack(convert: Any) -> Callable[[Any], bytes]:
    return lambda value: msgpack.packb(convert(value), use_bin_type=True)


def _packed(pack: Callable[[Any], bytes]) -> Any:
    """A column stored as each document's value packed on its own (bytes, by ``pack``), as it
    is where the records were read and it was never asked for."""
    def column(values: list) -> list[bytes]:
        return [value if type(value) is bytes else pack(value) for value in values]
    return column


def _read_packed(values: list) -> list:
    if not all(map(bytes.__instancecheck__, values)):
        raise TypeError("a packed column of other values")
    return values


# The fields an edit reads of the few documents whose links it checks (and of those they link
# to), and of those it renders (the front matter, its dates and YAML): held packed
# (:class:`_Packed`) in each summary the records read, 4.5 million values at 100,000 posts not
# made; how each is read back.
_PACKED_READ: dict[str, Callable[[bytes], Any]] = {
    "meta": codec.unpack,
    "links": lambda data: tuple(map(tuple, msgpack.unpackb(data))),
    "anchors": lambda data: tuple(msgpack.unpackb(data)),
}
PACKED = tuple(_PACKED_READ)


def unpacked(fields: dict[str, Any]) -> dict[str, Any]:
    """A summary with the fields it holds packed read (what a :class:`LazyDocument` of it gives)."""
    return {name: _PACKED_READ[name](value) if name in _PACKED_READ and type(value) is bytes else value
            for name, value in fields.items()}


# The summary's fields that are not plain msgpack values (str, int, bool, list, dict): how each
# column is stored and how it is read back. Tuples as lists and dates as text,
# so that reading 10,000 summaries runs no extension hook per value (meta, any YAML, is kept packed).
_COLUMNS: dict[str, tuple[Any, Any]] = {
    "date": (_each(_or_none(codec.datetime_text)), _each(_or_none(codec.datetime_of))),
    "inputs": (_each(_nested), _read_nested), "settings": (_shared(_nested), _read_shared(_read_nested)),
    "meta": (_packed(codec.pack), _read_packed), "meta_keys": (_shared(list), _read_shared(_read_flat)),
    "links": (_packed(_msgpack(_nested)), _read_packed), "targets": (_each(_nested), _read_nested),
    "warnings": (_each(list), _read_flat), "anchors": (_packed(_msgpack(list)), _read_packed),
    "unread": (_each(list), _read_flat), "deferred": (_each(_or_none(list)), _each(_or_none(tuple))),
}
_PLAIN = (lambda value: value, lambda values: values)


def summary_columns(summaries: Iterable[dict[str, Any]]) -> dict[str, list]:
    """The summaries (:func:`summary`) as one list per field, of plain values where the field's
    type allows: the records hold every document's, and :func:`summaries_of_columns` reads them."""
    rows = list(summaries)
    return {name: _COLUMNS.get(name, _PLAIN)[0](list(map(operator.itemgetter(name), rows))) for name in SUMMED_UP}


def summaries_of_columns(columns: dict[str, Any]) -> list[dict[str, Any]]:
    """The summaries :func:`summary_columns` stored, in its order."""
    if list(columns) != SUMMED_UP:
        raise TypeError("summaries of other fields")
    read = [_COLUMNS.get(name, _PLAIN)[1](values) for name, values in columns.items()]
    return [dict(zip(SUMMED_UP, row)) for row in zip(*read, strict=True)]


def well_formed(doc: Any) -> bool:
    """Whether ``doc`` (read from a cache) is a Document with the types a parse gives it."""
    lists = (doc.authors, doc.tags, doc.categories, doc.redirect_from) if isinstance(doc, Document) else ()
    return (isinstance(doc, Document) and isinstance(doc.source, Path)
            and all(isinstance(value, str) for value in (doc.kind, doc.url, doc.title, doc.layout,
                                                         doc.content, doc.excerpt))
            and (doc.date is None or isinstance(doc.date, datetime)) and isinstance(doc.draft, bool)
            and type(doc.reading_time) is int
            and isinstance(doc.toc, tuple) and all(isinstance(h, Heading) for h in doc.toc)
            and all(isinstance(v, list) and all(isinstance(s, str) for s in v) for v in lists)
            and isinstance(doc.meta, dict) and doc.previous is None and doc.next is None
            and isinstance(doc.inputs, tuple) and all(isinstance(pair, tuple) and len(pair) == 2
                                                      and all(isinstance(s, str) for s in pair)
                                                      for pair in doc.inputs)
            and isinstance(doc.settings, tuple) and all(isinstance(pair, tuple) and len(pair) == 2
                                                        and all(isinstance(s, str) for s in pair)
                                                        for pair in doc.settings)
            and isinstance(doc.warnings, tuple) and all(isinstance(w, str) for w in doc.warnings)
            and well_formed_links(doc.links) and isinstance(doc.anchors, tuple)
            and all(isinstance(a, str) for a in doc.anchors)
            and isinstance(doc.targets, tuple) and all(isinstance(t, tuple) and len(t) == 6 for t in doc.targets)
            and doc.unread == ()
            and (doc.deferred is None or (isinstance(doc.deferred, tuple) and len(doc.deferred) == 2
                                          and isinstance(doc.deferred[0], str)
                                          and isinstance(doc.deferred[1], int))))


def parse_document(source: Source, config: Config) -> Document:
    """Turn a post or page source into a Document (front matter checked, body rendered), noting
    in it the settings the parse read (a :class:`SettingsView`: its Liquid's ``site.title``,
    its reader's options; the permalink only if its Liquid asks for a URL), which decide how
    long it is good for. Its URL and date are not the parse's (:mod:`generator.placement`).

    The body's Liquid runs first, as in Jekyll; a post or page whose Liquid lists the
    site's posts (or pages, tags, categories) is rendered with the site instead
    (:func:`render_deferred`), since those exist only once every document is parsed.
    Its own page is rendered through the recording views, so it is made again when a
    document it listed changes; elsewhere (a feed, another listing) its body is empty,
    with a warning (:class:`generator.deps.DocumentView`), as it cannot be part of what it lists.
    """
    read: dict[str, str] = {}
    doc = _parse(source, SettingsView(config, read))
    doc.settings = tuple(sorted(read.items()))
    return doc


def _parse(source: Source, config: Config) -> Document:
    from generator.reading import reading_time   # with the first parse: a build with nothing to do reads none

    size = len(source.body.encode("utf-8"))
    if size > config.limits.max_source_bytes:
        raise SiteError(f"{size:,} bytes: larger than site.yaml's limits.max_source_bytes "
                        f"({config.limits.max_source_bytes:,})", source.path)
    meta = source.meta
    title = meta.get("title")
    if title is None or (isinstance(title, str) and not title.strip()):
        raise SiteError("missing required front matter key 'title'", source.path, 1)
    title = str(title)
    doc = Document(
        source=source.path,
        kind=source.kind,
        url="",     # placed after the parse (generator.placement)
        title=title,
        layout=str(meta.get("layout") or source.kind),
        content="",
        authors=at_most(_author_names(meta.get("authors", meta.get("author")), source.path, "authors" in meta),
                        config, source.path, "author"),
        tags=at_most(_tags(meta, source.path), config, source.path, "tags"),
        draft=_flag(meta, "draft", False, source.path) or not _flag(meta, "published", True, source.path),
        redirect_from=string_list(meta.get("redirect_from"), source.path, "redirect_from"),
        meta=dict(meta),
    )
    body = source.body
    if has_liquid(body):
        from generator.liquid import NeedsSite, render_liquid

        try:
            result = render_liquid(body, liquid_environment(config), _liquid_render(source, config),
                                   _UnplacedPage(doc, config), settings=SiteSettings(config))
        except NeedsSite:
            doc.deferred = (body, source.body_line)
            return doc
        body, doc.inputs, doc.warnings = result.text, result.inputs, result.warnings
    parsed = _to_html(body, source, config)
    doc.content, doc.toc, doc.warnings = parsed.html, parsed.toc, doc.warnings + parsed.warnings
    doc.links = document_links(doc.content, source.body, source.body_line)
    doc.anchors = document_anchors(doc.content)
    if source.is_markdown:
        from generator.myst import targets_of

        doc.targets = targets_of(body, source.body_line)
    doc.reading_time = reading_time(doc.content)
    excerpt = meta.get("excerpt")
    if excerpt:
        from generator.markdown import MarkdownProblem, render_markdown

        try:
            doc.excerpt = render_markdown(str(excerpt), **config.markdown.options()).html
        except MarkdownProblem as exc:
            raise SiteError(f"key 'excerpt': {exc}", source.path) from None
    else:
        doc.excerpt = _jekyll_excerpt(body, doc, source, config) or _first_paragraph(doc.content)
    return doc


def _jekyll_excerpt(body: str, doc: Document, source: Source, config: Config) -> str:
    """What Jekyll's excerpt is, where site.yaml ``markdown.excerpt_separator`` (or the front matter's
    ``excerpt_separator``) asks for it: the body before the separator, with the rest's link
    definitions (kramdown resolves its references); the whole content where there is none."""
    separator = doc.meta.get("excerpt_separator", config.markdown.excerpt_separator)
    if not isinstance(separator, str) or not separator:
        return ""
    # Jekyll's front matter pattern (``---\s*$\n?``) takes the blank lines after it
    head, found, rest = _LEADING_BLANK_LINES.sub("", body, count=1).partition(separator)
    if not found:
        return doc.content
    if source.is_markdown:
        head += "".join(f"\n\n{line}" for line in _LINK_DEFINITION.findall(rest))
    return _to_html(head, source, config).html


_LEADING_BLANK_LINES = re.compile(r"\A\s*\n")
_LINK_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:.+$", re.M)


def _to_html(body: str, source: Source, config: Config) -> Parsed:
    """The body (its Liquid already run) as HTML, by the reader of the source's suffix."""
    from generator.readers import reader_for

    return reader_for(source.path).read(body, source, config)


def stylesheet_liquid(source: Source, config: Config) -> str:
    """A Sass page's Liquid (a stylesheet with front matter), run before Sass compiles it, as Jekyll
    runs it (minima's ``@import "minima/skins/{{ site.minima.skin }}"``): ``page`` is its front
    matter, ``site`` the site's settings and data; the includes and data it read are recorded as
    the stylesheet's inputs. The collections, which exist only once pages are parsed, it cannot read."""
    from generator.liquid import NeedsSite, render_liquid
    from generator.tracing import record, warn

    try:
        result = render_liquid(source.body, liquid_environment(config), _liquid_render(source, config),
                               dict(source.meta), settings=SiteSettings(config))
    except NeedsSite as exc:
        raise SiteError(f"Liquid in a stylesheet cannot read site.{exc.args[0]}: write the values in",
                        source.path, source.body_line) from None
    for name, _ in result.inputs:
        record(("file", name))
    for found in result.warnings:
        warn(found)
    return result.text


def render_deferred(doc: Document, config: Config, site: Any, paginator: Mapping[str, Any] | None = None,
                    url: str | None = None) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """A page whose Liquid reads the site's collections (or its ``paginator``), rendered with
    ``site`` (a recording view), as the page of posts ``paginator`` at ``url`` where it is the
    blog's index: its HTML, the files (includes, posts named by ``post_url``) it read, and its warnings."""
    from generator.liquid import render_liquid

    body, body_line = doc.deferred
    source = Source(doc.source, doc.kind, doc.meta, body, body_line, "")
    page = liquid_page(doc) if url is None else {**liquid_page(doc), "url": url}
    result = render_liquid(body, liquid_environment(config), _liquid_render(source, config),
                           page, site=site, paginator=paginator)
    parsed = _to_html(result.text, source, config)
    return parsed.html, tuple(name for name, _ in result.inputs), tuple(result.warnings) + parsed.warnings


def liquid_page(doc: Document) -> dict[str, Any]:
    """``page`` in Liquid: the front matter, with what Jekyll sets beside it."""
    return {**doc.meta, "title": None if doc.meta.get("untitled") else doc.title, "url": doc.url, "date": doc.date, "path": str(doc.source),
            "categories": doc.categories, "tags": doc.tags, "layout": doc.layout}


PLACED = ("url", "date", "categories")


class _UnplacedPage(dict):
    """``page`` in the Liquid of a parse, before the document is placed: its placement is
    worked out (through the parse's recording view of the settings) only if the Liquid asks
    for it, or for the whole page, so only such a parse depends on ``permalink`` and ``timezone``."""

    def __init__(self, doc: Document, config: Config):
        page = liquid_page(doc)
        super().__init__((k, v) for k, v in page.items() if k not in PLACED)
        self._doc, self._config, self._order = doc, config, list(page)

    def __missing__(self, key: str) -> Any:
        if key not in PLACED or dict.__contains__(self, "url"):
            raise KeyError(key)
        placed = place(self._doc.kind, self._doc.source, self._doc.meta, self._config)
        found = dict(dict.items(self), url=placed.url, date=placed.date, categories=placed.categories)
        self.clear()
        self.update((k, found[k]) for k in self._order)     # in liquid_page's order, as a placed page has it
        return self[key]

    def _whole(self) -> dict:
        self["url"]      # noqa: B018 - places it
        return self

    def __contains__(self, key: object) -> bool:
        return key in PLACED or dict.__contains__(self, key)

    def __iter__(self) -> Iterator[str]:
        return dict.__iter__(self._whole())

    def __len__(self) -> int:
        return dict.__len__(self._whole())

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default

    def keys(self) -> Any:
        return dict.keys(self._whole())

    def values(self) -> Any:
        return dict.values(self._whole())

    def items(self) -> Any:
        return dict.items(self._whole())


SITE_SETTINGS = ("title", "description", "url", "baseurl", "author", "language", "timezone")


class SiteSettings(Mapping):
    """The part of ``site`` that comes from site.yaml (Liquid and templates alike), each value
    read from the config when asked for: a parse notes only those its Liquid used. Besides
    sitegen's keys, ``variables``: the site's own values (Jekyll's _config.yml keys)."""

    def __init__(self, config: Config):
        self._config = config

    def __getitem__(self, name: str) -> Any:
        if name not in SITE_SETTINGS:
            return self._config.variables[name]     # site.yaml's own values, else KeyError
        # as written, as Jekyll keeps them (nim-lang's url ends in /: {{ site.url }}/x has //; tuweni's
        # `baseurl: /` gives {{ site.baseurl }}/download as //download); relative_url takes the end / off
        return getattr(self._config, name)

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*SITE_SETTINGS, *self._config.variables]))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def lists(self, name: str) -> bool:
        """Whether ``site.NAME`` lists documents, as ``site.tags`` does: a taxonomy or a collection
        of site.yaml."""
        return name in self._config.collections or any(taxonomy.name == name for taxonomy in self._config.taxonomies)


def liquid_environment(config: Config) -> Any:
    """The Liquid environment of these settings, made once: each of ``config.liquid``'s fields is
    read (so a parse through a :class:`SettingsView` notes them) into a settings value that the
    cache can know again, which a view, new for each parse, is not."""
    section = config.liquid
    return _liquid_environment(LiquidSettings(**{f.name: getattr(section, f.name)
                                                 for f in dataclasses.fields(LiquidSettings)}))


@functools.lru_cache(maxsize=8)
def _liquid_environment(settings: LiquidSettings) -> Any:
    from generator import liquid

    return liquid.environment(settings)


def _liquid_render(source: Source, config: Config) -> Any:
    from generator.liquid import Render

    def url_of(relpath: Path) -> str:
        kind = "post" if relpath.as_posix().startswith(POSTS + "/") else "page"
        other = load_source(config.root, kind, relpath)
        return place(kind, relpath, other.meta, config).url

    return Render(config.root, source.path, source.body_line, source.is_markdown, config.liquid.unknown, url_of)


def _tags(meta: dict, path: Path) -> list[str]:
    """``tag`` (one) if it is set, else ``tags``: Jekyll's Utils.pluralized_array_from_hash
    (livy's posts' ``tag: v0-4-0-incubating``, listed by their layout as page.tags)."""
    if meta.get("tag") is not None:
        return taxonomy_names(meta["tag"], path, "tag")
    return taxonomy_names(meta.get("tags"), path, "tags")


def _author_names(value: Any, path: Path, listed: bool = False) -> list[str]:
    """A post's authors as Jekyll sites write them: names or keys, or people given in place
    (``{name: ..., url: ...}``, which jekyll-seo-tag reads), each by its name; the front
    matter keeps the whole mapping for layouts that read ``page.author.url``. A mapping
    without a ``name`` in an ``authors`` list (``listed``) names nobody, as in jekyll-seo-tag:
    it is the layout's data (crystal-lang's book pages: ``authors: [{image, description}]``),
    which it still reads as ``page.authors``; as ``author``, it is a byline missing its name."""
    people = [value] if isinstance(value, dict) else value
    if not isinstance(people, list) or not any(isinstance(person, dict) for person in people):
        return string_list(value, path, "author")
    names = []
    for person in people:
        if listed and isinstance(person, dict) and "name" not in person:
            continue
        name = person.get("name") if isinstance(person, dict) else person
        if not isinstance(name, (str, int, float)) or not str(name).strip():
            raise SiteError(f"key 'author': expected a name, or a person with a 'name', got {person!r}", path)
        names.append(str(name))
    return names


def _flag(meta: dict, key: str, default: bool, path: Path) -> bool:
    """A true/false key: the string "false" is true in Python, so only YAML booleans are accepted."""
    value = meta.get(key, default)
    if not isinstance(value, bool):
        raise SiteError(f"key '{key}': expected true or false, got {value!r}", path)
    return value


def _first_paragraph(html: str) -> str:
    """The excerpt: the first paragraph, without footnote marks (their notes stay behind)."""
    match = re.search(r"<p>.*?</p>", html, re.S)
    return _FOOTNOTE_REF.sub("", match.group(0)) if match else ""


_FOOTNOTE_REF = re.compile(r'<sup id="fnref\d*:[^"]*"[^>]*><a class="footnote" href="#fn:[^"]*"[^>]*>[^<]*</a></sup>')


def archive_folder(url: str) -> str:
    """The folder a generated index's further pages go in: ``/tags.html`` and ``/tags/`` -> ``/tags``."""
    return url.removesuffix(".html").removesuffix("/index").rstrip("/")


def group_url(index_url: str, name: str) -> str:
    """The page of one tag (or category) beside its index: ``/tags.html``, "Deep Learning" ->
    ``/tags/deep-learning.html``."""
    return f"{archive_folder(index_url)}/{slugify(name)}.html"


def author_url(config: Config, key: str) -> str:
    """The page of one author of content/data/authors.yml: ``/authors/KEY.html`` beside the
    index site.yaml ``archives.authors`` names."""
    return group_url(config.archives.authors, key)


@dataclass
class Site:
    """Everything the templates see, assembled once per build."""

    config: Config
    posts: list[Document]                       # published, newest first
    pages: list[Document]
    data: dict[str, Any]
    tags: dict[str, list[Document]]
    categories: dict[str, list[Document]]
    years: list[tuple[int, list[Document]]]      # newest year first
    people: dict[str, Author] = field(default_factory=dict)       # content/data/authors.yml, by key
    authors: dict[str, list[Document]] = field(default_factory=dict)   # key -> the posts naming them
    classified: dict[str, dict[str, list[Document]]] = field(default_factory=dict)  # site.yaml taxonomies
    collections: dict[str, list[Document]] = field(default_factory=dict)   # site.yaml's, each in its order
    hidden_drafts: int = 0                      # left out for want of --drafts: the preview says so
    time: datetime | None = None                # site.time: the build's (generator.buildtime)
    tutorials: Callable[[], list] | None = field(default=None, repr=False)  # the planners' labelled pages (the tutorials'), by the build

    @property
    def documents(self) -> list[Document]:
        """What the site publishes: posts, pages and the documents of collections with output."""
        collections = self.config.collections
        return self.posts + self.pages + [doc for name, docs in self.collections.items()
                                          if collections[name].output for doc in docs]

    @functools.cached_property
    def labels(self) -> myst.Labels:
        """The MyST labels a reference in a post or page resolves against (:mod:`generator.references`)."""
        from generator.references import site_labels

        return site_labels(self.documents, self.config, self.tutorials() if self.tutorials else ())

    @functools.cached_property
    def page_labels(self) -> myst.Labels:
        """The posts' and pages' labels alone: what a docs version built from a git ref reaches
        beyond its own pages (the site's docs pages and tutorials are another version's)."""
        from generator.myst import Labels

        return Labels.of_documents(self.documents, self.config.root)

    def rewritten(self) -> None:
        """Its documents' content was written anew (the preview's edit, in place): the tables of
        labels, made of it, are made again when next asked."""
        vars(self).pop("labels", None)
        vars(self).pop("page_labels", None)

    def reported(self, doc: Document) -> tuple[str, ...]:
        """What to warn ``doc``'s author of (:attr:`Document.reported`), as :meth:`unresolved` says,
        and its labels that an earlier page has (:meth:`repeated`)."""
        return self.unresolved(doc.source, doc.reported) + self.repeated(doc)

    def repeated(self, doc: Document) -> tuple[str, ...]:
        """Warnings of ``doc``'s labels that a post or page before it has, at their lines: the
        references lead there (asked each build, as :meth:`unresolved`)."""
        if not doc.targets:
            return ()
        return tuple(warning(message, doc.source, target.line)
                     for target, message in self.labels.repeats(self.config.root / doc.source).values())

    def unresolved(self, source: Path, warnings: tuple[str, ...]) -> tuple[str, ...]:
        """``warnings`` of the document of ``source`` but those of its references to other pages'
        labels that the site resolves (asked each build: a label comes or goes without a parse
        of the page referring to it)."""
        if not any("`: no " in w for w in warnings):
            return warnings
        from generator.myst import resolvable

        find = functools.partial(self.labels.find, self.config.root / source)
        return tuple(w for w in warnings if not resolvable(w, find))

    def collection(self, name: str) -> Any:
        """A collection by the name templates know it by: ``posts``, ``tags``, a taxonomy's...
        (an empty one for a taxonomy site.yaml no longer has, which the last build read)."""
        if name in self.classified:
            return self.classified[name]
        if name == "collections":      # name -> its documents
            return self.collections
        return getattr(self, name) if name in SITE_COLLECTIONS else {}


def assemble(documents: list[Document], data: dict[str, Any], config: Config, *,
             now: datetime, drafts: bool = False, future: bool = False,
             unplaced: Iterable[Document] | None = None) -> Site:
    """Place every document (or those ``unplaced``: the others hold their placement by ``config``),
    select what is published and build the collections."""
    place_all(documents if unplaced is None else unplaced, config)
    posts, pages = [], []
    collected: dict[str, list[Document]] = {name: [] for name in config.collections}
    hidden_drafts = 0
    for doc in documents:
        if doc.draft and not drafts:
            hidden_drafts += 1
            continue
        collection = collection_of(doc, config)
        if collection is not None:
            collected[collection].append(doc)
        elif doc.kind == "post":
            if doc.date > now and not future:
                continue
            posts.append(doc)
        else:
            pages.append(doc)
    posts.sort(key=lambda d: (d.date, d.source.as_posix()), reverse=True)   # a day's by path, as Jekyll's Document#<=>
    pages.sort(key=lambda d: d.url)
    for doc in documents:  # documents kept between builds may carry old links
        doc.previous = doc.next = None
    for newer, older in zip(posts, posts[1:]):
        newer.previous, older.next = older, newer

    by_year: dict[int, list[Document]] = defaultdict(list)
    for post in posts:
        by_year[post.date.year].append(post)

    for name, docs in collected.items():
        docs[:] = ordered(docs, config.collections[name], f"{PAGES}/_{name}/")
        for earlier, later in zip(docs, docs[1:]):     # Jekyll's next and previous of a collection's document
            earlier.next, later.previous = later, earlier
    check_unique_urls(posts + pages + [d for name, docs in collected.items() if config.collections[name].output
                                       for d in docs])
    people = read_people(config, data)
    return Site(
        config=config,
        posts=posts,
        pages=pages,
        data=data,
        tags=classify(posts, "{tags}"),
        categories=classify(posts, "{categories}"),
        years=sorted(by_year.items(), reverse=True),
        people=people,
        authors=posts_by_author(posts, people, data_file(config)) if people else {},
        collections=collected,
        hidden_drafts=hidden_drafts,
        classified={taxonomy.name: classify(posts, taxonomy.key, taxonomy.order) for taxonomy in config.taxonomies},
    )


def collection_of(doc: Document, config: Config) -> str | None:
    """The collection of site.yaml a page is in (``content/pages/_NAME/...``), if any."""
    parts = doc.source.parts
    if doc.kind != "page" or len(parts) < 4 or parts[:2] != ("content", "pages") or parts[2][:1] != "_":
        return None
    return parts[2][1:] if parts[2][1:] in config.collections else None


def ordered(docs: list[Document], collection: Collection, folder: str) -> list[Document]:
    """A collection's documents in Jekyll 4.3's order (``Collection#sort_docs!``): those ``order``
    names first, as it names them, then the others; else by ``sort_by``, documents without
    the key last; else, and between equals, by date where both have one, then by path."""
    def compare(a: Document, b: Document) -> int:
        if collection.sort_by:
            x, y = a.meta.get(collection.sort_by), b.meta.get(collection.sort_by)
            if (x is None) != (y is None):
                return 1 if x is None else -1
            try:
                if x is not None and x != y:
                    return -1 if x < y else 1
            except TypeError:     # values Ruby cannot compare either: by the documents
                pass
        if a.date and b.date and a.date != b.date:
            return -1 if a.date < b.date else 1
        return (a.source.as_posix() > b.source.as_posix()) - (a.source.as_posix() < b.source.as_posix())

    if collection.order:
        by_path = sorted(docs, key=lambda d: d.source.as_posix())
        listed = {folder + name: None for name in collection.order}
        paths = {d.source.as_posix(): d for d in by_path}
        return [paths[p] for p in {**listed, **dict.fromkeys(paths)} if p in paths]
    return sorted(docs, key=functools.cmp_to_key(compare))


def classify(posts: list[Document], key: str, order: str = "name") -> dict[str, list[Document]]:
    """Key -> its posts (newest first) for a taxonomy's ``key`` pattern (see
    :class:`generator.config.Taxonomy`); keys by name, or by their newest post."""
    groups: dict[str, list[Document]] = defaultdict(list)
    for post in posts:
        for name in _keys_of(post, key):
            groups[name].append(post)
    return dict(groups) if order == "newest" else dict(sorted(groups.items(), key=lambda kv: kv[0].lower()))


WHOLE_FIELDS = ("{tags}", "{categories}", "{authors}")


def _keys_of(post: Document, key: str) -> Iterator[str]:
    """A post's keys: one for each item of each list field the pattern names (none if one is empty)."""
    if key in WHOLE_FIELDS:     # the pattern is one list field: its items, as they are
        return iter(getattr(post, key[1:-1]))
    lists = _list_fields(key)
    return (key.format(date=post.date, **dict(zip(lists, items)))
            for items in itertools.product(*(getattr(post, name) for name in lists)))


@functools.lru_cache(maxsize=32)
def _list_fields(key: str) -> tuple[str, ...]:
    fields = (name for _, name, _, _ in string.Formatter().parse(key) if name is not None)
    return tuple(name for name in dict.fromkeys(fields) if name != "date")


def check_unique_urls(documents: list[Document]) -> None:
    """Refuse two sources that would write the same file, naming both."""
    claimed: dict[str, Document] = {}
    for doc in documents:
        key = doc.output_path
        if key in claimed:
            other = claimed[key]
            pattern = all(d.kind == "post" and "permalink" not in d.meta for d in (doc, other))
            why = " (site.yaml's permalink gives both posts this URL)" if pattern else ""
            raise SiteError(f"{doc.url} is claimed by both {other.source} and {doc.source}{why}", doc.source)
        claimed[key] = doc
