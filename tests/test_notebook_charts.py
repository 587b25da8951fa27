"""Figures of Plotly, Altair (Vega-Lite) and Bokeh, drawn on the page from their data.

One tutorial makes its figures in a real kernel with the real libraries; another
keeps outputs written here in the libraries' shapes (``execute: never``) for the
figures a page must not draw. The pages are opened in Chromium, served on
127.0.0.1: each figure is drawn by the site's own copy of its library, with no
request to another host, and no script of the notebook runs.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_output

from generator.build import build
from generator.notebooks.charts import read
from test_browser import DESKTOP, Watched, browser  # noqa: F401
from test_notebooks import NOW, PNG, TUTORIALS, make_site, notebook, page
from test_versions import serve

MADE = [
    "import plotly.graph_objects as go\ngo.Figure(go.Bar(x=['a', 'b', 'c'], y=[1, 3, 2]))",
    "import altair as alt\nimport pandas as pd\n"
    "chart = alt.Chart(pd.DataFrame({'x': ['a', 'b'], 'y': [3, 4]})).mark_bar().encode(x='x:N', y='y:Q')\nchart",
    # Altair 6's "mimetype" renderer spells its type "...v6.json", which nbformat refuses: its bundle instead.
    "from altair.utils.mimebundle import spec_to_mimebundle\nfrom IPython.display import display\n"
    "display(spec_to_mimebundle(chart.to_dict(), format='vega-lite', mode='vega-lite',\n"
    "                           vegalite_version=alt.VEGALITE_VERSION), raw=True)",
    "alt.renderers.enable('mimetype')\nchart",      # the same, as that renderer sends it: drawn all the same
    "fig = go.Figure(go.Scatter(y=[2, 1, 3]))\nfig.show(renderer='notebook_connected')",
    "fig.show(renderer='notebook')",
    "from bokeh.plotting import figure, output_notebook, show\noutput_notebook()",
    "plot = figure(width=300, height=200)\nplot.line([1, 2, 3], [3, 1, 2])\nshow(plot)",
    "from bokeh.embed import components, file_html\nfrom bokeh.resources import CDN\nfrom IPython.display import HTML\n"
    "HTML(file_html(plot, CDN))",
    "HTML(''.join(components(plot)))",
]
CUSTOM_JS = {"type": "object", "name": "CustomJS", "id": "p9", "attributes": {"code": "window.customRan = 1"}}
RAN = "window.notebookScriptRan = true"


def bokeh(version: str, **attributes) -> dict:
    """A Bokeh ``show()`` output as Bokeh writes it: a script embedding a document of one figure."""
    doc = {"d1": {"version": version, "title": "Bokeh Application", "roots": [
        {"type": "object", "name": "Figure", "id": "p1", "attributes": attributes}]}}
    script = (f"(function(root) {{\n  function embed_document(root) {{\n  const docs_json = {json.dumps(doc)};\n"
              '  const render_items = [{"docid":"d1","roots":{"p1":"x"},"root_ids":["p1"]}];\n'
              "  root.Bokeh.embed.embed_items_notebook(docs_json, render_items);\n  }\n})(window);")
    return display({"application/javascript": script, "application/vnd.bokehjs_exec.v0+json": ""},
                   **{"application/vnd.bokehjs_exec.v0+json": {"id": "p1"}})


def display(data: dict, **metadata) -> dict:
    return new_output("display_data", data=data, metadata=metadata)


def stored(*outputs: dict) -> dict:
    return new_code_cell("shown()", outputs=list(outputs))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    made = notebook(new_markdown_cell("# Charts"), *(new_code_cell(source) for source in MADE))
    kept = notebook(
        new_markdown_cell("# Not drawn"),
        stored(display({"application/vnd.plotly.v1+json": {"data": [{"type": "scattergeo", "lon": [0]}]},
                        "image/png": base64.b64encode(PNG).decode(), "text/plain": "Figure()"})),
        stored(display({"application/vnd.vegalite.v2+json": {"mark": "bar"}, "text/plain": "alt.Chart(...)"})),
        stored(display({"application/vnd.vegalite.v5+json": {"data": {"url": "https://example.org/cars.json"},
                                                              "mark": "point"}})),
        stored(bokeh("3.9.2", js_event_callbacks={"tap": [CUSTOM_JS]})),
        stored(bokeh("2.4.3")),
        stored(display({"application/vnd.plotly.v1+json": {"data": [{"type": "scatter", "y": list(range(5000))}]},
                        "text/plain": "Figure(5000 points)"})),
        stored(display({"text/html": '<div id="map"></div><script src="https://cdn.example/maps.js"></script>'
                                     "<script>L.map('map')</script>", "text/plain": "<Map>"})),
        stored(display({"text/html": "<p>Text stays</p><script>void 0</script>"})),
        execute="never")
    root = make_site(tmp_path_factory.mktemp("charts") / "site", "output_limit: 20000",
                     **{"made.ipynb": made, "kept.ipynb": kept})
    warnings = build(root, NOW).warnings
    (root / "warnings.txt").write_text("\n".join(warnings))
    return root


@pytest.fixture(scope="module")
def trusted_site(tmp_path_factory) -> Path:
    """A site that trusts its notebooks: a JavaScript output runs there, so the check that a
    chart's own scripts do not can fail. A Bokeh figure of another 3.x is drawn, with a note."""
    figure = {"data": [{"type": "bar", "x": ["a"], "y": [1]}], "layout": {}}
    nb = notebook(new_markdown_cell("# Trusted"),
                  stored(display({"application/vnd.plotly.v1+json": figure, "application/javascript": RAN,
                                  "text/html": f"<div></div><script>{RAN}</script>",
                                  "image/png": base64.b64encode(PNG).decode()})),
                  stored(display({"application/javascript": "window.controlRan = true"})),
                  stored(bokeh("3.4.0", width=300, height=200)),
                  execute="never")
    root = make_site(tmp_path_factory.mktemp("trusted") / "site", "trusted: true", **{"trusted.ipynb": nb})
    build(root, NOW)
    return root


