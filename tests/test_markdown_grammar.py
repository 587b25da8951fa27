"""Markdown documents written by a grammar (tests/markdown_grammar.py), each rendered by
sitegen and by Jekyll's own converter, and compared element by element (parity.dom).

The sample is fixed (derandomized), so CI sees the same documents on every run. The
constructs where sitegen and Jekyll differ today are listed in KNOWN: the documents of
the main test leave them out, and each has a test of its own that is expected to fail;
when a fix makes one pass, strict xfail fails it, and the construct leaves the list.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, HealthCheck, Phase, given, settings

from generator.markdown import render_markdown
from tests import parity
from tests.markdown_grammar import CONSTRUCTS, Document, documents

# Construct -> how sitegen differs from Jekyll, with the smallest document that shows it.
KNOWN = {
    "list-quote": "a quote a blank line after an item's text is read as the item's text ('- a\\n\\n  > b'), "
                  "kramdown keeps the quote (since the merge of the block-quote rules)",
    "footnote": "a footnote reference in a heading leaves no dash in its GFM id; kramdown keeps its "
                "space as one ('# a [^n]': a, not a-)",
    "item-dashes": "an item whose text is '--' ends the list ('- a\\n- --')",
    "footnote-unreferenced": "a footnote nothing refers to is listed; kramdown drops it ('[^n]: x')",
    "definition-after-list": "an indented block after a list and a link definition joins the item "
                             "('- a\\n\\n[r]: /u\\n\\n    code')",
    "table-broken-row": "a header row broken by a hard line break loses <thead> ('| a | b  \\nc |\\n|---|---|')",
    "table-dash-cell": "a body row whose one cell is '--' keeps the table; kramdown reads the whole table as "
                       "a paragraph ('| g |\\n|---|\\n| -- |')",
    "math-paragraph": "a paragraph that starts and ends with inline math becomes one math block from the first "
                      "$$ to the last; kramdown keeps two formulas in a paragraph ('$$a$$ and $$b$$')",
    "dash-rule": "a '- - -' rule is read as a list's marker: a blank line after a list it is an empty item "
                 "('- a\\n\\n- - -'); indented code after it keeps its indent ('- - -\\n\\n    code'); "
                 "a loose list after it loses its <p> ('- - -\\n\\n- a\\n\\n- b')",
    "code-after-definition-list": "indented code after a definition empties the definition ('a\\n: b\\n\\n    code')",
}

SAMPLE = settings(max_examples=400, derandomize=True, database=None, deadline=None,
                  suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def jekyll(tmp_path_factory: pytest.TempPathFactory):
    if not parity.jekyll_available():
        pytest.skip("Jekyll is not installed (scripts/setup-test-tools installs it)")
    with parity.JekyllMarkdown(tmp_path_factory.mktemp("jekyll-markdown")) as converter:
        yield converter


def assert_same_as_jekyll(document: Document, jekyll: parity.JekyllMarkdown) -> None:
    mine, theirs = parity.dom(render_markdown(document.text).html), parity.dom(jekyll.convert(document.text))
    difference = parity.first_difference(mine, theirs)
    assert difference is None, f"{document!r}\n{difference}"


def test_documents_render_as_jekyll_renders_them(jekyll: parity.JekyllMarkdown) -> None:
    seen: set[str] = set()

    @SAMPLE
    @given(documents(allowed=CONSTRUCTS - set(KNOWN)))
    @example(Document(text="alpha  \nbreak\n", constructs=frozenset({"hard-break"})))   # rare in this sample
    @example(Document(text="alpha\n- beta\n", constructs=frozenset({"right-after-paragraph"})))    # and this
    def check(document: Document) -> None:
        seen.update(document.constructs)
        assert_same_as_jekyll(document, jekyll)

    check()
    assert seen == CONSTRUCTS - set(KNOWN), "the sample leaves out some constructs it claims to check"


@pytest.mark.parametrize("construct", [
    pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=reason)) for name, reason in KNOWN.items()])
def test_known_divergence(construct: str, jekyll: parity.JekyllMarkdown) -> None:
    """Documents that hold ``construct``: the first one that differs fails the test, unshrunk."""
    @settings(SAMPLE, max_examples=40, phases=[Phase.generate])
    @given(documents(allowed=CONSTRUCTS - set(KNOWN), required=construct))
    def check(document: Document) -> None:
        assert_same_as_jekyll(document, jekyll)

    check()


def test_the_converter_answers_what_jekyll_build_makes_of_a_post(jekyll: parity.JekyllMarkdown,
                                                                  tmp_path: Path) -> None:
    """The oracle above is Jekyll's converter run alone: a sample's documents, built as the
    posts of one site by ``jekyll build``, come out as the converter gave them."""
    sample: list[Document] = []

    @settings(SAMPLE, max_examples=60, phases=[Phase.generate])
    @given(documents())
    def collect(document: Document) -> None:
        sample.append(document)

    collect()
    site = tmp_path / "site"
    (site / "_posts").mkdir(parents=True)
    for number, document in enumerate(sample):
        (site / "_posts" / f"2020-01-01-doc{number}.md").write_text(f"---\ntitle: d\n---\n{document.text}")
    built = parity.jekyll_build(site, tmp_path)
    for number, document in enumerate(sample):
        page = (built / f"2020/01/01/doc{number}.html").read_text(encoding="utf-8")
        assert parity.dom(page) == parity.dom(jekyll.convert(document.text)), document
