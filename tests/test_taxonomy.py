"""Taxonomies: tags, categories and site.yaml's own classifications (a per-year archive) are one
planner; a new one is a site.yaml entry, built clean or incrementally to the same bytes."""

from __future__ import annotations

from pathlib import Path

import lxml.html
import pytest

from generator.build import build
from generator.cli import main
from generator.configure import load_config
from generator.errors import SiteError
from test_incremental import OPTIONS, assert_same_as_full_build, make_site

YEARS = """taxonomies:
  - {name: by_year, kind: year, key: "{date:%Y}", url: "/archive/{key}.html", index: /archive.html,
     title: Archive, order: newest, feed: true}
  - {name: by_month, kind: month, key: "{date:%Y-%m}", url: "/archive/{key}/", paginate: false}
"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """The basic site (posts of 2019, 2020 and 2021, two to a page) with three posts of January 2018."""
    site = make_site(tmp_path / "site")
    for day in (3, 4, 5):
        (site / f"content/posts/2018-01-0{day}-winter-{day}.md").write_text(
            f"---\ntitle: Winter {day}\n---\nA post of January {day}.\n")
    return site


def with_years(site: Path) -> Path:
    with (site / "site.yaml").open("a") as f:
        f.write(YEARS)
    return site


def listed(page: Path) -> list[str]:
    """The titles of the posts a generated page lists."""
    return [a.text for a in lxml.html.parse(str(page)).getroot().cssselect(".post-list a")]


def test_a_year_archive_is_a_site_yaml_entry(site: Path) -> None:
    build(with_years(site), OPTIONS)
    out = site / "_site"
    index = lxml.html.parse(str(out / "archive.html")).getroot()
    assert index.findtext(".//h1") == "Archive"
    assert [a.text for a in index.cssselect(".group-index a")] == ["2021", "2020", "2019", "2018"]   # newest first
    assert [a.get("href") for a in index.cssselect(".group-index a")][-1] == "/archive/2018.html"
    assert listed(out / "archive/2018.html") == ["Winter 5", "Winter 4"]       # posts_per_page: 2
    assert listed(out / "archive/2018/page2.html") == ["Winter 3"]
    assert listed(out / "archive/2019.html") == ["First post"]
    page = lxml.html.parse(str(out / "archive/2018.html")).getroot()
    assert page.findtext(".//title").startswith("Year: 2018")
    assert page.findtext(".//h1") == "Posts in “2018”"
    assert page.cssselect("a[href='/archive.html']")[0].text == "All by_year"
    feed = (out / "archive/2018/atom.xml").read_text()
    assert feed.count("<entry>") == 3 and "Winter 3" in feed
    assert listed(out / "archive/2018-01/index.html") == ["Winter 5", "Winter 4", "Winter 3"]   # paginate: false
    assert not (out / "archive/2018-01/page2.html").exists()
    month = lxml.html.parse(str(out / "archive/2018-01/index.html")).getroot()
    assert not month.cssselect("a[href='False']") and "All by_month" not in month.text_content()   # no index


def test_a_template_sees_a_taxonomy_as_site_name(site: Path) -> None:
    (site / "content/pages/years.html").write_text(
        "---\ntitle: Years\nlayout: years\n---\n")
    (site / "templates/years.html").write_text(
        "{% for year, posts in site.by_year.items() %}{{ year }}={{ posts | length }};{% endfor %}\n")
    build(with_years(site), OPTIONS)
    assert (site / "_site/years.html").read_text() == "2021=1;2020=1;2019=1;2018=3;"


def test_a_pages_liquid_sees_a_taxonomy_once_every_post_is_parsed(site: Path) -> None:
    (site / "content/pages/count.md").write_text(
        '---\ntitle: Count\n---\nPosts of 2018: {{ site.by_year["2018"] | size }}.\n')
    build(with_years(site), OPTIONS)
    assert "<p>Posts of 2018: 3.</p>" in (site / "_site/count.html").read_text()


def test_adding_a_taxonomy_moving_a_post_editing_and_removing_it_build_as_a_clean_build(site: Path) -> None:
    build(site, OPTIONS)
    build(with_years(site), OPTIONS)
    assert listed(site / "_site/archive/2021.html") == ["Third post"]
    assert_same_as_full_build(site)
    third = site / "content/posts/2021-01-02-third.md"
    third.write_text(third.read_text().replace("title: Third post", "title: Third post\ndate: 2018-01-06"))
    build(site, OPTIONS)
    assert not (site / "_site/archive/2021.html").exists()
    assert listed(site / "_site/archive/2018.html") == ["Third post", "Winter 5"]
    assert listed(site / "_site/archive/2018/page2.html") == ["Winter 4", "Winter 3"]
    assert_same_as_full_build(site)
    renamed = YEARS.replace("kind: year,", "kind: year, heading: Written in,")
    (site / "site.yaml").write_text((site / "site.yaml").read_text().replace(YEARS, renamed))
    build(site, OPTIONS)
    assert "Written in “2018”" in (site / "_site/archive/2018/page2.html").read_text()
    assert_same_as_full_build(site)
    (site / "site.yaml").write_text((site / "site.yaml").read_text().replace(renamed, ""))
    build(site, OPTIONS)
    assert not (site / "_site/archive").exists() and not (site / "_site/archive.html").exists()
    assert_same_as_full_build(site)


@pytest.mark.parametrize("entry, message", [
    ('{name: y, key: "{date:%Y}", url: "/y/{key}.html", pages: 3}',
     "unknown key 'taxonomies[0].pages' (known keys: feed, heading, index, key, kind, name, order, paginate, "
     "title, url)"),
    ('{name: years, key: "{date:%Y}", url: "/y/{key}.html"}', "key 'taxonomies[0].name': expected a name"),
    ('{name: permalink, key: "{date:%Y}", url: "/y/{key}.html"}',       # a site.yaml key, which site has
     "key 'taxonomies[0].name': expected a name of letters, digits and '_' that site does not already have "
     "(not posts, pages, data, tags, categories, authors, years or a site.yaml key), got 'permalink'"),
    ('{name: y, key: "{title}", url: "/y/{key}.html"}',
     "key 'taxonomies[0].key': expected a pattern of date, tags, categories, authors such as '{date:%Y}', "
     "got '{title}'"),
    ('{name: y, key: "{date:%Y}", url: "/y/year.html"}', "key 'taxonomies[0].url': expected a path starting "
     "with '/' holding {key}"),
    ('{name: y, key: "{date:%Y}", url: "/y/{key}.html", index: "../up.html"}',
     "key 'taxonomies[0].index': expected a path starting with '/'"),
])
def test_a_mistaken_taxonomy_is_one_line_naming_its_key(site: Path, entry: str, message: str, capsys) -> None:
    with (site / "site.yaml").open("a") as f:
        f.write(f"taxonomies:\n  - {entry}\n")
    with pytest.raises(SiteError, match=None) as raised:
        load_config(site)
    assert message in str(raised.value)
    assert main(["-C", str(site), "build"]) != 0
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "site.yaml" in err and message in err
    assert not (site / "_site").exists()


def test_two_taxonomies_of_one_name_are_refused(site: Path) -> None:
    with (site / "site.yaml").open("a") as f:
        f.write('taxonomies:\n  - {name: y, key: "{date:%Y}", url: "/y/{key}.html"}\n'
                '  - {name: y, key: "{date:%m}", url: "/m/{key}.html"}\n')
    with pytest.raises(SiteError, match=r"key 'taxonomies\[1\].name': 'y' names an earlier taxonomy too"):
        load_config(site)


def test_the_tags_are_the_same_taxonomy_under_another_url(site: Path) -> None:
    """A taxonomy of ``{tags}`` lists what the built-in tag pages list, tag for tag."""
    with (site / "site.yaml").open("a") as f:
        f.write('taxonomies:\n  - {name: labels, kind: tag, key: "{tags}", url: "/labels/{key}.html"}\n')
    build(site, OPTIONS)
    out = site / "_site"
    for tag in ("compilers", "performance", "release"):
        assert listed(out / f"labels/{tag}.html") == listed(out / f"tags/{tag}.html")
    assert listed(out / "labels/compilers.html") == ["Second post", "First post"]
