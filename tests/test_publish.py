"""``sitegen publish`` against a real bare repository as the remote.

Each test builds the small fixture site (tests/data/basic plus the repo's
templates) in a git repository made in tmp_path, publishes it with the real
``git``, and inspects what the bare remote holds.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from pathlib import Path

import pytest
import yaml

from conftest import REPO, copy_site
from generator.cli import main
from generator.errors import SiteError
from generator.layout import OUTPUT_MARKER
from generator.publish import PublishOptions, publish

BRANCH = "asf-site"


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


class Author:
    """The author's site repository, its bare remote, and a second clone that moves the remote."""

    def __init__(self, tmp_path: Path):
        self.root = tmp_path / "site"
        self.remote = tmp_path / "remote.git"
        self.other = tmp_path / "other"
        copy_site(self.root, "basic")
        (self.root / ".gitignore").write_text("/_site/\n/.sitegen/\n")
        git(tmp_path, "init", "--quiet", "--bare", str(self.remote))
        git(self.root, "init", "--quiet", "--initial-branch", "main")
        git(self.root, "remote", "add", "origin", str(self.remote))
        self.commit("The site")
        git(self.root, "push", "--quiet", "origin", "main")

    def git(self, *args: str) -> str:
        return git(self.root, *args)

    def write(self, rel: str, text: str) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def commit(self, message: str = "Edit") -> str:
        self.git("add", "--all")
        self.git("commit", "--quiet", "--message", message)
        return self.git("rev-parse", "HEAD").strip()

    def publish(self, **options) -> object:
        return publish(self.root, PublishOptions(**options))

    def built(self) -> dict[str, bytes]:
        """The built site's files: the output folder's, sitegen's marker aside (never published)."""
        out = self.root / "_site"
        return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*")
                if p.is_file() and p.name != OUTPUT_MARKER}

    # The remote, as anyone fetching it sees it.
    def tip(self, branch: str = BRANCH) -> str | None:
        listed = git(self.remote, "for-each-ref", "--format=%(objectname)", f"refs/heads/{branch}")
        return listed.strip() or None

    def files(self, rev: str = BRANCH) -> set[str]:
        return set(git(self.remote, "ls-tree", "-r", "--name-only", rev).splitlines())

    def show(self, path: str, rev: str = BRANCH) -> bytes:
        return subprocess.run(["git", "show", f"{rev}:{path}"], cwd=self.remote, check=True,
                              capture_output=True).stdout

    def push_from_other(self, files: dict[str, str], message: str = "Someone else's commit") -> str:
        """Commit ``files`` onto the remote branch from another clone, as a colleague would."""
        if not self.other.exists():
            git(self.root.parent, "clone", "--quiet", "--no-checkout", str(self.remote), str(self.other))
        if self.tip():
            git(self.other, "fetch", "--quiet", "origin")
            git(self.other, "checkout", "--quiet", "-B", BRANCH, f"origin/{BRANCH}")
        else:
            git(self.other, "checkout", "--quiet", "--orphan", BRANCH)
            git(self.other, "rm", "-r", "--cached", "--quiet", "--ignore-unmatch", ".")
        for rel, text in files.items():
            path = self.other / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        git(self.other, "add", "--all")
        git(self.other, "commit", "--quiet", "--message", message)
        git(self.other, "push", "--quiet", "origin", BRANCH)
        return git(self.other, "rev-parse", "HEAD").strip()


