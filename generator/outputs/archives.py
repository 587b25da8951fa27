"""Pages the generator makes from the posts: the blog index, tags and categories, history."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

from generator.deps import value_digest
from generator.outputs import PlanContext, Planner, generated_page
from generator.plan import Plan
from generator.site import archive_folder, group_feed_url, group_url, output_path


class Blog(Planner):
    """The posts, newest first, ``posts_per_page`` to a page: page N at ``<folder>/pageN.html``."""

    name = "blog"

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        first = ctx.config.archives.blog
        if not first:
            return
        posts = ctx.views.sequence(("posts",))
        for n, url, paginator, inputs in pages_of(posts, len(ctx.site.posts), first, ctx.config.posts_per_page):
            title = "Blog" if n == 1 else f"Blog, page {n}"
            plan.add(output_path(url), "site.yaml archives.blog",
                     partial(ctx.render, "blog.html", page=generated_page(title, url), paginator=paginator),
                     ("blog", *inputs))


def pages_of(posts: Any, total: int, first: str, per_page: int) -> Iterator[tuple[int, str, dict, tuple]]:
    """``(n, url, paginator, inputs)`` for each page of ``posts`` listed from ``first`` on:
    ``per_page`` to a page, page N at ``FOLDER/pageN.html`` beside ``first``."""
    pages = max(1, -(-total // per_page))
    urls = [first] + [f"{archive_folder(first)}/page{n}.html" for n in range(2, pages + 1)]
    urls_digest = value_digest(urls)
    for n, url in enumerate(urls, start=1):
        paginator = {
            "posts": posts[(n - 1) * per_page:n * per_page], "page": n, "total_pages": pages,
            "total_posts": total, "previous_url": urls[n - 2] if n > 1 else None,
            "next_url": urls[n] if n < pages else None, "urls": urls,
        }
        yield n, url, paginator, (n, pages, total, urls_digest)


def group_pages(ctx: PlanContext, posts: Any, total: int, first: str) -> Iterator[tuple[int, str, dict, tuple]]:
    """The pages of one tag's, category's or author's posts: as the blog's, unless site.yaml
    ``archives.paginate_groups: false`` puts them all on one."""
    per_page = ctx.config.posts_per_page if ctx.config.archives.paginate_groups else max(1, total)
    return pages_of(posts, total, first, per_page)


class Taxonomy(Planner):
    """An index of all tags (or categories), and pages listing each one's posts (paginated like the blog)."""

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
        feeds = getattr(ctx.config.feeds, plural)     # site.yaml feeds.tags, feeds.categories
        for name, members in getattr(ctx.site, plural).items():
            posts = ctx.views.sequence((plural, name))
            feed = group_feed_url(index_url, name) if feeds else None
            for n, url, paginator, inputs in group_pages(ctx, posts, len(members), group_url(index_url, name)):
                title = f"{kind.capitalize()}: {name}" + (f", page {n}" if n > 1 else "")
                plan.add(output_path(url), f"{kind} {name!r}", partial(
                    ctx.render, "group.html", page=generated_page(title, url), group=group, name=name,
                    posts=paginator["posts"], paginator=paginator, feed=feed),
                    ("group", kind, name, feed, *inputs))


class History(Planner):
    """Every post by year."""

    name = "history"

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        url = ctx.config.archives.history
        if url:
            plan.add(output_path(url), "site.yaml archives.history", partial(
                ctx.render, "history.html", page=generated_page("Archive", url)), "history")
