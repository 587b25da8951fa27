"""Markdown to HTML, the way kramdown renders a Jekyll site.

Python-Markdown does the parsing; the extensions chosen here cover what
kramdown gives Jekyll authors (footnotes, attribute lists, tables, definition
lists, abbreviations, Markdown inside HTML, smart quotes, math, admonitions).
Two small extensions of our own fill the gaps: header ids made with kramdown's
rule, so anchors into pages migrated from Jekyll keep working, and inline
``$$...$$`` math, which kramdown accepts and arithmatex does not.
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as etree
from collections import deque
from dataclasses import dataclass
from functools import partial
from html import unescape

import markdown
from markdown.blockparser import BlockParser
from markdown.extensions import Extension
from markdown.extensions.toc import remove_fnrefs, render_inner_html
from markdown.inlinepatterns import HtmlInlineProcessor, InlineProcessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor
from markdown.util import AtomicString

from generator import codec

HIGHLIGHT_CLASS = "highlight"


@codec.record
@dataclass(frozen=True)
class Heading:
    level: int
    id: str
    title: str


@dataclass(frozen=True)
class Rendered:
    html: str
    toc: tuple[Heading, ...]


def kramdown_id(text: str) -> str:
    """The id kramdown's ``auto_ids`` gives a header with this text.

    Leading characters up to the first letter go, then everything but ASCII
    letters, digits, spaces and dashes; spaces become dashes (each one, so
    two spaces give two dashes); the result is lower-cased.
    """
    text = re.sub(r"^[^a-zA-Z]+", "", text)
    text = re.sub(r"[^a-zA-Z0-9 -]", "", text)
    return text.replace(" ", "-").lower() or "section"


class HeaderIds(Treeprocessor):
    """Give every heading a kramdown id (unless it has one) and record the outline."""

    def run(self, root: etree.Element) -> None:
        taken: set[str] = {el.get("id") for el in root.iter() if el.get("id")}
        last_suffix: dict[str, int] = {}   # so that the 1000th "Setup" does not try 999 ids first
        toc = []
        for el in root.iter():
            if el.tag not in ("h1", "h2", "h3", "h4", "h5", "h6"):
                continue
            # Tags out, whitespace kept: kramdown turns each space into a dash.
            inner = render_inner_html(remove_fnrefs(el), self.md)
            title = unescape(re.sub(r"<[^>]*>", "", inner)).strip()
            if not el.get("id"):
                base = kramdown_id(title)
                n = last_suffix.get(base, 0)
                candidate = f"{base}-{n}" if n else base
                while candidate in taken:
                    n += 1
                    candidate = f"{base}-{n}"
                last_suffix[base] = n
                taken.add(candidate)
                el.set("id", candidate)
            toc.append(Heading(int(el.tag[1]), el.get("id"), title))
        self.md.toc_headings = tuple(toc)


class InlineMath(InlineProcessor):
    """kramdown's inline ``$$ x $$``, passed through as ``\\( x \\)`` for MathJax/KaTeX."""

    def handleMatch(self, m: re.Match, data: str):
        span = etree.Element("span", {"class": "arithmatex"})
        span.text = AtomicString(f"\\({m.group(1).strip()}\\)")
        return span, m.start(0), m.end(0)


class RawScriptAndStyle(HtmlInlineProcessor):
    """An inline ``<script>`` or ``<style>`` element kept whole, as raw HTML.

    Python-Markdown's inline HTML pattern keeps only the tags, so the code
    between them went through emphasis and smart quotes (``"a"`` became
    ``&ldquo;a&rdquo;`` in JavaScript).
    """

    def handleMatch(self, m: re.Match, data: str):
        return self.md.htmlStash.store(m.group(0)), m.start(0), m.end(0)


class JekyllHighlight(Preprocessor):
    """Turn Liquid ``{% highlight lang %}`` blocks into fenced code blocks."""

    START = re.compile(r"^\s*\{%-?\s*highlight\s+([^\s%]+)(?:\s+(linenos))?\s*-?%\}\s*$")
    END = re.compile(r"^\s*\{%-?\s*endhighlight\s*-?%\}\s*$")

    def run(self, lines: list[str]) -> list[str]:
        out = []
        for line in lines:
            start = self.START.match(line)
            if start:
                lang = start.group(1).lower()
                out.append(f"```{lang}" + (' linenums="1"' if start.group(2) else ""))
            elif self.END.match(line):
                out.append("```")
            else:
                out.append(line)
        return out


class AttributeListDefinitions(Preprocessor):
    """kramdown's named attribute lists: ``{:center: style="text-align: center"}``
    defines ``center``, and ``{:center}`` (or ``{: center .x}``) later uses it.

    Definitions are removed; uses are expanded into plain attribute lists,
    which the attr_list extension then applies.
    """

    DEFINITION = re.compile(r"^\{:([A-Za-z][\w-]*):\s*(.*?)\s*\}\s*$")
    USE = re.compile(r"\{:([^}\n]*)\}")

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


