"""MyST (Jupyter Book's Markdown) in pages and notebooks: directives, roles, targets.

The rendered HTML is read as a DOM (lxml), on Markdown rendered by the real
pipeline and on pages of real builds.
"""

from __future__ import annotations

import re
from pathlib import Path

import markdown
import pytest
from hypothesis import given, settings, strategies as st
from lxml import html as lxml_html
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_output

from conftest import copy_site
from site_checks import assert_html5_parses
from generator import myst
from generator.build import build
from generator.markdown import render_markdown
from test_notebooks import NOW, PNG, make_site, notebook, page


def dom(markdown: str):
    return lxml_html.fragment_fromstring(render_markdown(markdown).html, create_parent="div")


def text(element) -> str:
    return " ".join(element.text_content().split())


@pytest.mark.parametrize("name, title", [
    ("note", "Note"), ("warning", "Warning"), ("tip", "Tip"), ("important", "Important"),
    ("caution", "Caution"), ("danger", "Danger"), ("seealso", "See also"), ("hint", "Hint"),
    ("attention", "Attention"), ("error", "Error"),
])
def test_admonition_directives(name, title):
    root = dom(f"Before.\n\n```{{{name}}}\nA **bold** body.\n```\n\nAfter.\n")
    [box] = root.xpath(f"//div[contains(@class, 'admonition') and contains(@class, '{name}')]")
    assert text(box.xpath("p[@class='admonition-title']")[0]) == title
    assert box.xpath(".//strong")[0].text == "bold"
    assert [text(p) for p in root.xpath("p")] == ["Before.", "After."]


def test_admonition_with_title_and_class():
    root = dom("```{admonition} Read *this*\n:class: tip\n\nThe body.\n```\n")
    [box] = root.xpath("//div[contains(@class, 'admonition')]")
    assert box.get("class").split() == ["admonition", "tip"]
    assert box.xpath("p[@class='admonition-title']/em")[0].text == "this"
    assert text(box.xpath("p")[1]) == "The body."


def test_directives_nest_in_longer_fences_and_colon_fences():
    root = dom("````{note}\nOuter.\n\n```{warning}\nInner.\n```\n````\n\n"
               "::::{tip}\nColon.\n\n:::{hint}\nDeep.\n:::\n::::\n\n"
               "```markdown\n```{note}\nshown as code\n```\n")
    [inner] = root.xpath("//div[contains(@class, 'note')]/div[contains(@class, 'warning')]")
    assert text(inner.xpath("p")[1]) == "Inner."
    [deep] = root.xpath("//div[contains(@class, 'tip')]/div[contains(@class, 'hint')]")
    assert text(deep.xpath("p")[1]) == "Deep."
    assert len(root.xpath("//div[contains(@class, 'admonition')]")) == 4    # not the one in fenced code
    assert "{note}" in text(root.xpath("//pre")[0])


def test_margin_is_an_aside():
    root = dom("```{margin}\nA *side* remark.\n```\n")
    [aside] = root.xpath("//aside[@class='margin']")
    assert aside.xpath(".//em")[0].text == "side"


def test_labelled_math_is_numbered_and_eq_refers_to_it():
    root = dom("See {eq}`second` and {eq}`first`.\n\n"
               "```{math}\n:label: first\na^2 + b^2 = c^2\n```\n\n"
               "```{math}\nx\n```\n\n"
               "```{math}\n:label: second\ne^{i\\pi} = -1\n```\n")
    numbers = {box.get("id"): text(box.xpath("span[@class='eqno']")[0])
               for box in root.xpath("//div[@class='math-equation']")}
    assert numbers == {"equation-first": "(1)", "equation-second": "(2)"}
    assert root.xpath("//div[@id='equation-second']/div[@class='arithmatex']")[0].text == "\\[e^{i\\pi} = -1\\]"
    refs = [(a.get("href"), a.text) for a in root.xpath("//a[contains(@class, 'eq')]")]
    assert refs == [("#equation-second", "(2)"), ("#equation-first", "(1)")]
    assert len(root.xpath("//div[@class='arithmatex']")) == 3     # the unlabelled one too, unnumbered


