"""The shipped site in a real browser: Playwright driving Debian's Chromium, headless.

The site is built into a temporary folder and served on 127.0.0.1 by
``sitegen serve``'s own preview server, watching for edits as authors use it. Every page a test opens is watched: a console error, an
uncaught exception, a failed request, an HTTP error or a request to any other
host fails the test. Screenshots land in ``test-artifacts/`` for people to look at.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from conftest import REPO, copy_site
from generator.build import BuildOptions
from generator.configure import load_config
from generator.serve import Preview

CHROMIUM = "/usr/bin/chromium"
BROWSER_TIMEOUT_MS = 90_000
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = REPO / "test-artifacts"
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}


@pytest.fixture(scope="module")
def preview(tmp_path_factory) -> Iterator[Preview]:
    """The shipped site under ``sitegen serve`` (its real preview server) on a free port."""
    site = copy_site(tmp_path_factory.mktemp("browser") / "site")
    running = Preview(site, BuildOptions(now=datetime(2026, 11, 29, tzinfo=timezone.utc)), port=0).start()
    yield running
    running.stop()


@contextmanager
def serving_basic_site(folder: Path, pages: dict[str, str]) -> Iterator[str]:
    """The basic fixture site, with the shipped site's assets and ``pages`` (file name in
    ``content/pages/`` -> text), under ``sitegen serve``'s preview server: its base URL."""
    site = copy_site(folder, "basic")
    shutil.copytree(REPO / "assets", site / "assets", dirs_exist_ok=True)
    (site / "assets/css/site.css").unlink()        # the fixture's stub: the theme's stylesheet applies
    for name, text in pages.items():
        (site / "content/pages" / name).write_text(text)
    running = Preview(site, BuildOptions(now=datetime(2026, 11, 29, tzinfo=timezone.utc)), port=0).start()
    yield running.url.rstrip("/")
    running.stop()


@pytest.fixture(scope="module")
def base_url(preview) -> str:
    return preview.url.rstrip("/")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/setup-test-tools")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class Watched:
    """A browser page whose every problem is recorded, for the test to assert there are none."""

    def __init__(self, browser: Browser, base_url: str, **context_options):
        self.context = browser.new_context(**context_options)
        # Playwright's 30 s was seen to run out loading a local page with the machine's load at 30:
        # what these tests check is what a page does, not how soon it loads.
        self.context.set_default_timeout(BROWSER_TIMEOUT_MS)
        self.page = self.context.new_page()
        self.problems: list[str] = []
        own = urlsplit(base_url).netloc
        page = self.page
        page.on("console", lambda m: m.type == "error"
                and self.problems.append(f"console: {m.text} ({m.location.get('url')})"))
        page.on("pageerror", lambda e: self.problems.append(f"uncaught: {e}"))
        # ERR_ABORTED is a request the page cancelled by moving on (a redirect page's meta
        # refresh), not one the server failed; those answer with a status, checked below.
        page.on("requestfailed", lambda r: r.failure != "net::ERR_ABORTED"
                and self.problems.append(f"failed: {r.url} ({r.failure})"))
        page.on("response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"))
        page.on("request", lambda r: urlsplit(r.url).scheme in ("http", "https")
                and urlsplit(r.url).netloc != own and self.problems.append(f"third-party: {r.url}"))

    def open(self, url: str) -> Page:
        response = self.page.goto(url, wait_until="load")
        assert response is not None and response.ok, f"{url}: {response and response.status}"
        return self.page

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def desktop(browser, base_url) -> Iterator[Watched]:
    watched = Watched(browser, base_url, **DESKTOP)
    yield watched
    watched.close()
    assert watched.problems == []


@pytest.fixture
def phone(browser, base_url) -> Iterator[Watched]:
    watched = Watched(browser, base_url, **PHONE)
    yield watched
    watched.close()
    assert watched.problems == []


def screenshot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"{name}.png", full_page=True)


