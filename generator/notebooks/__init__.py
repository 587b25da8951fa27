"""Jupyter tutorials, executed at build time, cached, rendered into the site.

``notebooks/`` holds the tutorials (``.ipynb``, or ``.py`` scripts in the
percent or sphinx-gallery format). Each becomes ``/docs/tutorials/<slug>.html``
with its outputs from a real run, beside its downloads (``<slug>.ipynb``,
executed, and ``<slug>.py``), plus a gallery at ``/docs/tutorials/``.

The modules, in the order data flows through them: ``sources`` (files to
notebooks and back), ``spec`` (declared settings, the cache key),
``environment`` (what this machine has), ``execute`` (one run in a kernel),
``store`` (runs on disk), ``render`` and ``sanitize`` (cells to HTML),
``progress`` (the terminal), ``pipeline`` (all of it, for a build).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from generator.build import BuildOptions, Outputs, SiteRenderer
    from generator.config import Config

FOLDER = "notebooks"


@dataclass(frozen=True)
class TutorialStats:
    """How a build got each tutorial's outputs."""

    ran: int = 0
    cached: int = 0
    unexecuted: int = 0

    @property
    def total(self) -> int:
        return self.ran + self.cached + self.unexecuted

    def summary(self) -> str:
        line = f"{self.ran} notebooks ran, {self.cached} from cache"
        return line + (f", {self.unexecuted} not executed" if self.unexecuted else "")


def render_tutorials(config: Config, options: BuildOptions, pages: SiteRenderer,
                     outputs: Outputs) -> TutorialStats:
    """Execute (or take from the cache) and render every tutorial into ``outputs``."""
    if not (config.root / FOLDER).is_dir():
        return TutorialStats()
    # Imported here: nbclient and nbconvert take most of a second to load, which
    # a site without tutorials (and every test of one) should not pay.
    from generator.notebooks.pipeline import build_tutorials

    return build_tutorials(config, options, pages, outputs)
