"""Quotes curled by kramdown's rules (parser/kramdown/smart_quotes.rb), in place of smarty's.

kramdown curls a quote by the first of its ``SQ_RULES`` that matches where its
span scanner stands: one character before the quote, or at the quote itself
when the text's run starts there (after an element, an escape, an entity, a
``--`` or ``...``, or another quote). smarty's rules differ (``"a b "``,
``30'000``); a reader comparing with the Jekyll site sees each difference.
Dashes, ellipses and angled quotes stay smarty's: they are kramdown's already.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

import markdown
from markdown.extensions import Extension
from markdown.util import AtomicString

from generator.typography import EntityStashing

# Ruby's \w and \s are ASCII; its \b is Unicode's, as Python's is.
WORD = "[A-Za-z0-9_]"
SPACE = r"[ \t\r\n\f\v]"
# A placeholder (an escape, an entity, raw HTML) is read as STX and one character (see
# ``KramdownQuotes._seen``): STX is punctuation, as the ``\``, ``&`` or ``<`` it stands for.
SQ_PUNCT = r"""[!"#$%'()*+,\-./:;<=>?@\[\\\]^_`{|}~\x02]"""
SQ_CLOSE = r"[^ \\\t\r\n\[{(-]"
# (expression, what each group becomes): a group number is its text, a name a quote of
# that side, double or single as the quote in the group the name's last digit says.
SQ_RULES = [(re.compile(expression, flags), substitution) for expression, flags, substitution in [
    (r"(\"|')(?=[_*]{1,2}\S)", 0, ["lquote1"]),
    (rf"(\"|')(?={SQ_PUNCT}(?!\.\.)\B)", 0, ["rquote1"]),
    (rf"({SPACE}?)\"'(?={WORD})", 0, [1, "&ldquo;", "&lsquo;"]),
    (rf"({SPACE}?)'\"(?={WORD})", 0, [1, "&lsquo;", "&ldquo;"]),
    (rf"({SPACE}?)'(?=\d\ds)", 0, [1, "&rsquo;"]),
    (rf"({SPACE})('|\")(?={WORD})", 0, [1, "lquote2"]),
    (rf"({SQ_CLOSE})('|\")", 0, [1, "rquote2"]),
    (rf"(\"|')(?={SPACE}|s\b|$)", re.M, ["rquote1"]),
    (r"(.?)'", re.S, [1, "&lsquo;"]),
    (r"(.?)\"", re.S, [1, "&ldquo;"]),
]]
ENTITIES = {("l", '"'): "&ldquo;", ("l", "'"): "&lsquo;", ("r", '"'): "&rdquo;", ("r", "'"): "&rsquo;"}
PLACEHOLDER = re.compile("\x02[^\x03]*\x03")
# The marks of the elements a text can stand next to, as written.
OPENING = {"em": "*", "strong": "**", "code": "`", "a": "[", "img": "![", "del": "~~", "sup": "[^"}
CLOSING = {"em": "*", "strong": "**", "a": "]", "del": "~~"}
STASH_PREFIX = "wzxhzdk:"      # Python-Markdown's stashed HTML, as against an escape's character code
# Where kramdown's span scanner stops next, in the order of its span parsers: a span's
# start that, left as text, is taken whole (an emphasis mark, backticks, ``[``, ``<tag``,
# ``~~``), a quote with the character before it (not a backslash), or what another parser
# takes whole: a placeholder or a typographic symbol (parser/kramdown/typographic_symbol.rb).
# After each of them but the quote a run starts anew.
NEXT = re.compile(r"""\*\*?|__?|`+|!?\[|<(?=[A-Za-z_:!/])|~~|\{:|\$\$"""
                  r"""|(?P<quote>[^\\\x02]?["'])|\x02.|---?|\.\.\.|\\<<|\\>>|<< | >>|<<|>>""")


class KramdownQuotes(EntityStashing):
    """Curl the quotes of every text of the tree (not code) as kramdown does."""

    def run(self, root: etree.Element) -> None:
        try:
            self.curl_all(root)
        finally:
            self.md.emphasis_marks.clear()

    def curl_all(self, root: etree.Element) -> None:
        self.stashed: dict[str, str] = {}   # entity -> its placeholder, one per document
        # What follows a text (:meth:`_after`) is read only for a text :meth:`curl` changes, one
        # holding a quote: most hold none.
        for parent in root.iter():
            children = list(parent)
            text = parent.text
            if parent is not root and text and ('"' in text or "'" in text) and not isinstance(text, AtomicString):
                parent.text = self.curl(text, self._after(children[0] if children else None, parent))
            for index, child in enumerate(children):
                text = child.tail
                if text and ('"' in text or "'" in text) and not isinstance(text, AtomicString):
                    following = children[index + 1] if index + 1 < len(children) else None
                    child.tail = self.curl(text, self._after(following, parent))

    def _after(self, following: etree.Element | None, parent: etree.Element) -> str:
        """What kramdown's rules see after a text: the next element's source (``*x``, a backtick,
        ``[``), or its parent's closing mark and what follows; nothing at a block's end."""
        if following is None:
            if self.md.is_block_level(parent.tag):
                return ""
            closing = CLOSING.get(parent.tag, "\x02!")
            mark = self.md.emphasis_marks.get(id(parent)) if parent.tag in ("em", "strong") else None
            return (mark * len(closing) if mark in ("_", "*") else closing) + (parent.tail or "")[:1]
        if following.tag == "br":
            return " "       # the two spaces before the line's end
        if self.md.is_block_level(following.tag):
            return ""
        return OPENING.get(following.tag, "\x02!") + (following.text or "")[:1]

    def curl(self, text: str, after: str = "") -> str:
        """``text`` with its quotes curled; ``after`` is what the rules see past its end."""
        if '"' not in text and "'" not in text:
            return text
        placeholders = PLACEHOLDER.findall(text)
        if text.count("\x02") != len(placeholders):
            return text     # a placeholder split over two elements (emphasis across a code span): not ours to read
        view = PLACEHOLDER.sub(self._seen, text)
        end = len(view)
        view += after
        out: list[str] = []
        taken = iter(placeholders)

        def keep(piece: str) -> None:
            """A piece of ``view`` into ``out``, its placeholders as they were."""
            first, *rest = piece.split("\x02")
            out.append(first)
            for after in rest:
                out.extend((next(taken), after[1:]))

        pos = 0
        while (found := NEXT.search(view, pos, end)) is not None:
            if found.group("quote") is None:
                keep(view[pos:found.end()])
                pos = found.end()
                continue
            keep(view[pos:found.start()])
            match, substitution = next((m, s) for rule, s in SQ_RULES if (m := rule.match(view, found.start())))
            for part in substitution:
                if isinstance(part, int):
                    keep(match.group(part))
                else:
                    entity = ENTITIES[part[0], match.group(int(part[-1]))] if part.endswith(("1", "2")) else part
                    out.append(self._stash(entity))
            pos = match.end()
        keep(view[pos:end])
        return "".join(out)

    def _seen(self, placeholder: re.Match) -> str:
        """A placeholder as two characters: STX, then ``a`` where its source's second character
        (``&amp;``, ``<b>``) is a word's, else ``!`` (an escape's ``\\"``, ``&#39;``, ``</b>``)."""
        inner = placeholder.group()[1:-1]
        if inner.startswith(STASH_PREFIX):
            source = self.md.htmlStash.rawHtmlBlocks[int(inner[len(STASH_PREFIX):])]
            if isinstance(source, str) and re.match(WORD, source[1:2]):
                return "\x02a"
        return "\x02!"


class KramdownQuotesExtension(Extension):
    """:class:`KramdownQuotes` before smarty's pass, whose own quote patterns go (load after ``smarty``)."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        smarty = md.treeprocessors["smarty"].inlinePatterns
        number = 0
        while f"smarty-quotes-{number}" in smarty:
            smarty.deregister(f"smarty-quotes-{number}")
            number += 1
        md.treeprocessors.register(KramdownQuotes(md), "kramdown_quotes", 6.5)
        md.emphasis_marks = {}
        _marks_recorded(md.inlinePatterns["em_strong"], md.emphasis_marks)


def _marks_recorded(pattern: markdown.inlinepatterns.InlineProcessor, marks: dict[int, str]) -> None:
    """Record the mark each emphasis the ``pattern`` makes was closed with (``_`` or ``*``), by its
    element's id, for the element's last text (:meth:`KramdownQuotes._after`): kramdown reads a
    quote before ``_`` (a word's character) otherwise than before ``*`` (``_"How do I..."_``
    opens and closes with “). The outermost element of a match only; the marks are dropped
    once the quotes are curled."""
    handle = pattern.handleMatch

    def handleMatch(match, data):    # noqa: N802 - the library's name
        element, start, end = handle(match, data)
        if element is not None and end and end <= len(data):   # a region cached from a longer text: no mark
            marks[id(element)] = data[end - 1]
        return element, start, end

    pattern.handleMatch = handleMatch