@pytest.fixture(autouse=True)
def hermetic_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No machine-wide git settings; a known identity; temporary folders inside tmp_path."""
    config = tmp_path / "gitconfig"
    config.write_text("[user]\n\tname = Test Author\n\temail = author@example.org\n"
                      "[init]\n\tdefaultBranch = main\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    return scratch


@pytest.fixture
def author(tmp_path: Path) -> Author:
    return Author(tmp_path)


def assert_no_worktree_left(author: Author, scratch: Path) -> None:
    assert author.git("worktree", "list", "--porcelain").count("worktree ") == 1
    assert list(scratch.iterdir()) == []


def test_first_publish_creates_an_orphan_branch_holding_the_build(author: Author, hermetic_git: Path):
    source = author.git("rev-parse", "HEAD").strip()

    result = author.publish()

    built = author.built()
    assert author.files() == set(built) | {".asf.yaml"}
    assert (author.root / "_site" / OUTPUT_MARKER).is_file()     # in the folder, not on the branch
    assert author.show("about.html") == built["about.html"]
    tip = author.tip()
    assert result.commit == tip and result.pushed
    assert git(author.remote, "rev-list", "--parents", "-n", "1", tip).split() == [tip]  # an orphan
    message = git(author.remote, "log", "-1", "--format=%B", tip)
    assert re.match(r"Build at \w{3} \w{3} \d\d \d\d:\d\d:\d\d UTC \d{4}\n", message)
    assert source in message
    assert yaml.safe_load(author.show(".asf.yaml")) == {"publish": {"whoami": BRANCH}}
    assert author.git("rev-parse", BRANCH).strip() == tip  # the local branch follows
    assert_no_worktree_left(author, hermetic_git)


def test_publish_without_change_makes_no_commit_and_says_so(author: Author, capsys):
    assert main(["-C", str(author.root), "publish"]) == 0
    first = author.tip()
    capsys.readouterr()
    author.write("NOTES.txt", "not part of the site\n")
    author.commit("A source commit that changes no page")

    assert main(["-C", str(author.root), "publish"]) == 0

    assert "nothing changed" in capsys.readouterr().out
    assert author.tip() == first


def test_an_edit_gives_one_commit_with_only_the_changed_files(author: Author):
    author.publish()
    before = author.built()
    post = author.root / "content/posts/2021-01-02-third.md"
    post.write_text(post.read_text().replace("Third body.", "Third body, edited."))
    author.commit("Edit the third post")

    result = author.publish()

    after = author.built()
    changed = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    assert "2021/01/02/third.html" in changed and "about.html" not in changed
    assert git(author.remote, "rev-list", "--count", BRANCH).strip() == "2"
    diff = git(author.remote, "diff-tree", "-r", "--name-only", f"{BRANCH}~1", BRANCH).split()
    assert set(diff) == changed
    status = {p: "M" if p in before and p in after else "A" if p in after else "D" for p in changed}
    assert {(c.status, c.path) for c in result.changes} == set((s, p) for p, s in status.items())
    # Only the search index's chunks (named by their content) come and go, and no --allow-removals
    # is needed for them: they are no one's URL.
    assert {p for p, s in status.items() if s != "M"} and all(
        p.startswith("pagefind/") for p, s in status.items() if s != "M")


def test_kept_paths_survive_every_publish(author: Author):
    kept = {"docs/index.html": "<p>docs published elsewhere</p>\n",
            "docs/v1/api.html": "<p>v1</p>\n",
            "javadoc/index.html": "<p>javadoc</p>\n",
            ".asf.yaml": "publish:\n  whoami: asf-site\n  subdir: site\n"}
    author.push_from_other({**kept, "old-theme.css": "body {}\n"})
    with (author.root / "site.yaml").open("a") as f:
        f.write("publish:\n  keep: [.asf.yaml, docs, javadoc/]\n")
    author.commit("Keep javadoc too")

    author.publish(allow_removals=True)  # old-theme.css is the branch's, not kept: replaced
    post = author.root / "content/posts/2021-01-02-third.md"
    post.write_text(post.read_text() + "\nMore.\n")
    author.commit()
    author.publish()

    assert author.files() == set(author.built()) | set(kept)
    for path, text in kept.items():
        assert author.show(path).decode() == text
    history = git(author.remote, "log", "--format=%H", BRANCH, "--", *kept).split()
    assert len(history) == 1  # only the colleague's commit ever touched them


def test_a_build_that_writes_a_kept_path_is_refused(author: Author):
    with (author.root / "site.yaml").open("a") as f:
        f.write("publish:\n  keep: [tags]\n")
    author.commit()

    with pytest.raises(SiteError, match=r"the build produces tags/\S+, but publish\.keep"):   # a page or a feed
        author.publish()
    assert author.tip() is None


def test_a_removed_page_is_refused_then_removed_with_allow_removals(author: Author, hermetic_git: Path):
    author.publish()
    published = author.tip()
    author.git("rm", "--quiet", "content/pages/about.md")
    author.commit("Drop the about page")

    with pytest.raises(SiteError, match="--allow-removals") as refused:
        author.publish()
    assert "/about.html" in str(refused.value)
    assert author.tip() == published
    assert_no_worktree_left(author, hermetic_git)

    result = author.publish(allow_removals=True)
    assert "about.html" not in author.files()
    assert ("D", "about.html") in {(c.status, c.path) for c in result.changes}


@pytest.mark.parametrize("how", ["redirect_from", "site.yaml"])
def test_a_moved_page_with_a_redirect_is_not_a_removal(author: Author, how: str):
    author.publish()
    author.git("mv", "content/pages/about.md", "content/pages/about-us.md")
    if how == "redirect_from":
        page = author.root / "content/pages/about-us.md"
        page.write_text(page.read_text().replace("title: About",
                                                 "title: About\nredirect_from: [/about.html]"))
    else:
        with (author.root / "site.yaml").open("a") as f:
            f.write("redirects:\n  /about.html: /about-us.html\n")
    author.commit("Rename the about page")

    author.publish()

    assert {"about.html", "about-us.html"} <= author.files()
    old = author.show("about.html").decode()
    assert 'http-equiv="refresh"' in old and "/about-us.html" in old


def install_pre_push_hook(author: Author, times: int) -> None:
    """Make a colleague's commit land on the remote branch while our push is under way."""
    hook = author.root / ".git" / "hooks" / "pre-push"
    count = author.root.parent / "moves"
    hook.write_text(f"""#!/bin/sh
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_PREFIX
echo x >> "{count}"
[ $(($(wc -l < "{count}"))) -gt {times} ] && exit 0
cd "{author.other}" || exit 1
echo "<p>$(($(wc -l < "{count}")))</p>" > docs/latest.html
git add --all && git commit --quiet -m "A colleague's docs" && git push --quiet origin {BRANCH}
""")
    hook.chmod(0o755)


