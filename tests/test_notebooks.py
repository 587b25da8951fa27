"""Tutorials executed by a real Jupyter kernel, checked through the built site's files.

Kernel launches are the slow part, so each module-scoped site is built (and
its notebooks executed) once, and several tests read that one build. Runs are
counted two ways: the build's own counts, and a log file each tutorial's code
appends to, which no cache can fake.
"""

from __future__ import annotations

import base64
import re
import shutil
from datetime import datetime, timezone
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from conftest import copy_site
from generator.build import BuildOptions, build
from generator.cli import main
from generator.errors import SiteError
from generator.notebooks.sources import read_script
from site_checks import assert_html5_parses, assert_internal_links_and_anchors

REPO = Path(__file__).resolve().parents[1]
NOW = BuildOptions(now=datetime(2026, 1, 1, tzinfo=timezone.utc))
REFRESH = BuildOptions(now=NOW.now, refresh=True)
TUTORIALS = "_site/docs/tutorials"
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")

PYTHON = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}


def notebook(*cells, **sitegen) -> nbformat.NotebookNode:
    nb = new_notebook(cells=list(cells), metadata={**PYTHON, "sitegen": sitegen})
    for n, cell in enumerate(nb.cells, start=1):
        cell.id = f"c{n}"
    return nb


def make_site(root: Path, settings: str = "", **tutorials) -> Path:
    """The basic fixture site with ``tutorials`` (name -> notebook or script text) in notebooks/."""
    site = copy_site(root, "basic")
    shutil.copytree(REPO / "assets", site / "assets", dirs_exist_ok=True)    # its images (KaTeX is the theme's)
    (site / "assets/css/site.css").unlink()        # the fixture's stub: the theme's stylesheet applies
    if settings:
        with open(site / "site.yaml", "a") as f:
            f.write("notebooks:\n" + "".join(f"  {line}\n" for line in settings.split("\n")))
    (site / "notebooks").mkdir()
    for name, content in tutorials.items():
        write(site, name, content)
    return site


def write(site: Path, name: str, content) -> None:
    path = site / "notebooks" / name
    if isinstance(content, str):
        path.write_text(content)
    else:
        nbformat.write(content, path)


def logged(log: Path, name: str) -> str:
    return f"open({str(log)!r}, 'a').write({name!r} + '\\n')"


def runs(log: Path) -> list[str]:
    return log.read_text().split() if log.exists() else []


def page(site: Path, slug: str) -> str:
    return (site / TUTORIALS / f"{slug}.html").read_text()


def without_code(html: str) -> str:
    """A page without its highlighted code inputs (which show hostile strings, escaped)."""
    return re.sub(r'<div class="highlight"[^>]*>.*?</div>', "", html, flags=re.S)


def snapshot(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


# -- every kind of output, rendered -----------------------------------------------------

HOSTILE_HTML = ('<h3>Results</h3><table><tr><td>42</td></tr></table><script>alert("html")</script>'
                '<img src="https://example.org/x.png" onerror="alert(2)"><a href="javascript:alert(3)">click</a>')
HOSTILE_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(4)">'
               '<script>alert(5)</script><a href="javascript:alert(6)"><circle cx="5" cy="5" r="4"/></a></svg>')

