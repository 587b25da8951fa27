"""Figures of plotting libraries, drawn on the page from their data by the site's own scripts.

Plotly, Altair/Vega-Lite, Vega and Bokeh save a figure as data (a JSON document,
or one inside the script of an HTML or JavaScript output) beside code that
would load the library from a CDN and draw it; the outputs that only load the
library (Plotly's and Bokeh's notebook set-up) show nothing. The page keeps the
data only, as inert JSON in a ``<script type="application/json">``; ``assets/js/charts.js``
hands it to a copy of the library that the site serves itself (``vendor/``,
pinned by ``scripts/vendor-charts``) and that is published only beside
tutorials that draw such a figure. No script of the notebook runs.

A figure that would load something from elsewhere (data at a URL, map tiles,
a picture) or, unless the site trusts its notebooks, run code of its own
(Bokeh's ``CustomJS``, HTML templates) is not drawn: its static forms
(PNG, SVG, text) are shown instead, with a note, and the build warns.
"""

from __future__ import annotations

import dataclasses
import functools
import html
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup, escape

from generator.layout import VENDOR
from generator.notebooks.widgets import script_json
from generator.text import plain_text

PUBLISHED = "_charts/"                  # below the gallery's folder
SCRIPTS = {"plotly": ("plotly/plotly.min.js",),
           "vega": ("vega/vega.min.js", "vega/vega-lite.min.js", "vega/vega-embed.min.js"),
           "bokeh": ("bokeh/bokeh.min.js",)}
NAMES = {"plotly": "Plotly", "vega": "Vega", "bokeh": "Bokeh"}
BOKEH_VERSION = (VENDOR / "bokeh" / "VERSION").read_text().strip().rsplit("@", 1)[1]

PLOTLY_MIME = "application/vnd.plotly.v1+json"
PLOTLY_HTML = re.compile(r'<div id="([^"]+)" class="plotly-graph-div"[^>]*></div>\s*<script\b.*?'
                         r'Plotly\.newPlot\(\s*"\1",\s*(?=\[)', re.S)
PLOTLY_LOADER = "window.PlotlyConfig = {MathJaxConfig: 'local'};"
# Plotly traces drawn on maps fetch their geography or tiles from other hosts.
PLOTLY_MAPS = {"scattergeo", "choropleth", "scattermapbox", "choroplethmapbox", "densitymapbox",
               "scattermap", "choroplethmap", "densitymap"}

VEGA_MIME = re.compile(r"application/vnd\.(vega|vegalite)\.v(\d+)[+.]json")     # Altair 6 writes ".json"
VEGA_MAJORS = {"vega": (5, 6), "vegalite": (4, 5, 6)}    # what vega 6 / vega-lite 6 draw as written
ALTAIR_HTML = re.compile(r'<div id="altair-viz-[^"]*"></div>\s*<script\b.*?\}\)\((?=\{)', re.S)

BOKEH_EXEC = "application/vnd.bokehjs_exec.v0+json"
BOKEH_LOAD = "application/vnd.bokehjs_load.v0+json"
BOKEH_EMBED = "Bokeh.embed.embed_items("
BOKEH_PLACEHOLDER = re.compile(r'\s*<div id="[^"]*" data-root-id="[^"]*" style="display: contents;"></div>\s*')
BOKEH_BANNER = 'class="bk-notebook-logo"'
BOKEH_DOCS = re.compile(r"\b(?:const|var|let) docs_json = (?:document\.getElementById\('([^']+)'\)\.textContent"
                        r"|'([^']*)'|(?=\{))")
BOKEH_ITEMS = re.compile(r"\b(?:const|var|let) render_items = (?=\[)")
BOKEH_LOADING = re.compile(r"TileSource$|^ImageURL$|^ImportedStyleSheet$|^GlobalImportedStyleSheet$")
BOKEH_RUNNING = re.compile(r"^CustomJS|^(Div|Paragraph|PreText|HTML|HTMLLabel|HTMLLabelSet|HTMLTitle|"
                           r"InlineStyleSheet|GlobalInlineStyleSheet|Template)$")

STATIC = ("image/svg+xml", "image/png", "image/jpeg", "image/gif", "text/plain")
SCRIPT = re.compile(r"<script\b", re.I)
VISIBLE = re.compile(r"<(img|svg|video|audio|canvas|iframe|input|math)\b", re.I)


