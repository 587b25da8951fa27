"""Documents: sources parsed, or taken from the parse cache where their inputs are as they were."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

from generator import __version__, installed, parallel
from generator import progress as reporting
from generator.cache import DataCache, digest, digest_after, hasher, local_key
from generator.config import Config, setting_digest
from generator.errors import warning
from generator.layout import DEFAULT_THEME, VENDOR
from generator.plugins import extensions
from generator.deps import value_digest
from generator.site import Document, LazyDocument, SlimDocument, parse_document, well_formed
from generator.sources import Source, load_data, load_source

# Characters of HTML a build holds in its documents before it holds the rest slim: below it (a
# few thousand posts) the renders take the HTML from memory, not from the parse cache again.
HELD_IN_FULL = 64 * 2**20


@dataclass(frozen=True)
class DocumentStats:
    """How a build got its documents: parsed, or as an earlier parse left them (the parse cache;
    in the preview, memory)."""

    parsed: int = 0
    cached: int = 0

    def __add__(self, other: DocumentStats) -> DocumentStats:
        return DocumentStats(self.parsed + other.parsed, self.cached + other.cached)

    def summary(self) -> str:
        return f"{self.parsed} documents parsed, {self.cached} from cache"


class Listed(NamedTuple):
    """A source file of the site, as discovered."""

    kind: str            # post, page, data (a docs page is the docs bundle's)
    path: Path           # relative to the site
    name: str            # its path as the file index knows it


class Parsed(NamedTuple):
    """A source as the engine holds it between builds."""

    digest: str          # of its bytes
    key: str             # its parse key: the document but its placement is a function of it
    document: Document

    @property
    def placed_key(self) -> str:
        """Its parse key and its placement (generator.placement): what the whole document is a
        function of, so that a document placed elsewhere counts as changed."""
        doc = self.document
        return digest(self.key, repr((doc.url, doc.date, doc.categories)))


def parse_documents(sources: list[Source], tree: Path, config: Config,
                    refresh: bool = False) -> tuple[list[Document], int]:
    """Parse every source (read from ``tree``: the site, or a docs version's export), from the
    cache where the same input was parsed before; and how many were parsed."""
    entries = [(s.kind, s.path, s.digest) for s in sources]
    loaded = {str(s.path): s for s in sources}
    parsed, count = load_documents(config, entries, refresh, load=lambda kind, path: loaded[str(path)], tree=tree)
    return [doc for _, doc in parsed.values()], count


def load_documents(config: Config, sources: list[tuple[str, Path, str]], refresh: bool = False,
                   load: Callable[[str, Path], Source] | None = None,
                   summaries: Mapping[str, tuple[str, dict]] = {},
                   tree: Path | None = None,
                   ready: Mapping[str, Document] = {},
                   slim: bool = False) -> tuple[dict[str, tuple[str, Document]], int]:
    """Source path -> (parse key, Document) for ``(kind, path, digest)`` sources; and how many
    were parsed.

    A document is a function of its source's bytes, its reader and the
    settings and files its parse read, so it is taken from the disk cache
    (filed under the first two) when those settings and files are as they
    were; only the others are read (``load``) and parsed, in worker processes when
    many, which also file what they parse in the cache. Where the last build
    summed the document up under the same key (``summaries``), the summary
    stands for it and its HTML is read from the cache only if a render wants it.
    ``tree`` is where the sources lie (the site unless given); ``ready`` holds
    documents parsed already (:func:`parse_uncached`, in a child), by their cache keys.
    With ``slim``, each document past the first :data:`HELD_IN_FULL` characters of HTML is held
    without its HTML (but its excerpt) as soon as it is had (a :class:`SlimDocument`), which is
    read from the cache again where a render wants it.
    """
    load = load or partial(load_source, config.root)
    cache = document_cache(config)
    keys = document_keys(config, sources)
    summed: dict[int, str] = {}      # source -> parse key, where the last build's summary stands for it
    room = HELD_IN_FULL              # characters of HTML still to hold in full

    def held(i: int, doc: Document | None) -> Document | None:
        nonlocal room
        if not slim or doc is None or isinstance(doc, LazyDocument):
            return doc
        if len(doc.content) <= room:
            room -= len(doc.content)
            return doc
        kind, path, _ = sources[i]
        full = partial(_cached_or_parsed, config, cache, keys[i], partial(load, kind, path))
        return SlimDocument(full, doc, {name: value_digest(getattr(doc, name)) for name in SlimDocument.REREAD})

    def summed_up(i: int) -> Document | None:
        kind, path, _ = sources[i]
        key, fields = summaries.get(str(path), (None, None))
        if fields is None or key != parse_key(keys[i], fields["inputs"], fields["settings"], begun):
            return None
        summed[i] = key
        full = partial(_cached_or_parsed, config, cache, keys[i], partial(load, kind, path))
        return LazyDocument(full, path, fields)

    # The summaries share one tuple per distinct value of the settings a parse read (most
    # documents, one): the hash of its text and whether it moved are found once per tuple,
    # which is held with them so that its id stays its own.
    shared: dict[int, list] = {}       # id -> [settings, settings_hasher(settings), moved or None]

    def of(settings: tuple) -> list:
        found = shared.get(id(settings))
        if found is None or found[0] is not settings:
            found = shared[id(settings)] = [settings, settings_hasher(settings), None]
        return found

    def begun(settings: tuple) -> Any:
        return of(settings)[1]

    def moved(doc: Document) -> bool:
        found = of(doc.settings)
        if found[2] is None:
            found[2] = settings_moved(doc, setting_now)
        return found[2]

    with reporting.current().stage("parsing", len(sources), "documents") as stage:
        # A document is also a function of the settings and files (includes, data) its parse read.
        setting_now = functools.cache(partial(setting_digest, config))

        def kept(i: int) -> Document | None:
            doc = None if refresh or keys[i] in ready else summed_up(i) or cache.get(keys[i])
            if doc is None or moved(doc) \
                    or inputs_moved(doc, lambda name: _file_digest(config.root, name)):
                return None
            return held(i, doc)

        documents = [kept(i) for i in range(len(keys))]
        todo = [i for i, doc in enumerate(documents) if doc is None]
        for i in todo:
            summed.pop(i, None)
        stage.advance(len(sources) - len(todo))
        for i in todo:
            documents[i] = held(i, ready.get(keys[i]))
        parsed_here = [i for i in todo if documents[i] is None]
        stage.advance(len(todo) - len(parsed_here))
        done = iter(parsed_here)
        for chunk in parallel.map(partial(_parse_item, config, cache), ToParse(
                [keys[i] for i in parsed_here], [sources[i][:2] for i in parsed_here], load), warm=True):
            for doc in chunk:
                i = next(done)
                documents[i] = held(i, doc)
            stage.advance(len(chunk))
    warn_unknown_keys(config, [(path, doc) for (kind, path, _), doc in zip(sources, documents)
                               if kind in ("post", "page", "docs")], tree or config.root)
    return {str(path): (summed.get(i) or parse_key(key, doc.inputs, doc.settings), doc)
            for i, ((_, path, _), key, doc) in enumerate(zip(sources, keys, documents))}, len(todo)


def load_data_file(config: Config, path: Path, file_digest: str) -> Any:
    """A data file's YAML, parsed, or as the parse of the same bytes (by the same sitegen and
    PyYAML) left it in ``.sitegen/``: a build that changed no data file loads no YAML parser."""
    cache = DataCache(config.state_dir / "cache" / "data", "data-yaml", local_key(config.state_dir))
    key = digest(file_digest, code_digest(), installed.version("PyYAML") or "")
    kept = cache.get(key)
    if isinstance(kept, dict) and "value" in kept:
        return kept["value"]
    value = load_data(load_source(config.root, "data", path))
    cache.put(key, {"value": value}, exact=True)
    return value


def document_cache(config: Config) -> DataCache:
    return DataCache(config.state_dir / "cache" / "documents", "document", local_key(config.state_dir), well_formed)


def document_keys(config: Config, sources: list[tuple[str, Path, str]]) -> list[str]:
    """The parse cache's key of each ``(kind, path, digest)`` source: its bytes, its reader's
    settings, the code. The other settings a parse read are noted in its document, and
    checked against the config when it is taken from the cache (:func:`settings_moved`)."""
    from generator.readers import reader_for

    fingerprint = code_digest()
    # Each reader's settings begin the keys of its sources: hashed once, not once per source.
    read_by = [reader_for(path) for _, path, _ in sources]
    begun = {reader: hasher(fingerprint, *reader.cache_key(config)) for reader in set(read_by)}
    return [digest_after(begun[reader], kind, str(path), source_digest)
            for (kind, path, source_digest), reader in zip(sources, read_by)]


def parse_uncached(config: Config, sources: list[tuple[str, Path, str]]) -> dict[str, Document]:
    """The documents of ``sources`` that the parse cache does not hold, parsed (and filed in
    it), by their keys: the documents an edit changed, parsed in a child while the build reads
    its records (:meth:`Engine.parse_ahead`)."""
    cache = document_cache(config)
    setting_now = functools.cache(partial(setting_digest, config))
    return {key: _parse_and_keep(config, cache, key, load_source(config.root, kind, path))
            for (kind, path, _), key in zip(sources, document_keys(config, sources))
            if (kept := cache.get(key)) is None or settings_moved(kept, setting_now)}


def parse_key(key: str, inputs: tuple, settings: tuple, begun: Callable[[tuple], Any] | None = None) -> str:
    """What a document was made from: the settings its parse read, the files its Liquid read (if
    any) and its source (its cache ``key``). The settings first, so that the hash of their text
    (``begun``: :func:`settings_hasher`, found once for the many documents that share them) is
    not made again for each document (100,000 at 100,000 posts)."""
    return digest_after(settings_hasher(settings) if begun is None else begun(settings), repr(inputs), key)


def settings_hasher(settings: tuple) -> Any:
    """The hash :func:`parse_key` begins with, fed the settings."""
    return hasher(repr(settings))


def _parse_and_keep(config: Config, cache: DataCache, key: str, source: Source) -> Document:
    document = parse_document(source, config)
    cache.put(key, document)
    return document


def _parse_item(config: Config, cache: DataCache, item: tuple[str, Source]) -> Document:
    return _parse_and_keep(config, cache, *item)


class ToParse(Sequence):
    """(cache key, source) of each document to parse, each source read when asked for: by the
    worker that parses it, where workers are forked."""

    def __init__(self, keys: list[str], entries: list[tuple[str, Path]], load: Callable[[str, Path], Source]):
        self.keys, self.entries, self.load = keys, entries, load

    def __getitem__(self, i: int) -> tuple[str, Source]:
        return self.keys[i], self.load(*self.entries[i])

    def __len__(self) -> int:
        return len(self.keys)


def _cached_or_parsed(config: Config, cache: DataCache, key: str, load: Callable[[], Source]) -> Document:
    """A summed-up document in full: from the cache, or (the cache cleared or filed over since)
    parsed again."""
    kept = cache.get(key)
    if kept is None or settings_moved(kept, partial(setting_digest, config)):
        return _parse_and_keep(config, cache, key, load())
    return kept


def settings_moved(doc: Document, digest_of: Callable[[str], str]) -> bool:
    """Whether a setting the document's parse read (its Liquid's ``site.title``, the
    permalink its ``post_url`` placed a post by) is not as it was."""
    return any(digest_of(name) != recorded for name, recorded in doc.settings)


def inputs_moved(doc: Document, digest_of: Callable[[str], str | None]) -> bool:
    """Whether a file the document's Liquid read (an include, a data file) is not as it was."""
    return any(digest_of(name) != recorded for name, recorded in doc.inputs)


