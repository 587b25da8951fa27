"""Documents parsed and files made in worker processes give what one process gives: the same
files, byte for byte, and the same dependency records, so that incremental builds stay right
(generator/parallel.py, the engine's load and make stages)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
from datetime import datetime, timezone
from functools import partial
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator import parallel
from generator.engine import loading, scanning
from generator.build import BuildOptions, Engine
from generator.cli import main
from generator.errors import SiteError
from generator.files import Files
from generator.outputs import Derived, PlanContext, Planner, Registry
from generator.outputs.registry import default_registry
from generator.plan import Plan
from generator.state import BuildState
from conftest import REPO, copy_site
from test_incremental import SiteModel, assert_same_as_full_build, files, full_build, make_site, operations

NOW = datetime(2030, 1, 1, tzinfo=timezone.utc)
OPTIONS = BuildOptions(now=NOW)
POSTS = 70        # above parallel.PARALLEL_THRESHOLD
MADE_BY = 80      # files, as many as a worker's share of the work is sure to include one


class WhoMadeIt(Planner):
    """``made-by/N.txt``: the process that made it, to see that workers did."""

    name = "made-by"

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        for n in range(MADE_BY):
            plan.add(f"made-by/{n}.txt", "test made-by", partial(lambda: str(os.getpid())), ("made-by", n))


class WhoIndexedIt(Derived):
    """``indexed-by/N.txt``, derived from ``made-by/N.txt`` (a group each, as a search index's
    parts): the process that made it, and the bytes it was made from."""

    name = "indexed-by"

    def group(self, config, path: str) -> str | None:
        return path.removeprefix("made-by/").removesuffix(".txt") if path.startswith("made-by/") else None

    def make(self, ctx: PlanContext, group: str, files) -> Files:
        out = Files()
        out.add(f"indexed-by/{group}.txt", f"{os.getpid()} from {files[f'made-by/{group}.txt'].decode()}", "test")
        return out


class WhoIndexedAPart(Derived):
    """``parts-by/N.txt``, derived from ``made-by/`` in six parts (as a small site's search index:
    32 parts at 1,000 posts, each a Pagefind process's work): the process that made it."""

    name = "parts-by"
    PARTS = 6

    def group(self, config, path: str) -> str | None:
        return str(int(path.removeprefix("made-by/").removesuffix(".txt")) % self.PARTS) \
            if path.startswith("made-by/") else None

    def make(self, ctx: PlanContext, group: str, files) -> Files:
        out = Files()
        out.add(f"parts-by/{group}.txt", f"{os.getpid()} from {len(files)} files", "test")
        return out


def registry() -> Registry:
    return Registry([*default_registry(), WhoMadeIt(), WhoIndexedIt()])


def many_posts(site: Path) -> Path:
    for i in range(POSTS):
        tags = ", ".join(f"t{(i + k) % 9}" for k in range(i % 3))
        (site / f"content/posts/2020-{1 + i // 28:02d}-{1 + i % 28:02d}-post-{i}.md").write_text(
            f"---\ntitle: \"Post {i}: 'quoted' -- dashed\"\ntags: [{tags}]\ncategories: [c{i % 4}]\n---\n"
            f"Paragraph {i} with `code`, *emphasis* and [a link](/about.html).\n\n"
            f"```python\ndef f{i}(x):\n    return x * {i}  # comment\n```\n\n"
            f"## Section {i}\n\nMore words about post {i}.\n")
    (site / "content/pages/listing.md").write_text(
        "---\ntitle: Listing\n---\n{% for post in site.posts limit: 3 %}- {{ post.title }}\n{% endfor %}"
        "{% no_such_tag %}\n")
    with (site / "site.yaml").open("a") as config:
        config.write("liquid: {unknown: warning}\n")
    return site


FRESH = "SITEGEN_TEST_FRESH_PROCESS"


def rerun_where_forking_is_safe(request) -> bool:
    """Whether this test was run again in a fresh interpreter (and passed there): a module run
    before it in this worker left threads (Dask's, fsspec's), so this process must not fork, and
    the build would do all its work here, proving nothing about workers."""
    if threading.active_count() == 1:
        return False
    assert not os.environ.get(FRESH), f"a fresh interpreter runs threads: {threading.enumerate()}"
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", request.node.nodeid],
                         cwd=REPO, env={**os.environ, FRESH: "1"}, capture_output=True, text=True, timeout=1800)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    return True