def charts(html: str) -> list[tuple[str, object]]:
    return [(kind, json.loads(data)) for kind, data in re.findall(
        r'<div class="nb-chart" data-chart="(\w+)"[^>]*><script type="application/json">(.*?)</script>', html, re.S)]


def test_each_figure_becomes_inert_data_for_the_sites_own_library(site):
    html = page(site, "made")
    found = charts(html)
    assert [kind for kind, _ in found] == ["plotly", "vega", "vega", "vega", "plotly", "plotly", "bokeh", "bokeh",
                                           "bokeh"]
    assert found[0][1]["data"][0]["y"] == [1, 3, 2]
    assert found[1][1]["mode"] == "vega-lite" and found[1][1]["spec"]["mark"]["type"] == "bar"
    assert found[2][1]["spec"]["encoding"] == found[3][1]["spec"]["encoding"] == found[1][1]["spec"]["encoding"]
    found = found[:3] + found[4:]
    assert found[3][1]["data"] == found[4][1]["data"] == [{"y": [2, 1, 3], "type": "scatter"}]
    assert found[3][1]["layout"]["template"] == found[0][1]["layout"]["template"]
    assert found[5][1]["doc"]["version"] and found[5][1]["root_id"].startswith("p")
    assert found[5][1]["doc"]["roots"] == found[6][1]["doc"]["roots"] == found[7][1]["doc"]["roots"]
    scripts = re.findall(r'<script defer src="([^"]+)"></script>', html)
    libraries = ["bokeh/bokeh.min.js", "plotly/plotly.min.js", "vega/vega.min.js", "vega/vega-lite.min.js",
                 "vega/vega-embed.min.js"]
    charts_scripts = [src for src in scripts if "_charts/" in src or src.endswith("/charts.js")]
    assert charts_scripts == [*(f"/docs/tutorials/_charts/{name}" for name in libraries), "/assets/js/charts.js"]
    assert "cdn." not in html and "bokeh.org" not in html and "Loading BokehJS" not in html
    assert "over the limit" not in html and "A chart not drawn" not in html   # nor Plotly's 4.8 MB set-up
    assert "<script>" not in html and 'type="text/javascript"' not in html
    published = site / TUTORIALS / "_charts"
    assert (published / "plotly/LICENSE").is_file() and (published / "vega/LICENSE.vega-embed").is_file()
    assert (published / "bokeh/LICENSE").is_file()
    kept = page(site, "kept")               # a page that draws nothing loads nothing
    assert "_charts/" not in kept and "charts.js" not in kept and not charts(kept)


