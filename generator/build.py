"""Build a site: the front of the engine (:mod:`generator.engine`).

``build`` brings a site's output folder up to date, doing only the work its
edits require; ``render_site`` makes every file in memory; :class:`Engine` is
the engine itself, which the preview keeps alive between rebuilds. The stages,
the documents and the records live in the :mod:`generator.engine` package.
"""

from __future__ import annotations

from pathlib import Path

from generator.config import Config
from generator.engine.core import Engine
from generator.engine.documents import code_digest
from generator.engine.values import BuildResult
from generator.layout import STATE_DIR
from generator.lock import site_lock
from generator.options import BuildOptions
from generator.outputs import Registry

__all__ = ["BuildOptions", "BuildResult", "Engine", "build", "code_digest", "render_site"]


def build(root: str | Path = ".", options: BuildOptions = BuildOptions()) -> BuildResult:
    """Bring the site's output directory up to date, doing only the work edits require."""
    with site_lock(Path(root) / STATE_DIR, "sitegen build"):
        return Engine(root, options).build()


def render_site(config: Config, options: BuildOptions = BuildOptions(),
                planners: Registry | None = None) -> BuildResult:
    """Every file the site has, made in memory from scratch: the engine without saved state."""
    return Engine(config.root, options, planners, saved=False).render()
