"""Iframes in notebooks: kept, sandboxed, from the hosts site.yaml ``notebooks.embeds`` lists;
a link with a note otherwise; and ``sitegen check`` (with the Nu Html Checker) content with both.

The outputs are IPython's own (``YouTubeVideo``, ``IFrame``), made here by IPython.
"""

from __future__ import annotations

import re

from IPython.display import IFrame, YouTubeVideo
from nbformat.v4 import new_code_cell, new_markdown_cell, new_output

from generator.build import build
from generator.check import check_site
from generator.configure import load_config
from test_notebooks import NOW, make_site, notebook, page


def shown(value) -> dict:
    return new_output("display_data", data={"text/html": value._repr_html_(), "text/plain": repr(value)})


def embedding() -> dict:
    return notebook(
        new_markdown_cell("# Embeds\n\nA map:\n\n<iframe src=\"https://maps.example.org/embed?x=1\"></iframe>"),
        new_code_cell("YouTubeVideo('dQw4w9WgXcQ')", outputs=[shown(YouTubeVideo("dQw4w9WgXcQ"))]),
        new_code_cell("IFrame(...)", outputs=[shown(IFrame("https://player.vimeo.com/video/76979871", 640, 360))]),
        new_code_cell("srcdoc", outputs=[new_output("display_data", data={
            "text/html": "<iframe srcdoc=\"<script>alert(1)</script>\"></iframe><p>after</p>"})]),
        execute="never")


def test_listed_hosts_keep_sandboxed_lazy_iframes_and_others_become_links_with_warnings(tmp_path):
    site = make_site(tmp_path / "site", "embeds: [www.youtube-nocookie.com, player.vimeo.com]",
                     **{"embeds.ipynb": embedding()})
    warnings = build(site, NOW).warnings
    html = page(site, "embeds")
    assert ('<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" title="Embedded content of '
            'www.youtube-nocookie.com" width="400" height="300" sandbox="allow-scripts allow-same-origin '
            'allow-popups allow-presentation" allow="fullscreen" loading="lazy" '
            'referrerpolicy="strict-origin-when-cross-origin"></iframe>') in html
    assert '<iframe src="https://player.vimeo.com/video/76979871" title="Embedded content of player.vimeo.com" ' \
           'width="640" height="360"' in html
    assert ('Embedded content of maps.example.org, not loaded here: <a href="https://maps.example.org/embed?x=1">'
            in html)
    assert "alert(1)" not in html and "An embedded frame is left out here." in html and "<p>after</p>" in html
    assert "frameborder" not in html and html.count("<iframe") == 2
    assert [w.split(": warning: ", 1)[1] for w in warnings] == [
        "cell 1: the iframe of maps.example.org is shown as a link (notebooks.embeds does not list it)",
        "cell 4: output 1: an iframe with no web address (srcdoc, or none) is left out"]
    report = check_site(load_config(site, check={"html": True}))
    assert report.findings == [], report.findings
    # A player needs its own origin's storage; the frame's origin is never the site's, so the
    # checker's advice against the pair is a warning, as every message about a notebook's content is.
    assert [w.problem for w in report.warnings] == [
        "invalid HTML in a notebook's content: Bad value “allow-scripts allow-same-origin allow-popups "
        "allow-presentation” for attribute “sandbox” on element “iframe”: Setting both “allow-scripts” and "
        "“allow-same-origin” is not recommended, because it effectively enables an embedded page to break out "
        "of all sandboxing."] * 2


def test_without_embeds_no_iframe_is_kept_and_each_is_a_link(tmp_path):
    site = make_site(tmp_path / "site", **{"embeds.ipynb": embedding()})
    warnings = build(site, NOW).warnings
    html = page(site, "embeds")
    assert "<iframe" not in html
    assert re.search(r'Embedded content of www\.youtube\.com, not loaded here: <a href="https://www\.youtube\.com/'
                     r'embed/dQw4w9WgXcQ">', html)
    assert "cell 2: output 1: the iframe of www.youtube.com is shown as a link (notebooks.embeds does not list " \
           "it)" in "\n".join(warnings)
