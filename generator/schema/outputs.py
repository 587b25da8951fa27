"""The site.yaml sections of the output planners (generator/outputs/) that the site's model
reads too: feeds, search, the archives and the taxonomies."""

from __future__ import annotations

import dataclasses
import re
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from generator.errors import SiteError
from generator.urls import plain_path


@dataclass(frozen=True)
class Feeds:
    atom: bool = True           # at atom_urls
    # The Atom feed's URLs: the first is the one pages link; more serve the same feed where
    # readers subscribed before (jekyll-feed's /feed.xml).
    atom_urls: list[str] = field(default_factory=lambda: ["/atom.xml"])
    rss: bool = True            # /rss.xml
    json: bool = True           # /feed.json (JSON Feed 1.1)
    tags: bool = True           # an Atom feed beside each tag's page: /tags/NAME/atom.xml
    categories: bool = True     # ... and each category's
    entries: int = 20
    # An Atom URL's own number of entries where it differs from ``entries`` (jekyll-feed's
    # posts_limit at /feed.xml, beside a site's own longer feeds).
    entries_at: dict[str, int] = field(default_factory=dict)
    full_content: bool = True

    def validate(self, path: Path, prefix: str) -> None:
        if self.entries < 1:
            raise SiteError(f"key '{prefix}entries': expected 1 or more, got {self.entries}", path)
        for url, entries in self.entries_at.items():
            if url not in self.atom_urls:
                raise SiteError(f"key '{prefix}entries_at': {url!r} is none of atom_urls {self.atom_urls}", path)
            if entries < 1:
                raise SiteError(f"key '{prefix}entries_at.{url}': expected 1 or more, got {entries}", path)
        if not self.atom_urls:
            raise SiteError(f"key '{prefix}atom_urls': expected at least one URL (atom: false makes no feed)", path)
        for i, url in enumerate(self.atom_urls):
            if not plain_path(url) or url.endswith("/"):
                raise SiteError(f"key '{prefix}atom_urls[{i}]': expected a file's path starting with '/' "
                                f"(no '.', '..' or empty segments), got {url!r}", path)


ARCHIVE_PAGES = ("blog", "history", "tags", "categories", "authors")     # the keys of Archives that place a page


@dataclass(frozen=True)
class Archives:
    """Where the pages sitegen makes from the posts are published; ``false`` makes none.

    A site with its own page at one of these URLs moves or switches off the
    generated one, as a Jekyll site's own ``/history`` page has no rival there.
    """

    blog: str | Literal[False] = "/blog.html"            # the paginated index; page N at /blog/pageN.html
    # Where page N of the blog goes instead, ":num" its number, as Jekyll's paginate_path: a
    # folder (its index.html), linked as written ("/page:num": /page2/index.html, linked as /page2).
    paginate_path: str = ""
    history: str | Literal[False] = "/history.html"      # every post, by year; page N at /history/pageN.html
    tags: str | Literal[False] = "/tags.html"            # the index; each tag at /tags/NAME.html
    categories: str | Literal[False] = "/categories.html"
    # Each person of content/data/authors.yml at /authors/KEY.html; false: no author pages,
    # and authors.yml is a data file like any other.
    authors: str | Literal[False] = "/authors.html"
    # Each tag's (category's) posts in pages of posts_per_page, as the blog: page N of
    # /tags/NAME.html at /tags/NAME/pageN.html (Hugo and Pelican page them alike); false: one page.
    paginate_groups: bool = True
    # Posts on each page of the history: one short line each, so more than the blog's
    # posts_per_page (MkDocs Material's archive_pagination_per_page), few enough that no page
    # grows with the site (all 100,000 posts of one page were 25 MB).
    history_per_page: int = 100

    def validate(self, path: Path, prefix: str) -> None:
        if self.paginate_path and (":num" not in self.paginate_path
                                   or not plain_path(self.paginate_path.replace(":num", "2"))):
            raise SiteError(f"key '{prefix}paginate_path': expected a path starting with '/' holding :num "
                            f"(/page:num), got {self.paginate_path!r}", path)
        if self.history_per_page < 1:
            raise SiteError(f"key '{prefix}history_per_page': expected 1 or more, got {self.history_per_page}", path)


# What a taxonomy's key may name of a post: fields that decide where it is listed (a
# change to them assembles the site anew); a list field gives one key per item.
TAXONOMY_FIELDS = ("date", "tags", "categories", "authors")
# Names ``site`` already has in templates: a taxonomy's collection may not hide one.
SITE_COLLECTIONS = ("posts", "pages", "data", "tags", "categories", "authors", "years")


