"""Orchestrate builds: sources -> documents -> site -> plan -> outputs -> files.

A build runs in named stages, each a module of this package taking the build
value (:class:`generator.engine.values.Build`) and the engine: scan
(:mod:`~generator.engine.scanning`), load (:mod:`~generator.engine.loading`),
plan (:mod:`~generator.engine.planning`), make, derive and write
(:mod:`~generator.engine.rendering`), record (:mod:`~generator.engine.records`). It plans every file the site has through the
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

from collections.abc import Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from generator import gcpolicy
from generator import progress as reporting
from generator.config import Config
from generator.deps import Key, KeyIndex
from generator.engine import loading, planning, records, rendering, scanning
from generator.engine.documents import DocumentStats
from generator.engine.planning import broken_links
from generator.engine.values import Assembled, Build, BuildResult, PlanResult, Scan
from generator.errors import SiteError
from generator.layout import STAGING_DIR, STATE_DIR, STATE_FILE
from generator.linkcheck import LinkCheck
from generator.options import BuildOptions
from generator.output import OutputFiles, Staging, folder_stamps
from generator.outputs import Planned, Registry
from generator.outputs.registry import default_registry
from generator.site import parse_document
from generator.sources import load_source
from generator.state import BuildState, Records


class Engine:
    """Builds one site again and again, redoing only what each edit touched.

    ``sitegen build`` makes one from the state saved in ``.sitegen/`` and uses
    it once; ``sitegen serve`` keeps one alive, so its documents, templates
    and dependency records stay in memory between rebuilds. With
    ``saved=False`` it starts from nothing and leaves nothing:
    :func:`render_site` is that engine, asked for the files alone.

    A build is its stages in order (:meth:`_build`): scan (what changed), load
    (parse what changed, assemble the site), plan (every planner of the
    registry), make (the jobs whose inputs or reads changed) and derive (the
    files made from the others' bytes, where those changed), write (only then
    the output folder) and record (the state for the next build). The engine
    holds what lasts from one build to the next; the stages read and renew it.
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
        self.links = LinkCheck(self.root / STATE_DIR if saved else None)    # the last build's link check

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
            build = Build(scanning.scan(self, now, changed, warm))
        if build.scan.nothing_to_do(self.state, load):
            return self.unchanged(build.scan)
        loading.load_site(self, build, warm)
        with progress.stage("planning"):
            records.changes(self, build)
            planning.plan(self, build)
            if not self.options.allow_removals:
                records.guard_removals(self, build)
        build.staging = Staging(build.scan.out_dir, self.root / STATE_DIR / STAGING_DIR, self.state.stamps,
                                self.state.records.outputs)
        try:
            rendering.make_planned(self, build, derive)
            rendering.write(self, build)
        finally:
            build.staging.discard()
        with progress.stage("recording"):
            self.record(build)
            if save:
                self.save()
        return self.result(build, OutputFiles(build.scan.out_dir, build.made), self.warned(), save)

    def render(self, now: datetime | None = None) -> BuildResult:
        """Every file of the site, made in memory; the output folder and the state untouched."""
        self.planners_parsed = DocumentStats()
        build = Build(scanning.scan(self, now, None, warm=False, output=False))
        loading.ready_renderer(self, build.scan)
        loaded, build.documents = loading.load(self, build.scan)
        build.assembled = loading.assemble_site(self, build.scan, loaded)
        planning.plan(self, build)
        build.made = rendering.make(self, build, build.planned.plan, build.planned.plan.keys())
        rendering.derive_files(self, build)
        whole = build.derived.plan
        build.made |= rendering.make(self, build, whole, whole.keys() - build.made.keys())
        made = build.made.values()
        return self.result(build, {path: m.data for path, m in build.made.items()},
                           tuple(w for m in made for w in m.warnings))

    def unchanged(self, scan: Scan) -> BuildResult:
        """Nothing to do: the files are as the state says, and so are the planners' reports."""
        state = self.state
        self.warm, self.config = True, scan.config
        reports = {p.name: state.reports[p.name].reused() if p.name in state.reports
                   else Planned(state.planned.get(p.name, 0)) for p in self.planners}
        return BuildResult(None, len(state.stamps), {}, reports=reports)

    def result(self, build: Build, outputs: Mapping[str, bytes], render_warnings: tuple[str, ...],
               save: bool = False) -> BuildResult:
        """What a build that did its work returns; its link check kept for the next (``save``: in
        ``.sitegen`` too)."""
        site, plan, config = build.assembled.site, build.derived.plan, build.scan.config
        reports = build.reports()
        links = broken_links(site, plan, config, reports, self.links, build.placed, build.scan.world)
        if save:
            self.links.save()
        return BuildResult(site, len(plan), outputs, build.written, build.deleted, reports,
                           build.documents + self.planners_parsed, render_warnings, links,
                           tuple(w for planner in self.planners for w in planner.label_warnings(site)))

    def record(self, build: Build) -> None:
        """Remember this build: the output folder's stamps, the state for the next build
        (:func:`generator.engine.records.next_state`), the site, its plan, its renders' warnings."""
        scan, state, plan = build.scan, self.state, build.derived.plan
        last = state.folders if state.folders is not None and not scan.fresh else None
        touched = [*build.written, *build.deleted, *(f"{folder}/" for folder in scan.empty)]   # folders of these moved
        build.folders = folder_stamps(scan.out_dir, plan if last is None else touched, last)
        self.state = records.next_state(self, build)
        self.render_warnings = {path: warnings for path, warnings in self.render_warnings.items() if path in plan}
        self.render_warnings.update((path, m.warnings) for path, m in build.made.items())
        self.last, self.last_plan = build.assembled, build.planned
        self.config = scan.config
        self.warm = True

    def forget(self) -> None:
        """Nothing recorded applies (the site's structure or the code changed, or a rerun)."""
        self.state, self._keys = BuildState(saved=Records()), KeyIndex()

    def warned(self) -> tuple[str, ...]:
        """The warnings of the renders whose files the site has, as they were last made."""
        return tuple(w for path in sorted(self.render_warnings) for w in self.render_warnings[path])

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
        self.state.records.ready_to_ask()
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
            self._keys = self.state.records.key_index()
        return self._keys

    def intern(self, keys: Iterable[Key]) -> frozenset[Key]:
        """One object per distinct key, so the saved state stores each key once."""
        return frozenset(self.interned.setdefault(key, key) for key in keys)

    def save(self) -> None:
        """Write the state for the next build."""
        self.state.save(self.state_path)
        if not self.state.journal:      # written whole, without the keys nothing reads any more
            self._keys = None           # made again from those, when wanted
            self.interned = {key: key for key in self.state.records.recorded_keys()}
