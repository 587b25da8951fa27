"""``robots.txt``, naming the sitemap, unless the site publishes its own (as a static file: it wins)."""

from __future__ import annotations

from functools import partial

from generator.outputs import PlanContext, Phase, Planner
from generator.plan import Plan

ROBOTS = "robots.txt"


class Robots(Planner):
    name = "robots"
    phase = Phase.LATE      # it must see a robots.txt the site publishes itself

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        sitemap = ctx.renderer.absolute_url("/sitemap.xml")
        plan.add(ROBOTS, "robots", partial(robots_txt, sitemap), ("robots", sitemap), generated="outputs.robots")


def robots_txt(sitemap: str) -> str:
    """Every crawler may read every page; the sitemap lists them (crawlers read this file only
    at the host's root: under a baseurl, the host's own robots.txt should name the sitemap)."""
    return f"User-agent: *\nDisallow:\n\nSitemap: {sitemap}\n"
