"""Orchestrate builds: sources -> documents -> site -> plan -> outputs -> files.

A build plans every file the site has (:mod:`generator.plan`), then makes only
the jobs whose inputs changed since the last build. Each render is traced
(:mod:`generator.deps`); the keys it read are saved with its output, and the
output is made again only when its plan's inputs differ or one of those keys
resolves to something new. A build with nothing changed stops after comparing
file stamps (:mod:`generator.state`).

Made bytes are held in memory until every job has succeeded; only then is the
output directory touched (:mod:`generator.output`), and then only files whose
bytes changed are written and files no longer produced are removed. A failed
build therefore leaves the previous site, and the state for the next build,
exactly as they were.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

import jinja2
import markdown
import pygments
import pymdownx
import yaml

from generator import __version__, notebooks
from generator.cache import DataCache, digest
from generator.config import Config, load_config
from generator.deps import LINKED_FIELDS, Key, KeyIndex, Resolver, tracing, value_digest
from generator.errors import SiteError
from generator.lock import site_lock
from generator.output import check_outputs, delete_outputs, safe_output_dir, write_outputs
from generator.plan import Bundle, DocsReport, Job, Plan, SiteRenderer, docs_bundle, reusable, reused_report
from generator.render import Renderer
from generator.site import Document, Site, assemble, parse_document, timezone_of, well_formed
from generator.sources import Source, discover, load_data, load_source, refuse_links_outside
from generator.state import BuildState, BundleRecord, FileIndex, OutputRecord
from generator.versions import resolve_versions

PARALLEL_THRESHOLD = 64
# The site's inputs, with its static folders (Config.static_paths: assets/ and site.yaml's `static`).
INPUTS = ("site.yaml", "content", "notebooks", "templates")
# Edits under these (and the static folders) leave the site's structure (collections,
# plan) as it was, unless a document's placement changes: see Engine.swap_in.
SWAPPABLE = ("content/posts", "content/pages", "templates")
CONTENT_FIELDS = [f.name for f in dataclasses.fields(Document) if f.name not in LINKED_FIELDS]
STATE_DIR = ".sitegen"
STATE_FILE = "state.msgpack"


@dataclass(frozen=True)
class BuildOptions:
    drafts: bool = False
    future: bool = False
    refresh: bool = False
    rerun: tuple[str, ...] = ()         # tutorials to execute again whatever the cache holds
    now: datetime | None = None
    allow_removals: bool = False    # let a build remove more than half of the files the last one made


@dataclass
class BuildResult:
    site: Site | None                     # None when nothing changed: no site was assembled
    files: int                            # files the site has
    outputs: dict[str, bytes]             # the files this build made (all, in a full build)
    written: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    tutorials: notebooks.TutorialStats = field(default_factory=notebooks.TutorialStats)
    docs_versions: dict[str, str] = field(default_factory=dict)  # name -> "built", "reused", "archived"

    @property
    def warnings(self) -> list[str]:
        """``file:line: warning: ...`` for what the site's documents use that sitegen left out."""
        return [warning for doc in (self.site.documents if self.site else ()) for warning in doc.warnings]

    def summary(self) -> str:
        return (f"{self.files} files: {len(self.written)} written, "
                f"{self.files - len(self.written)} unchanged, {len(self.deleted)} removed")


def build(root: str | Path = ".", options: BuildOptions = BuildOptions()) -> BuildResult:
    """Bring the site's output directory up to date, doing only the work edits require."""
    with site_lock(Path(root) / STATE_DIR, "sitegen build"):
        return Engine(root, options).build()


