"""Find every URL a built page refers to, and every anchor it offers, with line numbers.

Pages are read with the standard library's HTML tokenizer, which knows the line
of each tag, and stylesheets (files, ``<style>`` elements, ``style``
attributes) with tinycss2, which knows the line of each token. What each URL
is *for* matters to the checker: a hyperlink is only followed when a reader
clicks it, while an image, a stylesheet or a font is fetched as soon as the
page loads, so each :class:`Reference` says which it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import tinycss2

# (element, attribute) -> kind, for URLs the browser fetches as the page loads.
FETCHED = {
    ("img", "src"): "image", ("img", "srcset"): "image",
    ("source", "src"): "media", ("source", "srcset"): "image",
    ("video", "src"): "video", ("video", "poster"): "image",
    ("audio", "src"): "audio", ("track", "src"): "text track",
    ("script", "src"): "script", ("iframe", "src"): "frame",
    ("embed", "src"): "embed", ("object", "data"): "object",
    ("input", "src"): "image", ("image", "href"): "image",  # the last: inline SVG
}
# <link rel=...> values that make the browser fetch the URL, or open a connection to its host.
FETCHING_RELS = {
    "stylesheet": "stylesheet", "icon": "icon", "apple-touch-icon": "icon",
    "manifest": "manifest", "preload": "preload hint", "modulepreload": "preload hint",
    "prefetch": "prefetch hint", "prerender": "prerender hint",
    "preconnect": "preconnect hint", "dns-prefetch": "dns-prefetch hint",
}
# <meta property|name=...> whose content is a URL: what a shared link shows (fetched by the
# sharing site, not by the reader's browser).
META_URLS = {"og:url": "page", "og:image": "share image", "og:image:url": "share image",
             "og:image:secure_url": "share image", "twitter:image": "share image"}
# Kinds whose URL names a host to connect to, not a file.
ORIGIN_KINDS = {"preconnect hint", "dns-prefetch hint"}

_SRCSET_URL = re.compile(r"[\s,]*([^\s,]\S*)")
_REFRESH_URL = re.compile(r"""^\s*[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?["']?([^"']*)""", re.I)


@dataclass(frozen=True)
class Reference:
    """One URL written in a page or stylesheet."""

    line: int
    url: str
    kind: str       # what it is for: "page", "image", "stylesheet", "font", ...
    fetched: bool   # loaded with the page, without the reader asking


@dataclass
class PageScan:
    references: list[Reference] = field(default_factory=list)
    anchors: set[str] = field(default_factory=set)   # ids and <a name>s: what #fragments can name


def scan_html(text: str) -> PageScan:
    scanner = _PageScanner()
    scanner.feed(text)
    scanner.close()
    return scanner.scan


def scan_css(text: str, first_line: int = 1) -> list[Reference]:
    """The URLs in a stylesheet, a ``<style>`` element or a ``style`` attribute."""
    tokens = tinycss2.parse_component_value_list(text, skip_comments=True)
    return [Reference(first_line + line - 1, url, kind, fetched=True)
            for line, url, kind in _css_urls(tokens, "resource")]


def _css_urls(tokens, kind: str):
    """(line, url, kind) of each ``url()`` and ``@import``; a ``@font-face`` block's are fonts."""
    pending = kind  # the kind for what follows an at-keyword, until its block or ';'
    for token in tokens:
        if token.type == "at-keyword":
            pending = {"import": "stylesheet", "font-face": "font"}.get(token.lower_value, kind)
        elif token.type == "url":
            yield token.source_line, token.value, pending
        elif token.type == "string" and pending == "stylesheet":
            yield token.source_line, token.value, pending
        elif token.type == "function" and token.lower_name == "url":
            strings = [t for t in token.arguments if t.type == "string"]
            if strings:
                yield token.source_line, strings[0].value, pending
        elif token.type == "function":
            yield from _css_urls(token.arguments, pending)
        elif token.type in ("{} block", "() block", "[] block"):
            yield from _css_urls(token.content, pending)
            if token.type == "{} block":
                pending = kind
        elif token.type == "literal" and token.value == ";":
            pending = kind


def srcset_urls(value: str) -> list[str]:
    """The URLs of a ``srcset``: each candidate is a URL, then descriptors up to a comma."""
    urls, pos = [], 0
    while match := _SRCSET_URL.match(value, pos):
        url, pos = match.group(1), match.end()
        if url.endswith(","):
            url = url.rstrip(",")
        else:
            comma = value.find(",", pos)
            pos = len(value) if comma < 0 else comma + 1
        urls.append(url)
    return urls


class _PageScanner(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scan = PageScan()
        self._style: tuple[int, list[str]] | None = None   # an open <style>: its first line, its text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value for name, value in reversed(attrs) if value is not None}  # first wins
        if "id" in values:
            self.scan.anchors.add(values["id"])
        if tag == "a" and "name" in values:
            self.scan.anchors.add(values["name"])
        for (element, name), kind in FETCHED.items():
            if element == tag and name in values:
                urls = srcset_urls(values[name]) if name == "srcset" else [values[name]]
                for url in urls:
                    self._add(name, url, kind, fetched=True)
        if tag in ("a", "area") and "href" in values:
            self._add("href", values["href"], "page", fetched=False)
        elif tag == "link" and "href" in values:
            rels = values.get("rel", "").lower().split()
            kinds = [FETCHING_RELS[r] for r in rels if r in FETCHING_RELS]
            self._add("href", values["href"], kinds[0] if kinds else "page", fetched=bool(kinds))
        elif tag == "meta" and values.get("http-equiv", "").lower() == "refresh":
            match = _REFRESH_URL.match(values.get("content", ""))
            if match and match.group(1).strip():
                self._add("content", match.group(1).strip(), "page", fetched=False)
        elif tag == "meta" and (kind := META_URLS.get((values.get("property") or values.get("name") or "").lower())):
            if values.get("content", "").strip():
                self._add("content", values["content"].strip(), kind, fetched=False)
        if "style" in values:
            self.scan.references.extend(scan_css(values["style"], self._line_of("style")))
        if tag == "style":
            self._style = (self.getpos()[0], [])

    def handle_data(self, data: str) -> None:
        if self._style is not None:
            if not self._style[1]:  # the text's own first line, in case it starts on the next
                self._style = (self.getpos()[0], [])
            self._style[1].append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "style" and self._style is not None:
            line, parts = self._style
            self.scan.references.extend(scan_css("".join(parts), line))
            self._style = None

    def _add(self, attribute: str, url: str, kind: str, *, fetched: bool) -> None:
        self.scan.references.append(Reference(self._line_of(attribute), url, kind, fetched))

    def _line_of(self, attribute: str) -> int:
        """The line of ``attribute`` in the current start tag, which may span lines."""
        line = self.getpos()[0]
        text = self.get_starttag_text() or ""
        match = re.search(rf"\s{re.escape(attribute)}\s*=", text, re.I)
        return line + text.count("\n", 0, match.start() + 1) if match else line
