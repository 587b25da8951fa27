"""Markdown to HTML, the way kramdown renders a Jekyll site.

Python-Markdown does the parsing; the extensions chosen here cover what
kramdown gives Jekyll authors (footnotes, attribute lists, tables, definition
lists, abbreviations, Markdown inside HTML, smart quotes, math, admonitions).
Our own small processors fill the gaps where Jekyll's kramdown (``input: GFM``)
reads the same text differently: where blocks end, tables without a header,
attribute lists before a block, ``{::options}``, header ids made with GFM's
rule (or kramdown's), so anchors into pages migrated from Jekyll keep working,
and inline ``$$...$$`` math, which kramdown accepts and arithmatex does not.
Liquid (``{% highlight %}`` and the rest) has run before: see liquid.py.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable
import xml.etree.ElementTree as etree
from dataclasses import dataclass
from functools import partial
from html import escape, unescape
from urllib.parse import quote

import markdown
from markdown.blockparser import BlockParser
from markdown.blockprocessors import BlockProcessor, HRProcessor
from markdown.extensions import Extension
from markdown.extensions.attr_list import AttrListTreeprocessor, get_attrs
from markdown.extensions.def_list import DefListProcessor
from markdown.extensions.footnotes import FootnotePostprocessor
from markdown.extensions.md_in_html import (HtmlBlockPreprocessor, HTMLExtractorExtra, MarkdownInHtmlProcessor,
                                            MarkdownInHTMLPostprocessor)
from markdown.extensions.smarty import SubstituteTextPattern
from markdown.extensions.toc import remove_fnrefs, render_inner_html
from markdown.inlinepatterns import (BACKTICK_RE, BacktickInlineProcessor, HtmlInlineProcessor, InlineProcessor,
                                     ReferenceInlineProcessor, SubstituteTagInlineProcessor)
from markdown.postprocessors import AndSubstitutePostprocessor, Postprocessor, RawHtmlPostprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor
from markdown import util
from markdown.util import ETX, STX, AtomicString
from pymdownx.highlight import HighlightExtension

from generator.blocks import SkippingBlocksExtension
from generator.diagrams import MERMAID_FENCE
from generator.headings import Heading
from generator.highlight import HIGHLIGHT_CLASS, CachedHighlight, ReachableHighlight
from generator.inline import SkippingInlineExtension
from generator.kramdown_quotes import KramdownQuotesExtension
from generator.kramdown_toc import ALL_LEVELS, HEADINGS, KramdownToc, toc_levels
from generator.markdown_speed import linear_time, speed_up
from generator.myst import Document, HeadingTargets, MystExtension
from generator.typography import TypographyExtension


@dataclass(frozen=True)
class Rendered:
    html: str
    toc: tuple[Heading, ...]
    warnings: tuple[tuple[int, str], ...] = ()    # (line, message): MyST that is not rendered


def kramdown_id(text: str) -> str:
    """The id kramdown's own ``auto_ids`` gives a header with this text.

    Leading characters up to the first letter go, then everything but ASCII
    letters, digits, spaces and dashes; spaces become dashes (each one, so
    two spaces give two dashes); the result is lower-cased.
    """
    text = re.sub(r"^[^a-zA-Z]+", "", text)
    text = re.sub(r"[^a-zA-Z0-9 -]", "", text)
    return text.replace(" ", "-").lower() or "section"


def gfm_id(text: str) -> str:
    """The id Jekyll's default input (kramdown's GFM parser) gives a header with this text.

    Lower-cased; everything but word characters, dashes, spaces and tabs goes;
    each space or tab becomes a dash: ``1. Graph Annotation`` -> ``1-graph-annotation``.
    A word character is Ruby's ``\\p{Word}`` (:func:`_ruby_word`): an emoji's variation
    selector (U+FE0F, a mark) stays, as in Jekyll's ids, and ``²`` goes.
    """
    text = text.lower()
    kept = re.sub(r"[^\w\- \t]", "", text) if text.isascii() else "".join(
        char for char in text if char in "- \t" or _ruby_word(char))
    return kept.replace(" ", "-").replace("\t", "-")


def _ruby_word(char: str) -> bool:
    """Whether Ruby's ``\\p{Word}`` (letters, marks, decimal and letter numbers, connector
    punctuation) holds ``char``; Python's ``\\w`` leaves marks out and takes other numbers in."""
    return unicodedata.category(char) in RUBY_WORD_CATEGORIES or char.isalpha()


RUBY_WORD_CATEGORIES = frozenset({"Mn", "Mc", "Me", "Nd", "Nl", "Pc"})


HEADER_ID_RULES = {"gfm": gfm_id, "kramdown": kramdown_id}
TAG = re.compile(r"<[^>]*>")


class HeaderIds(Treeprocessor):
    """Give every heading an id by the chosen rule (unless it has one) and record the outline.

    A repeated id gets ``-1``, ``-2``... by a count per id, as kramdown does
    (so the work stays linear in the number of headings). A heading inside a
    ``markdown="1"`` element gets kramdown's own id, counted apart: kramdown's
    GFM input gives its ids to the headings outside HTML elements only, and the
    converter gives the rest its own (``## Привет`` in a ``<div>`` is ``section``); a
    heading written as HTML there (``<h3>``) gets none.
    """

    def __init__(self, md: markdown.Markdown, rule: str, html_elements: list[etree.Element]):
        super().__init__(md)
        self.make_id = HEADER_ID_RULES[rule]
        self.html_elements = html_elements    # md_in_html's, this conversion's (_recording_elements)

    def run(self, root: etree.Element) -> None:
        counts: dict[Callable[[str], str], dict[str, int]] = {gfm_id: {}, kramdown_id: {}}
        raw = {id(element) for element in self.html_elements}     # written as HTML: kramdown gives no id
        in_html = {id(h) for element in self.html_elements for h in element.iter() if h.tag in HEADINGS}
        self.html_elements.clear()
        toc = []
        plain_kept = keeps_plain_text(self.md)
        for el in root.iter():
            if el.tag not in HEADINGS:
                continue
            # Tags out, whitespace kept: both rules turn each space into a dash, the one after a
            # leading tag too (kramdown's raw text of `<a id="x"></a> Contents` is " Contents").
            inner = inner_html(el, self.md, plain_kept)
            text = unescape(TAG.sub("", inner.strip())) if "<" in inner else unescape(inner).strip()
            title = text.strip()
            if not el.get("id") and id(el) not in raw:
                make_id = kramdown_id if id(el) in in_html else self.make_id
                seen = counts[make_id]
                base = make_id(text)
                count = seen[base] = seen.get(base, -1) + 1
                if base or count:   # an empty id is left out, as kramdown leaves it out
                    el.set("id", f"{base}-{count}" if count else base)
            if el.get("id"):
                toc.append(Heading(int(el.tag[1]), el.get("id"), title))
        self.md.toc_headings = tuple(toc)


def _recording_elements(processor: MarkdownInHtmlProcessor) -> list[etree.Element]:
    """The list to which md_in_html's ``processor`` adds each element it reads Markdown in."""
    made: list[etree.Element] = []
    parse = processor.parse_element_content

    def parse_element_content(element: etree.Element) -> None:
        made.append(element)
        parse(element)

    processor.parse_element_content = parse_element_content
    return made


SPACE_LINE = re.compile(r"(?<=\n)[ \t]+(?=\n)")


def _emptying_space_lines(processor: MarkdownInHtmlProcessor) -> None:
    """A line of spaces alone in a ``markdown="1"`` element's text made empty before it is read,
    as Python-Markdown's whitespace pass makes the page's. The indentation of a tag after the
    text (``text  \\n  <p markdown="1">``) is left there as such a line: it kept the paragraph's
    last line open, and the two spaces ending it became a ``<br>`` kramdown does not write."""
    parse = processor.parse_element_content

    def parse_element_content(element: etree.Element) -> None:
        if element.text and element.get("markdown") == "block":
            element.text = SPACE_LINE.sub("", element.text)
        parse(element)

    processor.parse_element_content = parse_element_content


PLAIN_TEXT_SPOILERS = re.compile("[&<>\x02\x03\ufdd4\ufdd6]")  # what escaping, a placeholder or a postprocessor changes
PLAIN_TEXT_POSTPROCESSORS = (RawHtmlPostprocessor, MarkdownInHTMLPostprocessor, AndSubstitutePostprocessor,
                             FootnotePostprocessor)


def keeps_plain_text(md: markdown.Markdown) -> bool:
    """Whether each of ``md``'s postprocessors changes only placeholders (leaves plain text as it is)."""
    # ItemMarksOut takes out only marks, HeadingTargets only a <div>, BlankIdsOut and AttributesOnce
    # only tags' attributes, RawBlocksUnwrapped only a <p> around a placeholder, KeptTabs only its
    # marks (KEPT_TAB, KEPT_SPACE, spoilers): none is in plain text.
    kept = (*PLAIN_TEXT_POSTPROCESSORS, ItemMarksOut, HeadingTargets, BlankIdsOut, AttributesOnce,
            RawBlocksUnwrapped, KeptTabs)
    return all(type(p) in kept for p in md.postprocessors)


def inner_html(el: etree.Element, md: markdown.Markdown, plain_kept: bool | None = None) -> str:
    """toc's ``render_inner_html`` of ``el`` without its footnote references. A heading of plain
    text (no child, nothing to escape, no placeholder), most of them, is its own text: serialized,
    unescaped and run through postprocessors that change only placeholders (``plain_kept``, by
    :func:`keeps_plain_text` if not given), it comes back as it was."""
    if plain_kept is None:
        plain_kept = keeps_plain_text(md)
    if plain_kept and len(el) == 0 and not PLAIN_TEXT_SPOILERS.search(el.text or ""):
        return (el.text or "").strip()
    return render_inner_html(remove_fnrefs(el), md)


class InlineMath(InlineProcessor):
    """kramdown's inline ``$$ x $$``, passed through as ``\\( x \\)`` for MathJax/KaTeX."""

    def handleMatch(self, m: re.Match, data: str):
        span = etree.Element("span", {"class": "arithmatex"})
        span.text = AtomicString(f"\\({m.group(1).strip()}\\)")
        return span, m.start(0), m.end(0)


class Strikethrough(InlineProcessor):
    """GFM's ``~~struck~~``, by kramdown-parser-gfm's own expression (pymdownx.tilde's
    emphasis-like rules pair the marks otherwise in text such as ``~~ a~~, b~~``)."""

    def handleMatch(self, m: re.Match, data: str):
        element = etree.Element("del")
        element.text = m.group(1)
        return element, m.start(0), m.end(0)


# kramdown's span HTML (parser/html.rb: HTML_TAG_RE, HTML_TAG_CLOSE_RE): a name as XML has it,
# attributes each a name with, or without, a value (quoted, or unquoted as HTML has it, which
# kramdown narrows to a word: Jupyter's Markdown takes <img src=a/b.png>). Anything else in
# angle brackets (``Dictionary<uint8, uint16>``, ``List<T?>``) is text, escaped; and ``<x>>``
# is left to the angled quotes (``<<x>>``), as smarty's own pattern leaves it.
XML_NAME = r"[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?"
HTML_SPAN = (rf"(<{XML_NAME}(?:\s+{XML_NAME}(?:\s*=\s*(?:[^\s\"'=<>`]+|\"[^\"]*\"|'[^']*'))?)*\s*/?>"
             rf"|</{XML_NAME}\s*>|<!--(?:(?!<!--|-->).)*-->)(?!>)")


# kramdown's HTML_CONTENT_MODEL_SPAN and HTML_CONTENT_MODEL_BLOCK (parser/html.rb): the tags
# whose content it reads as Markdown; any other tag's (``u``, ``code``, ``kbd``, unknown ones) is raw.
KRAMDOWN_PARSED_TAGS = frozenset("""a abbr acronym b bdo big button cite caption del dfn dt em h1 h2 h3 h4 h5
    h6 i ins label legend optgroup p q rb rbc rp rt rtc ruby select small span strong sub sup th tt address
    applet article aside blockquote body dd details div dl fieldset figure figcaption footer form header hgroup
    iframe li main map menu nav noscript object section summary td br img input hr area base col command
    embed keygen link meta param source track wbr""".split())
RAW_SPAN = (rf"\\.|(`+)(?:.*?[^`])?\1(?!`)"     # escapes and code spans, which kramdown reads before a tag in them
            rf"|(?<!<)<({XML_NAME})((?:\s+{XML_NAME}(?:\s*=\s*(?:[^\s\"'=<>`]+|\"[^\"]*\"|'[^']*'))?)*)\s*>(?!>)")
LONE_AMPERSAND = re.compile(r"&(?!#?\w+;)")


class RawSpanHtml(InlineProcessor):
    """A tag whose content kramdown reads as raw text (``<u>It's</u>``, an unknown tag's
    ``<source-file>--force</source-file>``), with that content: its text escaped, its tags kept,
    no Markdown, quotes or dashes in it. A tag left open keeps the rest of the text raw and is
    closed at its end, as kramdown closes it (``a <NAME> b``). Runs before code spans and
    links, as kramdown's scanner meets the tag before what is inside it. ``<code>``, ``<kbd>``,
    ``<script>``... are :class:`RawContent`'s, kept as written."""

    def handleMatch(self, m: re.Match, data: str):
        name = m.group(2)
        if name is None or name.lower() in KRAMDOWN_PARSED_TAGS or name.lower() in KEPT_AS_WRITTEN \
                or "markdown=" in m.group(3):
            return None, None, None
        close = re.compile(rf"</{re.escape(name)}\s*>", re.I).search(data, m.end())
        content = data[m.end():close.start() if close else len(data)]
        pieces = re.split(HTML_SPAN, content)
        raw = "".join(piece if index % 2 else LONE_AMPERSAND.sub("&amp;", piece).replace("<", "&lt;").replace(">", "&gt;")
                      for index, piece in enumerate(pieces))
        html = f"{m.group(0)}{raw}</{name}>"
        return self.md.htmlStash.store(html), m.start(), close.end() if close else len(data)