@dataclass
class Chart:
    """What an output holds for the page: a figure to draw, or why it cannot be drawn.

    ``library`` is empty for a library's scaffolding (Bokeh's loader, the empty
    element its figure is drawn in), which shows nothing and needs nothing.
    """

    library: str
    data: Any = None
    problem: str = ""               # why it is not drawn; ``static`` is shown in its place
    static: dict = field(default_factory=dict)
    note: str = ""                  # said beside a figure that is drawn

    @functools.cached_property
    def json(self) -> str:
        """The data as the page holds it (measured against the limit, then written once)."""
        return script_json(self.data)

    def within(self, limit: int) -> Chart:
        """This chart, or one not drawn when its data is over ``limit`` characters, as the
        download leaves it out (``notebooks.output_limit``)."""
        size = len(self.json) if self.library and not self.problem else 0
        if size <= limit:
            return self
        return dataclasses.replace(self, problem=f"a {NAMES[self.library]} figure of {size:,} characters, over "
                                                 f"the limit of {limit:,} (notebooks.output_limit)")

    def html(self, label: str, picture: str = "") -> Markup:
        """The figure's container: its data as inert JSON, and for readers without JavaScript
        its ``picture`` (a URL) or a word."""
        still = (f'<img src="{escape(picture)}" alt="{escape(label)}" loading="lazy">' if picture else
                 f'<p class="nb-note">A {NAMES[self.library]} chart, drawn by JavaScript.</p>')
        note = f'<p class="nb-note">{escape(self.note)}</p>' if self.note else ""
        return Markup(f'<div class="nb-chart" data-chart="{self.library}" role="figure" aria-label="{escape(label)}">'
                      f'<script type="application/json">{self.json}</script>'
                      f'<noscript>{still}</noscript></div>{note}')


def read(data: dict, trusted: bool) -> Chart | None:
    """The figure in an output's ``data`` (its MIME bundle), or None when it holds none."""
    static = {mime: data[mime] for mime in STATIC if mime in data}
    if PLOTLY_MIME in data:
        return _checked(Chart("plotly", _plotly(data[PLOTLY_MIME]), static=static), _plotly_problem)
    for mime in data:
        vega = VEGA_MIME.fullmatch(mime)
        if vega:
            kind, major = vega.group(1), int(vega.group(2))
            spec = data[mime]
            if not isinstance(spec, dict):      # vega-embed would fetch a string as the spec's URL
                raise ValueError(f"its {mime} data is not a JSON object")
            if major not in VEGA_MAJORS[kind]:
                label = "Vega-Lite" if kind == "vegalite" else "Vega"
                return Chart("vega", problem=f"a {label} {major} chart, which this site's Vega"
                             f"{'-Lite 6' if kind == 'vegalite' else ' 6'} does not draw", static=static)
            return _checked(Chart("vega", {"spec": spec, "mode": "vega-lite" if kind == "vegalite" else "vega"},
                                  static=static), _vega_problem)
    if BOKEH_EXEC in data:
        return _checked(_bokeh(data.get("application/javascript", ""), static),
                        lambda doc: _bokeh_problem(doc, trusted))
    if BOKEH_LOAD in data:
        return Chart("")
    page = data.get("text/html")
    page = "".join(page) if isinstance(page, list) else page
    if not isinstance(page, str):
        return None
    plotly = PLOTLY_HTML.search(page)
    if plotly:
        return _checked(Chart("plotly", _plotly_call(page, plotly.end()), static=static), _plotly_problem)
    if BOKEH_EMBED in page:
        return _checked(_bokeh(page, static), lambda doc: _bokeh_problem(doc, trusted))
    if BOKEH_PLACEHOLDER.fullmatch(page) or BOKEH_BANNER in page or PLOTLY_LOADER in page:
        return Chart("")
    altair = ALTAIR_HTML.search(page)
    if altair:
        spec, _ = json.JSONDecoder().raw_decode(page, altair.end())
        return _checked(Chart("vega", {"spec": spec, "mode": "vega-lite"}, static=static), _vega_problem)
    return None


def drawn_by_script(page: str, cleaned: str) -> bool:
    """Whether an HTML output showed only what its scripts drew (a figure of a library this site
    does not know), so that ``cleaned``, without them, shows nothing."""
    return bool(SCRIPT.search(page)) and not plain_text(cleaned) and not VISIBLE.search(cleaned)


def publish(libraries: set[str]) -> Iterator[tuple[str, bytes]]:
    """The files of ``libraries`` as published (below the gallery): scripts with their licences."""
    for library in sorted(libraries):
        folder = VENDOR / SCRIPTS[library][0].split("/")[0]
        for path in sorted(folder.iterdir()):
            yield PUBLISHED + f"{folder.name}/{path.name}", path.read_bytes()


def scripts(libraries: set[str]) -> list[str]:
    """The library scripts a page loads, in order, below the gallery's folder."""
    return [PUBLISHED + script for library in sorted(libraries) for script in SCRIPTS[library]]


def _checked(chart: Chart, problem_of: Callable[[Any], str]) -> Chart:
    """``chart``, with the reason it must not be drawn when ``problem_of`` its data finds one."""
    return dataclasses.replace(chart, problem=chart.problem or problem_of(chart.data))


def _plotly(figure: Any) -> dict:
    if isinstance(figure, str):         # some writers save the figure as a JSON string
        figure = json.loads(figure)
    if not isinstance(figure, dict) or not isinstance(figure.get("data", []), list):
        raise ValueError("its Plotly figure is not a JSON object with a list of traces")
    return {key: figure[key] for key in ("data", "layout", "frames") if key in figure}


