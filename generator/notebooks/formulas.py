"""Jupyter's math as the site's KaTeX can typeset it.

Jupyter typesets Markdown cells with MathJax, which takes more than KaTeX:
display environments inside ``$...$`` (``$\\begin{align}...\\end{align}$`` is
how Jupyter's own documentation writes them), ``eqnarray``, ``multline``,
``\\label`` and ``\\require``. Such formulas are rewritten here into what KaTeX
takes and means the same. A formula that still uses an environment KaTeX
does not have is shown as its source, with a warning, instead of as an error
in red; one using a command KaTeX does not know (and the notebook does not
define with ``\\newcommand``) gets a warning, and the browser's math.js shows
it, like any formula KaTeX refuses, as readable source.

The environment lists are KaTeX's (https://katex.org/docs/supported.html,
"Environments", for the vendored KaTeX 0.19), the commands those of the
vendored katex.min.js (``katex_commands``); tests check both against it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable

from generator.notebooks.katex_commands import KATEX_COMMANDS

KATEX_ENVIRONMENTS = frozenset({
    "array", "darray", "matrix", "pmatrix", "bmatrix", "Bmatrix", "vmatrix", "Vmatrix",
    "matrix*", "pmatrix*", "bmatrix*", "Bmatrix*", "vmatrix*", "Vmatrix*", "smallmatrix", "subarray",
    "cases", "dcases", "rcases", "drcases", "align", "align*", "aligned", "split", "gathered",
    "gather", "gather*", "alignat", "alignat*", "alignedat", "equation", "equation*", "CD",
})
DISPLAY_ONLY = frozenset({"equation", "equation*", "align", "align*", "alignat", "alignat*",
                          "gather", "gather*", "split", "CD"})
# MathJax environments KaTeX lacks, as the nearest one it has (eqnarray's rcl columns
# become align's rl pairs; multline's staggered lines become centred ones).
REPLACED = {"eqnarray": "align*", "eqnarray*": "align*", "multline": "gather*", "multline*": "gather*"}

ENVIRONMENT = re.compile(r"\\(begin|end)\s*\{([^{}]*)\}")
DROPPED = re.compile(r"\\(?:label|require)\s*\{[^{}]*\}")     # no cross-references, no MathJax packages
TOKEN = re.compile(r"\\(?:([A-Za-z@]+)|.)", re.S)     # a backslash and a name, or one other character
DEFINITION = re.compile(r"\\(?:(?:re)?newcommand|providecommand)\s*\{?\s*\\([A-Za-z@]+)"
                        r"|\\(?:[gex]?def|let)\s*\\([A-Za-z@]+)")
MATH_ELEMENT = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.S)
DELIMITERS = re.compile(r"^\\([\[(])(.*)\\[\])]$", re.S)


def for_katex(tex: str, display: bool) -> tuple[str, bool, list[str]]:
    """``tex`` rewritten for KaTeX, whether it is display math, and environments KaTeX still lacks."""
    tex = DROPPED.sub("", tex)
    tex = ENVIRONMENT.sub(lambda m: f"\\{m.group(1)}{{{REPLACED.get(m.group(2).strip(), m.group(2).strip())}}}",
                         tex)
    names = {m.group(2) for m in ENVIRONMENT.finditer(tex)}
    display = display or bool(names & DISPLAY_ONLY)
    return tex, display, sorted(names - KATEX_ENVIRONMENTS)


def defined_commands(texts: Iterable[str]) -> frozenset[str]:
    """The commands a notebook defines for itself (``\\newcommand{\\R}{\\mathbb{R}}``, ``\\def``)."""
    return frozenset(m.group(1) or m.group(2) for text in texts for m in DEFINITION.finditer(text))


def unknown_commands(tex: str, defined: frozenset[str] = frozenset()) -> list[str]:
    """The control sequences of ``tex`` that neither KaTeX nor the notebook defines."""
    used = {m.group(1) for m in TOKEN.finditer(tex) if m.group(1)}
    return sorted(used - KATEX_COMMANDS - defined)


def typeset_tex(tex: str, warn: Callable[[str], None], defined: frozenset[str] = frozenset()) -> str:
    """A display formula (a ``text/latex`` output) rewritten for KaTeX; ``warn`` hears what it lacks."""
    tex, _, unknown = for_katex(tex, True)
    if unknown:
        warn(f"KaTeX has no environment {_braced(unknown)}: the formula is shown as its source")
    _check_commands(tex, warn, defined)
    return tex


def _check_commands(tex: str, warn: Callable[[str], None], defined: frozenset[str]) -> None:
    commands = unknown_commands(tex, defined)
    if commands:
        names = ", ".join(f"\\{name}" for name in commands)
        warn(f"KaTeX does not know {names}: the formula is shown as its source")


def _braced(names: list[str]) -> str:
    return ", ".join(f"{{{name}}}" for name in names)


def typeset_html(fragment: str, warn: Callable[[str], None], defined: frozenset[str] = frozenset()) -> str:
    """The math elements of rendered Markdown rewritten for KaTeX.

    A formula using an environment KaTeX lacks becomes ``<code class="math-source">``
    with its source; one using an unknown command is left for math.js to show as
    source. ``warn`` is told of both.
    """
    def rewrite(match: re.Match) -> str:
        tag, body = match.group(1), html.unescape(match.group(2)).strip()
        delimited = DELIMITERS.match(body)
        if not delimited:
            return match.group(0)
        tex, display, unknown = for_katex(delimited.group(2), delimited.group(1) == "[")
        if unknown:
            warn(f"KaTeX has no environment {_braced(unknown)}: the formula is shown as its source")
            title = f"KaTeX cannot typeset this formula (no environment {_braced(unknown)})"
            return (f'<code class="math-source" title="{html.escape(title)}">'
                    f"{html.escape(delimited.group(2).strip(), quote=False)}</code>")
        _check_commands(tex, warn, defined)
        opening, closing = ("\\[", "\\]") if display else ("\\(", "\\)")
        return f'<{tag} class="arithmatex">{html.escape(opening + tex + closing, quote=False)}</{tag}>'

    return MATH_ELEMENT.sub(rewrite, fragment)
