"""The Markdown fast paths give the text of the plain ones, byte for byte.

Differential: every document is rendered by sitegen's converter (one-pass
typography, cached Pygments lexers and blocks, inline patterns skipped where
a text cannot match them, block processors where a block cannot hold what
they take) and by the same converter with smarty's own inline processor,
Python-Markdown's own inline pass and block loop and pymdownx's own
highlighter, uncached (the reference), over the shipped site, the shared TVM
posts and generated text.
"""

from __future__ import annotations

import re
from pathlib import Path

import xml.etree.ElementTree as etree

import markdown
import pytest
from markdown.blockprocessors import BlockProcessor
from markdown.extensions.toc import remove_fnrefs, render_inner_html
from markdown.inlinepatterns import LinkInlineProcessor
from markdown.postprocessors import Postprocessor
from markdown.util import AtomicString
from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.highlight import ReachableHighlight, lexer_for, reachable
from generator.blocks import NEEDS, TEST_NEEDS, Guarded, ListedRegistry
from generator.inline import READS_AS_PYTHON_MARKDOWN, openings
from generator.markdown import (EXTENSION_CONFIGS, EXTENSIONS, Highlighting, KramdownCompat, LinkTitlesAfterSpace,
                                REPEATED_REFERENCE, inner_html, keeps_plain_text, markdown_converter)
from generator.markdown_speed import normalize_whitespace
from generator.myst import MystExtension
from generator.sources import split_front_matter
from tests.conftest import REPO, shared_dir

FAST = markdown_converter()
# The same extensions, MyST's too (a directive's body is rendered by a converter of its own).
SMARTY = markdown.Markdown(extensions=[*EXTENSIONS, KramdownCompat(), Highlighting(ReachableHighlight),
                                       LinkTitlesAfterSpace(), MystExtension(markdown_converter)],
                           extension_configs=EXTENSION_CONFIGS, output_format="html")
# The stray closing tags looked for in every block, whatever the stash holds.
_stray = SMARTY.treeprocessors["stray_closing_tags"]
_stray.run = _stray.every_block


def both(text: str) -> tuple[str, str]:
    """``text`` rendered the fast way twice (the second from the block cache) and the plain way."""
    FAST.reset()
    first = FAST.convert(text)
    FAST.reset()
    SMARTY.reset()
    again = FAST.convert(text)
    assert again == first
    return again, SMARTY.convert(text)


def bodies(folder: Path) -> list[tuple[str, str]]:
    found = []
    for path in sorted(p for p in folder.rglob("*") if p.suffix in (".md", ".markdown")):
        _, body, _ = split_front_matter(path.read_text(encoding="utf-8"), path)
        found.append((path.name, body))
    return found


def test_the_shipped_site_reads_as_with_smarty():
    documents = bodies(REPO / "content")
    assert len(documents) > 10
    for name, body in documents:
        fast, smarty = both(body)
        assert fast == smarty, name


def test_the_tvm_posts_read_as_with_smarty():
    documents = bodies(shared_dir() / "corpus" / "tvm-site" / "_posts")
    assert len(documents) >= 19
    changed = 0
    for name, body in documents:
        fast, smarty = both(body)
        assert fast == smarty, name
        changed += "&rsquo;" in fast or "&ldquo;" in fast or "&mdash;" in fast
    assert changed > 10   # the corpus does exercise the pass


def test_every_kind_of_substitution_is_made():
    text = ("'Tis the '80s -- \"quoted\" and 'single', \"'nested'\", it's...  a --- b <<angled>>\n\n"
            "'\"x\"' and \"'y'\" --- `code 'kept'` <span title=\"a 'b'\">'c'</span>\n")
    fast, smarty = both(text)
    assert fast == smarty
    for entity in ("&rsquo;", "&lsquo;", "&ldquo;", "&rdquo;", "&ndash;", "&mdash;", "&hellip;",
                   "&laquo;", "&raquo;"):
        assert entity in fast
    assert "<code>code 'kept'</code>" in fast


# Text made of the characters the patterns care about, with words, spaces, entities and markup between.
PIECES = st.sampled_from(["'", '"', "-", "--", "---", ".", "...", "<<", ">>", " ", "\n", "\n\n", "a", "it",
                          "s", "80s", "1", "&nbsp;", "&mdash;", "\u2013", "\u2014", "(", "[", "{", "*", "_",
                          "`", "<b>", "</b>", "\\'", '\\"', "# ", "> ", "- ", "x", ",", "!", "?", ";", ":",
                          "](", ")", "![", "]", "[^1]", "[^1]: note", "<https://a.b/c>", "<a@b.c>", "&amp;",
                          "&", "  \n", "$$", "\\(", "\\)", "\\", "**", "__", "<script>x</script>", "[x]: /y"])


