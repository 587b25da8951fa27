"""Which form of an output a tutorial page shows, as Jupyter's front ends choose it.

The notebooks here keep their saved outputs (``execute: never``), so the pages
show exactly the outputs written below, through a real build.
"""

from __future__ import annotations

import base64
import json
import re

import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_output

from generator.build import build
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


def test_widget_state_cannot_close_its_script_element(tmp_path):
    hostile = {"version_major": 2, "version_minor": 0, "state": {"s": {
        "model_name": "LabelModel", "model_module": "@jupyter-widgets/controls", "model_module_version": "2.0.0",
        "state": {"value": "</script><script>alert(1)</script><!--"}}}}
    nb = notebook(new_markdown_cell("# Hostile"), code(view("s", "Label()")), execute="never")
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": hostile}
    site = make_site(tmp_path / "site", **{"hostile.ipynb": nb})
    build(site, NOW)
    html = page(site, "hostile")
    assert "<script>alert(1)" not in html and "<!--" not in html.split("<body")[1]
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
