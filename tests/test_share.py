"""Sharing and search engines: the OpenGraph and Twitter card of every page, the BlogPosting of
posts, robots.txt. Each test builds a real site and parses the heads of its real pages."""

from __future__ import annotations

import json
import re
import shutil
from datetime import datetime, timezone
from pathlib import Path

import lxml.html
import pytest

from conftest import REPO, copy_site
from generator.build import BuildOptions, build
from generator.check import check_site
from generator.configure import load_config
from generator.errors import SiteError
from site_checks import assert_share_meta

OPTIONS = BuildOptions(now=datetime(2030, 1, 1, tzinfo=timezone.utc))
URL = "https://example.org"
CARD = "/assets/images/social-card.jpg"


def add_to_config(site: Path, text: str) -> None:
    config = site / "site.yaml"
    config.write_text(config.read_text() + text)


def set_front_matter(site: Path, post: str, *lines: str) -> None:
    path = site / "content/posts" / post
    path.write_text(path.read_text().replace("---\n", "---\n" + "".join(line + "\n" for line in lines), 1))


def head(page: Path) -> dict[str, str]:
    root = lxml.html.parse(str(page)).getroot()
    return {tag.get("property") or tag.get("name"): tag.get("content")
            for tag in root.cssselect("head meta[property], head meta[name]")}


def posting(page: Path) -> dict:
    (script,) = lxml.html.parse(str(page)).getroot().cssselect('head script[type="application/ld+json"]')
    return json.loads(script.text)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = copy_site(tmp_path / "site", "basic")
    shutil.copy2(REPO / CARD.lstrip("/"), site / CARD.lstrip("/"))
    return site


def test_every_page_of_a_fixture_site_has_its_card_and_posts_their_blog_posting(site: Path) -> None:
    add_to_config(site, f"social:\n  image: {CARD}\n  twitter: '@example'\n")
    set_front_matter(site, "2019-03-18-first-post.md", "image: /assets/images/logo.svg")
    set_front_matter(site, "2020-05-01-second.md", "preview_image: assets/images/favicon.svg")  # TVM's key
    set_front_matter(site, "2021-01-02-third.md", "image: {path: /assets/images/logo.svg, alt: The logo}",
                     "last_modified_at: 2021-02-03 04:05:06 +0000")
    build(site, OPTIONS)
    out = site / "_site"
    assert assert_share_meta(out, URL, "Test Site") >= 15
    assert head(out / "2019/03/18/first-post.html")["og:image"] == f"{URL}/assets/images/logo.svg"
    assert head(out / "2020/05/01/second.html")["og:image"] == f"{URL}/assets/images/favicon.svg"
    assert head(out / "2021/01/02/third.html")["og:image"] == f"{URL}/assets/images/logo.svg"
    assert head(out / "about.html")["og:image"] == f"{URL}{CARD}"        # the site's default
    assert head(out / "about.html")["twitter:site"] == "@example"
    assert head(out / "index.html")["og:title"] == "Test Site"          # the home page is the site
    third = posting(out / "2021/01/02/third.html")
    assert third["dateModified"] == "2021-02-03T04:05:06+00:00" and third["datePublished"].startswith("2021-01-02")
    assert [a["name"] for a in posting(out / "2020/05/01/second.html")["author"]] == ["Ada", "Grace"]
    assert check_site(load_config(site)).ok


def test_a_site_without_an_image_gets_summary_cards(site: Path) -> None:
    build(site, OPTIONS)
    card = head(site / "_site/about.html")
    assert card["twitter:card"] == "summary" and "og:image" not in card and "twitter:image" not in card
    assert assert_share_meta(site / "_site", URL, "Test Site") >= 15