# Lines and pieces of the block constructs: headings both ways, rules, quotes, definitions, notes, abbreviations.
BLOCK_PIECES = st.sampled_from(["\n", "\n\n", "a", "Term", " ", "#", "## h ##", "\n=", "\n===", "\n-", "\n---",
                                "***", "___", "- - -", "* * *", "-  -  -", "_  _ _", "*  * *", "> ", "\n> q",
                                ":", "\n:   def", "\n: d", "\t", "  ", "\r\n", "<div>\n", "</div>\n",
                                '<div markdown="1">\n', "```\nx\n```\n",
                                "[^1]: note", "[^1]", "*[HTML]: Hyper Text", "HTML", "[ref]: /url 'title'",
                                "[ref]: <b> (t)", "[ref]", "]:", "*[", "!!! note", "    code", "\\#", "|", "- x",
                                '=== "Tab"', "===", '===! "T"', '\n=== "A b" \n    x'])


@settings(max_examples=2500, deadline=None)
@given(st.lists(PIECES, max_size=40).map("".join) | st.lists(BLOCK_PIECES, max_size=30).map("".join))
@example("******a***\n***a* * *")     # emphasis's delimiters keep state from match to match (generator.inline)
@example("* * **[*  * *a***a*  * *")     # a region cached from a longer text ends past the text
def test_generated_text_reads_as_with_smarty(text):
    fast, smarty = both(text)
    assert fast == smarty


@settings(max_examples=500, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x02\x03"), max_size=80))
def test_any_text_reads_as_with_smarty(text):
    fast, smarty = both(text)
    assert fast == smarty


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([" ", "  ", "\t", "\n", "\r", "\r\n", "a", "\x02", "\x03"]), max_size=40).map("".join))
def test_blank_lines_are_normalized_as_python_markdown_normalizes_them(text):
    lines = text.split("\n")
    assert normalize_whitespace(FAST, lines) == SMARTY.preprocessors["normalize_whitespace"].run(lines)


def test_the_fast_passes_are_the_ones_installed():
    """Each pass :func:`generator.markdown_speed.fewer_scans` stands in for is Python-Markdown's own
    in the reference converter, and replaced in sitegen's."""
    assert "run" in vars(FAST.preprocessors["normalize_whitespace"])
    assert "run" in vars(FAST.postprocessors["raw_html"])
    assert "run" not in vars(SMARTY.preprocessors["normalize_whitespace"])
    assert "run" not in vars(SMARTY.postprocessors["raw_html"])
    assert "run" in vars(FAST.treeprocessors["unescape"])
    assert "run" not in vars(SMARTY.treeprocessors["unescape"])
    # A plain heading's text is taken as it is (inner_html) only while every postprocessor leaves
    # plain text alone: a new one not listed in keeps_plain_text turns that off unseen.
    assert keeps_plain_text(FAST) and keeps_plain_text(markdown_converter(header_ids="kramdown"))


ESCAPE_PIECES = st.sampled_from(["\\*", "\\_", "\\`", "\\[", "\\]", "\\(", "\\)", "\\\"", "\\\\", "\\#", "a", " ", "*",
                                 "[", "](", "/u", " \"t", "\")", ")", "`", "![", "<b>", "</b>", "\n", "\n\n", "{: .c}"])


@settings(max_examples=1500, deadline=None)
@given(st.lists(ESCAPE_PIECES, max_size=30).map("".join))
def test_escapes_are_put_back_as_python_markdown_puts_them_back(text):
    """generator.markdown_speed.unescape_tree unescapes only the texts, tails and attribute values
    holding an escape (in links' targets and titles, images' alt text, code): the same text as
    unescaping every one."""
    fast, plain = both(text)
    assert fast == plain


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["<b>", "</b>", "<span>", "</span>", "</i>", "<br/>", "<i x='1'>", "</em >",
                                 "a", " ", "\n", "\n\n", "*", "`", "<!-- c -->", "</div>", "<div>\n"]),
                max_size=25).map("".join))
def test_stray_closing_tags_are_text_as_with_every_block_read(text):
    """generator.markdown.StrayClosingTags reads the blocks only of a document whose stash holds a
    closing tag: the same text as reading every block of every document."""
    fast, plain = both(text)
    assert fast == plain