def test_a_remote_that_moved_gets_the_commit_made_again_on_its_new_tip(author: Author):
    author.publish()
    author.push_from_other({"docs/index.html": "<p>docs</p>\n"})
    install_pre_push_hook(author, times=1)
    post = author.root / "content/posts/2021-01-02-third.md"
    post.write_text(post.read_text() + "\nMore.\n")
    author.commit()

    result = author.publish()

    assert result.retried and result.pushed
    moved = git(author.other, "rev-parse", "HEAD").strip()
    tip = author.tip()
    assert git(author.remote, "rev-parse", f"{tip}^").strip() == moved  # on top, nothing forced
    assert author.show("docs/latest.html") == b"<p>1</p>\n"
    assert author.show("2021/01/02/third.html") == author.built()["2021/01/02/third.html"]
    assert author.git("rev-parse", BRANCH).strip() == tip


def test_a_remote_that_keeps_moving_stops_the_publish_without_force(author: Author, hermetic_git: Path):
    author.publish()
    author.push_from_other({"docs/index.html": "<p>docs</p>\n"})
    install_pre_push_hook(author, times=2)
    post = author.root / "content/posts/2021-01-02-third.md"
    post.write_text(post.read_text() + "\nMore.\n")
    author.commit()

    with pytest.raises(SiteError, match="rejected the push to asf-site twice.*Nothing was forced"):
        author.publish()

    assert author.tip() == git(author.other, "rev-parse", "HEAD").strip()  # the colleague's, kept
    assert author.show("docs/latest.html") == b"<p>2</p>\n"
    assert_no_worktree_left(author, hermetic_git)


def test_the_authors_checkout_is_untouched(author: Author, hermetic_git: Path):
    author.git("checkout", "--quiet", "-b", "feature")
    about = author.root / "content/pages/about.md"
    about.write_text(about.read_text() + "\nUncommitted words.\n")
    author.write("content/pages/staged.md", "---\ntitle: Staged\n---\nStaged.\n")
    author.git("add", "content/pages/staged.md")
    author.write("scratch.txt", "untracked\n")
    os.utime(author.root / "templates/home.html", (1e9, 1e9))  # stale stat data a status would refresh

    def state() -> tuple:
        return (author.git("rev-parse", "HEAD"), author.git("symbolic-ref", "HEAD"),
                (author.root / ".git" / "index").read_bytes(),
                author.git("--no-optional-locks", "status", "--porcelain"),
                about.read_bytes(), about.stat().st_mtime_ns, (author.root / "scratch.txt").read_bytes(),
                author.git("stash", "list"))

    before = state()
    author.publish(allow_dirty=True)
    author.publish(allow_dirty=True)  # nothing changed: no commit

    assert state() == before
    assert "Uncommitted words" in author.show("about.html").decode()
    assert "with uncommitted changes" in git(author.remote, "log", "-1", "--format=%B", BRANCH)
    assert_no_worktree_left(author, hermetic_git)


def test_a_dirty_tree_is_refused(author: Author):
    about = author.root / "content/pages/about.md"
    about.write_text(about.read_text() + "\nNot committed.\n")

    with pytest.raises(SiteError, match=r"(?s)uncommitted changes.*--allow-dirty.*content/pages/about\.md"):
        author.publish()
    assert author.tip() is None

    author.git("checkout", "--", "content/pages/about.md")
    author.write("content/posts/2022-02-02-new.md", "---\ntitle: Untracked\n---\nNew.\n")
    with pytest.raises(SiteError, match=r"content/posts/2022-02-02-new\.md"):
        author.publish()
    assert author.tip() is None


