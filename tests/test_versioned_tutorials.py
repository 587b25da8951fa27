"""Tutorials in versioned docs: each version's own notebooks, executed in its own tree,
through one content-addressed cache, by a real kernel, from a real git repository.

The repository's ``website/`` has four states of its tutorials: v0 has none;
v1 has ``same.py`` and ``changed.py`` (which reads a file beside it); v2 edits
``changed.py`` and its file and adds ``only_v2.py``; the working tree (the
version in development) is v2 as committed. Every tutorial appends its name
to a log when it runs, which no cache can fake: across the four versions
``same.py`` must run once, and each edition of ``changed.py`` once.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import lxml.html
import pytest

from conftest import copy_site
from generator.build import build
from generator.cli import main
from generator.errors import SiteError
from site_checks import assert_html5_parses, assert_internal_links_and_anchors
from test_versions import canonical, git, switcher

REPO_ROOT = Path(__file__).resolve().parents[1]
URL = "https://example.org"
VERSIONS_YAML = """
versions:
  - {name: dev, title: "3.0-dev", worktree: true, status: development}
  - {name: v2, title: "2.0", ref: v2, default: true, aliases: [stable]}
  - {name: v1, title: "1.0", ref: v1}
  - {name: v0, title: "0.9", ref: v0, status: unmaintained}
