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
import itertools
from collections.abc import Iterable, Mapping
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

from generator import gcpolicy, parallel
from generator import progress as reporting
from generator.cache import digest
from generator.config import Config, load_config, setting_digest
from generator.deps import Key, KeyIndex, Resolver, Settings, Views, tracing, value_digest
from generator.engine.documents import (DocumentStats, Listed, Parsed, code_digest, inputs_moved, load_data_file,
                                        load_documents, parse_documents, parse_uncached, settings_moved)
from generator.engine.planning import (OutputBytes, STRUCTURE, as_bytes, broken_links, check_output_names, groups_of,
                                       placement, plan_site, same, site_digest, switched_on, unmade, within)
from generator.engine.records import (CONTENT_FIELDS, entries_for, publication_floor, publication_horizon,
                                      refuse_mass_removal, summaries_of)
from generator.engine.values import Assembled, Build, BuildResult, Derivation, Made, PlanResult, Scan
from generator.errors import SiteError
from generator.layout import INPUTS, STAGING_DIR, STATE_DIR, STATE_FILE, SWAPPABLE, TEMPLATES
from generator.options import BuildOptions
from generator.output import (OutputFiles, Staging, check_outputs, delete_outputs, folder_stamps, mark_ours,
                              safe_output_dir)
from generator.outputs import Bundle, Derived, PlanContext, Planned, Registry, Remade
from generator.outputs.registry import default_registry, required_templates, transient_paths
from generator.outputs.site_view import site_view
from generator.plan import Plan
from generator.placement import place_all, timezone_of
from generator.site import Document, assemble, parse_document
from generator.sources import Source, discover, discover_named, load_source, refuse_links_outside
from generator.state import (OUT_OF_DATE, BuildState, BundleRecord, DerivedRecord, FileIndex, OutputRecord, Records,
                             Stamp, files_read)


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
        """Bring the output directory up to date (see :meth:`_build`), with the cyclic collector
        off (:func:`generator.gcpolicy.paused`): workers collect as usual; the preview collects
        after each rebuild."""
        with gcpolicy.paused():
            return self._build(now, save, changed, load, derive)

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
            build = Build(scan, assembled, swapped is not None, resolver, order, moved, planned)
            if not self.options.allow_removals:     # derived files (a search index) are not the site's content
                derived_before = records.derived_files()
                transient = transient_paths(scan.config, self.planners)
                present = {path for path in state.stamps.keys() | scan.strays
                           if not within(path, transient)} - derived_before
                refuse_mass_removal(present - planned.plan.keys(), len(present), scan.out_dir)
        staging = Staging(scan.out_dir, self.root / STATE_DIR / STAGING_DIR, state.stamps, records.outputs)
        try:
            made = build.made = self.make(planned.plan, self.outdated(planned.plan, planned.plan, scan.tampered,
                                                                     moved), staging)
            with progress.stage("deriving"):
                derived = build.derived = self.derive(scan, planned, made, staging, remake=derive)
            plan = derived.plan
            made |= self.make(plan, self.outdated(plan, plan.keys() - planned.plan.keys(), scan.tampered, moved),
                              staging)
            written, deleted, build.stamps = self.write(scan, plan, made, staging)
        finally:
            staging.discard()
        with progress.stage("recording"):
            last = state.folders if state.folders is not None and not scan.fresh else None
            touched = [*written, *deleted, *(f"{folder}/" for folder in scan.empty)]   # folders of these moved
            build.folders = folder_stamps(scan.out_dir, plan if last is None else touched, last)
            self.record(build)
            if save:
                self.save()
        reports = self.reports(planned, derived, made)
        return BuildResult(assembled.site, len(plan), OutputFiles(scan.out_dir, made), written, deleted,
                           reports, documents + self.planners_parsed, self.warned(),
                           broken_links(assembled.site, plan, scan.config, reports))

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
        reports = self.reports(planned, derived, made)
        return BuildResult(assembled.site, len(derived.plan), {path: m.data for path, m in made.items()},
                           reports=reports, documents=documents + self.planners_parsed,
                           render_warnings=tuple(w for m in made.values() for w in m.warnings),
                           link_warnings=broken_links(assembled.site, derived.plan, scan.config, reports))

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
        place_all(documents, config)
        self.planners_parsed += DocumentStats(count, len(documents) - count)
        return documents

    def ready_renderer(self, scan: Scan) -> None:
        """A renderer of the templates as they are now (made only by a build with work to do),
        reading the settings through a recording view."""
        compiler = digest(scan.world, repr(scan.config))     # code, settings, options
        if scan.fresh or self.renderer is None or self.renderer.compiler != compiler:
            from generator.render import Renderer

            self.renderer = Renderer(Settings(scan.config), required_templates(self.planners), compiler=compiler)
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
                or held.digest != s[2] or inputs_moved(held.document, index.digest)
                or settings_moved(held.document, setting_now))]
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
                    and inputs_moved(doc, index.digest))]
        reparsed, count = load_documents(scan.config, todo, self.options.refresh)
        place_all((doc for _, doc in reparsed.values()), scan.config)
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

        def job(path: str) -> Made:
            with tracing() as trace:
                data = as_bytes(plan[path].make())
            reads, warnings = frozenset(trace.reads), tuple(trace.warnings)
            if staging is None:
                return Made(value_digest(data), reads, warnings, data=data)
            staged, stamp = staging.put(path, data)
            return Made(value_digest(data), reads, warnings, staged=staged, stamp=stamp)

        made = {}
        with reporting.current().stage("rendering", len(paths), "files") as stage:
            for chunk in parallel.map(job, paths):
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
                plan.add(path, origin, unmade, outputs[path].inputs, listed=False)
            return last if last.inputs == inputs else DerivedRecord(OUT_OF_DATE, last.files)
        files = planner.make(ctx, group, files_in)
        for path, data in files.items():
            plan.add(path, files.origins[path], partial(same, data), ("made", value_digest(data)), listed=False)
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

    def record(self, build: Build) -> None:
        """The state for the next build: each output's inputs and reads, and the digests of those.

        A swapped-in site (``build.swapped``: the last one with new content, :meth:`swap_in`) has
        every document placed as it was and no publication date passed, so the dates that bound
        what is published are the last build's.
        """
        scan, assembled, planned, derived, made = build.scan, build.assembled, build.planned, build.derived, build.made
        moved, resolver, order, swapped = build.moved, build.resolver, build.order, build.swapped
        state, plan = self.state, derived.plan
        outputs, kept = entries_for(state.records.outputs, plan), entries_for(state.stamps, plan)
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
        records = Records(outputs, {source: p.placed_key for source, p in assembled.parsed.items()}, digests,
                          planned.bundles, order,
                          summaries_of(assembled.parsed, state.records.summaries,
                                       self.last.parsed if swapped and self.last else {}),
                          derived.records,
                          unsaved=None if unsaved is None else unsaved | moved.keys() | new_keys)
        self.state = BuildState(
            world=scan.world, files=scan.index.snapshot(), stamps={**kept, **build.stamps},
            folders=build.folders,
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
        paths = list(paths)
        return {path for path in paths if path in tampered} | self.state.records.outdated(
            [path for path in paths if path not in tampered], lambda path: plan[path].inputs, moved)

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
            jobs = [(path, origin, unmade, self.state.records.outputs[path].inputs, listed)
                    for path, (origin, listed) in last.files.items()]
            return last, last.report.reused(), jobs
        with tracing() as trace:
            made, report = bundle.make(ctx)
        reads = self.intern(trace.reads)
        if last is not None and last.reads.isdisjoint(moved):
            reads |= last.reads
        jobs = [(path, made.origins[path], partial(same, data), ("made", value_digest(data)),
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

        A document is a function of its parse key and its placement, so the fields of
        documents parsed again or placed elsewhere are the only document fields to resolve again, and
        neighbours change only if the order of the posts did. ``placed=False``:
        the site is the last one with new content swapped in (:meth:`swap_in`),
        so its collections are the ones the recorded digests were taken of.
        """
        records = self.state.records
        reparsed = records.reparsed({source: p.placed_key for source, p in parsed.items()})
        return records.changed(self.keys.candidates(reparsed, reordered, placed), resolver)

    def save(self) -> None:
        """Write the state for the next build."""
        self.state.save(self.state_path)
        if not self.state.journal:      # written whole, without the keys nothing reads any more
            self._keys = None           # made again from those, when wanted
            self.interned = {key: key for key in self.state.records.digests}
