"""Ruby's and Jekyll's reading of values, shared by the templates converted from Liquid (Jinja,
:mod:`generator.render`) and the Liquid of posts and pages (:mod:`generator.liquid`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
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


_INTEGER_LIKE = re.compile(r"\A\s*-?\d+\s*\Z")
_FLOAT_LIKE = re.compile(r"\A\s*-?(?:\d+\.?\d*|\.\d+)\s*\Z")


def jekyll_sorted(items: list, property_of: Callable[[Any], Any], nils: str = "first") -> list:
    """Jekyll's ``sort: "KEY", nils`` (Jekyll::Filters#sort_input): numbers written as text sort
    as numbers (``"10"`` after ``"9"``), items without the property go first (``nils`` "first",
    Jekyll's default) or last, and values Ruby's ``<=>`` cannot compare (a number and a text)
    by their text. ValueError names any other ``nils``, as Jekyll's ArgumentError does."""
    if nils not in ("first", "last"):
        raise ValueError(f"Invalid nils order: '{ruby_text(nils)}' is not a valid nils order. "
                         "It must be 'first' or 'last'.")
    order = -1 if nils == "first" else 1

    def compare(a: tuple, b: tuple) -> int:
        (left, _), (right, _) = a, b
        if left is None or right is None:
            return 0 if left is right else -order if right is None else order
        return _spaceship(left, right)

    keyed = [(_sort_value(property_of(item)), item) for item in items]
    return [item for _, item in sorted(keyed, key=functools.cmp_to_key(compare))]


def _sort_value(value: Any) -> Any:
    """Jekyll's ``parse_sort_input``: a value whose text is an integer or a decimal, as that number."""
    if isinstance(value, jinja2.Undefined):
        return None
    text = ruby_text(value)
    if _INTEGER_LIKE.match(text):
        return int(text)
    if _FLOAT_LIKE.match(text):
        return float(text)
    return value


def _spaceship(left: Any, right: Any) -> int:
    """``left <=> right || left.to_s <=> right.to_s``."""
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (left, right))
    if not numbers and (type(left) is not type(right) or isinstance(left, bool)):
        left, right = ruby_text(left), ruby_text(right)
    try:
        return (left > right) - (left < right)
    except TypeError:
        left, right = ruby_text(left), ruby_text(right)
        return (left > right) - (left < right)
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
