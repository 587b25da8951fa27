"""Orchestrate builds: sources -> documents -> site -> plan -> outputs -> files.

A build runs in named stages (:class:`Engine`): scan, load, assemble, plan,
make, derive, write, record. It plans every file the site has through the
planners of :mod:`generator.outputs`, whose names it does not know, then makes
only the jobs whose inputs changed since the last build, and last the files
derived from the bytes of the others where those bytes changed. Each render is traced
(:mod:`generator.deps`); the keys it read (documents, collections, templates, data,
settings) are saved with its output, and the
output is made again only when its plan's inputs differ or one of those keys
resolves to something new. A build with nothing changed stops after comparing
file stamps (:mod:`generator.state`).

Documents are parsed and jobs made in worker processes when there are many
(:mod:`generator.parallel`); each job's reads come back with its result and
are recorded as if it had run here. Made files are held apart (in memory, or
staged in ``.sitegen/staging`` by the workers) until every job has
succeeded; only then is the output directory touched (:mod:`generator.output`),
and then only files whose bytes changed are written and files no longer
produced are removed. A failed build therefore leaves the previous site, and
the state for the next build, exactly as they were. Each stage reports to the
command's :mod:`generator.progress`.
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import hashlib
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

from generator import __version__, installed, parallel
from generator import progress as reporting
from generator.cache import DataCache, digest, digest_after, hasher, local_key
from generator.config import Config, load_config, setting_digest
from generator.deps import LINKED_FIELDS, Key, KeyIndex, Resolver, Settings, Views, tracing, value_digest
from generator.errors import SiteError, warning
from generator.layout import (CONFIG_FILE, DEFAULT_THEME, INPUTS, STAGING_DIR, STATE_DIR, STATE_FILE, SWAPPABLE,
                              TEMPLATES, VENDOR)
from generator.lock import site_lock
from generator.options import BuildOptions
from generator.output import (OutputFiles, Staging, check_outputs, delete_outputs, folder_stamps, mark_ours,
                              safe_output_dir)
from generator.outputs import (Bundle, Derived, Phase, PlanContext, Planned, Planner, Registry, Remade, Report,
                               default_registry, site_view, transient_paths)
from generator.plan import Plan
from generator.plugins import extensions
from generator.site import (Document, LazyDocument, Site, assemble, parse_document, summary, timezone_of,
                            well_formed)
from generator.sources import Source, discover, discover_named, load_data, load_source, refuse_links_outside
from generator.state import (OUT_OF_DATE, BuildState, BundleRecord, DerivedRecord, FileIndex, OutputRecord, Records,
                             Stamp, files_read)

CONTENT_FIELDS = [f.name for f in dataclasses.fields(Document) if f.name not in LINKED_FIELDS]
# The settings that decide which files are inputs and where the outputs go: an edit of one is
# a build from nothing. Any other setting is a dependency key of the outputs that read it.
STRUCTURE = ("output", "theme", "static", "versions", "allow_symlinks_outside")


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


@dataclass
class BuildResult:
    site: Site | None                     # None when nothing changed: no site was assembled
    files: int                            # files the site has
    outputs: Mapping[str, bytes]          # the files this build made (all, in a full build)
    written: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    reports: dict[str, Report] = field(default_factory=dict)   # planner name -> what it did
    documents: DocumentStats = DocumentStats()
    render_warnings: tuple[str, ...] = ()    # warned of by renders (a page's Liquid listing the site)

    @property
    def warnings(self) -> list[str]:
        """``file:line: warning: ...`` for what the site's documents, their renders and the
        planners' work (docs pages, tutorials) use that sitegen left out."""
        documents = [w for doc in (self.site.documents if self.site else ()) for w in doc.reported]
        planners = [w for report in self.reports.values() for w in getattr(report, "warnings", ())]
        return documents + list(self.render_warnings) + planners

    def summary(self) -> str:
        return (f"{self.files} files: {len(self.written)} written, "
                f"{self.files - len(self.written)} unchanged, {len(self.deleted)} removed")


def build(root: str | Path = ".", options: BuildOptions = BuildOptions()) -> BuildResult:
    """Bring the site's output directory up to date, doing only the work edits require."""
    with site_lock(Path(root) / STATE_DIR, "sitegen build"):
        return Engine(root, options).build()


def render_site(config: Config, options: BuildOptions = BuildOptions(),
                planners: Registry | None = None) -> BuildResult:
    """Every file the site has, made in memory from scratch: the engine without saved state."""
    return Engine(config.root, options, planners, saved=False).render()


def plan_site(planners: Registry, ctx: PlanContext, config: Config,
              bundled: dict[str, list[tuple]]) -> tuple[Plan, dict[str, list[str]]]:
    """The plan, from every planner in phase order (a bundle's files as ``bundled`` holds them);
    and the paths each planner planned.

    What a planner read of the settings (``ctx.config``) while planning, its
    jobs may hold (a page's posts, by ``posts_per_page``): those settings'
    digests join each of its jobs' inputs, so an edit of one makes them again.
    """
    plan, owners = Plan(), {}
    for planner in planners:
        before = len(plan)
        if planner.phase is Phase.DERIVED or not switched_on(config, planner):
            continue     # a derived planner's files are made from the others' bytes, once those are made
        if planner.phase is Phase.BUNDLE:
            for job in bundled[planner.name]:
                plan.add(*job)
        else:
            with tracing() as trace:
                planner.plan(ctx, plan)
            read = tuple(sorted((key[1], setting_digest(config, key[1])) for key in trace.reads
                                if key[0] == "setting"))
            if read:
                for path in list(itertools.islice(plan, before, None)):
                    plan[path] = plan[path]._replace(inputs=(plan[path].inputs, read))
        owners[planner.name] = list(itertools.islice(plan, before, None))
    return plan, owners


def switched_on(config: Config, planner: Planner) -> bool:
    """Is the output ``planner`` makes wanted (site.yaml ``outputs: {NAME: false}`` makes none)?"""
    return config.outputs.get(planner.name, True)


