"""The load stage: the documents (parsed again only where their inputs changed) assembled into
the site, or, after an edit that moves nothing, the last site with the new content swapped in."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator import parallel
from generator import progress as reporting
from generator.cache import digest
from generator.config import Config, setting_digest
from generator.deps import Settings, Views
from generator.engine.documents import (DocumentStats, Listed, Parsed, inputs_moved, load_data_file,
                                        load_documents, parse_uncached, settings_moved)
from generator.engine.planning import placement, within
from generator.engine.records import CONTENT_FIELDS, settings_as_recorded
from generator.engine.values import Assembled, Build, Scan
from generator.errors import SiteError
from generator.buildtime import build_time
from generator.layout import DATA, SWAPPABLE, TEMPLATES
from generator.outputs import Planner
from generator.outputs.registry import required_templates
from generator.outputs.site_view import site_view
from generator.placement import place_all
from generator.site import Document, LazyDocument, assemble
from generator.sources import discover, discover_named

if TYPE_CHECKING:
    from generator.engine.core import Engine


def load_site(engine: Engine, build: Build, warm: bool) -> None:
    """The build's site: the last one with the new content swapped in (``warm``: the last build
    succeeded) where that is right, else loaded and assembled, its edited documents parsed ahead
    in a child where that gains time."""
    scan = build.scan
    ahead = None if warm else parse_ahead(engine, scan)
    try:
        engine.state.records         # read (from disk, on first use) while the child parses
        ready_renderer(engine, scan)
        swapped = swap_in(engine, scan) if warm else None
        if swapped:
            build.assembled, build.documents = swapped
            build.swapped = True
        else:
            loaded, build.documents = load(engine, scan, ahead.result() if ahead else {})
            with reporting.current().stage("assembling"):
                build.assembled = assemble_site(engine, scan, loaded)
    finally:
        if ahead:
            ahead.close()


def ready_renderer(engine: Engine, scan: Scan) -> None:
    """A renderer of the templates as they are now (made only by a build with work to do),
    reading the settings through a recording view."""
    compiler = digest(scan.world, repr(scan.config))     # code, settings, options
    if scan.fresh or engine.renderer is None or engine.renderer.compiler != compiler:
        from generator.render import Renderer

        engine.renderer = Renderer(Settings(scan.config), required_templates(engine.planners), compiler=compiler)
    elif any(within(name, (TEMPLATES, *scan.config.theme_paths)) for name in scan.changed):
        engine.renderer.env.cache.clear()  # the loader takes cached templates to be current


def parse_ahead(engine: Engine, scan: Scan) -> parallel.Background | None:
    """The documents whose files changed, parsed in a child while this process reads the
    records and readies the templates (an edit: a few documents, whose parse would else
    wait for those); None where nothing is to gain (a full build, many documents, a small
    site, a process that may not fork: :func:`load` parses them with the rest)."""
    if scan.fresh or engine.options.refresh or not parallel.worth_background(len(engine.state.stamps)):
        return None
    present = [name for name in scan.changed if name in scan.index.current]
    sources = [(kind, path, scan.index.digest(path.as_posix()))
               for kind, path in discover(engine.root, present) if kind != "data"]
    if not sources or parallel.worth_workers(len(sources)):
        return None
    return parallel.Background(parse_uncached, scan.config, sources)


def load(engine: Engine, scan: Scan, ready: Mapping[str, Document] = {}
         ) -> tuple[tuple[list[Listed], dict[str, Parsed], dict[str, Any]], DocumentStats]:
    """The sources, each document (kept from the last build if its bytes, the files its
    Liquid read and the settings its parse read are as they were; in ``ready`` if parsed
    ahead), the data; and how many documents were parsed."""
    last, index = engine.last, scan.index
    listing = last.listing if last is not None else None
    if scan.fresh or listing is None or index.listing_changed:
        listing = list(map(Listed._make, discover_named(engine.root, index.current)))
    sources = [(s.kind, s.path, index.digest(s.name)) for s in listing]
    kept = {} if scan.fresh or engine.options.refresh or last is None else last.parsed
    setting_now = functools.cache(partial(setting_digest, scan.config))
    todo = [s for s in sources if s[0] != "data" and ((held := kept.get(str(s[1]))) is None
            or held.digest != s[2] or inputs_moved(held.document, index.digest)
            or settings_moved(held.document, setting_now))]
    loaded, count = load_documents(scan.config, todo, engine.options.refresh,
                                   summaries={} if scan.fresh else engine.state.records.summaries, ready=ready,
                                   slim=True)
    parsed = {str(path): Parsed(source_digest, *loaded[str(path)]) if str(path) in loaded
              else kept[str(path)] for kind, path, source_digest in sources if kind != "data"}
    data_files = {key: engine.data_files.get(key) or load_data_file(scan.config, path, key)
                  for kind, path, key in sources if kind == "data"}
    engine.data_files = data_files     # by digest: true whether or not this build succeeds
    data = site_data((path, data_files[key]) for kind, path, key in sources if kind == "data")
    return (listing, parsed, data), DocumentStats(count, len(parsed) - count)


def site_data(files: Iterable[tuple[Path, Any]]) -> dict[str, Any]:
    """``site.data``: each data file's value under its name, a subfolder's files under the
    folder's name (``content/data/locales/ar.yml`` is ``site.data.locales.ar``), as Jekyll
    nests ``_data``. Two files that would have one name (``team.yml`` and ``team.yaml``, or
    ``locales.yml`` and ``locales/``) are refused."""
    data: dict[str, Any] = {}
    folders: set[int] = {id(data)}     # the dicts made for folders (a file's value may be a dict too)
    for path, value in files:
        *names, name = path.relative_to(DATA).with_suffix("").parts
        into = data
        for folder in names:
            if folder not in into:
                into[folder] = {}
                folders.add(id(into[folder]))
            into = into[folder]
            if id(into) not in folders:
                raise SiteError(f"site.data.{'.'.join(names)} is both a data file and this folder's: rename one",
                                path)
        if name in into:
            raise SiteError(f"site.data.{'.'.join((*names, name))} is named twice (by this file and another, "
                            "or a folder): rename one", path)
        into[name] = value
    return data


def assemble_site(engine: Engine, scan: Scan,
                  loaded: tuple[list[Listed], dict[str, Parsed], dict[str, Any]]) -> Assembled:
    """Collections, URLs, neighbours: the site, and the recording views of it.

    A document read from its summary where the settings are the last build's is placed where
    that summary says (:func:`generator.engine.records.summaries_of` keeps each summary's placement
    its document's): placing 100,000 posts anew from their front matter was half of assembling them.
    """
    listing, parsed, data = loaded
    documents = [p.document for p in parsed.values()]
    unplaced = [doc for doc in documents if type(doc) is not LazyDocument] \
        if settings_as_recorded(engine, scan) else None
    site = assemble(documents, data, scan.config, now=scan.now,
                    drafts=engine.options.drafts, future=engine.options.future, unplaced=unplaced)
    site.time = build_time(scan.now)
    site.tutorials = partial(labelled_pages, engine.planners, scan.config, scan.index.digest)   # read when asked
    views = Views(site)
    return Assembled(site, listing, parsed, views, site_view(site, views, engine.planners))


def labelled_pages(planners: Iterable[Planner], config: Config, file_digest: Callable[[str], str | None]) -> list:
    """The pages of the planners' own whose MyST labels the site's documents may refer to."""
    return [page for planner in planners for page in planner.labelled_pages(config, file_digest)]


def swap_in(engine: Engine, scan: Scan) -> tuple[Assembled, DocumentStats] | None:
    """After an edit that moves nothing, the last site with the new content (and how many
    documents were parsed); else None.

    If only posts, pages, templates or assets changed, no file appeared or
    went, and every document parsed again keeps its placement, then the
    collections and the plan of the last build are still right: the new
    content is written into the document objects they hold.
    """
    last, index, state = engine.last, scan.index, engine.state
    if last is None or scan.fresh or scan.due or scan.external != state.external:
        return None
    swappable = SWAPPABLE + scan.config.static_paths + scan.config.theme_paths
    if index.listing_changed or not all(within(name, swappable) for name in scan.changed):
        return None
    todo = [(s.kind, s.path, index.digest(s.name)) for s in last.listing if s.name in scan.changed
            or (s.kind != "data" and (doc := last.parsed[s.name].document).inputs
                and inputs_moved(doc, index.digest))]
    reparsed, count = load_documents(scan.config, todo, engine.options.refresh)
    place_all((doc for _, doc in reparsed.values()), scan.config)
    keys = tuple(c.sort_by for c in scan.config.collections.values() if c.sort_by)
    if any(placement(doc, keys) != placement(last.parsed[source].document, keys)
           for source, (_, doc) in reparsed.items()):
        return None
    parsed = dict(last.parsed)
    for _, path, source_digest in todo:
        key, doc = reparsed[str(path)]
        held = last.parsed[str(path)].document
        for name in CONTENT_FIELDS:
            setattr(held, name, getattr(doc, name))
        parsed[str(path)] = Parsed(source_digest, key, held)
    last.site.rewritten()
    last.site.time = build_time(scan.now)      # this build's (its pages showing another read again)
    return dataclasses.replace(last, parsed=parsed), DocumentStats(count, len(parsed) - count)
