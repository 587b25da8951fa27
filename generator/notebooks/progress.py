"""Progress of tutorial runs, one line per tutorial with its time.

On a terminal a status line below them shows what is running and for how
long, redrawn every half second; anywhere else (CI logs, pipes) only the plain
lines are written, so a log reads the same as the terminal did.
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from typing import TextIO

CLEAR_LINE = "\r\x1b[K"


class Progress:
    """Reports tutorials starting and finishing; safe to call from worker threads."""

    def __init__(self, total: int, workers: int, stream: TextIO | None = None):
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty()
        self.total = total
        self.done = 0
        self.running: dict[str, float] = {}
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.ticker = threading.Thread(target=self._tick, daemon=True) if self.live else None
        noun = "tutorial" if total == 1 else "tutorials"
        self._write(f"notebooks: running {total} {noun}, {min(workers, total)} at a time")

    def __enter__(self) -> Progress:
        if self.ticker:
            self.ticker.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        if self.ticker:
            self.ticker.join()
        with self.lock:
            if self.live:
                self.stream.write(CLEAR_LINE)
                self.stream.flush()

    def started(self, name: str) -> None:
        with self.lock:
            self.running[name] = time.perf_counter()
            self._redraw()

    def finished(self, name: str, outcome: str) -> float:
        """Report ``name`` done (``outcome``: "ran", "failed"...); return its seconds."""
        with self.lock:
            seconds = time.perf_counter() - self.running.pop(name)
            self.done += 1
            self._write(f"[{self.done}/{self.total}] {name}: {outcome} in {seconds:.2f} s")
            return seconds

    def note(self, line: str) -> None:
        """Report something that happened to a running tutorial (a worker died, say)."""
        with self.lock:
            self._write(line)

    def _write(self, line: str) -> None:
        if self.live:
            self.stream.write(CLEAR_LINE + line + "\n")
            self._redraw()
        else:
            self.stream.write(line + "\n")
            self.stream.flush()

    def _redraw(self) -> None:
        if not self.live:
            return
        now = time.perf_counter()
        running = ", ".join(f"{name} {now - start:.0f} s" for name, start in self.running.items())
        status = f"running: {running}" if running else ""
        width = shutil.get_terminal_size().columns - 1
        self.stream.write(CLEAR_LINE + status[:width])
        self.stream.flush()

    def _tick(self) -> None:
        while not self.stopped.wait(0.5):
            with self.lock:
                self._redraw()
