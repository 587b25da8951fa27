"""Python-Markdown's block processors, each expression searched only in a block that may hold a match.

The block parser asks every processor, in order, whether it takes the next
block, and most of them answer by searching the whole block with a regular
expression (a heading's ``#`` at a line's start, a quote's ``>``, a
definition's ``: ``), although most blocks are paragraphs holding none of
those characters: a few percent of a post's conversion. Every match of each
expression below holds one of a few strings (read off the expression by
hand, and used only while the installed processor's expression is that one);
in a block holding none of them, the search finds nothing, and that is
answered without it. The tables' processor answers by splitting every block
of two lines or more into lines and cells, although a table's first line holds
a ``|`` (:data:`TEST_NEEDS`). The processors themselves are untouched, and
listed once (:class:`ListedRegistry`), not once per block.
tests/test_markdown_fast_paths.py compares the output with Python-Markdown's
own, and checks every match holds what the table says.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import markdown
from markdown import util
from markdown.blockprocessors import (BlockQuoteProcessor, HashHeaderProcessor, HRProcessor, ReferenceProcessor,
                                      SetextHeaderProcessor)
from markdown.extensions import Extension
from markdown.extensions.abbr import AbbrBlockprocessor
from markdown.extensions.admonition import AdmonitionProcessor
from markdown.extensions.def_list import DefListProcessor
from markdown.extensions.footnotes import FootnoteBlockProcessor
from markdown.extensions.tables import TableProcessor
from pymdownx.tabbed import TabbedProcessor

from generator import pinned

# Processor class -> (the attribute holding its expression, the expression, strings one of which every
# match holds).
NEEDS: dict[type, tuple[str, str, tuple[str, ...]]] = {
    # generator.markdown's: a space after the hashes, as kramdown's GFM input wants.
    HashHeaderProcessor: ("RE", r"(?:^|\n)(?P<level>#{1,6})[ \t]+(?=\S)"
                                r"(?P<header>(?:\\.|[^\\#]|#+(?=[^#\n]))*?)#*(?:\n|$)", ("#",)),
    SetextHeaderProcessor: ("RE", r"^.*?\n(?:=+|-+)[ ]*(\n|$)", ("\n=", "\n-")),
    # A rule is three runs of one mark at most two spaces apart: it holds two marks at most two spaces apart.
    HRProcessor: ("SEARCH_RE", r"^[ ]{0,3}(?=(?P<atomicgroup>(-+[ ]{0,2}){3,}|(_+[ ]{0,2}){3,}|"
                               r"(\*+[ ]{0,2}){3,}))(?P=atomicgroup)[ ]*$",
                   tuple(f"{mark}{gap}{mark}" for mark in "-_*" for gap in ("", " ", "  "))),
    BlockQuoteProcessor: ("RE", r"(^|\n)[ ]{0,3}>[ ]?(.*)", (">",)),
    DefListProcessor: ("RE", r"(^|\n)[ ]{0,3}:[ ]{1,3}(.*?)(\n|$)", (": ",)),
    AdmonitionProcessor: ("RE", r'(?:^|\n)!!! ?([\w\-]+(?: +[\w\-]+)*)(?: +"(.*?)")? *(?:\n|$)', ("!!!",)),
    FootnoteBlockProcessor: ("RE", r"^[ ]{0,3}\[\^([^\]]*)\]:[ ]*(.*)$", ("[^",)),
    AbbrBlockprocessor: ("RE", r"^[*]\[(?P<abbr>[^\\]*?)\][ ]?:[ ]*\n?[ ]*(?P<title>.*)$", ("*[",)),
    ReferenceProcessor: ("RE", r"^[ ]{0,3}\[([^\[\]]*)\]:[ ]*(?:\n[ ]*)?([^\s]+)[ ]*(?:\n[ ]*)?"
                               r'((["\'])(.*)\4[ ]*|\((.*)\)[ ]*)?$', ("]:",)),
    # pymdownx.tabbed's first line of a tab (``=== "Title"``), searched for in every block.
    TabbedProcessor: ("START", r'(?:^|\n)={3}(\+|\+!|!\+|!)? +"(.*?)" *(?:\n|$)', ("===",)),
}


# Processor class -> a string every block its ``test`` takes holds. A table's header row has two
# cells or a border, so a ``|``; used only while the installed ``test`` is the one read (generator.pinned).
TEST_NEEDS: dict[type, str] = {TableProcessor: "|"}


class Guarded:
    """A compiled expression whose ``search`` and ``match`` look for what every match holds first."""

    def __init__(self, compiled: re.Pattern, needs: tuple[str, ...]):
        self.compiled = compiled
        search, match = compiled.search, compiled.match
        # ``search`` and ``match`` as closures of the instance (asked of every block: one call, not three).
        if len(needs) == 1:
            need = needs[0]

            def guarded_search(text: str, *where: int) -> re.Match | None:
                return search(text, *where) if need in text else None

            def guarded_match(text: str, *where: int) -> re.Match | None:
                return match(text, *where) if need in text else None
        else:
            holds = re.compile("|".join(map(re.escape, needs))).search

            def guarded_search(text: str, *where: int) -> re.Match | None:
                return search(text, *where) if holds(text) else None

            def guarded_match(text: str, *where: int) -> re.Match | None:
                return match(text, *where) if holds(text) else None
        self.search, self.match = guarded_search, guarded_match

    def __getattr__(self, name: str) -> Any:       # finditer, sub, pattern...: the expression's own
        return getattr(self.compiled, name)


def guard(processor: Any) -> bool:
    """Give ``processor`` its expression :class:`Guarded`, or its ``test`` a look for what the
    block needs first (:data:`TEST_NEEDS`); whether it could."""
    if type(processor) in TEST_NEEDS:
        return _guard_test(processor, TEST_NEEDS[type(processor)])
    # A subclass keeping its parent's expression (generator.markdown's KramdownDefinitions) is guarded as it.
    entry = next((NEEDS[kind] for kind in type(processor).__mro__ if kind in NEEDS), None)
    if entry is None:
        return False
    attribute, expression, needs = entry
    compiled = getattr(processor, attribute, None)
    if not isinstance(compiled, re.Pattern) or compiled.pattern != expression:   # another version's
        return False
    setattr(processor, attribute, Guarded(compiled, needs))
    return True


def _guard_test(processor: Any, need: str) -> bool:
    if not pinned.unchanged(type(processor).test):
        return False
    test = processor.test

    def guarded_test(parent: Any, block: str) -> bool:
        return need in block and test(parent, block)

    processor.test = guarded_test
    return True


class ListedRegistry(util.Registry):
    """Python-Markdown's registry, its items listed once until one is registered or removed:
    the block parser walks its processors for every block, and the registry makes a new list
    of them each time."""

    _listed: list | None = None

    def __iter__(self) -> Iterator:
        if self._listed is None:
            self._listed = list(super().__iter__())
        return iter(self._listed)

    def register(self, item: Any, name: str, priority: float) -> None:
        self._listed = None
        super().register(item, name, priority)

    def deregister(self, name: str, strict: bool = True) -> None:
        self._listed = None
        super().deregister(name, strict)


class SkippingBlocksExtension(Extension):
    """Guards the expressions of the block processors of :data:`NEEDS` (load last); the
    processors listed once (:class:`ListedRegistry`)."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        for processor in md.parser.blockprocessors:
            guard(processor)
        if type(md.parser.blockprocessors) is util.Registry:
            md.parser.blockprocessors.__class__ = ListedRegistry
