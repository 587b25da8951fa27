"""Make outputs that no author wrote safe to publish on the site's origin.

HTML goes through nh3 (ammonia): an allow-list of tags and attributes, so
headings, tables and styled spans survive while scripts, event handlers and
``javascript:`` URLs do not. SVG is XML, which nh3 does not read, so its few
ways to run code are removed here: script and foreignObject elements, ``on*``
attributes, and links or animations that point at anything but the picture
itself or the web.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

import defusedxml.ElementTree as SafeET
import nh3

HTML_ATTRIBUTES = {**{tag: set(names) for tag, names in nh3.ALLOWED_ATTRIBUTES.items()},
                   "*": {"class", "title", "lang", "dir"}}

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
SVG_FORBIDDEN = {"script", "foreignObject", "iframe", "embed", "object", "handler", "listener"}
SVG_ANIMATIONS = {"set", "animate", "animateTransform", "animateMotion"}
SAFE_URL = re.compile(r"^(#|https?://|data:image/(png|jpeg|gif|webp)[;,])", re.I)


# A Markdown cell is the author's page text: its headings and footnotes need ids (made unique
# on the page later), its tables their alignment, and notebooks often size or centre things.
MARKDOWN_ATTRIBUTES = {**HTML_ATTRIBUTES, "*": HTML_ATTRIBUTES["*"] | {"id", "align", "style"},
                       "a": HTML_ATTRIBUTES["a"] | {"name"}}
STYLE_PROPERTIES = {"text-align", "vertical-align", "color", "background-color", "font-weight",
                    "font-style", "font-size", "width", "max-width", "height", "float", "margin",
                    "margin-left", "margin-right", "display"}


def clean_html(html: str, ids: Callable[[str], str | None] | None = None) -> str:
    """Output HTML through the allow-list; ``ids`` gives the id an element keeps (None: it keeps none),
    for the ids an output's confined style sheet names (see ``styles``).

    Inline styles keep the properties a Markdown cell's keep, as Jupyter shows them: pandas
    right-aligns a frame's header row with one (``<tr style="text-align: right;">``)."""
    # No rel="noopener noreferrer" on every link: no target is allowed, and on an <a> whose
    # javascript: href was removed it makes invalid HTML (rel needs href).
    attributes = {**HTML_ATTRIBUTES, "*": HTML_ATTRIBUTES["*"] | {"style"}}
    if ids is None:
        return nh3.clean(html, attributes=attributes, filter_style_properties=STYLE_PROPERTIES, link_rel=None)
    return nh3.clean(html, attributes={**attributes, "*": attributes["*"] | {"id"}}, link_rel=None,
                     filter_style_properties=STYLE_PROPERTIES,
                     attribute_filter=lambda _element, name, value: ids(value) if name == "id" else value)


def clean_markdown(html: str) -> str:
    """A rendered Markdown cell through the same allow-list as outputs, with what text needs.

    No script, style sheet or event handler survives, and no URL but http(s),
    mailto and the like: ``javascript:`` and ``data:`` go (data images were
    made files before this).
    """
    return nh3.clean(html, attributes=MARKDOWN_ATTRIBUTES, filter_style_properties=STYLE_PROPERTIES,
                     link_rel=None)


def clean_svg(svg: str) -> bytes | None:
    """The SVG without anything that could run code; None if it is not well-formed SVG."""
    ET.register_namespace("", SVG)
    ET.register_namespace("xlink", XLINK)
    try:
        root = SafeET.fromstring(svg.encode("utf-8"))
    except (ET.ParseError, ValueError):
        return None
    if _local(root.tag) != "svg":
        return None
    _clean(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def _clean(element: ET.Element) -> None:
    for child in list(element):
        name = _local(child.tag) if isinstance(child.tag, str) else ""
        attribute = _local(child.get("attributeName", ""))
        if name in SVG_FORBIDDEN or (name in SVG_ANIMATIONS
                                     and (attribute == "href" or attribute.lower().startswith("on"))):
            element.remove(child)
        else:
            _clean(child)
    for key in list(element.attrib):
        value = re.sub(r"[\s\x00-\x1f]", "", element.attrib[key])
        if _local(key).lower().startswith("on") or (_local(key) == "href" and not SAFE_URL.match(value)):
            del element.attrib[key]


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1].split(":")[-1]