def render_site(config: Config, options: BuildOptions = BuildOptions()) -> BuildResult:
    """Every file the site has, made in memory from scratch; raises SiteError on bad input."""
    root = config.root
    sources = [load_source(root, kind, path) for kind, path in discover(root)]
    documents = parse_documents([s for s in sources if s.kind != "data"], config, options.refresh)
    data = {s.path.stem: load_data(s) for s in sources if s.kind == "data"}
    now = options.now or datetime.now(timezone_of(config))
    site = assemble(documents, data, config, now=now, drafts=options.drafts, future=options.future)
    pages = SiteRenderer(site, Renderer(config))
    plan = Plan()
    parse = partial(parse_documents, config=config, refresh=options.refresh)
    key = digest(*(s.digest for s in sources), *(doc.url for doc in site.documents))
    made, report = docs_bundle(config, pages, parse, None, lambda: key, options.refresh,
                                 options.rerun).make()
    for path, data in made.items():
        plan.add(path, made.origins[path], partial(_same, data), listed=path not in made.unlisted)
    pages.plan_into(plan)
    outputs = {path: _bytes(job.make()) for path, job in plan.items()}
    return BuildResult(site, len(outputs), outputs, tutorials=report.tutorials, docs_versions=report.versions)


def parse_documents(sources: list[Source], config: Config, refresh: bool = False) -> list[Document]:
    """Parse every source, from the cache where the same input was parsed before."""
    entries = [(s.kind, s.path, s.digest) for s in sources]
    loaded = {str(s.path): s for s in sources}
    parsed = load_documents(config, entries, refresh, load=lambda kind, path: loaded[str(path)])
    return [doc for _, doc in parsed.values()]


def load_documents(config: Config, sources: list[tuple[str, Path, str]], refresh: bool = False,
                   load: Callable[[str, Path], Source] | None = None) -> dict[str, tuple[str, Document]]:
    """Source path -> (parse key, Document) for ``(kind, path, digest)`` sources.

    A document is a function of its source's bytes and a few settings, so it
    is taken from the disk cache under a key made of them when it can be;
    only the others are read (``load``) and parsed, in parallel when many.
    """
    load = load or partial(load_source, config.root)
    cache = DataCache(config.state_dir / "cache" / "documents", "document", well_formed)
    fingerprint = digest(code_digest(), config.permalink, config.timezone,
                         repr(config.markdown), repr(config.liquid))
    keys = [digest(fingerprint, kind, str(path), source_digest) for kind, path, source_digest in sources]
    documents = [None if refresh else cache.get(key) for key in keys]
    # A document is also a function of the files its Liquid read (includes, data): check those.
    documents = [None if doc is None or _inputs_moved(doc, lambda name: _file_digest(config.root, name))
                 else doc for doc in documents]
    todo = [i for i, doc in enumerate(documents) if doc is None]
    loaded = [load(sources[i][0], sources[i][1]) for i in todo]
    if len(todo) >= PARALLEL_THRESHOLD and (os.cpu_count() or 1) > 1:
        # Forking a process that runs other threads (the preview server) is unsafe.
        context = multiprocessing.get_context("forkserver") if threading.active_count() > 1 else None
        with ProcessPoolExecutor(mp_context=context) as pool:
            parsed = list(pool.map(parse_document, loaded, [config] * len(todo), chunksize=32))
    else:
        parsed = [parse_document(source, config) for source in loaded]
    for i, doc in zip(todo, parsed):
        cache.put(keys[i], doc)
        documents[i] = doc
    # The parse key names what the document came from: its source and, if any, what its Liquid read.
    return {str(path): (digest(key, repr(doc.inputs)) if doc.inputs else key, doc)
            for (_, path, _), key, doc in zip(sources, keys, documents)}


def _inputs_moved(doc: Document, digest_of: Callable[[str], str | None]) -> bool:
    """Whether a file the document's Liquid read (an include, a data file) is not as it was."""
    return any(digest_of(name) != recorded for name, recorded in doc.inputs)


def _file_digest(root: Path, name: str) -> str | None:
    try:
        return hashlib.sha256((root / name).read_bytes()).hexdigest()
    except OSError:
        return None


