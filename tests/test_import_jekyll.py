"""`sitegen import jekyll`: a Jekyll site becomes a sitegen site that builds, checks, and keeps its URLs.

Jekyll 4 itself (the Debian package) is the reference: the same sources are
built with it, and what it published is what the imported site must still
serve. Where Jekyll is not installed, those tests are skipped, saying so.
"""

from __future__ import annotations

import html
import re
from datetime import datetime
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from conftest import shared_dir
from generator.build import build
from generator.check import check_site
from generator.cli import main
from generator.configure import load_config
from generator.errors import SiteError
from generator.importers.jekyll import import_jekyll
from jekyll_fixture import jekyll_site
from tests import parity

JEKYLL = shutil.which("jekyll")
needs_jekyll = pytest.mark.skipif(JEKYLL is None, reason="Jekyll is not installed (scripts/setup-test-tools "
                                                        "installs it): the comparison with Jekyll is skipped")
def jekyll_build(source: Path, out: Path) -> None:
    done = subprocess.run([JEKYLL, "build", "--quiet", "-s", str(source), "-d", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def url_list(out: Path, host: str) -> list[str]:
    """The pages a built site publishes, as a sitemap.txt lists them."""
    return sorted(f"{host}/{p.relative_to(out).as_posix()}".removesuffix("index.html")
                  for p in out.rglob("*.html"))


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> tuple[Path, Path]:
    """The corpus as a Jekyll site, and the sitegen site imported from it (built)."""
    folder = tmp_path_factory.mktemp("import")
    source = jekyll_site(shared_dir() / "corpus" / "tvm-site", folder / "jekyll")
    assert main(["import", "jekyll", str(source), str(folder / "site")]) == 0
    build(folder / "site")
    return source, folder / "site"


def test_the_corpus_is_imported_part_by_part(imported) -> None:
    source, site = imported
    assert len(list((site / "content/posts").iterdir())) == 19
    assert sorted(p.name for p in (site / "content/pages").iterdir()) == [
        "about.md", "asf.md", "community.md", "download.md", "index.md", "posts.html", "vta.md"]
    assert sorted(p.name for p in (site / "content/data").iterdir()) == [
        "community.yml", "contrib_orgs.yml", "menus.yml", "submenu.yml"]
    assert (site / "content/includes/JB/setup").is_file() and (site / "content/includes/community.html").is_file()
    assert sorted(p.name for p in (site / "templates").glob("*.html")) == [
        "404.html", "community.html", "default.html", "index.html", "page.html", "post.html", "redirect.html"]
    assert (site / "templates/partials/header.html").is_file()
    assert not (site / "templates/partials/community.html").exists()   # only content uses it
    config = yaml.safe_load((site / "site.yaml").read_text())
    assert config["title"] == "Apache TVM" and config["url"] == "https://tvm.apache.org"
    assert config["permalink"] == "/:categories/:year/:month/:day/:title"
    assert config["timezone"] == "UTC" and config["static"] == ["css", "images", "robots.txt"]
    assert config["archives"] == {"blog": False, "history": False, "tags": False, "categories": False,
                                  "authors": False}
    # Posts and pages are copied as they are (here every one names its layout: nothing to add).
    for path in (source / "_posts").iterdir():
        assert (site / "content/posts" / path.name).read_bytes() == path.read_bytes()
    assert (site / "content/pages/index.md").read_bytes() == (source / "index.md").read_bytes()


def test_the_report_names_what_was_not_converted_at_its_file_and_line(imported) -> None:
    _, site = imported
    report = (site / "IMPORT-REPORT.md").read_text()
    for where, what in [("_layouts/community.html:5", "{% tablerow org in site.data.contrib_orgs cols:3 %}"),
                        ("_config.yml:18", "production_url")]:
        assert f"- `{where}`: `{what}`: " in report, where
    assert "- `kramdown.hard_wrap: false`" in report
    # _config.yml's `JB:` (no value) is written in where a layout reads it, as Jekyll reads it: nil.
    assert "site.time" not in report            # the build's time (generator.buildtime)
    assert "{% set liquid_scope.BASE_PATH = nil %}" in (site / "templates/partials/JB/setup").read_text()
    assert "truncate" not in report             # Liquid's filters of plain values are converted
    assert "- `kramdown.input" not in report          # carried over as markdown.header_ids
    assert re.findall(r"\{% include .*?%\}", (site / "templates/post.html").read_text()) == [
        '{% include "partials/JB/setup" %}']


def test_the_converted_layouts_render_what_jekylls_rendered(imported, tmp_path) -> None:
    """Header, title and date of a post, and the menu, as Jekyll made them from the same layouts."""
    if JEKYLL is None:
        pytest.skip("Jekyll is not installed: the comparison with Jekyll is skipped")
    source, site = imported
    jekyll_build(source, tmp_path / "old")
    path = "2018/08/10/DLPack-Bridge.html"
    ours, theirs = (site / "_site" / path).read_text(), (tmp_path / "old" / path).read_text()

    def parts(html: str) -> list[str]:
        found = re.findall(r"<title>.*?</title>|<time [^>]*>.*?</time>|<h1>.*?</h1>|<li><a href=[^>]*>[^<]*</a>"
                           r"|<link rel=\"(?:stylesheet|canonical)\"[^>]*>|<p>[^<>]*\.\.\.</p>", html, re.S)
        return [" ".join(part.split()) for part in found]

    assert parts(ours) == parts(theirs) and len(parts(ours)) >= 8
    assert "DLPack" in parts(ours)[0]
    assert any(part.endswith("...</p>") for part in parts(ours))     # Liquid's truncate, as Jekyll's


@needs_jekyll
def test_check_against_jekylls_urls_passes_or_names_each_moved_url(imported, tmp_path) -> None:
    source, site = imported
    old = tmp_path / "old"
    jekyll_build(source, old)
    sitemap = tmp_path / "sitemap.txt"
    listed = url_list(old, "https://tvm.apache.org")
    sitemap.write_text("\n".join(listed) + "\n")
    assert len(listed) == 26

    report = check_site(load_config(site), against=str(sitemap))
    moved = {f.target for f in report.findings if f.page == str(sitemap)}
    really_moved = {url for url in listed
                    if not (site / "_site" / url.removeprefix("https://tvm.apache.org/")).exists()}
    assert moved == really_moved == set()
    # Every other fault the check finds is in Jekyll's build of the same sources too.
    jekylls = {(f.page, f.problem, f.target) for f in check_site(load_config(site), out_dir=old).findings}
    ours = {(f.page, f.problem, f.target) for f in report.findings if f.page != str(sitemap)}
    assert {(page, target) for page, _, target in ours - jekylls} == set()
    # Resources from other hosts, which the check refuses, were named by the import already.
    report_text = (site / "IMPORT-REPORT.md").read_text()
    third_party = {f.target for f in report.findings if f.problem.startswith("third-party")}
    assert third_party and all(f"`{url}`: loaded from " in report_text for url in third_party)
    # Static folders arrived where Jekyll put them; what Jekyll excluded did not.
    for path in ("images/logo.png", "css/custom.css", "robots.txt"):
        assert (site / "_site" / path).read_bytes() == (old / path).read_bytes()
    assert not (site / "_site/README.md").exists() and not (old / "README.md").exists()
    assert not (site / "scripts").exists()


# -- rules, one by one ---------------------------------------------------------------------


def small_site(folder: Path, config: str = "title: Small\nurl: https://small.example\n",
               files: dict[str, str] | None = None) -> Path:
    files = {"_layouts/default.html": "<!DOCTYPE html>\n<html lang=\"en\"><head><title>{{ page.title }}</title>"
                                      "</head><body>{{ content }}</body></html>\n",
             "_posts/2020-01-02-hello-world.md": "---\nlayout: default\ntitle: Hello\n---\nHi.\n",
             **(files or {})}
    folder.mkdir(parents=True)
    (folder / "_config.yml").write_text(config)
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def test_a_non_empty_destination_or_one_inside_the_source_is_refused(tmp_path, capsys) -> None:
    source = small_site(tmp_path / "jekyll")
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken/keep.txt").write_text("mine")
    assert main(["import", "jekyll", str(source), str(tmp_path / "taken")]) == 1
    assert "the destination is not empty" in capsys.readouterr().err
    assert [p.name for p in (tmp_path / "taken").iterdir()] == ["keep.txt"]
    with pytest.raises(SiteError, match="outside the Jekyll site"):
        import_jekyll(source, source / "new")
    with pytest.raises(SiteError, match="not a Jekyll site"):
        import_jekyll(tmp_path / "taken", tmp_path / "new")


def test_nothing_is_written_outside_the_destination(tmp_path) -> None:
    source = small_site(tmp_path / "jekyll", files={"assets/x.css": "a{}", "about.md": "---\n---\nAbout\n"})
    (source / "outside-link").symlink_to(tmp_path, target_is_directory=True)
    before = {p for p in tmp_path.rglob("*")}
    import_jekyll(source, tmp_path / "new")
    written = {p for p in tmp_path.rglob("*")} - before
    assert written and all(p.is_relative_to(tmp_path / "new") for p in written)


@needs_jekyll
def test_pretty_permalinks_defaults_and_missing_layouts_give_jekylls_urls_and_pages(tmp_path) -> None:
    config = ("title: Small\nurl: https://small.example\npermalink: pretty\ntimezone: UTC\n"
              "defaults:\n  - scope: {path: guides}\n    values: {layout: default}\n")
    source = small_site(tmp_path / "jekyll", config, {
        "_posts/2021-05-06-no-title-here.md": "---\n---\nUntitled.\n",        # no title, no layout
        "guides/setup.md": "---\ntitle: Setup\n---\nSet up.\n",                 # layout from defaults
        "plain.md": "---\ntitle: Plain\n---\nNo layout at all.\n",
        "index.html": "---\nlayout: default\ntitle: Home\n---\n<p>Home</p>\n"})
    jekyll_build(source, tmp_path / "old")
    import_jekyll(source, tmp_path / "new")
    build(tmp_path / "new")
    out = tmp_path / "new/_site"
    assert url_list(out, "") == sorted(url_list(tmp_path / "old", "") + ["/404.html"])   # sitegen's 404 page
    assert url_list(tmp_path / "old", "") == ["/", "/2020/01/02/hello-world/", "/2021/05/06/no-title-here/",
                                 "/guides/setup/", "/plain/"]
    for path in ("plain/index.html", "guides/setup/index.html", "2021/05/06/no-title-here/index.html"):
        theirs = (tmp_path / "old" / path).read_text()
        assert _tight((out / path).read_text()) == _tight(theirs), path
    front = (tmp_path / "new/content/posts/2021-05-06-no-title-here.md").read_text()
    assert "layout: none\n" in front and "title: No Title Here\n" in front


@needs_jekyll
def test_a_permalinks_date_placeholders_give_jekylls_urls(tmp_path) -> None:
    # As rails/website: `permalink: /:year/:i_month/:i_day/:title` (its posts since 2004).
    pattern = "/:year/:i_month/:i_day/:title/:short_year-:y_day-:short_month-:long_month-:short_day-:long_day-:w_day/"
    source = small_site(tmp_path / "jekyll", f"title: Small\nurl: https://small.example\npermalink: {pattern}\n"
                        "timezone: UTC\n", {"_posts/2004-12-06-early.md": "---\nlayout: default\ntitle: E\n---\nE.\n",
                                             "_posts/2021-03-09-late.md": "---\nlayout: default\ntitle: L\n"
                                             "date: 2021-03-09 07:05:03\npermalink: /:week/:w_year/:hour:minute:second/\n"
                                             "---\nL.\n"})
    jekyll_build(source, tmp_path / "old")
    import_jekyll(source, tmp_path / "new")
    build(tmp_path / "new")
    published = [u for u in url_list(tmp_path / "new/_site", "") if u != "/404.html"]
    assert published == url_list(tmp_path / "old", "")
    assert "/2004/12/6/early/04-341-Dec-December-Mon-Monday-1/" in published


@needs_jekyll
@pytest.mark.parametrize("config", ["permalink: /:year/:i_month/:i_day/:title", "permalink: /:categories/:slug.html",
                                    "defaults: [{scope: {path: '', type: posts}, values: {permalink: /:year/:title}}]",
                                    "permalink: pretty"])
def test_a_post_whose_name_is_no_slug_is_where_jekyll_put_it(tmp_path, config) -> None:
    # As rails/website's `2021-02-09-Rails-6-1-2-has-been-released-.markdown` (at ...-released) and
    # `Rails-3-2-10--3-1-9--and-...` (one dash), its pattern in the defaults, and a post's own `slug`.
    post = "---\nlayout: default\ntitle: T\ncategories: news\n{}---\nT.\n"
    source = small_site(tmp_path / "jekyll", f"title: Small\nurl: https://small.example\n{config}\n"
                        "timezone: UTC\n", {"_posts/2021-02-09-Rails-6-1-2-released-.md": post.format(""),
                                             "_posts/2013-01-02-Rails-3-2--and-3-1.md": post.format(""),
                                             "_posts/2019-05-05-Café au lait!.md": post.format(""),
                                             "_posts/2020-01-05-named.md": post.format("slug: My Own Slug!\n"),
                                             # a day that is the next in the site's zone (rails' rc posts)
                                             "_posts/2019-11-22-Rails-5-rc1-.md": post.format(
                                                 "date: 2019-11-22 20:00:00 -05:00\n")})
    jekyll_build(source, tmp_path / "old")
    result = import_jekyll(source, tmp_path / "new")
    build(tmp_path / "new")
    published = [u for u in url_list(tmp_path / "new/_site", "") if u != "/404.html"]
    assert published == url_list(tmp_path / "old", "")
    assert not [n for n in result.notes if n.construct == "slug"]


@needs_jekyll
def test_permalinks_without_a_leading_slash_are_read_from_the_root_as_jekyll_reads_them(tmp_path) -> None:
    # As Homebrew/brew.sh writes them: `permalink: :title` in _config.yml, and a post's own
    # `:year/:month/:day/:title/`. The import refused the first and the build the second.
    source = small_site(tmp_path / "jekyll", "title: Small\nurl: https://small.example\npermalink: \":title\"\n"
                        "timezone: UTC\n", {
                            "_posts/2022-09-07-dated.md": "---\nlayout: default\ntitle: D\n"
                                                          "permalink: \":year/:month/:day/:title/\"\n---\nD.\n"})
    jekyll_build(source, tmp_path / "old")
    result = import_jekyll(source, tmp_path / "new")
    build(tmp_path / "new")
    published = [u for u in url_list(tmp_path / "new/_site", "") if u != "/404.html"]
    assert published == url_list(tmp_path / "old", "") == ["/2022/09/07/dated/", "/hello-world.html"]
    assert not any(n.construct.startswith("permalink") for n in result.notes)


@needs_jekyll
def test_nested_data_nil_lookups_and_sorted_mappings_render_as_jekyll_renders_them(tmp_path) -> None:
    # As Homebrew/brew.sh's layout reads its translations: _data/locales/LANG.yml, looked up by
    # the page's lang (nil on a post, whose chain of keys is then nil), the locales sorted.
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
              "{% assign t = site.data.locales[page.lang][page.lang] %}<p>[{{ t.greeting.text }}]</p>"
              "{% if t.greeting.text %}<p>greeted</p>{% endif %}<p>{{ t.note }}</p>"
              "{% assign locales = site.data.locales | sort %}"
              "<ul>{% for locale in locales %}<li>{{ locale[0] }}: {{ locale[1][locale[0]].name }}</li>{% endfor %}</ul>"
              "{{ content }}</body></html>\n")
    source = small_site(tmp_path / "jekyll", files={
        "_layouts/default.html": layout,
        "_data/locales/en.yml": "en:\n  name: English\n  greeting: {text: Hello}\n",
        "_data/locales/ar.yml": "ar:\n  name: Arabic\n  greeting: {text: Marhaba}\n"
                                "  note: '<a href=\"/docs\">Docs</a> & more'\n",
        "ar.md": "---\nlayout: default\ntitle: A\nlang: ar\n---\nA.\n",
        "_posts/2020-02-02-names.md": "---\nlayout: default\ntitle: N\n---\n"
                                      "Names: {{ site.data.locales.ar.ar.name }}, {{ site.data.locales.en.en.name }}.\n"})
    jekyll_build(source, tmp_path / "old")
    import_jekyll(source, tmp_path / "new")
    build(tmp_path / "new")
    for page in ("ar.html", "2020/01/02/hello-world.html", "2020/02/02/names.html"):
        theirs = (tmp_path / "old" / page).read_text()
        assert _tight((tmp_path / "new/_site" / page).read_text()) == _tight(theirs), page
    arabic = _tight((tmp_path / "old/ar.html").read_text())
    assert '<p>[Marhaba]</p><p>greeted</p><p><a href="/docs">Docs</a> & more</p><ul><li>ar: ' in arabic
    assert "<li>en: " in arabic
    assert "<p>[]</p><p></p><ul>" in _tight(theirs)     # the post: no lang, its chain of keys nil
    assert "<p>Names: Arabic, English.</p>" in (tmp_path / "new/_site/2020/02/02/names.html").read_text()


def test_feeds_plugins_data_and_reserved_names(tmp_path) -> None:
    config = ("title: Small\nurl: https://small.example\nplugins: [jekyll-feed, jekyll-seo-tag, jekyll-redirect-from]\n"
              "permalink: /:year/:name.html\n")
    source = small_site(tmp_path / "jekyll", config, {
        "_data/people.json": '[{"name": "Ann"}]', "_data/table.csv": "a,b\n",
        "content/notes.txt": "x", "_layouts/redirect.html": "{{ page.redirect.to }}",
        "_posts/2020-03-03-sorted.md": "---\ntitle: S\nlayout: default\ncategories: [Deep Learning]\n---\nS\n",
        "rss.xml": "---\n---\n<rss>{{ site.title }}</rss>\n",
        "_posts/2020-02-02-moved.md": "---\ntitle: Moved\nlayout: default\nredirect_from: [/old-moved.html]\n"
                                      "redirect_to: https://elsewhere.example/\n---\nHere.\n"})
    result = import_jekyll(source, tmp_path / "new")
    site = tmp_path / "new"
    config_out = yaml.safe_load((site / "site.yaml").read_text())
    assert config_out["feeds"] == {"atom": True, "rss": True, "json": False, "entries": 20,   # rss.xml: every post
                                   "entries_at": {"/feed.xml": 10}, "atom_urls": ["/feed.xml"]}  # jekyll-feed's
    assert config_out["permalink"] == "/:categories/:year/:month/:day/:title.html"
    assert yaml.safe_load((site / "content/data/people.yml").read_text()) == [{"name": "Ann"}]
    notes = {(n.path, n.construct): n.action for n in result.notes}
    assert any(line.startswith("`jekyll-seo-tag` (_config.yml:3): ") for line in result.plugins)
    assert any(path == "_config.yml" and ":name" in action for (path, _), action in notes.items())
    assert ("_data/table.csv", "_data/table.csv") not in notes     # rows, as Jekyll reads them: none here
    assert yaml.safe_load((site / "content/data/table.yml").read_text()) == []
    assert ("content/notes.txt", "content/notes.txt") in notes and not (site / "content/notes.txt").exists()
    assert ("_layouts/redirect.html", "_layouts/redirect.html") not in notes   # the site's own, as jekyll-redirect-from
    assert "target" in (site / "templates/redirect.html").read_text()            # renders its pages with it
    assert ("_posts/2020-02-02-moved.md", "redirect_to") not in notes    # the build reads it (test_build)
    assert ("rss.xml", "rss.xml") in notes
    assert "the URL moves" in notes[("_posts/2020-03-03-sorted.md", "categories: ['Deep Learning']")]
    build(site)
    report = check_site(load_config(site), against=str(_listing(tmp_path, ["/old-moved.html",
                                                                          "/2020/02/02/moved.html"])))
    assert report.ok, report.findings


def _tight(html: str) -> str:
    return re.sub(r">\s+<", "><", " ".join(html.split()))


def _listing(folder: Path, urls: list[str]) -> Path:
    path = folder / "sitemap.txt"
    path.write_text("\n".join(urls) + "\n")
    return path


def test_what_jekyll_skips_is_skipped_and_what_it_includes_is_copied(tmp_path) -> None:
    config = "title: Small\nurl: https://small.example\nexclude: [drafts-notes, '*.sh']\ninclude: [.htaccess]\n"
    source = small_site(tmp_path / "jekyll", config, {
        ".htaccess": "Options -Indexes\n", ".git/config": "[core]\n", "node_modules/x/index.js": "x",
        "drafts-notes/a.md": "---\n---\nA\n", "deploy.sh": "#!/bin/sh\n", "#scratch.md": "x",
        "backup.md~": "x", "_private/note.md": "---\n---\nN\n", "news/_posts/2020-01-01-n.md": "---\n---\nN\n",
        "docs/.hidden/x.css": "x", "docs/guide.md": "---\ntitle: Guide\nlayout: default\n---\nG\n",
        "docs/img/a.png": "png"})
    result = import_jekyll(source, tmp_path / "new")
    site = tmp_path / "new"
    made = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
    assert [m for m in made if not m.startswith(("templates/", "content/posts/"))] == [
        ".htaccess", "IMPORT-REPORT.md", "content/pages/docs/guide.md", "docs/img/a.png", "site.yaml"]
    assert yaml.safe_load((site / "site.yaml").read_text())["static"] == [".htaccess", "docs"]
    assert "content/posts/news/2020-01-01-n.md" in made          # category news, as Jekyll's
    build(site)
    assert (site / "_site/docs/guide.html").is_file() and (site / "_site/docs/img/a.png").is_file()
    assert (site / "_site/.htaccess").read_text() == "Options -Indexes\n"


@pytest.mark.parametrize("markdown_input", ["kramdown", "GFM"])
def test_kramdowns_input_is_carried_over_so_heading_ids_stay_jekylls(tmp_path, markdown_input) -> None:
    """``kramdown.input`` decides Jekyll's heading ids; the import keeps them with markdown.header_ids."""
    config = f"title: Small\nurl: https://small.example\nkramdown:\n  input: {markdown_input}\n"
    source = small_site(tmp_path / "jekyll", config, {
        "_posts/2020-01-02-hello-world.md": "---\nlayout: default\ntitle: Hello\n---\n"
                                            "## 1. Graph_Annotation here\n\nHi.\n"})
    import_jekyll(source, tmp_path / "new")
    settings = yaml.safe_load((tmp_path / "new/site.yaml").read_text())
    expected = {"kramdown": "kramdown", "GFM": "gfm"}[markdown_input]
    assert load_config(tmp_path / "new").markdown.header_ids == expected
    assert ("header_ids" in settings["markdown"]) == (expected == "kramdown")
    build(tmp_path / "new")
    ours = re.findall(r'<h2 id="([^"]*)"', (tmp_path / "new/_site/2020/01/02/hello-world.html").read_text())
    if JEKYLL is None:
        pytest.skip("Jekyll is not installed: the ids are not compared with Jekyll's")
    jekyll_build(source, tmp_path / "old")
    theirs = re.findall(r'<h2 id="([^"]*)"', (tmp_path / "old/2020/01/02/hello-world.html").read_text())
    assert ours == theirs and len(ours) == 1


@needs_jekyll
def test_a_post_dated_with_one_digit_month_or_day_is_imported_built_and_linked_as_jekyll_does(tmp_path) -> None:
    """Jekyll 4 takes ``2021-11-8-slug.md`` as a post (its DATE_FILENAME_MATCHER: month and day
    of one or two digits); so do the import, the build and ``post_url`` / ``link``."""
    source = small_site(tmp_path / "jekyll", files={
        "_posts/2021-11-8-one-digit-day.md": "---\nlayout: default\ntitle: Day\n---\nDay {{ page.date | date: '%F' }}.\n",
        "_posts/2021-1-15-one-digit-month.md": "---\nlayout: default\ntitle: Month\n---\nMonth.\n",
        "links.md": ("---\nlayout: default\ntitle: Links\n---\n[day]({% post_url 2021-11-8-one-digit-day %}) "
                     "[month]({% link _posts/2021-1-15-one-digit-month.md %})\n")})
    jekyll_build(source, tmp_path / "old")
    import_jekyll(source, tmp_path / "new")
    assert (tmp_path / "new/content/posts/2021-11-8-one-digit-day.md").is_file()
    build(tmp_path / "new")
    out = tmp_path / "new/_site"
    assert "/2021/11/08/one-digit-day.html" in url_list(tmp_path / "old", "")
    assert url_list(out, "") == sorted(url_list(tmp_path / "old", "") + ["/404.html"])
    for path in ("links/index.html", "2021/11/08/one-digit-day.html"):
        path = path if (tmp_path / "old" / path).is_file() else path.replace("/index.html", ".html")
        assert _tight((out / path).read_text()) == _tight((tmp_path / "old" / path).read_text()), path


def _built_by_both(tmp_path: Path, files: dict[str, str],
                   config: str = "title: Small\nurl: https://small.example\n") -> tuple[Path, Path, list]:
    """``files`` built by Jekyll (``old``) and imported and built by sitegen (``new/_site``)."""
    source = small_site(tmp_path / "jekyll", config, files)
    jekyll_build(source, tmp_path / "old")
    result = import_jekyll(source, tmp_path / "new")
    build(tmp_path / "new")
    return tmp_path / "old", tmp_path / "new/_site", result.notes


@needs_jekyll
def test_a_layouts_front_matter_is_its_layout_variable_as_in_jekyll(tmp_path) -> None:
    # As Homebrew/brew.sh's base layout keeps its search settings: `algolia: {appId: ...}`, read
    # as {{ layout.algolia.appId }} by itself and by every page placed in it through `page`.
    base = ("---\nalgolia: {appId: D9HG, indexName: brew_all}\nshade: dark\n---\n<!DOCTYPE html>\n<html><head>"
            "<title>{{ page.title }}</title></head><body><p>{{ layout.algolia.appId }} {{ layout.shade }}"
            "[{{ layout.missing }}]</p><script>search({{ layout.algolia | jsonify }});</script>"
            "{{ content }}</body></html>\n")
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/base.html": base,
        "_layouts/default.html": "---\nlayout: base\nalgolia: {indexName: brew_all}\n---\n"
                                 "<main>{{ layout.algolia.indexName }}</main>{{ content }}",
        "about.md": "---\nlayout: default\ntitle: About\n---\nA.\n"})
    for page in ("about.html", "2020/01/02/hello-world.html"):
        assert _tight((new / page).read_text()) == _tight((old / page).read_text()), page
    assert '<p>D9HG dark[]</p><script>search({"appId":"D9HG","indexName":"brew_all"});' in (old / "about.html").read_text()
    assert not [n for n in notes if "layout" in n.construct]
    # Layouts placing pages in `base` with other shades: the value depends on the page's layout, the
    # nearest layout setting it winning (as Leaflet's post and tutorial layouts set `root`, read in v2).
    (tmp_path / "jekyll/_layouts/odd.html").write_text("---\nlayout: base\nshade: light\n---\n{{ content }}")
    (tmp_path / "jekyll/_layouts/odder.html").write_text("---\nlayout: odd\n---\n<i>{{ layout.shade }}</i>{{ content }}")
    (tmp_path / "jekyll/_layouts/plain.html").write_text("---\nlayout: base\nshade: [a, b]\n---\n{{ content }}")
    for name in ("base", "odd", "odder", "plain"):
        (tmp_path / f"jekyll/{name}.md").write_text(f"---\nlayout: {name}\ntitle: {name}\n---\nOn {name}.\n")
    jekyll_build(tmp_path / "jekyll", tmp_path / "old2")
    notes = import_jekyll(tmp_path / "jekyll", tmp_path / "again").notes
    build(tmp_path / "again")
    assert not [n for n in notes if "layout" in n.construct]
    for name, shown in (("base", "<p>D9HG dark[]</p>"), ("odd", "<p>D9HG light[]</p>"),
                        ("odder", "<p>D9HG light[]</p>"), ("plain", "<p>D9HG ab[]</p>")):
        theirs = _tight((tmp_path / "old2" / f"{name}.html").read_text())
        assert shown in theirs, name
        assert _tight((tmp_path / "again/_site" / f"{name}.html").read_text()) == theirs, name


