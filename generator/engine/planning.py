"""The plan stage: every planner in phase order (bundles run only where what they read changed),
and the derived planners' inputs."""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Iterable, Iterator, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from generator.cache import digest
from generator.config import Config, setting_digest
from generator.deps import record, tracing, value_digest
from generator.engine.documents import DocumentStats, Listed, parse_documents
from generator.engine.values import Build, Made, PlanResult
from generator.errors import SiteError
from generator.layout import CONFIG_FILE
from generator.linkcheck import LinkCheck
from generator.links import link_warnings
from generator.output import Staging
from generator.outputs import Bundle, Derived, Phase, PlanContext, Planner, Registry
from generator.plan import Plan
from generator.placement import place_all
from generator.site import Document, Site
from generator.sources import Source
from generator.stamps import FileIndex
from generator.state import BundleRecord, OutputRecord

if TYPE_CHECKING:
    from generator.engine.core import Engine


# The settings that decide which files are inputs and where the outputs go: an edit of one is
# a build from nothing. Any other setting is a dependency key of the outputs that read it.
STRUCTURE = ("output", "theme", "static", "versions", "allow_symlinks_outside")


def plan(engine: Engine, build: Build) -> None:
    """Every planner, in phase order; bundles run only if what they read changed.

    A swapped-in site (``build.swapped``) has the last build's structure, so
    unless a bundle ran, the plan is the last one.
    """
    scan, assembled = build.scan, build.assembled
    config, site = scan.config, assembled.site
    ctx = PlanContext(assembled.views.settings, site, assembled.views, assembled.site_view, engine.renderer,
                      engine.options, partial(parse_for_planner, engine, config),
                      scan.index.tree_digest, partial(site_digest, assembled.listing, scan.index, site),
                      dict(scan.external))
    bundles, bundled, reports = {}, {}, {}
    ran = False
    check_output_names(config, engine.planners)
    for bundle in engine.planners:
        if isinstance(bundle, Bundle) and switched_on(config, bundle):
            record, reports[bundle.name], bundled[bundle.name] = run_bundle(engine, build, bundle, ctx)
            bundles[bundle.name] = record
            ran = ran or record is not engine.state.records.bundles.get(bundle.name)
    last = engine.last_plan
    if build.swapped and last is not None and not ran:
        build.planned = PlanResult(last.plan, last.owners, bundles, reports, ctx)
    else:
        build.planned = PlanResult(*plan_site(engine.planners, ctx, config, bundled), bundles, reports, ctx)


def run_bundle(engine: Engine, build: Build, bundle: Bundle, ctx: PlanContext
               ) -> tuple[BundleRecord, Any, list[tuple]]:
    """Run a bundle if its inputs or reads changed, else keep its last files: its record,
    its report, and its files as arguments of :meth:`Plan.add`.

    A bundle may reuse some of its own earlier work (docs versions): unless
    what it read changed, what it read for that work still counts. It reads
    the settings through the recording view (``ctx.config``), as renders do,
    so an edit of a setting it did not read leaves it as it was.
    """
    state, moved, tampered = engine.state, build.moved, build.scan.tampered
    with tracing() as looked:        # the settings that say which files are its inputs
        inputs = bundle.inputs(ctx)
    last = state.records.bundles.get(bundle.name)
    if last is not None and last.inputs == inputs and last.reads.isdisjoint(moved) \
            and last.report.reusable \
            and not any(path in tampered or path not in state.stamps for path in last.files):
        jobs = [(path, origin, unmade, state.records.outputs[path].inputs, listed)
                for path, (origin, listed) in last.files.items()]
        return last, last.report.reused(), jobs
    with tracing() as trace:
        made, report = bundle.make(ctx)
    reads = engine.intern(trace.reads | looked.reads)
    if last is not None and last.reads.isdisjoint(moved):
        reads |= last.reads
    jobs = [(path, made.origins[path], partial(same, data), ("made", value_digest(data)),
             path not in made.unlisted) for path, data in made.items()]
    files = {path: (made.origins[path], path not in made.unlisted) for path in made}
    return BundleRecord(inputs, reads, files, report), report, jobs


def parse_for_planner(engine: Engine, config: Config, sources: list[Source], tree: Path) -> list[Document]:
    """Documents for a planner (the docs pages, read from ``tree``), through the parse cache,
    counted with the build's; the settings their parse read count as the planner's reads."""
    documents, count = parse_documents(sources, tree, config, engine.options.refresh)
    place_all(documents, config)
    for doc in documents:
        for name, _ in doc.settings:
            record(("setting", name))
    engine.planners_parsed += DocumentStats(count, len(documents) - count)
    return documents


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