def test_dollar_math_with_a_label_is_numbered_with_the_math_directives():
    """MyST's dollarmath: ``$$`` ... ``$$ (label)``, on lines of its own or on one line."""
    root = dom("See {eq}`energy`, {eq}`sum` and {numref}`other`.\n\n$$\nE = mc^2\n$$ (energy)\n\n"
               "```{math}\n:label: other\nx\n```\n\n$$ a + b $$ (sum)\n\n$$\nunlabelled\n$$\n")
    numbers = {box.get("id"): (box.xpath("div[@class='arithmatex']")[0].text.strip(),
                               text(box.xpath("span[@class='eqno']")[0]))
               for box in root.xpath("//div[@class='math-equation']")}
    assert numbers == {"equation-energy": ("\\[E = mc^2\\]", "(1)"), "equation-other": ("\\[x\\]", "(2)"),
                       "equation-sum": ("\\[ a + b \\]", "(3)")}
    refs = [(a.get("href"), a.text) for a in root.xpath("//a[contains(@class, 'reference')]")]
    assert refs == [("#equation-energy", "(1)"), ("#equation-sum", "(3)"), ("#equation-other", "Equation 2")]
    assert "unlabelled" in root.xpath("//div[@class='arithmatex']")[-1].text


def test_figure_with_name_width_and_caption():
    root = dom("```{figure} images/plot.png\n:name: fig-plot\n:width: 300px\n:alt: A plot\n\nThe *plot* of it.\n```\n\n"
               "As {ref}`fig-plot` shows.\n")
    [figure] = root.xpath("//figure[@id='fig-plot']")
    image = figure.xpath("img")[0]
    assert (image.get("src"), image.get("width"), image.get("alt")) == ("images/plot.png", "300", "A plot")
    assert figure.xpath("figcaption//em")[0].text == "plot"
    link = root.xpath("//a[@href='#fig-plot']")[0]
    assert text(link) == "The plot of it."


def test_labelled_figures_are_numbered_and_numref_shows_the_number():
    root = dom("See {numref}`fig-b`, {numref}`Fig. {number} <fig-a>`, {numref}`Plot %s: {name} <fig-a>` "
               "and {numref}`energy`.\n\n"
               "```{figure} a.png\n:name: fig-a\n\nThe *first*.\n```\n\n"
               "```{figure} x.png\n\nNo name, no number.\n```\n\n"
               "```{figure} b.png\n:name: fig-b\n\nThe second.\n```\n\n"
               "```{math}\n:label: energy\nE = mc^2\n```\n")
    captions = [text(c) for c in root.xpath("//figcaption")]
    assert captions == ["Figure 1 The first.", "No name, no number.", "Figure 2 The second."]
    assert root.xpath("//figure[@id='fig-a']//span[@class='caption-number']")[0].text == "Figure 1 "
    refs = [(a.get("href"), a.text) for a in root.xpath("//a[contains(@class, 'numref')]")]
    assert refs == [("#fig-b", "Figure 2"), ("#fig-a", "Fig. 1"), ("#fig-a", "Plot 1: The first."),
                    ("#equation-energy", "Equation 1")]


def test_numref_to_an_unnumbered_target_shows_its_title_and_warns():
    rendered = render_markdown("(intro)=\n## Introduction\n\nSee {numref}`intro`.\n")
    root = lxml_html.fragment_fromstring(rendered.html, create_parent="div")
    assert root.xpath("//a[contains(@class, 'numref')]")[0].text == "Introduction"
    assert rendered.warnings == ((4, "{numref}`intro`: 'intro' has no number (only labelled figures and "
                                     "equations are numbered): its title is shown"),)


def test_list_table_with_header_rows_widths_and_markdown_cells():
    root = dom("```{list-table} Options\n:header-rows: 1\n:widths: 25 75\n\n* - Name\n  - Meaning\n"
               "* - `max_trials`\n  - The *whole* budget, over\n    several lines.\n* - `op_names`\n  - Filters.\n```\n")
    [table] = root.xpath("//table[@class='list-table']")
    assert table.xpath("caption")[0].text == "Options"
    assert [c.get("style") for c in table.xpath("colgroup/col")] == ["width: 25%", "width: 75%"]
    assert [text(th) for th in table.xpath("thead/tr/th")] == ["Name", "Meaning"]
    assert [[text(td) for td in tr.xpath("td")] for tr in table.xpath("tbody/tr")] == [
        ["max_trials", "The whole budget, over several lines."], ["op_names", "Filters."]]
    assert table.xpath("tbody/tr[1]/td[1]/code") and table.xpath("tbody/tr[1]/td[2]/em")


