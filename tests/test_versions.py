"""Versioned docs, built from a real git repository made here.

The repository holds a site in a subfolder (``website/``) with three tagged
versions of its docs: v2 adds a tutorial, v3 removes one and changes another.
The working tree is the version in development and carries an edit nobody
committed, which the build must see and leave exactly where it is.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import subprocess
import tarfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from collections.abc import Iterator
from pathlib import Path

import lxml.html
import pytest

from generator.build import BuildOptions, build
from generator.cli import main
from generator.errors import SiteError
from generator.render import DEFAULT_THEME
from conftest import own_template

REPO_ROOT = Path(__file__).resolve().parents[1]
BASIC = REPO_ROOT / "tests" / "data" / "basic"
URL = "https://example.org"

VERSIONS_YAML = """
versions:
  - {name: dev, title: "4.0-dev", worktree: true, status: development}
  - {name: v3, title: "3.0", ref: v3, default: true, aliases: [stable, latest]}
  - {name: v2, title: "2.0", ref: v2}
  - {name: v1, title: "1.0", ref: v1, status: unmaintained, aliases: [old], alias_type: copy}
"""

GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.org",
           "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.org",
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=GIT_ENV, check=True,
                          capture_output=True, text=True).stdout.strip()


def page(title: str, body: str) -> str:
    return f"---\ntitle: {title}\n---\n{body}\n"


def write(site: Path, rel: str, text: str) -> None:
    path = site / "content" / "docs" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def commit_and_tag(repo: Path, tag: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", f"docs for {tag}")
    git(repo, "tag", tag)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository whose ``website/`` holds the site, with docs tagged v1, v2, v3."""
    repo = tmp_path / "repo"
    site = repo / "website"
    shutil.copytree(BASIC, site)
    shutil.copytree(REPO_ROOT / "templates", site / "templates")
    git(tmp_path, "init", "-q", "-b", "main", str(repo))

    write(site, "index.md", page("Docs", "Welcome to the docs."))
    write(site, "install.md", page("Install", "Install with `pip install thing`."))
    write(site, "tutorials/basics.md", page("Basics", "The basics, first edition."))
    write(site, "tutorials/legacy.md", page("Legacy API", "The old API."))
    commit_and_tag(repo, "v1")

    write(site, "tutorials/tuning.md", page("Tuning", "How to tune."))
    commit_and_tag(repo, "v2")

    (site / "content/docs/tutorials/legacy.md").unlink()
    write(site, "tutorials/basics.md", page("Basics", "The basics, second edition."))
    commit_and_tag(repo, "v3")

    with open(site / "site.yaml", "a", encoding="utf-8") as f:
        f.write(VERSIONS_YAML)
    git(repo, "add", "website/site.yaml")
    git(repo, "commit", "-q", "-m", "configure versions")
    write(site, "tutorials/new.md", page("New tutorial", "Written, not committed yet."))
    return repo


@pytest.fixture
def site(repo: Path) -> Path:
    return repo / "website"


def html_pages(out: Path, version: str) -> set[str]:
    base = out / "docs" / version
    return {p.relative_to(base).as_posix() for p in base.rglob("*.html")}


def parse(out: Path, rel: str) -> lxml.html.HtmlElement:
    return lxml.html.fromstring((out / rel).read_bytes())


def served_file(out: Path, url: str) -> Path:
    """The file a static server sends for a site URL."""
    assert url.startswith("/"), url
    path = out / url.lstrip("/")
    return path / "index.html" if url.endswith("/") else path


def switcher(doc: lxml.html.HtmlElement) -> dict[str, str]:
    return {a.text_content(): a.get("href")
            for a in doc.cssselect("[data-version-switcher] a")}


def canonical(doc: lxml.html.HtmlElement) -> str:
    (link,) = doc.cssselect('link[rel="canonical"]')
    return link.get("href")


def set_versions(site: Path, text: str) -> None:
    config = (site / "site.yaml").read_text(encoding="utf-8")
    (site / "site.yaml").write_text(config.replace(VERSIONS_YAML, text), encoding="utf-8")


def assert_same_as_clean_build(site: Path) -> None:
    """The site's output as built is the output of a clean build (no ``_site``, no ``.sitegen``)."""
    out = site / "_site"
    incremental = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    shutil.rmtree(out)
    shutil.rmtree(site / ".sitegen")
    build(site, BuildOptions(refresh=True))
    clean = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert sorted(incremental) == sorted(clean)
    assert [p for p in clean if incremental[p] != clean[p]] == []


# --- what each version holds -------------------------------------------------


def test_each_version_is_built_from_its_own_tree(site: Path):
    result = build(site)
    out = site / "_site"
    common = {"index.html", "install.html", "tutorials/basics.html"}
    assert html_pages(out, "v1") == common | {"tutorials/legacy.html"}
    assert html_pages(out, "v2") == common | {"tutorials/legacy.html", "tutorials/tuning.html"}
    assert html_pages(out, "v3") == common | {"tutorials/tuning.html"}
    assert html_pages(out, "dev") == common | {"tutorials/tuning.html", "tutorials/new.html"}
    assert "first edition" in (out / "docs/v1/tutorials/basics.html").read_text()
    assert "second edition" in (out / "docs/v3/tutorials/basics.html").read_text()
    assert result.reports["docs"].versions == {"dev": "built", "v3": "built", "v2": "built", "v1": "built"}
    # Blog posts and pages stay unversioned.
    assert (out / "about.html").is_file() and not (out / "docs/v1/about.html").exists()