@needs_jekyll
def test_jsonify_and_nil_render_as_in_jekyll(tmp_path) -> None:
    """A missing key is nil: ``jsonify`` writes ``null``, ``== nil`` is true (an empty string is
    not nil); a mapping keeps its keys' order and Ruby's spacing."""
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
              "<script>load({{ page.lang | jsonify }}, {{ page.tags | jsonify }}, {{ site.data.search | jsonify }}, "
              "{{ page.blank | jsonify }});</script>"
              "<p>{% if page.lang == nil %}no lang{% endif %}{% if page.blank == nil %} blank is nil{% endif %}"
              "{% if page.blank != nil %} blank is set{% endif %}</p>{{ content }}</body></html>\n")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "_data/search.yml": "zeta: 1\nalpha: [b, a]\nname: Café\n",
        "about.md": "---\nlayout: default\ntitle: About\ntags: [x, y]\nblank: ''\n---\nA.\n"})
    theirs = (old / "about.html").read_text()
    assert 'load(null, ["x","y"], {"zeta":1,"alpha":["b","a"],"name":"Café"}, "");' in theirs
    assert "<p>no lang blank is set</p>" in theirs
    assert _tight((new / "about.html").read_text()) == _tight(theirs)


@needs_jekyll
def test_break_and_continue_in_a_layouts_loop_as_in_jekyll(tmp_path) -> None:
    # As Homebrew/brew.sh's post layout lists the latest posts but the one shown.
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>{{ content }}<ul>"
              "{% for post in site.posts limit:3 %}{% if page.url == post.url %}{% continue %}{% endif %}"
              "{% if post.title == 'Stop' %}{% break %}{% endif %}<li>{{ post.title }}</li>{% endfor %}"
              "</ul></body></html>\n")
    files = {"_layouts/default.html": layout}
    for day, title in enumerate(["One", "Stop", "Three", "Four"], start=1):
        files[f"_posts/2021-01-0{day}-p{day}.md"] = f"---\nlayout: default\ntitle: {title}\n---\n{title}.\n"
    old, new, notes = _built_by_both(tmp_path, files)
    assert not [n for n in notes if n.path.startswith("_layouts/")]
    for day in (1, 4):
        page = f"2021/01/0{day}/p{day}.html"
        assert _tight((new / page).read_text()) == _tight((old / page).read_text()), page
    assert "<ul><li>Three</li></ul>" in (old / "2021/01/04/p4.html").read_text()
    assert "<ul><li>Four</li><li>Three</li></ul>" in (old / "2021/01/01/p1.html").read_text()


