"""``sitegen publish``: commit the built site to the publish branch and push it.

The branch (``asf-site`` by default) is prepared in a temporary git worktree,
so the author's checkout, current branch, index and uncommitted files are
never touched. The commit's tree is the build plus the paths the branch holds
that the site does not own (``publish.keep``); anything else the branch held
is replaced. Every step uses the real ``git`` command, and the push is never
forced: when the remote branch moved, the commit is made again on its new tip
once, and if that is rejected too the publish stops.

The local branch of the same name follows each publish (fast-forward only),
so ``--no-push`` leaves a commit that a plain ``git push`` can send later.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from generator import progress as reporting
from generator.build import BuildOptions, build
from generator.cache import digest
from generator.config import Config
from generator.configure import load_config
from generator.errors import SiteError
from generator.git import GitError, run as run_git
from generator.layout import OUTPUT_MARKER
from generator.lock import site_lock
from generator.outputs.registry import transient_paths

ASF_YAML = ".asf.yaml"
ATTEMPTS = 2  # the first push, and one more on the remote's new tip


@dataclass(frozen=True)
class PublishOptions:
    branch: str | None = None       # default: site.yaml publish.branch
    remote: str | None = None       # default: site.yaml publish.remote
    message: str | None = None      # replaces the "Build at <date>" subject
    push: bool = True
    dry_run: bool = False
    allow_dirty: bool = False
    allow_removals: bool = False
    built: Path | None = None       # an already-built site folder; default: build now


@dataclass(frozen=True)
class Change:
    status: str                     # "A", "M" or "D", as git reports it
    path: str


@dataclass
class PublishResult:
    branch: str
    remote: str
    source: str                     # the source commit the site was built from
    changes: list[Change] = field(default_factory=list)
    commit: str | None = None       # the new commit; None when nothing changed or dry run
    pushed: bool = False
    retried: bool = False
    dry_run: bool = False
    built: Any = None               # the build's BuildResult; None for a site built before (--built)

    def summary(self) -> str:
        where = f"{self.remote}/{self.branch}"
        if self.dry_run:
            if not self.changes:
                return f"dry run: nothing would change on {where}"
            listing = "".join(f"\n  {c.status} {c.path}" for c in self.changes)
            return f"dry run: {len(self.changes)} files would change on {where}:{listing}"
        if self.commit is None:
            pushed = "; pushed its unpushed commit" if self.pushed else ""
            return f"nothing changed: {self.branch} already holds the build of {self.source[:12]}{pushed}"
        counts = ", ".join(f"{sum(c.status == s for c in self.changes)} {word}"
                           for s, word in (("A", "added"), ("M", "modified"), ("D", "removed")))
        told = f"pushed to {self.remote}" if self.pushed else "not pushed"
        moved = " (the remote branch moved; the commit was made again on its new tip)" if self.retried else ""
        return (f"committed {self.commit[:12]} to {self.branch} ({counts}), "
                f"built from {self.source[:12]}; {told}{moved}")


def publish(root: str | Path = ".", options: PublishOptions = PublishOptions(),
            check: Callable[[Path], None] | None = None) -> PublishResult:
    """Build the site in ``root`` (or take ``options.built``) and publish it.

    ``check``, when given, is called with the built site's folder before the
    branch is touched; raising SiteError there stops the publish.
    """
    config = load_config(root)
    with site_lock(config.state_dir, "sitegen publish"):
        return _publish(config, options, check)


def _publish(config: Config, options: PublishOptions, check: Callable[[Path], None] | None) -> PublishResult:
    branch = options.branch or config.publish.branch
    remote = options.remote or config.publish.remote
    keep = kept_paths(config)
    repo = Repo.of(config.root)
    repo.remove_leftovers()
    repo.require_branch_name(branch)
    source = repo.head_commit()
    dirty = repo.uncommitted(config)
    if dirty and not options.allow_dirty:
        raise SiteError("uncommitted changes: commit them so that what is published matches a commit, "
                        f"or pass --allow-dirty:{_listing(dirty)}", config.root)
    repo.refuse_checked_out(branch)

    built = None if options.built else build_site(config, options.allow_removals)
    site_dir = options.built or config.output_dir
    files = site_files(site_dir, keep)
    if check is not None:
        check(site_dir)

    asf_yaml = asf_yaml_text(branch) if config.publish.asf_yaml else None
    message = commit_message(options.message, source, repo.subject(source), bool(dirty))
    fetch = options.push or remote in repo.remotes()
    result = PublishResult(branch, remote, source, dry_run=options.dry_run, built=built)
    for attempt in range(ATTEMPTS):
        result.retried = attempt > 0
        remote_tip = repo.fetch_branch(remote, branch) if fetch else None
        local_tip = repo.local_branch(branch)
        base = repo.newer_of(local_tip, remote_tip, f"{branch} and {remote}/{branch}")
        with repo.temporary_worktree(base) as worktree, \
                reporting.current().stage("staging the branch", len(files), "files") as progress:
            tree, result.changes = stage(worktree, base, files, keep, asf_yaml, progress.advance)
        refuse_removals(result.changes, branch, options.allow_removals, transient_paths(config))
        if options.dry_run:
            return result
        result.commit = repo.commit_tree(tree, base, message) if result.changes else None
        tip = result.commit or base
        if options.push and tip is not None and tip != remote_tip:
            with reporting.current().stage("pushing"):
                pushed = repo.push(remote, tip, branch, remote_tip)
            if not pushed:
                continue
            result.pushed = True
        if result.commit is not None:
            repo.update_branch(branch, result.commit, local_tip)
        return result
    raise SiteError(f"{remote} rejected the push to {branch} twice: the branch keeps moving while we "
                    f"publish. Nothing was forced and nothing was pushed; run the publish again.")


def build_site(config: Config, allow_removals: bool = False) -> Any:
    """Build into the site's output folder (its BuildResult); a failed build raises before any git work."""
    return build(config.root, BuildOptions(allow_removals=allow_removals))