def test_the_authors_working_tree_is_left_alone(repo: Path, site: Path):
    status, head = git(repo, "status", "--porcelain"), git(repo, "rev-parse", "HEAD")
    assert status == "?? website/content/docs/tutorials/new.md"
    build(site)
    outputs = {"?? website/_site/", "?? website/.sitegen/"}
    assert set(git(repo, "status", "--porcelain").splitlines()) == {status} | outputs
    assert git(repo, "rev-parse", "HEAD") == head
    assert (site / "content/docs/tutorials/new.md").is_file()
    assert not (site / "content/docs/tutorials/legacy.md").exists()


def test_docs_pages_use_the_current_templates(site: Path):
    template = own_template(site, "docs.html")
    template.write_text(template.read_text().replace('class="prose docs-page"',
                                                     'class="prose docs-page" data-today="yes"'))
    build(site)
    for version in ("v1", "v2", "v3", "dev"):
        assert parse(site / "_site", f"docs/{version}/install.html").cssselect("[data-today]")


# --- switcher, banner, canonical ---------------------------------------------

def test_switcher_links_resolve_and_keep_the_reader_on_the_same_page(site: Path):
    build(site)
    out = site / "_site"
    checked = 0
    for version in ("v1", "v2", "v3", "dev"):
        for rel in html_pages(out, version):
            links = switcher(parse(out, f"docs/{version}/{rel}"))
            assert list(links) == ["4.0-dev", "3.0", "2.0", "1.0"]
            for href in links.values():
                assert served_file(out, href).is_file(), (version, rel, href)
                checked += 1
    assert checked == 4 * 18
    legacy = switcher(parse(out, "docs/v1/tutorials/legacy.html"))
    assert legacy == {"4.0-dev": "/docs/dev/", "3.0": "/docs/v3/", "2.0": "/docs/v2/tutorials/legacy.html",
                      "1.0": "/docs/v1/tutorials/legacy.html"}
    basics = switcher(parse(out, "docs/v2/tutorials/basics.html"))
    assert basics["3.0"] == "/docs/v3/tutorials/basics.html"
    assert switcher(parse(out, "docs/dev/tutorials/new.html"))["1.0"] == "/docs/v1/"
    current = parse(out, "docs/v2/install.html").cssselect("[data-version-switcher] a[aria-current]")
    assert [a.text_content() for a in current] == ["2.0"]


def test_banner_on_versions_other_than_the_default(site: Path):
    build(site)
    out = site / "_site"
    assert not parse(out, "docs/v3/install.html").cssselect(".version-banner")
    words = {"dev": "not released yet", "v2": "an older release", "v1": "no longer maintained"}
    for version, phrase in words.items():
        (banner,) = parse(out, f"docs/{version}/install.html").cssselect(".version-banner")
        assert phrase in " ".join(banner.text_content().split())
        assert [a.get("href") for a in banner.cssselect("a")] == ["/docs/v3/install.html"]
    (banner,) = parse(out, "docs/v1/tutorials/legacy.html").cssselect(".version-banner")
    assert [a.get("href") for a in banner.cssselect("a")] == ["/docs/v3/"]


def test_the_switcher_labels_stable_development_and_end_of_life(site: Path):
    build(site)
    doc = parse(site / "_site", "docs/v2/install.html")
    labels = {a.text_content(): a.get("data-badge") for a in doc.cssselect("[data-version-switcher] a")}
    assert labels == {"4.0-dev": "development", "3.0": "stable", "2.0": "", "1.0": "end of life"}
    shown = [" ".join(li.text_content().split()) for li in doc.cssselect("[data-version-switcher] li")]
    assert shown == ["4.0-dev development", "3.0 stable", "2.0", "1.0 end of life"]
    (banner,) = doc.cssselect(".version-banner")
    assert "The stable version is 3.0" in " ".join(banner.text_content().split())


def test_a_release_newer_than_the_stable_one_is_labelled_latest(site: Path):
    set_versions(site, VERSIONS_YAML.replace('{name: v2, title: "2.0", ref: v2}',
                                             '{name: v2, title: "2.0", ref: v2, status: latest}'))
    build(site)
    doc = parse(site / "_site", "docs/v2/install.html")
    labels = {a.text_content(): a.get("data-badge") for a in doc.cssselect("[data-version-switcher] a")}
    assert labels == {"4.0-dev": "development", "3.0": "stable", "2.0": "latest", "1.0": "end of life"}
    (banner,) = doc.cssselect(".version-banner")
    text = " ".join(banner.text_content().split())
    assert "the latest release, newer than the stable one" in text and "The stable version is 3.0" in text


# --- breadcrumbs and last updated ----------------------------------------------

