"""Search: the Pagefind index a build makes of its pages, read back from the real files.

Each test builds a real site with the real Pagefind binary, then reads the index it
wrote (a fragment per page: gzip, Pagefind's header, then JSON with the page's URL and
text). What the browser does with it is in tests/test_browser.py.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import lxml.html
import pytest

from conftest import copy_site, own_template
from generator.build import BuildOptions, build, render_site
from generator.configure import load_config
from generator.errors import SiteError
from generator.pagefind import index_pages
from generator.outputs.search import blog_part, blog_parts
from site_checks import search_index as indexed
from site_checks import part_holding, search_parts, searched

OPTIONS = BuildOptions(now=datetime(2030, 1, 1, tzinfo=timezone.utc))
GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.org",
           "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.org",
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=GIT_ENV, check=True, capture_output=True,
                          text=True).stdout


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def add_to_config(site: Path, text: str) -> None:
    config = site / "site.yaml"
    config.write_text(config.read_text() + text)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return copy_site(tmp_path / "site", "basic")


@pytest.fixture
def versioned(tmp_path: Path) -> Path:
    """A site in a real git repository: docs tagged v1 (the default, copied at /docs/stable/),
    and the working tree's as dev."""
    site = copy_site(tmp_path / "site", "basic")
    git(tmp_path, "init", "-q", "-b", "main", str(site))
    write(site / "content/docs/index.md", "---\ntitle: Docs\n---\nThe first docs mention zeppelins.\n")
    write(site / "content/docs/guide.md", "---\ntitle: Guide\n---\nA guide to quokkas.\n")
    git(site, "add", "-A")
    git(site, "commit", "-q", "-m", "docs v1")
    git(site, "tag", "v1")
    write(site / "content/docs/guide.md", "---\ntitle: Guide\n---\nA guide to wombats, new in dev.\n")
    add_to_config(site, "versions:\n"
                        "  - {name: dev, worktree: true, status: development}\n"
                        "  - {name: v1, ref: v1, default: true, aliases: [stable], alias_type: copy}\n")
    return site


def test_the_index_holds_posts_and_pages_not_listings_redirects_or_the_404_page(site: Path) -> None:
    build(site, OPTIONS)
    pages = searched(site / "_site")
    assert set(pages) == {"/2019/03/18/first-post.html", "/2020/05/01/second.html", "/2021/01/02/third.html",
                          "/about.html", "/asf.html"}
    parts = search_parts(site / "_site")
    assert set(parts["pages"]) == {"/about.html", "/asf.html"}
    assert all(part.startswith("blog/") for part in parts if part != "pages")     # posts, by a hash of the URL
    second = pages["/2020/05/01/second.html"]
    assert second.startswith("Second post.") and "Second post body" in second
    # The date, authors, tags and the links to the neighbours are not the post's text.
    assert "Ada" not in second and "compilers" not in second and "First post" not in second


def test_a_build_that_changes_no_page_does_not_run_pagefind(site: Path) -> None:
    build(site, OPTIONS)
    before = {p: p.read_bytes() for p in (site / "_site/pagefind").rglob("*") if p.is_file()}
    os.environ["PAGEFIND_BINARY_PATH"] = str(site / "no-pagefind-here")   # running it now would fail
    try:
        assert build(site, OPTIONS).site is None                            # nothing changed
        write(site / "assets/css/extra.css", "p { margin: 0 }\n")           # a file, but no page, changed
        result = build(site, OPTIONS)
        assert result.written == ["assets/css/extra.css"] and result.reports["search"].made == ()
        post = site / "content/posts/2021-01-02-third.md"
        post.write_text(post.read_text().replace("Third body.", "Third body, with aardvarks."))
        with pytest.raises(SiteError, match=r"Pagefind is not installed .*search: false"):
            build(site, OPTIONS)
    finally:
        del os.environ["PAGEFIND_BINARY_PATH"]
    assert {p: p.read_bytes() for p in (site / "_site/pagefind").rglob("*") if p.is_file()} == before
    result = build(site, OPTIONS)
    # The post's part, and the pages' (blog.html lists the post: its bytes changed, its index did not).
    assert result.reports["search"].made == (part_holding(site / "_site", "/2021/01/02/third.html"), "pages")
    assert result.reports["search-parts"].kept == ("parts",)     # which parts there are: the same
    assert "aardvarks" in searched(site / "_site")["/2021/01/02/third.html"]


