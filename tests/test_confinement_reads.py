"""Nothing a site says makes a build read or publish a file outside the site, or in its
``.git/``, ``.sitegen/`` or dot-files (issue 39.2), and no setting makes a script link (39.8).

Each test builds a real site beside a canary folder (tests/canary.py) that the build
must not open, change or publish. A refused path is answered as a missing one is, so
a page cannot learn what exists outside the site.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.cli import main

from canary import SECRET, Canary
from conftest import copy_site

PAGE = "content/pages/probe.md"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return copy_site(tmp_path / "site", "basic")


@pytest.fixture
def canary(tmp_path: Path) -> Canary:
    return Canary(tmp_path / "outside")


def build(site: Path, canary: Canary, capsys) -> tuple[int, str]:
    """Build, watching the canary; the exit code and what was printed on stderr."""
    with canary.watch():
        code = main(["-C", str(site), "build"])
    return code, capsys.readouterr().err.strip()


def probe(site: Path, body: str, front: str = "") -> None:
    (site / PAGE).write_text(f"---\ntitle: Probe\n{front}---\n{body}\n")


def assert_refused(code: int, err: str, *names: str) -> None:
    assert code == 1, err
    assert err.startswith("error: ") and "\n" not in err, err
    assert "Traceback" not in err and SECRET not in err
    for name in names:
        assert name in err, err


@pytest.mark.parametrize("key", ["../../../outside/canary", "{outside}/canary", "../../.hidden"])
def test_a_data_key_reads_only_the_data_folder(site, canary, capsys, key):
    """``site.data["../../../x"]`` read any .yml on the machine; an absolute one gave a traceback."""
    (site / "content/data").mkdir(exist_ok=True)
    (site / ".hidden.yml").write_text(f"secret: {SECRET}\n")
    probe(site, f'{{{{ site.data["{key.format(outside=canary.folder)}"].secret }}}}')
    code, err = build(site, canary, capsys)
    assert_refused(code, err, f"{PAGE}:4", "site.data")
    canary.assert_untouched(site / "_site")


@pytest.mark.parametrize("listed", [".git/config", ".env", "linked-config"])
def test_a_source_listing_shows_no_credentials_and_nothing_outside(site, canary, capsys, listed):
    """``layout: source`` with ``source: .git/config`` published the checkout's token."""
    (site / ".git").mkdir()
    (site / ".git/config").write_text(f"[http]\n\textraheader = AUTHORIZATION: basic {SECRET}\n")
    (site / ".env").write_text(f"TOKEN={SECRET}\n")
    (site / "linked-config").symlink_to(site / ".git/config")
    probe(site, "Listed.", f"layout: source\nsource: {listed.format(outside=canary.folder)}\n")
    code, err = build(site, canary, capsys)
    assert_refused(code, err, PAGE, "key 'source'")
    canary.assert_untouched(site / "_site")
    assert not (site / "_site").exists()


def test_a_source_listing_of_a_file_in_the_site_still_works(site, canary, capsys):
    probe(site, "Listed.", "layout: source\nsource: site.yaml\n")
    code, err = build(site, canary, capsys)
    assert code == 0, err
    assert "posts_per_page" in (site / "_site/probe.html").read_text()


@pytest.mark.parametrize("target", ["../../../outside/canary.md", "/../../../outside/canary.md"])
def test_a_link_tag_neither_reads_outside_nor_tells_what_exists(site, canary, capsys, target):
    """``{% link ../../x.md %}`` read a file outside, and its answer told whether it exists."""
    probe(site, f"{{% link {target} %}}")
    code, err = build(site, canary, capsys)
    assert_refused(code, err, f"{PAGE}:4", "no such post or page")
    canary.assert_untouched(site / "_site")


def test_a_link_tag_says_the_same_for_an_outside_file_and_a_missing_one(site, canary, capsys):
    answers = []
    for name in ("canary", "missing"):
        probe(site, f"{{% link ../../../outside/{name}.md %}}")
        answers.append(build(site, canary, capsys)[1].replace(name, "NAME"))
    assert answers[0] == answers[1]
    canary.assert_untouched(site / "_site")


def test_a_link_tag_to_a_page_still_works(site, canary, capsys):
    probe(site, "[About]({% link about.md %})")
    code, err = build(site, canary, capsys)
    assert code == 0, err
    assert 'href="/about.html"' in (site / "_site/probe.html").read_text()


def add_archive(site: Path, archive: str) -> None:
    with (site / "site.yaml").open("a") as f:
        f.write(f"versions:\n  - {{name: dev, worktree: true, default: true}}\n"
                f"  - {{name: old, archive: {archive!r}}}\n")


@pytest.mark.parametrize("archive", ["../outside", "{outside}", "linked", ".git", "in-site/../.git"])
def test_a_docs_archive_is_a_folder_of_the_site_not_of_the_machine(site, canary, capsys, archive):
    """A docs version's ``archive:`` could be any folder (``..``, absolute, a link): published whole."""
    (site / "in-site").mkdir()
    (site / "linked").symlink_to(canary.folder)
    (site / ".git").mkdir()
    (site / ".git/index.html").write_text(f"<p>{SECRET}</p>\n")
    add_archive(site, archive.format(outside=canary.folder))
    code, err = build(site, canary, capsys)
    assert_refused(code, err, "site.yaml", "version 'old'", "archive")
    canary.assert_untouched(site / "_site")
    assert not (site / "_site").exists()