def test_a_stray_closing_tag_is_found_by_both():
    fast, plain = both("a </b> and <i>b</i>\n\n</span>x\n")
    assert fast == plain and fast.count("&lt;/") == 2


def test_html_holding_placeholders_is_put_back_whole():
    """The raw-HTML pass puts back the stashed HTML, and the placeholders that HTML holds (a
    Markdown-in-HTML block that is never closed, found by a search of generated text)."""
    for text in ('<div markdown="1">\n\n```python\nx = 1\n```\n\n<b>bold</b>\n\n</div>\n\n<p>raw</p>\n',
                 "<script></script>\\<div markdown><p>"):
        fast, smarty = both(text)
        assert fast == smarty and "\x02" not in fast


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=30).map("".join))
def test_an_inline_pattern_matches_only_where_one_of_its_openings_is(text):
    """generator.inline passes a pattern over where no opening of it is in the text: sound only if
    every match starts with one."""
    for pattern in FAST.inlinePatterns:
        regex = pattern.compiled_re
        starts = openings(regex.pattern, regex.flags)
        if starts is not None:
            for match in regex.finditer(text):
                assert any(text.startswith(s, match.start()) for s in starts), (regex.pattern, text)


@settings(max_examples=300, deadline=None)
@given(st.lists(BLOCK_PIECES, max_size=30).map("".join))
def test_a_block_processor_matches_only_blocks_holding_what_it_needs(text):
    """generator.blocks finds no match in a block holding none of an expression's needs: sound only
    if every match of it holds one."""
    for processor in FAST.parser.blockprocessors:
        kind = next((kind for kind in type(processor).__mro__ if kind in NEEDS), None)
        if kind is not None:
            attribute, _, needs = NEEDS[kind]
            for match in getattr(processor, attribute).compiled.finditer(text):
                assert any(need in match.group(0) for need in needs), (type(processor).__name__, text)


@settings(max_examples=500, deadline=None)
@given(st.lists(PIECES, max_size=12).map("".join))
def test_a_heading_is_read_for_its_id_as_toc_reads_it(text):
    """generator.markdown.inner_html (the text of a heading its id is made of) takes a heading of
    plain text as its own text: the same as toc's serializing and postprocessing, in a converter
    in the middle of a document (its stash, placeholders and postprocessors in use)."""
    FAST.reset()
    FAST.convert(f"## {text}\n\nx &amp; <b>y</b> 'q' [^1]\n\n[^1]: n\n")
    plain = etree.Element("h2")
    plain.text = text
    with_child = etree.Element("h3")
    with_child.text, etree.SubElement(with_child, "code").text = text, "c"
    for el in (plain, with_child):
        assert inner_html(el, FAST) == render_inner_html(remove_fnrefs(el), FAST), text
    plain.text = " Runtime  Integration "
    assert inner_html(plain, FAST) == "Runtime  Integration"


def test_a_heading_is_read_through_a_postprocessor_that_changes_text():
    """The shortcut for plain headings holds only while every postprocessor changes placeholders
    alone: another (an extension's) gets the heading's text, as toc gives it to it."""
    class Shout(Postprocessor):
        def run(self, text: str) -> str:
            return text.upper()

    md = markdown_converter()
    md.postprocessors.register(Shout(md), "shout", 1)
    md.convert("## Quiet words\n")
    assert [h.title for h in md.toc_headings] == ["QUIET WORDS"]


def test_the_block_processors_are_listed_again_when_one_comes_or_goes():
    md = markdown_converter()
    registry = md.parser.blockprocessors
    assert isinstance(registry, ListedRegistry)
    before = list(registry)
    assert list(registry) == before
    extra = BlockProcessor(md.parser)
    registry.register(extra, "extra", 1000)       # the highest priority: tried first
    assert list(registry) == [extra, *before]
    registry.deregister("extra")
    assert list(registry) == before
    assert md.convert("# a\n\nb") == '<h1 id="a">a</h1>\n<p>b</p>'


def guarded(md: markdown.Markdown) -> set[type]:
    """The classes of :data:`NEEDS` whose processors (or a subclass's) ``md`` has guarded."""
    return {next(kind for kind in type(p).__mro__ if kind in NEEDS) for p in md.parser.blockprocessors
            if any(isinstance(v, Guarded) for v in vars(p).values())}


