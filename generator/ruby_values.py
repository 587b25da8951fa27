"""Ruby's and Jekyll's reading of values, shared by the templates converted from Liquid (Jinja,
:mod:`generator.render`) and the Liquid of posts and pages (:mod:`generator.liquid`)."""

from __future__ import annotations

import re
from typing import Any

import jinja2

# What Ruby reads in the replacement of String#gsub and #sub: \& and \0 the match, \` and \' the text
# before and after it, \1 to \9 a group (a text pattern has none), \\ a backslash; any other \ is itself.
BACK_REFERENCE = re.compile(r"\\([0-9&`'\\])")


def jekyll_matches(value: Any, target: Any) -> bool:
    """Jekyll's ``where``: ``value`` is ``target`` as text, or a list holding it (``where: "tags",
    "gpu"``); a nil target matches nil alone."""
    if target is None or isinstance(target, jinja2.Undefined):
        return value is None or isinstance(value, jinja2.Undefined)
    if isinstance(value, str):
        return value == ruby_text(target)
    values = value if isinstance(value, (list, tuple)) else [value]
    return any(ruby_text(item) == ruby_text(target) for item in values)


def ruby_text(value: Any) -> str:
    """``value.to_s`` as Ruby writes it: nil is "", true is "true"."""
    if value is None or isinstance(value, jinja2.Undefined):
        return ""
    return str(value).lower() if isinstance(value, bool) else str(value)


def ruby_substitute(text: str, pattern: str, replacement: str, count: int = 0) -> str:
    """``text.gsub(pattern, replacement)`` (``sub`` with ``count`` 1) for a text ``pattern``, as
    Liquid's ``replace`` and ``replace_first`` run it: the replacement's back references are
    read (bitcoincore.org's ``replace: '&', '\\&amp;'`` writes ``&amp;``)."""
    if "\\" not in replacement:
        return text.replace(pattern, replacement, count or -1)

    def expanded(match: re.Match) -> str:
        parts = {"&": match.group(), "0": match.group(), "`": text[:match.start()], "'": text[match.end():],
                 "\\": "\\"}
        return BACK_REFERENCE.sub(lambda reference: parts.get(reference.group(1), ""), replacement)

    return re.sub(re.escape(pattern), expanded, text, count=count)
