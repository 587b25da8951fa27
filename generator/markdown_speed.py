"""Speed patches of Python-Markdown and pymdownx: the same text, sooner.

Beside the fidelity rules of :mod:`generator.markdown`, which decide what a
text reads as, these only change how long the libraries take to read it: a
block queue, a fence pass and a tree order that keep three steps linear in a
document's length (:func:`linear_time`, issue 15), and passes over the whole
document that search only where they may change it (:func:`speed_up`). Each
stands in for a library method pinned in :mod:`generator.pinned`: where the
installed library's differs, the library's own runs.
tests/test_markdown_fast_paths.py compares each with what it stands for.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections import deque
from collections.abc import Callable
from functools import cache, partial

import markdown
from markdown import util
from markdown.blockparser import BlockParser
from markdown.postprocessors import RawHtmlPostprocessor
from markdown.preprocessors import NormalizeWhitespace, Preprocessor
from markdown.treeprocessors import UnescapeTreeprocessor
from markdown.util import ETX, STX

from generator import pinned


class BlockQueue(deque):
    """The block parser's list of blocks, as a deque.

    Block processors take blocks from the front of the list and put the rest
    of a block back there (``pop(0)``, ``insert(0, rest)``): on a list each
    moves every block after it, quadratic in the blocks of a document.
    """

    def pop(self, index: int = -1) -> str:
        if index == 0:
            return self.popleft()
        value = self[index]
        del self[index]
        return value


def _parse_chunk(parser: BlockParser, parent: etree.Element, text: str) -> None:
    """``BlockParser.parseChunk``, on a :class:`BlockQueue`."""
    parser.parseBlocks(parent, BlockQueue(text.split("\n\n")))


def _reassemble_fences(fences: Preprocessor, lines: list[str]) -> list[str]:
    """pymdownx.superfences' ``reassemble``, in one pass.

    Its own splices each highlighted block into the document with
    ``lines[:start] + [block] + lines[end:]``, copying every line once per
    code block: quadratic in a long post.
    """
    out, done = [], 0
    for block, start, end in sorted(fences.stack, key=lambda entry: entry[1]):
        out += lines[done:start]
        out.append(block)
        done = end
    fences.stack.clear()
    return out + lines[done:]


def linear_time(md: markdown.Markdown) -> None:
    """Work around three steps of Python-Markdown and pymdownx that are quadratic
    in the length of a document (issue 15; see benchmarks/bench_huge.py)."""
    if pinned.unchanged(BlockParser.parseChunk):
        md.parser.parseChunk = partial(_parse_chunk, md.parser)
    fences = md.preprocessors["fenced_code_block"]
    if pinned.unchanged(type(fences).reassemble):
        fences.reassemble = partial(_reassemble_fences, fences)
    # The inline pass finds each element with a tail by list(parent).index(child),
    # once per such element. Prettify gives every block a tail ("\n"), and smarty's
    # pass (6) is a second inline pass: prettify goes after it (5), not before (10).
    prettify = md.treeprocessors["prettify"]
    md.treeprocessors.deregister("prettify")
    md.treeprocessors.register(prettify, "prettify", 5)


# Spaces alone on a line, found from each newline; Python-Markdown's (?<=\n) +\n, the same
# matches, is tried at every character of the document.
BLANK_LINE_SPACES = re.compile(r"\n +(?=\n)")


def fewer_scans(md: markdown.Markdown) -> None:
    """Three of Python-Markdown's passes over a whole document, each searching only where it may
    change the text (tests/test_markdown_fast_paths.py compares each with the pass it stands for)."""
    # The last tree processor unescapes every text, tail and attribute of the tree by a regular
    # expression's sub; only those holding an escape's STX can change.
    unescape = md.treeprocessors["unescape"]
    if type(unescape) is UnescapeTreeprocessor and pinned.unchanged(UnescapeTreeprocessor.unescape):
        every = unescape.unescape
        unescape.unescape = lambda text: every(text) if STX in text else text
        if pinned.unchanged(UnescapeTreeprocessor.run):
            unescape.run = partial(unescape_tree, every)
    raw_html = md.postprocessors["raw_html"]
    if isinstance(raw_html, RawHtmlPostprocessor) and type(raw_html).run is RawHtmlPostprocessor.run \
            and pinned.unchanged(RawHtmlPostprocessor.run):
        raw_html.run = partial(put_back_raw_html, raw_html)
    whitespace = md.preprocessors["normalize_whitespace"]
    if type(whitespace) is NormalizeWhitespace and pinned.unchanged(NormalizeWhitespace.run):
        whitespace.run = partial(normalize_whitespace, md)


def unescape_tree(unescape: Callable[[str], str], root: etree.Element) -> None:
    """Python-Markdown's ``UnescapeTreeprocessor.run``: each text (but code's), tail and attribute
    value of the tree unescaped. It called ``unescape`` for each, and set each attribute again;
    here only a string holding an escape's STX is unescaped (most hold none), and set."""
    for element in root.iter():
        text = element.text
        if text and STX in text and element.tag != "code":
            element.text = unescape(text)
        tail = element.tail
        if tail and STX in tail:
            element.tail = unescape(tail)
        for key, value in element.items():     # items(), not attrib: that makes a dict for an element with none
            if value is not None and STX in value:
                element.set(key, unescape(value))


def put_back_raw_html(processor: RawHtmlPostprocessor, text: str) -> str:
    """Python-Markdown's ``RawHtmlPostprocessor.run``: the stashed HTML (each highlighted block
    among it) in the place of its placeholders, and of the placeholders that HTML holds; HTML
    without a placeholder's STX (most of it) is not searched for them."""
    stash = processor.md.htmlStash
    if not stash.html_counter:
        return text
    base_placeholder = util.HTML_PLACEHOLDER % r"([0-9]+)"
    pattern = re.compile(f"<p>{base_placeholder}</p>|{base_placeholder}")

    def substitute_match(m: re.Match[str]) -> str:
        if key := m.group(1):
            wrapped = True
        else:
            key = m.group(2)
            wrapped = False
        if (key := int(key)) >= stash.html_counter:
            return m.group(0)
        html = processor.stash_to_string(stash.rawHtmlBlocks[key])
        if wrapped and not processor.isblocklevel(html):
            html = f"<p>{html}</p>"
        return pattern.sub(substitute_match, html) if STX in html else html

    return pattern.sub(substitute_match, text)


def normalize_whitespace(md: markdown.Markdown, lines: list[str]) -> list[str]:
    """Python-Markdown's ``NormalizeWhitespace.run``, the spaces of blank lines found by
    :data:`BLANK_LINE_SPACES`."""
    source = "\n".join(lines)
    source = source.replace(STX, "").replace(ETX, "")
    source = source.replace("\r\n", "\n").replace("\r", "\n") + "\n\n"
    source = source.expandtabs(md.tab_length)
    return BLANK_LINE_SPACES.sub("\n", source).split("\n")


def speed_up(md: markdown.Markdown) -> None:
    """The passes of sitegen's converter that need not be the library's to give its text:
    whether a tag is a block's asked once per tag (it is looked up in a list of some fifty,
    block_level_elements, which the extensions only read once set up, and the serializer and
    tree processors ask of every element), and :func:`fewer_scans`."""
    md.is_block_level = cache(md.is_block_level)
    fewer_scans(md)
