"""A corpus of notebooks made by real libraries in a real kernel (tests/notebook_corpus.py), as a site.

Every page must pass ``sitegen check`` with the Nu Html Checker on, load in
Chromium with no console error, failed or third-party request, and show every
output its published notebook holds, counted per kind: the ``.ipynb`` beside
each page is what was rendered (saved outputs, or those of the run made here).
No script of the hostile notebook runs; built as trusted, as the control, they do.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import nbformat
import pytest

from generator.build import BuildOptions, build
from generator.check import check_site
from generator.configure import load_config
from generator.notebooks.sources import slug_of
from notebook_corpus import make_corpus_site, notebooks, output_kinds, write_corpus
from notebook_parity import compare
from test_versions import serve

NOW = BuildOptions(now=datetime(2026, 1, 1, tzinfo=timezone.utc))
TUTORIALS = Path("_site/docs/tutorials")
REQUIRED = {"text", "stream", "error", "html", "png", "jpeg", "gif", "svg", "latex", "markdown", "json", "widget",
            "widget without state", "javascript", "attachment"}

# What the page shows for each kind of output (classes from templates/notebook/output.html).
SHOWN = {
    "stream": r'<pre class="nb-output nb-stream',
    "error": r'<pre class="nb-output nb-error"',
    "text": r'<pre class="nb-output nb-text"',
    "json": r'<pre class="nb-output nb-json"',
    "html": r'<div class="nb-output nb-html"(?: id="[^"]+")?>|text/html output of [\d,]+ characters, over the limit',
    "markdown": r'<div class="nb-output nb-html nb-markdown-output"(?: id="[^"]+")?>',
    "latex": r'<div class="nb-output nb-latex',
    "widget": r'<div class="nb-output nb-widget">',
    "widget without state": r'<p class="nb-note">an interactive widget, not shown',
    "javascript": r'<p class="nb-note">a JavaScript output, not run',
    # an image, or the note that says why its data could not be one (notebooks.problems: warn)
    "png": r'<div class="nb-output nb-image"><img src="[^"]+\.png"|Not shown: output \d+: its image/png ',
    "jpeg": r'<div class="nb-output nb-image"><img src="[^"]+\.jpg"|Not shown: output \d+: its image/jpeg ',
    "svg": r'<div class="nb-output nb-image"><img src="[^"]+\.svg"|Not shown: output \d+: its image/svg',
    "gif": r'<div class="nb-output nb-image"><img src="[^"]+\.gif"|Not shown: output \d+: its image/gif ',
}


@pytest.fixture(scope="session")
def corpus(tmp_path_factory) -> list[Path]:
    """The corpus's notebooks, made once per session (a real kernel runs most of them)."""
    return write_corpus(tmp_path_factory.mktemp("corpus-notebooks"))


@pytest.fixture(scope="module")
def corpus_site(tmp_path_factory, corpus) -> Path:
    site = make_corpus_site(tmp_path_factory.mktemp("corpus") / "site", corpus)
    result = build(site, NOW).reports["docs"].tutorials
    assert (result.ran, result.unexecuted, result.stored) == (1, 1, len(notebooks()) - 2)
    return site


def published(site: Path, name: str) -> tuple[str, Path]:
    """The page of a corpus notebook and its published ``.ipynb``."""
    slug = slug_of(Path("notebooks") / name)
    return (site / TUTORIALS / f"{slug}.html").read_text(), site / TUTORIALS / f"{slug}.ipynb"


def test_the_corpus_covers_every_kind_both_formats_and_ansi_tracebacks(corpus):
    kinds = sum((output_kinds(path) for path in corpus), Counter())
    assert REQUIRED <= set(kinds)
    versions = Counter(nbformat.reads(path.read_text(), as_version=nbformat.NO_CONVERT).nbformat
                       for path in corpus)
    assert versions[3] >= 1 and versions[4] >= 10
    assert any("\\u001b[" in path.read_text() and '"output_type": "error"' in path.read_text()
               for path in corpus)


@pytest.mark.parametrize("name", notebooks())
def test_every_output_is_on_the_page(corpus_site, name):
    html, ipynb = published(corpus_site, name)
    expected = output_kinds(ipynb)
    shown = Counter({kind: len(re.findall(pattern, html)) for kind, pattern in SHOWN.items()})
    markdown = re.findall(r'<div class="nb-cell nb-markdown"[^>]*>(?:(?!<div class="nb-cell).)*', html, re.S)
    shown["attachment"] = expected["attachment"] and sum(
        len(re.findall(r'<img [^>]*src="[^"]*/[0-9a-f]{16}\.', cell)) for cell in markdown)
    assert {k: shown[k] for k in expected} == dict(expected)


# Where a page deliberately parts from what Jupyter shows (nbconvert's lab template), by notebook
# and cell: the kind of the first difference, and why.
DIFFERENT_FROM_JUPYTER = {
    # nbconvert's Markdown reads \( \) as escaped brackets; JupyterLab typesets them, as sitegen does
    ("math-forms.ipynb", 3): "markdown: math",
    # JupyterLab shows a GIF and JSON (in its tree viewer); nbconvert has no view of either: their text
    ("rich-display.ipynb", 6): "output: gif for jupyter's plain",
    ("rich-display.ipynb", 11): "output: json for jupyter's plain",
    ("custom-reprs.ipynb", 3): "output: json for jupyter's plain",
    # the site does not trust outputs: no script of theirs runs, a named note says so
    ("rich-display.ipynb", 12): "output: note for jupyter's javascript",
    ("hostile.ipynb", 1): "markdown: heading",      # its title's <script> is text in the page's h1
    ("hostile.ipynb", 2): "output html: script",
}