@needs_jekyll
def test_a_page_without_a_title_has_none_in_its_layout_and_content_as_in_jekyll(tmp_path) -> None:
    """Jekyll's ``page.title`` is nil on a page without one (brew.sh's layouts then print their
    own); the import names such a page for sitegen (``title: about``, ``untitled: true``) and
    converted layouts and Liquid in content still see nil. A post is titled from its slug."""
    layout = ("<!DOCTYPE html>\n<html><head>{% if page.title %}<title>{{ site.title }}: {{ page.title }}</title>"
              "{% else %}<title>{{ site.title }}</title>{% endif %}</head>"
              "<body><h1>{{ page.title | default: 'Fallback' }}</h1>{{ content }}</body></html>\n")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "about.md": "---\nlayout: default\n---\nContent sees [{{ page.title }}].\n",
        "_posts/2020-01-02-hello-world.md": "---\nlayout: default\n---\nHi {{ page.title }}.\n"})
    front = yaml.safe_load((tmp_path / "new/content/pages/about.md").read_text().split("---")[1])
    assert front["title"] == "about" and front["untitled"] is True
    for page in ("about.html", "2020/01/02/hello-world.html"):
        assert _tight((new / page).read_text()) == _tight((old / page).read_text()), page
    assert "<title>Small</title></head><body><h1>Fallback</h1><p>Content sees [].</p>" in _tight(
        (old / "about.html").read_text())
    assert "<title>Small: Hello World</title>" in (old / "2020/01/02/hello-world.html").read_text()


def _visible(page: Path) -> str:
    from lxml import html as lxml_html
    return " ".join(lxml_html.fromstring(page.read_bytes()).text_content().split())


@needs_jekyll
def test_a_layouts_highlight_block_is_highlighted_code_as_in_jekyll(tmp_path) -> None:
    # As Homebrew/brew.sh's home layout shows its install command and a formula.
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>\n<div class=\"install\">\n"
              "{% highlight bash -%}\n/bin/bash -c \"$(curl -fsSL https://x.example/install.sh)\"\n{%- endhighlight %}\n"
              "</div>\n{% highlight ruby %}\nclass Wget < Formula\nend\n{% endhighlight %}\n"
              "{% highlight ruby %}\nputs \"{{ page.title }}\"\n{% endhighlight %}{{ content }}</body></html>\n")
    old, new, notes = _built_by_both(tmp_path, {"_layouts/default.html": layout})
    page = "2020/01/02/hello-world.html"
    ours = (new / page).read_text()
    assert _visible(new / page).replace(" ", "") == _visible(old / page).replace(" ", "")
    assert '<div class="install">\n<div class="highlight"' in ours and '<span class="s2">"</span><span class="k">$(</span>curl' in ours
    assert '<span class="nc">Wget</span><span class="w"> </span><span class="o">&lt;</span>' in ours
    # Liquid inside a block: rendered first, then highlighted, as Jekyll does (bitcoincore.org's {{ content }}).
    assert [(n.line, n.construct) for n in notes if n.path.startswith("_layouts/")] == []
    assert '<span class="nb">puts</span><span class="w"> </span><span class="s2">"Hello"</span>' in ours


@needs_jekyll
def test_an_indented_code_block_keeps_its_tabs_as_in_jekyll(tmp_path) -> None:
    # As bitcoincore.org's meeting notes and elixir-lang's posts quote IRC logs: kramdown keeps the
    # tabs after a code block's indentation, where Python-Markdown expanded them to spaces.
    body = ("---\nlayout: default\ntitle: Log\n---\nThe log:\n\n    20:01\twumpus\t\t#meetingend\n"
            "    20:01\tgmaxwell   Thanks all.\n\n\tx\ty\n\n* an item\n\n        code\tin it\n\n"
            "* a\tlist\n  * nested\tone\n")
    old, new, _ = _built_by_both(tmp_path, {"log.md": body})
    from tests import parity

    ours, theirs = ((folder / "log.html").read_text() for folder in (new, old))
    assert "20:01\twumpus\t\t#meetingend" in theirs and "x\ty" in theirs and "code\tin it" in theirs
    assert parity.first_difference(parity.dom(ours.split("<body>")[1]), parity.dom(theirs.split("<body>")[1])) is None


@needs_jekyll
def test_a_link_element_starting_a_line_is_a_block_as_in_jekyll(tmp_path) -> None:
    # As bitcoincore.org's download page names its releases' feed in its body: kramdown reads a
    # <link> (or <meta>) at a line's start as an HTML block, not as a paragraph's.
    body = ("---\nlayout: default\ntitle: Download\n---\nThe releases:\n\n"
            '<link rel="alternate" type="application/rss+xml" href="/releases.xml" title="Releases">\n'
            '<div class="download">\n  <h2>Latest</h2>\n</div>\n\n<meta name="robots" content="noindex">\n\n'
            'A <link href="/inline.css"> in a paragraph.\n')
    old, new, _ = _built_by_both(tmp_path, {"download.md": body})
    from tests import parity

    ours, theirs = ((folder / "download.html").read_text() for folder in (new, old))
    assert '\n<link rel="alternate" type="application/rss+xml" href="/releases.xml" title="Releases" />\n' in theirs
    assert parity.first_difference(parity.dom(ours.split("<body>")[1]), parity.dom(theirs.split("<body>")[1])) is None


@needs_jekyll
def test_a_rule_under_a_paragraphs_line_is_its_text_as_in_jekyll(tmp_path) -> None:
    # As bitcoincore.org's 0.14.3 release notes underline a title one space in: kramdown's rule
    # never breaks a paragraph, and only a line of - or = at its start makes a heading.
    body = ("---\nlayout: default\ntitle: Notes\n---\nDenial CVE-2018-17144\n -------------------------------\n\n"
            "Next para\n   ___\n\nThird\n  * * *\n\nFourth\n---\n\nFifth\n\n ---\n")
    old, new, _ = _built_by_both(tmp_path, {"notes.md": body})
    from tests import parity

    ours, theirs = ((folder / "notes.html").read_text() for folder in (new, old))
    assert "<p>Denial CVE-2018-17144\n ——————————-</p>" in theirs
    assert parity.first_difference(parity.dom(ours.split("<body>")[1]), parity.dom(theirs.split("<body>")[1])) is None


@needs_jekyll
def test_replace_reads_the_replacements_back_references_as_ruby_does(tmp_path) -> None:
    # As bitcoincore.org's download links write a magnet link's `&` as `&amp;` with `\&amp;`:
    # Liquid's replace is Ruby's gsub, whose replacement's \& is the match.
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
              "<a href=\"{{ page.magnet | replace: '&', '\\&amp;' }}\">m</a>{{ content }}</body></html>\n")
    body = ("---\nlayout: default\ntitle: Get\nmagnet: 'magnet:?xt=1&dn=core&tr=udp'\n---\n"
            "{{ 'a-b-c' | replace: '-', \"[\\0\\`\\'\\1\\\\\\x]\" }} {{ 'a-b-c' | replace_first: '-', '<\\&>' }}\n")
    old, new, _ = _built_by_both(tmp_path, {"_layouts/default.html": layout, "get.md": body})
    ours, theirs = ((folder / "get.html").read_text() for folder in (new, old))
    assert '<a href="magnet:?xt=1&amp;dn=core&amp;tr=udp">m</a>' in theirs
    assert _tight(ours) == _tight(theirs)


@needs_jekyll
def test_a_reversed_list_is_read_again_by_each_loop_as_in_jekyll(tmp_path) -> None:
    # As bitcoincore.org's blogs in other languages look each English post's translation up in a
    # list sorted and reversed once: Liquid's reverse is an array, which every loop reads whole.
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
              "{% assign newest = site.posts | sort: 'date' | reverse %}<p>{% for a in site.posts %}"
              "{% for b in newest %}{% if b.title == a.title %}{{ b.title }};{% break %}{% endif %}{% endfor %}"
              "{% endfor %}</p><p>{{ newest.size }} {{ newest.first.title }}</p>{{ content }}</body></html>\n")
    posts = {f"_posts/2020-0{n}-01-{name}.md": f"---\nlayout: default\ntitle: {name}\n---\nx\n"
             for n, name in ((3, "Sea"), (4, "Bee"), (5, "Ay"))}
    old, new, _ = _built_by_both(tmp_path, {"_layouts/default.html": layout, **posts})
    page = "2020/03/01/Sea.html"
    ours, theirs = ((folder / page).read_text() for folder in (new, old))
    assert "<p>Ay;Bee;Sea;Hello;</p><p>4 Ay</p>" in theirs
    assert _tight(ours) == _tight(theirs)


def test_a_page_without_a_title_is_shared_under_the_sites_title_as_jekyll_seo_tag_does(tmp_path) -> None:
    """jekyll-seo-tag (which Debian's Jekyll lacks, so this is not compared with it) titles and
    shares a page without a title under the site's title."""
    source = small_site(tmp_path / "jekyll", "title: Small\nurl: https://small.example\nplugins: [jekyll-seo-tag]\n", {
        "_layouts/default.html": "<!DOCTYPE html>\n<html><head>{% seo %}</head><body>{{ content }}</body></html>\n",
        "about.md": "---\nlayout: default\n---\nA.\n", "team.md": "---\nlayout: default\ntitle: Team\n---\nT.\n"})
    import_jekyll(source, tmp_path / "new")
    build(tmp_path / "new")
    about, team = ((tmp_path / "new/_site" / name).read_text() for name in ("about.html", "team.html"))
    assert "<title>Small</title>" in about and '<meta property="og:title" content="Small">' in about
    assert "<title>Team | Small</title>" in team and '<meta property="og:title" content="Team">' in team


@needs_jekyll
def test_a_captured_block_is_plain_text_to_replace_as_in_jekyll(tmp_path) -> None:
    # As Homebrew/brew.sh's base layout drops the slash of self-closing tags from the page.
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
              "{% capture rendered %}{{ content }}{% include form.html %}{% endcapture %}"
              "{{ rendered | replace: ' />', '>' | replace: '/>', '>' | remove: '<hr>' | append: '<p>end</p>' }}"
              "</body></html>\n")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "_includes/form.html": '<form><input type="email" placeholder="Email" />\n<br/><hr></form>\n'})
    page = "2020/01/02/hello-world.html"
    assert '<form><input type="email" placeholder="Email">\n<br></form>\n<p>end</p>' in (old / page).read_text()
    assert _tight((new / page).read_text()) == _tight((old / page).read_text())


@needs_jekyll
def test_lists_and_mappings_of_config_are_written_into_layouts_as_in_jekyll(tmp_path) -> None:
    # As Homebrew/brew.sh's base layout links its `link_rel_me_urls` and reads `github.repository_nwo`.
    config = ("title: Small\nurl: https://small.example\nlinks: [https://a.example/@x, https://b.example/y]\n"
              "github: {repository_nwo: Homebrew/brew.sh}\n")
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title>"
              "{% for link in site.links %}<link rel=\"me\" href=\"{{ link }}\">{% endfor %}</head><body>"
              "<p>{{ site.github.repository_nwo }} [{{ site.github.source.branch }}] {{ site.links.size }} "
              "{{ site.links.first }} {{ site.links[1] }}</p>"
              "{% if site.github.source.path %}<p>edit</p>{% endif %}{{ content }}</body></html>\n")
    old, new, notes = _built_by_both(tmp_path, {"_layouts/default.html": layout}, config)
    page = "2020/01/02/hello-world.html"
    theirs = (old / page).read_text()
    assert '<link rel="me" href="https://b.example/y">' in theirs
    assert "<p>Homebrew/brew.sh [] 2 https://a.example/@x https://b.example/y</p><p>Hi.</p>" in theirs
    assert _tight((new / page).read_text()) == _tight(theirs)
    assert not [n for n in notes if n.path.startswith("_layouts/")]


