"""Ruby's and Jekyll's reading of values, shared by the templates converted from Liquid (Jinja,
:mod:`generator.render`) and the Liquid of posts and pages (:mod:`generator.liquid`)."""

from __future__ import annotations

from typing import Any

import jinja2


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
