"""Nothing a site says makes a build write or delete a file outside its output folder (issue 15.1),
nor build into a folder of someone else's files (issue 39.1), nor follow ``.sitegen/`` out (39.4)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from generator.build import build
from generator.cli import main
from generator.errors import SiteError
from generator.layout import OUTPUT_MARKER
from generator.output import Staging, delete_outputs

from conftest import copy_site

POST = "content/posts/2019-03-18-first-post.md"


def write_outputs(out: Path, made: dict[str, bytes]) -> None:
    """Write files into the output folder as a build does: staged, then moved into place."""
    staging = Staging(out, out.parent / "staging", {}, {})
    staging.commit({rel: staging.put(rel, data)[0] for rel, data in made.items()})


def tree(folder: Path) -> dict[str, tuple[bytes | None, int]]:
    """Every file and folder under ``folder``: its bytes (None for a folder) and mtime."""
    found = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[rel] = (os.readlink(path).encode(), 0)
        elif path.is_dir():
            found[rel] = (None, 0)
        else:
            found[rel] = (path.read_bytes(), path.stat().st_mtime_ns)
    return found


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    folder = tmp_path / "victim"
    folder.mkdir()
    (folder / "keep.html").write_text("precious\n")
    return folder


def add_redirect(site: Path, old: str) -> None:
    path = site / POST
    path.write_text(path.read_text().replace("title: First post\n", f"title: First post\nredirect_from: [{old!r}]\n", 1))


@pytest.mark.parametrize("old", ["/../../victim/keep.html", "/a/../../../victim/keep.html",
                                 "/..", "/./../victim/keep.html"])
def test_redirect_from_outside_the_output_is_refused_naming_the_post(tmp_path, victim, capsys, old):
    site = copy_site(tmp_path / "site", "basic")
    assert main(["-C", str(site), "build"]) == 0
    before = tree(victim)
    add_redirect(site, old)
    assert main(["-C", str(site), "build"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert POST in err and "redirect_from" in err
    assert tree(victim) == before


def test_site_yaml_redirect_outside_the_output_is_refused_naming_the_key(tmp_path, capsys):
    site = copy_site(tmp_path / "site", "basic")
    sources = tree(site / "content")
    with (site / "site.yaml").open("a") as f:
        f.write("redirects:\n  /../content/pages/about.md: /index.html\n")
    assert main(["-C", str(site), "build"]) == 1
    err = capsys.readouterr().err.strip()
    assert "site.yaml" in err and "redirects" in err and "/../content/pages/about.md" in err
    assert tree(site / "content") == sources


def test_removing_the_post_deletes_nothing_outside(tmp_path, victim):
    """Today's attack in two steps: a state naming an outside path is never acted on."""
    site = copy_site(tmp_path / "site", "basic")
    out = site / "_site"
    build(site)
    before = tree(victim)
    # A record of an output outside the folder (as a build of the old code left it): never deleted.
    with pytest.raises(SiteError, match="output folder"):
        delete_outputs(out, {"../../victim/keep.html"})
    assert tree(victim) == before


@pytest.mark.parametrize("rel", ["../victim/keep.html", "/abs/keep.html", "a/../../victim/keep.html",
                                 "", ".", "a//b", "a/./b", "nul\0.html"])
@pytest.mark.parametrize("new", [False, True], ids=["into a folder", "a new folder"])
def test_the_output_folder_refuses_paths_that_leave_it(tmp_path, victim, rel, new):
    out = tmp_path / "_site"
    if not new:
        out.mkdir()
    before = tree(victim)
    with pytest.raises(SiteError, match="output folder"):
        write_outputs(out, {rel: b"pwned"})
    out.mkdir(exist_ok=True)
    with pytest.raises(SiteError, match="output folder"):
        delete_outputs(out, {rel})
    assert tree(victim) == before


def test_a_link_in_the_output_is_never_written_or_deleted_through(tmp_path, victim):
    out = tmp_path / "_site"
    out.mkdir()
    (out / "link").symlink_to(victim, target_is_directory=True)
    before = tree(victim)
    with pytest.raises(SiteError, match="symbolic link"):
        delete_outputs(out, {"link/keep.html"})
    assert tree(victim) == before
    write_outputs(out, {"link/keep.html": b"made"})    # the link is replaced by a real folder
    assert tree(victim) == before
    assert not (out / "link").is_symlink() and (out / "link/keep.html").read_bytes() == b"made"


