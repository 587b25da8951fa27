"""Per-document work spread over the machine's cores, in worker processes.

Parsing and rendering are Python, which one process runs on one core. Below a
few dozen items a pool costs more than it saves, and a process running other
threads (the preview's server) must not fork, so those run here, in order.

:func:`map` chooses how. Where this process may fork, it forks its workers,
so a function may be any callable (a closure over the assembled site and the
plan) and the items any sequence (one that reads each item when asked for it,
in the worker): the workers inherit both, and only indices go out and results
come back. The objects that exist when the pool starts are frozen out of the
garbage collector first (:func:`generator.gcpolicy.frozen`), and this process
collects nothing while results arrive (thousands of documents, in no cycle),
which would otherwise walk all that arrived before again and again. Where it
runs threads and may not fork, fresh workers (``forkserver``) are sent the
function and the items if they pickle; else the work is done here.

:class:`Background` runs one piece of work in a child forked beside this process, which goes
on with its own: the outputs' stats while the inputs are scanned, an edit's parse while the
records are read.
"""

from __future__ import annotations

import itertools
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from generator import gcpolicy

PARALLEL_THRESHOLD = 64      # fewer items than this are done here
HEAVY_THRESHOLD = 4          # fewer heavy items (each a process's work: a search index's part) are done here
BACKGROUND_THRESHOLD = 2000  # files of a site below which work beside a build is not worth a fork
CHUNK = 16                   # items per message to and from a worker

R = TypeVar("R")
T = TypeVar("T")
_task: Callable[[int], Any] | None = None     # what the forked workers run, inherited


def workers() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:       # not Linux
        return os.cpu_count() or 1


def worth_workers(count: int, heavy: bool = False) -> bool:
    """Whether ``count`` items (``heavy``: each a process's worth of work) are worth worker processes."""
    return count >= (HEAVY_THRESHOLD if heavy else PARALLEL_THRESHOLD) and workers() > 1


def can_fork(count: int, heavy: bool = False) -> bool:
    """Whether ``count`` items are worth worker processes forked from this one, and it may fork."""
    return worth_workers(count, heavy) and may_fork()


def map(function: Callable[[T], R], items: Sequence[T], heavy: bool = False,
        warm: bool = False) -> Iterator[list[R]]:
    """``function(item)`` for each of ``items``, in chunks of results, in order; in worker
    processes if there are enough items (:func:`worth_workers`), forked or fresh as this
    process allows (see the module's docstring), else here.

    ``heavy`` items each cost a worker's start-up many times over (a search index's part: a
    Pagefind process fed and read): they go to workers from :data:`HEAVY_THRESHOLD` on, one by
    one (a chunk of 16 of a few dozen would leave a core idle while another makes the last).

    ``warm``: where the workers are forked, the first item is done here before they start, so
    that what each worker would make for its first (imports, a Markdown converter, a lexer's
    filtered rules: 0.13 CPU s for a parse) is made once, and inherited.

    An exception a function raises reaches the caller (in a worker, it must
    pickle: a :class:`SiteError` does).
    """
    count, chunk = len(items), 1 if heavy else CHUNK
    if can_fork(count, heavy):
        return _forked(function, items, chunk, 1 if warm else 0)
    if worth_workers(count, heavy) and _pickles(function):
        return _fresh(function, items, chunk)
    return ([function(items[i]) for i in range(start, min(start + chunk, count))] for start in range(0, count, chunk))


def _forked(function: Callable[[T], R], items: Sequence[T], chunk: int, here: int = 0) -> Iterator[list[R]]:
    """The first ``here`` items done in this process, the rest in forked workers."""
    import multiprocessing

    global _task
    count = len(items)
    here = min(here, count)
    if here:
        yield [function(items[i]) for i in range(here)]
    chunks = [range(start, min(start + chunk, count)) for start in range(here, count, chunk)]
    if not chunks:      # all done here (a threshold lowered to one item)
        return
    _task = lambda i: function(items[i])    # noqa: E731 (inherited by the workers)
    try:
        with gcpolicy.frozen():
            with multiprocessing.get_context("fork").Pool(min(workers(), len(chunks)),
                                                          initializer=gcpolicy.resume) as pool:
                with gcpolicy.paused():
                    yield from pool.imap(_run_chunk, chunks)
    finally:
        _task = None


def _run_chunk(chunk: range) -> list:
    return [_task(i) for i in chunk]


def _fresh(function: Callable[[T], R], items: Sequence[T], size: int) -> Iterator[list[R]]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(workers(), mp_context=multiprocessing.get_context("forkserver")) as pool:
        results = pool.map(function, items, chunksize=size)
        while chunk := list(itertools.islice(results, size)):
            yield chunk


def _pickles(function: Callable) -> bool:
    """Whether ``function`` can be sent to a fresh worker (a closure cannot)."""
    import pickle

    try:
        pickle.dumps(function)
    except (pickle.PicklingError, AttributeError, TypeError):
        return False
    return True


def may_fork() -> bool:
    """Whether a child forked from this process may run beside it (a second core; no threads)."""
    return threading.active_count() == 1 and hasattr(os, "fork") and workers() > 1


def worth_background(files: int) -> bool:
    """Whether work beside a build of a site of ``files`` files is worth a :class:`Background` child."""
    return files >= BACKGROUND_THRESHOLD and may_fork()


class Background:
    """``function(*args)`` in a child forked from this process, while this one goes on; or here, at
    once, where this process may not fork (it runs threads; not POSIX) or ``worth`` says no
    (:func:`worth_background`: work of a small site costs less than a fork of a large process,
    a test runner's, hundreds of MiB).

    For one piece of work beside this process's own (a stat of every output while the inputs
    are scanned, an edit's parse while the records are read), which a pool would cost more than.
    The result, or the exception, comes back pickled when :meth:`result` is asked for.
    """

    def __init__(self, function: Callable[..., R], *args: Any, worth: bool = True):
        self.pid = 0
        if not (worth and may_fork()):
            self._outcome = _outcome(function, *args)
            return
        import pickle       # here: a process that may not fork needs none

        self._read, write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:           # the child: the outcome down the pipe, then gone, running no exit handler
            try:
                with os.fdopen(write, "wb") as pipe:
                    pickle.dump(_outcome(function, *args), pipe)
            finally:
                os._exit(0)
        os.close(write)

    def __enter__(self) -> Background:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def close(self) -> None:
        if self.pid:                # the result not asked for: the work is moot
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            os.close(self._read)
            self.pid = 0

    def result(self) -> R:
        if self.pid:
            import pickle

            with os.fdopen(self._read, "rb") as pipe:
                data = pipe.read()
            os.waitpid(self.pid, 0)
            self.pid = 0
            self._outcome = pickle.loads(data) if data else (False, RuntimeError("a worker process died"))
        done, value = self._outcome
        if not done:
            raise value
        return value


def _outcome(function: Callable[..., R], *args: Any) -> tuple[bool, Any]:
    try:
        return True, function(*args)
    except Exception as exc:    # raised again where the result is asked for
        return False, exc
