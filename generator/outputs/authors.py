"""Author pages: an index of the people of ``content/data/authors.yml``, and a page for each
listing their posts, paginated like a tag's (see :mod:`generator.authors`).

A late planner: every avatar must be a file the site publishes, which only
the whole plan tells (assets, the static folders, the theme's assets).
"""

from __future__ import annotations

from functools import partial

from generator.authors import check_avatars, data_file
from generator.outputs import PlanContext, Phase, Planner, generated_page
from generator.outputs.archives import group_pages
from generator.plan import Plan
from generator.site import author_url, output_path


class Authors(Planner):
    name = "authors"
    templates = ("author.html", "authors.html")
    phase = Phase.LATE      # it checks the avatars against every file planned

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        people, index_url = ctx.site.people, ctx.config.archives.authors
        if not people:
            return
        check_avatars(people, plan, data_file(ctx.config))
        authors = ctx.site_view["authors"]
        plan.add(output_path(index_url), "site.yaml archives.authors", partial(
            ctx.render, "authors.html", page=generated_page("Authors", index_url), authors=authors),
            "authors")
        for key, person in people.items():
            posts = ctx.views.sequence(("authors", key))
            pages = group_pages(ctx, posts, len(ctx.site.authors[key]), author_url(ctx.config, key),
                                ctx.config.archives.paginate_groups)
            for n, url, paginator, inputs in pages:
                title = person.name + (f", page {n}" if n > 1 else "")
                plan.add(output_path(url), f"author {key!r} of {data_file(ctx.config)}", partial(
                    ctx.render, "author.html", page=generated_page(title, url, description=person.bio),
                    author=authors[key], posts=paginator["posts"], paginator=paginator),
                    ("author", key, title, person.bio, *inputs))
