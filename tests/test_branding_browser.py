"""Branding as a reader sees it, in Chromium: the colours in light and dark, axe-clean, and an
announcement that stays closed."""

from __future__ import annotations

import functools
import http.server
import re
import threading
from collections.abc import Iterator
from datetime import datetime, timezone

import pytest

from generator.build import BuildOptions, build
from test_branding import BRANDED, make_site, variables
from test_browser import DESKTOP, Watched, browser  # noqa: F401
from test_look import BLOCKING, axe_script, axe_violations  # noqa: F401


@pytest.fixture(scope="module")
def branded(tmp_path_factory) -> Iterator[tuple[str, str]]:
    """The basic site with BRANDED settings, served on 127.0.0.1; its URL and a page's HTML."""
    site = make_site(tmp_path_factory.mktemp("branded") / "site", BRANDED)
    build(site, BuildOptions(now=datetime(2030, 1, 1, tzinfo=timezone.utc)))
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site / "_site"))
    handler.func.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}", (site / "_site/about.html").read_text()
    server.shutdown()
    server.server_close()


def rgb(color: str) -> str:
    return "rgb({}, {}, {})".format(*(int(color[i:i + 2], 16) for i in (1, 3, 5)))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_colours_apply_in_light_and_dark_and_pass_axe(browser, branded, axe_script, scheme):
    url, html = branded
    expected = variables(html, ":root" if scheme == "light" else ':root[data-theme="dark"]')
    watched = Watched(browser, url, **DESKTOP, color_scheme=scheme)
    try:
        page = watched.open(url + "/2019/03/18/first-post.html")
        link = page.locator("main a[href]").first
        assert link.evaluate("a => getComputedStyle(a).color") == rgb(expected["--accent"])
        header = page.locator(".site-header")
        assert header.evaluate("h => getComputedStyle(h).backgroundColor") == rgb(expected["--header"])
        blocking = [(v["id"], [n["target"] for n in v["nodes"]]) for v in axe_violations(page, axe_script)
                    if v["impact"] in BLOCKING]
        assert blocking == []
    finally:
        watched.close()
    assert watched.problems == []


def test_a_closed_announcement_stays_closed_after_reload_and_on_other_pages(browser, branded):
    url, _ = branded
    watched = Watched(browser, url, **DESKTOP)
    try:
        page = watched.open(url + "/about.html")
        banner = page.locator(".announcement")
        assert banner.is_visible() and "Version 2 is out" in banner.inner_text()
        page.get_by_role("button", name="Close the announcement").click()
        assert not banner.is_visible()
        page.reload()
        assert not page.locator(".announcement").is_visible()
        page = watched.open(url + "/")
        assert not page.locator(".announcement").is_visible()
        assert re.fullmatch(r"v2", page.evaluate("localStorage.getItem('sitegen-announcement-closed')"))
    finally:
        watched.close()
    assert watched.problems == []


def test_the_announcement_closes_from_the_keyboard_and_focus_goes_on_to_the_header(browser, branded):
    url, _ = branded
    watched = Watched(browser, url, **DESKTOP)
    try:
        page = watched.open(url + "/about.html")
        close = page.get_by_role("button", name="Close the announcement")     # its accessible name
        for _ in range(6):           # the skip link, the banner's link, then its button
            page.keyboard.press("Tab")
            if close.evaluate("b => b === document.activeElement"):
                break
        assert close.evaluate("b => b === document.activeElement"), "the close button is not reached by Tab"
        page.keyboard.press("Enter")
        assert not page.locator(".announcement").is_visible()
        focused = page.evaluate("[document.activeElement.className, document.activeElement.getAttribute('href')]")
        assert focused == ["brand", "/"]          # not lost to the page's top
        page.keyboard.press("Tab")                # and Tab goes on from there, through the header
        assert page.evaluate("document.activeElement.closest('.site-header') !== null")
    finally:
        watched.close()
    assert watched.problems == []


def test_without_script_the_announcement_shows_no_button_that_cannot_close_it(browser, branded):
    url, _ = branded
    watched = Watched(browser, url, **DESKTOP, java_script_enabled=False)
    try:
        page = watched.open(url + "/about.html")
        assert page.locator(".announcement").is_visible()
        assert page.get_by_role("button", name="Close the announcement").count() == 0
    finally:
        watched.close()
    assert watched.problems == []