def kept_paths(config: Config) -> list[str]:
    """``publish.keep`` as branch-relative paths (site.yaml's loader checked they stay inside it)."""
    return [entry.strip("/") for entry in config.publish.keep]


def is_kept(path: str, keep: Sequence[str]) -> bool:
    return any(path == k or path.startswith(k + "/") for k in keep)


def site_files(site_dir: Path, keep: list[str]) -> dict[str, Path]:
    """Every file of the built site by its branch path (sitegen's marker aside), refusing paths
    the branch keeps."""
    if not site_dir.is_dir():
        raise SiteError("no built site here", site_dir)
    files = {}
    for path in sorted(site_dir.rglob("*")):
        rel = path.relative_to(site_dir).as_posix()
        if rel == ".git" or rel.startswith(".git/") or rel == OUTPUT_MARKER or not path.is_file():
            continue        # the marker says who made the folder, not part of the site
        if is_kept(rel, keep):
            raise SiteError(f"the build produces {rel}, but publish.keep keeps that path from the branch: "
                            f"remove it from publish.keep to publish it from here", site_dir)
        files[rel] = path
    if not files:
        raise SiteError("the built site is empty: nothing to publish", site_dir)
    return files


def asf_yaml_text(branch: str) -> str:
    """The ``.asf.yaml`` that has ASF infrastructure serve ``branch`` as the website."""
    return ("# Written by sitegen publish: ASF infrastructure serves this branch as the website.\n"
            f"publish:\n  whoami: {branch}\n")


def commit_message(custom: str | None, source: str, subject: str, dirty: bool) -> str:
    stamp = f"Build at {datetime.now(timezone.utc):%a %b %d %H:%M:%S UTC %Y}"
    origin = f"Built from {source} ({subject})" + (" with uncommitted changes" if dirty else "")
    return "\n\n".join([custom.strip(), stamp, origin] if custom else [stamp, origin]) + "\n"


def stage(worktree: Path, base: str | None, files: dict[str, Path], keep: list[str],
          asf_yaml: str | None, copied: Callable[[], None] = lambda: None) -> tuple[str, list[Change]]:
    """Make the worktree hold the kept paths plus the build; return its tree and the changes."""
    git = Git(worktree)
    tracked = git("ls-files", "-z").split("\0")[:-1]
    kept = {p for p in tracked if is_kept(p, keep) or (asf_yaml is not None and p == ASF_YAML)}
    for path in sorted(set(tracked) - kept - files.keys()):
        _remove(worktree, path)
    for rel, source in files.items():
        target = worktree / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        copied()
    if asf_yaml is not None and ASF_YAML not in kept and ASF_YAML not in files:
        (worktree / ASF_YAML).write_text(asf_yaml, encoding="utf-8")
    git("add", "--all")
    tree = git("write-tree").strip()
    old = git("rev-parse", f"{base}^{{tree}}") if base else git("hash-object", "-t", "tree", "/dev/null")
    out = git("diff-tree", "-r", "--no-renames", "--name-status", "-z", old.strip(), tree).split("\0")[:-1]
    return tree, [Change(status, path) for status, path in zip(out[::2], out[1::2])]


