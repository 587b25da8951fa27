"""Planners as a plug-in would write them, for the tests of the output seam.

Each reads the site only as :mod:`generator.outputs` allows: the structure at
plan time, documents through the recording views while its job runs.
"""

from __future__ import annotations

from functools import partial

from generator.outputs import PlanContext, Phase, Planner, Registry
from generator.outputs.registry import default_registry
from generator.plan import Plan


class AboutTitle(Planner):
    """``about-title.txt``: the About page's title and how many posts there are."""

    name = "about-title"

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        about = next(doc for doc in ctx.site.documents if doc.source.name == "about.md")
        plan.add("about-title.txt", "plugin about-title", partial(self.make, ctx, about), "about-title")

    @staticmethod
    def make(ctx: PlanContext, about) -> str:
        page = ctx.views.document(about)
        return f"{page.title}\n{len(ctx.views.sequence(('posts',)))} posts\n"


class PluginPage(Planner):
    """An HTML page of a plug-in, registered after the sitemap yet listed in it."""

    name = "plugin-page"

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        plan.add("plugin/index.html", "plugin plugin-page", partial(
            ctx.render, "redirect.html", page={"title": "Plug-in", "url": "/plugin/", "kind": "generated",
                                               "toc": (), "meta": {}, "description": "", "date": None},
            target="/"), "plugin-page")


class Manifest(Planner):
    """``manifest.txt``: every path the other planners planned (a LATE planner sees them all)."""

    name = "manifest"
    phase = Phase.LATE

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        paths = tuple(sorted(plan))
        plan.add("manifest.txt", "plugin manifest", partial("\n".join, paths), ("manifest", paths))


def with_plugins() -> Registry:
    """The built-in planners, then the plug-ins' (registered last, whatever their phase)."""
    return Registry([*default_registry(), AboutTitle(), Manifest(), PluginPage()])
