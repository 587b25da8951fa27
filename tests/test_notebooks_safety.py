"""Notebooks rendered safely and completely: hostile cells, broken outputs, Jupyter's math,
ids and links, checked in the built files, by the site's own check (with the Nu Html Checker)
and in Chromium (Playwright), where a script that runs would open a dialog or log a message.

Each site is built once per module by a real kernel; the tests read that build.
"""

from __future__ import annotations

import base64
import json
import re
from collections import Counter
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell
from playwright.sync_api import Browser

from generator.build import build, render_site
from generator.check import check_site
from generator.configure import load_config
from generator.errors import SiteError
from generator.render import DEFAULT_THEME
from generator.notebooks.formulas import KATEX_ENVIRONMENTS, defined_commands, for_katex, unknown_commands
from generator.notebooks.katex_commands import KATEX_COMMANDS
from generator.serve import Preview
from notebook_corpus import math_forms
from site_checks import assert_html5_parses, assert_internal_links_and_anchors
from test_browser import browser  # noqa: F401 - a fixture
from test_notebooks import NOW, PNG, TUTORIALS, make_site, notebook, page, without_code
from test_notebooks_sources import NBFORMAT_3

REPO = Path(__file__).resolve().parents[1]

# Every payload reports itself twice: a dialog and a console message, both watched in Chromium.
RUN = "alert('{0}'),console.log('ran:{0}')"
EVIL_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8" onload="{0}">'
            '<script>{1}</script><circle cx="4" cy="4" r="3"/></svg>').format(RUN.format("svg onload"),
                                                                           RUN.format("svg script"))
HOSTILE_CELL = f"""# Hostile cells

<script>{RUN.format("script")}</script>

<img src="pictures/single.png" onerror="{RUN.format("onerror")}" alt="handler">

A [Markdown link](javascript:alert(document.domain)) and
<a href="javascript:{RUN.format("html link")}">an HTML one</a> and
<a href="data:text/html,<script>{RUN.format("data link")}</script>">a data one</a>.

<svg><script>{RUN.format("inline svg")}</script></svg>
<iframe srcdoc="<script>{RUN.format("iframe")}</script>"></iframe>
<details open ontoggle="{RUN.format("ontoggle")}"><summary>Details</summary>Inside.</details>
<form action="javascript:{RUN.format("form")}"><button>Go</button></form>
<style>body {{ display: none }}</style>
<math><mi xlink:href="javascript:{RUN.format("mathml")}">x</mi></math>

![an attached SVG](attachment:evil.svg)

<img src="data:image/svg+xml;base64,{base64.b64encode(EVIL_SVG.encode()).decode()}" alt="data SVG">
"""
HOSTILE = notebook(new_markdown_cell(HOSTILE_CELL))
HOSTILE.cells[0].attachments = {"evil.svg": {"image/svg+xml": EVIL_SVG}}
TRUSTED = notebook(new_markdown_cell("# Trusted\n\n<script>document.title = 'trusted ran'</script>"))

LINKS = notebook(
    new_markdown_cell("# Links and pictures\n\nSee [the other tutorial](other.ipynb), "
                      "[its examples](other.ipynb#NumPy-and-Matplotlib-examples) and "
                      "[a section here](#Results-and-more) or [the top](#Links-and-pictures)."),
    new_markdown_cell("## Results and more\n\nA claim[^1].\n\n[^1]: Its source."),
    new_markdown_cell("## Results and more\n\nAnother claim[^1].\n\n[^1]: Another source.\n\n"
                      "<img src='pictures/single.png' alt='single quotes'> "
                      "<img src=pictures/bare.png alt=unquoted> ![attached](attachment:dot.png) "
                      '<img src="data:image/png;base64,' + base64.b64encode(PNG).decode() + '" alt="data"> '
                      "[the picture, full size](pictures/single.png)"),
    new_markdown_cell("## main\n\nA heading whose id the page's layout already uses."),
)
LINKS.cells[2].attachments = {"dot.png": {"image/png": base64.b64encode(PNG).decode()}}
# The forms IPython's own "Rich Output" documentation displays, as outputs.
MAXWELL = r"""\begin{eqnarray}
\nabla \times \vec{\mathbf{B}} &=& \frac{4\pi}{c}\vec{\mathbf{j}} \\
\nabla \cdot \vec{\mathbf{B}} &=& 0
\end{eqnarray}"""
MATH_OUTPUTS = notebook(
    new_markdown_cell("# Math in outputs"),
    new_code_cell("from IPython.display import Latex, Markdown, display\n"
                  f"display(Latex({MAXWELL!r}))\n"
                  "display(Markdown(r'Inline: $\\begin{align} x &= 1 \\end{align}$'))"),
)
OTHER = notebook(new_markdown_cell("# Other\n\n## NumPy and Matplotlib examples\n\nText."))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    site = make_site(tmp_path_factory.mktemp("safety") / "site", "trusted: [trusted.ipynb]",
                     **{"hostile.ipynb": HOSTILE, "trusted.ipynb": TRUSTED, "links.ipynb": LINKS,
                        "other.ipynb": OTHER, "math_outputs.ipynb": MATH_OUTPUTS})
    nbformat.write(math_forms(), site / "notebooks" / "math.ipynb")
    (site / "notebooks" / "old.ipynb").write_text(json.dumps(NBFORMAT_3))
    (site / "notebooks" / "pictures").mkdir()
    for name in ("single.png", "bare.png"):
        (site / "notebooks" / "pictures" / name).write_bytes(PNG)
    build(site, NOW)
    return site