@needs_jekyll
def test_what_an_include_assigns_its_includer_reads_and_what_none_assigns_is_nil_as_in_jekyll(tmp_path) -> None:
    # As Jekyll-Bootstrap's JB/setup (apache/tvm-site): inside a capture it includes JB/is_production,
    # which assigns is_production only under a condition, then reads it and assigns the paths the
    # layout reads after the capture.
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>{% include setup %}"
              "<p>[{{ BASE_PATH }}] [{{ ASSET_PATH }}] [{{ is_production }}] [{{ never }}]"
              "{% unless never %} unset{% endunless %}{% if jbcache %} cached{% endif %}</p>"
              "<p>{% for item in (1..2) %}{% include show %}{% endfor %}{% include show %}</p>"
              "{{ content }}</body></html>\n")
    setup = ("{% capture jbcache %}{% include is_production %}"
             "{% if is_production and site.base %}{% assign BASE_PATH = site.base %}"
             "{% else %}{% assign BASE_PATH = nil %}{% endif %}"
             "{% capture ASSET_PATH %}{{ BASE_PATH }}/assets/{{ site.title }}{% endcapture %}"
             "{% assign item = 'a' %}{% endcapture %}{% assign jbcache = nil %}")
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/default.html": layout, "_includes/setup": setup,
        "_includes/show": "<i>{{ item }}</i>",
        "_includes/is_production": "{% if site.production %}{% assign is_production = true %}{% endif %}"},
        config="title: Small\nurl: https://small.example\nbase: /prod\nproduction: false\n")
    page = "2020/01/02/hello-world.html"
    assert "<p>[] [/assets/Small] [] [] unset</p><p><i>1</i><i>2</i><i>a</i></p>" in (old / page).read_text()
    assert _tight((new / page).read_text()) == _tight((old / page).read_text())
    assert not [n for n in notes if n.path.startswith(("_layouts/", "_includes/"))]


@needs_jekyll
def test_an_includes_layout_variable_is_its_pages_layouts_as_in_jekyll(tmp_path) -> None:
    # As Jekyll-Bootstrap's JB/setup reads {{ layout.theme.name }}, which no layout of tvm-site sets.
    layout = ("---\nshade: dark\n---\n<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
              "{% include head.html %}{{ content }}</body></html>\n")
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        # (a layout sees its own front matter and what the layouts placed in it set, not its parent's)
        "_layouts/post.html": "---\nlayout: default\nshade: dark\n---\n<article>{% include head.html %}{{ content }}</article>",
        "_includes/head.html": "<p>[{{ layout.shade }}] [{{ layout.theme.name }}]</p>",
        "_posts/2020-01-02-hello-world.md": "---\nlayout: post\ntitle: Hello\n---\nHi.\n"})
    page = "2020/01/02/hello-world.html"
    assert "<body><p>[dark] []</p><article><p>[dark] []</p><p>Hi.</p>" in _tight((old / page).read_text())
    assert _tight((new / page).read_text()) == _tight((old / page).read_text())
    assert not [n for n in notes if n.path.startswith(("_layouts/", "_includes/"))]
    # A layout with another shade: what the include sees depends on the page's layout.
    (tmp_path / "jekyll/_layouts/odd.html").write_text("---\nlayout: default\nshade: light\n---\n{{ content }}")
    (tmp_path / "jekyll/_posts/2020-01-03-odd.md").write_text("---\nlayout: odd\ntitle: Odd\n---\nOdd.\n")
    jekyll_build(tmp_path / "jekyll", tmp_path / "old2")
    notes = import_jekyll(tmp_path / "jekyll", tmp_path / "again").notes
    build(tmp_path / "again")
    assert not [n for n in notes if n.path.startswith("_includes/")]
    for page, shown in (("2020/01/02/hello-world.html", "<body><p>[dark] []</p><article><p>[dark] []</p>"),
                        ("2020/01/03/odd.html", "<body><p>[light] []</p><p>Odd.</p>")):
        theirs = _tight((tmp_path / "old2" / page).read_text())
        assert shown in theirs
        assert _tight((tmp_path / "again/_site" / page).read_text()) == theirs, page


@needs_jekyll
def test_a_variable_nobody_set_renders_as_nothing_as_in_jekyll_and_the_build_names_it(tmp_path) -> None:
    # As apache/storm-site's release docs link to `{{ site.apiRoot }}/...`, a key its _config.yml
    # never sets: Jekyll writes nothing there; the imported site's build stopped.
    source = small_site(tmp_path / "jekyll", files={
        "docs.md": "---\nlayout: default\ntitle: Docs\n---\nSee [the API]({{ site.apiRoot }}/api.html).\n\n"
                   "Version [{{ site.release.version }}].\n"})
    jekyll_build(source, tmp_path / "old")
    import_jekyll(source, tmp_path / "new")
    result = build(tmp_path / "new")
    theirs = _tight((tmp_path / "old/docs.html").read_text())
    assert '<p>See <a href="/api.html">the API</a>.</p><p>Version [].</p>' in theirs
    assert '<p>See <a href="/api.html">the API</a>.</p><p>Version [].</p>' in _tight(
        (tmp_path / "new/_site/docs.html").read_text())
    named = [w for w in result.warnings if "unknown variable site." in w]
    assert len(named) == 2 and all("content/pages/docs.md:" in w for w in named), result.warnings
    assert any("site.apiRoot" in w and "docs.md:5" in w for w in named), named

def test_a_post_listing_the_sites_posts_renders_as_in_jekyll_and_is_made_again_when_one_changes(tmp_path) -> None:
    # As bitcoin-core/bitcoincore.org keeps its pages in _posts/: its releases page, a post, lists site.posts.
    from test_incremental import assert_same_as_full_build

    listing = ("---\nlayout: default\ntitle: Releases\npermalink: /releases/\n---\n"
               "{% assign found = site.posts | where: 'kind', 'release' %}"
               "{% for p in found %}\n- [{{ p.title }}]({{ p.url }}) {{ p.kind }}\n{% endfor %}\n")
    old, new, _ = _built_by_both(tmp_path, {
        "_posts/2016-01-01-releases.md": listing,
        "_posts/2021-05-01-v21.md": "---\nlayout: default\ntitle: Version 21\nkind: release\n---\nV21.\n",
        "_posts/2022-05-01-v22.md": "---\nlayout: default\ntitle: Version 22\nkind: release\n---\nV22.\n"})
    theirs = (old / "releases/index.html").read_text()
    assert '<a href="/2022/05/01/v22.html">Version 22</a> release' in theirs and "Version 21" in theirs
    assert _tight((new / "releases/index.html").read_text()) == _tight(theirs)
    site = tmp_path / "new"
    other = site / "content/posts/2021-05-01-v21.md"
    other.write_text(other.read_text().replace("Version 21", "Version 21.1"))
    result = build(site)
    assert "releases/index.html" in result.written
    assert "Version 21.1</a>" in (new / "releases/index.html").read_text()
    assert_same_as_full_build(site)


@needs_jekyll
def test_ruby_liquids_leniencies_in_content_render_as_in_jekyll(tmp_path, capsys) -> None:
    # As bitcoincore.org's and crystal-lang's includes write them: a capture into "/dev/null" (a
    # variable named dev), "| replace," for "| replace:", a value of _config.yml read as
    # site.strings, loop parameters given by variables named limit and offset, markdownify,
    # group_by, and a CSV data file read as a list of rows.
    include = ("{% capture /dev/null %}dropped{% endcapture %}[{{ dev }}]\n"
               "{{ page.intro | replace, 'NAME', site.strings.name }} {% raw %}{{ a | f, b }}{% endraw %}\n"
               "{% assign limit = 2 %}{% assign offset = 1 %}"
               "{% for n in (1..6) limit: limit offset: offset %}<i>{{ n }}</i>{% endfor %}"
               "{% for n in (1..6) reversed limit:2 %}<b>{{ n }}</b>{% endfor %}\n"
               "<table>{% tablerow n in (1..3) cols:2 %}{{ n }}{% endtablerow %}</table>\n"
               "{% for row in site.data.people %}<s>{{ row.name }}={{ row.role }}</s>{% endfor %}\n"
               "{% assign groups = site.data.people | group_by: 'role' %}"
               "{% for g in groups %}<u>{{ g.name }}:{{ g.size }}</u>{% endfor %}\n"
               "{{ page.note | markdownify }}\n")
    old, new, notes = _built_by_both(tmp_path, {
        "_includes/odd.html": include,
        "_data/people.csv": "name,role\nAda,dev\nBob,\nCy,dev\n",
        "about.html": "---\nlayout: default\ntitle: About\nintro: Hello NAME.\nnote: Some *stress*.\n---\n"
                      "{% include odd.html %}\n<p>{{ page.title | replace, 'A', 'a' }}</p>\n"},
        "title: Small\nurl: https://small.example\nstrings:\n  name: Core\n")
    theirs = (old / "about.html").read_text()
    assert "[dropped]" in theirs and "Hello Core. {{ a | f, b }}" in theirs and "<i>2</i><i>3</i><b>2</b><b>1</b>" in theirs
    assert "<p>about</p>" in theirs and "<s>Bob=</s>" in theirs and "<u>dev:2</u><u>:1</u>" in theirs and "<em>stress</em>" in theirs
    assert _tight((new / "about.html").read_text()) == _tight(theirs)
    assert not [n for n in notes if "people.csv" in n.path]
    shutil.rmtree(tmp_path / "new/.sitegen")
    assert main(["-C", str(tmp_path / "new"), "build"]) == 0
    assert ("content/includes/odd.html:2: warning: Liquid: | replace, read as a filter's ':', as Jekyll reads it"
            in capsys.readouterr().err)


@needs_jekyll
def test_layouts_and_includes_of_real_sites_render_as_in_jekyll(tmp_path) -> None:
    # As bitcoincore.org's and crystal-lang's layouts write them: a name no template sets
    # (custom_title), page.next.url on the newest post, where + concat + sort by path,
    # layout.section read in an include, a filter in a condition (Jekyll reads only its first
    # operand), include.page.KEY of the front matter, a data key nobody has, page.path; and a
    # post whose URL another post names in redirect_from (the post wins, as Jekyll writes it last).
    layout = ("<!DOCTYPE html>\n<html lang=\"en\"><head><title>{{ page.title }}</title></head><body>"
              "{% include head.html %}{% include crumbs.html page=page %}{{ content }}"
              "<nav>{% if page.next.url %}<a href=\"{{ page.next.url }}\">{{ page.next.title }}</a>{% endif %}</nav>"
              "{% assign en = site.posts | where: 'lang', 'en' %}{% assign es = site.posts | where: 'lang', 'es' %}"
              "{% assign all = en | concat: es | sort: 'path' %}"
              "<ul>{% for p in all %}<li>{{ p.title }}</li>{% endfor %}</ul>"
              "{% for pair in site.data.nav %}<b>{{ pair[0] }}={{ pair[1].url }}</b>{% endfor %}"
              "<ol>{% for p in site.related_posts limit:2 %}<li>{{ p.title }}</li>{% endfor %}</ol>"
              "<p>{{ page.summary | markdownify | strip_html }}</p></body></html>\n")
    crumbs = ("{% assign section = include.page.section | default: layout.section %}<p>[{{ section }}]</p>"
              "{% if include.page.categories | size > 0 %}{% for c in include.page.categories %}<i>{{ c }}</i>"
              "{% endfor %}{% endif %}<p>[{{ site.data.people[include.page.author].name }}]</p>"
              "<a href=\"https://example.org/edit/{{ page.path }}\">edit</a>")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "_layouts/guide.html": "---\nlayout: default\nsection: guides\n---\n<main>{{ content }}</main>",
        "_includes/head.html": "{% if custom_title %}<h1>{{ custom_title }}</h1>{% else %}<h1>{{ page.title }}</h1>"
                               "{% endif %}",
        "_includes/crumbs.html": crumbs,
        "_data/people.yml": "ada: {name: Ada}\n", "_data/nav.yml": "home: {url: /}\nblog: {url: /blog/}\n",
        "about.md": "---\nlayout: guide\ntitle: About\nsummary: Some *stress*.\n---\nA.\n",
        "_posts/2021-01-01-one.md": "---\nlayout: default\ntitle: One\nlang: es\nauthor: ada\n"
                                    "redirect_from: [/es/two/]\n---\nOne.\n",
        "_posts/2021-01-02-two.md": "---\nlayout: guide\ntitle: Two\nlang: en\nauthor: bob\ncategories: [x]\n"
                                    "permalink: /es/two/\n---\nTwo.\n",
        "_posts/2021-01-03-three.md": "---\nlayout: guide\ntitle: Three\nlang: en\nsection: own\n---\nThree.\n"})
    pages = ("2021/01/01/one.html", "es/two/index.html", "2021/01/03/three.html", "2020/01/02/hello-world.html",
             "about.html")
    theirs = {page: (old / page).read_text() for page in pages}
    assert "<p>[guides]</p><i>x</i><p>[]</p>" in theirs["es/two/index.html"]
    assert "<p>[own]</p>" in theirs["2021/01/03/three.html"] and "<p>[Ada]</p>" in theirs["2021/01/01/one.html"]
    assert "<ul><li>One</li><li>Two</li><li>Three</li></ul>" in theirs["2021/01/03/three.html"]
    assert "edit/_posts/2021-01-03-three.md" in theirs["2021/01/03/three.html"]
    assert "<b>home=/</b><b>blog=/blog/</b><ol><li>Two</li><li>One</li></ol>" in theirs["2021/01/03/three.html"]
    assert "<ol></ol><p>Some stress. </p>" in _tight(theirs["about.html"])
    for page in pages:
        assert _tight((new / page).read_text()) == _tight(theirs[page]), page


def test_a_ruby_plugins_liquid_is_named_and_each_use_a_warning_at_its_line(tmp_path, capsys) -> None:
    # As bitcoincore.org's githubify block tag and crystal-lang's liquify filter: Ruby does not run in
    # sitegen, so the build names each use (a block's content kept as it is) instead of stopping.
    plugin = ("module Shout\n  def shout(input)\n    input.upcase\n  end\nend\n\n"
              "Liquid::Template.register_filter(Shout)\n"
              "Liquid::Template.register_tag('linkify', Jekyll::LinkifyBlock)\n")
    source = small_site(tmp_path / "jekyll", files={
        "_plugins/shout.rb": plugin,
        "_posts/2021-02-03-loud.md": "---\nlayout: default\ntitle: Loud\n---\nQuiet {{ 'words' | shout }}.\n\n"
                                     "{% linkify https://github.com/x/y %}\nFixes #1234.\n{% endlinkify %}\n\n"
                                     "{% assign rs = site.releases | sort: 'date' %}{% for r in rs %}{{ r }}{% endfor %}\n"})
    result = import_jekyll(source, tmp_path / "new")
    notes = {(n.path, n.line): n.construct for n in result.notes}
    assert notes[("_plugins/shout.rb", 7)] == "register_filter(Shout)"
    assert notes[("_plugins/shout.rb", 8)] == "register_tag('linkify', Jekyll::LinkifyBlock)"
    assert yaml.safe_load((tmp_path / "new/site.yaml").read_text())["liquid"] == {"unknown": "warning"}
    assert main(["-C", str(tmp_path / "new"), "build"]) == 0
    err = capsys.readouterr().err
    post = "content/posts/2021-02-03-loud.md"
    assert f"{post}:5: warning: Liquid: unknown filter 'shout' left out" in err
    assert f"{post}:7: warning: Liquid: unexpected tag 'linkify' left out" in err
    assert f"{post}:9: warning: Liquid: unexpected tag 'endlinkify' left out" in err
    assert err.count(f"{post}:11: warning: Liquid: unknown variable site.releases") == 1   # a collection, looped over
    html = (tmp_path / "new/_site/2021/02/03/loud.html").read_text()
    assert "Fixes #1234." in html and "Quiet words." in html     # the filter's input passed on, as Jekyll's
                                                                  # Liquid passes it through an unknown filter