def check_output_names(config: Config, planners: Registry) -> None:
    """site.yaml ``outputs`` names outputs there are: a typo would leave a file made."""
    names = planners.names()
    for name in config.outputs:
        if name not in names:
            raise SiteError(f"key 'outputs.{name}': no output is named {name!r} (known: {', '.join(names)})",
                            config.root / CONFIG_FILE)


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
                   ready: Mapping[str, Document] = {}) -> tuple[dict[str, tuple[str, Document]], int]:
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
    """
    load = load or partial(load_source, config.root)
    cache = document_cache(config)
    keys = document_keys(config, sources)

    def summed_up(i: int) -> Document | None:
        kind, path, _ = sources[i]
        key, fields = summaries.get(str(path), (None, None))
        if fields is None or key != parse_key(keys[i], fields["inputs"], fields["settings"]):
            return None
        full = partial(_cached_or_parsed, config, cache, keys[i], partial(load, kind, path))
        return LazyDocument(full, path, fields)

    with reporting.current().stage("parsing", len(sources), "documents") as stage:
        documents = [None if refresh or keys[i] in ready else summed_up(i) or cache.get(keys[i])
                     for i in range(len(keys))]
        # A document is also a function of the settings and files (includes, data) its parse read.
        setting_now = functools.cache(partial(setting_digest, config))
        documents = [None if doc is None or _settings_moved(doc, setting_now)
                     or _inputs_moved(doc, lambda name: _file_digest(config.root, name)) else doc
                     for doc in documents]
        todo = [i for i, doc in enumerate(documents) if doc is None]
        stage.advance(len(sources) - len(todo))
        for i in todo:
            documents[i] = ready.get(keys[i])
        parsed_here = [i for i in todo if documents[i] is None]
        stage.advance(len(todo) - len(parsed_here))
        if parallel.can_fork(len(parsed_here)) or not parallel.worth_workers(len(parsed_here)):
            def parse(n: int) -> Document:
                i = parsed_here[n]
                return _parse_and_keep(config, cache, keys[i], load(*sources[i][:2]))
            chunks = parallel.fork_map(parse, len(parsed_here))
        else:   # this process runs threads (the preview): workers started afresh, sources sent to them
            chunks = parallel.spawn_map(partial(_parse_and_keep, config, cache), [keys[i] for i in parsed_here],
                                        [load(*sources[i][:2]) for i in parsed_here])
        done = iter(parsed_here)
        for chunk in chunks:
            for doc in chunk:
                documents[next(done)] = doc
            stage.advance(len(chunk))
    warn_unknown_keys(config, [(path, doc) for (kind, path, _), doc in zip(sources, documents)
                               if kind in ("post", "page", "docs")], tree or config.root)
    return {str(path): (parse_key(key, doc.inputs, doc.settings), doc)
            for (_, path, _), key, doc in zip(sources, keys, documents)}, len(todo)


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
    checked against the config when it is taken from the cache (:func:`_settings_moved`)."""
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
            if (kept := cache.get(key)) is None or _settings_moved(kept, setting_now)}


def parse_key(key: str, inputs: tuple, settings: tuple) -> str:
    """What a document was made from: its source (its cache ``key``), the settings its parse
    read and, if any, the files its Liquid read."""
    return digest(key, repr(inputs), repr(settings))


def _parse_and_keep(config: Config, cache: DataCache, key: str, source: Source) -> Document:
    document = parse_document(source, config)
    cache.put(key, document)
    return document


def _cached_or_parsed(config: Config, cache: DataCache, key: str, load: Callable[[], Source]) -> Document:
    """A summed-up document in full: from the cache, or (the cache cleared or filed over since)
    parsed again."""
    kept = cache.get(key)
    if kept is None or _settings_moved(kept, partial(setting_digest, config)):
        return _parse_and_keep(config, cache, key, load())
    return kept


def _settings_moved(doc: Document, digest_of: Callable[[str], str]) -> bool:
    """Whether a setting the document's parse read (its Liquid's ``site.title``, the
    permalink) is not as it was."""
    return any(digest_of(name) != recorded for name, recorded in doc.settings)