class Ids(HTMLParser):
    def __init__(self, text: str):
        super().__init__()
        self.ids: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.ids += [value for name, value in attrs if name == "id"]


# -- 1. Markdown cells and attachments are sanitized unless the notebook is trusted ----------

def test_hostile_markdown_loses_every_script_handler_and_script_url(site):
    html = without_code(page(site, "hostile"))
    assert "ran:" not in html and "alert(" not in html
    for bad in ("onerror", "ontoggle", "onload", "javascript:", "data:text", "<iframe", "<style",
                "<form", "srcdoc"):
        assert bad not in html, bad
    scripts = re.findall(r"<script\b[^>]*>", html)
    assert all(re.search(r'src="/assets/', tag) for tag in scripts), scripts     # the site's own, if any
    assert "Inside." in html and 'alt="handler"' in html             # the harmless parts stay


def test_svg_attachments_and_data_images_are_cleaned_files(site):
    html = page(site, "hostile")
    svgs = re.findall(r'<img (?:alt="[^"]*" )?src="(/docs/tutorials/hostile/[0-9a-f]{16}\.svg)"', html)
    assert len(svgs) == 2 and "data:image" not in html
    for src in svgs:
        svg = (site / "_site" / src.lstrip("/")).read_text()
        assert "<circle" in svg and "script" not in svg and "onload" not in svg and "ran:" not in svg


def test_a_notebook_named_trusted_is_shown_as_it_is_and_only_that_one(site):
    assert "<script>document.title = 'trusted ran'</script>" in page(site, "trusted")
    assert "<script>" not in without_code(page(site, "hostile"))


@pytest.mark.parametrize("name", ["missing.ipynb", "./there.ipynb", "../notebooks/there.ipynb"])
def test_trusted_names_must_be_tutorials_as_named_in_notebooks(tmp_path, name):
    site = make_site(tmp_path / "site", f"trusted: [there.ipynb, {name!r}]", **{"there.ipynb": TRUSTED})
    with pytest.raises(SiteError) as error:
        load_config(site)
    assert error.value.path.endswith("site.yaml")
    assert f"key 'notebooks.trusted[1]': no tutorial notebooks/{name}" in error.value.message


# -- 4. ids unique, title linkable, Jupyter anchors, sibling links, every image form ------------

def test_ids_are_unique_on_each_page_and_the_title_is_linkable(site):
    for slug in ("links", "hostile", "math", "other"):
        ids = Ids(page(site, slug)).ids
        assert [i for i, n in Counter(ids).items() if n > 1] == [], slug
    html = page(site, "links")
    assert '<h1 id="links-and-pictures"><span id="Links-and-pictures"></span>Links and pictures</h1>' in html
    assert '<h2 id="results-and-more"><span id="Results-and-more"></span>Results and more</h2>' in html
    assert '<h2 id="results-and-more-1">Results and more</h2>' in html
    assert '<h2 id="main-1"><span id="main"></span>' not in html and '<h2 id="main-1">main</h2>' in html
    # Each cell's footnote links follow their own footnote's new id.
    assert re.search(r'<li id="fn:1">\s*<p>Its source', html)
    assert re.search(r'<li id="fn:1-1">\s*<p>Another source.*?href="#fnref:1-1"', html, re.S)
    assert 'href="#fn:1-1"' in html