# kramdown's HTML_BLOCK_ELEMENTS (parser/html.rb): the tags it shows as text where they open in a
# paragraph's text (kramdown/html.rb: "Found block HTML tag ... in span-level text").
KRAMDOWN_BLOCK_TAGS = frozenset("""address article aside applet body blockquote caption col colgroup dd div dl
    dt fieldset figcaption footer form h1 h2 h3 h4 h5 h6 header hgroup hr html head iframe legend menu li main
    map nav ol optgroup p pre section summary table tbody td th thead tfoot tr ul""".split())
BLOCK_TAG_OPENING = re.compile(r"<([A-Za-z][\w.:-]*)")


class KramdownSpanHtml(HtmlInlineProcessor):
    """Span HTML, where the opening tag of a block element (``text <p class="credit">``) is
    text, as kramdown shows it; passed on, it made a paragraph inside the paragraph. Its
    closing tag then has no opening one, and :class:`StrayClosingTags` makes it text too."""

    def handleMatch(self, m: re.Match, data: str):
        opening = BLOCK_TAG_OPENING.match(m.group(1))
        if opening and opening.group(1).lower() in KRAMDOWN_BLOCK_TAGS:
            return self.md.htmlStash.store(escape(m.group(1), quote=False)), m.start(0), m.end(0)
        return super().handleMatch(m, data)


# One tag stashed by the span HTML pattern: (closing slash, name, self-closing slash).
SPAN_TAG = re.compile(rf"<(/?)({XML_NAME})(?:\s[^>]*?)?\s*(/?)>\Z", re.S)


class StrayClosingTags(Treeprocessor):
    """A closing tag with no opening one before it in its paragraph (``</body></html>`` at a
    post's end, ``</span>`` once too often) is text, as kramdown shows it (parser/html.rb:
    "invalidly used HTML closing tag"); passed on as HTML, the browser dropped it unseen.
    Runs after the inline pass, over the tags its span HTML pattern stashed."""

    def run(self, root: etree.Element) -> None:
        # Only a stashed closing tag (``</...``) may be stray: a document with none is left as it is.
        if any(isinstance(html, str) and html.startswith("</") for html in self.md.htmlStash.rawHtmlBlocks):
            self.every_block(root)

    def every_block(self, root: etree.Element) -> None:
        """The closing tags of each block's inline content without an opening one made text."""
        for el in root.iter():
            if not self.md.is_block_level(el.tag) or el is root:
                continue
            opened: Counter = Counter()
            for text in self._inline_texts(el):
                for placeholder in util.HTML_PLACEHOLDER_RE.finditer(text):
                    self._read(int(placeholder.group(1)), opened)

    def _inline_texts(self, el: etree.Element):
        """The texts of ``el``'s own inline content, in order (not of the blocks in it)."""
        yield el.text or ""
        for child in el:
            if not self.md.is_block_level(child.tag):
                yield from self._inline_texts(child)
            yield child.tail or ""

    def _read(self, index: int, opened: Counter) -> None:
        stash = self.md.htmlStash.rawHtmlBlocks
        tag = SPAN_TAG.match(stash[index]) if isinstance(stash[index], str) else None
        if tag is None or tag.group(3):
            return
        closing, name = tag.group(1), tag.group(2).lower()
        if not closing:
            opened[name] += 1
        elif opened[name]:
            opened[name] -= 1
        else:
            stash[index] = escape(stash[index], quote=False)


class KramdownCodeSpan(BacktickInlineProcessor):
    """A code span as kramdown reads it (parser/kramdown/codespan.rb): between single backticks
    its text is kept as written (`` `a ` `` keeps its space); between longer runs one space on
    either side goes. Python-Markdown strips all of them. A single backtick with white space
    (or the text's start) before it and white space after it is text, as in ``a ` b``."""

    def handleMatch(self, m: re.Match, data: str):
        begin = m.start(0)
        raw_end = _raw_element_around(data, begin)
        if raw_end is not None:      # a backtick in ``<code>`x`</code>``: the element's, kept (RawContent)
            return None, begin, raw_end
        if (not m.group(1) and (begin == 0 or data[begin - 1].isspace())
                and data[begin + 1:begin + 2].isspace()):
            return None, begin, begin + 1
        element, begin, end = super().handleMatch(m, data)
        if isinstance(element, etree.Element):
            start, close = self.find_code_spans(begin, data)
            code = data[start:close]
            if start - begin > 1:
                code = code[code.startswith(" "):len(code) - code.endswith(" ")]
            element.text = AtomicString(util.code_escape(code))
        return element, begin, end

    def find_code_spans(self, start: int, text: str) -> tuple[int, int | None]:
        """Where the span's code starts and ends: kramdown closes it at the first run of as many
        backticks as opened it, even within a longer run (a single backtick's span is closed by the
        first backtick of a double one, as calcite's history writes it); Python-Markdown looked for a
        run of exactly as many."""
        ticks = TICKS.match(text, start).end() - start     # counted in place: not a copy of the rest
        close = text.find("`" * ticks, start + ticks)
        return start + ticks, (close if close >= 0 else None)


def _code_spans_as_written(pattern: InlineProcessor, text: str) -> str:
    """``text`` with each code span's placeholder as its source, backticks and all."""
    def written(m: re.Match) -> str:
        node = pattern.md.treeprocessors["inline"].stashed_nodes.get(m.group(1))
        if isinstance(node, etree.Element) and node.tag == "code":
            return f"`{unescape(node.text or '')}`"
        return m.group(0)

    return util.INLINE_PLACEHOLDER_RE.sub(written, text) if STX in text else text


def _with_code_spans(pattern: ReferenceInlineProcessor, evaluate: Callable) -> Callable:
    """``pattern``'s ``evalId`` that reads a code span in a link's label as written, backticks
    and all, as kramdown does: ``[`COPY`][]`` is a reference to ``[`COPY`]: ...``. Python-Markdown
    read the code span first, so the label held its placeholder and matched no definition."""
    def evalId(data: str, index: int, text: str):
        label, end, handled = evaluate(data, index, text)
        if label is not None:
            label = _code_spans_as_written(pattern, label).lower()
        return label, end, handled

    return evalId


def _alt_with_code_spans(pattern: InlineProcessor) -> Callable:
    """``pattern``'s ``unescape``, which gives an image its alt text, keeping a code span's
    backticks as kramdown's alt text keeps them: ``![a `x` b](/i.png)`` has ``a `x` b``."""
    stashed_text = pattern.unescape
    return lambda text: stashed_text(_code_spans_as_written(pattern, text))


def _undefined_as_text(handle: Callable) -> Callable:
    """A reference pattern's ``handleMatch`` after which an undefined label leaves its ``[`` as
    text and the search goes on right after it, as kramdown's does: ``[[Feature #1]]`` links its
    inner ``[Feature #1]``. Python-Markdown skipped the whole bracketed span."""
    def handleMatch(m: re.Match, data: str):
        node, start, end = handle(m, data)
        return (node, start, end) if node is not None else (None, None, None)

    return handleMatch


class LinkTitlesAfterSpace(Extension):
    """A link's quoted title only after a space, as kramdown reads one: ``(https://x.org/?q="a+b")``
    is all URL, where Python-Markdown took ``a+b`` for the title and cut the URL short. Wraps
    the link patterns' ``getLink`` as installed (load after :class:`SkippingInlineExtension`)."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        for name in ("link", "image_link"):
            pattern = md.inlinePatterns[name]
            pattern.getLink = _escaped_parens_counted(pattern, _title_after_space(pattern, pattern.getLink))


def _title_after_space(pattern: InlineProcessor, get_link: Callable) -> Callable:
    def getLink(data: str, index: int):
        href, title, end, handled = get_link(data, index)
        if handled and title is not None and not TITLE_OPENING.search(data, index, end):
            href, title = pattern.unescape(data[index + 1:end - 1]).strip(), None     # inside the ( )
        return href, title, end, handled

    return getLink


TITLE_OPENING = re.compile(r"\s[\"'(]")


def _escaped_parens_counted(pattern: InlineProcessor, get_link: Callable) -> Callable:
    """``pattern``'s ``getLink`` that, where Python-Markdown finds no end to a link's URL,
    counts a backslashed paren as a paren and keeps its backslash, as kramdown does:
    ``[a](https://x.org/A_(b\\))`` links to ``https://x.org/A_(b\\)``. Python-Markdown read the
    escape first (a stashed ``STX 41 ETX``), so the parens did not pair and the link was text."""
    def written(token: re.Match) -> str:
        """The token as written: a paren, a white space, an escaped paren; "" for another placeholder."""
        if token.group(1) is None:
            return token.group(0)
        node = pattern.md.treeprocessors["inline"].stashed_nodes.get(token.group(1))
        return ESCAPED_PARENS.get(node, "") if isinstance(node, str) else ""

    def getLink(data: str, index: int):
        found = get_link(data, index)
        if found[3]:
            return found
        depth, parts, at = 0, [], index + 1
        for token in URL_TOKEN.finditer(data, index):
            char = written(token)
            if char.isspace():
                break
            if not char:
                continue
            depth += 1 if char.endswith("(") else -1
            if depth == 0:
                return ("".join(parts) + data[at:token.start()], None, token.end(), True) if parts else found
            if len(char) == 2:
                parts += [data[at:token.start()], char]
                at = token.end()
        return found

    return getLink


ESCAPED_PARENS = {f"{STX}{ord(char)}{ETX}": "\\" + char for char in "()"}
URL_TOKEN = re.compile(r"[()\s]|" + util.INLINE_PLACEHOLDER % r"([0-9]+)")


class RawContent(HtmlInlineProcessor):
    """An inline element whose content kramdown keeps as written (its ``HTML_CONTENT_MODEL_RAW``:
    ``<script>``, ``<style>``, ``<code>``, ``<kbd>``...), kept whole, as raw HTML.

    Python-Markdown's inline HTML pattern keeps only the tags, so the text
    between them went through emphasis, code spans and smart quotes (``"a"``
    became ``&ldquo;a&rdquo;`` in JavaScript, ``<code>``x``</code>`` lost its
    backticks). A code span that opens first keeps its text, as kramdown reads
    left to right: :class:`KramdownCodeSpan` steps over such an element.
    """

    def handleMatch(self, m: re.Match, data: str):
        return self.md.htmlStash.store(m.group(0)), m.start(0), m.end(0)


KEPT_AS_WRITTEN = ("script", "style", "math", "option", "textarea", "pre", "code", "kbd", "samp", "var")
RAW_CONTENT = re.compile(rf"(?is)<({'|'.join(KEPT_AS_WRITTEN)})\b[^>]*>.*?</\1\s*>")


TICKS = re.compile("`*")     # the run of backticks (or none) where a code span opens


def _raw_element_around(data: str, at: int) -> int | None:
    """The end of the raw-content element of ``data`` that opens before ``at`` and ends after it."""
    if data.find("<", 0, at) < 0:
        return None
    for start, end in _raw_elements(data):
        if start >= at:
            return None
        if end > at:
            return end
    return None


@functools.lru_cache(maxsize=8)     # asked once for each code span of one text
def _raw_elements(data: str) -> tuple[tuple[int, int], ...]:
    """Where ``data``'s raw-content elements are, read left to right as kramdown reads: an
    element that opens inside a code span (```<code>``) is the span's text, and a code span
    that opens inside an element the element's."""
    found, at = [], 0
    while (element := RAW_CONTENT.search(data, at)) is not None:
        tick = OPENING_TICKS.search(data, at, element.start())
        if tick is None:
            found.append(element.span())
            at = element.end()
            continue
        closing = re.compile(f"(?<!`){tick.group(0)}(?!`)").search(data, tick.end())
        at = closing.end() if closing else tick.end()     # ticks without a pair are text
    return tuple(found)


OPENING_TICKS = re.compile(r"(?<![\\`])`+")


# An attribute list opens with ``{:`` and no ``:`` or ``/`` after it: ``{::nomarkdown}`` and ``{:/}``
# are kramdown's extension tags (its IAL_BLOCK: ``\{:(?!:|\/)``), text where one is left unclosed.
IAL_START = r"\{:(?![:/])"


class AttributeListDefinitions(Preprocessor):
    """kramdown's named attribute lists: ``{:center: style="text-align: center"}``
    defines ``center``, and ``{:center}`` (or ``{: center .x}``) later uses it.

    Definitions are removed; uses are expanded into plain attribute lists,
    which the attr_list extension then applies.
    """

    DEFINITION = re.compile(r"^\{:([A-Za-z][\w-]*):\s*(.*?)\s*\}\s*$")
    USE = re.compile(IAL_START + r"([^}\n]*)\}")

    def run(self, lines: list[str]) -> list[str]:
        names = {}
        kept = []
        for line in lines:
            definition = self.DEFINITION.match(line)
            if definition:
                names[definition.group(1)] = definition.group(2)
            else:
                kept.append(line)

        def expand(m: re.Match) -> str:
            words = [names.get(word, word) for word in m.group(1).split()]
            return "{: " + " ".join(words) + "}"

        if names:
            kept = [self.USE.sub(expand, line) if "{:" in line else line for line in kept]
        return _move_leading_block_ials(kept)


STANDALONE_IAL = re.compile("^" + IAL_START + r"[^}\n]*\}\s*$")
NOT_A_PARAGRAPH = re.compile(r"^(\s{4}|\s*([#>|<*+-]|\d+\.|```|~~~|!!!|\{:))")