@dataclass(frozen=True)
class Taxonomy:
    """One classification of the posts (Nikola's taxonomies): each post's keys, a page of
    each key's posts (paginated as the blog), an index of the keys, a feed of each key.

    ``key`` is a pattern of the post's fields (``TAXONOMY_FIELDS``): ``"{date:%Y}"``
    files posts by year, ``"{tags}"`` under each of their tags. ``url`` places each
    key's page, ``{key}`` being the key slugified. Tags and categories are two of these,
    made from ``archives``; a per-year archive is one entry of site.yaml ``taxonomies``.
    """

    name: str                               # site.NAME in templates: key -> its posts
    key: str
    url: str                                # "/archive/{key}.html"; page N at /archive/KEY/pageN.html
    index: str | Literal[False] = False     # the page listing every key
    kind: str = ""                          # what one key is ("year"): "Year: 2024", "Pages of this year"
    title: str = ""                         # the index page's title; default: the name, capitalized
    heading: str = "Posts in"               # a key's page is headed "Posts in “2024”"
    order: Literal["name", "newest"] = "name"   # keys by name, or by their newest post (years)
    feed: bool = False                      # an Atom feed beside each key's page: /archive/KEY/atom.xml
    paginate: bool = True                   # posts_per_page to a page; false: all on one

    @property
    def singular(self) -> str:
        return self.kind or self.name

    def validate(self, path: Path, prefix: str) -> None:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", self.name) or self.name in SITE_COLLECTIONS:
            raise name_taken(self.name, path, prefix)
        try:
            fields = [name for _, name, _, _ in string.Formatter().parse(self.key) if name is not None]
        except ValueError as exc:
            raise SiteError(f"key '{prefix}key': {exc} in {self.key!r}", path) from None
        if not fields or any(name not in TAXONOMY_FIELDS for name in fields):
            raise SiteError(f"key '{prefix}key': expected a pattern of {', '.join(TAXONOMY_FIELDS)} "
                            f"such as '{{date:%Y}}', got {self.key!r}", path)
        if "{key}" not in self.url or not plain_path(self.url.replace("{key}", "k").removesuffix("/")):
            raise SiteError(f"key '{prefix}url': expected a path starting with '/' holding {{key}} "
                            f"(/archive/{{key}}.html), got {self.url!r}", path)
        if self.index is not False and not plain_path(self.index):
            raise SiteError(f"key '{prefix}index': expected a path starting with '/' (or false to make "
                            f"no index), got {self.index!r}", path)


def name_taken(name: str, path: Path, prefix: str) -> SiteError:
    """A taxonomy's name that is no name, or one ``site`` already has (a collection; a site.yaml
    key, which :class:`generator.config.Config` checks, knowing them)."""
    return SiteError(f"key '{prefix}name': expected a name of letters, digits and '_' that site does "
                     f"not already have (not {', '.join(SITE_COLLECTIONS)} or a site.yaml key), "
                     f"got {name!r}", path)


@dataclass(frozen=True)
class Search:
    """The site's search (generator/outputs/search.py): a Pagefind index of its pages, searched
    in the reader's browser; ``search: false`` makes none and leaves the box out."""

    exclude: list[str] = field(default_factory=list)      # URL globs of pages left out: "/2016/*"
    exclude_selectors: list[str] = field(default_factory=list)   # parts of pages left out: ".nb-output"

    def validate(self, path: Path, prefix: str) -> None:
        for i, glob in enumerate(self.exclude):
            if not glob.startswith("/"):
                raise SiteError(f"key '{prefix}exclude[{i}]': expected a URL path starting with '/' "
                                f"(a glob such as /2016/*), got {glob!r}", path)
        for i, selector in enumerate(self.exclude_selectors):
            if not selector.strip():
                raise SiteError(f"key '{prefix}exclude_selectors[{i}]': expected a CSS selector, got {selector!r}",
                                path)


@dataclass(frozen=True)
class ArchivesSection:
    """The keys of the archive planners (generator/outputs/archives.py): where the pages made
    from the posts are published, and site.yaml's own classifications."""

    archives: Archives = field(default_factory=Archives)
    taxonomies: list[Taxonomy] = field(default_factory=list)    # more classifications: a per-year archive

    def validate(self, path: Path, prefix: str) -> None:
        for name in ARCHIVE_PAGES:
            url = getattr(self.archives, name)
            if url is not False and (not url.startswith("/") or url.startswith("//") or "/../" in url + "/"):
                raise SiteError(f"key 'archives.{name}': expected a path starting with '/' "
                                f"(or false to make no such page), got {url!r}", path)
        names = [taxonomy.name for taxonomy in self.taxonomies]
        for i, name in enumerate(names):
            if name in names[:i]:
                raise SiteError(f"key 'taxonomies[{i}].name': {name!r} names an earlier taxonomy too", path)

    def check(self, config: Any, path: Path) -> None:
        """A taxonomy may not be named like a site.yaml key: ``site.NAME`` would be both."""
        keys = config.top_level_keys()
        for i, taxonomy in enumerate(self.taxonomies):
            if taxonomy.name in keys:
                raise name_taken(taxonomy.name, path, f"taxonomies[{i}].")

    def switched_off(self, off: set[str]) -> ArchivesSection:
        """No archive page where ``outputs`` switches its planner off, so that no page links one."""
        return dataclasses.replace(self, archives=dataclasses.replace(
            self.archives, **{name: False for name in ARCHIVE_PAGES if name in off}))
