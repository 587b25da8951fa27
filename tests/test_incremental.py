"""The incremental engine: only what an edit touches is made again, and the result
is always byte-identical to a clean full build."""

from __future__ import annotations

import io
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from generator.build import BuildOptions, Engine, build, render_site
from generator.configure import load_config
from generator.errors import SiteError
from generator.layout import DEFAULT_THEME, OUTPUT_MARKER
from generator.outputs import Registry
from generator import codec
from generator import stamps as stamps_module
from generator import state as state_module
from generator.cache import local_key
from generator.codec import dumps, loads
from generator.site import PACKED, LazyDocument, unpacked
from generator.state import BuildState, BundleRecord
from conftest import demo_plugin_installed, own_template, pages_made
from plugin_outputs import with_plugins
from test_versions import git

REPO = Path(__file__).resolve().parents[1]
NOW = datetime(2030, 1, 1, tzinfo=timezone.utc)
OPTIONS = BuildOptions(now=NOW)

KEY = bytes(range(32))     # a checkout's key, for values packed outside a site


def make_site(folder: Path) -> Path:
    shutil.copytree(REPO / "tests" / "data" / "basic", folder)
    shutil.copytree(REPO / "templates", folder / "templates")
    return folder


def files(folder: Path, ignore: tuple[str, ...] = ()) -> dict[str, bytes]:
    """The files under ``folder`` (but ``ignore``'s, and the marker sitegen leaves in an output folder)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.relative_to(folder).parts[0] not in ignore and p.name != OUTPUT_MARKER}


def full_build(site: Path, options: BuildOptions = OPTIONS, planners: Registry | None = None) -> dict[str, bytes]:
    """What a clean build makes: rendered from scratch in a copy of the sources, so that it
    neither reads nor files over the state and caches the site's own builds use."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / site.name
        shutil.copytree(site, copy, symlinks=True,
                        ignore=lambda folder, names: {"_site", ".sitegen"} & set(names) if Path(folder) == site else ())
        return render_site(load_config(copy), replace(options, refresh=True), planners).outputs


def index_made(result) -> bool:
    """Did the build write files of a part of the search index?"""
    return any(path.startswith("pagefind/") and path != "pagefind/parts.json" for path in result.written)


def assert_same_as_full_build(site: Path, options: BuildOptions = OPTIONS) -> None:
    expected = full_build(site, options)
    actual = files(site / "_site")
    assert sorted(actual) == sorted(expected)
    assert [p for p in expected if actual[p] != expected[p]] == []
    assert not [d for d in (site / "_site").rglob("*") if d.is_dir() and not any(d.iterdir())]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return make_site(tmp_path / "site")


def test_a_build_with_nothing_changed_writes_no_file(site: Path) -> None:
    first = build(site, OPTIONS)
    assert len(first.written) == first.files > 20
    stamps = {p: p.stat().st_mtime_ns for p in (site / "_site").rglob("*")}
    again = build(site, OPTIONS)
    assert again.site is None and again.written == [] and again.deleted == []
    assert again.files == first.files
    assert {p: p.stat().st_mtime_ns for p in (site / "_site").rglob("*")} == stamps


def test_a_build_with_nothing_to_do_loads_no_renderer_nor_the_records(site: Path) -> None:
    """A no-op build reads the stamps alone: neither Jinja, Markdown, Liquid nor Pygments'
    lexers and formatters are imported (only its table of style names, which site.yaml's
    pygments_style is checked against), nor is the records file (what each output read) read."""
    import subprocess
    import sys

    build(site, BuildOptions())
    probe = ("import sys\n"
             "from pathlib import Path\n"
             "from generator.cli import main\n"
             "read = []\n"
             "Path.read_bytes = lambda self, _r=Path.read_bytes: read.append(self.name) or _r(self)\n"
             "code = main(['-C', sys.argv[1], 'build'])\n"
             "heavy = sorted(m for m in ('jinja2', 'markdown', 'liquid', 'pymdownx', 'pygments.lexer',\n"
             "                           'pygments.lexers', 'pygments.formatters') if m in sys.modules)\n"
             "print(code, heavy, 'records.msgpack' in read)\n")
    done = subprocess.run([sys.executable, "-c", probe, str(site)], capture_output=True, text=True, cwd=REPO,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, check=True)
    said, probed = done.stdout.splitlines()
    assert said.startswith("nothing changed") and probed == "0 [] False", done.stdout


def test_a_build_with_nothing_to_do_makes_no_record_per_file(site: Path, monkeypatch) -> None:
    """The state's files and outputs are read as columns and compared with the scans' whole: a
    no-op makes no record per file (at 100,000 posts, making them cost more than the scan)."""
    build(site, OPTIONS)
    made = []
    real = stamps_module.FileRecord.__init__
    monkeypatch.setattr(stamps_module.FileRecord, "__init__", lambda self, *a: made.append(a) or real(self, *a))
    engine = Engine(site, OPTIONS)
    assert engine.build().site is None
    assert made == [] and isinstance(engine.state.stamps, stamps_module.Stamps)


def test_the_state_reads_back_the_files_and_outputs_it_was_written_with(site: Path) -> None:
    """Each file's stamp, digest and trust, and each output's stamp, come back as they were
    written, from columns of msgpack's own types: no extension type to decode per file."""
    import msgpack

    build(site, OPTIONS)
    path = site / ".sitegen/state.msgpack"
    state = BuildState.load(path)
    state.files = {**state.files, "content/pages/new.md": stamps_module.FileRecord((7, 10**18 + 1), "ab" * 32, False)}
    state.stamps = {**state.stamps, "new.html": (12, 10**18 + 2)}
    state.save(path)
    back = BuildState.load(path)
    assert dict(back.files.items()) == state.files and dict(back.stamps.items()) == state.stamps
    assert list(back.files) == list(state.files) and list(back.stamps) == list(state.stamps)
    body = path.read_bytes()[len(codec._header("state")) + codec.SEAL:]
    data = msgpack.unpackb(body, ext_hook=msgpack.ExtType, strict_map_key=False)
    columns = [*data["files"], *data["stamps"]]
    assert all(type(value) in (str, int, bool) for column in columns for value in column)
    assert [len(column) for column in data["files"]] == [len(state.files)] * 5
    assert [len(column) for column in data["stamps"][2:]] == [len(state.stamps)] * 3   # names, sizes, times
    assert "2020/05/01" in data["stamps"][0]          # the folders of its runs


def test_a_source_edited_is_seen_when_the_state_lists_the_files_in_another_order(site: Path) -> None:
    """A no-op compares the scan's columns with the state's in the order the folders list their
    files; listed in another order (the state of another machine's copy), they are matched by name."""
    build(site, OPTIONS)
    path = site / ".sitegen/state.msgpack"
    state = BuildState.load(path)
    state.files = dict(reversed(list(state.files.items())))
    state.save(path)
    assert build(site, OPTIONS).site is None
    post = site / "content/posts/2021-01-02-third.md"
    post.write_text(post.read_text().replace("Third body.", "Third body, edited."))
    assert "2021/01/02/third.html" in build(site, OPTIONS).written
    assert_same_as_full_build(site)


def test_editing_a_post_body_makes_its_page_and_the_pages_that_show_its_excerpt(site: Path) -> None:
    build(site, OPTIONS)
    post = site / "content/posts/2020-05-01-second.md"
    post.write_text(post.read_text().replace("Second post body", "Second post text"))
    result = build(site, OPTIONS)
    # The excerpt (first paragraph) changed: the blog page and feeds show it (its tag's too).
    assert sorted(pages_made(result)) == ["2020/05/01/second.html", "atom.xml", "blog.html", "feed.json",
                                          "rss.xml", "tags/compilers/atom.xml"]
    assert result.written == sorted(result.outputs) and index_made(result)
    assert_same_as_full_build(site)


def test_editing_a_page_whose_liquid_lists_the_posts_makes_it_again(site: Path) -> None:
    # Such a page is rendered once the site is (its body kept, deferred): its body is one of its inputs.
    page = site / "content/pages/listed.html"
    page.write_text("---\ntitle: Listed\n---\n<ul>{% for p in site.posts %}<li>{{ p.title }}</li>{% endfor %}</ul>\n")
    build(site, OPTIONS)
    page.write_text(page.read_text().replace("<ul>", '<ul class="posts">'))
    result = build(site, OPTIONS)
    assert "listed.html" in pages_made(result) and '<ul class="posts">' in (site / "_site/listed.html").read_text()
    assert_same_as_full_build(site)


def test_editing_below_the_excerpt_leaves_listings_alone(site: Path) -> None:
    build(site, OPTIONS)
    post = site / "content/posts/2020-05-01-second.md"
    post.write_text(post.read_text().replace('print("hi")', 'print("hello")'))
    result = build(site, OPTIONS)
    assert sorted(pages_made(result)) == ["2020/05/01/second.html", "atom.xml", "feed.json", "rss.xml",
                                          "tags/compilers/atom.xml"]
    assert index_made(result)
    assert_same_as_full_build(site)


def test_a_new_title_reaches_neighbours_listings_and_tag_pages(site: Path) -> None:
    build(site, OPTIONS)
    post = site / "content/posts/2020-05-01-second.md"
    post.write_text(post.read_text().replace("title: Second post", "title: Second, renamed"))
    result = build(site, OPTIONS)
    assert pages_made(result) == {
        "2020/05/01/second.html",                                   # itself
        "2019/03/18/first-post.html", "2021/01/02/third.html",      # prev/next links
        "blog.html", "history.html", "tags/compilers.html",         # listings
        "index.html",                                               # latest posts on the home page
        "atom.xml", "rss.xml", "feed.json", "tags/compilers/atom.xml",   # feeds
    }
    assert_same_as_full_build(site)


def reference_links(html: bytes) -> list[str]:
    """The MyST references of a page as it shows them: ``href text`` each, or ``? text`` unresolved."""
    found = re.findall(r'<a class="reference \w+" href="([^"]*)">([^<]*)</a>|'
                       r'<span class="myst-unresolved"[^>]*>([^<]*)</span>', html.decode("utf-8"))
    return [f"{href} {text}" if href else f"? {unresolved}" for href, text, unresolved in found]


