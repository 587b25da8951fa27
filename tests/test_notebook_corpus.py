"""Real notebooks from public projects (tests/data/notebooks/real), built as a site.

Every page must pass ``sitegen check`` with the Nu Html Checker on, load in
Chromium with no console error, failed or third-party request, and show every
output its published notebook holds, counted per kind: the ``.ipynb`` beside
each page is what was rendered (saved outputs, or those of the run made here).
"""

from __future__ import annotations

import functools
import http.server
import re
import threading
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import nbformat
import pytest

from generator.build import BuildOptions, build
from generator.check import check_site
from generator.config import load_config
from generator.notebooks.sources import slug_of
from notebook_corpus import CORPUS, make_corpus_site, notebooks, output_kinds

NOW = BuildOptions(now=datetime(2026, 1, 1, tzinfo=timezone.utc))
TUTORIALS = Path("_site/docs/tutorials")
REQUIRED = {"text", "stream", "error", "html", "png", "jpeg", "svg", "latex", "markdown", "json", "widget",
            "attachment"}

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


@pytest.fixture(scope="module")
def corpus_site(tmp_path_factory) -> Path:
    site = make_corpus_site(tmp_path_factory.mktemp("corpus") / "site")
    result = build(site, NOW).reports["docs"].tutorials
    assert (result.ran, result.unexecuted, result.stored) == (1, 1, len(notebooks()) - 2)
    return site


def published(site: Path, source: Path) -> tuple[str, Path]:
    """The page of a corpus notebook and its published ``.ipynb``."""
    slug = slug_of(Path("notebooks") / source.name)
    return (site / TUTORIALS / f"{slug}.html").read_text(), site / TUTORIALS / f"{slug}.ipynb"


def test_the_corpus_is_real_licensed_and_covers_every_kind():
    sources = (CORPUS / "SOURCES.md").read_text()
    assert len(notebooks()) >= 15
    for path in notebooks():
        row = next(line for line in sources.splitlines() if line.startswith(f"| `{path.name}` |"))
        assert re.search(r"\| [0-9a-f]{40}", row) and re.search(r"\| (BSD-3-Clause|MIT) \|", row)
    kinds = sum((output_kinds(path) for path in notebooks()), Counter())
    assert REQUIRED <= set(kinds)
    versions = Counter(nbformat.reads(path.read_text(), as_version=nbformat.NO_CONVERT).nbformat
                       for path in notebooks())
    assert versions[3] >= 1 and versions[4] >= 14
    assert any("\\u001b[" in path.read_text() and '"output_type": "error"' in path.read_text()
               for path in notebooks())


@pytest.mark.parametrize("source", notebooks(), ids=lambda path: path.stem)
def test_every_output_is_on_the_page(corpus_site, source):
    html, ipynb = published(corpus_site, source)
    expected = output_kinds(ipynb)
    shown = Counter({kind: len(re.findall(pattern, html)) for kind, pattern in SHOWN.items()})
    shown["attachment"] = expected["attachment"] and len(re.findall(
        r'<div class="nb-cell nb-markdown"[^>]*>(?:(?!<div class="nb-cell).)*?<img [^>]*src="[^"]*/[0-9a-f]{16}\.',
        html, re.S))
    assert {k: shown[k] for k in expected} == dict(expected)


def test_the_executed_and_unexecuted_notebooks_say_how_their_outputs_came(corpus_site):
    demo, _ = published(corpus_site, CORPUS / "Demo.ipynb")
    assert "Not executed" in demo and "needs kernel ir" in demo
    saved, _ = published(corpus_site, CORPUS / "SymPy.ipynb")
    assert "Not executed" in saved and "execute: never" in saved
    ran, _ = published(corpus_site, CORPUS / "Custom Display Logic.ipynb")
    assert "Not executed" not in ran and "Running time of this tutorial" in ran


def test_the_corpus_site_passes_sitegen_check_with_the_html_checker(corpus_site):
    config = load_config(corpus_site)
    assert config.check.html
    report = check_site(config)
    assert [str(finding) for finding in report.findings] == []


# -- in Chromium -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def served(corpus_site) -> Iterator[str]:
    handler = functools.partial(QuietHandler, directory=str(corpus_site / "_site"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def chromium():
    from test_browser import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.mark.parametrize("source", notebooks(), ids=lambda path: path.stem)
def test_every_page_in_chromium_without_errors_with_math_and_widgets_drawn(corpus_site, served, chromium, source):
    from test_browser import DESKTOP, Watched

    html, ipynb = published(corpus_site, source)
    slug = slug_of(Path("notebooks") / source.name)
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
