"""Orchestrate builds: sources -> documents -> site -> plan -> outputs -> files.

A build first *plans* every file the site has (a :class:`Job`: its path and
how to make it), then makes only the jobs whose inputs changed since the last
build. Each render is traced (:mod:`generator.deps`): the keys it read are
saved with the output, and an output is made again only when its plan's
inputs differ or one of its keys resolves to something new. A build with
nothing changed stops after comparing file stamps (:mod:`generator.state`).

Made bytes are held in memory until every job has succeeded; only then is the
output directory touched, and then only files whose bytes changed are written
and files no longer produced are removed. A failed build therefore leaves the
previous site, and the state for the next build, exactly as they were.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import shutil
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
import functools
from functools import partial
from pathlib import Path
from typing import Any

import jinja2
import markdown
import pygments
import pymdownx
import yaml
from markupsafe import Markup

from generator import __version__, feeds, highlight
from generator.cache import PickleCache, digest, write_atomic
from generator.config import Config, load_config
from generator.deps import LINKED_FIELDS, Key, Views, record, resolve, tracing, value_digest
from generator.errors import SiteError
from generator.render import DataFiles, Renderer
from generator.site import Document, Site, assemble, output_path, parse_document, slugify, timezone_of
from generator.sources import discover, load_data, load_source, read_text
from generator.state import BuildState, FileIndex, OutputRecord, Stamp, file_stamp, scan

PARSE_CACHE_VERSION = "2"
PARALLEL_THRESHOLD = 64
PYGMENTS_CSS = "assets/css/pygments.css"
INPUTS = ("site.yaml", "content", "notebooks", "templates", "assets")
STATE_FILE = "state.pickle"


@dataclass(frozen=True)
class BuildOptions:
    drafts: bool = False
    future: bool = False
    refresh: bool = False
    now: datetime | None = None


@dataclass
class BuildResult:
    site: Site | None                     # None when nothing changed: no site was assembled
    files: int                            # files the site has
    outputs: dict[str, bytes]             # the files this build made (all, in a full build)
    written: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (f"{self.files} files: {len(self.written)} written, "
                f"{self.files - len(self.written)} unchanged, {len(self.deleted)} removed")


@dataclass(frozen=True)
class Job:
    """One output file: how to make it, and what the plan hands its render.

    ``inputs`` is a small value standing for everything the plan passes in
    (a page number, a redirect's target); what the render reads from the
    site and the templates it records itself.
    """

    path: str
    origin: str
    make: Callable[[], bytes | str]
    inputs: Any = None


class Plan(dict):
    """Output path -> :class:`Job`, refusing a second claim on a path (naming both)."""

    def add(self, path: str, origin: str | Path, make: Callable[[], bytes | str],
            inputs: Any = None) -> None:
        if path in self:
            raise SiteError(f"/{path} is claimed by both {self[path].origin} and {origin}", origin)
        self[path] = Job(path, str(origin), make, inputs)


def build(root: str | Path = ".", options: BuildOptions = BuildOptions()) -> BuildResult:
    """Bring the site's output directory up to date, doing only the work edits require."""
    return Engine(root, options).build()


def render_site(config: Config, options: BuildOptions = BuildOptions()) -> BuildResult:
    """Every file the site has, made in memory from scratch; raises SiteError on bad input."""
    root = config.root
    sources = [(kind, path, hashlib.sha256((root / path).read_bytes()).hexdigest())
               for kind, path in discover(root)]
    documents = parse_documents(config, [s for s in sources if s[0] != "data"], {}, options.refresh)
    data = {path.stem: load_data(load_source(root, kind, path)) for kind, path, _ in sources if kind == "data"}
    now = options.now or datetime.now(timezone_of(config))
    site = assemble([doc for _, doc in documents.values()], data, config, now=now,
                    drafts=options.drafts, future=options.future)
    plan = SiteRenderer(site, Renderer(config)).plan()
    outputs = {path: _bytes(job.make()) for path, job in plan.items()}
    return BuildResult(site, len(outputs), outputs)


def parse_documents(config: Config, sources: list[tuple[str, Path, str]],
                    known: dict[str, Document], refresh: bool = False) -> dict[str, tuple[str, Document]]:
    """Source path -> (parse key, Document) for ``(kind, path, digest)`` sources.

    A document is a function of its source's bytes and a few settings, so it
    is taken from ``known`` (documents kept in memory) or the disk cache under
    that key when it can be, and parsed (in parallel when many) otherwise.
    """
    cache = PickleCache(config.state_dir / "cache" / "documents")
    fingerprint = digest(PARSE_CACHE_VERSION, __version__, code_digest(),
                         config.permalink, config.timezone)
    keys = [digest(fingerprint, kind, str(path), source_digest) for kind, path, source_digest in sources]
    documents = [None if refresh else known.get(key) or cache.get(key) for key in keys]
    todo = [i for i, doc in enumerate(documents) if doc is None]
    loaded = [load_source(config.root, sources[i][0], sources[i][1]) for i in todo]
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
    return {str(path): (key, doc) for (_, path, _), key, doc in zip(sources, keys, documents)}


@functools.cache
def code_digest() -> str:
    """Stands for the code that turns inputs into outputs: ours and the libraries'."""
    package = Path(__file__).parent
    parts = [path.read_bytes() for path in sorted(package.glob("*.py"))]
    versions = [jinja2.__version__, markdown.__version__, pygments.__version__,
                pymdownx.__version__, yaml.__version__]
    return digest(__version__, *versions, *parts)


class Engine:
    """Builds one site again and again, redoing only what each edit touched.

    ``sitegen build`` makes one from the state saved in ``.sitegen/`` and uses
    it once; ``sitegen serve`` keeps one alive, so its documents, templates
    and dependency records stay in memory between rebuilds.
    """

    def __init__(self, root: str | Path = ".", options: BuildOptions = BuildOptions()):
        self.root = Path(root).resolve()
        self.options = options
        self.state_path = self.root / ".sitegen" / STATE_FILE
        self.state = BuildState.load(self.state_path)
        self.documents: dict[str, Document] = {}    # parse key -> document
        self.renderer: Renderer | None = None
        self.outputs_checked = False                 # the output dir matched the state once
        self.interned: dict[Key, Key] = {}

    def build(self, now: datetime | None = None, save: bool = True) -> BuildResult:
        """Bring the output directory up to date; ``save=False`` keeps the state in memory only."""
        config = load_config(self.root)
        out_dir = safe_output_dir(config)
        state = self.state
        world = digest(repr(config), repr((self.options.drafts, self.options.future)), code_digest())
        fresh = self.options.refresh or world != state.world
        index = FileIndex(self.root, INPUTS, {} if fresh else state.files,
                          {key[1] for key in state.digests if key[0] == "file"})
        changed = index.rescan()
        tampered, strays = set(), set()
        if not self.outputs_checked:
            tampered, strays = check_outputs(out_dir, state.outputs)
        now = now or self.options.now or datetime.now(timezone_of(config))
        due = state.horizon is not None and now >= state.horizon
        if not (fresh or changed or tampered or strays or due):
            self.outputs_checked = True
            return BuildResult(None, len(state.outputs), {})

        sources = [(kind, path, index.digest(path.as_posix())) for kind, path in discover(self.root)]
        parsed = parse_documents(config, [s for s in sources if s[0] != "data"],
                                 self.documents, self.options.refresh)
        documents = {source: doc for source, (_, doc) in parsed.items()}
        data = {path.stem: load_data(load_source(self.root, kind, path))
                for kind, path, _ in sources if kind == "data"}
        site = assemble(list(documents.values()), data, config, now=now,
                        drafts=self.options.drafts, future=self.options.future)
        if fresh or self.renderer is None:
            self.renderer = Renderer(config)
        elif any(name.startswith("templates/") for name in changed):
            self.renderer.env.cache.clear()  # an edit within one mtime tick escapes Jinja's check
        plan = SiteRenderer(site, self.renderer).plan()

        resolver = partial(resolve, site=site, file_digest=index.digest, documents=documents)
        parse_keys = {source: key for source, (key, _) in parsed.items()}
        if fresh:
            moved, dirty = {}, set(plan)
        else:
            moved = self.changed_keys(resolver, parse_keys)
            dirty = {path for path, job in plan.items()
                     if path in tampered or (record := state.outputs.get(path)) is None
                     or record.inputs != job.inputs or not record.reads.isdisjoint(moved)}
        made = {path: self.make(plan[path]) for path in sorted(dirty)}

        removed = (state.outputs.keys() | strays) - plan.keys()
        deleted = delete_outputs(out_dir, removed)
        written, stamps = write_outputs(out_dir, {path: data for path, (data, _) in made.items()},
                                        state.outputs)

        digests = {} if fresh else {**state.digests, **moved}
        outputs = {path: record for path, record in state.outputs.items() if path in plan}
        for path, (data, reads) in made.items():
            for key in reads:
                if key not in digests:
                    digests[key] = resolver(key)
            outputs[path] = OutputRecord(plan[path].inputs, reads, value_digest(data), stamps[path])
        self.state = BuildState(
            world=world, files=index.snapshot(), outputs=outputs, documents=parse_keys,
            digests=digests, horizon=publication_horizon(documents.values(), now, self.options))
        self.documents = {key: doc for key, doc in parsed.values()}
        self.outputs_checked = True
        if save:
            self.save()
        return BuildResult(site, len(plan), {path: data for path, (data, _) in made.items()},
                           written, deleted)

    def make(self, job: Job) -> tuple[bytes, frozenset[Key]]:
        """Run one job, returning its bytes and the (interned) keys it read."""
        with tracing() as reads:
            data = _bytes(job.make())
        return data, frozenset(self.interned.setdefault(key, key) for key in reads)

    def changed_keys(self, resolver: Callable[[Key], str], parse_keys: dict[str, str]) -> dict[Key, str]:
        """Keys some output read whose digest differs now: key -> new digest.

        A document's own fields only change with its parse key, so only the
        fields of re-parsed documents and the links between neighbours are
        resolved again; every other key is cheap to resolve.
        """
        old = self.state.documents
        moved_sources = {source for source in parse_keys.keys() | old.keys()
                         if parse_keys.get(source) != old.get(source)}
        changed = {}
        for key, was in self.state.digests.items():
            if key[0] == "doc" and key[1] not in moved_sources and key[2] not in LINKED_FIELDS:
                continue
            now = resolver(key)
            if now != was:
                changed[key] = now
        return changed

    def save(self) -> None:
        """Write the state for the next build, dropping keys no output reads any more."""
        state = self.state
        live = set().union(*(record.reads for record in state.outputs.values()))
        state.digests = {key: value for key, value in state.digests.items() if key in live}
        state.save(self.state_path)


def publication_horizon(documents, now: datetime, options: BuildOptions) -> datetime | None:
    """The earliest date at which a post held back for being in the future gets published."""
    if options.future:
        return None
    return min((doc.date for doc in documents if doc.kind == "post" and doc.date > now), default=None)


class SiteRenderer:
    """Plans every file of a Site: pages through templates, feeds, sitemap, assets."""

    def __init__(self, site: Site, renderer: Renderer):
        self.site = site
        self.renderer = renderer
        self.config = site.config
        self.views = Views(site)
        self.site_view = site_view(site, self.views)

    def page(self, template: str, source: Path | None = None, **context: Any) -> str:
        return self.renderer.render(template, {"site": self.site_view, **context}, source)

    def plan(self) -> Plan:
        plan = Plan()
        for doc in self.site.documents:
            plan.add(doc.output_path, doc.source, partial(self.render_document, doc),
                     ("document", doc.layout))
        self.plan_blog(plan)
        self.plan_groups(plan, "tag", "tags")
        self.plan_groups(plan, "category", "categories")
        plan.add("history.html", "history.html", partial(
            self.page, "history.html", page=_generated("Archive", "/history.html")), "history")
        if "404.html" not in plan:
            plan.add("404.html", "templates/404.html", partial(
                self.page, "404.html", page=_generated("Page not found", "/404.html")), "404")
        self.plan_redirects(plan)
        self.plan_feeds(plan)
        plan.add(PYGMENTS_CSS, "pygments_style",
                 partial(highlight.stylesheet, self.config.pygments_style), "pygments")
        plan_assets(self.config.root, plan)
        listed, absolute = sitemap_urls(self.site, plan), self.renderer.absolute_url
        inputs = ("sitemap", value_digest(listed))
        plan.add("sitemap.xml", "sitemap", partial(feeds.sitemap_xml, listed, absolute), inputs)
        plan.add("sitemap.txt", "sitemap", partial(feeds.sitemap_txt, listed, absolute), inputs)
        return plan

    def render_document(self, doc: Document) -> str:
        template = f"{doc.layout}.html"
        if not self.renderer.has_template(template):
            raise SiteError(f"unknown layout '{doc.layout}' (no templates/{template})", doc.source)
        page = self.views.document(doc)
        return self.page(template, doc.source, page=page, content=Markup(page.content),
                         **self.layout_context(page, doc.source))

    def layout_context(self, page: Any, source: Path) -> dict[str, Any]:
        """Extra values some layouts need: a source listing needs its file's lines."""
        if page.layout != "source":
            return {}
        listed = page.meta.get("source")
        if not isinstance(listed, str):
            raise SiteError("layout 'source' needs a key 'source' naming the file to list", source)
        root = self.config.root.resolve()
        path = (root / listed).resolve()
        if path.is_relative_to(root):
            record(("file", path.relative_to(root).as_posix()))
        if not path.is_relative_to(root) or not path.is_file():
            raise SiteError(f"key 'source': {listed!r} is not a file inside the site", source)
        text = read_text(path, Path(listed))
        return {"filename": listed, "lines": highlight.source_lines(text, path.name)}

    def plan_blog(self, plan: Plan) -> None:
        per_page = max(1, self.config.posts_per_page)
        total = len(self.site.posts)
        pages = max(1, -(-total // per_page))
        urls = ["/blog.html"] + [f"/blog/page{n}.html" for n in range(2, pages + 1)]
        urls_digest = value_digest(urls)
        posts = self.views.sequence(("posts",))
        for n, url in enumerate(urls, start=1):
            paginator = {
                "posts": posts[(n - 1) * per_page:n * per_page], "page": n, "total_pages": pages,
                "total_posts": total, "previous_url": urls[n - 2] if n > 1 else None,
                "next_url": urls[n] if n < pages else None, "urls": urls,
            }
            title = "Blog" if n == 1 else f"Blog, page {n}"
            plan.add(output_path(url), "templates/blog.html",
                     partial(self.page, "blog.html", page=_generated(title, url), paginator=paginator),
                     ("blog", n, pages, total, urls_digest))

    def plan_groups(self, plan: Plan, kind: str, plural: str) -> None:
        plan.add(f"{plural}.html", f"templates/{plural}.html", partial(
            self.page, f"{plural}.html", page=_generated(plural.capitalize(), f"/{plural}.html"),
            groups=self.views.groups(plural)), ("groups", plural))
        for name in getattr(self.site, plural):
            url = f"/{plural}/{slugify(name)}.html"
            plan.add(output_path(url), f"{kind} {name!r}", partial(
                self.page, f"{kind}.html", page=_generated(f"{kind.capitalize()}: {name}", url),
                name=name, posts=self.views.sequence((plural, name))), ("group", kind, name))

    def plan_redirects(self, plan: Plan) -> None:
        """Old URLs (``redirect_from``, site.yaml ``redirects``) get a page pointing at the new one."""
        moves = [(old, doc.url, doc.source) for doc in self.site.documents for old in doc.redirect_from]
        moves += [(old, new, Path("site.yaml")) for old, new in sorted(self.config.redirects.items())]
        for old, new, origin in moves:
            if not old.startswith("/"):
                raise SiteError(f"redirect {old!r} must be a path starting with '/'", origin)
            target = new if "://" in new else self.renderer.absolute_url(new)
            plan.add(output_path(old), origin, partial(
                self.page, "redirect.html", page=_generated("Redirecting", old), target=target),
                ("redirect", old, target))

    def plan_feeds(self, plan: Plan) -> None:
        absolute = self.renderer.absolute_url
        latest = self.views.sequence(("posts",))[: self.config.feeds.entries]
        if self.config.feeds.atom:
            plan.add("atom.xml", "feeds", partial(feeds.atom_feed, self.site, latest, absolute), "atom")
        if self.config.feeds.rss:
            plan.add("rss.xml", "feeds", partial(feeds.rss_feed, self.site, latest, absolute), "rss")



def sitemap_urls(site: Site, plan: Plan) -> list[tuple[str, datetime | None]]:
    """Every HTML page worth indexing: not the 404 page, not redirect stubs."""
    dated = {doc.output_path: (doc.url, doc.date) for doc in site.documents}
    redirects = {output_path(old) for doc in site.documents for old in doc.redirect_from}
    redirects |= {output_path(old) for old in site.config.redirects}
    urls = []
    for path in sorted(plan):
        if not path.endswith(".html") or path == "404.html" or path in redirects:
            continue
        if path in dated:
            urls.append(dated[path])
        else:
            urls.append(("/" + path.removesuffix("index.html"), None))
    return urls


def _generated(title: str, url: str) -> dict[str, Any]:
    """The ``page`` of a page the generator makes itself (blog index, tag page...)."""
    return {"title": title, "url": url, "kind": "generated", "toc": (), "meta": {},
            "description": "", "date": None}


def site_view(site: Site, views: Views) -> dict[str, Any]:
    """What templates see as ``site``: the config's public values and the collections."""
    config = site.config
    return {
        "title": config.title,
        "description": config.description,
        "url": config.url.rstrip("/"),
        "baseurl": config.baseurl.rstrip("/"),
        "author": config.author,
        "language": config.language,
        "nav": config.nav,
        "feeds": config.feeds,
        "data": DataFiles(site.data),
        "posts": views.sequence(("posts",)),
        "pages": views.sequence(("pages",)),
        "tags": views.groups("tags"),
        "categories": views.groups("categories"),
        "years": views.sequence(("years",)),
    }


def plan_assets(root: Path, plan: Plan) -> None:
    """Files under ``assets/`` are copied as they are."""
    assets = root / "assets"
    if not assets.is_dir():
        return
    for path in sorted(assets.rglob("*")):
        if path.is_file() and not path.name.startswith("."):
            rel = path.relative_to(root).as_posix()
            plan.add(rel, rel, partial(copy_file, path, rel), "asset")


def copy_file(path: Path, rel: str) -> bytes:
    record(("file", rel))
    return path.read_bytes()


def _bytes(data: bytes | str) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


def safe_output_dir(config: Config) -> Path:
    """The output directory, refused if writing there could destroy the site's sources."""
    out = config.output_dir.resolve()
    root = config.root.resolve()
    sources = [root / name for name in ("content", "templates", "assets", "notebooks", "generator", ".git")]
    if root.is_relative_to(out) or any(out.is_relative_to(s) for s in sources):
        raise SiteError(f"key 'output': {config.output!r} would overwrite the site's sources",
                        root / "site.yaml")
    return out


def check_outputs(out_dir: Path, records: dict[str, OutputRecord]) -> tuple[set[str], set[str]]:
    """Outputs that are not as the last build left them, and files it did not make."""
    found = scan(out_dir, follow_links=False)
    tampered = {path for path, record in records.items() if found.get(path) != record.stamp}
    return tampered, found.keys() - records.keys()


def delete_outputs(out_dir: Path, paths: set[str]) -> list[str]:
    """Remove files no longer produced, and the folders they leave empty."""
    deleted = []
    for rel in sorted(paths):
        path = out_dir / rel
        if not (path.is_symlink() or path.is_file()):
            continue
        path.unlink()
        deleted.append(rel)
        for parent in path.parents:
            if parent == out_dir or any(parent.iterdir()):
                break
            parent.rmdir()
    return deleted


def write_outputs(out_dir: Path, made: dict[str, bytes],
                  records: dict[str, OutputRecord]) -> tuple[list[str], dict[str, Stamp]]:
    """Write the files whose bytes differ from what is there; return them and every file's stamp."""
    written, stamps = [], {}
    for rel, data in sorted(made.items()):
        path = out_dir / rel
        stamp = _holds(path, data, records.get(rel))
        if stamp is None:
            _write(out_dir, rel, data)
            written.append(rel)
            stamp = file_stamp(path.stat())
        stamps[rel] = stamp
    return written, stamps


def _holds(path: Path, data: bytes, record: OutputRecord | None) -> Stamp | None:
    """The stamp of ``path`` if it already holds exactly ``data``, else None."""
    try:
        if path.is_symlink():
            return None
        stamp = file_stamp(path.stat())
        if record is not None and record.stamp == stamp:
            return stamp if record.digest == value_digest(data) else None
        return stamp if stamp[0] == len(data) and path.read_bytes() == data else None
    except OSError:
        return None


def _write(out_dir: Path, rel: str, data: bytes) -> None:
    """Replace ``out_dir/rel`` with ``data``, clearing a file or folder in the way."""
    path = out_dir / rel
    try:
        write_atomic(path, data)
        return
    except OSError:
        pass
    for parent in reversed(path.parents):
        if parent.is_relative_to(out_dir) and parent != out_dir and (parent.is_file() or parent.is_symlink()):
            parent.unlink()
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    write_atomic(path, data)
