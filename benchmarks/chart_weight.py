"""Page weight of a tutorial page with one figure of each charting library, and without one.

    .venv/bin/python benchmarks/chart_weight.py /tmp/chartsite

Builds a site (the tests' basic fixture) whose tutorials each make one figure in a real
kernel (Plotly, Altair, Bokeh; a matplotlib PNG and a bare print for comparison), then
weighs each page as benchmarks/page_weight.py does: cold Chromium, every response's body
counted (uncompressed), plus what the chart scripts weigh gzipped.
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

from nbformat.v4 import new_code_cell, new_markdown_cell
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from page_weight import serve, weigh  # noqa: E402
from test_notebooks import NOW, make_site, notebook  # noqa: E402

from generator.build import build  # noqa: E402

FIGURES = {
    "plain": "print('no figure')",
    "matplotlib": "import matplotlib\nmatplotlib.use('agg')\nimport matplotlib.pyplot as plt\n"
                  "%matplotlib inline\nplt.bar(['a', 'b', 'c'], [1, 3, 2]);",
    "plotly": "import plotly.graph_objects as go\ngo.Figure(go.Bar(x=['a', 'b', 'c'], y=[1, 3, 2]))",
    "altair": "import altair as alt\nimport pandas as pd\n"
              "alt.Chart(pd.DataFrame({'x': ['a', 'b', 'c'], 'y': [1, 3, 2]})).mark_bar().encode(x='x:N', y='y:Q')",
    "bokeh": "from bokeh.plotting import figure, output_notebook, show\noutput_notebook()\n"
             "plot = figure(width=400, height=300, x_range=['a', 'b', 'c'])\nplot.vbar(x=['a', 'b', 'c'], top=[1, 3, 2])\n"
             "show(plot)",
}


def main(work: Path) -> None:
    site = make_site(work, **{f"{name}.ipynb": notebook(new_markdown_cell(f"# {name}"), new_code_cell(source))
                              for name, source in FIGURES.items()})
    build(site, NOW)
    out = site / "_site"
    server, base = serve(str(out))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                             args=["--headless", "--no-sandbox", "--disable-gpu"])
        print("| tutorial page | requests | KiB | HTML KiB |")
        print("|---|---:|---:|---:|")
        for name in FIGURES:
            requests, size = weigh(browser, base, f"/docs/tutorials/{name}.html")
            html = (out / f"docs/tutorials/{name}.html").stat().st_size
            print(f"| {name} | {requests} | {size / 1024:.1f} | {html / 1024:.1f} |")
        browser.close()
    server.shutdown()
    print("\n| script | KiB | gzipped KiB |\n|---|---:|---:|")
    for path in sorted((out / "docs/tutorials/_charts").rglob("*.js")):
        data = path.read_bytes()
        print(f"| {path.relative_to(out).as_posix()} | {len(data) / 1024:.1f} | {len(gzip.compress(data)) / 1024:.1f} |")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
