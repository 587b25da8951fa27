"""Orchestrate one build: sources -> documents -> site -> outputs -> files.

Everything is rendered into memory first; only a complete, error-free build
touches the output directory, and then only files whose bytes changed are
written and files no longer produced are removed. A failed build therefore
leaves the previous site exactly as it was.
"""

from __future__ import annotations

import os
import shutil
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from markupsafe import Markup

from generator import __version__, feeds, highlight, notebooks
from generator.cache import PickleCache, digest
from generator.config import Config, load_config
from generator.errors import SiteError
from generator.render import DataFiles, Renderer
from generator.site import Document, Site, assemble, output_path, parse_document, slugify, timezone_of
from generator.sources import Source, discover, load_data, load_source, read_text
from generator.versions import VersionedDocs

PARSE_CACHE_VERSION = "2"
PARALLEL_THRESHOLD = 64
PYGMENTS_CSS = "assets/css/pygments.css"


@dataclass(frozen=True)
class BuildOptions:
    drafts: bool = False
    future: bool = False
    refresh: bool = False
    now: datetime | None = None


@dataclass
class BuildResult:
    site: Site
    outputs: dict[str, bytes]
    written: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    tutorials: notebooks.TutorialStats = field(default_factory=notebooks.TutorialStats)
    docs_versions: dict[str, str] = field(default_factory=dict)  # name -> "built", "reused", "archived"

    def summary(self) -> str:
        return (f"{len(self.outputs)} files: {len(self.written)} written, "
                f"{len(self.outputs) - len(self.written)} unchanged, {len(self.deleted)} removed")


class Outputs(dict):
    """Output path -> bytes, refusing a second claim on a path (naming both claimants)."""

    def __init__(self) -> None:
        super().__init__()
        self.origins: dict[str, str] = {}
        self.unlisted: set[str] = set()     # pages kept out of the sitemap

    def add(self, path: str, data: bytes | str, origin: str | Path, listed: bool = True) -> None:
        if path in self:
            raise SiteError(f"/{path} is claimed by both {self.origins[path]} and {origin}", origin)
        self[path] = data.encode("utf-8") if isinstance(data, str) else data
        self.origins[path] = str(origin)
        if not listed:
            self.unlisted.add(path)


def build(root: str | Path = ".", options: BuildOptions = BuildOptions()) -> BuildResult:
    """Build the site in ``root`` and write it to its output directory."""
    config = load_config(root)
    result = render_site(config, options)
    result.written, result.deleted = write_outputs(result.outputs, safe_output_dir(config))
    return result


def render_site(config: Config, options: BuildOptions = BuildOptions()) -> BuildResult:
    """Everything a build produces, in memory; raises SiteError on any bad input."""
    root = config.root
    sources = [load_source(root, kind, path) for kind, path in discover(root)]
    data = {s.path.stem: load_data(s) for s in sources if s.kind == "data"}
    documents = parse_documents([s for s in sources if s.kind != "data"], config, options.refresh)
    now = options.now or datetime.now(timezone_of(config))
    site = assemble(documents, data, config, now=now, drafts=options.drafts, future=options.future)
    outputs = Outputs()
    pages = SiteRenderer(site, Renderer(config))
    docs = VersionedDocs(config, pages.renderer, pages.site_view,
                         lambda docs_sources: parse_documents(docs_sources, config, options.refresh))
    site_key = digest(*(s.digest for s in sources), *(doc.url for doc in site.documents))
    rendered = docs.build(site_key, options.refresh)
    for path, data in rendered.files.items():
        outputs.add(path, data, rendered.origins[path], listed=path not in rendered.unlisted)
    pages.render_into(outputs)
    copy_assets(root, outputs)
    return BuildResult(site, outputs, tutorials=rendered.tutorials, docs_versions=rendered.report)


