"""A whole Jekyll site imported, not only its posts: Sass compiled, the site's URL, plugins
(from _config.yml and the Gemfile), the site's own files over generated ones, outputs
switched off, the hosts layouts load from, and a report that starts with what a visitor sees.

Real Jekyll (with its Sass converter, libsass as sitegen's) is the oracle for the CSS.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from generator.build import Engine, build
from generator.check import check_site
from generator.cli import main
from generator.configure import load_config
from generator.errors import SiteError
from generator.importers.jekyll import gemfile_plugins, import_jekyll
from test_import_jekyll import small_site
from test_serve import EventStream

JEKYLL = shutil.which("jekyll")
needs_jekyll = pytest.mark.skipif(JEKYLL is None, reason="Jekyll is not installed (scripts/setup-test-tools "
                                                        "installs it): the comparison with Jekyll is skipped")

SASS_FILES = {
    "_sass/_colours.scss": "$ink: #252d5a;\n$paper: #fff;\n",
    "_sass/layout/_grid.scss": "@mixin columns($n) { column-count: $n; }\n",
    "css/main.scss": "---\n---\n@import \"colours\";\n@import \"layout/grid\";\n"
                     "body { color: $ink; background: $paper;\n  .post { @include columns(2); a { color: red; } } }\n",
    "css/plain.css": "p { margin: 0; }\n",
}


def imported_sass_site(tmp_path: Path, config: str = "") -> tuple[Path, Path]:
    source = small_site(tmp_path / "jekyll", "title: Small\nurl: https://small.example\n" + config, SASS_FILES)
    import_jekyll(source, tmp_path / "site")
    return source, tmp_path / "site"


@needs_jekyll
@pytest.mark.parametrize("style", ["compact", "compressed"])   # compact: this Jekyll's (sassc) default
def test_sass_pages_are_compiled_at_build_as_jekyll_compiles_them(tmp_path, style) -> None:
    source, site = imported_sass_site(tmp_path, f"sass:\n  style: {style}\n")
    settings = yaml.safe_load((site / "site.yaml").read_text())
    assert settings["sass"] == {"load_paths": ["_sass"], "style": style}
    assert "---" not in (site / "css/main.scss").read_text()        # the Sass itself, as the build reads it
    build(site)
    done = subprocess.run([JEKYLL, "build", "--quiet", "-s", str(source), "-d", str(tmp_path / "old")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    ours, theirs = (site / "_site/css/main.css").read_text(), (tmp_path / "old/css/main.css").read_text()
    theirs = theirs.replace("/*# sourceMappingURL=main.css.map */", "")     # sitegen writes no source map
    assert ours.strip() == theirs.strip() and "column-count: 2" in ours.replace(":2", ": 2")
    assert not (site / "_site/css/main.scss").exists() and not (site / "_site/_sass").exists()
    assert (site / "_site/css/plain.css").read_bytes() == (tmp_path / "old/css/plain.css").read_bytes()


@needs_jekyll
def test_a_sass_file_without_front_matter_is_imported_as_a_partial_as_jekyll_never_compiles_it(tmp_path) -> None:
    # As github/opensource.guide's assets/css/anchor.scss: no front matter, a variable of the stylesheet
    # that imports it. Jekyll copies it as it is; sitegen compiled it alone and the build stopped.
    source = small_site(tmp_path / "jekyll", "title: Small\nurl: https://small.example\nsass:\n  sass_dir: assets/css/\n"
                        "  style: compact\n", files={
                            "assets/css/index.scss": "---\n---\n$gray-light: #767676;\n@import \"anchor.scss\";\n"
                                                     "@import \"plain\";\n",
                            "assets/css/anchor.scss": ".anchor { color: $gray-light; }\n",
                            "assets/css/plain.scss": "p { margin: 0; }\n"})
    result = import_jekyll(source, tmp_path / "site")
    assert sorted(p.name for p in (tmp_path / "site/assets/css").iterdir()) == ["_anchor.scss", "_plain.scss",
                                                                                 "index.scss"]
    assert any(n.path == "assets/css/anchor.scss" and "_anchor.scss" in n.action for n in result.notes)
    build(tmp_path / "site")
    done = subprocess.run([JEKYLL, "build", "--quiet", "-s", str(source), "-d", str(tmp_path / "old")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    ours, theirs = (tmp_path / "site/_site/assets/css/index.css").read_text(), \
        (tmp_path / "old/assets/css/index.css").read_text()
    assert ours.strip() == theirs.replace("/*# sourceMappingURL=index.css.map */", "").strip()
    assert "#767676" in ours and "margin: 0" in ours
    assert not (tmp_path / "old/assets/css/anchor.css").exists()
    assert not (tmp_path / "site/_site/assets/css/anchor.css").exists()


@needs_jekyll
@pytest.mark.parametrize("partial", ["_sass/_download.scss", "_sass/download/_index.scss"])
def test_a_sass_page_importing_its_own_name_gets_the_partial_as_in_jekyll(tmp_path, partial) -> None:
    # drill-site's css/download.scss: '@import "download"' is _sass/_download.scss, not itself;
    # jupyter.github.io's assets/css/bootstrap.scss: '@import "bootstrap"' is _sass/bootstrap/_index.scss.
    source = small_site(tmp_path / "jekyll", "title: Small\nurl: https://small.example\n",
                        {partial: "$ink: #123;\n.download { color: $ink; }\n",
                         "css/download.scss": "---\n---\n@import \"download\";\np { margin: 0; }\n"})
    import_jekyll(source, tmp_path / "site")
    build(tmp_path / "site")
    done = subprocess.run([JEKYLL, "build", "--quiet", "-s", str(source), "-d", str(tmp_path / "old")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    ours = (tmp_path / "site/_site/css/download.css").read_text()
    theirs = (tmp_path / "old/css/download.css").read_text().replace("/*# sourceMappingURL=download.css.map */", "")
    assert ours.split() == theirs.split() and "#123" in ours


def test_a_sass_error_is_one_line_naming_file_and_line(tmp_path, capsys) -> None:
    _, site = imported_sass_site(tmp_path)
    assert "expanded is jekyll-sass-converter 3's style" in (site / "IMPORT-REPORT.md").read_text()
    (site / "_sass/layout/_grid.scss").write_text("// columns\n@mixin columns($n) { column-count: $n + $gap; }\n")
    assert main(["-C", str(site), "build"]) == 1
    err = capsys.readouterr().err.strip()
    assert err == 'error: _sass/layout/_grid.scss:2: Sass: Undefined variable: "$gap".', err
    (site / "_sass/layout/_grid.scss").write_text("@mixin columns($n) { column-count: $n; }\n")
    (site / "css/main.scss").write_text("body {\n  color: $nowhere;\n}\n")
    assert main(["-C", str(site), "build"]) == 1
    assert "error: css/main.scss:2: Sass: Undefined variable" in capsys.readouterr().err


def test_collections_are_imported_published_or_not_as_jekyll_had_them(tmp_path) -> None:
    # Found on Apache Calcite's site: its 31 _docs pages were left out with only a line on
    # site.collections among the things to do by hand.
    source = small_site(tmp_path / "jekyll", "title: Small\ncollections:\n  docs:\n    output: true\n  notes: {}\n",
                        {"_docs/index.md": "---\ntitle: Docs\n---\nA.\n", "_docs/api/a.md": "---\n---\nB.\n",
                         "_docs/logo.png": "", "_notes/n.md": "---\n---\nC.\n"})
    result = import_jekyll(source, tmp_path / "site")
    assert result.collected == 3
    assert "permalink: /docs/api/a.html\ntitle: A\n" in (tmp_path / "site/content/pages/_docs/api/a.md").read_text()
    report = (tmp_path / "site/IMPORT-REPORT.md").read_text()
    assert "3 documents of collections (content/pages/_NAME/)" in report and "collections" not in report.split("## To do")[1]
    assert "output: false" in (tmp_path / "site/site.yaml").read_text().split("collections:")[1].split("notes:")[1]


def test_dart_sass_modules_are_compiled_by_dart_sass(tmp_path, capsys) -> None:
    # Found on Apache Calcite's site (css/screen.scss: @use lines, which libsass writes into the CSS
    # as they are) and on brew.sh's (meta.load-css(), which libsass refuses): jekyll-sass-converter
    # 3's sites, compiled by Dart Sass, which Debian's Jekyll (sassc) lacks; so the CSS is checked here.
    _, site = imported_sass_site(tmp_path)
    (site / "_sass/_pygments.scss").write_text(".hll { background: #ffc; }\n")
    (site / "_sass/_grid.scss").write_text("@use \"colours\";\n@mixin columns($n) { column-count: $n; "
                                           "color: colours.$ink; }\n")
    (site / "css/main.scss").write_text("// the site's styles\n@use \"sass:meta\";\n@use \"grid\";\n"
                                        "body { .post { @include grid.columns(2); } }\n"
                                        "@include meta.load-css(\"pygments\");\n")
    assert main(["-C", str(site), "build"]) == 0
    assert (site / "_site/css/main.css").read_text() == (
        "body .post {\n  column-count: 2;\n  color: #252d5a;\n}\n\n.hll {\n  background: #ffc;\n}\n")
    (site / "_sass/_grid.scss").write_text("@use \"colours\";\n// columns\n@mixin columns($n) { column-count: $gap; }\n")
    assert main(["-C", str(site), "build"]) == 1
    assert capsys.readouterr().err.strip() == "error: _sass/_grid.scss:3: Sass: Undefined variable."
    (site / "css/main.scss").write_text("@use \"sass:math\";\n\nbody { width: math.nowhere(1); }\n")
    assert main(["-C", str(site), "build"]) == 1
    assert capsys.readouterr().err.strip() == "error: css/main.scss:3: Sass: Undefined function."


def test_an_edited_partial_recompiles_the_stylesheet_in_build_and_preview(tmp_path) -> None:
    from generator.serve import Preview

    _, site = imported_sass_site(tmp_path)
    build(site)
    (site / "_sass/_colours.scss").write_text("$ink: #010203;\n$paper: #fff;\n")
    assert build(site).written == ["css/main.css"]
    assert "#010203" in (site / "_site/css/main.css").read_text()
    preview = Preview(site, port=0).start()
    stream = EventStream(preview)
    try:
        (site / "_sass/_colours.scss").write_text("$ink: #0a0b0c;\n$paper: #fff;\n")
        assert stream.wait_for("change")["paths"] == ["/css/main.css"]
        assert "#0a0b0c" in (site / "_site/css/main.css").read_text()
    finally:
        stream.close()
        preview.stop()


def test_the_url_comes_from_production_url_or_jb_base_path_and_the_report_says_so(tmp_path) -> None:
    for n, (config, url, key) in enumerate([
            ("production_url: https://tvm.apache.org/\n", "https://tvm.apache.org", "production_url"),
            ("JB:\n  BASE_PATH: https://jb.example\n", "https://jb.example", "JB.BASE_PATH")]):
        source = small_site(tmp_path / f"jekyll{n}", "title: T\n" + config)
        import_jekyll(source, tmp_path / f"site{n}")
        assert yaml.safe_load((tmp_path / f"site{n}/site.yaml").read_text())["url"] == url
        report = (tmp_path / f"site{n}/IMPORT-REPORT.md").read_text()
        assert f"- `url: {url}`, from `{key}` (_config.yml has no `url`)" in report
        assert "example.org" not in report


GEMFILE = """source "https://rubygems.org"
gem "jekyll", "~> 4.3"
group :jekyll_plugins do
  gem "jekyll-feed", "~> 0.12"   # the feed
  platforms :ruby do
    gem "jekyll-sitemap"
  end
  gem 'jekyll-spaceship'
