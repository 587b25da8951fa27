"""The record stage, and what it starts from: which recorded keys and outputs an edit moved,
and what one build records for the next, worked out from the stages' results."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Mapping
from datetime import datetime
from pathlib import Path
from functools import partial
from typing import TYPE_CHECKING, Any

from generator.buildtime import changes_at
from generator.deps import LINKED_FIELDS, Resolver
from generator.engine.documents import Parsed
from generator.engine.planning import outside, placement, within
from generator.engine.values import Build, Scan
from generator.errors import SiteError
from generator.layout import SWAPPABLE
from generator.options import BuildOptions
from generator.outputs.registry import transient_paths
from generator.placement import place_all
from generator.plan import Plan
from generator.site import Document, LazyDocument, summary
from generator.state import OUT_OF_DATE, BuildState, OutputRecord, Records, files_read

if TYPE_CHECKING:
    from generator.engine.core import Engine


CONTENT_FIELDS = [f.name for f in dataclasses.fields(Document) if f.name not in LINKED_FIELDS]


def changes(engine: Engine, build: Build) -> None:
    """The keys some output read whose digest differs now (key -> new digest), and how to
    resolve a key now.

    A document is a function of its parse key and its placement, so the fields of documents
    parsed again or placed elsewhere are the only document fields to resolve again, and
    neighbours change only if the order of the posts or of a collection did. A swapped-in site
    (:func:`generator.engine.loading.swap_in`) has the collections the
    recorded digests were taken of; so does one assembled again where each document parsed
    again keeps its placement (:func:`placement_kept`): the collections' keys (53,000 at
    100,000 posts) are resolved only where a placement moved.
    """
    scan, assembled, records = build.scan, build.assembled, engine.state.records
    build.resolver = Resolver(assembled.site, {s: p.document for s, p in assembled.parsed.items()},
                              scan.index.digest, partial(engine.renderer.template_digest, file_digest=scan.index.digest))
    # the posts' order, then each collection's (a document's next and previous are its neighbours')
    build.order = build.resolver.identities(("posts",)) + tuple(
        name for docs in assembled.site.collections.values() for name in ("", *(d.source.as_posix() for d in docs)))
    build.placed = placed_keys(engine, build)
    reparsed = records.reparsed(build.placed)
    placed = not build.swapped and not placement_kept(engine, build, reparsed)
    candidates = engine.keys.candidates(reparsed, build.order != records.order, placed)
    build.moved = records.changed(candidates, build.resolver)


def placed_keys(engine: Engine, build: Build) -> dict[str, str]:
    """Each document's :attr:`Parsed.placed_key` (a digest each, taken once per build): the
    recorded one where a document is its last summary (read from the records by this engine's
    first build, its parse key that build's) and the settings are that build's (only posts, pages,
    templates or assets changed): the same front matter placed by the same settings is where
    it was. 100,000 digests of a date's repr at 100,000 posts."""
    scan, records, parsed = build.scan, engine.state.records, build.assembled.parsed
    if not settings_as_recorded(engine, scan):
        return {source: p.placed_key for source, p in parsed.items()}
    recorded, summaries = records.documents, records.summaries
    return {source: recorded[source] if type(p.document) is LazyDocument and source in recorded
            and summaries[source][0] == p.key else p.placed_key for source, p in parsed.items()}


def settings_as_recorded(engine: Engine, scan: Scan) -> bool:
    """Whether the settings are those of the build that wrote the records, and each summary read
    from them its document's as that build placed it: this engine's first build (the preview's
    later ones hold their own documents), where only posts, pages, templates or assets changed."""
    swappable = SWAPPABLE + scan.config.static_paths + scan.config.theme_paths
    return engine.last is None and not scan.fresh and all(within(name, swappable) for name in scan.changed)


def placement_kept(engine: Engine, build: Build, reparsed: set[str]) -> bool:
    """Whether the collections are those the records' digests were taken of, as after an edit
    :func:`generator.engine.loading.swap_in` takes: no file came or went, only posts, pages,
    templates or assets changed, no date was crossed, and each document parsed again (``reparsed``)
    is placed where it was (its last summary, placed by today's settings: a placement is a function
    of the front matter, the file name and the settings)."""
    scan, records, parsed = build.scan, engine.state.records, build.assembled.parsed
    swappable = SWAPPABLE + scan.config.static_paths + scan.config.theme_paths
    if scan.fresh or scan.due or scan.external != engine.state.external or scan.index.listing_changed \
            or not all(within(name, swappable) for name in scan.changed) \
            or not reparsed <= records.summaries.keys() or not reparsed <= parsed.keys():
        return False
    keys = tuple(c.sort_by for c in scan.config.collections.values() if c.sort_by)
    for source in reparsed:
        was = LazyDocument(None, Path(source), records.summaries[source][1])
        try:
            place_all((was,), scan.config)
        except SiteError:
            return False
        if placement(was, keys) != placement(parsed[source].document, keys):
            return False
    return True


def outdated(engine: Engine, build: Build, plan: Plan, paths: Iterable[str]) -> set[str]:
    """The ``paths`` whose jobs must run: new, changed by hand, planned with other inputs,
    or having read what changed since."""
    paths, tampered = list(paths), build.scan.tampered
    if not tampered:
        return engine.state.records.outdated(paths, plan, build.moved)
    return {path for path in paths if path in tampered} | engine.state.records.outdated(
        [path for path in paths if path not in tampered], plan, build.moved)


def guard_removals(engine: Engine, build: Build) -> None:
    """Refuse a plan that would remove most of the output folder (:func:`refuse_mass_removal`);
    derived files (a search index) are not the site's content."""
    scan, state = build.scan, engine.state
    derived_before = state.records.derived_files()
    transient = transient_paths(scan.config, engine.planners)
    present = set(outside(state.stamps.keys() | scan.strays, transient)) - derived_before
    refuse_mass_removal(present - build.planned.plan.keys(), len(present), scan.out_dir)


def next_state(engine: Engine, build: Build) -> BuildState:
    """The state for the next build: each output's inputs and reads, and the digests of those.

    A swapped-in site (``build.swapped``: the last one with new content) has
    every document placed as it was and no publication date passed, so the
    dates that bound what is published are the last build's.
    """
    scan, assembled, planned, derived, made = build.scan, build.assembled, build.planned, build.derived, build.made
    moved, resolver = build.moved, build.resolver
    state, plan = engine.state, derived.plan
    outputs, kept = entries_for(state.records.outputs, plan), entries_for(state.stamps, plan)
    for path, m in made.items():
        outputs[path] = OutputRecord(plan[path].inputs, m.reads, m.digest)
    digests = state.records.digests.copy()
    digests.update(moved)
    read = set().union(*(m.reads for m in made.values()), *(b.reads for b in planned.bundles.values()))
    new_keys = {key for key in read if key not in digests}
    digests.update((key, resolver(key)) for key in new_keys)
    engine.keys.extend(new_keys)
    documents = resolver.documents.values()
    if build.swapped:
        horizon, floor = state.horizon, state.floor
    else:
        horizon = publication_horizon(documents, scan.now, engine.options)
        floor = publication_floor(documents, scan.now, engine.options)
    shown = [changes_at(key[1], assembled.site.time) for key in engine.keys.always if key[0] == "time"]
    horizon = min(filter(None, [horizon, *shown]), default=None)   # and when a page's text of the time turns
    unsaved = state.records.unsaved     # keys whose digests may differ from the records' files
    records = Records(outputs, build.placed, digests,
                      planned.bundles, build.order,
                      summaries_of(assembled.parsed, state.records.summaries,
                                   engine.last.parsed if build.swapped and engine.last else {}),
                      derived.records,
                      unsaved=None if unsaved is None else unsaved | moved.keys() | new_keys)
    return BuildState(
        world=scan.world, files=scan.index.snapshot(), stamps={**kept, **build.stamps},
        folders=build.folders,
        extra=tuple(sorted({*state.extra, *files_read(new_keys)})),   # digests only gain keys here
        reports={name: bundle.report for name, bundle in planned.bundles.items()},
        external=scan.external, horizon=horizon, floor=floor,
        planned={name: len(paths) for name, paths in {**planned.owners, **derived.owners}.items()},
        behind=any(r.inputs == OUT_OF_DATE for groups in derived.records.values() for r in groups.values()),
        saved=records, generation=state.generation, journal=state.journal, on_disk=state.on_disk)


def entries_for(table: Mapping[str, Any], paths: Mapping[str, Any]) -> dict[str, Any]:
    """The entries of ``table`` for ``paths``, in its order: a copy where it holds no other (an
    edit's build). Gone through in C (267,000 outputs at 100,000 posts)."""
    if table.keys() <= paths.keys():
        return dict(table.items())
    return dict(itertools.compress(table.items(), map(paths.__contains__, table.keys())))


def summaries_of(parsed: dict[str, Parsed], last: Mapping[str, tuple[str, dict]],
                 kept: Mapping[str, Parsed] = {}) -> dict[str, tuple[str, dict]]:
    """Source -> (parse key, :func:`summary` of its document): the last build's where the parse key
    and the warnings of unread keys are the same (the rest of a document is a function of its key
    and its placement), with the document's placement where that moved (a settings edit places
    documents anew without parsing them: the next build places those it reads from their summaries
    where these say, :func:`generator.engine.loading.assemble_site`).

    ``kept``: what the last build parsed, whose summaries ``last`` holds; a source still held
    as it was (the same object: the preview's rebuild after an edit) is not looked at again.
    """
    if kept and parsed.keys() == last.keys():
        summaries, look_at = dict(last), [source for source, p in parsed.items() if kept.get(source) is not p]
    else:
        summaries, look_at = {}, list(parsed)
    for source in look_at:
        p, entry = parsed[source], last.get(source)
        doc = p.document
        if entry is None or entry[0] != p.key or entry[1]["unread"] != doc.unread:
            entry = (p.key, summary(doc))
        elif entry[1]["url"] != doc.url or entry[1]["categories"] != doc.categories \
                or entry[1]["date"] is not doc.date and repr(entry[1]["date"]) != repr(doc.date):   # its zone too
            entry = (p.key, {**entry[1], "url": doc.url, "date": doc.date, "categories": doc.categories})
        summaries[source] = entry
    return summaries


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
