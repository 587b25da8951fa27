"""Atom 1.0, RSS 2.0, JSON Feed 1.1 and sitemaps.

Feeds are built as XML trees (ElementTree) or JSON values rather than text
templates so that they are well-formed whatever the posts contain. Every URL
in them is absolute, and no value depends on the time of the build, so the
same site gives the same bytes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from generator.config import Config
from generator.site import Document

if TYPE_CHECKING:        # the XML and e-mail date modules load with the first feed made, not with every build
    import xml.etree.ElementTree as ET

ATOM_NS = "http://www.w3.org/2005/Atom"
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
JSON_FEED_VERSION = "https://jsonfeed.org/version/1.1"

AbsoluteUrl = Callable[[str], str]
Person = Callable[[str], Any]    # an author's name -> their entry of authors.yml (name, link, url, avatar) or None


@dataclass(frozen=True)
class Channel:
    """Which posts a feed follows: the blog's, or one tag's or category's."""

    title: str
    url: str        # the feed's own path
    page: str       # the page showing the same posts


# Characters XML 1.0 cannot carry, even escaped: a control character pasted into a
# title must not make the whole feed unreadable, so it is left out.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = parent.makeelement(tag, {name: NOT_XML.sub("", value) for name, value in attrs.items()})
    parent.append(element)
    if text is not None:
        element.text = NOT_XML.sub("", text)
    return element


def _element(tag: str, attrs: dict[str, str]) -> ET.Element:
    import xml.etree.ElementTree as ET

    return ET.Element(tag, attrs)


def _serialize(root: ET.Element) -> bytes:
    import xml.etree.ElementTree as ET

    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def _updated(posts: list[Document]) -> datetime | None:
    return max((p.date for p in posts), default=None)


def atom_feed(config: Config, posts: list[Document], absolute_url: AbsoluteUrl, channel: Channel,
              person: Person) -> bytes:
    feed = _element("feed", {"xmlns": ATOM_NS, "xml:lang": config.language})
    _sub(feed, "title", channel.title)
    if config.description:
        _sub(feed, "subtitle", config.description)
    _sub(feed, "link", href=absolute_url(channel.url), rel="self", type="application/atom+xml")
    _sub(feed, "link", href=absolute_url(channel.page), rel="alternate", type="text/html")
    _sub(feed, "id", absolute_url(channel.page))
    updated = _updated(posts)
    _sub(feed, "updated", (updated.isoformat() if updated else "1970-01-01T00:00:00+00:00"))
    if config.author:
        _sub(_sub(feed, "author"), "name", config.author)
    _sub(feed, "generator", "sitegen")
    for post in posts:
        entry = _sub(feed, "entry")
        _sub(entry, "title", post.title)
        _sub(entry, "link", href=absolute_url(post.url), rel="alternate", type="text/html")
        _sub(entry, "id", absolute_url(post.url))
        _sub(entry, "published", post.date.isoformat())
        _sub(entry, "updated", post.date.isoformat())
        for author in _authors(config, post, absolute_url, person):
            element = _sub(entry, "author")
            _sub(element, "name", author["name"])
            if "url" in author:
                _sub(element, "uri", author["url"])
        for tag in post.tags:
            _sub(entry, "category", term=tag)
        if post.excerpt:
            _sub(entry, "summary", post.excerpt, type="html")
        if config.feeds.full_content:
            _sub(entry, "content", absolutize(post.content, absolute_url), type="html")
    return _serialize(feed)


