"""A sitegen plugin as another project would write one, for the tests of the plugin seams.

It is installed for real (a distribution with a ``sitegen.plugins`` entry point:
see ``install_demo_plugin`` in tests/conftest.py) and adds a reader for
``.txt`` pages, a Jinja filter, a site.yaml section, a front matter key and a
planner.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from html import escape

from generator.outputs import PlanContext, Planner
from generator.plan import Plan


@dataclass(frozen=True)
class Demo:
    """site.yaml ``demo:``, checked like sitegen's own sections."""

    greeting: str = "Hello"
    listed: bool = True


class TextReader:
    """Plain text: each paragraph (lines between blank lines) a ``<p>``, nothing else."""

    suffixes = (".txt",)

    def cache_key(self, config):
        return ("demo-text", "1")

    def read(self, text, source, config):
        from generator.readers import Parsed

        paragraphs = [" ".join(part.split()) for part in text.split("\n\n") if part.strip()]
        return Parsed("".join(f"<p>{escape(p)}</p>\n" for p in paragraphs))


def shout(value) -> str:
    return f"{value}".upper() + "!"


def register(plugins) -> None:
    plugins.add_reader(TextReader())
    plugins.add_filter("shout", shout)
    plugins.add_config_section("demo", Demo)
    plugins.add_front_matter_keys("mood")
    plugins.add_planner(Greeting())


class Greeting(Planner):
    """``greeting.txt``: site.yaml ``demo.greeting``, then each post's title and mood.

    It reads the posts through the recording views only, so it is made again
    exactly when a title or mood (or the list of posts) changes.
    """

    name = "demo-greeting"

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        plan.add("greeting.txt", "plugin demo-greeting", partial(self.make, ctx), "demo-greeting")

    @staticmethod
    def make(ctx: PlanContext) -> str:
        lines = [f"{post.title} ({post.meta.get('mood', '-')})" for post in ctx.views.sequence(("posts",))]
        return "\n".join([ctx.config.plugins["demo"].greeting, *lines]) + "\n"

