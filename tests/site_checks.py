"""Checks of a built site's real files, shared by the fixture and shipped-site tests."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import feedparser
import html5lib
from lxml import etree

SCHEMA = Path(__file__).parent / "data" / "sitemap.xsd"


def html_files(out: Path) -> list[Path]:
    return sorted(out.rglob("*.html"))


def assert_html5_parses(out: Path) -> None:
    """Every page parses with a strict HTML5 parser (no parse errors at all)."""
    for page in html_files(out):
        parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
        try:
            parser.parse(page.read_bytes())
        except html5lib.html5parser.ParseError as exc:
            raise AssertionError(f"{page.relative_to(out)}: {exc}") from None


def assert_feeds_parse(out: Path, expected_entries: int) -> None:
    for name in ("atom.xml", "rss.xml"):
        feed = feedparser.parse((out / name).read_bytes())
        assert not feed.bozo, f"{name}: {feed.bozo_exception}"
        assert len(feed.entries) == expected_entries, name
        for entry in feed.entries:
            assert entry.link.startswith("http"), entry.link
            assert entry.get("content") or entry.get("summary")


def assert_group_feeds_parse(out: Path, folder: str, entries: int) -> list[Path]:
    """The Atom feed beside each tag's (category's) page parses, lists that page's newest
    posts (at most ``entries``), and the page links it in its head and its text."""
    feeds = []
    for page in sorted((out / folder).glob("*.html")):
        feed_path = page.with_suffix("") / "atom.xml"
        feed = feedparser.parse(feed_path.read_bytes())
        assert not feed.bozo, f"{feed_path.relative_to(out)}: {feed.bozo_exception}"
        tree = html5lib.parse(page.read_bytes(), namespaceHTMLElements=False)
        href = "/" + feed_path.relative_to(out).as_posix()
        head = [link.get("href") for link in tree.iterfind(".//head/link[@rel='alternate']")
                if link.get("type") == "application/atom+xml"]
        assert href in head, f"{page.relative_to(out)}: no <link rel=alternate> to {href} in {head}"
        assert tree.find(f".//main//a[@href='{href}']") is not None, f"{page.relative_to(out)}: no link to {href}"
        listed = []     # the tag's posts, over its pages
        for each in [page, *sorted(page.with_suffix("").glob("page*.html"), key=lambda p: int(p.stem[4:]))]:
            listing = html5lib.parse(each.read_bytes(), namespaceHTMLElements=False)
            listed += [a.get("href") for a in listing.iterfind(".//main//ul[@class='post-list']/li/a")]
        assert [urlsplit(e.link).path for e in feed.entries] == listed[:entries], feed_path
        assert urlsplit(feed.feed.link).path == "/" + page.relative_to(out).as_posix()
        feeds.append(feed_path)
    return feeds


RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})\Z")
# JSON Feed 1.1 (https://jsonfeed.org/version/1.1): each object's keys and their types; keys
# starting with "_" are extensions. Required keys are checked apart.
JSON_FEED_KEYS = {
    "feed": {"version": str, "title": str, "home_page_url": str, "feed_url": str, "description": str,
             "user_comment": str, "next_url": str, "icon": str, "favicon": str, "authors": list,
             "language": str, "expired": bool, "hubs": list, "items": list},
    "item": {"id": str, "url": str, "external_url": str, "title": str, "content_html": str,
             "content_text": str, "summary": str, "image": str, "banner_image": str,
             "date_published": str, "date_modified": str, "authors": list, "tags": list,
             "language": str, "attachments": list},
    "author": {"name": str, "url": str, "avatar": str},
}
JSON_FEED_URLS = {"home_page_url", "feed_url", "next_url", "icon", "favicon", "url", "external_url",
                  "image", "banner_image", "avatar"}


def assert_json_feed_valid(path: Path) -> dict:
    """``path`` is a JSON Feed 1.1: the spec's required keys, every key's type, dates in RFC 3339,
    absolute URLs; returns the feed."""
    import json

    feed = json.loads(path.read_bytes())

    def check(obj: Any, kind: str, where: str) -> None:
        assert isinstance(obj, dict), f"{where}: not an object"
        for key, value in obj.items():
            if key.startswith("_"):
                continue
            assert key in JSON_FEED_KEYS[kind], f"{where}: {key!r} is not a key of a JSON Feed {kind}"
            assert type(value) is JSON_FEED_KEYS[kind][key], f"{where}.{key}: {type(value).__name__}"
            if key in JSON_FEED_URLS:
                assert urlsplit(value).scheme in ("http", "https"), f"{where}.{key}: {value!r} is not absolute"
            if key.startswith("date_"):
                assert RFC3339.match(value), f"{where}.{key}: {value!r} is not RFC 3339"
        for i, author in enumerate(obj.get("authors", [])):
            check(author, "author", f"{where}.authors[{i}]")
            assert author, f"{where}.authors[{i}]: an author needs a name, url or avatar"

    check(feed, "feed", "feed")
    assert feed.get("version") == "https://jsonfeed.org/version/1.1"
    assert feed.get("title"), "feed: the title is required"
    assert "items" in feed, "feed: items are required"
    for i, item in enumerate(feed["items"]):
        check(item, "item", f"items[{i}]")
        assert isinstance(item.get("id"), str) and item["id"], f"items[{i}]: an id is required"
        assert "content_html" in item or "content_text" in item, f"items[{i}]: content_html or content_text"
        assert all(isinstance(tag, str) for tag in item.get("tags", [])), f"items[{i}].tags"
    ids = [item["id"] for item in feed["items"]]
    assert len(set(ids)) == len(ids), "item ids must be unique"
    return feed


def assert_sitemap_valid(out: Path) -> list[str]:
    schema = etree.XMLSchema(etree.parse(str(SCHEMA)))
    document = etree.parse(str(out / "sitemap.xml"))
    assert schema.validate(document), schema.error_log
    locs = [el.text for el in document.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert locs == (out / "sitemap.txt").read_text().split()
    return locs


def resolve(out: Path, page: Path, href: str, baseurl: str = "") -> Path | None:
    """The file an internal link points at (as the host would serve it), or None if external."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or href.startswith(("mailto:", "#")):
        return None
    path = unquote(parts.path)
    if path.startswith("/"):
        path = path[len(baseurl):] if baseurl and path.startswith(baseurl) else path
        target = out / path.lstrip("/")
    else:
        target = (page.parent / path)
    if target.is_dir():
        return target / "index.html"
    if not target.exists() and target.with_name(target.name + ".html").exists():
        return target.with_name(target.name + ".html")
    return target


