"""``sitemap.xml`` and ``sitemap.txt``: every HTML page worth indexing, whoever planned it."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from generator.outputs import PlanContext, Phase, Planner
from generator.plan import Plan
from generator.site import Site


class Sitemap(Planner):
    name = "sitemap"
    phase = Phase.LATE      # it lists every page the other planners planned

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        from generator import feeds     # with the plan: a build with nothing to do plans nothing

        listed, absolute = sitemap_urls(ctx.site, plan), ctx.renderer.absolute_url
        inputs = ("sitemap", listed)
        plan.add("sitemap.xml", "sitemap", partial(feeds.sitemap_xml, listed, absolute), inputs,
                 generated="outputs.sitemap")
        plan.add("sitemap.txt", "sitemap", partial(feeds.sitemap_txt, listed, absolute), inputs,
                 generated="outputs.sitemap")


def sitemap_urls(site: Site, plan: Plan) -> list[tuple[str, datetime | None]]:
    """Every HTML page worth indexing: not the 404 page, redirect stubs or other unlisted pages."""
    dated = {doc.output_path: (doc.url, doc.date) for doc in site.documents}
    return [dated.get(path) or ("/" + path.removesuffix("index.html"), None)
            for path in sorted(plan) if path.endswith(".html") and path != "404.html" and path not in plan.unlisted]