OUTPUTS = notebook(
    new_code_cell("%%shell\npip install something-only-colab-has"),
    new_markdown_cell("# Every output\n\nInline math $x^2$ and a picture ![dot](images/dot.png) "
                      "and an attached one ![att](attachment:red.png)."),
    new_code_cell("import sys\nprint('to stdout')\nprint('\\x1b[31mred on stderr\\x1b[0m', file=sys.stderr)"),
    new_code_cell("40 + 2"),
    new_code_cell("from IPython.display import HTML, SVG, Image, Javascript, Latex, Markdown, display\n"
                  f"display(HTML({HOSTILE_HTML!r}))"),
    new_code_cell("display(Markdown('**bold** output with $y$ <script>alert(7)</script>'))"),
    new_code_cell(f"display(SVG({HOSTILE_SVG!r}))"),
    new_code_cell("import io\nfrom PIL import Image as Picture\n"
                  "def picture(fmt, color):\n    buffer = io.BytesIO()\n"
                  "    Picture.new('RGB', (4, 4), color).save(buffer, fmt)\n    return buffer.getvalue()\n"
                  "display(Image(picture('PNG', 'red'), format='png', metadata={'alt': 'a red square'}))\n"
                  "display(Image(picture('JPEG', 'blue'), format='jpeg'))"),
    new_code_cell("display(Latex(r'$\\frac{a}{b}$'))\ndisplay(Javascript('alert(8)'))"),
    new_code_cell("print('x' * 3000)"),
    new_code_cell("raise ValueError('this error is part of the lesson')",
                  metadata={"tags": ["raises-exception"]}),
    new_code_cell("print('hidden input')", metadata={"tags": ["remove-input"]}),
    new_code_cell("print('after the error')", metadata={"tags": ["hide-output"]}),
)
OUTPUTS.cells[1].attachments = {"red.png": {"image/png": base64.b64encode(PNG).decode()}}

ALLOWED = """# ---
# sitegen:
#   allow_errors: true
# ---

# %% [markdown]
# # Errors allowed

# %%
undefined_name

# %%
print("still running")
"""


@pytest.fixture(scope="module")
def outputs_site(tmp_path_factory) -> Path:
    site = make_site(tmp_path_factory.mktemp("outputs") / "site", "output_limit: 1000",
                     **{"outputs.ipynb": OUTPUTS, "allowed.py": ALLOWED})
    (site / "notebooks" / "images").mkdir()
    (site / "notebooks" / "images" / "dot.png").write_bytes(PNG)
    result = build(site, NOW)
    assert (result.reports["docs"].tutorials.ran, result.reports["docs"].tutorials.cached) == (2, 0)
    return site


def test_outputs_of_each_kind_are_rendered(outputs_site):
    html = page(outputs_site, "outputs")
    assert '<h1 id="every-output"><span id="Every-output"></span>Every output</h1>' in html
    assert '<pre class="nb-output nb-stream nb-stdout">to stdout\n</pre>' in html
    assert '<span class="ansi-red-fg">red on stderr</span>' in html and "\x1b" not in html
    assert '<pre class="nb-output nb-text">42</pre>' in html
    assert "<h3>Results</h3>" in html and "<td>42</td>" in html
    assert "<strong>bold</strong> output with" in html
    assert r'<div class="nb-output nb-latex arithmatex">\[\frac{a}{b}\]</div>' in html
    assert 'alt="a red square"' in html
    assert "ValueError" in html and "this error is part of the lesson" in html
    assert "after the error" in html
    assert '<details class="nb-fold"><summary>Show output</summary>' in html
    assert "hidden input" in html and "&#39;hidden input&#39;" not in html      # output kept, input removed


def test_images_are_files_with_alt_text_not_base64(outputs_site):
    html = page(outputs_site, "outputs")
    assert "base64" not in html and "data:image" not in html
    images = re.findall(r'<img src="(/docs/tutorials/outputs/[0-9a-f]{16}\.(png|jpg|svg))" alt="([^"]*)"', html)
    kinds = sorted(kind for _, kind, _ in images)
    assert kinds == ["jpg", "png", "svg"]
    for src, _, alt in images:
        assert (outputs_site / "_site" / src.lstrip("/")).is_file() and alt
    red = next(src for src, kind, _ in images if kind == "png")
    assert (outputs_site / "_site" / red.lstrip("/")).read_bytes().startswith(b"\x89PNG")


def test_markdown_cells_get_math_local_images_and_attachments(outputs_site):
    html = page(outputs_site, "outputs")
    assert r'<span class="arithmatex">\(x^2\)</span>' in html
    assert "katex.min.js" in html                      # the layout typesets pages with math
    copied = re.findall(r'<img alt="(dot|att)" src="(/docs/tutorials/outputs/[0-9a-f]{16}\.png)"', html)
    assert [alt for alt, _ in copied] == ["dot", "att"]
    for _, src in copied:
        assert (outputs_site / "_site" / src.lstrip("/")).read_bytes() == PNG