def test_a_directive_converts_only_its_body(monkeypatch):
    """A note's title ("Note") is text as it is: the cell and the note's body are converted once each."""
    converted = []
    convert = markdown.Markdown.convert
    monkeypatch.setattr(markdown.Markdown, "convert", lambda md, text: converted.append(text) or convert(md, text))
    render_markdown("Intro.\n\n```{note}\nThe body.\n```\n\n```{admonition} Read this\nMore.\n```\n")
    assert converted == ["Intro.\n\n```{note}\nThe body.\n```\n\n```{admonition} Read this\nMore.\n```\n",
                         "The body.", "More."]


WORD = st.text(st.characters(categories=("L", "N")), min_size=1, max_size=8)


@settings(max_examples=150, deadline=None)
@given(st.lists(WORD, min_size=1, max_size=4).map(" ".join), st.lists(WORD, min_size=1, max_size=3).map(" ".join))
def test_titles_and_cells_of_words_render_as_a_conversion_would(title, cell):
    """Differential: the words a title or a table cell holds alone are taken as they are, and the
    page is byte for byte what converting them gave."""
    page = (f"```{{admonition}} {title}\nBody.\n```\n\n```{{list-table}} {title}\n* - {cell}\n  - *{cell}*\n```\n"
            f"\n```{{dropdown}} {title}\nHidden.\n```\n")
    fast = render_markdown(page).html
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(myst, "WORDS", re.compile(r"(?!)"))       # never words alone: every title converted
        assert render_markdown(page).html == fast


def test_code_cell_is_highlighted_code():
    root = dom("```{code-cell} ipython3\n:tags: [hide-input]\nprint('hi')\n```\n")
    [block] = root.xpath("//div[contains(@class, 'highlight')]")
    assert block.xpath(".//span[@class='nb']")[0].text == "print"
    assert ":tags:" not in text(block)


def test_ref_to_a_target_shows_the_heading_title():
    root = dom("(setup)=\n## Setting *up* tir_creation\n\nText.\n\nBack to {ref}`setup`, or {ref}`here <setup>`.\n")
    assert root.xpath("//div[@id='setup']/following-sibling::*[1]")[0].tag == "h2"
    links = [(a.get("href"), text(a)) for a in root.xpath("//a[contains(@class, 'reference')]")]
    assert links == [("#setup", "Setting up tir_creation"), ("#setup", "here")]


def test_sub_sup_and_kbd_roles_but_not_in_code_spans():
    rendered = render_markdown("H{sub}`2`O, E = mc{sup}`2`, press {kbd}`Ctrl`; write `` {sub}`x` `` or `{ref}`.\n")
    root = lxml_html.fragment_fromstring(rendered.html, create_parent="div")
    assert [(e.tag, e.text) for e in root.xpath("//sub|//sup|//kbd")] == [("sub", "2"), ("sup", "2"), ("kbd", "Ctrl")]
    assert [c.text for c in root.xpath("//code")] == ["{sub}`x`", "{ref}"]
    assert rendered.warnings == ()


def test_unknown_directive_and_role_are_warned_of_at_their_line_and_shown():
    rendered = render_markdown("# Title\n\n```{tabbed} One\nTab *content*.\n```\n\nA {term}`glossary` word "
                               "and {ref}`nowhere`.\n")
    root = lxml_html.fragment_fromstring(rendered.html, create_parent="div")
    [block] = root.xpath("//div[contains(@class, 'myst-tabbed')]")
    assert block.xpath(".//em")[0].text == "content"
    assert root.xpath("//code[contains(@class, 'myst-term')]")[0].text == "glossary"
    assert root.xpath("//span[@class='myst-unresolved']")[0].text == "nowhere"
    assert rendered.warnings == (
        (3, "MyST directive '{tabbed}' is not supported: its content is shown as a block"),
        (7, "MyST role '{term}' is not supported: its text is shown as code"),
        (7, "{ref}`nowhere`: no target labelled 'nowhere' on this page or in the docs"),
    )


def test_a_warning_inside_a_directive_names_its_line_in_the_page():
    rendered = render_markdown("Intro.\n\n````{note}\nFirst.\n\n```{unknown}\nx\n```\n````\n")
    assert rendered.warnings == ((6, "MyST directive '{unknown}' is not supported: its content is shown as a block"),)


