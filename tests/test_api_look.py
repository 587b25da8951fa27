"""The API reference in real Chromium: axe-core finds nothing serious or critical on a
reference page (signatures, parameter tables, a reST table, inherited members), on a
source listing, nor on a tutorial whose code cells link their names, light and dark.

The site documents jinja2 (copied from the test environment, as tests/test_api_reference.py
does) and a small package of our own whose docstring holds reST tables, and is served by
``sitegen serve``'s own preview server on 127.0.0.1.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import jinja2
import pytest

from generator.build import BuildOptions
from generator.serve import Preview
from test_api_reference import GALLERY, TABLES, pkg_site
from test_browser import DESKTOP, PHONE, Watched, browser  # noqa: F401
from test_look import axe_script, axe_violations, context_for, open_in, page_background  # noqa: F401

BLOCKING = ("serious", "critical")
PAGES = {"api": "/docs/api/jinja2.loaders.html", "api-tables": "/docs/api/pkg.html",
         "source": "/docs/api/_source/python/jinja2/loaders.py.html", "tutorial": "/docs/tutorials/templates.html"}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    site = pkg_site(tmp_path_factory.mktemp("api-look") / "site", "(install)=\n## Installing\n\nText.",
                    {"python/pkg/__init__.py": TABLES, "notebooks/templates.py": GALLERY},
                    api="{package: jinja2, path: python/, docstrings: sphinx}\n"
                        "  - {package: pkg, path: python/, docstrings: sphinx}")
    shutil.copytree(Path(jinja2.__file__).parent, site / "python" / "jinja2",
                    ignore=shutil.ignore_patterns("__pycache__"))
    running = Preview(site, BuildOptions(), port=0).start()
    yield running.url.rstrip("/")
    running.stop()


@pytest.mark.parametrize("width", ["desktop", "phone"])
@pytest.mark.parametrize("mode", ["light", "dark"])
def test_api_and_source_pages_pass_axe(browser, served, axe_script, mode, width):
    watched = Watched(browser, served, **(DESKTOP if width == "desktop" else PHONE), **context_for(mode))
    blocking = []
    try:
        for kind, url in PAGES.items():
            page = open_in(watched, served + url, mode)
            assert (page_background(page) != "rgb(255, 255, 255)") == (mode == "dark"), (kind, mode)
            shows = {"api": "table.api-table", "api-tables": "table.api-table", "tutorial": ".nb-input a.xref"}
            assert page.locator(shows.get(kind, "pre")).count() > 0, kind
            blocking += [f"{kind} ({mode}, {width}): {v['id']} at {node['target']}: {node['summary']}"
                         for v in axe_violations(page, axe_script) if v["impact"] in BLOCKING for node in v["nodes"]]
    finally:
        watched.close()
    assert watched.problems == []
    assert blocking == [], "\n".join(blocking)