def test_tabs_read_as_with_every_block_searched():
    text = 'a\n=== "One"\n\n    x\n\n===+ "Two"\n    y\n\n=== no\n\n- i\n\n    === "In"\n        z\n'
    fast, plain = both(text)
    assert fast == plain and fast.count("tabbed-set") == 1     # two tabs; the item's line is text


def test_the_block_processors_search_only_blocks_holding_what_a_match_needs():
    assert guarded(FAST) == set(NEEDS)      # each expression read by hand is the installed one
    assert guarded(SMARTY) == set()         # the reference searches every block
    tested = {type(p) for p in FAST.parser.blockprocessors if "test" in vars(p)}
    assert tested == set(TEST_NEEDS)        # each test read by hand is the installed one
    assert not any("test" in vars(p) for p in SMARTY.parser.blockprocessors)


TABLE_PIECES = st.sampled_from(["|", "| ", " |", "||", "\\|", "\\", "`", "`|`", "a", " ", "\n", "\n\n", "-", "---",
                                ":--", "--:", ":-:", "| a | b |", "\n|---|---|", "\n| --- |", "a | b",
                                "\n--- | ---", "\n|:-|", "\n| 1 | 2 |", "    ", "\t", "> ", "- ", "# "])


@settings(max_examples=1500, deadline=None)
@given(st.lists(TABLE_PIECES, max_size=30).map("".join))
def test_tables_read_as_with_every_block_tested(text):
    """generator.blocks asks the tables' processor only about blocks holding a ``|``: the same
    text as asking it about every block."""
    fast, plain = both(text)
    assert fast == plain


@settings(max_examples=1500, deadline=None)
@given(st.lists(TABLE_PIECES.filter(lambda piece: "|" not in piece), max_size=30).map("".join))
def test_a_block_without_what_a_test_needs_is_never_taken(text):
    """Sound only if the processor's own test never takes a block without its need (the border
    its test notes is read only by its run, after a test that took the block)."""
    for processor in SMARTY.parser.blockprocessors:
        if type(processor) in TEST_NEEDS:
            for block in (text, text.strip("\n"), *text.split("\n\n")):
                assert not processor.test(etree.Element("div"), block), (type(processor).__name__, block)


LINK_PIECES = st.sampled_from(["[", "]", "(", ")", "<", ">", "'", '"', " ", "\n", "\\", "a", "/b.html", "t",
                               "https://x.org/y", "\u0002", "\u0003", "&"])


@settings(max_examples=1500, deadline=None)
@given(st.lists(LINK_PIECES, max_size=8).map("".join), st.lists(LINK_PIECES, max_size=25).map("".join))
def test_links_are_read_as_python_markdown_reads_them(before, rest):
    """Read where a link's text or target begins (after ``[``, at ``(``), as the pattern reads them."""
    link = FAST.inlinePatterns["link"]
    FAST.treeprocessors["inline"].stashed_nodes = {}    # as during a conversion: no placeholders
    assert "getText" in vars(link) and "getLink" in vars(link)      # the shortcuts are in place
    for data in (before + rest, before + "(" + rest):
        index = len(before)
        text, end, handled = LinkInlineProcessor.getText(link, data, index)
        # The text of a bracket never closed, which handleMatch passes over, is not copied.
        unclosed = not handled and data[index - 1:index] == "["
        assert link.getText(data, index) == ("" if unclosed else text, end, handled), data
        # Python-Markdown's, a title taken only after a space (LinkTitlesAfterSpace, in both)
        assert link.getLink(data, index) == SMARTY.inlinePatterns["link"].getLink(data, index), data


BRACKET_PIECES = st.sampled_from(["[", "]", "(", ")", "!", "a", " ", "\\", "`", "'", '"', "\n"])


@settings(max_examples=1500, deadline=None)
@given(st.lists(BRACKET_PIECES, max_size=40).map("".join), st.booleans())
def test_bracket_heavy_text_reads_as_with_smarty(text, with_reference):
    """Brackets, parentheses and what escapes or quotes them, read by generator.inline.LinkReader
    (its brackets matched once per text) as Python-Markdown's own counting reads them; with a
    reference defined, the reference patterns (which read link texts too) are tried as well."""
    fast, smarty = both(text + ("\n\n[a]: /u\n" if with_reference else ""))
    assert fast == smarty


@pytest.mark.parametrize("unit, after", [("[a ", ""), ("[a [b] ", ""), ("![a ", ""), ("[a](b ", ""),
                                         ("[a](b 'c ", ""), ("[x] [a ", "\n\n[x]: /y\n")])