def _move_leading_block_ials(lines: list[str]) -> list[str]:
    """Move an attribute list written *before* a paragraph to its last line.

    kramdown applies a block attribute list on the line before a block to
    that block, blank lines between them or not (livy's ``{: #v0-8-0-incubating}`` between
    blank lines); Python-Markdown's attr_list only looks at the block's last line.
    """
    out = list(lines)
    i = 0
    while i < len(out) - 1:
        line = out[i]
        following = i + 1
        if STANDALONE_IAL.match(line) and (i == 0 or not out[i - 1].strip()):
            while following < len(out) - 1 and not out[following].strip():
                following += 1
        if (STANDALONE_IAL.match(line) and (i == 0 or not out[i - 1].strip())
                and out[following].strip() and not NOT_A_PARAGRAPH.match(out[following])):
            end = following
            while end + 1 < len(out) and out[end + 1].strip():
                end += 1
            leading = out.pop(i).strip()
            end -= 1
            if STANDALONE_IAL.match(out[end]):  # attributes on both sides: merge them
                out[end] = leading[:-1] + " " + out[end].strip()[2:].lstrip(":")
            else:
                out.insert(end + 1, leading)
            continue
        i += 1
    return out


class KramdownBlocks(Preprocessor):
    """Split blocks where kramdown's GFM parser splits them, for Python-Markdown to see.

    kramdown (Jekyll's default, ``input: GFM``) ends a paragraph at a line
    that starts a list, a fence, a block quote or an HTML block, and right
    after a block attribute list (``{: style="..."}``), which belongs to the
    paragraph it follows. Python-Markdown only ends a paragraph at a blank
    line, so the blank lines kramdown implies are written in. Tables led by
    ``|`` are rewritten into the form Python-Markdown reads (see
    :func:`_kramdown_table`), and list items re-indented from kramdown's rule
    to Python-Markdown's (see :func:`_kramdown_lists`). Tabs are expanded first, to
    columns of four, as kramdown reads them and as Python-Markdown would expand them after:
    a tab-indented line of a list item is then at the item's column, as in kramdown. A comment
    or ``<pre>`` opening a block is kramdown's HTML block to its end tag: stashed whole, its lines
    are no table, list or code.

    ``jupyter``: a notebook's Markdown, which Jupyter reads as GFM: a paragraph of ``|`` lines
    with no delimiter row is text there, and indented code ends at an unindented line.
    """

    jupyter = False

    def run(self, lines: list[str]) -> list[str]:
        lines = _tabs_expanded(lines, self.md.tab_length)
        try:
            return self.blocks(_definitions_indented(lines))
        except ListsTooDeep:
            raise MarkdownProblem(f"lists nested more than {MAX_LIST_NESTING} deep: "
                                  "flatten them", _most_indented_item(lines)) from None

    def blocks(self, lines: list[str], depth: int = 0) -> list[str]:
        """``lines`` split and their lists re-indented, each item's content read again, as
        ``blocks`` of its own: one level of Python's stack per level of lists, so bounded."""
        if depth > MAX_LIST_NESTING:
            raise ListsTooDeep
        return _kramdown_lists(self.split(lines, depth), partial(self.item_blocks, depth=depth + 1))

    def item_blocks(self, lines: list[str], depth: int) -> list[str]:
        """A list item's content read as :meth:`blocks`, its ``markdown="1"`` elements taken out
        here, at the content's own column: md_in_html reads the page's HTML blocks only up to
        three spaces in, and kramdown keeps such an element (``<details markdown="1">`` two
        spaces in, under ``- item``) inside the item. Each is left as a :data:`RAW_MARK`, which
        ``normalize_whitespace`` keeps."""
        inner = self.blocks(lines, depth)
        if not any(MARKDOWN_HTML.match(line) for line in inner):
            return inner
        if "fenced_code_block" in self.md.preprocessors:
            inner = self.fences_in_elements(inner)
        out: list[str] = []
        for line in HtmlBlocks(self.md).run(inner):
            if STASHED_BLOCK.match(line) and out and out[-1]:
                out.append("")    # md_in_html writes in the blank line only where no spaces led the tag
            out.append(STASHED_BLOCK.sub(lambda m: RAW_MARK % int(m.group(1)), line))
        return out

    def fences_in_elements(self, lines: list[str]) -> list[str]:
        """The fences inside each ``markdown="1"`` element (to its end tag at its indent) read
        by superfences now, before the element is taken out of its reach; the item's other
        fences are left to it: read twice, superfences takes its own mark for text."""
        fenced = self.md.preprocessors["fenced_code_block"]
        out: list[str] = []
        i = 0
        while i < len(lines):
            line = lines[i]
            out.append(line)
            i += 1
            if MARKDOWN_HTML.match(line):
                end = line[:len(line) - len(line.lstrip())] + "</" + TAG_NAME.match(line.lstrip()).group(1) + ">"
                close = next((j for j in range(i, len(lines)) if lines[j].rstrip() == end), len(lines))
                out += fenced.run(lines[i:close])
                i = close
        return out

    def split(self, lines: list[str], depth: int = 0) -> list[str]:
        out: list[str] = []
        quote: list[str] = []         # the lines of a block quote, read as blocks of their own
        block: str | None = None      # what the previous line belongs to: "para", "table", ...
        fence: str | None = None      # the opening of the fenced code we are in
        listed = False                # whether an indented line may be a list item's (its column unknown)
        item_fence = False            # whether that fence may be an item's
        table: list[str] = []
        piped: int | None = None      # where a paragraph starts whose lines all hold a cell's '|' so far
        ial_above = False             # the line above is a block's attribute list: no table starts here
        tag_indented = False          # the indented block starts with a tag (see below)
        raw_end: str | None = None    # in a comment or <pre> that opened a block: kramdown's HTML block, to its end
        raw: list[str] = []           # its lines so far
        setext_at = -1                # where the line is in ``out`` that a setext underline makes a heading
        code_gap: list[int] | None = None     # since indented code: where blank lines with spaces are
        code_at: int | None = None    # where in ``out`` the code block (fenced or indented) now read starts
        below: int | None = None      # the line is right below a code block starting there
        for line in lines:
            if table and not TABLE_ROW.match(line):
                out += _kramdown_table(table)
                table = []
            if quote and not BLOCK_QUOTE.match(line):
                out += self.quoted(quote, depth)
                quote = []
            if fence is not None:
                out.append(line)
                if _closes_fence(fence, line, any_indent=item_fence):
                    fence = None
                    if block == "fence":   # text right after the fence is a new paragraph
                        out.append("")
                        block, below = None, code_at
                continue
            if raw_end is None and (opening := RAW_BLOCK_OPENING.match(line)) \
                    and (block is None or out and ATX_HEADING.match(out[-1])):
                raw_end = "-->" if opening.group(1) == "!--" else f"</{opening.group(1).lower()}>"
            if raw_end is not None:      # its lines are its text, not paragraphs, tables, lists or code
                raw.append(line)
                end = line.lower().find(raw_end, len(line) - len(line.lstrip()) + 4 if len(raw) == 1 else 0)
                if end >= 0:             # stashed whole: the list reading after this one leaves it alone
                    end += len(raw_end)
                    raw[-1] = line[:end]
                    self.md.htmlStash.store("\n".join(raw))
                    out += ["", RAW_MARK % (self.md.htmlStash.html_counter - 1), ""]
                    out += [line[end:].strip()] if line[end:].strip() else []
                    raw_end, raw, block = None, [], None
                continue
            if not line.strip():
                if block == "code" and not listed:
                    code_gap = []
                if code_gap is not None and line:
                    code_gap.append(len(out))
                if piped is not None and block == "para":
                    out[piped:] = _kramdown_table(out[piped:])
                block, piped, ial_above, below = None, None, False, None
                out.append(line)
                continue
            if block == "code" and not listed and not line.startswith(("    ", "\t")):
                below = code_at
            if below is not None and not self.jupyter and STANDALONE_IAL.match(line.lstrip()):
                # the attribute list right below a code block is the block's (kramdown's, after any
                # block): written above the block, where BlockIals gives it to the code's outer div;
                # an item's is left right below its fence, for the item's own reading (item_blocks)
                if listed and line[0] in " \t":
                    out[-1:] = [line] if out and not out[-1] else [*out[-1:], line]
                else:
                    out[below:below] = [line.strip(), ""]
                block, below = None, None
                continue
            below = None
            if code_gap and not listed and line.startswith("    "):
                for at in code_gap:      # the code runs on: kramdown keeps a blank line's spaces past its indentation
                    out[at] = "    " + KEPT_SPACE * len(out[at].removeprefix("    "))
            code_gap = None
            if block == "code" and not listed and not self.jupyter and not line.startswith(("    ", "\t")) \
                    and not LAZY_CODE_END.match(line) and not tag_indented:
                out[-1] += " " + line     # kramdown's lazy line: indented code runs on, the line joined by a space
                continue
            if COMMENT_LINE.match(line):   # spaces after it would be read as an empty code block's
                line = line.rstrip()
            if line.rstrip() == "^":     # kramdown's end-of-block marker: what follows is a new block
                out += ["", END_OF_BLOCK, ""]
                block = None
                continue
            if MARKDOWN_HTML.match(line) or HTML_CLOSE.match(line):
                out.append(line)   # a tag line around Markdown (parse_block_html): blocks start after it
                block = None
                continue
            if block is None and AttributeListDefinitions.DEFINITION.match(line):
                out.append(line)   # removed later; what follows still starts a block
                continue
            starts = _block_start(line)
            boundary, ial_above = not ial_above, False     # kramdown's after_block_boundary?, for tables
            if starts == "table" and not boundary:
                starts = None
            if starts == "list" or not line.startswith((" ", "\t")):
                listed = starts == "list"
            if block == "para" and (starts == "table" or _cell_pipe(line)) and STANDALONE_IAL.match(out[-1]) \
                    and (len(out) < 2 or not out[-2].strip()):
                out.append("")      # a table's attribute list, on the line above it: kramdown's block boundary
                block = None
            first = block is None
            if first:
                block = starts or "para"
                # a paragraph's first line after a blank one, not a heading's: a setext heading's text
                setext_at = -1 if ATX_HEADING.match(out[-1] if out else "") else len(out)
                # an indented tag: an HTML block's inside, which this reading does not follow (jekyll's
                # docs' <table> of filters), not kramdown's code, so no lazy line joins it
                tag_indented = block == "code" and line.lstrip().startswith("<")
            elif block == "para" and starts in ("list", "fence", "quote", "html"):
                out.append("")
                block = starts
            elif block == "para" and starts == "code" and STANDALONE_IAL.match(out[-1]) \
                    and (len(out) < 2 or not out[-2].strip()):
                out.append("")      # the code block's attribute list, on the line above it (Leaflet's {: .css})
                block = starts
            if block == "table" and TABLE_ROW.match(line):
                table.append(line)
                continue
            if block == "quote" and BLOCK_QUOTE.match(line):
                quote.append(line)
                continue
            opening = FENCE.match(line)
            if opening and block in ("fence", "list"):
                fence, item_fence = opening.group(1), listed
            if block == "para" and not self.jupyter:     # kramdown's table without a leading '|'
                piped = (len(out) if boundary and _cell_pipe(line) else None) if first \
                    else piped if _cell_pipe(line) else None
            if block == "para" and not first and COMMENT_LINE.match(line) and out and out[-1].strip() \
                    and not ATX_HEADING.match(out[-1]):
                # A comment line inside a paragraph (Jekyll's <!--more-->) is inline HTML there: kramdown
                # ends a paragraph only at an element's tag. Written at the end of the line before.
                piped = None
                text, hard_break = out[-1].rstrip(), out[-1].endswith("  ")
                out[-1] = f"{text} {line.strip()}" + ("  " if hard_break else "")
                continue
            if block == "para" and not first and starts is None and HRProcessor.SEARCH_RE.match(line) \
                    and not (SETEXT_UNDERLINE.match(line) and len(out) - 1 == setext_at):
                # kramdown's rule cannot break a paragraph: " -----" under a line is its text (dashes),
                # and "---" under two lines too (datasketches' "Regards,\n(PMC Member)\n---"): only a
                # paragraph of one line, after a blank one, is a heading's text (kramdown's setext header)
                line = re.sub(r"^ *", lambda indent: indent.group() + TEXT_LINE, line, count=1)
            if block in ("para", "html") and not first and "{:" in line and STANDALONE_IAL.match(line.lstrip()) \
                    and END_TAG_LINE.match(out[-1]) and _on_element_above(out, line):
                out.append("")      # the element's attribute list (just-the-docs' </summary> then {: .text-delta })
                block, ial_above = None, True
                continue
            if STANDALONE_IAL.match(line) and out and ATX_HEADING.match(out[-1]):
                out[-1] = f"{out[-1].rstrip()} {line.strip()}"   # the heading's, as attr_list reads it
                block, ial_above = None, True
                continue
            if first and block == "code" and not listed or opening and block == "fence":
                code_at = len(out)
            out.append(line)
            if block == "para" and not first and STANDALONE_IAL.match(line):
                out.append("")
                block, ial_above = None, True
        out += raw      # a comment or element never closed: its lines as they are
        if table:
            out += _kramdown_table(table)
        if piped is not None and block == "para":
            out[piped:] = _kramdown_table(out[piped:])
        return out + self.quoted(quote, depth) if quote else out

    def quoted(self, lines: list[str], depth: int) -> list[str]:
        """A block quote's lines with its content split and re-indented as the page's are
        (a fence right after a line of text starts a block there too), marked again."""
        if depth >= MAX_LIST_NESTING:      # quotes in quotes beyond any page's: left as written
            return lines
        inner = self.blocks([QUOTE_MARK.sub("", line, count=1) for line in lines], depth + 1)
        while inner and not inner[-1]:   # the quote ends with its last line, not a blank one
            inner.pop()
        # A quote of empty lines alone (a page ending in ">") is an empty quote, as kramdown has it.
        return [f"> {line}" if line else ">" for line in inner] or [">"]


# Lists inside list items, far beyond any real page's; a thousand would take the recursion of
# KramdownBlocks past Python's limit.
MAX_LIST_NESTING = 100


class ListsTooDeep(Exception):
    """Lists nested more than :data:`MAX_LIST_NESTING` deep, found below the top level."""


