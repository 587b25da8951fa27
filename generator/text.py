"""Plain text from HTML, for the places that take no markup: meta descriptions, share cards, cards;
and the lines of a block without its blank lines around."""

from __future__ import annotations

import re

TAG = re.compile(r"<[^>]+>")


def plain_text(fragment: str) -> str:
    """The text of an HTML fragment: no tags, entities decoded, whitespace runs as one space."""
    import html     # its table of entities: with the first text, not with every build

    return " ".join(html.unescape(TAG.sub("", fragment)).split())


def shorten(text: str, limit: int) -> str:
    """``text`` cut at a word boundary to at most ``limit`` characters (an ellipsis marks the cut)."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def trim_blank_lines(lines: list[str]) -> list[str]:
    """``lines`` without the blank (or white-space) lines at their start and end."""
    start = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    end = len(lines)
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]
