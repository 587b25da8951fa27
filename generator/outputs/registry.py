"""The site's planners in their order: the built-in ones, then the plugins'.

Apart from the interface (:mod:`generator.outputs`) because it names every
built-in planner, and they all import the interface.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from generator.config import Config, keys_of
from generator.errors import SiteError
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




def config_sections(planners: Iterable[Planner] | None = None) -> tuple[type, ...]:
    """The site.yaml sections the planners own (``Planner.section``), each once, in their order.
    A key is one planner's: two sections naming it would read it two ways."""
    found: dict[type, str] = {}
    owners: dict[str, str] = {}
    for planner in planners or default_registry():
        if planner.section is None or planner.section in found:
            continue
        found[planner.section] = planner.name
        for key in keys_of(planner.section):
            if key in owners or key in Config.__dataclass_fields__:
                owner = f"the {owners[key]!r} planner" if key in owners else "sitegen"
                raise SiteError(f"output planner {planner.name!r}: site.yaml key {key!r} is already {owner}'s")
            owners[key] = planner.name
    return tuple(found)