def test_a_page_warns_of_unknown_myst_at_its_file_and_line(tmp_path: Path):
    site = copy_site(tmp_path / "site", "basic")
    (site / "content/pages/myst.md").write_text("---\ntitle: MyST\n---\n\nText.\n\n```{tabbed} One\nx\n```\n\n"
                                                 "```{note}\nA note.\n```\n")
    result = build(site, NOW)
    assert "content/pages/myst.md:7: warning: MyST directive '{tabbed}' is not supported: its content is " \
           "shown as a block" in result.warnings
    shown = lxml_html.parse(str(site / "_site/myst.html"))
    assert shown.xpath("//div[contains(@class, 'admonition') and contains(@class, 'note')]")


# -- notebooks -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def myst_gallery(tmp_path_factory):
    first = notebook(
        new_markdown_cell("# First steps\n\nAs {eq}`energy` says, read {ref}`later` and {doc}`second`.\n"),
        new_markdown_cell("```{math}\n:label: energy\nE = mc^2\n```\n\n(later)=\n## Later on\n\n"
                          "```{margin}\nIn the margin.\n```\n\n```{dropdown} More\nHidden *text*.\n```"),
        new_code_cell("print('folded')", outputs=[new_output("stream", name="stdout", text="folded\n")],
                      metadata={"tags": ["hide-cell"]}),
        new_markdown_cell("Go to {ref}`other-part`.\n\n```{unknown}\nbody\n```"),
        execute="never")
    second = notebook(new_markdown_cell("# Second one\n\n(other-part)=\n## The other part\n\nText."),
                      execute="never")
    site = make_site(tmp_path_factory.mktemp("myst") / "site", **{"first.ipynb": first, "second.ipynb": second})
    result = build(site, NOW)
    return site, result


def test_notebook_roles_resolve_within_the_notebook_and_across_the_gallery(myst_gallery):
    site, _ = myst_gallery
    root = lxml_html.fromstring(page(site, "first"))
    links = {text(a): a.get("href") for a in root.xpath("//a[contains(@class, 'reference')]")}
    assert links == {"(1)": "#equation-energy", "Later on": "#later", "Second one": "/docs/tutorials/second.html",
                     "The other part": "/docs/tutorials/second.html#other-part"}
    assert root.xpath("//div[@id='equation-energy']/span[@class='eqno']")[0].text == "(1)"
    assert root.xpath("//aside[@class='margin']")
    [dropdown] = root.xpath("//details[contains(@class, 'dropdown')]")
    assert text(dropdown.xpath("summary")[0]) == "More"
    second = lxml_html.fromstring(page(site, "second"))
    assert second.xpath("//*[@id='other-part']")


def test_notebook_myst_warnings_name_the_cell_and_line(myst_gallery):
    _, result = myst_gallery
    assert ("notebooks/first.ipynb: warning: cell 4: line 3: MyST directive '{unknown}' is not supported: "
            "its content is shown as a block") in result.warnings


def test_hide_cell_folds_input_and_output(myst_gallery):
    site, _ = myst_gallery
    root = lxml_html.fromstring(page(site, "first"))
    [cell] = root.xpath("//div[@id='nb-cell-3']")
    assert [text(s) for s in cell.xpath("details/summary")] == ["Show code", "Show output"]
    assert "folded" in text(cell.xpath("details")[1])


def test_a_warning_in_an_unknown_directive_counts_lines_past_its_options():
    rendered = render_markdown("```{tabbed} One\n:sync: a\n\nText {term}`x`.\n```\n")
    assert [line for line, _ in rendered.warnings] == [1, 4]


# -- across a docs section: its pages and tutorials -------------------------------------


def docs_with_references(root: Path) -> Path:
    """Two docs pages and two tutorials referring to each other's labels and pages."""
    first = notebook(
        new_markdown_cell("# First steps\n\n(nb-part)=\n## The notebook's part\n\n"
                          "```{figure} plot.png\n:name: fig-loss\n\nThe loss.\n```\n\n"
                          "As {ref}`guide-setup` says; see {doc}`/content/docs/guide` and {numref}`fig-loss`."),
        execute="never")
    second = notebook(new_markdown_cell("# Second\n\nBack to {ref}`nb-part`, {numref}`Fig. {number} <fig-loss>`."),
                      execute="never")
    site = make_site(root, **{"first.ipynb": first, "second.ipynb": second})
    (site / "notebooks/plot.png").write_bytes(PNG)
    (site / "content/docs").mkdir(parents=True)
    (site / "content/docs/guide.md").write_text(
        "---\ntitle: Guide\n---\n\n(guide-setup)=\n## Setting up\n\nText.\n")
    (site / "content/docs/more.md").write_text(
        "---\ntitle: More\n---\n\nRead {ref}`guide-setup`, {ref}`nb-part`, {numref}`fig-loss`,\n"
        "{doc}`guide`, {doc}`/notebooks/second` and {ref}`nowhere`.\n")
    return site