def test_every_cell_is_as_jupyter_shows_it_but_the_known_differences(corpus_site):
    """Each page's cells against nbconvert's rendering of the notebook published beside it:
    inputs, outputs and Markdown as element trees (tests/notebook_parity.py)."""
    found, compared = {}, 0
    for name in notebooks():
        _, ipynb = published(corpus_site, name)
        for cell in compare(ipynb, ipynb.with_suffix(".html")):
            compared += 1
            if cell.difference:
                found[(name, cell.number)] = cell.what
    assert compared >= 70
    assert found == DIFFERENT_FROM_JUPYTER


def test_the_executed_and_unexecuted_notebooks_say_how_their_outputs_came(corpus_site):
    other, _ = published(corpus_site, "other-kernel.ipynb")
    assert "Not executed" in other and "needs kernel ir" in other
    saved, _ = published(corpus_site, "symbols.ipynb")
    assert "Not executed" in saved and "execute: never" in saved
    ran, _ = published(corpus_site, "custom-reprs.ipynb")
    assert "Not executed" not in ran and "Running time of this tutorial" in ran


def test_the_corpus_site_passes_sitegen_check_with_the_html_checker(corpus_site):
    config = load_config(corpus_site)
    assert config.check.html
    report = check_site(config)
    assert [str(finding) for finding in report.findings] == []
    # Markup the checker finds invalid comes only from the hostile notebook's own (a bad width...).
    assert {warning.page for warning in report.warnings} == {"docs/tutorials/hostile.html"}


# -- in Chromium -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def served(corpus_site) -> Iterator[str]:
    with serve(corpus_site / "_site") as base:
        yield base


@pytest.fixture(scope="module")
def chromium():
    from test_browser import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.mark.parametrize("name", notebooks())
def test_every_page_in_chromium_without_errors_with_math_and_widgets_drawn(corpus_site, served, chromium, name):
    from test_browser import DESKTOP, Watched

    html, _ = published(corpus_site, name)
    slug = slug_of(Path("notebooks") / name)
    watched = Watched(chromium, served, **DESKTOP)
    try:
        page = watched.open(f"{served}/docs/tutorials/{slug}.html")
        views = html.count('<div class="nb-output nb-widget">')
        if views:
            page.wait_for_function(
                f"document.querySelectorAll('.nb-widget .widget-subarea > *').length >= {views}", timeout=20_000)
        drawn = page.locator(".nb-widget .widget-subarea > *").count()
        formulas = page.locator(".nb-latex.arithmatex").count()
        typeset = page.locator(".nb-latex.arithmatex > .katex-display, .nb-latex.arithmatex > .katex").count()
        aligned = page.locator(".nb-html td").evaluate_all(
            "cells => cells.map(c => getComputedStyle(c).textAlign)")
        page.wait_for_timeout(200)                  # late errors (widget views settling)
    finally:
        watched.close()
    assert watched.problems == []
    assert drawn == views
    assert typeset == formulas
    assert set(aligned) <= {"right"}                # tables in outputs, as Jupyter draws them


def scripts_that_ran(chromium, url: str) -> list[str]:
    """What a page's notebook scripts reported of themselves: dialogs, console messages, its title."""
    page = chromium.new_page()
    ran: list[str] = []
    page.on("dialog", lambda dialog: (ran.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    page.on("console", lambda message: "ran:" in message.text and ran.append(message.text))
    try:
        page.goto(url, wait_until="load")
        page.locator("details summary").first.click()
        page.wait_for_timeout(300)
        title = page.title()
    finally:
        page.close()
    return ran + [f"title: {title}"] * title.startswith("ran:")


def test_no_script_of_the_hostile_notebook_runs_unless_it_is_trusted(tmp_path, corpus, served, chromium):
    assert scripts_that_ran(chromium, f"{served}/docs/tutorials/hostile.html") == []
    control = make_corpus_site(tmp_path / "trusted", [path for path in corpus if path.name == "hostile.ipynb"])
    settings = control / "site.yaml"
    settings.write_text(settings.read_text().replace("notebooks:\n", "notebooks:\n  trusted: true\n", 1))
    build(control, NOW)
    with serve(control / "_site") as base:
        assert scripts_that_ran(chromium, f"{base}/docs/tutorials/hostile.html") != []


def test_a_cell_of_a_type_from_a_later_nbformat_is_left_out_with_a_warning(tmp_path):
    from test_notebooks import make_site

    later = {"nbformat": 4, "nbformat_minor": 99, "metadata": {}, "cells": [     # a later minor version
        {"id": "title", "cell_type": "markdown", "metadata": {}, "source": "# Later"},
        {"id": "vote", "cell_type": "poll", "metadata": {}}]}
    nbformat.validate(nbformat.from_dict(later))     # nbformat admits it (its own test4plus.ipynb has one)
    site = make_site(tmp_path / "site", "execute: never")
    (site / "notebooks" / "later.ipynb").write_text(json.dumps(later))
    assert build(site, NOW).warnings == [
        "notebooks/later.ipynb: warning: cell 2: a cell of type 'poll', which this site cannot show: left out"]