def test_links_to_sibling_notebooks_go_to_their_pages_and_jupyter_anchors_resolve(site):
    html = page(site, "links")
    assert 'href="/docs/tutorials/other.html"' in html
    assert 'href="/docs/tutorials/other.html#NumPy-and-Matplotlib-examples"' in html
    assert '<span id="NumPy-and-Matplotlib-examples"></span>' in page(site, "other")
    assert 'href="#Results-and-more"' in html and 'href="#Links-and-pictures"' in html


def test_every_local_image_form_is_copied(site):
    html = page(site, "links")
    for alt in ("single quotes", "unquoted", "attached", "data"):
        src = re.search(rf'<img (?:[^>]*\s)?src="(/docs/tutorials/links/[0-9a-f]{{16}}\.png)"[^>]*alt="{alt}"'
                        rf'|<img alt="{alt}" src="(/docs/tutorials/links/[0-9a-f]{{16}}\.png)"', html)
        assert src, alt
        assert (site / "_site" / (src.group(1) or src.group(2)).lstrip("/")).read_bytes() == PNG
    linked = re.search(r'<a href="(/docs/tutorials/links/[0-9a-f]{16}\.png)">the picture, full size</a>', html)
    assert linked and (site / "_site" / linked.group(1).lstrip("/")).read_bytes() == PNG
    assert "pictures/" not in without_code(html)


def test_the_pages_pass_sitegens_own_check_with_the_html_checker(site):
    out = site / "_site"
    assert_html5_parses(out)
    assert_internal_links_and_anchors(out)
    report = check_site(load_config(site, check={"html": True}))
    assert report.findings == [], report.findings


# -- 7. deterministic output ----------------------------------------------------------------------

def test_every_build_makes_the_same_bytes_for_notebooks_of_every_format(site):
    first, second = (render_site(load_config(site), NOW).outputs for _ in range(2))
    tutorials = {name for name in first if name.startswith("docs/tutorials/")}
    assert {"docs/tutorials/old.ipynb", "docs/tutorials/math.ipynb"} <= tutorials
    assert {name: first[name] for name in tutorials} == {name: second[name] for name in tutorials}
    assert first["docs/tutorials/old.ipynb"] == (site / TUTORIALS / "old.ipynb").read_bytes()


# -- 3. math as Jupyter means it -------------------------------------------------------------

@pytest.mark.parametrize("tex, display, expected", [
    (r"\begin{align} a &= b \end{align}", False, (r"\begin{align} a &= b \end{align}", True, [])),
    (r"\begin{equation*} x \end{equation*}", False, (r"\begin{equation*} x \end{equation*}", True, [])),
    (r"\begin{eqnarray} x &=& y \end{eqnarray}", True, (r"\begin{align*} x &=& y \end{align*}", True, [])),
    (r"\begin{eqnarray*} x \end{eqnarray*}", False, (r"\begin{align*} x \end{align*}", True, [])),
    (r"\begin{multline} a \\ b \end{multline}", True, (r"\begin{gather*} a \\ b \end{gather*}", True, [])),
    (r"x \label{eq:one} = 1", True, (r"x  = 1", True, [])),
    (r"\require{cancel} x", False, (r" x", False, [])),
    (r"\begin{pmatrix} 1 \end{pmatrix}", False, (r"\begin{pmatrix} 1 \end{pmatrix}", False, [])),
    (r"\begin{tikzpicture} \end{tikzpicture}", False,
     (r"\begin{tikzpicture} \end{tikzpicture}", False, ["tikzpicture"])),
])
def test_formulas_are_rewritten_for_katex(tex, display, expected):
    assert for_katex(tex, display) == expected


