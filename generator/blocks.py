"""Python-Markdown's block processors, each tried only on a block that holds what it looks for.

The block parser asks every processor, in order, whether it takes the next
block, and most of them answer by searching the whole block with a regular
expression (a heading's ``#`` at a line's start, a quote's ``>``, a
definition's ``:``), although most blocks are paragraphs holding none of
those characters: a few percent of a post's conversion. Each expression
below needs one of a few strings to match (read off the expression by hand,
and only used while the installed processor's expression is that one); where
a block holds none of them, the processor's answer is known, no, and it is
given without the search. tests/test_markdown_fast_paths.py compares the
output with Python-Markdown's own loop.
"""

from __future__ import annotations

import re
from typing import Any

import markdown
from markdown.blockprocessors import (BlockQuoteProcessor, HashHeaderProcessor, HRProcessor, ReferenceProcessor,
                                      SetextHeaderProcessor)
from markdown.extensions import Extension
from markdown.extensions.abbr import AbbrBlockprocessor
from markdown.extensions.def_list import DefListProcessor
from markdown.extensions.footnotes import FootnoteBlockProcessor

# Processor class -> (the method that answers, the attribute holding its expression, the expression,
# strings one of which every match holds). A test answers False without a match; a run that finds
# no match puts the block back and answers False.
NEEDS: dict[type, tuple[str, str, str, tuple[str, ...]]] = {
    HashHeaderProcessor: ("test", "RE", r"(?:^|\n)(?P<level>#{1,6})(?P<header>(?:\\.|[^\\#]|#+(?=[^#\n]))*?)#*(?:\n|$)",
                          ("#",)),
    SetextHeaderProcessor: ("test", "RE", r"^.*?\n(?:=+|-+)[ ]*(\n|$)", ("\n=", "\n-")),
    HRProcessor: ("test", "SEARCH_RE", r"^[ ]{0,3}(?=(?P<atomicgroup>(-+[ ]{0,2}){3,}|(_+[ ]{0,2}){3,}|"
                                       r"(\*+[ ]{0,2}){3,}))(?P=atomicgroup)[ ]*$", ("-", "_", "*")),
    BlockQuoteProcessor: ("test", "RE", r"(^|\n)[ ]{0,3}>[ ]?(.*)", (">",)),
    DefListProcessor: ("test", "RE", r"(^|\n)[ ]{0,3}:[ ]{1,3}(.*?)(\n|$)", (":",)),
    FootnoteBlockProcessor: ("run", "RE", r"^[ ]{0,3}\[\^([^\]]*)\]:[ ]*(.*)$", ("[^",)),
    AbbrBlockprocessor: ("run", "RE", r"^[*]\[(?P<abbr>[^\\]*?)\][ ]?:[ ]*\n?[ ]*(?P<title>.*)$", ("*[",)),
    ReferenceProcessor: ("run", "RE", r"^[ ]{0,3}\[([^\[\]]*)\]:[ ]*(?:\n[ ]*)?([^\s]+)[ ]*(?:\n[ ]*)?"
                                      r'((["\'])(.*)\4[ ]*|\((.*)\)[ ]*)?$', ("]:",)),
}


def skipping(processor: Any) -> bool:
    """Make ``processor`` answer no without searching a block that lacks what it needs; whether it could."""
    entry = NEEDS.get(type(processor))
    if entry is None:
        return False
    method, attribute, expression, needs = entry
    compiled = getattr(processor, attribute, None)
    if getattr(compiled, "pattern", None) != expression:    # another version's expression: left alone
        return False
    answer = getattr(processor, method)
    if len(needs) == 1:
        need = needs[0]
        holds = lambda block: need in block      # noqa: E731 - one ``in``, the cheapest look
    else:
        holds = re.compile("|".join(map(re.escape, needs))).search
    if method == "test":
        processor.test = lambda parent, block: bool(holds(block)) and answer(parent, block)
    else:
        processor.run = lambda parent, blocks: bool(holds(blocks[0])) and answer(parent, blocks)
    return True


class SkippingBlocksExtension(Extension):
    """Makes the block processors of :data:`NEEDS` skip the blocks they cannot take (load last)."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        for processor in md.parser.blockprocessors:
            skipping(processor)
