"""The style sheets of HTML outputs, kept inside their output.

pandas' Styler colours a table with a ``<style>`` of rules on its cells' ids
(``#T_abc_row0_col1 {background-color: yellow}``); dropping it loses what the
output shows, keeping it as written lets any output restyle the page. So each
sheet is parsed (tinycss2) and rebuilt: every selector placed under the
output's own container (``#nb-cell-3-out-1 td``), every id it names prefixed
with the container's id (in the rule here, on the element by the sanitizer),
and only declarations of a short list of properties kept, with no ``url()``
or other function that loads or computes from elsewhere. At-rules, selectors
that would reach past the container (``~ p``) and other declarations are left
out and named, for a warning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import tinycss2
from tinycss2 import ast

STYLE = re.compile(r"<style\b[^>]*>(.*?)</style\s*>", re.S | re.I)
PROPERTIES = frozenset({
    "color", "background", "background-color", "background-image", "opacity", "visibility", "display",
    "font", "font-family", "font-size", "font-style", "font-variant", "font-weight", "line-height",
    "letter-spacing", "text-align", "text-decoration", "text-transform", "vertical-align", "white-space",
    "word-break", "overflow-wrap", "width", "min-width", "max-width", "height", "min-height", "max-height",
    "padding", "padding-top", "padding-right", "padding-bottom", "padding-left",
    "border", "border-top", "border-right", "border-bottom", "border-left", "border-color", "border-style",
    "border-width", "border-collapse", "border-spacing", "border-radius",
    "border-top-color", "border-right-color", "border-bottom-color", "border-left-color",
    "border-top-style", "border-right-style", "border-bottom-style", "border-left-style",
    "border-top-width", "border-right-width", "border-bottom-width", "border-left-width",
    "position", "top", "right", "bottom", "left", "z-index",   # Styler's sticky headers
})
POSITIONS = frozenset({"static", "sticky"})     # never fixed, absolute or relative: out of the flow
FUNCTIONS = frozenset({"rgb", "rgba", "hsl", "hsla", "calc", "linear-gradient", "repeating-linear-gradient"})


@dataclass
class Confined:
    """An HTML output without its ``<style>`` elements, and their rules as the page may carry them."""

    html: str
    css: str = ""
    ids: set[str] = field(default_factory=set)        # element ids the rules name, before the prefix
    left_out: list[str] = field(default_factory=list)


def confine(html: str, scope: str) -> Confined:
    """``html``'s style sheets, each rule confined to the element with id ``scope``."""
    confined = Confined(STYLE.sub("", html))
    rules = []
    for sheet in STYLE.findall(html):
        for rule in tinycss2.parse_stylesheet(sheet, skip_comments=True, skip_whitespace=True):
            if rule.type == "qualified-rule":
                rules += _rule(rule, scope, confined)
            elif rule.type == "at-rule":
                confined.left_out.append(f"@{rule.lower_at_keyword}")
            else:
                confined.left_out.append("what does not parse as CSS")
    # A "<" could end the page's <style> element: in CSS it is only ever a delimiter, escaped alike.
    confined.css = "\n".join(rules).replace("<", "\\3c ")
    return confined


def prefixed(scope: str, name: str) -> str:
    return f"{scope}-{name}"


def _rule(rule: ast.QualifiedRule, scope: str, confined: Confined) -> list[str]:
    selectors = [_selector(part, scope, confined) for part in _split(rule.prelude)]
    selectors = [s for s in selectors if s]
    declarations = [_declaration(d, confined) for d in tinycss2.parse_blocks_contents(
        rule.content, skip_comments=True, skip_whitespace=True)]
    declarations = [d for d in declarations if d]
    if not selectors or not declarations:
        return []
    return [f"{', '.join(selectors)} {{ {'; '.join(declarations)} }}"]


def _split(prelude: list) -> list[list]:
    """A selector list at its top-level commas."""
    parts: list[list] = [[]]
    for token in prelude:
        if token.type == "literal" and token.value == ",":
            parts.append([])
        else:
            parts[-1].append(token)
    return parts


def _selector(tokens: list, scope: str, confined: Confined) -> str:
    text = tinycss2.serialize(tokens).strip()
    first = next((t for t in tokens if t.type != "whitespace"), None)
    if first is None:
        return ""
    if first.type == "literal" and first.value in ("~", "+", "<", "|"):
        confined.left_out.append(f"the selector {text!r}, which would reach past the output")
        return ""
    rewritten = []
    for token in tokens:
        if token.type == "hash" and token.is_identifier:
            confined.ids.add(token.value)
            rewritten.append("#" + tinycss2.serializer.serialize_identifier(prefixed(scope, token.value)))
        else:
            rewritten.append(tinycss2.serialize([token]))
    return f"#{scope} {''.join(rewritten).strip()}"


def _declaration(node, confined: Confined) -> str:
    if node.type != "declaration":
        confined.left_out.append("a nested rule" if node.type == "qualified-rule" else "what is not a declaration")
        return ""
    value = tinycss2.serialize(node.value).strip()
    shown = f"{node.name}: {value}"
    if node.lower_name not in PROPERTIES or not _safe(node.value) \
            or (node.lower_name == "position" and value.lower() not in POSITIONS):
        confined.left_out.append(shown if len(shown) <= 60 else shown[:57] + "...")
        return ""
    return shown + (" !important" if node.important else "")


def _safe(values: list) -> bool:
    """Whether a value loads nothing and runs nothing: no url(), no function but colours and gradients."""
    for token in values:
        if token.type == "url" or (token.type == "ident" and token.lower_value.startswith("expression")):
            return False
        if token.type == "function" and (token.lower_name not in FUNCTIONS or not _safe(token.arguments)):
            return False
        if token.type in ("() block", "[] block", "{} block") and not _safe(token.content):
            return False
    return True