def test_a_reference_to_another_pages_label_follows_its_title_and_its_going(site: Path) -> None:
    """A post's ``{ref}`` to a label of a page, and ``{doc}`` to the page: an edit of the target's
    heading makes the post again, with no parse of the post; a label that goes is warned of
    at the post's line, and found again when another page gives it."""
    about, asf = site / "content/pages/about.md", site / "content/pages/asf.md"
    about.write_text(about.read_text() + "\n(team)=\n## Our *team*\n")
    post = site / "content/posts/2020-05-01-second.md"
    post.write_text(post.read_text() + "\nSee {ref}`team`, {ref}`us <team>` and {doc}`../pages/about`.\n")
    build(site, OPTIONS)
    assert reference_links((site / "_site/2020/05/01/second.html").read_bytes()) == [
        "/about.html#team Our team", "/about.html#team us", "/about.html About"]

    about.write_text(about.read_text().replace("## Our *team*", "## The people"))
    result = build(site, OPTIONS)
    assert "2020/05/01/second.html" in pages_made(result) and result.documents.parsed == 1
    assert reference_links(result.outputs["2020/05/01/second.html"])[0] == "/about.html#team The people"
    assert result.warnings == []
    assert_same_as_full_build(site)

    about.write_text(about.read_text().replace("(team)=\n", ""))
    result = build(site, OPTIONS)
    assert reference_links(result.outputs["2020/05/01/second.html"])[:2] == ["? team", "? us"]
    assert result.warnings == [
        f"content/posts/2020-05-01-second.md:13: warning: {{ref}}`{text}`: no target labelled 'team' "
        "on this page or in the docs" for text in ("team", "us <team>")]
    assert_same_as_full_build(site)

    asf.write_text(asf.read_text() + "\n(team)=\n## Who we are\n")
    result = build(site, OPTIONS)
    assert reference_links(result.outputs["2020/05/01/second.html"])[:2] == [
        "/asf.html#team Who we are", "/asf.html#team us"]
    assert result.warnings == []
    assert_same_as_full_build(site)


def test_a_reference_in_an_excerpt_is_linked_in_listings_and_feeds(site: Path) -> None:
    """A post's excerpt and content, shown by the blog page and the feeds, link the reference
    too, and follow the target's title."""
    about = site / "content/pages/about.md"
    about.write_text(about.read_text() + "\n(team)=\n## Our team\n")
    post = site / "content/posts/2020-05-01-second.md"
    post.write_text(post.read_text().replace("Second post body,", "Second post body by {ref}`team`,"))
    build(site, OPTIONS)
    for shown in ("blog.html", "atom.xml", "feed.json"):
        assert "/about.html#team" in (site / "_site" / shown).read_text(), shown
    assert reference_links((site / "_site/blog.html").read_bytes()) == ["/about.html#team Our team"]

    about.write_text(about.read_text().replace("## Our team", "## The people"))
    result = build(site, OPTIONS)
    assert {"blog.html", "atom.xml", "feed.json", "2020/05/01/second.html"} <= pages_made(result)
    assert reference_links(result.outputs["blog.html"]) == ["/about.html#team The people"]
    assert_same_as_full_build(site)


def described(html: bytes) -> str:
    return re.search(r'<meta name="description" content="([^"]*)">', html.decode("utf-8")).group(1)


def test_a_label_two_pages_define_is_warned_of_on_every_build_until_one_goes(site: Path) -> None:
    """The duplicate label's warning is the site's, asked each build: a build that parses
    neither page warns of it still, and the label's going from the first page ends it."""
    about, asf = site / "content/pages/about.md", site / "content/pages/asf.md"
    about.write_text(about.read_text() + "\n(team)=\n## Our team\n")
    asf.write_text(asf.read_text() + "\n(team)=\n## Who we are\n")
    line = asf.read_text().split("\n").index("(team)=") + 1
    duplicate = (f"content/pages/asf.md:{line}: warning: duplicate label 'team': /about.html#team has it too "
                 "(the other pages' references to it lead there)")
    assert build(site, OPTIONS).warnings == [duplicate]
    post = site / "content/posts/2020-05-01-second.md"
    post.write_text(post.read_text() + "\nMore.\n")
    result = build(site, OPTIONS)
    assert result.documents.parsed == 1 and result.warnings == [duplicate]

    about.write_text(about.read_text().replace("(team)=\n", ""))
    assert build(site, OPTIONS).warnings == []
    assert_same_as_full_build(site)


def test_a_references_description_text_is_its_targets_title(site: Path) -> None:
    """The meta description and a feed's summary read a post's excerpt as its page does: a
    reference to another page's label is its target's title, not the label, and follows it."""
    about = site / "content/pages/about.md"
    about.write_text(about.read_text() + "\n(team-label)=\n## Our team\n")
    post = site / "content/posts/2020-05-01-second.md"
    post.write_text(post.read_text().replace("Second post body,", "Second post body by {ref}`team-label`,"))
    build(site, OPTIONS)
    assert described((site / "_site/2020/05/01/second.html").read_bytes()).startswith(
        "Second post body by Our team, see first")
    assert '"summary": "Second post body by Our team, see first' in (site / "_site/feed.json").read_text()

    about.write_text(about.read_text().replace("## Our team", "## The people"))
    result = build(site, OPTIONS)
    assert described(result.outputs["2020/05/01/second.html"]).startswith("Second post body by The people,")
    assert_same_as_full_build(site)


def test_the_preview_follows_a_references_target_across_edits(site: Path) -> None:
    """The preview's engine keeps its site between builds and writes an edit into it: the
    table of labels is made again, not kept from the build before."""
    about = site / "content/pages/about.md"
    about.write_text(about.read_text() + "\n(team)=\n## Our team\n")
    post = site / "content/posts/2020-05-01-second.md"
    post.write_text(post.read_text() + "\nSee {ref}`team`.\n")
    engine = Engine(site, OPTIONS)
    engine.build(now=NOW)
    for title in ("The people", "Who we are"):
        about.write_text(re.sub(r"## .*", f"## {title}", about.read_text()))
        result = engine.build(now=NOW, changed={"content/pages/about.md"})
        assert reference_links(result.outputs["2020/05/01/second.html"]) == [f"/about.html#team {title}"]
    assert_same_as_full_build(site)


def test_a_post_links_a_docs_page_and_its_section_by_the_docs_sources(site: Path) -> None:
    """``{doc}`` and ``{ref}`` from a post to a docs page: at the URL the docs section gives it,
    titled as its source is now."""
    docs = site / "content/docs"
    docs.mkdir()
    (docs / "index.md").write_text("---\ntitle: Docs\n---\nThe docs.\n")
    (docs / "install.md").write_text("---\ntitle: Install\n---\n(setup)=\n## Setting *up*\n\nText.\n")
    post = site / "content/posts/2020-05-01-second.md"
    post.write_text(post.read_text() + "\nSee {doc}`../docs/install`, {ref}`setup` and {doc}`the docs <../docs/index>`.\n")
    assert build(site, OPTIONS).warnings == []
    assert reference_links((site / "_site/2020/05/01/second.html").read_bytes()) == [
        "/docs/install.html Install", "/docs/install.html#setup Setting up", "/docs/ the docs"]
    assert b'id="setup"' in (site / "_site/docs/install.html").read_bytes()

    install = docs / "install.md"
    install.write_text(install.read_text().replace("Setting *up*", "Getting ready"))
    result = build(site, OPTIONS)
    assert reference_links(result.outputs["2020/05/01/second.html"])[1] == "/docs/install.html#setup Getting ready"
    assert_same_as_full_build(site)


def write_tutorial(site: Path, *cells: str) -> Path:
    """notebooks/first.ipynb of Markdown ``cells``, shown as saved (never run)."""
    path = site / "notebooks/first.ipynb"
    path.parent.mkdir(exist_ok=True)
    nbformat.write(new_notebook(cells=[new_markdown_cell(cell) for cell in cells], metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "sitegen": {"execute": "never"}}), path)
    return path


def test_a_post_links_a_tutorial_and_its_section_and_follows_its_edits(site: Path) -> None:
    """``{ref}`` and ``{doc}`` from a post to a tutorial: at its gallery URL, titled as the
    notebook is now; a notebook's edit makes the post again, and its label's going is warned of."""
    write_tutorial(site, "# First steps\n\n(nb-part)=\n## The *notebook's* part\n\nText.")
    post = site / "content/posts/2020-05-01-second.md"
    post.write_text(post.read_text() + "\nSee {ref}`nb-part` and {doc}`../../notebooks/first`.\n")
    assert build(site, OPTIONS).warnings == []
    assert reference_links((site / "_site/2020/05/01/second.html").read_bytes()) == [
        "/docs/tutorials/first.html#nb-part The notebook's part", "/docs/tutorials/first.html First steps"]

    write_tutorial(site, "# First steps\n\n(nb-part)=\n## Another part\n\nText.")
    result = build(site, OPTIONS)
    assert reference_links(result.outputs["2020/05/01/second.html"])[0] == "/docs/tutorials/first.html#nb-part Another part"
    assert_same_as_full_build(site)

    write_tutorial(site, "# First steps\n\n## Another part\n\nText.")
    result = build(site, OPTIONS)
    assert reference_links(result.outputs["2020/05/01/second.html"])[0] == "? nb-part"
    assert result.warnings == ["content/posts/2020-05-01-second.md:13: warning: {ref}`nb-part`: no target "
                               "labelled 'nb-part' on this page or in the docs"]
    assert_same_as_full_build(site)


def test_a_build_reads_no_notebook_the_scan_found_unchanged_for_the_posts_references(site: Path) -> None:
    """The tutorials' labels are kept by each notebook's digest: with the notebook's bytes
    replaced behind the scan's back (same size and time, so the scan trusts its stamp), an
    edit of the post still finds the label, which a read of the notebook would not."""
    tutorial = write_tutorial(site, "# First steps\n\n(nb-part)=\n## The part\n\nText.")
    os.utime(tutorial, ns=(10**18, 10**18))
    post = site / "content/posts/2020-05-01-second.md"
    post.write_text(post.read_text() + "\nSee {ref}`nb-part`.\n")
    build(site, OPTIONS)
    tutorial.write_bytes(b" " * tutorial.stat().st_size)
    os.utime(tutorial, ns=(10**18, 10**18))
    post.write_text(post.read_text() + "\nMore.\n")
    result = build(site, OPTIONS)
    assert reference_links(result.outputs["2020/05/01/second.html"]) == ["/docs/tutorials/first.html#nb-part The part"]


def test_a_docs_page_links_a_pages_label_and_follows_its_edits(site: Path) -> None:
    """The other way round: a docs page's ``{ref}`` to a label of a plain page, and its ``{doc}``
    to that page, resolve by the site's table; the docs section is made again when the target's
    heading changes, and warns when the label goes."""
    about = site / "content/pages/about.md"
    about.write_text(about.read_text() + "\n(team)=\n## Our team\n")
    docs = site / "content/docs"
    docs.mkdir()
    (docs / "index.md").write_text("---\ntitle: Docs\n---\nAsk {ref}`team`, or read {doc}`../pages/about`.\n")
    assert build(site, OPTIONS).warnings == []
    assert reference_links((site / "_site/docs/index.html").read_bytes()) == [
        "/about.html#team Our team", "/about.html About"]

    about.write_text(about.read_text().replace("## Our team", "## The people"))
    result = build(site, OPTIONS)
    assert reference_links(result.outputs["docs/index.html"])[0] == "/about.html#team The people"
    assert_same_as_full_build(site)

    about.write_text(about.read_text().replace("(team)=\n", ""))
    result = build(site, OPTIONS)
    assert reference_links(result.outputs["docs/index.html"])[0] == "? team"
    assert result.warnings == ["content/docs/index.md:4: warning: {ref}`team`: no target labelled 'team' "
                               "on this page or in the docs"]
    assert_same_as_full_build(site)


