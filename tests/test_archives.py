"""No page or feed grows with the site: every listing of posts (the blog, the history, each tag's,
category's, author's and taxonomy key's) is paginated by a setting, every feed holds the latest
``feeds.entries``; clean or incremental builds give the same pages as posts move across them."""

from __future__ import annotations

import json
import math
from pathlib import Path

import feedparser
import lxml.html
import pytest

from generator.build import build
from generator.check import check_site
from generator.cli import main
from generator.configure import load_config
from conftest import pages_made
from test_incremental import OPTIONS, assert_same_as_full_build, make_site

SETTINGS = """posts_per_page: 5
archives:
  history_per_page: 7
feeds:
  entries: 3
taxonomies:
  - {name: by_year, kind: year, key: "{date:%Y}", url: "/archive/{key}.html", index: /archive.html,
     order: newest, feed: true}
"""


def add_posts(site: Path, count: int, first_year: int = 2016) -> Path:
    """``count`` posts over three years from ``first_year``, each year's split across history
    pages, with tags, a category and an author of authors.yml."""
    for n in range(count):
        year, day = first_year + n % 3, n // 3 + 1
        (site / f"content/posts/{year}-02-{day:02d}-post-{n}.md").write_text(
            f"---\ntitle: Post {n}\nauthor: ada\ntags: [compilers, t{n % 2}]\ncategories: [news]\n---\n"
            f"Post {n}.\n")
    return site


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """The basic site (three posts of 2019 to 2021) with 33 more, paged and fed by SETTINGS."""
    site = make_site(tmp_path / "site")
    (site / "content/data/authors.yml").write_text("ada:\n  name: Ada Lovelace\n")
    with (site / "site.yaml").open("a") as f:
        f.write(SETTINGS)
    return add_posts(site, 33)


def history(out: Path, first: str = "history.html") -> list[lxml.html.HtmlElement]:
    """The history's pages, from the first through each one's rel=next link."""
    pages, path = [], out / first
    while True:
        pages.append(lxml.html.parse(str(path)).getroot())
        following = pages[-1].cssselect("main a[rel=next]")
        if not following:
            return pages
        path = out / following[0].get("href").lstrip("/")


def listed(page: lxml.html.HtmlElement) -> list[str]:
    """The URLs of the posts a page lists (a post list's, or the blog's summaries)."""
    return [a.get("href") for a in page.cssselect("main ul.post-list > li > a, main article.post-summary h2 a")]


def test_the_history_is_paged_by_its_setting_each_post_once_under_its_year(site: Path) -> None:
    posts = [post.url for post in build(site, OPTIONS).site.posts]
    assert len(posts) == 36
    out = site / "_site"
    pages = history(out)
    assert len(pages) == math.ceil(36 / 7) == 6
    assert [len(listed(page)) for page in pages] == [7, 7, 7, 7, 7, 1]
    assert [url for page in pages for url in listed(page)] == posts         # each once, newest first
    assert [page.findtext(".//h1") for page in pages] == ["Archive"] + [f"Archive, page {n}" for n in range(2, 7)]
    assert (out / "history/page6.html").is_file() and not (out / "history/page7.html").exists()
    for page in pages:
        headings = [int(h2.text) for h2 in page.cssselect("section.year > h2")]
        assert headings == sorted(headings, reverse=True) and len(set(headings)) == len(headings)
        for section in page.cssselect("section.year"):
            year = section.findtext("h2")
            assert all(time.get("datetime").startswith(year) for time in section.cssselect("time"))
    assert pages[1].cssselect("main a[rel=prev]")[0].get("href") == "/history.html"
    years = [[h2.text for h2 in page.cssselect("section.year > h2")] for page in pages]
    assert years == [["2021", "2020", "2019", "2018"], ["2018"], ["2017"], ["2017", "2016"], ["2016"], ["2016"]]
    assert "https://example.org/history/page6.html" in (out / "sitemap.txt").read_text()
    assert check_site(load_config(site)).ok          # every link between the pages resolves


