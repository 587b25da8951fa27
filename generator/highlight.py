"""Pygments at build time: code blocks, source listings and the stylesheet.

Markdown fences are highlighted by pymdownx.highlight (see markdown.py) with
the same CSS class as here, so one generated stylesheet styles posts,
tutorials and source listings alike.

Making a Pygments formatter costs a pass over the whole style, and a lexer a
look-up by name, so each is made once per language and options (fences too:
pymdownx's highlighter runs with a formatter factory that keeps them); a lexer
that has lexed a few blocks tries at each character only the rules that may
match there (:mod:`generator.lexing`); and the same code block (a license header, an install command) is
highlighted once per process: highlighted blocks are kept by their code and
options; and a block's tokens are formatted by :func:`formatted_lines`, Pygments' own loop with
its common case (a token on one line) first.
"""

from __future__ import annotations

import re
import types
from dataclasses import dataclass
from functools import lru_cache, partial
from html import escape

from pygments import format as format_tokens
from pygments import highlight as pygments_highlight
from pygments import lex
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.lexers.special import TextLexer
from pygments.token import Text
from pygments.util import ClassNotFound
import pymdownx.highlight
from pymdownx.highlight import Highlight

from generator import pinned
from generator.code_styles import style_named
from generator.config import CodeStyles
from generator.lexing import faster

HIGHLIGHT_CLASS = "highlight"
BLOCKS_KEPT = 4096   # highlighted blocks kept per process (a few MiB)
FILTER_AFTER = 8     # blocks of one lexer lexed by Pygments' own loop before its rules are filtered


def lexer_for(language: str | None = None, filename: str | None = None):
    """The lexer for a language name or a file name; plain text when unknown."""
    key = (language, filename)
    lexer = _warmed(_made.get(key) or _found(language, filename))
    if len(_made) >= 256:
        _made.clear()
    _made[key] = lexer
    return lexer


def _found(language: str | None, filename: str | None):
    try:
        if language:
            return get_lexer_by_name(language, stripnl=False, ensurenl=True)
        if filename:
            return get_lexer_for_filename(filename, stripnl=False, ensurenl=True)
    except ClassNotFound:
        pass
    return TextLexer(stripnl=False, ensurenl=True)


_made: dict[tuple, object] = {}     # (language, filename) -> its lexer
_uses: dict[type, int] = {}         # lexer class -> blocks it was asked for
_filtering = True


def _warmed(lexer):
    """``lexer`` with its rules filtered by character (:func:`generator.lexing.faster`) once its
    class has lexed :data:`FILTER_AFTER` blocks in this process: reading where each rule may match
    costs a few milliseconds a lexer (Python's 20-40, Scala's 60), which a build that highlights
    a block or two would not win back."""
    if "_filtered" in type(lexer).__dict__:      # filtered already
        return lexer
    uses = _uses[type(lexer)] = _uses.get(type(lexer), 0) + 1
    return faster(lexer) if uses > FILTER_AFTER and _filtering else lexer


def filter_no_more() -> None:
    """Filter no more lexers' rules in this process (the preview, from its first edit on): each
    edit highlights a post's few blocks, and a filtering (:func:`_warmed`) would come in the middle
    of the edit whose blocks pass the count, while the author waits for the page."""
    global _filtering
    _filtering = False


@lru_cache(maxsize=2)
def _block_formatter(linenos: bool) -> HtmlFormatter:
    return quicker(HtmlFormatter(cssclass=HIGHLIGHT_CLASS, wrapcode=True, linenos="table" if linenos else False))


def quicker(formatter: HtmlFormatter) -> HtmlFormatter:
    """``formatter`` with its tokens formatted by :func:`formatted_lines`, where that stands for its
    own ``_format_lines``: Pygments' (:mod:`generator.pinned`), for classes (no inline styles,
    tags file or token titles)."""
    if type(formatter)._format_lines is HtmlFormatter._format_lines and pinned.unchanged(HtmlFormatter._format_lines) \
            and not (formatter.noclasses or formatter.tagsfile or formatter.debug_token_types):
        formatter._format_lines = partial(formatted_lines, formatter)
    return formatter


def formatted_lines(formatter: HtmlFormatter, tokensource):
    """``HtmlFormatter._format_lines``: the tokens' lines of HTML, each token's text escaped in a
    ``<span>`` of its class, a span running on over tokens of one class and closed at each line's
    end. Pygments' loop splits each token's escaped text into lines; most tokens (a name, an
    operator, a space) hold no newline and nothing to escape, and are added as they are here.
    tests/test_highlight.py compares the two."""
    lsep = formatter.lineseparator
    openers = formatter.span_element_openers
    lspan = ""
    line: list[str] = []
    for ttype, value in tokensource:
        cspan = openers.get(ttype)
        if cspan is None:
            css_class = formatter._get_css_classes(ttype)
            cspan = openers[ttype] = f'<span class="{css_class}">' if css_class else ""
        if "&" in value or "<" in value or ">" in value:
            value = escape(value, quote=False)
        if "\n" in value:
            parts = value.split("\n")
            for part in parts[:-1]:
                if line:
                    if lspan != cspan and part:
                        line.extend(((lspan and "</span>"), cspan, part, (cspan and "</span>"), lsep))
                    else:
                        line.extend((part, (lspan and "</span>"), lsep))
                    yield 1, "".join(line)
                    line = []
                elif part:
                    yield 1, "".join((cspan, part, (cspan and "</span>"), lsep))
                else:
                    yield 1, lsep
            value = parts[-1]
        if not value:
            continue
        if not line:
            line = [cspan, value]
            lspan = cspan
        elif lspan != cspan:
            line.extend(((lspan and "</span>"), cspan, value))
            lspan = cspan
        else:
            line.append(value)
    if line:
        line.extend(((lspan and "</span>"), lsep))
        yield 1, "".join(line)


