"""The site this repository ships: built whole, then checked through its real files."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from pathlib import Path

import lxml.html
import nbformat
import pytest
import yaml

from conftest import copy_site
from generator.build import BuildOptions, build
from generator.check import check_site
from generator.configure import load_config
from site_checks import (assert_feeds_parse, assert_group_feeds_parse, assert_html5_parses,
                         assert_internal_links_and_anchors, assert_json_feed_valid, assert_share_meta,
                         assert_sitemap_valid, search_index, searched)

PAGES = ["index.html", "vta.html", "community.html", "about.html", "download.html", "asf.html",
         "404.html", "blog.html", "history.html", "tags.html", "categories.html", "authors.html",
         "source/tiled_matmul.html"]


@pytest.fixture(scope="module")
def shipped(tmp_path_factory) -> Path:
    site = copy_site(tmp_path_factory.mktemp("shipped") / "site")
    result = build(site, BuildOptions(now=datetime(2026, 11, 29, tzinfo=timezone.utc)))
    assert len(result.site.posts) >= 8
    # Both docs versions have the same three tutorials: each runs once, for the first version.
    assert (result.reports["docs"].tutorials.ran, result.reports["docs"].tutorials.cached) == (3, 3)
    (site / "warnings.txt").write_text("\n".join(result.warnings))
    return site / "_site"


def test_builds_without_a_warning(shipped):
    """The project's own site is the example users copy: a warning there is a defect of ours."""
    assert (shipped.parent / "warnings.txt").read_text() == ""


def test_has_the_pages_of_a_project_site(shipped):
    for page in PAGES:
        assert (shipped / page).is_file(), page


def test_posts_span_years_at_their_permalinks(shipped):
    posts = [p for p in shipped.glob("[0-9][0-9][0-9][0-9]/[0-9][0-9]/[0-9][0-9]/*.html")]
    assert len(posts) >= 8
    assert len({p.relative_to(shipped).parts[0] for p in posts}) >= 3


def test_drafts_stay_out(shipped):
    drafts = [p for p in (Path(__file__).parents[1] / "content/posts").glob("*.md")
              if re.search(r"^draft:\s*true", p.read_text(), re.M)]
    for draft in drafts:
        year, month, day, slug = draft.stem.split("-", 3)
        assert not (shipped / year / month / day / f"{slug}.html").exists()


def test_every_markdown_feature_is_used(shipped):
    html = "".join(p.read_text() for p in shipped.glob("20*/**/*.html"))
    for marker in ['class="footnote"', "<table>", "<img ", 'class="arithmatex"', 'target="_blank"',
                   "<dl>", "<abbr ", 'class="admonition', 'class="linenos"', 'class="hll"',
                   '<span class="k">', "&ldquo;", 'id="download--source-code"']:
        assert marker in html, marker


def test_community_and_download_come_from_data_files(shipped):
    community = (shipped / "community.html").read_text()
    assert community.count('class="card"') >= 3
    assert "discuss.tvm.apache.org" in community
    download = (shipped / "download.html").read_text()
    assert download.count("<tr>") >= 5 and ".tar.gz" in download


def test_sitegen_check_finds_nothing(shipped):
    """Links, anchors, third-party requests, and the Nu Html Checker on every page."""
    config = load_config(shipped.parent)
    assert config.check.html, "site.yaml must keep check.html on: the shipped site is valid HTML"
    report = check_site(config)
    assert report.ok, "\n".join(map(str, report.findings))
    assert report.checked >= 60


def test_valid_html_feeds_sitemap_links(shipped):
    posts = list(shipped.glob("[0-9][0-9][0-9][0-9]/[0-9][0-9]/[0-9][0-9]/*.html"))
    assert_html5_parses(shipped)
    assert_feeds_parse(shipped, expected_entries=min(20, len(posts)))
    assert len(assert_group_feeds_parse(shipped, "tags", entries=20)) >= 20
    assert len(assert_group_feeds_parse(shipped, "categories", entries=20)) >= 5
    assert len(assert_json_feed_valid(shipped / "feed.json")["items"]) == min(20, len(posts))
    assert_sitemap_valid(shipped)
    assert_internal_links_and_anchors(shipped)


def test_each_page_has_exactly_one_h1(shipped):
    for page in shipped.rglob("*.html"):
        text = page.read_text()
        if "http-equiv=\"refresh\"" in text:
            continue
        assert len(re.findall(r"<h1[\s>]", text)) == 1, page.relative_to(shipped)


def test_docs_come_in_two_versions(shipped):
    versions = json.loads((shipped / "docs/versions.json").read_text())
    assert [(v["version"], v["aliases"]) for v in versions] == [("dev", []), ("v0.18", ["stable", "latest"])]
    for version in ("dev", "v0.18"):
        assert (shipped / f"docs/{version}/architecture.html").is_file()
    assert "version-banner" in (shipped / "docs/dev/install.html").read_text()
    assert 'url=/docs/v0.18/"' in (shipped / "docs/index.html").read_text()


TUTORIALS = ("scan_recurrence", "smoothing_plot", "tiled_matmul")