def test_untrusted_outputs_are_sanitized(outputs_site):
    html = without_code(page(outputs_site, "outputs"))
    for bad in ('alert("html")', "alert(2)", "alert(3)", "onerror", "javascript:", "alert(7)", "alert(8)"):
        assert bad not in html, bad
    assert "a JavaScript output, not run" in html
    svg = next((outputs_site / TUTORIALS / "outputs").glob("*.svg")).read_text()
    assert "<circle" in svg
    for bad in ("alert", "script", "onload", "javascript"):
        assert bad not in svg, bad


def test_long_output_is_truncated_with_a_note(outputs_site):
    html = page(outputs_site, "outputs")
    assert "x" * 1000 + "</pre>" in html and "x" * 1001 not in html
    assert "output truncated: the first 1,000 of 3,001 characters are shown" in html


def test_colab_setup_cell_is_neither_run_nor_shown(outputs_site):
    html = page(outputs_site, "outputs")
    assert "something-only-colab-has" not in html and "%%shell" not in html
    executed = nbformat.read(outputs_site / TUTORIALS / "outputs.ipynb", as_version=4)
    assert executed.cells[0].source.startswith("%%shell") and executed.cells[0].outputs == []


def test_allowed_errors_are_shown_and_the_run_goes_on(outputs_site):
    html = page(outputs_site, "allowed")
    assert "NameError" in html and "undefined_name" in html
    assert '<pre class="nb-output nb-stream nb-stdout">still running\n</pre>' in html


def test_downloads_are_valid_and_round_trip(outputs_site):
    for slug, script in (("outputs", None), ("allowed", ALLOWED)):
        executed = nbformat.read(outputs_site / TUTORIALS / f"{slug}.ipynb", as_version=4)
        nbformat.validate(executed)
        assert any(cell.get("outputs") for cell in executed.cells)
        text = (outputs_site / TUTORIALS / f"{slug}.py").read_text()
        again, _ = read_script(text, Path(f"{slug}.py"))
        assert [(c.cell_type, c.source) for c in again.cells] == \
               [(c.cell_type, c.source.strip("\n")) for c in executed.cells]
        if script:
            assert text == script
    html = page(outputs_site, "outputs")
    assert 'href="/docs/tutorials/outputs.ipynb" download' in html
    assert 'href="/docs/tutorials/outputs.py" download' in html


def test_pages_are_valid_html_and_linked_from_the_gallery(outputs_site):
    out = outputs_site / "_site"
    assert_html5_parses(out)
    assert_internal_links_and_anchors(out)
    gallery = (out / "docs/tutorials/index.html").read_text()
    assert 'href="/docs/tutorials/outputs.html">Every output</a>' in gallery
    assert 'href="/docs/tutorials/allowed.html">Errors allowed</a>' in gallery
    assert "https://example.org/docs/tutorials/outputs.html" in (out / "sitemap.txt").read_text()


def test_a_copied_cache_is_reused_and_trust_and_baseurl_change_only_the_rendering(outputs_site, tmp_path):
    other = tmp_path / "elsewhere"
    shutil.copytree(outputs_site, other, ignore=shutil.ignore_patterns("_site"))
    with open(other / "site.yaml", "a") as f:
        f.write("  trusted: true\nbaseurl: /tvm\n")
    result = build(other, NOW)
    assert (result.reports["docs"].tutorials.ran, result.reports["docs"].tutorials.cached) == (0, 2)
    html = without_code(page(other, "outputs"))
    assert "<script>alert(8)</script>" in html and '<script>alert("html")</script>' in html
    images = re.findall(r'<img (?:alt="[^"]*" )?src="([^"]*/outputs/[^"]+)"', html)
    assert len(images) == 5 and all(src.startswith("/tvm/docs/tutorials/outputs/") for src in images)
    assert 'href="/tvm/docs/tutorials/outputs.ipynb"' in html


