"""Vendored libraries (KaTeX, the Jupyter widget manager, Mermaid) are published only in sites whose pages use them."""

from __future__ import annotations

import os
import random
import shutil
from datetime import datetime, timezone
from pathlib import Path

import pytest

from generator.build import BuildOptions, build
from generator.check import check_site
from generator.configure import load_config
from generator.deps import value_digest
from generator.layout import DEFAULT_THEME
from generator.outputs.vendor import Uses, used

from test_incremental import assert_same_as_full_build

REPO = Path(__file__).resolve().parents[1]
OPTIONS = BuildOptions(now=datetime(2030, 1, 1, tzinfo=timezone.utc))
KATEX = "assets/vendor/katex"
WIDGETS = "assets/vendor/jupyter-widgets"
MERMAID = "assets/vendor/mermaid"
MATH_POST = "---\ntitle: Euler\n---\nThe identity $$e^{i\\pi} + 1 = 0$$ holds.\n"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    folder = tmp_path / "site"
    shutil.copytree(REPO / "tests" / "data" / "basic", folder)
    shutil.copytree(REPO / "templates", folder / "templates")
    return folder


def published(site: Path, folder: str) -> set[str]:
    top = site / "_site" / folder
    return {p.relative_to(top).as_posix() for p in top.rglob("*") if p.is_file()}


def theme_files(folder: str) -> set[str]:
    top = DEFAULT_THEME / folder
    return {p.relative_to(top).as_posix() for p in top.rglob("*") if p.is_file()}


def test_a_site_without_math_or_widgets_carries_neither_library(site: Path) -> None:
    build(site, OPTIONS)
    assert not (site / "_site/assets/vendor").exists()
    assert (site / "_site/assets/js/theme.js").is_file()         # the theme's other assets are there


def test_math_added_later_brings_katex_and_removing_it_takes_katex_away(site: Path) -> None:
    build(site, OPTIONS)
    post = site / "content/posts/2022-02-02-euler.md"
    post.write_text(MATH_POST)
    result = build(site, OPTIONS)
    assert published(site, KATEX) == theme_files(KATEX)
    assert "katex.min.js" in (site / "_site/2022/02/02/euler.html").read_text()
    assert not (site / f"_site/{WIDGETS}").exists()
    assert any(path.startswith(KATEX) for path in result.written)
    assert_same_as_full_build(site, OPTIONS)
    assert check_site(load_config(site)).ok

    post.write_text("---\ntitle: Euler\n---\nNo math any more.\n")
    build(site, OPTIONS)
    assert not (site / f"_site/{KATEX}").exists()
    assert_same_as_full_build(site, OPTIONS)


def test_a_sites_own_copy_of_a_vendored_file_is_published_instead(site: Path) -> None:
    (site / "assets/vendor/katex").mkdir(parents=True)
    (site / "assets/vendor/katex/katex.min.css").write_text("/* the site's own */\n")
    (site / "content/posts/2022-02-02-euler.md").write_text(MATH_POST)
    build(site, OPTIONS)
    assert (site / f"_site/{KATEX}/katex.min.css").read_text() == "/* the site's own */\n"
    assert (site / f"_site/{KATEX}/katex.min.js").is_file()


def test_a_page_with_widgets_brings_the_widget_manager(site: Path) -> None:
    page = site / "content/pages/widget.html"
    page.write_text('---\ntitle: Widget\n---\n<script defer src="/assets/vendor/jupyter-widgets/embed.js"></script>\n')
    build(site, OPTIONS)
    assert published(site, WIDGETS) == theme_files(WIDGETS)
    assert not (site / f"_site/{KATEX}").exists()
    page.unlink()
    build(site, OPTIONS)
    assert not (site / "_site/assets/vendor").exists()
    assert_same_as_full_build(site, OPTIONS)


def test_a_diagram_brings_mermaid_and_only_a_diagram_does(site: Path) -> None:
    post = site / "content/posts/2022-02-02-flow.md"
    post.write_text("---\ntitle: Flow\n---\n```mermaid\ngraph LR\n  a --> b\n```\n")
    build(site, OPTIONS)
    assert published(site, MERMAID) == theme_files(MERMAID)
    assert not (site / f"_site/{KATEX}").exists() and not (site / f"_site/{WIDGETS}").exists()
    post.unlink()
    build(site, OPTIONS)
    assert not (site / "_site/assets/vendor").exists()
    assert_same_as_full_build(site, OPTIONS)


def test_an_edit_build_reads_back_only_the_pages_it_made(site: Path) -> None:
    """What each page refers to is kept by its digest: a page whose stamp says it is as the last
    build left it is not read again (so bytes slipped into it, stamp kept, go unseen)."""
    build(site, OPTIONS)
    page = site / "_site/about.html"
    data, stat = page.read_bytes(), page.stat()
    slipped = f'<script src="/{KATEX}/katex.min.js"></script>'.encode()
    page.write_bytes(data[:len(data) - len(slipped)] + slipped)
    os.utime(page, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    post = site / "content/posts/2020-05-01-second.md"
    post.write_text(post.read_text() + "\nOne more line.\n")
    assert "about.html" not in build(site, OPTIONS).written
    assert not (site / f"_site/{KATEX}").exists()


@pytest.mark.parametrize("seed", range(5))
def test_the_uses_kept_by_digest_are_what_reading_every_page_gives(tmp_path: Path, seed: int) -> None:
    """Differential: :class:`Uses` over builds of changing pages against :func:`used` over all of them."""
    pool = [b"<p>plain</p>", *(f'<script src="/{folder}/x.js"></script>'.encode() for folder in (KATEX, WIDGETS, MERMAID)),
            f"<p>{KATEX} named in text</p>".encode(), f"/{MERMAID}/ and /{KATEX}/".encode()]
    pick = random.Random(seed)
    uses = Uses(tmp_path / ".sitegen")
    for _ in range(12):
        pages = {f"p{i}.html": pick.choice(pool) + str(pick.randrange(3)).encode() for i in range(pick.randrange(9))}
        assert uses.of(Pages(pages)) == used(pages.values())


class Pages(dict):
    """Pages in memory with their digests, as the engine's ``OutputBytes`` gives them."""

    def digest(self, path: str) -> str:
        return value_digest(self[path])


@pytest.mark.parametrize("garble", [b"", b"not a cache file", None])
def test_a_garbled_or_missing_record_of_uses_is_read_again_from_the_pages(site: Path, garble: bytes | None) -> None:
    post = site / "content/posts/2020-05-01-second.md"
    post.write_text(post.read_text() + "\nThe identity $$e^{i\\pi} + 1 = 0$$ holds.\n")
    build(site, OPTIONS)
    uses = site / ".sitegen/cache/vendor-uses.msgpack"
    uses.unlink() if garble is None else uses.write_bytes(garble)
    (site / "content/pages/about.md").write_text("---\ntitle: About\n---\nNo math here.\n")
    build(site, OPTIONS)
    assert published(site, KATEX) == theme_files(KATEX)
    assert_same_as_full_build(site, OPTIONS)
