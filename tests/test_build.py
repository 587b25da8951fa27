"""End-to-end builds of the small fixture site, checked through the real output files."""

from __future__ import annotations

import os
import stat
import shutil
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from generator.build import BuildOptions, build
from generator.cli import main
from generator.errors import SiteError
from generator.layout import OUTPUT_MARKER
from generator.render import DEFAULT_THEME
from site_checks import (assert_feeds_parse, assert_html5_parses, assert_internal_links_and_anchors,
                         assert_sitemap_valid)

REPO = Path(__file__).resolve().parents[1]
NOW = BuildOptions(now=datetime(2026, 1, 1, tzinfo=timezone.utc))


def made_files(out: Path) -> list[Path]:
    """The site's files in the output folder (sitegen's marker of the folder aside)."""
    return [p for p in out.rglob("*") if p.is_file() and p.name != OUTPUT_MARKER]


def files_of(out: Path) -> set[str]:
    return {p.relative_to(out).as_posix() for p in made_files(out)}


def snapshot(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in made_files(out)}


def test_url_inventory(basic_site):
    build(basic_site, NOW)
    assert files_of(basic_site / "_site") == {
        "2019/03/18/first-post.html", "2020/05/01/second.html", "2021/01/02/third.html",
        "index.html", "about.html", "asf.html", "404.html",
        "blog.html", "blog/page2.html", "history.html",
        "tags.html", "tags/compilers.html", "tags/release.html", "tags/performance.html",
        "categories.html", "categories/news.html",
        "atom.xml", "rss.xml", "feed.json", "sitemap.xml", "sitemap.txt", "robots.txt",
        "tags/compilers/atom.xml", "tags/release/atom.xml", "tags/performance/atom.xml",
        "categories/news/atom.xml",
        "assets/css/site.css", "assets/css/pygments.css",
        "assets/images/favicon.svg", "assets/images/logo.svg",
    } | {"assets/" + name for name in files_of(DEFAULT_THEME / "assets")       # no math, widgets or diagrams:
         if not name.startswith(("vendor/katex/", "vendor/jupyter-widgets/", "vendor/mermaid/"))} \
      | {"pagefind/" + name for name in files_of(basic_site / "_site/pagefind")}   # the search index
    parts = {"blog/00", "blog/01", "pages"}          # the 3 posts spread over 2 parts by a hash of their URL
    assert files_of(basic_site / "_site/pagefind") == {"parts.json"} | {
        f"{part}/{name}" for part in parts for name in files_of(basic_site / f"_site/pagefind/{part}")}
    for part in parts:
        index = files_of(basic_site / f"_site/pagefind/{part}")
        assert {"pagefind.js", "pagefind-worker.js", "pagefind-entry.json", "wasm.en.pagefind"} <= index
    fragments = [name for part in parts for name in files_of(basic_site / f"_site/pagefind/{part}")
                 if name.startswith("fragment/")]
    assert len(fragments) == 5       # 3 posts, 2 pages


def test_output_is_valid_and_linked(basic_site):
    build(basic_site, NOW)
    out = basic_site / "_site"
    assert_html5_parses(out)
    assert_feeds_parse(out, expected_entries=3)
    locs = assert_sitemap_valid(out)
    assert "https://example.org/2019/03/18/first-post.html" in locs
    assert "https://example.org/404.html" not in locs
    assert_internal_links_and_anchors(out)


def test_post_page_shows_its_parts(basic_site):
    build(basic_site, NOW)
    html = (basic_site / "_site/2020/05/01/second.html").read_text()
    assert "<h1>Second post</h1>" in html
    assert "Ada, Grace" in html
    assert 'datetime="2020-05-01T17:00:00+00:00"' in html
    assert 'href="/tags/compilers.html"' in html
    assert 'rel="prev" href="/2019/03/18/first-post.html"' in html
    assert 'rel="next" href="/2021/01/02/third.html"' in html
    assert '<div class="highlight" ' in html
    first = (basic_site / "_site/2019/03/18/first-post.html").read_text()
    assert 'id="fn:1"' in first and 'id="motivation"' in first


def test_blog_is_paginated_newest_first(basic_site):
    build(basic_site, NOW)
    page1 = (basic_site / "_site/blog.html").read_text()
    page2 = (basic_site / "_site/blog/page2.html").read_text()
    assert page1.index("Third post") < page1.index("Second post")
    assert "First post" not in page1 and "First post" in page2
    assert 'href="/blog/page2.html"' in page1 and 'href="/blog.html"' in page2


