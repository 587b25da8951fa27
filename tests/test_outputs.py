"""The output seam: planners in one ordered registry, rebuilt exactly when what they read changes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from generator.build import Engine, render_site
from generator.configure import load_config
from generator.errors import SiteError
from generator.files import Files
from generator.outputs import Derived, Phase, PlanContext, Planned, Registry, Remade, Report
from generator.outputs.registry import default_registry
from generator.outputs.pages import Documents
from test_incremental import NOW, OPTIONS, files, make_site
from plugin_outputs import AboutTitle, with_plugins

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return make_site(tmp_path / "site")


def test_a_planner_is_made_again_exactly_when_the_document_it_read_changes(site: Path) -> None:
    engine = Engine(site, OPTIONS, with_plugins())
    engine.build()
    assert (site / "_site/about-title.txt").read_text() == "About\n3 posts\n"
    post = site / "content/posts/2020-05-01-second.md"
    post.write_text(post.read_text().replace("Second post body", "Second post text"))
    assert "about-title.txt" not in engine.build().outputs          # it read no post's body
    about = site / "content/pages/about.md"
    about.write_text(about.read_text().replace("title: About", "title: About us"))
    assert "about-title.txt" in engine.build().outputs
    assert (site / "_site/about-title.txt").read_text() == "About us\n3 posts\n"
    about.write_text(about.read_text().replace("About this site.", "About this site, and more."))
    assert "about-title.txt" not in engine.build().outputs          # the body: not read
    (site / "content/posts/2020-05-01-second.md").unlink()
    assert "about-title.txt" in Engine(site, OPTIONS, with_plugins()).build().outputs   # a new process
    assert (site / "_site/about-title.txt").read_text() == "About us\n2 posts\n"
    expected = render_site(load_config(site), OPTIONS, with_plugins()).outputs
    assert files(site / "_site") == expected


def test_a_late_planner_sees_every_path_and_the_sitemap_lists_plugin_pages(site: Path) -> None:
    Engine(site, OPTIONS, with_plugins()).build()
    manifest = (site / "_site/manifest.txt").read_text().splitlines()
    assert {"index.html", "sitemap.xml", "404.html", "plugin/index.html", "about-title.txt"} <= set(manifest)
    assert "https://example.org/plugin/" in (site / "_site/sitemap.txt").read_text().splitlines()
    assert [p.phase for p in default_registry() if p.name in ("404", "sitemap")] == [Phase.LATE] * 2
    # By phase, then as registered; derived planners (the search index) last of all.
    assert with_plugins().names()[-7:] == ["404", "sitemap", "robots", "manifest", "search", "search-parts", "vendor"]


def test_every_planner_reports_what_it_did(site: Path) -> None:
    first = Engine(site, OPTIONS).build()
    assert list(first.reports) == default_registry().names()
    assert all(isinstance(report, Report) for report in first.reports.values())
    assert first.reports["documents"] == Planned(files=len(first.site.documents), made=len(first.site.documents))
    assert sum(r.files for r in first.reports.values() if isinstance(r, Planned)) \
        + len([p for p in first.outputs if p.startswith(("docs/", "pagefind/"))]) == first.files
    assert first.reports["search"] == Remade(made=("blog/00", "blog/01", "pages"))
    assert first.reports["search-parts"] == Remade(made=("parts",))
    again = Engine(site, OPTIONS).build()
    assert again.site is None and again.reports["documents"] == Planned(files=len(first.site.documents))
    assert again.reports["docs"].summary() == ""


def test_a_registry_refuses_two_planners_of_one_name() -> None:
    with pytest.raises(SiteError, match="'documents': a planner needs a name of its own"):
        Registry([Documents(), AboutTitle(), Documents()])


def test_two_plugin_paths_claiming_one_file_are_named() -> None:
    class Clash(AboutTitle):
        name = "clash"
    registry = Registry([*default_registry(), AboutTitle(), Clash()])
    with pytest.raises(SiteError, match="/about-title.txt is claimed by both plugin about-title and plugin"):
        render_site(load_config(make_site(Path(__import__("tempfile").mkdtemp()) / "s")), OPTIONS, registry)


def test_a_derived_planner_that_reads_only_paths_may_not_read_bytes(site: Path) -> None:
    """Its group is kept while the paths stay (search-parts is): read bytes would go stale."""
    class PageCount(Derived):
        name = "page-count"
        reads_bytes = False

        def group(self, config, path: str) -> str | None:
            return "all" if path.endswith(".html") else None

        def make(self, ctx: PlanContext, group: str, files) -> Files:
            out = Files()
            out.add("page-count.txt", f"{len(files)} {sum(len(files[p]) for p in files if p == 'about.html')}",
                    "test")
            return out

    with pytest.raises(SiteError, match=r"planner 'page-count' read the bytes of /about.html, but says it "
                                        r"reads only the paths \(reads_bytes = False\)"):
        Engine(site, OPTIONS, Registry([*default_registry(), PageCount()])).build()


def test_the_engine_imports_no_feature() -> None:
    """The docs section, versions and notebooks plug in through the registry."""
    code = ("import sys, generator.build; "
            "print(sorted(m for m in sys.modules if m.split('.')[1:2] in (['versions'], ['notebooks'], ['docs'])))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