def test_the_environment_and_command_lists_are_those_of_the_vendored_katex():
    script = (DEFAULT_THEME / "assets/vendor/katex/katex.min.js").read_text()
    defined = set()
    for names in re.findall(r'names:\[("[A-Za-z*]+"(?:,"[A-Za-z*]+")*)\]', script):
        defined |= set(json.loads(f"[{names}]"))
    assert defined == KATEX_ENVIRONMENTS
    literals = re.findall(r'"\\\\([A-Za-z@]+)\*?"|\'\\\\([A-Za-z@]+)\*?\'', script)
    assert {a or b for a, b in literals} == KATEX_COMMANDS
    assert {"frac", "mathbb", "operatorname", "newcommand", "R"} <= KATEX_COMMANDS


def test_unknown_commands_are_those_neither_katex_nor_the_notebook_defines():
    macros = defined_commands([r"$\newcommand{\RR}{\mathbb{R}}$ and $\def\half{\frac12}$", "no math"])
    assert macros == {"RR", "half"}
    assert unknown_commands(r"x \in \RR, \half \\ \nosuch{y} \DeclareMathOperator", macros) == \
        ["DeclareMathOperator", "nosuch"]
    assert unknown_commands(r"a \\b \$ \{ \,") == []          # a line break before b, symbols


def test_a_formula_katex_cannot_take_is_source_with_a_warning(tmp_path):
    site = make_site(tmp_path / "site", **{"tikz.ipynb": notebook(
        new_markdown_cell("# Tikz\n\nA picture: $$\\begin{tikzpicture} \\draw (0,0); \\end{tikzpicture}$$"))})
    assert "notebooks/tikz.ipynb: warning: cell 1: KaTeX has no environment {tikzpicture}" \
           in "\n".join(build(site, NOW).warnings)
    assert re.search(r'<code class="math-source" title="[^"]*tikzpicture[^"]*">\\begin\{tikzpicture\}',
                     page(site, "tikz"))


# -- in Chromium --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def served(site) -> Iterator[str]:
    running = Preview(site, NOW, port=0).start()
    yield running.url.rstrip("/")
    running.stop()