def made_by(site: Path, folder: str = "made-by") -> set[int]:
    return {int(p.read_text().split()[0]) for p in (site / "_site" / folder).iterdir()}


def records(site: Path) -> tuple:
    """The state's records, less what names the process or the moment (stamps, made-by/)."""
    state = BuildState.load(site / ".sitegen/state.msgpack")
    records = state.records
    outputs = {path: (r.inputs, r.reads, r.digest) for path, r in records.outputs.items()
               if not path.startswith(("made-by/", "indexed-by/"))}
    return outputs, records.digests, records.documents, records.order, state.planned, state.extra


def test_workers_make_and_record_what_one_process_does(tmp_path, monkeypatch, capsys, request):
    if rerun_where_forking_is_safe(request):
        return
    forked, here = (many_posts(copy_site(tmp_path / name, "basic")) for name in ("forked", "here"))
    assert parallel.workers() > 1 and parallel.can_fork(POSTS), "this test needs two cores and no threads"
    result = Engine(forked, OPTIONS, registry()).build()
    with monkeypatch.context() as patch:
        patch.setattr(parallel, "PARALLEL_THRESHOLD", 10 ** 9)
        patch.setattr(parallel, "HEAVY_THRESHOLD", 10 ** 9)
        alone = Engine(here, OPTIONS, registry()).build()
    assert os.getpid() not in made_by(forked)          # made in the workers (which of them: as they came)
    assert made_by(here) == {os.getpid()}
    assert os.getpid() not in made_by(forked, "indexed-by") and made_by(here, "indexed-by") == {os.getpid()}
    indexed = (forked / "_site/indexed-by/7.txt").read_text().split(" from ")
    assert indexed[1] == (forked / "_site/made-by/7.txt").read_text()
    ignored = ("made-by", "indexed-by")
    assert files(forked / "_site", ignore=ignored) == files(here / "_site", ignore=ignored)
    assert records(forked) == records(here)
    assert result.documents == alone.documents and result.documents.parsed > POSTS
    warning = "content/pages/listing.md:5: warning: Liquid: unexpected tag 'no_such_tag' left out"
    assert result.warnings == alone.warnings and warning in result.warnings
    assert not (forked / ".sitegen/staging").exists()


def test_a_few_derived_groups_are_made_by_workers(tmp_path, monkeypatch, request):
    """A search index's parts are heavy (each a Pagefind process's work): a few dozen of them,
    below the threshold of pages or documents, are worth the workers, one part at a time."""
    if rerun_where_forking_is_safe(request):
        return
    assert WhoIndexedAPart.PARTS < parallel.PARALLEL_THRESHOLD and parallel.can_fork(WhoIndexedAPart.PARTS, heavy=True)
    forked, here = (copy_site(tmp_path / name, "basic") for name in ("forked", "here"))
    Engine(forked, OPTIONS, Registry([*default_registry(), WhoMadeIt(), WhoIndexedAPart()])).build()
    with monkeypatch.context() as patch:
        patch.setattr(parallel, "HEAVY_THRESHOLD", 10 ** 9)
        Engine(here, OPTIONS, Registry([*default_registry(), WhoMadeIt(), WhoIndexedAPart()])).build()
    assert os.getpid() not in made_by(forked, "parts-by")
    assert made_by(here, "parts-by") == {os.getpid()}
    ignored = ("made-by", "parts-by")
    assert files(forked / "_site", ignore=ignored) == files(here / "_site", ignore=ignored)
    assert sorted(p.read_text().split(" from ")[1] for p in (forked / "_site/parts-by").iterdir()) == \
        sorted(p.read_text().split(" from ")[1] for p in (here / "_site/parts-by").iterdir())


def test_with_threads_running_documents_are_parsed_in_fresh_workers(tmp_path, monkeypatch):
    """A process running threads (the preview) must not fork: its workers start afresh."""
    threaded, here = (many_posts(copy_site(tmp_path / name, "basic")) for name in ("threaded", "here"))
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not parallel.can_fork(POSTS) and parallel.worth_workers(POSTS)
        result = Engine(threaded, OPTIONS).build()
    finally:
        stop.set()
        thread.join()
    with monkeypatch.context() as patch:
        patch.setattr(parallel, "PARALLEL_THRESHOLD", 10 ** 9)
        Engine(here, OPTIONS).build()
    assert result.documents.parsed > POSTS
    assert files(threaded / "_site") == files(here / "_site")
    assert records(threaded) == records(here)


