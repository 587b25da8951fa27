"""Static folders published at their own URLs, and generated pages that yield to real ones."""

from __future__ import annotations

import shutil
from datetime import datetime, timezone
from pathlib import Path

import pytest

from generator.build import BuildOptions, Engine, build
from generator.check import check_site
from generator.cli import main
from generator.configure import load_config
from generator.errors import SiteError
from generator.serve import Preview

from test_incremental import assert_same_as_full_build
from test_serve import EventStream

REPO = Path(__file__).resolve().parents[1]
OPTIONS = BuildOptions(now=datetime(2030, 1, 1, tzinfo=timezone.utc))
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(64))


def make_site(folder: Path, static: str = "static: [images, css, robots.txt]\n") -> Path:
    shutil.copytree(REPO / "tests" / "data" / "basic", folder)
    shutil.copytree(REPO / "templates", folder / "templates")
    (folder / "images/logo").mkdir(parents=True)
    (folder / "images/logo/tvm.png").write_bytes(PNG)
    (folder / "images/.DS_Store").write_bytes(b"junk")
    (folder / "css").mkdir()
    (folder / "css/custom.css").write_text("body { background: url(../images/logo/tvm.png); }\n")
    (folder / "robots.txt").write_text("User-agent: *\n")
    (folder / "content/pages/gallery.md").write_text(
        "---\ntitle: Gallery\n---\n![TVM](/images/logo/tvm.png)\n\n<link rel=\"stylesheet\" href=\"/css/custom.css\">\n")
    with (folder / "site.yaml").open("a") as config:
        config.write(static)
    return folder


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return make_site(tmp_path / "site")


# -- static folders ------------------------------------------------------------------------


def test_static_folders_and_files_are_published_at_their_own_urls(site: Path) -> None:
    build(site, OPTIONS)
    out = site / "_site"
    assert (out / "images/logo/tvm.png").read_bytes() == PNG
    assert (out / "css/custom.css").is_file() and (out / "robots.txt").is_file()
    assert not (out / "images/.DS_Store").exists()
    assert (out / "assets/css/site.css").is_file()          # assets/ stays published as before
    report = check_site(load_config(site))
    assert report.ok, report.findings


def test_the_check_follows_links_into_static_folders(site: Path) -> None:
    (site / "content/pages/gallery.md").write_text("---\ntitle: Gallery\n---\n![gone](/images/gone.png)\n")
    (site / "css/custom.css").write_text("body { background: url(../images/missing.png); }\n")
    build(site, OPTIONS)
    found = {(f.page, f.target) for f in check_site(load_config(site)).findings}
    assert found == {("gallery.html", "/images/gone.png"), ("css/custom.css", "../images/missing.png")}


