"""Social cards: each post's and page's title drawn on the site's card, named by og:image."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from generator.build import build
from generator.check import check_site
from generator.configure import load_config
from generator.errors import SiteError
from generator.scaffold import init_site

from test_branding import OPTIONS, make_site, page
from test_incremental import assert_same_as_full_build, files, full_build

POST = "2019/03/18/first-post"
CARDS = {f"assets/social/{name}.png" for name in
         (POST, "2020/05/01/second", "2021/01/02/third", "index", "about", "asf")}


def cards(site: Path) -> dict[str, bytes]:
    return {path: data for path, data in files(site / "_site").items() if path.startswith("assets/social/")}


def colours(data: bytes) -> int:
    return len(Image.open(io.BytesIO(data)).getcolors(1 << 20))


def test_without_the_setting_no_cards(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site")
    build(site, OPTIONS)
    assert cards(site) == {} and "og:image" not in page(site, f"{POST}.html")


def test_each_post_and_page_has_its_card_named_by_og_image(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", "theme: {social_cards: true, colors: {accent: '#00695c'}}\n")
    (site / "content/pages/pictured.md").write_text("---\ntitle: Pictured\nimage: /assets/images/logo.svg\n---\nHi.\n")
    build(site, OPTIONS)
    made = cards(site)
    assert CARDS <= made.keys()
    card = Image.open(io.BytesIO(made[f"assets/social/{POST}.png"]))
    assert card.size == (1200, 630) and card.format == "PNG"
    assert card.getpixel((5, 5)) == (0, 0x69, 0x5c)                  # the header's colour
    assert colours(made[f"assets/social/{POST}.png"]) > 2             # and text drawn on it
    assert made[f"assets/social/{POST}.png"] != made["assets/social/2020/05/01/second.png"]
    html = page(site, f"{POST}.html")
    assert f'<meta property="og:image" content="https://example.org/assets/social/{POST}.png">' in html
    assert f'<meta name="twitter:image" content="https://example.org/assets/social/{POST}.png">' in html
    assert '<meta name="twitter:card" content="summary_large_image">' in html
    assert 'content="https://example.org/assets/images/logo.svg"' in page(site, "pictured.html")   # its own
    assert check_site(load_config(site)).ok


def test_cards_are_the_same_bytes_in_every_build_and_follow_edits(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", "theme: {social_cards: true}\n")
    build(site, OPTIONS)
    first = cards(site)
    assert {path: data for path, data in full_build(site).items() if path in first} == first   # a clean build
    post = site / "content/posts/2019-03-18-first-post.md"
    post.write_text(post.read_text().replace("title: First post", "title: A retitled first post"))
    result = build(site, OPTIONS)
    assert [p for p in result.written if p.startswith("assets/social/")] == [f"assets/social/{POST}.png"]
    assert cards(site)[f"assets/social/{POST}.png"] != first[f"assets/social/{POST}.png"]
    assert_same_as_full_build(site, OPTIONS)


def test_the_sites_card_picture_is_the_background_and_its_edit_remakes_the_cards(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", "theme: {social_cards: true, social_card: /assets/images/card.png}\n")
    Image.new("RGB", (1600, 900), "#3366cc").save(site / "assets/images/card.png")
    build(site, OPTIONS)
    before = cards(site)[f"assets/social/{POST}.png"]
    assert Image.open(io.BytesIO(before)).getpixel((5, 5)) != (0x1d, 0x23, 0x30)
    Image.new("RGB", (1600, 900), "#cc3366").save(site / "assets/images/card.png")
    build(site, OPTIONS)
    assert cards(site)[f"assets/social/{POST}.png"] != before
    assert_same_as_full_build(site, OPTIONS)


def test_a_card_path_that_is_not_in_the_site_names_the_key(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", "theme: {social_cards: true, social_card: card.png}\n")
    with pytest.raises(SiteError, match="key 'theme.social_card': expected a path in the site starting with '/'"):
        load_config(site)


def test_a_new_site_has_a_social_card(tmp_path: Path) -> None:
    site = tmp_path / "my-project"
    init_site(site, kind="blog")
    card = Image.open(site / "assets/social-card.png")
    assert card.size == (1200, 630) and colours((site / "assets/social-card.png").read_bytes()) > 2
    assert load_config(site).social.image == "/assets/social-card.png"


def test_letters_the_cards_font_lacks_are_a_warning_naming_the_page(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", "theme: {social_cards: true}\n")
    post = site / "content/posts/2022-02-02-tokyo.md"
    post.write_text("---\ntitle: 東京 meetup, café\n---\nHi.\n")
    result = build(site, OPTIONS)
    assert [w for w in result.warnings if "social card" in w] == [
        "content/posts/2022-02-02-tokyo.md: warning: the social card shows '京東' as boxes: its font draws Latin, Greek and Cyrillic letters"]