def crumbs(doc: lxml.html.HtmlElement) -> list[tuple[str, str, str | None]]:
    return [(a.text_content(), a.get("href"), a.get("aria-current"))
            for a in doc.cssselect('nav[aria-label="Breadcrumb"] a')]


def test_breadcrumbs_lead_from_the_docs_index_to_the_page(site: Path):
    write(site, "guide/index.md", page("Guide", "The guide."))
    write(site, "guide/deep/step.md", page("A step", "One step."))
    build(site)
    out = site / "_site"
    assert crumbs(parse(out, "docs/dev/guide/deep/step.html")) == [
        ("Docs", "/docs/dev/", None), ("Guide", "/docs/dev/guide/", None),
        ("A step", "/docs/dev/guide/deep/step.html", "page")]      # deep/ has no index: left out
    assert crumbs(parse(out, "docs/v3/install.html")) == [("Docs", "/docs/v3/", None),
                                                          ("Install", "/docs/v3/install.html", "page")]
    assert crumbs(parse(out, "docs/v3/index.html")) == []


def updated(out: Path, rel: str) -> str | None:
    found = parse(out, rel).cssselect(".docs-updated time")
    return found[0].get("datetime") if found else None


def commit_on(repo: Path, day: str, message: str, *paths: str) -> None:
    """Commit ``paths`` (from the top of ``repo``) as made on ``day``."""
    git(repo, "add", *paths)
    subprocess.run(["git", "commit", "-q", "-m", message], cwd=repo, check=True,
                   env={**GIT_ENV, "GIT_AUTHOR_DATE": f"{day}T12:00:00Z", "GIT_COMMITTER_DATE": f"{day}T12:00:00Z"})


def test_last_updated_comes_from_git_and_an_incremental_build_equals_a_clean_one(repo: Path, site: Path):
    def commit(message: str, day: str, *files: str) -> None:
        commit_on(repo, day, message, *(f"website/content/docs/{name}" for name in files))

    write(site, "install.md", page("Install", "Install with `pip install thing==4`."))
    commit("install for 4.0", "2031-02-03", "install.md")
    build(site)
    out = site / "_site"
    tagged = git(repo, "log", "-1", "--format=%cs", "v3", "--", "website/content/docs/install.md")
    assert updated(out, "docs/v3/install.html") == tagged           # the day at the version's ref
    assert updated(out, "docs/dev/install.html") == "2031-02-03"     # the working tree's last commit
    assert updated(out, "docs/dev/tutorials/new.html") is None       # never committed: no day
    assert "February 3, 2031" in parse(out, "docs/dev/install.html").cssselect(".docs-updated")[0].text_content()

    # Committing the new page changes no file, only its day: the incremental build shows it,
    # as a clean build does.
    commit("add the new tutorial", "2032-04-05", "tutorials/new.md")
    build(site)
    assert updated(out, "docs/dev/tutorials/new.html") == "2032-04-05"
    assert updated(out, "docs/dev/install.html") == "2031-02-03"
    assert_same_as_clean_build(site)


def test_a_tutorial_shows_the_day_its_notebook_last_changed_in_git(repo: Path, site: Path):
    """As a docs page shows its own: the day of the last commit of the tutorial's source (a
    script of cells here), none before one; committing it, which changes no file, reaches the
    next build."""
    source = site / "notebooks/first_steps.py"
    source.parent.mkdir()
    source.write_text("# %% [markdown]\n# # First steps\n\n# %%\nprint(6 * 7)\n", encoding="utf-8")
    build(site)
    out = site / "_site"
    assert updated(out, "docs/dev/tutorials/first_steps.html") is None       # never committed
    commit_on(repo, "2032-04-05", "add a tutorial", "website/notebooks/first_steps.py")
    build(site)
    page = parse(out, "docs/dev/tutorials/first_steps.html")
    assert updated(out, "docs/dev/tutorials/first_steps.html") == "2032-04-05"
    assert page.cssselect(".docs-updated")[0].text_content() == "Last updated on April 5, 2032"
    assert "42" in page.cssselect(".nb-output")[0].text_content()            # run by a real kernel
    assert updated(out, "docs/dev/install.html") != "2032-04-05"              # each page its own day


def test_a_site_of_tutorials_alone_shows_their_days_from_git(tmp_path: Path):
    """Unversioned, with no docs pages: the tutorial's day reaches the next build all the same."""
    site = tmp_path / "site"
    shutil.copytree(BASIC, site)
    shutil.copytree(REPO_ROOT / "templates", site / "templates")
    (site / "notebooks").mkdir()
    (site / "notebooks/first_steps.py").write_text("# %%\nprint(6 * 7)\n", encoding="utf-8")
    git(tmp_path, "init", "-q", "-b", "main", str(site))
    commit_on(site, "2031-02-03", "the site", "site.yaml")
    build(site)
    out = site / "_site"
    assert updated(out, "docs/tutorials/first_steps.html") is None
    commit_on(site, "2032-04-05", "add a tutorial", "notebooks")
    build(site)
    assert updated(out, "docs/tutorials/first_steps.html") == "2032-04-05"