def _most_indented_item(lines: list[str]) -> int:
    """The line (from 1) of the most indented list item: where lists nest deepest."""
    indents = {number: len(line) - len(line.lstrip())
               for number, line in enumerate(lines, start=1) if LIST_ITEM.match(line.lstrip())}
    return max(indents, key=indents.get, default=1)


FENCE = re.compile(r"^ {0,3}(`{3,}(?=[^`]*$)|~{3,})")   # no backtick after a backtick fence's run: code spans
# The elements of a document's head that kramdown reads as blocks, without an end tag, in a body.
HEAD_ELEMENTS = ("link", "meta", "base")
# A line making the one above a heading, in kramdown's setext style: at the line's start.
SETEXT_UNDERLINE = re.compile(r"[-=]+[ \t]*$")
# A tab Python-Markdown would expand, in the code of an indented block: a noncharacter meanwhile.
KEPT_TAB = "\ufdd4"
# A space of a line of spaces Python-Markdown would empty, which kramdown keeps (a <pre>'s, an indented code
# block's blank line): a noncharacter meanwhile.
KEPT_SPACE = "\ufdd6"
# The start of an HTML block's <pre>, whose text kramdown keeps as written (its tabs too).
HTML_PRE = re.compile(r" {0,3}<pre[\s>]", re.I)
PRE_TAG = re.compile(r"<pre", re.I)
LISTED_START = frozenset("*+-:0123456789")     # what a list item's or a definition's line starts with
# What an indented line's text may start that makes it no code block's: a nested list, a quote.
INDENTED_BLOCK_START = re.compile(r"(?:[*+-]|\d+[.)])(?:[ \t]|$)|>")
DEFINITION = re.compile(r"^ {0,3}: +(?=\S)")
COMMENT_LINE = re.compile(r"^ {0,3}<!--(?:(?!-->).)*-->\s*$")
# A comment or an element of raw text (sinatra's rdoc <pre> holding "| Say") that runs on past its line.
RAW_BLOCK_OPENING = re.compile(r"^ {0,3}<(!--|pre\b|script\b|style\b|textarea\b)(?!.*(?:-->|</\1))", re.I)
ATX_HEADING = re.compile(r"^ {0,3}#{1,6}(\s|$)")
GFM_HEADING = re.compile(r"(?:^|\n)(?P<level>#{1,6})[ \t]+(?=\S)(?P<header>(?:\\.|[^\\#]|#+(?=[^#\n]))*?)#*(?:\n|$)")
LIST_ITEM = re.compile(r"^ {0,3}([*+-]|\d+\.)[ \t]+\S")
LIST_ITEM_PARTS = re.compile(r"^( {0,3})([*+-]|\d+\.)( {1,4}|\t)(?=\S)(.*)$")
# An HTML block's place in the stash, at the start of its line: the spaces before it (an item's
# text one space further in, "   <div" under "- ") would hide it from md_in_html's block reader.
STASHED_BLOCK = re.compile(r"^ *" + util.HTML_PLACEHOLDER_RE.pattern)
TAG_NAME = re.compile(r"<([a-zA-Z][a-zA-Z0-9]*)")
MARKDOWN_HTML = re.compile(r"^\s*<[a-zA-Z][^>]*\bmarkdown=\"1\"[^>]*>\s*$")
HTML_CLOSE = re.compile(r"^\s*</(div|section|article|aside|header|footer|main|nav|figure|details)>\s*$")
BLOCK_QUOTE = re.compile(r"^ {0,3}>")
QUOTE_MARK = re.compile(r"^ {0,3}> ?")
HTML_BLOCK = re.compile(r"^ {0,3}<(address|article|aside|blockquote|center|details|div|dl|fieldset|"
                        r"figure|footer|form|h[1-6]|header|hr|iframe|main|nav|ol|p|pre|section|"
                        r"table|ul|video)(\s|/?>|$)", re.I)
TABLE_ROW = re.compile(r"^ {0,3}\|")
# kramdown's separator line (TABLE_SEP_LINE): of |, +, :, -, spaces, with a -; each column's alignment
# where its dashes have a colon right before or after them (TABLE_HSEP_ALIGN): ``|: ---`` is none.
TABLE_SEPARATOR = re.compile(r"^ {0,3}[+|: \t-]*?-[+|: \t-]*$")
TABLE_ALIGNMENT = re.compile(r" ?(:?)-+(:?) ?")
NO_HEADER = "sitegen-table-without-header"
HEADER_ROW = "\ufdd7"     # before a header row past the first, which Python-Markdown's tables put in the body


def _kramdown_lists(lines: list[str], blocks: Callable[[list[str]], list[str]]) -> list[str]:
    """List items re-indented from kramdown's rule to Python-Markdown's.

    kramdown continues an item with every line indented to its text's column
    (two spaces after ``- ``) and with "lazy" lines that follow item text
    directly, whatever they are (a heading, an image); Python-Markdown wants
    four spaces for everything inside an item. Each item's content is taken
    out by kramdown's rule, read again as Markdown of its own (``blocks``:
    nested lists, paragraphs), and put back four spaces in.
    """
    out: list[str] = []
    fence: str | None = None
    earlier = 0           # items of the current list read so far
    earlier_tight = False  # whether one of them is tight or starts with no text
    i = 0
    while i < len(lines):
        line = lines[i]
        item = LIST_ITEM_PARTS.match(line) if fence is None else None
        if item is None:
            # A fence outside items: its two lines put at column 0 and the closing run made as long
            # as the opening one, as superfences wants them.
            opening = FENCE.match(line)
            if fence is None and opening:
                fence = opening.group(1)
                line = line.lstrip(" ")
            elif fence is not None and _closes_fence(fence, line):
                fence, line = None, fence
            out.append(line)
            i += 1
            continue
        indent, marker, gap, text = item.groups()
        column = len(indent) + len(marker) + (4 if gap == "\t" else len(gap))
        content, i = [text], i + 1
        blank = False
        while i < len(lines):
            line = lines[i]
            lead = len(line) - len(line.lstrip(" "))
            if not line.strip():
                content.append("")
                blank = True
            elif lead >= column:
                content.append(line[column:])
                blank = False
            elif blank or _starts_item_like(line, marker) or HTML_CLOSE.match(line) or STANDALONE_IAL.match(line):
                break
            else:                       # a lazy line: it belongs to the item's text
                content.append(_lazy_text(line))
            i += 1
        trailing = len(content) - len(list(itertools.dropwhile(lambda x: not x, reversed(content))))
        content = content[:len(content) - trailing]
        inner = blocks(content) or [""]
        # Up to the first blank line (or heading, which would end the list there) Python-Markdown
        # reads lines as the item's text, lazily; after it, an item's blocks are indented by four.
        first = list(itertools.takewhile(lambda part: part and not GFM_HEADING.match(part), inner[1:]))
        rest = inner[1 + len(first):]
        last = not (i < len(lines) and _starts_item_like(lines[i], marker))
        shape = ""
        # "* {:.cls}" with the text on the lines after it: the shape is that text's
        text = first[0] if first and STANDALONE_IAL.match(inner[0]) else inner[0]
        if _is_plain_text(text):
            tight = _kramdown_tight(content, len(first) + 1, trailing, last, earlier == 0 or earlier_tight)
            shape = TIGHT if tight else LOOSE
        earlier_tight = (earlier_tight or shape != LOOSE) and not last   # a list ends at its last item
        earlier = 0 if last else earlier + 1
        out.append(f"{indent}{marker} {shape}{inner[0]}")
        out += [_lazy_text(part) for part in first]
        start = len(out)
        if _nested_list_follows_text(content, len(first) + 1):
            rest = rest[1:]      # the blank split() wrote in: Python-Markdown nests a list without it
        elif rest and rest[0]:
            out.append("")
        out += [f"    {part}" if part else "" for part in rest]
        out += [""] * trailing
        # Blocks after a blank line would take the next item in (Python-Markdown reads one block
        # up to a blank line): a blank line ends them; the next item's mark keeps it as kramdown has it.
        if "" in out[start:] and not trailing and not last:
            out.append("")
        if i < len(lines) and STANDALONE_IAL.match(lines[i]) and lines[i - 1].strip():
            # "{: .x}" right after the items (less indented than their text): kramdown ends the
            # list there and gives it the attributes; marked for BlockIals, a paragraph of its own.
            out += ["", LIST_IAL + lines[i].strip(), ""]
            i += 1
    return out


def _tabs_expanded(lines: list[str], tab_length: int) -> list[str]:
    """Tabs expanded to columns of ``tab_length``, but in the code of a fence opened by up to
    three spaces: kramdown keeps a fence's code as written (superfences' ``preserve_tabs``
    keeps it from Python-Markdown's own expansion after). A fence opened by a tab is an
    item's, whose lines kramdown expands. An indented code block keeps the tabs after its
    indentation too, as kramdown keeps them (bitcoincore.org's and elixir's IRC logs); outside
    lists, kramdown takes one tab or four spaces off each of its lines and keeps the rest (Leaflet's
    ``\t.addTo(map)`` four spaces in); and an HTML block's ``<pre>`` keeps its text as written
    (Leaflet's examples), its lines of spaces too. :data:`KEPT_TAB` stands for each kept tab (and
    :data:`KEPT_SPACE` for such a space) until :class:`KeptTabs` puts it back in the HTML."""
    whole = "\n".join(lines)
    if "\t" not in whole and not PRE_TAG.search(whole):    # most pages: nothing to expand or keep
        return lines
    out: list[str] = []
    fence: str | None = None     # the opening of the fenced code we are in
    code, blank = False, True    # in an indented code block (or a list item's indented text); after a blank line
    listed = False               # in a list's (or definition's) lines, which kramdown reads at their item's column
    pre = False                  # in the <pre> of an HTML block
    for line in lines:
        if fence is not None:
            fence = None if _closes_fence(fence, line) else fence
            if fence is not None:
                out.append(line)
                continue
        elif opening := FENCE.match(line):
            fence = opening.group(1)
        text = line.lstrip(" \t")
        indent = line[:len(line) - len(text)].expandtabs(tab_length)
        opened = not pre and text[:4].lower() == "<pre" and len(indent) < 4 and HTML_PRE.match(line)
        if pre or opened:
            pre = "</pre>" not in line[opened.end() if opened else 0:].lower()
            kept = line.replace("\t", KEPT_TAB)
            out.append(kept if text else kept.replace(" ", KEPT_SPACE))   # not a blank line to Python-Markdown
            code = blank = False
            continue
        if not text:
            blank = True
        elif blank and text.startswith("{:") and STANDALONE_IAL.match(line):
            code = False        # the attribute list of the block below: code may start after it
        else:
            code = len(indent) >= 4 and (code or blank) and not INDENTED_BLOCK_START.match(text)
            if len(indent) < 4:
                listed = text[0] in LISTED_START and bool(LIST_ITEM.match(line) or DEFINITION.match(line)) \
                    or listed and not blank
            blank = ATX_HEADING.match(line) is not None     # a heading's line is a block: code may follow
        if "\t" in line:
            if code and not listed and line.startswith(("\t", "    ")):
                line = "    " + line[1 if line[0] == "\t" else 4:].replace("\t", KEPT_TAB)
            elif code:
                line = indent + text.replace("\t", KEPT_TAB)
            else:
                line = line.expandtabs(tab_length)
        out.append(line)
    return out


class KeptTabs(Postprocessor):
    """The tabs and spaces :func:`_tabs_expanded` kept (in indented code, an HTML block's <pre>) and
    the spaces of indented code's blank lines (:data:`KEPT_SPACE`, which Python-Markdown would empty),
    back in the HTML."""

    def run(self, text: str) -> str:
        if KEPT_TAB in text:
            text = text.replace(KEPT_TAB, "\t")
        return text.replace(KEPT_SPACE, " ") if KEPT_SPACE in text else text


def _definitions_indented(lines: list[str]) -> list[str]:
    """The lines of each definition (``: text``) indented to its text's column given the four
    spaces Python-Markdown wants: kramdown reads ``: * a`` then ``  * b`` as one list in the
    definition; Python-Markdown ended the definition after ``a``."""
    out: list[str] = []
    column = 0          # the text column of the definition we are in (0: none, or one Python-Markdown reads)
    fence: str | None = None     # the opening of the fenced code we are in, outside definitions
    for line in lines:
        if not column and (fence or FENCE.match(line)):
            opening = FENCE.match(line)
            fence = None if fence and _closes_fence(fence, line) else fence or opening.group(1)
            out.append(line)
            continue
        definition = DEFINITION.match(line)
        if definition:
            column = definition.end() if definition.end() < 4 else 0
        elif column and line.strip():
            if len(line) - len(line.lstrip(" ")) >= column:
                line = "    " + line[column:]
            elif not out[-1].strip():      # less indented after a blank line: the definition has ended
                column = 0
        out.append(line)
    return out


def _lazy_text(line: str) -> str:
    """A line of an item's text written from column 0, where Python-Markdown reads it as text;
    a heading's ``#`` after spaces is left after them (kramdown GFM reads `` ## H`` in an
    item's text as text, lazy or indented: a heading starts at its line's first column)."""
    stripped = line.lstrip(" ")
    return line if stripped.startswith("#") else stripped


def _closes_fence(opening: str, line: str, any_indent: bool = False) -> bool:
    """Whether ``line`` closes the fence opened by the run ``opening`` (```` ``` ```` or ``~~~``).

    kramdown GFM closes it at a run of the same mark at least as long, alone on
    its line and indented up to 3 spaces, whatever the opening's indent
    (superfences wants the two indented alike). ``any_indent``: for an item's
    fence, seen before the item's column is known.
    """
    if not any_indent and line.startswith("    "):
        return False
    run = line.strip()
    return len(run) >= len(opening) and run == opening[0] * len(run)