def assert_internal_links_and_anchors(out: Path) -> None:
    ids_cache: dict[Path, set[str]] = {}

    def ids(path: Path) -> set[str]:
        if path not in ids_cache:
            ids_cache[path] = set(re.findall(r'\sid="([^"]+)"', path.read_text(encoding="utf-8")))
        return ids_cache[path]

    for page in html_files(out):
        text = page.read_text(encoding="utf-8")
        for href in re.findall(r'\s(?:href|src)="([^"]+)"', text):
            href = href.replace("&amp;", "&")
            target = page if href.startswith("#") else resolve(out, page, href)
            if target is None:
                continue
            assert target.is_file(), f"{page.relative_to(out)}: broken link {href}"
            fragment = urlsplit(href).fragment
            if fragment and target.suffix == ".html":
                assert unquote(fragment) in ids(target), f"{page.relative_to(out)}: no #{fragment} in {href}"


def search_index(bundle: Path) -> dict[str, str]:
    """URL -> text of every page in the Pagefind bundle at ``bundle`` (the folder holding
    pagefind.js): each page is a fragment, gzip holding Pagefind's header and then JSON."""
    pages = {}
    for fragment in sorted((bundle / "fragment").glob("*.pf_fragment")):
        data = gzip.decompress(fragment.read_bytes())
        assert data.startswith(b"pagefind_dcd"), fragment
        record = json.loads(data[len(b"pagefind_dcd"):])
        pages[record["url"]] = record["content"]
    return pages


def search_parts(out: Path) -> dict[str, dict[str, str]]:
    """Part -> its pages (URL -> text), for every part of the index that ``out/pagefind/parts.json`` lists."""
    listed = json.loads((out / "pagefind/parts.json").read_text())["parts"]
    return {part["bundle"].strip("/"): search_index(out / "pagefind" / part["bundle"]) for part in listed}


