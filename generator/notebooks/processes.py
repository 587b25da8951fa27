"""Everything a tutorial's kernel starts ends with its run.

A cell may leave processes behind (a server, a daemon, ``sleep &``), and a
kernel's shutdown ends only the kernel's process group. Three nets catch the
rest, each what the others miss:

- a cgroup v2 of the kernel's own, where this process may make one (its own
  cgroup is writable): no process can leave it, whatever it does;
- the kernel's session (jupyter_client starts each kernel in a new one): a
  child that dropped its environment (``env -i``) stays in it;
- a mark in the kernel's environment: a child that left the session
  (``setsid``, a daemon's double fork) inherits it.

Without a cgroup, only a process that both drops its environment and leaves
the session escapes.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from pathlib import Path
from typing import Any

import psutil

KERNEL_MARK = "SITEGEN_KERNEL_RUN"   # in the environment of a kernel and all it starts
ROUNDS = 5                           # one that forked while we looked is caught on the next round
WAIT_S = 5.0


class KernelProcesses:
    """The processes of one kernel run: marked at start, adopted once the kernel runs, ended after."""

    def __init__(self) -> None:
        self.mark = uuid.uuid4().hex
        self.session: int | None = None
        self.cgroup: Path | None = None
        self.cancelled = False

    def environment(self) -> dict[str, str]:
        """The kernel's environment: this process's, and the mark."""
        return {**os.environ, KERNEL_MARK: self.mark}

    def adopt(self, kernel_manager: Any) -> None:
        """Note the kernel's session and move it into a cgroup of its own, before any cell runs."""
        pid = getattr(getattr(kernel_manager, "provisioner", None), "pid", None)
        if not pid:
            return
        try:
            if os.getsid(pid) == pid:        # it leads its own session, not this process's
                self.session = pid
        except OSError:                       # gone already: the run reports it
            return
        self.cgroup = confine(pid, f"sitegen-kernel-{self.mark}")
        if self.cancelled:                    # started as the run was cancelled
            self.end()

    def cancel(self) -> None:
        """End the run now (Ctrl-C): kill what runs, and a kernel that starts after at once."""
        self.cancelled = True
        self.end()

    def end(self) -> None:
        """Kill every process of the run that is still running, and remove its cgroup."""
        if self.cgroup is not None:
            end_cgroup(self.cgroup)
            self.cgroup = None
        for _ in range(ROUNDS):
            found = [process for process in psutil.process_iter() if self._started(process)]
            for process in found:
                try:
                    process.kill()
                except psutil.Error:
                    pass
            if not found:
                return
            psutil.wait_procs(found, timeout=WAIT_S)

    def _started(self, process: psutil.Process) -> bool:
        """Whether the kernel started ``process``: in its session, or carrying its mark."""
        if process.pid == os.getpid():
            return False
        try:
            if self.session is not None and os.getsid(process.pid) == self.session:
                return True
            return process.environ().get(KERNEL_MARK) == self.mark
        except (psutil.Error, OSError):       # gone, or another user's
            return False


def own_cgroup() -> Path | None:
    """This process's cgroup v2 folder, if it is mounted and this process may write there."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
        mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:                           # not Linux
        return None
    path = next((line[3:] for line in lines if line.startswith("0::")), None)
    # mountinfo: ID PARENT DEV ROOT MOUNTPOINT OPTIONS ... - TYPE SOURCE OPTIONS
    mount = next((line.split()[4] for line in mounts if " - cgroup2 " in line), None)
    if path is None or mount is None:
        return None
    folder = Path(mount) / path.lstrip("/")
    return folder if os.access(folder, os.W_OK) else None


def confine(pid: int, name: str) -> Path | None:
    """Move ``pid`` into a new cgroup beside this process's; None where that is not allowed."""
    parent = own_cgroup()
    if parent is None:
        return None
    folder = parent / name
    try:
        folder.mkdir()
    except OSError:
        return None
    try:
        (folder / "cgroup.procs").write_text(f"{pid}\n")
    except OSError:                           # no delegation, or controllers forbid it
        folder.rmdir()
        return None
    return folder


def end_cgroup(folder: Path) -> None:
    """Kill every process in ``folder`` and remove it (once the last is gone: an rmdir before
    that fails)."""
    deadline = time.monotonic() + WAIT_S
    try:
        (folder / "cgroup.kill").write_text("1\n")      # Linux 5.14 and later: all at once
    except OSError:
        pass
    while True:
        try:
            folder.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() > deadline:
                return
        try:
            pids = (folder / "cgroup.procs").read_text().split()
        except OSError:
            pids = []
        for pid in pids:                                # before 5.14, one by one
            try:
                os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.02)
