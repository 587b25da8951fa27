"""Branding in site.yaml ``theme``: logo, favicon, colours (dark derived, contrast checked), an
announcement and a visitor counter, each only with its setting."""

from __future__ import annotations

import re
import shutil
from datetime import datetime, timezone
from pathlib import Path

import pytest

from generator.branding import DARK, HEADER_TEXT, LIGHT, contrast
from generator.build import BuildOptions, build
from generator.check import check_site
from generator.cli import main
from generator.configure import load_config
from generator.errors import SiteError

from test_incremental import assert_same_as_full_build

REPO = Path(__file__).resolve().parents[1]
OPTIONS = BuildOptions(now=datetime(2030, 1, 1, tzinfo=timezone.utc))
BRANDED = """theme:
  logo: /assets/images/logo.svg
  favicon: /assets/images/favicon.svg
  colors: {primary: "#1565c0", accent: "#00695c"}
  announcement: {text: "Version 2 is out: [read the *notes*](/about.html)", id: v2}
"""


def make_site(folder: Path, settings: str = "") -> Path:
    """The basic site with the default theme's stylesheet and partials (not the shipped site's)."""
    shutil.copytree(REPO / "tests" / "data" / "basic", folder)
    shutil.copytree(REPO / "templates", folder / "templates", ignore=shutil.ignore_patterns("partials"))
    (folder / "assets/css/site.css").unlink()
    with (folder / "site.yaml").open("a") as config:
        config.write(settings)
    return folder


def page(site: Path, name: str = "about.html") -> str:
    return (site / "_site" / name).read_text()


def variables(html: str, selector: str) -> dict[str, str]:
    block = re.search(re.escape(selector) + r" \{ (.*?) \}", html).group(1)
    return dict(part.split(": ") for part in block.rstrip(";").split("; "))


