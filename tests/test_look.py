"""How the shipped site looks and reads, in real Chromium: light and dark, accessibility
(axe-core over every page kind, in both modes), code blocks, reading aids, and
screenshots of every page kind at desktop and phone widths in both modes.

axe-core is the npm package ``scripts/setup-test-tools`` installs into ``.tools/``
(as it installs the Nu Html Checker); it is injected into each page as a script.
Its findings per page kind and mode are written to ``test-artifacts/axe.json``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import datetime, timezone

import pytest
from playwright.sync_api import Page

from conftest import REPO
from test_browser import (ARTIFACTS, BROWSER_TIMEOUT_MS, DESKTOP, PHONE, Watched, base_url,  # noqa: F401
                          browser, desktop, phone, preview, screenshot)

AXE = REPO / ".tools/node_modules/axe-core/axe.min.js"
BLOCKING = ("serious", "critical")
MODES = ("light", "dark", "toggled")     # the system's light, the system's dark, light switched to dark

# Every kind of page the shipped site has, by the URL of one of it.
PAGE_KINDS = {
    "home": "/",
    "blog": "/blog.html",
    "blog-page-2": "/blog/page2.html",
    "post-code-math": "/2017/12/05/learning-to-tune-operators.html",
    "page": "/about.html",
    "community": "/community.html",
    "download": "/download.html",
    "vta": "/vta.html",
    "tag": "/tags/autotvm.html",
    "tags": "/tags.html",
    "history": "/history.html",
    "author": "/authors/daniel-okafor.html",
    "authors": "/authors.html",
    "404": "/404.html",
    "docs-dev": "/docs/dev/install.html",
    "docs-v0.18": "/docs/v0.18/install.html",
    "tutorial": "/docs/v0.18/tutorials/smoothing_plot.html",
    "tutorials": "/docs/v0.18/tutorials/",
    "source": "/source/tiled_matmul.html",
}


@pytest.fixture(scope="module")
def axe_script() -> str:
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run scripts/setup-test-tools")
    return AXE.read_text()


def context_for(mode: str) -> dict:
    return {"color_scheme": "light" if mode in ("light", "toggled") else "dark"}


def open_in(watched: Watched, url: str, mode: str) -> Page:
    page = watched.open(url)
    if mode == "toggled" and page.evaluate("document.documentElement.dataset.theme") != "dark":
        page.get_by_role("button", name="Dark theme").click()     # once: later pages remember it
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")   # lazy images load
    page.wait_for_load_state("networkidle")
    page.evaluate("window.scrollTo(0, 0)")
    return page


def page_background(page: Page) -> str:
    return page.evaluate("getComputedStyle(document.documentElement).backgroundColor")


def axe_violations(page: Page, script: str) -> list[dict]:
    page.add_script_tag(content=script)
    return page.evaluate("""async () => {
        const result = await axe.run(document, {resultTypes: ["violations"]});
        return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary}))}));
    }""")


@pytest.mark.parametrize("width", ["desktop", "phone"])
@pytest.mark.parametrize("mode", MODES)
def test_every_page_kind_passes_axe(browser, base_url, axe_script, mode, width):
    """No serious or critical violation on any page kind, light, dark and switched to dark,
    at desktop and phone widths (where code and tables scroll)."""
    watched = Watched(browser, base_url, **(DESKTOP if width == "desktop" else PHONE), **context_for(mode))
    found: dict[str, dict[str, int]] = {}
    blocking = []
    try:
        for kind, url in PAGE_KINDS.items():
            page = open_in(watched, base_url + url, mode)
            dark = mode != "light"
            assert (page_background(page) != "rgb(255, 255, 255)") == dark, (kind, mode)
            violations = axe_violations(page, axe_script)
            counts: dict[str, int] = {}
            for violation in violations:
                counts[violation["impact"]] = counts.get(violation["impact"], 0) + len(violation["nodes"])
                if violation["impact"] in BLOCKING:
                    blocking += [f"{kind} ({mode}, {width}): {violation['id']} at {node['target']}: {node['summary']}"
                                 for node in violation["nodes"]]
            found[kind] = counts
    finally:
        watched.close()
    record = ARTIFACTS / "axe.json"
    ARTIFACTS.mkdir(exist_ok=True)
    results = json.loads(record.read_text()) if record.exists() else {}
    results[f"{mode} {width}"] = found
    record.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    assert watched.problems == []
    assert blocking == [], "\n".join(blocking)


@pytest.mark.parametrize("width", ["desktop", "phone"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_of_every_page_kind(browser, base_url, width, scheme):
    """Every page kind at 1280 and 390 px wide, in both modes; no page is wider than the screen."""
    watched = Watched(browser, base_url, **(DESKTOP if width == "desktop" else PHONE), color_scheme=scheme)
    try:
        for kind, url in PAGE_KINDS.items():
            page = open_in(watched, base_url + url, scheme)
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= page.viewport_size["width"], f"{url} is {wide}px wide at {width} width"
            screenshot(page, f"look-{kind}-{width}-{scheme}")
    finally:
        watched.close()
    assert watched.problems == []
    for kind in PAGE_KINDS:
        assert (ARTIFACTS / f"look-{kind}-{width}-{scheme}.png").stat().st_size > 10_000


@pytest.mark.parametrize("width", ["desktop", "phone"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_docs_page_read_halfway_keeps_its_navigation_and_passes_axe(browser, base_url, axe_script, width, scheme):
    """Halfway down a docs page the section read is marked in "On this page"; the header is
    still on the screen, the heading gone to not under it, and on a desktop the sidebar and the
    contents column too (its screenshot shows the screen, not the whole page); on a phone the
    contents stand inline above the text. No serious or critical axe finding there, in both modes."""
    watched = Watched(browser, base_url, **(DESKTOP if width == "desktop" else PHONE), color_scheme=scheme)
    try:
        page = open_in(watched, base_url + "/docs/dev/install.html", scheme)
        page.evaluate("document.getElementById('checking-the-installation').scrollIntoView()")
        page.locator(".toc a[aria-current=true]").wait_for(state="attached")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=ARTIFACTS / f"look-docs-read-halfway-{width}-{scheme}.png")
        header = page.locator(".site-header").bounding_box()
        assert header["y"] == 0 and header["height"] < page.viewport_size["height"] / 8, header
        assert page.locator("#checking-the-installation").bounding_box()["y"] >= header["height"]
        if width == "desktop":
            for part in (".docs-sidebar", ".toc"):     # (at the page's end the sidebar's top may scroll under)
                box = page.locator(part).bounding_box()
                assert box["y"] < page.viewport_size["height"] and box["y"] + box["height"] > 100, part
        else:       # "On this page" inline, in the text's column above the text, which scrolled on past it
            toc, text = (page.locator(part).bounding_box() for part in (".toc", "article.docs-page"))
            assert text["x"] <= toc["x"] and toc["x"] + toc["width"] <= text["x"] + text["width"]
            assert toc["y"] + toc["height"] <= header["height"]
            assert page.locator(".nav-toggle-label").bounding_box()["y"] >= 4     # not on the screen's edge
        blocking = [(v["id"], [n["target"] for n in v["nodes"]])
                    for v in axe_violations(page, axe_script) if v["impact"] in BLOCKING]
    finally:
        watched.close()
    assert watched.problems == []
    assert blocking == []


# --- light and dark ------------------------------------------------------------

THEME_AT_BODY = """
window.__themeAtBody = "unset";
new MutationObserver((changes, observer) => {
  if (document.body) { window.__themeAtBody = document.documentElement.dataset.theme || ""; observer.disconnect(); }
}).observe(document, {childList: true, subtree: true});
"""


def test_the_theme_switch_remembers_the_choice_without_a_flash(browser, base_url):
    watched = Watched(browser, base_url, **DESKTOP, color_scheme="light")
    watched.context.add_init_script(THEME_AT_BODY)
    try:
        page = watched.open(base_url + "/blog.html")
        assert page_background(page) == "rgb(255, 255, 255)"
        switch = page.get_by_role("button", name="Dark theme")
        assert switch.get_attribute("aria-pressed") == "false"
        switch.focus()
        page.keyboard.press("Enter")
        assert switch.get_attribute("aria-pressed") == "true"
        assert page_background(page) != "rgb(255, 255, 255)"
        assert page.evaluate("localStorage.getItem('sitegen-theme')") == "dark"
        # The next page is dark from the start: the choice is on <html> before <body> exists.
        page = watched.open(base_url + "/about.html")
        assert page.evaluate("window.__themeAtBody") == "dark"
        assert page_background(page) != "rgb(255, 255, 255)"
        # Back to what the system says: the choice is forgotten, the page follows the system.
        page.get_by_role("button", name="Dark theme").click()
        assert page.evaluate("localStorage.getItem('sitegen-theme')") is None
        page = watched.open(base_url + "/about.html")
        assert page.evaluate("window.__themeAtBody") == ""
        assert page_background(page) == "rgb(255, 255, 255)"
    finally:
        watched.close()
    assert watched.problems == []


def test_without_javascript_the_system_setting_rules_and_no_switch_shows(browser, base_url):
    for scheme, white in (("dark", False), ("light", True)):
        watched = Watched(browser, base_url, **DESKTOP, color_scheme=scheme, java_script_enabled=False)
        try:
            page = watched.open(base_url + "/2017/12/05/learning-to-tune-operators.html")
            assert (page_background(page) == "rgb(255, 255, 255)") == white
            code = page.locator("div.highlight").first
            code_dark = code.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(13, 17, 23)"
            assert code_dark == (not white)      # sitegen-dark's background
            assert not page.locator(".theme-toggle").is_visible()
            assert page.locator(".copy-code").count() == 0
            # The version switcher is its list of links, folded in a styled <details>.
            page = watched.open(base_url + "/docs/dev/install.html")
            switcher = page.get_by_role("navigation", name="Documentation version")
            switcher.locator("summary").click()
            assert switcher.get_by_role("link", name="0.18").get_attribute("href") == "/docs/v0.18/install.html"
            screenshot(page, f"look-docs-dev-desktop-{scheme}-nojs")
        finally:
            watched.close()


# --- code blocks ---------------------------------------------------------------

LINE_OFFSETS = """table => {
  const numbers = [...table.querySelectorAll('.linenos .normal, .linenos .special, td.line-number a')];
  const code = table.querySelector('td.code pre') ? [table.querySelector('td.code pre')]
                                                  : [...table.querySelectorAll('td.line-code pre')];
  const starts = [];
  for (const block of code) {
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    let atStart = true, node, found = false;
    while ((node = walker.nextNode())) {
      for (let i = 0; i < node.data.length; i++) {
        if (atStart && node.data[i] !== '\\n') {
          const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
          starts.push(range.getBoundingClientRect().bottom); atStart = false; found = true;
        }
        if (node.data[i] === '\\n') atStart = true;
      }
    }
  }
  return {lines: numbers.length, starts: starts.length,
          offsets: numbers.slice(0, starts.length).map((n, i) => n.getBoundingClientRect().bottom - starts[i])};
}"""


@pytest.fixture(scope="module")
def numbered(tmp_path_factory) -> Iterator[str]:
    """A small site with numbered code in each form: a fence's ``linenums``, ``{% highlight
    linenos %}`` in Markdown and in an HTML page, and a source listing; served over HTTP."""
    import functools
    import http.server
    import threading

    from conftest import copy_site
    from generator.build import BuildOptions, build

    site = copy_site(tmp_path_factory.mktemp("numbered") / "site", "basic")
    (site / "assets/css/site.css").unlink()        # the fixture's stub: the theme's stylesheet applies
    code = "\n".join(f"value_{n} = {n} * 2  # line {n}" for n in range(1, 41))
    (site / "content/posts/2024-01-02-fence.md").write_text(
        f"---\ntitle: Fence\n---\n```python linenums=\"1\" hl_lines=\"3 4\"\n{code}\n```\n")
    (site / "content/posts/2024-01-03-liquid.md").write_text(
        f"---\ntitle: Liquid\n---\n{{% highlight python linenos %}}\n{code}\n{{% endhighlight %}}\n")
    (site / "content/pages/liquid.html").write_text(
        f"---\ntitle: Liquid in HTML\n---\n{{% highlight python linenos %}}\n{code}\n{{% endhighlight %}}\n")
    (site / "listed.py").write_text(code + "\n")
    (site / "content/pages/listing.md").write_text("---\ntitle: Listing\nlayout: source\nsource: listed.py\n---\n")
    build(site, BuildOptions(now=datetime(2026, 1, 1, tzinfo=timezone.utc)))
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site / "_site"))
    handler.func.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("path", ["/2024/01/02/fence.html", "/2024/01/03/liquid.html", "/liquid.html",
                                  "/listing.html"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_line_numbers_stay_on_their_lines(browser, numbered, path, viewport):
    """Each number's baseline is its line's, down to line 40 (they drifted a pixel a line:
    the numbers' <pre> had the browser's monospace at 13px, the code a <code> at .9em of another font)."""
    context = browser.new_context(**viewport)
    context.set_default_timeout(BROWSER_TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(numbered + path)
        table = page.locator("table.highlighttable, table.source-table").first
        found = table.evaluate(LINE_OFFSETS)
        assert found["lines"] == found["starts"] == 40, found
        assert all(abs(offset) < 1 for offset in found["offsets"]), found["offsets"]
    finally:
        context.close()


def test_code_is_copied_by_keyboard_and_says_so(browser, base_url):
    watched = Watched(browser, base_url, **DESKTOP)
    watched.context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        page = watched.open(base_url + "/2017/12/05/learning-to-tune-operators.html")
        block = page.locator("div.highlight", has=page.locator("table.highlighttable")).first
        code = block.locator("td.code pre").inner_text()
        button = page.locator(".code-frame", has=block).locator("button.copy-code")
        assert button.inner_text() == "Copy"
        button.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("b => b.textContent === 'Copied'", arg=button.element_handle())
        assert page.get_by_role("status").inner_text() == "Code copied to the clipboard"
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == code.rstrip("\n") and copied.startswith("def schedule_matmul(cfg, s, C):")
        assert "1\n2\n3" not in copied        # the line numbers stay behind
    finally:
        watched.close()
    assert watched.problems == []


def test_scrollable_code_is_reached_by_keyboard(phone, base_url):
    page = phone.open(base_url + "/2017/12/05/learning-to-tune-operators.html")
    block = page.locator("div.highlight").first
    assert block.evaluate("e => e.scrollWidth > e.clientWidth")    # it scrolls on a phone
    block.focus()
    assert page.evaluate("document.activeElement.classList.contains('highlight')")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("e => e.scrollLeft > 0", arg=block.element_handle())


# --- reading aids --------------------------------------------------------------

def test_the_footer_sits_at_the_bottom_of_a_short_page(desktop, base_url):
    page = desktop.open(base_url + "/404.html")
    bottom = page.locator(".site-footer").evaluate("e => e.getBoundingClientRect().bottom")
    assert bottom == page.viewport_size["height"]


def test_release_dates_stay_whole_on_a_phone(phone, base_url):
    page = phone.open(base_url + "/download.html")
    dates = page.locator("table.releases tbody td:nth-child(2)")
    assert dates.count() >= 5
    for cell in dates.all():
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", cell.inner_text())
        assert cell.evaluate(ONE_LINE) == 1, cell.inner_text()
    frame = page.locator(".table-wrap")
    assert frame.evaluate("e => e.scrollWidth > e.clientWidth")       # the table scrolls in its frame
    assert frame.get_attribute("tabindex") == "0"


def test_docs_pages_read_in_order_with_their_contents(desktop, base_url):
    page = desktop.open(base_url + "/docs/dev/install.html")
    toc = page.get_by_role("navigation", name="On this page")
    for link in toc.get_by_role("link").all():
        assert page.locator(link.get_attribute("href")).count() == 1
    assert toc.get_by_role("link", name="From source").is_visible()
    sidebar = [a.get_attribute("href") for a in page.locator(".docs-nav > ul > li > a").all()]
    pager = page.get_by_role("navigation", name="Previous and next pages")
    previous = pager.locator("a[rel=prev]").get_attribute("href")
    following = pager.locator("a[rel=next]").get_attribute("href")
    at = sidebar.index("/docs/dev/install.html")
    assert (previous, following) == (sidebar[at - 1], sidebar[at + 1])
    edit = page.get_by_role("link", name="Edit this page").get_attribute("href")
    assert edit == "https://github.com/apache/tvm-site/edit/main/content/docs/install.md"
    # A version from a git ref has no file to edit on the branch: no link.
    page = desktop.open(base_url + "/docs/v0.18/install.html")
    assert page.get_by_role("link", name="Edit this page").count() == 0


def test_a_tutorial_sits_in_the_docs_layout(desktop, phone, base_url):
    page = desktop.open(base_url + "/docs/dev/tutorials/tiled_matmul.html")
    sidebar = page.get_by_role("navigation", name="Documentation pages")
    assert sidebar.get_by_role("link", name="Installing TVM").get_attribute("href") == "/docs/dev/install.html"
    current = sidebar.locator("a[aria-current=page]")
    assert current.get_attribute("href") == "/docs/dev/tutorials/tiled_matmul.html"
    assert sidebar.get_by_role("link", name="Tutorials", exact=True).is_visible()
    crumbs = page.get_by_role("navigation", name="Breadcrumb").get_by_role("link").all()
    assert [a.get_attribute("href") for a in crumbs] == ["/docs/dev/", "/docs/dev/tutorials/",
                                                         "/docs/dev/tutorials/tiled_matmul.html"]
    assert page.get_by_role("combobox", name="Documentation version").is_visible()
    edit = page.get_by_role("link", name="Edit this page").get_attribute("href")
    assert edit == "https://github.com/apache/tvm-site/edit/main/notebooks/tiled_matmul.py"
    box = sidebar.bounding_box()
    article = page.locator("article.tutorial").bounding_box()
    assert box["x"] + box["width"] <= article["x"]                    # side by side on a desktop
    page = phone.open(base_url + "/docs/dev/tutorials/tiled_matmul.html")
    pages = page.get_by_role("navigation", name="Documentation pages")
    assert not pages.is_visible()                              # folded on a phone, above the page
    page.get_by_text("Pages of this version").click()
    assert pages.get_by_role("link", name="Installing TVM").is_visible()


def test_a_post_has_its_contents_and_edit_link(desktop, base_url):
    page = desktop.open(base_url + "/2017/12/05/learning-to-tune-operators.html")
    toc = page.get_by_role("navigation", name="On this page")
    links = toc.get_by_role("link").all()
    assert len(links) >= 2
    for link in links:
        assert page.locator(link.get_attribute("href")).count() == 1
    edit = page.get_by_role("link", name="Edit this page").get_attribute("href")
    assert edit.endswith("/edit/main/content/posts/2017-12-05-learning-to-tune-operators.md")


def test_the_phone_menus_open_from_the_keyboard(phone, base_url):
    page = phone.open(base_url + "/docs/dev/install.html")
    for switch, menu in (("Menu", "Main"), ("Pages of this version", "Documentation pages")):
        nav = page.get_by_role("navigation", name=menu)
        assert not nav.is_visible()
        page.get_by_role("checkbox", name=switch).focus()
        page.keyboard.press("Space")
        assert nav.is_visible()


ONE_LINE = ("e => { const r = document.createRange(); r.selectNodeContents(e);"
            " return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }")


def test_markdown_tables_keep_their_values_whole_on_a_phone(phone, base_url):
    page = phone.open(base_url + "/vta.html")
    frame = page.get_by_role("region", name="Table: Parameter, Typical value, Effect")
    assert frame.evaluate("e => e.scrollWidth > e.clientWidth")      # it scrolls, the page does not
    cells = frame.locator("td").all()
    assert len(cells) >= 8 and "1 x 16 x 16" in [cell.inner_text() for cell in cells]
    for cell in cells:
        assert cell.evaluate(ONE_LINE) == 1, cell.inner_text()


def test_task_list_items_show_their_boxes_not_bullets(browser):
    """A task list item (kramdown-parser-gfm's markup) has no bullet, as GitHub and Jekyll's
    themes draw it, and its box stands in the list's margin where the bullet was; an item
    of a plain list keeps its bullet."""
    from generator.markdown import render_markdown

    css = (REPO / "generator/themes/default/assets/css/site.css").read_text()
    html = render_markdown("- [ ] todo\n- [x] done\n\nText.\n\n* plain\n").html
    page = browser.new_page()
    try:
        page.set_content(f"<style>{css}</style><main>{html}</main>")
        bullets = page.locator("li").evaluate_all("items => items.map(i => getComputedStyle(i).listStyleType)")
        assert bullets == ["none", "none", "disc"]
        box, text = (page.locator(selector).first.bounding_box() for selector in ("input", "ul.task-list li"))
        assert box["x"] + box["width"] <= text["x"] + 2      # in the margin, before the item's text
    finally:
        page.close()


@pytest.fixture(scope="module")
def new_docs_site(tmp_path_factory) -> Iterator[str]:
    """A site as `sitegen init --kind docs` starts it, built and served on 127.0.0.1: its URL."""
    import functools
    import http.server
    import threading

    from generator.build import BuildOptions, build
    from generator.scaffold import init_site

    site = tmp_path_factory.mktemp("new-docs") / "site"
    init_site(site, now=datetime(2030, 5, 4, tzinfo=timezone.utc), kind="docs")
    build(site, BuildOptions(now=datetime(2030, 5, 4, tzinfo=timezone.utc)))
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site / "_site"))
    handler.func.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("width", ["desktop", "phone"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_new_docs_site_reads_and_passes_axe(browser, new_docs_site, axe_script, width, scheme):
    """A new user's first docs site: its docs page and tutorial pass axe at both widths in both
    modes, and on a phone its sidebar folds under "Pages" (it has no versions to speak of)."""
    watched = Watched(browser, new_docs_site, **(DESKTOP if width == "desktop" else PHONE), color_scheme=scheme)
    blocking = []
    try:
        for path in ("/docs/install.html", "/docs/tutorials/first-steps.html"):
            page = open_in(watched, new_docs_site + path, scheme)
            screenshot(page, f"look-new-docs{path.replace('/', '-').removesuffix('.html')}-{width}-{scheme}")
            blocking += [(path, v["id"], [n["target"] for n in v["nodes"]])
                         for v in axe_violations(page, axe_script) if v["impact"] in BLOCKING]
            if width == "phone":
                page.get_by_text("Pages", exact=True).click()
                assert page.get_by_role("navigation", name="Documentation pages").get_by_role(
                    "link", name="Install").is_visible()
    finally:
        watched.close()
    assert watched.problems == []
    assert blocking == []


@pytest.mark.parametrize("path", ["/docs/", "/docs/install.html"])
def test_a_new_docs_sites_pages_have_their_contents_beside_the_text(browser, new_docs_site, path):
    """The starter docs pages have sections: on a desktop "On this page" stands right of the
    text, each entry leading to a heading of the page."""
    watched = Watched(browser, new_docs_site, **DESKTOP)
    try:
        page = watched.open(new_docs_site + path)
        toc = page.get_by_role("navigation", name="On this page")
        links = toc.get_by_role("link").all()
        assert len(links) >= 2
        for link in links:
            assert page.locator(f"article h2{link.get_attribute('href')}").count() == 1
        text = page.locator("article.docs-page > p").first.bounding_box()
        assert toc.bounding_box()["x"] >= text["x"] + text["width"]
    finally:
        watched.close()
    assert watched.problems == []


@pytest.mark.parametrize("switch, folded", [("Pages", "Documentation pages"), ("Menu", "Main")])
def test_the_phone_switches_show_whether_they_are_open(browser, new_docs_site, switch, folded):
    """On a phone the docs pages fold under "Pages" and the header's links under "Menu", whose
    arrows point down while folded and up while open (CSS on the switch's state: no script)."""
    watched = Watched(browser, new_docs_site, **PHONE, java_script_enabled=False)
    arrow = "e => getComputedStyle(e, '::after').content"
    try:
        page = watched.open(new_docs_site + "/docs/install.html")
        label, pages = page.get_by_text(switch, exact=True), page.get_by_role("navigation", name=folded)
        assert "\u25be" in label.evaluate(arrow) and not pages.is_visible()
        label.click()
        assert "\u25b4" in label.evaluate(arrow) and pages.is_visible()
        label.click()
        assert "\u25be" in label.evaluate(arrow) and not pages.is_visible()
    finally:
        watched.close()
    assert watched.problems == []


def luminance(rgb: tuple[int, ...]) -> float:
    """WCAG's relative luminance of an sRGB colour."""
    def linear(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_search_boxs_clear_button_reads_in_both_modes(browser, new_docs_site, scheme):
    """The clear (×) Chromium draws in a search box holding text is a pseudo-element axe does not
    see: its darkest pixel stands out from the box by 3:1 at least (WCAG's ratio for controls).
    (The box is light in both modes; in dark, Chromium drew a light × for the dark palette.)"""
    import io

    from PIL import Image

    SCALE = 2

    def darkest_at_the_right_end() -> float:
        shot = Image.open(io.BytesIO(box.screenshot())).convert("RGB")
        width, height = shot.size        # its last 36 px, inside the border: where the × stands
        end = shot.crop((width - 36 * SCALE, 3 * SCALE, width - 3 * SCALE, height - 3 * SCALE))
        return min(luminance(colour) for _, colour in end.getcolors(1 << 20))

    watched = Watched(browser, new_docs_site, **DESKTOP, color_scheme=scheme, device_scale_factor=SCALE)
    try:
        page = watched.open(new_docs_site + "/docs/install.html")
        box = page.get_by_role("searchbox", name="Search this site")
        paper = darkest_at_the_right_end()
        box.fill("install")
        page.get_by_role("region", name="Search results").wait_for()
        assert (paper + 0.05) / (darkest_at_the_right_end() + 0.05) >= 3
    finally:
        watched.close()
    assert watched.problems == []