def _kramdown_tight(content: list[str], text_lines: int, trailing: int, last: bool,
                    may_be_last_tight: bool) -> bool:
    """Whether kramdown renders a list item's text (its first ``text_lines`` of ``content``) without
    a ``<p>``: unless a blank line follows it (within the item, or after an item of text alone,
    though not after the list's last item); the last item of a list of two or more only if an
    earlier one is tight or starts with no text (``may_be_last_tight``)."""
    if len(content) > text_lines:
        blank_after = not content[text_lines]
    else:
        blank_after = trailing > 0 and not last
    return not blank_after and (not last or may_be_last_tight)


# Written before the text of a list item, for :class:`ItemShapes`: whether kramdown keeps the
# item tight (its text without a <p>) or loose. Noncharacters: no text holds one.
TIGHT, LOOSE = "\ufdd0", "\ufdd1"
LIST_IAL = "\ufdd2"   # written before an attribute list that belongs to the list above it
END_OF_BLOCK = "\ufdd3"   # a paragraph of its own where kramdown's '^' ended a block: taken out
TEXT_LINE = "\ufdd5"     # before a paragraph's line Python-Markdown would read as a rule: taken out


class ItemShapes(Treeprocessor):
    """Each list item's text in a ``<p>`` or not as its mark (:data:`TIGHT`, :data:`LOOSE`) says,
    as kramdown decides; Python-Markdown decides otherwise (any blank line between items, or the
    one ending an item's blocks, makes the items after it loose). Runs before the inline pass (20)."""

    def run(self, root: etree.Element) -> None:
        for item in root.iter("li"):
            if item.text and item.text[0] in (TIGHT, LOOSE):
                mark, item.text = item.text[0], item.text[1:]
                if mark == LOOSE:
                    _wrap_text(item)
            elif (len(item) and item[0].tag == "p" and (item[0].text or "")[:1] in (TIGHT, LOOSE)
                  and not (item.text or "").strip()):
                mark, item[0].text = item[0].text[0], item[0].text[1:]
                if mark == TIGHT:
                    _unwrap_first_paragraph(item)
        for element in root.iter():
            for attribute in ("text", "tail"):
                value = getattr(element, attribute)
                if value and (TIGHT in value or LOOSE in value):
                    setattr(element, attribute, value.replace(TIGHT, "").replace(LOOSE, ""))


class ItemMarksOut(Postprocessor):
    """The marks :class:`ItemShapes` and :class:`BlockIals` did not reach taken out: those in
    HTML stashed before they ran (an item's line that Python-Markdown read as code)."""

    def run(self, text: str) -> str:
        for mark in (TIGHT, LOOSE, LIST_IAL, END_OF_BLOCK, TEXT_LINE):
            if mark in text:
                text = text.replace(mark, "")
        return text


# A comment, a script's or style's element (its text is not HTML), or a start tag.
TAG_OR_RAW_TEXT = re.compile(r"<!--.*?-->|(<(script|style)\b[^>]*>).*?</\2\s*>|<[A-Za-z][^<>]*>", re.S | re.I)
BLANK_ID = re.compile(r"""\sid\s*=\s*(["'])\s*\1""", re.I)
# What every blank id holds, found at each "=" (most documents have none): BLANK_ID, with no
# character to begin its search at, tries every character of the page (0.11 against 0.02 ms a post).
BLANK_VALUE = re.compile(r"""=\s*(["'])\s*\1""")


class BlankIdsOut(Postprocessor):
    """An ``id`` of white space only left out of every tag, the page's own HTML too, as kramdown
    writes an element's attributes (utils/html.rb: ``html_attributes``): a template's
    ``id="{{ x.id }}"`` with no ``x.id`` gives ``<a id="">``, which Jekyll's page does not have."""

    def run(self, text: str) -> str:
        if BLANK_VALUE.search(text) is None or BLANK_ID.search(text) is None:
            return text
        return TAG_OR_RAW_TEXT.sub(self._tag_without_blank_id, text)

    @staticmethod
    def _tag_without_blank_id(found: re.Match) -> str:
        whole, opening = found.group(0), found.group(1)
        if whole.startswith("<!--"):
            return whole
        if opening is not None:     # a script or style: its opening tag only
            return BLANK_ID.sub("", opening) + whole[len(opening):]
        return BLANK_ID.sub("", whole)


def _wrap_text(item: etree.Element) -> None:
    """``<li>a...`` made ``<li><p>a</p>...``."""
    paragraph = etree.Element("p")
    paragraph.text, item.text = item.text, ""
    item.insert(0, paragraph)


NOT_PLAIN_TEXT = re.compile(r"#|\[[^\]]*\]:|\{:|\*\[|[-*_ ]+$|$")


def _is_plain_text(line: str) -> bool:
    """Whether ``line`` starts a paragraph (a marker written before it keeps it one): not another
    block, a heading, a rule, a reference or abbreviation definition, or an attribute list alone
    (an item's IAL before its text, ``* {:.cls} text``, is the item's: the text is read after it)."""
    line = ITEM_IAL.sub("", line, count=1)
    return _block_start(line) is None and not NOT_PLAIN_TEXT.match(line)


ITEM_IAL = re.compile("^" + IAL_START + r"[^}\n]*\}[ \t]+(?=\S)")


def _unwrap_first_paragraph(item: etree.Element) -> None:
    """``<li><p>a</p>...`` made ``<li>a...``."""
    paragraph = item[0]
    item.remove(paragraph)
    item.text = paragraph.text
    for index, child in enumerate(list(paragraph)):
        item.insert(index, child)
    tail = paragraph.tail or ""
    if len(paragraph):
        paragraph[-1].tail = (paragraph[-1].tail or "") + tail
    else:
        item.text += tail


def _starts_item_like(line: str, marker: str) -> bool:
    """Whether ``line`` starts a list item of the kind ``marker`` starts (bullet or number).

    kramdown ends an item at the next item of its own list; an item of the other kind
    (``- b`` after ``1. a``), however little indented, is a lazy line of the item's text,
    so it starts a list nested in the item.
    """
    item = LIST_ITEM.match(line)
    return item is not None and item.group(1)[0].isdigit() == marker[0].isdigit()


def _nested_list_follows_text(content: list[str], lines: int) -> bool:
    """Whether an item's text (its first ``lines`` lines) is followed directly by a nested list.

    kramdown keeps such an item tight (``<li>a<ul>...``) and the items after the nested
    list in the outer list; Python-Markdown does the same only without a blank line
    between the text and the nested list (with one, the text becomes a ``<p>`` and the
    outer list's next items move into the nested one).
    """
    return len(content) > lines and all(content[:lines]) and bool(LIST_ITEM.match(content[lines]))


def _block_start(line: str) -> str | None:
    """The kind of block ``line`` would start, or None for paragraph text."""
    if FENCE.match(line):
        return "fence"
    if line.startswith(("    ", "\t")):
        return "code"
    if LIST_ITEM.match(line):
        return "list"
    if BLOCK_QUOTE.match(line):
        return "quote"
    if HTML_BLOCK.match(line):
        return "html"
    if TABLE_ROW.match(line):
        return "table"
    return None


LAZY_CODE_END = re.compile(r"[ \t]*(?:\{:(?![:/])|</?[A-Za-z])")   # kramdown's CODEBLOCK_MATCH: IAL, HTML block
CLOSED_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)")
CELL_PIPE = re.compile(r"(?:^|[^\\])\|")


# A line that is an element's end tag alone, as the line before an attribute list for that element.
END_TAG_LINE = re.compile(r"^ {0,3}</([A-Za-z][\w-]*)>\s*$")


def _on_element_above(out: list[str], ial: str) -> bool:
    """Put the attribute list ``ial`` on the element whose end tag ends ``out``, where its start
    tag starts a line of the same paragraph, as kramdown gives an IAL below an element to it."""
    name = END_TAG_LINE.match(out[-1]).group(1)
    opening = re.compile(rf"^ {{0,3}}<{re.escape(name)}(?=[\s>])", re.I)
    for index in range(len(out) - 2, -1, -1):
        if not out[index].strip():
            return False
        if opening.match(out[index]):
            attributes: dict[str, str] = {}
            for key, value in get_attrs(ial.strip()[2:-1]):
                if key == "." or value is not None:
                    key = "class" if key == "." else key
                    attributes[key] = f"{attributes[key]} {value}" if key in attributes else value
            out[index] = _outer_attributes(out[index], attributes)
            return True
    return False


def _cell_pipe(line: str) -> bool:
    """Whether ``line`` holds a ``|`` that kramdown reads as a table's (TABLE_PIPE_CHECK): not
    escaped, not in a code span. A paragraph of such lines is a table in kramdown."""
    return "|" in line and CELL_PIPE.search(CLOSED_CODE_SPAN.sub("", line) if "`" in line else line) is not None


def _table_cells(row: str, leading: bool = True) -> list[str]:
    """A table row's cells: split at ``|`` outside code spans; an escaped ``\\|`` is kept.
    ``leading``: the table's first line starts with ``|``, which then opens each row, not a cell."""
    cells, cell, code, i = [], "", 0, 0
    row = row.strip()
    row = row[1:] if leading and row.startswith("|") else row
    while i < len(row):
        char = row[i]
        if char == "\\" and i + 1 < len(row):
            cell += row[i:i + 2]
            i += 2
            continue
        if char == "`":
            run = len(row[i:]) - len(row[i:].lstrip("`"))
            code = 0 if code == run else (run if not code else code)
            cell += row[i:i + run]
            i += run
            continue
        if char == "|" and not code:
            cells.append(cell)
            cell = ""
        else:
            cell += char
        i += 1
    if cell.strip():
        cells.append(cell)
    return cells


def _kramdown_table(rows: list[str]) -> list[str]:
    """A ``|``-led table as kramdown reads it, in the form Python-Markdown's tables read.

    kramdown takes the rows above the first separator line (``|---|``) as
    the header, and a table without one (or starting with one) has no header;
    later separator lines only split the body; a short row is padded to the
    widest. Python-Markdown wants one header row and a separator under it, so
    a table without a header gets a marked one, removed after parsing
    (:class:`HeaderlessTables`), the header's other rows are marked (:data:`HEADER_ROW`)
    for it to move back, and later separators are dropped. Only where the table's first
    line starts with ``|`` does a row's ``|`` open it; else it opens an empty cell.
    """
    leading = rows[0].lstrip().startswith("|")
    while rows and TABLE_SEPARATOR.match(rows[0]):
        rows = rows[1:]
    if not rows:
        return []
    split = next((i for i, row in enumerate(rows) if TABLE_SEPARATOR.match(row)), None)
    header, alignment = (rows[:split], rows[split]) if split else ([], "")
    body = [row if leading or not row.lstrip().startswith("|") else "|" + row     # its first cell empty
            for row in rows[split + 1 if split else 0:] if not TABLE_SEPARATOR.match(row)]
    header_cells = [_table_cells(row, leading) for row in header]
    width = max(len(_table_cells(row, leading)) for row in rows if not TABLE_SEPARATOR.match(row))
    aligns = [f"{left or '-'}--{right or '-'}" for left, right in TABLE_ALIGNMENT.findall(alignment)]
    aligns = (aligns + ["---"] * width)[:width]
    if header_cells:
        first = header_cells[0]
        body = ["|" + HEADER_ROW + "|".join(cells) + "|" for cells in header_cells[1:]] + body
    else:
        first = [NO_HEADER]
    first = first + [" "] * (width - len(first))
    return ["|" + "|".join(first) + "|", "|" + "|".join(aligns) + "|", *body]


class TaskLists(Treeprocessor):
    """GFM task lists as kramdown-parser-gfm writes them (pymdownx.tasklist's markup differs).

    An item whose text starts ``[ ]`` or ``[x]`` (any case; after the item's IAL,
    ``* {:.c} [ ] todo``, if it has one) and a space opens
    with a disabled checkbox; from the first such item on, every item of the
    list is a ``task-list-item`` (kramdown's rule, checkbox or not), and the
    list a ``task-list``. Run before the inline pass, on the item's raw text.
    """

    BOX = re.compile(r"(\s*\{:[^}\n]*\}[ \t]*)?\s*\[([ xX])\]\s+")   # after the item's IAL, if any

    def run(self, root: etree.Element) -> None:
        for listing in root.iter():
            if listing.tag not in ("ul", "ol"):
                continue
            tasks = False
            for item in listing.iterfind("li"):
                tasks = self._check(item) or tasks
                if tasks:
                    item.set("class", " ".join(filter(None, [item.get("class"), "task-list-item"])))
            if tasks:
                listing.set("class", " ".join(filter(None, [listing.get("class"), "task-list"])))

    def _check(self, item: etree.Element) -> bool:
        """Put a checkbox first in ``item`` (or in its first paragraph) if its text asks for one."""
        holder = item[0] if not (item.text or "").strip() and len(item) and item[0].tag == "p" else item
        box = self.BOX.match(holder.text or "")
        if box is None:
            return False
        checkbox = etree.Element("input", {"type": "checkbox", "class": "task-list-item-checkbox",
                                           "disabled": "disabled"})
        if box.group(2) != " ":
            checkbox.set("checked", "checked")
        checkbox.tail, holder.text = holder.text[box.end():], box.group(1)    # the IAL left for BlockIals
        holder.insert(0, checkbox)
        return True


class HeaderlessTables(Treeprocessor):
    """Remove the header row :func:`_kramdown_table` gave a table that has none, and move the
    rows it marked as the header's (:data:`HEADER_ROW`) back into it, their cells ``th``."""

    def run(self, root: etree.Element) -> None:
        for table in root.iter("table"):
            head = table.find("thead")
            if head is not None and NO_HEADER in "".join(head.itertext()):
                table.remove(head)
            body = table.find("tbody")
            while head is not None and body is not None and len(body) and len(body[0]) \
                    and (body[0][0].text or "").startswith(HEADER_ROW):
                row = body[0]
                body.remove(row)
                row[0].text = row[0].text[len(HEADER_ROW):] or None
                for cell in row:
                    cell.tag = "th"
                head.append(row)