@functools.cache
def code_digest() -> str:
    """Stands for the code that turns inputs into outputs: ours and the libraries'."""
    package = Path(__file__).parent
    parts = [path.read_bytes() for path in sorted(package.rglob("*.py"))]
    versions = [jinja2.__version__, markdown.__version__, pygments.__version__,
                pymdownx.__version__, yaml.__version__]
    return digest(__version__, *versions, *parts)


def version_trees(config: Config) -> tuple:
    """What each docs version's source resolves to now (git refs can move without a file changing)."""
    if not config.versions:
        return ()
    return tuple((r.name, r.trees) for r in resolve_versions(config))


class Engine:
    """Builds one site again and again, redoing only what each edit touched.

    ``sitegen build`` makes one from the state saved in ``.sitegen/`` and uses
    it once; ``sitegen serve`` keeps one alive, so its documents, templates
    and dependency records stay in memory between rebuilds.
    """

    def __init__(self, root: str | Path = ".", options: BuildOptions = BuildOptions()):
        self.root = Path(root).resolve()
        self.options = options
        self.state_path = self.root / STATE_DIR / STATE_FILE
        self.state = BuildState.load(self.state_path)
        self.parsed: dict[str, tuple[str, str, Document]] = {}   # source -> (digest, parse key, doc)
        self.listing: list[tuple[str, Path, str]] | None = None  # (kind, path, name) of each source
        self.data_files: dict[str, Any] = {}        # data file digest -> its parsed YAML
        self.renderer: Renderer | None = None
        self.config: Config | None = None          # as the last successful build read it
        self.last: tuple[Site, list, SiteRenderer, Plan] | None = None   # site, listing, pages, plan
        self.warm = False              # the last build succeeded: the files on disk are as the state says
        self.interned: dict[Key, Key] = {}
        self.keys = KeyIndex(self.state.digests)

    def build(self, now: datetime | None = None, save: bool = True,
              changed: Iterable[str] | None = None, load: bool = False) -> BuildResult:
        """Bring the output directory up to date.

        ``save=False`` keeps the state in memory only. ``changed`` names the
        files (and folders) a watcher saw change since the last build, so that
        only those are looked at; it is ignored by the first build of an
        engine and after a failed one, which look at every file. ``load``
        assembles the site even if nothing changed, to have it in memory for
        the next build (the preview's first edit).
        """
        warm, self.warm = self.warm, False
        config = load_config(self.root)
        out_dir = safe_output_dir(config)
        warm = warm and out_dir.is_dir()   # deleted under a running preview: check every output
        world = digest(repr(config), repr((self.options.drafts, self.options.future)), code_digest())
        fresh = self.options.refresh or bool(self.options.rerun) or world != self.state.world
        if fresh:                       # settings or code changed, or a rerun: nothing recorded applies
            self.state, self.keys = BuildState(), KeyIndex()
        state = self.state
        archives = tuple(v.archive for v in config.versions if v.archive)
        inputs = INPUTS + config.static_paths      # the docs archives may lie anywhere
        index = FileIndex(self.root, inputs + archives, state.files,
                          {key[1] for key in self.keys.always if key[0] == "file"})
        changed = index.rescan(changed if warm and not fresh else None)
        if not config.allow_symlinks_outside:
            refuse_links_outside(self.root, (name for name in changed
                                             if any(name == r or name.startswith(r + "/") for r in inputs)))
        external = version_trees(config)
        tampered, strays, empty = check_outputs(out_dir, state.outputs) if fresh or not warm else (set(), set(), [])
        now = now or self.options.now or datetime.now(timezone_of(config))
        due = ((state.horizon is not None and now >= state.horizon)
               or (state.floor is not None and now < state.floor))
        settled = all(reusable(b.report) for b in state.bundles.values())
        if settled and not (load or fresh or changed or tampered or strays or empty or due
                            or external != state.external):
            self.warm, self.config = True, config
            reports = {name: reused_report(b.report) for name, b in state.bundles.items()}
            return self.result(None, len(state.outputs), {}, [], [], reports)

        if fresh or self.renderer is None:
            self.renderer = Renderer(config)
        elif any(name.startswith("templates/") for name in changed):
            self.renderer.env.cache.clear()  # an edit within one mtime tick escapes Jinja's check
        swapped = None
        if warm and not (fresh or due or external != state.external) and self.last is not None:
            swapped = self.swap_in(config, index, changed)
        if swapped is not None:
            parsed, (site, listing, pages, last_plan) = swapped, self.last
        else:
            site, listing, parsed = self.assemble(config, index, now, fresh)
            pages, last_plan = SiteRenderer(site, self.renderer), None
        resolver = Resolver(site, {source: doc for source, (_, _, doc) in parsed.items()}, index.digest)
        parse_keys = {source: key for source, (_, key, _) in parsed.items()}
        order = resolver.identities(("posts",))
        moved = self.changed_keys(resolver, parse_keys, order != state.order)

        plan, bundles, reports = Plan(), {}, {}
        site_key = partial(site_digest, listing, index, site)
        ran = False
        for bundle in self.bundles(config, pages, index, external, site_key):
            bundles[bundle.name], reports[bundle.name] = self.plan_bundle(bundle, plan, moved, tampered)
            ran = ran or bundles[bundle.name] is not state.bundles.get(bundle.name)
        if last_plan is not None and not ran:
            plan = last_plan       # nothing moved and no bundle ran: the plan is the last one
        else:
            pages.plan_into(plan)
        dirty = {path for path, job in plan.items()
                 if path in tampered or (record := state.outputs.get(path)) is None
                 or record.inputs != job.inputs or not record.reads.isdisjoint(moved)}
        removed = (state.outputs.keys() | strays) - plan.keys()
        if not self.options.allow_removals:
            refuse_mass_removal(state.outputs.keys() - plan.keys(), len(state.outputs), out_dir)
        made = {path: self.make(plan[path]) for path in sorted(dirty)}

        # Everything is made: only now is the output directory touched.
        deleted = delete_outputs(out_dir, removed, empty)
        written, stamps = write_outputs(out_dir, {path: data for path, (data, _) in made.items()},
                                        state.outputs)

        outputs = {path: record for path, record in state.outputs.items() if path in plan}
        for path, (data, reads) in made.items():
            outputs[path] = OutputRecord(plan[path].inputs, reads, value_digest(data), stamps[path])
        digests = {**state.digests, **moved}
        new_keys = {key for reads in [r for _, r in made.values()] + [b.reads for b in bundles.values()]
                    for key in reads if key not in digests}
        digests.update((key, resolver(key)) for key in new_keys)
        self.keys.extend(new_keys)
        self.state = BuildState(
            world=world, files=index.snapshot(), outputs=outputs, documents=parse_keys,
            digests=digests, bundles=bundles, external=external, order=order,
            horizon=publication_horizon(resolver.documents.values(), now, self.options),
            floor=publication_floor(resolver.documents.values(), now, self.options))
        self.parsed, self.listing, self.last = parsed, listing, (site, listing, pages, plan)
        self.config = config
        self.warm = True
        if save:
            self.save()
        return self.result(site, len(plan), {path: data for path, (data, _) in made.items()},
                           written, deleted, reports)

    def assemble(self, config: Config, index: FileIndex, now: datetime, fresh: bool) -> tuple[
            Site, list[tuple[str, Path, str]], dict[str, tuple[str, str, Document]]]:
        """The site; its sources as (kind, path, name); source -> (digest, parse key, document)."""
        listing = self.listing
        if fresh or listing is None or index.listing_changed:
            listing = [(kind, path, path.as_posix()) for kind, path in discover(self.root, index.current)]
        sources = [(kind, path, index.digest(name)) for kind, path, name in listing]
        parsed = self.documents_of(config, [s for s in sources if s[0] != "data"], fresh, index)
        data_files = {key: self.data_files.get(key) or load_data(load_source(self.root, "data", path))
                      for kind, path, key in sources if kind == "data"}
        data = {path.stem: data_files[key] for kind, path, key in sources if kind == "data"}
        site = assemble([doc for _, _, doc in parsed.values()], data, config, now=now,
                        drafts=self.options.drafts, future=self.options.future)
        self.data_files = data_files     # by digest: true whether or not this build succeeds
        return site, listing, parsed

    def swap_in(self, config: Config, index: FileIndex,
                changed: set[str]) -> dict[str, tuple[str, str, Document]] | None:
        """After an edit that moves nothing, the last site with the new content; else None.

        If only posts, pages, templates or assets changed, no file appeared or
        went, and every document parsed again keeps its placement, then the
        collections and the plan of the last build are still right: the new
        content is written into the document objects they hold, and the
        updated source -> (digest, parse key, document) is returned.
        """
        swappable = SWAPPABLE + config.static_paths
        if index.listing_changed or not all(within(name, swappable) for name in changed):
            return None
        todo = [(kind, path, index.digest(name)) for kind, path, name in self.listing
                if name in changed or (kind != "data" and _inputs_moved(self.parsed[name][2], index.digest))]
        reparsed = load_documents(config, todo, self.options.refresh)
        if any(placement(doc) != placement(self.parsed[source][2]) for source, (_, doc) in reparsed.items()):
            return None
        parsed = dict(self.parsed)
        for _, path, source_digest in todo:
            key, doc = reparsed[str(path)]
            held = self.parsed[str(path)][2]
            for name in CONTENT_FIELDS:
                setattr(held, name, getattr(doc, name))
            parsed[str(path)] = (source_digest, key, held)
        return parsed

    def documents_of(self, config: Config, sources: list[tuple[str, Path, str]], fresh: bool,
                     index: FileIndex) -> dict[str, tuple[str, str, Document]]:
        """Source -> (digest, parse key, document): kept from the last build if its bytes are
        the same, and those of the files its Liquid read."""
        kept = {} if fresh or self.options.refresh else self.parsed
        todo = [s for s in sources if (held := kept.get(str(s[1]))) is None or held[0] != s[2]
                or _inputs_moved(held[2], index.digest)]
        parsed = load_documents(config, todo, self.options.refresh)
        return {str(path): (source_digest, *parsed[str(path)]) if str(path) in parsed else kept[str(path)]
                for _, path, source_digest in sources}

    def bundles(self, config: Config, pages: SiteRenderer, index: FileIndex, external: tuple,
                site_key: Callable[[], str]) -> list[Bundle]:
        """The docs section, tutorials included; ``site_key()`` stands for the rest of the site."""
        docs_inputs = ("docs", external, index.tree_digest("content/docs"), index.tree_digest("notebooks"),
                       *(index.tree_digest(v.archive) for v in config.versions if v.archive))
        parse = partial(parse_documents, config=config, refresh=self.options.refresh)
        return [docs_bundle(config, pages, parse, docs_inputs, site_key, self.options.refresh,
                            self.options.rerun)]

    def plan_bundle(self, bundle: Bundle, plan: Plan, moved: dict[Key, str],
                    tampered: set[str]) -> tuple[BundleRecord, Any]:
        """Add a bundle's files to ``plan``, running it if its inputs or reads changed; its record and report.

        A bundle may reuse some of its own earlier work (docs versions): unless
        what it read changed, what it read for that work still counts.
        """
        last = self.state.bundles.get(bundle.name)
        if last is not None and last.inputs == bundle.inputs and last.reads.isdisjoint(moved) \
                and reusable(last.report) \
                and not any(path in tampered or path not in self.state.outputs for path in last.files):
            for path, (origin, listed) in last.files.items():
                plan.add(path, origin, _kept, self.state.outputs[path].inputs, listed)
            return last, reused_report(last.report)
        with tracing() as reads:
            made, report = bundle.make()
        reads = self.intern(reads)
        if last is not None and last.reads.isdisjoint(moved):
            reads |= last.reads
        for path, data in made.items():
            plan.add(path, made.origins[path], partial(_same, data), ("made", value_digest(data)),
                     listed=path not in made.unlisted)
        files = {path: (made.origins[path], path not in made.unlisted) for path in made}
        return BundleRecord(bundle.inputs, reads, files, report), report

    def make(self, job: Job) -> tuple[bytes, frozenset[Key]]:
        """Run one job, returning its bytes and the keys it read."""
        with tracing() as reads:
            data = _bytes(job.make())
        return data, self.intern(reads)

    def intern(self, keys: Iterable[Key]) -> frozenset[Key]:
        """One object per distinct key, so the saved state stores each key once."""
        return frozenset(self.interned.setdefault(key, key) for key in keys)

    def changed_keys(self, resolver: Resolver, parse_keys: dict[str, str],
                     reordered: bool) -> dict[Key, str]:
        """Keys some output read whose digest differs now: key -> new digest.

        A document is a function of its parse key, so the fields of documents
        parsed again are the only document fields to resolve again, and
        neighbours change only if the order of the posts did.
        """
        old, digests = self.state.documents, self.state.digests
        reparsed = {source for source in parse_keys.keys() | old.keys()
                    if parse_keys.get(source) != old.get(source)}
        changed = {}
        for key in self.keys.candidates(reparsed, reordered):
            now = resolver(key)
            if now != digests[key]:
                changed[key] = now
        return changed

    def result(self, site: Site | None, files: int, outputs: dict[str, bytes], written: list[str],
               deleted: list[str], reports: dict[str, Any]) -> BuildResult:
        docs = reports.get("docs") or DocsReport()
        return BuildResult(site, files, outputs, written, deleted,
                           tutorials=docs.tutorials, docs_versions=docs.versions)

    def save(self) -> None:
        """Write the state for the next build, dropping keys nothing reads any more."""
        state = self.state
        live = set().union(*(r.reads for r in state.outputs.values()),
                           *(b.reads for b in state.bundles.values()))
        state.digests = {key: value for key, value in state.digests.items() if key in live}
        self.keys = KeyIndex(state.digests)
        self.interned = {key: key for key in live}
        state.save(self.state_path)