def nav_links(page: Page) -> list[tuple[str, str]]:
    return [(a.inner_text().strip(), a.get_attribute("href"))
            for a in page.locator("nav.site-nav a").all()]


def test_home_page_and_every_navigation_link(desktop, base_url):
    page = desktop.open(base_url + "/")
    assert page.title() == "Apache TVM"
    nav = load_config(REPO).nav
    assert nav_links(page) == [(item.title, item.url) for item in nav]
    for item in nav:
        desktop.open(base_url + "/")
        page.get_by_role("navigation", name="Main").get_by_role("link", name=item.title, exact=True).click()
        page.wait_for_load_state("networkidle")
        assert page.locator("h1").first.inner_text().strip(), page.url
        assert "not found" not in page.title().lower()
        if urlsplit(page.url).path == item.url:
            assert page.locator('nav.site-nav a[aria-current="page"]').inner_text() == item.title
        else:  # /docs/ and /docs/tutorials/ are redirect pages, to the default docs version
            stub = page.request.get(base_url + item.url, max_redirects=0).text()
            assert f'http-equiv="refresh" content="0; url={urlsplit(page.url).path}"' in stub


HEADER_PARTS = ("header.site-header", ".site-header .brand", ".site-header [role=search]",
                ".site-header nav.site-nav", ".site-header .theme-toggle")


def test_the_header_stands_the_same_on_every_kind_of_page(desktop, base_url):
    """Going from the home page to a post, a docs page or a tutorial, the header and each part
    of it keep their place and size (the docs layout made its header wider: it jumped 64 px)."""
    boxes = {}
    for url in ("/", "/2017/12/05/learning-to-tune-operators.html", "/docs/dev/install.html",
                "/docs/dev/tutorials/tiled_matmul.html"):
        page = desktop.open(base_url + url)
        boxes[url] = [page.locator(part).bounding_box() for part in HEADER_PARTS]
    home = boxes.pop("/")
    assert all(home), home
    for url, found in boxes.items():
        assert found == home, url


def test_a_post_from_the_blog(desktop, base_url):
    page = desktop.open(base_url + "/blog.html")
    first = page.locator("article.post-summary h2 a").first
    title = first.inner_text()
    first.click()
    page.wait_for_load_state("networkidle")
    assert page.locator("article.post h1").inner_text() == title
    assert page.locator("article.post time").count() == 1
    assert page.locator("img").evaluate_all("imgs => imgs.every(i => i.complete && i.naturalWidth > 0)")


def test_extension_less_urls_and_redirects(desktop, base_url):
    assert desktop.open(base_url + "/vta").locator("h1").first.inner_text() == "VTA"
    page = desktop.open(base_url + "/posts.html")  # a redirect page, followed by its meta refresh
    page.wait_for_url(lambda url: url.endswith("/blog.html"))


def test_a_tutorial_with_its_outputs_and_downloads(desktop, base_url):
    page = desktop.open(base_url + "/docs/tutorials/")
    link = page.locator("main h2 a", has_text="Matplotlib")
    title = link.inner_text()
    link.click()
    page.wait_for_load_state("networkidle")
    assert page.locator("h1").inner_text() == title
    images = page.locator(".nb-output img")
    images.first.scroll_into_view_if_needed()  # outputs load lazily
    page.wait_for_load_state("networkidle")
    assert images.count() >= 1
    assert images.evaluate_all("imgs => imgs.every(i => i.complete && i.naturalWidth > 0)")
    downloads = page.locator(".nb-downloads a[download]").all()
    assert [a.get_attribute("href").rsplit(".", 1)[1] for a in downloads] == ["ipynb", "py"]
    for download in downloads:
        response = page.request.get(base_url + download.get_attribute("href"))
        assert response.ok and response.body(), download.get_attribute("href")


