"""Author pages: an index of the people of ``content/data/authors.yml``, and a page for each
listing their posts, paginated like a tag's (see :mod:`generator.authors`): a classification
of the posts by author (Nikola's ClassifyAuthors).

A late planner: every avatar must be a file the site publishes, which only
the whole plan tells (assets, the static folders, the theme's assets).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from generator.authors import check_avatars, data_file
from generator.config import Config
from generator.outputs import PlanContext, Phase, generated_page
from generator.outputs.archives import Classification
from generator.plan import Plan
from generator.schema.outputs import Taxonomy
from generator.site import archive_folder


class Authors(Classification):
    templates = ("author.html", "authors.html")
    index_template, key_template = "authors.html", "author.html"
    phase = Phase.LATE      # it checks the avatars against every file planned

    def __init__(self) -> None:
        super().__init__("authors", by_author)

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        if ctx.site.people:
            check_avatars(ctx.site.people, plan, data_file(ctx.config))
            super().plan(ctx, plan)

    def keys(self, ctx: PlanContext, taxonomy: Taxonomy) -> Iterable[tuple[str, int]]:
        return ((key, len(ctx.site.authors[key])) for key in ctx.site.people)

    def index_values(self, ctx: PlanContext, taxonomy: Taxonomy) -> tuple[dict[str, Any], Any]:
        return {"authors": ctx.site_view["authors"]}, "authors"

    def key_values(self, ctx: PlanContext, taxonomy: Taxonomy, key: str, n: int, url: str
                   ) -> tuple[str, dict, dict[str, Any], tuple]:
        person = ctx.site.people[key]
        title = person.name + (f", page {n}" if n > 1 else "")
        return f"author {key!r} of {data_file(ctx.config)}", generated_page(title, url, description=person.bio), \
            {"author": ctx.site_view["authors"][key]}, ("author", key, title, person.bio)


def by_author(config: Config) -> list[Taxonomy]:
    """The authors' taxonomy, where site.yaml ``archives`` places their pages."""
    index = config.archives.authors
    if not index:
        return []
    return [Taxonomy("authors", "{authors}", f"{archive_folder(index)}/{{key}}.html", index, kind="author",
                     title="Authors", paginate=config.archives.paginate_groups)]