def test_a_template_edit_remakes_exactly_the_pages_that_use_it(site: Path) -> None:
    build(site, OPTIONS)
    partial = own_template(site, "partials/post_list.html")    # the site's own now, over the theme's
    partial.write_text(partial.read_text().replace('<ul class="post-list">', '<ul class="post-list x">'))
    result = build(site, OPTIONS)
    assert set(result.outputs) == {"history.html", "index.html", "tags/compilers.html",
                                   "tags/performance.html", "tags/release.html",
                                   "categories/news.html"}
    assert_same_as_full_build(site)


def test_a_data_file_edit_remakes_the_pages_that_read_it(site: Path) -> None:
    (site / "templates/team.html").write_text(
        '{% extends "page.html" %}{% block main %}{{ site.data.team.members | join(", ") }}{% endblock %}')
    (site / "content/pages/team.md").write_text("---\ntitle: Team\nlayout: team\n---\n")
    build(site, OPTIONS)
    assert "Ada, Grace" in (site / "_site/team.html").read_text()
    (site / "content/data/team.yml").write_text("members:\n  - Ada\n  - Grace\n  - Linus\n")
    result = build(site, OPTIONS)
    assert list(result.outputs) == ["team.html"]
    assert "Ada, Grace, Linus" in (site / "_site/team.html").read_text()
    assert_same_as_full_build(site)


def test_a_deleted_source_deletes_its_outputs(site: Path) -> None:
    build(site, OPTIONS)
    (site / "content/posts/2021-01-02-third.md").unlink()
    result = build(site, OPTIONS)
    assert "2021/01/02/third.html" in result.deleted
    assert "tags/performance.html" in result.deleted
    assert not (site / "_site/2021").exists()
    assert_same_as_full_build(site)


def test_outputs_changed_by_hand_are_made_again_and_strays_removed(site: Path) -> None:
    build(site, OPTIONS)
    (site / "_site/about.html").write_text("vandalised")
    (site / "_site/blog.html").unlink()
    (site / "_site/stray/deep").mkdir(parents=True)
    (site / "_site/stray/deep/file.txt").write_text("not ours")
    result = build(site, OPTIONS)
    assert set(result.written) == {"about.html", "blog.html"}
    assert result.deleted == ["stray/deep/file.txt"]
    assert_same_as_full_build(site)


def test_strays_and_empty_folders_among_the_outputs_own_folders_are_found(site: Path) -> None:
    """The output's folders are listed again only where their times moved: any addition moves them."""
    build(site, OPTIONS)
    (site / "_site/2020/05/01/stray.html").write_text("not ours")        # beside a post's page
    (site / "_site/2020/05/empty").mkdir()                               # a killed build's folder
    (site / "_site/2021/01/02/third.html").write_text("vandalised")      # same folder as nothing else
    (site / "_site/tags/link.html").symlink_to(site / "_site/about.html")
    result = build(site, OPTIONS)
    assert result.written == ["2021/01/02/third.html"]
    assert sorted(result.deleted) == ["2020/05/01/stray.html", "tags/link.html"]
    assert not (site / "_site/2020/05/empty").exists()
    assert build(site, OPTIONS).site is None
    assert_same_as_full_build(site)


def test_an_output_folder_removed_by_hand_is_made_again(site: Path) -> None:
    """The outputs are stat'ed relative to their folder: one gone takes all its files with it."""
    build(site, OPTIONS)
    shutil.rmtree(site / "_site/2020/05")
    result = build(site, OPTIONS)
    assert "2020/05/01/second.html" in result.written
    assert_same_as_full_build(site)


def test_an_edit_build_reads_the_html_only_of_the_documents_it_renders(site: Path) -> None:
    """A new process holds the other documents as the last build summed them up: their HTML
    is read from the parse cache (here: parsed again, the cache being gone) only if wanted."""
    build(site, OPTIONS)
    documents = site / ".sitegen/cache/documents"
    shutil.rmtree(documents)
    about = site / "content/pages/about.md"
    about.write_text(about.read_text() + "\nA new paragraph.\n")
    result = build(site, OPTIONS)
    pages = [path for path in result.written if not path.startswith("pagefind/")]   # and the search index
    assert pages == ["about.html"] and result.documents.parsed == 1
    assert len(list(documents.rglob("*.msgpack"))) == 1          # no other document was needed
    assert_same_as_full_build(site)


def test_a_failed_build_leaves_the_site_and_the_next_build_repairs_everything(site: Path) -> None:
    build(site, OPTIONS)
    before = files(site / "_site")
    post = site / "content/posts/2021-01-02-third.md"
    good = post.read_text()
    post.write_text(good.replace("title: Third post", "title: [unclosed"))
    (site / "content/pages/about.md").write_text("---\ntitle: About us\n---\nAbout.\n")
    with pytest.raises(SiteError) as error:
        build(site, OPTIONS)
    assert error.value.path == "content/posts/2021-01-02-third.md" and error.value.line is not None
    assert files(site / "_site") == before
    post.write_text(good)
    build(site, OPTIONS)
    assert "About us" in (site / "_site/about.html").read_text()
    assert_same_as_full_build(site)