@needs_jekyll
def test_posts_sorted_by_path_and_a_liquid_filter_after_uniq_as_in_jekyll(tmp_path) -> None:
    # bitcoincore.org's navigation sorts posts by `path` (Jekyll's source path) though no template
    # prints it; Jinja's unique gives a generator, which a Liquid filter after it takes as a list.
    layout = ("<!DOCTYPE html>\n<html lang=\"en\"><head><title>{{ page.title }}</title></head><body>{{ content }}"
              "{% assign ps = site.posts | sort: 'path' %}<ul>{% for p in ps %}<li>{{ p.title }}</li>{% endfor %}</ul>"
              "{% assign u = page.letters | uniq %}<i>{{ site.data.more | concat: u | sort_natural | join: '' }}</i>"
              "</body></html>\n")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "_posts/2021-01-01-b.md": "---\nlayout: default\ntitle: B\ndate: 2021-03-01\nletters: [c, A, c, b]\n---\nB.\n",
        "_data/more.yml": "[z]\n",
        "_posts/2021-01-02-a.md": "---\nlayout: default\ntitle: A\n---\nA.\n"})
    theirs = (old / "2021/03/01/b.html").read_text()
    assert "<ul><li>Hello</li><li>B</li><li>A</li></ul><i>Abcz</i>" in theirs
    assert _tight((new / "2021/03/01/b.html").read_text()) == _tight(theirs)


@needs_jekyll
def test_an_excerpt_stripped_and_truncated_counts_a_typographic_quote_once_as_jekyll_does(tmp_path) -> None:
    # As Homebrew/brew.sh's post layout lists `post.excerpt | strip_html | normalize_whitespace | truncate: 170`:
    # kramdown writes "I’m" with the character, sitegen's HTML with &#8217;, which truncate counted as 7.
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
                                 "{% for post in site.posts %}<p>{{ post.excerpt | strip_html | truncate: 24 }}</p>"
                                 "{% endfor %}{{ content }}</body></html>\n",
        "_posts/2020-01-02-hello-world.md": "---\nlayout: default\ntitle: Hello\n---\nI'm proud -- and it's \"done\" now.\n"})
    page = "2020/01/02/hello-world.html"
    theirs = _tight((old / page).read_text())
    assert "<p>I’m proud – and it’s ...</p>" in theirs
    assert html.unescape(_tight((new / page).read_text())) == theirs    # sitegen writes &rsquo; in the post
def _page(folder: Path, name: str) -> str:
    return _tight((folder / name).read_text())


@needs_jekyll
def test_a_layout_named_as_sitegens_blog_template_is_the_sites_own_as_in_jekyll(tmp_path) -> None:
    # As elixir-lang.org's posts: layout post, placed in the site's `blog` layout, not in the default
    # theme's blog.html (sitegen's blog listing, which reads a paginator the post has not).
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/blog.html": "---\nlayout: default\n---\n<div id=\"content\">{{ content }}</div><aside>Side</aside>\n",
        "_layouts/post.html": "---\nlayout: blog\n---\n<article><h1>{{ page.title }}</h1>{{ content }}</article>\n",
        "_posts/2020-01-02-hello-world.md": "---\nlayout: post\ntitle: Hello\n---\nHi.\n",
        "blog/index.html": "---\nlayout: blog\ntitle: Blog\n---\n<p>All posts</p>\n"})
    for page in ("2020/01/02/hello-world.html", "blog/index.html"):
        assert _page(new, page) == _page(old, page), page
    assert '<div id="content"><article><h1>Hello</h1><p>Hi.</p>' in _page(old, "2020/01/02/hello-world.html")
    assert [n.path for n in notes if "blog" in n.path] == ["_layouts/blog.html"]   # sitegen's own blog pages would use it


@needs_jekyll
def test_site_time_and_now_are_the_builds_time_as_in_jekyll(tmp_path) -> None:
    # As elixir-lang.org's footer ({{ 'now' | date: "%Y" }}) and ruby-lang.org's admin page ({{ site.time }}).
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>{{ content }}<footer>"
              "&copy; 2012-{{ 'now' | date: \"%Y\" }} [{{ site.time | date: \"%Y\" }}]</footer></body></html>\n")
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "about.md": "---\nlayout: default\ntitle: About\n---\nBuilt in {{ site.time | date: '%Y' }}, "
                    "{{ 'now' | date: '%Y' }}.\n"})
    year = datetime.now().year
    assert f"<p>Built in {year}, {year}.</p><footer>&copy; 2012-{year} [{year}]</footer>" in _page(old, "about.html")
    for page in ("about.html", "2020/01/02/hello-world.html"):
        assert _page(new, page) == _page(old, page), page
    assert not [n for n in notes if n.path.startswith("_layouts/")]


def test_the_builds_time_is_source_date_epoch_and_a_page_is_made_again_when_its_text_of_it_turns(
        tmp_path, monkeypatch) -> None:
    """The same sources and SOURCE_DATE_EPOCH give the same bytes; a later time makes again the
    pages whose text of it changed (the full time), not those showing the same year."""
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>{{ content }}"
              "<p>{{ site.time | date: \"%Y\" }}</p></body></html>\n")
    source = small_site(tmp_path / "jekyll", files={
        "_layouts/default.html": layout, "team.md": "---\nlayout: default\ntitle: Team\n---\nT.\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\nAt {{ site.time }}.\n"})
    import_jekyll(source, tmp_path / "new")
    site = tmp_path / "new"
    shutil.copytree(site, tmp_path / "clean")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")      # 2023-11-14 22:13:20 UTC
    build(site)
    assert "<p>At 2023-11-14 22:13:20 +0000.</p><p>2023</p>" in _page(site / "_site", "about.html")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000100")
    again = build(site)
    assert "<p>At 2023-11-14 22:15:00 +0000." in _page(site / "_site", "about.html")
    assert "about.html" in again.written and "team.html" not in again.written
    build(tmp_path / "clean")
    assert {p.name: p.read_bytes() for p in (site / "_site").rglob("*.html")} == {
        p.name: p.read_bytes() for p in (tmp_path / "clean/_site").rglob("*.html")}
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")      # 2027: the year turned
    assert "team.html" in build(site).written and "<p>2027</p>" in _page(site / "_site", "team.html")


@needs_jekyll
def test_a_plugins_tag_and_filter_in_a_page_are_named_at_their_lines_and_the_page_still_builds(tmp_path) -> None:
    # As ruby-lang.org's admin page's {% translation_status %} and its releases' | localize_post_url.
    plugin = ("module Shout\n  def shout(input)\n    input.upcase\n  end\nend\nLiquid::Template.register_filter(Shout)\n"
              "class Stamp < Liquid::Tag\n  def render(context)\n    \"STAMP\"\n  end\nend\n"
              "Liquid::Template.register_tag(\"stamp\", Stamp)\n")
    old, new, notes = _built_by_both(tmp_path, {
        "_plugins/shout.rb": plugin,
        "about.md": "---\nlayout: default\ntitle: About\n---\nBefore.\n\n{% stamp %}\n\nSaid {{ 'hi' | shout }}.\n\nAfter.\n"})
    assert "<p>STAMP</p>" in _page(old, "about.html") and "<p>Said HI.</p>" in _page(old, "about.html")
    # The unknown filter passes its value on, as Jekyll's Liquid (strict_filters off) does.
    assert _page(new, "about.html") == _page(old, "about.html").replace("<p>STAMP</p>", "").replace("HI", "hi")
    assert [(n.path, n.line, n.construct) for n in notes if "sitegen does not have" in n.action] == [
        ("about.md", 7, "{% stamp %}"), ("about.md", 9, "| shout")]
    assert yaml.safe_load((tmp_path / "new/site.yaml").read_text())["liquid"] == {"unknown": "warning"}


@needs_jekyll
def test_an_include_named_by_a_variable_is_included_as_in_jekyll(tmp_path) -> None:
    # As ruby-lang.org's home page: {% include home/code_examples/{{ example }}.html %}.
    old, new, _ = _built_by_both(tmp_path, {
        "_includes/examples/one.html": "<code>one</code>\n", "_includes/examples/two.html": "<code>two</code>\n",
        "about.md": "---\nlayout: default\ntitle: About\nexamples: [one, two]\n---\n<div>{% for example in page.examples %}"
                    "{% include examples/{{ example }}.html %}{% endfor %}</div>\n"})
    assert "<div><code>one</code>\n<code>two</code>\n</div>" in (old / "about.html").read_text()
    assert _page(new, "about.html") == _page(old, "about.html")


@needs_jekyll
def test_a_layouts_liquid_filters_needing_their_environment_render_as_in_jekyll(tmp_path) -> None:
    # As ruby-lang.org's default layout: {{ page.title | strip_newlines }}.
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title | strip_newlines }}</title></head><body>"
              "<p>{{ page.note | newline_to_br }}</p><p>{{ page.note | escape_once }}</p>{{ content }}</body></html>\n")
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "about.md": "---\nlayout: default\ntitle: \"About\\nus\"\nnote: \"a &amp; b\\nc\"\n---\nA.\n"})
    assert "<title>Aboutus</title>" in (old / "about.html").read_text()
    assert _page(new, "about.html") == _page(old, "about.html")
    assert not [n for n in notes if n.path.startswith("_layouts/")]


@needs_jekyll
def test_a_key_missing_on_the_way_down_data_is_nil_as_in_jekyll(tmp_path) -> None:
    # As ruby-lang.org's rss_discovery include: site.data.locales['en'].sidebar.syndicate, en.yml has no sidebar.
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
              "{% if site.data.locales['en'].sidebar %}<p>side</p>{% endif %}"
              "<p>[{{ site.data.locales['en'].sidebar.syndicate.url }}][{{ site.data.locales[page.lang].title }}]"
              "[{{ site.data.locales.fr.title }}]</p>{{ content }}</body></html>\n")
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/default.html": layout, "_data/locales/en.yml": "title: English\n",
        "about.md": "---\nlayout: default\ntitle: About\nlang: en\n---\nA.\n"})
    assert "<p>[][English][]</p>" in (old / "about.html").read_text()
    assert _page(new, "about.html") == _page(old, "about.html")


@needs_jekyll
def test_what_an_include_assigns_is_seen_by_its_includer_and_the_next_include_as_in_jekyll(tmp_path) -> None:
    # As ruby-lang.org's side_navigation include, which shows current_section_title, assigned by the
    # nav_helpers/detect_section.html it includes first.
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>{% include detect.html %}"
              "<h3>{{ section_title }}</h3>{% include show.html %}{{ content }}</body></html>\n")
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "_includes/detect.html": "{% assign section_title = page.title | upcase %}{% assign count = 2 %}",
        "_includes/show.html": "<p>{{ section_title }} {{ count | plus: 1 }} [{{ never_set }}]</p>\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\nA.\n"})
    assert "<h3>ABOUT</h3><p>ABOUT 3 []</p>" in (old / "about.html").read_text()
    assert _page(new, "about.html") == _page(old, "about.html")
    assert not [n for n in notes if n.path.startswith(("_layouts/", "_includes/"))]


@needs_jekyll
def test_a_key_named_as_a_liquid_keyword_is_read_as_in_jekyll(tmp_path) -> None:
    # As ruby-lang.org's news_security include: {{ news_locale.continue }}.
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
              "<p>{{ site.data.loc.continue }}</p>{{ content }}</body></html>\n")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": layout, "_data/loc.yml": "continue: Read on\nif: Maybe\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\n{% assign loc = site.data.loc %}"
                    "{{ loc.continue }}, {{ loc.if }} {{ \"a.if\" }}\n"})
    assert "<p>Read on, Maybe a.if</p>" in (old / "about.html").read_text()
    assert _page(new, "about.html") == _page(old, "about.html")


@needs_jekyll
def test_the_sites_redirect_layout_renders_its_redirect_pages_as_jekyll_redirect_from_does(tmp_path) -> None:
    # As elixir-lang.org's getting-started pages (layout redirect, redirect_to) and its moved posts
    # (redirect_from): jekyll-redirect-from renders both with the site's _layouts/redirect.html.
    layout = ("<!DOCTYPE html>\n<html><head><title>Moved</title></head><body><a href=\"{{ page.redirect.to }}\">"
              "to</a><p>[{{ page.redirect_to }}] from {{ page.redirect.from }}</p></body></html>\n")
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/redirect.html": layout,
        "modules.md": "---\nlayout: redirect\nredirect_to: https://docs.example/modules\n---\n",
        "about.md": "---\nlayout: default\ntitle: About\nredirect_from: /old-about/\n---\nA.\n"},
        "title: Small\nurl: https://small.example\nplugins: [jekyll-redirect-from]\n")
    assert '<a href="https://docs.example/modules">to</a><p>[https://docs.example/modules] from /modules.html' in (
        old / "modules.html").read_text()
    for page in ("modules.html", "old-about/index.html", "about.html"):
        assert _page(new, page) == _page(old, page), page
    assert not [n for n in notes if n.path.startswith("_layouts/")]


@needs_jekyll
def test_redirect_keys_no_plugin_reads_are_the_pages_own_in_its_layouts_as_in_jekyll(tmp_path) -> None:
    # As Leaflet's docs (no jekyll-redirect-from): its moved examples and 404 page are `layout:
    # redirected` with `redirect_to: mobile/`, which the layout writes into a refresh and a link.
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title>{% if page.redirect_to %}"
              "<meta http-equiv=\"refresh\" content=\"0;url={{ page.redirect_to }}\">{% endif %}</head><body>"
              "<a href=\"{{ page.redirect_to }}\">on</a><p>[{{ page.redirect_from | join: ',' }}] "
              "[{{ page['redirect_to'] }}]</p>{% include from.html %}{{ content }}</body></html>\n")
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/redirected.html": layout,
        "_includes/from.html": "<i>{{ page.redirect_from.first }}</i>",
        "mobile.md": "---\nlayout: redirected\ntitle: Mobile\nredirect_to:  mobile/\n---\n",
        "about.md": "---\nlayout: redirected\ntitle: About\nredirect_from: [/old/, /older/]\n---\nA.\n"})
    assert '<a href="mobile/">on</a><p>[] [mobile/]</p><i></i>' in (old / "mobile.html").read_text()
    assert '<a href="">on</a><p>[/old/,/older/] []</p><i>/old/</i>' in (old / "about.html").read_text()
    for page in ("mobile.html", "about.html"):
        assert _page(new, page) == _page(old, page), page
    assert not [n for n in notes if n.path.startswith(("_layouts/", "_includes/"))]


