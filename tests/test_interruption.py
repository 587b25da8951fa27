"""Concurrency and interruption: one writer at a time, and nothing left behind by a killed one (issue 15.7)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import REPO, copy_site
from generator.build import build
from generator.cli import main

ENV = {**os.environ, "PYTHONPATH": str(REPO)}


def sitegen(site: Path, *args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "generator", "-C", str(site), *args], env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def output_tree(out: Path) -> dict[str, bytes | None]:
    """Files (bytes) and folders (None) under ``out``."""
    return {p.relative_to(out).as_posix(): None if p.is_dir() else p.read_bytes() for p in sorted(out.rglob("*"))}


def many_posts(site: Path, n: int) -> Path:
    for i in range(n):
        (site / f"content/posts/2020-{1 + i // 28:02d}-{1 + i % 28:02d}-post-{i}.md").write_text(
            f"---\ntitle: Post {i}\ntags: [t{i % 7}]\n---\n" + f"Paragraph {i} with `code`.\n\n" * 40)
    return site


def test_a_second_writer_is_refused_naming_the_holder_and_a_dead_ones_lock_is_taken_over(tmp_path, capsys):
    site = copy_site(tmp_path / "site", "basic")
    server = sitegen(site, "serve", "--port", "0")
    try:
        for line in server.stderr:
            if "serving" in line:
                break
        else:
            pytest.fail("sitegen serve did not start")
        before = output_tree(site / "_site")
        (site / "content/pages/about.md").write_text("---\ntitle: Changed\n---\nBy a second writer.\n")
        capsys.readouterr()
        assert main(["-C", str(site), "build", "--refresh"]) == 1
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and "sitegen serve" in err and f"pid {server.pid}" in err, err
        assert "site/.sitegen/lock" in err
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    assert output_tree(site / "_site") == before
    assert main(["-C", str(site), "build"]) == 0      # the dead holder's lock is taken over
    assert b"By a second writer." in (site / "_site/about.html").read_bytes()


def test_two_builds_at_once_the_second_is_refused_naming_the_first(tmp_path, capsys):
    site = many_posts(copy_site(tmp_path / "site", "basic"), 250)
    clean = many_posts(copy_site(tmp_path / "clean", "basic"), 250)
    build(clean)
    first = sitegen(site, "build")
    lock = site / ".sitegen/lock"
    deadline = time.monotonic() + 300
    while not (lock.is_file() and lock.stat().st_size) and time.monotonic() < deadline:
        time.sleep(0.002)
    capsys.readouterr()
    assert main(["-C", str(site), "build"]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and f"sitegen build (pid {first.pid} " in err, err
    assert first.wait() == 0, first.stderr.read()
    assert output_tree(site / "_site") == output_tree(clean / "_site")


def test_a_build_killed_midway_is_repaired_by_the_next_build(tmp_path):
    site = many_posts(copy_site(tmp_path / "site", "basic"), 250)
    clean = many_posts(copy_site(tmp_path / "clean", "basic"), 250)
    build(clean)
    out = site / "_site"
    killed = sitegen(site, "build")
    deadline = time.monotonic() + 300
    while not (out.is_dir() and any(out.iterdir())) and time.monotonic() < deadline:
        time.sleep(0.002)
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    # As a kill between making a folder and writing into it, or mid-write, leaves them:
    (out / "2020/13/01").mkdir(parents=True, exist_ok=True)
    (out / "2020/01/01").mkdir(parents=True, exist_ok=True)
    (out / "2020/01/01/.post-0.html.x1y2z3").write_bytes(b"<html")
    assert main(["-C", str(site), "build"]) == 0
    assert output_tree(out) == output_tree(clean / "_site")


def test_an_empty_folder_in_the_output_is_removed_by_the_next_build(tmp_path):
    site = copy_site(tmp_path / "site", "basic")
    build(site)
    (site / "_site/2019/03/19").mkdir()
    (site / "_site/nothing/here").mkdir(parents=True)
    result = build(site)
    assert not (site / "_site/2019/03/19").exists() and not (site / "_site/nothing").exists()
    assert (site / "_site/2019/03/18").is_dir()
    assert result.written == []


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def test_a_killed_publish_leaves_nothing_the_next_publish_does_not_clean(tmp_path):
    site = copy_site(tmp_path / "site", "basic")
    (site / ".gitignore").write_text("/_site/\n/.sitegen/\n")
    git(site, "init", "--quiet", "--initial-branch", "main")
    git(site, "add", "--all")
    git(site, "-c", "user.name=T", "-c", "user.email=t@example.org", "commit", "--quiet", "-m", "site")
    # A publish killed while its temporary worktree is checked out (and locked, as git leaves one it adds).
    holder = subprocess.Popen([sys.executable, "-c", f"""
import sys, time
from pathlib import Path
from generator.publish import Repo
repo = Repo.of(Path({str(site)!r}))
with repo.temporary_worktree(repo.head_commit()) as path:
    repo.git("worktree", "lock", str(path))
    print(path, flush=True)
    time.sleep(600)
"""], env=ENV, stdout=subprocess.PIPE, text=True)
    left = Path(holder.stdout.readline().strip())
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    assert left.is_dir() and "locked" in git(site, "worktree", "list", "--porcelain")
    assert main(["-C", str(site), "publish", "--no-push", "--allow-dirty"]) == 0
    worktrees = git(site, "worktree", "list", "--porcelain")
    assert worktrees.count("worktree ") == 1 and "locked" not in worktrees
    assert not left.parent.exists()
    leftovers = [p for p in Path(tempfile.gettempdir()).glob("sitegen-publish-*") if str(site) in str(p)
                 or (p / "branch").exists() and str(site) in (p / "branch/.git").read_text(errors="replace")]
    assert leftovers == []
