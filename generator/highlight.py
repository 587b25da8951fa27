"""Pygments at build time: code blocks, source listings and the stylesheet.

Markdown fences are highlighted by pymdownx.highlight (see markdown.py) with
the same CSS class as here, so one generated stylesheet styles posts,
tutorials and source listings alike.

Making a Pygments formatter costs a pass over the whole style, and a lexer a
look-up by name, so each is made once per language and options (fences too:
pymdownx's highlighter runs with a formatter factory that keeps them); lexers
try each state's rules as one regular expression (:mod:`generator.lexing`);
and the same code block (a license header, an install command) is
highlighted once per process: highlighted blocks are kept by their code and
options.
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from functools import lru_cache

from pygments import format as format_tokens
from pygments import highlight as pygments_highlight
from pygments import lex
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.lexers.special import TextLexer
from pygments.styles import get_all_styles
from pygments.util import ClassNotFound
import pymdownx.highlight
from pymdownx.highlight import Highlight

from generator.errors import SiteError
from generator.lexing import faster

HIGHLIGHT_CLASS = "highlight"
BLOCKS_KEPT = 4096   # highlighted blocks kept per process (a few MiB)


@lru_cache(maxsize=256)
def lexer_for(language: str | None = None, filename: str | None = None):
    """The lexer for a language name or a file name; plain text when unknown."""
    try:
        if language:
            return faster(get_lexer_by_name(language, stripnl=False, ensurenl=True))
        if filename:
            return faster(get_lexer_for_filename(filename, stripnl=False, ensurenl=True))
    except ClassNotFound:
        pass
    return TextLexer(stripnl=False, ensurenl=True)


@lru_cache(maxsize=1)
def _block_formatter() -> HtmlFormatter:
    return HtmlFormatter(cssclass=HIGHLIGHT_CLASS, wrapcode=True)


@lru_cache(maxsize=BLOCKS_KEPT)
def highlight(code: str, language: str | None) -> str:
    """A highlighted ``<div class="highlight"><pre>`` block for ``code``."""
    return pygments_highlight(code, lexer_for(language), _block_formatter())


class CachedHighlight(Highlight):
    """pymdownx's highlighter with lexers made once per language and blocks kept by their code.

    The key is everything the highlighted HTML depends on: the highlighter's
    settings and the block's code, language and options (its number only
    when line anchors or spans use it). Inline code and HTML titles, which
    yield an element or touch the document's stash, are not kept.
    """

    _blocks: dict[tuple, str] = {}

    def get_lexer(self, src, language, inline, stripnl):
        if self.guess_lang:
            return super().get_lexer(src, language, inline, stripnl)
        return _pymdownx_lexer(self, language, inline, stripnl)

    def highlight(self, src, language, css_class="highlight", hl_lines=None, linestart=-1, linestep=-1,
                  linespecial=-1, inline=False, classes=None, id_value="", attrs=None, title=None,
                  code_block_count=0):
        arguments = dict(hl_lines=hl_lines, linestart=linestart, linestep=linestep, linespecial=linespecial,
                         inline=inline, classes=classes, id_value=id_value, attrs=attrs, title=title,
                         code_block_count=code_block_count)
        if inline or (title and self.title_mode == "html"):
            return super().highlight(src, language, css_class, **arguments)
        numbered = bool(self.line_spans or self.line_anchors)
        key = (self._settings(), src, language, css_class, tuple(hl_lines or ()), linestart, linestep,
               linespecial, tuple(classes or ()), id_value, tuple(sorted((attrs or {}).items())), title,
               code_block_count if numbered else None)
        if key not in self._blocks:
            if len(self._blocks) >= BLOCKS_KEPT:
                self._blocks.clear()
            self._blocks[key] = _highlight_reusing_formatters(self, src, language, css_class, **arguments)
        return self._blocks[key]

    def _settings(self) -> tuple:
        return (self.guess_lang, self.pygments_style, self.use_pygments, self.noclasses, self.linenums,
                self.linenums_style, self.linenums_special, self.linenums_class, self.language_prefix,
                self.code_attr_on_pre, self.auto_title, repr(self.auto_title_map), self.line_spans,
                self.line_anchors, self.anchor_linenums, self.pygments_lang_class, self.stripnl,
                self.default_lang, self.title_mode, repr(self.extend_pygments_lang))


_lexers: dict[tuple, tuple] = {}


def _pymdownx_lexer(highlighter: Highlight, language: str, inline: bool, stripnl: bool):
    key = (language, inline, stripnl, highlighter.default_lang, repr(highlighter.extend_pygments_lang))
    if key not in _lexers:
        lexer, name = Highlight.get_lexer(highlighter, "", language, inline, stripnl)
        _lexers[key] = faster(lexer), name
    return _lexers[key]


class _KeptFormatters:
    """Stands for pymdownx's ``BlockHtmlFormatter`` class: the same options give the same formatter.

    A Pygments formatter holds its options and the style's classes, and
    formatting changes neither, so one per set of options serves every block.
    """

    def __init__(self, cls: type):
        self.cls = cls
        self.made: dict[tuple, object] = {}

    def __call__(self, **options):
        key = tuple(sorted((name, tuple(value) if isinstance(value, list) else value)
                           for name, value in options.items()))
        if key not in self.made:
            if len(self.made) >= 256:
                self.made.clear()
            self.made[key] = self.cls(**options)
        return self.made[key]


# pymdownx's own Highlight.highlight makes a BlockHtmlFormatter per block (a pass over the whole
# style each): the same function, run with a namespace in which that name keeps its formatters.
_highlight_reusing_formatters = types.FunctionType(
    Highlight.highlight.__code__,
    {**vars(pymdownx.highlight), "BlockHtmlFormatter": _KeptFormatters(pymdownx.highlight.BlockHtmlFormatter)},
    "highlight", Highlight.highlight.__defaults__)


@dataclass(frozen=True)
class SourceLine:
    number: int
    html: str


def source_lines(code: str, filename: str) -> list[SourceLine]:
    """Highlight a whole file and cut the result into lines.

    Tokens that span lines (docstrings, block comments) are split at each
    newline so that every line is complete HTML and can carry its own anchor.
    """
    formatter = HtmlFormatter(nowrap=True)
    lines: list[list] = [[]]
    for ttype, value in lex(code, lexer_for(filename=filename)):
        parts = value.split("\n")
        for i, part in enumerate(parts):
            if i:
                lines.append([])
            if part:
                lines[-1].append((ttype, part))
    if not lines[-1]:
        lines.pop()
    return [SourceLine(n, format_tokens(tokens, formatter).rstrip("\n"))
            for n, tokens in enumerate(lines, start=1)]


def stylesheet(style: str) -> str:
    """CSS for highlighted code in the Pygments ``style``."""
    try:
        formatter = HtmlFormatter(style=style, cssclass=HIGHLIGHT_CLASS)
    except ClassNotFound:
        raise SiteError(f"key 'pygments_style': no Pygments style is named {style!r} "
                        f"(known: {', '.join(sorted(get_all_styles()))})", "site.yaml") from None
    return formatter.get_style_defs(f".{HIGHLIGHT_CLASS}") + "\n"