def part_holding(out: Path, url: str) -> str:
    """The part of the index in ``out`` that holds the page at ``url``."""
    return next(part for part, pages in search_parts(out).items() if url in pages)


def searched(out: Path, version: str = "") -> dict[str, str]:
    """URL -> text of every page a search finds on a page of docs ``version`` (all the parts
    but other versions' docs)."""
    listed = json.loads((out / "pagefind/parts.json").read_text())["parts"]
    return {url: text for part in listed if part["version"] in ("", version)
            for url, text in search_index(out / "pagefind" / part["bundle"]).items()}


IMAGE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF8", b"RIFF", b"<svg", b"<?xml")


def assert_share_meta(out: Path, site_url: str, title: str) -> int:
    """The head of every page (redirect stubs aside) carries a whole OpenGraph and Twitter card,
    and every post a schema.org BlogPosting; each value is checked. Returns the pages checked."""
    import lxml.html
    from datetime import datetime

    site = urlsplit(site_url)
    checked = 0
    for page in html_files(out):
        rel = page.relative_to(out).as_posix()
        head = lxml.html.parse(str(page)).getroot().find("head")
        if head.cssselect('meta[http-equiv="refresh"]'):
            continue
        checked += 1
        meta: dict[str, list[str]] = {}
        for tag in head.cssselect("meta[property], meta[name]"):
            meta.setdefault(tag.get("property") or tag.get("name"), []).append(tag.get("content"))
        one = {key: values[0] for key, values in meta.items()}
        assert all(len(v) == 1 for k, v in meta.items() if k.startswith(("og:", "twitter:", "description"))), \
            (rel, meta)
        for key in ("og:type", "og:site_name", "og:title", "og:description", "og:url", "twitter:card",
                    "twitter:title", "twitter:description", "description"):
            assert one.get(key, "").strip(), f"{rel}: no {key}"
        assert one["og:site_name"] == title and one["og:type"] in ("article", "website"), rel
        assert one["twitter:title"] == one["og:title"], rel
        description = one["og:description"]
        assert description == one["twitter:description"] == one["description"], rel
        assert not re.search(r"<[A-Za-z/!]|&[#\w]+;", description), f"{rel}: markup in the description {description!r}"
        assert description == " ".join(description.split()) and len(description) <= 300, (rel, description)
        canonical = head.cssselect('link[rel="canonical"]')[0].get("href")
        assert one["og:url"] == canonical, rel
        for key in ("og:url", "og:image", "twitter:image"):
            if key in one:
                parts = urlsplit(one[key])
                assert parts.scheme in ("http", "https") and parts.netloc, f"{rel}: {key} is not absolute"
        if "og:image" in one:
            assert one["twitter:card"] == "summary_large_image" and one["twitter:image"] == one["og:image"], rel
            image = urlsplit(one["og:image"])
            if image.netloc == site.netloc:
                file = out / unquote(image.path).removeprefix(site.path.rstrip("/")).lstrip("/")
                assert file.is_file(), f"{rel}: og:image {one['og:image']} is not a file of the site"
                assert file.read_bytes().lstrip()[:8].startswith(IMAGE_MAGIC), f"{rel}: og:image is not an image"
        else:
            assert one["twitter:card"] == "summary", rel
        ld = head.cssselect('script[type="application/ld+json"]')
        if one["og:type"] != "article":
            assert not ld, rel
            continue
        assert len(ld) == 1, f"{rel}: a post needs one BlogPosting"
        posting = json.loads(ld[0].text)
        assert posting["@context"] == "https://schema.org" and posting["@type"] == "BlogPosting", rel
        assert posting["headline"] == one["og:title"] and posting["description"] == description, rel
        assert posting["url"] == posting["mainEntityOfPage"]["@id"] == one["og:url"], rel
        published = datetime.fromisoformat(posting["datePublished"])
        assert posting["datePublished"] == one["article:published_time"] and published.tzinfo, rel
        assert datetime.fromisoformat(posting["dateModified"]) >= published, rel
        assert posting["author"] and all(a["@type"] in ("Person", "Organization") and a["name"].strip()
                                         for a in posting["author"]), rel
        assert posting.get("image") == one.get("og:image"), rel
        assert posting["publisher"] == {"@type": "Organization", "name": title}, rel
    return checked