@lru_cache(maxsize=BLOCKS_KEPT)
def highlight(code: str, language: str | None, linenos: bool = False) -> str:
    """A highlighted ``<div class="highlight"><pre>`` block for ``code``; with ``linenos``,
    numbered in a table as a fence's ``linenums`` are."""
    lexer = lexer_for(language)
    return reachable(pygments_highlight(code, lexer, _block_formatter(linenos)), lexer)


BLOCK_OPEN = re.compile(r'<div class="([^"]*\b%s\b[^"]*)">' % HIGHLIGHT_CLASS)


def reachable(html: str, lexer, title: str | None = None) -> str:
    """A code block that keyboard users can reach and scroll: wide code scrolls inside
    its block, which is focusable and named (WCAG 2.1.1; axe's scrollable-region-focusable),
    by its title (``title="file.py"``, its caption) where it has one."""
    label = "Code" if isinstance(lexer, TextLexer) else f"{lexer.name} code"
    if title:
        label = f"{title}, {label}"
    return BLOCK_OPEN.sub(lambda m: f'<div class="{m.group(1)}" tabindex="0" role="group" '
                                    f'aria-label="{escape(label)}">', html, count=1)


class ReachableHighlight(Highlight):
    """pymdownx's highlighter, its blocks made :func:`reachable` by keyboard."""

    def highlight(self, src, language, css_class="highlight", hl_lines=None, linestart=-1, linestep=-1,
                  linespecial=-1, inline=False, classes=None, id_value="", attrs=None, title=None,
                  code_block_count=0):
        block = super().highlight(src, language, css_class, hl_lines, linestart, linestep, linespecial, inline,
                                  classes, id_value, attrs, title, code_block_count)
        if inline:                  # an element for inline code: nothing to scroll
            return block
        return reachable(block, self.get_lexer(src, language, inline, self.stripnl)[0], title)


class CachedHighlight(ReachableHighlight):
    """The reachable highlighter with lexers made once per language and blocks kept by their code.

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
            block = _highlight_reusing_formatters(self, src, language, css_class, **arguments)
            self._blocks[key] = reachable(block, self.get_lexer(src, language, inline, self.stripnl)[0], title)
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
    lexer, name = _lexers.get(key) or Highlight.get_lexer(highlighter, "", language, inline, stripnl)
    lexer = _warmed(lexer)
    _lexers[key] = lexer, name
    return lexer, name


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
            self.made[key] = quicker(self.cls(**options))
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


DARK = '[data-theme="dark"] .highlight'                   # the reader chose dark
SYSTEM_DARK = ':root:not([data-theme="light"]) .highlight'    # the system is dark, no choice made


def stylesheet(styles: CodeStyles) -> str:
    """CSS for highlighted code: the light style, and the dark one where the page is dark.

    The page is dark when the reader chose it (``data-theme="dark"`` on the root,
    set by the theme's script), or when the system prefers it and the reader
    made no choice; without the script, the system's preference rules.
    """
    css = _style_defs(styles.light, f".{HIGHLIGHT_CLASS}")
    if styles.dark != styles.light:
        css += _style_defs(styles.dark, DARK)
        css += "@media (prefers-color-scheme: dark) {\n" + _style_defs(styles.dark, SYSTEM_DARK) + "}\n"
    return css


def _style_defs(name: str, scope: str) -> str:
    """One style's rules, every one inside ``scope`` (Pygments' own ``pre`` and line-number
    rules are global: they would leak from one style into the other)."""
    style = style_named(name)
    formatter = HtmlFormatter(style=style, cssclass=HIGHLIGHT_CLASS)
    numbers = (f"color: {style.line_number_color}; background-color: {style.line_number_background_color}")
    special = (f"color: {style.line_number_special_color}; "
               f"background-color: {style.line_number_special_background_color}")
    rules = [f"{scope} {{ color: {_text_color(style)} }}",
             *formatter.get_background_style_defs(scope), *formatter.get_token_style_defs(scope),
             f"{scope} .linenos .normal {{ {numbers} }}",
             f"{scope} .linenos .special {{ {special} }}"]
    return "\n".join(TOKEN_NAME.sub("", rule) for rule in rules) + "\n"


TOKEN_NAME = re.compile(r" /\* [\w.]+ \*/$")    # Pygments names each rule's token: a third of the bytes


def _text_color(style) -> str:
    """The colour of plain text: the style's, else black or white by its background (a style
    that leaves it to the page would take a dark page's light text onto its light background)."""
    color = style.style_for_token(Text)["color"]
    if color:
        return f"#{color}"
    red, green, blue = (int(style.background_color.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)) \
        if len(style.background_color) == 7 else (255, 255, 255)
    return "#000000" if 0.299 * red + 0.587 * green + 0.114 * blue > 128 else "#ffffff"