def test_a_figure_not_drawn_shows_its_static_form_or_a_note_and_warns(site):
    html = page(site, "kept")
    warnings = (site / "warnings.txt").read_text()
    assert re.search(r'<div class="nb-output nb-image"><img src="/docs/tutorials/kept/\w+\.png"', html)
    assert "A chart not drawn: a Plotly map (scattergeo), whose geography would be loaded from another host." in html
    assert "notebooks/kept.ipynb:" in warnings and "cell 2: output 1: a Plotly map (scattergeo)" in warnings
    assert "not drawn, its picture is shown instead" in warnings
    assert "alt.Chart(...)</pre>" in html
    assert "A chart not drawn: a Vega-Lite 2 chart, which this site&#39;s Vega-Lite 6 does not draw." in html
    assert "cell 3: output 1: a Vega-Lite 2 chart" in warnings and "its text is shown instead" in warnings
    assert "a Vega chart that loads https://example.org/cars.json, which the page would request" in html
    assert "cell 4: output 1: a Vega chart that loads https://example.org/cars.json" in warnings
    assert "a Bokeh plot with code or HTML of its own (CustomJS), not run" in html
    assert "cell 5: output 1: a Bokeh plot with code or HTML of its own (CustomJS)" in warnings
    assert "Figure(5000 points)</pre>" in html and "a Plotly figure of 28,928 characters, over the limit of " \
        "20,000 (notebooks.output_limit)" in html
    assert "cell 7: output 1: a Plotly figure of 28,928 characters" in warnings
    assert "A chart not drawn: a Bokeh 2.4.3 plot, which this site&#39;s BokehJS 3.9.2 does not draw." in html
    assert ('<p class="nb-note">an HTML output drawn by its own script, which this site does not run '
            "(notebooks.trusted): nothing of it is shown</p>") in html
    assert "cell 8: output 1: an HTML output drawn by its own script" in warnings
    assert "<p>Text stays</p>" in html and "cell 9" not in warnings
    assert "customRan" not in html.split("</h1>", 1)[1].split('<div class="highlight"')[0]


def drawing(tab, kind: str):
    """What the library drew in the chart of ``kind`` (Bokeh draws on a canvas in a shadow root)."""
    chart = f'.nb-chart[data-chart="{kind}"]'
    return tab.locator(f"{chart} svg, {chart} canvas")


def test_the_figures_are_drawn_in_a_browser_with_nothing_from_another_host(site, browser):
    with serve(site / "_site") as url:
        watched = Watched(browser, url, **DESKTOP)
        tab = watched.open(f"{url}/docs/tutorials/made.html")
        for kind in ("plotly", "vega", "bokeh"):
            drawing(tab, kind).first.wait_for(state="attached")
        assert tab.locator(".nb-chart .nb-note").count() == 0        # no library refused its figure
        assert tab.locator('.nb-chart[data-chart="plotly"] .plot-container').count() == 3
        assert tab.locator('.nb-chart[data-chart="vega"] svg.marks').count() == 3
        bokeh = tab.locator('.nb-chart[data-chart="bokeh"]')
        for n in range(3):
            bokeh.nth(n).locator("canvas").first.wait_for(state="attached")
        watched.close()
        assert watched.problems == []