"""


def script(title: str, log: Path, name: str, code: str = "", reads: str = "") -> str:
    """A percent-format tutorial that logs its run as ``name`` and then runs ``code``."""
    header = f"# ---\n# sitegen:\n#   reads: [{reads}]\n# ---\n\n" if reads else ""
    return (f"{header}# %% [markdown]\n# # {title}\n#\n# A tutorial.\n\n"
            f"# %%\nopen({str(log)!r}, 'a').write({name!r} + '\\n')\n{code}\n")


def commit(repo: Path, tag: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", f"docs for {tag}")
    git(repo, "tag", tag)


def new_repo(tmp: Path) -> tuple[Path, Path]:
    """A git repository whose ``website/`` is the basic site with a docs section (tagged v0)."""
    repo = tmp / "repo"
    site = copy_site(repo / "website", "basic")
    shutil.copytree(REPO_ROOT / "assets", site / "assets", dirs_exist_ok=True)
    (site / "assets/css/site.css").unlink()        # the fixture's stub: the theme's stylesheet applies
    git(tmp, "init", "-q", "-b", "main", str(repo))
    docs = site / "content" / "docs"
    docs.mkdir(parents=True)
    (docs / "index.md").write_text("---\ntitle: Docs\n---\nWelcome.\n")
    (docs / "install.md").write_text("---\ntitle: Install\n---\nInstall it.\n")
    commit(repo, "v0")
    return repo, site


def configure(repo: Path, site: Path, versions: str) -> None:
    with open(site / "site.yaml", "a", encoding="utf-8") as f:
        f.write(versions)
    git(repo, "commit", "-q", "-am", "configure versions")


def runs(log: Path) -> list[str]:
    return log.read_text().split() if log.exists() else []


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path, object]:
    tmp = tmp_path_factory.mktemp("versioned-tutorials")
    log = tmp / "runs.log"
    repo, site = new_repo(tmp)
    notebooks = site / "notebooks"
    notebooks.mkdir()
    where = "import os\nprint('ran in', os.getcwd())\nprint(open('data.txt').read())"
    (notebooks / "same.py").write_text(script("Same everywhere", log, "same", "print('same output')"))
    (notebooks / "changed.py").write_text(script("Changed", log, "changed-v1", where, reads="data.txt"))
    (notebooks / "data.txt").write_text("data of v1")
    commit(repo, "v1")
    (notebooks / "changed.py").write_text(script("Changed", log, "changed-v2", where, reads="data.txt"))
    (notebooks / "data.txt").write_text("data of v2")
    (notebooks / "only_v2.py").write_text(script("New in 2.0", log, "only_v2"))
    commit(repo, "v2")
    configure(repo, site, VERSIONS_YAML)
    result = build(site)
    return site, log, result


def page(out: Path, rel: str) -> lxml.html.HtmlElement:
    return lxml.html.fromstring((out / rel).read_bytes())


def test_a_tutorial_the_same_in_two_versions_executes_once(built):
    site, log, result = built
    assert sorted(runs(log)) == ["changed-v1", "changed-v2", "only_v2", "same"]
    # dev ran its three; v2 (the same tree) took all three from the cache; v1 ran only its changed one.
    assert (result.reports["docs"].tutorials.ran, result.reports["docs"].tutorials.cached) == (4, 4)
    assert result.reports["docs"].versions == {"dev": "built", "v2": "built", "v1": "built", "v0": "built"}
    # Nothing changed: every version is reused, and nothing runs or is even looked up.
    again = build(site)
    assert set(again.reports["docs"].versions.values()) == {"reused"} and again.reports["docs"].tutorials.total == 0
    assert len(runs(log)) == 4


def test_each_version_publishes_its_own_tutorials(built):
    site, _, _ = built
    out = site / "_site"

    def tutorials(version: str) -> set[str]:
        folder = out / "docs" / version / "tutorials"
        return {p.relative_to(folder).as_posix() for p in folder.glob("*.*")} if folder.is_dir() else set()

    both = {"index.html", "same.html", "same.ipynb", "same.py", "changed.html", "changed.ipynb", "changed.py"}
    assert tutorials("v1") == both
    assert tutorials("v2") == tutorials("dev") == both | {"only_v2.html", "only_v2.ipynb", "only_v2.py"}
    assert tutorials("v0") == set()
    gallery = page(out, "docs/v1/tutorials/index.html")
    assert [a.get("href") for a in gallery.cssselect(".gallery h2 a")] == \
        ["/docs/v1/tutorials/changed.html", "/docs/v1/tutorials/same.html"]
    # The docs pages of a version with tutorials link their gallery; v0's have none to link.
    assert "/docs/v1/tutorials/" in [a.get("href") for a in page(out, "docs/v1/install.html").cssselect(".docs-nav a")]
    assert "tutorials/" not in (out / "docs/v0/install.html").read_text()


def test_each_version_executes_in_its_own_tree(built):
    site, _, _ = built
    out = site / "_site"
    v1 = (out / "docs/v1/tutorials/changed.html").read_text()
    assert "data of v1" in v1
    ran_in = re.search(r"ran in (\S+)", v1).group(1)
    assert Path(ran_in).name == "notebooks" and "sitegen-version-" in ran_in   # the export, not the checkout
    assert not Path(ran_in).exists()                                         # removed after the build
    dev = (out / "docs/dev/tutorials/changed.html").read_text()
    assert "data of v2" in dev and f"ran in {(site / 'notebooks').resolve()}" in dev
    assert "data of v2" in (out / "docs/v2/tutorials/changed.html").read_text()
    assert "'changed-v1'" in (out / "docs/v1/tutorials/changed.py").read_text()


def test_switcher_banner_and_canonical_on_tutorial_pages(built):
    site, _, _ = built
    out = site / "_site"
    assert switcher(page(out, "docs/v1/tutorials/same.html")) == {
        "3.0-dev": "/docs/dev/tutorials/same.html", "2.0": "/docs/v2/tutorials/same.html",
        "1.0": "/docs/v1/tutorials/same.html", "0.9": "/docs/v0/"}
    # A tutorial another version lacks leads to that version's gallery, or its docs index.
    assert switcher(page(out, "docs/v2/tutorials/only_v2.html")) == {
        "3.0-dev": "/docs/dev/tutorials/only_v2.html", "2.0": "/docs/v2/tutorials/only_v2.html",
        "1.0": "/docs/v1/tutorials/", "0.9": "/docs/v0/"}
    assert switcher(page(out, "docs/v0/install.html"))["1.0"] == "/docs/v1/install.html"
    (banner,) = page(out, "docs/v1/tutorials/changed.html").cssselect(".version-banner")
    assert [a.get("href") for a in banner.cssselect("a")] == ["/docs/v2/tutorials/changed.html"]
    assert not page(out, "docs/v2/tutorials/changed.html").cssselect(".version-banner")
    assert canonical(page(out, "docs/v1/tutorials/same.html")) == f"{URL}/docs/v2/tutorials/same.html"
    assert canonical(page(out, "docs/dev/tutorials/index.html")) == f"{URL}/docs/v2/tutorials/"
    refresh = page(out, "docs/stable/tutorials/same.html").cssselect('meta[http-equiv="refresh"]')[0]
    assert refresh.get("content") == "0; url=/docs/v2/tutorials/same.html"


def test_the_unversioned_tutorials_url_leads_to_the_default_version(built):
    site, _, _ = built
    out = site / "_site"
    for old, new in (("index.html", ""), ("same.html", "same.html"), ("only_v2.html", "only_v2.html")):
        (refresh,) = page(out, f"docs/tutorials/{old}").cssselect('meta[http-equiv="refresh"]')
        assert refresh.get("content") == f"0; url=/docs/v2/tutorials/{new}"
    for download in ("same.ipynb", "changed.py"):
        assert (out / "docs/tutorials" / download).read_bytes() == \
            (out / "docs/v2/tutorials" / download).read_bytes()
    listed = (out / "sitemap.txt").read_text().split()
    assert f"{URL}/docs/v2/tutorials/same.html" in listed
    assert not [url for url in listed if "/docs/tutorials/" in url or "/docs/v1/" in url]


def test_every_page_is_valid_and_every_link_resolves(built):
    site, _, _ = built
    assert_html5_parses(site / "_site")
    assert_internal_links_and_anchors(site / "_site")


def test_without_versions_tutorials_stay_at_docs_tutorials(built, tmp_path):
    site, log, _ = built
    copy = tmp_path / "unversioned"
    shutil.copytree(site, copy)                          # with its run cache, outside git
    config = copy / "site.yaml"
    config.write_text(config.read_text().replace(VERSIONS_YAML, ""))
    result = build(copy)
    assert (result.reports["docs"].tutorials.ran, result.reports["docs"].tutorials.cached) == (0, 3) and len(runs(log)) == 4
    out = copy / "_site"
    html = (out / "docs/tutorials/same.html").read_text()
    assert "same output" in html and "sitegen:version" not in html and "version-switcher" not in html
    assert "/docs/tutorials/" in [a.get("href") for a in page(out, "docs/install.html").cssselect(".docs-nav a")]


# --- errors name the version ------------------------------------------------------

def test_a_failing_cell_names_version_notebook_and_cell(tmp_path, capsys):
    log = tmp_path / "runs.log"
    repo, site = new_repo(tmp_path)
    (site / "notebooks").mkdir()
    (site / "notebooks" / "broken.py").write_text(script("Broken", log, "broken", "# %%\n1 / 0"))
    commit(repo, "v1")
    (site / "notebooks" / "broken.py").unlink()
    configure(repo, site, "versions:\n  - {name: dev, worktree: true}\n"
                          "  - {name: v1, ref: v1, default: true}\n")
    with pytest.raises(SiteError) as caught:
        build(site)
    error = caught.value
    assert (error.path, error.line) == ("notebooks/broken.py", 8)
    assert error.message.startswith("cell 3 raised ZeroDivisionError: division by zero "
                                    "(docs version 'v1', ref v1)\n    | 1 / 0")
    assert "Traceback" in error.message
    assert re.search(r"\[1/1\] notebooks/broken.py \(v1\): failed \(error\) in", capsys.readouterr().err)
    assert runs(log) == ["broken"] and not (site / "_site").exists()


def test_a_missing_requirement_names_the_version(tmp_path):
    repo, site = new_repo(tmp_path)
    (site / "notebooks").mkdir()
    needs = "# ---\n# sitegen:\n#   requires: [no_such_module_here]\n# ---\n\n# %%\nimport no_such_module_here\n"
    (site / "notebooks" / "needs.py").write_text(needs)
    commit(repo, "v1")
    configure(repo, site, "versions:\n  - {name: v1, ref: v1, default: true}\n")
    with pytest.raises(SiteError) as caught:
        build(site)
    assert caught.value.path == "notebooks/needs.py"
    assert caught.value.message.startswith("needs module no_such_module_here, which this machine lacks")
    assert "(docs version 'v1', ref v1)" in caught.value.message
    assert main(["-C", str(site), "build"]) == 1

    # Shown unexecuted where site.yaml allows it, and built again next time: a run may turn up.
    with open(site / "site.yaml", "a", encoding="utf-8") as f:
        f.write("notebooks:\n  allow_unexecuted: true\n")
    for _ in range(2):
        result = build(site)
        assert result.reports["docs"].versions == {"v1": "built"} and result.reports["docs"].tutorials.unexecuted == 1
    assert "Not executed" in (site / "_site/docs/v1/tutorials/needs.html").read_text()


def test_a_docs_page_and_a_tutorial_claiming_one_url_is_an_error(tmp_path):
    repo, site = new_repo(tmp_path)
    (site / "notebooks").mkdir()
    (site / "notebooks" / "empty.py").write_text("# %% [markdown]\n# # Empty\n")
    (site / "content/docs/tutorials").mkdir()
    (site / "content/docs/tutorials/empty.md").write_text("---\ntitle: Empty\n---\nA page.\n")
    commit(repo, "v1")
    configure(repo, site, "versions:\n  - {name: v1, ref: v1, default: true}\n")
    with pytest.raises(SiteError, match=r"/docs/v1/tutorials/empty.html is claimed by both "
                                        r"notebooks/empty.py and content/docs/tutorials/empty.md "
                                        r"\(docs version 'v1', ref v1\)"):
        build(site)
