"""Python-Markdown's inline pass, each pattern tried only on text that can hold a match.

The inline pass tries every inline pattern (about twenty) on every text of
the document, a few Python calls each, although most texts hold none of the
characters most patterns start with: no ``[`` for the link patterns, no
backtick, no ``&``. Every match of a pattern starts with one of a few strings
(``[``, ``![``, ``  \\n``...), which :func:`openings` reads from the pattern's
regular expression; where a text holds none of them, the pattern cannot match
it and is passed over, as it would have passed (same order, same matches,
same text: tests/test_markdown_fast_paths.py compares the two); where it
holds one, the pattern's expression is run from the first, not from each
character before it. A pattern
whose openings cannot be read (one that may match at any character) is
always tried. In a document that defines no link reference, the reference
patterns (``[text][id]``, ``[id]``), which would try every ``[`` of it and
leave each as it was, are not tried at all.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable

import markdown
from markdown import util
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor as NewStylePattern
from markdown.inlinepatterns import LinkInlineProcessor, ReferenceInlineProcessor
from markdown.treeprocessors import InlineProcessor

try:
    from re import _constants as sre, _parser as sre_parse   # Python 3.11+
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as sre
    import sre_parse

MAX_OPENINGS = 16


@functools.lru_cache(maxsize=512)
def openings(pattern: str, flags: int) -> frozenset[str] | None:
    """Strings one of which every match of ``pattern`` starts with; None if there are none to read."""
    try:
        parsed = sre_parse.parse(pattern, flags)
    except Exception:   # noqa: BLE001 - whatever the parser refuses, the pattern is simply always tried
        return None
    found = _openings(list(parsed), bool(flags & re.IGNORECASE))
    return frozenset(found) if found and "" not in found else None


def _openings(items: list, ignore_case: bool) -> set[str] | None:
    """The possible starts of what ``items`` (a parsed expression, in order) match, or None."""
    prefix = ""
    for position, (op, value) in enumerate(items):
        if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):   # anchors, look-arounds: they consume nothing
            if prefix:
                break
            continue
        if op is sre.LITERAL:
            char = chr(value)
            if ignore_case and char.lower() != char.upper():
                break
            prefix += char
            continue
        if prefix:
            break
        if op is sre.IN:
            chars = _set_of(value, ignore_case)
            return None if chars is None else set(chars)
        if op is sre.SUBPATTERN:
            _, add_flags, del_flags, inner = value
            scoped = (ignore_case or bool(add_flags & re.IGNORECASE)) and not del_flags & re.IGNORECASE
            return _openings(list(inner), scoped)
        if op is sre.BRANCH:
            found: set[str] = set()
            for branch in value[1]:
                inner = _openings(list(branch), ignore_case)
                if inner is None:
                    return None
                found |= inner
            return found if len(found) <= MAX_OPENINGS else None
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", None)):
            low, _, inner = value
            return _openings(list(inner), ignore_case) if low > 0 else None
        if op is getattr(sre, "ATOMIC_GROUP", None):
            return _openings(list(value), ignore_case)
        return None
    return {prefix} if prefix else None


def _set_of(items: list, ignore_case: bool) -> set[str] | None:
    """The characters of a character class, if it lists a few and no category or negation."""
    chars: set[str] = set()
    for op, value in items:
        if op is sre.LITERAL:
            chars.add(chr(value))
        elif op is sre.RANGE and value[1] - value[0] < MAX_OPENINGS:
            chars.update(map(chr, range(value[0], value[1] + 1)))
        else:
            return None
    if ignore_case and any(c.lower() != c.upper() for c in chars):
        return None
    return chars if len(chars) <= MAX_OPENINGS else None


def _reference_only(pattern: Any) -> bool:
    """Whether ``pattern`` makes an element only of a link reference the document defines
    (``[text][id]``, ``[id]``, their images): Python-Markdown's own reference patterns, which
    leave a text as it was where the id is not defined."""
    return isinstance(pattern, ReferenceInlineProcessor) and \
        type(pattern).handleMatch is ReferenceInlineProcessor.handleMatch


def _nowhere(data: str, start: int) -> None:
    return None


def finder(starts: frozenset[str] | None) -> tuple[str | None, Callable[[str, int], re.Match | None] | None]:
    """How to find in a text, from a position on, the first of ``starts`` (:func:`openings`): the
    one opening, for ``str.find`` (most patterns), or a search for any of a few; neither where any
    character may open."""
    if starts is None:
        return None, None
    if len(starts) == 1:
        return next(iter(starts)), None
    return None, re.compile("|".join(map(re.escape, sorted(starts)))).search


def _entry(pattern: Any) -> tuple:
    """``pattern``, whether it matches only a link reference the document defines, and how to
    find its first opening (:func:`finder`)."""
    starts = openings(pattern.compiled_re.pattern, pattern.compiled_re.flags) \
        if isinstance(pattern, NewStylePattern) else None
    return (pattern, _reference_only(pattern), *finder(starts))


class SkippingInlineProcessor(InlineProcessor):
    """Python-Markdown's inline pass, passing over the patterns a text cannot match."""

    _listed: tuple = ()                     # the patterns the table below was made for
    _table: list[tuple] = []                # each pattern with how to find its first opening

    def run(self, tree: Any, ancestors: list[str] | None = None) -> Any:
        listed = tuple(self.inlinePatterns)
        if listed != self._listed:          # made once per converter, again if its patterns change
            self._listed, self._table = listed, [_entry(pattern) for pattern in listed]
        # The pattern's own expression (tried at each character: most open with a look-behind,
        # which keeps the expression engine from skipping ahead) runs from its first opening.
        no_references = not self.md.references
        self.patterns = [(pattern, None, _nowhere) if reference_only and no_references else (pattern, opening, search)
                         for pattern, reference_only, opening, search in self._table]
        return super().run(tree, ancestors)

    # Python-Markdown's own __handleInline (name-mangled), with the skip and the patterns as a list.
    def _InlineProcessor__handleInline(self, data: str, patternIndex: int = 0) -> str:
        if isinstance(data, util.AtomicString):
            return data
        apply = self._InlineProcessor__applyPattern
        patterns = self.patterns
        count = len(patterns)
        start = 0
        while patternIndex < count:
            pattern, opening, search = patterns[patternIndex]
            if opening is not None:
                start = data.find(opening, start)
            elif search is not None:
                found = search(data, start)
                start = -1 if found is None else found.start()
            if start < 0:
                patternIndex, start = patternIndex + 1, 0
                continue
            data, matched, start = apply(pattern, data, patternIndex, start)
            if not matched:
                patternIndex += 1
        return data