def test_the_description_is_the_excerpts_text_cut_at_a_word(site: Path) -> None:
    long = " ".join(["A **bold** claim about [kernels](https://example.org/k) &amp; tensors."] * 12)
    post = site / "content/posts/2021-01-02-third.md"
    post.write_text(post.read_text().replace("Third body.", long + "\n\nThe rest."))
    build(site, OPTIONS)
    description = head(site / "_site/2021/01/02/third.html")["og:description"]
    assert description.startswith("A bold claim about kernels & tensors. A bold claim")
    assert description.endswith("…") and len(description) <= 300 and "<" not in description
    assert head(site / "_site/2020/05/01/second.html")["description"] == "Second post body, see first."


def test_front_matter_description_wins_and_a_title_cannot_break_the_json(site: Path) -> None:
    post = site / "content/posts/2021-01-02-third.md"
    post.write_text(post.read_text().replace("title: Third post", 'title: "A \\"quoted\\" </script> title"')
                    .replace("---\n", "---\ndescription: Said in so many words.\n", 1))
    build(site, OPTIONS)
    page = site / "_site/2021/01/02/third.html"
    assert head(page)["og:description"] == "Said in so many words."
    assert posting(page)["headline"] == 'A "quoted" </script> title'
    assert "</script> title" not in page.read_text().split('application/ld+json">', 1)[1].split("</script>")[0]
    assert assert_share_meta(site / "_site", URL, "Test Site")


def test_a_docs_page_of_another_version_shares_the_default_versions_url(tmp_path: Path) -> None:
    """Checked on the shipped site's docs (test_shipped_site.py); here the rewrite itself."""
    from generator.docs.versions import _set_canonical

    html = ('<head><link rel="canonical" href="https://x.org/docs/dev/a.html">'
            '<meta property="og:url" content="https://x.org/docs/dev/a.html"></head>')
    moved = _set_canonical(html, "https://x.org/docs/v1/a.html")
    assert moved.count("https://x.org/docs/v1/a.html") == 2 and "docs/dev" not in moved


def test_a_missing_share_image_is_found_by_the_check(site: Path) -> None:
    set_front_matter(site, "2019-03-18-first-post.md", "image: /assets/images/gone.png")
    build(site, OPTIONS)
    findings = [str(f) for f in check_site(load_config(site)).findings]
    assert len(findings) == 2 and all(re.fullmatch(      # og:image and twitter:image
        r"2019/03/18/first-post\.html:\d+: missing share image -> https://example\.org/assets/images/gone\.png",
        finding) for finding in findings), findings


def test_robots_txt_names_the_sitemap_unless_the_site_has_its_own(site: Path) -> None:
    build(site, OPTIONS)
    assert (site / "_site/robots.txt").read_text() == \
        f"User-agent: *\nDisallow:\n\nSitemap: {URL}/sitemap.xml\n"
    (site / "robots.txt").write_text("User-agent: *\nDisallow: /drafts/\n")
    add_to_config(site, "static: [robots.txt]\n")
    build(site, OPTIONS)
    assert (site / "_site/robots.txt").read_text() == "User-agent: *\nDisallow: /drafts/\n"


@pytest.mark.parametrize("setting, message", [
    ("social: {image: images/card.png}", "key 'social.image': expected a path in the site starting with '/'"),
    ("social: {twitter: example}", "key 'social.twitter': expected an account name such as @apachetvm"),
    ("social: {imag: /x.png}", "unknown key 'social.imag'"),
])
def test_site_yaml_social_is_checked(site: Path, setting: str, message: str) -> None:
    add_to_config(site, setting + "\n")
    with pytest.raises(SiteError, match=re.escape(message)):
        load_config(site)


def test_a_last_modified_at_that_is_no_date_stops_the_build_naming_the_post(site: Path) -> None:
    set_front_matter(site, "2021-01-02-third.md", "last_modified_at: yesterday")
    with pytest.raises(SiteError, match=r"cannot read 'yesterday' as a date.*2021-01-02-third\.md") as error:
        build(site, OPTIONS)
    assert error.value.path.endswith("partials/meta.html") and error.value.line