@needs_jekyll
def test_an_include_parameters_escaped_quotes_are_quotes_in_a_page_as_in_jekyll(tmp_path) -> None:
    # As Leaflet's examples.md: description="... no concept of \"latitude\" or \"longitude\"."
    old, new, _ = _built_by_both(tmp_path, {
        "_includes/link.html": "<p>{{ include.description }} [{{ include.title }}] {{ include.n }}</p>\n",
        "examples.md": ("---\nlayout: default\ntitle: Examples\n---\n{% include link.html\npage=\"crs/\"\n"
                        "description=\"A primer, no \\\"latitude\\\" or \\\"longitude\\\".\"\n"
                        "title='It\\'s \\\"x\\\"' n=2\n%}\n")})
    assert '<p>A primer, no "latitude" or "longitude". [It\'s \\"x\\"] 2</p>' in (old / "examples.html").read_text()
    assert _page(new, "examples.html") == _page(old, "examples.html")


@needs_jekyll
def test_highlight_linenos_numbers_the_lines_of_the_code_as_jekyll_does(tmp_path) -> None:
    # As jekyll/minima's codeblocks-ahoy post: Rouge's table in a <pre>, Pygments' beside one, compared
    # by their numbers and code (parity.dom), in a Markdown post and an HTML page.
    code = ("{% highlight html linenos %}\n<html>\n  <body>\n    <p>Hi</p>\n  </body>\n</html>\n{% endhighlight %}\n"
            "{% highlight ruby %}\nputs 1\n{% endhighlight %}\n")
    old, new, _ = _built_by_both(tmp_path, {"_posts/2020-01-03-code.md": "---\nlayout: default\ntitle: Code\n---\n" + code,
                                            "numbered.html": "---\nlayout: default\ntitle: Numbered\n---\n" + code})
    for page in ("2020/01/03/code.html", "numbered.html"):
        theirs, ours = ((folder / page).read_text().split("<body>")[1] for folder in (old, new))
        assert 'class="rouge-table"' in theirs and 'class="highlighttable"' in ours
        assert parity.dom(ours) == parity.dom(theirs), page
        assert ("pre", {}, "1 2 3 4 5\n<html>\n  <body>\n    <p>Hi</p>\n  </body>\n</html>", ()) in parity.dom(theirs)[3]


@needs_jekyll
def test_a_string_of_tags_is_split_at_its_spaces_as_in_jekyll(tmp_path) -> None:
    # As elixir-lang.org's case studies: `tags: superbowl mqtt`, listed as #superbowl #mqtt.
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
              "<p>{% for tag in page.tags %}<span>#{{ tag }}</span>{% endfor %}</p>{{ content }}</body></html>\n")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "_posts/2020-01-02-hello-world.md": "---\nlayout: default\ntitle: Hello\ntags: superbowl mqtt\n---\nHi.\n"})
    page = "2020/01/02/hello-world.html"
    assert "<p><span>#superbowl</span><span>#mqtt</span></p>" in (old / page).read_text()
    assert _page(new, page) == _page(old, page)


@needs_jekyll
def test_site_categories_sorted_in_a_page_are_name_and_posts_pairs_as_in_jekyll(tmp_path) -> None:
    # As elixir-lang.org's blog/categories.html: {% assign sorted_cats = site.categories | sort %}.
    old, new, _ = _built_by_both(tmp_path, {
        "_posts/2020-01-03-two.md": "---\nlayout: default\ntitle: Two\ncategories: [zeta, alpha]\n---\nT.\n",
        "_posts/2020-01-04-three.md": "---\nlayout: default\ntitle: Three\ncategory: alpha\n---\nT.\n",
        "cats.html": "---\nlayout: default\ntitle: Cats\n---\n{% assign sorted = site.categories | sort %}"
                     "{% for category in sorted %}<h5 id=\"{{ category | first }}\">{{ category | first | capitalize }}"
                     "</h5><ul>{% for posts in category %}{% for post in posts %}{% if post.title %}<li>{{ post.title }}"
                     "</li>{% endif %}{% endfor %}{% endfor %}</ul>{% endfor %}\n"})
    assert '<h5 id="alpha">Alpha</h5><ul><li>Three</li><li>Two</li></ul><h5 id="zeta">' in (old / "cats.html").read_text()
    assert _page(new, "cats.html") == _page(old, "cats.html")


@needs_jekyll
def test_posts_of_a_category_folder_are_published_where_jekyll_publishes_them(tmp_path) -> None:
    # As ruby-lang.org's 4,723 news posts, in en/news/_posts, ja/news/_posts...: categories en and
    # news, so /en/news/2020/01/03/released/ under pretty permalinks; {% link %} names them by path.
    old, new, notes = _built_by_both(tmp_path, {
        "en/news/_posts/2020-01-03-released.md": "---\nlayout: default\ntitle: Released\n---\n"
                                                 "See [the fix]({% link en/news/_posts/2020-01-04-fixed.md %}).\n",
        "en/news/_posts/2020-01-04-fixed.md": "---\nlayout: default\ntitle: Fixed\n---\nF.\n",
        "news.html": "---\nlayout: default\ntitle: News\n---\n{% for post in site.categories.news %}"
                     "<a href=\"{{ post.url }}\">{{ post.title }} {{ post.categories | join: '/' }}</a>{% endfor %}\n"},
        "title: Small\nurl: https://small.example\npermalink: pretty\n")
    assert '<a href="/en/news/2020/01/04/fixed/">Fixed en/news</a>' in (old / "news/index.html").read_text()
    for page in ("en/news/2020/01/03/released/index.html", "en/news/2020/01/04/fixed/index.html", "news/index.html"):
        assert _page(new, page) == _page(old, page), page
    assert not [n for n in notes if "_posts" in n.path]


@needs_jekyll
def test_an_excerpt_the_front_matter_sets_is_shown_as_written_as_in_jekyll(tmp_path) -> None:
    # As elixir-lang.org's blog index: <p>{{ post.excerpt }}</p>, the posts setting `excerpt:`.
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>{{ content }}"
              "{% for post in site.posts %}<div>{{ post.excerpt }}</div>{% endfor %}</body></html>\n")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "_posts/2020-01-03-two.md": "---\nlayout: default\ntitle: Two\nexcerpt: \"A *short* one\"\n---\nLong.\n",
        "blog.html": "---\nlayout: default\ntitle: Blog\n---\n{% for post in site.posts %}<p>{{ post.excerpt }}</p>"
                     "{% endfor %}\n"})
    assert "<p>A *short* one</p><p><p>Hi.</p>\n</p>" in (old / "blog.html").read_text()
    for page in ("blog.html", "2020/01/03/two.html"):
        assert _page(new, page) == _page(old, page), page


@needs_jekyll
def test_jekylls_array_filters_push_pop_shift_unshift_render_as_in_jekyll(tmp_path) -> None:
    # As ruby-lang.org's recent_news include: {% assign recent_posts = recent_posts | push: post %}.
    liquid = ("{% assign list = '' | split: '' %}{% for n in (1..4) %}{% assign list = list | push: n %}{% endfor %}"
              "[{{ list | join: ',' }}][{{ list | pop | join: ',' }}][{{ list | shift: 2 | join: ',' }}]"
              "[{{ list | unshift: 0 | join: ',' }}][{{ list | size }}]")
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/default.html": "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
                                 f"<p>{liquid}</p>{{{{ content }}}}</body></html>\n",
        "about.md": f"---\nlayout: default\ntitle: About\n---\n{liquid}\n"})
    assert "<p>[1,2,3,4][1,2,3][3,4][0,1,2,3,4][4]</p><p>[1,2,3,4]" in (old / "about.html").read_text()
    assert _page(new, "about.html") == _page(old, "about.html")
    assert not [n for n in notes if n.path.startswith("_layouts/")]


# -- constructs of real sites nobody here tuned to (swift-org-website, opensource.guide, calcite) -----


@needs_jekyll
def test_a_loop_ruby_liquid_reads_laxly_a_date_comparison_and_split_render_as_in_jekyll(tmp_path) -> None:
    # swift-org-website: `for build in include.builds | offset:1 | limit:10` (Jekyll's lax parser
    # takes offset and limit, drops the pipes) and `release.date < other.date` of its data; opensource.guide's
    # table of contents: `split: '>'` without the empty string at the end, as Ruby splits.
    listing = ('{% for x in include.items | offset:1 | limit:2 %}<i>{{ x }}</i>{% endfor %}'
               '{% for x in include.items | sort %}<b>{{ x }}</b>{% endfor %}')
    page = ('---\nlayout: default\ntitle: Lax\n---\n{% assign items = "d,b,c,a" | split: "," %}'
            '{% include listing.html items=items %}\n'
            '{% assign r = site.data.releases %}{% if r[0].date < r[1].date %}<p>earlier</p>{% endif %}'
            '{% if r[1].date >= r[0].date %}<p>later</p>{% endif %}{% if r[1].date < r[0].date %}<p>no</p>{% endif %}\n'
            '{% assign nodes = "<ol><li>a</li></ol>" | split: ">" %}<p>{{ nodes | size }}</p>{{ nodes | join: ">" }}>\n')
    old, new, _ = _built_by_both(tmp_path, {
        "_includes/listing.html": listing,
        "_includes/toc.html": '{% assign nodes = include.html | split: ">" %}<u>{{ nodes | size }}</u>'
                              '<ol class="toc">{{ nodes | shift | join: ">" }}>',
        "_layouts/default.html": "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
                                 '{% include toc.html html="<ol><li>x</li></ol>" %}{{ content }}</body></html>\n',
        "_data/releases.yml": "- date: 2016-03-21\n- date: 2016-05-03\n",
        "lax.md": page})
    theirs = _tight((old / "lax.html").read_text())
    assert ('<u>4</u><ol class="toc"><li>x</li></ol><p><i>b</i><i>c</i><b>d</b><b>b</b><b>c</b><b>a</b></p>'
            "<p>earlier</p><p>later</p><p>4</p><ol><li>a</li></ol>") in theirs     # `| sort` is dropped
    assert _tight((new / "lax.html").read_text()) == theirs


@needs_jekyll
def test_redirect_keys_without_the_plugin_make_no_redirect_as_in_jekyll(tmp_path) -> None:
    # As rails/website: `# - jekyll-redirect-from` commented out, its pages' redirect_from inert.
    layout = "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>{{ content }}</body></html>\n"
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "category/news.html": "---\nlayout: default\ntitle: News\npermalink: /category/news\n"
                              "redirect_from:\n  - /category/news/\n---\n<b>News</b>\n"})
    assert [u for u in url_list(new, "") if u != "/404.html"] == url_list(old, "")     # sitegen's own 404
    assert not (old / "category/news/index.html").exists()
    assert _tight((new / "category/news.html").read_text()) == _tight((old / "category/news.html").read_text())
    assert [n.path for n in notes if n.construct == "redirect_from"] == ["category/news.html"]


@needs_jekyll
def test_redirects_from_the_root_layouts_in_folders_and_a_redirect_two_pages_claim(tmp_path) -> None:
    # swift-org-website: `redirect_from: server/guides/` (jekyll-redirect-from reads it from the root),
    # layouts under _layouts/new-layouts/, and four pages that each redirect /download/.
    page = "---\nlayout: new/base\ntitle: {title}\nredirect_from:\n  - {old}\n---\n{title} here.\n"
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/new/base.html": "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
                                  "<main class=\"new\">{{ content }}</main></body></html>\n",
        "guides/index.md": page.format(title="Guides", old="server/guides/"),
        "install/index.md": page.format(title="Install", old="'/download/'"),
        "install/linux/index.md": page.format(title="Linux", old="'/download/'"),
        # rails/website's sessions: a file of CRLF lines, `redirect_from: world/agenda/...` one line
        "news/index.md": "---\r\nlayout: new/base\r\ntitle: News\r\nredirect_from: world/news\r\n---\r\nNews here.\r\n"},
        config="title: Small\nurl: https://small.example\nplugins: [jekyll-redirect-from]\n")
    for url in ("guides/index.html", "install/index.html", "install/linux/index.html", "server/guides/index.html",
                "news/index.html"):
        assert _tight((new / url).read_text()) == _tight((old / url).read_text()) or "server" in url, url
    assert '<main class="new"><p>Guides here.</p>' in _tight((new / "guides/index.html").read_text())
    assert "/guides/" in (new / "server/guides/index.html").read_text()
    assert "/news/" in (new / "world/news.html").read_text() and (old / "world/news.html").is_file()
    # one of the two (the later, with a warning: outputs/redirects.py); Jekyll's order among them is undefined
    assert "/install/" in (new / "download/index.html").read_text()


LOCALE_FOOTER = ('{% assign t = site.data.locales[page.lang] %}<footer><h3>{{ t.footer.contribute.heading }}</h3>'
                 "[{{ include.licenseinfo }}]<p>{{ t.footer.byline.format | replace: '[x]', 'X' }}</p>"
                 "{% if t.footer.contribute %}<b>yes</b>{% endif %}</footer>")


@needs_jekyll
def test_a_key_missing_on_the_way_down_in_a_converted_include_is_nil_as_in_jekyll(tmp_path) -> None:
    # opensource.guide: a locale's file without `footer` read by its footer include as `t.footer.x.y`;
    # its byline is `t.footer.byline.format` (a key named as Python's str.format); swift-org-website's
    # `{{ include.licenseinfo }}` in an include given no parameters.
    old, new, _ = _built_by_both(tmp_path, {
        "_includes/footer.html": LOCALE_FOOTER,
        "_layouts/default.html": "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
                                 "{{ content }}{% include footer.html %}</body></html>\n",
        "_data/locales/en.yml": "footer:\n  contribute: {heading: Contribute}\n  byline: {format: 'by [x]'}\n",
        "_data/locales/fr.yml": "title: Bonjour\n",
        "en.md": "---\nlayout: default\nlang: en\ntitle: En\n---\nHi.\n",
        "fr.md": "---\nlayout: default\nlang: fr\ntitle: Fr\n---\nSalut.\n"})
    assert "<h3>Contribute</h3>[]<p>by X</p><b>yes</b>" in _tight((old / "en.html").read_text())
    assert "<h3></h3>[]<p></p></footer>" in _tight((old / "fr.html").read_text())
    for page in ("en.html", "fr.html"):
        assert _tight((new / page).read_text()) == _tight((old / page).read_text()), page