# -- the cache: what runs again and what does not ----------------------------------------

@pytest.fixture(scope="module")
def cached_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("cache")
    log = root / "runs.log"
    counted = notebook(new_markdown_cell("# Counted\n\nFirst words."),
                       new_code_cell(logged(log, "counted") + "\nprint(open('data.txt').read())"),
                       reads=["data.txt"])
    other = f"# %% [markdown]\n# # Other\n\n# %%\n{logged(log, 'other')}\n"
    site = make_site(root / "site", "workers: 2", **{"counted.ipynb": counted, "other.py": other})
    (site / "notebooks" / "data.txt").write_text("data version 1")
    return site, log, counted


def test_cache_hits_and_misses(cached_site, capsys):
    site, log, counted = cached_site

    def rebuild(options=NOW):
        result = build(site, options).reports["docs"].tutorials
        return result.ran, result.cached

    assert rebuild() == (2, 0) and sorted(runs(log)) == ["counted", "other"]
    assert "data version 1" in page(site, "counted")
    progress = capsys.readouterr().err
    assert "notebooks: running 2 tutorials, 2 at a time" in progress
    assert re.search(r"\[\d/2\] notebooks/counted.ipynb: ran in \d+\.\d\d s", progress)

    assert rebuild() == (0, 2) and len(runs(log)) == 2                 # nothing changed: nothing runs

    counted.cells[0].source = "# Counted\n\nOther words."                # Markdown: re-rendered only
    write(site, "counted.ipynb", counted)
    assert rebuild() == (0, 2) and "Other words." in page(site, "counted")

    for n, cell in enumerate(counted.cells):                            # ids, display tags, metadata
        cell.id = f"renamed-{n}"
    counted.cells[1].metadata.update(tags=["hide-input"], collapsed=True)
    counted.metadata.sitegen.title = "Counted, renamed"
    write(site, "counted.ipynb", counted)
    assert rebuild() == (0, 2) and ">Counted, renamed</h1>" in page(site, "counted")
    assert len(runs(log)) == 2

    counted.cells[1].source += "\nprint('edited')"                      # code: that notebook only
    write(site, "counted.ipynb", counted)
    assert rebuild() == (1, 1) and runs(log)[2:] == ["counted"]

    (site / "notebooks" / "data.txt").write_text("data version 2")      # a file it declares it reads
    assert rebuild() == (1, 1) and runs(log)[3:] == ["counted"]
    assert "data version 2" in page(site, "counted")

    assert rebuild(REFRESH) == (2, 0) and len(runs(log)) == 6           # --refresh runs everything

    assert main(["-C", str(site), "build"]) == 0
    assert "0 notebooks ran, 2 from cache" in capsys.readouterr().out
    assert len(runs(log)) == 6


def test_cache_is_a_plain_folder_of_json(cached_site):
    site, _, _ = cached_site
    build(site, NOW)     # from the cache if test_cache_hits_and_misses ran: this test may run alone
    entries = sorted((site / ".sitegen/cache/notebooks").rglob("*.json"))
    assert entries
    for entry in entries:
        record = entry.read_text()
        assert '"host"' in record and '"started"' in record and entry.stem in record


# -- failures ---------------------------------------------------------------------------

TIMEOUT = """# ---
# sitegen:
#   timeout: 2
# ---

# %% [markdown]
# # Slow

# %%
import time
time.sleep(60)
"""
DYING = notebook(new_markdown_cell("# Dies"), new_code_cell("import os\nos._exit(3)"))


