"""Outputs as the reader sees them: pandas' Styler colours show, no output restyles the page, and
widgets saved in Colab's form are drawn.

The Styler's output comes from a real kernel running pandas at build time; what
the reader sees is read in Chromium (Playwright) from the page ``sitegen serve``
serves.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Page
from nbformat.v4 import new_code_cell, new_markdown_cell, new_output

from generator.build import build
from generator.serve import Preview
from test_notebook_outputs import COLAB_STATE, code, view
from test_notebooks import NOW, make_site, notebook, page
from test_browser import browser  # noqa: F401 - a fixture

STYLED = """import pandas as pd
frame = pd.DataFrame({"a": [1, 5], "b": [3, 2]})
frame.style.set_uuid("sales").highlight_max(color="#ffd700")"""
HOSTILE = ("<style>body { display: none } * { color: rgb(255, 0, 0) } ~ p { color: blue }\n"
           "@import url(https://evil.example/x.css);\n"
           "p { position: fixed; background: url(https://evil.example/x.png); font-weight: bold }</style>"
           "<p id='inside'>Inside the hostile output.</p>")


def model(name: str, module: str, version: str, **state) -> dict:
    return {"model_name": name, "model_module": f"@jupyter-widgets/{module}", "model_module_version": version,
            "state": state}


# An Output widget as ipywidgets 7 (Colab) saves it: its layout's border in one key, what it captured
# with Markdown in it; an HTML and a Label widget with their style, as ipywidgets 8 saves them.
STYLED_WIDGETS = {"version_major": 2, "version_minor": 0, "state": {
    "out_layout": model("LayoutModel", "base", "1.2.0", border="3px solid rgb(255, 0, 0)", padding="7px",
                        width="300px"),
    "out": model("OutputModel", "output", "1.0.0", layout="IPY_MODEL_out_layout", outputs=[
        {"output_type": "display_data", "metadata": {},
         "data": {"text/markdown": "Some **bold** words", "text/plain": "<IPython.core.display.Markdown object>"}},
        {"output_type": "stream", "name": "stdout", "text": "printed\n"}]),
    "html_layout": model("LayoutModel", "base", "2.0.0", **{f"border_{side}": "2px dashed rgb(0, 0, 255)"
                                                            for side in ("top", "right", "bottom", "left")}),
    "html_style": model("HTMLStyleModel", "controls", "2.0.0", background="rgb(255, 255, 0)", font_size="20px",
                        text_color="rgb(0, 128, 0)"),
    "html": model("HTMLModel", "controls", "2.0.0", value="<i>styled</i>", layout="IPY_MODEL_html_layout",
                  style="IPY_MODEL_html_style"),
    "label_style": model("LabelStyleModel", "controls", "2.0.0", font_weight="bold", text_color="rgb(128, 0, 128)"),
    "label": model("LabelModel", "controls", "2.0.0", value="A label", layout="IPY_MODEL_html_layout",
                   style="IPY_MODEL_label_style"),
}}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    styled = notebook(new_markdown_cell("# Styled"), new_code_cell(STYLED), execute="always")
    hostile = notebook(new_markdown_cell("# Hostile\n\nThe page's own text."),
                       new_code_cell("hostile", outputs=[new_output(
                           "display_data", data={"text/html": HOSTILE, "text/plain": "hostile"})]),
                       execute="never")
    colab = notebook(new_markdown_cell("# Colab"), code(view("0a5c9e0b6f3d4e2c8f1a7b6d5e4c3b2a", "FloatProgress()")),
                     execute="never")
    colab.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": COLAB_STATE}
    styled_widgets = notebook(new_markdown_cell("# Widgets"), code(view("out", "Output()")),
                              code(view("html", "HTML()")), code(view("label", "Label()")), execute="never")
    styled_widgets.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": STYLED_WIDGETS}
    return make_site(tmp_path_factory.mktemp("styles") / "site", **{"styled.ipynb": styled,
                                                                    "hostile.ipynb": hostile, "colab.ipynb": colab,
                                                                    "widgets.ipynb": styled_widgets})


@pytest.fixture(scope="module")
def built(site) -> tuple[Path, list[str]]:
    return site, build(site, NOW).warnings


@pytest.fixture(scope="module")
def served(built) -> Iterator[str]:
    running = Preview(built[0], NOW, port=0).start()
    yield running.url.rstrip("/")
    running.stop()


def test_a_stylers_rules_are_scoped_to_its_output_and_its_ids_prefixed(built):
    site, _ = built
    html = page(site, "styled")
    head = html.split("</head>")[0]
    assert ("#nb-cell-2-out-1 #nb-cell-2-out-1-T_sales_row0_col1, #nb-cell-2-out-1 "
            "#nb-cell-2-out-1-T_sales_row1_col0 { background-color: #ffd700 }") in head
    assert re.search(r'<div class="nb-output nb-html" id="nb-cell-2-out-1">', html)
    assert '<td id="nb-cell-2-out-1-T_sales_row1_col0" class="data row1 col0">5</td>' in html
    assert "<style" not in html.split("</head>")[1]


def test_what_a_hostile_sheet_cannot_keep_is_named_in_a_warning(built):
    site, warnings = built
    head = page(site, "hostile").split("</head>")[0]
    assert "evil.example" not in head and "fixed" not in head and "~ p" not in head
    assert "#nb-cell-2-out-1 body { display: none }" in head        # matches nothing: body is no descendant
    assert warnings == [
        "notebooks/hostile.ipynb: warning: cell 2: output 1: left out of its style sheet, which may style only "
        "the output and with safe properties: the selector '~ p', which would reach past the output; @import; "
        "position: fixed; background: url(https://evil.example/x.png)"]


def test_the_stylers_colour_shows_and_no_output_restyles_the_page(browser, served):
    context = browser.new_context()
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{served}/docs/tutorials/styled.html", wait_until="load")
    colours = page.evaluate("""() => [0, 1].map((row) => getComputedStyle(
        document.querySelector(`#nb-cell-2-out-1 td.row${row}.col0`)).backgroundColor)""")
    page.goto(f"{served}/docs/tutorials/hostile.html", wait_until="load")
    seen = page.evaluate("""() => {
        const style = (element) => getComputedStyle(element);
        const own = [...document.querySelectorAll(".nb-markdown p")].find((p) => p.textContent.includes("own text"));
        const inside = document.querySelector("#nb-cell-2-out-1 p");
        return {body: style(document.body).display, own: style(own).color, inside: style(inside).color,
                bold: style(inside).fontWeight, position: style(inside).position};
    }""")
    context.close()
    assert colours[1] == "rgb(255, 215, 0)" and colours[0] != colours[1]     # 5 is column a's maximum
    assert seen["body"] != "none" and seen["own"] != "rgb(255, 0, 0)"
    assert seen == {**seen, "inside": "rgb(255, 0, 0)", "bold": "700", "position": "static"}
    assert not [url for url in requests if "evil.example" in url]


@contextmanager
def drawn(browser, url: str, selector: str) -> Iterator[Page]:
    """The page at ``url`` once the widget manager has drawn what ``selector`` finds."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(url, wait_until="load")
    page.locator(selector).first.wait_for()
    try:
        yield page
    finally:
        context.close()


