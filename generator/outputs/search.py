"""Search: a Pagefind index of the site's pages, searched in the reader's browser.

No server takes part: the index is folders of static files, which the page's
script (``assets/js/search.js``) loads from the site itself once the reader
starts typing. The index is made from the HTML the build made, so it holds what
the reader sees; the templates mark what is worth finding with
``data-pagefind-body`` (posts, pages, docs pages, tutorials: not listings,
redirect stubs or the 404 page), and Pagefind indexes only those parts.

The index is made in parts, each a Pagefind bundle of its own at
``pagefind/PART/`` that the browser merges with the others (Pagefind's
``mergeIndex``), so an edit re-indexes only the part holding the changed page:

- ``blog/NN``: the posts (pages at a URL of site.yaml's ``permalink``), spread
  by a hash of their URL over as many parts as :func:`blog_parts` gives their
  number, so that parts stay even in size whatever the dates, and a new post
  touches one of them;
- ``pages``: the site's other pages;
- ``docs/VERSION`` and ``tutorials/VERSION`` (``docs`` and ``tutorials`` for
  docs without versions): a version's docs pages and tutorials. A docs page
  searches its own version's, other pages the default version's, so results
  never mix versions. A version's aliases and archived builds (foreign HTML)
  have none.

``pagefind/parts.json`` lists the parts with their section, which the script
gives each part as Pagefind's ``mergeFilter``: the reader's choice of a section
is a filter set in the browser, not a filter written into the index (Pagefind
writes those in a random order, so an index with them differs build to build).
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from generator.config import Config
from generator.files import Files
from generator.outputs import Derived, PlanContext
from generator.schema.outputs import Search

FOLDER = "pagefind"
MANIFEST = f"{FOLDER}/parts.json"
MARKER = b"data-pagefind-body"
LABELS = {"blog": "Blog", "pages": "Pages", "docs": "Docs", "tutorials": "Tutorials"}


@dataclass(frozen=True)
class SearchSection:
    """site.yaml's ``search``: what the index leaves out, or ``false`` for no search."""

    search: Search | Literal[False] = field(default_factory=Search)

    def switched_off(self, off: set[str]) -> SearchSection:
        """No search where ``outputs`` switches the index off, so that no page loads one."""
        return SearchSection(False) if SearchIndex.name in off else self


class SearchIndex(Derived):
    name = "search"
    section = SearchSection
    site_values = {"search": lambda config: search_view(config)}   # defined below

    def groups(self, config: Config, paths: Iterable[str]) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for path, part in parts_of(config, paths).items():
            found.setdefault(part, []).append(path)
        return found

    def make(self, ctx: PlanContext, group: str, files: Mapping[str, bytes]) -> Files:
        """One part's bundle, at ``pagefind/PART/``: its pages that mark a part to index
        (all of them if the theme marks none: one that never heard of Pagefind gets whole pages)."""
        from generator import pagefind      # with pages to index: its tool runs in a subprocess

        pages = list(files.items())
        marked = [(path, data) for path, data in pages if MARKER in data]
        if not marked and not theme_marks(ctx.config):
            marked = pages
        settings = {"exclude_selectors": ctx.config.search.exclude_selectors} \
            if ctx.config.search.exclude_selectors else None
        bundle = pagefind.index_pages([(page_url(path), data.decode("utf-8", "replace"))
                                       for path, data in marked], settings)
        out = Files()
        for rel, data in sorted(bundle.items()):
            out.add(f"{FOLDER}/{group}/{rel}", data, f"the search index of {group}")
        return out

    def transient(self, config: Config) -> tuple[str, ...]:
        """Pagefind names its chunks by their content, and finds them through pagefind.js."""
        return () if config.search is False else (FOLDER,)


class SearchParts(Derived):
    """``pagefind/parts.json``: which parts there are, for the script to load. It reads only
    the paths of the pages, so an edit of a page leaves it alone (at 100,000 posts, making it
    cost an edit a third of a second)."""

    name = "search-parts"
    reads_bytes = False

    def groups(self, config: Config, paths: Iterable[str]) -> dict[str, list[str]]:
        searched = list(places(config, paths)) if config.outputs.get(SearchIndex.name, True) else []
        return {"parts": searched} if searched else {}

    def make(self, ctx: PlanContext, group: str, files: Mapping[str, bytes]) -> Files:
        parts = sorted(set(parts_of(ctx.config, files).values()))
        listed = [{"bundle": f"{part}/", **section_of(part)} for part in parts]
        out = Files()
        out.add(MANIFEST, json.dumps({"parts": listed}, indent=1).encode() + b"\n", "the parts of the search index")
        return out


def parts_of(config: Config, paths: Iterable[str]) -> dict[str, str]:
    """Output path -> the part of the index that holds it, for the searched ones of ``paths``."""
    found = places(config, paths)
    spread = blog_parts(sum(place == "blog" for place in found.values()))
    return {path: blog_part(path, spread) if place == "blog" else place for path, place in found.items()}