def parse_documents(sources: list[Source], config: Config, refresh: bool = False) -> list[Document]:
    """Parse every source, from the cache where the same input was parsed before."""
    cache = PickleCache(config.state_dir / "cache" / "documents")
    fingerprint = digest(PARSE_CACHE_VERSION, __version__, config.permalink, config.timezone)
    keys = [digest(fingerprint, s.kind, str(s.path), s.digest) for s in sources]
    documents: list[Document | None] = [None if refresh else cache.get(k) for k in keys]
    todo = [i for i, doc in enumerate(documents) if doc is None]
    if len(todo) >= PARALLEL_THRESHOLD and (os.cpu_count() or 1) > 1:
        with ProcessPoolExecutor() as pool:
            parsed = list(pool.map(parse_document, [sources[i] for i in todo],
                                   [config] * len(todo), chunksize=32))
    else:
        parsed = [parse_document(sources[i], config) for i in todo]
    for i, doc in zip(todo, parsed):
        cache.put(keys[i], doc)
        documents[i] = doc
    return documents  # type: ignore[return-value]


class SiteRenderer:
    """Renders every page of a Site through its templates."""

    def __init__(self, site: Site, renderer: Renderer):
        self.site = site
        self.renderer = renderer
        self.config = site.config
        self.site_view = site_view(site)

    def page(self, template: str, source: Path | None = None, **context: Any) -> str:
        return self.renderer.render(template, {"site": self.site_view, **context}, source)

    def render_into(self, outputs: Outputs) -> None:
        for doc in self.site.documents:
            template = f"{doc.layout}.html"
            if not self.renderer.has_template(template):
                raise SiteError(f"unknown layout '{doc.layout}' (no templates/{template})", doc.source)
            html = self.page(template, doc.source, page=doc, content=Markup(doc.content),
                             **self.layout_context(doc))
            outputs.add(doc.output_path, html, doc.source)
        self.render_blog(outputs)
        self.render_groups(outputs, "tag", self.site.tags)
        self.render_groups(outputs, "category", self.site.categories)
        outputs.add("history.html", self.page("history.html",
                                              page=_generated("Archive", "/history.html")), "history.html")
        if "404.html" not in outputs:
            outputs.add("404.html", self.page("404.html",
                                              page=_generated("Page not found", "/404.html")), "templates/404.html")
        self.render_redirects(outputs)
        self.render_feeds(outputs)
        outputs.add(PYGMENTS_CSS, highlight.stylesheet(self.config.pygments_style), "pygments_style")

    def layout_context(self, doc: Document) -> dict[str, Any]:
        """Extra values some layouts need: a source listing needs its file's lines."""
        if doc.layout != "source":
            return {}
        listed = doc.meta.get("source")
        if not isinstance(listed, str):
            raise SiteError("layout 'source' needs a key 'source' naming the file to list", doc.source)
        root = self.config.root.resolve()
        path = (root / listed).resolve()
        if not path.is_relative_to(root) or not path.is_file():
            raise SiteError(f"key 'source': {listed!r} is not a file inside the site", doc.source)
        text = read_text(path, Path(listed))
        return {"filename": listed, "lines": highlight.source_lines(text, path.name)}

    def render_blog(self, outputs: Outputs) -> None:
        per_page = max(1, self.config.posts_per_page)
        posts = self.site.posts
        chunks = [posts[i:i + per_page] for i in range(0, len(posts), per_page)] or [[]]
        urls = ["/blog.html"] + [f"/blog/page{n}.html" for n in range(2, len(chunks) + 1)]
        for n, (chunk, url) in enumerate(zip(chunks, urls), start=1):
            paginator = {
                "posts": chunk, "page": n, "total_pages": len(chunks), "total_posts": len(posts),
                "previous_url": urls[n - 2] if n > 1 else None,
                "next_url": urls[n] if n < len(chunks) else None,
                "urls": urls,
            }
            title = "Blog" if n == 1 else f"Blog, page {n}"
            html = self.page("blog.html", page=_generated(title, url), paginator=paginator)
            outputs.add(output_path(url), html, "templates/blog.html")

    def render_groups(self, outputs: Outputs, kind: str, groups: dict[str, list[Document]]) -> None:
        """An index of all tags (or categories), and a page listing each one's posts."""
        plural = "tags" if kind == "tag" else "categories"
        index_url = f"/{plural}.html"
        group = {"kind": kind, "index_url": index_url,
                 "url_of": lambda name: self.renderer.relative_url(f"/{plural}/{slugify(name)}.html")}
        index = self.page("groups.html", page=_generated(plural.capitalize(), index_url),
                          group=group, groups=groups)
        outputs.add(output_path(index_url), index, "templates/groups.html")
        for name, posts in groups.items():
            url = f"/{plural}/{slugify(name)}.html"
            html = self.page("group.html", page=_generated(f"{kind.capitalize()}: {name}", url),
                             group=group, name=name, posts=posts)
            outputs.add(output_path(url), html, f"{kind} {name!r}")

    def render_redirects(self, outputs: Outputs) -> None:
        """Old URLs (``redirect_from``, site.yaml ``redirects``) get a page pointing at the new one.

        The page sends the browser on with a site-relative URL, so that it stays on
        whichever host serves the site (the preview server, a staging copy);
        only its canonical link names the production host.
        """
        moves = [(old, doc.url, doc.source) for doc in self.site.documents for old in doc.redirect_from]
        moves += [(old, new, Path("site.yaml")) for old, new in sorted(self.config.redirects.items())]
        for old, new, origin in moves:
            if not old.startswith("/"):
                raise SiteError(f"redirect {old!r} must be a path starting with '/'", origin)
            html = self.page("redirect.html", page=_generated("Redirecting", old), target=new)
            outputs.add(output_path(old), html, origin)

    def render_feeds(self, outputs: Outputs) -> None:
        absolute = self.renderer.absolute_url
        latest = self.site.posts[: self.config.feeds.entries]
        if self.config.feeds.atom:
            outputs.add("atom.xml", feeds.atom_feed(self.site, latest, absolute), "feeds")
        if self.config.feeds.rss:
            outputs.add("rss.xml", feeds.rss_feed(self.site, latest, absolute), "feeds")
        listed = sitemap_urls(self.site, outputs)
        outputs.add("sitemap.xml", feeds.sitemap_xml(listed, absolute), "sitemap")
        outputs.add("sitemap.txt", feeds.sitemap_txt(listed, absolute), "sitemap")