def test_failures_name_notebook_cell_source_and_traceback_and_keep_the_old_site(tmp_path):
    log = tmp_path / "runs.log"
    failing = notebook(
        new_markdown_cell("# Broken"),
        new_code_cell(logged(log, "failing") + "\nx = 1"),
        new_code_cell("y = x + 1\n# a comment\nz = y / 0\nline4 = 4\nline5 = 5\nline6 = 6"),
    )
    site = make_site(tmp_path / "site")
    build(site, NOW)
    before = snapshot(site / "_site")
    for name, content in (("failing.ipynb", failing), ("slow.py", TIMEOUT), ("dies.ipynb", DYING)):
        write(site, name, content)

    with pytest.raises(SiteError) as error:
        build(site, NOW)
    message = str(error.value)
    assert error.value.path == "notebooks/dies.ipynb"           # the first in name order, in full
    assert "the kernel died while running cell 2" in message
    assert "notebooks/failing.ipynb: cell 3 raised ZeroDivisionError: division by zero" in message
    assert "    | y = x + 1\n    | # a comment\n    | z = y / 0\n    | line4 = 4\n    | line5 = 5\n" \
           "    | ... (1 more lines)" in message
    assert "Traceback" in message and "----> 3 z = y / 0" in message and "\x1b[" not in message
    assert "notebooks/slow.py:9: cell 2 timed out: the cell ran longer than its timeout of 2 s" in message
    assert snapshot(site / "_site") == before
    assert runs(log) == ["failing"]

    with pytest.raises(SiteError) as again:                      # cached: reported, not run again
        build(site, NOW)
    assert "cell 3 raised ZeroDivisionError" in str(again.value)
    assert "it is reported without running again" in str(again.value)
    assert runs(log) == ["failing"]
    assert main(["-C", str(site), "build"]) == 1


def test_markdown_images_come_only_from_inside_the_tutorials_folder(tmp_path):
    site = make_site(tmp_path / "site")
    (tmp_path / "secret.png").write_bytes(PNG)
    (site / "notebooks" / "link.png").symlink_to(tmp_path / "secret.png")
    write(site, "pictures.ipynb", notebook(new_markdown_cell("# Pictures"), new_markdown_cell("![s](link.png)")))
    with pytest.raises(SiteError) as error:   # the link out of the site is refused first, by name
        build(site, NOW)
    assert error.value.path == "notebooks/link.png" and "outside the site" in error.value.message
    with open(site / "site.yaml", "a") as config:   # links allowed: the tutorial still may not show it
        config.write("allow_symlinks_outside: true\n")
    for target in ("link.png", "../../secret.png"):
        write(site, "pictures.ipynb", notebook(new_markdown_cell("# Pictures"),
                                               new_markdown_cell(f"Look: ![secret]({target})")))
        with pytest.raises(SiteError) as error:
            build(site, NOW)
        assert error.value.path == "notebooks/pictures.ipynb"
        assert f"cell 2: image {target!r} is not a file inside the tutorial's folder" in error.value.message
    assert not (site / "_site").exists()


def test_markdown_images_are_never_dot_files_of_the_tutorials_folder(tmp_path):
    site = make_site(tmp_path / "site")
    (site / "notebooks/.private").mkdir()
    (site / "notebooks/.private/key.png").write_bytes(PNG)
    write(site, "pictures.ipynb", notebook(new_markdown_cell("# Pictures"),
                                           new_markdown_cell("![k](.private/key.png)")))
    with pytest.raises(SiteError) as error:
        build(site, NOW)
    assert error.value.path == "notebooks/pictures.ipynb"
    assert "cell 2: image '.private/key.png' is not a file inside the tutorial's folder" in error.value.message


# -- requirements: the seed notebook needs TVM and CUDA -------------------------------------

def seed_site(root: Path, shared: Path, settings: str = "") -> Path:
    """A site with the shared seed notebook, declaring what it needs (read in place, never copied)."""
    if _importable("tvm"):
        pytest.skip("tvm is installed here: the seed would run")
    seed = nbformat.read(shared / "seeds" / "scan_and_recurrent_kernel.ipynb", as_version=4)
    seed.metadata["sitegen"] = {"requires": ["tvm"], "device": "cuda"}
    return make_site(root, settings, **{"scan_and_recurrent_kernel.ipynb": seed})