def test_archive_groups_posts_by_year(basic_site):
    build(basic_site, NOW)
    history = (basic_site / "_site/history.html").read_text()
    assert history.index('id="y2021"') < history.index('id="y2020"') < history.index('id="y2019"')


def test_drafts_and_future_posts_need_flags(basic_site):
    out = basic_site / "_site"
    build(basic_site, NOW)
    assert not (out / "2021/06/01/secret.html").exists()
    assert not (out / "2099/01/01/future.html").exists()
    build(basic_site, BuildOptions(now=NOW.now, drafts=True, future=True))
    assert (out / "2021/06/01/secret.html").exists()
    assert (out / "2099/01/01/future.html").exists()


def test_same_input_same_bytes_and_no_rewrites(basic_site, tmp_path):
    result = build(basic_site, NOW)
    first = snapshot(basic_site / "_site")
    again = build(basic_site, NOW)
    assert again.written == [] and again.deleted == []
    assert snapshot(basic_site / "_site") == first
    # A fresh copy with no caches gives the same bytes too.
    from conftest import copy_site
    other = copy_site(tmp_path / "other", "basic")
    build(other, NOW)
    assert snapshot(other / "_site") == first
    assert len(result.written) == len(first)


def test_removed_source_removes_its_output(basic_site):
    build(basic_site, NOW)
    (basic_site / "content/posts/2021-01-02-third.md").unlink()
    result = build(basic_site, NOW)
    assert "2021/01/02/third.html" in result.deleted
    assert not (basic_site / "_site/2021/01/02/third.html").exists()
    assert not (basic_site / "_site/tags/performance.html").exists()


def test_data_files_reach_templates(basic_site):
    (basic_site / "templates/team.html").write_text(
        '{% extends "page.html" %}{% block main %}{% for m in site.data.team.members %}<p class="member">{{ m }}</p>{% endfor %}{% endblock %}')
    (basic_site / "content/pages/team.md").write_text("---\ntitle: Team\nlayout: team\n---\n")
    build(basic_site, NOW)
    html = (basic_site / "_site/team.html").read_text()
    assert '<p class="member">Ada</p><p class="member">Grace</p>' in html


def test_source_listing_page(basic_site):
    (basic_site / "code").mkdir()
    (basic_site / "code/example.py").write_text("".join(f"x{i} = {i}\n" for i in range(1, 21)))
    (basic_site / "content/pages/example.md").write_text(
        "---\ntitle: example.py\nlayout: source\nsource: code/example.py\n---\nA listing.\n")
    build(basic_site, NOW)
    html = (basic_site / "_site/example.html").read_text()
    assert '<tr id="L12"><td class="line-number"><a href="#L12">12</a></td>' in html
    assert '<span class="n">x12</span>' in html
    assert html.count('<tr id="L') == 20


def test_redirect_from_makes_a_redirect_page(basic_site):
    post = basic_site / "content/posts/2019-03-18-first-post.md"
    post.write_text(post.read_text().replace("title: First post", "title: First post\nredirect_from: [/old/first.html]"))
    build(basic_site, NOW)
    html = (basic_site / "_site/old/first.html").read_text()
    assert '<meta http-equiv="refresh" content="0; url=/2019/03/18/first-post.html">' in html
    assert '<link rel="canonical" href="https://example.org/2019/03/18/first-post.html">' in html
    assert "https://example.org/old/first.html" not in (basic_site / "_site/sitemap.txt").read_text()