@needs_jekyll
def test_with_strict_variables_a_missing_key_still_stops_both(tmp_path) -> None:
    source = small_site(tmp_path / "jekyll", "title: Small\nurl: https://small.example\n"
                                             "liquid: {strict_variables: true}\n", {
        "_includes/footer.html": "{% assign t = site.data.locales[page.lang] %}<h3>{{ t.footer.contribute.heading }}</h3>",
        "_layouts/default.html": "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
                                 "{{ content }}{% include footer.html %}</body></html>\n",
        "_data/locales/fr.yml": "title: Bonjour\n",
        "fr.md": "---\nlayout: default\nlang: fr\ntitle: Fr\n---\nSalut.\n"})
    done = subprocess.run([JEKYLL, "build", "--quiet", "-s", str(source), "-d", str(tmp_path / "old")],
                          capture_output=True, text=True)
    assert done.returncode != 0 and "footer" in done.stderr
    import_jekyll(source, tmp_path / "new")
    with pytest.raises(SiteError, match="footer"):
        build(tmp_path / "new")


@needs_jekyll
def test_an_end_tag_with_words_after_its_name_ends_its_block_as_in_jekyll(tmp_path) -> None:
    # apache/calcite's reference: `{% highlight json %}...{% endhighlight json %}`; Ruby Liquid reads
    # an end tag's name alone.
    old, new, _ = _built_by_both(tmp_path, {
        "ref.md": "---\nlayout: default\ntitle: Ref\n---\nData:\n\n{% highlight json %}\n{\"a\": 1}\n"
                  "{% endhighlight json %}\n\n{% if true %}<p>yes</p>{% endif true %}\n"
                  "{% raw %}{% endif words %}{% endraw %}\n"})
    theirs = (old / "ref.html").read_text()
    assert "<p>yes</p>" in theirs and "{% endif words %}" in theirs
    assert parity.dom(theirs) == parity.dom((new / "ref.html").read_text())


@needs_jekyll
def test_sass_partials_of_a_published_sass_dir_include_parameters_with_hyphens_and_first_of_nil(tmp_path) -> None:
    # swift-org-website: its sass_dir is assets/stylesheets, whose _-named partials Jekyll does not
    # publish but its stylesheets import; `{% include x.html content=site.data.new-data.install %}`;
    # `{% if page.author.first %}` in its post layout, for posts with one author (a string) or none.
    old, new, _ = _built_by_both(tmp_path, {
        "assets/css/_core.scss": "$shade: #123456;\n.a { color: $shade; }\n",
        "assets/css/app.scss": "---\n---\n@import \"core\";\n.b { margin: 0; }\n",
        "_data/new-data/install.yml": "latest: {winget: winget install Swift}\n",
        "_includes/code-box.html": "<pre class=\"box\">{{ include.content.winget }}</pre>",
        "_layouts/default.html": "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
                                 "{% if page.author.first %}<i>{{ page.author.first }}</i>{% else %}<b>one</b>{% endif %}"
                                 "[{{ page.tags.last }}]{{ content }}</body></html>\n",
        "install.md": "---\nlayout: default\ntitle: Install\nauthor: Ann\n---\n"
                      "{% include code-box.html content = site.data.new-data.install.latest %}\n",
        "team.md": "---\nlayout: default\ntitle: Team\nauthor: [Bo, Cy]\ntags: [x, y]\n---\nTeam.\n"},
        config="title: Small\nurl: https://small.example\nsass: {sass_dir: assets/css, style: compressed}\n")
    assert _tight((old / "install.html").read_text()).count('<b>one</b>[]<pre class="box">winget install Swift</pre>') == 1
    assert "<i>Bo</i>[y]" in (old / "team.html").read_text()
    for page in ("install.html", "team.html"):
        assert _tight((new / page).read_text()) == _tight((old / page).read_text()), page
    theirs = (old / "assets/css/app.css").read_text()
    assert "#123456" in theirs and not (old / "assets/css/_core.scss").exists()
    assert (new / "assets/css/app.css").read_text().split() == theirs.split("/*#")[0].split()   # no source map


@needs_jekyll
def test_a_loop_over_a_string_in_a_converted_template_has_one_item_as_in_jekyll(tmp_path) -> None:
    # swift-org-website's authors include: `for page_author in include.authors`, `author: tkremenek`.
    old, new, _ = _built_by_both(tmp_path, {
        "_includes/authors.html": "<ul>{% for a in include.authors %}<li>{{ a }}</li>{% endfor %}</ul>",
        "_layouts/default.html": "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
                                 "{% include authors.html authors=page.author %}{{ content }}</body></html>\n",
        "one.md": "---\nlayout: default\ntitle: One\nauthor: tkremenek\n---\nA.\n",
        "two.md": "---\nlayout: default\ntitle: Two\nauthor: [ab, cd]\n---\nB.\n",
        "none.md": "---\nlayout: default\ntitle: None\nauthor: ''\n---\nC.\n"})
    assert "<ul><li>tkremenek</li></ul>" in (old / "one.html").read_text()
    for page in ("one.html", "two.html", "none.html"):
        assert _tight((new / page).read_text()) == _tight((old / page).read_text()), page


@needs_jekyll
def test_map_and_join_of_nested_lists_in_a_converted_include_as_in_jekyll(tmp_path) -> None:
    # apache/calcite's section navigation: `site.data.docs | map: 'docs' | join: ',' | split: ','`,
    # the sections' lists of pages flattened into one.
    old, new, _ = _built_by_both(tmp_path, {
        "_data/docs.yml": "- title: Overview\n  docs: [index, howto]\n- title: Reference\n  docs: [ref]\n",
        "_includes/nav.html": "{% assign docs = site.data.docs | map: 'docs' | join: ',' | split: ',' %}"
                              "<nav>{% for d in docs %}<a>{{ d }}</a>{% endfor %}</nav>"
                              "<p>{{ 'a&b,c' | split: ',' | join: ' ' }}</p>",
        "_layouts/default.html": "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
                                 "{{ content }}{% include nav.html %}</body></html>\n",
        "ref.md": "---\nlayout: default\ntitle: Ref\n---\nR.\n"})
    theirs = _tight((old / "ref.html").read_text())
    assert "<nav><a>index</a><a>howto</a><a>ref</a></nav><p>a&b c</p>" in theirs
    assert _tight((new / "ref.html").read_text()) == theirs


@needs_jekyll
def test_include_relative_and_a_link_made_of_variables_as_in_jekyll(tmp_path) -> None:
    # swift-org-website: `{% include_relative _migration-guide.md %}` (a file Jekyll does not publish,
    # which includes others from the page's folder) and `{% link {{ url }} %}`.
    old, new, notes = _built_by_both(tmp_path, {
        "guide/index.md": "---\nlayout: default\ntitle: Guide\n---\n{% include_relative _part.md %}\n\n"
                          "{% assign u = 'about.md' %}[About]({% link {{ u }} %})\n",
        "guide/_part.md": "## Part *one*\n\n{% include_relative _sub.md x=\"1\" %}\n",
        "guide/_sub.md": "Sub {{ include.x }} of {{ page.title }}.\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\nA.\n"})
    theirs = (old / "guide/index.html").read_text()
    assert "<p>Sub 1 of Guide.</p>" in theirs and 'href="/about.html"' in theirs
    assert parity.dom((new / "guide/index.html").read_text()) == parity.dom(theirs)
    assert not (new / "guide/_part.md").exists() and not any("include_relative" in note.construct for note in notes)
    # The copy is an include of the page: a change to it remakes the page as a clean build would.
    from test_incremental import assert_same_as_full_build

    site = tmp_path / "new"
    (site / "content/includes/_relative/guide/_sub.md").write_text("Sub {{ include.x }} changed.\n")
    build(site)
    assert "<p>Sub 1 changed.</p>" in (new / "guide/index.html").read_text()
    assert_same_as_full_build(site)


def test_a_link_to_a_page_a_plugin_made_is_a_warning_at_its_line_where_plugins_ran(tmp_path) -> None:
    # swift-org-website's packages pages come from its _plugins/packages.rb, which sitegen does not run:
    # with liquid.unknown: warning (what the import sets for a site with plugins), its link to one warns.
    source = small_site(tmp_path / "jekyll", files={
        "_plugins/pages.rb": "# makes packages/server.md\n",
        "index.md": "---\nlayout: default\ntitle: Home\n---\nSee\n[it]({% link packages/server.md %}).\n"})
    import_jekyll(source, tmp_path / "new")
    warned = [line for line in build(tmp_path / "new").warnings if "link 'packages/server.md'" in line]
    assert len(warned) == 1 and warned[0].endswith("warning: link 'packages/server.md': no such post or page")
    path, line = warned[0].split(":")[:2]
    assert "{% link packages/server.md %}" in (tmp_path / "new" / path).read_text().splitlines()[int(line) - 1]


@needs_jekyll
def test_a_post_without_closed_front_matter_is_all_body_as_in_jekyll(tmp_path) -> None:
    # As apache/accumulo-website's two posts of 2017 that start with their text: Jekyll reads
    # any file of _posts, its data from its name; a '---' never closed is text too.
    config = ("title: Small\nurl: https://small.example\n"
              "defaults: [{scope: {path: '', type: posts}, values: {layout: default}}]\n")
    old, new, notes = _built_by_both(tmp_path, {
        "_posts/2017-03-06-no-front-matter.md": "\nThe *first* words.\n\nMore.\n",
        "_posts/2017-03-07-never-closed.md": "---\ntitle: Open\n\nSome **text**.\n",
        "_posts/2017-03-08-closed.md": "---\ntitle: Closed\n---\nFine.\n"}, config)
    for page in ("2017/03/06/no-front-matter.html", "2017/03/07/never-closed.html", "2017/03/08/closed.html"):
        assert parity.dom((new / page).read_text()) == parity.dom((old / page).read_text()), page
    assert "<title>No Front Matter</title>" in (old / "2017/03/06/no-front-matter.html").read_text()
    assert sorted(n.path for n in notes if "no front matter" in n.action) == [
        "_posts/2017-03-06-no-front-matter.md", "_posts/2017-03-07-never-closed.md"]


@needs_jekyll
def test_a_pages_permalink_placeholders_give_jekylls_urls(tmp_path) -> None:
    # As apache/accumulo-website's tour: `permalink: "/tour/:basename/"` from the defaults.
    config = ("title: Small\nurl: https://small.example\n"
              "defaults: [{scope: {path: tour, type: pages}, values: {layout: default, permalink: '/tour/:basename/'}}]\n")
    old, new, _ = _built_by_both(tmp_path, {
        "tour/first-steps.md": "---\ntitle: First\n---\nOne.\n",
        "tour/index.md": "---\ntitle: Tour\npermalink: /tour/\n---\nAll.\n",
        "guide/deep/setup.md": "---\ntitle: Setup\nlayout: default\npermalink: /g/:path/:basename:output_ext\n---\nS.\n",
        "about.md": "---\ntitle: About\nlayout: default\npermalink: /:basename/\n---\nA.\n"}, config)
    pages = ["tour/first-steps/index.html", "tour/index.html", "g/guide/deep/setup.html", "about/index.html"]
    for page in pages:
        assert parity.dom((new / page).read_text()) == parity.dom((old / page).read_text()), page


@needs_jekyll
def test_a_documents_toc_levels_option_outlines_as_in_jekyll(tmp_path) -> None:
    # As apache/accumulo-website's features page: {::options toc_levels="2" /} above its {:toc}.
    body = ("{{::options toc_levels=\"{levels}\" /}}\n\n* Contents\n{{:toc}}\n\n## Tables\n\nT.\n\n### Iterators\n\n"
            "I.\n\n## Security\n\nS.\n\n#### Deep\n\nD.\n")
    old, new, _ = _built_by_both(tmp_path, {
        "_posts/2020-01-03-two.md": "---\nlayout: default\ntitle: Two\n---\n" + body.format(levels="2"),
        "_posts/2020-01-04-range.md": "---\nlayout: default\ntitle: Range\n---\n" + body.format(levels="2..3"),
        "_posts/2020-01-05-all.md": "---\nlayout: default\ntitle: All\n---\n* Contents\n{:toc}\n\n## A\n\n### B\n"})
    for page in ("2020/01/03/two.html", "2020/01/04/range.html", "2020/01/05/all.html"):
        assert parity.dom((new / page).read_text()) == parity.dom((old / page).read_text()), page
    assert "Iterators" not in (old / "2020/01/03/two.html").read_text().split("</ul>")[0]


