"""Which form of an output a tutorial page shows, as Jupyter's front ends choose it.

The notebooks here keep their saved outputs (``execute: never``), so the pages
show exactly the outputs written below, through a real build.
"""

from __future__ import annotations

import base64
import json
import re

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_output, new_raw_cell

from generator.build import build
from generator.check import check_site
from generator.configure import load_config
from generator.errors import SiteError
from test_notebooks import NOW, PNG, TUTORIALS, make_site, notebook, page, without_code

SLIDER_STATE = {
    "version_major": 2, "version_minor": 0,
    "state": {
        "layout1": {"model_name": "LayoutModel", "model_module": "@jupyter-widgets/base",
                    "model_module_version": "2.0.0", "state": {}},
        "slider1": {"model_name": "IntSliderModel", "model_module": "@jupyter-widgets/controls",
                    "model_module_version": "2.0.0",
                    "state": {"value": 42, "description": "answer", "layout": "IPY_MODEL_layout1",
                              "style": "IPY_MODEL_style1"}},
        "style1": {"model_name": "SliderStyleModel", "model_module": "@jupyter-widgets/controls",
                   "model_module_version": "2.0.0",
                   "state": {"handle_color": "red", "description_width": "URL( //evil.example/x)"}},
        "html1": {"model_name": "HTMLModel", "model_module": "@jupyter-widgets/controls",
                  "model_module_version": "2.0.0",
                  "state": {"value": "<b>bold</b><img src=x onerror=alert(1)>", "layout": "IPY_MODEL_layout1"}},
        "plot1": {"model_name": "FigureModel", "model_module": "bqplot", "model_module_version": "0.5.0",
                  "state": {"layout": "IPY_MODEL_layout1"}},
        "box1": {"model_name": "VBoxModel", "model_module": "@jupyter-widgets/controls",
                 "model_module_version": "2.0.0", "state": {"children": ["IPY_MODEL_slider1", "IPY_MODEL_plot1"]}},
    },
}


def display(data: dict, **metadata) -> dict:
    return new_output("display_data", data=data, metadata=metadata)


def view(model_id: str, text: str) -> dict:
    return display({"application/vnd.jupyter.widget-view+json":
                    {"version_major": 2, "version_minor": 0, "model_id": model_id}, "text/plain": text})


def code(*outputs, tags=()) -> dict:
    cell = new_code_cell("shown()", outputs=list(outputs))
    if tags:
        cell.metadata["tags"] = list(tags)
    return cell


@pytest.fixture(scope="module")
def outputs_site(tmp_path_factory):
    kinds = notebook(
        new_markdown_cell("# Kinds\n\nUse :func:`numpy.sum`, :class:`~pandas.DataFrame` and :math:`x^2`; "
                          "`` :func:`literal` `` stays.\n\n```\n:func:`in a block`\n```"),
        code(display({"text/latex": "$\\displaystyle \\frac{1}{2}$", "image/png": base64.b64encode(PNG).decode(), "text/plain": "1/2"})),
        code(display({"text/html": "<table class='dataframe'><tr><td>1.5</td></tr></table>",
                      "text/markdown": "**md**", "text/latex": "$x$", "text/plain": "df"})),
        code(display({"application/json": {"b": [1, 2], "a": "x"}, "text/plain": "{'a': 'x'}"})),
        code(display({"text/plain": "\x1b[0;31mred\x1b[0m text"})),
        code(display({"text/latex": "This is a \\LaTeX{} equation: $a^2 + b^2 = c^2$", "text/plain": "L"})),
        code(display({"text/markdown": "A *Markdown* output", "text/plain": "M"})),
        code(display({"text/plain": "removed cell"}), tags=["remove_cell"]),
        code(display({"text/plain": "output kept"}), tags=["remove_input"]),
        code(display({"text/plain": "removed output"}), tags=["remove_output"]),
        execute="never")
    widgets = notebook(new_markdown_cell("# Widgets"), code(view("slider1", "IntSlider(value=42)")),
                       code(view("html1", "HTML(value='<b>bold</b>')")),
                       code(view("box1", "VBox(children=(IntSlider(), Figure()))")),
                       code(view("gone", "IntSlider(value=7)")), execute="never")
    widgets.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": SLIDER_STATE}
    site = make_site(tmp_path_factory.mktemp("outputs") / "site",
                     **{"kinds.ipynb": kinds, "widgets.ipynb": widgets})
    build(site, NOW)
    return site


def outputs(html: str) -> list[str]:
    return re.findall(r'<(?:pre|div) class="nb-output ([^"]+)"', html)