def broken_links(site: Site, plan: Plan, config: Config, reports: Mapping[str, Any],
                 check: LinkCheck | None = None, placed: Mapping[str, str] = {}, world: str = "") -> tuple[str, ...]:
    """The warnings of the site's documents' links, and of the pages the planners' ``reports``
    carry as ``linked`` (the docs section's), to what ``plan`` does not make: each page checked
    again by ``check`` only where it, or what its links name, changed (:mod:`generator.linkcheck`);
    a document is what its ``placed`` key says (source -> :attr:`Parsed.placed_key`), a docs page
    what its fields are; ``world`` stands for the code and options."""
    linked = [page for report in reports.values() for page in getattr(report, "linked", ())]
    documents = site.documents
    pages = [*documents, *linked]
    named = [f"{page.source}\0{page.url}" for page in linked]     # no source holds a NUL: not a document's
    if check is None or len(set(named)) < len(named):     # two pages of one key: no telling them apart
        return tuple(link_warnings(pages, plan, config.baseurl, config.publish.keep))
    sources = [str(doc.source) for doc in documents]
    identities = [*map(placed.get, sources), *(digest(repr(page)) for page in linked)]
    setting = digest(world, config.baseurl, repr(config.publish.keep))
    return check.warnings([*sources, *named], identities, pages, plan, config.baseurl, config.publish.keep, setting)


def check_output_names(config: Config, planners: Registry) -> None:
    """site.yaml ``outputs`` names outputs there are: a typo would leave a file made."""
    names = planners.names()
    for name in config.outputs:
        if name not in names:
            raise SiteError(f"key 'outputs.{name}': no output is named {name!r} (known: {', '.join(names)})",
                            config.root / CONFIG_FILE)


def groups_of(planner: Derived, config: Config, paths: Iterable[str]) -> dict[str, list[str]]:
    """The output paths a derived planner reads, by group, groups and paths in sorted order."""
    return {group: sorted(found) for group, found in sorted(planner.groups(config, paths).items())}


def site_digest(listing: list[Listed], index: FileIndex, site: Site) -> str:
    """Stands for the posts, pages and data, which docs pages may show any of."""
    return digest(*(index.digest(name) for _, _, name in listing), *(doc.url for doc in site.documents))


def within(name: str, places: tuple[str, ...]) -> bool:
    """Is file ``name`` one of ``places`` (files and folders, relative to the site) or inside one?"""
    return any(name == place or name.startswith(place + "/") for place in places)


def outside(names: Iterable[str], places: tuple[str, ...]) -> Iterator[str]:
    """The ``names`` not :func:`within` ``places``, sorted out in C (every output of the site)."""
    if not places:
        return iter(names)
    names = list(names)
    prefixes = tuple(f"{place}/" for place in places)
    return itertools.compress(names, map(operator.not_, map(
        operator.or_, map(str.startswith, names, itertools.repeat(prefixes)), map(set(places).__contains__, names))))


def placement(doc: Document, sort_keys: tuple[str, ...] = ()) -> tuple:
    """What decides where a document is published and which collections list it, in which order
    (``sort_keys``: the front matter keys that order site.yaml's collections)."""
    return (doc.kind, doc.url, doc.layout, doc.date, doc.draft, doc.tags, doc.categories, doc.authors,
            doc.redirect_from, doc.meta.get("redirect_to"), *(doc.meta.get(key) for key in sort_keys))


class OutputBytes(Mapping):
    """The bytes of some output files, path -> bytes: as this build made them (in memory, or
    staged), else as the output folder holds them (where the last build wrote them). Their
    digests too, without reading them (:meth:`digest`)."""

    def __init__(self, paths: list[str], made: dict[str, Made], out_dir: Path, staging: Staging | None,
                 recorded: Mapping[str, OutputRecord]):
        self.paths, self.made, self.out_dir, self.staging, self.recorded = paths, made, out_dir, staging, recorded

    def digest(self, path: str) -> str:
        """The digest of the bytes of ``path`` (:func:`generator.deps.value_digest`): a derived
        planner may keep what it found in a file's bytes by their digest, and read again only
        the files this build changed."""
        made = self.made.get(path)
        return made.digest if made is not None else self.recorded[path].digest

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


class PagePaths(Mapping):
    """The paths of a derived group's pages, given to a planner that declared it reads no more
    (``reads_bytes = False``), which keeps its files while the paths stay: reading a page's
    bytes would leave them stale after an edit, so it stops the build, naming the planner."""

    def __init__(self, planner: str, paths: list[str]):
        self.planner, self.paths = planner, paths

    def __getitem__(self, path: str) -> NoReturn:
        raise SiteError(f"output planner {self.planner!r} read the bytes of /{path}, but says it reads "
                        "only the paths (reads_bytes = False)")

    def digest(self, path: str) -> NoReturn:
        """Refused as the bytes are: :meth:`OutputBytes.digest` is the bytes' digest."""
        self[path]

    def __contains__(self, path: object) -> bool:
        return path in self.known

    @functools.cached_property
    def known(self) -> frozenset[str]:
        return frozenset(self.paths)

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)


def same(data: bytes) -> bytes:
    return data


def unmade(*_: Any) -> bytes:
    raise AssertionError("a file of a bundle that did not run cannot be made alone")


def as_bytes(data: bytes | str) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data
