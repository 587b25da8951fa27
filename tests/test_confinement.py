"""Nothing a site says makes a build write or delete a file outside its output folder (issue 15.1)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.build import build
from generator.cli import main
from generator.errors import SiteError
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
    import shutil
    shutil.rmtree(out / "2019")
    (out / "2019").symlink_to(victim, target_is_directory=True)
    before = tree(victim)
    build(site)
    assert tree(victim) == before
    assert (out / "2019").is_dir() and not (out / "2019").is_symlink()
    assert (out / "2019/03/18/first-post.html").is_file()