def references(html: str) -> list[tuple[str, str]]:
    root = lxml_html.fromstring(html)
    return [(text(a), a.get("href")) for a in root.xpath("//main//a[contains(@class, 'reference')]")]


def test_references_resolve_across_docs_pages_and_tutorials(tmp_path: Path):
    site = docs_with_references(tmp_path / "site")
    result = build(site, NOW)
    assert references((site / "_site/docs/more.html").read_text()) == [
        ("Setting up", "/docs/guide.html#guide-setup"),
        ("The notebook's part", "/docs/tutorials/first.html#nb-part"),
        ("Figure 1", "/docs/tutorials/first.html#fig-loss"),
        ("Guide", "/docs/guide.html"), ("Second", "/docs/tutorials/second.html")]
    assert references(page(site, "first")) == [("Setting up", "/docs/guide.html#guide-setup"),
                                                ("Guide", "/docs/guide.html"), ("Figure 1", "#fig-loss")]
    assert references(page(site, "second")) == [("The notebook's part", "/docs/tutorials/first.html#nb-part"),
                                                 ("Fig. 1", "/docs/tutorials/first.html#fig-loss")]
    assert [w for w in result.warnings if "{" in w] == [
        "content/docs/more.md:6: warning: {ref}`nowhere`: no target labelled 'nowhere' on this page or in the docs"]


def test_a_docs_pages_description_reads_its_references_as_the_page_shows_them(tmp_path: Path):
    site = docs_with_references(tmp_path / "site")
    build(site, NOW)
    [described] = lxml_html.parse(str(site / "_site/docs/more.html")).xpath("//meta[@name='description']/@content")
    assert described == "Read Setting up, The notebook's part, Figure 1, Guide, Second and nowhere."


def test_an_edited_title_reaches_the_pages_referring_to_it(tmp_path: Path):
    site = docs_with_references(tmp_path / "site")
    build(site, NOW)
    guide = site / "content/docs/guide.md"
    guide.write_text(guide.read_text().replace("## Setting up", "## Getting *set* up"))
    build(site, NOW)
    clean = docs_with_references(tmp_path / "clean")
    (clean / "content/docs/guide.md").write_text(guide.read_text())
    build(clean, NOW)
    for path in ("docs/more.html", "docs/tutorials/first.html"):
        edited = (site / "_site" / path).read_text()
        assert ("Getting set up", "/docs/guide.html#guide-setup") in references(edited)
        assert edited == (clean / "_site" / path).read_text()


def test_a_reference_left_for_the_docs_keeps_its_own_text_when_linked():
    rendered = render_markdown("See {ref}`the <b> part <elsewhere>` and {numref}`Plot %s <fig-x>`.\n")
    labels = myst.Labels()
    labels.add(Path("/site/content/docs/other.md"), "/docs/other.html", "Other",
               ["(elsewhere)=\n## Far away\n\n```{figure} x.png\n:name: fig-x\n\nX.\n```\n"])
    html, found = myst.resolve(rendered.html, labels.document(Path("/site/content/docs/page.md")).find)
    root = lxml_html.fragment_fromstring(html, create_parent="div")
    assert [(a.get("href"), a.text) for a in root.xpath("//a")] == [
        ("/docs/other.html#elsewhere", "the <b> part"), ("/docs/other.html#fig-x", "Plot 1")]
    assert found == {"{ref}`the <b> part <elsewhere>`", "{numref}`Plot %s <fig-x>`"}
    assert [myst.settled(message, found) for _, message in rendered.warnings] == [True, True]


# -- one site: its posts, pages and docs pages -----------------------------------------


def ids(html: str) -> list[str]:
    return lxml_html.fromstring(html).xpath("//@id")


