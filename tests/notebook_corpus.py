"""The corpus of real notebooks in tests/data/notebooks/real/ as a site, and what each holds.

Used by tests/test_notebook_corpus.py and benchmarks/bench_notebook_corpus.py. The
notebooks are kept byte for byte as their projects publish them (SOURCES.md);
the site shows their saved outputs (``notebooks.execute: never``) except for the
few that this machine can run, which get ``sitegen.execute: auto`` on the copy.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "data" / "notebooks" / "real"
EXECUTED = ("Custom Display Logic.ipynb",   # a real kernel runs it here (numpy, matplotlib)
            "Demo.ipynb")                    # its kernel (ir) is not installed: shown as saved, with a note
SETTINGS = """notebooks:
  execute: never
  allow_unexecuted: true
  problems: warn
check:
  html: true
"""

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

# Jupyter's choice among an output's types (see generator/notebooks/render.py), by kind.
CHOICE = [
    ("widget", (WIDGET_VIEW,)),
    ("javascript", ("application/javascript",)),
    ("html", ("text/html",)),
    ("markdown", ("text/markdown",)),
    ("latex", ("text/latex",)),
    ("svg", ("image/svg+xml",)),
    ("png", ("image/png",)),
    ("jpeg", ("image/jpeg",)),
    ("gif", ("image/gif",)),
    ("json", ("application/json",)),
    ("text", ("text/plain",)),
]


def notebooks() -> list[Path]:
    return sorted(CORPUS.glob("*.ipynb"))


def make_corpus_site(destination: Path, fixture: Path = REPO / "tests" / "data" / "basic") -> Path:
    """A site with the basic fixture's content, this repository's templates and assets, and the corpus."""
    shutil.copytree(fixture, destination)
    for folder in ("templates", "assets"):
        shutil.copytree(REPO / folder, destination / folder, dirs_exist_ok=True)
    (destination / "assets/css/site.css").unlink()   # the fixture's stub: the theme's stylesheet applies
    with open(destination / "site.yaml", "a") as f:
        f.write(SETTINGS)
    target = destination / "notebooks"
    target.mkdir()
    for path in notebooks():
        if path.name in EXECUTED:
            data = json.loads(path.read_text())
            data["metadata"]["sitegen"] = {"execute": "auto"}
            (target / path.name).write_text(json.dumps(data, indent=1))
        else:
            shutil.copy(path, target / path.name)
    return destination


def output_kinds(path: Path) -> Counter:
    """How many outputs of each kind the notebook holds, as Jupyter would show them.

    ``error`` and ``stream`` outputs count as such; a display output counts
    under the richest type it has (an nbformat v3 notebook read through
    nbformat, as the build reads it); a widget whose model's state the
    notebook did not save counts apart.
    """
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    saved = notebook.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    kinds: Counter = Counter()
    for cell in notebook.cells:
        if cell.cell_type == "markdown" and cell.get("attachments"):
            kinds["attachment"] += len(cell.attachments)
        for output in cell.get("outputs", ()):
            if output.output_type in ("stream", "error"):
                kinds[output.output_type] += 1
                continue
            data = output.get("data", {})
            kind = next((kind for kind, mimes in CHOICE if any(m in data for m in mimes)), "other")
            if kind == "widget" and "state" not in saved.get(data[WIDGET_VIEW].get("model_id"), {}):
                kind = "widget without state"
            kinds[kind] += 1
    return kinds
