"""A source folder that cannot be read is an error, and a build never empties the site unasked (issue 15.2)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from generator.cli import main

from conftest import copy_site


def output_files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = copy_site(tmp_path / "site", "basic")
    assert main(["-C", str(site), "build"]) == 0
    return site


@pytest.mark.parametrize("target", ["../posts", ".", "../../content", "loop"])
def test_a_symlink_loop_in_the_sources_is_an_error_naming_it(site: Path, capsys, target: str) -> None:
    before = output_files(site / "_site")
    (site / "content/posts/loop").symlink_to(target)
    capsys.readouterr()
    assert main(["-C", str(site), "build"]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "content/posts/loop" in err and ("loop" in err.split(":", 2)[-1]
                                                              or "symbolic links" in err), err
    assert output_files(site / "_site") == before


def as_someone_else(run) -> tuple[int, str]:
    """``run()`` in a forked child that, if we are root, becomes ``nobody`` (root reads every folder).

    The child inherits the modules already imported, so it needs no access to the
    interpreter's own files. Returns its exit status and what it wrote to stderr.
    """
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:   # the child
        status = 70
        sys.stderr = open(write, "w", closefd=False)
        try:
            if os.geteuid() == 0:
                os.setgid(65534)
                os.setuid(65534)
            status = run()
        finally:
            sys.stderr.flush()
            os._exit(status)
    os.close(write)
    with os.fdopen(read) as stream:
        err = stream.read()
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), err


def test_an_unreadable_source_folder_is_an_error_naming_it(tmp_path: Path) -> None:
    top = Path(tempfile.mkdtemp(prefix="sitegen-unreadable-"))   # a folder nobody can reach
    try:
        top.chmod(0o755)
        site = copy_site(top / "site", "basic")
        assert main(["-C", str(site), "build"]) == 0     # as the owner: also loads what the child needs
        before = output_files(site / "_site")
        folder = site / "content/posts/more"
        folder.mkdir()
        (folder / "2020-01-01-x.md").write_text("---\ntitle: X\n---\n")
        if os.geteuid() == 0:
            for path in [site, *site.rglob("*")]:
                os.chown(path, 65534, 65534)
        folder.chmod(0)
        code, err = as_someone_else(lambda: main(["-C", str(site), "build"]))
        folder.chmod(0o755)
        assert code == 1, err
        assert err.startswith("error: content/posts/more: cannot read") and err.count("\n") == 1, err
        assert output_files(site / "_site") == before
    finally:
        shutil.rmtree(top)


def test_a_build_that_would_remove_most_of_the_site_stops_and_says_so(tmp_path: Path, capsys) -> None:
    site = copy_site(tmp_path / "site", "basic")
    posts = site / "content/posts"
    for n in range(1, 61):    # more than the default theme's assets, which stay
        (posts / f"2020-{1 + n // 29:02d}-{1 + n % 28:02d}-post-{n}.md").write_text(f"---\ntitle: Post {n}\n---\nText {n}.\n")
    assert main(["-C", str(site), "build"]) == 0
    before = output_files(site / "_site")
    shutil.move(posts, tmp_path / "posts-elsewhere")   # a checkout gone wrong
    posts.mkdir()
    capsys.readouterr()
    assert main(["-C", str(site), "build"]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "would remove" in err and "--allow-removals" in err, err
    assert output_files(site / "_site") == before
    assert main(["-C", str(site), "build", "--allow-removals"]) == 0
    assert not (site / "_site/2020/01/02/post-1.html").exists()


def test_a_build_removing_a_few_pages_needs_no_flag(site: Path) -> None:
    (site / "content/posts/2020-05-01-second.md").unlink()
    assert main(["-C", str(site), "build"]) == 0
    assert not (site / "_site/2020/05/01/second.html").exists()
