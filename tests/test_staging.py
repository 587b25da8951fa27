"""The staging folder: a build's files wait there until every one is made (generator.output.Staging)."""

from __future__ import annotations

from pathlib import Path

from generator.build import build
from generator.layout import OUTPUT_MARKER
from generator.output import Staging

from conftest import copy_site

FILES = {"index.html": b"home", "2019/03/18/first-post.html": b"post", "feed.xml": b"feed"}


def staged(out: Path, made: dict[str, bytes]) -> tuple[Staging, dict[str, str]]:
    """Files staged as a build stages them: each put (in a worker), then placed (here)."""
    staging = Staging(out, out.parent / "staging", {}, {})
    return staging, {rel: staging.place(rel, staging.put(rel, data)[0]) for rel, data in made.items()}


def files(folder: Path) -> dict[str, bytes]:
    """The files of ``folder`` but sitegen's marker (which every output folder it writes holds)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and p.name != OUTPUT_MARKER}


def test_a_new_output_folder_is_the_staged_tree_moved_in_one_rename(tmp_path):
    out = tmp_path / "site/_site"
    staging, names = staged(out, FILES)
    tree = tmp_path / "site/staging/tree"
    assert files(tree) == FILES              # staged as the output's own tree
    inode = tree.stat().st_ino
    stamps = staging.commit(names)
    assert out.stat().st_ino == inode        # the folder itself moved, not file by file
    assert files(out) == FILES and stamps.keys() == FILES.keys()
    assert (out / OUTPUT_MARKER).is_file()   # marked in the tree, before it moved
    assert not (tmp_path / "site/staging").exists()


def test_into_an_existing_output_folder_each_file_is_moved(tmp_path):
    out = tmp_path / "_site"
    (out / "2019").mkdir(parents=True)
    (out / "old.html").write_bytes(b"kept")
    staging, names = staged(out, FILES)
    assert not (tmp_path / "staging/tree").exists()
    inode = out.stat().st_ino
    staging.commit(names)
    assert out.stat().st_ino == inode and files(out) == {**FILES, "old.html": b"kept"}


def test_an_output_folder_made_while_the_build_ran_is_merged_into(tmp_path):
    out = tmp_path / "_site"
    staging, names = staged(out, FILES)
    out.mkdir()
    (out / "other.html").write_bytes(b"someone else's")
    staging.commit(names)
    assert files(out) == {**FILES, "other.html": b"someone else's"}


def test_a_file_where_another_needs_a_folder_is_staged_aside(tmp_path):
    """As a build into an existing folder would: the folder wins (the plan's later path)."""
    out = tmp_path / "_site"
    staging, names = staged(out, {"a": b"file", "a/b.html": b"below"})
    assert sum(name.startswith("tree/") for name in names.values()) == 1
    staging.commit(names)
    assert files(out) == {"a/b.html": b"below"}


def test_a_cold_build_and_a_build_into_an_existing_folder_write_the_same(tmp_path):
    cold, warm = (copy_site(tmp_path / name, "basic") for name in ("cold", "warm"))
    (warm / "_site").mkdir()
    build(cold)
    build(warm)
    assert files(cold / "_site") == files(warm / "_site") and files(cold / "_site")
    build(cold)       # the next build finds the folder as its records say
    assert files(cold / "_site") == files(warm / "_site")