def test_redirect_to_makes_the_document_a_redirect_page(basic_site, capsys):
    """jekyll-redirect-from's ``redirect_to``: the page at the document's own URL sends the
    reader on, kept out of the sitemap; an edit of the target is a clean build's page."""
    page = basic_site / "content/pages/moved.md"
    page.write_text("---\ntitle: Moved\nredirect_to: https://elsewhere.example/docs/\n---\nGone.\n")
    build(basic_site, NOW)
    html = (basic_site / "_site/moved.html").read_text()
    assert '<meta http-equiv="refresh" content="0; url=https://elsewhere.example/docs/">' in html
    assert "Gone." not in html
    assert "/moved.html" not in (basic_site / "_site/sitemap.txt").read_text()
    assert "redirect_to" not in capsys.readouterr().err        # read, so no unread-key warning
    page.write_text(page.read_text().replace("https://elsewhere.example/docs/", "/about.html"))
    build(basic_site, NOW)
    edited = (basic_site / "_site/moved.html").read_text()
    shutil.rmtree(basic_site / "_site")
    shutil.rmtree(basic_site / ".sitegen")
    build(basic_site, NOW)
    assert edited == (basic_site / "_site/moved.html").read_text()
    assert '<meta http-equiv="refresh" content="0; url=/about.html">' in edited
    page.write_text(page.read_text().replace("redirect_to: /about.html", "redirect_to: [3]"))
    with pytest.raises(SiteError, match="key 'redirect_to': expected a URL or a path of the site"):
        build(basic_site, NOW)


def test_new_post_scaffold(basic_site, capsys):
    assert main(["-C", str(basic_site), "new", "post", "Hello, World!"]) == 0
    created = list((basic_site / "content/posts").glob("*-hello-world.md"))
    assert len(created) == 1
    text = created[0].read_text()
    assert text.startswith("---\ntitle: Hello, World!\n")
    assert main(["-C", str(basic_site), "new", "post", "Hello, World!"]) == 1
    assert "refusing to overwrite" in capsys.readouterr().err
    assert created[0].read_text() == text


