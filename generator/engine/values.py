"""What the stages of a build hand each other, and what a build returns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from generator.config import Config
from generator.deps import Key, Resolver, Views
from generator.engine.documents import DocumentStats, Listed, Parsed
from generator.output import Staging
from generator.outputs import PlanContext, Planned, Remade, Report
from generator.plan import Plan
from generator.site import Site
from generator.stamps import FileIndex, Stamp
from generator.state import BuildState, BundleRecord, DerivedRecord


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
    link_warnings: tuple[str, ...] = ()      # documents' links to what the site lacks (generator.links)
    label_warnings: tuple[str, ...] = ()     # labels the planners' pages share with documents

    @property
    def warnings(self) -> list[str]:
        """``file:line: warning: ...`` for what the site's documents, their renders and the
        planners' work (docs pages, tutorials) use that sitegen left out."""
        documents = [w for doc in (self.site.documents if self.site else ()) for w in self.site.reported(doc)]
        documents += self.label_warnings
        planners = [w for report in self.reports.values() for w in getattr(report, "warnings", ())]
        return documents + list(self.link_warnings) + list(self.render_warnings) + planners

    def summary(self) -> str:
        return (f"{self.files} files: {len(self.written)} written, "
                f"{self.files - len(self.written)} unchanged, {len(self.deleted)} removed")


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


@dataclass
class Build:
    """One build, as its stages fill it in, stage after stage: each stage of
    :mod:`generator.engine` takes it and the engine (what lasts between builds)."""

    scan: Scan
    staging: Staging | None = None      # where made files wait for the write stage; None: in memory
    assembled: Assembled | None = None
    documents: DocumentStats = DocumentStats()   # this build's parses
    swapped: bool = False               # the site is the last one with new content (loading.swap_in)
    resolver: Resolver | None = None    # dependency key -> its digest now
    order: tuple = ()                   # the published posts, in order (which sets their neighbours)
    placed: dict[str, str] = field(default_factory=dict)    # source -> Parsed.placed_key, taken once
    moved: dict[Key, str] = field(default_factory=dict)     # keys some output read whose digest differs now
    planned: PlanResult | None = None
    derived: Derivation | None = None
    made: dict[str, Made] = field(default_factory=dict)
    written: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    stamps: dict[str, Stamp] = field(default_factory=dict)     # of the files written
    folders: dict[str, int] = field(default_factory=dict)      # the output folder's stamps

    def reports(self) -> dict[str, Any]:
        """Planner name -> its report: a bundle's or derived planner's own, else how many files
        it has and made."""
        planned, made = self.planned, self.made
        overridden = planned.plan.overridden
        return {**{name: planned.reports[name] if name in planned.reports
                   else Planned(len(paths), sum(path in made for path in paths),
                                tuple(overridden[path] for path in paths if path in overridden))
                   for name, paths in planned.owners.items()}, **self.derived.reports}
