"""`sitegen init --kind` and `sitegen new KIND` start what they say, and it builds and checks clean."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

import pytest

from generator.build import BuildOptions, build
from generator.check import check_site
from generator.configure import load_config
from generator.errors import SiteError
from generator.scaffold import init_site, new_source

NOW = datetime(2030, 5, 4, 12, 0, tzinfo=timezone.utc)
OPTIONS = BuildOptions(now=NOW)


@pytest.mark.parametrize("kind, present, absent", [
    ("project", ["2030/05/04/welcome.html", "docs/install.html", "docs/tutorials/first-steps.html"], []),
    ("blog", ["2030/05/04/welcome.html"], ["docs/install.html", "docs/tutorials/first-steps.html"]),
    ("docs", ["docs/install.html", "docs/tutorials/first-steps.html"],
     ["2030/05/04/welcome.html", "blog.html", "history.html", "tags.html", "atom.xml", "rss.xml", "feed.json"]),
])
def test_each_kind_of_new_site_builds_and_checks_clean(tmp_path: Path, kind: str, present: list[str],
                                                        absent: list[str]) -> None:
    site = tmp_path / "my-project"
    init_site(site, now=NOW, kind=kind)
    build(site, OPTIONS)
    out = site / "_site"
    for url in present:
        assert (out / url).is_file(), url
    for url in absent:
        assert not (out / url).exists(), url
    home = (out / "index.html").read_text()
    assert '<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">' in home
    assert ">M</text>" in (out / "assets/favicon.svg").read_text()     # the site's own, not the theme's
    if "docs/tutorials/first-steps.html" in present:    # run by a real kernel, its output on the page
        assert "[0, 1, 4, 9, 16, 25]" in (out / "docs/tutorials/first-steps.html").read_text()
    report = check_site(load_config(site))
    assert report.ok, report.findings


def test_an_unknown_kind_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(SiteError, match="--kind wiki: choose one of project, blog, docs"):
        init_site(tmp_path / "x", kind="wiki")


def test_new_starts_each_kind_where_the_build_publishes_it(tmp_path: Path) -> None:
    site = tmp_path / "site"
    init_site(site, now=NOW, kind="project")
    made = {kind: new_source(site, kind, f"A {kind} here", now=NOW) for kind in ("post", "page", "doc", "tutorial")}
    assert made == {"post": Path("content/posts/2030-05-04-a-post-here.md"),
                    "page": Path("content/pages/a-page-here.md"),
                    "doc": Path("content/docs/a-doc-here.md"),
                    "tutorial": Path("notebooks/a-tutorial-here.py")}
    build(site, OPTIONS)
    out = site / "_site"
    assert not (out / "2030/05/04/a-post-here.html").exists()      # a post starts as a draft
    for url, title in [("a-page-here.html", "A page here"), ("docs/a-doc-here.html", "A doc here"),
                       ("docs/tutorials/a-tutorial-here.html", "A tutorial here")]:
        assert f"{title}</h1>" in (out / url).read_text(), url
    with pytest.raises(SiteError, match="already exists: refusing to overwrite it"):
        new_source(site, "doc", "A doc here")


def test_init_points_to_the_guide_installed_with_the_package(tmp_path: Path, capsys) -> None:
    """The README is not installed with the package: what init says and writes leads to
    `sitegen help`, and each topic it names is one the guide has."""
    from generator.cli import main
    from generator.guide import find_topic, guide_text

    assert main(["init", str(tmp_path / "site"), "--kind", "blog"]) == 0
    said = capsys.readouterr().out + (tmp_path / "site/site.yaml").read_text()
    assert "README" not in said
    pointers = re.findall(r"sitegen help( [\w.]+)?", said)
    assert "" in pointers and " site.yaml" in pointers
    for topic in filter(None, pointers):
        assert find_topic(guide_text(), topic.strip())
