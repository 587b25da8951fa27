"""Python-Markdown's inline pass, each pattern tried only on text that can hold a match.

The inline pass tries every inline pattern (about twenty) on every text of
the document, a few Python calls each, although most texts hold none of the
characters most patterns start with: no ``[`` for the link patterns, no
backtick, no ``&``. Every match of a pattern starts with one of a few strings
(``[``, ``![``, ``  \\n``...), which :func:`openings` reads from the pattern's
regular expression; where a text holds none of them, the pattern cannot match
it and is passed over without a call, as it would have passed (same order,
same matches, same text: tests/test_markdown_fast_paths.py compares the two).
A pattern of one opening is looked for with ``in``; one of a few (emphasis's
``*`` and ``_``, a code span's backtick or backslash) by the text's set of
characters, made once for the patterns that leave the text as it was. Where
a text holds one, the pattern's expression is run from the first, not from
each character before it. A pattern whose openings cannot be read (one that
may match at any character) is always tried. In a document that defines no link reference, the reference
patterns (``[text][id]``, ``[id]``), which would try every ``[`` of it and
leave each as it was, are not tried at all.

The pass also takes time in proportion to a paragraph's length, where
Python-Markdown's took the square of its elements (a 1.6 MB paragraph: 195 s):
the text is not made again after each match, nor added to piece by piece, and
elements wait in a deque (:class:`SkippingInlineProcessor`); a link's text and
target are read from brackets matched once per text, not counted from each
``[`` or ``(`` to the end (:class:`LinkReader`). Emphasis is the exception: its delimiters keep
state between matches, so its text is made again after each (:func:`context_needed`).
"""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as etree
from collections import deque
from typing import Any, Callable

import markdown
from markdown import util
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor as NewStylePattern
from markdown.inlinepatterns import DelimiterProcessor, ImageInlineProcessor, LinkInlineProcessor, ReferenceInlineProcessor
from markdown.treeprocessors import InlineProcessor

from generator import pinned

try:
    from re import _constants as sre, _parser as sre_parse   # Python 3.11+
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as sre
    import sre_parse

MAX_OPENINGS = 16
TRIES_KEPT = 4096        # lists of the patterns to try kept per converter (one per set of first characters a text holds)


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


BOUNDARIES = {sre.AT_BOUNDARY, sre.AT_NON_BOUNDARY, sre.AT_UNI_BOUNDARY, sre.AT_UNI_NON_BOUNDARY,
              sre.AT_LOC_BOUNDARY, sre.AT_LOC_NON_BOUNDARY}


@functools.lru_cache(maxsize=512)
def behind(pattern: str, flags: int) -> int | None:
    """How many characters before where it is tried a match of ``pattern`` may look at
    (its widest look-behind; 1 for a word boundary); None if that cannot be read."""
    try:
        return _behind(sre_parse.parse(pattern, flags))
    except Exception:   # noqa: BLE001 - whatever the parser refuses is read the slow way
        return None


def _behind(items: Any) -> int:
    widest = 0
    for op, value in items:
        if op in (sre.ASSERT, sre.ASSERT_NOT):
            direction, inner = value
            widest = max(widest, inner.getwidth()[1] if direction < 0 else 0, _behind(inner))
        elif op is sre.AT:
            widest = max(widest, 1 if value in BOUNDARIES else 0)
        elif op is sre.BRANCH:
            widest = max([widest, *(_behind(branch) for branch in value[1])])
        elif op is sre.SUBPATTERN:
            widest = max(widest, _behind(value[3]))
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", None)):
            widest = max(widest, _behind(value[2]))
        elif op is getattr(sre, "ATOMIC_GROUP", None):
            widest = max(widest, _behind(value))
        elif op is sre.GROUPREF_EXISTS:
            widest = max(widest, *(_behind(branch) for branch in value[1:] if branch is not None))
    return widest


def context_needed(pattern: Any) -> int | None:
    """How far before a match's start ``pattern`` (its expression, and those its ``handleMatch``
    uses: a link's) may look; at least one character, None if unknown. Emphasis's delimiters
    (:class:`DelimiterProcessor`) keep what they found in the text from one match to the next
    (its regions, where to go on), so they must be given the text as Python-Markdown has it
    after each match: tried match by match (``******a***`` then ``***a* * *`` read otherwise)."""
    if not isinstance(pattern, NewStylePattern) or isinstance(pattern, DelimiterProcessor):
        return None
    expressions = [value for value in (*vars(type(pattern)).values(), *vars(pattern).values())
                   if isinstance(value, re.Pattern)]
    widths = [behind(expression.pattern, expression.flags) for expression in expressions]
    return None if None in widths else max([1, *widths])


