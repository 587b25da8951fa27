"""Tutorials under hostile or careless code (issue 15.8, 15.9), and kernels that fail to start, with a real kernel."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import nbformat
import psutil
import pytest
from nbformat.v4 import new_code_cell

from generator.build import build
from generator.errors import SiteError
from generator.notebooks import processes
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


# Issue 39.8: children that dropped their environment (env -i), so carry no mark: one left in
# the kernel's session, one in a session of its own (setsid), which only a cgroup holds.
WITHOUT_ENVIRONMENT = '''
import subprocess
subprocess.run(["env", "-i", "sh", "-c", "sleep 4242.4 > /dev/null 2>&1 &"], check=True)
subprocess.run(["env", "-i", "setsid", "sh", "-c", "sleep 4242.5 > /dev/null 2>&1 &"], check=True)
'''


@pytest.mark.parametrize("cgroup", [True, False], ids=["cgroup", "no-cgroup"])
def test_processes_that_dropped_their_environment_end_with_the_kernel(tmp_path: Path, monkeypatch,
                                                                      cgroup: bool) -> None:
    if cgroup and processes.own_cgroup() is None:
        pytest.skip("this process may not make a cgroup v2 here")
    if not cgroup:       # as on a machine without a writable cgroup: the session still holds them
        monkeypatch.setattr(processes, "own_cgroup", lambda: None)
    names = ("4242.4", "4242.5") if cgroup else ("4242.4",)
    assert not any(sleepers(s) for s in ("4242.4", "4242.5"))
    before = kernel_cgroups()
    site = make_site(tmp_path / "site", **{"detached.ipynb": notebook(new_code_cell(WITHOUT_ENVIRONMENT))})
    try:
        build(site, NOW)
        deadline = time.monotonic() + 10
        while any(sleepers(s) for s in names) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [s for s in names if sleepers(s)] == []
        if cgroup:      # the run's cgroup removed (other tests' kernels may hold cgroups meanwhile)
            while (left := [c for c in kernel_cgroups() - before if not (c / "cgroup.procs").read_text().strip()]) \
                    and time.monotonic() < deadline:
                time.sleep(0.1)
            assert left == []
    finally:
        for seconds in ("4242.4", "4242.5"):
            for process in sleepers(seconds):
                process.kill()


def kernel_cgroups() -> set[Path]:
    """The kernels' cgroups beside this process's (none where it may make none)."""
    own = processes.own_cgroup()
    return set(own.glob("sitegen-kernel-*")) if own is not None else set()


def test_the_downloadable_notebook_is_cut_to_the_output_limit_like_the_page(tmp_path: Path) -> None:
    cells = [new_code_cell("print('x' * 300_000)"), new_code_cell("'y' * 300_000"),
             new_code_cell("from IPython.display import HTML; HTML('<b>z</b>' * 100_000)"),
             new_code_cell("print('short')")]
    site = make_site(tmp_path / "site", "output_limit: 1000", **{"big.ipynb": notebook(*cells)})
    build(site, NOW)
    download = site / "_site/docs/tutorials/big.ipynb"
    assert download.stat().st_size < 20_000
    saved = nbformat.read(download, as_version=4)
    nbformat.validate(saved)
    stream, result, html, short = (cell.outputs[0] for cell in saved.cells)
    assert stream.text.startswith("x" * 1000) and "x" * 1001 not in stream.text
    assert "notebooks.output_limit" in stream.text
    assert result.data["text/plain"].startswith("'" + "y" * 999) and "notebooks.output_limit" in result.data["text/plain"]
    assert html.data["text/html"].startswith("<p>[a text/html output of 800,000 characters")
    assert "notebooks.output_limit" in html.data["text/html"]
    assert short.text == "short\n"


def site_on_a_flaky_kernel(tmp_path: Path, monkeypatch, name: str, failures: int, code: str) -> tuple[Path, Path]:
    """A site whose one tutorial, ``{name}.ipynb`` (a cell of ``code``), runs on kernelspec ``name``
    (found through JUPYTER_PATH), whose first ``failures`` starts exit before the kernel answers,
    as a kernel that dies on a loaded machine does; then IPython's kernel. The site, and the file
    each start is counted in."""
    jupyter = tmp_path / "jupyter"
    folder = jupyter / "kernels" / name
    folder.mkdir(parents=True)
    starts = jupyter / "starts"
    (folder / "start.sh").write_text(
        f'echo start >> "{starts}"\n'
        f'[ "$(wc -l < "{starts}")" -gt {failures} ] || exit 1\n'
        f'exec "{sys.executable}" -m ipykernel_launcher -f "$1"\n')
    (folder / "kernel.json").write_text(json.dumps({
        "argv": ["/bin/sh", str(folder / "start.sh"), "{connection_file}"],
        "display_name": name, "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(jupyter))
    nb = notebook(new_code_cell(code))
    nb.metadata.kernelspec = {"name": name, "display_name": name, "language": "python"}
    return make_site(tmp_path / "site", **{f"{name}.ipynb": nb}), starts


def test_a_kernel_that_dies_before_answering_is_started_once_more(tmp_path: Path, monkeypatch) -> None:
    site, starts = site_on_a_flaky_kernel(tmp_path, monkeypatch, "flaky", failures=1, code="print(6 * 7)")
    build(site, NOW)
    assert starts.read_text().split() == ["start", "start"]
    assert "42" in (site / "_site/docs/tutorials/flaky.html").read_text()


def test_a_kernel_that_never_answers_is_an_error_naming_the_tutorial(tmp_path: Path, monkeypatch) -> None:
    site, starts = site_on_a_flaky_kernel(tmp_path, monkeypatch, "broken", failures=99, code="print(1)")
    with pytest.raises(SiteError) as raised:
        build(site, NOW)
    assert "the broken kernel did not start" in str(raised.value) and "broken.ipynb" in str(raised.value)
    assert starts.read_text().split() == ["start", "start"]     # tried twice, then the machine is blamed