def test_an_error_in_a_worker_names_its_file_and_keeps_the_site(tmp_path, capsys, request):
    if rerun_where_forking_is_safe(request):
        return
    site = many_posts(copy_site(tmp_path / "site", "basic"))
    assert main(["-C", str(site), "build"]) == 0
    before = files(site / "_site")
    (site / "templates").mkdir(exist_ok=True)
    (site / "templates/broken.html").write_text("<!doctype html>\n<title>{{ page.title }}</title>\n"
                                                "{{ page.meta.nothing.deeper }}\n")
    post = site / "content/posts/2020-02-03-post-30.md"
    post.write_text(post.read_text().replace("---\n", "---\nlayout: broken\n", 1))
    capsys.readouterr()
    assert main(["-C", str(site), "build", "--refresh"]) == 1        # every page made again, in workers
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: templates/broken.html:3: ") and "nothing" in err and "post-30" in err, err
    assert files(site / "_site") == before
    assert not (site / ".sitegen/staging").exists()

    post.write_text("---\ntitle: [unclosed\n---\nbroken\n")
    assert main(["-C", str(site), "build", "--refresh"]) == 1        # a parse in a worker
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: content/posts/2020-02-03-post-30.md:3: invalid YAML") and "\n" not in err, err
    assert files(site / "_site") == before


def test_incremental_builds_in_workers_equal_a_clean_full_build(request) -> None:
    """The property of tests/test_incremental.py, with every stage in workers however little it has to do."""
    if not rerun_where_forking_is_safe(request):
        incremental_builds_in_workers()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(operations, st.booleans()), min_size=1, max_size=6))
def incremental_builds_in_workers(steps) -> None:
    saved = parallel.PARALLEL_THRESHOLD
    parallel.PARALLEL_THRESHOLD = 1
    try:
        with tempfile.TemporaryDirectory() as tmp:
            root = make_site(Path(tmp) / "site")
            model = SiteModel(root)
            engine = Engine(root, OPTIONS)
            engine.build(now=model.now)
            model.take_touched()
            for op, new_process in steps:
                model.apply(op)
                if new_process:
                    engine = Engine(root, OPTIONS)
                options = BuildOptions(now=model.now)
                try:
                    expected = full_build(root, options)
                except SiteError:      # a broken post: tests/test_incremental.py covers the failure
                    continue
                engine.build(now=model.now, save=not new_process, changed=model.take_touched())
                actual = files(root / "_site")
                assert sorted(actual) == sorted(expected)
                assert [p for p in expected if actual[p] != expected[p]] == []
    finally:
        parallel.PARALLEL_THRESHOLD = saved


def test_outputs_are_looked_at_in_a_child_while_the_inputs_are_scanned(tmp_path, monkeypatch, request):
    """A build of a large site checks the output folder in a forked child while it stats the
    inputs; what the child finds (a page changed by hand, one removed, a stray) is what the build
    acts on. A small site's build does it itself: a fork would cost more."""
    if rerun_where_forking_is_safe(request):
        return
    site = copy_site(tmp_path / "site", "basic")
    checked_by = tmp_path / "checked-by"
    real = scanning.check_outputs

    def check_outputs(*args):
        checked_by.write_text(str(os.getpid()))
        return real(*args)

    monkeypatch.setattr(scanning, "check_outputs", check_outputs)
    Engine(site, OPTIONS).build()
    (site / "_site/about.html").write_text("vandalised")
    assert Engine(site, OPTIONS).build().written == ["about.html"]
    assert int(checked_by.read_text()) == os.getpid()

    monkeypatch.setattr(parallel, "BACKGROUND_THRESHOLD", 1)      # as if the site were large
    (site / "_site/about.html").write_text("vandalised")
    (site / "_site/blog.html").unlink()
    (site / "_site/stray.txt").write_text("not ours")
    result = Engine(site, OPTIONS).build()
    assert int(checked_by.read_text()) != os.getpid()
    assert set(result.written) == {"about.html", "blog.html"} and result.deleted == ["stray.txt"]
    assert Engine(site, OPTIONS).build().site is None


