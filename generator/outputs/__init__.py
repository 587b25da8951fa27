"""Outputs: every file of the site comes from a planner, in one ordered registry.

The engine (``generator.build``) knows no output by name: it runs the
planners of a :class:`Registry` in phase order and makes the jobs they plan.
Public interface, for the built-in outputs and for plug-ins:

``Planner``
    ``name`` (unique in a registry), ``phase``, ``templates`` (the names it renders:
    every theme must have them, checked before any work) and ``plan(ctx, plan)``, which
    adds :class:`~generator.plan.Job`\\ s to the :class:`~generator.plan.Plan`
    (``plan.add(path, origin, make, inputs, listed=True)``). ``watches(config)``
    names files or folders of the site it reads beyond the usual inputs
    (``site.yaml``, ``content``, ``notebooks``, ``templates``, the static
    folders); ``external(config)`` stands for what its output depends on
    outside the site's files (what a git ref resolves to): a build whose files
    did not change still runs when it differs. ``transient(config)`` names
    output folders whose files no one links to by name (a search index's
    chunks, named by their content and found through its entry file):
    publishing may remove them without losing a URL. ``section`` is the dataclass
    of the site.yaml keys it owns (``FeedsSection``: ``feeds``), each field a top-level
    key with its type and default, checked as sitegen's own are (see
    ``generator.config``) and read as ``ctx.config.feeds``; besides ``validate(path,
    prefix)``, it may have ``check(config, path)`` (what needs the other settings or the
    site's files) and ``switched_off(names)`` (its values when ``outputs`` switches those
    planners off, so that no page links what the build does not make). The registry's
    sections are gathered by ``generator.configure.load_config``: a new kind of
    output brings its keys with it. A plugin's planner may declare one too, or add a
    section of its own under ``config.plugins`` (``add_config_section``).
    ``site_values`` names what templates see of it as ``site.NAME``: NAME -> a function
    of the (recording) settings, called when a template reads it (the feeds planner's
    ``site.feeds``, the search's ``site.search``).
``Bundle``
    A planner that makes several files at once, which it only knows once it
    has run (the docs section). ``inputs(ctx)`` is a small value: while it and
    everything the last ``make`` read stay the same, the last files are kept.
    ``make(ctx)`` returns ``(Files, report)``. A bundle's report is saved with
    the state: its class is a ``generator.codec.record``, with
    ``summary()``, ``reusable`` and ``reused()`` (what it says when kept).
``Derived``
    A planner that makes files from the bytes of the files the others made (a
    search index of the pages), once they are made. ``group(config, path)``
    sorts the output paths it reads into groups (None: a path it does not
    read), or ``groups(config, paths)`` sorts them all at once (groups that
    depend on how many paths there are); ``make(ctx, group, files)`` gets
    one group's files, path -> bytes in path order (``files.digest(path)``: the digest of a
    file's bytes, known without reading them: what a planner found in a file may be kept by
    it), and returns :class:`~generator.files.Files`. A group is
    made again only when its paths or their bytes changed, so what it makes
    is a function of those bytes, and a build that changed none of them
    leaves it alone. A planner that reads only which paths there are, not their
    bytes, says so (``reads_bytes = False``): its groups are made again only when
    their paths change, not on an edit of a page. The preview may ask a build to keep a group's last files
    although its pages changed (it shows an edit first); the group is then out
    of date, and the next build makes it. Its files are not in the sitemap.
``Phase``
    ``EARLY`` planners plan the site's own files (pages, listings, feeds,
    assets); ``BUNDLE`` planners run (or are reused) next; ``LATE`` planners
    see every path the others planned (author pages, whose avatars must be
    among them; the 404 page unless one was made; the sitemap); ``DERIVED``
    planners run once every other file is made. Within a phase, planners run
    in the order they were registered.
``PlanContext``
    Everything a planner may read. ``ctx.render(template, source, **context)``
    renders with the ``site`` templates see.
``default_registry()``
    In :mod:`generator.outputs.registry`: the built-in planners in their order,
    then the plugins' (a plugin's ``register(plugins)`` entry point calls
    ``plugins.add_planner(planner)``: see :mod:`generator.plugins`). It lives
    beside this module, not in it, since the planners import this one.

The rule that keeps incremental builds right: a job's bytes must be a
function of its ``inputs`` (given at plan time, compared with ``==``), of
what it reads while it runs through the recording views (``ctx.views``,
``ctx.site_view``, templates through ``ctx.render``, files through
``generator.deps.record`` of ``("file", path)``, settings through
``ctx.config``: what a planner reads of them while planning counts for each
of its jobs), and of the code (a change rebuilds everything). A bundle and a
derived planner read the settings through ``ctx.config`` as well: an edit of one
it read makes its files again, an edit of any other leaves them. Planning
itself may look at the site's *structure* only (``ctx.site``: which documents exist, where they
are published, which collections list them): the plan is made again
whenever that changes, but a job that reads a document's content without a
view would not be made again when the content changes.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from generator import codec
from generator.config import Config
from generator.deps import Views
from generator.errors import SiteError
from generator.files import Files
from generator.options import BuildOptions
from generator.plan import Plan
from generator.site import Document, Site
from generator.sources import Source

if TYPE_CHECKING:   # Jinja is loaded by the first render, not by a build with nothing to do
    from generator.render import Renderer


class Phase(enum.IntEnum):
    EARLY = 0      # the site's own files
    BUNDLE = 1     # steps making several files at once (the docs section)
    LATE = 2       # planners that see every path the others planned (authors, 404, sitemap)
    DERIVED = 3    # files made from the bytes of the others' files (a search index)


@dataclass(frozen=True)
class PlanContext:
    """What a planner may read: one assembled site, and what this build knows of its inputs."""

    config: Config
    site: Site                          # its structure, for planning (see the module's docstring)
    views: Views                        # recording stand-ins for documents and collections
    site_view: Mapping[str, Any]        # what templates see as ``site``
    renderer: Renderer
    options: BuildOptions
    parse: Callable[[list[Source], Path], list[Document]]   # sources of a tree -> documents, parse cache
    tree_digest: Callable[[str], str]       # a folder of the site -> its files, as this build found them
    site_key: Callable[[], str]             # stands for every post, page and data file
    external: Mapping[str, Any]             # planner name -> its external() this build

    def render(self, template: str, source: Path | None = None, **context: Any) -> str:
        return self.renderer.render(template, {"site": self.site_view, **context}, source)


class Planner:
    """Plans some of the site's files (see the module's docstring)."""

    name: str = ""
    phase: Phase = Phase.EARLY
    templates: tuple[str, ...] = ()
    section: type | None = None     # a dataclass of the site.yaml keys it owns
    site_values: Mapping[str, Callable[[Config], Any]] = {}    # site.NAME in templates (module docstring)

    def watches(self, config: Config) -> tuple[str, ...]:
        return ()

    def external(self, config: Config) -> Any:
        return None

    def transient(self, config: Config) -> tuple[str, ...]:
        return ()

    def labelled_pages(self, config: Config, file_digest: Callable[[str], str | None]) -> list:
        """Pages it makes from files that are not the site's documents (the docs section's
        tutorials) whose MyST labels the documents may refer to: ``generator.references.TutorialPage``
        each, read through ``file_digest`` (a file of the site -> its digest, as this build found it)."""
        return []

    def label_warnings(self, site: Site) -> tuple[str, ...]:
        """Warnings of labels its pages share with the site's documents, at file and line."""
        return ()

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        raise NotImplementedError


