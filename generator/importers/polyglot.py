"""jekyll-polyglot's languages, carried over as the pages Jekyll published.

Polyglot builds the site once per language: the default language at the root, each other
under ``/<lang>/``. A page whose ``lang`` (or, with ``lang_from_path``, whose first folder)
names a language is that language's version of its URL (the URL with the ``/<lang>/``
folder taken out); a URL without a version in a language is published there from the
default language's page; ``exclude_from_localization`` paths are published once, at the root.
Posts are coordinated so too (and a post only in another language is published at the root as
well); a page lists its own language's version of each (``site.posts`` in the converted layouts).

The importer writes one page source per published page, each with the permalink Jekyll gave
it, rather than sitegen learning languages: every page is then one file with one URL, so an
incremental build stays a clean one, and sitegen's centre knows nothing of languages. The
price is that an untranslated page is a copy in each language's folder (the report says so).
Polyglot's language-dependent ``site.active_lang`` is read from the page's URL in the
converted layouts (:mod:`generator.importers.liquid`), and written in where a page's own
Liquid reads it.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

POSTS = "content/posts/"
# The front matter key of each post written, naming the language whose build published it: what
# a page's listing selects (polyglot's site.posts in that language's build).
LANGUAGE_KEY = "polyglot_lang"
# A listing of posts in a page's own Liquid: site.posts, or one category's or tag's.
LISTING = re.compile(r"\bsite\.(?:posts\b|(?:categories|tags)(?:\.(?!(?:size|first|last)\b)[\w-]+|\[[^\]]+\]))")
# Polyglot's test of a folder name that is a language (lang_from_path).
LANG_FOLDER = re.compile(r"^[a-z]{2,3}(:?[_-](:?[A-Za-z]{2}){1,2}){0,2}$")


@dataclass
class Page:
    """A page of the Jekyll site, as the importer would write it."""

    rel: str                 # its path in the Jekyll site
    target: str              # where the importer writes it (content/pages/...)
    meta: dict[str, Any]     # its front matter, with what the importer adds
    front: str               # the front matter's text, as it will be written
    body: str
    offset: int = 0          # the lines before the body in the Jekyll file


@dataclass
class Languages:
    """A site's polyglot settings (``languages``, ``default_lang``...)."""

    languages: list[str]
    default: str
    excluded: list[str]          # exclude_from_localization
    from_path: bool
    site_excluded: list[str]     # Jekyll's exclude, then exclude_from_localization, as polyglot's links see them
    baseurl: str = ""
    site_url: str = ""

    @classmethod
    def of(cls, config: dict[str, Any], plugins: list[str], exclude: list[str], src: Path) -> Languages | None:
        """The settings, if the site loads jekyll-polyglot (None otherwise); ``exclude``: Jekyll's."""
        if "jekyll-polyglot" not in plugins:
            return None
        default = str(config.get("default_lang") or "en")
        languages = list(dict.fromkeys(str(lang) for lang in config.get("languages") or [default]))
        excluded = [str(path) for path in config.get("exclude_from_localization") or []]
        # polyglot adds a '/' to a folder's name (a folder of the site, built from its folder)
        site_excluded = [*exclude, *(path + "/" if (src / path).is_dir() and not path.endswith("/") else path
                                     for path in excluded)]
        return cls(languages, default, excluded, bool(config.get("lang_from_path", False)), site_excluded,
                   str(config.get("baseurl") or "").rstrip("/"), str(config.get("url") or "").rstrip("/"))

    @property
    def others(self) -> list[str]:
        return [lang for lang in self.languages if lang != self.default]

    def localized(self, rel: str) -> bool:
        """Is this file of the site published in every language (not excluded from localization)?"""
        return not any(_matches(rel, pattern) for pattern in self.excluded)

    def language(self, page: Page) -> str:
        return self.language_of(page.rel, page.meta)

    def language_of(self, rel: str, meta: dict[str, Any]) -> str:
        """A file's language: its ``lang``, else (lang_from_path) its first folder's, or its
        second's below a ``_`` folder (``_posts/zh/``, ``_docs/zh/``), else the default."""
        if meta.get("lang"):
            return str(meta["lang"])
        parts = rel.split("/")
        if self.from_path and rel.startswith("_") and len(parts) > 2 and LANG_FOLDER.match(parts[1]):
            return parts[1]
        if self.from_path and len(parts) > 1 and LANG_FOLDER.match(parts[0]):
            return parts[0]
        return self.default

    def url(self, page: Page, coordinated: bool = True) -> str:
        """The page's URL in every language, as polyglot makes it: Jekyll's URL without the
        ``/<lang>/`` (or ``.<lang>.``) that named its language."""
        permalink = page.meta.get("permalink")
        if permalink:
            url = "/" + str(permalink).lstrip("/")
        else:
            stem = page.rel.rsplit(".", 1)[0]
            url = "/" + (stem[:-len("index")] if stem == "index" or stem.endswith("/index") else stem + ".html")
        if not coordinated:
            return url
        pattern = "|".join(rf"[/.]{re.escape(lang)}[/.]" for lang in self.languages)
        return re.sub(pattern, "/", url)

    def coordinate(self, pages: list[Page]) -> list[tuple[str, str, Page]]:
        """(language, URL, page) of each page published, as polyglot's coordinate_documents
        chooses: in each language, a URL's page of that language, else the first one read
        (the default language's before any other's)."""
        chosen = []
        for active in dict.fromkeys([*self.languages, self.default]):
            taken: dict[str, str] = {}
            approved: dict[str, Page] = {}
            for page in pages:
                if active != self.default and not self.localized(page.rel):
                    continue
                lang, url = self.language(page), self.url(page)
                exclusive = page.meta.get("lang-exclusive") or []
                if taken.get(url) == active or taken.get(url) == self.default and lang != active \
                        or exclusive and active not in exclusive:
                    continue
                approved[url], taken[url] = page, lang
            chosen += [(active, url, page) for url, page in approved.items()]
        return chosen

    def sources(self, pages: list[Page], exists: set[str]) -> list[tuple[str, str]]:
        """(target, text) of each page to write: one per page published, its permalink Jekyll's
        URL (under ``/<lang>/`` outside the default language), the page's own file for its own
        language's version, a copy in ``content/pages/<lang>/`` for another's. ``exists``: the
        targets the import writes besides pages, which a copy must not take."""
        published = []
        for lang, _, page in self.coordinate(pages):
            url = self.url(page, coordinated=False)     # Jekyll's, computed before polyglot's coordination
            if lang == self.default and any(url.startswith(f"/{other}/") for other in self.others):
                continue       # written into another language's folder, which that language's build empties
            published.append((lang, url if lang == self.default else f"/{lang}{url}", page))
        taken = set(exists)
        own = {(id(page), lang) for lang, _, page in published if lang == self.language(page)}
        taken.update(page.target for lang, _, page in published if (id(page), lang) in own)
        written = []
        for lang, permalink, page in published:
            target = page.target if (id(page), lang) in own else self._copy_target(page, lang, taken)
            taken.add(target)
            front = page.front
            if permalink != self.url(page, coordinated=False):
                front = re.sub(r"(?m)^permalink[ \t]*:.*\n?", "", front) + f"permalink: {_quoted(permalink)}\n"
            if page.target.startswith(POSTS):
                front += f"{LANGUAGE_KEY}: {_quoted(lang)}\n"
            body = _written_in(page.body, lang, self.default)
            written.append((target, f"---\n{front}---\n{body}"))
        return written

    def _copy_target(self, page: Page, lang: str, taken: set[str]) -> str:
        rel = page.rel
        if "/" in rel and rel.split("/")[0] in self.languages:
            rel = rel.split("/", 1)[1]
        if page.target.startswith(POSTS):      # a post stays one, its permalink placing it
            base = f"{POSTS}{lang}/{page.target.removeprefix(POSTS)}"
        else:
            base = f"content/pages/{rel}" if lang == self.default else f"content/pages/{lang}/{rel}"
        target, n = base, 1
        while target in taken:
            stem, _, suffix = base.rpartition(".")
            target, n = f"{stem}-{n}.{suffix}", n + 1
        return target


    def links_filter(self, body: str) -> str:
        """A layout's Jinja ``body`` inside the filter that rewrites its links as polyglot rewrote
        every page's: ``href="/..."`` into the page's language (but not into an excluded path
        or another language), then each ``ferh=`` ({% static_href %}) back to ``href=``."""
        prefix, back = _in_language_prefix(self.others), _quoted('/\\g<1>"')
        rewrites = [(f'href="?{re.escape(self.baseurl)}/({self._path(True)})"',
                     " ~ ".join((_quoted(f'href="{self.baseurl}'), prefix, back)))]
        if self.site_url:
            rewrites.append((f'(?<!hreflang="{re.escape(self.default)}" )href="?{re.escape(self.site_url + self.baseurl)}'
                             f'/({self._path(True)})"', " ~ ".join((_quoted(f'href="{self.site_url}{self.baseurl}'), prefix, back))))
        rewrites.append((f'ferh="?{re.escape(self.baseurl)}/({self._path(False)})"',
                         _quoted(f'href="{self.baseurl}/\\g<1>"')))
        if self.site_url:
            rewrites.append((f'(?<!hreflang="{re.escape(self.default)}" )ferh="?{re.escape(self.site_url + self.baseurl)}'
                             f'/({self._path(False)})"', _quoted(f'href="{self.site_url}{self.baseurl}/\\g<1>"')))
        chain = " | ".join(f"regex_replace({_quoted(pattern)}, {replacement})" for pattern, replacement in rewrites)
        return f"{{% filter {chain} %}}{body}{{% endfilter %}}"

    def _path(self, localized: bool) -> str:
        """Polyglot's pattern of a link's path (relative_url_regex), without its nested repetition
        (which backtracks exponentially in Python's re): its lookaheads hold where a name starts."""
        avoid = "".join(f"(?!{_pattern(path)})" for path in self.site_excluded) + "".join(
            f"(?!{re.escape(lang)}/)" for lang in self.languages) if localized else ""
        name = r"""[^,'"\s/?.]+"""
        return rf"""(?:{avoid}{name}(?:\.{avoid}{name})*\.?)?(?:/[^\]\[)("'\s]*)?"""