def test_a_docs_page_and_the_version_switcher(desktop, base_url):
    page = desktop.open(base_url + "/docs/dev/install.html#from-source")
    assert page.locator(".version-banner").get_attribute("data-status") == "development"
    switcher = page.get_by_role("combobox", name="Documentation version")  # the script made a menu
    switcher.select_option(label="0.18 (stable)")
    page.wait_for_url(lambda url: url.endswith("/docs/v0.18/install.html#from-source"))
    page.wait_for_load_state("networkidle")
    assert page.locator("h1").inner_text() == "Installing TVM"
    assert page.locator(".version-banner").count() == 0  # 0.18 is the current version


def test_a_docs_page_keeps_header_sidebar_and_contents_in_view_and_marks_where_one_reads(desktop, base_url):
    page = desktop.open(base_url + "/docs/dev/install.html")
    menu = page.get_by_role("navigation", name="Main")
    assert menu.get_by_role("link", name="Docs").get_attribute("aria-current") == "true"   # the section
    crumbs = page.get_by_role("navigation", name="Breadcrumb").get_by_role("link")
    assert [(a.inner_text(), a.get_attribute("aria-current")) for a in crumbs.all()] == [
        ("Documentation", None), ("Installing TVM", "page")]
    toc = page.get_by_role("navigation", name="On this page")
    text = page.locator("article.docs-page").bounding_box()
    assert toc.bounding_box()["x"] >= text["x"] + text["width"]          # a column right of the text
    sidebar = page.locator(".docs-sidebar")
    page.evaluate("document.getElementById('checking-the-installation').scrollIntoView()")   # to the top
    marked = toc.locator("a[aria-current=true]")
    marked.wait_for()
    assert marked.inner_text() == "Checking the installation"
    assert page.evaluate("window.scrollY") > 500
    assert page.evaluate("document.querySelector('.site-header').getBoundingClientRect().top") == 0
    header = page.locator(".site-header").bounding_box()
    assert sidebar.bounding_box()["y"] < page.viewport_size["height"]    # the sidebar is still in view
    assert toc.bounding_box()["y"] >= header["y"] + header["height"]      # the contents too, below the header
    assert page.get_by_role("combobox", name="Documentation version").is_visible()   # the switcher with them
    page.evaluate("document.getElementById('from-source').scrollIntoView()")
    page.wait_for_function("document.querySelector('.toc a[aria-current]').textContent === 'From source'")


def test_an_api_reference_page_shows_signature_parameters_and_working_links(desktop, base_url):
    page = desktop.open(base_url + "/docs/dev/api.html")
    page.get_by_role("link", name="Planner").click()          # a [`Planner`][generator.outputs.Planner] reference
    page.wait_for_url(lambda url: url.endswith("/docs/dev/api/generator.outputs.html#generator.outputs.Planner"))
    heading = page.locator('[id="generator.outputs.Planner"]')
    assert heading.is_visible() and heading.evaluate("h => h.getBoundingClientRect().top") < 100
    sidebar = page.get_by_role("navigation", name="Documentation pages")
    assert sidebar.get_by_role("link", name="generator.plan", exact=True).is_visible()   # the packages
    page = desktop.open(base_url + "/docs/dev/api/generator.plan.html")
    entry = page.locator('[id="generator.plan.Plan.add"]').locator("xpath=..")     # its section
    signature = entry.locator(".api-signature").first
    assert signature.is_visible() and signature.inner_text().startswith("def add(")
    assert signature.locator(".nf").inner_text() == "add"          # highlighted by Pygments
    table = entry.get_by_role("region", name="Parameters").locator("table")
    assert table.is_visible()
    assert table.locator("tbody tr td:first-child").all_inner_texts() == ["path", "origin", "make", "inputs", "listed", "generated"]
    screenshot(page, "api-page")
    entry.get_by_role("link", name="source").first.click()
    page.wait_for_url(lambda url: "/docs/dev/api/_source/generator/plan.py.html#L" in url)
    start = int(page.url.rsplit("#L", 1)[1].split("-")[0])
    row = page.locator(f'tr[id="L{start}"] td.line-code')
    assert row.inner_text().strip().startswith("def add(") and row.is_visible()
    screenshot(page, "api-source")