@needs_jekyll
def test_a_config_naming_its_source_folder_is_read_there_as_jekyll_reads_it(tmp_path) -> None:
    # As apache/struts-site: _config.yml at the top says `source: source`; the site is in that folder.
    top = small_site(tmp_path / "jekyll", "title: Small\nurl: https://small.example\nsource: site\n"
                     "defaults: [{scope: {path: ''}, values: {layout: default}}]\n", {
                         "README.md": "# Not a page of the site\n",
                         "site/_layouts/default.html": "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title>"
                                                       "</head><body>{{ content }}</body></html>\n",
                         "site/about.md": "---\ntitle: About\n---\nThe *site*.\n",
                         "site/_posts/2020-01-03-news.md": "---\ntitle: News\n---\nNew.\n"})
    done = subprocess.run([JEKYLL, "build", "--quiet", "-d", str(tmp_path / "old")], cwd=top,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    import_jekyll(top, tmp_path / "new")
    build(tmp_path / "new")
    old, new = tmp_path / "old", tmp_path / "new/_site"
    for page in ("about.html", "2020/01/03/news.html"):
        assert parity.dom((new / page).read_text()) == parity.dom((old / page).read_text()), page
    assert not (old / "README.html").exists() and not (new / "README.html").exists()
    assert not (new / "2020/01/02/hello-world.html").exists()    # the top's own _posts are not the site's
    (top / "_config.yml").write_text("title: Small\nsource: ../elsewhere\n")
    with pytest.raises(SiteError, match="key 'source': expected a folder of the site") as info:
        import_jekyll(top, tmp_path / "again")
    assert info.value.line == 2


@needs_jekyll
def test_liquid_in_a_sass_page_runs_before_sass_as_in_jekyll(tmp_path) -> None:
    # jekyll/minima's `@import "minima/skins/{{ site.minima.skin | default: 'classic' }}"`, just-the-docs'
    # and choosealicense.com's `{% include css/... %}` in a stylesheet with front matter: Jekyll renders
    # a Sass page's Liquid, then compiles it (sitegen stopped at the Liquid, a Sass syntax error).
    old, new, notes = _built_by_both(tmp_path, {
        "_sass/skins/_classic.scss": "$brand: #2a7ae2;\n",
        "_includes/css/theme.scss.liquid": ".page { color: {{ include.color }}; }\n"
                                           "{% if site.dark %}.dark { color: #000; }{% endif %}\n",
        "assets/css/style.scss": "---\n# the dashes are enough\n---\n"
                                 "@import \"skins/{{ site.minima.skin | default: 'classic' }}\";\n"
                                 "{% include css/theme.scss.liquid color=\"#123456\" %}\n.b { color: $brand; }\n",
        "_layouts/default.html": "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
                                 "{{ content }}</body></html>\n",
        "index.md": "---\nlayout: default\ntitle: Home\n---\nHome.\n"},
        config="title: Small\nurl: https://small.example\ndark: true\nsass: {style: compressed}\n")
    theirs = (old / "assets/css/style.css").read_text().split("/*#")[0]
    assert ".page{color:#123456}" in theirs and ".dark{" in theirs and "#2a7ae2" in theirs
    assert (new / "assets/css/style.css").read_text().split() == theirs.split()
    assert not [n for n in notes if "Sass" in n.action]
    # Its inputs are the include and the settings it read: an edit of either makes it again, as a clean build would.
    site = tmp_path / "new"
    (site / "content/includes/css/theme.scss.liquid").write_text(".page { color: {{ include.color }}; margin: 0; }\n"
                                                                "{% if site.dark %}.dark { color: #000; }{% endif %}\n")
    settings = (site / "site.yaml").read_text()
    assert "dark: true" in settings
    (site / "site.yaml").write_text(settings.replace("dark: true", "dark: false"))
    build(site)
    css = (site / "_site/assets/css/style.css").read_text()
    assert ".page{color:#123456;margin:0}" in css and ".dark" not in css
    clean = tmp_path / "clean"
    shutil.copytree(site, clean, ignore=shutil.ignore_patterns("_site", ".*"))
    build(clean)
    assert (clean / "_site/assets/css/style.css").read_text() == css


@needs_jekyll
def test_a_site_value_set_nowhere_is_nil_in_a_layout_as_in_jekyll(tmp_path) -> None:
    # jekyll/minima's post layout: `assign date_format = site.minima.date_format | default: "%b %-d, %Y"`
    # with no `minima` in _config.yml: nil, so the default (the import left the assign out, and the
    # build stopped at `date: date_format`).
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/post.html": "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
                              "{%- assign date_format = site.minima.date_format | default: \"%b %-d, %Y\" -%}"
                              "<time>{{ page.date | date: date_format }}</time>"
                              "{% if site.minima.show_excerpts %}<p>excerpt</p>{% endif %}"
                              "[{{ site.minima }}]{{ content }}</body></html>\n",
        "_posts/2016-05-19-ahoy.md": "---\nlayout: post\ntitle: Ahoy\n---\nAhoy.\n"})
    page = "2016/05/19/ahoy.html"
    assert "<time>May 19, 2016</time>[]" in (old / page).read_text()
    assert _tight((new / page).read_text()) == _tight((old / page).read_text())
    assert not [n for n in notes if "site.minima" in n.construct]


@needs_jekyll
def test_a_layout_reading_its_childs_content_and_printing_a_list_as_in_jekyll(tmp_path) -> None:
    # just-the-docs: `default` sits in `table_wrappers`, which assigns `content | replace: '<table', ...`
    # (what default made, in Jekyll: sitegen read the page's own content, without the layout);
    # `{{ link.last }}` of `aux_links: {GitHub: ["//github.com/x"]}` prints the list's items joined.
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/table_wrappers.html": "{% assign content_ = content | replace: '<table', '<div class=\"tw\"><table' %}"
                                        "{% assign content_ = content_ | replace: '</table>', '</table></div>' %}{{ content_ }}",
        "_layouts/default.html": "---\nlayout: table_wrappers\n---\n<!DOCTYPE html>\n<html><head><title>{{ page.title }}"
                                 "</title></head><body><nav>{% for link in site.aux_links %}<a href=\"{{ link.last }}\">"
                                 "{{ link.first }}</a>{% endfor %}[{{ site.flags }}]</nav>{{ content }}</body></html>\n",
        "index.md": "---\nlayout: default\ntitle: Home\n---\n| a | b |\n|---|---|\n| 1 | 2 |\n"},
        config="title: Small\nurl: https://small.example\naux_links: {GitHub: [\"//github.com/x\"]}\n"
               "flags: [true, null, [1, 2]]\n")
    theirs = (old / "index.html").read_text()
    assert '<a href="//github.com/x">GitHub</a>[true12]' in theirs and '<div class="tw"><table>' in theirs
    assert parity.dom((new / "index.html").read_text()) == parity.dom(theirs)


@needs_jekyll
def test_group_by_exp_and_an_includes_escaped_quotes_as_in_jekyll(tmp_path) -> None:
    # just-the-docs' nav include: `group_by_exp:"item", "item.nav_order | jsonify | slice: 0"` and
    # `where_exp` in a layout others extend (Jinja's `self` among the names stopped the build), and
    # `{% include anchors.html body="<svg viewBox=\"0 0 16 16\"></svg>" %}` (left out by the import).
    nav = ("{%- assign ordered = include.pages | where_exp: \"item\", \"item.nav_order != nil\" -%}"
           "{%- assign groups = ordered | group_by_exp: \"item\", \"item.nav_order | jsonify | slice: 0\" -%}"
           "<ul>{% for group in groups %}<li>{{ group.name }}:{{ group.size }}:"
           "{% for p in group.items %}{{ p.title }};{% endfor %}</li>{% endfor %}</ul>"
           "{%- assign by_title = include.pages | group_by_exp: \"item\", \"item.nav_order | default: item.title | append: ''\" -%}"
           "<ol>{% for group in by_title %}<li>{{ group.name }}</li>{% endfor %}</ol>")
    old, new, notes = _built_by_both(tmp_path, {
        "_includes/nav.html": nav,
        "_includes/anchors.html": "<div class=\"anchors\">{{ include.body }}|{{ include.other }}</div>",
        "_layouts/wrap.html": "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
                              "{{ content }}</body></html>\n",
        "_layouts/default.html": "---\nlayout: wrap\n---\n{% include nav.html pages=site.pages %}"
                                 "{% include anchors.html body=\"<svg viewBox=\\\"0 0 16 16\\\"></svg>\" "
                                 "other='it\\'s' %}{{ content }}",
        "a.md": "---\nlayout: default\ntitle: A\nnav_order: 2\n---\nA.\n",
        "b.md": "---\nlayout: default\ntitle: B\nnav_order: \"x\"\n---\nB.\n",
        "c.md": "---\nlayout: default\ntitle: C\nnav_order: 1\n---\nC.\n",
        "d.md": "---\nlayout: default\ntitle: D\n---\nD.\n"})
    theirs = (old / "a.html").read_text()
    assert '<div class="anchors"><svg viewBox="0 0 16 16"></svg>|it\'s</div>' in theirs
    assert '<ul><li>2:1:A;</li><li>":1:B;</li><li>1:1:C;</li></ul>' in theirs
    for page in ("a.html", "d.html"):
        assert parity.dom((new / page).read_text()) == parity.dom((old / page).read_text()), page
    assert not [n for n in notes if "nav.html" in n.path or "anchors" in n.construct]


@needs_jekyll
def test_text_documents_of_a_collection_are_pages_as_in_jekyll(tmp_path) -> None:
    # choosealicense.com: `_licenses/mit.txt` (front matter, then the licence's text) at `/licenses/:path/`,
    # shown in `<pre>{{ content | replace: "<", "&lt;" }}</pre>` (sitegen published none of them); the
    # blank lines after its front matter, which Jekyll's pattern takes; `{% if page[type] contains req %}`.
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
              "{% assign types = \"permissions|limitations\" | split: \"|\" %}{% for type in types %}<ul class=\"{{ type }}\">"
              "{% for rule in site.data.rules[type] %}{% if page[type] contains rule.tag %}<li>{{ rule.label }}</li>"
              "{% endif %}{% endfor %}</ul>{% endfor %}<i>{{ page[\"title\"] }}</i>"
              "<pre id=\"text\">{{ content | replace: \"<\", \"&lt;\" | replace: \">\", \"&gt;\" }}</pre></body></html>\n")
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/license.html": layout,
        "_data/rules.yml": "permissions:\n- {tag: commercial-use, label: Commercial use}\n- {tag: private-use, label: Private use}\n"
                           "limitations:\n- {tag: liability, label: Liability}\n",
        "_licenses/mit.txt": "---\ntitle: MIT License\npermissions: [commercial-use]\nlimitations: [liability]\n---\n\n\n"
                             "  MIT License\n\nCopyright (c) <year> <copyright holders>\n",
        "_licenses/zero.txt": "---\ntitle: Zero\npermissions: [private-use]\n---\nZero <b>.\n",
        "index.md": "---\ntitle: Home\n---\n{% for l in site.licenses %}[{{ l.title }}]({{ l.url }}) {% endfor %}\n"},
        config="title: Small\nurl: https://small.example\ncollections:\n  licenses:\n    output: true\n"
               "    permalink: /licenses/:path/\ndefaults:\n- {scope: {type: licenses}, values: {layout: license}}\n")
    for page in ("licenses/mit/index.html", "licenses/zero/index.html", "index.html"):
        assert parity.dom((new / page).read_text()) == parity.dom((old / page).read_text()), page
    mit = (old / "licenses/mit/index.html").read_text()
    assert '<ul class="permissions"><li>Commercial use</li></ul>' in mit and "<i>MIT License</i>" in mit
    assert '<pre id="text">  MIT License\n\nCopyright (c) &lt;year&gt;' in mit
    assert not [n for n in notes if n.path.startswith("_licenses") or "page[" in n.construct]


@needs_jekyll
def test_a_site_without_title_author_or_url_renders_as_in_jekyll(tmp_path) -> None:
    # jekyll/minima's own site: no title, author or url in _config.yml (site.yaml needs a title and a
    # URL: the folder's name, example.org), a nav of the titled pages (`hyperpage.title` of an untitled
    # page is nil), `absolute_url` without site.url, and two posts of one day in Jekyll's order (by path).
    header = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
              "<a class=\"site-title\">{{ site.title | default: site.github.repository_name }}</a>"
              "{% if site.author %}<ul><li>{{ site.author.name }}</li></ul>{% endif %}"
              "{%- assign paths = site.pages | map: \"path\" -%}<nav>{%- for path in paths -%}"
              "{%- assign hyperpage = site.pages | where: \"path\", path | first -%}"
              "{%- if hyperpage.title %}<a href=\"{{ hyperpage.url | relative_url }}\">{{ hyperpage.title }}</a>{% endif -%}"
              "{%- endfor %}</nav><a class=\"feed\" href=\"{{ 'feed.xml' | absolute_url }}\">feed</a>"
              "<ol>{% for post in site.posts %}<li>{{ post.url }}</li>{% endfor %}</ol>{{ content }}</body></html>\n")
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/default.html": header,
        "index.md": "---\nlayout: default\n---\nHome.\n",
        "about.md": "---\nlayout: default\ntitle: About\npermalink: /about/\n---\nAbout.\n",
        "_posts/2016-05-20-super-long.md": "---\nlayout: default\ntitle: Long\ncategories: misc\n---\nL.\n",
        "_posts/2016-05-20-welcome.md": "---\nlayout: default\ntitle: Welcome\n---\nW.\n"},
        config="markdown: kramdown\n")
    theirs = (old / "index.html").read_text()
    assert '<a class="site-title"></a><nav><a href="/about/">About</a></nav><a class="feed" href="/feed.xml">' in theirs
    assert "<li>/2016/05/20/welcome.html</li><li>/misc/2016/05/20/super-long.html</li>" in theirs
    for page in ("index.html", "about/index.html", "2016/05/20/welcome.html"):
        assert parity.dom((new / page).read_text()) == parity.dom((old / page).read_text()), page


@needs_jekyll
def test_a_baseurl_written_with_its_end_slash_is_printed_so_as_in_jekyll(tmp_path) -> None:
    # poole/hyde: `baseurl: /` and `<a href="{{ site.baseurl }}">` in its sidebar (sitegen's baseurl has no
    # end slash: the link was empty).
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
                                 "<a class=\"home\" href=\"{{ site.baseurl }}\">{{ site.title }}</a>{{ content }}</body></html>\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\nA.\n"},
        config="title: Hyde\nurl: https://small.example\nbaseurl: /\n")
    theirs = (old / "about.html").read_text()
    assert '<a class="home" href="/">Hyde</a>' in theirs
    assert parity.dom((new / "about.html").read_text()) == parity.dom(theirs)


@needs_jekyll
def test_link_and_post_url_hold_the_baseurl_as_in_jekyll(tmp_path) -> None:
    # just-the-docs (baseurl /just-the-docs): `[option]({{ site.baseurl }}{% link docs/configuration.md %})`
    # has it twice in Jekyll 4, whose `link` and `post_url` give relative_url's path (sitegen's had none).
    old, new, _ = _built_by_both(tmp_path, {
        "docs/configuration.md": "---\nlayout: default\ntitle: Configuration\n---\nC.\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\n[a]({% link docs/configuration.md %}) "
                    "[b]({{ site.baseurl }}{% link docs/configuration.md %}) [c]({% post_url 2020-01-02-hello-world %})\n"},
        config="title: Small\nurl: https://small.example\nbaseurl: /sub\n")
    theirs = (old / "about.html").read_text()
    assert ('<a href="/sub/docs/configuration.html">a</a> <a href="/sub/sub/docs/configuration.html">b</a> '
            '<a href="/sub/2020/01/02/hello-world.html">c</a>') in theirs
    assert parity.dom((new / "about.html").read_text()) == parity.dom(theirs)
