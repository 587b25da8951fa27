"""Tutorials run on a real Dask cluster: worker processes on this machine, one offering a GPU.

The cluster's two workers are real processes (each a Nanny and its worker),
one started with the resources ``GPU=1, cuda=1`` and a ``SITEGEN_TEST_WORKER``
variable its kernels inherit, so a tutorial can tell where it runs. Runs are
counted by a log each tutorial's code appends to, which no cache can fake.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from generator.build import build
from generator.errors import SiteError
from test_notebooks import NOW, REFRESH, logged, make_site, page, runs

distributed = pytest.importorskip("distributed")


def worker(name: str, **resources: float) -> dict:
    return {"cls": distributed.Nanny, "options": {
        "nthreads": 1, "resources": resources, "env": {"SITEGEN_TEST_WORKER": name},
        "memory_limit": 0, "dashboard": False}}


@pytest.fixture(scope="module")
def cluster():
    """A scheduler with a CPU-only worker and a CUDA worker, all processes on 127.0.0.1."""
    spec = distributed.SpecCluster(
        scheduler={"cls": distributed.Scheduler, "options": {"host": "127.0.0.1", "dashboard_address": None}},
        workers={"cpu": worker("cpu"), "gpu": worker("gpu", GPU=1, cuda=1)},
        asynchronous=False, silence_logs=40)
    with spec, distributed.Client(spec, set_as_default=False) as client:
        client.wait_for_workers(2, timeout=120)
        yield spec


def where_it_ran(log: Path, name: str) -> str:
    """A cell logging the tutorial's name and the worker whose kernel ran it."""
    return (f"import os\n{logged(log, name)}\n"
            f"open({str(log)!r}, 'a').write('worker=' + os.environ.get('SITEGEN_TEST_WORKER', 'none') + '\\n')")


def script(title: str, *cells: str, header: str = "") -> str:
    """A percent-format tutorial: a title, code cells, and ``sitegen:`` settings in its header."""
    head = f"# ---\n# sitegen:\n{header}# ---\n" if header else ""
    return head + f"# %% [markdown]\n# {title}\n\n" + "".join(f"# %%\n{cell}\n\n" for cell in cells)


def dask_site(root: Path, address: str, **tutorials) -> Path:
    return make_site(root, f"executor: {address}\nworkers: 2", **tutorials)


def test_each_tutorial_runs_on_a_worker_with_what_it_declares(cluster, tmp_path, capfd):
    log = tmp_path / "runs.log"
    gpu_check = ("import os\nassert os.environ['SITEGEN_TEST_WORKER'] == 'gpu', "
                 "os.environ.get('SITEGEN_TEST_WORKER')\nprint('ran on the GPU worker')")
    site = dask_site(tmp_path / "site", cluster.scheduler_address, **{
        "on_gpu.py": script("# # On the GPU", where_it_ran(log, "on_gpu"), gpu_check,
                            header="#   device: cuda\n"),
        "anywhere.py": script("# # Anywhere", where_it_ran(log, "anywhere"), "print(6 * 7)"),
    })
    result = build(site, NOW)
    assert (result.reports["docs"].tutorials.ran, result.reports["docs"].tutorials.cached) == (2, 0)
    lines = runs(log)
    assert lines[lines.index("on_gpu") + 1] == "worker=gpu"
    assert lines.count("on_gpu") == 1 and lines.count("anywhere") == 1
    assert "ran on the GPU worker" in page(site, "on_gpu") and "42" in page(site, "anywhere")
    progress = capfd.readouterr().err
    assert "notebooks: running 2 tutorials, 2 at a time" in progress
    assert "[2/2] notebooks/" in progress and ": ran in " in progress

    result = build(site, NOW)                         # the runs are cached like local ones
    assert (result.reports["docs"].tutorials.ran, result.reports["docs"].tutorials.cached) == (0, 2) and len(runs(log)) == 4


def test_a_tutorial_no_worker_can_run_fails_at_once_naming_the_resource(cluster, tmp_path):
    site = dask_site(tmp_path / "site", cluster.scheduler_address, **{
        "on_rocm.py": script("# # ROCm", "print(1)", header="#   device: rocm\n"),
        "tvm.py": script("# # TVM", "print(1)", header="#   requires: [tvm]\n")})
    started = time.perf_counter()
    with pytest.raises(SiteError) as error:
        build(site, NOW)
    assert time.perf_counter() - started < 60
    message = str(error.value)
    assert error.value.path == "notebooks/on_rocm.py"
    assert f"needs resource rocm, which no worker of the Dask scheduler at {cluster.scheduler_address} " \
           "offers" in message
    assert "notebooks/tvm.py: needs resource tvm, which no worker" in message
    assert not (site / "_site" / "docs").exists()


