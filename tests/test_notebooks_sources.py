"""Tutorial sources, cache keys and sanitizing: the parts of generator/notebooks that need no kernel."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from generator.errors import SiteError
from generator.notebooks import sanitize
from generator.notebooks.rst import RstToMarkdown
from generator.notebooks.sources import is_tutorial_script, load_tutorial, read_ipynb, read_script, to_percent
from generator.notebooks.spec import metadata_of, resolve
from generator.schema.notebooks import Notebooks

REPO = Path(__file__).resolve().parents[1]

PERCENT = '''# ---
# sitegen:
#   requires: [numpy]
#   timeout: 30
# ---

# %% [markdown]
# # A percent tutorial
#
# Some *text*.

# %%
import numpy as np
x = np.arange(3)

# %% tags=["raises-exception", "hide-input"]
raise ValueError("shown")

# %% [markdown]
# The end.
'''

GALLERY = '''# Licensed to the Apache Software Foundation (ASF) under one
# or more contributor license agreements.
"""
Scan and Recurrence
===================
**Author**: Someone

An intro with ``inline code`` and :code:`s_state`.
"""
import numpy as np
# sphinx_gallery_thumbnail_number = 2

######################################################################
# Describe the scan
# -----------------
# See `the docs <https://tvm.apache.org/docs>`_ and :py:func:`~tvm.te.scan`.
# The state is :math:`s_t = s_{t-1} + x_t`.
#
# .. note::
#
#    Notes become admonitions.
#
# Example::
#
#    s = scan(init, update)

x = np.cumsum([1, 2, 3])

# %%
# Second block
# ------------

print(x)
'''


def test_percent_script_becomes_cells_with_metadata_tags_and_lines():
    notebook, lines = read_script(PERCENT, Path("t.py"))
    assert [c.cell_type for c in notebook.cells] == ["markdown", "code", "code", "markdown"]
    assert notebook.cells[0].source == "# A percent tutorial\n\nSome *text*."
    assert notebook.cells[1].source == "import numpy as np\nx = np.arange(3)"
    assert notebook.cells[2].metadata.tags == ["raises-exception", "hide-input"]
    assert notebook.metadata.sitegen == {"requires": ["numpy"], "timeout": 30}
    assert notebook.metadata.kernelspec.name == "python3"
    assert lines == [7, 12, 16, 19]
    nbformat.validate(notebook)


def test_percent_script_round_trips_to_the_same_text_and_cells():
    notebook, _ = read_script(PERCENT, Path("t.py"))
    assert to_percent(notebook) == PERCENT
    again, _ = read_script(to_percent(notebook), Path("t.py"))
    assert _cells(again) == _cells(notebook)


def test_sphinx_gallery_script_becomes_markdown_and_code():
    notebook, lines = read_script(GALLERY, Path("g.py"))
    kinds = [c.cell_type for c in notebook.cells]
    assert kinds == ["markdown", "code", "markdown", "code", "markdown", "code"]
    intro, first_code, text = notebook.cells[0].source, notebook.cells[1].source, notebook.cells[2].source
    assert intro.startswith("# Scan and Recurrence\n\n**Author**: Someone")
    assert "`inline code`" in intro and "`s_state`" in intro
    assert first_code == "import numpy as np"            # the thumbnail setting is not code to show
    assert text.startswith("## Describe the scan")
    assert "[the docs](https://tvm.apache.org/docs)" in text and "`tvm.te.scan`" in text
    assert r"\(s_t = s_{t-1} + x_t\)" in text
    assert "```{note}\nNotes become admonitions.\n```" in text
    assert "Example:\n\n```python\ns = scan(init, update)\n```" in text
    assert notebook.cells[4].source == "## Second block"
    assert lines[:2] == [3, 10]
    assert "Licensed" not in json.dumps(notebook)


def test_gallery_and_shipped_scripts_round_trip_through_percent():
    shipped = (REPO / "notebooks" / "tiled_matmul.py").read_text()
    for text in (GALLERY, shipped):
        notebook, _ = read_script(text, Path("g.py"))
        again, _ = read_script(to_percent(notebook), Path("g.py"))
        assert _cells(again) == _cells(notebook)
        assert again.metadata.get("sitegen") == notebook.metadata.get("sitegen")


def test_rst_section_levels_follow_the_order_of_adornments():
    rst = RstToMarkdown()
    assert rst.convert("Title\n=====") == "# Title"
    assert rst.convert("Part\n----\n\nText") == "## Part\n\nText"
    assert rst.convert("Again\n=====") == "# Again"
    assert rst.convert(".. math::\n\n   a = b") == "$$\na = b\n$$"
    assert rst.convert(".. _label:\n\nKept") == "(label)=\n\nKept"


def test_broken_sources_are_reported_at_their_file_and_line(tmp_path):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    (folder / "bad.ipynb").write_text('{"cells": [\n  oops\n]}')
    with pytest.raises(SiteError) as error:
        load_tutorial(tmp_path, Path("notebooks/bad.ipynb"))
    assert (error.value.path, error.value.line) == ("notebooks/bad.ipynb", 2)
    (folder / "header.py").write_text("# ---\n# sitegen: [unclosed\n# ---\n")
    with pytest.raises(SiteError) as error:
        load_tutorial(tmp_path, Path("notebooks/header.py"))
    assert error.value.path == "notebooks/header.py" and "YAML header" in error.value.message


def test_unknown_metadata_keys_and_devices_are_named(tmp_path):
    tutorial = _tutorial(tmp_path, "x = 1\n", {"requries": ["tvm"]})
    with pytest.raises(SiteError, match=r"unknown key 'sitegen.requries'") as error:
        metadata_of(tutorial)
    assert error.value.path == "notebooks/t.ipynb"
    tutorial = _tutorial(tmp_path, "x = 1\n", {"device": "tpu-v9"})
    with pytest.raises(SiteError, match=r"key 'sitegen.device': unknown device 'tpu-v9'"):
        resolve(tutorial, metadata_of(tutorial), Notebooks())


def test_cache_key_counts_what_determines_the_run_and_nothing_else(tmp_path):
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "data.csv").write_text("1,2\n")

    def key(edit=lambda nb: None, settings=Notebooks()) -> str:
        notebook = _notebook("print(1)", {"reads": ["data.csv"]})
        edit(notebook)
        nbformat.write(notebook, tmp_path / "notebooks" / "t.ipynb")
        tutorial = load_tutorial(tmp_path, Path("notebooks/t.ipynb"))
        return resolve(tutorial, metadata_of(tutorial), settings).key

    base = key()
    same = {
        "markdown edited": lambda nb: setattr(nb.cells[0], "source", "# Other words"),
        "cell ids": lambda nb: [setattr(c, "id", f"new-{i}") for i, c in enumerate(nb.cells)],
        "display tags": lambda nb: nb.cells[1].metadata.update(tags=["hide-input", "remove-output"]),
        "cell metadata": lambda nb: nb.cells[1].metadata.update(collapsed=True, scrolled=False),
        "title": lambda nb: nb.metadata.sitegen.update(title="Renamed"),
        "stored outputs": lambda nb: nb.cells[1].outputs.append(
            nbformat.v4.new_output("stream", text="old\n")),
    }
    for name, edit in same.items():
        assert key(edit) == base, name
    changed = {
        "code edited": lambda nb: setattr(nb.cells[1], "source", "print(2)"),
        "code cell added": lambda nb: nb.cells.append(nbformat.v4.new_code_cell("pass")),
        "raises-exception": lambda nb: nb.cells[1].metadata.update(tags=["raises-exception"]),
        "skip-execution": lambda nb: nb.cells[1].metadata.update(tags=["skip-execution"]),
        "kernel": lambda nb: nb.metadata.kernelspec.update(name="python-other"),
        "timeout": lambda nb: nb.metadata.sitegen.update(timeout=5),
        "allow_errors": lambda nb: nb.metadata.sitegen.update(allow_errors=True),
        "requires": lambda nb: nb.metadata.sitegen.update(requires=["tvm"]),
        "device": lambda nb: nb.metadata.sitegen.update(device="cuda"),
    }
    keys = {name: key(edit) for name, edit in changed.items()}
    assert base not in keys.values() and len(set(keys.values())) == len(keys), keys
    assert key(settings=Notebooks(timeout=7)) != base          # site.yaml's timeout applies
    (tmp_path / "notebooks" / "data.csv").write_text("1,3\n")
    assert key() != base                                        # a file it reads changed


def test_reads_must_stay_inside_the_tutorials_folder(tmp_path):
    tutorial = _tutorial(tmp_path, "x = 1\n", {"reads": ["../secret.txt"]})
    (tmp_path / "secret.txt").write_text("s")
    with pytest.raises(SiteError, match="sitegen.reads"):
        resolve(tutorial, metadata_of(tutorial), Notebooks())


HOSTILE_HTML = ('<h2>Heading</h2><table><tr><th>a</th></tr><tr><td>1</td></tr></table>'
                '<script>alert(1)</script><img src="x.png" onerror="alert(2)">'
                '<a href="javascript:alert(3)">link</a><a href=" JaVaScRiPt:alert(4)">two</a>'
                '<div onclick="alert(5)" class="ok">div</div><iframe src="https://evil"></iframe>')


def test_hostile_html_loses_scripts_handlers_and_javascript_urls():
    clean = sanitize.clean_html(HOSTILE_HTML)
    assert "<h2>Heading</h2>" in clean and "<th>a</th>" in clean and "<td>1</td>" in clean
    assert '<div class="ok">div</div>' in clean
    lowered = clean.lower()
    for bad in ("<script", "alert(1)", "onerror", "javascript:", "onclick", "<iframe"):
        assert bad not in lowered, bad


def test_hostile_svg_loses_scripts_handlers_and_javascript_links():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
           'onload="alert(1)"><script>alert(2)</script><a xlink:href="javascript:alert(3)">'
           '<circle r="5" onmouseover="alert(4)"/></a><a href="#ok"><rect width="1" height="1"/></a>'
           '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>'
           '<set attributeName="href" to="javascript:alert(5)"/></svg>')
    clean = sanitize.clean_svg(svg).decode()
    assert "<circle" in clean and 'href="#ok"' in clean
    for bad in ("alert", "script", "onload", "onmouseover", "javascript", "foreignObject", "<set"):
        assert bad not in clean, bad
    assert sanitize.clean_svg("<svg><unclosed></svg>") is None
    assert sanitize.clean_svg('<!DOCTYPE x [<!ENTITY a "aaaa">]><svg>&a;</svg>') is None


def _notebook(code: str, sitegen: dict) -> nbformat.NotebookNode:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Title"),
                                               nbformat.v4.new_code_cell(code)])
    notebook.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.metadata.sitegen = sitegen
    return notebook


def _tutorial(root: Path, code: str, sitegen: dict):
    (root / "notebooks").mkdir(exist_ok=True)
    nbformat.write(_notebook(code, sitegen), root / "notebooks" / "t.ipynb")
    return load_tutorial(root, Path("notebooks/t.ipynb"))


def _cells(notebook) -> list[tuple[str, str, list]]:
    return [(c.cell_type, c.source, c.metadata.get("tags", [])) for c in notebook.cells]


NBFORMAT_3 = {"nbformat": 3, "nbformat_minor": 0, "metadata": {"name": "old"}, "worksheets": [{
    "metadata": {}, "cells": [
        {"cell_type": "heading", "level": 1, "metadata": {}, "source": "An old notebook"},
        {"cell_type": "markdown", "metadata": {}, "source": "Same words."},
        {"cell_type": "markdown", "metadata": {}, "source": "Same words."},
        {"cell_type": "code", "language": "python", "input": "1 + 1", "outputs": [], "metadata": {},
         "collapsed": False, "prompt_number": 1}]}]}


def test_an_nbformat_3_notebook_gets_the_same_cell_ids_on_every_read(tmp_path):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    (folder / "old.ipynb").write_text(json.dumps(NBFORMAT_3))
    reads = [load_tutorial(tmp_path, Path("notebooks/old.ipynb")).notebook for _ in range(2)]
    ids = [[cell.id for cell in notebook.cells] for notebook in reads]
    assert ids[0] == ids[1] and len(set(ids[0])) == 4
    assert nbformat.writes(reads[0]) == nbformat.writes(reads[1])
    nbformat.validate(reads[0])


def test_missing_and_repeated_cell_ids_are_made_from_content_not_at_random(tmp_path):
    cells = [{"cell_type": "markdown", "metadata": {}, "source": text, **({"id": id} if id else {})}
             for text, id in (("a", "first"), ("b", "first"), ("c", None), ("d", "last"))]
    text = json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells})
    reads = [read_ipynb(text, Path("ids.ipynb")) for _ in range(2)]
    ids = [[cell.id for cell in notebook.cells] for notebook in reads]
    assert ids[0] == ids[1] and len(set(ids[0])) == 4
    assert ids[0][0] == "first" and ids[0][3] == "last"            # the file's own ids are kept


@pytest.mark.parametrize("text, tutorial", [
    ("# %% [markdown]\n# # Title\n\n# %%\nx = 1\n", True),
    ("# ---\n# sitegen:\n#   requires: [numpy]\n# ---\nx = 1\n", True),
    ('"""\n.. _label:\n\nTitle\n=====\n\nText.\n"""\n\nx = 1\n', True),       # sphinx-gallery
    ('# Licensed to ...\n"""\n=====\nTitle\n=====\n"""\n', True),
    ('"""Title\n-----\n"""\n', True),
    ('"""\nTitle, text.\n"""\n\n' + "#" * 20 + "\n# Text.\n\nx = 1\n", True),
    ('"""Helpers the tutorials import."""\n\n\ndef double(x):\n    """Twice ``x``.\n    ---\n    """\n', False),
    ('"""Helpers.\n\nParameters\n----------\nx\n"""\n', False),   # a section, not a title
    ("import os\n\nDATA = os.path.join('data', 'x.csv')\n", False),
    ("", False),
])
def test_a_script_is_a_tutorial_as_jupytext_or_sphinx_gallery_would_read_it(text, tutorial):
    assert is_tutorial_script(text) is tutorial
