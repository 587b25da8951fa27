"""Every post and page, through its layout (``layout: source`` lists a file of the site)."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from markupsafe import Markup

from generator.confine import site_path
from generator.deps import record, warn
from generator.errors import SiteError
from generator.files import is_file
from generator.outputs import PlanContext, Planner
from generator.plan import Job, Plan
from generator.site import Document, render_deferred
from generator.sources import read_text


class Documents(Planner):
    """Each document through its layout; one whose front matter says ``redirect_to`` (as
    jekyll-redirect-from reads it) is a page sending the reader on to that URL instead."""

    name = "documents"
    templates = ("post.html", "page.html", "redirect.html")   # the layouts of posts and pages by default

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        # By the front matter's keys: a document's front matter is read where it is rendered.
        moved = [doc for doc in ctx.site.documents if "redirect_to" in doc.meta_keys]
        plan.add_all([Job(doc.output_path, str(doc.source), partial(render_document, ctx, doc),
                          ("document", doc.layout)) for doc in ctx.site.documents if "redirect_to" not in doc.meta_keys])
        for doc in moved:
            target = redirect_target(doc)
            # page: the document itself, as jekyll-redirect-from's redirect layout sees it (page.redirect_to)
            plan.add(doc.output_path, doc.source, partial(
                ctx.render, "redirect.html", page=ctx.views.document(doc), target=target),
                ("redirect", doc.url, target), listed=False)


def redirect_target(doc: Document) -> str:
    """The URL a document's ``redirect_to`` names (a list: its first, as jekyll-redirect-from takes it)."""
    target = doc.meta["redirect_to"]
    if isinstance(target, list) and target:
        target = target[0]
    if not isinstance(target, str) or not target.strip():
        raise SiteError(f"key 'redirect_to': expected a URL or a path of the site, got {target!r}", doc.source)
    return target.strip()


def render_document(ctx: PlanContext, doc: Document) -> str:
    template = f"{doc.layout}.html"
    if not ctx.renderer.has_template(template):
        raise SiteError(f"unknown layout '{doc.layout}' (no templates/{template})", doc.source)
    page = ctx.views.document(doc)
    if doc.deferred is None:
        content = page.content      # its MyST references to other pages linked (Views.linked)
    else:  # its Liquid lists the site: run now, reading the site through recording views
        content, files, warnings = render_deferred(doc, ctx.config, ctx.site_view)
        for name in files:
            record(("file", name))
        for warning in ctx.site.unresolved(doc.source, warnings):
            warn(warning)
        content = ctx.views.linked(doc, content)
    return ctx.render(template, doc.source, page=page, content=Markup(content),
                      **layout_context(ctx, page, doc.source))


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