FAILING = script("# # Failing", "x = 1", "def inner():\n    return 1 / 0\n\ninner()", "print('never')")
SLOW = script("# # Slow", "import time\ntime.sleep(30)", header="#   timeout: 2\n")


def test_errors_and_timeouts_read_exactly_as_with_the_local_executor(cluster, tmp_path):
    messages = {}
    for executor in ("local", cluster.scheduler_address):
        site = make_site(tmp_path / executor.replace(":", "_").replace("/", "_"), f"executor: {executor}",
                         **{"failing.py": FAILING, "slow.py": SLOW})
        with pytest.raises(SiteError) as error:
            build(site, NOW)
        messages[executor] = str(error.value)
    local, dask = messages.values()
    assert dask == local
    assert "notebooks/failing.py:" in dask and "raised ZeroDivisionError: division by zero" in dask
    assert "return 1 / 0" in dask and "inner()" in dask
    assert "notebooks/slow.py:" in dask and "timed out: the cell ran longer than its timeout of 2 s" in dask


@contextlib.contextmanager
def doomed_workers(cluster, count: int, resources: str):
    """``count`` more worker processes without a Nanny (killed, they stay dead), offering ``resources``.

    The tests that kill workers kill these, so the module's cluster stays whole.
    """
    repo = Path(__file__).resolve().parents[1]
    names = [f"doomed-{uuid.uuid4().hex[:8]}" for _ in range(count)]
    processes = [subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", cluster.scheduler_address, "--no-nanny",
         "--name", name, "--nthreads", "1", "--resources", resources, "--no-dashboard", "--host", "127.0.0.1"],
        env={**os.environ, "PYTHONPATH": str(repo)}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for name in names]
    pids = {process.pid for process in processes}
    try:
        with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
            deadline = time.monotonic() + 120
            while not set(names) <= {info.get("name") for info in
                                     client.scheduler_info(n_workers=-1)["workers"].values()}:
                assert time.monotonic() < deadline, f"{count} workers with {resources} did not join in 120 s"
                time.sleep(0.2)
        yield pids
    finally:
        for process in processes:
            process.kill()
            process.wait()


def worker_pid_logger(log: Path, title: str, device: str, seconds: float) -> str:
    """A tutorial on ``device`` logging the pid of the worker process whose kernel runs it."""
    return script(title, f"import os, time\nopen({str(log)!r}, 'a').write(f'pid={{os.getppid()}}\\n')\n"
                         f"time.sleep({seconds})\nprint('finished')", header=f"#   device: {device}\n")


def kill_the_first(log: Path, count: int) -> tuple[threading.Thread, list[int]]:
    """A thread killing the worker process of each of the first ``count`` runs logged."""
    killed: list[int] = []

    def kill() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(killed) < count:
            for line in runs(log)[len(killed):count]:
                killed.append(int(line[4:]))
                os.kill(killed[-1], signal.SIGKILL)
            time.sleep(0.1)

    thread = threading.Thread(target=kill)
    thread.start()
    return thread, killed


def test_a_worker_killed_mid_run_is_reported_and_the_tutorial_retried_once_elsewhere(cluster, tmp_path, capfd):
    log = tmp_path / "runs.log"
    site = dask_site(tmp_path / "site", cluster.scheduler_address,
                     **{"slow.py": worker_pid_logger(log, "# # Slow", "metal", 4)})
    with doomed_workers(cluster, 2, "GPU=1,metal=1") as pids:
        killer, killed = kill_the_first(log, 1)
        try:
            result = build(site, REFRESH)
        finally:
            killer.join()
    assert result.reports["docs"].tutorials.ran == 1
    first, second = runs(log)                             # it ran again, on the other worker
    assert {int(first[4:]), int(second[4:])} == pids and killed == [int(first[4:])]
    assert "finished" in page(site, "slow")
    progress = capfd.readouterr().err
    assert re.search(r"notebooks/slow.py: the worker tcp://127.0.0.1:\d+ running it died; "
                     r"retrying on tcp://127.0.0.1:\d+\n", progress), progress
    assert "[1/1] notebooks/slow.py: ran in" in progress