def _importable(name: str) -> bool:
    import importlib.util
    return importlib.util.find_spec(name) is not None


def test_missing_requirement_fails_naming_what_is_missing(tmp_path, shared):
    site = seed_site(tmp_path / "site", shared)
    with pytest.raises(SiteError) as error:
        build(site, NOW)
    assert error.value.path == "notebooks/scan_and_recurrent_kernel.ipynb"
    assert "needs module tvm" in error.value.message
    assert "no run of this code is cached" in error.value.message
    assert not (site / "_site" / "docs").exists()


def test_missing_requirement_renders_stored_outputs_when_allowed(tmp_path, shared):
    site = seed_site(tmp_path / "site", shared, "allow_unexecuted: true")
    result = build(site, NOW)
    assert (result.reports["docs"].tutorials.ran, result.reports["docs"].tutorials.unexecuted) == (0, 1)
    html = page(site, "scan_and_recurrent_kernel")
    assert '<h1 id="scan-and-recurrent-kernel"><span id="Scan-and-Recurrent-Kernel"></span>Scan and Recurrent Kernel</h1>' in html
    assert "Not executed" in html and "needs module tvm" in html
    assert "TVM supports a scan operator" in html and "nb-outputs" not in html


def test_missing_requirement_uses_a_run_from_another_machine(tmp_path, shared):
    from generator.configure import load_config
    from generator.notebooks.sources import load_tutorial
    from generator.notebooks.spec import metadata_of, resolve
    from generator.notebooks.store import Run, RunStore

    site = seed_site(tmp_path / "site", shared)
    # What a build on a machine with TVM and a GPU leaves in its cache folder.
    tutorial = load_tutorial(site, Path("notebooks/scan_and_recurrent_kernel.ipynb"))
    spec = resolve(tutorial, metadata_of(tutorial), load_config(site).notebooks)
    lowered = {"output_type": "stream", "name": "stdout", "text": "@main = primfn(X_1: handle)\n"}
    cells = [{"execution_count": n, "outputs": [lowered] if n == 4 else []}
             for n in range(1, len(spec.code) + 1)]
    RunStore(site / ".sitegen/cache").put(Run(spec.key, "gpu-builder-7", "2025-11-02T10:00:00+00:00", 12.5,
                                              "python3", {"name": "python"}, cells))
    for options in (NOW, REFRESH):            # --refresh cannot run it here either
        result = build(site, options)
        assert (result.reports["docs"].tutorials.ran, result.reports["docs"].tutorials.cached) == (0, 1)
    html = page(site, "scan_and_recurrent_kernel")
    assert "Outputs from another machine" in html
    assert "from its run on gpu-builder-7 at 2025-11-02T10:00:00+00:00" in html
    assert "@main = primfn(X_1: handle)" in html


def test_a_module_the_tutorials_import_and_excluded_files_are_no_tutorials(tmp_path: Path, capsys):
    """As jupytext and sphinx-gallery read no plain module as a notebook, ``utils.py`` beside the
    tutorials is what they import (the kernel runs in their folder), not a page; nor are the
    files site.yaml's ``notebooks.exclude`` matches. The build names the modules it left out."""
    site = make_site(tmp_path / "site", "exclude: [data]", **{
        "tour.py": "# %% [markdown]\n# # Tour\n\n# %%\nfrom utils import double\nprint(double(21))\n",
        "utils.py": '"""Numbers the tutorials share."""\n\n\ndef double(x):\n    return 2 * x\n'})
    (site / "notebooks/data").mkdir()
    write(site, "data/scratch.ipynb", notebook(new_markdown_cell("# Scratch")))
    assert main(["-C", str(site), "build"]) == 0
    assert "notebooks: not tutorials but modules they may import (no '# %%' cells, no sphinx-gallery " \
           "title): utils.py" in capsys.readouterr().err
    assert sorted(path.relative_to(site / TUTORIALS).as_posix() for path in (site / TUTORIALS).rglob("*.html")) \
        == ["index.html", "tour.html"]
    assert "42" in page(site, "tour")