def test_a_symlinked_folder_in_the_output_is_replaced_not_followed(tmp_path, victim):
    """A folder of the output that someone replaced by a link outside: the build writes a real folder."""
    site = copy_site(tmp_path / "site", "basic")
    build(site)
    out = site / "_site"
    shutil.rmtree(out / "2019")
    (out / "2019").symlink_to(victim, target_is_directory=True)
    before = tree(victim)
    build(site)
    assert tree(victim) == before
    assert (out / "2019").is_dir() and not (out / "2019").is_symlink()
    assert (out / "2019/03/18/first-post.html").is_file()


# --- the output folder: inside the site, or new, empty or sitegen's (issue 39.1) ----------------

def one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert err and "\n" not in err and "Traceback" not in err, err
    return err


def fill(folder: Path, count: int) -> Path:
    """``folder`` holding ``count`` files of someone else's."""
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(count):
        (folder / f"theirs-{n}.txt").write_text(f"file {n}\n")
    return folder


def point_output(site: Path, how: str, victim: Path) -> None:
    """Make the site's output folder ``victim``, as site.yaml or a ``_site`` link can."""
    if how == "link":
        (site / "_site").symlink_to(victim, target_is_directory=True)
        return
    where = os.path.relpath(victim, site) if how == "relative" else str(victim)
    with (site / "site.yaml").open("a") as f:
        f.write(f"output: {where}\n")


@pytest.mark.parametrize("built_before", [False, True], ids=["first build", "an existing site"])
@pytest.mark.parametrize("how", ["relative", "absolute", "link"])
def test_an_output_folder_outside_the_site_holding_files_is_refused_and_kept(tmp_path, capsys, how, built_before):
    site = copy_site(tmp_path / "site", "basic")
    if built_before:
        assert main(["-C", str(site), "build"]) == 0
        shutil.rmtree(site / "_site")
    victim = fill(tmp_path / "victim", 301)
    before = tree(victim)
    capsys.readouterr()
    point_output(site, how, victim)
    assert main(["-C", str(site), "build"]) == 1
    err = one_line_error(capsys)
    assert "site.yaml" in err and "key 'output'" in err and "new or empty folder" in err
    assert tree(victim) == before


@pytest.mark.parametrize("how", ["relative", "link"])
def test_an_output_folder_outside_the_site_is_marked_and_built_into_again(tmp_path, how):
    """A new or empty folder outside is fine: the build marks it, and the next builds find it theirs."""
    site = copy_site(tmp_path / "site", "basic")
    out = tmp_path / "www"
    out.mkdir()
    point_output(site, how, out)
    assert main(["-C", str(site), "build"]) == 0
    assert (out / OUTPUT_MARKER).is_file() and (out / "about.html").is_file()
    (site / "content/pages/about.md").unlink()
    assert main(["-C", str(site), "build"]) == 0
    assert not (out / "about.html").exists() and (out / OUTPUT_MARKER).is_file()


def test_a_first_build_into_a_folder_of_someone_elses_files_inside_the_site_removes_none(tmp_path, capsys):
    """The more-than-half guard counts the files in the folder, not only those the last build made."""
    site = copy_site(tmp_path / "site", "basic")
    theirs = fill(site / "_site", 301)
    before = tree(theirs)
    assert main(["-C", str(site), "build"]) == 1
    err = one_line_error(capsys)
    assert "would remove 301 of the 301 files in the output folder" in err and "--allow-removals" in err
    assert tree(theirs) == before


def test_an_output_that_names_a_file_is_one_line(tmp_path, capsys):
    site = copy_site(tmp_path / "site", "basic")
    (site / "notes.txt").write_text("mine\n")
    with (site / "site.yaml").open("a") as f:
        f.write("output: notes.txt\n")
    assert main(["-C", str(site), "build"]) == 1
    err = one_line_error(capsys)
    assert "site.yaml" in err and "key 'output'" in err and "not a folder" in err
    assert (site / "notes.txt").read_text() == "mine\n"


# --- .sitegen/ is never followed through a symbolic link (issue 39.4) ----------------------------

