"""The Atom and RSS feeds of the latest posts (site.yaml ``feeds``)."""

from __future__ import annotations

from functools import partial

from generator import feeds
from generator.outputs import PlanContext, Planner
from generator.plan import Plan


class Feeds(Planner):
    name = "feeds"

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        config, absolute = ctx.config, ctx.renderer.absolute_url
        latest = ctx.views.sequence(("posts",))[: config.feeds.entries]
        if config.feeds.atom:
            plan.add("atom.xml", "feeds", partial(feeds.atom_feed, config, latest, absolute), "atom")
        if config.feeds.rss:
            plan.add("rss.xml", "feeds", partial(feeds.rss_feed, config, latest, absolute), "rss")