def test_latex_wins_over_png_and_html_over_markdown_and_latex(outputs_site):
    html = without_code(page(outputs_site, "kinds"))
    assert outputs(html)[:2] == ["nb-latex arithmatex", "nb-html"]
    assert "\\[\\displaystyle \\frac{1}{2}\\]" in html
    assert not (outputs_site / TUTORIALS / "kinds").exists()            # the PNG was not written
    assert "<td>1.5</td>" in html and "<strong>md</strong>" not in html


def test_json_ansi_text_mixed_latex_and_markdown_outputs(outputs_site):
    html = without_code(page(outputs_site, "kinds"))
    json_text = re.search(r'<pre class="nb-output nb-json">(.*?)</pre>', html, re.S).group(1)
    assert json.loads(json_text.replace("&#34;", '"').replace("&quot;", '"')) == {"b": [1, 2], "a": "x"}
    assert "\x1b" not in html and re.search(r'<span class="ansi-red-fg">red</span> text', html)
    mixed = re.search(r'<div class="nb-output nb-latex">\s*<p>This is a .*?</div>', html, re.S).group(0)
    assert "\\LaTeX{} equation:" in mixed and '<span class="arithmatex">\\(a^2 + b^2 = c^2\\)</span>' in mixed
    assert '<div class="nb-output nb-html nb-markdown-output"><p>A <em>Markdown</em> output' in html


def test_both_spellings_of_the_removal_tags(outputs_site):
    html = page(outputs_site, "kinds")
    assert "removed cell" not in html and "removed output" not in html
    assert "output kept" in html and html.count('<div class="nb-input">') == 7   # of 9 code cells


def test_rest_roles_in_markdown_cells_become_markdown(outputs_site):
    html = page(outputs_site, "kinds")
    assert "<code>numpy.sum</code>" in html and "<code>DataFrame</code>" in html
    assert '<span class="arithmatex">\\(x^2\\)</span>' in html
    assert "<code>:func:`literal`</code>" in html and ":func:`in a block`" in html
    assert ":func:`numpy" not in html


def test_widgets_with_saved_state_are_views_of_a_sanitized_state(outputs_site):
    html = page(outputs_site, "widgets")
    assert '<script defer src="/assets/vendor/jupyter-widgets/embed.js"></script>' in html
    views = re.findall(r'<script type="application/vnd.jupyter.widget-view\+json">(.*?)</script>', html)
    assert [json.loads(v)["model_id"] for v in views] == ["slider1", "html1"]
    state = json.loads(re.search(r'<script type="application/vnd.jupyter.widget-state\+json">(.*?)</script>',
                                 html).group(1))
    assert set(state["state"]) == {"layout1", "style1", "slider1", "html1"}   # bqplot, the box holding it, out
    assert state["state"]["style1"]["state"] == {"handle_color": "red"}
    assert state["state"]["html1"]["state"]["value"] == '<b>bold</b><img src="x">'
    assert html.count("an interactive widget, not shown") == 2            # the box, and a view with no state
    assert "IntSlider(value=7)" in html
    assert "embed.js" not in page(outputs_site, "kinds")


# Colab saves the models directly under the MIME type, with no "state" level and no version (as in
# the Hugging Face course's notebooks saved by Colab), and of ipywidgets 7 (controls 1.5.0, base 1.2.0).
COLAB_STATE = {
    "0a5c9e0b6f3d4e2c8f1a7b6d5e4c3b2a": {
        "model_module": "@jupyter-widgets/controls", "model_module_version": "1.5.0",
        "model_name": "FloatProgressModel",
        "state": {"_model_module": "@jupyter-widgets/controls", "_model_module_version": "1.5.0",
                  "_model_name": "FloatProgressModel", "bar_style": "success", "description": "Downloading",
                  "layout": "IPY_MODEL_9f8e7d6c5b4a39281706f5e4d3c2b1a0", "max": 570, "min": 0, "value": 570}},
    "9f8e7d6c5b4a39281706f5e4d3c2b1a0": {
        "model_module": "@jupyter-widgets/base", "model_module_version": "1.2.0", "model_name": "LayoutModel",
        "state": {"_model_module": "@jupyter-widgets/base", "_model_module_version": "1.2.0",
                  "_model_name": "LayoutModel", "width": "auto"}},
    "1b2c3d4e5f60718293a4b5c6d7e8f901": {
        "model_module": "bqplot", "model_module_version": "^0.5", "model_name": "FigureModel",
        "state": {"layout": "IPY_MODEL_9f8e7d6c5b4a39281706f5e4d3c2b1a0"}},
}


