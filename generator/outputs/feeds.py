"""The feeds of the latest posts (site.yaml ``feeds``): Atom, RSS and JSON Feed of the blog,
and an Atom feed of each tag, category (and key of a taxonomy with ``feed: true``) beside its page."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import partial
from operator import attrgetter

from generator.outputs import PlanContext, Planner
from generator.outputs.archives import feed_url, key_url, taxonomies
from generator.plan import Plan
from generator.schema import outputs as schema
from generator.site import output_path

JSON_FEED = "/feed.json"


@dataclass(frozen=True)
class FeedsSection:
    """site.yaml's ``feeds``: which feeds there are, and how many posts each holds."""

    feeds: schema.Feeds = field(default_factory=schema.Feeds)

    def switched_off(self, off: set[str]) -> FeedsSection:
        """No feed at all where ``outputs`` switches the feeds off, so that no page links one."""
        if Feeds.name not in off:
            return self
        return FeedsSection(dataclasses.replace(self.feeds, atom=False, rss=False, json=False, tags=False,
                                                categories=False))


class Feeds(Planner):
    name = "feeds"
    section = FeedsSection
    site_values = {"feeds": attrgetter("feeds")}

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        from generator import feeds     # with the plan: a build with nothing to do plans nothing
        from generator.feeds import Channel

        config, absolute = ctx.config, ctx.renderer.absolute_url
        person, entries = ctx.site_view["authors"].of, config.feeds.entries
        latest = ctx.views.sequence(("posts",))[:entries]
        for url in config.feeds.atom_urls if config.feeds.atom else ():
            blog = Channel(config.title, url, "/")
            posts = ctx.views.sequence(("posts",))[:config.feeds.entries_at[url]] if url in config.feeds.entries_at \
                else latest
            plan.add(output_path(url), "feeds", partial(feeds.atom_feed, config, posts, absolute, blog, person),
                     ("atom", url), generated="feeds.atom")
        if config.feeds.rss:
            plan.add("rss.xml", "feeds", partial(feeds.rss_feed, config, latest, absolute), "rss",
                     generated="feeds.rss")
        if config.feeds.json:
            blog = Channel(config.title, JSON_FEED, config.archives.blog or "/")
            plan.add(output_path(JSON_FEED), "feeds", partial(
                feeds.json_feed, config, latest, absolute, blog, person), "json feed", generated="feeds.json")
        for taxonomy in taxonomies(config):
            if not taxonomy.feed:
                continue
            for name in ctx.site.collection(taxonomy.name):
                url = feed_url(taxonomy, name)     # titled as group.html heads its page
                channel = Channel(f"{config.title}: {taxonomy.heading} “{name}”", url, key_url(taxonomy, name))
                posts = ctx.views.sequence((taxonomy.name, name))[:entries]
                plan.add(output_path(url), f"{taxonomy.singular} {name!r}", partial(
                    feeds.atom_feed, config, posts, absolute, channel, person), ("group feed", taxonomy.singular, name))
