"""sitegen against Jekyll on real posts: the same URLs, structure and text.

Jekyll 4 (Debian's, kramdown with ``input: GFM``) builds the tvm-site corpus
once per session, sitegen builds the same sources laid out as a sitegen site,
and every post is compared (see tests/parity.py). Where Jekyll is not
installed the test is skipped, saying so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.build import build
from generator.cli import main
from tests import parity
from tests.conftest import shared_dir


@pytest.fixture(scope="module")
def corpus() -> Path:
    return shared_dir() / "corpus" / "tvm-site"


@pytest.fixture(scope="module")
def jekyll_out(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not parity.jekyll_available():
        pytest.skip("Jekyll is not installed (scripts/setup-test-tools installs it): "
                    "the Jekyll half of the parity test did not run")
    return parity.jekyll_build(corpus, tmp_path_factory.mktemp("jekyll"))


@pytest.fixture(scope="module")
def sitegen_out(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return parity.sitegen_build(corpus, tmp_path_factory.mktemp("sitegen"))


def test_every_post_renders_as_jekyll_renders_it(jekyll_out: Path, sitegen_out: Path) -> None:
    theirs, ours = parity.post_urls(jekyll_out), parity.post_urls(sitegen_out)
    assert len(theirs) == 19
    problems = []
    for name, url in sorted(theirs.items()):
        jekyll = parity.measure((jekyll_out / url[1:]).read_text(encoding="utf-8"))
        if ours.get(name) != url:
            problems.append(f"{name}: URL {ours.get(name)} instead of {url}")
            continue
        mine = parity.measure((sitegen_out / url[1:]).read_text(encoding="utf-8"))
        result = parity.PostParity(name, url, ours[name], jekyll, mine,
                                   parity.text_ratio(jekyll["text"], mine["text"]))
        problems += [f"{name}: {difference}" for difference in result.differences]
    print(parity.table(parity.compare_outputs(jekyll_out, sitegen_out)))
    assert not problems, "\n".join(problems)


def test_no_page_shows_liquid_or_kramdown_markup(sitegen_out: Path) -> None:
    assert parity.leftovers(sitegen_out) == []


def test_the_harness_sees_a_difference(jekyll_out: Path) -> None:
    """The comparison can fail: a post missing a list item and a heading is caught."""
    name, url = "tirx", parity.post_urls(jekyll_out)["tirx"]
    html = (jekyll_out / url[1:]).read_text(encoding="utf-8")
    assert "<li>" in html and "<h2" in html
    damaged = html.replace("<li>", "<p>", 1).replace("<h2", "<p", 1)
    jekyll, mine = parity.measure(html), parity.measure(damaged)
    result = parity.PostParity(name, url, url, jekyll, mine, parity.text_ratio(jekyll["text"], mine["text"]))
    assert result.differences


def test_every_page_renders_as_jekyll_renders_it(corpus: Path, jekyll_out: Path, sitegen_out: Path) -> None:
    """The corpus's pages too: kramdown lists, IALs and parse_block_html (index.md), includes,
    a Liquid loop over site.posts (posts.html)."""
    names = sorted(p.with_suffix(".html").name for p in corpus.iterdir()
                   if p.suffix in (".md", ".html") and p.name != "SOURCE.md")
    assert len(names) == 7
    problems = []
    for name in names:
        jekyll = parity.measure((jekyll_out / name).read_text(encoding="utf-8"))
        mine = parity.measure((sitegen_out / name).read_text(encoding="utf-8"))
        result = parity.PostParity(name, name, name, jekyll, mine, parity.text_ratio(jekyll["text"], mine["text"]))
        problems += [f"{name}: {difference}" for difference in result.differences]
    assert not problems, "\n".join(problems)


def test_the_corpus_imported_with_sitegen_import_renders_as_jekyll_renders_it(
        jekyll_out: Path, tmp_path: Path) -> None:
    """The Jekyll site Jekyll just built (its _config.yml, body-only layouts, _includes), taken
    over by `sitegen import jekyll` and built: every post and page as Jekyll made it."""
    imported = tmp_path / "imported"
    assert main(["import", "jekyll", str(jekyll_out.parent / "jekyll-src"), str(imported)]) == 0
    build(imported)
    out = imported / "_site"
    assert parity.post_urls(out) == parity.post_urls(jekyll_out)
    results = parity.compare_outputs(jekyll_out, out)
    problems = [f"{r.name}: {difference}" for r in results for difference in r.differences]
    for page in ("index.html", "community.html", "download.html", "posts.html"):
        jekyll = parity.measure((jekyll_out / page).read_text(encoding="utf-8"))
        mine = parity.measure((out / page).read_text(encoding="utf-8"))
        result = parity.PostParity(page, page, page, jekyll, mine, parity.text_ratio(jekyll["text"], mine["text"]))
        problems += [f"{page}: {difference}" for difference in result.differences]
    assert not problems, "\n".join(problems)