end
gem "jekyll-seo-tag", group: :jekyll_plugins
gem "webrick"
"""


def test_jekyll_feeds_settings_give_the_feeds_url_and_length(tmp_path: Path) -> None:
    posts = {f"_posts/2020-01-0{n}-p{n}.md": f"---\ntitle: P{n}\n---\nText {n}.\n" for n in range(1, 5)}
    source = small_site(tmp_path / "jekyll", "title: Small\nurl: https://small.example\nplugins: [jekyll-feed]\n"
                        "feed:\n  path: news/atom.xml\n  posts_limit: 2\n  excerpt_only: true\n", posts)
    result = import_jekyll(source, tmp_path / "site")
    settings = yaml.safe_load((tmp_path / "site/site.yaml").read_text())
    assert settings["feeds"]["atom_urls"] == ["/news/atom.xml"] and settings["feeds"]["entries"] == 2
    assert [(n.construct, n.line) for n in result.notes if n.construct.startswith("feed.")] == [("feed.excerpt_only", 4)]
    own = small_site(tmp_path / "own", "title: Own\nurl: https://own.example\nplugins: [jekyll-feed]\n",
                     {"atom.xml": "---\n---\n<feed>{% for post in site.posts limit:3 %}{{ post.title }}{% endfor %}</feed>\n"})
    import_jekyll(own, tmp_path / "own-site")
    settings = yaml.safe_load((tmp_path / "own-site/site.yaml").read_text())
    assert settings["feeds"]["atom_urls"] == ["/atom.xml", "/feed.xml"]
    assert settings["feeds"]["entries"] == 3 and settings["feeds"]["entries_at"] == {"/feed.xml": 10}
    build(tmp_path / "site")
    feed = (tmp_path / "site/_site/news/atom.xml").read_text()
    assert feed.count("<entry>") == 2 and "P4" in feed and "P1" not in feed


def test_jekyll_feeds_limit_holds_at_its_url_beside_the_sites_own_feeds(tmp_path: Path) -> None:
    """tvm-site: jekyll-feed writes 10 posts at /feed.xml, the site's own rss.xml every post."""
    posts = {f"_posts/2020-01-{n:02d}-p{n}.md": f"---\ntitle: P{n}\n---\nText {n}.\n" for n in range(1, 13)}
    source = small_site(tmp_path / "jekyll", "title: Small\nurl: https://small.example\nplugins: [jekyll-feed]\n",
                        {**posts, "rss.xml": "---\n---\n<rss>{% for post in site.posts %}{{ post.title }}{% endfor %}</rss>\n"})
    import_jekyll(source, tmp_path / "site")
    build(tmp_path / "site")
    out = tmp_path / "site/_site"
    assert (out / "feed.xml").read_text().count("<entry>") == 10
    assert (out / "rss.xml").read_text().count("<item>") > 10       # every post, as its Liquid wrote