def link_text(pattern: LinkInlineProcessor, data: str, index: int) -> tuple[str, int, bool]:
    """``LinkInlineProcessor.getText``: the text up to the ``]`` closing a link's ``[``. Most
    link texts hold no bracket: the first ``]`` closes them, found without a loop per character."""
    end = data.find("]", index)
    if end != -1 and data.find("[", index, end) == -1:
        return data[index:end], end + 1, True
    return LinkInlineProcessor.getText(pattern, data, index)


def link_target(pattern: LinkInlineProcessor, data: str, index: int) -> tuple[str, str | None, int, bool]:
    """``LinkInlineProcessor.getLink``: a link's ``(href "title")``. Where no ``(`` or quote comes
    before the first ``)``, Python-Markdown's loop ends at that ``)`` with the text before it as
    the href and no title: taken here as that loop takes it, without the loop."""
    m = pattern.RE_LINK.match(data, pos=index)
    if m and not m.group(1):
        start = m.end()
        end = data.find(")", start)
        if end != -1:
            href = data[start:end]
            if "(" not in href and "'" not in href and '"' not in href:
                return pattern.unescape(href).strip(), None, end + 1, True
    return LinkInlineProcessor.getLink(pattern, data, index)


def quicker_links(pattern: Any) -> None:
    """Give a link or image pattern that reads links as Python-Markdown's own do the shortcuts above."""
    if isinstance(pattern, LinkInlineProcessor):
        if type(pattern).getText is LinkInlineProcessor.getText:
            pattern.getText = functools.partial(link_text, pattern)
        if type(pattern).getLink is LinkInlineProcessor.getLink and \
                type(pattern).RE_LINK is LinkInlineProcessor.RE_LINK:
            pattern.getLink = functools.partial(link_target, pattern)


class SkippingInlineExtension(Extension):
    """Runs the inline pass as :class:`SkippingInlineProcessor` (load after the pattern-adding
    extensions), links read by :func:`link_text` and :func:`link_target`."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.treeprocessors.register(SkippingInlineProcessor(md), "inline", 20)
        for pattern in md.inlinePatterns:
            quicker_links(pattern)
