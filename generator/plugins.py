"""Plugins: other distributions extend sitegen through entry points.

A distribution declares, in its ``pyproject.toml``::

    [project.entry-points."sitegen.plugins"]
    search = "sitegen_search:register"

and ``register(plugins)`` is called once per process with the
:class:`Extensions` below, to add readers, Jinja filters, site.yaml sections,
front matter keys and planners. They are installed code, trusted as sitegen
itself is; their code and versions are part of every build's fingerprint, so
installing, upgrading or editing one rebuilds the site.
"""

from __future__ import annotations

import functools
import hashlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, is_dataclass
from pathlib import Path
from typing import Any

from generator import installed
from generator.errors import SiteError

GROUP = "sitegen.plugins"


@dataclass
class Extensions:
    """What the installed plugins add; built-ins are not listed here."""

    readers: list[Any] = field(default_factory=list)
    filters: dict[str, Callable[..., Any]] = field(default_factory=dict)
    sections: dict[str, type] = field(default_factory=dict)     # site.yaml key -> its dataclass
    front_matter: set[str] = field(default_factory=set)
    planners: list[Any] = field(default_factory=list)
    fingerprint: list[str] = field(default_factory=list)        # name, version and code of each plugin

    def add_reader(self, reader: Any) -> None:
        """A reader (see :mod:`generator.readers`) for the suffixes it names."""
        self.readers.append(reader)

    def add_filter(self, name: str, function: Callable[..., Any]) -> None:
        """A Jinja filter, usable in every template as ``{{ value | name }}``."""
        self.filters[name] = function

    def add_config_section(self, name: str, schema: type) -> None:
        """A top-level site.yaml key, checked against dataclass ``schema`` like sitegen's own
        (``generator.configure.load_config`` refuses one of sitegen's own names)."""
        if not is_dataclass(schema):
            raise TypeError(f"config section {name!r}: the schema must be a dataclass")
        if name in self.sections:
            raise TypeError(f"config section {name!r} is already taken")
        self.sections[name] = schema

    def add_front_matter_keys(self, *keys: str) -> None:
        """Front matter keys this plugin reads, so they are not reported as unknown."""
        self.front_matter.update(keys)

    def add_planner(self, planner: Any) -> None:
        """A planner: files it adds to every build (see :mod:`generator.outputs`)."""
        self.planners.append(planner)


@functools.cache
def extensions() -> Extensions:
    """Every installed plugin, registered once per process, in the order of their names."""
    found = Extensions()
    if not installed.may_have_entry_points(GROUP):      # most environments: not a file to parse
        return found
    from importlib.metadata import entry_points

    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        try:
            register = point.load()
            register(found)
        except Exception as exc:  # noqa: BLE001 - a broken plugin must not look like a site error's traceback
            raise SiteError(f"plugin {point.name!r} ({point.value}) failed to load: "
                            f"{type(exc).__name__}: {exc}") from None
        dist = point.dist
        found.fingerprint += [point.name, point.value, f"{dist.name} {dist.version}" if dist else "",
                              _code_digest(register)]
    return found


def _code_digest(register: Callable[..., Any]) -> str:
    """The plugin module's bytes: an edited plugin (installed editable, say) rebuilds the site."""
    module = sys.modules.get(getattr(register, "__module__", ""))
    path = getattr(module, "__file__", None)
    return hashlib.sha256(Path(path).read_bytes()).hexdigest() if path else ""