def _remove(worktree: Path, rel: str) -> None:
    """Delete a file and the folders it leaves empty, so a file may take a folder's place."""
    path = worktree / rel
    path.unlink()
    for parent in path.parents:
        if parent == worktree or any(parent.iterdir()):
            break
        parent.rmdir()


def refuse_removals(changes: list[Change], branch: str, allowed: bool, transient: tuple[str, ...] = ()) -> None:
    """Stop before a URL the branch serves today disappears.

    A page that moved leaves a redirect page at its old path (``redirect_from``
    or site.yaml ``redirects``), so its file is changed, not removed. Files in
    ``transient`` folders (a search index's chunks, named by their content) are
    no one's URL: they come and go with the pages.
    """
    removed = [f"/{c.path}" for c in changes if c.status == "D" and not is_kept(c.path, transient)]
    if removed and not allowed:
        raise SiteError(f"this publish would remove {len(removed)} URLs that {branch} serves today; "
                        f"give each a redirect (redirect_from in the page that replaces it, or "
                        f"site.yaml redirects), or pass --allow-removals:{_listing(removed)}")


class Git:
    """The real ``git`` command run in one folder; a failure is a SiteError quoting git."""

    def __init__(self, folder: Path):
        self.folder = folder

    def run(self, *args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
        try:
            return run_git(self.folder, *args, input=input)
        except GitError:
            raise SiteError("publishing needs the git command, and it is not installed") from None

    def __call__(self, *args: str, input: str | None = None) -> str:
        done = self.run(*args, input=input)
        if done.returncode:
            raise SiteError(f"git {args[0]} failed:{_said(done)}", self.folder)
        return done.stdout


class Repo:
    """The site's source repository: what publish asks of it and the few refs it moves."""

    def __init__(self, top: Path, site: Path | None = None):
        self.top = top
        self.git = Git(top)
        # Temporary worktrees of this site's publishes are named for it, so that the
        # next publish (holding the site's lock) knows the ones a killed one left.
        self.temp_prefix = f"sitegen-publish-{digest(str((site or top).resolve()))[:12]}-"

    @classmethod
    def of(cls, folder: Path) -> Repo:
        done = Git(folder).run("rev-parse", "--show-toplevel")
        if done.returncode:
            raise SiteError("not inside a git repository: publish commits the build of a source commit",
                            folder)
        return cls(Path(done.stdout.strip()), folder)

    def remove_leftovers(self) -> None:
        """Remove the worktrees and temporary folders that a killed publish of this site left."""
        temp = Path(tempfile.gettempdir()).resolve()
        for line in self.git("worktree", "list", "--porcelain").splitlines():
            path = line.removeprefix("worktree ")
            folder = Path(path).resolve().parent
            if line.startswith("worktree ") and folder.parent == temp and folder.name.startswith(self.temp_prefix):
                self.git.run("worktree", "unlock", path)
                self.git.run("worktree", "remove", "--force", "--force", path)
        for folder in temp.glob(self.temp_prefix + "*"):
            shutil.rmtree(folder, ignore_errors=True)
        self.git.run("worktree", "prune")

    def require_branch_name(self, branch: str) -> None:
        if self.git.run("check-ref-format", "--branch", branch).returncode:
            raise SiteError(f"{branch!r} is not a valid branch name")

    def head_commit(self) -> str:
        done = self.git.run("rev-parse", "--verify", "--quiet", "HEAD^{commit}")
        if done.returncode:
            raise SiteError("the source repository has no commit yet: commit the site first", self.top)
        return done.stdout.strip()

    def subject(self, commit: str) -> str:
        return self.git("log", "-1", "--format=%s", commit).strip()

    def uncommitted(self, config: Config) -> list[str]:
        """Changed or untracked files of the site, leaving out its own build products.

        ``--no-optional-locks`` keeps ``git status`` from refreshing the author's index.
        """
        root = config.root.resolve()
        products = [f":(exclude){p.resolve().relative_to(root).as_posix()}"
                    for p in (config.output_dir, config.state_dir) if p.resolve().is_relative_to(root)]
        out = Git(root)("--no-optional-locks", "status", "--porcelain", "-z", "--untracked-files=all",
                        "--", ".", *products)
        entries = iter(out.split("\0")[:-1])
        paths = []
        for entry in entries:
            paths.append(entry[3:])
            if entry[0] in "RC":
                next(entries, None)  # a rename's second field is its old path
        return paths

    def refuse_checked_out(self, branch: str) -> None:
        """Publish moves the local branch, which must not pull the files of a checkout along."""
        checkout = None
        for line in self.git("worktree", "list", "--porcelain").splitlines():
            if line.startswith("worktree "):
                checkout = line.removeprefix("worktree ")
            elif line == f"branch refs/heads/{branch}":
                raise SiteError(f"{branch} is checked out at {checkout}; publish updates that branch, "
                                f"so switch that checkout to another branch first")

    def remotes(self) -> list[str]:
        return self.git("remote").split()

    def remote_tip(self, remote: str, branch: str) -> str | None:
        """The remote branch's tip as the remote reports it now; None when it has no such branch."""
        listed = self.git("ls-remote", "--heads", remote, f"refs/heads/{branch}").split()
        return listed[0] if listed else None

    def fetch_branch(self, remote: str, branch: str) -> str | None:
        """The remote branch's tip, fetched; None when the remote has no such branch."""
        if self.remote_tip(remote, branch) is None:
            return None
        self.git("fetch", "--quiet", "--no-tags", remote, f"refs/heads/{branch}")
        return self.git("rev-parse", "--verify", "FETCH_HEAD^{commit}").strip()

    def local_branch(self, branch: str) -> str | None:
        done = self.git.run("rev-parse", "--verify", "--quiet", f"refs/heads/{branch}^{{commit}}")
        return done.stdout.strip() if done.returncode == 0 else None

    def newer_of(self, local: str | None, remote: str | None, names: str) -> str | None:
        """The tip to build on: whichever contains the other; diverged tips are refused."""
        if local is None or remote is None or local == remote:
            return remote or local
        if self.is_ancestor(local, remote):
            return remote
        if self.is_ancestor(remote, local):
            return local
        raise SiteError(f"{names} have diverged; publish never drops commits: reconcile them (for "
                        f"example reset the local branch to the remote one) and publish again")

    def is_ancestor(self, older: str, newer: str) -> bool:
        return self.git.run("merge-base", "--is-ancestor", older, newer).returncode == 0

    @contextmanager
    def temporary_worktree(self, base: str | None) -> Iterator[Path]:
        """A detached worktree at ``base`` (empty when None), removed whatever happens."""
        folder = Path(tempfile.mkdtemp(prefix=self.temp_prefix))
        path = folder / "branch"
        try:
            if base is not None:
                self.git("worktree", "add", "--quiet", "--detach", str(path), base)
            else:  # an orphan: no files checked out, an empty index
                self.git("worktree", "add", "--quiet", "--detach", "--no-checkout", str(path), "HEAD")
            yield path
        finally:
            self.git.run("worktree", "remove", "--force", str(path))
            shutil.rmtree(folder, ignore_errors=True)
            self.git.run("worktree", "prune")

    def commit_tree(self, tree: str, parent: str | None, message: str) -> str:
        parents = ["-p", parent] if parent else []
        return self.git("commit-tree", tree, *parents, "-F", "-", input=message).strip()

    def push(self, remote: str, commit: str, branch: str, expected: str | None) -> bool:
        """Push without force; False when refused because the remote branch moved from ``expected``.

        Whether git calls that "rejected" or "failed to lock" depends on when it
        moved, so the remote is asked where its branch is now.
        """
        done = self.git.run("push", "--porcelain", remote, f"{commit}:refs/heads/{branch}")
        if done.returncode == 0:
            return True
        if self.remote_tip(remote, branch) != expected:
            return False
        raise SiteError(f"git push to {remote} failed:{_said(done)}", self.top)

    def update_branch(self, branch: str, commit: str, expected: str | None) -> None:
        """Move the local branch to the new commit, only from the tip publish started from."""
        self.git("update-ref", "-m", "sitegen publish", f"refs/heads/{branch}", commit, expected or "")


def _listing(items: list[str], most: int = 50) -> str:
    """Items one per line under a message, the first ``most`` of them."""
    more = f"\n  ... and {len(items) - most} more" if len(items) > most else ""
    return "".join(f"\n  {item}" for item in items[:most]) + more


def _said(done: subprocess.CompletedProcess[str]) -> str:
    """What git said about a failure, indented under our message."""
    text = done.stderr.strip() or done.stdout.strip()
    return "".join(f"\n  {line}" for line in text.splitlines())
