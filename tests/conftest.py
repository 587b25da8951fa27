"""Shared fixtures: the repository, the shared corpus, and throw-away site copies."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"


def shared_dir() -> Path:
    """``../shared`` beside the checkout (or $SITEGEN_SHARED): test corpora read in place."""
    configured = os.environ.get("SITEGEN_SHARED")
    candidates = [Path(configured)] if configured else []
    candidates += [REPO.parent / "shared", Path("/work/shared")]
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    pytest.skip("the shared corpus (../shared) is not available")


@pytest.fixture(autouse=True)
def lexers_filter_again() -> Iterator[None]:
    """A preview made ready for edits in a test stops this process filtering lexers' rules
    (generator.highlight.filter_no_more); the tests after it build as a process that builds."""
    yield
    highlight = sys.modules.get("generator.highlight")
    if highlight is not None:
        highlight._filtering = True


@pytest.fixture(autouse=True)
def checkout_keys(monkeypatch) -> None:
    """Each site seals its caches with its own .sitegen/key, whatever CI's environment says
    (generator.cache.local_key): a test that shares a key sets SITEGEN_CACHE_KEY itself."""
    monkeypatch.delenv("SITEGEN_CACHE_KEY", raising=False)


@pytest.fixture
def shared() -> Path:
    return shared_dir()


def copy_site(destination: Path, fixture: str | None = None) -> Path:
    """A copy of a fixture site (or of the shipped site) with the repo's templates and assets.

    The shipped site's copy sits in a clone sharing the repository's objects, so
    that its docs versions built from git refs resolve there as they do here.
    """
    if fixture is None:
        if (REPO / ".git").exists():
            subprocess.run(["git", "clone", "--quiet", "--no-checkout", "--shared", str(REPO), str(destination)],
                           check=True, capture_output=True)
        for name in ("site.yaml", "content", "templates", "assets", "notebooks", "generator"):   # generator: its API
            source = REPO / name
            if source.is_dir():
                shutil.copytree(source, destination / name)
            elif source.is_file():
                destination.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, destination / name)
        return destination
    shutil.copytree(DATA / fixture, destination)
    if not (destination / "templates").exists():
        shutil.copytree(REPO / "templates", destination / "templates")
    return destination


@pytest.fixture
def basic_site(tmp_path: Path) -> Path:
    return copy_site(tmp_path / "site", "basic")


def pages_made(result) -> set[str]:
    """The files a build made, its search index aside (tests/test_search.py has its own tests)."""
    return {path for path in result.outputs if not path.startswith("pagefind/")}


def own_template(site: Path, name: str) -> Path:
    """The site's own copy of a default theme template (``post.html``), made on first use: edit it freely."""
    from generator.render import DEFAULT_THEME

    path = site / "templates" / name
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(DEFAULT_THEME / "templates" / name, path)
    return path


DEMO_PLUGIN = DATA / "plugin"


def install_demo_plugin(folder: Path) -> Path:
    """Install tests/data/plugin as a real distribution into ``folder`` (a folder for sys.path):
    its package and a ``.dist-info`` with the ``sitegen.plugins`` entry point, as pip writes them."""
    shutil.copytree(DEMO_PLUGIN / "sitegen_demo", folder / "sitegen_demo")
    info = folder / "sitegen_demo-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sitegen-demo\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[sitegen.plugins]\ndemo = sitegen_demo:register\n")
    return folder


@contextlib.contextmanager
def demo_plugin_installed(folder: Path) -> Iterator[Path]:
    """The demo plugin installed into ``folder`` and on sys.path for this process, the
    registries read again on the way in and out."""
    from generator.build import code_digest
    from generator.plugins import extensions
    from generator.readers import readers

    def forget() -> None:
        for cached in (extensions, readers, code_digest):
            cached.cache_clear()

    install_demo_plugin(folder)
    sys.path.insert(0, str(folder))
    forget()
    try:
        yield folder
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("sitegen_demo", None)
        forget()


@pytest.fixture
def demo_plugin(tmp_path: Path) -> Iterator[Path]:
    with demo_plugin_installed(tmp_path / "plugins") as folder:
        yield folder