def test_no_script_of_the_notebook_runs_where_trusted_scripts_do(trusted_site, browser):
    html = page(trusted_site, "trusted")
    assert [kind for kind, _ in charts(html)] == ["plotly", "bokeh"]
    assert '<p class="nb-note">Made with Bokeh 3.4.0, drawn with BokehJS 3.9.2.</p>' in html
    picture = re.search(r'<noscript><img src="(/docs/tutorials/trusted/\w+\.png)" alt="Chart of cell 2"', html)
    assert picture and (trusted_site / "_site" / picture.group(1).lstrip("/")).read_bytes() == PNG
    gallery = (trusted_site / TUTORIALS / "index.html").read_text()
    assert picture.group(1) in gallery                                 # the figure's picture is the card's
    assert "<noscript><p class=\"nb-note\">A Bokeh chart, drawn by JavaScript.</p></noscript>" in html
    with serve(trusted_site / "_site") as url:
        watched = Watched(browser, url, **DESKTOP)
        tab = watched.open(f"{url}/docs/tutorials/trusted.html")
        for kind in ("plotly", "bokeh"):
            drawing(tab, kind).first.wait_for(state="attached")
        assert tab.evaluate("window.controlRan") is True             # a trusted JavaScript output runs
        assert tab.evaluate("window.notebookScriptRan") is None      # the chart's own scripts did not
        watched.close()
        assert watched.problems == []
        still = Watched(browser, url, **DESKTOP, java_script_enabled=False)      # its picture, without JavaScript
        picture = still.open(f"{url}/docs/tutorials/trusted.html").locator(".nb-chart img")
        picture.wait_for()
        assert picture.evaluate("img => img.complete && img.naturalWidth") == 1
        still.close()
        assert still.problems == []


def bokeh_data(*models: dict) -> dict:
    return bokeh("3.9.2", renderers=list(models))["data"]


VL = "application/vnd.vegalite.v5+json"
PLOTLY = "application/vnd.plotly.v1+json"
TILES = {"type": "object", "name": "WMTSTileSource", "id": "t1", "attributes": {"url": "https://tile.example/{Z}"}}
HOVER = {"type": "object", "name": "HoverTool", "id": "h1", "attributes": {"tooltips": "<img src=x onerror=alert(1)>"}}


@pytest.mark.parametrize("data, trusted, problem", [
    ({PLOTLY: {"data": [], "layout": {"template": {"layout": {"images": [{"source": "https://x.example/a.png"}]}}}}},
     False, "a Plotly figure with a picture from https://x.example/a.png"),
    ({PLOTLY: {"data": [{"type": "image", "source": "data:image/png;base64,AAAA"}]}}, False, ""),
    ({VL: {"datasets": {"d": [{"url": "https://x.example/"}]}, "data": {"name": "d"}, "mark": "point"}}, False, ""),
    ({VL: {"data": {"values": [{"u": "a.png"}]}, "mark": "image", "encoding": {"url": {"field": "u"}}}}, False,
     "a Vega chart that loads a URL"),
    (bokeh_data(TILES), True, "a Bokeh plot that would load from another host (WMTSTileSource)"),
    (bokeh_data(HOVER), False, "a Bokeh plot with code or HTML of its own (an HTML tooltip), not run"),
    (bokeh_data(HOVER), True, ""),
], ids=["plotly-template-picture", "plotly-image-data", "vega-url-column", "vega-image-urls", "bokeh-tiles",
        "bokeh-html-tooltip", "bokeh-html-tooltip-trusted"])
def test_what_a_figure_would_load_or_run_keeps_it_from_being_drawn(data, trusted, problem):
    chart = read(data, trusted)
    assert chart.library and (chart.problem.startswith(problem) if problem else chart.problem == "")


def test_a_vega_spec_that_is_not_an_object_is_refused_never_fetched():
    with pytest.raises(ValueError, match="its application/vnd.vegalite.v5\\+json data is not a JSON object"):
        read({VL: "https://x.example/spec.json"}, True)


def test_a_bundle_against_the_notebook_format_is_read_as_meant():
    """What a kernel sends that nbformat refuses (nbclient stopped the run with a traceback)."""
    from generator.notebooks.execute import schema_bundle

    spec = {"mark": "bar"}
    assert schema_bundle({"application/vnd.vegalite.v6.json": spec, "text/plain": "chart"}) == {
        "application/vnd.vegalite.v6+json": spec, "text/plain": "chart"}
    assert schema_bundle({"text/x-table": [1, 2], "application/geo+json": spec}) == {
        "text/x-table": "[1, 2]", "application/geo+json": spec}
