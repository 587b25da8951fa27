"""A notebook's saved widget state, made fit for a static page.

Jupyter saves the state of a notebook's widgets in its metadata (``widgets`` ->
``application/vnd.jupyter.widget-state+json`` -> ``state``, by model id); Colab
saves the models there directly, without the ``state`` level. Each widget
output is a view of one model. The vendored ``@jupyter-widgets/html-manager``
(``assets/vendor/jupyter-widgets``) draws those views in the reader's browser,
offline. Its bundle knows only the built-in widgets and would fetch any other
package from a CDN, so models of other packages are left out here, with every
model that refers to them; their views get a note instead. Unless the site
trusts its notebooks, the HTML that widgets show (HTML and HTMLMath values,
descriptions allowed to hold HTML, what an Output widget captured) goes
through the sanitizer that outputs go through, and no value may hold a CSS
``url(...)``. Markdown an Output widget captured is rendered here, as the page's
own is: the manager would show its source.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from nbformat import NotebookNode

from generator.notebooks import sanitize

STATE_MIME = "application/vnd.jupyter.widget-state+json"
VIEW_MIME = "application/vnd.jupyter.widget-view+json"
BUILT_IN = ("@jupyter-widgets/base", "@jupyter-widgets/controls", "@jupyter-widgets/output")
REFERENCE = "IPY_MODEL_"
HTML_VALUES = ("HTMLModel", "HTMLMathModel")
SAFE_OUTPUT_DATA = ("text/html", "text/markdown", "text/latex", "text/plain", "image/png", "image/jpeg",
                    "image/gif", "image/svg+xml", "application/json", VIEW_MIME)


@dataclass(frozen=True)
class WidgetState:
    """The models a page can draw, by id, and every model the notebook saved (to say why one is not drawn)."""

    models: dict[str, dict]
    saved: dict[str, dict] = field(default_factory=dict)

    @classmethod
    def of(cls, notebook: NotebookNode, trusted: bool) -> WidgetState:
        saved = _saved_models(notebook.metadata.get("widgets"))
        models = {key: copy.deepcopy(dict(model)) for key, model in saved.items()
                  if model.get("model_module") in BUILT_IN and isinstance(model.get("state"), dict)}
        while broken := {key for key, model in models.items()
                         if any(ref not in models for ref in _references(model["state"]))}:
            for key in broken:
                del models[key]
        for model in models.values():
            _as_drawn(model)
            if not trusted:
                _clean(model)
        return cls(models, saved)

    def shows(self, view: Any) -> bool:
        """Whether a widget output's view (``{"model_id": ...}``) can be drawn from this state."""
        return isinstance(view, dict) and view.get("model_id") in self.models

    def why_not(self, view: Any) -> str:
        """Why a view that ``shows`` refuses is not drawn, for the note in its place."""
        if not self.saved:
            return "the notebook holds no widget state (save it with the notebook: Save Widget State)"
        model_id = view.get("model_id") if isinstance(view, dict) else None
        model_id, seen = model_id if isinstance(model_id, str) else None, set()
        while model_id in self.saved and model_id not in seen:    # down to the model that cannot be drawn
            seen.add(model_id)
            model = self.saved[model_id]
            if model.get("model_module") not in BUILT_IN:
                return (f"it needs {model.get('model_name')} of {model.get('model_module')}, which a static "
                        "page cannot load (only built-in ipywidgets are drawn)")
            model_id = next((ref for ref in _references(model.get("state")) if ref not in self.models), None)
        if model_id is None or model_id in self.saved:
            return "its saved state is not one a page can draw"
        return f"the notebook's saved widget state has no model {model_id}"

    def script(self) -> str:
        """The state as the page carries it, for the widget manager to find."""
        state = {"version_major": 2, "version_minor": 0, "state": self.models}
        return f'<script type="{STATE_MIME}">{script_json(state)}</script>'


def _saved_models(widgets: Any) -> dict[str, dict]:
    """The models of a notebook's ``widgets`` metadata, in Jupyter's form or Colab's."""
    saved = widgets.get(STATE_MIME) if isinstance(widgets, dict) else None
    if not isinstance(saved, dict):
        return {}
    models = saved["state"] if isinstance(saved.get("state"), dict) else saved     # Colab: no "state" level
    return {key: model for key, model in models.items() if isinstance(model, dict) and "model_name" in model}


def view_script(view: dict) -> str:
    """A widget output as the page carries it; the widget manager draws the view in its place."""
    view = {"version_major": 2, "version_minor": 0, "model_id": view["model_id"]}
    return f'<script type="{VIEW_MIME}">{script_json(view)}</script>'


def script_json(value: Any) -> str:
    """JSON that cannot end its ``<script>`` element or open a comment in it."""
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c")


def _references(value: Any) -> Iterator[str]:
    """Ids of the models that a model's state refers to (``"IPY_MODEL_<id>"``)."""
    if isinstance(value, str):
        if value.startswith(REFERENCE):
            yield value.removeprefix(REFERENCE)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _references(item)
    elif isinstance(value, list):
        for item in value:
            yield from _references(item)


def _as_drawn(model: dict) -> None:
    """An Output widget's captured Markdown as HTML: the vendored manager has no Markdown parser
    (it would show the source); the page renders it as it renders a cell's."""
    outputs = model["state"].get("outputs")
    if isinstance(outputs, list):
        model["state"]["outputs"] = [_markdown_as_html(output) if isinstance(output, dict) else output
                                     for output in outputs]


def _markdown_as_html(output: dict) -> dict:
    """An output's Markdown as HTML (as a page shows a cell's own), unless it has HTML already."""
    data = output.get("data")
    if not isinstance(data, dict) or data.get("text/markdown") is None:
        return output
    from generator.markdown import render_markdown   # loaded by the notebook's Markdown cells anyway

    shown = {mime: value for mime, value in data.items() if mime != "text/markdown"}
    if "text/html" not in shown:
        text = data["text/markdown"]
        shown["text/html"] = render_markdown("".join(text) if isinstance(text, list) else str(text),
                                             dollar_math=True).html
    return {**output, "data": shown}


def _clean(model: dict) -> None:
    state = model["state"]
    for key, value in list(state.items()):      # a style's CSS value could load from another host
        if isinstance(value, str) and "url(" in value.replace(" ", "").lower():
            del state[key]
    if model.get("model_name") in HTML_VALUES and isinstance(state.get("value"), str):
        state["value"] = sanitize.clean_html(state["value"])
    if state.get("description_allow_html") and isinstance(state.get("description"), str):
        state["description"] = sanitize.clean_html(state["description"])
    if isinstance(state.get("outputs"), list):          # an Output widget: what it captured
        state["outputs"] = [_clean_output(output) for output in state["outputs"] if isinstance(output, dict)]


def _clean_output(output: dict) -> dict:
    data = output.get("data")
    if not isinstance(data, dict):
        return output
    kept = {}
    for mime, value in data.items():
        if mime not in SAFE_OUTPUT_DATA:
            continue
        text = "".join(value) if isinstance(value, list) else value
        if mime in ("text/html", "text/markdown") and isinstance(text, str):
            value = sanitize.clean_html(text)
        elif mime == "image/svg+xml":
            cleaned = sanitize.clean_svg(text) if isinstance(text, str) else None
            if cleaned is None:
                continue
            value = cleaned.decode("utf-8")
        kept[mime] = value
    return {**output, "data": kept}
