"""Read a site's history with git, never touching the author's working tree.

Everything here is plumbing: refs are resolved to commits, folders of a
commit to tree ids, and a tree is exported with ``git archive`` into a folder
the caller owns. Failures are :class:`GitError`; callers decide what they mean
for the site (an unknown ref, a shallow clone) and say so in their own words.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any


class GitError(Exception):
    """git failed, or the folder is not inside a git repository."""


def run(repo: Path, *args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``git args`` in ``repo``; its exit status is the caller's to read. Every git command
    sitegen runs goes through here (``sitegen publish`` too)."""
    try:
        return subprocess.run(["git", *args], cwd=repo, input=input, capture_output=True, text=True,
                              encoding="utf-8", errors="surrogateescape", check=False)
    except FileNotFoundError:
        raise GitError("git is not installed") from None


def git(repo: Path, *args: str) -> str:
    """Run ``git args`` in ``repo`` and return its output, stripped."""
    done = run(repo, *args)
    if done.returncode != 0:
        raise GitError(done.stderr.strip() or f"git {' '.join(args)} failed")
    return done.stdout.strip()


def site_prefix(root: Path) -> str:
    """Where ``root`` sits inside its repository, as a tree path prefix (``""`` at the top)."""
    return git(root, "rev-parse", "--show-prefix")


def resolve_commit(repo: Path, ref: str) -> str | None:
    """The commit ``ref`` names (a branch, tag or commit id), or None if it names none."""
    try:
        return git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
    except GitError:
        return None


def is_shallow(repo: Path) -> bool:
    return git(repo, "rev-parse", "--is-shallow-repository") == "true"


def tree_id(repo: Path, commit: str, path: str) -> str | None:
    """The id of folder ``path`` (from the top of the repository) in ``commit``, or None."""
    listed = git(repo, "ls-tree", "--full-tree", "-d", commit, "--", path)  # "040000 tree <id>\t<path>"
    return listed.split()[2] if listed else None


def last_changed(repo: Path, commit: str, *folders: str) -> dict[str, str]:
    """The day (``YYYY-MM-DD``, the committer's) each file under ``folders`` of ``repo`` last
    changed in the history of ``commit``, by path from ``repo``: one ``git log`` for all."""
    days: dict[str, str] = {}
    day = ""
    for line in git(repo, "-c", "core.quotePath=false", "log", "--format=%x00%cs", "--name-only", "--relative",
                    "--no-renames", commit, "--", *folders).splitlines():
        if line.startswith("\0"):
            day = line[1:]
        elif line:
            days.setdefault(line, day)
    return days


def export_tree(repo: Path, tree: str, dest: Path) -> None:
    """Write the files of ``tree`` into ``dest`` (a folder the caller owns); a link out of the
    tree (or anything else tarfile's ``data`` filter refuses) is an error naming it."""
    import tarfile

    top = git(repo, "rev-parse", "--show-toplevel")  # git archive in a subfolder archives only that
    refused = None
    with subprocess.Popen(["git", "archive", "--format=tar", tree], cwd=top,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        try:
            with tarfile.open(fileobj=proc.stdout, mode="r|") as archive:
                if hasattr(tarfile, "data_filter"):
                    archive.extractall(dest, filter="data")
                else:
                    archive.extractall(dest, members=data_only(archive, dest))
        except tarfile.TarError as exc:
            refused = exc
            proc.kill()      # the rest of the archive is not read: git must not wait to write it
        error = proc.stderr.read().decode("utf-8", "replace").strip()
    if error and proc.returncode != 0:
        raise GitError(error)
    if refused is not None:
        raise GitError(f"tree {tree}: {refused}")
    if proc.returncode != 0:
        raise GitError(f"git archive {tree} failed")


def data_only(archive: Any, dest: Path) -> Iterator[Any]:
    """The members of ``archive`` that tarfile's ``data`` filter (PEP 706; Python 3.10.12 and
    3.11.4 on) lets through for what ``git archive`` writes: files, folders and links, each
    landing inside ``dest``, a link pointing inside it, a file's mode as the filter leaves it
    (a folder's is the archive's); anything else ends the extraction with a
    :class:`tarfile.TarError`, as the filter does. For the Pythons before it (Debian 12's 3.11.2)."""
    import tarfile

    root = os.path.realpath(dest)

    def inside(path: str) -> bool:
        return os.path.commonpath([root, os.path.realpath(path)]) == root

    for member in archive:
        where = os.path.join(root, member.name)
        if os.path.isabs(member.name) or not inside(where):
            raise tarfile.TarError(f"{member.name!r} would be written outside the tree")
        if member.issym():
            if os.path.isabs(member.linkname) or not inside(os.path.join(os.path.dirname(where), member.linkname)):
                raise tarfile.TarError(f"{member.name!r} links outside the tree")
        elif member.isfile():       # the filter's modes: no high bits, none writable but by the owner
            member.mode = member.mode & 0o755 | 0o600
            if not member.mode & 0o100:
                member.mode &= ~0o011
        elif not member.isdir():
            raise tarfile.TarError(f"{member.name!r} is neither a file, a folder nor a link")
        yield member
