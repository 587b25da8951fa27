"""kramdown's table of contents: the first list marked ``{:toc}`` becomes the outline.

Jekyll sites write ``* TOC`` / ``{:toc}`` under a post's title; kramdown replaces that list
with a nested list of the document's headings (same list type, ``id="markdown-toc"`` unless
the mark gave one, each link's id that id plus ``-`` plus the heading's). Only the first
marked list is replaced; later marks are dropped, as kramdown drops them. A heading with the
class ``no_toc`` is left out, and one of a level outside ``toc_levels`` (kramdown's option,
site.yaml ``markdown.toc_levels``). The entries nest as kramdown's ``generate_toc_tree`` nests them:
a heading goes under the nearest earlier one of a smaller level.
"""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as etree
from typing import Any

import markdown
from markdown.extensions.toc import remove_fnrefs
from markdown.treeprocessors import Treeprocessor

HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
ALL_LEVELS = (1, 2, 3, 4, 5, 6)
TOC_MARK = "toc"


def toc_levels(value: Any) -> list[int] | None:
    """kramdown's ``toc_levels`` (``2..3``, ``"2,3"`` or ``[2, 3]``) as heading levels; None if unset
    or unreadable. Read from _config.yml by the import and from a document's ``{::options}``."""
    if isinstance(value, list):
        parts = value
    elif isinstance(value, str) and re.fullmatch(r"\s*[1-6]\s*\.\.\s*[1-6]\s*", value):
        low, high = (int(part) for part in value.split(".."))
        parts = list(range(low, high + 1))
    elif isinstance(value, (str, int)) and not isinstance(value, bool):
        parts = str(value).split(",")
    else:
        return None
    try:
        levels = sorted({int(part) for part in parts})
    except (TypeError, ValueError):
        return None
    return levels if levels and all(1 <= level <= 6 for level in levels) else None


class KramdownToc(Treeprocessor):
    """Replace the first ``{:toc}`` list with the outline; runs after the heading ids are given.
    A document's ``{::options toc_levels="2" /}`` sets ``document_levels`` for itself alone."""

    def __init__(self, md: markdown.Markdown, levels: tuple[int, ...] = ALL_LEVELS):
        super().__init__(md)
        self.levels = levels
        self.document_levels: tuple[int, ...] | None = None

    def run(self, root: etree.Element) -> None:
        marked = [(parent, el) for parent in root.iter() for el in parent
                  if el.tag in ("ul", "ol") and TOC_MARK in el.attrib]
        if not marked:
            return
        for _, el in marked:
            del el.attrib[TOC_MARK]
        parent, first = marked[0]
        outline = _outline(first.tag, dict(first.attrib), _headings(root, self.document_levels or self.levels))
        parent[list(parent).index(first)] = outline
        outline.tail = first.tail


def _headings(root: etree.Element, levels: tuple[int, ...]) -> list[etree.Element]:
    return [el for el in root.iter() if el.tag in HEADINGS and int(el.tag[1]) in levels and el.get("id")
            and "no_toc" not in (el.get("class") or "").split()]


def _outline(kind: str, attrib: dict[str, str], headings: list[etree.Element]) -> etree.Element:
    """The nested list, built with kramdown's stack: each item under the last open item of a
    smaller level, an item's empty sublist removed when it closes."""
    outline = etree.Element(kind, attrib)
    outline.set("id", attrib.get("id") or "markdown-toc")
    outline.text = "\n"
    stack: list[tuple[int, etree.Element]] = []
    for heading in headings:
        level = int(heading.tag[1])
        item = etree.Element("li")
        link = etree.SubElement(item, "a", {"href": f"#{heading.get('id')}",
                                            "id": f"{outline.get('id')}-{heading.get('id')}"})
        _fill(link, heading)
        etree.SubElement(item, kind).text = "\n"
        item.tail = "\n"
        while stack and stack[-1][0] >= level:
            _close(stack.pop()[1])
        (stack[-1][1][-1] if stack else outline).append(item)
        stack.append((level, item))
    while stack:
        _close(stack.pop()[1])
    return outline


def _fill(link: etree.Element, heading: etree.Element) -> None:
    """The heading's content without footnote references, its links unwrapped (kramdown's
    ``fix_for_toc_entry``): a link inside a link is not HTML."""
    entry = remove_fnrefs(copy.deepcopy(heading))
    link.text = entry.text
    link.extend(entry)
    while inner := next(((parent, child) for parent in link.iter() for child in parent if child.tag == "a"), None):
        _unwrap(*inner)


def _unwrap(parent: etree.Element, child: etree.Element) -> None:
    """Put ``child``'s text and children in its place in ``parent``."""
    index = list(parent).index(child)
    kids = list(child)
    _append_text(parent, index, child.text)
    parent.remove(child)
    for offset, kid in enumerate(kids):
        parent.insert(index + offset, kid)
    _append_text(parent, index + len(kids), child.tail)


def _append_text(parent: etree.Element, index: int, text: str | None) -> None:
    """Add ``text`` where the child at ``index`` would start: the tail of the one before it."""
    if not text:
        return
    if index:
        parent[index - 1].tail = (parent[index - 1].tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def _close(item: etree.Element) -> None:
    if len(item[-1]) == 0:
        item.remove(item[-1])
