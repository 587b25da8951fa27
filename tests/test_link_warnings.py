"""A build warns, at the Markdown file and line, of links to pages, anchors and images the site
does not have; an incremental build warns exactly as a clean one (real builds throughout)."""

from __future__ import annotations

import shutil
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.build import BuildOptions, Engine, build
from generator.links import _REFERENCE, _ELSEWHERE, document_links, joined_path, site_path

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


DOC = """\
---
title: Guide
---

## Install

Read [the intro](index.html), [about](/about.html) and [install](#install).

Broken: [gone](gone.html), [no anchor](index.html#nowhere) and ![missing](/images/missing.png).
"""

TUTORIAL = """\
# %% [markdown]
# # A tutorial
#
# Fine: [the guide](/docs/guide.html#install), [the post](/2019/03/18/first-post.html),
# [the title](#a-tutorial) and its Jupyter id [too](#A-tutorial).

# %% [markdown]
# Broken: [gone](/docs/gone.html)
#
# and [no anchor](/docs/guide.html#nowhere), [this page](#nowhere-here).
"""


def test_docs_pages_and_tutorials_warn_of_broken_links_at_their_line_and_cell(tmp_path):
    from nbformat.v4 import new_markdown_cell

    from test_notebooks import notebook

    site = make_site(tmp_path / "site")
    (site / "content/docs").mkdir(parents=True)
    (site / "content/docs/index.md").write_text("---\ntitle: Docs\n---\n\nThe docs.\n")
    (site / "content/docs/guide.md").write_text(DOC)
    (site / "notebooks").mkdir()
    (site / "notebooks/tour.py").write_text(TUTORIAL)
    (site / "notebooks/json.ipynb").write_text(nbformat_text(notebook(
        new_markdown_cell("# In JSON\n\nSee [gone](/gone.html)."), execute="never")))
    expected = sorted([
        "content/docs/guide.md:9: warning: link to gone.html: no such page",
        "content/docs/guide.md:9: warning: link to index.html#nowhere: no anchor #nowhere on /docs/index.html",
        "content/docs/guide.md:9: warning: image /images/missing.png: no such file",
        "notebooks/json.ipynb: warning: cell 1: line 3: link to /gone.html: no such page",
        "notebooks/tour.py:7: warning: cell 2: line 1: link to /docs/gone.html: no such page",
        "notebooks/tour.py:7: warning: cell 2: line 3: link to /docs/guide.html#nowhere: no anchor #nowhere "
        "on /docs/guide.html",
        "notebooks/tour.py:7: warning: cell 2: line 3: link to #nowhere-here: no anchor #nowhere-here on this page",
    ])
    assert docs_warnings(build(site, OPTIONS)) == expected
    # A build with the docs section as it was (not run again: only an asset is new) warns the same.
    (site / "assets/new.txt").write_text("new\n")
    again = build(site, OPTIONS)
    assert again.reports["docs"].versions == {} and again.reports["docs"].tutorials.ran == 0
    assert docs_warnings(again) == expected
    # A page a docs page links goes: the docs page warns of it.
    (site / "content/pages/about.md").unlink()
    assert docs_warnings(build(site, OPTIONS)) == sorted(
        [*expected, "content/docs/guide.md:7: warning: link to /about.html: no such page"])


def docs_warnings(result) -> list[str]:
    return sorted(w for w in link_warnings(result) if w.startswith(("content/docs/", "notebooks/")))


def nbformat_text(nb) -> str:
    import nbformat

    return nbformat.writes(nb)


def test_a_versioned_working_tree_warns_also_when_its_version_is_reused(tmp_path):
    site = make_site(tmp_path / "site")
    (site / "content/docs").mkdir(parents=True)
    (site / "content/docs/index.md").write_text("---\ntitle: Docs\n---\n\nSee [gone](gone.html).\n")
    old = site / "old-docs"
    old.mkdir()
    (old / "index.html").write_text("<!DOCTYPE html><title>Old</title><h1>Old</h1>\n")
    with open(site / "site.yaml", "a") as f:
        f.write("versions:\n  - {name: dev, worktree: true, default: true}\n  - {name: v0, archive: old-docs}\n")
    expected = ["content/docs/index.md:5: warning: link to gone.html: no such page"]
    first = build(site, OPTIONS)
    assert first.reports["docs"].versions == {"dev": "built", "v0": "archived"}
    assert docs_warnings(first) == expected
    (old / "more.html").write_text("<!DOCTYPE html><title>More</title><h1>More</h1>\n")    # the section runs
    again = build(site, OPTIONS)
    assert again.reports["docs"].versions == {"dev": "reused", "v0": "archived"}
    assert docs_warnings(again) == expected