def test_canonical_points_at_the_default_version(site: Path):
    build(site)
    out = site / "_site"
    assert canonical(parse(out, "docs/v1/install.html")) == f"{URL}/docs/v3/install.html"
    assert canonical(parse(out, "docs/dev/index.html")) == f"{URL}/docs/v3/"
    # A page the default version lacks is its own canonical.
    assert canonical(parse(out, "docs/v1/tutorials/legacy.html")) == f"{URL}/docs/v1/tutorials/legacy.html"


# --- aliases, /docs/, versions.json, sitemap -----------------------------------

def test_aliases_redirect_or_copy(site: Path):
    build(site)
    out = site / "_site"
    for alias in ("stable", "latest"):
        assert html_pages(out, alias) == html_pages(out, "v3")
        doc = parse(out, f"docs/{alias}/tutorials/basics.html")
        target = "/docs/v3/tutorials/basics.html"
        (refresh,) = doc.cssselect('meta[http-equiv="refresh"]')
        assert refresh.get("content") == f"0; url={target}"
        assert canonical(doc) == URL + target
    index = parse(out, "docs/stable/index.html").cssselect('meta[http-equiv="refresh"]')[0]
    assert index.get("content") == "0; url=/docs/v3/"
    # v1's alias is a copy, as site.yaml says.
    assert (out / "docs/old/tutorials/legacy.html").read_bytes() == \
        (out / "docs/v1/tutorials/legacy.html").read_bytes()
    assert html_pages(out, "old") == html_pages(out, "v1")


def test_docs_root_leads_to_the_default_version(site: Path):
    build(site)
    (refresh,) = parse(site / "_site", "docs/index.html").cssselect('meta[http-equiv="refresh"]')
    assert refresh.get("content") == "0; url=/docs/v3/"


def test_versions_json_has_mikes_shape(site: Path):
    build(site)
    assert json.loads((site / "_site/docs/versions.json").read_text()) == [
        {"version": "dev", "title": "4.0-dev", "aliases": []},
        {"version": "v3", "title": "3.0", "aliases": ["stable", "latest"]},
        {"version": "v2", "title": "2.0", "aliases": []},
        {"version": "v1", "title": "1.0", "aliases": ["old"]},
    ]


def test_sitemap_lists_the_default_versions_docs_only(site: Path):
    build(site)
    listed = (site / "_site/sitemap.txt").read_text().split()
    docs = sorted(url for url in listed if "/docs/" in url)
    assert docs == [f"{URL}/docs/v3/", f"{URL}/docs/v3/install.html",
                    f"{URL}/docs/v3/tutorials/basics.html", f"{URL}/docs/v3/tutorials/tuning.html"]
    assert f"{URL}/about.html" in listed
    set_versions(site, VERSIONS_YAML.replace("status: unmaintained,", "status: unmaintained, sitemap: true,"))
    build(site)
    listed = (site / "_site/sitemap.txt").read_text().split()
    assert f"{URL}/docs/v1/tutorials/legacy.html" in listed
    assert not any("/docs/old/" in url or "/docs/v2/" in url for url in listed)


# --- reuse ---------------------------------------------------------------------

def test_a_version_whose_tree_is_unchanged_is_reused(repo: Path, site: Path):
    assert build(site).reports["docs"].versions == {"dev": "built", "v3": "built", "v2": "built", "v1": "built"}
    before = {p: p.read_bytes() for p in (site / "_site").rglob("*") if p.is_file()}
    assert build(site).reports["docs"].versions == {"dev": "reused", "v3": "reused", "v2": "reused", "v1": "reused"}
    assert {p: p.read_bytes() for p in (site / "_site").rglob("*") if p.is_file()} == before

    # An edit in the working tree rebuilds the version in development only, and the
    # reused versions' switchers learn of the page it adds.
    write(site, "tutorials/legacy.md", page("Legacy API", "Back in development."))
    assert build(site).reports["docs"].versions == {"dev": "built", "v3": "reused", "v2": "reused", "v1": "reused"}
    legacy = switcher(parse(site / "_site", "docs/v1/tutorials/legacy.html"))
    assert legacy["4.0-dev"] == "/docs/dev/tutorials/legacy.html"

    # A tag moved to another commit with the same docs tree is still reused...
    retagged = git(repo, "commit-tree", "v2^{tree}", "-p", "v2", "-m", "release notes only")
    git(repo, "tag", "-f", "v2", retagged)
    assert build(site).reports["docs"].versions["v2"] == "reused"
    # ...and one moved to a commit whose docs differ is rebuilt.
    git(repo, "tag", "-f", "v2", "v3")
    assert build(site).reports["docs"].versions == {"dev": "reused", "v3": "reused", "v2": "built", "v1": "reused"}
    assert "tutorials/legacy.html" not in html_pages(site / "_site", "v2")

    # The current templates render every version, so a template edit rebuilds them all.
    template = own_template(site, "docs.html")
    template.write_text(template.read_text() + "\n")
    assert set(build(site).reports["docs"].versions.values()) == {"built"}
    assert set(build(site, BuildOptions(refresh=True)).reports["docs"].versions.values()) == {"built"}


