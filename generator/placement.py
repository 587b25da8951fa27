"""Where each document is published: its URL, date, slug and categories.

A document's placement is a function of its kind, its file name, its front matter and the
URL settings (``permalink``, ``timezone``, ``limits.max_tags``), never of its body; so it
is worked out once per build for every document, after the parse (as Pelican, MkDocs and
Zola derive it), and not frozen into the parse cache: a ``permalink`` edit re-places every
post without parsing one again. Liquid that asks for a URL during a parse (``page.url``,
``post_url``, ``link``) asks :func:`place` through the parse's recording view of the settings
(for another document, from its front matter, its file noted as read), so only such a parse
is tied to them; a table made before the parse would mean reading every source's front
matter on every build, for the few documents that ask.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from generator.config import Config
from generator.errors import SiteError
from generator.files import NAME_BYTES
from generator.layout import CONFIG_FILE, PAGES
from generator.sources import parse_date, post_name_parts


class Placement(NamedTuple):
    """Where one document goes."""

    url: str                        # site-relative, starts with "/"
    date: datetime | None
    slug: str
    categories: list[str]


def place(kind: str, path: Path, meta: dict[str, Any], config: Config) -> Placement:
    """A source's placement: what its front matter and file name say, by these settings."""
    date = None
    if kind == "post":
        parts = post_name_parts(path)
        if parts is None:
            raise SiteError("a post's file name must be YYYY-MM-DD-slug.md", path)
        file_date, slug = parts
        date = parse_date(meta.get("date", file_date), timezone_of(config), path)
    else:
        slug = page_name(path)
        if "date" in meta:     # the time zone only where there is a date: a page without one does not read it
            date = parse_date(meta["date"], timezone_of(config), path)
    categories = at_most(taxonomy_names(meta.get("categories", meta.get("category")), path, "categories"),
                         config, path, "categories")
    return Placement(_permalink(kind, path, meta, config, slug, date, categories), date, slug, categories)


def place_all(documents: Iterable[Any], config: Config) -> None:
    """Give each document (parsed, or kept from an earlier build) its placement by ``config``."""
    for doc in documents:
        doc.url, doc.date, _, doc.categories = place(doc.kind, doc.source, doc.meta, config)
        vars(doc).pop("output_path", None)   # the file it goes to, cached by the URL it had


