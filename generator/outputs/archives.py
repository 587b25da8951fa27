"""Pages the generator makes from the posts: the blog index, the taxonomies (tags, categories,
site.yaml's own), history."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from operator import attrgetter
from typing import Any

from generator.config import Config
from generator.deps import value_digest
from generator.outputs import PlanContext, Planner, generated_page
from generator.outputs.pages import own_index, render_document
from generator.plan import Plan
from generator.schema.outputs import ArchivesSection, Taxonomy
from generator.site import archive_folder, output_path, slugify


class Blog(Planner):
    """The posts, newest first, ``posts_per_page`` to a page: page N at ``<folder>/pageN.html``
    (or ``archives.paginate_path``). A page of the site's own at ``archives.blog`` is the index
    itself (jekyll-paginate's template page): rendered once per page of posts, its Liquid and
    layout seeing each page's ``paginator``; else each page is ``blog.html``."""

    name = "blog"
    templates = ("blog.html",)
    section = ArchivesSection      # archives and taxonomies: every planner of this module reads them
    site_values = {"archives": attrgetter("archives")}

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        first = ctx.config.archives.blog
        if not first:
            return
        posts, total = ctx.views.sequence(("posts",)), len(ctx.site.posts)
        own = own_index(ctx.site, first)
        if own is not None and not total:   # no page of posts: jekyll-paginate gives the page no paginator
            plan.add(own.output_path, str(own.source), partial(render_document, ctx, own), ("document", own.layout))
            return
        for n, url, paginator, inputs in pages_of(posts, total, first, ctx.config.posts_per_page,
                                                  ctx.config.archives.paginate_path):
            if own is not None:
                plan.add(output_path(url), str(own.source),
                         partial(render_document, ctx, own, paginator, url), ("document", own.layout, *inputs))
                continue
            title = "Blog" if n == 1 else f"Blog, page {n}"
            plan.add(output_path(url), "site.yaml archives.blog",
                     partial(ctx.render, "blog.html", page=generated_page(title, url), paginator=paginator),
                     ("blog", *inputs))


def pages_of(posts: Any, total: int, first: str, per_page: int,
             path: str = "") -> Iterator[tuple[int, str, dict, tuple]]:
    """``(n, url, paginator, inputs)`` for each page of ``posts`` listed from ``first`` on:
    ``per_page`` to a page, page N at ``FOLDER/pageN.html`` beside ``first``, or in the folder
    ``path`` names (``:num`` its number), linked as written there, as jekyll-paginate links it.
    The paginator has sitegen's keys (``previous_url``, ``next_url``, ``urls``: where the pages
    are) and jekyll-paginate's (``per_page``, ``previous_page``, ``previous_page_path``...)."""
    pages = max(1, -(-total // per_page))
    links = [first] + [path.replace(":num", str(n)) if path else f"{archive_folder(first)}/page{n}.html"
                       for n in range(2, pages + 1)]
    urls = [first] + [link if not path or link.endswith("/") else f"{link}/" for link in links[1:]]
    urls_digest = value_digest((urls, links))
    for n, url in enumerate(urls, start=1):
        previous, following = (n - 1 if n > 1 else None), (n + 1 if n < pages else None)
        paginator = {
            "posts": posts[(n - 1) * per_page:n * per_page], "page": n, "per_page": per_page,
            "total_pages": pages, "total_posts": total,
            "previous_page": previous, "previous_page_path": previous and links[previous - 1],
            "next_page": following, "next_page_path": following and links[following - 1],
            "previous_url": previous and urls[previous - 1], "next_url": following and urls[following - 1],
            "urls": urls,
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
    posts, paginated like the blog. ``select(config)`` names the taxonomies it makes; a
    subclass says what else its pages show (Nikola's ClassifyAuthors): :class:`History`,
    :class:`generator.outputs.authors.Authors`."""

    templates = ("groups.html", "group.html")
    index_template, key_template = templates

    def __init__(self, name: str, select: Callable[[Config], Iterable[Taxonomy]]):
        self.name, self.select = name, select

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        for taxonomy in self.select(ctx.config):
            self._plan_one(ctx, plan, taxonomy)

    def _plan_one(self, ctx: PlanContext, plan: Plan, taxonomy: Taxonomy) -> None:
        origin = f"site.yaml taxonomies {taxonomy.name!r}" if self.name == "taxonomies" \
            else f"site.yaml archives.{self.name}"
        if taxonomy.index:
            for url, title, values, inputs in self.index_pages(ctx, taxonomy):
                plan.add(output_path(url), origin, partial(
                    ctx.render, self.index_template, page=generated_page(title, url), **values), inputs)
        for key, total in self.keys(ctx, taxonomy):
            posts = ctx.views.sequence((taxonomy.name, key))
            for n, url, paginator, inputs in group_pages(ctx, posts, total, key_url(taxonomy, key),
                                                         taxonomy.paginate):
                origin, page, values, identity = self.key_values(ctx, taxonomy, key, n, url)
                plan.add(output_path(url), origin, partial(
                    ctx.render, self.key_template, page=page, posts=paginator["posts"], paginator=paginator,
                    **values), (*identity, *inputs))

    def keys(self, ctx: PlanContext, taxonomy: Taxonomy) -> Iterable[tuple[str, int]]:
        """Each key with a page of its own, and how many posts it has."""
        return ((key, len(members)) for key, members in ctx.site.collection(taxonomy.name).items())

    def index_pages(self, ctx: PlanContext, taxonomy: Taxonomy) -> Iterable[tuple[str, str, dict[str, Any], Any]]:
        """Each page of the index: its URL, its title, what its template gets besides ``page``,
        its inputs. One page, of the keys (their number grows with the site's subjects, not its posts)."""
        values, inputs = self.index_values(ctx, taxonomy)
        return [(taxonomy.index, taxonomy.title or taxonomy.name.capitalize(), values, inputs)]

    def index_values(self, ctx: PlanContext, taxonomy: Taxonomy) -> tuple[dict[str, Any], Any]:
        """What the index page's template gets besides ``page``; the page's inputs."""
        return {"group": self._group(ctx, taxonomy), "groups": ctx.views.groups(taxonomy.name)}, \
            ("groups", taxonomy.name)

    def key_values(self, ctx: PlanContext, taxonomy: Taxonomy, key: str, n: int, url: str
                   ) -> tuple[str, dict, dict[str, Any], tuple]:
        """Page ``n`` of one key's posts: its origin, its ``page``, what else its template gets
        besides the posts and the paginator, and what the page is made of but those."""
        kind = taxonomy.singular
        title = f"{kind.capitalize()}: {key}" + (f", page {n}" if n > 1 else "")
        feed = feed_url(taxonomy, key) if taxonomy.feed else None
        return f"{kind} {key!r}", generated_page(title, url), \
            {"group": self._group(ctx, taxonomy), "name": key, "feed": feed}, ("group", kind, key, feed)

    @staticmethod
    def _group(ctx: PlanContext, taxonomy: Taxonomy) -> dict[str, Any]:
        return {"kind": taxonomy.singular, "plural": taxonomy.name, "heading": taxonomy.heading,
                "index_url": taxonomy.index, "url_of": lambda key: ctx.renderer.relative_url(key_url(taxonomy, key))}


class History(Classification):
    """Every post by year, ``archives.history_per_page`` to a page (page N at ``FOLDER/pageN.html``,
    as the blog's), each page's posts under their years' headings: a classification by year whose
    years have no pages of their own (a per-year archive is a site.yaml ``taxonomies`` entry)."""

    templates = ("history.html",)
    index_template = "history.html"

    def __init__(self) -> None:
        super().__init__("history", years)

    def keys(self, ctx: PlanContext, taxonomy: Taxonomy) -> Iterable[tuple[str, int]]:
        return ()

    def index_pages(self, ctx: PlanContext, taxonomy: Taxonomy) -> Iterator[tuple[str, str, dict[str, Any], Any]]:
        per_page = ctx.config.archives.history_per_page
        posts = ctx.views.sequence(("posts",))
        for n, url, paginator, inputs in pages_of(posts, len(ctx.site.posts), taxonomy.index, per_page):
            spans = year_spans(ctx.site.years, (n - 1) * per_page, n * per_page)
            shown = [(year, ctx.views.sequence(("years", year))[start:stop]) for year, start, stop in spans]
            title = taxonomy.title + (f", page {n}" if n > 1 else "")
            yield url, title, {"paginator": paginator, "years": shown}, ("history", spans, *inputs)


def year_spans(years: list[tuple[int, list]], start: int, stop: int) -> list[tuple[int, int, int]]:
    """``(year, first, end)``: the posts ``start`` to ``stop`` of all (newest first) as runs of
    their years' posts (``Site.years``), a year's posts being consecutive among all."""
    spans, offset = [], 0
    for year, posts in years:
        if offset >= stop:
            break
        first, end = max(start - offset, 0), min(stop - offset, len(posts))
        if first < end:
            spans.append((year, first, end))
        offset += len(posts)
    return spans


def years(config: Config) -> list[Taxonomy]:
    """The history's taxonomy, where site.yaml ``archives`` places its first page."""
    index = config.archives.history
    if not index:
        return []
    return [Taxonomy("years", "{date:%Y}", f"{archive_folder(index)}/{{key}}.html", index, kind="year",
                     title="Archive")]