def test_a_label_named_as_its_headings_id_is_the_headings_id_alone(tmp_path: Path):
    """``(setting-up)=`` over ``## Setting up``: one element has the id, the heading, and the
    references (on the page, from another page) land on it."""
    site = copy_site(tmp_path / "site", "basic")
    (site / "content/pages/guide.md").write_text(
        "---\ntitle: Guide\n---\n\n(setting-up)=\n## Setting up\n\nAs {ref}`setting-up` says.\n\n"
        "(later)=\n## Later on\n")
    (site / "content/docs").mkdir()
    (site / "content/docs/index.md").write_text(
        "---\ntitle: Docs\n---\n\n(install)=\n## Install\n\nSee {ref}`install` and {ref}`setting-up`.\n")
    assert build(site, NOW).warnings == []
    for path, heading, shown in (("guide.html", "setting-up", "#setting-up"),
                                 ("docs/index.html", "install", "#install")):
        html = (site / "_site" / path).read_text()
        assert sorted(set(ids(html))) == sorted(ids(html)), path
        root = lxml_html.fromstring(html)
        assert root.xpath(f"//*[@id='{heading}']")[0].tag == "h2"
        assert references(html)[0][1] == shown
    assert references((site / "_site/docs/index.html").read_text())[1] == ("Setting up", "/guide.html#setting-up")
    assert lxml_html.fromstring((site / "_site/guide.html").read_text()).xpath("//div[@id='later']")


def test_a_label_over_a_paragraph_is_an_anchor_between_blocks(tmp_path: Path):
    """``(label)=`` right after a paragraph's line and right before another's: the page parses
    as valid HTML5 (no block in a ``<p>``), the anchor stands before the paragraph it labels,
    and ``{ref}`` from the page and from another page leads there."""
    site = copy_site(tmp_path / "site", "basic")
    (site / "content/pages/guide.md").write_text(
        "---\ntitle: Guide\n---\n\nIntro.\n(para)=\nA plain paragraph, see {ref}`para`.\n\n"
        "- An item.\n\n  (in-item)=\n  Its second paragraph.\n")
    (site / "content/pages/other.md").write_text(
        "---\ntitle: Other\n---\n\nRead {ref}`para` and {ref}`in-item`.\n")
    assert build(site, NOW).warnings == []
    assert_html5_parses(site / "_site")
    root = lxml_html.parse(str(site / "_site/guide.html"))
    for label, paragraph in (("para", "A plain paragraph, see para."), ("in-item", "Its second paragraph.")):
        [target] = root.xpath(f"//*[@id='{label}']")
        assert target.getparent().tag != "p"
        assert text(target.xpath("following-sibling::*[1]")[0]) == paragraph
    assert text(root.xpath("//main//p[1]")[0]) == "Intro."
    assert references((site / "_site/guide.html").read_text()) == [("para", "#para")]
    assert references((site / "_site/other.html").read_text()) == [("para", "/guide.html#para"),
                                                                    ("in-item", "/guide.html#in-item")]


def test_a_label_on_two_pages_is_warned_of_at_the_second_definition(tmp_path: Path):
    """As Sphinx warns "duplicate label": a post's or page's, a docs page's and a tutorial's label
    that an earlier page has, at its file and line (a notebook's: cell and line); the
    other pages' references lead to the first, a page's own to its own."""
    site = docs_with_references(tmp_path / "site")
    write = lambda path, text: (site / path).write_text(text)     # noqa: E731
    write("content/pages/team.md", "---\ntitle: Team\n---\n\n(team)=\n## Team\n")
    write("content/pages/zeta.md", "---\ntitle: Zeta\n---\n\nText.\n\n(team)=\n## Another team\n\nSee {ref}`team`.\n")
    write("content/docs/zz.md", "---\ntitle: ZZ\n---\n\n```{math}\n:label: guide-setup\nx\n```\n")
    write("notebooks/third.ipynb", nbformat.writes(notebook(
        new_markdown_cell("# Third"), new_markdown_cell("Text.\n\n(nb-part)=\n## Again"), execute="never")))
    result = build(site, NOW)
    assert [w for w in result.warnings if "duplicate" in w] == [
        "content/pages/zeta.md:7: warning: duplicate label 'team': /team.html#team has it too (the other "
        "pages' references to it lead there)",
        "notebooks/third.ipynb: warning: cell 2: line 3: duplicate label 'nb-part': "
        "/docs/tutorials/first.html#nb-part has it too (the other pages' references to it lead there)",
        "content/docs/zz.md:5: warning: duplicate label 'guide-setup': /docs/guide.html#guide-setup has it too "
        "(the other pages' references to it lead there)"]
    assert references((site / "_site/zeta.html").read_text()) == [("Another team", "#team")]
    assert ("Setting up", "/docs/guide.html#guide-setup") in references((site / "_site/docs/more.html").read_text())


