"""Jekyll's collections as the importer reads them: which there are, and where Jekyll
publishes each document of one (its ``permalink``, with the collection's placeholders).

Jekyll 4.3's rules, from its ``Collection``, ``Document`` and ``Drops::UrlDrop``: a
collection's documents are published at its ``permalink`` (default
``/:collection/:path`` with the suffix the site's permalink style gives), a document's own
``permalink`` winning; ``:path`` is the document's path in the collection without its
extension, ``:name`` its file name slugified, ``:slug`` its ``slug`` (the front matter's, else
its name without a leading date) slugified, ``:title`` the same keeping case. A document
without a title is titled from its name.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timezone, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from generator.errors import SiteError
from generator.sources import parse_date
from typing import Any

# A collection's documents with a date in their name: 2020-01-02-name.md
DATED_NAME = re.compile(r"(\d{2,4}-\d{1,2}-\d{1,2})-(.*)$")
# Jekyll's named permalink styles, and the suffix each gives a collection's default permalink.
STYLE_SUFFIX = {"pretty": "/", "date": ":output_ext", "ordinal": ":output_ext", "none": ":output_ext"}
OUTPUT_SUFFIXES = (".md", ".markdown", ".html", ".htm")
PLACEHOLDER = re.compile(r":([a-z_]+)")
PAGE_PLACEHOLDER = re.compile(r":(?:path|basename|output_ext)")     # a page's (Page#url_placeholders)
# What Jekyll 4.3's Liquid shows of a post or a collection's document (its DocumentDrop) beside its
# front matter, that sitegen's documents lack (``path`` aside: the importer writes it in for an edit
# link); of a page (Page#to_liquid), ``name`` alone.
DOCUMENT_FIELDS = ("name", "relative_path", "slug", "ext", "collection", "id")
# A post's or document's lists, always there (Document#populate_tags): a page's are its front matter's, or nil.
DOCUMENT_LISTS = ("tags", "categories")
SINGULAR = {"tags": "tag", "categories": "category"}      # Utils.pluralized_array_from_hash's other key


class UnknownPlaceholder(ValueError):
    """A permalink names a placeholder the importer cannot fill for this document."""


@dataclass
class JekyllCollection:
    """One collection of ``_config.yml`` (not ``posts``)."""

    name: str
    output: bool = False
    permalink: str | None = None        # its own; None: Jekyll's default for the site's style
    sort_by: str | None = None
    order: list[str] = field(default_factory=list)

    def template(self, site_permalink: str) -> str:
        """The URL template of its documents (``Collection#url_template``)."""
        if self.permalink:
            return self.permalink
        style = STYLE_SUFFIX.get(site_permalink)
        if style is None:   # a pattern of its own: its end says which suffix
            style = ("/" if site_permalink.endswith("/") else "") + \
                    (":output_ext" if site_permalink.endswith(":output_ext") else "")
        return "/:collection/:path" + style


def collections_of(config: dict[str, Any]) -> list[JekyllCollection]:
    """The collections ``_config.yml`` declares (a mapping of settings, or a list of names),
    but ``posts``, which the importer reads as posts."""
    declared = config.get("collections") or {}
    if isinstance(declared, list):
        declared = {str(name): {} for name in declared}
    if not isinstance(declared, dict):
        return []
    found = []
    for name, settings in declared.items():
        settings = settings if isinstance(settings, dict) else {}
        if str(name) == "posts":
            continue
        order = settings.get("order")
        found.append(JekyllCollection(
            str(name), output=bool(settings.get("output")),
            permalink=str(settings["permalink"]) if settings.get("permalink") else None,
            sort_by=str(settings["sort_by"]) if isinstance(settings.get("sort_by"), str) else None,
            order=[str(entry) for entry in order] if isinstance(order, list) else []))
    return found


def slugify(text: str, pretty: bool = False, cased: bool = False) -> str:
    """Jekyll's ``Utils.slugify`` in its default and ``pretty`` modes."""
    replaced = r"[^\w._~!$&'()+,;=@]+" if pretty else r"(?:[^\w]|_)+"     # pretty keeps "_"
    slug = re.sub(replaced, "-", text).strip("-")
    return slug if cased else slug.lower()


def titled(name: str) -> str:
    """The title Jekyll gives a document without one: its name's words capitalized."""
    return " ".join(word.capitalize() for word in name.split("-"))


def name_of(inner: str) -> tuple[str, str | None]:
    """A document's name (without extension, date or trailing dots) and the date its name gives."""
    base = inner.rsplit("/", 1)[-1]
    base = base.rsplit(".", 1)[0] if "." in base else base
    dated = DATED_NAME.match(base)
    name, day = (dated.group(2), dated.group(1)) if dated else (base, None)
    return name.rstrip("."), day


def document_url(template: str, collection: str, inner: str, meta: dict[str, Any], zone: str = "UTC") -> str:
    """The URL Jekyll gives the document ``inner`` (its path in the collection's folder) of
    ``collection`` for the URL ``template`` (its own permalink, or its collection's), as the
    path of its file (Jekyll escapes what a URL may not hold in ``page.url``, not in the file)."""
    stem = inner.rsplit(".", 1)[0] if "." in inner.rsplit("/", 1)[-1] else inner
    name, day = name_of(inner)
    basename = stem.rsplit("/", 1)[-1]
    slug = str(meta.get("slug") or name)    # Jekyll's data["slug"]: the front matter's, else the name's
    values: dict[str, str] = {
        "collection": collection,
        "path": "/" + stem.rstrip("."),
        "name": slugify(basename),
        "title": slugify(slug, pretty=True, cased=True),
        "slug": slugify(slug),
        "output_ext": ".html" if inner.endswith(OUTPUT_SUFFIXES) else "." + inner.rsplit(".", 1)[-1],
        "categories": "/".join(dict.fromkeys(str(c).lower() for c in _listed(meta.get("categories")))),
    }
    when = _day(meta.get("date") or day, zone)
    if when is not None:
        values |= {"year": f"{when.year:04d}", "month": f"{when.month:02d}", "day": f"{when.day:02d}",
                   "short_year": f"{when.year % 100:02d}", "i_month": str(when.month), "i_day": str(when.day)}

    def fill(match: re.Match) -> str:
        name = match.group(1)
        for key in (name, name.rstrip("_")):
            if key in values:
                return values[key] + match.group(0)[1 + len(key):]
        raise UnknownPlaceholder(name)

    url = "/" + PLACEHOLDER.sub(fill, template)
    url = url.replace("..", "/").replace("./", "")
    return re.sub(r"/{2,}", "/", url)


def page_url(template: str, rel: str) -> str:
    """The URL Jekyll gives the page ``rel`` (its path in the site) for a permalink ``template``
    with a page's placeholders (``/tour/:basename/``): ``:path`` its folder, ``:basename`` its name
    without the extension, ``:output_ext`` ``.html`` for Markdown and HTML; any other is left as
    written, as Jekyll leaves it (``Page#url_placeholders``, ``URL#generate_url_from_hash``)."""
    folder, _, name = rel.rpartition("/")
    basename, dot, extension = name.rpartition(".") if "." in name else (name, "", "")
    values = {"path": "/" + folder if folder else "", "basename": basename,
              "output_ext": ".html" if name.endswith(OUTPUT_SUFFIXES) else dot + extension}
    url = PAGE_PLACEHOLDER.sub(lambda found: values[found.group(0)[1:]], template)
    return re.sub(r"/{2,}", "/", "/" + url.lstrip("/"))


def liquid_fields(rel: str, label: str | None, meta: dict[str, Any], url: str | None = None) -> dict[str, str]:
    """Jekyll's values of :data:`DOCUMENT_FIELDS` (its ``name`` alone for a page: ``label`` None)
    for the file ``rel`` of the site, a post (``label`` "posts") or a document of the
    collection ``label`` published at ``url`` (``id`` is known only with it). The front matter's
    ``slug`` makes ``id``; its own keys are its own to keep."""
    base = rel.rsplit("/", 1)[-1]
    if label is None:
        return {"name": base}
    ext = "." + base.rsplit(".", 1)[-1] if "." in base else None
    slug = str(meta.get("slug") or name_of(base)[0])
    fields = {"name": base, "relative_path": rel, "slug": slug, "ext": ext, "collection": label}
    if url is not None:     # Ruby's File.dirname drops a trailing slash first
        fields["id"] = posixpath.join(posixpath.dirname(url.rstrip("/")) or "/", slug)
    return {key: value for key, value in fields.items() if value is not None}


def static_url(template: str, collection: str, inner: str) -> str:
    """The URL Jekyll publishes a file of a collection at that has no front matter
    (``StaticFile#url``): only ``:collection``, ``:path`` and ``:name`` are filled, ``:title`` and
    ``:output_ext`` emptied, any other placeholder left as it is; then the file's extension."""
    stem, dot, extension = inner.rpartition(".") if "." in inner.rsplit("/", 1)[-1] else (inner, "", "")
    values = {"collection": collection, "path": "/" + stem.rstrip("."), "output_ext": "",
              "name": stem.rsplit("/", 1)[-1], "title": ""}
    url = template
    for key, value in values.items():
        url = url.replace(":" + key, value)
    url = ("/" + url).replace("..", "/").replace("./", "")
    return re.sub(r"/{2,}", "/", url).removesuffix("/") + dot + extension


def _day(value: Any, zone: str = "UTC") -> date | None:
    """The day of a front matter date or a name's (``2021-3-4``, ``2019-03-18 10:00:00 -0700``,
    ``23/01/2022`` as Ruby reads it); one with an offset in the site's time ``zone``, as Jekyll's
    ``Utils.parse_date`` takes it (``localtime``: rails' ``2019-11-22 20:00 -05:00`` is the 23rd in
    UTC); None if there is none."""
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value.astimezone(_zone(zone)).date()
    if isinstance(value, date):
        return value if not isinstance(value, datetime) else value.date()
    text = str(value or "").strip()
    if OFFSET.search(text):
        try:
            return parse_date(text, _zone(zone), Path(".")).date()
        except SiteError:       # not a date Jekyll reads either: the name's, below
            pass
    found = re.match(r"(\d{4})-(\d{1,2})-(\d{1,2})\b", text)
    if found:
        year, month, day = map(int, found.groups())
    else:
        found = re.fullmatch(r"(\d{1,2})[/-](\d{1,2})[/-](\d{4})", text)
        if not found:
            return None
        day, month, year = map(int, found.groups())
    try:
        return date(year, month, day)
    except ValueError:
        return None


OFFSET = re.compile(r"\d:\d{2}(?::\d{2})?\s*(?:[+-]\d{2}:?\d{2}|Z)\s*$")


def _zone(name: str) -> tzinfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return timezone.utc


def _listed(value: Any) -> list:
    if value is None:
        return []
    return value.split() if isinstance(value, str) else list(value) if isinstance(value, list) else [value]

