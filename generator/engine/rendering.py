"""The make, derive and write stages: the jobs whose inputs or reads changed run (in worker
processes when many), then the files made from the others' bytes where those changed, and only
then, everything made, the output folder is touched."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from generator import parallel
from generator import progress as reporting
from generator.cache import digest
from generator.config import Config, setting_digest
from generator.deps import tracing, value_digest
from generator.engine.planning import (OutputBytes, PagePaths, as_bytes, groups_of, same, switched_on, unmade,
                                       within)
from generator.engine.records import outdated
from generator.engine.values import Build, Derivation, Made
from generator.layout import SWAPPABLE
from generator.output import delete_outputs, mark_ours
from generator.outputs import Derived, Remade
from generator.plan import Plan
from generator.state import OUT_OF_DATE, DerivedRecord, OutputRecord

if TYPE_CHECKING:
    from generator.engine.core import Engine


def make_planned(engine: Engine, build: Build, derive: bool = True) -> None:
    """The planned jobs that must run, then (``derive``: made again where their inputs'
    bytes changed, else kept as they were) the derived files, then those of their jobs that
    must run."""
    planned = build.planned.plan
    build.made = make(engine, build, planned, outdated(engine, build, planned, planned))
    with reporting.current().stage("deriving"):
        derive_files(engine, build, remake=derive)
    whole = build.derived.plan
    build.made |= make(engine, build, whole, outdated(engine, build, whole, whole.keys() - planned.keys()))


def make(engine: Engine, build: Build, plan: Plan, paths: Iterable[str]) -> dict[str, Made]:
    """Run the jobs of ``paths`` (in worker processes when many): path -> what it made.

    With a ``build.staging`` the bytes that differ from the output's are
    staged there, else kept in memory; either way the trace of each render
    is kept, to be recorded as if it had run here.
    """
    paths, staging = sorted(paths), build.staging

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
                made[path] = dataclasses.replace(made_one, reads=engine.intern(made_one.reads), staged=staged)
            stage.advance(len(chunk))
    return made


def derive_files(engine: Engine, build: Build, remake: bool = True) -> None:
    """The derived planners' files, group by group (``build.derived``): made from the bytes
    of the other files (as this build made them, else as the output folder holds them) where
    those changed; else planned as the last build made them. Without ``remake``, a group whose
    bytes changed keeps its last files too, if it has them, recorded as out of date."""
    scan, planned, made = build.scan, build.planned, build.made
    changed = pages_changed(engine, build)
    whole = Plan()
    whole.update(planned.plan)
    whole.unlisted = set(planned.plan.unlisted)
    derivation = build.derived = Derivation(whole)
    for planner in engine.planners:
        if not isinstance(planner, Derived) or not switched_on(scan.config, planner):
            continue
        last, records, before = engine.state.records.derived.get(planner.name, {}), {}, len(whole)
        reached = changed if planner.reads_bytes or changed is None else set()    # or its paths alone
        kept = kept_whole(engine, build, last, reached, remake)
        if kept is not None:        # nothing to make: its pages need no grouping
            groups, made_from = dict.fromkeys(kept, ()), dict.fromkeys(kept)
        else:
            groups = groups_of(planner, scan.config, planned.plan)
            made_from = {group: None if as_made(last.get(group), paths, reached)
                         else made_from_pages(engine, planner, paths, made) for group, paths in groups.items()}
            kept = {group: kept_group(engine, build, group_from, last.get(group), remake)
                    for group, group_from in made_from.items()}
        todo = [group for group, record in kept.items() if record is None]
        remade = iter(made_one for chunk in parallel.map(
            partial(make_group, build, planner, groups, engine.state.records.outputs), todo, heavy=True)
            for made_one in chunk)
        for group in groups:         # planned in the groups' order, whichever way they were made
            records[group] = plan_kept(engine, build, kept[group]) if kept[group] else planned_group(
                build, made_from[group] or made_from_pages(engine, planner, groups[group], made), *next(remade))
        derivation.owners[planner.name] = list(itertools.islice(whole, before, None))
        derivation.records[planner.name] = records
        derivation.reports[planner.name] = Remade(
            made=tuple(g for g, r in records.items() if r is not last.get(g) and r.inputs != OUT_OF_DATE),
            kept=tuple(g for g, r in records.items() if r is last.get(g)),
            behind=tuple(g for g, r in records.items() if r.inputs == OUT_OF_DATE))


def pages_changed(engine: Engine, build: Build) -> set[str] | None:
    """The pages whose bytes this build changed, where every other page is as the last build
    left it and the settings are those it read: the planned pages are those it recorded, and
    only posts, pages, templates or assets changed (site.yaml, which says how pages are grouped,
    did not). Then a group none of whose pages changed is made from what it was last made from
    (:func:`as_made`), and the digest of its pages' bytes (100,000 pages' digests at 100,000 posts)
    is not taken again. None where that does not hold."""
    scan, records = build.scan, engine.state.records
    swappable = SWAPPABLE + scan.config.static_paths + scan.config.theme_paths
    if scan.fresh or not all(within(name, swappable) for name in scan.changed) \
            or build.planned.plan.keys() != records.outputs.keys() - records.derived_files():
        return None
    return {path for path, m in build.made.items() if m.digest != records.outputs[path].digest}


def as_made(last: DerivedRecord | None, paths: list[str], changed: set[str] | None) -> bool:
    """Whether a derived group's inputs are those it was last made from: the pages and settings
    are as that build's (``changed`` is not None: :func:`pages_changed`), and none of its
    ``paths`` changed (its last record says the group had these pages, or it would differ)."""
    return changed is not None and last is not None and last.inputs != OUT_OF_DATE \
        and changed.isdisjoint(paths)


def kept_whole(engine: Engine, build: Build, last: dict[str, DerivedRecord], reached: set[str] | None,
               remake: bool) -> dict[str, DerivedRecord] | None:
    """A derived planner's groups as the last build left them, each kept, where none of the pages
    it reads changed (``reached``: :func:`pages_changed`, or empty for a planner of the paths
    alone), so that they are the groups that build made, and every one's files stand (none to
    make): in the groups' order. None where that does not hold."""
    if reached is None or reached or not last:
        return None
    kept = {group: kept_group(engine, build, None, record, remake) if as_made(record, (), reached) else None
            for group, record in sorted(last.items())}
    return kept if all(record is last[group] for group, record in kept.items()) else None