def test_a_symlinked_lock_does_not_truncate_its_target(tmp_path, capsys):
    site = copy_site(tmp_path / "site", "basic")
    canary = tmp_path / "canary.txt"
    canary.write_text("precious\n")
    (site / ".sitegen").mkdir()
    (site / ".sitegen/lock").symlink_to(canary)
    assert main(["-C", str(site), "build"]) == 1
    err = one_line_error(capsys)
    assert ".sitegen/lock" in err and "symbolic link" in err
    assert canary.read_text() == "precious\n"


def test_a_symlinked_state_folder_is_refused_and_its_target_kept(tmp_path, capsys):
    site = copy_site(tmp_path / "site", "basic")
    victim = tmp_path / "victim"
    fill(victim / "staging", 3)
    (victim / "state.msgpack").write_text("someone's state\n")
    (victim / "site-yaml.msgpack").write_text("someone's file\n")
    before = tree(victim)
    (site / ".sitegen").symlink_to(victim, target_is_directory=True)
    assert main(["-C", str(site), "build"]) == 1
    err = one_line_error(capsys)
    assert err.startswith(f"error: {site / '.sitegen'}: ") and "symbolic link" in err
    assert tree(victim) == before


@pytest.mark.parametrize("link", ["cache", "cache/documents", "cache/data", "versions", "staging"])
def test_a_symlinked_folder_in_the_state_folder_is_refused_and_its_target_kept(tmp_path, capsys, link):
    site = copy_site(tmp_path / "site", "basic")
    assert main(["-C", str(site), "build"]) == 0
    victim = fill(tmp_path / "victim", 3)
    before = tree(victim)
    shutil.rmtree(site / ".sitegen" / link, ignore_errors=True)
    (site / ".sitegen" / link).parent.mkdir(parents=True, exist_ok=True)
    (site / ".sitegen" / link).symlink_to(victim, target_is_directory=True)
    (site / POST).write_text((site / POST).read_text() + "\nEdited.\n")
    assert main(["-C", str(site), "build", "--refresh"]) == 1
    err = one_line_error(capsys)
    assert f".sitegen/{link}" in err and "symbolic link" in err
    assert tree(victim) == before


def test_a_symlinked_cache_shard_is_refused_and_its_target_kept(tmp_path, capsys):
    site = copy_site(tmp_path / "site", "basic")
    assert main(["-C", str(site), "build"]) == 0
    victim = fill(tmp_path / "victim", 3)
    before = tree(victim)
    documents = site / ".sitegen/cache/documents"
    shutil.rmtree(documents)
    documents.mkdir()
    for n in range(256):       # whichever shard a parse key falls in
        (documents / f"{n:02x}").symlink_to(victim, target_is_directory=True)
    assert main(["-C", str(site), "build", "--refresh"]) == 1
    err = one_line_error(capsys)
    assert ".sitegen/cache/documents/" in err and "symbolic link" in err
    assert tree(victim) == before


@pytest.mark.parametrize("state", ["a file", "a folder for a lock"])
def test_a_state_folder_sitegen_cannot_use_is_one_line(tmp_path, capsys, state):
    site = copy_site(tmp_path / "site", "basic")
    if state == "a file":
        (site / ".sitegen").write_text("not a folder\n")
    else:
        (site / ".sitegen/lock").mkdir(parents=True)
    assert main(["-C", str(site), "build"]) == 1
    err = one_line_error(capsys)
    assert ".sitegen" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in any folder")
def test_an_unwritable_state_folder_is_one_line(tmp_path, capsys):
    site = copy_site(tmp_path / "site", "basic")
    (site / ".sitegen").mkdir()
    (site / ".sitegen").chmod(0o555)
    try:
        assert main(["-C", str(site), "build"]) == 1
    finally:
        (site / ".sitegen").chmod(0o755)
    err = one_line_error(capsys)
    assert ".sitegen" in err and "permission" in err


def test_running_tutorials_refuses_a_symlinked_state_folder(tmp_path, capsys):
    """``sitegen tutorials run`` writes runs into .sitegen/cache without a build's lock: checked alike."""
    site = copy_site(tmp_path / "site", "basic")
    victim = fill(tmp_path / "victim", 3)
    before = tree(victim)
    (site / ".sitegen").symlink_to(victim, target_is_directory=True)
    assert main(["-C", str(site), "tutorials", "run"]) == 1
    err = one_line_error(capsys)
    assert ".sitegen" in err and "symbolic link" in err
    assert tree(victim) == before
