"""A jekyll-polyglot site imported: each language's pages at the URLs Jekyll gave them, the same
bodies (``site.active_lang``, ``page.url``, links rewritten into the language), excluded paths
published once, and what is not carried over named at its file and line.

Real Jekyll with the plugin (Debian's ruby-jekyll-polyglot, which scripts/setup-test-tools
installs) is the oracle; without it the comparisons are skipped, saying so.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import lxml.html
import pytest

from generator.build import build
from generator.importers.jekyll import import_jekyll
from tests import parity

CONFIG = """\
title: Poly
url: https://poly.example.org
baseurl: ""
timezone: UTC
plugins: [jekyll-polyglot]
languages: ["en", "fr", "de"]
default_lang: "en"
exclude_from_localization: ["images"]
lang_from_path: true
parallel_localization: false
"""

FILES = {
    "_layouts/default.html": """\
<!DOCTYPE html>
<html lang="{{ site.active_lang }}">
<head><meta charset="utf-8"><title>{{ page.title }}</title></head>
<body>
{% include menu.html %}
<main>{{ content }}</main>
<p class="url">{{ page.url }}</p>
<p class="abs"><a href="{{ site.url }}/about.html">about, absolute</a></p>
{% assign doc_data = 'docs_' | append: site.active_lang %}\
<ul>{% for doc in site.data[doc_data].pages %}<li>{{ doc }}</li>{% endfor %}</ul>
</body>
</html>
""",
    "_includes/menu.html": """\
<nav><a href="/">Home</a> <a href="/about.html">About</a> <a href="/images/logo.png">logo</a>
{% for tongue in site.languages %}<a {% if tongue == site.active_lang %}class="here"{% endif %} \
{% static_href %}href="{% if tongue == site.default_lang %}{{ page.url }}{% else %}/{{ tongue }}{{ page.url }}\
{% endif %}"{% endstatic_href %}>{{ tongue }}</a>
{% endfor %}</nav>
""",
    "index.md": "---\nlayout: default\ntitle: Home\n---\n"
                "Welcome, in {{ site.active_lang }} (default {{ site.default_lang }}). See [about](/about.html).\n",
    "fr/index.md": "---\nlayout: default\ntitle: Accueil\npermalink: /\nlang: fr\n---\n"
                   "Bienvenue. Voir [à propos](/about.html).\n",
    "about.md": "---\nlayout: default\ntitle: About\n---\nAn untranslated page. A [logo](/images/logo.png).\n",
    "de/kontakt.md": "---\nlayout: default\ntitle: Kontakt\n---\nNur auf Deutsch.\n",
    "plain.html": "---\n---\n<p><a href=\"/about.html\">no layout</a></p>\n",
    "_data/docs_en.yml": "pages: [one, two]\n",     # no docs_fr nor docs_de: nil in Jekyll
    "images/logo.png": "PNG",
    "style.css": "body {}\n",
}


def polyglot_available() -> bool:
    return shutil.which("jekyll") is not None and subprocess.run(
        ["ruby", "-e", "require 'jekyll-polyglot'"], capture_output=True).returncode == 0


needs_polyglot = pytest.mark.skipif(not polyglot_available(), reason=(
    "Jekyll with jekyll-polyglot is not installed (scripts/setup-test-tools installs ruby-jekyll-polyglot): "
    "the comparison with Jekyll is skipped"))


def write_site(root: Path, files: dict[str, str], config: str = CONFIG) -> Path:
    for name, text in {"_config.yml": config, **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_site(tmp_path_factory.mktemp("polyglot") / "src", FILES)


@pytest.fixture(scope="module")
def jekyll_out(source: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not polyglot_available():
        pytest.skip("Jekyll with jekyll-polyglot is not installed (scripts/setup-test-tools installs it)")
    work = tmp_path_factory.mktemp("jekyll")
    (work / "extra.yml").write_text("whitelist: [jekyll-polyglot]\n")
    # Built from the site's folder, as a site is: polyglot reads exclude_from_localization's folders there.
    subprocess.run(["jekyll", "build", "--safe", "--quiet", "-s", ".", "-d", str(work / "out"),
                    "--config", f"_config.yml,{work / 'extra.yml'}"], check=True, capture_output=True, cwd=source)
    return work / "out"


@pytest.fixture(scope="module")
def sitegen_out(source: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("sitegen") / "site"
    import_jekyll(source, site)
    build(site)
    return site / "_site"


def files(out: Path) -> set[str]:
    return {path.relative_to(out).as_posix() for path in out.rglob("*") if path.is_file()}


def body(path: Path) -> tuple:
    document = lxml.html.parse(str(path)).getroot()
    html = "".join(lxml.html.tostring(child, encoding="unicode") for child in document.find("body"))
    return parity.dom(html)


@needs_polyglot
def test_every_language_publishes_the_urls_jekyll_published(jekyll_out: Path, sitegen_out: Path) -> None:
    theirs = files(jekyll_out)
    assert {"fr/index.html", "fr/about.html", "de/about.html", "fr/de/kontakt.html", "de/de/kontakt.html",
            "fr/style.css", "images/logo.png"} <= theirs and "fr/images/logo.png" not in theirs
    ours = {name for name in files(sitegen_out) if not name.startswith(("assets/", "pagefind/", "."))}
    assert ours - {"404.html"} == theirs


@needs_polyglot
def test_every_page_has_jekyll_s_body_in_each_language(jekyll_out: Path, sitegen_out: Path) -> None:
    pages = sorted(name for name in files(jekyll_out) if name.endswith(".html"))
    assert len(pages) == 11
    differ = {name: parity.first_difference(body(sitegen_out / name), body(jekyll_out / name)) for name in pages}
    assert {name: difference for name, difference in differ.items() if difference} == {}


def test_a_translation_and_the_copies_say_their_language(sitegen_out: Path) -> None:
    french, copy = (sitegen_out / "fr/index.html").read_text(), (sitegen_out / "fr/about.html").read_text()
    assert 'lang="fr"' in french and "Bienvenue" in french and 'href="/fr/about.html"' in french
    assert 'href="/about.html">en<' in copy and 'href="/images/logo.png"' in copy   # kept: static_href, excluded
    assert "Welcome, in en (default en)" in (sitegen_out / "index.html").read_text()


def test_what_polyglot_s_liquid_did_in_a_page_is_named_at_its_line(tmp_path: Path) -> None:
    source = write_site(tmp_path / "src", {**FILES, "about.md": "---\ntitle: About\n---\nOne.\n\n"
                                           "{% for l in site.languages %}{{ l }}{% endfor %}\n",
                                           "feed.xml": "---\n---\n<feed></feed>\n", ".asf.yaml": "notify: x\n"},
                        CONFIG + "lang_vars: [locale]\ninclude: [.asf.yaml]\n")
    import_jekyll(source, tmp_path / "site")
    report = (tmp_path / "site/IMPORT-REPORT.md").read_text()
    assert "`about.md:6`: `site.languages`" in report
    assert "`_config.yml:" in report and "`lang_vars`" in report
    assert "a plugin sitegen does not have" not in report
    assert "site.exclude_from_localization" not in report
    assert "`feed.xml:1`: `feed.xml`: a Liquid feed" in report and "(/fr/feed.xml...)" in report
    assert "`.asf.yaml:1`: `.asf.yaml`: polyglot copied this hidden file into /fr/" in report