def _file_digest(root: Path, name: str) -> str | None:
    try:
        return hashlib.sha256((root / name).read_bytes()).hexdigest()
    except OSError:
        return None


def warn_unknown_keys(config: Config, documents: list[tuple[Path, Document]], tree: Path) -> None:
    """Set each document's warnings of the front matter keys nothing reads (typos), at their line.

    Done after the parse cache, not in the parse: what is known depends on the
    templates (``page.meta.KEY``) and plugins, which a parse key does not cover. Asked of each
    document's keys (:attr:`Document.meta_keys`): the front matter itself is read of those
    with a key nothing reads.
    """
    from generator.frontmatter import known_keys, unknown_keys
    from generator.render import template_dirs

    if not documents:
        return
    known = known_keys(template_dirs(config)) | set(config.front_matter_keys)
    for path, doc in documents:
        doc.unread = ()
        if not known.issuperset(doc.meta_keys):
            text = (tree / path).read_text(encoding="utf-8", errors="replace")
            doc.unread = tuple(warning(w.message, w.path, w.line) for w in unknown_keys(doc.meta, known, path, text))


@functools.cache
def code_digest() -> str:
    """Stands for the code that turns inputs into outputs: ours, the plugins' and the libraries'.

    The default theme is part of sitegen: its templates and assets are hashed
    here, not tracked file by file. Readers add what their parses depend on to
    each parse's own key (see :mod:`generator.readers`); Pygments is here too
    for the stylesheet.
    """
    package = Path(__file__).parent.parent      # generator/
    # Its files stand for themselves, but for the chart libraries (megabytes, read by every
    # build): each folder's VERSION, which scripts/vendor-charts writes with them, stands for those.
    theme = [path for path in DEFAULT_THEME.rglob("*") if path.is_file()
             and not (path.suffix == ".js" and path.is_relative_to(VENDOR))]
    parts = [path.read_bytes() for path in sorted([*package.rglob("*.py"), *theme])]
    # By their installed versions, not by importing them: a build with nothing to do loads neither.
    versions = [installed.version(name) or "" for name in ("Jinja2", "Pygments", "PyYAML", "Pillow")]
    return digest(__version__, *versions, *parts, *extensions().fingerprint)