def test_outputs_edited_by_hand_are_seen_by_the_child_and_by_this_process(tmp_path, monkeypatch, request):
    """The child looks at the first outputs, this process at the last once its sources are
    scanned (as many as even the two out): an output edited by hand in either share is made again."""
    if rerun_where_forking_is_safe(request):
        return
    site = copy_site(tmp_path / "site", "basic")
    monkeypatch.setattr(parallel, "BACKGROUND_THRESHOLD", 1)      # as if the site were large
    monkeypatch.setattr(scanning, "SOURCE_COST", 0)               # half the outputs each
    Engine(site, OPTIONS).build()
    paths = list(BuildState.load(site / ".sitegen/state.msgpack").stamps)
    edited = [paths[0], paths[len(paths) // 2 - 1], paths[len(paths) // 2], paths[-1]]
    made = {path: (site / "_site" / path).read_bytes() for path in edited}
    for path in edited:
        (site / "_site" / path).write_bytes(b"edited by hand")
    Engine(site, OPTIONS).build()
    assert {path: (site / "_site" / path).read_bytes() for path in edited} == made
    assert Engine(site, OPTIONS).build().site is None


BACKGROUND = """
import json, os, sys, threading
from generator.errors import SiteError
from generator.parallel import Background

def fail():
    raise SiteError("cannot read this folder", "_site/locked")

def die():
    os._exit(3)

said = {}
with Background(os.getpid) as child:
    said["pid"] = child.result()
said["not worth"] = Background(os.getpid, worth=False).result()
try:
    Background(fail).result()
except SiteError as exc:
    said["error"] = str(exc)
try:
    Background(die).result()
except RuntimeError as exc:
    said["died"] = str(exc)
with Background(threading.Event().wait) as waiting:        # never asked: killed and reaped on the way out
    pid = waiting.pid
try:
    os.waitpid(pid, os.WNOHANG)
    said["reaped"] = False
except ChildProcessError:
    said["reaped"] = True
thread = threading.Thread(target=threading.Event().wait, args=(5,), daemon=True)
thread.start()
said["threaded"] = Background(os.getpid).result()
print(json.dumps([os.getpid(), said]))
"""


def test_background_work_runs_in_a_child_and_its_outcome_comes_back():
    ran = subprocess.run([sys.executable, "-c", BACKGROUND], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    pid, said = json.loads(ran.stdout)
    assert said["pid"] != pid                                  # forked
    assert said["not worth"] == pid
    assert said["error"] == "_site/locked: cannot read this folder"
    assert said["died"] == "a worker process died"
    assert said["reaped"] is True
    assert said["threaded"] == pid                             # a process running threads does it itself


def test_an_edited_document_is_parsed_in_a_child_while_the_records_are_read(tmp_path, monkeypatch, request):
    """An edit build parses the documents whose files changed in a forked child, beside reading
    the records: the same site as a full build, counted as parsed, and a mistake in the edit
    still stops the build, named, with the site as it was."""
    if rerun_where_forking_is_safe(request):
        return
    site = make_site(tmp_path / "site")
    monkeypatch.setattr(parallel, "BACKGROUND_THRESHOLD", 1)      # a small site: not worth a fork
    Engine(site, OPTIONS).build()
    parsed_by = tmp_path / "parsed-by"
    real = loading.parse_uncached

    def parse_uncached(config, sources):
        parsed_by.write_text(json.dumps([os.getpid(), [str(path) for _, path, _ in sources]]))
        return real(config, sources)

    monkeypatch.setattr(loading, "parse_uncached", parse_uncached)
    post = next((site / "content/posts").glob("*.md"))
    post.write_text(post.read_text() + "\nA paragraph added, *emphasised*.\n")
    result = Engine(site, OPTIONS).build()
    pid, sources = json.loads(parsed_by.read_text())
    assert pid != os.getpid() and sources == [post.relative_to(site).as_posix()]
    assert result.documents.parsed == 1 and result.documents.cached > 3
    assert any(b"<em>emphasised</em>" in (site / "_site" / path).read_bytes() for path in result.written)
    assert_same_as_full_build(site)

    before = files(site / "_site")
    post.write_text("---\ntitle: [unclosed\n---\nbroken\n")
    with pytest.raises(SiteError) as error:
        Engine(site, OPTIONS).build()
    assert str(error.value).startswith(f"{post.relative_to(site).as_posix()}:3: invalid YAML")
    assert files(site / "_site") == before