def test_a_same_size_edit_within_the_same_timestamp_tick_is_seen(site: Path) -> None:
    post = site / "content/posts/2021-01-02-third.md"
    post.write_text(post.read_text())  # just saved, then built at once
    build(site, OPTIONS)
    stat = post.stat()
    post.write_text(post.read_text().replace("Third body.", "THIRD BODY."))
    os.utime(post, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # as a coarse clock would leave it
    assert post.stat().st_size == stat.st_size
    result = build(site, OPTIONS)
    assert "2021/01/02/third.html" in result.written
    assert_same_as_full_build(site)


def with_posts(site: Path, count: int) -> Path:
    """The site with ``count`` more posts: enough that an edit changes a small share of its records."""
    for n in range(count):
        (site / f"content/posts/2018-01-{n % 28 + 1:02d}-extra-{n}.md").write_text(
            f"---\ntitle: Extra {n}\ndate: 2018-01-{n % 28 + 1:02d} 09:00:00 +0000\n---\n"
            f"Extra post {n}.\n\nMore of it.\n")
    return site


def saved_records(site: Path):
    return BuildState.load(site / ".sitegen/state.msgpack").records


def read_as_documents(records: state_module.Records) -> state_module.Records:
    """``records`` with the summaries' packed fields read (as a :class:`LazyDocument` reads them):
    records read from a file and the records written compare equal so."""
    return replace(records, summaries={source: (key, unpacked(fields))
                                       for source, (key, fields) in records.summaries.items()})


def test_an_edit_build_appends_what_it_changed_to_the_journal_and_the_next_build_reads_it(site: Path) -> None:
    """The records file (what every output read) is not rewritten by an edit build: what changed
    goes to its journal, and the records read back from both are the ones the build held."""
    with_posts(site, 40)
    build(site, OPTIONS)
    whole = (site / ".sitegen/records.msgpack").read_bytes()
    post = site / "content/posts/2020-05-01-second.md"
    for before, text in (("hi", "hello"), ("hello", "hello again")):
        post.write_text(post.read_text().replace(f'print("{before}")', f'print("{text}")'))
        engine = Engine(site, OPTIONS)
        assert "2020/05/01/second.html" in engine.build().written
        assert (site / ".sitegen/records.msgpack").read_bytes() == whole
        assert 0 < (site / ".sitegen/records.journal").stat().st_size < len(whole) / 4
        assert read_as_documents(saved_records(site)) == read_as_documents(engine.state.records)
        assert_same_as_full_build(site)
    post.write_text(post.read_text().replace("Second post body", "Second post text"))
    assert "2020/05/01/second.html" in build(site, OPTIONS).written      # from the records and journal
    assert_same_as_full_build(site)


def test_a_journal_entry_of_a_build_that_died_before_its_state_is_ignored(site: Path) -> None:
    with_posts(site, 40)
    build(site, OPTIONS)
    state = site / ".sitegen/state.msgpack"
    before = state.read_bytes()
    post = site / "content/posts/2020-05-01-second.md"
    post.write_text(post.read_text().replace('print("hi")', 'print("hello")'))
    build(site, OPTIONS)
    assert (site / ".sitegen/records.journal").stat().st_size > 0
    state.write_bytes(before)           # as if killed after its journal entry, before its state
    other = site / "content/posts/2021-01-02-third.md"
    other.write_text(other.read_text() + "\nA last line.\n")
    result = build(site, OPTIONS)
    assert {"2020/05/01/second.html", "2021/01/02/third.html"} <= set(result.outputs)
    assert result.files > len(result.outputs)           # an edit build, not a full one
    assert_same_as_full_build(site)
    engine = Engine(site, OPTIONS)
    other.write_text(other.read_text() + "\nAnd another.\n")
    engine.build()
    assert read_as_documents(saved_records(site)) == read_as_documents(engine.state.records)


def journaled_once(site: Path) -> tuple[Path, Path]:
    """A site of 40 posts built, then a post edited and built again: its edited post and its
    journal, of one entry."""
    with_posts(site, 40)
    build(site, OPTIONS)
    post = site / "content/posts/2020-05-01-second.md"
    post.write_text(post.read_text().replace('print("hi")', 'print("hello")'))
    build(site, OPTIONS)
    return post, site / ".sitegen/records.journal"


def test_a_damaged_journal_makes_the_next_build_a_full_one(site: Path) -> None:
    post, journal = journaled_once(site)
    data = bytearray(journal.read_bytes())
    data[len(data) // 2] ^= 0xFF
    journal.write_bytes(bytes(data))
    post.write_text(post.read_text().replace('print("hello")', 'print("hi again")'))
    result = build(site, OPTIONS)
    assert len(result.outputs) == result.files          # nothing recorded was trusted
    assert_same_as_full_build(site)


def test_the_records_are_written_whole_when_an_edit_changes_most_of_them_or_the_journal_grows(site: Path) -> None:
    with_posts(site, 40)
    build(site, OPTIONS)
    records, journal = site / ".sitegen/records.msgpack", site / ".sitegen/records.journal"
    template = own_template(site, "base.html")
    build(site, OPTIONS)
    whole = records.read_bytes()
    template.write_text(template.read_text() + "<!-- on every page -->\n")
    build(site, OPTIONS)                                  # every page made again
    assert records.read_bytes() != whole and not journal.exists()
    post = site / "content/posts/2020-05-01-second.md"
    sizes = []
    for n in range(40):
        post.write_text(post.read_text().replace("```python", f"Line {n}.\n\n```python"))
        build(site, OPTIONS)
        sizes.append(journal.stat().st_size if journal.exists() else 0)
    assert 0 in sizes[1:] and max(sizes) <= records.stat().st_size / 4 + 1   # folded in, more than once
    assert read_as_documents(saved_records(site)) == read_as_documents(Engine(site, OPTIONS).state.records)
    assert_same_as_full_build(site)


def test_the_journal_is_folded_in_once_it_holds_journal_entries_entries(site: Path, monkeypatch) -> None:
    """Small edits would let thousands of entries pile up under the size limit, each read by
    every build: after JOURNAL_ENTRIES of them the records are written whole."""
    monkeypatch.setattr(state_module, "JOURNAL_ENTRIES", 3)
    monkeypatch.setattr(state_module, "JOURNAL_SHARE", 1.0)     # the entries' count alone folds it here
    with_posts(site, 40)
    build(site, OPTIONS)
    journal = site / ".sitegen/records.journal"
    post = site / "content/posts/2020-05-01-second.md"
    held = []
    for n in range(8):
        post.write_text(post.read_text() + f"\nLine {n}.\n")
        engine = Engine(site, OPTIONS)
        engine.build()
        held.append(engine.state.records.entries)
        assert read_as_documents(saved_records(site)) == read_as_documents(engine.state.records)
        assert saved_records(site).entries == held[-1]
    assert held == [1, 2, 3, 0, 1, 2, 3, 0] and not journal.exists()
    assert_same_as_full_build(site)


def test_a_journal_entry_of_the_wrong_types_makes_the_next_build_a_full_one(site: Path) -> None:
    """Each entry's own records are checked as it is read (not the whole records again)."""
    post, journal = journaled_once(site)
    data = journal.read_bytes()
    key = local_key(site / ".sitegen")
    entry = loads("records-changes", data[8:], key)
    entry["documents"] = {source: 7 for source in entry["documents"]}      # a parse key that is no string
    crafted = dumps("records-changes", entry, key)
    journal.write_bytes(len(crafted).to_bytes(8, "little") + crafted)
    state_file = site / ".sitegen/state.msgpack"
    state = loads("state", state_file.read_bytes(), key)
    state_file.write_bytes(dumps("state", {**state, "journal": 8 + len(crafted)}, key))
    post.write_text(post.read_text().replace('print("hello")', 'print("hi again")'))
    result = build(site, OPTIONS)
    assert len(result.outputs) == result.files          # nothing recorded was trusted
    assert_same_as_full_build(site)


SOURCES = st.sampled_from(["content/posts/a.md", "content/posts/b.md", "content/about.md"])
KEYS = st.one_of(st.tuples(st.just("doc"), SOURCES, st.sampled_from(["title", "url", "next", "content"])),
                 st.tuples(st.sampled_from(["seq", "file", "template"]), st.sampled_from(["x", "y", "z"])))
HEX_DIGESTS = st.binary(min_size=32, max_size=32).map(bytes.hex)
DIGESTS = st.one_of(st.none(), st.sampled_from(["d1", "d2", "-"]), st.just(("a", "b")), HEX_DIGESTS)
# Values a records file holds beside SHA-256 digests: some look like one and are not.
LOOKALIKES = st.one_of(HEX_DIGESTS.map(str.upper), st.just("g" * 64), st.just(" " + "0" * 62 + " "),
                       HEX_DIGESTS.map(lambda d: d[:-1]), st.integers(), st.just(("x",)))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(KEYS, DIGESTS), st.lists(st.tuples(KEYS, DIGESTS.filter(lambda d: d is not None))),
       st.lists(KEYS))
def test_the_records_digests_are_the_mapping_they_stand_for(recorded: dict, changes: list, asked: list) -> None:
    """The digests as read from a records file (a table of keys grouped by document, a digest or
    None for each), then changed, answer every question as the dict of the same keys does; so do
    the table's positions and the keys grouped by document that :class:`KeyIndex` asks for."""
    table = state_module.KeyTable.of(recorded)
    assert sorted(table, key=repr) == sorted(recorded, key=repr)
    assert all(table[table.position(key)] == key for key in table)
    assert list(table) == [table[i] for i in range(len(table))] == [table[i - len(table)] for i in range(len(table))]
    assert table[1:-1] == list(table)[1:-1] and table[table.documents:] == list(table)[table.documents:]
    digests = state_module.Digests(table=table, values=state_module.DigestRun.of(recorded[key] for key in table))
    expected = {key: value for key, value in recorded.items() if value is not None}
    before = digests.copy()
    for key, value in changes:
        digests[key] = value
        expected[key] = value
    assert dict(digests.items()) == expected and len(digests) == len(expected) and sorted(digests, key=repr) \
        == sorted(expected, key=repr)
    for key in (asked + list(recorded)) * 3:        # the table indexes every key once asked of many
        assert (key in digests) == (key in expected) and digests.get(key) == expected.get(key)
        assert (table.position(key) is None) == (key not in recorded)
    assert dict(before.items()) == {key: value for key, value in recorded.items() if value is not None}
    for source in ("content/posts/a.md", "content/posts/b.md", "content/about.md", "content/gone.md"):
        assert digests.recorded_of(source) == [key for key in table if key[:2] == ("doc", source)
                                               and recorded[key] is not None]
    grouped = {*digests.recorded_documents(), *digests.ungrouped()}
    assert grouped == expected.keys()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(DIGESTS, LOOKALIKES), max_size=20), st.data())
def test_the_digests_run_reads_back_every_value_as_it_was(values: list, data) -> None:
    """A SHA-256 digest as ``hexdigest()`` writes it is held as its 32 bytes, any other value as
    itself; every way of reading the run (an index, a negative one, a slice, in order, the count
    of keys without a digest) gives the values it was made of, of the same types."""
    run = state_module.DigestRun.of(values)
    assert len(run.run) == 32 * len(values)
    assert len(run.others) == sum(not (type(v) is str and len(v) == 64 and v == v.lower()
                                       and set(v) <= set("0123456789abcdef")) for v in values)
    assert list(run) == values and [run[i] for i in range(len(values))] == values
    assert [repr(v) for v in run] == [repr(v) for v in values]
    assert run.count(None) == values.count(None)
    if values:
        i = data.draw(st.integers(-len(values), len(values) - 1))
        start, stop = data.draw(st.integers(0, len(values))), data.draw(st.integers(0, len(values)))
        assert run[i] == values[i] and run[start:stop] == values[start:stop]
    with pytest.raises(IndexError):
        run[len(values)]
    back = loads("records", dumps("records", [run.run, run.others], KEY), KEY)
    assert list(state_module.DigestRun(*back)) == values


def test_a_digests_run_of_the_wrong_shape_is_refused() -> None:
    run = state_module.DigestRun.of([bytes(32).hex(), None])
    for damaged in ((run.run[:-1], run.others), (run.run, {2: "x"}), (run.run, {-1: "x"}), (run.run, {"1": None}),
                    (run.run.hex(), run.others), (run.run, list(run.others.items()))):
        with pytest.raises(TypeError):
            state_module.DigestRun(*damaged)


def records_data(outputs: dict[str, frozenset], table_keys: list[tuple] = ()) -> dict:
    """What a records file of ``outputs`` (path -> the keys it read) holds, written and read back
    as data; ``table_keys`` are more keys its table holds, read by none."""
    digests = state_module.Digests({key: "d" for key in [*table_keys, *set().union(*outputs.values())]})
    written = state_module.Records({path: state_module.OutputRecord(("page", path), reads, "digest")
                                    for path, reads in outputs.items()}, digests=digests)
    file = io.BytesIO()
    codec.dump("records", written.to_data(), file, KEY)
    return loads("records", file.getvalue(), KEY)


def records_read_back(outputs: dict[str, frozenset], table_keys: list[tuple] = ()) -> state_module.Records:
    return state_module.Records.from_data(records_data(outputs, table_keys))


OUTPUT_READS = st.dictionaries(st.sampled_from([f"p{n}.html" for n in range(12)]), st.frozensets(KEYS, max_size=6),
                               max_size=12)


@settings(max_examples=300, deadline=None)
@given(OUTPUT_READS, st.lists(st.frozensets(KEYS, max_size=4), max_size=4))
def test_the_outputs_read_back_from_a_records_file_read_what_they_read(outputs: dict, questions: list) -> None:
    """Read back from a records file (every output's keys in one run of numbers), each output has
    its keys, and whether it read any of a few keys (an edit build's question to every output)
    is answered as its own set of keys answers it, one question after another."""
    read_back = records_read_back(outputs)
    assert {path: record.reads for path, record in read_back.outputs.items()} == outputs
    read_back = records_read_back(outputs)      # again: asking `reads` above kept each output's keys
    for keys in questions:
        found: dict = {}
        assert {path for path, record in read_back.outputs.items() if record.read_any(keys, found)} \
            == {path for path, reads in outputs.items() if not reads.isdisjoint(keys)}


def test_a_key_whose_number_the_run_holds_across_two_others_is_not_taken_as_read() -> None:
    """Key 256 is the bytes 00 01 00 00; an output that read keys 65,536 and 0 holds
    00 00 01 00 00 00 00 00, which has them one byte in: that output did not read key 256."""
    keys = [("seq", ("tags", str(n))) for n in range(65_537)]
    read_back = records_read_back({"a.html": frozenset({keys[65_536], keys[0]}), "b.html": frozenset({keys[256]})},
                                  keys)
    record = read_back.outputs["a.html"]
    assert sorted(record._file.ids(record._number)) == [0, 65_536]   # the table keeps the keys' order
    assert read_back.table.position(keys[256]) == 256
    found: dict = {}
    assert [path for path, record in read_back.outputs.items() if record.read_any({keys[256]}, found)] == ["b.html"]


