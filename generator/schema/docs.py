"""The site.yaml settings of the docs wing (generator/docs/, generator/api/): its versions
and its API reference."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from generator.confine import NEVER_READ
from generator.errors import SiteError


@dataclass(frozen=True)
class Version:
    """One version of the docs section, built from exactly one of: a git ``ref``,
    the ``worktree`` (the version in development, as the author's files are now),
    or an ``archive`` (a folder or .tar.gz of HTML built elsewhere)."""

    name: str
    title: str = ""
    ref: str | None = None
    worktree: bool = False
    archive: str | None = None
    aliases: list[str] = field(default_factory=list)
    alias_type: Literal["redirect", "copy"] = "redirect"
    # development: unreleased; latest: a release newer than the default (stable) one, not yet it;
    # maintained: an older release still fixed; unmaintained: end of life.
    status: Literal["development", "latest", "maintained", "unmaintained"] = "maintained"
    default: bool = False
    sitemap: bool | None = None  # None: listed in sitemap.xml only if this is the default

    @property
    def label(self) -> str:
        return self.title or self.name

    def validate(self, path: Path, prefix: str) -> None:
        if not VERSION_NAME.match(self.name):
            raise SiteError(f"version {self.name!r}: a name must be a folder name "
                            "(letters, digits, '.', '_', '+', '-')", path)
        if [self.ref is not None, self.worktree, self.archive is not None].count(True) != 1:
            raise SiteError(f"version '{self.name}': give exactly one of 'ref' (a git branch, tag or "
                            "commit), 'worktree: true' or 'archive' (a folder or .tar.gz of HTML)", path)
        for alias in self.aliases:
            if not VERSION_NAME.match(alias):
                raise SiteError(f"version '{self.name}': alias {alias!r} must be a folder name", path)


VERSION_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*\Z")


@dataclass(frozen=True)
class ApiPackage:
    """A Python package documented from its docstrings in each docs version (generator/api/):
    read by griffe from that version's tree, never imported."""

    package: str                      # its dotted name: ``jinja2``
    path: str = "."                   # the folder of the site (of each version's tree) holding it
    docstrings: Literal["numpy", "google", "sphinx", "auto"] = "auto"
    members: Literal["public", "all"] = "public"
    exclude: list[str] = field(default_factory=list)    # globs of dotted names left out: "jinja2.ext.*"
    class_pages: int = 0              # a module of more members than this gets a page per class; 0: never

    @property
    def folder(self) -> str:
        """The folder of the package's top-level package below the site: what a version's tree
        must hold (griffe reads a subpackage from its whole package)."""
        base = self.path.strip("/")
        return "/".join(part for part in (base, self.package.split(".")[0]) if part not in ("", "."))

    def validate(self, path: Path, prefix: str) -> None:
        if not PACKAGE_NAME.match(self.package):
            raise SiteError(f"key '{prefix}package': expected a dotted Python name such as 'tvm', "
                            f"got {self.package!r}", path)
        parts = self.path.strip("/").split("/")
        if self.path.startswith("/") or any(part in ("", "..") for part in parts) or parts[0] in NEVER_READ:
            raise SiteError(f"key '{prefix}path': expected a folder inside the site, like 'python/', "
                            f"got {self.path!r}", path)
        if self.class_pages < 0:
            raise SiteError(f"key '{prefix}class_pages': expected 0 (never) or more, got {self.class_pages}", path)


PACKAGE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")


@dataclass(frozen=True)
class ApiInventory:
    """A Sphinx inventory kept in the site (``file``), whose objects live under ``url``."""

    file: str
    url: str


def check_versions(versions: list[Version], path: Path) -> None:
    """Versions that can be published unambiguously: names and aliases unique, one default."""
    names = [version.name for version in versions]
    owners: dict[str, str] = {}
    for i, version in enumerate(versions):
        if version.name in names[:i]:
            raise SiteError(f"version '{version.name}' is listed twice", path)
    for version in versions:
        for alias in version.aliases:
            if alias in names:
                raise SiteError(f"version '{version.name}': alias '{alias}' is the name of a version", path)
            if alias in owners:
                raise SiteError(f"version '{version.name}': alias '{alias}' is also an alias of "
                                f"version '{owners[alias]}'", path)
            owners[alias] = version.name
    defaults = [v.name for v in versions if v.default]
    if versions and len(defaults) != 1:
        found = ", ".join(f"'{name}'" for name in defaults) or "none"
        raise SiteError(f"versions: mark exactly one version 'default: true' (found {found})", path)