def test_a_tutorial_whose_workers_die_twice_is_not_retried_again(cluster, tmp_path):
    log = tmp_path / "runs.log"
    site = dask_site(tmp_path / "site", cluster.scheduler_address,
                     **{"doomed.py": worker_pid_logger(log, "# # Doomed", "metal", 6)})
    with doomed_workers(cluster, 3, "GPU=1,metal=1"):
        killer, killed = kill_the_first(log, 2)
        try:
            with pytest.raises(SiteError) as error:
                build(site, NOW)
        finally:
            killer.join()
    assert runs(log)[:2] == [f"pid={pid}" for pid in killed]      # started a third time, then cancelled
    message = str(error.value)
    assert re.fullmatch(r"notebooks/doomed.py: the Dask workers running it died \(tcp://127.0.0.1:\d+, "
                        r"then tcp://127.0.0.1:\d+\); it is not retried again", message), message


def test_a_task_whose_only_matching_worker_left_fails_naming_the_resource(cluster, tmp_path):
    log = tmp_path / "runs.log"
    site = dask_site(tmp_path / "site", cluster.scheduler_address,
                     **{"on_rocm.py": worker_pid_logger(log, "# # ROCm", "rocm", 60)})
    with doomed_workers(cluster, 1, "GPU=1,rocm=1") as pids:
        killer, killed = kill_the_first(log, 1)
        started = time.perf_counter()
        try:
            with pytest.raises(SiteError) as error:
                build(site, NOW)
        finally:
            killer.join()
    assert time.perf_counter() - started < 50
    assert killed == list(pids) and runs(log) == [f"pid={killed[0]}"]
    assert str(error.value) == (
        "notebooks/on_rocm.py: needs resource rocm, which no worker of the Dask cluster offers any more "
        "(for 10.0 s); it was not run")


def test_an_unreachable_scheduler_is_an_error_naming_the_setting(tmp_path):
    import socket

    with socket.socket() as s:                     # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    site = make_site(tmp_path / "site", f"executor: tcp://127.0.0.1:{port}", **{"one.py": script("# # One", "1")})
    with pytest.raises(SiteError) as error:
        build(site, NOW)
    assert error.value.path == str(site / "site.yaml")
    assert error.value.message.startswith(f"key 'notebooks.executor': cannot reach the Dask scheduler at "
                                          f"tcp://127.0.0.1:{port}: Timed out")


def test_without_distributed_installed_a_dask_executor_is_a_clear_error(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)     # as if it were not installed
    site = make_site(tmp_path / "site", "executor: tcp://127.0.0.1:1", **{"one.py": script("# # One", "1")})
    with pytest.raises(SiteError) as error:
        build(site, NOW)
    assert str(error.value).endswith("site.yaml: key 'notebooks.executor' needs the Python package "
                                     "distributed, which is not installed: pip install 'sitegen[dask]'")


def test_a_worker_that_cannot_see_the_site_gets_the_files_the_tutorial_reads(cluster, tmp_path):
    import dataclasses

    from generator.configure import load_config
    from generator.notebooks.executors import run_on_worker, shipped_files
    from generator.notebooks.sources import load_tutorial
    from generator.notebooks.spec import metadata_of, resolve

    site = make_site(tmp_path / "site", "", **{"reader.py": script(
        "# # Reader", "print(open('data/input.txt').read())", header="#   reads: [data]\n")})
    (site / "notebooks" / "data").mkdir()
    (site / "notebooks" / "data" / "input.txt").write_text("shipped with the task")
    tutorial = load_tutorial(site, Path("notebooks/reader.py"))
    spec = resolve(tutorial, metadata_of(tutorial), load_config(site).notebooks)
    files = shipped_files(tutorial, spec)
    assert files == {"data/input.txt": b"shipped with the task"}
    elsewhere = dataclasses.replace(tutorial, folder=tmp_path / "not-on-this-worker")   # another machine's path
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
        run = client.submit(run_on_worker, elsewhere, spec, files, "sitegen-test", "t1", pure=False).result()
    assert run.failure is None
    assert run.cells[0]["outputs"][0]["text"] == "shipped with the task\n"
    assert not (tmp_path / "not-on-this-worker").exists()