def test_a_version_is_kept_while_the_settings_it_read_are_as_they_were(site: Path):
    """Each version's files are kept for the settings it read, not for all of site.yaml (issue 35):
    after a ``feeds.entries`` edit, which no docs page reads, an edit of the working tree builds
    the version in development alone, as it would with no settings edit; a new title, which every
    page shows, builds them all. The incremental output is the clean build's."""
    build(site)
    config = site / "site.yaml"
    config.write_text(config.read_text() + "feeds: {entries: 3}\n")
    build(site)
    write(site, "install.md", page("Install", "Install with `pip install thing==4`."))
    assert build(site).reports["docs"].versions == {"dev": "built", "v3": "reused", "v2": "reused", "v1": "reused"}
    config.write_text(config.read_text().replace("title: Test Site", "title: Renamed Site"))
    assert build(site).reports["docs"].versions == {"dev": "built", "v3": "built", "v2": "built", "v1": "built"}
    assert "Renamed Site" in (site / "_site/docs/v1/install.html").read_text()
    assert_same_as_clean_build(site)


def test_cli_build_says_which_versions_were_built_and_reused(site: Path, capsys):
    assert main(["-C", str(site), "build"]) == 0
    assert "docs versions: built dev, v3, v2, v1" in capsys.readouterr().out
    write(site, "install.md", page("Install", "Changed."))
    assert main(["-C", str(site), "build"]) == 0
    assert "docs versions: built dev; reused v3, v2, v1" in capsys.readouterr().out


# --- the CLI listing ------------------------------------------------------------

