"""Pygments at build time: code blocks, source listings and the stylesheet.

Markdown fences are highlighted by pymdownx.highlight (see markdown.py) with
the same CSS class as here, so one generated stylesheet styles posts,
tutorials and source listings alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from pygments import format as format_tokens
from pygments import highlight as pygments_highlight
from pygments import lex
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.lexers.special import TextLexer
from pygments.styles import get_all_styles
from pygments.util import ClassNotFound

from generator.errors import SiteError
from generator.markdown import HIGHLIGHT_CLASS


def lexer_for(language: str | None = None, filename: str | None = None):
    """The lexer for a language name or a file name; plain text when unknown."""
    try:
        if language:
            return get_lexer_by_name(language, stripnl=False, ensurenl=True)
        if filename:
            return get_lexer_for_filename(filename, stripnl=False, ensurenl=True)
    except ClassNotFound:
        pass
    return TextLexer(stripnl=False, ensurenl=True)


def highlight(code: str, language: str | None) -> str:
    """A highlighted ``<div class="highlight"><pre>`` block for ``code``."""
    formatter = HtmlFormatter(cssclass=HIGHLIGHT_CLASS, wrapcode=True)
    return pygments_highlight(code, lexer_for(language), formatter)


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
