"""The 404 page, from ``templates/404.html``, unless a page, a static file or a bundle made one."""

from __future__ import annotations

from functools import partial

from generator.outputs import PlanContext, Phase, Planner, generated_page
from generator.plan import Plan


class NotFound(Planner):
    name = "404"
    templates = ("404.html",)
    phase = Phase.LATE      # it must see every other claim on 404.html

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        if "404.html" not in plan:
            plan.add("404.html", "templates/404.html", partial(
                ctx.render, "404.html", page=generated_page("Page not found", "/404.html")), "404")
