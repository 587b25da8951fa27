"""Read a site's history with git, never touching the author's working tree.

Everything here is plumbing: refs are resolved to commits, folders of a
commit to tree ids, and a tree is exported with ``git archive`` into a folder
the caller owns. Failures are :class:`GitError`; callers decide what they mean
for the site (an unknown ref, a shallow clone) and say so in their own words.
"""

from __future__ import annotations

import subprocess
from pathlib import Path


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


def export_tree(repo: Path, tree: str, dest: Path) -> None:
    """Write the files of ``tree`` into ``dest`` (a folder the caller owns)."""
    import tarfile

    top = git(repo, "rev-parse", "--show-toplevel")  # git archive in a subfolder archives only that
    with subprocess.Popen(["git", "archive", "--format=tar", tree], cwd=top,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        try:
            with tarfile.open(fileobj=proc.stdout, mode="r|") as archive:
                archive.extractall(dest, filter="data")
        except tarfile.TarError:
            pass  # git's own message, below, says why
        error = proc.stderr.read().decode("utf-8", "replace").strip()
    if proc.returncode != 0:
        raise GitError(error or f"git archive {tree} failed")
