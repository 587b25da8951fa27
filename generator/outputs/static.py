"""Files copied as they are (``assets/``, site.yaml ``static``), their Sass compiled, and the
Pygments stylesheet."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from generator import sass
from generator.config import CodeStyles, Config
from generator.deps import record
from generator.layout import DEFAULT_THEME
from generator.outputs import PlanContext, Planner
from generator.outputs.vendor import vendored
from generator.plan import Plan

PYGMENTS_CSS = "assets/css/pygments.css"


class PygmentsCss(Planner):
    """The stylesheet of site.yaml ``pygments_style``, for code highlighted at build time."""

    name = "pygments-css"

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        plan.add(PYGMENTS_CSS, "pygments_style", partial(pygments_stylesheet, ctx.config.code_styles), "pygments")


def pygments_stylesheet(styles: CodeStyles) -> str:
    """The stylesheet, Pygments loaded only when it is made (a plan is made in every build)."""
    from generator.highlight import stylesheet

    return stylesheet(styles)


class Assets(Planner):
    """``assets/`` and the ``static`` folders and files, at their own URLs, then the theme's
    ``assets/`` that the site's own do not replace (its vendored libraries but where a page uses
    them: see :mod:`generator.outputs.vendor`).

    Hidden files in them (``.DS_Store``, ``.gitkeep``) stay behind. A Sass stylesheet
    (``css/site.scss``) is published compiled (``css/site.css``), its partials (``_*.scss``)
    not at all. A page that claims the same URL is refused by the plan, naming both.
    """

    name = "assets"

    def watches(self, config: Config) -> tuple[str, ...]:
        return tuple(config.sass.load_paths)     # what Sass stylesheets import

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        from generator.render import theme_dirs

        root = ctx.config.root
        for name in ctx.config.static_paths:
            top = root / name
            found = sorted(top.rglob("*")) if top.is_dir() else [top] if top.is_file() else []
            for path in found:
                rel = path.relative_to(root).as_posix()
                inside = path.relative_to(top).parts    # a listed file may be hidden (.htaccess)
                if not path.is_file() or any(part.startswith(".") for part in inside):
                    continue
                if rel.endswith(sass.SUFFIXES):
                    if sass.is_sass(rel):
                        plan.add(sass.css_path(rel), rel, partial(sass.compile_sass, root, rel, ctx.config),
                                 "sass")
                else:
                    plan.add(rel, rel, partial(copy_file, path, rel), "asset")
        for folder in theme_dirs(ctx.config)[1:]:     # the theme's assets, unless the site has its own
            top = folder / "assets"
            for path in sorted(top.rglob("*")) if top.is_dir() else ():
                inside = path.relative_to(top).parts
                out = "assets/" + "/".join(inside)
                if path.is_file() and out not in plan and not any(part.startswith(".") for part in inside):
                    if path.is_relative_to(DEFAULT_THEME):   # part of sitegen: its fingerprint covers it
                        if vendored(out):       # published where a page uses it (outputs/vendor.py)
                            continue
                        plan.add(out, f"<default theme>/{out}", partial(path.read_bytes), ("theme asset", out))
                    else:
                        rel = path.relative_to(root).as_posix()
                        plan.add(out, rel, partial(copy_file, path, rel), ("theme asset", rel))


def copy_file(path: Path, rel: str) -> bytes:
    record(("file", rel))
    return path.read_bytes()