def test_colab_widget_state_without_its_state_level_is_drawn_and_notes_say_why_not(tmp_path):
    nb = notebook(new_markdown_cell("# Colab"), code(view("0a5c9e0b6f3d4e2c8f1a7b6d5e4c3b2a", "FloatProgress()")),
                  code(view("1b2c3d4e5f60718293a4b5c6d7e8f901", "Figure()")),
                  code(view("ffffffffffffffffffffffffffffffff", "Label()")), execute="never")
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": COLAB_STATE}
    bare = notebook(new_markdown_cell("# Bare"), code(view("0a5c9e0b6f3d4e2c8f1a7b6d5e4c3b2a", "FloatProgress()")),
                    execute="never")
    site = make_site(tmp_path / "site", **{"colab.ipynb": nb, "bare.ipynb": bare})
    warnings = build(site, NOW).warnings
    assert "notebooks/colab.ipynb: warning: cell 3: output 1: an interactive widget, not shown: it needs " \
           "FigureModel of bqplot, which a static page cannot load (only built-in ipywidgets are drawn)" in warnings
    html = page(site, "colab")
    views = re.findall(r'<script type="application/vnd.jupyter.widget-view\+json">(.*?)</script>', html)
    assert [json.loads(v)["model_id"] for v in views] == ["0a5c9e0b6f3d4e2c8f1a7b6d5e4c3b2a"]
    state = json.loads(re.search(r'<script type="application/vnd.jupyter.widget-state\+json">(.*?)</script>',
                                 html).group(1))
    assert set(state["state"]) == {"0a5c9e0b6f3d4e2c8f1a7b6d5e4c3b2a", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"}
    assert ("an interactive widget, not shown: it needs FigureModel of bqplot, which a static page cannot "
            "load (only built-in ipywidgets are drawn)") in html
    assert ("an interactive widget, not shown: the notebook&#39;s saved widget state has no model "
            "ffffffffffffffffffffffffffffffff") in html
    assert "no widget state" not in html
    assert ("an interactive widget, not shown: the notebook holds no widget state (save it with the notebook: "
            "Save Widget State)") in page(site, "bare")


def test_widget_state_cannot_close_its_script_element(tmp_path):
    hostile = {"version_major": 2, "version_minor": 0, "state": {"s": {
        "model_name": "LabelModel", "model_module": "@jupyter-widgets/controls", "model_module_version": "2.0.0",
        "state": {"value": "</script><script>alert(1)</script><!--"}}}}
    nb = notebook(new_markdown_cell("# Hostile"), code(view("s", "Label()")), execute="never")
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": hostile}
    site = make_site(tmp_path / "site", **{"hostile.ipynb": nb})
    build(site, NOW)
    html = page(site, "hostile")
    body = re.sub(r"<!-- /?sitegen:notebook -->", "", html.split("<body")[1])     # the template's own marks
    assert "<script>alert(1)" not in html and "<!--" not in body
    assert "\\u003c/script>\\u003cscript>alert(1)" in html


def test_links_and_images_point_only_at_what_the_site_serves(tmp_path):
    linking = notebook(
        new_markdown_cell("# Links\n\n[the data](data.csv), [a sibling](Other Notebook.ipynb), "
                          "[its neighbour](Next One.ipynb#Part-2), [the web](https://example.org/a b)"),
        code(display({"text/html": '<a href="./mod.py">mod.py</a> <img src="http://example.com/logo.png">'
                                   ' <img src="https://allowed.example/ok.png">', "text/plain": "links"})),
        execute="never")
    neighbour = notebook(new_markdown_cell("# Next\n\n## Part 2"), execute="never")
    site = make_site(tmp_path / "site", **{"links.ipynb": linking, "Next One.ipynb": neighbour})
    with open(site / "site.yaml", "a") as f:
        f.write("check:\n  allow_hosts: [allowed.example]\n")
    warnings = "\n".join(build(site, NOW).warnings)
    html = page(site, "links")
    assert "<a>the data</a>" in html and "<a>a sibling</a>" in html and "<a>mod.py</a>" in html
    assert 'href="/docs/tutorials/next-one.html#Part-2"' in html
    assert 'href="https://example.org/a%20b"' in html
    assert '<a href="http://example.com/logo.png">image: logo.png (example.com)</a>' in html
    assert '<img alt="" src="https://allowed.example/ok.png">' in html
    assert "notebooks/links.ipynb: warning: cell 1: the link 'data.csv' leads to nothing this site publishes" in warnings
    assert "cell 2: the link './mod.py'" in warnings and "'Other%20Notebook.ipynb'" in warnings
    assert "cell 2: the image http://example.com/logo.png is on another host (example.com)" in warnings


def test_what_an_output_widget_captured_is_sanitized_unless_trusted():
    from nbformat import from_dict

    from generator.notebooks.widgets import STATE_MIME, WidgetState

    captured = [{"output_type": "display_data", "metadata": {},
                 "data": {"text/html": "<p onclick='x()'>hi</p><script>alert(1)</script>",
                          "application/javascript": "alert(2)", "text/plain": "hi"}}]
    state = {"version_major": 2, "version_minor": 0, "state": {"out": {
        "model_name": "OutputModel", "model_module": "@jupyter-widgets/output", "model_module_version": "1.0.0",
        "state": {"outputs": captured}}}}
    nb = from_dict({"metadata": {"widgets": {STATE_MIME: state}}})
    cleaned = WidgetState.of(nb, trusted=False).models["out"]["state"]["outputs"][0]["data"]
    assert cleaned == {"text/html": "<p>hi</p>", "text/plain": "hi"}
    kept = WidgetState.of(nb, trusted=True).models["out"]["state"]["outputs"][0]["data"]
    assert kept == captured[0]["data"]


def raw(source: str, **metadata) -> dict:
    return new_raw_cell(source, metadata=metadata)


def test_raw_cells_are_shown_by_their_mime_type_and_the_others_named_in_warnings(tmp_path):
    nb = notebook(
        new_markdown_cell("# Raw"),
        raw("<p class='lead'>Raw <b>HTML</b></p><script>alert(1)</script>", raw_mimetype="text/html"),
        raw("Raw *Markdown* and $x^2$", raw_mimetype="text/markdown"),
        raw("Raw reST\n--------\n\nWith ``code`` and :func:`numpy.sum`.", raw_mimetype="text/restructuredtext"),
        raw("\\section{LaTeX only}", raw_mimetype="text/latex"),
        raw("print('for nbconvert --to python')", format="text/x-python"),
        raw("no type at all"),
        raw("   "),
        raw("<style>p { color: red }</style><p>Styled raw HTML</p>", raw_mimetype="text/html"),
        execute="never")
    site = make_site(tmp_path / "site", **{"raw.ipynb": nb})
    warnings = build(site, NOW).warnings
    html = page(site, "raw")
    assert "Raw <b>HTML</b>" in html and "alert(1)" not in html
    assert "<p>Raw <em>Markdown</em> and <span class=\"arithmatex\">" in html
    assert re.search(r'<h2 id="raw-rest">.*Raw reST</h2>', html) and "<code>code</code>" in html \
        and "<code>numpy.sum</code>" in html
    assert "LaTeX only" not in html and "for nbconvert" not in html and "no type at all" not in html
    assert [w.split(": warning: ", 1)[1] for w in warnings] == [
        "cell 5: a raw cell of text/latex is left out: a page shows raw cells of text/html, text/markdown "
        "and text/restructuredtext only",
        "cell 6: a raw cell of text/x-python is left out: a page shows raw cells of text/html, text/markdown "
        "and text/restructuredtext only",
        "cell 7: a raw cell with no raw_mimetype is left out: a page shows raw cells of text/html, "
        "text/markdown and text/restructuredtext only",
        "cell 9: its <style> is left out: only an output's style sheet is kept (confined to it)"]
    assert "<p>Styled raw HTML</p>" in html and "color: red" not in html
    assert all(w.startswith("notebooks/raw.ipynb:") for w in warnings)


def test_footnotes_of_cells_outputs_and_the_title_link_both_ways_within_their_cell(tmp_path):
    nb = notebook(
        new_markdown_cell("# Notes[^t]\n\nA claim[^1], again[^1], another[^x].\n\n[^1]: One.\n[^x]: Ex.\n[^t]: Title's."),
        new_markdown_cell("Later[^1].\n\n[^1]: Cell two's."),
        code(display({"text/markdown": "Printed[^1].\n\n[^1]: The output's.", "text/plain": "md"})),
        execute="never")
    site = make_site(tmp_path / "site", **{"notes.ipynb": nb})
    build(site, NOW)
    html = page(site, "notes")
    assert "<h1 id=\"notes\">" in html and "[^t]" not in html
    for cell in re.findall(r'<div class="nb-cell [^"]*" id="nb-cell-\d+">.*?(?=<div class="nb-cell |<!-- /sitegen)',
                           html, re.S):
        ids = set(re.findall(r'\sid="([^"]+)"', cell))
        links = re.findall(r'href="#(fn[^"]*)"', cell)
        assert links and all(link in ids for link in links), (links, ids)     # in its own cell, both ways
    notes = re.findall(r'<li id="(fn:[^"]+)">\s*<p>(.*?)&nbsp;', html)
    assert [text for _, text in notes] == ["One.", "Ex.", "Title's.", "Cell two's.", "The output's."]   # quotes as typed, as Jupyter shows them
    report = check_site(load_config(site))
    assert report.findings == [], report.findings


def invalid_notebook() -> str:
    """A notebook JSON that nbformat's schema refuses in three places (as a tool that writes its own
    JSON might leave it)."""
    nb = notebook(new_markdown_cell("# Invalid\n\nStill here."), code(display({"text/plain": "bad name"}),
                                                                     display({"text/plain": "kept output"})),
                  new_markdown_cell("A later cell."), execute="never")
    data = json.loads(nbformat.writes(nb))
    data["cells"][1]["outputs"][0]["output_type"] = "stream"
    data["cells"][1]["outputs"][0].update(name=5, text="x")
    data["cells"][1]["outputs"][0].pop("data")
    data["cells"][1]["outputs"][0].pop("metadata")
    data["cells"][1]["execution_count"] = "one"
    data["cells"][2]["cell_type"] = "markdow"
    return json.dumps(data, indent=1)


def test_a_notebook_its_schema_refuses_names_cell_id_and_key_or_with_warn_is_shown_without_those_parts(tmp_path):
    site = make_site(tmp_path / "site", **{"invalid.ipynb": invalid_notebook()})
    with pytest.raises(SiteError) as error:
        build(site, NOW)
    assert str(error.value) == ("notebooks/invalid.ipynb: not a valid notebook: cell 2 (id 'c2'): outputs[0].name: "
                                "5 is not of type 'string' (notebooks.problems: warn shows the rest of it)")
    site = make_site(tmp_path / "warned", "problems: warn", **{"invalid.ipynb": invalid_notebook()})
    warnings = build(site, NOW).warnings
    assert warnings == [
        "notebooks/invalid.ipynb: warning: not a valid notebook: cell 2 (id 'c2'): outputs[0].name: 5 is not of "
        "type 'string': output 1 left out",
        "notebooks/invalid.ipynb: warning: not a valid notebook: cell 2 (id 'c2'): execution_count: 'one' is not "
        "of type 'integer', 'null': its execution count left out",
        "notebooks/invalid.ipynb: warning: not a valid notebook: cell 3 (id 'c3'): the cell: cell_type 'markdow' "
        "with keys cell_type, id, metadata, source is not one nbformat 4 knows: the cell left out"]
    html = page(site, "invalid")
    assert "Still here." in html and "kept output" in html and "bad name" not in html
    assert "A cell is left out here: it is not valid to the notebook format." in html


def test_footnotes_defined_in_another_cell_move_to_the_cells_that_refer_to_them(tmp_path):
    nb = notebook(new_markdown_cell("# Shared notes\n\nA claim[^a] and a second[^b]."),
                  new_markdown_cell("Another cell[^a], and `[^b]` in code.\n\n```\n[^z]: in a fence\n```"),
                  new_markdown_cell("## References\n\n[^a]: Alpha,\n    on two lines.\n[^b]: Beta.\n\n[^z]: Unused."),
                  execute="never")
    site = make_site(tmp_path / "site", **{"shared.ipynb": nb})
    warnings = build(site, NOW).warnings
    html = page(site, "shared")
    cells = dict(re.findall(r'<div class="nb-cell [^"]*" id="(nb-cell-\d+)">(.*?)(?=<div class="nb-cell |<!-- /sit)',
                            html, re.S))
    assert re.findall(r'<li id="fn:(\w+)">', cells["nb-cell-1"]) == ["a", "b"]
    assert re.findall(r'<li id="fn:(a-1)">', cells["nb-cell-2"]) == ["a-1"] and "[^z]: in a fence" in cells["nb-cell-2"]
    assert "Alpha,\non two lines." in cells["nb-cell-1"] and "footnote" not in cells["nb-cell-3"]
    assert "Unused" not in html
    assert warnings == ["notebooks/shared.ipynb: warning: cell 3: the footnote [^z] is referred to by no cell: "
                        "left out"]
    report = check_site(load_config(site))
    assert report.findings == [], report.findings