def test_each_docs_version_has_its_own_index_and_an_edit_remakes_only_its_own(versioned: Path) -> None:
    result = build(versioned, OPTIONS)
    out = versioned / "_site"
    parts = search_parts(out)
    assert result.reports["search"].made == tuple(sorted(parts))
    assert set(parts["docs/v1"]) == {"/docs/v1/", "/docs/v1/guide.html"}
    assert "quokkas" in parts["docs/v1"]["/docs/v1/guide.html"]
    assert "wombats" in parts["docs/dev"]["/docs/dev/guide.html"]
    assert not any("/docs/" in url for part, pages in parts.items() if not part.startswith("docs/") for url in pages)
    assert sorted(p.name for p in (out / "pagefind/docs").iterdir()) == ["dev", "v1"]   # no index of the alias
    assert set(searched(out, "v1")) - set(searched(out, "dev")) == {"/docs/v1/", "/docs/v1/guide.html"}

    post = versioned / "content/posts/2021-01-02-third.md"
    post.write_text(post.read_text().replace("Third body.", "Third body, edited."))
    assert build(versioned, OPTIONS).reports["search"].made == (part_holding(out, "/2021/01/02/third.html"),
                                                                "pages")
    write(versioned / "content/docs/guide.md", "---\ntitle: Guide\n---\nA guide to numbats.\n")
    result = build(versioned, OPTIONS)
    assert result.reports["search"].made == ("docs/dev",)
    assert result.reports["search"].kept == tuple(sorted(set(parts) - {"docs/dev"}))
    assert "numbats" in indexed(out / "pagefind/docs/dev")["/docs/dev/guide.html"]


def search_box(page: Path) -> dict[str, str]:
    form = lxml.html.parse(str(page)).getroot().cssselect("[data-search]")
    assert len(form) == 1, page
    return dict(form[0].attrib)


def test_a_docs_page_searches_its_own_version_and_other_pages_the_default_one(versioned: Path) -> None:
    build(versioned, OPTIONS)
    out = versioned / "_site"
    assert search_box(out / "docs/dev/guide.html")["data-version"] == "dev"
    assert search_box(out / "docs/v1/guide.html")["data-version"] == "v1"
    assert search_box(out / "docs/stable/guide.html")["data-version"] == "v1"   # a copy of v1's
    assert search_box(out / "about.html")["data-version"] == "v1"
    assert search_box(out / "about.html")["data-parts"] == "/pagefind/parts.json"
    listed = json.loads((out / "pagefind/parts.json").read_text())["parts"]
    assert {(p["bundle"], p["section"], p["label"], p["version"]) for p in listed if p["version"]} == {
        ("docs/dev/", "docs", "Docs dev", "dev"), ("docs/v1/", "docs", "Docs v1", "v1")}
    for part in listed:
        assert (out / "pagefind" / part["bundle"] / "pagefind.js").is_file()
        assert (out / "pagefind" / part["bundle"] / "pagefind-entry.json").is_file()


def test_an_unversioned_docs_section_is_a_part_of_its_own(site: Path) -> None:
    write(site / "content/docs/index.md", "---\ntitle: Docs\n---\nAll about capybaras.\n")
    build(site, OPTIONS)
    assert "capybaras" in search_parts(site / "_site")["docs"]["/docs/"]
    assert search_box(site / "_site/docs/index.html")["data-version"] == ""


def test_the_baseurl_is_in_the_box_not_in_the_index(site: Path) -> None:
    add_to_config(site, "baseurl: /project\n")
    build(site, OPTIONS)
    form = search_box(site / "_site/about.html")
    assert (form["data-parts"], form["data-baseurl"]) == ("/project/pagefind/parts.json", "/project/")
    assert "/about.html" in searched(site / "_site")   # search.js puts the baseurl in front


def test_pages_left_out_by_site_yaml_or_their_front_matter(site: Path) -> None:
    add_to_config(site, 'search:\n  exclude: ["/2019/*"]\n  exclude_selectors: ["pre"]\n')
    about = site / "content/pages/about.md"
    about.write_text(about.read_text().replace("---\n", "---\nsearch_exclude: true\n", 1))
    result = build(site, OPTIONS)
    assert not [w for w in result.warnings if "search_exclude" in w]      # a key the theme reads
    pages = searched(site / "_site")
    assert "/2019/03/18/first-post.html" not in pages and "/about.html" not in pages
    assert "print" not in pages["/2020/05/01/second.html"]                # its code block is left out