class TableFrames(Treeprocessor):
    """Each table in a frame of its own that scrolls (``div.table-wrap``), so that a wide
    table scrolls inside it on a phone rather than squeezing its values onto two lines
    or widening the page. The frame is focusable, to be scrolled from the keyboard, and
    named by the table's header row (WCAG 2.1.1; axe's scrollable-region-focusable)."""

    def run(self, root: etree.Element) -> None:
        for parent in list(root.iter()):
            if parent.find("table") is None:        # a look at its children without a Python loop
                continue
            for index, table in enumerate(list(parent)):
                if table.tag != "table" or "table-wrap" in parent.get("class", "").split():
                    continue
                heads = [" ".join(STASHED.sub("", "".join(th.itertext())).split()) for th in table.iter("th")]
                label = ("Table: " + ", ".join(h for h in heads if h))[:120] if any(heads) else "Table"
                frame = etree.Element("div", {"class": "table-wrap", "tabindex": "0", "role": "region",
                                              "aria-label": label})
                frame.tail, table.tail = table.tail, "\n"
                frame.text = "\n"
                parent.remove(table)
                frame.append(table)
                parent.insert(index, frame)


STASHED = re.compile("\x02[^\x03]*\x03")     # placeholders of stashed HTML (smarty's quotes too)


class TablesInFrames(Extension):
    """:class:`TableFrames`, after the inline pass (the header row's text is final then)."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.treeprocessors.register(TableFrames(md), "table_frames", 2)


class MarkdownProblem(ValueError):
    """Markup sitegen does not render; ``line`` counts from the text's first line."""

    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.line = line


class KramdownExtensions(Preprocessor):
    """kramdown's ``{::name ... /}`` extensions: ``options`` for parse_block_html and toc_levels,
    ``comment``, ``nomarkdown``.

    ``{::options parse_block_html="true" /}`` makes kramdown read Markdown
    inside the HTML blocks that follow; here those blocks get ``markdown="1"``
    for md_in_html. ``{::nomarkdown}`` ... ``{:/nomarkdown}`` (or ``{:/}``) is its
    text as written (:class:`NoMarkdown`). Any other extension or option is refused by
    name and line rather than shown as text. Fenced code is left as it is.
    """

    OPTIONS = re.compile(r"^\{::options\s+(.*?)\s*/\}\s*$")
    COMMENT = re.compile(r"^\{::comment\}")
    COMMENT_END = re.compile(r"\{:/(comment)?\}\s*$")
    EXTENSION = re.compile(r"^\s*\{::(\w+)")
    # kramdown's EXT_BLOCK_START of options not closed by '/}', and its end tag (EXT_BLOCK_STOP_STR):
    # without one, the tag is text (kramdown: "No stop tag for extension 'options' found").
    OPTIONS_START = re.compile(r"^ {0,3}\{::options(?:\s((?:\\\}|[^}])*?)|)\}\s*$")
    OPTIONS_END = re.compile(r"^ {0,3}\{:/(?:options)?\}\s*$")
    HTML_OPEN = re.compile(r"^(\s{0,3}<(?:div|section|article|aside|header|footer|main|nav|figure|details)\b)"
                           r"(?![^>]*\bmarkdown=)([^>]*)>")

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        lines = list(lines)
        self.md.treeprocessors["kramdown_toc"].document_levels = None
        block_html = in_comment = False
        fence, text_from, options_text_from = None, math.inf, math.inf
        nomarkdown = NoMarkdown(self.md)
        at = 0
        while at < len(lines):
            line, number, block_start = lines[at], at + 1, not out or not out[-1].strip() or fence == ""
            at += 1
            if fence:
                fence = "" if _closes_fence(fence, line) else fence
                out.append(line)
                continue
            fence = None
            if in_comment:
                in_comment = not self.COMMENT_END.search(line)
                continue
            if opening := FENCE.match(line):
                fence = opening.group(1)
                out.append(line)
                continue
            if ATX_HEADING.match(line):
                fence = ""      # a block ends with the heading's line
            options = self.OPTIONS.match(line)
            if options:
                block_html = self.options(options.group(1), number, block_html)
                continue
            if self.COMMENT.match(line) and at - 1 < text_from:
                if any(self.COMMENT_END.search(lines[index]) for index in range(at - 1, len(lines))):
                    in_comment = not self.COMMENT_END.search(line)
                    continue
                text_from = at - 1      # no comment from here closes: each is text, as kramdown's (looked for once)
            if "{::nomarkdown" in line:
                read, taken, block = nomarkdown.read(lines, at - 1, block_start)
                if block:
                    out += read
                    at += taken - 1
                    continue
                if taken:       # a span made a mark: the line is read again, for what follows it
                    lines[at - 1:at - 1 + taken] = read
                    at -= 1
                    continue
            extension = self.EXTENSION.match(line)
            if extension and extension.group(1) == "options":    # without '/}': its body ends at an end tag
                start = self.OPTIONS_START.match(line)
                end = next((index for index in range(at, len(lines)) if self.OPTIONS_END.match(lines[index])),
                           None) if start and at - 1 < options_text_from else None
                if end is not None:     # kramdown sets the options and drops the body
                    block_html = self.options(start.group(1) or "", number, block_html)
                    at = end + 1
                    continue
                options_text_from = min(options_text_from, at - 1) if start else options_text_from
                self.md.myst_extension.document.warnings.append((number, (
                    "kramdown: '{::options ...}' without '/}' and without an end tag '{:/}' is text, as kramdown "
                    "keeps it: close it as '{::options ... /}' if it was meant to set options")))
                extension = None
            if extension and extension.group(1) not in ("nomarkdown", "comment"):    # text, as kramdown keeps it
                self.md.myst_extension.document.warnings.append((number, (
                    f"kramdown: '{{::{extension.group(1)}' is no extension kramdown has (comment, nomarkdown, "
                    "options): it is text, as kramdown keeps it")))
            if block_html:
                line = self.HTML_OPEN.sub(r'\1\2 markdown="1">', line)
            out.append(line)
        return out

    def options(self, attributes: str, number: int, block_html: bool) -> bool:
        """Set the options of ``{::options ATTRIBUTES /}`` on line ``number``; returns whether
        HTML blocks are read as Markdown from here (parse_block_html)."""
        for key, value in re.findall(r'(\w+)="([^"]*)"', attributes):
            if key not in ("parse_block_html", "parse_span_html", "toc_levels"):
                raise MarkdownProblem(f"kramdown option '{key}' is not supported", number)
            if key == "parse_block_html":
                block_html = value == "true"
            elif key == "toc_levels":
                levels = toc_levels(value)
                if levels is None:
                    raise MarkdownProblem(f"kramdown option toc_levels={value!r}: expected heading levels "
                                          "such as 2..3 or 2,3", number)
                self.md.treeprocessors["kramdown_toc"].document_levels = tuple(levels)
        return block_html


class NoMarkdown:
    """kramdown's ``{::nomarkdown}`` ... ``{:/}``: text that goes into the page as written.

    As a block (the tag alone on a line that starts a block, its end tag alone on a line)
    it is raw HTML of its own, in no paragraph; elsewhere a span of a paragraph's text,
    its lines included. ``type="..."`` not naming ``html`` leaves it out, as kramdown's
    HTML converter does. The text is stashed as raw HTML; what stands for it here is a
    mark (:data:`RAW_MARK`) that :class:`RawMarksStashed` makes the stash's placeholder once
    Python-Markdown has stripped its own placeholder characters from the text. Without an end
    tag, kramdown reads the tag as text, and so here.
    """

    BLOCK = re.compile(r"^(\s*)\{::nomarkdown(?:\s+([^}]*?))?\s*(/)?\}\s*$")
    BLOCK_END = re.compile(r"^\s*\{:/(nomarkdown)?\}\s*$")
    SPAN = re.compile(r"(?s)\{::nomarkdown(?:\s+([^}]*?))?\s*(?:(/)\}|\}(.*?)\{:/(?:nomarkdown)?\})")

    def __init__(self, md: markdown.Markdown):
        self.md = md
        md.raw_blocks = set()

    def read(self, lines: list[str], at: int, block_start: bool) -> tuple[list[str], int, bool]:
        """What the extension on ``lines[at]`` becomes: the lines that stand for ``lines[at:]``'s
        first ones, how many of those they stand for (0: nothing read), and whether they are a block."""
        block = self.BLOCK.match(lines[at]) if block_start else None
        if block:
            indent, attributes, closed = block.groups()
            if closed:      # {::nomarkdown /}: no text
                return [], 1, True
            end = next((index for index in range(at + 1, len(lines)) if self.BLOCK_END.match(lines[index])), None)
            if end is not None:
                if not for_html(attributes):
                    return [], end - at + 1, True
                index = self.md.htmlStash.html_counter
                self.md.htmlStash.store("\n".join(line[len(indent):] if line.startswith(indent) else line.lstrip()
                                                  for line in lines[at + 1:end]))
                self.md.raw_blocks.add(util.HTML_PLACEHOLDER % index)
                # at the tag's indent, to stay in a list item; what follows is a block of its own
                return [indent + RAW_MARK % index, ""], end - at + 1, True
        start = lines[at].index("{::nomarkdown")
        if lines[at][:start].count("`") % 2:      # in a code span
            return [], 0, False
        text = "\n".join(lines[at:])
        span = self.SPAN.match(text, start)
        if span is None:
            return [], 0, False
        kept = ""
        if not span.group(2) and for_html(span.group(1)):
            kept = RAW_MARK % self.md.htmlStash.html_counter
            self.md.htmlStash.store(span.group(3))
        taken = text.count("\n", 0, span.end()) + 1       # the lines up to the span's end
        read = (text[:span.start()] + kept + text[span.end():]).split("\n")
        return read[:taken - text.count("\n", span.start(), span.end())], taken, False


def for_html(attributes: str | None) -> bool:
    """Whether a ``{::nomarkdown type="..."}`` is for the HTML converter: with no type, it is for all."""
    types = dict(re.findall(r'(\w+)=["\']([^"\']*)["\']', attributes or "")).get("type", "").split()
    return not types or "html" in types


RAW_MARK = "\ue000%d\ue001"   # a stashed text's place, until RawMarksStashed (private-use characters)


class RawMarksStashed(Preprocessor):
    """:data:`RAW_MARK` made the raw HTML stash's placeholder (after ``normalize_whitespace``,
    which strips the placeholder's characters from the text, before the HTML blocks are read)."""

    def run(self, lines: list[str]) -> list[str]:
        if not self.md.htmlStash.html_counter:
            return lines
        return [RAW_MARKS.sub(lambda m: util.HTML_PLACEHOLDER % m.group(1), line) if "\ue000" in line else line
                for line in lines]


RAW_MARKS = re.compile("\ue000([0-9]+)\ue001")


class AttributesOnce(Postprocessor):
    """A tag's attribute written twice (``<a class="body-copy" href="..." class="cta-secondary">``,
    as swift.org's install pages write it) written once, with its last value at its first place,
    as kramdown writes the tags it reads into a mapping; a browser would keep the first value."""

    def run(self, text: str) -> str:
        return START_TAG.sub(_attributes_once, text) if TWICE.search(text) else text


