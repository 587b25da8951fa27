"""Page weight per page kind: requests and KiB a cold browser fetches, for one or more built sites.

    .venv/bin/python benchmarks/page_weight.py _site [other/_site ...]

Each site's folder is served on 127.0.0.1; Chromium (headless, cache empty, 1280 wide) opens
one page of each kind (and an API page), scrolls to the end so lazy images load, and counts every response and
its body's bytes. The page kinds are those of tests/test_look.py. A last row counts what the
search box fetches when it is first used on the home page (focus, type a word, results
shown), on top of the page itself; "-" for a site without the box.
"""

from __future__ import annotations

import functools
import http.server
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from test_look import PAGE_KINDS as LOOK_KINDS  # noqa: E402

PAGE_KINDS = {**LOOK_KINDS, "api": "/docs/dev/api/generator.plan.html"}     # and an API reference page


def serve(folder: str) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=folder)
    handler.func.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


SEARCH = "search, first use (on top of home)"
SEARCH_WORD = "fusion"


def weigh(browser, base: str, url: str, search: bool = False) -> tuple[int, int] | None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    sizes: list[int] = []
    page.on("requestfinished", lambda r: sizes.append(r.sizes()["responseBodySize"]))
    page.goto(base + url, wait_until="networkidle")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_load_state("networkidle")
    if search:
        if not page.locator("#site-search-input").count():
            context.close()
            return None
        del sizes[:]
        page.locator("#site-search-input").focus()
        page.keyboard.type(SEARCH_WORD)
        page.locator(".site-search-status").filter(has_text=SEARCH_WORD).wait_for(timeout=30_000)
        page.wait_for_load_state("networkidle")
    context.close()
    return len(sizes), sum(sizes)


def main(folders: list[str]) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                             args=["--headless", "--no-sandbox", "--disable-gpu"])
        results = {}
        for folder in folders:
            server, base = serve(folder)
            results[folder] = {kind: weigh(browser, base, url) for kind, url in PAGE_KINDS.items()}
            results[folder][SEARCH] = weigh(browser, base, "/", search=True)
            server.shutdown()
        browser.close()
    print("| page kind | " + " | ".join(f"{f}: requests, KiB" for f in folders) + " |")
    print("|---|" + "---|" * len(folders))
    for kind in [*PAGE_KINDS, SEARCH]:
        cells = [f"{results[f][kind][0]}, {results[f][kind][1] / 1024:.1f}" if results[f][kind] else "-"
                 for f in folders]
        print(f"| {kind} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:] or ["_site"])
