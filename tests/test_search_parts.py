"""Search in parts, in a real browser: the index the build makes in parts finds what one
index of the same pages finds, and the "Search in" menu keeps to a section.

The site is the basic fixture with sixty posts, each holding some of a few words, a
docs section and a tutorial (run by a real kernel, its word only in its output); it is
built, and one Pagefind index of all its marked pages is made beside the parts
(``pagefind-one/``) as the reference. Both are served by a real HTTP server on 127.0.0.1
and searched in Chromium (Playwright): the parts through the header's box, as a reader
does; the one index through Pagefind's own module.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from datetime import datetime, timezone
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import Page, sync_playwright

from conftest import copy_site
from generator.build import BuildOptions, build
from generator.outputs.search import MARKER, blog_parts, page_url
from generator.pagefind import index_pages
from site_checks import search_parts
from test_browser import BROWSER_TIMEOUT_MS, CHROMIUM, CHROMIUM_ARGS, DESKTOP

OPTIONS = BuildOptions(now=datetime(2030, 1, 1, tzinfo=timezone.utc))
WORDS = {"marmot": 2, "ocelot": 3, "tapir": 5}       # a post holds a word if its number divides by this
TUTORIAL = """# %% [markdown]
# # Burrows
#
# Who digs them:

# %%
print("the " + "mar" + "mot")
"""
QUERIES = ["marmot", "ocelot", "tapir", "marmot ocelot", "ocelot tapir", "marmot ocelot tapir", "post",
           "gazelle", "quagga", "ocelot quagga", "annealing", "annealing tapir"]


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[tuple[str, Path]]:
    site = copy_site(tmp_path_factory.mktemp("parts") / "site", "basic")
    for i in range(60):
        words = " ".join(word for word, every in WORDS.items() if i % every == 0)
        words += " annealing" if i == 7 else " annual" if i % 4 == 1 else ""    # a part of it, elsewhere
        write(site / f"content/posts/2024-{1 + i % 12:02d}-{1 + i // 12:02d}-post-{i}.md",
              f"---\ntitle: Post {i}\n---\nThis post {i} is about {words or 'nothing much'}.\n")
    write(site / "content/docs/index.md", "---\ntitle: Docs\n---\nThe docs mention marmot and gazelle.\n")
    write(site / "notebooks/burrows.py", TUTORIAL)
    build(site, OPTIONS)
    out = site / "_site"
    marked = sorted((p.relative_to(out).as_posix(), p.read_bytes()) for p in out.rglob("*.html")
                    if MARKER in p.read_bytes())
    for rel, data in index_pages([(page_url(path), data.decode()) for path, data in marked]).items():
        write_bytes(out / "pagefind-one" / rel, data)
    handler = functools.partial(Quiet, directory=str(out))
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield f"http://127.0.0.1:{server.server_address[1]}", out
        server.shutdown()


def write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def page(served) -> Iterator[Page]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/setup-test-tools")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(**DESKTOP)
        context.set_default_timeout(BROWSER_TIMEOUT_MS)
        page = context.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))
        page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
        page.on("response", lambda r: r.status >= 400 and problems.append(f"HTTP {r.status}: {r.url}"))
        yield page
        browser.close()
    assert problems == []


def everything_found(page: Page, query: str) -> list[str]:
    """Type ``query`` into the box (emptied first); every result's URL, "More results" pressed until all show."""
    box = page.locator(".site-search-input")
    box.fill("")
    box.focus()
    page.keyboard.type(query)
    page.locator(".site-search-status").filter(has_text=f"for “{query}”").wait_for(timeout=30_000)
    while page.locator(".site-search-more").is_visible():
        shown = page.locator(".site-search-list li").count()
        page.locator(".site-search-more").click()
        page.wait_for_function(f"document.querySelectorAll('.site-search-list li').length > {shown}")
    return sorted(page.locator(".site-search-url").all_inner_texts())


ONE_INDEX = """async (queries) => {
  const pagefind = await import("/pagefind-one/pagefind.js");
  await pagefind.options({ baseUrl: "/" });
  const found = {};
  for (const query of queries) {
    const search = await pagefind.search(query);
    found[query] = (await Promise.all(search.results.map((r) => r.data()))).map((d) => d.url).sort();
  }
  return found;
}"""


def test_the_parts_find_the_same_pages_as_one_index(served, page) -> None:
    base, out = served
    parts = search_parts(out)                             # 63 posts spread over 8 parts
    assert len([part for part in parts if part.startswith("blog/")]) == blog_parts(63) == 8
    assert all(parts.values())
    page.goto(base + "/about.html")
    one = page.evaluate(ONE_INDEX, QUERIES)
    assert len(one["marmot"]) == 32 and one["quagga"] == []      # 30 posts, the docs page, the tutorial
    assert len(one["ocelot tapir"]) == 4 and one["ocelot quagga"] == one["ocelot"]   # a word none holds is left out
    assert one["annealing"] == ["/2024/08/01/post-7.html"]
    assert {query: everything_found(page, query) for query in QUERIES} == one


def test_the_section_menu_keeps_to_a_section_and_is_reached_by_keyboard(served, page) -> None:
    base, _ = served
    page.goto(base + "/about.html")
    assert "/docs/" in everything_found(page, "marmot")
    page.locator(".site-search-input").focus()
    page.keyboard.press("Tab")                                   # from the box to the menu
    menu = page.locator(".site-search-section")
    assert page.evaluate("document.activeElement.className") == "site-search-section"
    assert menu.locator("option").all_inner_texts() == ["everything", "Blog", "Docs", "Pages", "Tutorials"]
    page.keyboard.press("ArrowDown")                             # Blog
    page.locator(".site-search-status").filter(has_text="30 results").wait_for(timeout=30_000)
    assert page.evaluate("document.activeElement.className") == "site-search-section"   # still there
    page.keyboard.press("ArrowDown")                             # Docs
    page.locator(".site-search-status").filter(has_text="1 result for").wait_for(timeout=30_000)
    assert page.locator(".site-search-url").all_inner_texts() == ["/docs/"]
    page.keyboard.press("ArrowDown")                             # Pages: none of them has the word
    page.locator(".site-search-status").filter(has_text="No results").wait_for(timeout=30_000)
    page.keyboard.press("ArrowDown")                             # Tutorials: the word its code printed
    page.locator(".site-search-status").filter(has_text="1 result for").wait_for(timeout=30_000)
    assert page.locator(".site-search-url").all_inner_texts() == ["/docs/tutorials/burrows.html"]