def test_a_page_whose_url_holds_a_percent_sign_resolves_its_links_once(tmp_path):
    # A folder named "a%41" is served at /a%2541/: a page in it that links "b.html" links /a%2541/b.html,
    # the file a%41/b.html, not aA/b.html. So for a page and a docs page; a tutorial's (slugged) the same way.
    from nbformat.v4 import new_markdown_cell

    from test_notebooks import notebook

    site = make_site(tmp_path / "site")
    for folder in ("content/pages/p%41", "content/docs/d%41", "notebooks"):
        (site / folder).mkdir(parents=True)
    (site / "content/pages/p%41/index.md").write_text("---\ntitle: P\n---\n\nSee [b](b.html) and [gone](gone.html).\n")
    (site / "content/pages/p%41/b.md").write_text("---\ntitle: B\n---\n\nBack [up](../p%2541/).\n")
    (site / "content/docs/index.md").write_text("---\ntitle: Docs\n---\n\nSee [b](d%2541/b.html).\n")
    (site / "content/docs/d%41/index.md").write_text("---\ntitle: D\n---\n\nSee [b](b.html) and [gone](gone.html).\n")
    (site / "content/docs/d%41/b.md").write_text("---\ntitle: B\n---\n\nSee [the tutorial](../tutorials/t.html).\n")
    (site / "notebooks/t.ipynb").write_text(nbformat_text(notebook(
        new_markdown_cell("# T\n\nSee [b](/docs/d%2541/b.html) and [gone](/docs/d%2541/gone.html)."), execute="never")))
    result = build(site, OPTIONS)
    assert (site / "_site/p%41/b.html").is_file() and (site / "_site/docs/d%41/b.html").is_file()
    assert sorted(w for w in link_warnings(result) if "%" in w) == [
        "content/docs/d%41/index.md:5: warning: link to gone.html: no such page",
        "content/pages/p%41/index.md:5: warning: link to gone.html: no such page",
        "notebooks/t.ipynb: warning: cell 1: line 3: link to /docs/d%2541/gone.html: no such page",
    ]


PATH_PARTS = st.sampled_from(["/", "//", ".", "..", "./", "../", "a", "b.html", "%20", "%2F", "%25", " ",
                              "é", ":", ";", "?", "#", "\\", "\t", "index.html", "docs", "x.png"])


@settings(max_examples=500, deadline=None)
@given(path=st.lists(PATH_PARTS, max_size=8).map("".join),
       page=st.sampled_from(["/", "/about.html", "/2021/01/02/a b.html", "/docs/v1/x/", "/é/%25.html"]))
def test_a_links_site_path_is_the_joined_path(path, page):
    """The shortcut for paths from the root gives what joining them the plain way gives."""
    assert site_path(path, page) == joined_path(path, page)


def plain_links(html: str, body: str, first_line: int) -> tuple:
    """generator.links.document_links as it read every URL: unescaped, stripped and split."""
    from html import unescape
    from urllib.parse import unquote, urlsplit

    from generator.links import _KINDS, _place_of

    found, at = [], 0
    for match in _REFERENCE.finditer(html):
        url = unescape(match.group(2) if match.group(2) is not None else match.group(3)).strip()
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not url:
            continue
        where = _place_of(url, body, at)
        if where >= 0:
            at = where + 1
        found.append((first_line + body.count("\n", 0, max(where, 0)), _KINDS[match.group(1).lower()], url,
                      parts.path, unquote(parts.fragment)))
    return tuple(found)


URL_PIECES = st.sampled_from(["https://", "http://", "HTTPS://", "http", "s", ":", "//", "/", "a", ".html", "#x",
                              "&amp;", "&#104;", " ", "\t", "%20", "?q", "mailto:", "\u00e9", "example.org"])


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(['<a href="{}">', "<img src='{}'>", '<A class="c" HREF="{}">']),
                          st.lists(URL_PIECES, max_size=6).map("".join)), max_size=6),
       st.lists(URL_PIECES, max_size=6).map("".join))
def test_a_documents_links_are_those_read_the_plain_way(tags, noise):
    """A link passed over by its scheme as written (``https://``: most links) is one that reading
    each URL whole (unescaped, stripped, split) passes over too: the same links, lines and parts."""
    html = noise.join(tag.format(url) for tag, url in tags)
    body = "\n".join(url for _, url in tags)
    assert document_links(html, body, 3) == plain_links(html, body, 3)


