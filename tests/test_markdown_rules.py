"""Each kramdown-GFM rule sitegen follows, checked twice: against the HTML Jekyll gave
when the rule was written, and against Jekyll itself, run now on the same snippets.

The snippets are built as posts of one Jekyll site (once per module); each is
compared by structure (heading ids, lists, tables, code blocks, images) and words.
"""

from __future__ import annotations

import re
from pathlib import Path

import lxml.html
import pytest

from generator.markdown import gfm_id, kramdown_id, render_markdown
from tests import parity

CASES = {
    "list-after-paragraph": ("Para line\n- a\n- b\n\nText\n3. three\n4. four\n",
                             ["<p>Para line</p>\n<ul>\n<li>a</li>", "<p>Text</p>\n<ol>\n<li>three</li>"]),
    "nested-list-after-paragraph": ("Para\n* a\n    * nested\n* b\n", ["<p>Para</p>\n<ul>"]),
    "fence-after-paragraph": ("text\n```python\nx = 1\n```\nmore\n",
                              ["<p>text</p>\n<div class=\"highlight\" ", "</div>\n<p>more</p>"]),
    "quote-after-paragraph": ("Para\n> quote\n", ["<p>Para</p>\n<blockquote>"]),
    "html-after-paragraph": ("Para\n<div>x</div>\n", ["<p>Para</p>\n<div>x</div>"]),
    "ial-ends-paragraph": ('Hello\nnext line\n{: style="text-align: center"}\nafter\n',
                           ['<p style="text-align: center">Hello\nnext line</p>\n<p>after</p>']),
    "ald-around-paragraph": ('{:center: style="text-align: center"}\n{:center}\n![image](/images/x.png){: width="50%"}\n'
                             '{:center}\n\nNext.\n', ['<p style="text-align: center"><img alt="image" src="/images/x.png" '
                                                      'width="50%"']),
    "table-without-header": ("|---|---|\n| a | b |\n| c | d |\n", ["<table>\n<tbody>\n<tr>\n<td>a</td>"]),
    "table-without-separator": ("| a | b |\n| c | d |\n", ["<table>\n<tbody>"]),
    "table-empty-header": ("|  |  |\n|---|---|\n| a | b |\n", ["<thead>"]),
    "table-ragged-rows": ("|---|---|\n| |\n|---|---|\n| a | b | c |\n| **d** |\n",
                          ["<td><strong>d</strong></td>\n<td></td>\n<td></td>"]),
    "table-pipes-in-code": ("| a `x|y` \\| z | b |\n|:--|--:|\n| 1 | 2 |\n", ["<code>x|y</code> | z</th>"]),
    "header-ids": ("### 1. Graph Annotation_x\n\n## Hello World\n\n## Hello World\n\n## Hello-World-1\n\n"
                   "## Café  two  spaces\n\n## See [docs](http://x.y/z)\n\n## **Bold** `code_x` & more\n",
                   ['id="1-graph-annotation_x"', '<h2 id="hello-world-1">Hello World</h2>',
                    '<h2 id="hello-world-1">Hello-World-1</h2>', 'id="café--two--spaces"',
                    'id="see-docs"', 'id="bold-code_x--more"']),
    "hard-wrapped-lines": ("one line\nnext line  \nafter a break\n", ["<p>one line\nnext line<br>\nafter a break</p>"]),
    "typographic-quotes": ("\"a\" 'b' 1990's -- and --- ... <<x>>\n",
                           ["&ldquo;a&rdquo; &lsquo;b&rsquo; 1990&rsquo;s &ndash; and &mdash; &hellip; &laquo;x&raquo;"]),
    "code-in-list-untouched": ("- item\n\n  ```\n  text\n  - not a list\n  ```\n", ["- not a list"]),
    "nested-list-two-spaces": ("- a\n  - b\n  - c\n- d\n", ["<li>b</li>"]),
    "item-continued-at-its-column": ("* item\n\n  more of it\n\n* next\n", ["<p>more of it</p>\n</li>"]),
    "lazy-heading-stays-in-item": ("* {:.block}\n![x](/x.png)\n### Title\n\n    {:.mb}\n    Text.\n",
                                   ['<li class="block">', '<h3 id="title">Title</h3>', '<p class="mb">Text.</p>']),
    "ial-before-list-and-heading": ("{:.outer}\n* one\n* two\n\n{:.head}\n## Head\n",
                                    ['<ul class="outer">', '<h2 class="head" id="head">Head</h2>']),
    "parse-block-html": ('{::options parse_block_html="true" /}\n\n<div class="box">\n### Inside\n* a\n</div>\n',
                         ['<div class="box">\n<h3 id="inside">Inside</h3>']),
    "markdown-attribute-in-code": ('```\n<div>\n<div markdown="1">\n*code*\n</div>\n</div>\n```\n',
                                   ['<code>&lt;div&gt;\n&lt;div markdown="1"&gt;']),
    "kramdown-comment": ("Before.\n\n{::comment}\nhidden\n{:/comment}\n\nAfter.\n", ["<p>Before.</p>\n<p>After.</p>"]),
}


@pytest.mark.parametrize("name", CASES)
def test_rule_gives_the_html_jekyll_gave(name: str) -> None:
    text, expected = CASES[name]
    html = render_markdown(text).html
    for fragment in expected:
        assert fragment in html


def jekyll_posts(tmp_path_factory: pytest.TempPathFactory, texts: dict[str, str]) -> Path:
    """Each of ``texts`` as a post (named by its key) of one site, built by Jekyll."""
    if not parity.jekyll_available():
        pytest.skip("Jekyll is not installed (scripts/setup-test-tools installs it)")
    site = tmp_path_factory.mktemp("posts") / "site"
    (site / "_posts").mkdir(parents=True)
    for name, text in texts.items():
        (site / "_posts" / f"2020-01-01-{name}.md").write_text(f"---\ntitle: {name}\n---\n{text}")
    return parity.jekyll_build(site, site.parent)


@pytest.fixture(scope="module")
def jekyll_snippets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return jekyll_posts(tmp_path_factory, {name: text for name, (text, _) in CASES.items()})


