"""``sitemap.xml`` and ``sitemap.txt``: every HTML page worth indexing, whoever planned it.

The sitemaps protocol allows 50,000 URLs a file. A larger site's pages go in parts of
that many, in URL order: ``sitemap-N.xml``, which ``sitemap.xml`` then lists as a sitemap
index (the one name crawlers and ``robots.txt`` know), and ``sitemap.txt`` followed by
``sitemap-N.txt`` from the second part (a text sitemap has no index form)."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from generator.outputs import PlanContext, Phase, Planner
from generator.plan import Plan
from generator.site import Site


URLS_PER_FILE = 50_000      # the protocol's limit (https://www.sitemaps.org/protocol.html)


class Sitemap(Planner):
    name = "sitemap"
    phase = Phase.LATE      # it lists every page the other planners planned

    def __init__(self, urls_per_file: int = URLS_PER_FILE):
        self.urls_per_file = urls_per_file

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        from generator import feeds     # with the plan: a build with nothing to do plans nothing

        listed, absolute = sitemap_urls(ctx.site, plan), ctx.renderer.absolute_url
        size = self.urls_per_file
        parts = [listed[start:start + size] for start in range(0, len(listed), size)] or [[]]
        add = partial(plan.add, origin="sitemap", generated="outputs.sitemap")
        if len(parts) == 1:
            add("sitemap.xml", make=partial(feeds.sitemap_xml, listed, absolute), inputs=("sitemap", listed))
            add("sitemap.txt", make=partial(feeds.sitemap_txt, listed, absolute), inputs=("sitemap", listed))
            return
        names = [f"sitemap-{n}.xml" for n in range(1, len(parts) + 1)]
        add("sitemap.xml", make=partial(feeds.sitemap_index, [f"/{name}" for name in names], absolute),
            inputs=("sitemap-index", names))
        for n, (name, part) in enumerate(zip(names, parts), 1):
            add(name, make=partial(feeds.sitemap_xml, part, absolute), inputs=("sitemap", part))
            add("sitemap.txt" if n == 1 else f"sitemap-{n}.txt", make=partial(feeds.sitemap_txt, part, absolute),
                inputs=("sitemap", part))


def sitemap_urls(site: Site, plan: Plan) -> list[tuple[str, datetime | None]]:
    """Every HTML page worth indexing: not the 404 page, redirect stubs or other unlisted pages."""
    dated = {doc.output_path: (doc.url, doc.date) for doc in site.documents}
    return [dated.get(path) or ("/" + path.removesuffix("index.html"), None)
            for path in sorted(plan) if path.endswith(".html") and path != "404.html" and path not in plan.unlisted]