def test_no_listing_or_feed_of_a_large_site_holds_more_than_its_setting(site: Path) -> None:
    build(site, OPTIONS)
    out = site / "_site"
    sizes = {}
    for path in out.rglob("*.html"):
        name = path.relative_to(out).as_posix()
        sizes[name] = len(listed(lxml.html.parse(str(path)).getroot()))
    history_pages = {name for name in sizes if name == "history.html" or name.startswith("history/")}
    assert len(history_pages) == 6 and max(sizes[name] for name in history_pages) == 7
    others = {name: size for name, size in sizes.items() if name not in history_pages}
    for paged in ("blog/page7.html", "tags/compilers/page7.html", "tags/t0/page4.html", "categories/news/page7.html",
                  "authors/ada/page7.html", "archive/2016/page3.html"):
        assert others[paged] > 0, paged          # each kind of listing runs to several pages
    assert max(others.values()) == 5, {name: size for name, size in others.items() if size > 5}
    feeds = {path.relative_to(out).as_posix(): feedparser.parse(path.read_bytes())
             for path in out.rglob("*.xml") if not path.name.startswith("sitemap")}
    assert not [name for name, feed in feeds.items() if feed.bozo or len(feed.entries) > 3]
    assert all(len(feeds[name].entries) == 3 for name in (
        "atom.xml", "rss.xml", "tags/compilers/atom.xml", "categories/news/atom.xml", "archive/2016/atom.xml"))
    assert len(json.loads((out / "feed.json").read_text())["items"]) == 3


def test_posts_moving_across_history_pages_build_as_a_clean_build(site: Path) -> None:
    out = site / "_site"
    build(site, OPTIONS)
    retitled = next((site / "content/posts").glob("*-post-8.md"))     # listed on page 2 alone
    retitled.write_text(retitled.read_text().replace("title: Post 8", "title: Post eight"))
    assert {path for path in pages_made(build(site, OPTIONS)) if "history" in path} == {"history/page2.html"}
    assert_same_as_full_build(site)
    add_posts(site, 1, first_year=2020)           # newer than most: every later post moves one on
    build(site, OPTIONS)
    assert [len(listed(page)) for page in history(out)] == [7, 7, 7, 7, 7, 2]
    assert_same_as_full_build(site)
    for n in (3, 4, 5, 6):                        # from pages 2 to 4: the pages after them move back
        next((site / "content/posts").glob(f"*-post-{n}.md")).unlink()
    build(site, OPTIONS)
    assert [len(listed(page)) for page in history(out)] == [7, 7, 7, 7, 5]
    assert not (out / "history/page6.html").exists()
    assert_same_as_full_build(site)
    moved = next((site / "content/posts").glob("2016-*-post-0.md"))
    moved.write_text(moved.read_text().replace("title: Post 0", "title: Post 0\ndate: 2019-12-31"))
    build(site, OPTIONS)                          # from the last page to the first
    assert "/2019/12/31/post-0.html" in listed(history(out)[0])
    assert_same_as_full_build(site)
    config = site / "site.yaml"
    config.write_text(config.read_text().replace("history_per_page: 7", "history_per_page: 40"))
    build(site, OPTIONS)
    assert [len(listed(page)) for page in history(out)] == [33] and not (out / "history").exists()
    assert_same_as_full_build(site)


def test_a_history_in_a_folder_pages_beside_it(site: Path) -> None:
    config = site / "site.yaml"
    config.write_text(config.read_text().replace("archives:\n", "archives:\n  history: /archive/\n"))
    config.write_text(config.read_text().replace("url: \"/archive/{key}.html\"", "url: \"/years/{key}.html\"")
                      .replace("index: /archive.html", "index: /years.html"))
    build(site, OPTIONS)
    out = site / "_site"
    pages = history(out, "archive/index.html")
    assert len(pages) == 6 and (out / "archive/page2.html").is_file()
    assert pages[1].cssselect("main a[rel=prev]")[0].get("href") == "/archive/"
    assert check_site(load_config(site)).ok


@pytest.mark.parametrize("value, message", [
    ("0", "key 'archives.history_per_page': expected 1 or more, got 0"),
    ("yes", "key 'archives.history_per_page': expected a whole number, got a boolean True"),
])
def test_a_bad_history_page_size_names_the_key(site: Path, value: str, message: str, capsys) -> None:
    config = site / "site.yaml"
    config.write_text(config.read_text().replace("history_per_page: 7", f"history_per_page: {value}"))
    assert main(["-C", str(site), "build"]) == 1
    assert message in capsys.readouterr().err
