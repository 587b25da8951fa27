"""A MyST page as a reader sees it, in Chromium: the numbered equation typeset by KaTeX with
its number beside it, the margin note beside the text on a desktop and in line on a phone,
a reference that scrolls to its equation.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from test_browser import DESKTOP, PHONE, Watched, browser, serving_basic_site  # noqa: F401 - browser is a fixture

PAGE = """---
title: Equations
---

```{margin}
A remark beside the text.
```

Euler's identity, {eq}`euler`, ties five constants together. It reads as follows, and the
text around it goes on long enough to stand beside the margin note on a wide screen, as a
book's margin does. More words, so that the paragraph wraps over several lines.

```{math}
:label: euler
e^{i\\pi} + 1 = 0
```
"""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory) -> Iterator[str]:
    with serving_basic_site(tmp_path_factory.mktemp("myst-browser") / "site", {"equations.md": PAGE}) as url:
        yield url


def watched(browser, base_url, options) -> Watched:  # noqa: F811 - the fixture's value
    return Watched(browser, base_url, **options)


def test_a_numbered_equation_is_typeset_with_its_number_beside_it(browser, base_url):  # noqa: F811
    reader = watched(browser, base_url, DESKTOP)
    page = reader.open(base_url + "/equations.html")
    equation = page.locator("#equation-euler")
    equation.locator(".katex").first.wait_for()
    formula, number = equation.locator(".arithmatex").bounding_box(), equation.locator(".eqno").bounding_box()
    assert number["x"] >= formula["x"] + formula["width"] - 1            # to its right, on its line
    assert abs((number["y"] + number["height"] / 2) - (formula["y"] + formula["height"] / 2)) < formula["height"]
    page.locator("a.reference.eq").click()
    page.wait_for_function("location.hash === '#equation-euler'")
    reader.close()
    assert reader.problems == []


@pytest.mark.parametrize("options, beside", [(DESKTOP, True), (PHONE, False)])
def test_a_margin_note_stands_beside_the_text_on_a_desktop_only(browser, base_url, options, beside):  # noqa: F811
    reader = watched(browser, base_url, options)
    page = reader.open(base_url + "/equations.html")
    aside = page.locator("aside.margin").bounding_box()
    paragraph = page.locator("main p", has_text="ties five constants").bounding_box()
    # A float leaves the paragraph's box full width, its lines beside it: the note is in the right
    # half of the column, level with the paragraph; in line, it is as wide as the text, above it.
    side_by_side = aside["x"] > paragraph["x"] + paragraph["width"] / 2 and aside["y"] < paragraph["y"] + paragraph["height"]
    assert side_by_side == beside
    if not beside:
        assert aside["y"] + aside["height"] <= paragraph["y"] and aside["width"] > paragraph["width"] * 0.8
    reader.close()
    assert reader.problems == []
