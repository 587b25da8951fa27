"""One writer at a time: a lock on a site's ``.sitegen/`` folder that says who holds it.

Two builds writing one output folder at once leave a mix of both, and a
preview's engine trusts the output folder to be as it left it. The lock is an
advisory ``flock`` on ``.sitegen/lock``: the kernel releases it when its
holder exits, however it exits (kill -9 included), so the lock of a dead
process is simply taken over. The file says who holds it (pid, host, command,
start time), for the error the next writer gets.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from generator import layout
from generator.errors import SiteError
from generator.statedir import own_state_dir

LOCK_FILE = layout.LOCK_FILE

_held: dict[Path, int] = {}     # locks this process holds -> how many times it took each


@contextmanager
def site_lock(state_dir: Path, command: str) -> Iterator[None]:
    """Hold the site's lock for the ``with`` block (again, if this process holds it already);
    ``state_dir`` made, or checked, first (:func:`generator.statedir.own_state_dir`)."""
    state_dir = state_dir.parent.resolve() / state_dir.name     # .sitegen itself not followed
    path = state_dir / LOCK_FILE
    if path in _held:
        _held[path] += 1
        try:
            yield
        finally:
            _held[path] -= 1
        return
    own_state_dir(state_dir)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as exc:      # a link (ELOOP), a folder, no permission
        raise SiteError(f"cannot open the lock: {exc.strerror}", path) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SiteError(f"{holder(fd)} is working on this site: wait for it to finish, or stop it",
                            path) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps({"pid": os.getpid(), "host": os.uname().nodename, "command": command,
                                  "started": time.strftime("%Y-%m-%d %H:%M:%S")}).encode(), 0)
        _held[path] = 1
        try:
            yield
        finally:
            del _held[path]
            os.ftruncate(fd, 0)
    finally:
        os.close(fd)     # releases the lock


def holder(fd: int) -> str:
    """Who holds the lock, as its file says."""
    try:
        who = json.loads(os.pread(fd, 4096, 0))
        return f"{who['command']} (pid {who['pid']} on {who['host']}, since {who['started']})"
    except (OSError, ValueError, KeyError, TypeError):
        return "another sitegen (it has not said which yet)"
