"""A build warns, at the Markdown file and line, of links to pages, anchors and images the site
does not have; an incremental build warns exactly as a clean one (real builds throughout)."""

from __future__ import annotations

import shutil
from datetime import datetime, timezone
from pathlib import Path

from generator.build import BuildOptions, Engine, build

REPO = Path(__file__).resolve().parents[1]
OPTIONS = BuildOptions(now=datetime(2030, 1, 1, tzinfo=timezone.utc))

LINKS = """\
---
title: Links
---

## Part one

Fine: [about](/about.html), [home](/), [part](#part-one), [relative](about.html), [out](https://example.com/x).
Fine too: [folder](/blog.html), ![logo](/assets/images/logo.svg), [a post](/2019/03/18/first-post.html).

Broken: [nope](/nope.html) and [no anchor](/about.html#nowhere).

![gone](/images/gone.png)

Same page: [bad](#part-two). Twice: [nope again](/nope.html).

A reference, [used][r], defined below.

[r]: /also-missing/
"""


def make_site(folder: Path) -> Path:
    shutil.copytree(REPO / "tests/data/basic", folder)
    shutil.copytree(REPO / "templates", folder / "templates")
    (folder / "content/pages/links.md").write_text(LINKS)
    return folder


def link_warnings(result) -> list[str]:
    return [w for w in result.warnings if "content/pages/links.md" in w or ": link to " in w or ": image " in w]


EXPECTED = [
    "content/pages/links.md:10: warning: link to /nope.html: no such page",
    "content/pages/links.md:10: warning: link to /about.html#nowhere: no anchor #nowhere on /about.html",
    "content/pages/links.md:12: warning: image /images/gone.png: no such file",
    "content/pages/links.md:14: warning: link to #part-two: no anchor #part-two on this page",
    "content/pages/links.md:14: warning: link to /nope.html: no such page",
    "content/pages/links.md:18: warning: link to /also-missing/: no such page",
]


def test_a_build_warns_of_each_broken_link_at_its_markdown_line(tmp_path):
    site = make_site(tmp_path / "site")
    result = build(site, OPTIONS)
    assert link_warnings(result) == EXPECTED
    assert (site / "_site/links.html").is_file()       # warnings, not errors: the page is built


def test_an_incremental_build_warns_as_a_clean_build_does(tmp_path):
    site = make_site(tmp_path / "site")
    engine = Engine(site, OPTIONS)
    assert link_warnings(engine.build()) == EXPECTED
    # Another page edited: the links page is not parsed again, its warnings are the same.
    about = site / "content/pages/about.md"
    about.write_text(about.read_text() + "\nMore words.\n")
    again = build(site, OPTIONS)                    # as `sitegen build` does: from the saved state
    assert again.documents.cached > 0
    assert link_warnings(again) == EXPECTED
    about.write_text(about.read_text() + "\nAnd more.\n")
    assert link_warnings(engine.build()) == EXPECTED   # as the preview does: the site kept in memory
    # The target gains the anchor and a page /nope.html appears: those warnings go, as in a clean build.
    about.write_text(about.read_text() + "\n## Nowhere\n")
    (site / "content/pages/nope.md").write_text("---\ntitle: Nope\n---\nHere now.\n")
    incremental = link_warnings(build(site, OPTIONS))
    shutil.rmtree(site / ".sitegen")
    shutil.rmtree(site / "_site")
    clean = link_warnings(build(site, OPTIONS))
    assert incremental == clean == [EXPECTED[2], EXPECTED[3], EXPECTED[5]]


def test_the_same_url_on_consecutive_lines_is_warned_of_at_each_line(tmp_path):
    site = make_site(tmp_path / "site")
    (site / "content/pages/links.md").write_text(
        "---\ntitle: Links\n---\n\n- [one](/gone.html)\n- [two](/gone.html)\n- [three][g]\n\n[g]: /gone.html\n")
    assert link_warnings(build(site, OPTIONS)) == [
        f"content/pages/links.md:{line}: warning: link to /gone.html: no such page" for line in (5, 6, 9)]


def test_a_link_written_with_the_base_url_is_found_on_its_line(tmp_path):
    site = make_site(tmp_path / "site")
    config = site / "site.yaml"
    config.write_text(config.read_text() + "baseurl: /project\n")
    (site / "content/pages/links.md").write_text(
        "---\ntitle: Links\n---\n\nIntro [about]({{ site.baseurl }}/about.html).\n\n"
        "Then [gone]({{ site.baseurl }}/gone.html) and [also gone](/project/gone.html#x).\n")
    assert link_warnings(build(site, OPTIONS)) == [
        "content/pages/links.md:7: warning: link to /project/gone.html: no such page",
        "content/pages/links.md:7: warning: link to /project/gone.html#x: no such page",
    ]