def blog_parts(posts: int) -> int:
    """How many parts ``posts`` posts are spread over: the least power of two at or over their
    square root, so that both an edit's part (Pagefind's work) and the number of parts (a
    reader's requests on a first search) grow as that root: 2,000 posts make 64 parts of about
    31, 10,000 make 128 of 78, 100,000 make 512 of 195. A post keeps its part while the number
    stays (a hash of its URL modulo the number); when the posts pass a power of four every part
    splits in two, an index made again once per fourfold growth. No hysteresis: the parts are
    a function of the site, as a clean build makes them, not of the builds before."""
    parts = 1
    while parts * parts < posts:
        parts *= 2
    return parts


def blog_part(path: str, parts: int) -> str:
    """The part of ``parts`` that holds post ``path``, by a hash of its URL."""
    number = int.from_bytes(hashlib.sha256(page_url(path).encode()).digest()[:4], "big") % parts
    return f"blog/{number:0{max(2, len(str(parts - 1)))}d}"


def places(config: Config, paths: Iterable[str]) -> dict[str, str]:
    """Output path -> where in the index it goes, for the searched ones of ``paths``: its part,
    or ``blog`` for a post (which :func:`parts_of` spreads over the blog's parts). The settings
    are read once: every edit sorts every path of the site (21,000 at 10,000 posts)."""
    if config.search is False:
        return {}
    exclude, post = config.search.exclude, post_url(config.permalink)
    versions = set(indexed_versions(config)) if config.versions else None
    found = {}
    for path in paths:
        if not path.endswith(".html"):
            continue
        url = page_url(path)
        if exclude and any(fnmatch.fnmatchcase(url, glob) for glob in exclude):
            continue
        if not path.startswith("docs/"):
            found[path] = "blog" if post.fullmatch(url) else "pages"
            continue
        rest = path.removeprefix("docs/")
        if versions is not None:
            version, _, rest = rest.partition("/")
            if version in versions:
                found[path] = f"{'tutorials' if rest.startswith('tutorials/') else 'docs'}/{version}"
        else:
            found[path] = "tutorials" if rest.startswith("tutorials/") else "docs"
    return found


def theme_marks(config: Config) -> bool:
    """Whether the theme marks what to index, as its post and page layouts show: a part may
    hold only listings (a site whose pages are all left out of search), which stay out then."""
    from generator.render import template_dirs

    layouts = [next((folder / name for folder in template_dirs(config) if (folder / name).is_file()), None)
               for name in ("post.html", "page.html")]
    return any(MARKER in layout.read_bytes() for layout in layouts if layout is not None)


def section_of(part: str) -> dict[str, str]:
    """A part's section (its ``mergeFilter``), its label in the section menu, and its docs version."""
    section, _, rest = part.partition("/")
    version = rest if section in ("docs", "tutorials") else ""
    return {"section": section, "label": f"{LABELS[section]} {version}".strip(), "version": version}


@lru_cache(maxsize=8)
def post_url(permalink: str) -> re.Pattern[str]:
    """The URLs site.yaml's ``permalink`` gives posts (one a post's own ``permalink`` gives
    elsewhere is a page here)."""
    shapes = {"year": r"\d{4}", "month": r"\d{2}", "day": r"\d{2}"}
    pattern = re.sub(r"/:categories(?=/|$)", "\0", permalink)
    regex = "".join(re.escape(text) if i % 2 == 0 else shapes.get(text, "[^/]+")
                    for i, text in enumerate(re.split(r":([a-z_]+)", pattern)))
    return re.compile(regex.replace("\0", "(?:/[^/]+)*"))


def page_url(path: str) -> str:
    """The URL that serves output file ``path`` (below ``baseurl``): a folder's index is the folder."""
    return "/" + path.removesuffix("index.html")


def indexed_versions(config: Config) -> list[str]:
    """The docs versions with an index: those sitegen renders, not archived builds."""
    return [v.name for v in config.versions if v.archive is None]


@dataclass(frozen=True)
class SearchView:
    """What templates see as ``site.search``: where the list of parts is, and which docs
    version a page searches."""

    parts: str                               # the list of the index's parts
    docs: dict[str, str]                     # a docs version's URL prefix -> its name (an alias's
                                             # copies are the version's pages, rendered at its URLs)
    default_docs: str                        # the default version, for other pages

    def version_for(self, url: str) -> str:
        """The docs version the page at ``url`` searches beside the site ("" for none)."""
        return next((name for prefix, name in self.docs.items() if url.startswith(prefix)), self.default_docs)


def search_view(config: Config) -> SearchView | None:
    if config.search is False:
        return None
    indexed = indexed_versions(config)
    docs = {f"/docs/{name}/": name for name in indexed}
    default = next((v.name for v in config.versions if v.default and v.name in indexed), "")
    return SearchView(f"/{MANIFEST}", docs, default)
