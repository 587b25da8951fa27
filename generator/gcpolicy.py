"""When the cyclic garbage collector runs: one policy for the whole program.

A build makes few reference cycles and holds hundreds of thousands of objects
to its end (the records, the documents, the plan), which every collection its
allocations set off would walk again: at 10,000 posts, 0.2-0.9 s of an edit
build. So the collector is off while a build runs (:func:`paused`); what lives
on afterwards (the preview's warm site) is frozen out of its reach
(:func:`freeze`, :func:`settle`); and forked workers, which share memory with
the process that forked them, find what existed before the fork frozen
(:func:`frozen`), so that their collections do not touch, and so copy, it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """The collector off inside, and on again after if it was on before (nested: the outermost
    turns it on). Objects are still freed by reference counting."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


@contextmanager
def frozen() -> Iterator[None]:
    """The objects that exist now kept out of the collector's reach inside: for workers forked
    inside, whose collections would otherwise copy the memory they share with this process."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def resume() -> None:
    """The collector on: in a worker process, whose work is its own (a pool's initializer)."""
    gc.enable()


def freeze() -> None:
    """What exists now out of the collector's reach for good: what a build returns, which lives
    to the end of the command."""
    gc.freeze()


def settle() -> None:
    """Free a build's garbage, then freeze what is left (the preview's warm site).

    Every rebuild allocates enough to set off the collector, which would
    otherwise walk all the documents kept in memory each time (a quarter of a
    second at 10,000 posts). Frozen objects are still freed by reference
    counting; only frozen reference cycles that become garbage later stay.
    """
    gc.collect()
    gc.freeze()
