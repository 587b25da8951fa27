"""A site with more pages than one sitemap may list: a sitemap index and its parts.

The protocol's limit is 50,000 URLs a file; these tests build real sites with the
sitemap planner's limit lowered to a few URLs, so that the basic site needs parts."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lxml import etree

from conftest import copy_site
from generator.check import check_site
from generator.configure import load_config
from generator.engine.core import Engine
from generator.errors import SiteError
from generator.outputs import Registry
from generator.outputs.registry import default_registry
from generator.outputs.sitemap import Sitemap
from site_checks import SCHEMA

NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
PER_FILE = 4


def parts_of(limit: int) -> Registry:
    return Registry([Sitemap(urls_per_file=limit) if p.name == "sitemap" else p for p in default_registry()])


def build(site: Path, limit: int = PER_FILE) -> None:
    Engine(site, planners=parts_of(limit)).build()


def valid(path: Path) -> etree._ElementTree:
    schema, document = etree.XMLSchema(etree.parse(str(SCHEMA))), etree.parse(str(path))
    assert schema.validate(document), (path.name, schema.error_log)
    return document


def locs(document: etree._ElementTree) -> list[str]:
    return [el.text for el in document.iter(f"{NS}loc")]


def test_a_site_over_the_limit_gets_an_index_of_parts_that_list_every_page(tmp_path):
    whole, split = copy_site(tmp_path / "whole", "basic"), copy_site(tmp_path / "split", "basic")
    build(whole, limit=50_000)
    build(split)
    pages = locs(valid(whole / "_site/sitemap.xml"))
    assert len(pages) > 2 * PER_FILE

    out = split / "_site"
    index = valid(out / "sitemap.xml")
    assert index.getroot().tag == f"{NS}sitemapindex"
    count = -(-len(pages) // PER_FILE)
    assert locs(index) == [f"https://example.org/sitemap-{n}.xml" for n in range(1, count + 1)]
    listed = []
    for n in range(1, count + 1):
        part = valid(out / f"sitemap-{n}.xml")
        assert part.getroot().tag == f"{NS}urlset" and 1 <= len(locs(part)) <= PER_FILE
        listed += locs(part)
    assert listed == pages
    texts = ["sitemap.txt", *(f"sitemap-{n}.txt" for n in range(2, count + 1))]
    assert [url for name in texts for url in (out / name).read_text().split()] == pages
    assert not (out / "sitemap-1.txt").exists() and not (out / f"sitemap-{count + 1}.xml").exists()
    assert "Sitemap: https://example.org/sitemap.xml" in (out / "robots.txt").read_text()


def test_parts_follow_the_site_as_a_clean_build_makes_them(tmp_path):
    """A post removed brings the site under the limit: the parts go and sitemap.xml is a
    urlset again; the post back, the parts come back as a clean build makes them."""
    probe, site, clean = copy_site(tmp_path / "probe", "basic"), copy_site(tmp_path / "site", "basic"), tmp_path / "clean"
    build(probe, limit=50_000)
    limit = len(locs(valid(probe / "_site/sitemap.xml"))) - 1
    build(site, limit)
    assert {p.name for p in (site / "_site").glob("sitemap-*")} == {"sitemap-1.xml", "sitemap-2.xml", "sitemap-2.txt"}
    post = site / "content/posts/2021-01-02-third.md"
    text = post.read_text()
    post.unlink()
    build(site, limit)
    assert not list((site / "_site").glob("sitemap-*"))
    assert valid(site / "_site/sitemap.xml").getroot().tag == f"{NS}urlset"
    post.write_text(text)
    build(site, limit)
    shutil.copytree(site, clean, ignore=shutil.ignore_patterns("_site", ".sitegen"))
    build(clean, limit)
    made = {p.relative_to(site / "_site"): p.read_bytes() for p in (site / "_site").glob("sitemap*")}
    assert len(made) == 5
    assert made == {p.relative_to(clean / "_site"): p.read_bytes() for p in (clean / "_site").glob("sitemap*")}


def test_check_against_an_old_sitemap_index_reads_its_parts(tmp_path):
    site = copy_site(tmp_path / "site", "basic")
    build(site)
    old = tmp_path / "old"
    old.mkdir()
    for path in (site / "_site").glob("sitemap*.xml"):
        shutil.copy(path, old / path.name)
    gone = "https://example.org/2021/01/02/third.html"
    holder = next(p for p in old.glob("sitemap-*.xml") if gone in p.read_text())
    post = site / "content/posts/2021-01-02-third.md"
    post.write_text(post.read_text().replace("---\n", "---\npermalink: /blog/third.html\n", 1))
    build(site)

    report = check_site(load_config(site), against=str(old / "sitemap.xml"))
    line = next(n for n, text in enumerate(holder.read_text().splitlines(), 1) if gone in text)
    assert [str(f) for f in report.findings] == [f"{holder}:{line}: old URL no longer resolves or redirects -> {gone}"]

    (old / holder.name).unlink()
    with pytest.raises(SiteError, match=f"lists https://example.org/{holder.name}, which is not beside it"):
        check_site(load_config(site), against=str(old / "sitemap.xml"))
    shutil.copy(old / "sitemap.xml", holder)      # an index that lists itself (or another index)
    with pytest.raises(SiteError, match=f"it lists {holder.name}, itself a sitemap index"):
        check_site(load_config(site), against=str(old / "sitemap.xml"))