@runtime_checkable
class Report(Protocol):
    """What a planner did in one build, as ``BuildResult.reports`` holds it; the CLI prints
    each non-empty ``summary()``, and ``warnings`` (``file:line: warning: ...``) where a report
    has them."""

    def summary(self) -> str: ...


class Bundle(Planner):
    """Makes several files at once; the engine runs it, or keeps its last files."""

    phase = Phase.BUNDLE

    def inputs(self, ctx: PlanContext) -> Any:
        raise NotImplementedError

    def make(self, ctx: PlanContext) -> tuple[Files, Any]:
        raise NotImplementedError

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        raise TypeError("a bundle's files are planned by the engine, which runs or reuses it")


class Derived(Planner):
    """Makes files from the bytes of the site's other files, group by group (see the module's docstring)."""

    phase = Phase.DERIVED
    reads_bytes = True      # False: ``make`` reads only the paths of its files (module docstring)

    def group(self, config: Config, path: str) -> str | None:
        raise NotImplementedError

    def groups(self, config: Config, paths: Iterable[str]) -> dict[str, list[str]]:
        """The output paths it reads, by group: each path's ``group``. A planner whose groups
        depend on all the paths at once (how many posts there are) says so here instead."""
        found: dict[str, list[str]] = {}
        for path in paths:
            if (group := self.group(config, path)) is not None:
                found.setdefault(group, []).append(path)
        return found

    def make(self, ctx: PlanContext, group: str, files: Mapping[str, bytes]) -> Files:
        raise NotImplementedError

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        raise TypeError("a derived planner's files are made by the engine, once the others are made")


@codec.record
@dataclass(frozen=True)
class Remade:
    """The report of a derived planner: the groups it made again, those it kept, and those it
    left out of date (a build asked to leave them to the next one)."""

    made: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()
    behind: tuple[str, ...] = ()

    def summary(self) -> str:
        return ""


@codec.record
@dataclass(frozen=True)
class Planned:
    """The report of a planner that is not a bundle: how many files it has, how many were made,
    and the warnings of its files that won over generated ones (a site's own feed.xml)."""

    files: int = 0
    made: int = 0
    warnings: tuple[str, ...] = ()

    def summary(self) -> str:
        return ""


class Registry:
    """Planners in the order they run: by phase, then as registered."""

    def __init__(self, planners: Iterable[Planner] = ()):
        self._planners: list[Planner] = []
        for planner in planners:
            self.register(planner)

    def register(self, planner: Planner) -> Planner:
        if not planner.name or any(p.name == planner.name for p in self._planners):
            raise SiteError(f"output planner {planner.name!r}: a planner needs a name of its own")
        self._planners.append(planner)
        return planner

    def __iter__(self) -> Iterator[Planner]:
        return iter(sorted(self._planners, key=lambda p: p.phase))   # stable: registration order kept

    def names(self) -> list[str]:
        return [p.name for p in self]


def generated_page(title: str, url: str, kind: str = "generated", description: str = "") -> dict[str, Any]:
    """The ``page`` of a page the generator makes itself (blog index, tag page, redirect, tutorial...)."""
    return {"title": title, "url": url, "kind": kind, "toc": (), "meta": {},
            "description": description, "date": None}