@pytest.mark.parametrize("name", CASES)
def test_rule_matches_jekyll_now(name: str, jekyll_snippets: Path) -> None:
    url = parity.post_urls(jekyll_snippets)[name]
    theirs = parity.measure((jekyll_snippets / url[1:]).read_text(encoding="utf-8"))
    mine = parity.measure(render_markdown(CASES[name][0]).html)
    assert {k: v for k, v in mine.items() if k != "text"} == {k: v for k, v in theirs.items() if k != "text"}
    assert mine["text"] == theirs["text"] or parity.text_ratio(mine["text"], theirs["text"]) == 1.0


@pytest.mark.parametrize("text, gfm, kramdown", [
    ("1. Graph Annotation", "1-graph-annotation", "graph-annotation"),
    ("snake_case name", "snake_case-name", "snakecase-name"),
    ("???", "", "section"),
])
def test_header_id_rules(text: str, gfm: str, kramdown: str) -> None:
    assert (gfm_id(text), kramdown_id(text)) == (gfm, kramdown)


HEADINGS = ("## 1. Graph Annotation\n\n## snake_case name\n\n## Download  Source Code\n\n"
            "## C++ & CUDA: a tour\n\n## Motivation\n\n## Motivation\n\n## Café crème\n")


@pytest.mark.parametrize("rule, jekyll_config", [("gfm", ""), ("kramdown", "kramdown:\n  input: kramdown\n")])
def test_header_id_rules_match_jekyll(rule: str, jekyll_config: str, tmp_path: Path) -> None:
    """Each rule against Jekyll set up to use it: GFM (the default) and kramdown's own input."""
    if not parity.jekyll_available():
        pytest.skip("Jekyll is not installed (scripts/setup-test-tools installs it)")
    site = tmp_path / "site"
    (site / "_posts").mkdir(parents=True)
    (site / "_posts" / "2020-01-01-headings.md").write_text(f"---\ntitle: h\n---\n{HEADINGS}")
    out = parity.jekyll_build(site, tmp_path, jekyll_config)
    theirs = parity.measure((out / "2020/01/01/headings.html").read_text())["ids"]
    assert [h.id for h in render_markdown(HEADINGS, header_ids=rule).toc] == theirs


def test_kramdown_rule_by_setting_and_empty_ids_left_out() -> None:
    html = render_markdown("## 1. Getting Started\n\n## ???\n\n## ???\n", header_ids="kramdown").html
    assert 'id="getting-started"' in html
    gfm = render_markdown("## ???\n\n## ???\n").html
    assert "<h2>???</h2>" in gfm and '<h2 id="-1">???</h2>' in gfm


def test_an_extension_kramdown_lacks_is_text_with_a_warning_at_its_line() -> None:
    """kramdown ignores the tag (a warning of its own) and reads the line as text; so does sitegen,
    naming it (it stopped the build: '{::__' drawn by the generated-text test)."""
    rendered = render_markdown("Text.\n\n{::unknown}\n<b>x</b>\n{:/unknown}\n\n{::__\n")
    assert [line for line, _ in rendered.warnings] == [3, 7]
    assert "{::unknown}" in rendered.html and "{::__" in rendered.html


def test_options_without_an_end_are_text_with_a_warning_at_their_line() -> None:
    rendered = render_markdown('Text.\n\n{::options parse_block_html="true"}\n\n<div>\n*x*\n</div>\n')
    assert "<p>{::options parse_block_html=" in rendered.html and "<em>" not in rendered.html
    assert [line for line, message in rendered.warnings if "{::options ...}' without '/}'" in message] == [3]


def test_header_ids_stay_unique_in_linear_time() -> None:
    rendered = render_markdown("".join(f"## Same\n\n" for _ in range(2000)))
    ids = [h.id for h in rendered.toc]
    assert ids[:3] == ["same", "same-1", "same-2"] and len(set(ids)) == 2000


def _fences_closed_at_every_indent() -> str:
    """A fence opened and closed at 0-3 spaces each, ``` and ~~~, each followed by a heading."""
    return "\n".join(f"{' ' * opened}{mark}python\nx = {opened}{closed}\n  y\n{' ' * closed}{mark}\n\n"
                     f"## After {mark[0]} {opened} {closed}\n\nText {opened}{closed}.\n"
                     for mark in ("```", "~~~") for opened in range(4) for closed in range(4))


def _fences_in_items() -> str:
    """Fences in list items (and in a nested item) opened and closed at columns of their own."""
    return "\n".join(f"1. item {opened}{closed}\n\n{' ' * opened}{mark}\n{' ' * opened}code\n"
                     f"{' ' * closed}{mark}\n\n2. next\n\n   - deep\n\n{' ' * (opened + 2)}{mark}\n"
                     f"{' ' * (opened + 2)}x\n{' ' * (opened + closed % 3)}{mark}\n\nPara {opened}{closed}.\n"
                     for mark in ("```", "~~~") for opened in range(3, 7) for closed in range(7))


# Compared with Jekyll by their whole element tree (tests/parity.py's dom), not by counts.
DOM_CASES = {
    "fence-closed-indented": "```python\nx = 1\n  ```\n\n## Next\n\nText.\n",
    "fence-closing-indents": _fences_closed_at_every_indent(),
    "fence-in-items": _fences_in_items(),
    "fence-in-item-closed-elsewhere": "- item\n\n  ```\n  code\n   ```\n\n- two\n\n## After\n",
    "fence-longer-closing": "Text\n\n   ~~~\n   a\n b\n    ~~~\n  ~~~~\n\n## End\n",
    "strikethrough": ("A ~~gone~~ word, ~~two\nlines~~, ~~ not~~, ~one~, ~~~~x~~~~ and `~~code~~`.\n\n"
                      "Escaped \\~~not struck~~ and **~~both~~** and ~~*em*~~.\n"),
    "task-lists": ("- plain first\n- [ ] todo\n- [x] done **bold**\n- [X] upper\n- plain after\n- [ ]no space\n\n"
                   "Between.\n\n1. [ ] loose\n\n   more\n\n2. [x] second\n\nAnd.\n\n- a\n\n  - [ ] nested\n  - b\n\n"
                   "Last.\n\n* [ ] ~~struck~~ task\n"),
}