def _plotly_call(page: str, start: int) -> dict:
    """The figure of Plotly's HTML output: the traces and layout given to ``Plotly.newPlot``."""
    decoder = json.JSONDecoder()
    data, end = decoder.raw_decode(page, start)
    comma = re.compile(r"\s*,\s*").match(page, end)
    layout = decoder.raw_decode(page, comma.end())[0] if comma and page[comma.end():].startswith("{") else {}
    return {"data": data, "layout": layout}


def _plotly_problem(figure: dict) -> str:
    maps = sorted({trace.get("type") for trace in figure.get("data", [])
                   if isinstance(trace, dict) and trace.get("type") in PLOTLY_MAPS})
    if maps:
        return f"a Plotly map ({', '.join(maps)}), whose geography would be loaded from another host"
    # A picture's source (layout.images, a template's, a map layer's) is a URL unless it is data.
    source = next((s for s in _values(figure, "source") if isinstance(s, str) and not s.startswith("data:")), None)
    if source is not None:
        return f"a Plotly figure with a picture from {source[:80]}, which the page would load"
    return ""


def _vega_problem(chart: dict) -> str:
    # Data at a URL, or a picture's (an image mark's url, a value or a field): not the inline data's columns.
    url = next(_values(chart["spec"], "url", skip=("datasets", "values")), None)
    if url is not None:
        where = url[:80] if isinstance(url, str) else "a URL"
        return f"a Vega chart that loads {where}, which the page would request"
    return ""


def _bokeh(script: str | list[str], static: dict) -> Chart:
    """The Bokeh document that a script of Bokeh's embeds, and the root it draws.

    ``show()`` in a notebook writes the document into the script as JSON; an HTML
    page of Bokeh's (``file_html``, ``components``, shown as HTML) holds it
    HTML-escaped, in a ``<script type="application/json">`` or a JavaScript string.
    """
    script = "".join(script) if isinstance(script, list) else script
    docs, items = BOKEH_DOCS.search(script), BOKEH_ITEMS.search(script)
    if not docs or not items:
        return Chart("bokeh", problem="a Bokeh output whose document this site cannot read", static=static)
    decoder = json.JSONDecoder()
    if docs.group(1):                               # in an element of the page: its text
        element = re.search(rf'<script type="application/json" id="{re.escape(docs.group(1))}">\s*(.*?)</script>',
                            script, re.S)
        documents = json.loads(html.unescape(element.group(1))) if element else {}
    elif docs.group(2) is not None:                 # a JavaScript string of escaped JSON
        documents = json.loads(html.unescape(docs.group(2).replace("\\\\", "\\")))
    else:
        documents, _ = decoder.raw_decode(script, docs.end())
    item = decoder.raw_decode(script, items.end())[0][0]
    document = documents.get(item["docid"])
    if not isinstance(document, dict):
        return Chart("bokeh", problem="a Bokeh output whose document this site cannot read", static=static)
    version = str(document.get("version", ""))
    if version.split(".")[0] != BOKEH_VERSION.split(".")[0]:
        return Chart("bokeh", problem=f"a Bokeh {version or 'unknown'} plot, which this site's "
                     f"BokehJS {BOKEH_VERSION} does not draw", static=static)
    note = "" if version.split(".")[:2] == BOKEH_VERSION.split(".")[:2] else \
        f"Made with Bokeh {version}, drawn with BokehJS {BOKEH_VERSION}."
    return Chart("bokeh", {"doc": document, "root_id": item["root_ids"][0]}, static=static, note=note)


def _bokeh_problem(chart: dict, trusted: bool) -> str:
    names = {model.get("name") for model in _models(chart["doc"])}
    loading = sorted(name for name in names if isinstance(name, str) and BOKEH_LOADING.search(name))
    if loading or next(_values(chart["doc"], "url"), None):
        return f"a Bokeh plot that would load from another host ({', '.join(loading) or 'a url'})"
    running = sorted(name for name in names if isinstance(name, str) and BOKEH_RUNNING.search(name))
    tooltips = any(model.get("name") == "HoverTool" and isinstance(model.get("attributes", {}).get("tooltips"), str)
                   for model in _models(chart["doc"]))
    if not trusted and (running or tooltips):
        return (f"a Bokeh plot with code or HTML of its own ({', '.join(running) or 'an HTML tooltip'}), "
                "not run: this site does not trust notebook outputs (notebooks.trusted)")
    return ""


def _models(value: Any) -> Iterator[dict]:
    """Every Bokeh model (``{"type": "object", "name": ...}``) in a document."""
    if isinstance(value, dict):
        if value.get("type") == "object":
            yield value
        for item in value.values():
            yield from _models(item)
    elif isinstance(value, list):
        for item in value:
            yield from _models(item)


def _values(value: Any, key: str, skip: tuple[str, ...] = ()) -> Iterator[Any]:
    """Every value under ``key`` at any depth, not looking below the keys in ``skip``."""
    if isinstance(value, dict):
        for name, item in value.items():
            if name == key:
                yield item
            if name not in skip:
                yield from _values(item, key, skip)
    elif isinstance(value, list):
        for item in value:
            yield from _values(item, key, skip)
