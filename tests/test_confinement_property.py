"""Property: no sequence of content operations makes a build touch anything outside its output folder.

Posts come and go with hostile ``redirect_from`` values (``..``, absolute,
percent-encoded), tags and permalinks; site.yaml gains redirects; symbolic
links appear in ``content/``. After every build, every file and folder outside
``_site/`` and ``.sitegen/`` (a sibling "victim" folder and the site's own
sources) is exactly as the operations left it, and the build either succeeded
or failed with one line.

The reads' property: whatever path a post's Liquid, a source listing, a docs archive
or a static folder names, a canary outside the site is never opened, changed or
published, nor are the site's ``.git/`` and dot-files.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings, strategies as st

from generator.cli import main

from canary import SECRET, Canary
from conftest import copy_site

HOSTILE_URLS = ["/../../victim/keep.html", "/..", "/../", "/a/../../../victim/new.html", "/./../victim/x.html",
                "/%2e%2e/%2e%2e/victim/keep.html", "/..%2f..%2fvictim/keep.html", "//victim/keep.html",
                "/../_site/../../victim/keep.html", "/old/page.html", "/old/", "/2019/03/18/first-post.html",
                "/..\\..\\victim\\keep.html", "/content/pages/about.md", "/../content/pages/about.md"]
PERMALINKS = ["/../../victim/:slug.html", "/:year/../../../victim/:slug.html", "/x/./:slug.html",
              "/%2e%2e/:slug.html", "/:slug/", "/posts/:slug.html", "/../site.yaml"]
TAGS = ["..", "../..", "/", "../../victim", "C++", "%2e%2e", "ok", ""]

urls = st.one_of(st.sampled_from(HOSTILE_URLS), st.text(alphabet="/.%a\\", min_size=1, max_size=8).map(lambda s: "/" + s))
add_post = st.tuples(st.just("add"), st.integers(0, 3), st.lists(urls, max_size=2),
                     st.lists(st.sampled_from(TAGS), max_size=2), st.none() | st.sampled_from(PERMALINKS))
remove_post = st.tuples(st.just("remove"), st.integers(0, 3))
site_redirect = st.tuples(st.just("redirect"), urls)
symlink = st.tuples(st.just("link"), st.sampled_from(["loop", "outside-folder", "outside-file", "inside"]))
operations = st.lists(st.one_of(add_post, remove_post, site_redirect, symlink), min_size=1, max_size=6)


def snapshot(top: Path, skip: tuple[Path, ...]) -> dict[str, tuple]:
    """Everything under ``top`` but ``skip``: links by target, files by bytes and mtime, folders."""
    found = {}
    for folder, dirs, files in os.walk(top):
        here = Path(folder)
        dirs[:] = [d for d in dirs if here / d not in skip]
        for name in dirs + files:
            path = here / name
            rel = path.relative_to(top).as_posix()
            if path.is_symlink():
                found[rel] = ("link", os.readlink(path))
            elif path.is_dir():
                found[rel] = ("dir",)
            else:
                found[rel] = ("file", path.read_bytes(), path.stat().st_mtime_ns)
    return found


def apply(site: Path, victim: Path, op: tuple) -> None:
    posts = site / "content/posts"
    if op[0] == "add":
        _, n, redirects, tags, permalink = op
        lines = [f"title: Post {n}", f"redirect_from: {redirects!r}", f"tags: {tags!r}"]
        if permalink:
            lines.append(f"permalink: {permalink!r}")
        (posts / f"2020-01-0{n + 1}-post-{n}.md").write_text("---\n" + "\n".join(lines) + "\n---\nBody.\n")
    elif op[0] == "remove":
        (posts / f"2020-01-0{op[1] + 1}-post-{op[1]}.md").unlink(missing_ok=True)
    elif op[0] == "redirect":
        with (site / "site.yaml").open("a") as f:
            f.write(f"redirects: {{{op[1]!r}: /about.html}}\n" if "redirects:" not in (site / "site.yaml").read_text()
                    else "")
    else:
        target = {"loop": "../posts", "outside-folder": str(victim), "outside-file": str(victim / "keep.html"),
                  "inside": "2019-03-18-first-post.md"}[op[1]]
        name = posts / (f"{op[1]}.md" if op[1] in ("outside-file", "inside") else op[1])
        if not name.is_symlink():
            name.symlink_to(target)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(operations)
def test_no_content_operation_touches_anything_outside_the_output(ops):
    with tempfile.TemporaryDirectory() as tmp:
        top = Path(tmp)
        victim = top / "victim"
        (victim / "sub").mkdir(parents=True)
        (victim / "keep.html").write_text("precious\n")
        (victim / "sub/also.html").write_text("also\n")
        site = copy_site(top / "site", "basic")
        skip = (site / "_site", site / ".sitegen")
        for op in [("build",)] + ops:
            if op[0] != "build":
                apply(site, victim, op)
            before = snapshot(top, skip)
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(["-C", str(site), "build"])
            assert snapshot(top, skip) == before, (op, err.getvalue())
            assert code in (0, 1), (op, code)
            if code:
                message = err.getvalue().strip()
                assert message.startswith("error: ") and "\n" not in message, (op, message)


# --- Reads: every path content or site.yaml names is read only from the site ---------------------

READ_PATHS = ["../../../victim/canary", "../../victim/canary.yml", "{victim}/canary", "{victim}", "../victim",
              ".git/config", ".env", ".sitegen/lock", "linked", "linked/canary.yml", "gitlink/config",
              "content/../../victim/canary.md", "%2e%2e/%2e%2e/victim", "..", ".", "", "/", "site.yaml"]
read_paths = st.one_of(st.sampled_from(READ_PATHS), st.text(alphabet="./%ab\\", max_size=12))


def try_read(site: Path, kind: str, path: str) -> None:
    """Make the site read ``path`` one way: a post's Liquid, a listing's front matter or site.yaml."""
    page = site / "content/pages/probe.md"
    page.unlink(missing_ok=True)
    body = {"data": f"{{{{ site.data[{path!r}] }}}}", "include": f"{{% include {path} %}}",
            "link": f"{{% link {path} %}}", "source": "Listed."}.get(kind)
    if body is not None:
        front = f"layout: source\nsource: {path!r}\n" if kind == "source" else ""
        page.write_text(f"---\ntitle: Probe\n{front}---\n{body}\n")
    config = (site / "site.yaml.orig").read_text()
    if kind == "archive":
        config += f"versions:\n  - {{name: dev, worktree: true, default: true}}\n  - {{name: old, archive: {path!r}}}\n"
    elif kind == "static":
        config += f"static: [{path!r}]\n"
    (site / "site.yaml").write_text(config)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(read_paths)
@example("../../../victim/canary").via("the data key of issue 39.2")
@example(".git/config").via("the listing of issue 39.2")
@example("linked").via("the archive of issue 39.2")
def test_no_path_a_site_names_reads_or_publishes_anything_outside_it(path):
    """Each way a site names a file to read, given one hostile path: the build succeeds or fails
    with one line; the canary outside is unopened and unchanged, and no secret is published
    (the .git/ and .sitegen/ secrets never; .env's only where site.yaml itself names it)."""
    with tempfile.TemporaryDirectory() as tmp:
        top = Path(tmp)
        canary = Canary(top / "victim")
        site = copy_site(top / "site", "basic")
        (site / ".git").mkdir()
        (site / ".git/config").write_text(f"token = {SECRET}\n")
        (site / ".env").write_text("TOKEN=ENV-SECRET\n")
        (site / "content/includes").mkdir()
        (site / "linked").symlink_to(canary.folder)
        (site / "gitlink").symlink_to(".git")
        (site / "site.yaml.orig").write_text((site / "site.yaml").read_text())
        path = path.format(victim=canary.folder)
        for kind in ("data", "include", "link", "source", "archive", "static"):
            try_read(site, kind, path)
            out, err = io.StringIO(), io.StringIO()
            with canary.watch(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(["-C", str(site), "build"])
            assert code in (0, 1), (kind, path, code)
            if code:
                message = err.getvalue().strip()
                assert message.startswith("error: ") and "\n" not in message, (kind, path, message)
            canary.assert_untouched(site / "_site")
            if kind not in ("archive", "static"):
                published = b"".join(p.read_bytes() for p in (site / "_site").rglob("*") if p.is_file())
                assert b"ENV-SECRET" not in published, (kind, path)
