"""The docs section as a bundle: ``content/docs`` and the tutorials, once per docs version.

Registered like any other planner, so the engine never names docs, versions
or notebooks: which files the section has is only known once it has run
(tutorials are executed), and a run is skipped while its inputs (the docs
and notebooks trees, version archives, what the versions' git refs resolve
to) and the rest of the site it read stay the same.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from generator import codec, notebooks
from generator.config import Config
from generator.confine import site_path
from generator.docs.section import DOCS_DIR
from generator.docs.tutorials import TutorialStats
from generator.errors import SiteError
from generator.layout import NOTEBOOKS
from generator.outputs import Bundle, PlanContext
from generator.schema.docs import ApiInventory, ApiPackage, Version, check_versions
from generator.schema.notebooks import Notebooks
from generator.site import Site
from generator.files import Files
from generator.links import Linked


@codec.record
@dataclass(frozen=True)
class DocsReport:
    """What building the docs section did: per version, and for the tutorials."""

    versions: dict[str, str] = field(default_factory=dict)  # name -> "built", "reused", "archived"
    tutorials: TutorialStats = field(default_factory=TutorialStats)
    warnings: tuple[str, ...] = ()      # of the pages and tutorials built (a reused version warned when built)
    api_modules: tuple[int, int] = (0, 0)   # API reference modules rendered, and kept as last rendered
    linked: tuple[Linked, ...] = ()     # the author's pages' and tutorials' links, checked by every build

    @property
    def reusable(self) -> bool:
        """Whether the files can stay when the inputs did not change: not while tutorials
        are shown unexecuted, since a run of them may have been copied into the cache."""
        return not self.tutorials.unexecuted

    def reused(self) -> DocsReport:
        """What the docs section reports when it did not run: its last work, taken as it was.

        As when it runs: reused versions look no tutorial up, while the unversioned
        section's tutorials count as taken from the cache.
        """
        versions = {name: "archived" if how == "archived" else "reused" for name, how in self.versions.items()}
        stats = self.tutorials
        return DocsReport(versions, TutorialStats(cached=0 if versions else stats.ran + stats.cached),
                          linked=self.linked)

    def summary(self) -> str:
        lines = [self.tutorials.summary()] if self.tutorials.total else []
        if any(self.api_modules):
            lines.append(f"API reference: {self.api_modules[0]} modules rendered, {self.api_modules[1]} as last built")
        by_outcome: dict[str, list[str]] = {}
        for name, outcome in self.versions.items():
            by_outcome.setdefault(outcome, []).append(name)
        if by_outcome:
            lines.append("docs versions: " + "; ".join(f"{outcome} {', '.join(names)}"
                                                       for outcome, names in by_outcome.items()))
        return "\n".join(lines)


@dataclass(frozen=True)
class DocsSettings:
    """The keys of the docs section: its versions, its tutorials (``notebooks``) and its
    API reference (``api``, ``api_inventories``...)."""

    notebooks: Notebooks = field(default_factory=Notebooks)
    versions: list[Version] = field(default_factory=list)
    api: list[ApiPackage] = field(default_factory=list)
    # name -> the URL of an objects.inv (its objects under the same folder), or a file of the site
    api_inventories: dict[str, str | ApiInventory] = field(default_factory=dict)
    api_inventory_days: float = 7     # a fetched inventory is fetched again once this old
    api_link_code: bool = False       # a code span naming an entry in full (`tvm.build`) links it

    def validate(self, path: Path, prefix: str) -> None:
        check_versions(self.versions, path)
        for name, inventory in self.api_inventories.items():
            url = inventory.url if isinstance(inventory, ApiInventory) else inventory
            if urlsplit(url).scheme not in ("http", "https"):
                raise SiteError(f"key 'api_inventories.{name}': expected an http(s) URL, got {url!r}", path)
        if self.api_inventory_days < 0:
            raise SiteError(f"key 'api_inventory_days': expected 0 (fetch every build) or more, "
                            f"got {self.api_inventory_days}", path)

    def check(self, config: Config, path: Path) -> None:
        """The files these keys name are in the site: a typo would leave a tutorial sanitized
        (``notebooks.trusted``) or the API reference unlinked."""
        root = config.root
        if not isinstance(self.notebooks.trusted, bool):
            for n, name in enumerate(self.notebooks.trusted):
                parts = name.split("/")
                if any(part in ("", ".", "..") for part in parts) or not (root / NOTEBOOKS / name).is_file():
                    raise SiteError(f"key 'notebooks.trusted[{n}]': no tutorial notebooks/{name} (name the "
                                    "files trusted by their path in notebooks/, e.g. intro.ipynb)", path)
        for name, inventory in self.api_inventories.items():
            if isinstance(inventory, ApiInventory) and (site_path(root, inventory.file, named=True) is None
                                                        or not (root / inventory.file).is_file()):
                raise SiteError(f"key 'api_inventories.{name}.file': {inventory.file!r} is not a file inside "
                                "the site (outside its .git/ and .sitegen/)", path)


class DocsSection(Bundle):
    """The docs section (tutorials included), once per version."""

    name = "docs"
    section = DocsSettings
    templates = ("docs.html", "tutorial.html", "tutorials.html", "notebook/cells.html",
                 "partials/version_switcher.html", "partials/version_banner.html")

    def watches(self, config: Config) -> tuple[str, ...]:
        """The archives of the site (one elsewhere is refused when the versions are resolved, unread),
        the API reference's packages and the inventories it reads."""
        return (*(v.archive for v in config.versions if v.archive and site_path(config.root, v.archive, named=True)),
                *config.api_folders,
                *(i.file for i in config.api_inventories.values() if isinstance(i, ApiInventory)))

    def labelled_pages(self, config: Config, file_digest: Callable[[str], str | None]) -> list:
        """The author's tutorials (see :mod:`generator.docs.labels`)."""
        from generator.docs.labels import tutorial_pages

        return tutorial_pages(config, file_digest)

    def label_warnings(self, site: Site) -> tuple[str, ...]:
        """Labels of docs pages and tutorials that a post or page has too."""
        from generator.docs.labels import shared_with_posts

        return shared_with_posts(site)

    def external(self, config: Config) -> Any:
        """What each docs version's source resolves to now (git refs can move without a file changing),
        and when each page last changed in git (a commit can change that alone), and whether the
        inventories fetched from URLs are still fresh (they expire)."""
        fetched = [url for url in config.api_inventories.values() if isinstance(url, str)] if config.api else []
        if fetched:
            from generator.api.inventory import freshness

            fetched = freshness(fetched, config.state_dir, config.api_inventory_days)
        if not config.versions and not any((config.root / folder).is_dir()
                                           for folder in (DOCS_DIR, notebooks.FOLDER)):
            return tuple(fetched)
        from generator.docs.versions import resolve_versions, worktree_updated    # with docs: git

        if not config.versions:
            return (worktree_updated(config.root), *fetched)
        return (tuple((r.name, r.trees, r.updated) for r in resolve_versions(config)), *fetched)

    def inputs(self, ctx: PlanContext) -> Any:
        return ("docs", ctx.external.get(self.name), ctx.tree_digest(DOCS_DIR),
                ctx.tree_digest(notebooks.FOLDER), *(ctx.tree_digest(path) for path in self.watches(ctx.config)))

    def make(self, ctx: PlanContext) -> tuple[Files, DocsReport]:
        """``ctx.site_key()`` stands for the rest of the site, which docs pages may show:
        while it stays the same, versions whose tree did not change are reused."""
        from generator.docs.versions import VersionedDocs
        from generator.deps import asked

        options = ctx.options
        docs = VersionedDocs(ctx.config, ctx.renderer, ctx.site_view, ctx.parse,
                             functools.partial(asked, ctx.site, ctx.renderer.relative_url)).build(
            ctx.site_key(), options.refresh, options.rerun)
        return docs, DocsReport(docs.report, docs.tutorials, tuple(docs.warnings), tuple(docs.api_modules),
                                tuple(docs.linked))
