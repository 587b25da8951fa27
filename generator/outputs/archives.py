"""Pages the generator makes from the posts: the blog index, the taxonomies (tags, categories,
site.yaml's own), history."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any

from generator.config import Config, Taxonomy
from generator.deps import value_digest
from generator.outputs import PlanContext, Planner, generated_page
from generator.plan import Plan
from generator.site import archive_folder, output_path, slugify


class Blog(Planner):
    """The posts, newest first, ``posts_per_page`` to a page: page N at ``<folder>/pageN.html``."""

    name = "blog"
    templates = ("blog.html",)

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


def group_pages(ctx: PlanContext, posts: Any, total: int, first: str,
                paginate: bool) -> Iterator[tuple[int, str, dict, tuple]]:
    """The pages of one key's or author's posts: as the blog's, unless ``paginate`` is false
    (site.yaml ``archives.paginate_groups``, a taxonomy's ``paginate``): all on one."""
    per_page = ctx.config.posts_per_page if paginate else max(1, total)
    return pages_of(posts, total, first, per_page)


def taxonomies(config: Config) -> list[Taxonomy]:
    """Every classification whose pages the site has: tags and categories where site.yaml
    ``archives`` places them, then site.yaml's ``taxonomies``."""
    return [*built_in(config, "tags"), *built_in(config, "categories"), *config.taxonomies]


def built_in(config: Config, plural: str) -> list[Taxonomy]:
    """The tags' (or categories') taxonomy as site.yaml ``archives`` and ``feeds`` set it; none
    where ``archives`` switches their pages off."""
    index = getattr(config.archives, plural)
    if not index:
        return []
    kind, heading = ("tag", "Posts tagged") if plural == "tags" else ("category", "Posts in")
    return [Taxonomy(plural, "{%s}" % plural, f"{archive_folder(index)}/{{key}}.html", index, kind=kind,
                     heading=heading, feed=getattr(config.feeds, plural), paginate=config.archives.paginate_groups)]


def key_url(taxonomy: Taxonomy, key: str) -> str:
    """The first page of one key's posts: ``/archive/{key}.html``, 2024 -> ``/archive/2024.html``."""
    return taxonomy.url.replace("{key}", slugify(key))


def feed_url(taxonomy: Taxonomy, key: str) -> str:
    """The Atom feed of one key's posts, in the folder of its further pages: ``/tags.html``,
    "Deep Learning" -> ``/tags/deep-learning/atom.xml`` (Hugo's feed of a term is
    ``/tags/deep-learning/index.xml``)."""
    return f"{archive_folder(key_url(taxonomy, key))}/atom.xml"


class Classification(Planner):
    """A taxonomy's pages (Nikola's idea): an index of its keys, and pages listing each key's
    posts, paginated like the blog. ``select(config)`` names the taxonomies it makes."""

    templates = ("groups.html", "group.html")

    def __init__(self, name: str, select: Callable[[Config], Iterable[Taxonomy]]):
        self.name, self.select = name, select

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        for taxonomy in self.select(ctx.config):
            self._plan_one(ctx, plan, taxonomy)

    def _plan_one(self, ctx: PlanContext, plan: Plan, taxonomy: Taxonomy) -> None:
        name, kind = taxonomy.name, taxonomy.singular
        origin = f"site.yaml archives.{name}" if self.name == name else f"site.yaml taxonomies {name!r}"
        group = {"kind": kind, "plural": name, "heading": taxonomy.heading, "index_url": taxonomy.index,
                 "url_of": lambda key: ctx.renderer.relative_url(key_url(taxonomy, key))}
        if taxonomy.index:
            title = taxonomy.title or name.capitalize()
            plan.add(output_path(taxonomy.index), origin, partial(
                ctx.render, "groups.html", page=generated_page(title, taxonomy.index),
                group=group, groups=ctx.views.groups(name)), ("groups", name))
        for key, members in ctx.site.collection(name).items():
            posts = ctx.views.sequence((name, key))
            first = key_url(taxonomy, key)
            feed = feed_url(taxonomy, key) if taxonomy.feed else None
            for n, url, paginator, inputs in group_pages(ctx, posts, len(members), first, taxonomy.paginate):
                title = f"{kind.capitalize()}: {key}" + (f", page {n}" if n > 1 else "")
                plan.add(output_path(url), f"{kind} {key!r}", partial(
                    ctx.render, "group.html", page=generated_page(title, url), group=group, name=key,
                    posts=paginator["posts"], paginator=paginator, feed=feed),
                    ("group", kind, key, feed, *inputs))


class History(Planner):
    """Every post by year."""

    name = "history"
    templates = ("history.html",)

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        url = ctx.config.archives.history
        if url:
            plan.add(output_path(url), "site.yaml archives.history", partial(
                ctx.render, "history.html", page=generated_page("Archive", url)), "history")