def test_without_settings_pages_have_no_branding(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site")
    build(site, OPTIONS)
    html = page(site)
    assert "<style>" not in html and "announcement" not in html and "<script async" not in html
    assert '<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">' in html
    assert "brand-logo" not in html


def test_colours_logo_favicon_and_announcement_on_every_page(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", BRANDED)
    build(site, OPTIONS)
    for name in ("about.html", "index.html", "2019/03/18/first-post.html"):
        html = page(site, name)
        assert '<img class="brand-logo" src="/assets/images/logo.svg" alt="" height="32">' in html
        assert '<link rel="icon" href="/assets/images/favicon.svg" type="image/svg+xml">' in html
        assert ('<p>Version 2 is out: <a href="/about.html">read the <em>notes</em></a></p>' in html)
        assert 'data-announcement="v2"' in html and "data-announcement-close" in html
    html = page(site)
    light = variables(html, ":root")
    dark = variables(html, ':root[data-theme="dark"]')
    assert light == {"--accent": "#1565c0", "--accent-dark": light["--accent-dark"], "--header": "#00695c"}
    assert variables(html, ':root:not([data-theme="light"])') == dark       # the system's dark, the same
    assert dark["--accent"] != "#1565c0" and contrast(dark["--accent"], *DARK) >= 4.5
    assert contrast(dark["--accent-dark"], *DARK) >= 4.5
    assert contrast(dark["--header"], HEADER_TEXT) >= contrast("#00695c", HEADER_TEXT)
    assert ':root[data-announcement-closed="v2"] .announcement { display: none; }' in html
    assert check_site(load_config(site)).ok


def test_a_plain_theme_folder_and_the_mappings_folder_are_the_same_theme(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", "theme: {folder: mytheme, colors: {primary: '#0b5'}}\n".replace("#0b5", "#075"))
    (site / "mytheme/templates/partials").mkdir(parents=True)
    (site / "mytheme/templates/partials/footer.html").write_text("<footer>own footer</footer>\n")
    build(site, OPTIONS)
    assert "<footer>own footer</footer>" in page(site) and "--accent: #007755" in page(site)


def test_an_announcement_without_an_id_gets_a_new_one_with_a_new_text(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", "theme: {announcement: {text: First news, dismissible: false}}\n")
    build(site, OPTIONS)
    first = re.search(r'data-announcement="(\w+)"', page(site)).group(1)
    assert "data-announcement-close" not in page(site)
    config = site / "site.yaml"
    config.write_text(config.read_text().replace("First news", "Second news"))
    build(site, OPTIONS)
    assert re.search(r'data-announcement="(\w+)"', page(site)).group(1) != first
    assert "Second news" in page(site, "index.html")
    assert_same_as_full_build(site, OPTIONS)


@pytest.mark.parametrize("settings, scripts, host", [
    ("{provider: plausible, id: example.org}",
     ['<script defer data-domain="example.org" src="https://plausible.io/js/script.js"></script>'], "plausible.io"),
    ("{provider: matomo, id: '3', host: stats.example.net}",
     ['"setSiteId", "3"', '<script async src="https://stats.example.net/matomo.js"></script>'], "stats.example.net"),
    ("{provider: google, id: G-ABC123XYZ}",
     ['<script async src="https://www.googletagmanager.com/gtag/js?id=G-ABC123XYZ"></script>',
      'gtag("config", "G-ABC123XYZ");'], "www.googletagmanager.com"),
])
def test_analytics_scripts_only_with_the_setting_and_their_host_allowed(tmp_path: Path, settings: str,
                                                                         scripts: list[str], host: str) -> None:
    site = make_site(tmp_path / "site", f"theme: {{analytics: {settings}}}\n")
    (site / "content/pages/embed.html").write_text(
        '---\ntitle: Embed\n---\n<script src="https://cdn.example.com/x.js"></script>\n')
    build(site, OPTIONS)
    for name in ("about.html", "index.html"):
        assert all(script in page(site, name) for script in scripts)
    findings = [f"{f.page} {f.problem}" for f in check_site(load_config(site)).findings]
    assert findings == ["embed.html third-party script (cdn.example.com is not in check.allow_hosts)"]
    assert host not in " ".join(findings)


@pytest.mark.parametrize("value, message", [
    ("{colors: {primary: '#ffcc00'}}",
     "key 'theme.colors.primary': #ffcc00 has a contrast of 1.37:1 on the theme's light backgrounds; text needs 4.5:1 (try #"),
    ("{colors: {accent: '#88ccff'}}",
     "key 'theme.colors.accent': #88ccff has a contrast of 1.73:1 under the header's white text; text needs 4.5:1"),
    ("{colors: {primary: red}}", "key 'theme.colors.primary': expected a colour as #rrggbb or #rgb, got 'red'"),
    ("{colors: {primary: '#12345'}}", "key 'theme.colors.primary': expected a colour as #rrggbb or #rgb"),
    ("{logo: logo.png}", "key 'theme.logo': expected a path in the site starting with '/', got 'logo.png'"),
    ("{favicon: 'https://x.org/i.png'}", "key 'theme.favicon': expected a path in the site starting with '/'"),
    ("{announcement: {text: ''}}", "key 'theme.announcement.text': expected one paragraph of Markdown"),
    ("{announcement: {text: hi, id: 'a b'}}", "key 'theme.announcement.id': expected letters, digits"),
    ("{analytics: {provider: fathom, id: x}}",
     "key 'theme.analytics.provider': expected one of 'plausible', 'matomo', 'google', got a string 'fathom'"),
    ("{analytics: {provider: matomo, id: '1'}}", "missing required key 'theme.analytics.host'"),
    ("{analytics: {provider: google, id: UA-1}}",
     "key 'theme.analytics.id': expected a measurement ID, as G-ABC123XYZ for google, got 'UA-1'"),
    ("{analytics: {provider: plausible, id: example.org, host: 'https://x.org'}}",
     "key 'theme.analytics.host': expected a host name such as stats.example.org, got 'https://x.org'"),
    ("{folder: nowhere}", "key 'theme.folder': expected a folder inside the site holding templates/"),
    ("{colours: {primary: '#000000'}}", "unknown key 'theme.colours'"),
])
def test_bad_branding_is_one_line_naming_the_key(tmp_path: Path, value: str, message: str, capsys) -> None:
    site = make_site(tmp_path / "site", f"theme: {value}\n")
    with pytest.raises(SiteError) as caught:
        load_config(site)
    assert message in str(caught.value) and str(site / "site.yaml") in str(caught.value)
    assert main(["-C", str(site), "build"]) != 0
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
    assert not (site / "_site").exists()


def test_the_suggested_colour_reads(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", "theme: {colors: {primary: '#ffcc00'}}\n")
    with pytest.raises(SiteError) as caught:
        load_config(site)
    suggested = re.search(r"try (#[0-9a-f]{6})", str(caught.value)).group(1)
    assert contrast(suggested, *LIGHT) >= 4.5
    config = site / "site.yaml"
    config.write_text(config.read_text().replace("#ffcc00", suggested))
    assert load_config(site).branding.colors.primary == suggested