def test_cli_lists_versions_refs_commits_and_aliases(repo: Path, site: Path, capsys):
    assert main(["-C", str(site), "versions"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["NAME", "SOURCE", "COMMIT", "ALIASES", "STATUS"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert list(rows) == ["dev", "v3", "v2", "v1"]
    for tag in ("v1", "v2", "v3"):
        assert f"ref {tag}" in rows[tag] and git(repo, "rev-parse", f"{tag}^{{commit}}") in rows[tag]
    assert "working tree" in rows["dev"] and git(repo, "rev-parse", "HEAD") in rows["dev"]
    assert "stable, latest" in rows["v3"] and "default" in rows["v3"]
    assert "old" in rows["v1"] and "unmaintained" in rows["v1"]


# --- errors ----------------------------------------------------------------------

@pytest.mark.parametrize("versions, message", [
    ("  - {name: v9, ref: v9-typo, default: true}\n",
     "version 'v9': unknown git ref 'v9-typo'"),
    ("  - {name: v1, ref: v1, default: true}\n  - {name: v1, ref: v2}\n",
     "version 'v1' is listed twice"),
    ("  - {name: v1, ref: v1, default: true, aliases: [stable]}\n  - {name: v2, ref: v2, aliases: [stable]}\n",
     "version 'v2': alias 'stable' is also an alias of version 'v1'"),
    ("  - {name: v1, ref: v1, default: true}\n  - {name: v2, ref: v2, aliases: [v1]}\n",
     "version 'v2': alias 'v1' is the name of a version"),
    ("  - {name: v1, ref: v1}\n  - {name: v2, ref: v2}\n",
     "mark exactly one version 'default: true' (found none)"),
    ("  - {name: v1, ref: v1, worktree: true, default: true}\n",
     "version 'v1': give exactly one of 'ref'"),
    ("  - {name: v1, ref: v1, default: true, status: retired}\n",
     "key 'versions[0].status': expected one of 'development', 'latest', 'maintained', 'unmaintained'"),
    ("  - {name: ../up, ref: v1, default: true}\n",
     "version '../up': a name must be a folder name"),
    ("  - {name: v1, archive: missing.tar.gz, default: true}\n",
     "version 'v1': archive 'missing.tar.gz' is not a folder or .tar.gz inside the site"),
])
def test_bad_versions_are_clear_errors_and_keep_the_last_site(site: Path, versions: str, message: str):
    build(site)
    before = (site / "_site/docs/v1/install.html").read_bytes()
    set_versions(site, "\nversions:\n" + versions)
    with pytest.raises(SiteError) as caught:
        build(site)
    assert message in str(caught.value)
    assert caught.value.path.endswith("site.yaml")
    assert main(["-C", str(site), "versions"]) == 1
    assert (site / "_site/docs/v1/install.html").read_bytes() == before


def test_a_ref_without_docs_names_the_version(repo: Path, site: Path):
    git(repo, "checkout", "-q", "--orphan", "bare-start")
    git(repo, "rm", "-rq", "--cached", ".")
    git(repo, "commit", "-q", "--allow-empty", "-m", "nothing yet")
    git(repo, "checkout", "-q", "-f", "main")
    set_versions(site, "\nversions:\n  - {name: v0, ref: bare-start, default: true}\n")
    with pytest.raises(SiteError, match=r"version 'v0': ref 'bare-start' \(commit [0-9a-f]{12}\) "
                                        r"has no content/docs/ folder"):
        build(site)


def test_a_broken_page_of_an_old_version_names_version_file_and_line(repo: Path, site: Path):
    write(site, "install.md", "---\nauthor: Someone\ntitle: a: b\n---\n")
    commit_and_tag(repo, "v4")
    set_versions(site, "\nversions:\n  - {name: v4, ref: v4, default: true}\n")
    with pytest.raises(SiteError) as caught:
        build(site)
    assert caught.value.path == "content/docs/install.md" and caught.value.line == 3
    assert "docs version 'v4', ref v4" in caught.value.message


def test_shallow_clone_says_how_to_fetch_the_missing_ref(tmp_path: Path, repo: Path):
    remote = tmp_path / "remote.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(remote))
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", "--no-tags", f"file://{remote}", str(clone))
    site = clone / "website"
    shutil.copytree(repo / "website/content/docs/tutorials", site / "content/docs/tutorials", dirs_exist_ok=True)
    with pytest.raises(SiteError) as caught:
        build(site)
    message = str(caught.value)
    assert "version 'v3': ref 'v3' is not in this clone, which is shallow" in message
    assert "`git fetch --unshallow`" in message and "`git fetch origin tag v3`" in message
    # Following the advice works.
    for tag in ("v3", "v2", "v1"):
        git(clone, "fetch", "-q", "origin", "tag", tag)
    assert set(build(site).reports["docs"].versions.values()) == {"built"}
    assert "tutorials/legacy.html" in html_pages(site / "_site", "v1")


def test_a_ref_outside_any_git_repository_is_a_clear_error(tmp_path: Path, site: Path):
    copy = tmp_path / "not-a-repo"
    shutil.copytree(site, copy)
    with pytest.raises(SiteError, match=r"version 'v3': ref 'v3' needs git history, but .*not-a-repo "
                                        r"is not in a git repository"):
        build(copy)


def test_an_archive_that_would_escape_its_folder_is_refused(tmp_path: Path, site: Path):
    page = tmp_path / "page.html"
    page.write_text(archived_html("Escape"))
    with tarfile.open(site / "evil.tar.gz", "w:gz") as tar:
        tar.add(page, arcname="index.html")
        tar.add(page, arcname="../../escape.html")
    set_versions(site, VERSIONS_YAML + "  - {name: v0, archive: evil.tar.gz}\n")
    with pytest.raises(SiteError, match=r"'../../escape.html' would be written outside its version"):
        build(site)
    assert not (site.parent / "escape.html").exists()


# --- archived builds and unversioned docs -------------------------------------------

def archived_html(title: str) -> str:
    return (f'<!DOCTYPE html><html><head><title>{title}</title>'
            f'<link rel="stylesheet" href="_static/sphinx.css"></head>'
            f'<body class="sphinx"><h1>{title}</h1></body></html>')


@pytest.mark.parametrize("kind", ["folder", "tarball"])
def test_an_archived_build_is_published_with_switcher_and_banner(site: Path, kind: str):
    built = site / "old-docs" / "project-docs-0.5"
    (built / "tutorials").mkdir(parents=True)
    (built / "_static").mkdir()
    (built / "index.html").write_text(archived_html("Old docs"))
    (built / "tutorials/basics.html").write_text(archived_html("Old basics"))
    (built / "_static/sphinx.css").write_bytes(b"body { color: black }\n")
    if kind == "tarball":
        archive = "old-docs.tar.gz"
        with tarfile.open(site / archive, "w:gz") as tar:
            tar.add(built, arcname="project-docs-0.5")
    else:
        archive = "old-docs/project-docs-0.5"
    set_versions(site, VERSIONS_YAML + f"  - {{name: v0.5, archive: {archive}, status: unmaintained}}\n")
    result = build(site)
    assert result.reports["docs"].versions["v0.5"] == "archived"
    out = site / "_site"
    assert html_pages(out, "v0.5") == {"index.html", "tutorials/basics.html"}
    assert (out / "docs/v0.5/_static/sphinx.css").read_bytes() == b"body { color: black }\n"
    doc = parse(out, "docs/v0.5/tutorials/basics.html")
    assert doc.cssselect("h1")[0].text_content() == "Old basics"
    assert "no longer maintained" in doc.cssselect(".version-banner")[0].text_content()
    assert switcher(doc)["3.0"] == "/docs/v3/tutorials/basics.html"
    assert canonical(doc) == f"{URL}/docs/v3/tutorials/basics.html"
    # Every other version can switch to it, landing on the same page where it exists.
    assert switcher(parse(out, "docs/v3/tutorials/basics.html"))["v0.5"] == "/docs/v0.5/tutorials/basics.html"
    assert switcher(parse(out, "docs/v3/install.html"))["v0.5"] == "/docs/v0.5/"


def test_without_versions_the_working_tree_docs_publish_at_docs(site: Path):
    set_versions(site, "")
    result = build(site)
    out = site / "_site"
    assert result.reports["docs"].versions == {}
    assert html_pages(out, "") == {"index.html", "install.html", "tutorials/basics.html",
                                   "tutorials/tuning.html", "tutorials/new.html"}
    text = (out / "docs/index.html").read_text()
    assert "sitegen:version" not in text and "version-switcher" not in text
    nav = [a.get("href") for a in parse(out, "docs/install.html").cssselect(".docs-nav a")]
    assert nav[0] == "/docs/" and "/docs/tutorials/new.html" in nav
    day = git(site, "log", "-1", "--format=%cs", "--", "content/docs/install.md")
    assert (updated(out, "docs/install.html"), updated(out, "docs/tutorials/new.html")) == (day, None)


# --- the switcher in a real browser ---------------------------------------------------

CHROMIUM = "/usr/bin/chromium"


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args) -> None:
        pass


@contextlib.contextmanager
def serving(handler: type | functools.partial) -> Iterator[str]:
    """``handler`` answering on a free port of 127.0.0.1 for the while: its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def serve(folder: Path):
    """``folder``'s files served on 127.0.0.1 (a context: its base URL)."""
    return serving(functools.partial(QuietHandler, directory=str(folder)))


def test_switcher_script_keeps_the_readers_place(site: Path):
    from playwright.sync_api import sync_playwright

    build(site)
    with serve(site / "_site") as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{base}/docs/v1/tutorials/basics.html#basics")
        menu = page.locator("[data-version-switcher] select")
        assert menu.locator("option").all_inner_texts() == ["4.0-dev (development)", "3.0 (stable)", "2.0",
                                                            "1.0 (end of life)"]
        assert menu.input_value() == f"{base}/docs/v1/tutorials/basics.html"
        with page.expect_navigation():
            menu.select_option(label="3.0 (stable)")
        assert page.url == f"{base}/docs/v3/tutorials/basics.html#basics"
        # A page the target lacks leads to its index, without the anchor.
        page.goto(f"{base}/docs/v1/tutorials/legacy.html#top")
        with page.expect_navigation():
            page.locator("[data-version-switcher] select").select_option(label="4.0-dev (development)")
        assert page.url == f"{base}/docs/dev/"
        browser.close()
    assert errors == []


def test_a_theme_template_edit_rebuilds_every_version(site: Path):
    """Versions are rendered with the whole theme chain (the site's templates, its theme's, the
    default theme's): an edit anywhere in it must not leave a reused version with the old look."""
    theme = site / "mytheme/templates"
    theme.mkdir(parents=True)
    (theme / "docs.html").write_text((DEFAULT_THEME / "templates/docs.html").read_text())
    with open(site / "site.yaml", "a", encoding="utf-8") as f:
        f.write("theme: mytheme\n")
    for template in (site / "templates").glob("docs.html"):
        template.unlink()      # the theme's, not the site's own, renders docs pages
    assert set(build(site).reports["docs"].versions.values()) == {"built"}
    assert set(build(site).reports["docs"].versions.values()) == {"reused"}
    (theme / "docs.html").write_text((theme / "docs.html").read_text().replace("{% block main %}",
                                                                               "{% block main %}<!-- themed -->"))
    assert set(build(site).reports["docs"].versions.values()) == {"built"}
    for name in ("dev", "v1", "v2", "v3"):
        assert "<!-- themed -->" in (site / f"_site/docs/{name}/index.html").read_text()


def test_docs_pages_warn_like_posts_naming_the_version(tmp_path: Path) -> None:
    """A docs page's unknown front matter key and left-out Liquid reach the build's warnings, at the
    file and line of the version's tree that holds them, as a post's do."""
    repo = tmp_path / "repo"
    site = repo / "website"
    shutil.copytree(BASIC, site)
    shutil.copytree(REPO_ROOT / "templates", site / "templates")
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    with open(site / "site.yaml", "a", encoding="utf-8") as f:
        f.write("liquid: {unknown: warning}\n")
    write(site, "index.md", "---\ntitle: Docs\n---\nWelcome.\n")
    write(site, "old.md", "---\ntitle: Old\n\nordr: 2\n---\nA {% gallery %} here.\n")
    commit_and_tag(repo, "v1")
    write(site, "old.md", "---\ntitle: Old\n---\nFixed in the working tree.\n")
    with open(site / "site.yaml", "a", encoding="utf-8") as f:
        f.write("versions:\n  - {name: dev, worktree: true}\n  - {name: v1, ref: v1, default: true}\n")
    warnings = build(site, BuildOptions()).warnings
    assert warnings == [
        "content/docs/old.md:6: warning: Liquid: unexpected tag 'gallery' left out (docs version 'v1')",
        "content/docs/old.md:4: warning: unknown front matter key 'ordr' (did you mean 'order'?) "
        "(docs version 'v1')",
    ]


def exported(repo: Path, into: Path) -> dict[str, str]:
    """The files, folders and links ``git.export_tree`` writes of the repository's HEAD."""
    from generator import git as plumbing

    plumbing.export_tree(repo, git(repo, "rev-parse", "HEAD^{tree}"), into)
    found = {}
    for path in sorted(into.rglob("*")):
        rel = path.relative_to(into).as_posix()
        found[rel] = (f"-> {os.readlink(path)}" if path.is_symlink() else "/" if path.is_dir()
                      else f"{oct(path.stat().st_mode & 0o777)} {path.read_text()}")
    return found


def a_tree(tmp_path: Path, *links: tuple[str, str]) -> Path:
    """A repository of a few files and folders, an executable, a link inside it and ``links``."""
    tree = tmp_path / "repo"
    (tree / "docs" / "deep").mkdir(parents=True)
    (tree / "docs" / "index.md").write_text("home\n")
    (tree / "docs" / "deep" / "page.md").write_text("deep\n")
    (tree / "run.sh").write_text("echo hi\n")
    (tree / "run.sh").chmod(0o755)
    (tree / "docs" / "alias.md").symlink_to("index.md")
    for name, target in links:
        (tree / name).symlink_to(target)
    git(tree, "init", "-q")
    git(tree, "add", "-A")
    git(tree, "commit", "-q", "-m", "tree")
    return tree


def test_a_python_without_tarfiles_data_filter_exports_what_the_filter_lets_through(tmp_path, monkeypatch):
    """Where tarfile has no ``data`` filter (PEP 706: Debian 12's Python 3.11.2), a version's tree
    is exported with the same checks: the same files, modes and links."""
    tree = a_tree(tmp_path)
    expected = {"docs": "/", "docs/alias.md": "-> index.md", "docs/deep": "/", "docs/deep/page.md": "0o644 deep\n",
                "docs/index.md": "0o644 home\n", "run.sh": "0o755 echo hi\n"}
    if hasattr(tarfile, "data_filter"):
        assert exported(tree, tmp_path / "filtered") == expected
    monkeypatch.delattr(tarfile, "data_filter", raising=False)
    assert exported(tree, tmp_path / "checked") == expected


@pytest.mark.parametrize("filtered", [True, False])
@pytest.mark.parametrize("link", ["/etc/passwd", "../../outside"])
def test_a_link_out_of_a_versions_tree_is_an_error_naming_it(tmp_path, monkeypatch, filtered, link):
    """With tarfile's filter or without it, a link pointing out of the tree stops the export with
    an error naming the link (it once stopped it short without a word)."""
    from generator import git as plumbing

    tree = a_tree(tmp_path, ("docs/leak", link))
    if filtered and not hasattr(tarfile, "data_filter"):
        pytest.skip("this Python's tarfile has no data filter")
    if not filtered:
        monkeypatch.delattr(tarfile, "data_filter", raising=False)
    with pytest.raises(plumbing.GitError, match="docs/leak"):
        exported(tree, tmp_path / "out")


def test_the_checks_refuse_what_git_archive_never_writes(tmp_path):
    from generator.git import data_only

    made = tmp_path / "odd.tar"
    with tarfile.open(made, "w") as tar:
        fifo = tarfile.TarInfo("pipe")
        fifo.type = tarfile.FIFOTYPE
        tar.addfile(fifo)
    for name, member in (("absolute", "/etc/cron.d/x"), ("up", "../x")):
        odd = tmp_path / f"{name}.tar"
        with tarfile.open(odd, "w") as tar:
            tar.addfile(tarfile.TarInfo(member))
        with tarfile.open(odd) as tar, pytest.raises(tarfile.TarError, match="outside the tree"):
            list(data_only(tar, tmp_path / "dest"))
    with tarfile.open(made) as tar, pytest.raises(tarfile.TarError, match="neither a file"):
        list(data_only(tar, tmp_path / "dest"))


# --- MyST references ------------------------------------------------------------


def test_a_version_from_a_git_ref_reaches_its_own_labels_and_the_sites_posts_and_pages(repo: Path, site: Path):
    """Posts and pages are not versioned: a docs page of a version built from a git ref reaches
    their labels (as the site shows them now), as a docs page of the working tree does; not the
    labels of another version's docs pages, which are not its own. An edit of the post's heading
    reaches the version's page."""
    write(site, "refs.md", page("Refs", "(here)=\n## Here\n\nSee {ref}`team`, {doc}`../pages/about`, {ref}`news`, "
                                        "{ref}`here` and {ref}`dev-only`."))
    commit_and_tag(repo, "v4")
    set_versions(site, "versions:\n  - {name: dev, worktree: true}\n  - {name: v4, ref: v4, default: true}\n")
    write(site, "extra.md", page("Extra", "(dev-only)=\n## Only in development"))
    about = site / "content/pages/about.md"
    about.write_text(about.read_text() + "\n\n(team)=\n## Our team\n")
    post = site / "content/posts/2020-05-01-second.md"
    post.write_text(post.read_text() + "\n(news)=\n## The news\n")
    result = build(site)
    out = site / "_site"

    def references(rel: str) -> list[tuple[str, str]]:
        return [(a.text_content(), a.get("href")) for a in parse(out, rel).cssselect("main a.reference")]

    news = ("The news", "/2020/05/01/second.html#news")
    assert references("docs/dev/refs.html") == [("Our team", "/about.html#team"), ("About", "/about.html"), news,
                                                ("Here", "#here"),
                                                ("Only in development", "/docs/dev/extra.html#dev-only")]
    assert references("docs/v4/refs.html") == [("Our team", "/about.html#team"), ("About", "/about.html"), news,
                                               ("Here", "#here")]
    assert [w for w in result.warnings if "{ref}" in w] == [
        "content/docs/refs.md:7: warning: {ref}`dev-only`: no target labelled 'dev-only' on this page or in the "
        "docs (docs version 'v4')"]
    post.write_text(post.read_text().replace("The news", "What is new"))
    build(site)
    assert references("docs/v4/refs.html")[2] == ("What is new", "/2020/05/01/second.html#news")