def _inputs_moved(doc: Document, digest_of: Callable[[str], str | None]) -> bool:
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
    templates (``page.meta.KEY``) and plugins, which a parse key does not cover.
    """
    from generator.frontmatter import known_keys, unknown_keys
    from generator.render import template_dirs

    if not documents:
        return
    known = known_keys(template_dirs(config))
    for path, doc in documents:
        doc.unread = ()
        if not known.issuperset(doc.meta):
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
    package = Path(__file__).parent
    # Its files stand for themselves, but for the chart libraries (megabytes, read by every
    # build): each folder's VERSION, which scripts/vendor-charts writes with them, stands for those.
    theme = [path for path in DEFAULT_THEME.rglob("*") if path.is_file()
             and not (path.suffix == ".js" and path.is_relative_to(VENDOR))]
    parts = [path.read_bytes() for path in sorted([*package.rglob("*.py"), *theme])]
    # By their installed versions, not by importing them: a build with nothing to do loads neither.
    versions = [installed.version(name) or "" for name in ("Jinja2", "Pygments", "PyYAML")]
    return digest(__version__, *versions, *parts, *extensions().fingerprint)


class Listed(NamedTuple):
    """A source file of the site, as discovered."""

    kind: str            # post, page, data (a docs page is the docs bundle's)
    path: Path           # relative to the site
    name: str            # its path as the file index knows it


class Parsed(NamedTuple):
    """A source as the engine holds it between builds."""

    digest: str          # of its bytes
    key: str             # its parse key: the document is a function of it
    document: Document


@dataclass(frozen=True)
class Made:
    """One job's result: the digest of its bytes, what its render read and warned of, and where
    its bytes are: ``data`` (in memory), ``staged`` (a :class:`Staging` name), or already in the
    output directory as they are (``stamp``)."""

    digest: str
    reads: frozenset[Key]
    warnings: tuple[str, ...] = ()
    data: bytes | None = None
    staged: str | None = None
    stamp: Stamp | None = None


@dataclass
class Scan:
    """What the scan stage found: the configuration and which inputs and outputs changed."""

    config: Config
    out_dir: Path
    world: str                      # the site's structure, options and code: all recorded work depends on it
    fresh: bool                     # nothing recorded applies
    index: FileIndex
    changed: set[str]               # input files that changed since the last build
    external: tuple                 # (planner, what it depends on outside the files)
    tampered: set[str]              # outputs changed on disk since the last build wrote them
    strays: set[str]                # files in the output folder no build made
    empty: list[str]                # empty folders there
    now: datetime
    due: bool                       # the clock crossed a post's date

    def nothing_to_do(self, state: BuildState, load: bool) -> bool:
        return (all(report.reusable for report in state.reports.values()) and not state.derived_out_of_date()
                and not (load or self.fresh or self.changed or self.tampered or self.strays or self.empty
                         or self.due or self.external != state.external))


@dataclass(frozen=True)
class Assembled:
    """The site of one build, and the views its renders read through."""

    site: Site
    listing: list[Listed]
    parsed: dict[str, Parsed]       # source path -> what it parsed to
    views: Views
    site_view: dict[str, Any]


@dataclass
class PlanResult:
    """The plan stage's result: every file and who planned it, the bundles' records and reports."""

    plan: Plan
    owners: dict[str, list[str]]                # planner name -> the paths it planned
    bundles: dict[str, BundleRecord]
    reports: dict[str, Any]
    ctx: PlanContext


@dataclass
class Derivation:
    """The derive stage's result: the whole plan (the derived planners' files added to the
    others'), and for each derived planner its paths, its groups' records and its report."""

    plan: Plan
    owners: dict[str, list[str]] = field(default_factory=dict)
    records: dict[str, dict[str, DerivedRecord]] = field(default_factory=dict)
    reports: dict[str, Remade] = field(default_factory=dict)


class Engine:
    """Builds one site again and again, redoing only what each edit touched.

    ``sitegen build`` makes one from the state saved in ``.sitegen/`` and uses
    it once; ``sitegen serve`` keeps one alive, so its documents, templates
    and dependency records stay in memory between rebuilds. With
    ``saved=False`` it starts from nothing and leaves nothing:
    :func:`render_site` is that engine, asked for the files alone.

    A build runs in named stages: :meth:`scan` (what changed), :meth:`load`
    (parse what changed), :meth:`assemble` (the site), :meth:`plan` (every
    planner of the registry), :meth:`make` (the jobs whose inputs or reads
    changed), :meth:`derive` (the files made from the others' bytes, where
    those changed), :meth:`write` (only then the output folder) and
    :meth:`record` (the state for the next build).
    """

    def __init__(self, root: str | Path = ".", options: BuildOptions = BuildOptions(),
                 planners: Registry | None = None, saved: bool = True):
        self.root = Path(root).resolve()
        self.options = options
        self.planners = planners or default_registry()
        self.state_path = self.root / STATE_DIR / STATE_FILE
        self.state = BuildState.load(self.state_path) if saved else BuildState()
        self.data_files: dict[str, Any] = {}        # data file digest -> its parsed YAML
        self.renderer: Any = None                  # generator.render.Renderer, once a build needs one
        self.config: Config | None = None          # as the last successful build read it
        self.last: Assembled | None = None         # the last successful build's site ...
        self.last_plan: PlanResult | None = None     # ... and its plan
        self.warm = False              # the last build succeeded: the files on disk are as the state says
        self.interned: dict[Key, Key] = {}
        self._keys: KeyIndex | None = None         # made from the records when a build needs them
        self.render_warnings: dict[str, tuple[str, ...]] = {}   # output path -> its render's warnings
        self.planners_parsed = DocumentStats()     # this build's parses for planners (docs pages)

    def build(self, now: datetime | None = None, save: bool = True,
              changed: Iterable[str] | None = None, load: bool = False, derive: bool = True) -> BuildResult:
        """Bring the output directory up to date (see :meth:`_build`), with the cyclic collector off.

        A build makes few reference cycles and holds hundreds of thousands of
        objects to its end (the records, the documents, the plan), which each
        collection its allocations set off would walk again: at 10,000 posts,
        0.2-0.9 s of an edit build. Workers collect as usual; the preview
        collects after each rebuild.
        """
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._build(now, save, changed, load, derive)
        finally:
            if collecting:
                gc.enable()

    def _build(self, now: datetime | None, save: bool, changed: Iterable[str] | None, load: bool,
               derive: bool) -> BuildResult:
        """Bring the output directory up to date.

        ``save=False`` keeps the state in memory only. ``changed`` names the
        files (and folders) a watcher saw change since the last build, so that
        only those are looked at; it is ignored by the first build of an
        engine and after a failed one, which look at every file. ``load``
        assembles the site even if nothing changed, to have it in memory for
        the next build (the preview's first edit). ``derive=False`` leaves the
        files derived from pages whose pages changed (a search index) as they
        were, marked out of date, for the next build to make: the preview shows
        an edit first, then catches up.
        """
        warm, self.warm = self.warm, False
        self.planners_parsed = DocumentStats()
        progress = reporting.current()
        with progress.stage("scanning"):
            scan = self.scan(now, changed, warm)
        state = self.state
        if scan.nothing_to_do(state, load):
            self.warm, self.config = True, scan.config
            reports = {p.name: state.reports[p.name].reused() if p.name in state.reports
                       else Planned(state.planned.get(p.name, 0)) for p in self.planners}
            return BuildResult(None, len(state.stamps), {}, reports=reports)
        ahead = None if warm else self.parse_ahead(scan)
        try:
            records = state.records
            self.ready_renderer(scan)
            swapped = self.swap_in(scan) if warm else None
            if swapped:
                assembled, documents = swapped
            else:
                loaded, documents = self.load(scan, ahead.result() if ahead else {})
                with progress.stage("assembling"):
                    assembled = self.assemble(scan, loaded)
        finally:
            if ahead:
                ahead.close()
        with progress.stage("planning"):
            resolver = Resolver(assembled.site, {s: p.document for s, p in assembled.parsed.items()},
                                scan.index.digest,
                                partial(self.renderer.template_digest, file_digest=scan.index.digest))
            order = resolver.identities(("posts",))
            moved = self.changed_keys(resolver, assembled.parsed, order != records.order,
                                      placed=swapped is None)
            planned = self.plan(scan, assembled, moved, reuse=swapped is not None)
            if not self.options.allow_removals:     # derived files (a search index) are not the site's content
                derived_before = {path for groups in records.derived.values() for record in groups.values()
                                  for path in record.files}
                transient = transient_paths(scan.config, self.planners)
                present = {path for path in state.stamps.keys() | scan.strays
                           if not within(path, transient)} - derived_before
                refuse_mass_removal(present - planned.plan.keys(), len(present), scan.out_dir)
        staging = Staging(scan.out_dir, self.root / STATE_DIR / STAGING_DIR, state.stamps, records.outputs)
        try:
            made = self.make(planned.plan, self.outdated(planned.plan, planned.plan, scan.tampered, moved), staging)
            with progress.stage("deriving"):
                derived = self.derive(scan, planned, made, staging, remake=derive)
            plan = derived.plan
            made |= self.make(plan, self.outdated(plan, plan.keys() - planned.plan.keys(), scan.tampered, moved),
                              staging)
            written, deleted, stamps = self.write(scan, plan, made, staging)
        finally:
            staging.discard()
        with progress.stage("recording"):
            last = state.folders if state.folders is not None and not scan.fresh else None
            touched = [*written, *deleted, *(f"{folder}/" for folder in scan.empty)]   # folders of these moved
            folders = folder_stamps(scan.out_dir, plan if last is None else touched, last)
            self.record(scan, assembled, planned, derived, made, stamps, folders, moved, resolver, order,
                        swapped=swapped is not None)
            if save:
                self.save()
        return BuildResult(assembled.site, len(plan), OutputFiles(scan.out_dir, made), written, deleted,
                           self.reports(planned, derived, made), documents + self.planners_parsed, self.warned())

    def render(self, now: datetime | None = None) -> BuildResult:
        """Every file of the site, made in memory; the output folder and the state untouched."""
        self.planners_parsed = DocumentStats()
        scan = self.scan(now, None, warm=False, output=False)
        self.ready_renderer(scan)
        loaded, documents = self.load(scan)
        assembled = self.assemble(scan, loaded)
        planned = self.plan(scan, assembled, {}, reuse=False)
        made = self.make(planned.plan, planned.plan.keys())
        derived = self.derive(scan, planned, made)
        made |= self.make(derived.plan, derived.plan.keys() - made.keys())
        return BuildResult(assembled.site, len(derived.plan), {path: m.data for path, m in made.items()},
                           reports=self.reports(planned, derived, made), documents=documents + self.planners_parsed,
                           render_warnings=tuple(w for m in made.values() for w in m.warnings))

    # --- the stages -------------------------------------------------------

    def scan(self, now: datetime | None, changed: Iterable[str] | None, warm: bool,
             output: bool = True) -> Scan:
        """Read the config; find which inputs changed, and (``output``) whether the output folder
        is as the last build left it."""
        config = load_config(self.root)
        out_dir = safe_output_dir(config)
        warm = warm and out_dir.is_dir()   # deleted under a running preview: check every output
        world = digest(*(repr(getattr(config, name)) for name in STRUCTURE),
                       repr((self.options.drafts, self.options.future)), code_digest())
        fresh = self.options.refresh or bool(self.options.rerun) or world != self.state.world
        if fresh:                       # structure or code changed, or a rerun: nothing recorded applies
            self.state, self._keys = BuildState(saved=Records()), KeyIndex()
        state = self.state
        hint = changed if warm and not fresh else None
        if output and (fresh or not warm):
            # Every output is looked at while the inputs are: two stats of ten thousand files, two cores.
            with parallel.Background(check_outputs, out_dir, state.stamps, state.folders,
                                     worth=parallel.worth_background(len(state.stamps))) as checked:
                index, changed, external = self.scan_inputs(config, hint)
                tampered, strays, empty = checked.result()
        else:
            index, changed, external = self.scan_inputs(config, hint)
            tampered, strays, empty = set(), set(), []
        now = now or self.options.now or datetime.now(timezone_of(config))
        due = ((state.horizon is not None and now >= state.horizon)
               or (state.floor is not None and now < state.floor))
        return Scan(config, out_dir, world, fresh, index, changed, external, tampered, strays, empty, now, due)

    def scan_inputs(self, config: Config, hint: Iterable[str] | None) -> tuple[FileIndex, set[str], tuple]:
        """The inputs' index, the inputs that changed (among ``hint``, the files a watcher saw
        change, if given), and what each planner depends on outside the files."""
        watched = tuple(path for planner in self.planners for path in planner.watches(config))
        inputs = INPUTS + config.static_paths + config.theme_paths    # a planner's watched paths may lie anywhere
        published = inputs + tuple(v.archive for v in config.versions if v.archive)   # but not a docs archive

        def admit(name: str) -> None:
            """Refuse a file that a link brings in from outside, before its bytes are read."""
            if any(name == r or name.startswith(r + "/") for r in published):
                refuse_links_outside(self.root, (name,), config.allow_symlinks_outside)

        index = FileIndex(self.root, inputs + watched, self.state.files, set(self.state.extra), admit)
        changed = index.rescan(hint)
        return index, changed, tuple((p.name, p.external(config)) for p in self.planners)

    def parse(self, config: Config, sources: list[Source], tree: Path) -> list[Document]:
        """Documents for a planner (the docs pages, read from ``tree``), through the parse cache,
        counted with the build's."""
        documents, count = parse_documents(sources, tree, config, self.options.refresh)
        self.planners_parsed += DocumentStats(count, len(documents) - count)
        return documents

    def ready_renderer(self, scan: Scan) -> None:
        """A renderer of the templates as they are now (made only by a build with work to do),
        reading the settings through a recording view."""
        compiler = digest(scan.world, repr(scan.config))     # code, settings, options
        if scan.fresh or self.renderer is None or self.renderer.compiler != compiler:
            from generator.render import Renderer

            self.renderer = Renderer(Settings(scan.config), compiler=compiler)
        elif any(within(name, (TEMPLATES, *scan.config.theme_paths)) for name in scan.changed):
            self.renderer.env.cache.clear()  # the loader takes cached templates to be current

    def parse_ahead(self, scan: Scan) -> parallel.Background | None:
        """The documents whose files changed, parsed in a child while this process reads the
        records and readies the templates (an edit: a few documents, whose parse would else
        wait for those); None where nothing is to gain (a full build, many documents, a small
        site, a process that may not fork: :meth:`load` parses them with the rest)."""
        if scan.fresh or self.options.refresh or not parallel.worth_background(len(self.state.stamps)):
            return None
        present = [name for name in scan.changed if name in scan.index.current]
        sources = [(kind, path, scan.index.digest(path.as_posix()))
                   for kind, path in discover(self.root, present) if kind != "data"]
        if not sources or parallel.worth_workers(len(sources)):
            return None
        return parallel.Background(parse_uncached, scan.config, sources)

    def load(self, scan: Scan, ready: Mapping[str, Document] = {}
             ) -> tuple[tuple[list[Listed], dict[str, Parsed], dict[str, Any]], DocumentStats]:
        """The sources, each document (kept from the last build if its bytes, the files its
        Liquid read and the settings its parse read are as they were; in ``ready`` if parsed
        ahead), the data; and how many documents were parsed."""
        last, index = self.last, scan.index
        listing = last.listing if last is not None else None
        if scan.fresh or listing is None or index.listing_changed:
            listing = list(map(Listed._make, discover_named(self.root, index.current)))
        sources = [(s.kind, s.path, index.digest(s.name)) for s in listing]
        kept = {} if scan.fresh or self.options.refresh or last is None else last.parsed
        setting_now = functools.cache(partial(setting_digest, scan.config))
        todo = [s for s in sources if s[0] != "data" and ((held := kept.get(str(s[1]))) is None
                or held.digest != s[2] or _inputs_moved(held.document, index.digest)
                or _settings_moved(held.document, setting_now))]
        loaded, count = load_documents(scan.config, todo, self.options.refresh,
                                       summaries={} if scan.fresh else self.state.records.summaries, ready=ready)
        parsed = {str(path): Parsed(source_digest, *loaded[str(path)]) if str(path) in loaded
                  else kept[str(path)] for kind, path, source_digest in sources if kind != "data"}
        data_files = {key: self.data_files.get(key) or load_data_file(scan.config, path, key)
                      for kind, path, key in sources if kind == "data"}
        self.data_files = data_files     # by digest: true whether or not this build succeeds
        data = {path.stem: data_files[key] for kind, path, key in sources if kind == "data"}
        return (listing, parsed, data), DocumentStats(count, len(parsed) - count)

    def assemble(self, scan: Scan, loaded: tuple[list[Listed], dict[str, Parsed], dict[str, Any]]) -> Assembled:
        """Collections, URLs, neighbours: the site, and the recording views of it."""
        listing, parsed, data = loaded
        site = assemble([p.document for p in parsed.values()], data, scan.config, now=scan.now,
                        drafts=self.options.drafts, future=self.options.future)
        views = Views(site)
        return Assembled(site, listing, parsed, views, site_view(site, views))

    def swap_in(self, scan: Scan) -> tuple[Assembled, DocumentStats] | None:
        """After an edit that moves nothing, the last site with the new content (and how many
        documents were parsed); else None.

        If only posts, pages, templates or assets changed, no file appeared or
        went, and every document parsed again keeps its placement, then the
        collections and the plan of the last build are still right: the new
        content is written into the document objects they hold.
        """
        last, index, state = self.last, scan.index, self.state
        if last is None or scan.fresh or scan.due or scan.external != state.external:
            return None
        swappable = SWAPPABLE + scan.config.static_paths + scan.config.theme_paths
        if index.listing_changed or not all(within(name, swappable) for name in scan.changed):
            return None
        todo = [(s.kind, s.path, index.digest(s.name)) for s in last.listing if s.name in scan.changed
                or (s.kind != "data" and (doc := last.parsed[s.name].document).inputs
                    and _inputs_moved(doc, index.digest))]
        reparsed, count = load_documents(scan.config, todo, self.options.refresh)
        if any(placement(doc) != placement(last.parsed[source].document) for source, (_, doc) in reparsed.items()):
            return None
        parsed = dict(last.parsed)
        for _, path, source_digest in todo:
            key, doc = reparsed[str(path)]
            held = last.parsed[str(path)].document
            for name in CONTENT_FIELDS:
                setattr(held, name, getattr(doc, name))
            parsed[str(path)] = Parsed(source_digest, key, held)
        return dataclasses.replace(last, parsed=parsed), DocumentStats(count, len(parsed) - count)

    def plan(self, scan: Scan, assembled: Assembled, moved: dict[Key, str], reuse: bool) -> PlanResult:
        """Every planner, in phase order; bundles run only if what they read changed.

        ``reuse``: the site's structure is the last build's, so unless a bundle
        ran, the plan is the last one.
        """
        config, site = scan.config, assembled.site
        ctx = PlanContext(assembled.views.settings, site, assembled.views, assembled.site_view, self.renderer,
                          self.options, partial(self.parse, config),
                          scan.index.tree_digest, partial(site_digest, assembled.listing, scan.index, site),
                          dict(scan.external))
        bundles, bundled, reports = {}, {}, {}
        ran = False
        check_output_names(config, self.planners)
        for bundle in self.planners:
            if isinstance(bundle, Bundle) and switched_on(config, bundle):
                record, reports[bundle.name], bundled[bundle.name] = self.run_bundle(
                    bundle, dataclasses.replace(ctx, config=config), moved, scan.tampered)
                bundles[bundle.name] = record
                ran = ran or record is not self.state.records.bundles.get(bundle.name)
        last = self.last_plan
        if reuse and last is not None and not ran:
            return PlanResult(last.plan, last.owners, bundles, reports, ctx)
        plan, owners = plan_site(self.planners, ctx, config, bundled)
        return PlanResult(plan, owners, bundles, reports, ctx)

    def make(self, plan: Plan, paths: Iterable[str], staging: Staging | None = None) -> dict[str, Made]:
        """Run the jobs of ``paths`` (in worker processes when many): path -> what it made.

        With ``staging`` the bytes that differ from the output's are staged
        there, else kept in memory; either way the trace of each render is
        kept, to be recorded as if it had run here.
        """
        paths = sorted(paths)

        def job(i: int) -> Made:
            path = paths[i]
            with tracing() as trace:
                data = _bytes(plan[path].make())
            reads, warnings = frozenset(trace.reads), tuple(trace.warnings)
            if staging is None:
                return Made(value_digest(data), reads, warnings, data=data)
            staged, stamp = staging.put(path, data)
            return Made(value_digest(data), reads, warnings, staged=staged, stamp=stamp)

        made = {}
        with reporting.current().stage("rendering", len(paths), "files") as stage:
            for chunk in parallel.fork_map(job, len(paths)):
                for made_one in chunk:
                    path = paths[len(made)]
                    staged = staging.place(path, made_one.staged) if made_one.staged else None
                    made[path] = dataclasses.replace(made_one, reads=self.intern(made_one.reads), staged=staged)
                stage.advance(len(chunk))
        return made

    def derive(self, scan: Scan, planned: PlanResult, made: dict[str, Made], staging: Staging | None = None,
               remake: bool = True) -> Derivation:
        """The derived planners' files, group by group: made from the bytes of the other files
        (as this build made them, else as the output folder holds them) where those changed;
        else planned as the last build made them. Without ``remake``, a group whose bytes
        changed keeps its last files too, if it has them, recorded as out of date."""
        whole = Plan()
        whole.update(planned.plan)
        whole.unlisted = set(planned.plan.unlisted)
        derivation = Derivation(whole)
        settings = setting_digest(scan.config, "")     # all of them: a derived planner reads them unrecorded
        for planner in self.planners:
            if not isinstance(planner, Derived) or not switched_on(scan.config, planner):
                continue
            last, records, before = self.state.records.derived.get(planner.name, {}), {}, len(whole)
            for group, paths in groups_of(planner, scan.config, planned.plan).items():
                inputs = digest(settings,
                                *(part for path in paths for part in (path, self.digest_of(path, made))))
                records[group] = self.derive_group(planner, group, paths, inputs, last.get(group), remake,
                                                   planned.ctx, scan, OutputBytes(paths, made, scan.out_dir, staging),
                                                   whole)
            derivation.owners[planner.name] = list(itertools.islice(whole, before, None))
            derivation.records[planner.name] = records
            derivation.reports[planner.name] = Remade(
                made=tuple(g for g, r in records.items() if r is not last.get(g) and r.inputs != OUT_OF_DATE),
                kept=tuple(g for g, r in records.items() if r is last.get(g)),
                behind=tuple(g for g, r in records.items() if r.inputs == OUT_OF_DATE))
        return derivation

    def derive_group(self, planner: Derived, group: str, paths: list[str], inputs: str,
                     last: DerivedRecord | None, remake: bool, ctx: PlanContext, scan: Scan,
                     files_in: OutputBytes, plan: Plan) -> DerivedRecord:
        """Plan one group's files, made again or kept; its record for the next build."""
        outputs = self.state.records.outputs
        intact = last is not None and all(p in outputs and p not in scan.tampered for p in last.files)
        if intact and (last.inputs == inputs or not remake):       # an out of date one, rather than none
            for path, origin in last.files.items():
                plan.add(path, origin, _kept, outputs[path].inputs, listed=False)
            return last if last.inputs == inputs else DerivedRecord(OUT_OF_DATE, last.files)
        files = planner.make(ctx, group, files_in)
        for path, data in files.items():
            plan.add(path, files.origins[path], partial(_same, data), ("made", value_digest(data)), listed=False)
        return DerivedRecord(inputs, dict(files.origins))

    def digest_of(self, path: str, made: dict[str, Made]) -> str:
        """The digest of an output's bytes: as this build made them, else as the last one did."""
        return made[path].digest if path in made else self.state.records.outputs[path].digest

    def write(self, scan: Scan, plan: Plan, made: dict[str, Made], staging: Staging) -> tuple[
            list[str], list[str], dict[str, Stamp]]:
        """Everything is made: only now is the output directory touched. Written, deleted, stamps."""
        removed = (self.state.stamps.keys() | scan.strays) - plan.keys()
        staged = {path: m.staged for path, m in made.items() if m.staged is not None}
        with reporting.current().stage("writing", len(staged), "files"):
            if removed or scan.empty:
                mark_ours(scan.out_dir)     # before it loses a file: see safe_output_dir
            deleted = delete_outputs(scan.out_dir, removed, scan.empty)
            stamps = staging.commit(staged)
        stamps.update((path, m.stamp) for path, m in made.items() if m.staged is None)
        return sorted(staged), deleted, stamps

    def record(self, scan: Scan, assembled: Assembled, planned: PlanResult, derived: Derivation,
               made: dict[str, Made], stamps: dict[str, Stamp], folders: dict[str, int], moved: dict[Key, str],
               resolver: Resolver, order: tuple, swapped: bool = False) -> None:
        """The state for the next build: each output's inputs and reads, and the digests of those.

        ``swapped``: the site is the last one with new content (:meth:`swap_in`), every document
        placed as it was and no publication date passed, so the dates that bound what is
        published are the last build's.
        """
        state, plan = self.state, derived.plan
        outputs, kept = _within(state.records.outputs, plan), _within(state.stamps, plan)
        for path, m in made.items():
            outputs[path] = OutputRecord(plan[path].inputs, m.reads, m.digest)
        digests = state.records.digests.copy()
        digests.update(moved)
        read = set().union(*(m.reads for m in made.values()), *(b.reads for b in planned.bundles.values()))
        new_keys = {key for key in read if key not in digests}
        digests.update((key, resolver(key)) for key in new_keys)
        self.keys.extend(new_keys)
        documents = resolver.documents.values()
        if swapped:
            horizon, floor = state.horizon, state.floor
        else:
            horizon = publication_horizon(documents, scan.now, self.options)
            floor = publication_floor(documents, scan.now, self.options)
        unsaved = state.records.unsaved     # keys whose digests may differ from the records' files
        records = Records(outputs, {source: p.key for source, p in assembled.parsed.items()}, digests,
                          planned.bundles, order,
                          summaries_of(assembled.parsed, state.records.summaries,
                                       self.last.parsed if swapped and self.last else {}),
                          derived.records,
                          unsaved=None if unsaved is None else unsaved | moved.keys() | new_keys)
        self.state = BuildState(
            world=scan.world, files=scan.index.snapshot(), stamps={**kept, **stamps}, folders=folders,
            extra=tuple(sorted({*state.extra, *files_read(new_keys)})),   # digests only gain keys here
            reports={name: bundle.report for name, bundle in planned.bundles.items()},
            external=scan.external, horizon=horizon, floor=floor,
            planned={name: len(paths) for name, paths in {**planned.owners, **derived.owners}.items()},
            behind=any(r.inputs == OUT_OF_DATE for groups in derived.records.values() for r in groups.values()),
            saved=records, generation=state.generation, journal=state.journal, on_disk=state.on_disk)
        self.render_warnings = {path: warnings for path, warnings in self.render_warnings.items() if path in plan}
        self.render_warnings.update((path, m.warnings) for path, m in made.items())
        self.last, self.last_plan = assembled, planned
        self.config = scan.config
        self.warm = True

    # --- helpers ----------------------------------------------------------

    def warned(self) -> tuple[str, ...]:
        """The warnings of the renders whose files the site has, as they were last made."""
        return tuple(w for path in sorted(self.render_warnings) for w in self.render_warnings[path])

    def outdated(self, plan: Plan, paths: Iterable[str], tampered: set[str], moved: dict[Key, str]) -> set[str]:
        """The ``paths`` whose jobs must run: new, changed by hand, planned with other inputs,
        or having read what changed since."""
        outputs = self.state.records.outputs
        found: dict[int, set[int]] = {}
        return {path for path in paths if path in tampered or (record := outputs.get(path)) is None
                or record.inputs != plan[path].inputs or record.read_any(moved, found)}

    def reports(self, planned: PlanResult, derived: Derivation, made: dict[str, Any]) -> dict[str, Any]:
        """Planner name -> its report: a bundle's or derived planner's own, else how many files
        it has and made."""
        overridden = planned.plan.overridden
        return {**{name: planned.reports[name] if name in planned.reports
                   else Planned(len(paths), sum(path in made for path in paths),
                                tuple(overridden[path] for path in paths if path in overridden))
                   for name, paths in planned.owners.items()}, **derived.reports}

    def run_bundle(self, bundle: Bundle, ctx: PlanContext, moved: dict[Key, str],
                   tampered: set[str]) -> tuple[BundleRecord, Any, list[tuple]]:
        """Run a bundle if its inputs or reads changed, else keep its last files: its record,
        its report, and its files as arguments of :meth:`Plan.add`.

        A bundle may reuse some of its own earlier work (docs versions): unless
        what it read changed, what it read for that work still counts. It reads
        the settings unrecorded (``ctx.config``: the docs versions copy them), so
        all of them are among its inputs.
        """
        inputs = (bundle.inputs(ctx), setting_digest(ctx.config, ""))
        last = self.state.records.bundles.get(bundle.name)
        if last is not None and last.inputs == inputs and last.reads.isdisjoint(moved) \
                and last.report.reusable \
                and not any(path in tampered or path not in self.state.stamps for path in last.files):
            jobs = [(path, origin, _kept, self.state.records.outputs[path].inputs, listed)
                    for path, (origin, listed) in last.files.items()]
            return last, last.report.reused(), jobs
        with tracing() as trace:
            made, report = bundle.make(ctx)
        reads = self.intern(trace.reads)
        if last is not None and last.reads.isdisjoint(moved):
            reads |= last.reads
        jobs = [(path, made.origins[path], partial(_same, data), ("made", value_digest(data)),
                 path not in made.unlisted) for path, data in made.items()]
        files = {path: (made.origins[path], path not in made.unlisted) for path in made}
        return BundleRecord(inputs, reads, files, report), report, jobs

    def ready_for_edits(self) -> None:
        """Make now what the first rebuild after an edit would make (the preview, once it has
        built and before it watches): the index of the recorded keys, each output's read keys
        as a set, each reader's converter (a document of each parsed again, the result
        dropped) and the compiled templates: about 0.1 s of the first edit at 10,000 posts.
        From now on no lexer's rules are filtered (:func:`generator.highlight.filter_no_more`)."""
        from generator import highlight
        from generator.readers import reader_for

        if not self.warm or self.last is None:
            return
        self.keys
        for record in self.state.records.outputs.values():
            record.coded()
        first_of = {}
        for source in self.last.listing:
            if source.kind != "data":
                first_of.setdefault(type(reader_for(source.path)), source)
        for source in first_of.values():
            try:
                parse_document(load_source(self.root, source.kind, source.path), self.config)
            except SiteError:         # the rebuild that reads it again says what is wrong
                continue
        highlight.filter_no_more()
        self.renderer.compile_all()

    @property
    def keys(self) -> KeyIndex:
        """The recorded keys, indexed by what may change them (made on first use: a build with
        nothing to do reads no records)."""
        if self._keys is None:
            digests = self.state.records.digests
            self._keys = KeyIndex(digests.ungrouped(), grouped=digests)
        return self._keys

    def intern(self, keys: Iterable[Key]) -> frozenset[Key]:
        """One object per distinct key, so the saved state stores each key once."""
        return frozenset(self.interned.setdefault(key, key) for key in keys)

    def changed_keys(self, resolver: Resolver, parsed: dict[str, Parsed],
                     reordered: bool, placed: bool) -> dict[Key, str]:
        """Keys some output read whose digest differs now: key -> new digest.

        A document is a function of its parse key, so the fields of documents
        parsed again are the only document fields to resolve again, and
        neighbours change only if the order of the posts did. ``placed=False``:
        the site is the last one with new content swapped in (:meth:`swap_in`),
        so its collections are the ones the recorded digests were taken of.
        """
        old, digests = self.state.records.documents, self.state.records.digests
        reparsed = {source for source, p in parsed.items() if old.get(source) != p.key} | (old.keys() - parsed.keys())
        changed = {}
        for key in self.keys.candidates(reparsed, reordered, placed):
            now = resolver(key)
            if now != digests[key]:
                changed[key] = now
        return changed

    def save(self) -> None:
        """Write the state for the next build."""
        self.state.save(self.state_path)
        if not self.state.journal:      # written whole, without the keys nothing reads any more
            self._keys = None           # made again from those, when wanted
            self.interned = {key: key for key in self.state.records.digests}


