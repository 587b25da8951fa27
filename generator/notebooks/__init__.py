"""Jupyter tutorials, executed at build time, cached, rendered into the docs section.

``notebooks/`` holds the tutorials (``.ipynb``, or ``.py`` scripts in the
percent or sphinx-gallery format). The docs section of each tree (the working
tree, or a docs version's export) places them in its ``tutorials/`` folder:
each becomes ``<slug>.html`` with its outputs from a real run, beside its
downloads (``<slug>.ipynb``, executed, and ``<slug>.py``), plus a gallery,
``index.html``. Runs are cached by content, so a tutorial that is the same in
two versions executes once.

The modules, in the order data flows through them: ``sources`` (files to
notebooks and back), ``spec`` (declared settings, the cache key),
``environment`` (what this machine has), ``execute`` (one run in a kernel),
``executors`` (runs here or on a Dask cluster), ``store`` (runs on disk) with
``shared`` (a cache shared between machines), ``render`` (cells to HTML) with
``sanitize`` (what may run in a browser), ``formulas`` (math for KaTeX),
``anchors`` (ids on the page) and ``widgets`` (saved widget state),
``progress`` (the terminal), ``pipeline`` (all of it, for one tree), and
``runs`` (tutorials run into the cache without a build, for CI).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Collection

from generator import codec
from generator.files import Files
from generator.layout import NOTEBOOKS

if TYPE_CHECKING:
    from generator.config import Config
    from generator.render import Renderer

FOLDER = NOTEBOOKS


@codec.record
@dataclass(frozen=True)
class TutorialStats:
    """How a build got each tutorial's outputs."""

    ran: int = 0
    cached: int = 0
    unexecuted: int = 0             # could not run here: shown with their saved outputs
    stored: int = 0                 # ``execute: never``: their saved outputs, by choice

    def __add__(self, other: TutorialStats) -> TutorialStats:
        return TutorialStats(self.ran + other.ran, self.cached + other.cached,
                             self.unexecuted + other.unexecuted, self.stored + other.stored)

    @property
    def total(self) -> int:
        return self.ran + self.cached + self.unexecuted + self.stored

    def summary(self) -> str:
        line = f"{self.ran} notebooks ran, {self.cached} from cache"
        line += f", {self.unexecuted} not executed" if self.unexecuted else ""
        return line + (f", {self.stored} shown as saved (execute: never)" if self.stored else "")


class Tutorials(Files):
    """One tree's tutorials as files below their gallery's folder (``url``, e.g. /docs/v2/tutorials/),
    and how the build got each tutorial's outputs."""

    def __init__(self, url: str = ""):
        super().__init__(url)
        self.stats = TutorialStats()
        self.warnings: list[str] = []   # ``file:line: warning: ...``, for the build to report
        self.pages: list[dict[str, str]] = []    # title and url of each tutorial, in order


def render_tutorials(config: Config, tree: Path, gallery_url: str, render: Callable[..., str],
                     renderer: Renderer, refresh: bool = False, version: str | None = None,
                     rerun: Collection[str] = (), docs: dict[str, Any] | None = None) -> Tutorials:
    """Execute (or take from the cache) and render the tutorials in ``tree/notebooks``.

    ``gallery_url`` is where the gallery is published (``/docs/v2/tutorials/``);
    ``render`` renders a page template with the site's context; ``version``
    names the docs version in progress lines; ``rerun`` names tutorials to run
    again whatever the cache holds; ``docs`` is the docs section's navigation (its
    pages) for the sidebar, to which each page adds the tutorials.
    """
    if not (tree / FOLDER).is_dir():
        return Tutorials()
    # Imported here: nbclient and nbconvert take most of a second to load, which
    # a site without tutorials (and every test of one) should not pay.
    from generator.notebooks.pipeline import build_tutorials

    return build_tutorials(config, tree, gallery_url, render, renderer, refresh, version, rerun, docs)
