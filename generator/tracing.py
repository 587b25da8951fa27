"""The trace of one render: the inputs it read (dependency keys) and the warnings it gave.

Kept apart from :mod:`generator.deps`, which knows the site, so that modules the site's
assembly itself uses (the build's time, Liquid) can record what a render read.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

Key = tuple


@dataclass
class Trace:
    """What one render read (dependency keys) and warned of."""

    reads: set[Key] = field(default_factory=set)
    warnings: list[str] = field(default_factory=list)


_trace: ContextVar[Trace | None] = ContextVar("sitegen_trace", default=None)


def record(key: Key) -> None:
    """Note that the render in progress (if any) read the input named ``key``."""
    trace = _trace.get()
    if trace is not None:
        trace.reads.add(key)


def warn(message: str) -> None:
    """A warning of the render in progress (``file:line: warning: ...``), reported with its output."""
    trace = _trace.get()
    if trace is not None:
        trace.warnings.append(message)


@contextmanager
def tracing() -> Iterator[Trace]:
    """Collect what the code run inside the ``with`` block reads and warns of."""
    trace = Trace()
    token = _trace.set(trace)
    try:
        yield trace
    finally:
        _trace.reset(token)