def test_the_outputs_reads_of_the_wrong_shape_make_the_records_unreadable() -> None:
    data = records_data({"a.html": frozenset({("seq", "x")}), "b.html": frozenset({("file", "y")})})
    state_module.Records.from_data(data)
    for damaged in ({"reads": data["reads"][:-1]}, {"reads_starts": state_module.packed([0, 2, 1])},
                    {"reads_starts": state_module.packed([0, 1])}, {"reads": "not bytes"},
                    {"digests": data["digests"][:-32]},
                    {"other_at": state_module.packed([len(data["digests"]) // 32]),
                     "other_values": codec.tuple_column([None])}):
        with pytest.raises(TypeError):
            state_module.Records.from_data({**data, **damaged})


TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=6)
ZONES = st.one_of(st.none(), st.timezones(), st.integers(-1439, 1439).map(lambda m: timezone(timedelta(minutes=m))))
SUMMARY = st.fixed_dictionaries({
    "kind": st.sampled_from(["post", "page", "docs"]), "url": TEXT, "title": TEXT, "layout": TEXT,
    "date": st.one_of(st.none(), st.datetimes(timezones=ZONES).map(lambda d: d.replace(fold=0))),
    "authors": st.lists(TEXT, max_size=2), "tags": st.lists(TEXT, max_size=3),
    "categories": st.lists(TEXT, max_size=2), "reading_time": st.integers(0, 10_000), "draft": st.booleans(),
    "redirect_from": st.lists(TEXT, max_size=2),
    "meta": st.dictionaries(TEXT, st.one_of(TEXT, st.integers(), st.lists(TEXT, max_size=2), st.dates()), max_size=3),
    "inputs": st.lists(st.tuples(TEXT, TEXT), max_size=2).map(tuple),
    "settings": st.lists(st.tuples(TEXT, TEXT), max_size=2).map(tuple),
    "warnings": st.lists(TEXT, max_size=2).map(tuple),
    "links": st.lists(st.tuples(st.integers(1, 500), TEXT, TEXT, TEXT, TEXT), max_size=3).map(tuple),
    "anchors": st.lists(TEXT, max_size=3).map(tuple),
    "targets": st.lists(st.tuples(TEXT, TEXT, TEXT, st.one_of(st.none(), st.integers(1, 99)), TEXT),
                        max_size=2).map(tuple),
    "unread": st.lists(TEXT, max_size=2).map(tuple),
    "deferred": st.one_of(st.none(), st.tuples(TEXT, st.integers(1, 500))),
}).map(lambda fields: {**fields, "meta_keys": tuple(fields["meta"])})


def records_file(records: state_module.Records) -> bytes:
    file = io.BytesIO()
    codec.dump("records", records.to_data(), file, KEY)
    return file.getvalue()


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(SOURCES, st.tuples(HEX_DIGESTS, SUMMARY), max_size=3))
def test_the_summaries_read_back_from_a_records_file_are_the_ones_written(summaries: dict) -> None:
    """Every document's summary (all of it but its HTML), stored field by field, reads back as
    it was written: the same values of the same types (tuples, aware dates, meta's YAML)."""
    from generator.site import SUMMED_UP

    assert all(set(fields) == set(SUMMED_UP) for _, fields in summaries.values())  # a new field is stored too
    summaries = {source: (key, {name: fields[name] for name in SUMMED_UP}) for source, (key, fields) in summaries.items()}
    read_back = state_module.Records.from_data(loads("records", records_file(
        state_module.Records(summaries=summaries)), KEY))
    read = {source: (key, unpacked(fields)) for source, (key, fields) in read_back.summaries.items()}
    assert read == summaries and repr(read) == repr(summaries)
    # Written again whole as read (links and anchors still packed) and read back, they are the same.
    again = state_module.Records.from_data(loads("records", records_file(read_back), KEY))
    assert {source: (key, unpacked(fields)) for source, (key, fields) in again.summaries.items()} == summaries
    # A document of a summary read gives the fields held packed as the summary had them.
    for source, (_, fields) in again.summaries.items():
        doc = LazyDocument(None, Path(source), fields)
        for name in PACKED:
            assert repr(getattr(doc, name)) == repr(summaries[source][1][name])


def test_the_front_matter_links_and_anchors_of_a_summary_read_are_read_when_asked_for() -> None:
    """An edit checks the links of the few pages it reaches and renders few (4.5 million values
    of front matter, links and anchors at 100,000 posts): reading the records leaves each
    document's packed until its document is asked for them, once; the front matter's keys
    are at hand without it."""
    from generator.site import SUMMED_UP

    fields = {name: None for name in SUMMED_UP}
    meta = {"description": "d", "date": datetime(2020, 5, 1, 9, 30, tzinfo=timezone.utc), "redirect_to": ["/b"]}
    fields.update(kind="post", url="/a.html", title="A", layout="post", authors=[], tags=[], categories=[],
                  reading_time=1, draft=False, redirect_from=[], meta=meta, meta_keys=tuple(meta), inputs=(),
                  settings=(), warnings=(), links=((3, "link", "/b.html", "b.html", "top"),), anchors=("top", "end"),
                  targets=(), unread=())
    records = state_module.Records(summaries={"content/posts/a.md": ("k", fields)})
    _, read = state_module.Records.from_data(loads("records", records_file(records), KEY)).summaries["content/posts/a.md"]
    assert type(read["links"]) is bytes and type(read["anchors"]) is bytes and type(read["meta"]) is bytes
    doc = LazyDocument(None, Path("content/posts/a.md"), read)
    assert doc.meta_keys == ("description", "date", "redirect_to") and type(doc.__dict__["meta"]) is bytes
    assert doc.links == fields["links"] and doc.anchors == fields["anchors"]
    assert repr(doc.meta) == repr(meta) and doc.meta_keys == tuple(doc.meta)
    assert doc.links is doc.links and doc.meta is doc.meta and type(read["links"]) is bytes  # read once, into the document


def test_the_summaries_in_a_records_file_read_back_without_an_extension_type_per_value() -> None:
    """Reading 10,000 summaries ran a Python hook for each tuple and date in them (0.37 s of an
    edit's 2.5 s at 10,000 posts): now none does (the front matter, any YAML, is kept packed)."""
    import msgpack

    fields = {"kind": "post", "url": "/a.html", "title": "A", "layout": "post",
              "date": datetime(2020, 5, 1, 9, 30, tzinfo=timezone(timedelta(hours=2))), "authors": ["ann"],
              "tags": ["x"], "categories": [], "reading_time": 3, "draft": False, "redirect_from": [],
              "meta": {"description": "d"}, "inputs": (("_includes/a.html", "d1"),), "settings": (("title", "d2"),),
              "warnings": ("w",), "links": ((3, "/b.html", "", "b", "text"),), "anchors": ("top",),
              "targets": (("lab", "#lab", "Lab", None, "section"),), "unread": (), "deferred": ("{{ x }}", 4),
              "meta_keys": ("description",)}
    data = records_file(state_module.Records(summaries={f"content/posts/{n}.md": ("k", fields) for n in range(3)}))
    body = data[len(codec._header("records")) + codec.SEAL:]
    hooked = []
    msgpack.unpackb(body, ext_hook=lambda code, value: hooked.append(code), strict_map_key=False)
    assert hooked == []
    key, read = state_module.Records.from_data(loads("records", data, KEY)).summaries["content/posts/1.md"]
    assert repr((key, unpacked(read))) == repr(("k", fields))


PLAIN = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70), st.floats(allow_nan=False), TEXT,
                  st.datetimes(timezones=ZONES).map(lambda d: d.replace(fold=0)), st.dates())