def _within(table: dict[str, Any], paths: Mapping[str, Any]) -> dict[str, Any]:
    """The entries of ``table`` for ``paths``: a copy where it holds no other (an edit's build)."""
    if table.keys() <= paths.keys():
        return dict(table)
    return {path: value for path, value in table.items() if path in paths}


def summaries_of(parsed: dict[str, Parsed], last: Mapping[str, tuple[str, dict]],
                 kept: Mapping[str, Parsed] = {}) -> dict[str, tuple[str, dict]]:
    """Source -> (parse key, :func:`summary` of its document): the last build's where the parse key
    and the warnings of unread keys are the same (the rest of a document is a function of its key).

    ``kept``: what the last build parsed, whose summaries ``last`` holds; a source still held
    as it was (the same object: the preview's rebuild after an edit) is not looked at again.
    """
    if kept and parsed.keys() == last.keys():
        summaries, look_at = dict(last), [source for source, p in parsed.items() if kept.get(source) is not p]
    else:
        summaries, look_at = {}, list(parsed)
    for source in look_at:
        p, entry = parsed[source], last.get(source)
        if entry is None or entry[0] != p.key or entry[1]["unread"] != p.document.unread:
            entry = (p.key, summary(p.document))
        summaries[source] = entry
    return summaries


def groups_of(planner: Derived, config: Config, paths: Iterable[str]) -> dict[str, list[str]]:
    """The output paths a derived planner reads, by group, groups and paths in sorted order."""
    groups: dict[str, list[str]] = {}
    for path in paths:
        group = planner.group(config, path)
        if group is not None:
            groups.setdefault(group, []).append(path)
    return {group: sorted(found) for group, found in sorted(groups.items())}


