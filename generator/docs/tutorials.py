"""A docs section's tutorials as files, and how a build got their outputs: what the
section, the versions and the docs planner share (:mod:`.gallery` makes them)."""

from __future__ import annotations

from dataclasses import dataclass

from generator import codec
from generator.files import Files
from generator.links import Linked


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
        self.linked: list[Linked] = []           # each page's links, its Markdown cells'