COLUMN_VALUES = st.recursive(PLAIN, lambda inner: st.one_of(
    st.lists(inner, max_size=3).map(tuple), st.lists(inner, max_size=3),
    st.dictionaries(TEXT, inner, max_size=2), st.frozensets(st.integers(), max_size=1)), max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(st.lists(COLUMN_VALUES, max_size=8))
def test_a_column_of_tuples_reads_back_as_it_was_written(values: list) -> None:
    """The plan inputs and the table's keys are stored with their tuples as arrays; any value
    (tuples in lists in tuples, lists at the top, dicts, sets, dates, large numbers) reads back
    as it was, of the same types."""
    back = codec.tuples_of_column(loads("records", dumps("records", codec.tuple_column(values), KEY), KEY))
    assert back == values and repr(back) == repr(values)


@settings(max_examples=300, deadline=None)
@given(st.lists(COLUMN_VALUES, min_size=1, max_size=4), st.lists(st.lists(st.integers(0, 3), max_size=3), max_size=6))
def test_a_tuple_in_many_values_of_a_column_is_stored_once_and_read_back_shared(inner: list, picks: list) -> None:
    """A listing page's plan inputs hold its settings, the same tuple for 50,000 pages at 100,000
    posts: a tuple that is an item of more than one value's tuple is stored once, and the values
    read back (as they were, of the same types: 1, 1.0 and True told apart) share one object."""
    from collections import Counter

    values = [tuple(inner[i % len(inner)] for i in pick) for pick in picks]
    column = codec.tuple_column(values)
    back = codec.tuples_of_column(loads("records", dumps("records", column, KEY), KEY))
    assert back == values and repr(back) == repr(values)
    plain = [i for i, value in enumerate(values) if i not in column["others"]]
    count = Counter(codec.pack(item) for i in plain for item in values[i] if type(item) is tuple)
    assert len(column["shared"]) == sum(n > 1 for n in count.values())
    read: dict[bytes, set[int]] = {}
    for i in plain:
        for item in back[i]:
            if type(item) is tuple:
                read.setdefault(codec.pack(item), set()).add(id(item))
    assert all(len(ids) == 1 for data, ids in read.items() if count[data] > 1)


def test_the_plan_inputs_and_keys_in_a_records_file_read_back_without_an_extension_type_per_tuple() -> None:
    """Reading the records of 100,000 posts ran a Python hook for each of 164,000 plan inputs
    and 53,000 keys (tuples: a nested msgpack call each); now none runs, and the settings
    each parse read, the same for most documents, are stored once."""
    import msgpack
    from generator.site import SUMMED_UP

    fields = {name: None for name in SUMMED_UP}
    fields.update(kind="post", url="/a.html", title="A", layout="post", authors=[], tags=[], categories=[],
                  reading_time=1, draft=False, redirect_from=[], meta={}, meta_keys=(), inputs=(),
                  settings=(("title", "d" * 64), ("limits.max_source_bytes", "e" * 64)), warnings=(), links=(),
                  anchors=(), targets=(), unread=())
    reads = frozenset({("seq", ("tags", "x"), "slice", 0, 10, None), ("file", "a.yaml")})
    records = state_module.Records(
        {f"p{n}.html": state_module.OutputRecord(("made", str(n)) if n % 2 else (("theme asset", "a.css"), ("d", n)),
                                                 reads, "digest") for n in range(4)},
        digests=state_module.Digests({key: "d" * 64 for key in reads}),
        summaries={f"content/posts/{n}.md": ("k", dict(fields)) for n in range(200)})
    data = records_file(records)
    body = data[len(codec._header("records")) + codec.SEAL:]
    hooked = []
    msgpack.unpackb(body, ext_hook=lambda code, value: hooked.append(code), strict_map_key=False)
    assert hooked == []
    assert body.count(b"limits.max_source_bytes") == 1
    read_back = state_module.Records.from_data(loads("records", data, KEY))
    assert {path: r.inputs for path, r in read_back.outputs.items()} == {
        path: r.inputs for path, r in records.outputs.items()}
    assert read_back.outputs["p1.html"].reads == reads
    assert {source: (key, unpacked(fields)) for source, (key, fields) in read_back.summaries.items()} \
        == records.summaries


def test_reading_the_records_makes_no_documents_key_before_it_is_asked_for() -> None:
    """Each document's keys (1.6 million at 100,000 posts: 0.35 s to make) are made when a build
    asks for them, by their index or in the document's span, not as the records are read."""
    import gc

    def written() -> bytes:
        return records_file(state_module.Records(digests=state_module.Digests(
            {("doc", f"content/posts/{n}.md", name): "d" * 64 for n in range(50) for name in ("title", "url")})))

    data = loads("records", written(), KEY)
    gc.collect()
    gc.disable()
    try:
        table = state_module.Records.from_data(data).table
        made = [o for o in gc.get_objects() if type(o) is tuple and len(o) == 3 and o[0] == "doc"]
    finally:
        gc.enable()
    assert made == []
    key = ("doc", "content/posts/7.md", "url")
    assert table[table.position(key)] == key and len(table) == 100


def test_a_date_the_records_hold_more_than_once_is_read_once() -> None:
    """A post's date is in its summary, in its front matter and in a sitemap part's inputs
    (300,000 dates at 100,000 posts, 100,000 distinct): each is made once, and shared."""
    from generator.site import SUMMED_UP

    when = datetime(2020, 5, 1, 9, 30, tzinfo=timezone(timedelta(hours=2)))
    fields = {name: None for name in SUMMED_UP}
    fields.update(kind="post", url="/a.html", title="A", layout="post", date=when, authors=[], tags=[],
                  categories=[], reading_time=1, draft=False, redirect_from=[], meta={"date": when}, meta_keys=("date",), inputs=(),
                  settings=(), warnings=(), links=(), anchors=(), targets=(), unread=())
    records = state_module.Records(
        {"sitemap.xml": state_module.OutputRecord(("sitemap", [("/a.html", when)]), frozenset(), "digest")},
        summaries={"content/posts/a.md": ("k", fields)})
    read_back = state_module.Records.from_data(loads("records", records_file(records), KEY))
    _, summary = read_back.summaries["content/posts/a.md"]
    assert summary["date"] == when and summary["date"] is unpacked(summary)["meta"]["date"] \
        is read_back.outputs["sitemap.xml"].inputs[1][0][1]


def test_a_build_leaves_the_collector_as_it_found_it(site: Path) -> None:
    """sitegen used as a library builds again and again in one process: a build pauses the
    cyclic collector and freezes nothing for good, so the garbage of each is still collected."""
    import gc

    build(site, OPTIONS)
    post = site / "content/posts/2020-05-01-second.md"
    post.write_text(post.read_text() + "\nOne more line.\n")
    assert gc.isenabled()
    build(site, OPTIONS)                      # reads the state and records, and journals
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_a_state_left_by_another_version_of_sitegen_is_set_aside(site: Path) -> None:
    build(site, OPTIONS)
    path = site / ".sitegen/state.msgpack"
    state = BuildState.load(path)
    state.world = "another version"
    state.records.bundles = {"tutorials": BundleRecord(None, frozenset(), {}, "a report of another shape")}
    state.reports = {"tutorials": "a report of another shape"}
    state.save(path)
    (site / "_site/about.html").unlink()
    result = build(site, OPTIONS)
    assert result.written == ["about.html"]
    assert_same_as_full_build(site)


def test_a_future_post_appears_when_its_date_comes(site: Path) -> None:
    build(site, OPTIONS)
    assert not (site / "_site/2099").exists()
    assert build(site, OPTIONS).site is None
    later = BuildOptions(now=datetime(2100, 1, 1, tzinfo=timezone.utc))
    result = build(site, later)
    assert "2099/01/01/future.html" in result.written
    assert_same_as_full_build(site, later)


def test_a_settings_change_rebuilds_everything_it_affects(site: Path) -> None:
    build(site, OPTIONS)
    config = site / "site.yaml"
    config.write_text(config.read_text().replace("posts_per_page: 2", "posts_per_page: 1"))
    result = build(site, OPTIONS)
    assert "blog/page3.html" in result.written
    assert_same_as_full_build(site)


def test_a_settings_edit_makes_again_only_the_outputs_that_read_it(site: Path) -> None:
    """Renders and planners note the settings they read (issue 35): a new ``posts_per_page``
    makes the paginated lists again (and the sitemap, which gains a page), not the posts, pages
    and feeds; a new description only the pages that show it."""
    build(site, OPTIONS)
    config = site / "site.yaml"
    config.write_text(config.read_text().replace("posts_per_page: 2", "posts_per_page: 1"))
    result = build(site, OPTIONS)
    assert pages_made(result) == {"blog.html", "blog/page2.html", "blog/page3.html", "tags.html", "tags/compilers.html",
                                  "tags/compilers/page2.html", "tags/performance.html", "tags/release.html",
                                  "categories.html", "categories/news.html", "sitemap.txt", "sitemap.xml"}
    assert_same_as_full_build(site)
    config.write_text(config.read_text().replace("description: A small site for tests.", "description: Other."))
    made = pages_made(build(site, OPTIONS))
    assert {"index.html", "blog.html", "atom.xml"} <= made
    assert not made & {"2019/03/18/first-post.html", "2020/05/01/second.html", "about.html", "sitemap.xml"}
    assert_same_as_full_build(site)


def test_a_settings_edit_redoes_the_docs_and_the_search_index_only_if_they_read_it(site: Path) -> None:
    """The docs bundle and the search index read the settings through the recording view, as
    renders do (issue 35): a new ``posts_per_page``, which neither reads, leaves the docs and the
    posts' parts of the index as they were; a new title, which the docs pages show, runs the
    docs again; new selectors to leave out of the index make every part of it again."""
    (site / "content/docs").mkdir()
    (site / "content/docs/index.md").write_text("---\ntitle: Guide\n---\nA page of the docs.\n")
    engine = Engine(site, OPTIONS)
    engine.build()
    config = site / "site.yaml"

    def edit(old: str, new: str) -> tuple[bool, tuple[str, ...]]:
        """Whether the docs bundle ran, and the parts of the search index made again."""
        before = engine.state.records.bundles["docs"]
        config.write_text(config.read_text().replace(old, new))
        result = engine.build()
        assert_same_as_full_build(site)
        return engine.state.records.bundles["docs"] is not before, result.reports["search"].made

    assert edit("posts_per_page: 2", "posts_per_page: 1") == (False, ("pages",))   # the blog's lists changed
    ran, parts = edit("title: Test Site", "title: Renamed Site")
    assert ran and "Renamed Site" in (site / "_site/docs/index.html").read_text()
    ran, parts = edit("posts_per_page: 1", "posts_per_page: 1\nsearch: {exclude_selectors: [nav]}")
    assert not ran and {"pages", "docs"} <= set(parts) and any(part.startswith("blog") for part in parts)


def test_a_settings_edit_reaches_the_docs_pages_whose_liquid_read_it(site: Path) -> None:
    """What the parse of a docs page read of the settings counts as the docs bundle's reads:
    its Liquid's ``site.author``, which no docs template reads, runs the docs again."""
    (site / "content/docs").mkdir()
    (site / "content/docs/index.md").write_text("---\ntitle: Guide\n---\nWritten by {{ site.author }}.\n")
    build(site, OPTIONS)
    config = site / "site.yaml"
    config.write_text(config.read_text().replace("author: Test Author", "author: Other Author"))
    build(site, OPTIONS)
    assert "Written by Other Author." in (site / "_site/docs/index.html").read_text()
    assert_same_as_full_build(site)


def test_a_template_reading_the_baseurl_only_through_a_constant_link_follows_it(site: Path) -> None:
    """Jinja computes a filter of constants once, when it compiles a template (for the first
    page that uses it); ``relative_url`` runs at each render instead, so that every page
    notes that it read the baseurl."""
    (site / "templates/plain.html").write_text('<a href="{{ "/about.html" | relative_url }}">{{ page.title }}</a>\n')
    for name in ("one", "two"):
        (site / f"content/pages/{name}.md").write_text(f"---\ntitle: {name}\nlayout: plain\n---\n")
    build(site, OPTIONS)
    config = site / "site.yaml"
    config.write_text(config.read_text().replace("title: Test Site", "title: Renamed Site"))
    assert not {"one.html", "two.html"} & set(build(site, OPTIONS).outputs)
    config.write_text(config.read_text() + "baseurl: /sub\n")
    assert {"one.html", "two.html"} <= set(build(site, OPTIONS).outputs)
    assert (site / "_site/two.html").read_text() == '<a href="/sub/about.html">two</a>\n'
    assert_same_as_full_build(site)



LIQUID_READING_SETTINGS = "[about]({{ '/about.html' | relative_url }}) and {{ site.title }}"


def test_a_settings_edit_reaches_the_documents_whose_liquid_read_it(site: Path) -> None:
    """The parse cache holds a document for as long as the settings its parse read are as they were:
    a new title and baseurl reach the post whose Liquid used them, as a clean build writes it."""
    post = site / "content/posts/2021-01-02-third.md"
    post.write_text(post.read_text() + f"\n{LIQUID_READING_SETTINGS}\n")
    build(site, OPTIONS)
    config = site / "site.yaml"
    config.write_text(config.read_text().replace("title: Test Site", "title: Renamed Site") + "baseurl: /sub\n")
    build(site, OPTIONS)
    page = (site / "_site/2021/01/02/third.html").read_text()
    assert 'href="/sub/about.html"' in page and "and Renamed Site" in page
    assert_same_as_full_build(site)



def test_a_settings_edit_parses_again_only_the_documents_whose_parse_read_it(site: Path) -> None:
    post = site / "content/posts/2021-01-02-third.md"
    post.write_text(post.read_text() + f"\n{LIQUID_READING_SETTINGS}\n")
    about = site / "content/pages/about.md"      # a post's URL: where the permalink puts it
    about.write_text(about.read_text() + "\n[The first]({% post_url 2019-03-18-first-post %})\n")
    build(site, OPTIONS)
    config = site / "site.yaml"

    def edit(old: str, new: str) -> int:
        config.write_text(config.read_text().replace(old, new))
        return build(site, OPTIONS).documents.parsed

    assert edit("title: Test Site", "title: Renamed Site") == 1            # the post's Liquid read it
    # through relative_url, and about's post_url, whose path is under the baseurl as in Jekyll 4
    assert edit("posts_per_page: 2", "posts_per_page: 2\nbaseurl: /sub") == 2
    assert edit("posts_per_page: 2", "posts_per_page: 1") == 0              # no parse reads it
    # Placement is not the parse's: only about, whose post_url asks where a post goes, is parsed again.
    assert edit("timezone: UTC", "timezone: UTC\npermalink: /:year/:slug.html") == 1
    assert 'href="/sub/2019/first-post.html"' in (site / "_site/about.html").read_text()
    assert_same_as_full_build(site)


def test_a_permalink_edit_places_every_post_again_without_parsing_one(site: Path) -> None:
    """A post's URL and date come from its front matter, file name and the settings, worked out
    after the parse: a permalink or time zone edit parses nothing again, yet every post, every
    listing and every link to a post follows, as a clean build writes them."""
    build(site, OPTIONS)
    config = site / "site.yaml"
    config.write_text(config.read_text().replace("timezone: UTC", "timezone: UTC\npermalink: /posts/:slug/"))
    result = build(site, OPTIONS)
    assert result.documents.parsed == 0
    made = files(site / "_site")
    assert {"posts/first-post/index.html", "posts/second/index.html", "posts/third/index.html"} <= made.keys()
    assert not any(name.startswith(("2019/", "2020/", "2021/")) for name in made)
    assert_same_as_full_build(site)
    config.write_text(config.read_text().replace("timezone: UTC", "timezone: Asia/Tokyo"))
    assert build(site, OPTIONS).documents.parsed == 0
    assert_same_as_full_build(site)


def test_a_permalink_edit_parses_again_the_post_whose_liquid_reads_its_url(site: Path) -> None:
    """Liquid that asks where its page goes (``page.url``, or the whole ``page``) ties that
    parse, and only it, to the permalink."""
    post = site / "content/posts/2021-01-02-third.md"
    post.write_text(post.read_text() + "\nHere: {{ page.url }}; {{ page | jsonify }}\n")
    build(site, OPTIONS)
    config = site / "site.yaml"
    config.write_text(config.read_text().replace("timezone: UTC", "timezone: UTC\npermalink: /posts/:slug/"))
    assert build(site, OPTIONS).documents.parsed == 1
    assert "Here: /posts/third/;" in (site / "_site/posts/third/index.html").read_text()
    assert_same_as_full_build(site)


# --- The invariant, as a property: any sequence of edits, any mix of warm and fresh engines.

TAGS = ["compilers", "gpu", "release", "performance"]
WORDS = ["alpha", "beta", "gamma", "delta", "tensor", "kernel"]
AUTHORS = ["Ada", "ada", "Grace Hopper", "Nobody"]       # a key, a name, one the file may not hold
# content/data/authors.yml as it may be: who is in it, by which name, with which avatar (or none).
AUTHOR_FILES = [
    "ada: {name: Ada Lovelace, avatar: /assets/img/ada.svg}\ngrace: {name: Grace Hopper}\n",
    "ada: {name: Ada L., bio: Engines.}\n",
    "grace: {name: Grace Hopper, avatar: /assets/img/grace.svg}\nnobody: {name: Nobody}\n",
    "ada: {name: Ada, avatar: /assets/img/missing.svg}\n",        # no such file: the build stops
    "",                                                          # no authors file
]


@dataclass
class Post:
    title: str
    tags: list[str] = field(default_factory=list)
    body: str = "Body text."
    draft: bool = False
    broken: bool = False
    author: str = ""
    liquid: bool = False    # its body's Liquid reads settings, a data file, an include and its date

    def text(self) -> str:
        if self.broken:
            return "---\ntitle: [unclosed\n---\nbroken\n"
        front = f"title: {self.title}\ntags: [{', '.join(self.tags)}]\n"
        if self.author:
            front += f"author: {self.author}\n"
        if self.draft:
            front += "draft: true\n"
        liquid = f"\n\n{LIQUID_READING_SETTINGS}, {LIQUID_READING_DATA} {{% include note.html %}}" if self.liquid else ""
        return f"---\n{front}---\n{self.body}{liquid}\n\nSecond paragraph.\n"


LIQUID_READING_DATA = "{{ site.data.team.members | first }} on {{ page.date | date_to_xmlschema }}"
# site.yaml values as an author edits them: each is read by a parse, a render or both.
SETTINGS = {
    "title": ["Test Site", "Renamed Site"],
    "baseurl": ['""', "/sub", "/docs/v2"],
    "permalink": ["/:year/:month/:day/:slug.html", "/:year/:month/:day/:slug/", "/posts/:year/:month/:day/:slug.html"],
    "timezone": ["UTC", "Asia/Tokyo", "America/Los_Angeles"],
    "description": ["A small site for tests.", "Another description."],
    "archives": ["{}", "{authors: false}", "{tags: /topics.html, paginate_groups: false}"],
    "feeds": ["{}", "{tags: false, entries: 1}"],
    "social": ["{}", "{twitter: '@sitegen'}"],
    "repository": ["{}", "{url: https://example.org/repo}"],
    "markdown": ["{}", "{header_ids: kramdown}"],
    "demo": ["{greeting: Hello}", "{greeting: Howdy}"],                  # the demo plugin's section
    "static": ["[images]", "[]"],
    "theme": ["theme", '""'],
    "versions": ["[]", "[{name: dev, worktree: true, default: true}, {name: v1, ref: v1}]"],   # docs from git
}


def post_names() -> st.SearchStrategy[str]:
    days = st.dates(min_value=datetime(2028, 1, 1).date(), max_value=datetime(2030, 2, 1).date())
    return st.builds(lambda d, w: f"{d.isoformat()}-{w}.md", days, st.sampled_from(WORDS))


def posts() -> st.SearchStrategy[Post]:
    return st.builds(Post, st.sampled_from(WORDS).map(str.title),
                     st.lists(st.sampled_from(TAGS), max_size=2, unique=True),
                     st.sampled_from(WORDS).map(lambda w: f"Body about {w}."))


Operation = tuple
operations = st.one_of(
    st.tuples(st.just("add"), post_names(), posts()),
    st.tuples(st.just("delete"), st.integers(0, 20)),
    st.tuples(st.just("rename"), st.integers(0, 20), post_names()),
    st.tuples(st.just("title"), st.integers(0, 20), st.sampled_from(WORDS)),
    st.tuples(st.just("body"), st.integers(0, 20), st.sampled_from(WORDS)),
    st.tuples(st.just("same-size body"), st.integers(0, 20)),
    st.tuples(st.just("length"), st.integers(0, 20), st.sampled_from([1, 300, 600])),   # its reading time
    st.tuples(st.just("tags"), st.integers(0, 20), st.lists(st.sampled_from(TAGS), max_size=3, unique=True)),
    st.tuples(st.just("draft"), st.integers(0, 20)),
    st.tuples(st.just("author"), st.integers(0, 20), st.sampled_from(["", *AUTHORS])),
    st.tuples(st.just("authors file"), st.sampled_from(AUTHOR_FILES)),
    st.tuples(st.just("break"), st.integers(0, 20)),
    st.tuples(st.just("template"), st.sampled_from(["post.html", "partials/footer.html",
                                                    "partials/post_list.html", "blog.html",
                                                    "author.html", "partials/byline.html"]),
              st.sampled_from(WORDS)),
    st.tuples(st.just("page"), st.sampled_from(WORDS)),
    st.tuples(st.just("text page"), st.sampled_from(["", *WORDS])),    # read by the demo plugin's reader
    st.tuples(st.just("docs"), st.sampled_from(["index.md", "guide.md", "deep/topic.md"]),
              st.sampled_from(["", *WORDS])),
    st.tuples(st.just("per page"), st.integers(1, 3)),
    st.sampled_from([("setting", key, value) for key, values in SETTINGS.items() for value in values]),
    st.tuples(st.just("liquid"), st.integers(0, 20)),
    st.tuples(st.just("team"), st.lists(st.sampled_from(AUTHORS), min_size=1, max_size=2)),   # a data file
    st.tuples(st.just("search"), st.booleans()),                        # the search index on or off
    st.tuples(st.just("asset"), st.sampled_from(["assets/css/site.css", "assets/img/new.txt"]),
              st.sampled_from(["", *WORDS])),
    st.tuples(st.just("time"), st.integers(-40, 40)),
    st.tuples(st.just("include"), st.sampled_from(WORDS)),            # content/includes/note.html
    st.tuples(st.just("theme template"), st.sampled_from(["partials/footer.html", "page.html"]),
              st.sampled_from(WORDS)),                                  # theme/templates/, under the site's own
    st.tuples(st.just("static"), st.sampled_from(["images/logo.txt", "images/deep/new.txt"]),
              st.sampled_from(["", *WORDS])),
    st.tuples(st.just("notebook"), st.sampled_from(WORDS), st.sampled_from(["", *WORDS])),   # its metadata
    st.tuples(st.just("tag docs"), st.sampled_from(WORDS)),     # docs committed anew and tag v1 moved there
)


def write_or_delete(path: Path, text: str | None) -> None:
    """Write ``text`` at ``path`` (making its folder), or delete the file where there is no text."""
    if text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    else:
        path.unlink(missing_ok=True)


class SiteModel:
    """The site's posts as data, written out after each operation."""

    def __init__(self, root: Path):
        self.root = root
        self.posts: dict[str, Post] = {}
        self.now = NOW
        self.touched: set[str] = set()     # what a file watcher would report
        self.clock = 1_500_000_000 * 10**9
        for path in sorted((root / "content/posts").glob("*.md")):
            path.unlink()
        (root / "assets/img").mkdir(parents=True, exist_ok=True)
        for name in ("ada.svg", "grace.svg"):
            (root / "assets/img" / name).write_text('<svg xmlns="http://www.w3.org/2000/svg"/>\n')
        (root / "content/includes").mkdir(parents=True, exist_ok=True)
        (root / "content/includes/note.html").write_text("<em>noted</em>\n")
        (root / "images").mkdir()
        (root / "images/logo.txt").write_text("logo\n")
        (root / "theme/templates/partials").mkdir(parents=True)
        shutil.copy(DEFAULT_THEME / "templates/partials/footer.html", root / "theme/templates/partials")
        (root / "notebooks").mkdir()
        self.apply(("notebook", "alpha", ""))
        self.apply(("docs", "index.md", "alpha"))
        with open(root / "site.yaml", "a") as config:
            config.write("static: [images]\ntheme: theme\n")
        (root / ".gitignore").write_text("_site/\n.sitegen/\n")
        git(root, "init", "-q", "-b", "main")
        self.apply(("tag docs", "alpha"))
        for name, post in [("2028-05-01-alpha.md", Post("Alpha", ["gpu"], author="Ada")),
                           ("2029-01-01-beta.md", Post("Beta", ["gpu", "release"], author="Grace Hopper")),
                           ("2029-06-01-gamma.md", Post("Gamma"))]:
            self.apply(("add", name, post))
        self.apply(("authors file", AUTHOR_FILES[0]))

    def apply(self, op: Operation) -> None:
        before = files(self.root, ignore=("_site", ".sitegen", ".git"))
        self._apply(op)
        after = files(self.root, ignore=("_site", ".sitegen", ".git"))
        touched = {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}
        for name in touched & after.keys():
            # A distinct time long past: stamps are trusted, as for files saved minutes ago,
            # so that builds rely on them (and on the watcher's report) and not on re-reading.
            self.clock += 1_000_000_000
            os.utime(self.root / name, ns=(self.clock, self.clock))
        self.touched |= touched

    def take_touched(self) -> set[str]:
        touched, self.touched = self.touched, set()
        return touched

    def _apply(self, op: Operation) -> None:
        kind, *args = op
        names = sorted(self.posts)
        posts_dir = self.root / "content/posts"
        if kind == "add":
            name, post = args
            self.posts[name] = post
            (posts_dir / name).write_text(post.text())
            return
        if kind == "template":
            path = own_template(self.root, args[0])   # a theme template becomes the site's own
            path.write_text(path.read_text().replace("</", f"<!-- {args[1]} --></", 1))
        elif kind == "theme template":
            path = self.root / "theme/templates" / args[0]
            if not path.exists():
                shutil.copy(DEFAULT_THEME / "templates" / args[0], path)
            path.write_text(path.read_text().replace("</", f"<!-- {args[1]} --></", 1))
        elif kind == "include":
            (self.root / "content/includes/note.html").write_text(f"<em>{args[0]}</em>\n")
        elif kind == "static":
            write_or_delete(self.root / args[0], args[1] and f"{args[1]}\n")
        elif kind == "notebook":    # saved outputs, never run: its metadata and cells are what it shows
            title, description = args
            nbformat.write(new_notebook(cells=[
                new_markdown_cell(f"# {title.title()}\n\nWords."),
                new_code_cell("print(1)", execution_count=1,
                              outputs=[new_output("stream", name="stdout", text=f"{title}\n")])],
                metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                          "sitegen": {"execute": "never", **({"description": description} if description else {})}}),
                self.root / "notebooks/intro.ipynb")
        elif kind == "tag docs":
            path = self.root / "content/docs/guide.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"---\ntitle: Guide\n---\nThe guide, {args[0]} edition.\n")
            git(self.root, "add", "-A", ".")
            git(self.root, "commit", "-q", "--allow-empty", "-m", f"docs: {args[0]}")
            git(self.root, "tag", "-f", "v1")
        elif kind == "text page":
            write_or_delete(self.root / "content/pages/notes.txt",
                            args[0] and f"---\ntitle: Notes {args[0]}\nmood: {args[0]}\n---\n{args[0]}\n\nmore.\n")
        elif kind == "page":
            (self.root / "content/pages/about.md").write_text(f"---\ntitle: About {args[0]}\n---\n{args[0]}\n")
        elif kind == "docs":   # the (unversioned) docs section, a bundle of its own
            write_or_delete(self.root / "content/docs" / args[0],
                            args[1] and f"---\ntitle: {args[1].title()}\n---\nAbout {args[1]}.\n")
        elif kind in ("per page", "search", "setting"):
            key, value = {"per page": ("posts_per_page", args[0]), "setting": tuple(args),
                          "search": ("search", "{}" if args[0] else "false")}[kind]
            config = self.root / "site.yaml"
            lines = [ln for ln in config.read_text().splitlines() if not ln.startswith(key + ":")]
            config.write_text("\n".join(lines + [f"{key}: {value}"]) + "\n")
        elif kind == "asset":
            write_or_delete(self.root / args[0], args[1] and f"/* {args[1]} */\n")
        elif kind == "team":
            (self.root / "content/data/team.yml").write_text(f"members: [{', '.join(args[0])}]\n")
        elif kind == "time":
            self.now = NOW + timedelta(days=args[0])
        elif kind == "authors file":
            write_or_delete(self.root / "content/data/authors.yml", args[0])
        elif names:
            name = names[args[0] % len(names)]
            post = self.posts[name]
            if kind == "delete":
                del self.posts[name]
                (posts_dir / name).unlink()
                return
            if kind == "rename":
                del self.posts[name]
                (posts_dir / name).unlink()
                name = args[1]
            elif kind == "title":
                post.title = args[1].title()
            elif kind == "body":
                post.body = f"Body about {args[1]}."
            elif kind == "same-size body":  # same length: only the content hash tells
                post.body = post.body.swapcase()
            elif kind == "length":
                post.body = " ".join(["word"] * args[1])
            elif kind == "tags":
                post.tags = args[1]
            elif kind == "draft":
                post.draft = not post.draft
            elif kind == "author":
                post.author = args[1]
            elif kind == "liquid":
                post.liquid = not post.liquid
            if kind == "break":
                post.broken = True
            else:
                post.broken = False
            self.posts[name] = post
            (posts_dir / name).write_text(post.text())