def test_kramdowns_toc_levels_become_markdown_toc_levels(tmp_path: Path) -> None:
    post = {"_posts/2020-01-01-toc.md": "---\ntitle: T\n---\n* TOC\n{:toc}\n\n# One\n\n## Two\n"}
    source = small_site(tmp_path / "jekyll", "title: Small\nkramdown:\n  toc_levels: 2..3\n", post)
    import_jekyll(source, tmp_path / "site")
    assert yaml.safe_load((tmp_path / "site/site.yaml").read_text())["markdown"] == {
        "toc_levels": [2, 3], "excerpt_separator": "\n\n", "backslash_math": False}
    build(tmp_path / "site")
    page = next((tmp_path / "site/_site").rglob("toc.html")).read_text()
    assert 'href="#two"' in page and 'href="#one"' not in page


def test_front_matter_keys_no_layout_reads_are_listed_and_not_warned_of(tmp_path: Path) -> None:
    source = small_site(tmp_path / "jekyll", files={
        "_layouts/default.html": "<html><body>{{ page.hero }}{{ content }}</body></html>\n",
        "_posts/2020-01-03-keys.md": "---\nlayout: default\ntitle: K\nhero: h\nshare: true\nsidebar: [a]\n---\nK\n"})
    import_jekyll(source, tmp_path / "site")
    settings = yaml.safe_load((tmp_path / "site/site.yaml").read_text())
    assert settings["front_matter_keys"] == ["share", "sidebar"]       # hero: the layout reads it
    assert "`front_matter_keys`: the 2 front matter keys" in (tmp_path / "site/IMPORT-REPORT.md").read_text()
    assert not [w for w in build(tmp_path / "site").warnings if "front matter" in w]