def _reference_only(pattern: Any) -> bool:
    """Whether ``pattern`` makes an element only of a link reference the document defines
    (``[text][id]``, ``[id]``, their images): Python-Markdown's own reference patterns, which
    leave a text as it was where the id is not defined."""
    return isinstance(pattern, ReferenceInlineProcessor) and \
        type(pattern).handleMatch is ReferenceInlineProcessor.handleMatch


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
    """``pattern``, whether it matches only a link reference the document defines, how to
    find its first opening (:func:`finder`), how far back it looks (:func:`context_needed`)
    and the first characters of its openings (None: any character may open)."""
    starts = openings(pattern.compiled_re.pattern, pattern.compiled_re.flags) \
        if isinstance(pattern, NewStylePattern) else None
    firsts = None if starts is None else frozenset(start[0] for start in starts)
    return (pattern, _reference_only(pattern), *finder(starts), context_needed(pattern), firsts)


class SkippingInlineProcessor(InlineProcessor):
    """Python-Markdown's inline pass, passing over the patterns a text cannot match."""

    _listed: tuple | None = None            # the patterns the table below was made for
    _table: list[tuple] = []                # each pattern with how to find its first opening
    _triggers: frozenset[str] = frozenset()  # every pattern's first characters
    _tries: dict[bool, dict] = {}           # per "no references": (triggers in a text, first index) -> tries

    def run(self, tree: Any, ancestors: list[str] | None = None) -> Any:
        listed = tuple(self.inlinePatterns)
        if listed != self._listed:          # made once per converter, again if its patterns change
            self._listed, self._table = listed, [_entry(pattern) for pattern in listed]
            self._triggers = frozenset().union(*(entry[5] or () for entry in self._table))
            self._tries = {True: {}, False: {}}
        # The pattern's own expression (tried at each character: most open with a look-behind,
        # which keeps the expression engine from skipping ahead) runs from its first opening.
        # Which are tried on a text (:meth:`_InlineProcessor__handleInline`): a pattern of one
        # opening where the text holds it; one of a few where the text holds the first character
        # of one; a reference pattern, in a document defining none, nowhere (no first character).
        no_references = not self.md.references
        self.patterns = [(pattern, None, None, 0, frozenset()) if reference_only and no_references
                         else (pattern, opening, search, context, firsts)
                         for pattern, reference_only, opening, search, context, firsts in self._table]
        self._tries_now = self._tries[no_references]
        return self._every_element(tree, ancestors)

    def _every_element(self, tree: Any, ancestors: list[str] | None) -> Any:
        """Python-Markdown's ``InlineProcessor.run``, its queue of elements a deque: it took each
        from the front of a list (``pop(0)``), which moves all the others, and a paragraph
        of 100,000 code spans queues 100,000 elements."""
        self.stashed_nodes = {}
        tree_parents = [] if ancestors is None else ancestors[:]
        self.parent_map = {c: p for p in tree.iter() for c in p}
        queue = deque([(tree, tree_parents)])
        self._InlineProcessor__build_ancestors(tree, tree_parents)
        inline, placeholders = self._InlineProcessor__handleInline, self._InlineProcessor__processPlaceholders
        while queue:
            element, parents = queue.popleft()
            self.ancestors = parents
            if element is not tree:
                self.ancestors.append(element.tag.lower())
            inserts = []
            for child in element:
                if child.text and not isinstance(child.text, util.AtomicString):
                    self.ancestors.append(child.tag.lower())
                    text, child.text = child.text, None
                    made = placeholders(inline(text), child)
                    for item in made:
                        self.parent_map[item[0]] = child
                    queue += made
                    inserts.append((child, made))
                    self.ancestors.pop()
                if child.tail:
                    tail = inline(child.tail)
                    holder = etree.Element("d")
                    child.tail = None
                    made = placeholders(tail, holder, False)
                    if holder.tail:
                        child.tail = holder.tail
                    position = list(element).index(child) + 1
                    for new_child, _ in reversed(made):
                        self.parent_map[new_child] = element
                        element.insert(position, new_child)
                if len(child):
                    self.parent_map[child] = element
                    queue.append((child, self.ancestors[:]))
            for parent, made in inserts:
                for i, (new_child, _) in enumerate(made):
                    parent.insert(i, new_child)
        return tree

    # Python-Markdown's own __handleInline (name-mangled), with the skip and the patterns as a list.
    def _InlineProcessor__handleInline(self, data: str, patternIndex: int = 0) -> str:
        if isinstance(data, util.AtomicString):
            return data
        for index, opening in self._tries_for(data, patternIndex):
            if opening is None or opening in data:      # else it cannot match: no call to say so
                data = self._every_match(data, index)
        return data

    def _tries_for(self, data: str, first: int) -> tuple[tuple[int, str | None], ...]:
        """The patterns from index ``first`` on that may match ``data``, in order, each with the
        opening of more than one character it needs ``data`` to hold (None: it needs only a first
        character ``data`` holds, or may match anywhere).

        Which those are depends only on which of the patterns' first characters the text holds,
        so they are listed once per such set (a handful in a document), where Python-Markdown
        asks each of twenty-two patterns of each text. The list holds for the text as the
        patterns change it: a match is replaced by a placeholder (STX, ``klzzwxh:``, digits, ETX),
        which holds no first character, so a pattern whose first character went with a match
        is tried and finds nothing, as it finds nothing where it is passed over."""
        held = self._triggers.intersection(data)
        found = self._tries_now.get((held, first))
        if found is None:
            if len(self._tries_now) >= TRIES_KEPT:
                self._tries_now.clear()
            found = self._tries_now[(held, first)] = tuple(
                (index, opening if opening is not None and len(opening) > 1 else None)
                for index, (_, opening, _, _, firsts) in enumerate(self.patterns[first:], first)
                if firsts is None or not firsts.isdisjoint(held))
        return found

    def _every_match(self, data: str, index: int) -> str:
        """``data`` with each match of pattern ``index`` replaced by its placeholder, as
        Python-Markdown's loop replaces them, in time linear in the text's length.

        Python-Markdown makes the text again after each match (the text before it, the
        placeholder, the text after it): a paragraph of 400,000 emphases was copied
        400,000 times. Here the pattern is tried on the text as it came, and the pieces
        are joined once. The two differ only just after a match, where Python-Markdown's
        text has the placeholder and this one the matched text: where a match could start
        there, close enough to see it (``context``: its widest look-behind), the text is
        made as Python-Markdown has it before the pattern is tried.
        """
        pattern, opening, search, context, _ = self.patterns[index]
        if context is None:
            return self._match_by_match(data, index)
        if any(exclude.lower() in self.ancestors for exclude in pattern.ANCESTOR_EXCLUDES):
            return data
        pieces: list[str] = []
        done = at = exact_from = 0   # data[done:] is still to copy; matches are sought from at
        expression = pattern.getCompiledRegExp()
        while True:
            at = _next_start(data, at, opening, search)
            if at < 0:
                break
            if at < exact_from:     # a match here could see the placeholder before it
                made = "".join(pieces)
                data, at, done, exact_from, pieces = made + data[done:], at - done + len(made), len(made), 0, [made]
            for match in expression.finditer(data, at):
                node, start, end = pattern.handleMatch(match, data)
                if start is not None and end is not None:
                    break
            else:
                break
            if node is not None:
                self._inline_children(node, index)
                pieces += (data[done:start], self._InlineProcessor__stashNode(node, pattern.type()))
                done, exact_from = end, end + context
            at = end
        return "".join(pieces) + data[done:] if pieces else data

    def _inline_children(self, node: Any, index: int) -> None:
        """The inline pass over the text in and after the elements a match made, as
        Python-Markdown's ``__applyPattern`` runs it."""
        if isinstance(node, str) or isinstance(node.text, util.AtomicString):
            return
        for child in [node, *node]:
            if child.text:
                self.ancestors.append(child.tag.lower())
                child.text = self._InlineProcessor__handleInline(child.text, index + 1)
                self.ancestors.pop()
            if child.tail:
                child.tail = self._InlineProcessor__handleInline(child.tail, index)

    # Python-Markdown's own __processPlaceholders, the text between placeholders joined once.
    def _InlineProcessor__processPlaceholders(self, data: str | None, parent: Any, isText: bool = True) -> list:
        """The elements and text a string with placeholders stands for, as Python-Markdown makes
        them; it added each piece of text to the text before it (``parent.text += text``), which
        copies that text each time: a paragraph of 100,000 ``&amp;`` was copied 100,000 times."""
        prefix = self._InlineProcessor__placeholder_prefix
        result: list = []
        texts: list[str] = []         # to add to where text goes now: result[-1]'s tail, or parent's

        def put_texts() -> None:
            if not texts:
                return
            owner, attribute = (result[-1][0], "tail") if result else (parent, "text" if isText else "tail")
            before = getattr(owner, attribute)
            # One piece into nothing is set as it is (an AtomicString stays one), as Python-Markdown sets it.
            setattr(owner, attribute, texts[0] if not before and len(texts) == 1 else (before or "") + "".join(texts))
            texts.clear()

        start = 0
        while data:
            index = data.find(prefix, start)
            if index == -1:
                text = data[start:]
                if isinstance(data, util.AtomicString):
                    text = util.AtomicString(text)
                if text:
                    texts.append(text)
                break
            id, end = self._InlineProcessor__findPlaceholder(data, index)
            if id not in self.stashed_nodes:      # not a placeholder after all
                texts.append(data[start:index + len(prefix)])
                start = index + len(prefix)
                continue
            node = self.stashed_nodes.get(id)
            if index > start:
                texts.append(data[start:index])
            start = end
            if isinstance(node, str):
                if node:
                    texts.append(node)
                continue
            # A text or tail without a placeholder would be taken out and set again as it was
            # (the inline pass of a match's elements has made most of them plain text): left as it is.
            for child in [node, *node]:
                if child.tail and prefix in child.tail and child.tail.strip():
                    self._InlineProcessor__processElementText(node, child, False)
                if child.text and prefix in child.text and child.text.strip():
                    self._InlineProcessor__processElementText(child, child)
            put_texts()
            result.append((node, self.ancestors[:]))
        put_texts()
        return result

    def _match_by_match(self, data: str, index: int) -> str:
        """Python-Markdown's own loop over one pattern's matches, for a pattern whose look back
        cannot be read: the text made again after each."""
        pattern, opening, search, _, _ = self.patterns[index]
        apply = self._InlineProcessor__applyPattern
        start = 0
        while True:
            start = _next_start(data, start, opening, search)
            if start < 0:
                return data
            data, matched, start = apply(pattern, data, index, start)
            if not matched:
                return data