def sitemap_urls(site: Site, outputs: Outputs) -> list[tuple[str, datetime | None]]:
    """Every HTML page worth indexing: not the 404 page, not redirect stubs."""
    dated = {doc.output_path: (doc.url, doc.date) for doc in site.documents}
    redirects = {output_path(old) for doc in site.documents for old in doc.redirect_from}
    redirects |= {output_path(old) for old in site.config.redirects}
    urls = []
    for path in sorted(outputs):
        if not path.endswith(".html") or path == "404.html" or path in redirects or path in outputs.unlisted:
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


def site_view(site: Site) -> dict[str, Any]:
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
        "posts": site.posts,
        "pages": site.pages,
        "tags": site.tags,
        "categories": site.categories,
        "years": site.years,
    }


def copy_assets(root: Path, outputs: Outputs) -> None:
    assets = root / "assets"
    if not assets.is_dir():
        return
    for path in sorted(assets.rglob("*")):
        if path.is_file() and not path.name.startswith("."):
            rel = path.relative_to(root).as_posix()
            outputs.add(rel, path.read_bytes(), rel)


def safe_output_dir(config: Config) -> Path:
    """The output directory, refused if writing there could destroy the site's sources."""
    out = config.output_dir.resolve()
    root = config.root.resolve()
    sources = [root / name for name in ("content", "templates", "assets", "notebooks", "generator", ".git")]
    if root.is_relative_to(out) or any(out.is_relative_to(s) for s in sources):
        raise SiteError(f"key 'output': {config.output!r} would overwrite the site's sources",
                        root / "site.yaml")
    return out


def write_outputs(outputs: dict[str, bytes], out_dir: Path) -> tuple[list[str], list[str]]:
    """Make ``out_dir`` hold exactly ``outputs``, touching only files that differ."""
    written = []
    for rel, data in sorted(outputs.items()):
        path = out_dir / rel
        try:
            if path.stat().st_size == len(data) and path.read_bytes() == data:
                continue
        except FileNotFoundError:
            pass
        except (NotADirectoryError, IsADirectoryError):
            _remove(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_dir():
            shutil.rmtree(path)
        path.write_bytes(data)
        written.append(rel)
    deleted = []
    if out_dir.is_dir():
        for path in sorted(out_dir.rglob("*"), reverse=True):
            rel = path.relative_to(out_dir).as_posix()
            if path.is_dir():
                if not any(path.iterdir()):
                    path.rmdir()
            elif rel not in outputs:
                path.unlink()
                deleted.append(rel)
    return written, sorted(deleted)


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)