@settings(max_examples=15, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(operations, st.booleans(), st.booleans()), min_size=1, max_size=8))
# Found by this test: a clock set back before a published post's date must hold that post back again.
@example([(("delete", 0), False, False), (("rename", 0, "2029-12-24-alpha.md"), False, False),
          (("time", -9), False, False)])
# A post's author decides which author pages list it, as its tags decide its tag pages.
@example([(("author", 2, "ada"), False, False)])
# A post's Liquid reads site.title and site.baseurl: a new title and baseurl reach it (issue 35).
@example([(("liquid", 0), False, False), (("setting", "title", "Renamed Site"), True, False),
          (("setting", "baseurl", "/sub"), False, False)])
# Every input besides posts and site.yaml: an include, theme and site templates, a static folder,
# a notebook's metadata, docs from a git ref moved, a plugin's settings (issue 35, item 2).
@example([(("include", "beta"), False, False), (("liquid", 0), True, False),
          (("theme template", "partials/footer.html", "beta"), False, False),
          (("static", "images/deep/new.txt", "beta"), True, False), (("notebook", "beta", "gamma"), False, False),
          (("setting", "versions", SETTINGS["versions"][1]), False, False), (("tag docs", "beta"), True, False),
          (("setting", "demo", "{greeting: Howdy}"), False, False)])