def timezone_of(config: Config) -> ZoneInfo:
    try:
        return ZoneInfo(config.timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise SiteError(f"key 'timezone': unknown time zone {config.timezone!r}",
                        config.root / CONFIG_FILE) from None


_PLACEHOLDER, _SLASHES = re.compile(r":([a-z_]+)"), re.compile(r"/{2,}")
# Jekyll's other placeholders of a date (Document#url_placeholders), made only where a pattern
# names one (rails/website's /:year/:i_month/:i_day/:title).
DATE_PLACEHOLDERS = {"i_month": "%-m", "i_day": "%-d", "short_year": "%y", "hour": "%H", "minute": "%M",
                     "second": "%S", "y_day": "%j", "short_month": "%b", "long_month": "%B", "short_day": "%a",
                     "long_day": "%A", "week": "%V", "w_year": "%G", "w_day": "%u"}


def _permalink(kind: str, path: Path, meta: dict, config: Config, slug: str,
               date: datetime | None, categories: list[str]) -> str:
    pattern = meta.get("permalink")
    if pattern is None:
        if kind != "post":
            return "/" + slug.removesuffix("index") if slug.rpartition("/")[2] == "index" else f"/{slug}.html"
        pattern = config.permalink

    def at() -> Path:
        """Whose pattern it is, for an error: made only then (a path per post was a third of
        placing the posts)."""
        return path if "permalink" in meta else config.root / CONFIG_FILE

    if not isinstance(pattern, str) or not pattern.strip():
        raise SiteError(f"key 'permalink': expected a path such as '/:year/:slug/', got {pattern!r}", at())
    pattern = "/" + pattern.lstrip("/")    # from the site's root, with or without its "/", as Jekyll reads it
    values = {"slug": slug, "title": slug,
              "categories": "/".join(slugify(c) for c in categories)}
    if date is not None:
        values |= {"year": f"{date.year:04d}", "month": f"{date.month:02d}", "day": f"{date.day:02d}"}
    texts, names = _pattern_parts(pattern)
    pieces = [texts[0]]
    for name, text in zip(names, texts[1:]):
        if name in values:
            pieces += (values[name], text)
        elif date is not None and name in DATE_PLACEHOLDERS:
            pieces += (date.strftime(DATE_PLACEHOLDERS[name]), text)
        else:
            raise SiteError(f"key 'permalink': unknown placeholder ':{name}' in {pattern!r}", at())
    url = _SLASHES.sub("/", "".join(pieces))
    if "/../" in url + "/" or "/./" in url + "/":
        raise SiteError(f"key 'permalink': {url!r} leaves the site", at())
    return url


@functools.lru_cache(maxsize=256)
def _pattern_parts(pattern: str) -> tuple[list[str], list[str]]:
    """A permalink pattern's text around its placeholders, and their names (``/:year/:slug/``:
    ``["/", "/", "/"]``, ``["year", "slug"]``): split once per pattern, not per post."""
    parts = _PLACEHOLDER.split(pattern)
    return parts[0::2], parts[1::2]


def page_name(path: Path) -> str:
    """``content/pages/guides/setup.md`` -> ``guides/setup``: folders under pages/ are kept."""
    parts = path.with_suffix("").parts
    return "/".join(parts[2:]) if parts[:2] == tuple(PAGES.split("/")) else path.stem


def string_list(value: Any, path: Path, key: str) -> list[str]:
    """A front matter key that holds one string or a list of them, as a list."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
        return [str(v) for v in value]
    raise SiteError(f"key '{key}': expected a string or a list of strings, got {value!r}", path)


def taxonomy_names(value: Any, path: Path, key: str) -> list[str]:
    """Tags or categories: each one names a page of its own, so none may be blank."""
    names = string_list(value, path, key)
    if any(not name.strip() for name in names):
        raise SiteError(f"key '{key}': an empty name in {value!r}", path)
    most = NAME_BYTES - len(".html")
    long = next((name for name in names if len(slugify(name).encode()) > most), None)
    if long is not None:
        raise SiteError(f"key '{key}': {long[:40]!r}... is too long to name its page "
                        f"({len(slugify(long).encode())} bytes, at most {most})", path)
    return names


def at_most(names: list[str], config: Config, path: Path, key: str) -> list[str]:
    """``names`` if there are no more of them than site.yaml's ``limits.max_tags``."""
    limit = config.limits.max_tags
    if len(names) > limit:
        raise SiteError(f"key '{key}': {len(names):,} names, more than site.yaml's limits.max_tags "
                        f"({limit:,})", path)
    return names


@functools.lru_cache(maxsize=4096)     # a site's few hundred tags and categories, slugged for each post
def slugify(text: str) -> str:
    """A URL-safe name for a tag or category: ``"Machine Learning"`` -> ``machine-learning``.

    Other scripts are transliterated (``"Привет"`` -> ``privet``, ``"🎉"`` ->
    ``tada``) by anyascii, whose tables cover all of Unicode; any other
    character is a break (``"What's new"`` -> ``what-s-new``, as Jekyll's
    slugify writes it: published tag URLs depend on this rule); a name with
    nothing left to spell (``"!!!"``) gets a short digest of itself, which
    is stable across builds and differs from any other such name.
    """
    spelled = text
    if not text.isascii():
        from anyascii import anyascii     # its tables load with the first name not in ASCII

        spelled = anyascii(text)
    slug = re.sub(r"[^a-z0-9]+", "-", spelled.lower()).strip("-")
    return slug or hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]