def refuse_mass_removal(removed: set[str], present: int, out_dir: Path) -> None:
    """Stop a build that would remove more than half of the files in the output folder (those
    the last build made, and those it finds there that no build made).

    Such a build is more often a source folder gone missing (an unmounted
    disk, a bad checkout) or an output folder that holds someone else's files
    than an author's intent.
    """
    if len(removed) * 2 > present:
        first = ", ".join(f"/{path}" for path in sorted(removed)[:3])
        raise SiteError(f"this build would remove {len(removed)} of the {present} files in the output folder "
                        f"({first}, ...): if that is meant, build again with --allow-removals", out_dir)


def site_digest(listing: list[Listed], index: FileIndex, site: Site) -> str:
    """Stands for the posts, pages and data, which docs pages may show any of."""
    return digest(*(index.digest(name) for _, _, name in listing), *(doc.url for doc in site.documents))


def within(name: str, places: tuple[str, ...]) -> bool:
    """Is file ``name`` one of ``places`` (files and folders, relative to the site) or inside one?"""
    return any(name == place or name.startswith(place + "/") for place in places)


def placement(doc: Document) -> tuple:
    """What decides where a document is published and which collections list it."""
    return (doc.kind, doc.url, doc.layout, doc.date, doc.draft, doc.tags, doc.categories, doc.authors,
            doc.redirect_from)