def test_links_elsewhere_are_passed_over_and_the_rest_kept():
    html = '<a href="https://x.org/a">x</a> <a href="/b.html#c">b</a> <a href="http://y">y</a> <img src="i.png">'
    assert document_links(html, "", 1) == plain_links(html, "", 1) == (
        (1, "link", "/b.html#c", "/b.html", "c"), (1, "image", "i.png", "i.png", ""))
    assert all(html.count(f'"{start}') for start in _ELSEWHERE)


# Pages linking each other, then changed so that each way a page's warnings can change without
# that page changing is met: a page it links comes, goes, moves, or gains or loses an anchor.
LINKERS = {
    "content/pages/a.md": "---\ntitle: A\n---\n\nTo [b](/b.html), [c's part](/c.html#part), [new](/new.html), "
                          "[d](d.html) and [e](/e/).\n\n![A picture](/assets/picture.svg)\n",
    "content/pages/b.md": "---\ntitle: B\n---\n\nBack to [a](/a.html#top) and [c](c.html#part).\n\n## Part\n",
    "content/pages/c.md": "---\ntitle: C\n---\n\n## Part\n\nTo [b's part](/b.html#part).\n",
    "content/pages/d.md": "---\ntitle: D\n---\n\nTo [b](/b.html) and [nowhere](/nowhere.html).\n",
}
EDITS = [
    ("add a page a link waits for", {"content/pages/new.md": "---\ntitle: New\n---\n\nNew.\n"}),
    ("add the image a page shows", {"assets/picture.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>\n"}),
    ("remove a page others link", {"content/pages/b.md": None}),
    ("rename the heading a link names", {"content/pages/c.md": "---\ntitle: C\n---\n\n## Whole\n\nText.\n"}),
    ("move a page", {"content/pages/d.md": "---\ntitle: D\npermalink: /e/\n---\n\nTo [b](/b.html).\n"}),
    ("bring the removed page back", {"content/pages/b.md": LINKERS["content/pages/b.md"]}),
    ("remove the image", {"assets/picture.svg": None}),
    ("edit a linking page itself", {"content/pages/a.md": "---\ntitle: A\n---\n\nOnly [gone](/gone.html).\n"}),
    ("edit a page nothing links", {"content/pages/about.md": "---\ntitle: About\n---\n\nChanged.\n"}),
]


def write_files(site: Path, files: dict[str, str | None]) -> None:
    for name, text in files.items():
        if text is None:
            (site / name).unlink()
        else:
            (site / name).write_text(text)


@pytest.mark.parametrize("kept", ["in .sitegen", "in memory"])
def test_each_edit_warns_of_links_exactly_as_a_clean_build(tmp_path, kept):
    """The link check kept from the last build (generator.linkcheck) checks again what an edit
    touched: after each edit, the warnings, in their order, are a clean build's."""
    site = make_site(tmp_path / "site")
    write_files(site, LINKERS)
    engine = Engine(site, OPTIONS)
    engine.build()
    journal = site / ".sitegen/cache/link-check.journal"
    for step, (what, files) in enumerate(EDITS):
        write_files(site, files)
        if journal.exists():        # as a build that died while it wrote there leaves it
            with open(journal, "ab") as f:
                f.write(b"\x01\x02partial")
        incremental = (engine.build() if kept == "in memory" else build(site, OPTIONS)).link_warnings
        clean_site = tmp_path / f"clean-{step}"
        shutil.copytree(site, clean_site, ignore=shutil.ignore_patterns(".sitegen", "_site"))
        clean = build(clean_site, OPTIONS).link_warnings
        assert incremental == clean, what
        assert any("content/pages/" in w for w in clean), what


def test_an_edit_checks_again_the_links_of_the_pages_it_touched_alone(tmp_path, monkeypatch):
    """Proportional to the edit: the page edited, and the pages linking a page that came."""
    import generator.linkcheck

    site = make_site(tmp_path / "site")
    write_files(site, LINKERS)
    build(site, OPTIONS)
    checked = []

    def page_warnings(page, **given):
        checked.append(str(page.source))
        return check(page, **given)

    check = generator.linkcheck.page_warnings
    monkeypatch.setattr(generator.linkcheck, "page_warnings", page_warnings)
    write_files(site, {"content/pages/c.md": LINKERS["content/pages/c.md"] + "\nMore words.\n"})
    build(site, OPTIONS)
    assert checked == ["content/pages/c.md"]
    checked.clear()
    write_files(site, {"content/pages/new.md": "---\ntitle: New\n---\n\nNew.\n"})
    build(site, OPTIONS)
    assert sorted(checked) == ["content/pages/a.md", "content/pages/new.md"]
