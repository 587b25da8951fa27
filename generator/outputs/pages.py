"""Every post and page, through its layout (``layout: source`` lists a file of the site)."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any, Literal

from markupsafe import Markup

from generator.confine import site_path
from generator.deps import DocumentView, Views, record, warn
from generator.errors import SiteError
from generator.files import is_file
from generator.outputs import PlanContext, Planner
from generator.plan import Job, Plan
from generator.site import Document, Site, render_deferred
from generator.sources import read_text


class Documents(Planner):
    """Each document through its layout; one whose front matter says ``redirect_to`` (as
    jekyll-redirect-from reads it) is a page sending the reader on to that URL instead. The
    page at site.yaml ``archives.blog``, if the site has one, is the blog's planner's to make,
    once per page of posts (:class:`generator.outputs.archives.Blog`)."""

    name = "documents"
    templates = ("post.html", "page.html", "redirect.html")   # the layouts of posts and pages by default

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        # By the front matter's keys: a document's front matter is read where it is rendered.
        targets = {doc.source: redirect_target(doc) for doc in ctx.site.documents if "redirect_to" in doc.meta_keys}
        moved = [doc for doc in ctx.site.documents if targets.get(doc.source) is not None]
        blog = own_index(ctx.site, ctx.config.archives.blog)
        plan.add_all([Job(doc.output_path, str(doc.source), partial(render_document, ctx, doc),
                          ("document", doc.layout)) for doc in ctx.site.documents
                      if targets.get(doc.source) is None and doc is not blog])
        for doc in moved:
            target = targets[doc.source]
            # page: the document itself, as jekyll-redirect-from's redirect layout sees it (page.redirect_to)
            plan.add(doc.output_path, doc.source, partial(
                ctx.render, "redirect.html", page=ctx.views.document(doc), target=target),
                ("redirect", doc.url, target), listed=False)


def own_index(site: Site, url: str | Literal[False]) -> Document | None:
    """The site's own page at ``url`` (site.yaml ``archives.blog``), if it has one."""
    return next((doc for doc in site.pages if doc.url == url), None) if url else None


def redirect_target(doc: Document) -> str | None:
    """The URL a document's ``redirect_to`` names (a list: its first, as jekyll-redirect-from takes
    it); None for none: ``redirect_to: false`` or empty is no redirect there (training-kit's home page)."""
    target = doc.meta["redirect_to"]
    if isinstance(target, list):
        target = next((item for item in target if item is not None), None)
    if target is None or target is False:
        return None
    if not isinstance(target, str) or not target.strip():
        raise SiteError(f"key 'redirect_to': expected a URL or a path of the site, got {target!r}", doc.source)
    return target.strip()


def render_document(ctx: PlanContext, doc: Document, paginator: dict | None = None, url: str | None = None) -> str:
    """``doc`` through its layout; as one page of posts (``paginator``, the page's ``url``) where
    it is the blog's index (:class:`generator.outputs.archives.Blog`)."""
    template = f"{doc.layout}.html"
    if not ctx.renderer.has_template(template):
        raise SiteError(f"unknown layout '{doc.layout}' (no templates/{template})", doc.source)
    page = ctx.views.document(doc) if url in (None, doc.url) else PageAt(doc, ctx.views, url)
    if doc.deferred is None:
        content = page.content      # its MyST references to other pages linked (Views.linked)
    else:  # its Liquid lists the site: run now, reading the site through recording views
        record(("doc", str(doc.source), "deferred"))     # and its body: an edit of it makes the page again
        content, files, warnings = render_deferred(doc, ctx.config, ctx.site_view, paginator, url)
        for name in files:
            record(("file", name))
        for warning in ctx.site.unresolved(doc.source, warnings):
            warn(warning)
        content = ctx.views.linked(doc, content)
    paged = {} if paginator is None else {"paginator": paginator}
    return ctx.render(template, doc.source, page=page, content=Markup(content),
                      **paged, **layout_context(ctx, page, doc.source))


class PageAt(DocumentView):
    """A document as a later page of posts shows it: at that page's URL (jekyll-paginate's
    page 2 is the index page placed at ``/page2/``)."""

    __slots__ = ("_url",)

    def __init__(self, doc: Document, views: Views, url: str):
        super().__init__(doc, views)
        self._url = url

    def __getattr__(self, name: str) -> Any:
        return self._url if name == "url" else super().__getattr__(name)


def layout_context(ctx: PlanContext, page: Any, source: Path) -> dict[str, Any]:
    """Extra values some layouts need: a source listing needs its file's lines."""
    if page.layout != "source":
        return {}
    listed = page.meta.get("source")
    if not isinstance(listed, str):
        raise SiteError("layout 'source' needs a key 'source' naming the file to list", source)
    found = site_path(ctx.config.root, listed)
    if found is not None:
        record(("file", found))
    if found is None or not is_file(ctx.config.root / found):
        raise SiteError(f"key 'source': {listed!r} is not a file inside the site (outside its .git/, "
                        ".sitegen/ and dot-files)", source)
    from generator import highlight

    path = ctx.config.root / found
    text = read_text(path, Path(listed))
    return {"filename": listed, "lines": highlight.source_lines(text, path.name)}
