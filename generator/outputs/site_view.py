"""What templates see as ``site``: the site's collections and its settings, read through
the recording views (``generator.deps``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from generator.config import Config
from generator.deps import Views
from generator.site import Site, SiteSettings

if TYPE_CHECKING:
    from generator.outputs import Planner


def site_view(site: Site, views: Views, planners: Iterable[Planner] = ()) -> Mapping[str, Any]:
    """What templates see as ``site``: the (recording) collections, the planners' values
    (``Planner.site_values``) and the config's public values, each read from the recording
    settings when asked for (so a render notes those it used, not every one)."""
    from generator.buildtime import BuildTime
    from generator.render import DataFiles

    collections = {
        "data": DataFiles(site.data),
        "posts": views.sequence(("posts",)),
        "pages": views.sequence(("pages",)),
        "tags": views.groups("tags"),
        "categories": views.groups("categories"),
        "authors": views.authors(),
        "years": views.sequence(("years",)),
        "time": BuildTime(site.time),
        **{name: views.groups(name) for name in site.classified},     # site.yaml taxonomies
        # site.yaml collections: each over a name of sitegen's but posts, as in Jekyll's site
        **{name: views.sequence(("collections", name)) for name in site.collections if name != "posts"},
        "collections": views.collections(),
    }
    values = {name: value for planner in planners for name, value in planner.site_values.items()}
    return SiteView(collections, views.settings, values)


class SiteView(Mapping):
    """``site`` in templates: the collections, the planners' values (``site.feeds``,
    ``site.search``...), sitegen's own sections (``nav``, ``branding``) and the public values
    of site.yaml, read from the (recording) settings when asked for. Each name is looked up
    where it lives: a template reads ``site`` on every page."""

    SECTIONS = ("nav", "branding")

    def __init__(self, collections: dict[str, Any], config: Config,
                 values: Mapping[str, Callable[[Config], Any]] = {}):
        self._collections, self._config, self._settings = collections, config, SiteSettings(config)
        self._values = values

    def __getitem__(self, name: str) -> Any:
        if name in self._collections:
            return self._collections[name]
        if name in self._values:
            return self._values[name](self._config)
        if name in self.SECTIONS:
            return getattr(self._config, name)
        return self._settings[name]     # a public value, else KeyError

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*self._settings, *self.SECTIONS, *self._values, *self._collections]))

    def __len__(self) -> int:
        return sum(1 for _ in self)
