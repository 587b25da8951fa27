"""Typographic quotes, dashes and ellipses: Python-Markdown's ``smarty``, in one pass per text.

``smarty`` defines the text (its patterns, in its order, make the quotes
kramdown makes), but runs them through a second full inline processor: every
pattern re-scans every text node, and each quote becomes a stashed node and
a placeholder in a string rebuilt per match, so on prose it costs about a
third of the Markdown time. :class:`Typography` takes smarty's own patterns
and applies them the same way with plain regular-expression scans: pattern
by pattern, left to right, each replacement opaque to the patterns after it,
and a match right after a replacement seeing the replacement's edge (as
smarty's placeholders make it). The result is smarty's text, byte for byte
(``tests/test_typography.py`` compares the two).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

import markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from markdown.util import AtomicString

from generator.inline import finder, openings

# Every smarty pattern consumes one of these; text without any is left as it is.
CANDIDATES = "'\"<>.-"
# A replacement while the patterns run: opaque, and as seen from outside
# (STX before, ETX after) exactly like the placeholder smarty would put there;
# unlike the ``STX 39 ETX`` of an escaped character already in the text.
TOKEN = re.compile("\x02~([0-9]+)\x03")
# How far a match and its look-ahead reach from where it starts (``&#8211;"x`` is 9).
REACH = 16


class EntityStashing(Treeprocessor):
    """A tree processor that puts typographic entities in the text as stashed HTML, each
    entity stashed once per document (``self.stashed``, emptied by ``run``)."""

    stashed: dict[str, str]

    def _stash(self, html: str) -> str:
        if html not in self.stashed:
            self.stashed[html] = self.md.htmlStash.store(html)
        return self.stashed[html]


class Typography(EntityStashing):
    """Apply smarty's substitution patterns to every text of the tree (not code)."""

    def __init__(self, md: markdown.Markdown, patterns):
        super().__init__(md)
        # Each pattern with the string every match of it starts with, where it can be read off its
        # expression (``'``, ``---``, ``'"``), and the characters it could consume: it cannot match
        # a text without that string, or without any of those characters.
        self.patterns = [(pattern.compiled_re, tuple(pattern.replace),
                          frozenset(CANDIDATES).intersection(pattern.compiled_re.pattern),
                          finder(openings(pattern.compiled_re.pattern, pattern.compiled_re.flags))[0])
                         for pattern in patterns]

    def run(self, root: etree.Element) -> None:
        self.stashed: dict[str, str] = {}   # entity -> its placeholder, one per document
        for el in root.iter():
            if el is root:
                continue
            if el.text and not isinstance(el.text, AtomicString):
                el.text = self.educate(el.text)
            if el.tail and not isinstance(el.tail, AtomicString):
                el.tail = self.educate(el.tail)

    def educate(self, text: str) -> str:
        present = {char for char in CANDIDATES if char in text}
        if not present:
            return text
        replacements: list[str] = []
        for regex, replace, needs, start in self.patterns:
            if (start in text) if start is not None else not present.isdisjoint(needs):
                text = self._substitute(regex, replace, text, replacements)
        if not replacements:
            return text
        return TOKEN.sub(lambda m: replacements[int(m.group(1))], text)

    def _substitute(self, regex: re.Pattern, replace: tuple, text: str, replacements: list[str]) -> str:
        """One pattern over ``text``, left to right, as smarty's inline processor applies it."""
        out: list[str] = []
        done = 0          # text[:done] is in ``out``
        pos = 0
        adjacent = False  # the last replacement ended at ``pos``
        while True:
            if adjacent:
                # The match here would look behind at the replacement's edge (ETX), not at text[pos-1].
                window = "\x03" + text[pos:pos + REACH]
                m = regex.match(window, 1)
                if m:
                    start, end, groups = pos, pos + m.end() - 1, m
                else:
                    adjacent = False
                    pos += 1
                    continue
            else:
                m = regex.search(text, pos)
                if not m:
                    break
                start, end, groups = m.start(), m.end(), m
            if end == start:      # no smarty pattern matches empty text; never loop on one
                break
            result = "".join(groups.group(part) if isinstance(part, int) else self._stash(part)
                             for part in replace)
            out.append(text[done:start])
            out.append(f"\x02~{len(replacements)}\x03")
            replacements.append(result)
            done = pos = end
            adjacent = True
        if not out:
            return text
        out.append(text[done:])
        return "".join(out)


class TypographyExtension(Extension):
    """Put :class:`Typography` in the place of smarty's inline processor (load after ``smarty``)."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        smarty = md.treeprocessors["smarty"]
        md.treeprocessors.register(Typography(md, smarty.inlinePatterns), "smarty", 6)