@pytest.mark.parametrize("version", ["dev", "v0.18"])
def test_each_version_has_its_tutorials_executed_and_linked(shipped, version):
    tutorials = shipped / "docs" / version / "tutorials"
    gallery = (tutorials / "index.html").read_text()
    for slug in TUTORIALS:
        assert f'href="/docs/{version}/tutorials/{slug}.html"' in gallery
        executed = nbformat.read(tutorials / f"{slug}.ipynb", as_version=4)
        nbformat.validate(executed)
        assert all(cell.execution_count for cell in executed.cells if cell.cell_type == "code")
        assert (tutorials / f"{slug}.py").read_text().startswith("# ---\n# sitegen:\n")
        switcher = (tutorials / f"{slug}.html").read_text()
        assert f'href="/docs/dev/tutorials/{slug}.html"' in switcher
        assert f'href="/docs/v0.18/tutorials/{slug}.html"' in switcher
    assert "cumsum matches np.cumsum" in (tutorials / "scan_recurrence.html").read_text()
    plot = (tutorials / "smoothing_plot.html").read_text()
    png = re.search(rf'<img src="/(docs/{version}/tutorials/smoothing_plot/[0-9a-f]{{16}}\.png)"', plot)
    assert png and (shipped / png.group(1)).read_bytes().startswith(b"\x89PNG")
    assert "tiles (7, 11, 13): same result" in (tutorials / "tiled_matmul.html").read_text()
    # Every docs page links the gallery of its version.
    assert f'href="/docs/{version}/tutorials/"' in (shipped / f"docs/{version}/install.html").read_text()


def test_the_tutorials_url_in_the_nav_leads_to_the_default_versions_gallery(shipped):
    assert 'href="/docs/tutorials/"' in (shipped / "index.html").read_text()
    assert 'url=/docs/v0.18/tutorials/"' in (shipped / "docs/tutorials/index.html").read_text()
    for slug in TUTORIALS:
        page = (shipped / f"docs/tutorials/{slug}.html").read_text()
        assert f'url=/docs/v0.18/tutorials/{slug}.html"' in page
        assert (shipped / f"docs/tutorials/{slug}.ipynb").read_bytes() == \
            (shipped / f"docs/v0.18/tutorials/{slug}.ipynb").read_bytes()


def test_the_search_indexes_hold_every_post_page_docs_page_and_tutorial(shipped):
    site = searched(shipped, "none")                 # every part but the docs versions
    posts = {"/" + p.relative_to(shipped).as_posix() for p in shipped.glob("[0-9]*/[0-9]*/[0-9]*/*.html")}
    assert posts | {"/about.html", "/vta.html", "/community.html", "/download.html", "/asf.html"} <= site.keys()
    assert not site.keys() & {"/", "/blog.html", "/tags.html", "/history.html", "/404.html", "/posts.html"}
    assert not [url for url in site if url.startswith("/docs/")]
    for version in ("dev", "v0.18"):
        docs = search_index(shipped / f"pagefind/docs/{version}") \
            | search_index(shipped / f"pagefind/tutorials/{version}")
        pages = {f"/docs/{version}/{name}" for name in ("", "install.html", "architecture.html")}
        tutorials = {f"/docs/{version}/tutorials/{slug}.html" for slug in TUTORIALS}
        assert pages | tutorials <= docs.keys() and all(url.startswith(f"/docs/{version}/") for url in docs)
        assert "cumsum matches np.cumsum" in docs[f"/docs/{version}/tutorials/scan_recurrence.html"]
    assert sorted(p.name for p in (shipped / "pagefind/docs").iterdir()) == ["dev", "v0.18"]   # no alias


def test_every_page_head_carries_a_share_card_and_posts_a_blog_posting(shipped):
    config = load_config(shipped.parent)
    assert assert_share_meta(shipped, config.url, config.title) >= 50
    post = lxml.html.parse(str(shipped / "2017/08/22/operator-fusion.html")).getroot()
    assert post.cssselect('meta[property="og:image"]')[0].get("content") == \
        "https://tvm.apache.org/assets/images/social-card.jpg"          # site.yaml social.image
    robots = (shipped / "robots.txt").read_text()
    assert "Sitemap: https://tvm.apache.org/sitemap.xml" in robots.splitlines()


def test_authors_have_pages_and_posts_link_them(shipped):
    """content/data/authors.yml: a page for each person, linked from their posts; a post's
    author the file does not hold ("TVM PMC") is shown as written."""
    people = yaml.safe_load((Path(__file__).parents[1] / "content/data/authors.yml").read_text())
    assert len(people) >= 8
    for key, person in people.items():
        html = (shipped / f"authors/{key}.html").read_text()
        assert f"<h1>{person['name']}</h1>" in html and 'class="post-list"' in html, key
        assert (shipped / person["avatar"].lstrip("/")).is_file()
    relax = (shipped / "2021/12/16/relax-unified-ir.html").read_text()
    assert relax.count('rel="author"') == 3 and 'href="/authors/marta-kowalska.html"' in relax
    assert 'class="reading-time"' in relax
    community = (shipped / "2023/06/15/community-growth.html").read_text()
    assert "TVM PMC" in community and 'rel="author"' not in community


def test_source_listing_has_linkable_lines(shipped):
    html = (shipped / "source/tiled_matmul.html").read_text()
    script = (Path(__file__).parents[1] / "notebooks/tiled_matmul.py").read_text()
    assert html.count('<tr id="L') == len(script.splitlines())
    assert '<a href="#L12">12</a>' in html


def test_edit_links_lead_to_the_sources_of_the_working_tree(shipped):
    edit = "https://github.com/apache/tvm-site/edit/main/"
    assert f'href="{edit}content/posts/2017-08-22-operator-fusion.md"' in \
        (shipped / "2017/08/22/operator-fusion.html").read_text()
    assert f'href="{edit}content/pages/vta.md"' in (shipped / "vta.html").read_text()
    assert f'href="{edit}content/docs/install.md"' in (shipped / "docs/dev/install.html").read_text()
    assert f'href="{edit}notebooks/tiled_matmul.py"' in (shipped / "docs/dev/tutorials/tiled_matmul.html").read_text()
    for built_from_a_ref in ("docs/v0.18/install.html", "docs/v0.18/tutorials/tiled_matmul.html"):
        assert "Edit this page" not in (shipped / built_from_a_ref).read_text()