def json_feed(config: Config, posts: list[Document], absolute_url: AbsoluteUrl, channel: Channel,
              person: Person) -> bytes:
    """A JSON Feed 1.1 (https://jsonfeed.org/version/1.1): what Atom says, as JSON."""
    feed: dict[str, Any] = {"version": JSON_FEED_VERSION, "title": channel.title,
                            "home_page_url": absolute_url(channel.page), "feed_url": absolute_url(channel.url)}
    if config.description:
        feed["description"] = config.description
    if config.author:
        feed["authors"] = [{"name": config.author}]
    feed["language"] = config.language
    items = []
    for post in posts:
        body = post.content if config.feeds.full_content else post.excerpt
        item: dict[str, Any] = {"id": absolute_url(post.url), "url": absolute_url(post.url),
                                "title": post.title, "content_html": absolutize(body, absolute_url)}
        if post.description:
            item["summary"] = post.description
        item["date_published"] = post.date.isoformat()
        if post.authors:    # else the feed's own
            item["authors"] = _authors(config, post, absolute_url, person)
        if post.tags:
            item["tags"] = list(post.tags)
        items.append(item)
    feed["items"] = items
    return (json.dumps(feed, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def _authors(config: Config, post: Document, absolute_url: AbsoluteUrl, person: Person) -> list[dict[str, str]]:
    """A post's authors for a feed: name, and where authors.yml knows them their own link (else
    their page here) and avatar."""
    found = []
    for name in post.authors or [config.author or config.title]:
        known = person(name)
        if known is None:
            found.append({"name": name})
            continue
        author = {"name": known.name}
        if known.link or known.url:
            author["url"] = absolute_url(known.link or known.url)
        if known.avatar:
            author["avatar"] = absolute_url(known.avatar)
        found.append(author)
    return found


def rss_feed(config: Config, posts: list[Document], absolute_url: AbsoluteUrl) -> bytes:
    from email.utils import format_datetime

    rss = _element("rss", {"version": "2.0", "xmlns:atom": ATOM_NS})
    channel = _sub(rss, "channel")
    _sub(channel, "title", config.title)
    _sub(channel, "link", absolute_url("/"))
    _sub(channel, "description", config.description or config.title)
    _sub(channel, "language", config.language)
    _sub(channel, "atom:link", href=absolute_url("/rss.xml"), rel="self", type="application/rss+xml")
    updated = _updated(posts)
    if updated:
        _sub(channel, "lastBuildDate", format_datetime(updated))
    _sub(channel, "generator", "sitegen")
    for post in posts:
        item = _sub(channel, "item")
        _sub(item, "title", post.title)
        _sub(item, "link", absolute_url(post.url))
        _sub(item, "guid", absolute_url(post.url), isPermaLink="true")
        _sub(item, "pubDate", format_datetime(post.date))
        for tag in post.categories + post.tags:
            _sub(item, "category", tag)
        body = post.content if config.feeds.full_content else post.excerpt
        _sub(item, "description", absolutize(body, absolute_url))
    return _serialize(rss)


def absolutize(html: str, absolute_url: AbsoluteUrl) -> str:
    """Make root-relative ``href``/``src`` values absolute: feed readers have no base URL."""
    if '="/' not in html:       # what every such value holds; most posts link elsewhere
        return html
    return re.sub(r'(\s(?:href|src)=")(/[^/"][^"]*|/)"',
                  lambda m: f'{m.group(1)}{absolute_url(m.group(2))}"', html)


def sitemap_xml(urls: Iterable[tuple[str, datetime | None]], absolute_url: AbsoluteUrl) -> bytes:
    urlset = _element("urlset", {"xmlns": SITEMAP_NS})
    for url, lastmod in urls:
        entry = _sub(urlset, "url")
        _sub(entry, "loc", absolute_url(url))
        if lastmod is not None:
            _sub(entry, "lastmod", lastmod.date().isoformat())
    return _serialize(urlset)


def sitemap_index(sitemaps: Iterable[str], absolute_url: AbsoluteUrl) -> bytes:
    """A sitemap index: the sitemaps of a site too large for one (see :mod:`generator.outputs.sitemap`)."""
    index = _element("sitemapindex", {"xmlns": SITEMAP_NS})
    for url in sitemaps:
        _sub(_sub(index, "sitemap"), "loc", absolute_url(url))
    return _serialize(index)


def sitemap_txt(urls: Iterable[tuple[str, datetime | None]], absolute_url: AbsoluteUrl) -> bytes:
    return "".join(absolute_url(url) + "\n" for url, _ in urls).encode("utf-8")
