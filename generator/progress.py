"""Progress of long work (build, check, publish, tutorials): stages with counts, and their times.

On a terminal one status line is rewritten in place with the stage and its
count (``rendering 3,412/10,000 files``) once the stage has counted some;
lines for the record (a tutorial done) are written above it, and the status
line is cleared when the work ends, so the terminal keeps only those lines
(and work that counts nothing, a build with nothing to do, writes nothing). Anywhere else (a CI log, a
pipe) nothing is redrawn: a stage that runs longer than ``every`` seconds
says where it is once every ``every`` seconds, so a log gets a few lines,
not one per page. Each stage's time is kept for :meth:`Progress.summary`.

A command makes one :class:`Progress` and makes it :func:`active`; the
engine and the tutorial runs report to :func:`current`, so there is one way of
reporting, whoever does the work. Nothing here starts a thread: the build
forks worker processes, which a process with threads must not do.
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TextIO

CLEAR_LINE = "\r\x1b[K"
REDRAW_S = 0.1          # a terminal's status line is redrawn at most this often
LOG_EVERY_S = 10.0      # a long stage's line in a log, this often


class Stage:
    """One named step of the work, with a count when it has one."""

    def __init__(self, progress: Progress, name: str, total: int, noun: str):
        self.progress, self.name, self.total, self.noun = progress, name, total, noun
        self.done = 0
        self.started = time.perf_counter()

    def advance(self, count: int = 1) -> None:
        if count:
            self.done += count
            self.progress._update(self)

    def text(self) -> str:
        if not self.total:
            return self.name
        return f"{self.name} {self.done:,}/{self.total:,} {self.noun}".rstrip()


class Progress:
    """Where long work reports its stages; safe to call from several threads."""

    def __init__(self, stream: TextIO | None = None, live: bool | None = None, every: float = LOG_EVERY_S):
        self.stream = stream if stream is not None else sys.stderr
        self.live = self.stream.isatty() if live is None else live
        self.every = every
        self.timings: list[tuple[str, float]] = []     # finished stages, in order: name, seconds
        self._lock = threading.RLock()
        self._stage: Stage | None = None
        self._status = ""             # what the status line says besides the stage (tutorials running)
        self._drawn = 0.0             # when the status line was last drawn
        self._shown = False           # whether it shows anything now
        self._logged = 0.0            # when a long stage last wrote its line to the log

    @contextmanager
    def stage(self, name: str, total: int = 0, noun: str = "") -> Iterator[Stage]:
        """Time the work in the ``with`` block as stage ``name`` (of ``total`` ``noun``)."""
        stage = Stage(self, name, total, noun)
        with self._lock:
            outer, self._stage = self._stage, stage
            self._logged = stage.started
        try:
            yield stage
        finally:
            with self._lock:
                self.timings.append((name, time.perf_counter() - stage.started))
                self._stage = outer
                if self._shown:
                    self._draw()

    def line(self, text: str) -> None:
        """A line for the record: above the status line on a terminal, as it is in a log."""
        with self._lock:
            if self.live:
                self.stream.write(CLEAR_LINE + text + "\n")
                self._shown = False
                self._draw()
            else:
                self.stream.write(text + "\n")
            self.stream.flush()

    def show(self, status: str) -> None:
        """What the status line says besides the stage (a terminal only): ``""`` for nothing."""
        with self._lock:
            self._status = status
            self._draw()

    def close(self) -> None:
        """Clear the status line: the work is over, or failed."""
        with self._lock:
            self._stage, self._status = None, ""
            if self._shown:
                self.stream.write(CLEAR_LINE)
                self.stream.flush()
                self._shown = False

    def summary(self) -> str:
        """``stages: scanning 0.05 s, parsing 8.12 s, ...`` (a stage that ran twice, its total),
        or "" if no stage ran."""
        totals: dict[str, float] = {}
        for name, seconds in self.timings:
            totals[name] = totals.get(name, 0.0) + seconds
        return "stages: " + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in totals.items()) \
            if totals else ""

    def _update(self, stage: Stage) -> None:
        with self._lock:
            if stage is not self._stage:
                return
            now = time.perf_counter()
            if self.live:
                if now - self._drawn >= REDRAW_S or stage.done == stage.total:
                    self._draw()
            elif now - self._logged >= self.every:
                self._logged = now
                self.stream.write(f"{stage.text()} ({now - stage.started:.0f} s)\n")
                self.stream.flush()

    def _draw(self) -> None:
        """Rewrite the status line (a terminal only): the stage, if it counted any, and the status."""
        if not self.live:
            return
        counted = self._stage is not None and self._stage.done
        text = "; ".join(([self._stage.text()] if counted else []) + ([self._status] if self._status else []))
        if not text and not self._shown:
            return
        width = shutil.get_terminal_size().columns - 1
        self.stream.write(CLEAR_LINE + text[:width])
        self.stream.flush()
        self._drawn, self._shown = time.perf_counter(), bool(text)


_current: ContextVar[Progress | None] = ContextVar("sitegen_progress", default=None)


def current() -> Progress:
    """The progress the running command reports to; with none, a new one on standard error."""
    return _current.get() or Progress()


@contextmanager
def active(progress: Progress) -> Iterator[Progress]:
    """Make ``progress`` the :func:`current` one inside the ``with`` block; clear its line after."""
    token = _current.set(progress)
    try:
        yield progress
    finally:
        _current.reset(token)
        progress.close()
