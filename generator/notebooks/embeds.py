"""The iframes of HTML outputs and Markdown cells: a video or a map a notebook embeds.

An iframe loads another site into the reader's page, so one is kept only from
a host that site.yaml ``notebooks.embeds`` lists (a privacy-minded one such
as ``www.youtube-nocookie.com``, to which YouTube's own embeds are then
moved), over https, and rebuilt: sandboxed, its
``allow`` list trimmed to what a player needs, loaded lazily, with a title.
Any other iframe becomes a link to what it showed, with a visible note, and
one with no web address (``srcdoc``) a note only. The sanitizer removes every
iframe, so each is swapped for a marker before it runs and put back after.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from markupsafe import escape

IFRAME = re.compile(r"<iframe\b([^>]*)>(?:.*?</iframe\s*>)?", re.S | re.I)
ATTRIBUTE = re.compile(r"""([^\s"'=<>`/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
SANDBOX = "allow-scripts allow-same-origin allow-popups allow-presentation"
ALLOW = ("fullscreen", "picture-in-picture", "encrypted-media")
SIZE = re.compile(r"^\d{1,4}$")
# A player's privacy-minded twin: listing it takes the player's embeds there (IPython's YouTubeVideo
# writes www.youtube.com) as the same video without cookies.
TWINS = {"www.youtube.com": "www.youtube-nocookie.com", "youtube.com": "www.youtube-nocookie.com"}


@dataclass
class Embeds:
    """An HTML output with its iframes taken out, to be put back (kept or as links) once it is clean."""

    html: str
    marker: str = ""                                        # the markers' prefix, unique to this output
    frames: list[str] = field(default_factory=list)         # what each marker (by number) stands for
    warnings: list[str] = field(default_factory=list)

    def restore(self, cleaned: str) -> str:
        """Sanitized HTML (every ``<`` and ``>`` of which is a tag's) with its markers' frames, in text only."""
        if not self.frames:
            return cleaned
        marker = re.compile(r"(<[^>]*>)|" + re.escape(self.marker) + r"(\d+)-")
        return marker.sub(lambda m: m.group(1) or self.frames[int(m.group(2))], cleaned)


def take_out(output_html: str, hosts: list[str]) -> Embeds:
    """``output_html`` with each iframe a marker the sanitizer keeps (text, named by the output's digest,
    so no output can forge one) and what each marker stands for."""
    if "<iframe" not in output_html.lower():
        return Embeds(output_html)
    digest = hashlib.sha256(output_html.encode("utf-8", "surrogatepass")).hexdigest()[:20]
    embeds = Embeds("", marker=f"sitegen-embed-{digest}-")
    allowed = {host.lower() for host in hosts}

    def marker(match: re.Match) -> str:
        embeds.frames.append(_frame(_attributes(match.group(1)), allowed, embeds.warnings.append))
        return f"{embeds.marker}{len(embeds.frames) - 1}-"

    embeds.html = IFRAME.sub(marker, output_html)
    return embeds


def _frame(attributes: dict[str, str], allowed: set[str], warn: Callable[[str], None]) -> str:
    src = attributes.get("src", "").strip()
    parts = urlsplit(src)
    host = (parts.hostname or "").lower()
    if host not in allowed and TWINS.get(host) in allowed and parts.path.startswith("/embed/"):
        host = TWINS[host]
        src = parts._replace(netloc=host).geturl()
    if not host or parts.scheme not in ("http", "https"):
        warn("an iframe with no web address (srcdoc, or none) is left out")
        return '<span class="nb-note">An embedded frame is left out here.</span>'
    if host not in allowed or parts.scheme != "https":
        why = "not over https" if host in allowed else "notebooks.embeds does not list it"
        warn(f"the iframe of {host} is shown as a link ({why})")
        return (f'<span class="nb-note nb-embed-link">Embedded content of {escape(host)}, not loaded here: '
                f'<a href="{escape(src)}">{escape(src)}</a></span>')
    title = attributes.get("title") or f"Embedded content of {host}"
    allow = [feature for feature in re.split(r"[;,]\s*", attributes.get("allow", "").strip().lower())
             if feature.split()[:1] and feature.split()[0] in ALLOW]
    if "allowfullscreen" in attributes and "fullscreen" not in allow:
        allow.append("fullscreen")
    size = "".join(f' {name}="{attributes[name]}"' for name in ("width", "height")
                   if SIZE.match(attributes.get(name, "")))
    allow_attribute = f' allow="{escape("; ".join(allow))}"' if allow else ""
    return (f'<iframe src="{escape(src)}" title="{escape(title)}"{size} sandbox="{SANDBOX}"{allow_attribute} '
            'loading="lazy" referrerpolicy="strict-origin-when-cross-origin"></iframe>')


def _attributes(text: str) -> dict[str, str]:
    return {match.group(1).lower(): html.unescape(next((g for g in match.groups()[1:] if g is not None), ""))
            for match in ATTRIBUTE.finditer(text)}