def refuse_mass_removal(removed: set[str], present: int, out_dir: Path) -> None:
    """Stop a build that would remove more than half of the files the last build made.

    Such a build is more often a source folder gone missing (an unmounted
    disk, a bad checkout) than an author's intent.
    """
    if len(removed) * 2 > present:
        first = ", ".join(f"/{path}" for path in sorted(removed)[:3])
        raise SiteError(f"this build would remove {len(removed)} of the {present} files the last build made "
                        f"({first}, ...): if that is meant, build again with --allow-removals", out_dir)


def site_digest(listing: list[tuple[str, Path, str]], index: FileIndex, site: Site) -> str:
    """Stands for the posts, pages and data, which docs pages may show any of."""
    return digest(*(index.digest(name) for _, _, name in listing), *(doc.url for doc in site.documents))


def within(name: str, places: tuple[str, ...]) -> bool:
    """Is file ``name`` one of ``places`` (files and folders, relative to the site) or inside one?"""
    return any(name == place or name.startswith(place + "/") for place in places)


def placement(doc: Document) -> tuple:
    """What decides where a document is published and which collections list it."""
    return (doc.kind, doc.url, doc.layout, doc.date, doc.draft, doc.tags, doc.categories, doc.redirect_from)


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


def _same(data: bytes) -> bytes:
    return data


def _kept(*_: Any) -> bytes:
    raise AssertionError("a file of a bundle that did not run cannot be made alone")


def _bytes(data: bytes | str) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data