def test_search_false_makes_no_index_and_no_box(site: Path) -> None:
    build(site, OPTIONS)
    assert (site / "_site/pagefind/pages/pagefind.js").is_file()
    add_to_config(site, "search: false\n")
    result = build(site, OPTIONS)
    assert not (site / "_site/pagefind").exists()
    assert any(path.startswith("pagefind/") for path in result.deleted)
    assert "data-search" not in (site / "_site/about.html").read_text()
    assert "search.js" not in (site / "_site/about.html").read_text()


@pytest.mark.parametrize("setting, message", [
    ("search: true", "key 'search': expected a mapping with keys exclude, exclude_selectors or false"),
    ("search: {exclude: ['2019/*']}", "key 'search.exclude[0]': expected a URL path starting with '/'"),
    ("search: {exclude_selectors: ['  ']}", "key 'search.exclude_selectors[0]': expected a CSS selector"),
    ("search: {exlude: []}", "unknown key 'search.exlude'"),
])
def test_site_yaml_search_is_checked_before_any_work(site: Path, setting: str, message: str) -> None:
    add_to_config(site, setting + "\n")
    with pytest.raises(SiteError, match=re.escape(message)) as error:
        build(site, OPTIONS)
    assert Path(error.value.path).name == "site.yaml"
    assert not (site / "_site").exists()


def test_the_same_pages_give_the_same_index_byte_for_byte(site: Path, tmp_path: Path) -> None:
    """Pages go to Pagefind in path order: two folders, two processes, one index."""
    other = copy_site(tmp_path / "other", "basic")
    build(site, OPTIONS)
    files = {p.relative_to(site).as_posix(): p.read_bytes() for p in (site / "_site").rglob("*") if p.is_file()}
    made = render_site(load_config(other), OPTIONS).outputs
    assert {p: d for p, d in made.items() if p.startswith("pagefind/")} == \
        {p.removeprefix("_site/"): d for p, d in files.items() if p.startswith("_site/pagefind/")}


def test_a_pagefind_that_fails_stops_the_build_saying_why(site: Path, tmp_path: Path) -> None:
    broken = tmp_path / "pagefind"
    broken.write_text("#!/bin/sh\necho 'pagefind: out of luck' >&2\nexit 3\n")
    broken.chmod(broken.stat().st_mode | stat.S_IEXEC)
    os.environ["PAGEFIND_BINARY_PATH"] = str(broken)
    try:
        with pytest.raises(SiteError, match="search: Pagefind stopped: pagefind: out of luck"):
            build(site, OPTIONS)
    finally:
        del os.environ["PAGEFIND_BINARY_PATH"]
    assert not (site / "_site").exists()


def test_the_pagefind_service_indexes_in_the_order_given() -> None:
    pages = [(f"/p{i}.html", f"<html lang='en'><body><h1>Page {i}</h1><p>word{i} shared</p></body></html>")
             for i in range(30)]
    once, again = index_pages(pages), index_pages(pages)
    assert once == again and "pagefind.js" in once and "pagefind-ui.js" not in once
    assert len([p for p in once if p.startswith("fragment/")]) == 30


def test_a_theme_that_marks_nothing_gets_whole_pages_indexed(site: Path) -> None:
    for name in ("post.html", "page.html"):
        template = own_template(site, name)
        template.write_text(template.read_text().replace(
            '{% if not page.meta.get("search_exclude") %} data-pagefind-body{% endif %}', ""))
    build(site, OPTIONS)
    pages = searched(site / "_site")
    assert "/blog.html" in pages and "/2020/05/01/second.html" in pages


def test_a_part_of_listings_alone_indexes_none_of_them_in_a_theme_that_marks(site: Path) -> None:
    """Whether pages are marked is the theme's, not a part's: here the pages' part holds only
    listings (and pages left out of search), which stay out as they do beside marked pages."""
    for name in ("about.md", "asf.md"):
        page = site / "content/pages" / name
        page.write_text(page.read_text().replace("---\n", "---\nsearch_exclude: true\n", 1))
    build(site, OPTIONS)
    assert search_parts(site / "_site")["pages"] == {}
    assert set(searched(site / "_site")) == {"/2019/03/18/first-post.html", "/2020/05/01/second.html",
                                             "/2021/01/02/third.html"}


def test_a_site_made_by_sitegen_init_has_the_box_and_the_index(tmp_path: Path) -> None:
    from generator.scaffold import init_site

    init_site(tmp_path / "mysite", now=datetime(2029, 6, 1, tzinfo=timezone.utc))
    build(tmp_path / "mysite", OPTIONS)
    out = tmp_path / "mysite/_site"
    assert search_box(out / "index.html")["data-parts"] == "/pagefind/parts.json"
    pages = searched(out)
    assert any(url.startswith("/2029/") for url in pages) and "/about.html" in pages


