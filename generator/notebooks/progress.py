"""Progress of tutorial runs, one line per tutorial with its time.

The lines go to the command's :func:`generator.progress.current` progress, so
they read as the rest of the build's: on a terminal, below them, the status
line shows what is running and for how long, redrawn every half second;
anywhere else (CI logs, pipes) only the plain lines are written, so a log
reads the same as the terminal did.
"""

from __future__ import annotations

import threading
import time

from generator import progress as reporting


class Progress:
    """Reports tutorials starting and finishing; safe to call from worker threads."""

    def __init__(self, total: int, workers: int, out: reporting.Progress | None = None):
        self.out = out or reporting.current()
        self.total = total
        self.done = 0
        self.running: dict[str, float] = {}
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.ticker = threading.Thread(target=self._tick, daemon=True) if self.out.live else None
        noun = "tutorial" if total == 1 else "tutorials"
        self.out.line(f"notebooks: running {total} {noun}, {min(workers, total)} at a time")

    def __enter__(self) -> Progress:
        if self.ticker:
            self.ticker.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        if self.ticker:
            self.ticker.join()
        self.out.show("")

    def started(self, name: str) -> None:
        with self.lock:
            self.running[name] = time.perf_counter()
            self._redraw()

    def finished(self, name: str, outcome: str) -> float:
        """Report ``name`` done (``outcome``: "ran", "failed"...); return its seconds."""
        with self.lock:
            seconds = time.perf_counter() - self.running.pop(name)
            self.done += 1
            self.out.line(f"[{self.done}/{self.total}] {name}: {outcome} in {seconds:.2f} s")
            self._redraw()
            return seconds

    def note(self, line: str) -> None:
        """Report something that happened to a running tutorial (a worker died, say)."""
        self.out.line(line)

    def _redraw(self) -> None:
        if not self.out.live:
            return
        now = time.perf_counter()
        running = ", ".join(f"{name} {now - start:.0f} s" for name, start in self.running.items())
        self.out.show(f"running: {running}" if running else "")

    def _tick(self) -> None:
        while not self.stopped.wait(0.5):
            with self.lock:
                self._redraw()