def publication_floor(documents: Iterable[Document], now: datetime, options: BuildOptions) -> datetime | None:
    """The newest date of a post published now: before it, that post is in the future again."""
    if options.future:
        return None
    return max((doc.date for doc in documents if doc.kind == "post" and doc.date <= now), default=None)


def publication_horizon(documents: Iterable[Document], now: datetime, options: BuildOptions) -> datetime | None:
    """The earliest date at which a post held back for being in the future gets published."""
    if options.future:
        return None
    return min((doc.date for doc in documents if doc.kind == "post" and doc.date > now), default=None)


class OutputBytes(Mapping):
    """The bytes of some output files, path -> bytes: as this build made them (in memory, or
    staged), else as the output folder holds them (where the last build wrote them)."""

    def __init__(self, paths: list[str], made: dict[str, Made], out_dir: Path, staging: Staging | None):
        self.paths, self.made, self.out_dir, self.staging = paths, made, out_dir, staging

    def __getitem__(self, path: str) -> bytes:
        made = self.made.get(path)
        if made is not None and made.data is not None:
            return made.data
        where = self.staging.folder / made.staged if made is not None and made.staged else self.out_dir / path
        try:
            return where.read_bytes()
        except OSError as exc:
            raise SiteError(f"cannot read it back from the output folder ({exc.strerror or exc}): "
                            "was it removed during the build? Build again", path) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)


def _same(data: bytes) -> bytes:
    return data


def _kept(*_: Any) -> bytes:
    raise AssertionError("a file of a bundle that did not run cannot be made alone")


def _bytes(data: bytes | str) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data