def test_a_label_defined_twice_on_one_page_is_warned_of_at_the_second_naming_the_first(tmp_path: Path):
    """A page's, a docs page's and a notebook's own label defined again (a target, a figure's name,
    an equation's label; in the same cell or a later one): warned of at its file and line (cell
    and line), naming the first, where the references lead."""
    site = make_site(tmp_path / "site", **{"tour.ipynb": notebook(
        new_markdown_cell("# Tour\n\n(start)=\n## Start\n\n(start)=\nAgain."),
        new_markdown_cell("Text.\n\n```{figure} plot.png\n:name: start\n\nA figure.\n```"),
        new_markdown_cell("See {ref}`start`."), execute="never")})
    (site / "notebooks/plot.png").write_bytes(PNG)
    (site / "content/pages/guide.md").write_text(
        "---\ntitle: Guide\n---\n\n(setup)=\n## Setting up\n\nSee {ref}`setup`.\n\n(setup)=\n## Set up again\n")
    (site / "content/docs").mkdir()
    (site / "content/docs/maths.md").write_text(
        "---\ntitle: Maths\n---\n\n```{math}\n:label: euler\ne^{i\\pi} = -1\n```\n\n$$ x = 1 $$ (euler)\n")
    result = build(site, NOW)
    message = "has it too (the references to it lead there)"
    assert [w for w in result.warnings if "duplicate" in w] == [
        f"content/pages/guide.md:10: warning: duplicate label 'setup': line 5 {message}",
        f"notebooks/tour.ipynb: warning: cell 1: line 6: duplicate label 'start': line 3 {message}",
        f"notebooks/tour.ipynb: warning: cell 2: line 3: duplicate label 'start': cell 1, line 3 {message}",
        f"content/docs/maths.md:10: warning: duplicate label 'euler': line 5 {message}"]
    assert references((site / "_site/guide.html").read_text()) == [("Setting up", "#setup")]
    assert references(page(site, "tour")) == [("Start", "#start")]


def test_a_docs_pages_and_a_tutorials_label_a_page_has_too_are_warned_of_at_their_places(tmp_path: Path):
    """A page's label that a docs page and a tutorial have too: the posts' and pages' references
    lead to the page's (the site's table has it first), the docs section's to its own; the docs
    page's and the tutorial's are warned of, at file and line, and cell and line."""
    site = docs_with_references(tmp_path / "site")
    (site / "content/pages/dup.md").write_text(
        "---\ntitle: Dup\n---\n\n(guide-setup)=\n## Here\n\n(nb-part)=\n## There\n\n{ref}`guide-setup`\n")
    result = build(site, NOW)
    message = "has it too (the posts' and pages' references to it lead there)"
    assert [w for w in result.warnings if "duplicate" in w] == [
        f"content/docs/guide.md:5: warning: duplicate label 'guide-setup': /dup.html#guide-setup {message}",
        f"notebooks/first.ipynb: warning: cell 1: line 3: duplicate label 'nb-part': /dup.html#nb-part {message}"]
    assert ("Setting up", "/docs/guide.html#guide-setup") in references((site / "_site/docs/more.html").read_text())
    assert references((site / "_site/dup.html").read_text()) == [("Here", "#guide-setup")]


CONSTRUCT_PIECES = st.sampled_from(["`", "~", ":", "{", "}", ")", "(", "=", "$", "$$", " ", "\t", "\n", "a",
                                    "```{note}", ":::{tip}", "(label)=", "{ref}`x`", "$$ (eq)", "$$\t(", "\\"])


@settings(max_examples=2000, deadline=None)
@given(st.lists(CONSTRUCT_PIECES, max_size=20).map("".join))
def test_a_construct_is_found_where_the_expression_finds_one(text):
    """myst.may_hold_construct (pairs looked for by ``in``) answers as a search of the expression."""
    assert myst.may_hold_construct(text) == (myst.CONSTRUCT.search(text) is not None)