def test_gemfile_plugins_are_read_from_its_jekyll_plugins_group() -> None:
    assert gemfile_plugins(GEMFILE) == [("jekyll-feed", 4), ("jekyll-sitemap", 6), ("jekyll-spaceship", 8),
                                        ("jekyll-seo-tag", 10)]


def test_plugins_become_sitegens_features_and_the_others_are_named(tmp_path) -> None:
    layout = ("<!DOCTYPE html>\n<html lang=\"en\"><head>{% seo %}{% feed_meta %}</head>"
              "<body>{{ content }}</body></html>\n")
    source = small_site(tmp_path / "jekyll", "title: Small\nurl: https://small.example\nplugins: [jekyll-paginate]\n",
                        {"Gemfile": GEMFILE, "_layouts/default.html": layout,
                         "_posts/2020-01-03-second.md": "---\nlayout: default\ntitle: Second\n---\nTwo.\n"})
    result = import_jekyll(source, tmp_path / "site")
    site = tmp_path / "site"
    settings = yaml.safe_load((site / "site.yaml").read_text())
    assert settings["feeds"]["atom"] and settings["feeds"]["atom_urls"] == ["/feed.xml"]
    assert settings["outputs"] == {"robots": False, "search": False}       # jekyll-sitemap: the sitemap stays
    notes = {(n.path, n.construct) for n in result.notes}
    assert ("Gemfile", "jekyll-spaceship") in notes and ("Gemfile", "jekyll-feed") not in notes
    report = (site / "IMPORT-REPORT.md").read_text()
    assert "- `jekyll-feed` (Gemfile:4): the Atom feed where jekyll-feed published it" in report
    assert settings["feeds"]["entries"] == 10          # jekyll-feed's posts_limit
    assert "- `Gemfile:8`: `jekyll-spaceship`: a plugin sitegen does not have" in report
    result = build(site)
    out = site / "_site"
    assert (out / "feed.xml").is_file() and not (out / "atom.xml").exists()
    assert re.search(rb'<link href="https://small.example/feed.xml" rel="self"', (out / "feed.xml").read_bytes())
    assert (out / "sitemap.xml").is_file() and not (out / "robots.txt").exists() and not (out / "pagefind").exists()
    page = (out / "2020/01/03/second.html").read_text()
    assert "<title>Second | Small</title>" in page
    assert '<link rel="canonical" href="https://small.example/2020/01/03/second.html">' in page
    assert '<meta property="og:title" content="Second">' in page
    assert '<link type="application/atom+xml" rel="alternate" href="/feed.xml" title="Small">' in page