def test_a_build_may_leave_the_index_behind_and_any_next_build_catches_up(site: Path) -> None:
    """What the preview does on a save: pages first, the index once saves pause."""
    from generator.build import Engine

    build(site, OPTIONS)
    before = {p: p.read_bytes() for p in (site / "_site/pagefind").rglob("*") if p.is_file()}
    post = site / "content/posts/2021-01-02-third.md"
    post.write_text(post.read_text().replace("Third body.", "Third body, on pangolins."))
    part = part_holding(site / "_site", "/2021/01/02/third.html")
    result = Engine(site, OPTIONS).build(derive=False)
    assert "2021/01/02/third.html" in result.written and result.reports["search"].behind == (part, "pages")
    assert {p: p.read_bytes() for p in (site / "_site/pagefind").rglob("*") if p.is_file()} == before
    caught_up = build(site, OPTIONS)                      # no input changed, but the index is behind
    assert caught_up.site is not None and caught_up.reports["search"].made == (part, "pages")
    assert "pangolins" in searched(site / "_site")["/2021/01/02/third.html"]
    assert build(site, OPTIONS).site is None               # and now nothing is left to do
    made = render_site(load_config(site), OPTIONS).outputs
    assert all((site / "_site" / p).read_bytes() == d for p, d in made.items())


def test_the_posts_are_spread_over_parts_that_grow_as_the_root_of_their_number() -> None:
    assert [blog_parts(n) for n in (0, 1, 2, 4, 5, 16, 17, 2_000, 10_000, 100_000)] == \
        [1, 1, 2, 2, 4, 4, 8, 64, 128, 512]
    assert blog_part("2021/01/02/third.html", 64) == "blog/38"
    assert blog_part("2021/01/02/third.html", 1024) == "blog/0038"     # as wide as the last part's number


def test_a_new_post_goes_to_one_part_and_the_others_keep_theirs_until_the_parts_split(site: Path) -> None:
    """The basic site's 3 posts and 7 more make 4 parts; an 11th keeps them; the 17th makes 8,
    each part splitting in two (a post's part at 8 is its part at 4, or that plus 4)."""
    def add_posts(numbers: range) -> None:
        for i in numbers:
            write(site / f"content/posts/2022-03-{i:02d}-added-{i}.md", f"---\ntitle: Added {i}\n---\nPost {i}.\n")

    def blog(out: Path) -> dict[str, str]:
        return {url: part for part, pages in search_parts(out).items() if part.startswith("blog/") for url in pages}

    add_posts(range(1, 8))
    first = build(site, OPTIONS)
    before = blog(site / "_site")
    assert len(before) == 10 and sorted(set(before.values())) == ["blog/00", "blog/01", "blog/02", "blog/03"]
    assert first.reports["search"].made == tuple(sorted({*before.values(), "pages"}))

    add_posts(range(8, 9))
    result = build(site, OPTIONS)
    after = blog(site / "_site")
    new = after.pop("/2022/03/08/added-8.html")
    assert after == before                                                  # every post kept its part
    assert result.reports["search"].made == (new, "pages")                  # blog.html lists the new post
    assert result.reports["search"].kept == tuple(sorted(set(before.values()) - {new}))
    assert result.reports["search-parts"].made == ("parts",)               # its pages' paths changed

    add_posts(range(9, 15))
    build(site, OPTIONS)
    split = blog(site / "_site")
    assert len(split) == 17 and len(set(split.values())) == 8
    assert all(int(split[url][5:]) % 4 == int(part[5:]) for url, part in before.items())


def test_a_site_moved_to_another_folder_keeps_its_index_as_a_ci_checkout_with_a_restored_cache_does(
        site: Path, tmp_path: Path) -> None:
    """A CI restores ``.sitegen`` and ``_site`` (file times kept) into a checkout elsewhere: an
    edit there re-indexes the edited post's part, not every part."""
    import shutil

    first = build(site, OPTIONS)
    moved = shutil.copytree(site, tmp_path / "elsewhere" / "site", symlinks=True)     # copy2: times kept
    post = moved / "content/posts/2021-01-02-third.md"
    post.write_text(post.read_text().replace("Third body.", "Third body, on tapirs."))
    result = build(moved, OPTIONS)
    assert len(first.reports["search"].made) == 3
    assert result.reports["search"].made == (part_holding(moved / "_site", "/2021/01/02/third.html"), "pages")
    assert "tapirs" in searched(moved / "_site")["/2021/01/02/third.html"]
