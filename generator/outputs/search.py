"""Search: a Pagefind index of the site's pages, searched in the reader's browser.

No server takes part: the index is a folder of static files, which the page's
script (``assets/js/search.js``) loads from the site itself once the reader
starts typing. The index is made from the HTML the build made, so it holds what
the reader sees; the templates mark what is worth finding with
``data-pagefind-body`` (posts, pages, docs pages, tutorials: not listings,
redirect stubs or the 404 page), and Pagefind indexes only those parts.

Each docs version has an index of its own, beside the site's (posts and pages;
an unversioned docs section too): a docs page searches the site's and its own
version's, other pages the site's and the default version's. So results never
mix versions, and an edit re-indexes only the part it touched: a new post leaves
every version's index as it was. A version's aliases and archived builds
(foreign HTML) have none.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass

from generator.config import Config
from generator.files import Files
from generator.outputs import Derived, PlanContext

FOLDER = "pagefind"
SITE = "site"                 # the group of everything outside the versions' docs
MARKER = b"data-pagefind-body"


class SearchIndex(Derived):
    name = "search"

    def group(self, config: Config, path: str) -> str | None:
        if config.search is False or not path.endswith(".html"):
            return None
        if any(fnmatch.fnmatchcase(page_url(path), glob) for glob in config.search.exclude):
            return None
        if path.startswith("docs/") and config.versions:
            version = path.split("/")[1]
            return f"docs/{version}" if version in indexed_versions(config) else None
        return SITE

    def make(self, ctx: PlanContext, group: str, files: Mapping[str, bytes]) -> Files:
        """One group's bundle, at ``pagefind/GROUP/``: its pages that mark a part to index
        (all of them if none does: a theme that never heard of Pagefind gets whole pages)."""
        from generator import pagefind      # with pages to index: its tool runs in a subprocess

        pages = list(files.items())
        marked = [(path, data) for path, data in pages if MARKER in data]
        settings = {"exclude_selectors": ctx.config.search.exclude_selectors} \
            if ctx.config.search.exclude_selectors else None
        bundle = pagefind.index_pages([(page_url(path), data.decode("utf-8", "replace"))
                                       for path, data in marked or pages], settings)
        out = Files()
        for rel, data in sorted(bundle.items()):
            out.add(f"{FOLDER}/{group}/{rel}", data, f"the search index of {group}")
        return out

    def transient(self, config: Config) -> tuple[str, ...]:
        """Pagefind names its chunks by their content, and finds them through pagefind.js."""
        return () if config.search is False else (FOLDER,)


def page_url(path: str) -> str:
    """The URL that serves output file ``path`` (below ``baseurl``): a folder's index is the folder."""
    return "/" + path.removesuffix("index.html")


def indexed_versions(config: Config) -> list[str]:
    """The docs versions with an index: those sitegen renders, not archived builds."""
    return [v.name for v in config.versions if v.archive is None]


@dataclass(frozen=True)
class SearchView:
    """What templates see as ``site.search``: where the indexes a page searches are."""

    bundle: str                              # the site's index
    docs: dict[str, str]                     # a docs version's URL prefix -> its index (an alias's
                                             # copies are the version's pages, rendered at its URLs)
    default_docs: str                        # the default version's index, for other pages

    def docs_for(self, url: str) -> str:
        """The docs index the page at ``url`` searches beside the site's ("" for none)."""
        return next((bundle for prefix, bundle in self.docs.items() if url.startswith(prefix)),
                    self.default_docs)


def search_view(config: Config) -> SearchView | None:
    if config.search is False:
        return None
    indexed = indexed_versions(config)
    docs = {f"/docs/{name}/": f"/{FOLDER}/docs/{name}/" for name in indexed}
    default = next((f"/{FOLDER}/docs/{v.name}/" for v in config.versions if v.default and v.name in indexed), "")
    return SearchView(f"/{FOLDER}/{SITE}/", docs, default)

