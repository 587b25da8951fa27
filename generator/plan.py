"""The plan of a build: every file the site has, and how to make each one.

A :class:`Job` makes one output file. The plan hands it a small ``inputs``
value (a page number, a redirect's target); everything else it reads from the
site and the templates is recorded while it renders (``generator.deps``).
So the builder can plan the whole site cheaply and make only the jobs an edit
touched. The planners that fill a plan are in :mod:`generator.outputs`; a
bundle among them hands back its files already made, as
:class:`~generator.files.Files`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from generator.errors import SiteError, warning
from generator.files import check_output_path


class Job(NamedTuple):
    """One output file: how to make it, and what the plan hands its render."""

    path: str
    origin: str
    make: Callable[[], bytes | str]
    inputs: Any = None


class Plan(dict):
    """Output path -> :class:`Job`, refusing a second claim on a path (naming both), unless one
    of the two is a file sitegen generates (a feed, the sitemap): the site's own file wins,
    as a Jekyll site's own ``feed.xml`` wins over jekyll-feed's, and the build says so."""

    def __init__(self) -> None:
        super().__init__()
        self.unlisted: set[str] = set()     # pages kept out of the sitemap
        self.generated: dict[str, tuple[str, str]] = {}   # path -> (origin, setting) of a generated job
        self.overridden: dict[str, str] = {}   # path -> the warning saying whose file won

    def add(self, path: str, origin: str | Path, make: Callable[[], bytes | str],
            inputs: Any = None, listed: bool = True, generated: str = "") -> None:
        """Plan one file: the plugin interface's way to claim an output path.

        Args:
            path: The output path, relative to the output folder (``titles.json``).
            origin: What the file comes from, named in messages (a source file, or ``plugin NAME``).
            make: Makes the file's bytes; it reads the site through the recording views only.
            inputs: A small value handed to the job, compared with ``==`` between builds.
            listed: Whether the file belongs in the sitemap.
            generated: The setting that switches this generated file off (``outputs.sitemap``);
                such a job gives way to a file of the site at the same path.

        Raises:
            SiteError: Another job claimed ``path``, or it leaves the output folder.
        """
        check_output_path(path, origin)
        if path in self:
            if bool(generated) == (path in self.generated):
                raise SiteError(f"/{path} is claimed by both {self[path].origin} and {origin}", origin)
            own = self[path].origin if generated else str(origin)
            maker, setting = (str(origin), generated) if generated else self.generated[path]
            self.overridden[path] = warning(f"/{path}: the site's own file is published, not the one sitegen "
                                            f"makes ({maker}; site.yaml {setting}: false makes none)", own)
            if generated:
                return
            del self.generated[path]
        self[path] = Job(path, str(origin), make, inputs)
        self.unlisted.discard(path)
        if not listed:
            self.unlisted.add(path)
        if generated:
            self.generated[path] = (str(origin), generated)

    def add_all(self, jobs: list[Job]) -> None:
        """Add many jobs at once (thousands of documents); the same checks as :meth:`add`."""
        claimed = {job.path: job for job in jobs}
        for job in jobs:
            check_output_path(job.path, job.origin)
        if len(claimed) < len(jobs) or not claimed.keys().isdisjoint(self):
            for job in jobs:
                self.add(*job)   # raises, naming both claimants
        self.update(claimed)
