"""A tutorial's background processes end with its kernel (issue 15.8), with a real kernel."""

from __future__ import annotations

import time
from pathlib import Path

import psutil
from nbformat.v4 import new_code_cell

from generator.build import build
from test_notebooks import NOW, make_site, notebook

# A child in the kernel's process group, one in a session of its own (setsid), and a
# daemon that double-forked away from the kernel altogether: each writes its pid.
START = '''
import os, subprocess, sys
here = os.getcwd()
subprocess.Popen(["sleep", "4242.1"])
subprocess.Popen(["sleep", "4242.2"], start_new_session=True)
subprocess.Popen([sys.executable, "-c", """
import os, subprocess, sys
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        subprocess.Popen(["sleep", "4242.3"]).wait()
    os._exit(0)
os._exit(0)
"""]).wait()
'''


def sleepers(seconds: str) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter(["cmdline", "status"]):
        if process.info["cmdline"] == ["sleep", seconds] and process.info["status"] != psutil.STATUS_ZOMBIE:
            found.append(process)
    return found


def test_processes_a_tutorial_leaves_running_end_with_its_kernel(tmp_path: Path) -> None:
    assert not any(sleepers(s) for s in ("4242.1", "4242.2", "4242.3"))
    site = make_site(tmp_path / "site", **{"background.ipynb": notebook(new_code_cell(START), new_code_cell("1 + 1"))})
    try:
        build(site, NOW)
        deadline = time.monotonic() + 10
        while any(sleepers(s) for s in ("4242.1", "4242.2", "4242.3")) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [s for s in ("4242.1", "4242.2", "4242.3") if sleepers(s)] == []
    finally:
        for seconds in ("4242.1", "4242.2", "4242.3"):
            for process in sleepers(seconds):
                process.kill()