def test_without_the_setting_a_folder_is_not_published(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", static="")
    build(site, OPTIONS)
    assert not (site / "_site/images").exists()
    found = {f.target for f in check_site(load_config(site)).findings}
    assert "/images/logo/tvm.png" in found


def test_a_page_claiming_a_static_files_url_is_an_error_naming_both(site: Path) -> None:
    (site / "content/pages/robots.md").write_text("---\ntitle: Robots\npermalink: /robots.txt\n---\nHi\n")
    with pytest.raises(SiteError) as caught:
        build(site, OPTIONS)
    assert str(caught.value).endswith("/robots.txt is claimed by both content/pages/robots.md and robots.txt")


@pytest.mark.parametrize("value, message", [
    ("[nowhere]", "key 'static[0]': there is no 'nowhere' in"),
    ("[../outside]", "key 'static[0]': expected a folder or file inside the site"),
    ("[/images]", "key 'static[0]': expected a folder or file inside the site"),
    ("[content]", "key 'static[0]': 'content' holds the site's sources or output"),
    ("[_site]", "key 'static[0]': '_site' holds the site's sources or output"),
    ("[assets]", "key 'static[0]': 'assets' is always published"),
    ("images", "key 'static': expected a list of strings, got a string 'images'"),
])
def test_bad_static_settings_name_the_key(tmp_path: Path, value: str, message: str) -> None:
    site = make_site(tmp_path / "site", static=f"static: {value}\n")
    with pytest.raises(SiteError) as caught:
        load_config(site)
    assert message in str(caught.value) and str(site / "site.yaml") in str(caught.value)


def test_the_engine_remakes_an_edited_static_file_and_removes_a_deleted_one(site: Path) -> None:
    engine = Engine(site, OPTIONS)
    engine.build()
    (site / "css/custom.css").write_text("body { color: red; }\n")
    result = engine.build(changed={"css/custom.css"})
    assert result.written == ["css/custom.css"]
    (site / "images/logo/tvm.png").unlink()
    (site / "images/logo/new.png").write_bytes(PNG)
    result = engine.build(changed={"images/logo"})
    assert result.deleted == ["images/logo/tvm.png"] and "images/logo/new.png" in result.written
    assert_same_as_full_build(site, OPTIONS)
    # A build from the saved state, not told what changed, finds edits by itself.
    (site / "robots.txt").write_text("User-agent: *\nDisallow: /private/\n")
    assert build(site, OPTIONS).written == ["robots.txt"]
    assert_same_as_full_build(site, OPTIONS)


def test_the_preview_watches_static_folders_and_files(site: Path) -> None:
    preview = Preview(site, OPTIONS, port=0).start()
    stream = EventStream(preview)
    try:
        (site / "css/custom.css").write_text("body { color: #123456; }\n")
        assert stream.wait_for("change")["paths"] == ["/css/custom.css"]
        (site / "robots.txt").write_text("User-agent: sitegen\n")
        assert stream.wait_for("change")["paths"] == ["/robots.txt"]
        (site / "js").mkdir()
        (site / "js/app.js").write_text("console.log(1);\n")
        config = site / "site.yaml"
        config.write_text(config.read_text().replace("static: [images, css, robots.txt]", "static: [images, css, js]"))
        assert "/js/app.js" in stream.wait_for("change")["paths"]
        (site / "js/app.js").write_text("console.log(2);\n")   # the new folder is watched too
        # Seen by the rebuild for the new folder, or by the watch it is then under.
        assert stream.wait_for("change", until=lambda data: data["paths"])["paths"] == ["/js/app.js"]
    finally:
        stream.close()
        preview.stop()


# -- generated pages ------------------------------------------------------------------------


def test_generated_pages_keep_their_urls_by_default(site: Path) -> None:
    build(site, OPTIONS)
    out = site / "_site"
    for path in ("blog.html", "blog/page2.html", "history.html", "tags.html", "tags/compilers.html",
                 "categories.html", "categories/news.html"):
        assert (out / path).is_file(), path


def test_a_sites_own_history_page_keeps_its_url_when_the_archive_moves(site: Path) -> None:
    (site / "content/pages/history.md").write_text("---\ntitle: Our history\n---\nFounded in 2017.\n")
    with pytest.raises(SiteError) as caught:
        build(site, OPTIONS)
    assert str(caught.value).endswith("/history.html is claimed by both content/pages/history.md "
                                      "and site.yaml archives.history")
    with (site / "site.yaml").open("a") as config:
        config.write("archives:\n  history: /archive/\n  tags: /topics/\n  categories: false\n  blog: /news.html\n")
    config_file = site / "site.yaml"
    config_file.write_text(config_file.read_text().replace("url: /blog.html", "url: /news.html"))
    build(site, OPTIONS)
    out = site / "_site"
    assert "Founded in 2017." in (out / "history.html").read_text()
    assert "2020" in (out / "archive/index.html").read_text()
    assert (out / "topics/index.html").is_file() and (out / "topics/compilers.html").is_file()
    assert (out / "news.html").is_file() and (out / "news/page2.html").is_file()
    assert not (out / "blog.html").exists() and not (out / "tags.html").exists()
    assert not (out / "categories.html").exists() and not (out / "categories").exists()
    post = next(out.glob("2019/*/*/*.html")).read_text()
    assert 'href="/topics/' in post
    footer = (out / "about.html").read_text()
    assert 'href="/archive/"' in footer and 'href="/topics/"' in footer
    assert check_site(load_config(site)).ok


def test_switched_off_archives_make_no_pages_and_no_links(site: Path) -> None:
    with (site / "site.yaml").open("a") as config:
        config.write("archives: {blog: false, history: false, tags: false, categories: false}\n")
    config_file = site / "site.yaml"
    config_file.write_text(config_file.read_text().replace("  - {title: Blog, url: /blog.html}\n", ""))
    build(site, OPTIONS)
    out = site / "_site"
    made = {p.relative_to(out).as_posix() for p in out.rglob("*.html")}
    assert not {p for p in made if p.startswith(("blog", "history", "tags", "categories"))}
    assert 'class="tag-list"' not in next(out.glob("2019/*/*/*.html")).read_text()
    assert check_site(load_config(site)).ok


@pytest.mark.parametrize("value, message", [
    ("{history: history.html}", "key 'archives.history': expected a path starting with '/'"),
    ("{tags: true}", "key 'archives.tags': expected a string or false, got a boolean True"),
    ("{tags: 0}", "key 'archives.tags': expected a string or false, got a number 0"),
    ("{feeds: false}", "unknown key 'archives.feeds'"),
])
def test_bad_archive_settings_name_the_key(site: Path, value: str, message: str, capsys) -> None:
    with (site / "site.yaml").open("a") as config:
        config.write(f"archives: {value}\n")
    assert main(["-C", str(site), "build"]) == 1
    assert message in capsys.readouterr().err


def test_the_output_directory_cannot_be_inside_a_static_folder(site: Path) -> None:
    with (site / "site.yaml").open("a") as config:
        config.write("output: images/built\n")
    with pytest.raises(SiteError, match="key 'output': 'images/built' would overwrite the site's sources"):
        build(site, OPTIONS)
    assert not (site / "images/built").exists()


def test_the_output_directory_cannot_be_the_sites_theme_folder(site: Path) -> None:
    """A theme folder inside the site needs no marker to be built into: its templates would have
    been strays to remove."""
    (site / "mytheme/templates").mkdir(parents=True)
    (site / "mytheme/templates/keep.html").write_text("{{ content }}")
    with (site / "site.yaml").open("a") as config:
        config.write("theme: mytheme\noutput: mytheme\n")
    with pytest.raises(SiteError, match="key 'output': 'mytheme' would overwrite the site's sources"):
        build(site, OPTIONS)
    assert (site / "mytheme/templates/keep.html").read_text() == "{{ content }}"