def test_a_failed_build_publishes_nothing(author: Author):
    author.write("content/pages/broken.md", "---\nlayout: page\n---\nNo title.\n")
    author.commit("Break a page")

    with pytest.raises(SiteError, match="title") as failed:
        author.publish()
    assert "broken.md" in str(failed.value)
    assert author.tip() is None


def test_a_site_that_fails_its_check_is_not_published(author: Author, capsys):
    about = author.root / "content/pages/about.md"
    about.write_text(about.read_text() + "\nSee [the roadmap](/roadmap.html).\n")
    author.commit("Link to a page that does not exist")

    assert main(["-C", str(author.root), "publish"]) == 1

    err = capsys.readouterr().err
    line = next(n for n, text in enumerate((author.root / "_site/about.html").read_text().splitlines(), 1)
                if "roadmap" in text)
    assert "fails its check (checked" in err and "1 error in 1 file" in err
    assert f"about.html:{line}: missing page -> /roadmap.html" in err
    assert author.tip() is None and author.git("branch", "--list", BRANCH) == ""


def test_dry_run_lists_the_changes_and_commits_nothing(author: Author, capsys):
    author.publish()
    published = author.tip()
    post = author.root / "content/posts/2021-01-02-third.md"
    post.write_text(post.read_text() + "\nMore.\n")
    author.commit()

    assert main(["-C", str(author.root), "publish", "--dry-run"]) == 0

    out = capsys.readouterr().out
    assert "M 2021/01/02/third.html" in out and "about.html" not in out
    assert author.tip() == published
    assert author.git("rev-parse", BRANCH).strip() == published


def test_no_push_commits_locally_and_a_later_publish_pushes_it(author: Author):
    result = author.publish(push=False, branch="gh-pages", message="Site for review")

    assert author.tip("gh-pages") is None and not result.pushed
    local = author.git("rev-parse", "gh-pages").strip()
    assert local == result.commit
    assert author.git("log", "-1", "--format=%s", "gh-pages").strip() == "Site for review"
    assert yaml.safe_load(author.git("show", "gh-pages:.asf.yaml")) == {"publish": {"whoami": "gh-pages"}}

    later = author.publish(branch="gh-pages")
    assert later.commit is None and later.pushed
    assert author.tip("gh-pages") == local


def test_an_already_built_folder_is_published_as_it_is(author: Author, tmp_path: Path):
    built = tmp_path / "prebuilt"
    (built / "sub").mkdir(parents=True)
    (built / "index.html").write_text("<p>hand made</p>\n")
    (built / "sub" / "page.html").write_text("<p>page</p>\n")
    seen = []

    author.publish(built=built)
    publish(author.root, PublishOptions(built=built), check=seen.append)

    assert author.files() == {"index.html", "sub/page.html", ".asf.yaml"}
    assert seen == [built]
    assert not (author.root / "_site").exists()


def test_the_ci_workflow_tests_before_publishing_and_keeps_pull_request_builds():
    workflow = yaml.safe_load((REPO / ".github/workflows/publish.yml").read_text())
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as true
    assert triggers["push"]["branches"] == ["main"] and "pull_request" in triggers
    jobs = workflow["jobs"]

    def steps(job: str) -> list[str]:
        return [step.get("run") or step["uses"] for step in jobs[job]["steps"]]

    published = steps("publish")
    assert jobs["publish"]["if"] == "github.event_name == 'push'"
    assert jobs["publish"]["permissions"] == {"contents": "write"}
    assert published[0] == "actions/checkout@v4" and jobs["publish"]["steps"][0]["with"]["fetch-depth"] == 0
    publishing = next(i for i, s in enumerate(published) if "sitegen publish" in s)
    assert published.index("make test") < publishing
    assert "user.email" in published[publishing] and "--force" not in published[publishing]

    reviewed = steps("pull-request")
    assert jobs["pull-request"]["if"] == "github.event_name == 'pull_request'"
    assert "make site" in reviewed and "make test" in reviewed and "actions/upload-artifact@v4" in reviewed
    assert [s for s in reviewed if "sitegen publish" in s] == [".venv/bin/sitegen publish --dry-run"]

    # The caches of parsed documents and tutorial runs outlive each run: restored before the
    # build (the newest set), saved after it, whatever happened.
    for job, build in (("publish", publishing), ("pull-request", reviewed.index("make site"))):
        found = steps(job)
        restore, save = found.index("actions/cache/restore@v4"), found.index("actions/cache/save@v4")
        assert restore < build < save and jobs[job]["steps"][save]["if"] == "always()"
        for step in (restore, save):
            assert jobs[job]["steps"][step]["with"]["path"] == ".sitegen/cache"