def _pattern(path: str) -> str:
    """An excluded path as polyglot puts it in its pattern: as a regular expression (a glob's
    ``*`` then means something else, as in polyglot); taken as text where Python cannot read it."""
    try:
        re.compile(path)
        return path
    except re.error:
        return re.escape(path)


def _in_language_prefix(languages: list[str]) -> str:
    """A Jinja expression: ``/<lang>`` on a page under ``/<lang>/``, else nothing."""
    expression = '""'
    for lang in reversed(languages):
        expression = f'"/{lang}" if page.url.startswith("/{lang}/") else {expression}'
    return f"({expression})"


def _written_in(body: str, lang: str, default: str) -> str:
    """A page's Liquid in one language: ``site.active_lang`` and ``site.default_lang`` written in,
    and each listing of posts (``site.categories.blog``) that language's posts, assigned first."""
    body = re.sub(r"\bsite\.active_lang\b", f"'{lang}'", body)
    body = re.sub(r"\bsite\.default_lang\b", f"'{default}'", body)
    if "site." not in body:
        return body
    listings = list(dict.fromkeys(found.group() for found in LISTING.finditer(body)))
    names = {listing: f"polyglot_listing{n}" for n, listing in enumerate(listings)}
    assigned = "".join(f"{{% assign {name} = {listing} | where: '{LANGUAGE_KEY}', '{lang}' %}}"
                       for listing, name in names.items())
    return assigned + LISTING.sub(lambda found: names[found.group()], body)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _matches(rel: str, pattern: str) -> bool:
    pattern = pattern.strip("/")
    return rel == pattern or rel.startswith(pattern + "/") or fnmatch.fnmatch(rel, pattern)