# Lists and headings in list items, compared with Jekyll by their whole element tree (issue 33):
# a moved item or a <p> around an item's text changes no count that measure() makes.
LIST_ITEMS = {
    "bullets-2-spaces": "- a\n  - b\n  - c\n- d\n",
    "bullets-3-spaces": "- a\n   - b\n   - c\n- d\n",
    "bullets-4-spaces": "- a\n    - b\n    - c\n- d\n",
    "numbers-2-spaces": "1. a\n  1. b\n  2. c\n2. d\n",
    "numbers-3-spaces": "1. a\n   1. b\n   2. c\n2. d\n",
    "numbers-4-spaces": "1. a\n    1. b\n    2. c\n2. d\n",
    "bullets-in-numbers-2-spaces": "1. a\n  - b\n  - c\n2. d\n",
    "bullets-in-numbers-3-spaces": "1. a\n   - b\n   - c\n2. d\n",
    "bullets-in-numbers-unindented": "1. a\n- b\n- c\n2. d\n",
    "numbers-in-bullets-unindented": "- a\n1. b\n- c\n",
    "three-deep-2-spaces": "- a\n  - b\n    - c\n    - c2\n  - e\n- f\n",
    "three-deep-3-spaces": "- a\n   - b\n      - c\n   - e\n- f\n",
    "three-deep-4-spaces": "- a\n    - b\n        - c\n    - e\n- f\n",
    "two-lines-of-text": "* a\n  more\n  * b\n* c\n",
    "blank-before-nested": "- a\n\n  - b\n  - c\n\n- d\n",
    "blank-before-nested-4-spaces": "- a\n\n    - b\n    - c\n\n- d\n",
    "between-paragraphs": "Text\n\n- a\n  - b\n- c\n\nAfter\n",
    "blank-between-nested-items": "- a\n  - b\n\n  - c\n- d\n",
    "blank-in-nested-item": "- a\n  - b\n\n    text\n  - c\n- d\n",
    "heading-in-item": "- a\n  ## H\n- b\n",
    "heading-in-item-unindented": "- a\n## H\n- b\n",
    "heading-in-numbered-item": "1. a\n   ### H\n2. b\n",
    "heading-then-text-in-item": "- a\n  ## H\n  text\n- b\n",
    "heading-in-nested-item": "- a\n  - b\n    ## H\n  - c\n- d\n",
    "headings-in-two-items": "- a\n  ## H\n- b\n  ## I\n- c\n",
    "heading-then-list-in-item": "- a\n  ### H\n  - x\n- b\n",
    "heading-after-two-lines": "* a\n  more\n  # H1\n* **b**\n* \"c\"\n",
    "quote-in-item": "- a\n  > q\n- b\n",
    "heading-in-item-then-blank": "- a\n  ## H\n\n- b\n",
    "blank-after-nested-items": "- a\n  - b\n\n  - c\n\n- d\n",
    "blank-between-items": "- a\n- b\n\n- c\n- d\n",
    "blank-after-first-item": "- a\n\n- b\n- c\n",
    "blanks-between-numbers": "1. a\n2. b\n\n3. c\n\n4. d\n5. e\n",
    "two-blanks-between-items": "- a\n- b\n\n\n- c\n",
    "loose-items": "- a\n\n- b\n\n- c\n",
    "list-then-paragraph": "- a\n- b\n\nText\n",
    "loose-list-then-paragraph": "- a\n\n- b\n\nText\n",
    "item-with-two-paragraphs": "- a\n\n  more\n- b\n",
    # An HTML block with markdown="1" inside an item (bitcoincore.org, swift-org-website): kramdown
    # keeps it in the item, at any indent the item's text takes.
    "markdown-html-in-item": '- a\n\n  <details markdown="1">\n  <summary>S</summary>\n\n  *x*\n\n  </details>\n\n- b\n',
    "markdown-html-in-tight-item": '- a\n  <details markdown="1">\n  <summary>S</summary>\n  *x*\n  </details>\n- b\n',
    "markdown-html-in-item-3-spaces": '- a\n\n   <div markdown="1">\n\n   *x*\n\n   </div>\n- b\n',
    "markdown-html-in-tight-item-3-spaces": '- a\n   <div markdown="1">\n   *x*\n   </div>\n- b\n',
    "markdown-html-in-item-4-spaces": '- a\n\n    <details markdown="1">\n    <summary>S</summary>\n\n    *x*\n\n    </details>\n\n- b\n',
    "markdown-html-in-tight-item-4-spaces": '- a\n    <div markdown="1">\n    *x*\n    </div>\n- b\n',
    "markdown-html-in-numbered-item": '1. a\n\n   <div markdown="1">\n   *x*\n   </div>\n2. b\n',
    "markdown-html-in-nested-item": ('- a\n  - b\n\n    <details markdown="1">\n    <summary>S</summary>\n\n'
                                     '    *x*\n\n    </details>\n  - c\n- d\n'),
    "fence-in-markdown-html-in-item": ('1. a\n\n   <div markdown="1">\n   Run:\n\n   ~~~ shell\n   $ ls <x>\n   ~~~\n'
                                       '   </div>\n\n2. b\n'),
    "fence-after-markdown-html-in-item": ('0. a\n\n   <div class="warning" markdown="1">\n   Run `x`.\n   </div>\n\n'
                                          '   ~~~ batch\n   curl x\n   ~~~\n\n0. b\n\n   ~~~ batch\n   y\n   ~~~\n'),
    "list-in-markdown-html-in-item": '- a\n\n  <div markdown="1">\n\n  - x\n  - y\n\n  </div>\n- b\n',
}