def test_the_sites_own_file_wins_over_the_generated_one_with_a_warning(tmp_path) -> None:
    source = small_site(tmp_path / "jekyll", files={"feed.xml": "<feed>mine</feed>\n",
                                                     "sitemap.txt": "https://small.example/\n",
                                                     "robots.txt": "User-agent: *\n"})
    import_jekyll(source, tmp_path / "site")
    site = tmp_path / "site"
    config = site / "site.yaml"
    settings = yaml.safe_load(config.read_text())
    del settings["outputs"]         # Jekyll made no sitemap or robots.txt: sitegen's switched back on
    settings["feeds"].update(atom=True, atom_urls=["/atom.xml", "/feed.xml"])
    config.write_text(yaml.safe_dump(settings))
    result = build(site)
    out = site / "_site"
    for name in ("feed.xml", "sitemap.txt", "robots.txt"):
        assert (out / name).read_bytes() == (source / name).read_bytes(), name
    assert (out / "atom.xml").is_file() and (out / "sitemap.xml").is_file()
    warned = sorted(w for w in result.warnings if "the site's own file is published" in w)
    assert warned == [
        "feed.xml: warning: /feed.xml: the site's own file is published, not the one sitegen makes "
        "(feeds; site.yaml feeds.atom: false makes none)",
        "robots.txt: warning: /robots.txt: the site's own file is published, not the one sitegen makes "
        "(robots; site.yaml outputs.robots: false makes none)",
        "sitemap.txt: warning: /sitemap.txt: the site's own file is published, not the one sitegen makes "
        "(sitemap; site.yaml outputs.sitemap: false makes none)"]


