"""The plan of a build: every file the site has, and how to make each one.

A :class:`Job` makes one output file. The plan hands it a small ``inputs``
value (a page number, a redirect's target); everything else it reads from the
site and the templates is recorded while it renders (:mod:`generator.deps`).
So the builder can plan the whole site cheaply and make only the jobs an edit
touched. A :class:`Bundle` is a step that makes several files at once (the
tutorials, the docs section): which files, it only knows once it has run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from markupsafe import Markup

from generator import codec, feeds, highlight, notebooks
from generator.config import Config
from generator.deps import Views, record, value_digest
from generator.errors import SiteError
from generator.output import is_output_path
from generator.render import DataFiles, Renderer
from generator.site import Document, Site, archive_folder, group_url, output_path, render_deferred, site_settings
from generator.sources import read_text
from generator.versions import VersionedDocs

if TYPE_CHECKING:
    from generator.build import BuildOptions
    from generator.docs import Parse

PYGMENTS_CSS = "assets/css/pygments.css"


class Job(NamedTuple):
    """One output file: how to make it, and what the plan hands its render."""

    path: str
    origin: str
    make: Callable[[], bytes | str]
    inputs: Any = None


class Plan(dict):
    """Output path -> :class:`Job`, refusing a second claim on a path (naming both)."""

    def __init__(self) -> None:
        super().__init__()
        self.unlisted: set[str] = set()     # pages kept out of the sitemap

    def add(self, path: str, origin: str | Path, make: Callable[[], bytes | str],
            inputs: Any = None, listed: bool = True) -> None:
        _check_path(path, origin)
        if path in self:
            raise SiteError(f"/{path} is claimed by both {self[path].origin} and {origin}", origin)
        self[path] = Job(path, str(origin), make, inputs)
        if not listed:
            self.unlisted.add(path)

    def add_all(self, jobs: list[Job]) -> None:
        """Add many jobs at once (thousands of documents); the same checks as :meth:`add`."""
        claimed = {job.path: job for job in jobs}
        for job in jobs:
            _check_path(job.path, job.origin)
        if len(claimed) < len(jobs) or not claimed.keys().isdisjoint(self):
            for job in jobs:
                self.add(*job)   # raises, naming both claimants
        self.update(claimed)


class Outputs(dict):
    """Files a bundle made: path -> bytes, with each one's origin, some kept out of the sitemap."""

    def __init__(self) -> None:
        super().__init__()
        self.origins: dict[str, str] = {}
        self.unlisted: set[str] = set()

    def add(self, path: str, data: bytes | str, origin: str | Path, listed: bool = True) -> None:
        _check_path(path, origin)
        if path in self:
            raise SiteError(f"/{path} is claimed by both {self.origins[path]} and {origin}", origin)
        self[path] = data.encode("utf-8") if isinstance(data, str) else data
        self.origins[path] = str(origin)
        if not listed:
            self.unlisted.add(path)


def _check_path(path: str, origin: str | Path) -> None:
    """Refuse, naming its origin, an output path that would leave the output folder."""
    if not is_output_path(path):
        raise SiteError(f"{path!r} is not a path inside the output folder", origin)


@dataclass(frozen=True)
class Bundle:
    """A step making several files at once; it runs again only when ``inputs`` or its reads change."""

    name: str
    make: Callable[[], tuple[Outputs, Any]]      # the files, and a report of what it did
    inputs: Any


@codec.record
@dataclass(frozen=True)
class DocsReport:
    """What building the docs section did: per version, and for the tutorials."""

    versions: dict[str, str] = field(default_factory=dict)  # name -> "built", "reused", "archived"
    tutorials: notebooks.TutorialStats = field(default_factory=notebooks.TutorialStats)


def docs_bundle(config: Config, pages: SiteRenderer, parse: Parse, inputs: Any,
                site_key: Callable[[], str], refresh: bool, rerun: tuple[str, ...] = ()) -> Bundle:
    """The docs section (tutorials included), once per version; ``inputs`` stands for every
    version's tree.

    ``site_key()`` stands for the rest of the site, which docs pages may show:
    while it stays the same, versions whose tree did not change are reused.
    """

    def make() -> tuple[Outputs, DocsReport]:
        docs = VersionedDocs(config, pages.renderer, pages.site_view, parse).build(site_key(), refresh, rerun)
        outputs = Outputs()
        for path, data in docs.files.items():
            outputs.add(path, data, docs.origins[path], listed=path not in docs.unlisted)
        return outputs, DocsReport(docs.report, docs.tutorials)

    return Bundle("docs", make, inputs)