def kept_group(engine: Engine, build: Build, made_from: str | None, last: DerivedRecord | None,
               remake: bool) -> DerivedRecord | None:
    """A derived group's record for the next build where its last files stand: its inputs are
    as they were (or ``remake`` is false and it has them: then recorded as out of date). None:
    the group is to be made again. Its inputs are the bytes it is made from (``made_from``;
    None: as last made, :func:`as_made`) and the settings it read when last made, through the
    recording view (``ctx.config``)."""
    outputs, scan = engine.state.records.outputs, build.scan
    inputs = None if last is None else last.inputs if made_from is None \
        else derived_inputs(made_from, last.settings, scan.config)
    intact = last is not None and all(p in outputs and p not in scan.tampered for p in last.files)
    if not intact or (last.inputs != inputs and remake):
        return None
    return last if last.inputs == inputs else DerivedRecord(OUT_OF_DATE, last.files, last.settings)


def plan_kept(engine: Engine, build: Build, record: DerivedRecord) -> DerivedRecord:
    """A kept group's files planned again (into the whole plan, ``build.derived.plan``), as they are."""
    outputs = engine.state.records.outputs
    for path, origin in record.files.items():
        build.derived.plan.add(path, origin, unmade, outputs[path].inputs, listed=False)
    return record


def make_group(build: Build, planner: Derived, groups: dict[str, list[str]],
               recorded: Mapping[str, OutputRecord], group: str) -> tuple[list[GroupFile], tuple[str, ...]]:
    """One group's files made from its pages' bytes, and the settings the planner read making
    them: in a worker where many groups are made (a cold build's search index, part by part).
    With a ``build.staging``, each file's bytes wait there for its job (:meth:`Staging.spill`),
    not in this build's memory."""
    pages = OutputBytes(groups[group], build.made, build.scan.out_dir, build.staging, recorded) \
        if planner.reads_bytes else PagePaths(planner.name, groups[group])
    with tracing() as trace:
        files = planner.make(build.planned.ctx, group, pages)
    made = [GroupFile(path, files.origins[path], value_digest(data), partial(same, data) if build.staging is None
                      else partial(Path.read_bytes, build.staging.spill(data)))
            for path, data in files.items()]
    return made, tuple(sorted(key[1] for key in trace.reads if key[0] == "setting"))


class GroupFile(NamedTuple):
    """A derived file a group made: what its job makes (its bytes, or where they wait)."""

    path: str
    origin: str | Path
    digest: str
    make: Callable[[], bytes]


def planned_group(build: Build, made_from: str, files: list[GroupFile], settings: tuple[str, ...]) -> DerivedRecord:
    """A group's new files, planned; its record for the next build."""
    plan = build.derived.plan
    for file in files:
        plan.add(file.path, file.origin, file.make, ("made", file.digest), listed=False)
    return DerivedRecord(derived_inputs(made_from, settings, build.scan.config),
                         {file.path: file.origin for file in files}, settings)


def derived_inputs(made_from: str, settings: tuple[str, ...], config: Config) -> str:
    """What a derived group is made from: the digest of its pages' bytes and of ``settings``'s values."""
    return digest(made_from, *(setting_digest(config, name) for name in settings))


def made_from_pages(engine: Engine, planner: Derived, paths: list[str], made: dict[str, Made]) -> str:
    """The digest of what a derived group is made from: its pages' paths and bytes, or only
    their paths where the planner reads no more (``reads_bytes``)."""
    if not planner.reads_bytes:
        return digest(*paths)
    return digest(*(part for path in paths for part in (path, digest_of(engine, path, made))))


def digest_of(engine: Engine, path: str, made: dict[str, Made]) -> str:
    """The digest of an output's bytes: as this build made them, else as the last one did."""
    return made[path].digest if path in made else engine.state.records.outputs[path].digest


def write(engine: Engine, build: Build) -> None:
    """Everything is made: only now is the output directory touched. The files written, those
    deleted, and the stamps of those made."""
    scan, plan, made = build.scan, build.derived.plan, build.made
    removed = (engine.state.stamps.keys() | scan.strays) - plan.keys()
    staged = {path: m.staged for path, m in made.items() if m.staged is not None}
    with reporting.current().stage("writing", len(staged), "files"):
        if removed or scan.empty:
            mark_ours(scan.out_dir)     # before it loses a file: see safe_output_dir
        build.deleted = delete_outputs(scan.out_dir, removed, scan.empty)
        build.stamps = build.staging.commit(staged)
    build.stamps.update((path, m.stamp) for path, m in made.items() if m.staged is None)
    build.written = sorted(staged)
