"""Jupyter's math as the site's KaTeX can typeset it.

Jupyter typesets Markdown cells with MathJax, which takes more than KaTeX:
display environments inside ``$...$`` (``$\\begin{align}...\\end{align}$`` is
how Jupyter's own documentation writes them), ``eqnarray``, ``multline``,
``\\label`` and ``\\require``. Such formulas are rewritten here into what KaTeX
takes and means the same. A formula that still uses an environment KaTeX
does not have is shown as its source, with a warning, instead of as an error
in red; the browser's math.js does the same for any other formula KaTeX
refuses.

The environment lists are KaTeX's (https://katex.org/docs/supported.html,
"Environments", for the vendored KaTeX 0.19); a test checks them against
assets/vendor/katex/katex.min.js.
"""

from __future__ import annotations

import html
import re
from typing import Callable

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


def typeset_tex(tex: str, warn: Callable[[str], None]) -> str:
    """A display formula (a ``text/latex`` output) rewritten for KaTeX; ``warn`` hears what it lacks."""
    tex, _, unknown = for_katex(tex, True)
    if unknown:
        warn(f"KaTeX has no environment {_braced(unknown)}: the formula is shown as its source")
    return tex


def _braced(names: list[str]) -> str:
    return ", ".join(f"{{{name}}}" for name in names)


def typeset_html(fragment: str, warn: Callable[[str], None]) -> str:
    """The math elements of rendered Markdown rewritten for KaTeX.

    A formula KaTeX cannot take becomes ``<code class="math-source">`` with its
    source, and ``warn`` is told why.
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
        opening, closing = ("\\[", "\\]") if display else ("\\(", "\\)")
        return f'<{tag} class="arithmatex">{html.escape(opening + tex + closing, quote=False)}</{tag}>'

    return MATH_ELEMENT.sub(rewrite, fragment)
