"""Pages the generator makes from the posts: the blog index, tags and categories, history."""

from __future__ import annotations

from functools import partial

from generator.deps import value_digest
from generator.outputs import PlanContext, Planner, generated_page
from generator.plan import Plan
from generator.site import archive_folder, group_url, output_path


class Blog(Planner):
    """The posts, newest first, ``posts_per_page`` to a page: page N at ``<folder>/pageN.html``."""

    name = "blog"

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        first = ctx.config.archives.blog
        if not first:
            return
        per_page = ctx.config.posts_per_page
        total = len(ctx.site.posts)
        pages = max(1, -(-total // per_page))
        urls = [first] + [f"{archive_folder(first)}/page{n}.html" for n in range(2, pages + 1)]
        urls_digest = value_digest(urls)
        posts = ctx.views.sequence(("posts",))
        for n, url in enumerate(urls, start=1):
            paginator = {
                "posts": posts[(n - 1) * per_page:n * per_page], "page": n, "total_pages": pages,
                "total_posts": total, "previous_url": urls[n - 2] if n > 1 else None,
                "next_url": urls[n] if n < pages else None, "urls": urls,
            }
            title = "Blog" if n == 1 else f"Blog, page {n}"
            plan.add(output_path(url), "site.yaml archives.blog",
                     partial(ctx.render, "blog.html", page=generated_page(title, url), paginator=paginator),
                     ("blog", n, pages, total, urls_digest))


class Taxonomy(Planner):
    """An index of all tags (or categories), and a page listing each one's posts."""

    def __init__(self, kind: str, plural: str):
        self.kind, self.plural, self.name = kind, plural, plural

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        kind, plural = self.kind, self.plural
        index_url = getattr(ctx.config.archives, plural)
        if not index_url:
            return
        group = {"kind": kind, "index_url": index_url,
                 "url_of": lambda name: ctx.renderer.relative_url(group_url(index_url, name))}
        plan.add(output_path(index_url), f"site.yaml archives.{plural}", partial(
            ctx.render, "groups.html", page=generated_page(plural.capitalize(), index_url),
            group=group, groups=ctx.views.groups(plural)), ("groups", plural))
        for name in getattr(ctx.site, plural):
            url = group_url(index_url, name)
            plan.add(output_path(url), f"{kind} {name!r}", partial(
                ctx.render, "group.html", page=generated_page(f"{kind.capitalize()}: {name}", url),
                group=group, name=name, posts=ctx.views.sequence((plural, name))), ("group", kind, name))


class History(Planner):
    """Every post by year."""

    name = "history"

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        url = ctx.config.archives.history
        if url:
            plan.add(output_path(url), "site.yaml archives.history", partial(
                ctx.render, "history.html", page=generated_page("Archive", url)), "history")
