"""Page weight of the shipped site: requests and KiB for each kind of page, loaded in Chromium.

    python benchmarks/page_weight.py --repo /work/main          # build that checkout's site, then load it
    python benchmarks/page_weight.py --out _site                 # load an already built site
    python benchmarks/page_weight.py --repo . --json after.json  # and keep the figures

With ``--repo`` the site is built from a checkout without touching it: a clone sharing its
git objects (the docs versions built from git refs need them) gets the site's files, and
the checkout's own ``generator`` builds it. Then a plain static server on 127.0.0.1 serves
the output (no compression, no live reload: what a static host without gzip sends), and
headless Chromium (``/usr/bin/chromium``, through Playwright) loads each kind of page once
with an empty cache, until the network is idle, without scrolling. Counted: every request
the page made and the bytes received (bodies and headers), and what the bodies would
weigh gzipped, as most hosts send them. A last row counts what the search box loads when
it is first used (focus, type a word, results shown), on top of the home page.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SITE_FILES = ("site.yaml", "content", "templates", "assets", "notebooks")
VIEWPORT = {"width": 1280, "height": 800}


def build_checkout(repo: Path, work: Path) -> Path:
    """Build the site of checkout ``repo`` in a clone under ``work``; its output folder."""
    site = work / "site"
    subprocess.run(["git", "clone", "--quiet", "--no-checkout", "--shared", str(repo), str(site)], check=True)
    for name in SITE_FILES:
        source = repo / name
        if source.is_dir():
            shutil.copytree(source, site / name)
        elif source.is_file():
            shutil.copy2(source, site / name)
    env = {**os.environ, "PYTHONPATH": str(repo)}
    subprocess.run([sys.executable, "-m", "generator", "build"], cwd=site, env=env, check=True,
                   stdout=sys.stderr)
    return site / "_site"


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass


def serve(out: Path) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def page_kinds(out: Path) -> dict[str, str]:
    """Kind -> URL path of one page of each kind, found in the built site's own listings."""
    def first_link(listing: str, pattern: str) -> str:
        match = re.search(pattern, (out / listing).read_text(encoding="utf-8"))
        if not match:
            raise SystemExit(f"page_weight: no link matching {pattern} in {listing}")
        return match.group(1)
    docs = json.loads((out / "docs/versions.json").read_text()) if (out / "docs/versions.json").is_file() else []
    version = next((v["version"] for v in docs if "stable" in v.get("aliases", [])), docs[0]["version"] if docs else "")
    prefix = f"/docs/{version}/" if version else "/docs/"
    return {
        "home": "/",
        "blog": "/blog.html",
        "post": first_link("blog.html", r'<h2><a href="(/\d{4}/[^"]+\.html)"'),
        "page": "/about.html",
        "tag page": first_link("tags.html", r'href="(/tags/[^"/]+\.html)"'),
        "docs page": prefix + "install.html",
        "tutorial": first_link(prefix.lstrip("/") + "tutorials/index.html", r'<h2><a href="([^"]+\.html)"'),
        "404": "/404.html",
    }


def weigh(browser, url: str, search_word: str | None = None) -> dict:
    """Load ``url`` with an empty cache: requests, bytes received, gzipped bodies, by type."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    seen: list = []
    page.on("requestfinished", lambda request: seen.append(request))
    page.goto(url, wait_until="networkidle")
    before = len(seen)
    if search_word is not None:
        page.locator("#site-search-input").focus()
        page.keyboard.type(search_word)
        page.locator(".site-search-status").filter(has_text=search_word).wait_for(timeout=15_000)
        page.wait_for_load_state("networkidle")
        seen = seen[before:]
    received = gzipped = 0
    kinds: Counter[str] = Counter()
    for request in seen:
        sizes = request.sizes()
        received += sizes["responseBodySize"] + sizes["responseHeadersSize"]
        response = request.response()
        body = response.body() if response is not None else b""
        gzipped += len(gzip.compress(body, 9)) + sizes["responseHeadersSize"]
        kinds[request.resource_type] += 1
    context.close()
    return {"url": url, "requests": len(seen), "kib": round(received / 1024, 1),
            "gzip_kib": round(gzipped / 1024, 1), "types": dict(sorted(kinds.items()))}


def table(rows: dict[str, dict]) -> str:
    lines = ["| page kind | URL | requests | KiB | KiB gzipped | requests by type |",
             "|---|---|---:|---:|---:|---|"]
    for kind, row in rows.items():
        types = ", ".join(f"{n} {t}" for t, n in row["types"].items())
        lines.append(f"| {kind} | `{row['url']}` | {row['requests']} | {row['kib']:.1f} | {row['gzip_kib']:.1f} | {types} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--repo", type=Path, help="a checkout whose shipped site to build and weigh")
    where.add_argument("--out", type=Path, help="an already built site (its output folder)")
    parser.add_argument("--search-word", default="fusion", help="the word typed for the search row")
    parser.add_argument("--json", type=Path, help="also write the figures to FILE")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="sitegen-weight-") as tmp:
        out = build_checkout(args.repo.resolve(), Path(tmp)) if args.repo else args.out.resolve()
        server = serve(out)
        base = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                rows = {kind: weigh(browser, base + path) for kind, path in page_kinds(out).items()}
                if (out / "assets/js/search.js").is_file():
                    rows["search, first use (on top of home)"] = weigh(browser, base + "/", args.search_word)
                browser.close()
        finally:
            server.shutdown()
    for row in rows.values():
        row["url"] = row["url"].removeprefix(base)
    print(table(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
