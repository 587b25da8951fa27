"""Whether a tutorial runs: ``execute: auto | never | always``, retries after an install, ``--refresh NAME``.

Runs are counted by a log file each tutorial's code appends to (no cache can fake
it), in a real kernel; the "install" is a real ``pip install --target`` into a
folder on the kernel's path.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_output

from generator.build import build
from generator.cli import main
from generator.errors import SiteError
from test_notebooks import NOW, TUTORIALS, logged, make_site, notebook, page, runs, without_code, write


def stored(log: Path, name: str, **sitegen):
    """A notebook that logs each run and holds a saved output its run would not give."""
    code = new_code_cell(logged(log, name) + "\nprint('fresh output')", execution_count=7,
                         outputs=[new_output("stream", name="stdout", text="saved output\n")])
    return notebook(new_markdown_cell(f"# {name.title()}\n\nWords."), code, **sitegen)


def test_execute_never_shows_the_saved_outputs_and_says_so(tmp_path):
    log = tmp_path / "runs.log"
    site = make_site(tmp_path / "site", "execute: never",
                     **{"kept.ipynb": stored(log, "kept"), "ran.ipynb": stored(log, "ran", execute="auto")})
    result = build(site, NOW).reports["docs"].tutorials
    assert (result.ran, result.stored) == (1, 1) and runs(log) == ["ran"]   # metadata beats site.yaml
    kept = without_code(page(site, "kept"))
    assert "saved output" in kept and "fresh output" not in kept
    assert "Not executed" in kept and "execute: never" in kept
    assert "fresh output" in without_code(page(site, "ran")) and "Not executed" not in page(site, "ran")
    gallery = (site / TUTORIALS / "index.html").read_text()
    gallery = gallery[gallery.index('<ul class="gallery">'):]      # the cards, not the sidebar's links
    card = gallery[gallery.index("Kept</a>"):]
    assert "Not executed" in card[:card.index("</li>")]
    assert "Not executed" not in gallery[gallery.index("Ran</a>"):].split("</li>")[0]
    assert main(["-C", str(site), "build"]) == 0 and runs(log) == ["ran"]


def test_execute_always_runs_whenever_the_tutorials_are_built(tmp_path):
    """Never from the cache; a build that finds nothing changed builds nothing, as Sphinx does."""
    log = tmp_path / "runs.log"
    calm = stored(log, "calm")
    site = make_site(tmp_path / "site", **{"live.ipynb": stored(log, "live", execute="always"),
                                          "calm.ipynb": calm})
    build(site, NOW)
    calm.cells[0].source += "\n\nMore words."
    write(site, "calm.ipynb", calm)
    result = build(site, NOW).reports["docs"].tutorials
    assert (result.ran, result.cached) == (1, 1)
    assert sorted(runs(log)) == ["calm", "live", "live"]


@pytest.mark.parametrize("where", ["metadata", "site.yaml"])
def test_an_unknown_execute_mode_is_an_error_naming_the_key(tmp_path, where):
    if where == "metadata":
        site = make_site(tmp_path / "site", **{"a.ipynb": stored(tmp_path / "log", "a", execute="sometimes")})
        key, path = "sitegen.execute", "notebooks/a.ipynb"
    else:
        site = make_site(tmp_path / "site", "execute: sometimes", **{"a.ipynb": stored(tmp_path / "log", "a")})
        key, path = "notebooks.execute", "site.yaml"
    with pytest.raises(SiteError) as error:
        build(site, NOW)
    assert f"key '{key}'" in error.value.message and "'never'" in error.value.message
    assert str(error.value.path).endswith(path)


def test_refresh_name_runs_that_tutorial_again_only(tmp_path, capsys):
    log = tmp_path / "runs.log"
    site = make_site(tmp_path / "site", **{"one.ipynb": stored(log, "one"), "two.ipynb": stored(log, "two")})
    assert main(["-C", str(site), "build"]) == 0 and sorted(runs(log)) == ["one", "two"]
    assert main(["-C", str(site), "build", "--refresh", "one.ipynb"]) == 0
    assert runs(log)[2:] == ["one"]
    assert "1 notebooks ran, 1 from cache" in capsys.readouterr().out
    assert main(["-C", str(site), "build", "--refresh", "two"]) == 0 and runs(log)[3:] == ["two"]
    assert main(["-C", str(site), "build", "--refresh", "three"]) == 1
    assert "--refresh three: no tutorial of that name" in capsys.readouterr().err
    assert main(["-C", str(site), "build", "--refresh"]) == 0 and len(runs(log)) == 6


PROBE = "sitegen_probe_module"


def make_wheel(folder: Path, module: str, code: str) -> Path:
    """A one-module wheel, as a build backend would make it (none is installed here to build one)."""
    wheel = folder / f"{module}-1.0-py3-none-any.whl"
    info = f"{module}-1.0.dist-info"
    files = {f"{module}.py": code,
             f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {module}\nVersion: 1.0\n",
             f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: sitegen-tests\nRoot-Is-Purelib: true\n"
                              "Tag: py3-none-any\n"}
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
        archive.writestr(f"{info}/RECORD", "".join(f"{name},,\n" for name in [*files, f"{info}/RECORD"]))
    return wheel


def test_a_missing_module_is_tried_again_once_something_is_installed(tmp_path, monkeypatch, capsys):
    """The failure is cached while nothing changes, and retried, without --refresh, after a pip install."""
    target = tmp_path / "site-packages"
    target.mkdir()
    monkeypatch.setenv("PYTHONPATH", f"{target}:{sys.path[0]}")     # the kernel inherits it
    log = tmp_path / "runs.log"
    importing = notebook(new_markdown_cell("# Probe"),
                         new_code_cell(logged(log, "probe") + f"\nimport {PROBE}\nprint({PROBE}.ANSWER)"))
    site = make_site(tmp_path / "site", **{"probe.ipynb": importing})

    assert main(["-C", str(site), "build"]) == 1
    assert f"ModuleNotFoundError: No module named '{PROBE}'" in capsys.readouterr().err
    assert main(["-C", str(site), "build"]) == 1 and runs(log) == ["probe"]   # cached: not run again
    message = capsys.readouterr().err
    assert "or a package is installed for its kernel" in message and "--refresh probe.ipynb" in message

    wheel = make_wheel(tmp_path, PROBE, "ANSWER = 42\n")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--target", str(target),
                    str(wheel)], check=True, capture_output=True)

    assert main(["-C", str(site), "build"]) == 0 and runs(log) == ["probe", "probe"]
    assert "42" in page(site, "probe")
    assert main(["-C", str(site), "build"]) == 0 and len(runs(log)) == 2


def test_a_failure_of_the_code_is_not_tried_again_after_an_install(tmp_path, capsys):
    log = tmp_path / "runs.log"
    site = make_site(tmp_path / "site", **{"bad.ipynb": notebook(
        new_markdown_cell("# Bad"), new_code_cell(logged(log, "bad") + "\n1 / 0"))})
    assert main(["-C", str(site), "build"]) == 1
    assert main(["-C", str(site), "build"]) == 1 and runs(log) == ["bad"]
    assert "or a package is installed" not in capsys.readouterr().err