def test_screenshots_at_desktop_and_phone_widths(browser, base_url, desktop, phone):
    post = desktop.open(base_url + "/blog.html").locator("article.post-summary h2 a").first.get_attribute("href")
    tutorial = desktop.open(base_url + "/docs/tutorials/").locator("main h2 a").first.get_attribute("href")
    shots = {"home": "/", "post": post, "tutorial": tutorial}
    for width, watched in (("desktop", desktop), ("phone", phone)):
        for name, url in shots.items():
            page = watched.open(base_url + url)
            body = page.evaluate("document.body.getBoundingClientRect().width")
            assert body == page.viewport_size["width"], f"{url}: the page is {body}px wide at {width} width"
            page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # let lazy images load
            page.wait_for_load_state("networkidle")
            screenshot(page, f"{name}-{width}")
    for name in shots:
        for width in ("desktop", "phone"):
            assert (ARTIFACTS / f"{name}-{width}.png").stat().st_size > 10_000


def test_the_phone_menu_opens(phone, base_url):
    page = phone.open(base_url + "/")
    nav = page.get_by_role("navigation", name="Main")
    assert not nav.is_visible()
    page.get_by_text("Menu", exact=True).click()
    assert nav.is_visible()
    nav.get_by_role("link", name="Blog").click()
    page.wait_for_url(lambda url: url.endswith("/blog.html"))
    screenshot(page, "blog-phone")


def test_an_edited_post_reloads_in_the_open_page(desktop, base_url, preview):
    with desktop.page.expect_response(lambda r: "/__sitegen__/events" in r.url, timeout=15_000):
        page = desktop.open(base_url + "/2017/08/22/operator-fusion.html")
    source = preview.root / "content/posts/2017-08-22-operator-fusion.md"
    source.write_text(source.read_text() + "\nA sentence added while the page was open.\n")
    page.get_by_text("A sentence added while the page was open.").wait_for(timeout=20_000)
    # The edit is shown first; the search index catches up once the files are quiet (and the
    # tests after this one search a settled index, not one being replaced under them).
    deadline = time.monotonic() + 30
    while preview.engine.state.derived_out_of_date() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not preview.engine.state.derived_out_of_date()


# --- Search: the header's box over the Pagefind index the build made --------------------------

def focus_search_by_tab(page: Page) -> None:
    """Tab from the top of the page to the search box, as a reader without a mouse does."""
    for _ in range(6):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "site-search-input":
            return
    raise AssertionError("the search box is not among the first stops of Tab")


def results(page: Page, word: str) -> list[str]:
    """Type ``word`` into the focused box; the result links, once they are shown."""
    page.keyboard.type(word)
    page.locator(".site-search-status").filter(has_text=f"for “{word}”").wait_for(timeout=15_000)
    return [a.get_attribute("href").split("?")[0] for a in page.locator(".site-search-list a").all()]


def test_search_reaches_a_post_by_a_word_only_it_has_with_the_keyboard_alone(desktop, base_url):
    page = desktop.open(base_url + "/")
    focus_search_by_tab(page)
    # Pagefind also finds parts of the word elsewhere ("an"): the page that has it comes first.
    assert results(page, "annealing")[0] == "/2017/12/05/learning-to-tune-operators.html"
    screenshot(page, "search-desktop")
    page.keyboard.press("ArrowDown")                       # into the results
    assert page.evaluate("document.activeElement.getAttribute('href')") == (
        "/2017/12/05/learning-to-tune-operators.html?highlight=annealing")
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: url.endswith("/2017/12/05/learning-to-tune-operators.html?highlight=annealing"))
    assert page.locator("h1").inner_text() == "Learning to Tune Operators Automatically"