def test_a_widget_saved_by_colab_is_drawn(browser, served):
    with drawn(browser, f"{served}/docs/tutorials/colab.html", ".nb-widget .widget-hprogress") as page:
        bar = page.locator(".nb-widget .widget-hprogress")
        seen = {"label": bar.locator(".widget-label").inner_text(),
                "success": bar.locator(".progress-bar-success").count(),
                "width": bar.locator(".progress-bar").evaluate("(element) => element.style.width")}
    assert seen == {"label": "Downloading", "success": 1, "width": "100%"}      # 570 of 570


def test_widgets_keep_their_layout_and_style_and_an_output_widgets_markdown_is_rendered(browser, served):
    label = ".nb-widget .widget-label:text('A label')"
    style = "(e, names) => names.map(name => getComputedStyle(e)[name])"
    with drawn(browser, f"{served}/docs/tutorials/widgets.html", label) as page:
        output = page.locator(".nb-widget .widget-output")
        seen = {
            "output": output.evaluate(style, ["borderTop", "borderLeft", "padding", "width"]),
            "markdown": output.locator("strong").all_inner_texts(),
            "text": " ".join(output.inner_text().split()),
            "html": page.locator(".nb-widget .widget-html").evaluate(style, ["borderBottom", "backgroundColor",
                                                                             "fontSize", "color"]),
            "label": page.locator(label).evaluate(style, ["fontWeight", "color"]),
        }
    assert seen == {"output": ["3px solid rgb(255, 0, 0)", "3px solid rgb(255, 0, 0)", "7px", "300px"],
                    "markdown": ["bold"], "text": "Some bold words printed",
                    "html": ["2px dashed rgb(0, 0, 255)", "rgb(255, 255, 0)", "20px", "rgb(0, 128, 0)"],
                    "label": ["700", "rgb(128, 0, 128)"]}
