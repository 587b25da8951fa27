"""Old URLs (``redirect_from``, site.yaml ``redirects``) get a page pointing at the new one."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from generator.errors import SiteError, warning
from generator.layout import CONFIG_FILE
from generator.output import is_output_path
from generator.outputs import PlanContext, Planner, generated_page
from generator.plan import Plan
from generator.site import output_path
from generator.urls import plain_path


@dataclass(frozen=True)
class RedirectsSection:
    """site.yaml's ``redirects``: old path -> the URL it now lives at."""

    redirects: dict[str, str] = field(default_factory=dict)

    def validate(self, path: Path, prefix: str) -> None:
        for old in sorted(self.redirects):
            if not old.startswith("/"):
                raise SiteError(f"key 'redirects': redirect {old!r} must be a path starting with '/'", path)
            if not plain_path(old):
                raise SiteError(f"key 'redirects': redirect {old!r} is not a plain path inside the site "
                                "(no '.', '..' or empty segments)", path)


class Redirects(Planner):
    """The page sends the browser on with a site-relative URL, so that it stays on
    whichever host serves the site (the preview server, a staging copy); only its
    canonical link names the production host. Kept out of the sitemap."""

    name = "redirects"
    templates = ("redirect.html",)
    section = RedirectsSection

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        moves = [(old, doc.url, doc.source, "redirect_from")
                 for doc in ctx.site.documents for old in doc.redirect_from]
        moves += [(old, new, Path(CONFIG_FILE), "redirects")
                  for old, new in sorted(ctx.config.redirects.items())]
        for old, new, origin, key in moves:     # site.yaml's were checked at load; these too
            if not old.startswith("/"):
                raise SiteError(f"key '{key}': redirect {old!r} must be a path starting with '/'", origin)
            if not is_output_path(output_path(old)):
                raise SiteError(f"key '{key}': redirect {old!r} is not a plain path inside the site "
                                "(no '.', '..' or empty segments)", origin)
            taken = plan.get(output_path(old))
            if taken is not None and not (isinstance(taken.inputs, tuple) and taken.inputs[:1] == ("redirect",)):
                # a page of the site is published there: it wins, as Jekyll writes it over the redirect
                plan.overridden[taken.path] = warning(f"{old}: {taken.origin} is published here, not the redirect "
                                                      f"to {new} that {key} asks for", origin)
                continue
            if taken is not None and key == "redirect_from" and taken.inputs[2] != new:
                # two pages redirect from one URL: the later one's redirect is written over the
                # first's, as jekyll-redirect-from's are (jekyll/jekyll's docs: conduct.md's)
                plan.overridden[taken.path] = warning(f"{old}: redirects to {new}, not to {taken.inputs[2]} that "
                                                      f"{taken.origin} also asks for (the later one, as in Jekyll)",
                                                      origin)
                del plan[taken.path]
            elif taken is not None and key == "redirect_from":
                continue        # the same redirect twice
            plan.add(output_path(old), origin, partial(
                ctx.render, "redirect.html", page=generated_page("Redirecting", old), target=new),
                ("redirect", old, new), listed=False)