def test_search_reaches_a_tutorial_by_a_word_only_it_has(desktop, base_url):
    page = desktop.open(base_url + "/about.html")
    page.keyboard.press("/")                               # the shortcut to the box
    assert page.evaluate("document.activeElement.id") == "site-search-input"
    # The tutorial is in both docs versions; a page outside the docs searches the default one's.
    assert results(page, "exponential") == ["/docs/v0.18/tutorials/smoothing_plot.html"]
    page.keyboard.press("Enter")                           # the first result
    page.wait_for_url(lambda url: url.endswith("/docs/v0.18/tutorials/smoothing_plot.html?highlight=exponential"))
    assert page.locator("h1").inner_text().strip()


@pytest.mark.parametrize("reading, found", [("/docs/dev/install.html", "/docs/dev/"),
                                            ("/docs/v0.18/install.html", "/docs/v0.18/"),
                                            ("/2017/08/22/operator-fusion.html", "/docs/v0.18/")])
def test_a_docs_search_gives_the_version_being_read(desktop, base_url, reading, found):
    page = desktop.open(base_url + reading)
    page.keyboard.press("/")
    docs = [href for href in results(page, "microcontrollers") if href.startswith("/docs/")]
    assert docs and all(href.startswith(found) for href in docs), docs


def test_search_shows_more_on_demand_and_marks_the_words_on_the_page(desktop, base_url):
    page = desktop.open(base_url + "/about.html")
    page.keyboard.press("/")
    first = results(page, "compiler")
    assert len(first) == 8
    # More results, by keyboard: the button is one of the stops of the arrow keys.
    page.locator(".site-search-more").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('.site-search-list li').length > 8")
    assert page.evaluate("document.activeElement.closest('li') !== null")    # on the first new result
    page.locator(".site-search-list a").first.click()
    page.wait_for_url(lambda url: "?highlight=compiler" in url)
    marks = page.locator("mark.search-highlight").all_inner_texts()
    assert marks and all(mark.lower() == "compiler" for mark in marks), marks


def test_search_results_close_with_escape_and_work_on_a_phone(phone, base_url):
    page = phone.open(base_url + "/blog.html")
    box = page.get_by_role("searchbox", name="Search this site")
    box.focus()
    assert results(page, "fusion")
    body = page.evaluate("document.body.getBoundingClientRect().width")
    assert body == page.viewport_size["width"], "the results make the page wider than the phone"
    screenshot(page, "search-phone")
    page.keyboard.press("Escape")
    assert page.locator(".site-search-results").is_hidden()
    assert page.evaluate("document.activeElement.id") == "site-search-input"


def test_search_finds_pages_whose_urls_hold_percent_signs_and_links_each_right(browser, tmp_path):
    """Pagefind keeps a page's URL as its file's path: ``%`` in it (bare, or as text like
    ``%25``) once made the script's decodeURI throw, and no query that found the page showed
    anything."""
    site = copy_site(tmp_path / "site", "basic")
    for name, title in (("50%-off", "Half off"), ("café 100%25", "Café")):
        (site / f"content/pages/{name}.md").write_text(f"---\ntitle: {title}\n---\nThe zanzibar sale.\n")
    running = Preview(site, BuildOptions(now=datetime(2026, 11, 29, tzinfo=timezone.utc)), port=0).start()
    watched = Watched(browser, running.url, **DESKTOP)
    try:
        page = watched.open(running.url.rstrip("/") + "/about.html")
        page.keyboard.press("/")
        assert sorted(results(page, "zanzibar")) == ["/50%25-off.html", "/caf%C3%A9%20100%2525.html"]
        assert sorted(page.locator(".site-search-url").all_inner_texts()) == ["/50%-off.html", "/café 100%25.html"]
        page.locator(".site-search-list a", has_text="Café").click()
        page.wait_for_url(lambda url: url.endswith("/caf%C3%A9%20100%2525.html?highlight=zanzibar"))
        assert page.locator("h1").inner_text() == "Café"
    finally:
        watched.close()
        running.stop()
    assert watched.problems == []
