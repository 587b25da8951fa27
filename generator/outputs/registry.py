"""The site's planners in their order: the built-in ones, then the plugins'.

Apart from the interface (:mod:`generator.outputs`) because it names every
built-in planner, and they all import the interface.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from generator.config import Config
from generator.outputs import Planner, Registry
from generator.plugins import extensions


def default_registry() -> Registry:
    """The site's outputs: the built-in planners, then the installed plugins'. The planners are
    imported here, by the build that runs them, not by every import of the engine."""
    from generator.docs.planner import DocsSection
    from generator.outputs import (archives, authors, feeds, notfound, pages, redirects, robots, search, sitemap,
                                   social, static, vendor)

    return Registry([
        pages.Documents(), archives.Blog(), archives.Classification("tags", partial(archives.built_in, plural="tags")),
        archives.Classification("categories", partial(archives.built_in, plural="categories")), archives.History(),
        archives.Classification("taxonomies", lambda config: config.taxonomies), redirects.Redirects(),
        feeds.Feeds(), static.PygmentsCss(), static.Assets(), social.SocialCards(),
        DocsSection(),
        authors.Authors(), notfound.NotFound(), sitemap.Sitemap(), robots.Robots(),
        search.SearchIndex(), search.SearchParts(), vendor.Vendored(),
        *extensions().planners,
    ])


def required_templates(planners: Iterable[Planner] | None = None) -> tuple[str, ...]:
    """The templates the planners render by name, each once: every theme chain must have them."""
    names = (name for planner in planners or default_registry() for name in getattr(planner, "templates", ()))
    return tuple(dict.fromkeys(names))


def transient_paths(config: Config, planners: Iterable[Planner] | None = None) -> tuple[str, ...]:
    """The output folders whose files no one links to by name (see ``Planner.transient``)."""
    return tuple(path for planner in planners or default_registry() for path in planner.transient(config))