def reusable(report: DocsReport) -> bool:
    """Whether a bundle's files can stay when its inputs did not change: not while tutorials
    are shown unexecuted, since a run of them may have been copied into the cache."""
    return not report.tutorials.unexecuted


def reused_report(report: DocsReport) -> DocsReport:
    """What the docs section reports when it did not run: its last work, taken as it was.

    As when it runs: reused versions look no tutorial up, while the unversioned
    section's tutorials count as taken from the cache.
    """
    versions = {name: "archived" if how == "archived" else "reused" for name, how in report.versions.items()}
    stats = report.tutorials
    tutorials = notebooks.TutorialStats(cached=0 if versions else stats.ran + stats.cached)
    return DocsReport(versions, tutorials)


class SiteRenderer:
    """Plans every page of a Site through its templates, and the feeds, sitemap and assets."""

    def __init__(self, site: Site, renderer: Renderer):
        self.site = site
        self.renderer = renderer
        self.config = site.config
        self.views = Views(site)
        self.site_view = site_view(site, self.views)

    def page(self, template: str, source: Path | None = None, **context: Any) -> str:
        return self.renderer.render(template, {"site": self.site_view, **context}, source)

    def plan_into(self, plan: Plan) -> None:
        """Add the site's own files to ``plan`` (after any bundle's: the sitemap lists them all)."""
        plan.add_all([Job(doc.output_path, str(doc.source), partial(self.render_document, doc),
                          ("document", doc.layout)) for doc in self.site.documents])
        archives = self.config.archives
        if archives.blog:
            self.plan_blog(plan, archives.blog)
        if archives.tags:
            self.plan_groups(plan, "tag", "tags", archives.tags)
        if archives.categories:
            self.plan_groups(plan, "category", "categories", archives.categories)
        if archives.history:
            plan.add(output_path(archives.history), "site.yaml archives.history", partial(
                self.page, "history.html", page=_generated("Archive", archives.history)), "history")
        if "404.html" not in plan:
            plan.add("404.html", "templates/404.html", partial(
                self.page, "404.html", page=_generated("Page not found", "/404.html")), "404")
        self.plan_redirects(plan)
        self.plan_feeds(plan)
        plan.add(PYGMENTS_CSS, "pygments_style",
                 partial(highlight.stylesheet, self.config.pygments_style), "pygments")
        plan_static(self.config, plan)
        listed, absolute = sitemap_urls(self.site, plan), self.renderer.absolute_url
        inputs = ("sitemap", listed)
        plan.add("sitemap.xml", "sitemap", partial(feeds.sitemap_xml, listed, absolute), inputs)
        plan.add("sitemap.txt", "sitemap", partial(feeds.sitemap_txt, listed, absolute), inputs)

    def render_document(self, doc: Document) -> str:
        template = f"{doc.layout}.html"
        if not self.renderer.has_template(template):
            raise SiteError(f"unknown layout '{doc.layout}' (no templates/{template})", doc.source)
        page = self.views.document(doc)
        if doc.deferred is None:
            content = page.content
        else:  # its Liquid lists the site: run now, reading the site through recording views
            content, files = render_deferred(doc, self.config, self.site_view)
            for name in files:
                record(("file", name))
        return self.page(template, doc.source, page=page, content=Markup(content),
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

    def plan_blog(self, plan: Plan, first: str) -> None:
        per_page = max(1, self.config.posts_per_page)
        total = len(self.site.posts)
        pages = max(1, -(-total // per_page))
        urls = [first] + [f"{archive_folder(first)}/page{n}.html" for n in range(2, pages + 1)]
        urls_digest = value_digest(urls)
        posts = self.views.sequence(("posts",))
        for n, url in enumerate(urls, start=1):
            paginator = {
                "posts": posts[(n - 1) * per_page:n * per_page], "page": n, "total_pages": pages,
                "total_posts": total, "previous_url": urls[n - 2] if n > 1 else None,
                "next_url": urls[n] if n < pages else None, "urls": urls,
            }
            title = "Blog" if n == 1 else f"Blog, page {n}"
            plan.add(output_path(url), "site.yaml archives.blog",
                     partial(self.page, "blog.html", page=_generated(title, url), paginator=paginator),
                     ("blog", n, pages, total, urls_digest))

    def plan_groups(self, plan: Plan, kind: str, plural: str, index_url: str) -> None:
        """An index of all tags (or categories), and a page listing each one's posts."""
        group = {"kind": kind, "index_url": index_url,
                 "url_of": lambda name: self.renderer.relative_url(group_url(index_url, name))}
        plan.add(output_path(index_url), f"site.yaml archives.{plural}", partial(
            self.page, "groups.html", page=_generated(plural.capitalize(), index_url),
            group=group, groups=self.views.groups(plural)), ("groups", plural))
        for name in getattr(self.site, plural):
            url = group_url(index_url, name)
            plan.add(output_path(url), f"{kind} {name!r}", partial(
                self.page, "group.html", page=_generated(f"{kind.capitalize()}: {name}", url),
                group=group, name=name, posts=self.views.sequence((plural, name))), ("group", kind, name))

    def plan_redirects(self, plan: Plan) -> None:
        """Old URLs (``redirect_from``, site.yaml ``redirects``) get a page pointing at the new one.

        The page sends the browser on with a site-relative URL, so that it stays on
        whichever host serves the site (the preview server, a staging copy);
        only its canonical link names the production host.
        """
        moves = [(old, doc.url, doc.source, "redirect_from")
                 for doc in self.site.documents for old in doc.redirect_from]
        moves += [(old, new, Path("site.yaml"), "redirects")
                  for old, new in sorted(self.config.redirects.items())]
        for old, new, origin, key in moves:
            if not old.startswith("/"):
                raise SiteError(f"key '{key}': redirect {old!r} must be a path starting with '/'", origin)
            if not is_output_path(output_path(old)):
                raise SiteError(f"key '{key}': redirect {old!r} is not a plain path inside the site "
                                "(no '.', '..' or empty segments)", origin)
            plan.add(output_path(old), origin, partial(
                self.page, "redirect.html", page=_generated("Redirecting", old), target=new),
                ("redirect", old, new), listed=False)

    def plan_feeds(self, plan: Plan) -> None:
        absolute = self.renderer.absolute_url
        latest = self.views.sequence(("posts",))[: self.config.feeds.entries]
        if self.config.feeds.atom:
            plan.add("atom.xml", "feeds", partial(feeds.atom_feed, self.site, latest, absolute), "atom")
        if self.config.feeds.rss:
            plan.add("rss.xml", "feeds", partial(feeds.rss_feed, self.site, latest, absolute), "rss")


def sitemap_urls(site: Site, plan: Plan) -> list[tuple[str, datetime | None]]:
    """Every HTML page worth indexing: not the 404 page, redirect stubs or other unlisted pages."""
    dated = {doc.output_path: (doc.url, doc.date) for doc in site.documents}
    return [dated.get(path) or ("/" + path.removesuffix("index.html"), None)
            for path in sorted(plan) if path.endswith(".html") and path != "404.html" and path not in plan.unlisted]


def _generated(title: str, url: str) -> dict[str, Any]:
    """The ``page`` of a page the generator makes itself (blog index, tag page...)."""
    return {"title": title, "url": url, "kind": "generated", "toc": (), "meta": {},
            "description": "", "date": None}


def site_view(site: Site, views: Views) -> dict[str, Any]:
    """What templates see as ``site``: the config's public values and (recording) collections."""
    config = site.config
    return {
        **site_settings(config),
        "nav": config.nav,
        "archives": config.archives,
        "feeds": config.feeds,
        "data": DataFiles(site.data),
        "posts": views.sequence(("posts",)),
        "pages": views.sequence(("pages",)),
        "tags": views.groups("tags"),
        "categories": views.groups("categories"),
        "years": views.sequence(("years",)),
    }


def plan_static(config: Config, plan: Plan) -> None:
    """``assets/`` and the ``static`` folders and files are copied as they are, at their own URLs.

    Hidden files in them (``.DS_Store``, ``.gitkeep``) stay behind. A page that claims
    the same URL is refused by the plan, naming both.
    """
    root = config.root
    for name in config.static_paths:
        top = root / name
        found = sorted(top.rglob("*")) if top.is_dir() else [top] if top.is_file() else []
        for path in found:
            rel = path.relative_to(root).as_posix()
            inside = path.relative_to(top).parts    # a listed file may be hidden (.htaccess)
            if path.is_file() and not any(part.startswith(".") for part in inside):
                plan.add(rel, rel, partial(copy_file, path, rel), "asset")


def copy_file(path: Path, rel: str) -> bytes:
    record(("file", rel))
    return path.read_bytes()
