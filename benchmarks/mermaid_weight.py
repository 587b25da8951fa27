"""What a page with one Mermaid flowchart makes a cold browser fetch, for one or more built sites.

    .venv/bin/python benchmarks/mermaid_weight.py PAGE _site [other/_site ...]

Each site's folder is served on 127.0.0.1 (no compression); Chromium (headless, cache empty)
opens PAGE (e.g. /flow.html), waits until the diagram's nodes are drawn and the network is idle,
and counts the responses and their bodies' bytes: all of them, and Mermaid's alone
(``assets/vendor/mermaid/``), also gzipped (level 6, as a host that compresses would send them).
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from page_weight import serve  # noqa: E402
from test_browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

VENDOR = "/assets/vendor/mermaid/"


def weigh(browser, url: str) -> dict[str, int]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    bodies: list[tuple[str, bytes]] = []
    page.on("response", lambda r: bodies.append((r.url, r.body())))
    page.goto(url, wait_until="networkidle")
    page.locator("pre.mermaid svg .node").first.wait_for()
    page.wait_for_load_state("networkidle")
    context.close()
    mermaid = [body for address, body in bodies if VENDOR in address]
    return {"requests": len(bodies), "bytes": sum(len(b) for _, b in bodies),
            "mermaid requests": len(mermaid), "mermaid bytes": sum(map(len, mermaid)),
            "mermaid gzipped": sum(len(gzip.compress(b, 6)) for b in mermaid)}


def main(page: str, folders: list[str]) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for folder in folders:
            server, base = serve(folder)
            print(folder, weigh(browser, base + page))
            server.shutdown()
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