@pytest.fixture(scope="module")
def dom_builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """DOM_CASES as posts of one site, built by Jekyll and by sitegen."""
    if not parity.jekyll_available():
        pytest.skip("Jekyll is not installed (scripts/setup-test-tools installs it)")
    work = tmp_path_factory.mktemp("dom")
    site = work / "site"
    (site / "_posts").mkdir(parents=True)
    for name, text in DOM_CASES.items():
        (site / "_posts" / f"2020-01-01-{name}.md").write_text(f"---\nlayout: post\ntitle: {name}\n---\n{text}")
    return parity.jekyll_build(site, work), parity.sitegen_build(site, work)


@pytest.mark.parametrize("name", DOM_CASES)
def test_element_tree_matches_jekyll(name: str, dom_builds: tuple[Path, Path]) -> None:
    jekyll, sitegen = (parity.dom((out / f"2020/01/01/{name}.html").read_text(encoding="utf-8"))
                       for out in dom_builds)
    assert sitegen == jekyll


@pytest.fixture(scope="module")
def jekyll_list_items(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return jekyll_posts(tmp_path_factory, LIST_ITEMS)


@pytest.mark.parametrize("name", LIST_ITEMS)
def test_list_item_has_jekylls_element_tree(name: str, jekyll_list_items: Path) -> None:
    assert parity.dom(render_markdown(LIST_ITEMS[name]).html) == jekylls_tree(jekyll_list_items, name)


def jekylls_tree(built: Path, name: str) -> tuple:
    """The element tree (:func:`parity.dom`) of the post ``name`` in a site built by :func:`jekyll_posts`."""
    url = parity.post_urls(built)[name]
    return parity.dom((built / url[1:]).read_text(encoding="utf-8"))


@pytest.mark.parametrize("text", ["* {:.cls}\n\n  text\n* b\n", "* {:.cls}\n\n  - nested\n",
                                  "1. {: .x}\n\n   ![i](/i.png)\n"])
def test_an_items_attribute_list_leaves_no_empty_paragraph(text: str) -> None:
    """The item's IAL taken out of its first paragraph leaves nothing of it (kramdown reads
    these items otherwise still: it ends the list at the blank line, see README)."""
    html = render_markdown(text).html
    assert "<p></p>" not in html.replace("\n", "") and "{:" not in html


@pytest.mark.parametrize("text", ["- a\n   ## H\n1. n\n", "- a\n  - b\n\n  ## H\n- c\n", "* x\n\n    1. y\n"])
def test_list_item_marks_never_show(text: str) -> None:
    """The marks that say which items are tight are taken out, also where an item's line became code."""
    rendered = render_markdown(text)
    assert not {"\ufdd0", "\ufdd1"} & set(rendered.html + "".join(h.title for h in rendered.toc))


# Issue 33, item 3: what kramdown reads otherwise than Python-Markdown did, each compared with
# Jekyll by its whole element tree (a code span's text exactly).
KRAMDOWN_READINGS = {
    "angle-brackets-not-html": ("`Dictionary<uint8, uint16>` and Dictionary<uint8, uint16>, IReadOnlyList<T?> "
                                "and a <b c\n\nKept: <span>s</span> a<br/>b <!-- c --> <https://x.org> "
                                "<a href=\"/y\" title='t'>y</a> <em>e</em> List<int>\n"),
    "reference-label-with-code": ("See [`COPY`][], [`x`][ref] and [`Both` words][].\n\n"
                                  "[`COPY`]: https://a.org/copy\n[ref]: https://b.org\n"
                                  "[`both` words]: https://c.org\n"),
    "emoji-in-heading-id": "## Hello ⚠️ warn\n\n## ❤️ Love\n\n## x² y\n",
    # An indented code block takes the lines after it up to a blank line, each unindented one joined to
    # the line above by a space (kramdown's CODEBLOCK_MATCH and parse_codeblock), but for an HTML tag
    # (accumulo-website's 1.5 examples: a command's output under it).
    "code-block-lazy-lines": ("Text.\n\n    $ run --rows 1 \nERROR : too large\n  two spaces\n# not a heading\n\nAfter.\n\n"
                              "    code\n<div>x</div>\n\n- item\n\n    in item\nlazy\n\n"
                              # jekyll's docs: Liquid's rows of a raw <table>, a blank line among them
                              '<div class="s">\n<table>\n  <tbody>\n\n      <tr><td>\n            <p><code>site | where_exp:\n'
                              '"b"</code></p>\n      </td></tr>\n  </tbody>\n</table>\n</div>\n'),
    # The space after a leading tag is in kramdown's raw text, so in the id (accumulo-website's manual).
    "heading-id-after-a-tag": ('### <a id="Contents"></a> Contents\n\n## Title <a id="t"></a>\n\n'
                               '## <b>Bold</b> start\n\n## ![i](/x.png) Pic\n\n## `code` first\n'),
    "heading-line-in-item-text": "- a\n   ## H\n1. n\n\nText.\n\n* a\n ## H\n* b\n\nMore.\n\n1. a\n  ## H\n2. b\n",
    "bullets-then-numbers": "- a\n- b\n\n1. c\n2. d\n\nText.\n\n1. e\n\n- f\n",
    "markdown-in-nested-html": ('<div class="row">\n<div class="col" markdown="1">\n## Head\n\n* a **b**\n\n</div>\n'
                                '<div class="col">\n<b>raw</b>\n</div>\n</div>\n\nAfter *y*\n'),
    "fences-in-quotes": ("> text\n> ```python\n> x = 1\n>   y\n> ```\n> after\n\n> ```\n> code\n> ```\n\n"
                         "> ~~~\n> a\n>\n> b\n> ~~~\n\n> > deep\n> > ```\n> > z\n> > ```\n"),
    "fences-indented-with-tabs": ("- a\n\n\t```\n\tcode\n\t\tx\n\t```\n\n1. b\n\t```\n\tcode\n\t```\n2. c\n\n"
                                  "Text\n\n\t```python\n\tx = 1\n\t```\n"),
    # Leaflet's docs: kramdown takes one tab or four spaces off an indented code block's lines and
    # keeps the rest as written; an HTML block's <pre> keeps its tabs and lines of spaces (its examples).
    "tabs-in-indented-code-and-pre": ("Text.\n\n\tL.marker(x)\n    \t.addTo(map)\n\t\t.open();\n\nMid.\n\n"
                                      '<pre><code>const f = {\n\t"type": 1,\n\n\t\tx\n    \n}</code></pre>\n\n'
                                      "<pre class=\"c\">\ta\tb</pre>\n\n- item\n\n        in\titem\n"),
    # An attribute list on the line above a code block is the block's (Leaflet's `{: .css}`), the
    # block's tabs kept.
    "attribute-list-over-code": ("Text.\n\n{: .css}\n\tbody {\n\t\tx\n\t}\n\nA\n\n{: .no-highlight #n}\n"
                                 "    foreach\n        if\n\nB\n\n{: .y}\n```\nz\n```\n"),
    # An attribute list right below a code block is the block's (the chirpy theme's {: .nolineno } and
    # {: file="x.py" } under fences), one after a blank line the next block's.
    "attribute-list-below-code": ('Text.\n\n```shell\nls -l\n```\n{: .nolineno }\n\nAfter\n\n    indented\n{: .x}\n\n'
                                  'End\n\n```\na\n```\n{: file="x.py" .y}\n\n- item\n\n  ```\n  b\n  ```\n  {: .z}\n\n'
                                  '```\nc\n```\n\n{: .w}\nLast\n'),
    # An attribute list below an element's end tag is the element's (just-the-docs' collapsible TOC).
    "attribute-list-below-an-element": ('<details open markdown="block">\n  <summary>\n    Contents\n  </summary>\n'
                                        '  {: .text-delta #s }\n1. TOC\n{:toc}\n</details>\n\n## First\n\n## Second\n'),
    # A definition after a blank line holds a paragraph, one right below another does not
    # (just-the-docs' test page).
    "definitions-after-blank-lines": ("Term\n: First of Term,\n  more\n\n: Second of *Term*,\n  more\n\n"
                                      "Term1\nTerm2\n: First\n: Tight\n\n: Second\n\n: Third\n\nX\n\n: loose\n"),
    "list-in-quote": "> - a\n>   - b\n> - c\n>\n> Text\n> 1. one\n",
    "item-attribute-lists": ("* {:.cls} text\n\n* two\n\nPara.\n\n- a\n\n  {: .x}\n- b\n\nMore.\n\n"
                             "- {:.c} [ ] task\n- [x] done\n\nEnd.\n\n- a\n- b\n{: .x}\n\nText\n\n"
                             "1. c\n2. e\n{:.z}\n\nLast.\n\n{: .gone}\n"),
    "nested-html-lists-parse-block-html": ('{::options parse_block_html="true" /}\n\n<div class="x">\n<ul>\n'
                                           '    <li>a\n        <ul>\n            <li>b</li>\n        </ul>\n'
                                           '    </li>\n</ul>\n</div>\n\n<div>\n  <ul>\n    <li><a href="/x">a</a>\n'
                                           '      <ol>\n        <li>b</li>\n      </ol>\n    </li>\n  </ul>\n</div>\n'),
    "footnotes": "Text[^1] and[^n].\n\n[^1]: Note.\n[^n]: Two\n\n    paras.\n",
    "code-span-spaces": "x `a ` y, `` b `` and ``` c  ``` z; a ` b` c, `d` ` e\n",
    "table-of-contents": ("* TOC\n{:toc}\n\n## First one\n\ntext\n\n### Sub `code` [link](/x) part[^1]\n\n"
                          "#### Deep\n\n## Second\n{:.no_toc}\n\n1. x\n{:toc}\n\n# Top\n\n## Under *it*\n\n"
                          "[^1]: Note.\n"),
    "table-of-contents-own-id": "1. TOC\n{:toc #mine .c}\n\n### Low\n\n# High\n\n## Mid\n",
    "code-blocks-apart-at-a-definition": ("    code 1\n\n[r]: /u\n\n    code 2\n\n\n    code 3\n\n"
                                          "Text [r]\n\n\t```python\n\tx = 1\n\t```\n\n    same block\n"),
    "end-of-block-marker": ("- a\n- b\n^\n- c\n\nPara\n^\n\n> q\n^\n> r\n\n- a\n\n  ^\n\n  text\n\n"
                            "```\n^\n```\n\n1. x\n^\n    code\n"),
    "code-span-at-line-start": "Text on\n```gotvm``` provides an API.\n\n```x``` also.\n\n- a\n```b``` c\n",
    "item-attribute-list-then-lazy-text": ('* {:.key-block}\n![P](/s.svg "s")\n### Perf\n\n    {:.mb-3}\n    Fast.\n\n'
                                           '* {:.key-block}\n![R](/r.svg "r")\n### Run\n    Everywhere.\n'),
    "code-keeps-trailing-spaces": "* Size:\n\n      a: 1  \n      b: <x>   \n\nText\n\n    x\n    y   \n\n    z\n",
    "comment-line-in-a-paragraph": ("Changes include:\n<!--more-->\ncordova-plugin-camera@4.0.2\n* [CB-1](https://x.org) Fix\n\n"
                                    "<!-- c -->\n\nText  \n<!-- d -->\nafter a break\n"),
    "heading-attribute-line": "## X ##\n{: #custom .c}\ntext\n\n# Y\n{:.z}\n\n## Z\n",
    "reference-in-brackets": ("Prism。 [[Feature #20564]] [[Misc 1]][] [[[Misc 1]]] [*[Misc 1]*] ![[Misc 1]]\n\n"
                              "[Feature #20564]: https://bugs.ruby-lang.org/issues/20564\n[Misc 1]: /m\n"),
    "hashes-without-space": ("##GUIDELINES\n\n#\n\n#5 x\n\n- a [PR\n  #31112](/u) pushed\n- b\n  # H\n- c\n\n"
                             "para\n# Head\n"),
    "comment-line-with-trailing-spaces": "    npm i\n\n<!--more-->    \nTo add it:\n\n    cordova add\n",
    "definition-holding-a-list": ("```\n: not a definition\n  in code\n```\n\n1.8 series\n: * 1.8.4 a\n  * 1.8.5-p230 b\n  * 1.8.6 c\n\n1.9 series\n: * 1.9.0-1\n\n"
                                  "Term\n: text at column 2\n  goes on\n\nAfter.\n"),
    "quotes-in-a-links-url": ('[issues](https://x.org/i?q=label%3A"High+Priority"), [u](/v?a="b"), ![i](/i.png?x=\'y\'), '
                              '[t](/u "title"), [q](</q> "t") and [s](/s\n"t")\n'),
    "code-keeps-leading-blank-lines": "```\n\nx\n```\n\n~~~ruby\n\n\n  a = 1\n~~~\n\n- item\n\n  ```\n\n  y\n  ```\n",
    # kramdown's smart_quotes.rb, rule by rule (nim-lang's issue titles: "a b ", ""c" d").
    "quotes-curled-as-kramdown": ('- Fixed ""widget" is listed as a page in the index" ([#1](/i/1))\n'
                                  '- Fixed "Error: cannot call `x`" and "Parser fails on tabs "\n'
                                  "- Fixed \"regression: writes a file '-' ; read it apart\"\n\n"
                                  "\"\"c\" d\", 30'000, it's the '90s, 'a', \"'b'\", '\"c\"', \"*d*\", *e*\"f\", "
                                  '"**g**" "_h_", ..."i", "j"... --"k"-- , (\"l\") ["m"](/m) "`n`"\n'
                                  "\\\"o\" \\'p' \"&amp;\" 'q&#39; \"<b>r</b>\" <i>\"s</i>\" \"t\"  \nu\" \"v\"\n\n"
                                  "## \"Quoted\" heading's\n\n> \"w\" 'x\n"),
    "item-code-split-by-blank-lines": ("* a\n\n      x\n\n      y\n\n  text\n\n      v\n\n  [r]: /u\n\n      u\n\n"
                                       "  - n\n\n        c1\n\n        c2\n\n      c3\n\n1. k\n\n       m\n\n       o\n"),
    "fence-keeps-tabs-and-space-lines": ("```python\nresult = make(\n\tvalues(3),\n\tsize=c)\n    \nx\ty\n```\n\n"
                                         "- i\n\n  ~~~\n  a\tb\n  \tc\n  ~~~\n"),
    "stray-closing-tags": ("Text.\n\n</body>\n</html>\n\nA <b>bold</b> and </i> stray, <span>x</span></span>, "
                           "<B>y</b> and <em>z\nw</em>.\n\n* <kbd>k</kbd></kbd>\n"),
    "raw-span-html": ('A <u>a &amp; b < c "d" <b>e *f*</b> `g`</u> h `<u>x</u>` <kbd>k</kbd> <code>"c" -- d</code> '
                      "<var>v</var> <x-y>*z*</x-y> <U>up</U> <span>*s* \"t\"</span>.\n\n"
                      'B C:\\Home<NAME>.config "q" [l](/u)\nnext line *e*.\n'),
    "kramdown-escapes": ('a \\< b \\" c \\\' d \\: e \\| f \\= g \\$ h C:\\Home\\<NAME>\\.config\\app i\n\n'
                         "| a \\| b | c |\n|---|---|\n| `x\\|y` | \\: |\n"),
    "image-alt-keeps-code": ("![a `x` b](/i.png) ![`y`][r] ![c *d* \\_e](/j.png) ![`<t>`](/l.png) ![`COPY`][]\n\n"
                             "[r]: /k.png\n[`copy`]: /c.png\n"),
    # HTML 5's void elements (lxml's HTML 4 parser, in parity.dom, does not know them).
    "html5-void-elements": ('<video controls="controls">\n  <source src="/a.webm" type="video/webm">\n'
                            '  <source src="/b.mp4" type="video/mp4">\n</video>\n\nA <source src="/c"> b, x<wbr>y.\n'),
    # Found on sites nobody here tuned to (swift-org-website, opensource.guide, brew.sh):
    "raw-content-elements": ("<code>``SymbolName``</code> links and <kbd>*k*</kbd>, <samp>`s`</samp>, "
                             "<var>_v_</var>; `<code>` then `x` and <code>*y*</code>.\n\n"
                             "#### New <code>`Sequence`</code> members\n"),
    "backslash-line-break": ("one line\\\nnext line\n\nalone\n\\\n[link](/x)\n\\\nend `a\\\nb` c\n\n"
                             "```\ncode \\\nkept\n```\n"),
    "ellipsis-in-longer-runs": "merged.....this and a....b, c......d and e...f.\n",
    "headings-in-html-elements": ('<div dir="rtl" markdown="1">\n\n## لماذا نقيس أي شيء؟\n\n## Hello World\n\n'
                                  '## Hello World\n\n<section markdown="1"><header><h3 class="t"></h3><h4>Raw</h4>'
                                  "</header></section>\n\n</div>\n\n## لماذا نقيس\n\n## Hello World\n"),
    # U+09DF (a composition exclusion) and a decomposed é, kept as written: NFC would change both.
    "unicode-as-written": "## \u0985\u09a8\u09bf\u09df\u09a8\u09cd\u09a4\u09cd\u09b0\u09bf\u09a4\n\nCafe\u0301 and \u09df.\n",
    "escaped-paren-in-link-url": ("no [boxing](https://e.org/wiki/Type_(object-oriented_programming\\)#Boxing) here, "
                                  "[x](/a\\(b) and [y](/c\\)d) and [z](/e_(f)_g).\n"),
    # opensource.guide's pull quotes, in its languages:
    "space-line-before-tag-in-html-element": ('<aside markdown="1" class="q">\n  <img src="/a.png" alt="a">\n'
                                              "Text that ends in two spaces.  \n"
                                              '  <p markdown="1" class="credit">\n— x\n  </p>\n</aside>\n'),
    "closing-tag-line-in-paragraph": ("text\n  </p>\n\nmore\n</ul>\n\n<div markdown=\"1\">\nin\n</p>\n</div>\n"),
    "block-tags-in-text": ('text <p>x</p> more, <div class="c">d</div> and <hr> but <br> <span>s</span>.\n\n'
                           '<aside markdown="1">\nText. <p markdown="1" class="c">\nx\n</p>\n</aside>\n'),
    "empty-block-quote": "a\n\n>\n\nb\n\n> \n>\n",
    "dash-runs": ("a -- b --- c ---- d ----- e ------ f ------- g\n\nx----y, 1--2, a--, '---' --\"k\"--\n\n"
                  "`a----b` a----b\n\n----\n"),
    "html-elements-left-open": '<aside markdown="1">\na\n\n<aside markdown="1">\nx *y*\n\nz\n',
    # opensource.guide's `_"How do I..."_` in every language: a quote before `_` (a word's character)
    # is an opening one in kramdown, before `*` a closing one.
    "quote-before-emphasis-mark": ('for example, _"How do I..."_ or _"What do you think about..."_ instead.\n'
                                   '\n'
                                   'And *"How do I..."* or **"Bold..."** and __"Under..."__ here.\n'
                                   '\n'
                                   '> _"let me show you..."_\n'),
    # apache/calcite's history: kramdown closes a code span at the first run of its opening's backticks,
    # even within a longer run.
    "code-span-closed-in-a-longer-run": ("A `Sort.computeSelfCost()`` calls `makeCost()`` with arguments.\n\n"
                                         "and ``a ``` b`` c and `x` y ``z`` and `` ` `` and ``` `` ``` ok `unclosed\n"),
    # apache/calcite's spatial page: `|: ------` is a separator line, its column without alignment.
    "table-separator-cells-as-kramdown-reads-them": ("| Description | Expression\n|:----------- |: ------\n| a | b\n\n"
                                                     "| x | y | z |\n|:-:|--:|---|\n| 1 | 2 | 3 |\n\n"
                                                     "| h |\n|-+-|\n| c | d |\n"),
    # swift-org-website's install pages: an attribute written twice in a tag, kramdown keeps the last value.
    "attribute-written-twice": ('<div class="w" markdown="1">\n'
                                '<a class="body-copy" href="/x" class="cta">Down</a>\n'
                                '</div>\n'
                                '\n'
                                'Text <a class="a" href="/y" class="b" id="q">y</a> and <span title="1" title="2">s</span>.\n'
                                '\n'
                                '<div class="one" class="two">raw</div>\n'
                                '\n'
                                '`<a class="c" class="d">`\n'),
    # kramdown's nomarkdown extension, as swift-org-website's API guidelines put a checkbox in an item:
    # a block where a block starts (after a heading too), a span in a paragraph, left out for another type.
    "nomarkdown": ('Para line\n'
                   '{::nomarkdown}\n'
                   '<em>z</em> *q*\n'
                   '{:/nomarkdown}\n'
                   '\n'
                   'Text with {::nomarkdown}<b>*raw*</b>{:/} inline and {::nomarkdown type="latex"}y{:/} gone {::nomarkdown /} too.\n'
                   '\n'
                   '{::nomarkdown}<b>*raw*</b>{:/}\n'
                   '\n'
                   '* item\n'
                   '\n'
                   '  {::nomarkdown}\n'
                   '<input type="checkbox" class="detail">\n'
                   '{:/nomarkdown}\n'
                   '  more *text*\n'
                   '\n'
                   '* two\n'
                   '\n'
                   '{::nomarkdown type="latex"}\n'
                   '\\LaTeX\n'
                   '{:/nomarkdown}\n'
                   '\n'
                   '## Head\n'
                   '{::nomarkdown}\n'
                   '<input>\n'
                   '{:/}\n'
                   '```\n'
                   '{::nomarkdown}\n'
                   '<b>code</b>\n'
                   '{:/}\n'
                   '```\n'
                   '\n'
                   '`{::nomarkdown}<i>x</i>{:/}` in code.\n'),
    # An extension tag left unclosed is text, never a paragraph's, item's or heading's attribute list
    # (sitegen gave <p :nomarkdown> and <p _>): kramdown's IAL is "{:" with no ":" or "/" after it.
    # Nor is an unclosed comment one to the end (sitegen left out all that followed it).
    "unknown-extension-tags": "Text.\n\n{::unknown}\n<b>x</b>\n{:/unknown}\n\n{::__\n\nAnd {::span} here.\n",
    "unclosed-extension-tags": ('Para one\n{:/nomarkdown}\n\nPara two\n{:/}\n\n* item\n{::nomarkdown}\n\n'
                                '# Head {::nomarkdown}\n\nPara three\n{::nomarkdown}\n\n{::nomarkdown}\nPara four\n\n'
                                'Para five\n{::comment}\n\nkept\n'),
    # {::options ...} without '/}' sets options only up to an end tag alone on a line, the lines
    # between dropped; with none it is text (sitegen stopped the build: "not supported").
    "unclosed-options": ('Para one\n\n{::options parse_block_html="true"}\n\n<div>\n*raw*\n</div>\n\n'
                         'Para two {::options parse_block_html="true"} inline.\n'),
    "options-with-end-tag": ('Para one\n\n{::options parse_block_html="true"}\ndropped\n{:/}\n\n'
                             '<div>\n*read*\n</div>\n\n{::options parse_block_html="false"}\nalso dropped\n'
                             '{:/options}\n\n<div>\n*raw*\n</div>\n'),
    # kramdown writes no id of white space (a template's id="{{ x.id }}" with no x.id), but a
    # script's text and a comment keep what they hold.
    "blank-ids-left-out": ('Text <a href="x" id="">a</a>, <span id=" ">s</span>, <b id="k">k</b>.\n\n'
                           '<div class="c" id="">\n  <a href="y" id=\'\' class="btn">Join</a>\n'
                           '  <pre id=""><code>x <i id="">y</i></code></pre>\n</div>\n\n'
                           '<script id="">var s = \'<a id="">\';</script>\n\n<!-- <a id=""> -->\n\n'
                           '`<a id="">` in code\n'),
    # A paragraph whose every line holds a '|' (not escaped, not in code) is a table in kramdown, led
    # by a '|' or not (apache/accumulo-website's examples: "e.g. (vis from ref1)|(vis from ref2).").
    "tables-without-leading-pipe": ('Text.\n\nA copy, e.g. (ref1)|(ref2).\n\na | b\nc | d |\n\nh | i\n--- | :-:\n1 | 2\n\n'
                                    'x | y\nplain\n\nUse `a|b` and a \\| c.\n\n[l|m](/n) o\n\n* item | one\n* two\n\n'
                                    'Para line\np | q\n\n| lead | pipe\nr | s\n\n'
                                    # its attribute list on the line above (accumulo-website's {: #instance_types .table })
                                    '{: #t .table }\n|a|b|\n|:--|:--|\n|1|2|\n\n{: .x}\ne | f\ng | h\n\n'
                                    # but one below a block's (kramdown's :eob of an IAL) starts no table
                                    'Text\n{: .y}\n|i|j|\n\n## H\n{: .z}\n|k|l|\n\nMore\n{: .v}\no | p\n\n'
                                    '* item\n{: .w}\n|m|n|\n'),
}


@pytest.fixture(scope="module")
def jekyll_readings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return jekyll_posts(tmp_path_factory, KRAMDOWN_READINGS)


@pytest.mark.parametrize("name", KRAMDOWN_READINGS)
def test_reading_has_jekylls_element_tree(name: str, jekyll_readings: Path) -> None:
    assert parity.dom(render_markdown(KRAMDOWN_READINGS[name]).html) == jekylls_tree(jekyll_readings, name)


@pytest.mark.parametrize("name, expected", [
    ("attribute-list-over-code", [({"css"}, None), ({"no-highlight"}, "n"), ({"y"}, None)]),
    ("attribute-list-below-code", [({"nolineno"}, None), ({"x"}, None), ({"y"}, None), ({"z"}, None), (set(), None)]),
])
def test_an_attribute_list_of_a_code_block_is_on_its_outer_div_as_in_jekyll(name: str, expected: list,
                                                                              jekyll_readings: Path) -> None:
    """Its classes and id are on the block's outermost element, where a theme's CSS finds them."""
    classes = {"css", "no-highlight", "y", "nolineno", "x", "z", "w"}

    def outer(html: str) -> list[tuple[set[str], str | None]]:
        found = []
        for block in lxml.html.fromstring(f"<section>{html}</section>").iter("pre"):
            while block.getparent().tag == "div":
                block = block.getparent()
            found.append((set(block.get("class", "").split()) & classes, block.get("id")))
        return found
    url = parity.post_urls(jekyll_readings)[name]
    theirs = (jekyll_readings / url[1:]).read_text(encoding="utf-8")
    theirs = theirs[theirs.index("<p>Text.</p>"):theirs.rindex("</pre>")]
    mine = render_markdown(KRAMDOWN_READINGS[name]).html
    assert outer(mine) == outer(theirs) == expected


def test_jupyters_markdown_reads_markdown_in_any_tag() -> None:
    """kramdown's raw spans (``raw-span-html`` above) are a post's; a notebook's Markdown cell
    (dollar math on) reads ``<u>**x**</u>`` as Jupyter does."""
    assert "<u><strong>x</strong></u>" in render_markdown("<u>**x**</u>", dollar_math=True).html
    assert "<u>**x**</u>" in render_markdown("<u>**x**</u>").html


def test_jupyters_markdown_reads_pipes_and_indented_code_as_nbconvert_does() -> None:
    """A post's paragraph of ``|`` lines is a table and its indented code takes the lines after it
    (kramdown, above); a notebook's Markdown cell reads them as Jupyter's nbconvert (mistune) does."""
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    text = "Text.\n\nx | y\n\n    code\nlazy\n\na | b\n--- | ---\n1 | 2\n"

    def shape(html: str) -> list:
        return [(tag, " ".join(text.split())) for tag, text in re.findall(r"<(p|table|pre|td|th)\b[^>]*>(.*?)</\1>",
                                                                        re.sub(r"<(?!/?(?:p|table|pre|td|th)\b)[^>]*>", "", html), re.S)]
    assert shape(render_markdown(text, dollar_math=True).html) == shape(markdown2html_mistune(text))
    assert "<table>" in render_markdown("x | y\n").html


@pytest.mark.parametrize("text", [
    "See https://jupyter.org/try, or http://a.org/x_y_z. And (https://b.org/p).",
    "A [link https://x.org](https://y.org), <https://z.org> and `https://c.org`; [see https://a.org/b]",
    "x https://a.org/?a=1&b=2's end *https://a.org/b* https://a.org/\u00e9[1] https://a.org/&amp;x",
])
def test_jupyters_markdown_links_bare_urls_as_nbconvert_does(text: str) -> None:
    """A notebook's Markdown cell links a bare http(s) URL to itself, as Jupyter's nbconvert
    (mistune's url plugin) does: where it ends, what it leaves inside links and code, its href
    quoted alike. A post's stays text, as kramdown keeps it."""
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    assert render_markdown(text, dollar_math=True).html == markdown2html_mistune(text).strip()
    assert "<a href=\"https://a.org" not in render_markdown(text).html


def test_toc_levels_match_jekylls_kramdown_option(tmp_path: Path) -> None:
    """kramdown's ``toc_levels: 2..3``: the ``{:toc}`` outline lists h2 and h3 alone."""
    if not parity.jekyll_available():
        pytest.skip("Jekyll is not installed (scripts/setup-test-tools installs it)")
    text = "* TOC\n{:toc}\n\n# One\n\n## Two\n\n### Three\n\n#### Four\n\n## Five\n"
    site = tmp_path / "site"
    (site / "_posts").mkdir(parents=True)
    (site / "_posts" / "2020-01-01-toc.md").write_text(f"---\ntitle: t\n---\n{text}")
    out = parity.jekyll_build(site, tmp_path, "kramdown:\n  toc_levels: 2..3\n")
    theirs = parity.dom((out / "2020/01/01/toc.html").read_text())
    assert parity.dom(render_markdown(text, toc_levels=(2, 3)).html) == theirs