def visit(browser: Browser, url: str) -> tuple[object, list[str]]:
    """Open ``url``; every dialog, console message and page error is recorded (dialogs dismissed)."""
    context = browser.new_context()
    page = context.new_page()
    events: list[str] = []
    page.on("dialog", lambda dialog: (events.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    page.on("console", lambda message: not message.location.get("url", "").endswith("/favicon.ico")
            and events.append(f"console {message.type}: {message.text}"))
    page.on("pageerror", lambda error: events.append(f"error: {error}"))
    response = page.goto(url, wait_until="load")
    assert response is not None and response.ok, url
    page.wait_for_timeout(300)
    return page, events


def test_no_script_of_a_hostile_notebook_runs_in_the_browser(browser, served, site):
    page, events = visit(browser, f"{served}/docs/tutorials/hostile.html")
    for link in page.locator("a").all():
        href = link.get_attribute("href") or ""
        assert not href.lower().startswith(("javascript:", "data:")), href
    page.locator("details summary").click()
    assert events == []
    live = page.evaluate("""() => ({
        scripts: [...document.scripts].map(s => s.src)     // the site's own and the preview's reload
            .filter(src => !src.includes("/assets/") && !src.includes("/__sitegen__/live.js")),
        handlers: [...document.querySelectorAll("*")].flatMap(
            el => [...el.attributes].map(a => a.name).filter(name => name.startsWith("on"))),
        frames: document.querySelectorAll("iframe, object, embed, frame").length,
    })""")
    assert live == {"scripts": [], "handlers": [], "frames": 0}
    for svg in sorted((site / TUTORIALS / "hostile").glob("*.svg")):     # opened at their own URL
        _, events = visit(browser, f"{served}/docs/tutorials/hostile/{svg.name}")
        assert events == [], svg.name
    page, events = visit(browser, f"{served}/docs/tutorials/trusted.html")   # the control: it does run
    assert page.title().startswith("trusted ran") and events == []


def test_every_form_of_math_jupyters_documentation_teaches_is_typeset(browser, served, site):
    page, events = visit(browser, f"{served}/docs/tutorials/math.html")
    assert events == []
    formulas = page.locator(".arithmatex").count()
    assert formulas == 17
    assert page.locator(".arithmatex .katex").count() == formulas
    assert page.locator(".katex-error").count() == 0 and page.locator(".math-source").count() == 0
    assert page.locator(".arithmatex .katex-display").count() == 7


def test_math_in_latex_and_markdown_outputs_is_typeset(browser, served, site):
    html = without_code(page(site, "math_outputs"))
    assert r"\begin{align*}" in html and "eqnarray" not in html
    shown, events = visit(browser, f"{served}/docs/tutorials/math_outputs.html")
    assert events == []
    assert shown.locator(".nb-outputs .katex-display").count() == 2
    assert shown.locator(".katex-error").count() == 0 and shown.locator(".math-source").count() == 0


def test_a_formula_katex_refuses_is_readable_source_in_the_browser(browser, tmp_path):
    site = make_site(tmp_path / "site", **{"bad.ipynb": notebook(
        new_markdown_cell("# Bad math\n\nAn unknown command: $\\nosuchcommand{x}$."),
        new_markdown_cell("Defined here $\\newcommand{\\RR}{\\mathbb{R}}$, used after: $x \\in \\RR$."))})
    assert build(site, NOW).warnings == ["notebooks/bad.ipynb: warning: cell 1: KaTeX does not know "
                                         "\\nosuchcommand: the formula is shown as its source"]
    running = Preview(site, NOW, port=0).start()
    try:
        page, events = visit(browser, f"{running.url.rstrip('/')}/docs/tutorials/bad.html")
    finally:
        running.stop()
    assert events == []
    source = page.locator(".arithmatex code.math-source")
    assert source.count() == 1 and source.text_content() == "\\nosuchcommand{x}"
    assert "nosuchcommand" in source.get_attribute("title")
    assert page.locator(".katex-error").count() == 0
    assert page.locator(".arithmatex .katex").count() == 2        # \RR, defined a cell before, works


# -- 2. a broken output is a problem of its cell ---------------------------------------------

BROKEN = notebook(
    new_markdown_cell("# Broken outputs\n\n![gone](pictures/gone.png)"),
    new_code_cell("from IPython.display import display\n"
                  "display({'image/png': 'not base64 at all!'}, raw=True)\n"
                  "display({'image/png': ''}, raw=True)\n"
                  "display({'image/jpeg': 'Z2FyYmFnZQ=='}, raw=True)\n"
                  "display({'image/svg+xml': '<svg><unclosed'}, raw=True)\n"
                  "print('still here')"),
)


def test_broken_outputs_and_a_missing_image_are_errors_naming_file_cell_and_output(tmp_path):
    site = make_site(tmp_path / "site", **{"broken.ipynb": BROKEN})
    with pytest.raises(SiteError) as error:
        build(site, NOW)
    assert error.value.path == "notebooks/broken.ipynb"
    lines = str(error.value).split("\n")
    assert lines[0] == ("notebooks/broken.ipynb: cell 1: image 'pictures/gone.png' is not a file inside the "
                        "tutorial's folder notebooks/ (symbolic links are followed), outside its dot-files (set "
                        "notebooks.problems: warn in site.yaml to show a note instead)")
    assert lines[1:] == [
        "  notebooks/broken.ipynb: cell 2: output 1: its image/png data is not valid base64",
        "  notebooks/broken.ipynb: cell 2: output 2: its image/png data is empty",
        "  notebooks/broken.ipynb: cell 2: output 3: its image/jpeg data is not a JPEG image",
        "  notebooks/broken.ipynb: cell 2: output 4: its image/svg+xml data is not well-formed SVG",
    ]
    assert not (site / "_site").exists()


def test_with_problems_warn_they_are_notes_on_the_page_and_no_image_file_is_broken(tmp_path):
    site = make_site(tmp_path / "site", "problems: warn", **{"broken.ipynb": BROKEN})
    err = "\n".join(build(site, NOW).warnings)
    assert "notebooks/broken.ipynb: warning: cell 2: output 1: its image/png data is not valid base64" in err
    assert "notebooks/broken.ipynb: warning: cell 1: image 'pictures/gone.png' is not a file" in err
    html = page(site, "broken")
    assert html.count('class="nb-note">Not shown: ') == 5
    assert "Not shown: output 3: its image/jpeg data is not a JPEG image." in html
    assert "still here" in html and "<img" not in without_code(html).split("<main", 1)[1]
    assert not (site / TUTORIALS / "broken").exists()
    assert [p for p in (site / "_site").rglob("*") if p.is_file() and p.stat().st_size == 0] == []