START_TAG = re.compile(r"<([A-Za-z][\w:-]*)(\s[^<>]*?)(/?)>")
# A tag naming an attribute twice (most documents have none: the tags are left unread). The
# lookahead first asks for the two "=" such a tag holds, which most tags (a highlighted token's
# <span class="n">) lack, before the names are compared (0.74 against 0.10 ms a post).
TWICE = re.compile(r"<(?=[A-Za-z][^<>=]*=[^<>=]*=)[A-Za-z][\w:-]*\s[^<>]*?(?<![\w:-])([\w:-]+)\s*=[^<>]*?(?<![\w:-])\1\s*=")
ATTRIBUTE = re.compile(r"""([^\s=/>"']+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")


def _attributes_once(tag: re.Match) -> str:
    if tag.group(2).count("=") < 2:      # most tags: one attribute or none, nothing to look at
        return tag.group(0)
    found = ATTRIBUTE.findall(tag.group(2))
    names = [name.lower() for name, value in found if value]     # given a value: what TWICE looks for
    if len(set(names)) == len(names):
        return tag.group(0)
    values = {name.lower(): value for name, value in found}    # the last of each
    written = []
    for name, _ in found:
        if name.lower() in values:
            value = values.pop(name.lower())
            written.append(f"{name}={value}" if value else name)
    return f"<{tag.group(1)} {' '.join(written)}{tag.group(3)}>"


class RawBlocksUnwrapped(Postprocessor):
    """A ``{::nomarkdown}`` block is a block of its own, never a paragraph's text: the ``<p>``
    Python-Markdown put around its placeholder is taken off before the raw HTML goes in (which
    keeps the ``<p>`` around raw HTML that does not start with a block-level tag)."""

    def run(self, text: str) -> str:
        for placeholder in getattr(self.md, "raw_blocks", ()):
            text = text.replace(f"<p>{placeholder}</p>", placeholder)
        return text


class MarkdownInNestedHtml(Preprocessor):
    """``markdown="1"`` on an element inside other HTML elements, honoured as kramdown honours it.

    md_in_html reads Markdown in an element only if every element around it asks for it
    too; kramdown reads it wherever the attribute is. So each element around one that
    has it (a div-like element, its tag alone on its line) is given ``markdown="block"``:
    its elements are then read as before, and the one with the attribute as Markdown.
    Inside an element, kramdown's HTML reader takes the tag at any indent (systemds' release
    notes' ``<div markdown="1">`` four spaces in): it is moved to the line's start, not code.
    """

    OPEN = re.compile(r"^\s*<(div|section|article|aside|header|footer|main|nav|figure|details)\b"
                      r"(?![^>]*\bmarkdown=)[^>]*>\s*$")

    def run(self, lines: list[str]) -> list[str]:
        if not any('markdown="1"' in line for line in lines):    # most pages: nothing to honour
            return lines
        around: list[int | None] = []     # the lines opening the elements we are in (None: not ours)
        marked: set[int] = set()
        nested: set[int] = set()          # tags inside an element, indented as code would be
        fence = None
        for number, line in enumerate(lines):
            if fence is not None:           # HTML in fenced code is code
                fence = None if _closes_fence(fence, line) else fence
            elif opening := FENCE.match(line):
                fence = opening.group(1)
            elif self.OPEN.match(line):
                around.append(number)
            elif MARKDOWN_HTML.match(line):
                marked.update(index for index in around if index is not None)
                if around and line.startswith("    "):
                    nested.add(number)
                around.append(None)
            elif HTML_CLOSE.match(line) and around:
                around.pop()
        return [line.replace(">", ' markdown="block">', 1) if number in marked
                else line.lstrip() if number in nested else line for number, line in enumerate(lines)]


IAL_ONLY = re.compile(r"^\{(?!:[:/]):?\s*([^}\n]+)\}$")
IAL_FIRST = re.compile("^" + IAL_START + r"\s*([^}\n]+)\}[ \t]*")
IAL_LINE_FIRST = re.compile("^" + IAL_START + r"\s*([^}\n]+)\}[ \t]*\n[ \t]*")


class KramdownDefinitions(DefListProcessor):
    """kramdown's definitions: one whose ``:`` line follows a blank line holds a paragraph (its
    ``first_as_para``), where Python-Markdown read it as tight as the one before it
    (just-the-docs' "Second description of Term")."""

    def __init__(self, parser: BlockParser) -> None:
        super().__init__(parser)
        self.rest: str | None = None     # what the last definition's block left: no blank line above it

    def run(self, parent: etree.Element, blocks: list[str]) -> bool | None:
        raw, count = blocks[0], len(blocks)
        after_blank = raw is not self.rest and self.RE.match(raw) is not None    # a ":" line, no terms
        done = super().run(parent, blocks)
        self.rest = blocks[0] if len(blocks) == count else None
        if done is not False and after_blank:
            definition = self.lastChild(parent)[-1]
            if (definition.text or "").strip():
                paragraph = etree.Element("p")
                paragraph.text, definition.text = definition.text, None
                definition.insert(0, paragraph)
        return done


class BlockIals(Treeprocessor):
    """kramdown's block IALs that attr_list leaves alone: a line ``{:.cls}`` on its own
    before a list or heading (it applies to that block), and ``* {:.cls} text``
    at the start of a list item (it applies to the item; a paragraph it leaves empty
    goes). A line ``{: .x}`` with no block after it in its item, quote or page applies
    to nothing and goes, as kramdown drops it."""

    def run(self, root: etree.Element) -> None:
        attr_list = self.md.treeprocessors["attr_list"]
        for parent in list(root.iter()):
            children = list(parent)
            for i, child in enumerate(children):
                if child.tag == "li":      # "* {:.cls} text": the IAL is the item's
                    holder = child[0] if len(child) and child[0].tag == "p" and not (child.text or "").strip() \
                        else child
                    match = IAL_FIRST.match(holder.text or "")
                    if match:
                        attr_list.assign_attrs(child, match.group(1))
                        holder.text = holder.text[match.end():].lstrip("\n")
                        if holder is not child and not holder.text.strip() and not len(holder):
                            child.remove(holder)
                elif child.tag == "p" and (match := IAL_LINE_FIRST.match(child.text or "")):
                    attr_list.assign_attrs(child, match.group(1))   # "{:.cls}" on the line before
                    child.text = child.text[match.end():]
                if child.tag != "p" or len(child):
                    continue
                text = (child.text or "").strip()
                if text == END_OF_BLOCK:
                    parent.remove(child)
                    continue
                if text.startswith(LIST_IAL):     # the list's above it (see _kramdown_lists)
                    if i and children[i - 1].tag in ("ul", "ol"):
                        attr_list.assign_attrs(children[i - 1], IAL_ONLY.match(text[1:]).group(1))
                    parent.remove(child)
                    continue
                if i + 1 == len(children):
                    if STANDALONE_IAL.match(text):
                        parent.remove(child)
                    continue
                match = IAL_ONLY.match(text)
                if match and (code := self.stashed_code(children[i + 1])) is not None:
                    held = etree.Element("div")     # "{: .css}" over an indented block (Leaflet's examples)
                    attr_list.assign_attrs(held, match.group(1))
                    stash = self.md.htmlStash.rawHtmlBlocks
                    stash[code] = _outer_attributes(stash[code], held.attrib)
                    parent.remove(child)
                    continue
                if (match or (not text and child.attrib)) and children[i + 1].tag != "p":
                    target = children[i + 1]
                    if match:
                        attr_list.assign_attrs(target, match.group(1))
                    for key, value in child.attrib.items():
                        joined = f"{target.get(key)} {value}" if key == "class" and target.get(key) else value
                        target.set(key, joined)
                    parent.remove(child)


    def stashed_code(self, element: etree.Element) -> int | None:
        """Where in the raw HTML stash is the code block ``element`` (a paragraph) stands for, if it does."""
        found = util.HTML_PLACEHOLDER_RE.fullmatch(element.text or "") if element.tag == "p" and not len(element) \
            else None
        if found is None:
            return None
        index = int(found.group(1))
        held = self.md.htmlStash.rawHtmlBlocks[index] if index < len(self.md.htmlStash.rawHtmlBlocks) else None
        return index if isinstance(held, str) and held.startswith('<div class="highlight"') else None


def _outer_attributes(html: str, attributes: dict[str, str]) -> str:
    """``html`` with ``attributes`` on its outer element, a class after its own: kramdown puts a
    code block's attribute list on its outer ``div``."""
    tag, rest = html.split(">", 1)
    for key, value in attributes.items():
        own = re.search(rf' {re.escape(key)}="([^"]*)"', tag)
        if own and key == "class":
            tag = tag[:own.start(1)] + f"{own.group(1)} {escape(value)}" + tag[own.end(1):]
        elif not own:
            tag += f' {key}="{escape(value)}"'
    return f"{tag}>{rest}"


def _no_extension_tags(attr_list: AttrListTreeprocessor) -> None:
    """attr_list's block, heading and inline patterns opening as :data:`IAL_START` does: a lone
    ``{::nomarkdown}`` or ``{:/}`` ending a paragraph was its attribute ``:nomarkdown`` or ``_``."""
    for name in ("BLOCK_RE", "HEADER_RE", "INLINE_RE"):
        pattern = getattr(attr_list, name).pattern
        setattr(attr_list, name, re.compile(pattern.replace(r"\{\:?", r"\{(?!:[:/]):?", 1)))


REPEATED_REFERENCE = re.compile(r"fnref(\d+):(.+)")     # Python-Markdown's id of a note's later reference


class KramdownFootnotes(Treeprocessor):
    """Footnotes in kramdown's markup, which Jekyll themes style: ``a.footnote`` in the text,
    ``div.footnotes`` (no ``<hr>`` in it: a theme draws its own rule, or none) holding the notes,
    each back link an ``a.reversefootnote``, with kramdown's roles. A note referred to again
    has kramdown's ids for the later references (``fnref:n:1``, Python-Markdown's ``fnref2:n``)
    and their back links numbered (``&#8617;<sup>2</sup>``), a no-break space between. Runs after the
    footnotes extension's tree processors (15 the last), which find its back links by their class."""

    def run(self, root: etree.Element) -> None:
        if not self.md.treeprocessors["footnote"].footnotes.footnotes:   # no notes, no references
            return
        blocks = root.findall(".//div[@class='footnote']")
        if not blocks:
            return
        for block in blocks:
            block.attrib.update({"class": "footnotes", "role": "doc-endnotes"})
            for rule in block.findall("hr"):
                block.remove(rule)
            for note in block.iterfind("ol/li"):
                note.set("role", "doc-endnote")
        # Each element's links read in one pass over its children (two ``iterfind`` of each
        # element cost a post more than the rest of this); each link is changed as it was.
        for parent in root.iter():
            previous = None
            for link in parent:
                previous, before = link, previous
                if link.tag != "a":
                    continue
                kind = link.get("class")
                if kind == "footnote-ref":
                    link.attrib.update({"class": "footnote", "rel": "footnote"})
                    parent.set("role", "doc-noteref")
                    if again := REPEATED_REFERENCE.match(parent.get("id", "")):
                        parent.set("id", f"fnref:{again.group(2)}:{int(again.group(1)) - 1}")
                elif kind == "footnote-backref":
                    link.attrib.update({"class": "reversefootnote", "role": "doc-backlink"})
                    if again := REPEATED_REFERENCE.match(link.get("href", "")[1:]):
                        link.set("href", f"#fnref:{again.group(2)}:{int(again.group(1)) - 1}")
                        etree.SubElement(link, "sup").text = again.group(1)
                        if before is not None and before.tag == "a" and not before.tail:
                            before.tail = "\xa0"


class RawHtmlByItsTags(HTMLExtractorExtra):
    """md_in_html's HTML reader, reading an element without Markdown inside a ``markdown="1"``
    block by its tags alone, as kramdown reads it: there, a block tag indented four spaces
    or more was taken for a span's, and its end tag closed the element around it (a
    ``<ul>`` nested in a ``<ul>`` of a ``parse_block_html`` page ended the outer one)."""

    def __init__(self, md: markdown.Markdown):
        super().__init__(md)
        self.empty_tags |= set(HEAD_ELEMENTS)     # blocks without an end tag, as <hr>

    def at_line_start(self) -> bool:
        return bool(self.mdstate) and self.mdstate[-1] == "off" or super().at_line_start()

    def close(self) -> None:
        """Every ``markdown="1"`` element still open closed at the page's end, as kramdown closes
        them. md_in_html closes the outermost one by its name, which closes only the innermost
        of that name: two ``<aside markdown="1">`` left open lost the rest of the page. So is
        every element a raw HTML block left open (crail's posts end inside a ``<div>``, which
        took in the layout after the content)."""
        self.goahead(True)      # the rest read: the elements still open are known
        if self.inraw and self.stack:
            self._cache.append("".join(f"</{tag}>" for tag in reversed(self.stack)))
            self.stack = []
        super().close()
        while self.mdstack:
            self.handle_endtag(self.mdstack[0])


class HtmlBlocks(HtmlBlockPreprocessor):
    """md_in_html's preprocessor, its HTML read by :class:`RawHtmlByItsTags`."""

    def run(self, lines: list[str]) -> list[str]:
        parser = RawHtmlByItsTags(self.md)
        parser.feed("\n".join(lines))
        parser.close()
        return "".join(parser.cleandoc).split("\n")


class AdjacentCodeBlocks:
    """Indented code joins the code block before it only when it is the very next block.

    Python-Markdown's code processor joins an indented block to any code block that is its
    parent's last element, so ``code``, a link definition, ``code`` (a definition leaves no
    element) became one ``<pre>``; kramdown ends the code block at the definition. Joined are
    the blocks the parser takes one right after the other from the same list (blank lines
    between them are the code's own), and in a list item the blocks the item's indent
    processor takes one right after the other, each of them code (``* a``, a blank line,
    ``x``, a blank line, ``y``, both indented as code: one block, as kramdown reads it).
    Wraps the installed processors (superfences' own code one, which puts back fences inside
    indented code), whose ``lastChild`` answers None otherwise."""

    def __init__(self, code: BlockProcessor, indent: BlockProcessor):
        self.code, self.run_code, self.last_child = code, code.run, code.lastChild
        self.run_indent = indent.run
        self.left: tuple[list[str], int] | None = None    # (the list of blocks, its length) after the last code
        self.indent_left: tuple[list[str], int] | None = None   # the same after an item's code
        self.in_item_after_code = False    # the indent processor's block follows the item's code
        self.adjacent = False
        code.run, code.lastChild, indent.run = self.run, self.lastChild, self.indent

    def indent(self, parent: etree.Element, blocks: list[str]) -> bool | None:
        self.in_item_after_code = self.indent_left == (blocks, len(blocks))
        self.indent_left = None
        handled = self.run_indent(parent, blocks)
        if self.in_item_after_code is None:      # the code processor took this block
            self.indent_left = (blocks, len(blocks))
        self.in_item_after_code = False
        return handled

    def run(self, parent: etree.Element, blocks: list[str]) -> bool | None:
        self.adjacent = self.left == (blocks, len(blocks)) or bool(self.in_item_after_code)
        block = blocks[0] if blocks else ""
        handled = self.run_code(parent, blocks)
        if handled is not False:
            self.left = (blocks, len(blocks))
            self.in_item_after_code = None
            self.keep_trailing_spaces(parent, block)
        return handled

    def keep_trailing_spaces(self, parent: etree.Element, block: str) -> None:
        """The spaces ending the block's last line of code put back: kramdown keeps them in the
        code, Python-Markdown strips the whole block's end (its ``rstrip()``)."""
        code, _ = self.code.detab(block)
        last = code.rstrip("\n").rsplit("\n", 1)[-1]
        spaces = last[len(last.rstrip()):]
        pre = self.last_child(parent)
        if not spaces or not last.strip() or pre is None or pre.tag != "pre" or not len(pre):
            return
        text = pre[0].text or ""
        if text.endswith(util.code_escape(last.rstrip()) + "\n"):
            pre[0].text = util.AtomicString(text[:-1] + spaces + "\n")

    def lastChild(self, parent: etree.Element) -> etree.Element | None:   # noqa: N802 (the library's name)
        """The code block to join: none unless it was the block just before."""
        return self.last_child(parent) if self.adjacent else None


def _kramdown_typography(md: markdown.Markdown) -> None:
    """smarty's dots and dashes as kramdown makes them."""
    # kramdown makes an ellipsis of any three dots, left to right (``.....`` is ``…..``);
    # smarty only of a run of exactly three.
    smarty = md.treeprocessors["smarty"].inlinePatterns
    ellipses = smarty["smarty-ellipses"]
    smarty.register(SubstituteTextPattern(r"\.\.\.", ellipses.replace, md), "smarty-ellipses", 10)
    # And dashes of any run of hyphens, left to right, ``---`` before ``--`` (typographic_symbol.rb):
    # ``----`` is ``—-``, ``-----`` is ``—–``; smarty makes them of a run of exactly three or two.
    for name, run, priority in (("smarty-em-dashes", "---", 50), ("smarty-en-dashes", "--", 45)):
        smarty.register(SubstituteTextPattern(run, smarty[name].replace, md), name, priority)


class KramdownCompat(Extension):
    def __init__(self, **kwargs):
        self.config = {"header_ids": ["gfm", "how headers get ids: 'gfm' (Jekyll's default) or 'kramdown'"],
                       "toc_levels": [ALL_LEVELS, "the heading levels a {:toc} outline lists (kramdown's toc_levels)"],
                       "typography": [True, "quotes, dashes and dots made typographic as kramdown makes them "
                                            "(needs smarty and TypographyExtension loaded before)"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.preprocessors.register(KramdownExtensions(md), "kramdown_extensions", 38)
        md.preprocessors.register(RawMarksStashed(md), "raw_marks_stashed", 29)   # after normalize_whitespace (30)
        md.postprocessors.register(RawBlocksUnwrapped(md), "raw_blocks_unwrapped", 31)    # before raw_html (30)
        md.postprocessors.register(AttributesOnce(md), "attributes_once", 25)    # after raw_html (30)
        md.preprocessors.register(MarkdownInNestedHtml(md), "markdown_in_nested_html", 37.5)
        md.preprocessors.register(HtmlBlocks(md), "html_block", 20)     # md_in_html's, replaced
        md.preprocessors.register(KramdownBlocks(md), "kramdown_blocks", 37)
        md.preprocessors.register(AttributeListDefinitions(md), "kramdown_ald", 36)
        md.parser.blockprocessors.register(KramdownDefinitions(md.parser), "deflist", 25)   # def_list's, replaced
        # kramdown starts a new list where the items' kind changes (a "1." after "- a" and a
        # blank line); Python-Markdown continues the list above in either kind.
        md.parser.blockprocessors["olist"].SIBLING_TAGS = ["ol"]
        md.parser.blockprocessors["ulist"].SIBLING_TAGS = ["ul"]
        # kramdown's GFM input wants a space after a heading's hashes: ``##GUIDELINES``, or a
        # link's text going on with ``#31112`` on its next line, is text.
        md.parser.blockprocessors["hashheader"].RE = GFM_HEADING
        # kramdown ends a block quote at a blank line; Python-Markdown continued the quote above.
        md.parser.blockprocessors["quote"].lastChild = lambda parent: None
        # Above arithmatex (189.9), so that with $-math on, "$$x$$" is not read as "$" "$x$" "$".
        md.inlinePatterns.register(InlineMath(r"(?<!\\)\$\$(.+?)\$\$", md), "inline_math", 189.95)
        # Above emphasis (60), so that each may hold the other.
        md.inlinePatterns.register(Strikethrough(r"(?s)~~(?!\s|~)(.*?[^\s~])~~", md), "strikethrough", 65)
        md.ESCAPED_CHARS.append("~")
        md.ESCAPED_CHARS.extend("<:=")   # kramdown's escapable characters (escaped_chars.rb) Python-Markdown lacks
        # kramdown starts an HTML block at a line's tag of any but its span elements: a head's
        # <link> or <meta> in a page's body too (bitcoincore.org's download page), never in a <p>.
        md.block_level_elements.extend(HEAD_ELEMENTS)
        md.treeprocessors.register(ItemShapes(md), "item_shapes", 26)   # before task_lists (25), the inline pass (20)
        md.postprocessors.register(ItemMarksOut(md), "item_marks_out", 5)
        md.postprocessors.register(KeptTabs(md), "kept_tabs", 4)
        md.postprocessors.register(BlankIdsOut(md), "blank_ids_out", 3)
        _emptying_space_lines(md.parser.blockprocessors["markdown_block"])
        html_elements = _recording_elements(md.parser.blockprocessors["markdown_block"])
        md.treeprocessors.register(HeaderIds(md, self.getConfig("header_ids"), html_elements), "header_ids", 4)
        md.treeprocessors.register(KramdownToc(md, self.getConfig("toc_levels")), "kramdown_toc", 3.9)    # needs the ids
        md.treeprocessors.register(HeaderlessTables(md), "headerless_tables", 3)
        md.treeprocessors.register(TaskLists(md), "task_lists", 25)   # before the inline pass (20)
        md.treeprocessors.register(BlockIals(md), "block_ials", 7)   # after attr_list (8)
        _no_extension_tags(md.treeprocessors["attr_list"])
        if self.getConfig("typography"):
            KramdownQuotesExtension().extendMarkdown(md)
        md.treeprocessors.register(KramdownFootnotes(md), "kramdown_footnotes", 12)
        # Below code spans (190), so that `<script>` in backticks stays code.
        md.inlinePatterns.register(KramdownSpanHtml(HTML_SPAN, md), "html", 90)
        md.inlinePatterns.register(RawSpanHtml(RAW_SPAN, md), "raw_span_html", 192)   # above code spans (190)
        md.treeprocessors.register(StrayClosingTags(md), "stray_closing_tags", 19.5)   # after the inline pass (20)
        md.inlinePatterns.register(KramdownCodeSpan(BACKTICK_RE), "backtick", 190)
        for name in ("reference", "image_reference", "short_reference", "short_image_ref"):
            pattern = md.inlinePatterns[name]
            pattern.evalId = _with_code_spans(pattern, pattern.evalId)
            pattern.handleMatch = _undefined_as_text(pattern.handleMatch)
        for name in ("image_link", "image_reference", "short_image_ref"):
            md.inlinePatterns[name].unescape = _alt_with_code_spans(md.inlinePatterns[name])
        md.inlinePatterns.register(RawContent(RAW_CONTENT.pattern, md), "raw_content", 185)
        if self.getConfig("typography"):
            _kramdown_typography(md)
        # kramdown's GFM input breaks a line that ends in a backslash, as one that ends in two
        # spaces; above escapes (180), which leave a backslash before a line's end as text.
        md.inlinePatterns.register(SubstituteTagInlineProcessor(r"\\\n", "br"), "backslash_break", 181)
        AdjacentCodeBlocks(md.parser.blockprocessors["code"], md.parser.blockprocessors["indent"])
        linear_time(md)


class Highlighting(Extension):
    """Fences highlighted by ``highlighter`` (sitegen's :class:`CachedHighlight`, or the plain
    :class:`ReachableHighlight` it must equal): superfences asks pymdownx.highlight for its
    highlighter class, and gets this one (load after ``pymdownx.highlight``)."""

    def __init__(self, highlighter: type[ReachableHighlight] = CachedHighlight, **kwargs):
        self.highlighter = highlighter
        super().__init__(**kwargs)

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        for extension in md.registeredExtensions:
            if isinstance(extension, HighlightExtension):
                extension.get_pymdownx_highlighter = lambda: self.highlighter


EXTENSIONS = [
    "abbr", "admonition", "attr_list", "def_list", "footnotes", "md_in_html",
    "tables", "smarty", "pymdownx.superfences", "pymdownx.highlight",
    "pymdownx.arithmatex", "pymdownx.tabbed", TablesInFrames(),
]

EXTENSION_CONFIGS = {
    # stripnl: a code block's leading blank lines are kept, as kramdown keeps them.
    "pymdownx.highlight": {"css_class": HIGHLIGHT_CLASS, "guess_lang": False,
                           "use_pygments": True, "linenums_style": "table", "stripnl": False},
    "pymdownx.arithmatex": {"generic": True, "inline_syntax": ["round"],
                            "block_syntax": ["dollar", "square", "begin"]},
    "footnotes": {"BACKLINK_TITLE": "Back to reference %d"},
    "smarty": {"smart_angled_quotes": True},   # kramdown: <<x>> -> «x»
    # preserve_tabs: a fence's code keeps its tabs and its lines of spaces, as kramdown keeps them.
    "pymdownx.superfences": {"custom_fences": [MERMAID_FENCE], "preserve_tabs": True},
    "pymdownx.tabbed": {"alternate_style": True},   # content tabs (=== "pip"), switched by CSS alone
}


def markdown_converter(dollar_math: bool = False, header_ids: str = "gfm",
                       toc_levels: tuple[int, ...] = ALL_LEVELS, backslash_math: bool = True) -> markdown.Markdown:
    """A Python-Markdown converter set up as sitegen renders.

    smarty's patterns define the typographic text; :class:`TypographyExtension`
    applies them in a fraction of smarty's own time. The inline pass skips the
    patterns a text cannot match (:mod:`generator.inline`), the block parser the
    processors a block cannot start (:mod:`generator.blocks`), and whether a tag
    is a block's is asked of the list of block tags once per tag. Without ``backslash_math``,
    ``\\(x\\)`` and ``\\[x\\]`` are escaped brackets, as kramdown reads them.
    """
    configs = EXTENSION_CONFIGS
    if dollar_math:
        math = {**configs["pymdownx.arithmatex"], "inline_syntax": ["dollar", "round"]}
        configs = {**configs, "pymdownx.arithmatex": math}
    elif not backslash_math:
        math = {**configs["pymdownx.arithmatex"], "inline_syntax": [], "block_syntax": ["dollar"]}
        configs = {**configs, "pymdownx.arithmatex": math}
    # A notebook's Markdown (dollar math) keeps quotes, dashes and dots as typed, as Jupyter shows them.
    typography = not dollar_math
    extensions = EXTENSIONS if typography else [name for name in EXTENSIONS if name != "smarty"]
    md = markdown.Markdown(extensions=[*extensions,
                                       KramdownCompat(header_ids=header_ids, toc_levels=toc_levels, typography=typography),
                                       *([TypographyExtension()] if typography else []),
                                       Highlighting(), SkippingInlineExtension(),
                                       LinkTitlesAfterSpace(),
                                       SkippingBlocksExtension(),
                                       MystExtension(partial(markdown_converter, dollar_math, header_ids, toc_levels,
                                                             backslash_math))],
                           extension_configs=configs, output_format="html")
    if dollar_math:     # Jupyter's Markdown reads Markdown inside any tag; raw spans are kramdown's
        md.inlinePatterns.deregister("raw_span_html")
        md.inlinePatterns.register(HtmlInlineProcessor(HTML_SPAN, md), "html", 90)   # block tags too
        md.postprocessors.deregister("blank_ids_out")     # Jupyter writes the HTML as it is
        md.preprocessors["kramdown_blocks"].jupyter = True     # GFM's tables and code blocks
        # Below links (160) and <url> (120), whose text it leaves alone; above emphasis (60), as mistune's url_link
        md.inlinePatterns.register(BareUrl(BARE_URL, md), "bare_url", 115)
    speed_up(md)
    return md


# GFM's bare URL, as Jupyter's Markdown (mistune's url plugin) reads it: no placeholder inside.
BARE_URL = r"""https?://[^\s<\x02\x03]+[^<.,:;"')\]\s\x02\x03]"""
URL_SAFE = ":/?#@!$&()*+,;=%"    # what mistune leaves unquoted in its href (RFC 3986's delimiters but [, ] and ')


class BareUrl(InlineProcessor):
    """A bare ``http(s)://`` URL in a notebook's Markdown, a link to itself, as Jupyter makes it
    (nbconvert's mistune, its ``url`` plugin); a post's stays text, as kramdown keeps it."""

    ANCESTOR_EXCLUDES = ("a",)

    def handleMatch(self, m: re.Match, data: str) -> tuple[etree.Element, int, int]:  # noqa: N802 (the library's name)
        link = etree.Element("a", {"href": quote(unescape(m.group(0)), safe=URL_SAFE)})
        link.text = AtomicString(m.group(0))
        return link, m.start(0), m.end(0)


class MarkdownRenderer:
    """A reusable, configured Markdown converter (reset between documents)."""

    def __init__(self, dollar_math: bool = False, header_ids: str = "gfm",
                 toc_levels: tuple[int, ...] = ALL_LEVELS, backslash_math: bool = True) -> None:
        self._md = markdown_converter(dollar_math, header_ids, toc_levels, backslash_math)

    def render(self, text: str, myst: Document | None = None) -> Rendered:
        self._md.reset()
        self._md.toc_headings = ()
        text = text.replace("\r\n", "\n")     # Unicode as written: kramdown normalizes none (see KRAMDOWN_READINGS)
        document = self._md.myst_extension.document = myst or Document.of(text)
        document.warnings = []
        html = self._md.convert(text)
        return Rendered(html, self._md.toc_headings, tuple(document.warnings))


_shared: dict[tuple[bool, str, tuple[int, ...], bool], MarkdownRenderer] = {}


def render_markdown(text: str, *, dollar_math: bool = False, header_ids: str = "gfm",
                    toc_levels: tuple[int, ...] = ALL_LEVELS, myst: Document | None = None,
                    backslash_math: bool = True) -> Rendered:
    """Render ``text`` with a renderer shared within this process.

    ``dollar_math`` also reads ``$x$`` as inline math, and Markdown inside any
    HTML tag (``<u>**x**</u>``), as Jupyter's Markdown cells do; kramdown (and
    so a post) only knows ``$$x$$``, and reads a ``<u>``'s content raw. ``header_ids``
    names the rule for heading ids: ``gfm`` (Jekyll's default) or ``kramdown``; ``toc_levels``
    the heading levels a ``{:toc}`` outline lists; ``backslash_math`` (site.yaml ``markdown.backslash_math``)
    whether ``\\(x\\)`` and ``\\[x\\]`` are math or, as in kramdown, escaped brackets.
    ``myst`` is what MyST's roles refer to (a notebook's cells share one), else ``text``'s own.
    """
    key = (dollar_math, header_ids, tuple(toc_levels), backslash_math)
    if key not in _shared:
        _shared[key] = MarkdownRenderer(*key)
    return _shared[key].render(text, myst)