def test_a_link_inside_a_docs_archive_may_not_lead_out_of_it(site, canary, capsys):
    (site / "old").mkdir()
    (site / "old/index.html").write_text("<p>Old docs.</p>\n")
    (site / "old/leak.html").symlink_to(canary.folder / "index.html")
    add_archive(site, "old")
    code, err = build(site, canary, capsys)
    assert_refused(code, err, "old/leak.html", "symbolic link")
    canary.assert_untouched(site / "_site")


def test_a_docs_archive_in_the_site_is_published(site, canary, capsys):
    (site / "old").mkdir()
    (site / "old/index.html").write_text("<p>Old docs.</p>\n")
    add_archive(site, "old")
    code, err = build(site, canary, capsys)
    assert code == 0, err
    assert "Old docs." in (site / "_site/docs/old/index.html").read_text()


def test_a_static_folder_may_not_be_a_link_into_git(site, canary, capsys):
    (site / ".git").mkdir()
    (site / ".git/config").write_text(f"token = {SECRET}\n")
    (site / "public").symlink_to(".git")
    with (site / "site.yaml").open("a") as f:
        f.write("static: [public]\n")
    code, err = build(site, canary, capsys)
    assert_refused(code, err, "site.yaml", "static[0]")
    assert not (site / "_site").exists()


def test_a_static_file_linked_from_outside_is_refused_before_it_is_read(site, canary, capsys):
    """The scan refused such a link only after reading the file for its digest."""
    (site / "public").mkdir()
    (site / "public/leak.html").symlink_to(canary.folder / "index.html")
    with (site / "site.yaml").open("a") as f:
        f.write("static: [public]\n")
    code, err = build(site, canary, capsys)
    assert_refused(code, err, "public/leak.html", "allow_symlinks_outside")
    canary.assert_untouched(site / "_site")


# --- 39.8: no setting makes a link that runs a script ------------------------------------------

@pytest.mark.parametrize("url", ["javascript:alert(document.cookie)", " JaVaScRiPt:alert(1)", "java\tscript:alert(1)",
                                 "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)"])
def test_an_author_link_may_not_run_a_script(site, canary, capsys, url):
    (site / "content/data").mkdir(exist_ok=True)
    (site / "content/data/authors.yml").write_text(f"ada:\n  name: Ada\n  link: {json.dumps(url)}\n")
    code, err = build(site, canary, capsys)
    assert_refused(code, err, "content/data/authors.yml", "key 'ada.link'")
    assert not (site / "_site").exists()


@pytest.mark.parametrize("edit", ["javascript:alert(1)//{path}", "data:text/html,{path}", "VBScript:{path}"])
def test_the_edit_link_may_not_run_a_script(site, canary, capsys, edit):
    with (site / "site.yaml").open("a") as f:
        f.write(f"repository:\n  url: https://github.com/o/r\n  edit: {json.dumps(edit)}\n")
    code, err = build(site, canary, capsys)
    assert_refused(code, err, "site.yaml", "key 'repository.edit'")
    assert not (site / "_site").exists()


def test_ordinary_author_and_edit_links_still_work(site, canary, capsys):
    (site / "content/data").mkdir(exist_ok=True)
    (site / "content/data/authors.yml").write_text("ada:\n  name: Ada\n  link: https://example.org/~ada\n")
    with (site / "site.yaml").open("a") as f:
        f.write("repository:\n  url: https://github.com/o/r\n")
    code, err = build(site, canary, capsys)
    assert code == 0, err
    assert 'href="https://example.org/~ada"' in (site / "_site/authors/ada.html").read_text()
    assert "https://github.com/o/r/edit/main/content/pages/about.md" in (site / "_site/about.html").read_text()


@pytest.mark.parametrize("link, target, body", [
    ("content/data/token.yml", "../../.git/token.yml", "{{ site.data.token.token }}"),
    ("content/data", "../.git", "{{ site.data.token.token }}"),
    ("assets/leak.txt", "../.git/token.yml", "Nothing read."),
])
def test_no_content_or_asset_is_a_link_into_git(site, canary, capsys, link, target, body):
    """Only links out of the site were refused: a data file linked into .git/ was published."""
    (site / ".git").mkdir()
    (site / ".git/token.yml").write_text(f"token: {SECRET}\n")
    if (site / link).is_dir():
        for path in (site / link).iterdir():
            path.rename(site / ".git" / path.name)
        (site / link).rmdir()
    (site / link).symlink_to(target)
    probe(site, body)
    code, err = build(site, canary, capsys)
    assert_refused(code, err, ".git/")
    assert not (site / "_site").exists()


@pytest.mark.parametrize("link, target", [("assets/leak.txt", "../.env"), ("content/data/env.yml", "../../.env")])
def test_no_content_or_asset_is_a_link_to_a_hidden_file(site, canary, capsys, link, target):
    """A link inside the site to its ``.env`` passed (only .git/ and .sitegen/ were refused) and
    the file was published."""
    (site / ".env").write_text(f"token: {SECRET}\n")
    (site / link).parent.mkdir(parents=True, exist_ok=True)
    (site / link).symlink_to(target)
    code, err = build(site, canary, capsys)
    assert_refused(code, err, link, ".env")
    assert not (site / "_site").exists()