def test_a_long_paragraph_of_unclosed_brackets_reads_as_with_smarty(unit, after):
    """Four thousand characters of brackets left open (Python-Markdown counts from each to the
    end: its time grows with the square of the length; benchmarks/bench_inline.py measures ours);
    with a reference defined, the reference patterns read them too."""
    fast, smarty = both(unit * (4_000 // len(unit)) + "x" + after)
    assert fast == smarty


def test_links_are_read_by_the_link_reader():
    """The installed Python-Markdown's getText and getLink are those LinkReader was checked against."""
    assert READS_AS_PYTHON_MARKDOWN
    for name in ("link", "image_link", "reference", "image_reference", "short_reference"):
        assert "getText" in vars(FAST.inlinePatterns[name]), name


def test_openings_are_read_conservatively():
    assert openings(r"(?<!\\)\[\^", 0) == {"[^"}
    assert openings(r"(?i)<(script|style)", re.I) == {"<"}
    assert openings(r"(?i:ab)c|x", 0) is None             # a case-blind start: nothing to read
    assert openings(r"(ab|cd)+e", 0) == {"ab", "cd"}
    assert openings(r"a?b", 0) is None and openings(r".x", 0) is None and openings(r"\w+", 0) is None


def test_code_blocks_keep_their_options_apart():
    code = "def f(x):\n    return x\n"
    text = "".join(f"```{lang}{options}\n{code}```\n\n" for lang in ("python", "c", "text", "nosuchlang")
                   for options in ("", ' hl_lines="2"', ' linenums="3"', ' hl_lines="1" linenums="1"'))
    text += "    indented = 'code'\n"
    fast, plain = both(text + text)
    assert fast == plain
    assert fast.count('class="hll"') == 2 * 8
    assert fast.count('<span class="normal">3</span>') == 2 * 4


def test_the_highlight_tag_and_notebooks_get_plain_pygments_html():
    from pygments import highlight as pygments_highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name

    from generator.highlight import highlight

    for language, code in (("python", "x = 'a'\n"), ("cpp", "int x;\n"), ("python", "x = 'a'\n")):
        expected = reachable(pygments_highlight(code, get_lexer_by_name(language, stripnl=False, ensurenl=True),
                                                HtmlFormatter(cssclass="highlight", wrapcode=True)),
                             lexer_for(language))
        assert highlight(code, language) == expected



def every_text_curled(self, root: etree.Element) -> None:
    """KramdownQuotes.run as it was: what follows each text read for every text."""
    self.stashed = {}
    for parent in root.iter():
        children = list(parent)
        if parent is not root and parent.text and not isinstance(parent.text, AtomicString):
            parent.text = self.curl(parent.text, self._after(children[0] if children else None, parent))
        for index, child in enumerate(children):
            if child.tail and not isinstance(child.tail, AtomicString):
                following = children[index + 1] if index + 1 < len(children) else None
                child.tail = self.curl(child.tail, self._after(following, parent))


def links_found_by_path(self, root: etree.Element) -> None:
    """KramdownFootnotes.run's links as it found them: two ``iterfind`` of every element."""
    if not self.md.treeprocessors["footnote"].footnotes.footnotes:
        return
    blocks = root.findall(".//div[@class='footnote']")
    if not blocks:
        return
    for block in blocks:
        block.attrib.update({"class": "footnotes", "role": "doc-endnotes"})
        for rule in block.findall("hr"):
            block.remove(rule)
        for note in block.iterfind("ol/li"):
            note.set("role", "doc-endnote")
    for parent in root.iter():
        for link in parent.iterfind("a[@class='footnote-ref']"):
            link.attrib.update({"class": "footnote", "rel": "footnote"})
            parent.set("role", "doc-noteref")
            if again := REPEATED_REFERENCE.match(parent.get("id", "")):
                parent.set("id", f"fnref:{again.group(2)}:{int(again.group(1)) - 1}")
        for link in parent.iterfind("a[@class='footnote-backref']"):
            link.attrib.update({"class": "reversefootnote", "role": "doc-backlink"})
            if again := REPEATED_REFERENCE.match(link.get("href", "")[1:]):
                link.set("href", f"#fnref:{again.group(2)}:{int(again.group(1)) - 1}")
                etree.SubElement(link, "sup").text = again.group(1)
                children = list(parent)
                before = children[children.index(link) - 1] if children.index(link) else None
                if before is not None and before.tag == "a" and not before.tail:
                    before.tail = "\xa0"


NOTE_PIECES = st.sampled_from(["'", '"', "a", " ", "\n", "\n\n", "[^1]", "[^2]", "[^1]: n 'q'\n", "[^2]: \"m\"\n",
                               "*", "**", "`c'`", "<b>", "</b>", "<a class=\"footnote-ref\">x</a>", "[l](/u)", "- ",
                               "> ", "## h", "it's", "\"x\"", "'y'", "--"])


@settings(max_examples=1500, deadline=None)
@given(st.lists(NOTE_PIECES, max_size=30).map("".join))
# emphasis splits a code span's placeholder over two elements (Python-Markdown leaves its marks in the HTML)
@example("\"**[^1]: n 'q'\n***'**'**'*`c'`*\"")
def test_quotes_and_notes_read_as_with_every_element_read(text):
    """kramdown's quotes are curled reading what follows only a text holding a quote, and the
    footnotes' links found in one pass over each element's children: the same text as reading
    every text's neighbours and finding the links by path."""
    plain = markdown_converter()
    quotes, notes = plain.treeprocessors["kramdown_quotes"], plain.treeprocessors["kramdown_footnotes"]
    quotes.run = every_text_curled.__get__(quotes)
    notes.run = links_found_by_path.__get__(notes)
    FAST.reset()
    assert FAST.convert(text) == plain.convert(text)


TAG_PIECES = st.sampled_from(["<a", "<img", "<x-y", " ", "\n", "class", "data-class", "x", "=", '"v"', "'w'", "u",
                              '"a class=b"', ">", "/>", "<", "text", "-", ":"])


@settings(max_examples=1500, deadline=None)
@given(st.lists(TAG_PIECES, max_size=30).map("".join))
@example('<a class="x"class="y">')         # no space before the second
@example('<a =="v""v">')                    # names without a value (hypothesis found it) are not looked at
@example('<b>t</b> <a class="x" href="y" class="z">')
def test_attributes_written_once_only_where_a_tag_names_one_twice(text):
    """AttributesOnce reads the tags only where TWICE finds a name written twice in one: the same
    text as reading every tag."""
    from generator.markdown import START_TAG, AttributesOnce, _attributes_once
    assert AttributesOnce(FAST).run(text) == START_TAG.sub(_attributes_once, text)


ID_PIECES = st.sampled_from(["<p", "<a", "<script", "</script>", "<style>", "</style>", "<!--", "-->", " ", "\n",
                             "\t", "id", "ID", "iD", "=", '"', "'", '""', "''", '" "', "x", ">", "/>", "<"])


@settings(max_examples=1500, deadline=None)
@given(st.lists(ID_PIECES, max_size=30).map("".join))
@example('<a id = "  ">')
@example("<p ID=''>")
def test_blank_ids_read_only_where_an_attribute_is_blank(text):
    """BlankIdsOut reads the tags only where BLANK_VALUE finds a blank quoted value and BLANK_ID a
    blank id: the same text as reading every tag."""
    from generator.markdown import TAG_OR_RAW_TEXT, BlankIdsOut
    assert BlankIdsOut(FAST).run(text) == TAG_OR_RAW_TEXT.sub(BlankIdsOut._tag_without_blank_id, text)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(["`", "``", "a", " ", "<", "\n"]), max_size=20).map("".join), st.integers(0, 25))
def test_code_spans_closed_as_counted_on_a_copy(text, start):
    """KramdownCodeSpan counts the opening backticks in place: where the span's code starts and
    ends is what counting them on a copy of the text's rest gives."""
    from generator.markdown import KramdownCodeSpan
    ticks = len(text) - len(text[start:].lstrip("`")) - start
    close = text.find("`" * ticks, start + ticks)
    assert FAST.inlinePatterns["backtick"].find_code_spans(start, text) == (start + ticks, close if close >= 0 else None)
    assert isinstance(FAST.inlinePatterns["backtick"], KramdownCodeSpan)


def test_a_converter_without_inline_patterns_reads_text_as_text():
    """generator.inline lists the patterns to try per converter: a converter with none (all
    deregistered) has nothing to list and tries none."""
    md = markdown_converter()
    for name in [item.name for item in md.inlinePatterns._priority]:
        md.inlinePatterns.deregister(name)
    assert md.convert("a *b* [c](d) `e`") == "<p>a *b* [c](d) `e`</p>"
