"""Content tabs and Mermaid diagrams as a reader meets them, in Chromium: linked tabs switch
together, by mouse and keyboard, and stay chosen after a reload and on the next page; a diagram is drawn as SVG,
again when the theme switches, and a page without one does not load Mermaid."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from test_browser import DESKTOP, Watched, browser, serving_basic_site  # noqa: F401 - browser is a fixture
from test_look import BLOCKING, axe_script, axe_violations  # noqa: F401 - axe_script is a fixture

TABS = '''---
title: Install
---

Get it:

=== "pip"

    pip install it

=== "conda"

    conda install it

Then run it:

=== "pip"

    run with pip

=== "conda"

    run with conda

=== "source"

    run from source
'''

CONDA_FIRST = '''---
title: {title}
---

=== "conda"

    conda {verb} it

=== "pip"

    pip {verb} it
'''

DIAGRAM = '''---
title: Flow
---

How a build goes:

```mermaid
graph LR
  scan["scan & plan"] --> render --> write
```
'''


@pytest.fixture(scope="module")
def base_url(tmp_path_factory) -> Iterator[str]:
    pages = {"install.md": TABS, "flow.md": DIAGRAM, "upgrade.md": CONDA_FIRST.format(title="Upgrade", verb="upgrade"),
             "remove.md": CONDA_FIRST.format(title="Remove", verb="remove")}
    with serving_basic_site(tmp_path_factory.mktemp("authoring-browser") / "site", pages) as url:
        yield url


def shown(page) -> list[str]:
    """The text of the tab block each set of the page shows."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('.tabbed-block'))
        .filter(b => getComputedStyle(b).display !== 'none').map(b => b.textContent.trim())""")


def test_linked_tabs_switch_together_and_stay_chosen_after_a_reload(browser, base_url, axe_script):  # noqa: F811
    reader = Watched(browser, base_url, **DESKTOP)
    page = reader.open(base_url + "/install.html")
    assert shown(page) == ["pip install it", "run with pip"]
    page.locator(".tabbed-labels label", has_text="conda").first.click()
    assert shown(page) == ["conda install it", "run with conda"]
    page.reload()
    assert shown(page) == ["conda install it", "run with conda"]
    # The keyboard: the checked tab is a radio button, and an arrow key chooses the next one.
    page.locator(".tabbed-set").nth(1).locator("input:checked").focus()
    page.keyboard.press("ArrowRight")
    assert shown(page) == ["conda install it", "run from source"]
    page.locator(".tabbed-set").first.locator("input:checked").focus()
    page.keyboard.press("ArrowLeft")
    assert shown(page) == ["pip install it", "run with pip"]
    blocking = [v["id"] for v in axe_violations(page, axe_script) if v["impact"] in BLOCKING]
    reader.close()
    assert blocking == [] and reader.problems == []


def test_a_tab_chosen_on_one_page_is_chosen_on_the_next(browser, base_url):  # noqa: F811
    reader = Watched(browser, base_url, **DESKTOP)
    page = reader.open(base_url + "/upgrade.html")
    assert shown(page) == ["conda upgrade it"]                   # a set shows its first tab at first
    page.locator(".tabbed-labels label", has_text="pip").click()
    assert shown(page) == ["pip upgrade it"]
    page = reader.open(base_url + "/remove.html")
    assert shown(page) == ["pip remove it"]
    reader.close()
    assert reader.problems == []


def test_a_diagram_is_drawn_and_drawn_again_when_the_theme_switches(browser, base_url):  # noqa: F811
    reader = Watched(browser, base_url, **DESKTOP, color_scheme="light")
    fetched: list[str] = []
    reader.page.on("request", lambda request: fetched.append(request.url))
    page = reader.open(base_url + "/flow.html")
    drawn = page.locator("pre.mermaid svg")     # its nodes drawn (the chunks drawing them come after the svg)
    drawn.locator(".node", has_text="scan & plan").wait_for()
    light = drawn.inner_html()
    page.get_by_role("button", name="Dark theme").click()
    page.wait_for_function("(before) => { const svg = document.querySelector('pre.mermaid svg');"
                           " return svg && svg.innerHTML !== before && svg.querySelector('.node'); }", arg=light)
    # Mermaid's ESM build: its core and the flowchart's chunks, not every diagram kind's.
    mermaid = [url for url in fetched if "/assets/vendor/mermaid/" in url]
    assert any(url.endswith("/assets/vendor/mermaid/mermaid.esm.min.js") for url in mermaid)
    assert any("/flowDiagram-" in url for url in mermaid) and not any("/sequenceDiagram-" in url for url in mermaid)
    fetched.clear()
    reader.open(base_url + "/install.html")
    page.wait_for_load_state("networkidle")
    assert fetched and not any("mermaid" in url for url in fetched)
    reader.close()
    assert reader.problems == []
