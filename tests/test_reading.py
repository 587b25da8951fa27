"""Reading aids in the built files: contents, previous/next in a docs version, "Edit this page"."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import copy_site
from generator.build import BuildOptions, build

OPTIONS = BuildOptions(now=datetime(2030, 1, 1, tzinfo=timezone.utc))
REPOSITORY = "repository:\n  url: https://git.example.org/team/site\n  branch: trunk\n"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = copy_site(tmp_path / "site", "basic")
    docs = site / "content/docs"
    docs.mkdir(parents=True)
    (docs / "index.md").write_text("---\ntitle: Docs\n---\nStart here.\n")
    (docs / "later.md").write_text("---\ntitle: Later\norder: 2\n---\n## One\n\ntext\n\n### One a\n\n## Two\n")
    (docs / "first.md").write_text("---\ntitle: First\norder: 1\n---\n## Only one heading\n")
    (site / "content/posts/2021-02-03-headed.md").write_text(
        "---\ntitle: Headed\n---\n## Why\n\nBecause.\n\n## How\n\n#### Deep\n\nText.\n")
    return site


def page(site: Path, rel: str) -> str:
    return (site / "_site" / rel).read_text()


def contents(html: str) -> list[str]:
    toc = re.search(r'<nav class="toc".*?</nav>', html, re.S)
    return re.findall(r'<a href="#([^"]+)">', toc.group(0)) if toc else []


def test_contents_list_h2_and_h3_when_there_are_two_or_more(site):
    build(site, OPTIONS)
    assert contents(page(site, "2021/02/03/headed.html")) == ["why", "how"]     # h4 left out
    assert contents(page(site, "docs/later.html")) == ["one", "one-a", "two"]
    assert contents(page(site, "docs/first.html")) == []                        # one heading: none
    assert contents(page(site, "about.html")) == []                             # pages have none


def test_docs_pages_link_their_neighbours_in_reading_order(site):
    build(site, OPTIONS)
    def pager(rel: str) -> tuple[str | None, str | None]:
        html = page(site, rel)
        prev = re.search(r'<a class="previous" rel="prev" href="([^"]+)"', html)
        following = re.search(r'<a class="next" rel="next" href="([^"]+)"', html)
        return prev and prev.group(1), following and following.group(1)
    assert pager("docs/index.html") == (None, "/docs/first.html")
    assert pager("docs/first.html") == ("/docs/", "/docs/later.html")
    assert pager("docs/later.html") == ("/docs/first.html", None)


def test_edit_links_name_each_source_in_the_repository(site):
    (site / "site.yaml").write_text((site / "site.yaml").read_text() + REPOSITORY)
    build(site, OPTIONS)
    edit = "https://git.example.org/team/site/edit/trunk/"
    assert f'href="{edit}content/posts/2021-02-03-headed.md">Edit this page' in page(site, "2021/02/03/headed.html")
    assert f'href="{edit}content/pages/about.md">Edit this page' in page(site, "about.html")
    assert f'href="{edit}content/docs/later.md">Edit this page' in page(site, "docs/later.html")
    assert "Edit this page" not in page(site, "blog.html")                      # generated: no source


def test_no_repository_no_edit_links(site):
    build(site, OPTIONS)
    assert not any("Edit this page" in path.read_text() for path in (site / "_site").rglob("*.html"))
