"""Ids on a tutorial page: unique, and answering Jupyter's links too.

Each Markdown cell is rendered alone, so two cells may both have a
``#results`` heading or a footnote ``#fn:1``; the page needs each id once.
Ids are made unique in page order (a later one gets ``-1``, ``-2``...), and a
link inside the same cell follows its target's new id.

Jupyter gives a heading the id of its text with spaces as dashes
(``#NumPy-and-Matplotlib-examples``), and notebooks link to each other that
way; each heading keeps the site's own id and gains an empty anchor with
Jupyter's, unless that id is the same or already taken.
"""

from __future__ import annotations

import html
import re

# Ids the page's templates give (base.html, partials/header.html): never a cell's.
TEMPLATE_IDS = frozenset({"main", "nav-toggle"})

CELL_START = re.compile(r'(?=<div class="nb-cell [^"]*" id="nb-cell-\d+">)')
CELL_ID = re.compile(r'^<div class="nb-cell [^"]*" id="(nb-cell-\d+)">')
TAG = re.compile(r"<[a-zA-Z][a-zA-Z0-9-]*\b[^>]*>")
ID_ATTRIBUTE = re.compile(r"""(\sid\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""", re.I)
HREF_FRAGMENT = re.compile(r'(\shref=")#([^"]*)(")')
HEADING = re.compile(r"(<h[1-6]\b[^>]*>)(.*?)(</h[1-6]>)", re.S | re.I)


def jupyter_id(text: str) -> str:
    """The id Jupyter gives a heading with this (plain) text: spaces become dashes."""
    return text.strip().replace(" ", "-")


class PageIds:
    """The ids taken on one page, handed out in page order."""

    def __init__(self, reserved: set[str] | frozenset[str] = TEMPLATE_IDS):
        self.taken = set(reserved)

    def claim(self, wanted: str) -> str:
        """``wanted``, or ``wanted-N`` if it is taken; taken from now on."""
        candidate, n = wanted, 0
        while candidate in self.taken:
            n += 1
            candidate = f"{wanted}-{n}"
        self.taken.add(candidate)
        return candidate

    def alias(self, jupyter: str, own: str) -> str | None:
        """Jupyter's id for a heading whose id is ``own``, if it differs and is free."""
        if not jupyter or jupyter == own or jupyter in self.taken or re.search(r"\s", jupyter):
            return None
        self.taken.add(jupyter)
        return jupyter

    def fragment(self, fragment: str) -> str:
        """The cells of a page (``notebook/cells.html``) with unique ids and Jupyter's aliases."""
        cells = CELL_START.split(fragment)
        for cell in cells:
            own = CELL_ID.match(cell)
            if own:
                self.taken.add(own.group(1))
        return "".join(self._cell(cell) for cell in cells)

    def _cell(self, cell: str) -> str:
        own = CELL_ID.match(cell)
        head, cell = (cell[:own.end()], cell[own.end():]) if own else ("", cell)
        renamed: dict[str, str] = {}

        def unique(attribute: re.Match) -> str:
            value = html.unescape(next(g for g in attribute.groups()[1:] if g is not None))
            new = self.claim(value)
            if new != value:
                renamed.setdefault(value, new)
            return f'{attribute.group(1)}"{html.escape(new)}"'

        cell = TAG.sub(lambda tag: ID_ATTRIBUTE.sub(unique, tag.group(0)), cell)
        if renamed:
            cell = HREF_FRAGMENT.sub(lambda m: m.group(1) + "#" + html.escape(
                renamed.get(html.unescape(m.group(2)), html.unescape(m.group(2)))) + m.group(3), cell)
        return head + HEADING.sub(self._aliased, cell)

    def _aliased(self, heading: re.Match) -> str:
        own = ID_ATTRIBUTE.search(heading.group(1))
        if own is None:                 # a heading in an output, not one of the author's sections
            return heading.group(0)
        own_id = html.unescape(next(g for g in own.groups()[1:] if g is not None))
        text = html.unescape(re.sub(r"<[^>]*>", "", heading.group(2)))
        alias = self.alias(jupyter_id(text), own_id)
        if alias is None:
            return heading.group(0)
        return f'{heading.group(1)}<span id="{html.escape(alias)}"></span>{heading.group(2)}{heading.group(3)}'
