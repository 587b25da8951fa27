"""``parallel.map`` chooses where work runs, not its callers: forked workers where this process
may fork, fresh ones for a function that pickles where it runs threads, else this process;
the results in order either way."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from functools import partial
from pathlib import Path

from generator import parallel

COUNT = parallel.PARALLEL_THRESHOLD + 10


def pid_and_square(offset: int, n: int) -> tuple[int, int]:
    return os.getpid(), (n + offset) ** 2


def with_a_thread_running(function):
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        return function()
    finally:
        stop.set()
        thread.join()


def results(function, items) -> list:
    return [result for chunk in parallel.map(function, items) for result in chunk]


def test_with_threads_a_function_that_pickles_goes_to_fresh_workers():
    found = with_a_thread_running(lambda: results(partial(pid_and_square, 1), range(COUNT)))
    assert [square for _, square in found] == [(n + 1) ** 2 for n in range(COUNT)]
    assert os.getpid() not in {pid for pid, _ in found}


def test_with_threads_a_closure_runs_here():
    offset = 2
    found = with_a_thread_running(lambda: results(lambda n: pid_and_square(offset, n), range(COUNT)))
    assert found == [(os.getpid(), (n + 2) ** 2) for n in range(COUNT)]


def test_few_items_run_here():
    assert results(partial(pid_and_square, 0), range(3)) == [(os.getpid(), n * n) for n in range(3)]


def test_a_few_heavy_items_go_to_workers_one_by_one():
    """A search index's parts: each worth a worker, so a few go to workers, one per message."""
    count = parallel.HEAVY_THRESHOLD + 2
    assert count < parallel.PARALLEL_THRESHOLD and parallel.workers() > 1, "this test needs two cores"
    chunks = list(parallel.map(partial(pid_and_square, 0), range(count), heavy=True))
    assert [len(chunk) for chunk in chunks] == [1] * count
    assert [square for chunk in chunks for _, square in chunk] == [n * n for n in range(count)]
    assert os.getpid() not in {pid for chunk in chunks for pid, _ in chunk}


WARM = """
import os
from functools import partial
from generator import parallel
from tests.test_parallel_map import COUNT, pid_and_square
assert parallel.can_fork(COUNT), "this test needs two cores"
found = [result for chunk in parallel.map(partial(pid_and_square, 3), range(COUNT), warm=True) for result in chunk]
assert [square for _, square in found] == [(n + 3) ** 2 for n in range(COUNT)]
assert found[0][0] == os.getpid()
assert os.getpid() not in {pid for pid, _ in found[1:]}
print("checked")
"""


def test_warm_does_the_first_item_here_and_the_rest_in_forked_workers():
    """A parse's first document is parsed here, so the workers inherit what it made (the
    converter); the results are the same, in order. In a process of its own: one with no thread
    that another test of this worker left running, which would keep it from forking."""
    done = subprocess.run([sys.executable, "-c", WARM], cwd=Path(__file__).parent.parent,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "checked" in done.stdout, done.stderr