def test_every_generated_output_can_be_switched_off_by_name(tmp_path) -> None:
    site = small_site(tmp_path / "jekyll")
    import_jekyll(site, tmp_path / "site")
    site = tmp_path / "site"
    config = site / "site.yaml"
    settings = yaml.safe_load(config.read_text())
    settings["outputs"] = {"sitemap": False, "robots": False, "404": False, "search": False, "feeds": False}
    settings["feeds"] = {"atom": True, "rss": True}
    config.write_text(yaml.safe_dump(settings))
    Engine(site).build()
    out = site / "_site"
    for name in ("sitemap.xml", "sitemap.txt", "robots.txt", "404.html", "pagefind", "atom.xml", "rss.xml"):
        assert not (out / name).exists(), name
    assert (out / "2020/01/02/hello-world.html").is_file()
    settings["outputs"] = {"sitemaps": False}
    config.write_text(yaml.safe_dump(settings))
    with pytest.raises(SiteError, match=r"key 'outputs.sitemaps': no output is named 'sitemaps' \(known: .*sitemap"):
        build(site)


def test_hosts_the_layouts_load_from_are_allowed_one_report_line_each(tmp_path) -> None:
    layout = ("<!DOCTYPE html>\n<html lang=\"en\"><head><title>{{ page.title }}</title>\n"
              '<link rel="stylesheet" href="https://stackpath.example/bootstrap.min.css">\n'
              '<link rel="canonical" href="https://small.example/">\n</head><body>{{ content }}\n'
              '<script src="https://code.example/jquery.js"></script>\n'
              '<script src="https://code.example/popper.js"></script>\n'
              '<script src="//{{ site.cdn }}/app.js"></script>\n'
              '<a href="https://elsewhere.example/">a link is not loaded</a></body></html>\n')
    source = small_site(tmp_path / "jekyll", files={"_layouts/default.html": layout})
    import_jekyll(source, tmp_path / "site")
    site = tmp_path / "site"
    settings = yaml.safe_load((site / "site.yaml").read_text())
    assert settings["check"] == {"allow_hosts": ["code.example", "stackpath.example"]}
    report = (site / "IMPORT-REPORT.md").read_text()
    assert "- `code.example`: `https://code.example/jquery.js` (`_layouts/default.html:6`)" in report
    assert "- `stackpath.example`: `https://stackpath.example/bootstrap.min.css` (`_layouts/default.html:3`)" in report
    assert report.count("code.example") == 2
    build(site)
    findings = check_site(load_config(site)).findings
    assert not [f for f in findings if f.problem.startswith("third-party")], findings


def test_a_liquid_atom_feed_stays_at_its_url(tmp_path) -> None:
    feed = "---\nlayout: null\n---\n<feed>{% for post in site.posts %}{{ post.title }}{% endfor %}</feed>\n"
    source = small_site(tmp_path / "jekyll", files={"feed.xml": feed})
    result = import_jekyll(source, tmp_path / "site")
    settings = yaml.safe_load((tmp_path / "site/site.yaml").read_text())
    assert settings["feeds"]["atom_urls"] == ["/feed.xml"]
    assert not [n for n in result.notes if n.visible]
    build(tmp_path / "site")
    assert b"Hello" in (tmp_path / "site/_site/feed.xml").read_bytes()


def test_the_report_starts_with_what_a_visitor_would_see(tmp_path) -> None:
    source = small_site(tmp_path / "jekyll", files={
        "doap.rdf": "---\n---\n<rdf>{{ site.title }}</rdf>\n",
        "_posts/2020-05-05-lost.md": "---\nlayout: missing\ntitle: Lost\n---\nL\n",
        "_layouts/default.html": "<html><body>{{ site.posts | find_exp: 'p', 'p.year' }}{{ content }}</body></html>\n"})
    import_jekyll(source, tmp_path / "site")
    report = (tmp_path / "site/IMPORT-REPORT.md").read_text()
    visible = report.index("## What a visitor would see")
    by_hand = report.index("## To do by hand")
    assert visible < report.index("## Neutralised") < by_hand
    section = report[visible:by_hand]
    assert "`doap.rdf:1`: `doap.rdf`: a page that is not Markdown or HTML" in section
    assert "`layout: missing`" in section
    assert "find_exp" in report[by_hand:] and "find_exp" not in section