def test_incremental_output_always_equals_a_clean_full_build(steps: list[tuple[Operation, bool, bool]]) -> None:
    """Steps alternate at random between a new engine from the saved state (``sitegen
    build``) and the engine kept in memory, told which files changed (``sitegen serve``).
    They edit every kind of input: posts, pages, data, includes, site and theme templates,
    assets and a static folder, site.yaml (a plugin's section too), a notebook, the docs in
    the working tree and at a git ref (the site is a repository), and the clock.
    Planners added by a plug-in (tests/plugin_outputs.py) are held to the same rule, as are
    the reader and planner of a plugin installed through its entry point (tests/data/plugin),
    and the search index, made from the pages' bytes after every other file; as the preview
    does, a build may leave the index behind (the pages must be right), for the next to make."""
    with tempfile.TemporaryDirectory() as tmp, demo_plugin_installed(Path(tmp) / "plugins"):
        root = make_site(Path(tmp) / "site")
        model = SiteModel(root)
        engine = Engine(root, OPTIONS, with_plugins())
        engine.build(now=model.now)
        model.take_touched()
        for op, new_process, deferred in steps:
            model.apply(op)
            before = files(root / "_site")
            if new_process:
                engine = Engine(root, OPTIONS, with_plugins())
            options = BuildOptions(now=model.now)
            try:
                expected = full_build(root, options, with_plugins())
            except SiteError:
                with pytest.raises(SiteError):
                    engine.build(now=model.now, changed=model.take_touched())
                assert files(root / "_site") == before
                continue
            engine.build(now=model.now, save=not new_process, changed=model.take_touched(), derive=not deferred)
            if deferred:
                pages = {p: d for p, d in files(root / "_site").items() if not p.startswith("pagefind/")}
                assert pages == {p: d for p, d in expected.items() if not p.startswith("pagefind/")}
                engine.build(now=model.now, save=not new_process, changed=set())    # saves paused
            actual = files(root / "_site")
            assert sorted(actual) == sorted(expected) and "greeting.txt" in actual   # the plugin is in
            assert ("pagefind/parts.json" in actual) == ("search: false" not in (root / "site.yaml").read_text())
            assert [p for p in expected if actual[p] != expected[p]] == []
            assert engine.build(now=model.now).written == []


API_FILES = {   # a package whose pages show each other's text: a base class, re-exports, summaries
    "pkg/__init__.py": '"""The package."""\nfrom pkg.base import Base\n',
    "pkg/base.py": '"""Bases: the first line."""\n\n\nclass Base:\n    """A base."""\n\n'
                   '    def inherited(self) -> int:\n        """Inherited, by Child."""\n',
    "pkg/child.py": '"""Children."""\nimport pkg.base\n\n\nclass Child(pkg.base.Base):\n    """See [pkg.base.Base][]."""\n',
}
API_EDITS = st.sampled_from([
    ("pkg/base.py", "Bases: the first line.", "Bases: a new first line."),     # the package page's summary
    ("pkg/base.py", "Inherited, by Child.", "Inherited, edited."),
    ("pkg/base.py", "def inherited(", "def renamed("),                         # Child's inherited list
    ("pkg/child.py", "See [pkg.base.Base][].", "See [pkg.child.Child][]."),
    ("pkg/__init__.py", "from pkg.base import Base\n", ""),                    # a re-export gone
])


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(API_EDITS, min_size=1, max_size=3))
@example([("pkg/base.py", "def inherited(", "def renamed(")])
@example([("pkg/base.py", "Bases: the first line.", "Bases: a new first line.")])
def test_docstring_edits_build_the_api_reference_a_full_build_makes(tmp_path_factory, edits) -> None:
    site = make_site(tmp_path_factory.mktemp("api") / "site")
    with open(site / "site.yaml", "a") as config:
        config.write("api:\n  - {package: pkg, docstrings: google}\n")
    for rel, text in API_FILES.items():
        (site / rel).parent.mkdir(exist_ok=True)
        (site / rel).write_text(text)
    build(site, OPTIONS)
    for rel, old, new in edits:
        path = site / rel
        path.write_text(path.read_text().replace(old, new))
        build(site, OPTIONS)
        assert_same_as_full_build(site)