STANDALONE_IAL = re.compile(r"^\{:[^}\n]*\}\s*$")
NOT_A_PARAGRAPH = re.compile(r"^(\s{4}|\s*([#>|<*+-]|\d+\.|```|~~~|!!!|\{:))")


def _move_leading_block_ials(lines: list[str]) -> list[str]:
    """Move an attribute list written *before* a paragraph to its last line.

    kramdown applies a block attribute list on the line before a block to
    that block; Python-Markdown's attr_list only looks at the block's last line.
    """
    out = list(lines)
    i = 0
    while i < len(out) - 1:
        line = out[i]
        if (STANDALONE_IAL.match(line) and (i == 0 or not out[i - 1].strip())
                and out[i + 1].strip() and not NOT_A_PARAGRAPH.match(out[i + 1])):
            end = i + 1
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


class KramdownCompat(Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.preprocessors.register(AttributeListDefinitions(md), "kramdown_ald", 36)
        md.preprocessors.register(JekyllHighlight(md), "jekyll_highlight", 35)
        # Above arithmatex (189.9), so that with $-math on, "$$x$$" is not read as "$" "$x$" "$".
        md.inlinePatterns.register(InlineMath(r"(?<!\\)\$\$(.+?)\$\$", md), "inline_math", 189.95)
        # Below code spans (190), so that `<script>` in backticks stays code.
        md.inlinePatterns.register(RawScriptAndStyle(r"(?i)<(script|style)\b[^>]*>.*?</\1\s*>", md),
                                   "raw_script_style", 185)
        md.treeprocessors.register(HeaderIds(md), "header_ids", 4)
        _linear_time(md)


def _linear_time(md: markdown.Markdown) -> None:
    """Work around three steps of Python-Markdown and pymdownx that are quadratic
    in the length of a document (issue 15; see benchmarks/bench_huge.py)."""
    md.parser.parseChunk = partial(_parse_chunk, md.parser)
    fences = md.preprocessors["fenced_code_block"]
    fences.reassemble = partial(_reassemble_fences, fences)
    # The inline pass finds each element with a tail by list(parent).index(child),
    # once per such element. Prettify gives every block a tail ("\n"), and smarty's
    # pass (6) is a second inline pass: prettify goes after it (5), not before (10).
    prettify = md.treeprocessors["prettify"]
    md.treeprocessors.deregister("prettify")
    md.treeprocessors.register(prettify, "prettify", 5)


EXTENSIONS = [
    "abbr", "admonition", "attr_list", "def_list", "footnotes", "md_in_html",
    "tables", "smarty", "pymdownx.superfences", "pymdownx.highlight",
    "pymdownx.arithmatex", KramdownCompat(),
]

EXTENSION_CONFIGS = {
    "pymdownx.highlight": {"css_class": HIGHLIGHT_CLASS, "guess_lang": False,
                           "use_pygments": True, "linenums_style": "table"},
    "pymdownx.arithmatex": {"generic": True, "inline_syntax": ["round"],
                            "block_syntax": ["dollar", "square", "begin"]},
    "footnotes": {"BACKLINK_TITLE": "Back to reference %d"},
    "smarty": {"smart_angled_quotes": False},
}


class MarkdownRenderer:
    """A reusable, configured Markdown converter (reset between documents)."""

    def __init__(self, dollar_math: bool = False) -> None:
        configs = EXTENSION_CONFIGS
        if dollar_math:
            math = {**configs["pymdownx.arithmatex"], "inline_syntax": ["dollar", "round"]}
            configs = {**configs, "pymdownx.arithmatex": math}
        self._md = markdown.Markdown(extensions=EXTENSIONS, extension_configs=configs,
                                     output_format="html")

    def render(self, text: str) -> Rendered:
        self._md.reset()
        self._md.toc_headings = ()
        html = self._md.convert(_normalize(text))
        return Rendered(html, self._md.toc_headings)


def _normalize(text: str) -> str:
    return unicodedata.normalize("NFC", text.replace("\r\n", "\n"))


_shared: dict[bool, MarkdownRenderer] = {}


def render_markdown(text: str, *, dollar_math: bool = False) -> Rendered:
    """Render ``text`` with a renderer shared within this process.

    ``dollar_math`` also reads ``$x$`` as inline math, as Jupyter's Markdown
    cells do; kramdown (and so a post) only knows ``$$x$$``.
    """
    if dollar_math not in _shared:
        _shared[dollar_math] = MarkdownRenderer(dollar_math)
    return _shared[dollar_math].render(text)