def test_python_dash_m_generator_builds(basic_site):
    done = subprocess.run([sys.executable, "-m", "generator", "-C", str(basic_site), "build"],
                          capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert "built 3 posts, 3 pages" in done.stdout
    assert (basic_site / "_site/index.html").is_file()


def test_output_dir_may_not_overwrite_sources(basic_site, capsys):
    config = basic_site / "site.yaml"
    config.write_text(config.read_text() + "output: content\n")
    assert main(["-C", str(basic_site), "build"]) == 1
    assert "would overwrite the site's sources" in capsys.readouterr().err
    assert (basic_site / "content/posts/2019-03-18-first-post.md").is_file()


def test_an_excerpt_leaves_its_footnote_marks_behind(basic_site):
    post = basic_site / "content/posts/2021-01-02-third.md"
    post.write_text(post.read_text().replace("Third body.", "Third body[^note].\n\n[^note]: A note."))
    build(basic_site, NOW)
    out = basic_site / "_site"
    assert 'href="#fn:note"' in (out / "2021/01/02/third.html").read_text()
    assert "Third body.</p>" in (out / "blog.html").read_text()
    assert "fn:note" not in (out / "blog.html").read_text()


def test_pages_in_folders_keep_their_folder(basic_site):
    (basic_site / "content/pages/guides").mkdir()
    (basic_site / "content/pages/guides/setup.md").write_text("---\ntitle: Setup\n---\nSet up.\n")
    (basic_site / "content/pages/guides/index.md").write_text("---\ntitle: Guides\n---\nAll guides.\n")
    build(basic_site, NOW)
    assert "Set up." in (basic_site / "_site/guides/setup.html").read_text()
    assert "All guides." in (basic_site / "_site/guides/index.html").read_text()


@pytest.mark.parametrize("timezone_name, url", [("UTC", "2019/04/29/offset.html"),
                                                ("Asia/Shanghai", "2019/04/30/offset.html")])
def test_a_date_with_an_offset_lands_on_the_site_time_zone_day(basic_site, timezone_name, url):
    """Jekyll converts ``date: 2019-04-30 00:00:00 +0800`` into the site's timezone first."""
    config = basic_site / "site.yaml"
    config.write_text(config.read_text().replace("timezone: UTC", f"timezone: {timezone_name}"))
    (basic_site / "content" / "posts" / "2019-04-30-offset.md").write_text(
        "---\ntitle: Offset\ndate: 2019-04-30 00:00:00 +0800\n---\nBody.\n")
    build(basic_site, NOW)
    assert (basic_site / "_site" / url).is_file()


@pytest.mark.parametrize("umask", [0o022, 0o027])
def test_output_files_get_the_mode_a_normal_write_gives(basic_site, umask):
    """A web server running as another user must be able to read a copied _site/ (no 0600 files)."""
    old = os.umask(umask)
    try:
        build(basic_site, NOW)
    finally:
        os.umask(old)
    out = basic_site / "_site"
    modes = {stat.S_IMODE(p.stat().st_mode) for p in out.rglob("*") if p.is_file()}
    folders = {stat.S_IMODE(p.stat().st_mode) for p in out.rglob("*") if p.is_dir()}
    assert modes == {0o666 & ~umask} and folders == {0o777 & ~umask}
    leftovers = [p for p in out.rglob(".*") if p.is_file() and p.name != OUTPUT_MARKER]
    assert leftovers == []


def test_tag_and_category_pages_are_paginated_like_the_blog(basic_site):
    """posts_per_page pages the tag pages too (as Hugo and Pelican do), so none grows with the site."""
    config = basic_site / "site.yaml"
    config.write_text(config.read_text().replace("posts_per_page: 2", "posts_per_page: 1"))
    build(basic_site, NOW)
    out = basic_site / "_site"
    first = (out / "tags/compilers.html").read_text()
    second = (out / "tags/compilers/page2.html").read_text()
    assert "Second post" in first and "First post" not in first          # newest first
    assert "First post" in second and "Second post" not in second
    assert 'rel="next" href="/tags/compilers/page2.html"' in first and 'rel="prev"' not in first
    assert 'rel="prev" href="/tags/compilers.html"' in second and "Page 2 of 2" in second
    assert not (out / "tags/release/page2.html").exists()                # one post: one page
    assert "<title>Tag: compilers, page 2" in second
    assert_html5_parses(out)
    assert_internal_links_and_anchors(out)

    config.write_text(config.read_text() + "archives:\n  paginate_groups: false\n")
    build(basic_site, NOW)
    whole = (out / "tags/compilers.html").read_text()
    assert "First post" in whole and "Second post" in whole and 'class="pagination"' not in whole
    assert not (out / "tags/compilers/page2.html").exists()              # the old page 2 is gone


def test_compiled_templates_are_kept_between_renderers_of_the_same_compiler(basic_site: Path, monkeypatch) -> None:
    """A renderer loads what another of the same compiler (sitegen's code) compiled; a renderer
    of another compiler, or a template edited since, compiles again. A build names its code."""
    import secrets

    import jinja2

    from generator.build import Engine
    from generator.cache import digest
    from generator.configure import load_config
    from generator.render import Renderer

    compiled: list[str] = []
    compile_ = jinja2.Environment.compile
    monkeypatch.setattr(jinja2.Environment, "compile",
                        lambda env, source, name=None, *rest, **kw: compiled.append(name) or compile_(env, source, name,
                                                                                                     *rest, **kw))
    (basic_site / "templates").mkdir(exist_ok=True)
    extra = basic_site / "templates" / "extra.html"
    extra.write_text("A {{ 1 + 1 }}")
    config, compiler = load_config(basic_site), f"test-{secrets.token_hex(8)}"

    def render(by: str) -> str:
        return Renderer(config, compiler=by).env.get_template("extra.html").render()

    assert render(compiler) == "A 2" and compiled == ["extra.html"]
    assert render(compiler) == "A 2" and compiled == ["extra.html"]              # loaded, not compiled
    assert render(f"other-{compiler}") == "A 2" and compiled == ["extra.html"] * 2
    extra.write_text("B {{ 2 + 2 }}")
    assert render(compiler) == "B 4" and compiled == ["extra.html"] * 3
    engine = Engine(basic_site, BuildOptions())
    engine.build()
    named = digest(engine.state.world, repr(config))     # the code, options and site structure, the settings
    assert engine.renderer.env.bytecode_cache.pattern.startswith(named[:32])


def test_templates_compiled_for_other_settings_are_not_used(basic_site: Path) -> None:
    """Jinja folds a filter of constants into the compiled code (``"/x" | relative_url`` is the
    baseurl's): a build under another baseurl compiles the same template again."""
    (basic_site / "templates").mkdir(exist_ok=True)
    (basic_site / "templates" / "page.html").write_text('{{ "/x.css" | relative_url }} {{ page.content }}\n')
    config_file = basic_site / "site.yaml"
    settings = config_file.read_text()
    made = {}
    for baseurl in ("/one", "/two", "/one"):
        config_file.write_text(settings + f'baseurl: "{baseurl}"\n')
        build(basic_site)
        made[baseurl] = (basic_site / "_site" / "about.html").read_text()
        assert made[baseurl].startswith(f"{baseurl}/x.css ")