def _next_start(data: str, at: int, opening: str | None, search) -> int:
    """Where a pattern may match next from ``at`` (-1: nowhere): its opening's next place, or its
    search's next match; ``at`` itself for a pattern that has neither."""
    if opening is not None:
        return data.find(opening, at)
    if search is not None:
        found = search(data, at)
        return -1 if found is None else found.start()
    return at


class Closers:
    """Where the ``[`` and ``(`` of one text are closed, as Python-Markdown's link patterns count
    brackets (no escapes; one never closed: None), each found once.

    ``getText`` and ``getLink`` count from an opening to its close, or to the end of the text, each
    time: a paragraph of unclosed ``[a `` took the square of its length (25,000 characters: 15 s).
    Here a count from an opening settles every opening it passes, so each is counted over once
    for as long as the text is the same (a match after the one before it makes the text again)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._closes: dict[str, dict[int, int | None]] = {"[": {}, "(": {}}
        self._last_quote: int | None = None

    def close(self, at: int) -> int | None:
        """The position of what closes the ``[`` or ``(`` at ``at``; None if nothing does."""
        opener = self.text[at]
        closes = self._closes[opener]
        if at not in closes:
            opened: list[int] = []
            for match in BRACKETS[opener].finditer(self.text, at):
                if match.group() == opener:
                    opened.append(match.start())
                else:
                    closes[opened.pop()] = match.start()
                    if not opened:
                        break
            for never_closed in opened:
                closes[never_closed] = None
        return closes[at]

    def last_quote(self) -> int:
        """The position of the text's last quote; -1 if it has none."""
        if self._last_quote is None:
            self._last_quote = max(self.text.rfind("'"), self.text.rfind('"'))
        return self._last_quote


BRACKETS = {"[": re.compile(r"[][]"), "(": re.compile(r"[()]")}


class LinkReader:
    """``getText`` and ``getLink`` of Python-Markdown's link and image patterns, their results the
    same, each bracket of the text being read (the same string, one pattern after the other)
    counted over once (:class:`Closers`)."""

    def __init__(self) -> None:
        self._closers: Closers | None = None

    def closers(self, data: str) -> Closers:
        if self._closers is None or self._closers.text is not data:
            self._closers = Closers(data)
        return self._closers

    def text(self, pattern: LinkInlineProcessor, data: str, index: int) -> tuple[str, int, bool]:
        """``LinkInlineProcessor.getText``: the text up to the ``]`` closing the ``[`` before ``index``.
        Of a ``[`` never closed, the text is not copied ("" for the rest of the text): the link
        patterns' ``handleMatch`` (the only callers, :func:`quicker_links`) pass it over."""
        if index == 0 or data[index - 1] != "[":       # not after a bracket: counted as Python-Markdown counts
            return LinkInlineProcessor.getText(pattern, data, index)
        close = self.closers(data).close(index - 1)
        if close is None:
            return "", len(data), False
        return data[index:close], close + 1, True

    def target(self, pattern: LinkInlineProcessor, data: str, index: int) -> tuple[str, str | None, int, bool]:
        """``LinkInlineProcessor.getLink``: a link's ``(href "title")``. Where no quote comes before
        the ``)`` closing the ``(`` (or the end, if none does), Python-Markdown's loop only counts
        brackets: it ends at that ``)`` with the text before it as the href and no title."""
        m = pattern.RE_LINK.match(data, pos=index)
        if m and not m.group(1):
            closers, start = self.closers(data), m.end()
            close = closers.close(index)
            if close is None:
                if closers.last_quote() < start:
                    return "", None, len(data), False
            elif data.find("'", start, close) == data.find('"', start, close) == -1:
                return pattern.unescape(data[start:close]).strip(), None, close + 1, True
        return LinkInlineProcessor.getLink(pattern, data, index)


# LinkReader reads links as these methods read them: where the installed library's differ
# (generator.pinned), its own are used.
READS_AS_PYTHON_MARKDOWN = pinned.unchanged(LinkInlineProcessor.getText, LinkInlineProcessor.getLink,
                                            LinkInlineProcessor.handleMatch, ImageInlineProcessor.handleMatch,
                                            ReferenceInlineProcessor.handleMatch)
LINK_MATCHES = (LinkInlineProcessor.handleMatch, ImageInlineProcessor.handleMatch, ReferenceInlineProcessor.handleMatch)


def quicker_links(pattern: Any, reader: LinkReader) -> None:
    """Give a link or image pattern that reads links as Python-Markdown's own do (its methods
    theirs) ``reader``'s methods."""
    if not READS_AS_PYTHON_MARKDOWN or type(pattern).handleMatch not in LINK_MATCHES:
        return
    if type(pattern).getText is LinkInlineProcessor.getText:
        pattern.getText = functools.partial(reader.text, pattern)
    if type(pattern).getLink is LinkInlineProcessor.getLink and \
            type(pattern).RE_LINK is LinkInlineProcessor.RE_LINK:
        pattern.getLink = functools.partial(reader.target, pattern)


class SkippingInlineExtension(Extension):
    """Runs the inline pass as :class:`SkippingInlineProcessor` (load after the pattern-adding
    extensions), links read by a :class:`LinkReader`."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        if copies_hold():
            md.treeprocessors.register(SkippingInlineProcessor(md), "inline", 20)
        reader = LinkReader()      # one per converter: its patterns read the same text in turn
        for pattern in md.inlinePatterns:
            quicker_links(pattern, reader)


def copies_hold() -> bool:
    """Whether Python-Markdown's inline pass reads as it did when :class:`SkippingInlineProcessor`
    copied and overrode its private methods (:mod:`generator.pinned`); else its own runs."""
    return pinned.unchanged(InlineProcessor.run, InlineProcessor._InlineProcessor__handleInline,
                            InlineProcessor._InlineProcessor__processPlaceholders,
                            InlineProcessor._InlineProcessor__applyPattern)
