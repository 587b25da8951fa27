"""The feeds of the latest posts (site.yaml ``feeds``): Atom, RSS and JSON Feed of the blog,
and an Atom feed of each tag and category beside its page."""

from __future__ import annotations

from functools import partial

from generator.outputs import PlanContext, Planner
from generator.plan import Plan
from generator.site import group_feed_url, group_url, output_path

JSON_FEED = "/feed.json"


class Feeds(Planner):
    name = "feeds"

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        from generator import feeds     # with the plan: a build with nothing to do plans nothing
        from generator.feeds import Channel

        config, absolute = ctx.config, ctx.renderer.absolute_url
        person, entries = ctx.site_view["authors"].of, config.feeds.entries
        latest = ctx.views.sequence(("posts",))[:entries]
        for url in config.feeds.atom_urls if config.feeds.atom else ():
            blog = Channel(config.title, url, "/")
            plan.add(output_path(url), "feeds", partial(feeds.atom_feed, config, latest, absolute, blog, person),
                     ("atom", url), generated="feeds.atom")
        if config.feeds.rss:
            plan.add("rss.xml", "feeds", partial(feeds.rss_feed, config, latest, absolute), "rss",
                     generated="feeds.rss")
        if config.feeds.json:
            blog = Channel(config.title, JSON_FEED, config.archives.blog or "/")
            plan.add(output_path(JSON_FEED), "feeds", partial(
                feeds.json_feed, config, latest, absolute, blog, person), "json feed", generated="feeds.json")
        for kind, plural in (("tag", "tags"), ("category", "categories")):
            index_url = getattr(config.archives, plural)
            if not (index_url and getattr(config.feeds, plural)):
                continue    # a feed beside each page: no pages, no feeds
            heading = "Posts tagged" if kind == "tag" else "Posts in"     # as group.html heads its page
            for name in getattr(ctx.site, plural):
                url = group_feed_url(index_url, name)
                channel = Channel(f"{config.title}: {heading} “{name}”", url, group_url(index_url, name))
                posts = ctx.views.sequence((plural, name))[:entries]
                plan.add(output_path(url), f"{kind} {name!r}", partial(
                    feeds.atom_feed, config, posts, absolute, channel, person), ("group feed", kind, name))
