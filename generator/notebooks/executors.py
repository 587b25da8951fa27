"""Where tutorials run: here, in a pool of threads, or on a Dask cluster.

site.yaml's ``notebooks.executor`` picks one: ``local`` (the default) runs
``notebooks.workers`` kernels at a time on this machine; a Dask scheduler's
address (``tcp://host:8786``) makes each tutorial one task of that cluster,
placed by Dask on a worker that offers the resources it declares (``device:
cuda`` asks for ``GPU=1`` and ``cuda=1``; ``requires: [tvm]`` for ``tvm=1``).
Both report progress the same way and hand back the same :class:`Run`, so
caching, error reports and pages do not know which one ran a tutorial. Only
the build machine reads and writes the cache; workers need sitegen and the
kernel, nothing else.

Dask is imported only when site.yaml names a scheduler, so a site that runs
tutorials locally does not need it installed.
"""

from __future__ import annotations

import importlib
import os
import platform
import re
import shutil
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol, Sequence

from generator.config import Config
from generator.errors import SiteError
from generator.notebooks import environment
from generator.notebooks.progress import Progress
from generator.notebooks.sources import Tutorial
from generator.notebooks.spec import Spec
from generator.notebooks.store import Run

if TYPE_CHECKING:     # running needs the 'execute' extra, imported where a tutorial runs
    from generator.notebooks.processes import KernelProcesses

# What distributed.Client can connect to: a scheme with a network under it, a host and a port
# (an "inproc://" address names a scheduler in this very process, which a build never has).
SCHEDULER_ADDRESS = re.compile(r"^(tcp|tls|ws|wss|ucx)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$")
CONNECT_TIMEOUT = "10s"
ATTEMPTS = 2                # a tutorial whose worker dies is retried once, elsewhere if it can be
POLL_SECONDS = 2.0
STRANDED_SECONDS = 10.0     # a Nanny restarts a dead worker in a few seconds; a lost GPU stays lost


class Task(Protocol):
    """What an executor needs of a tutorial on its way to a page (pipeline.Job)."""

    name: str
    tutorial: Tutorial
    spec: Spec


Finished = Callable[[Any, Run], None]


class Executor(Protocol):
    lacks: str              # completes "needs module tvm, which ..."

    def missing(self, spec: Spec) -> list[str]:
        """What ``spec`` needs that this executor cannot offer, e.g. ``["device cuda"]``."""

    def run(self, tasks: Sequence[Task], finished: Finished) -> list[SiteError]:
        """Run ``tasks``, calling ``finished(task, run)`` for each run; errors of machinery returned."""

    def close(self) -> None:
        """Let go of what the runs needed (a connection to a scheduler)."""


def executor_for(config: Config) -> Executor:
    setting = config.notebooks.executor
    if setting == "local":
        return LocalExecutor(local_workers(config))
    address = SCHEDULER_ADDRESS.match(setting)
    if not address or not 0 < int(address.group(3)) < 65536:
        raise SiteError(f"key 'notebooks.executor': expected 'local' or a Dask scheduler's address "
                        f"(tcp, tls, ws, wss or ucx, a host and a port) such as tcp://host:8786, "
                        f"got {setting!r}", config.root / "site.yaml")
    return DaskExecutor(setting, config.root / "site.yaml")


def local_workers(config: Config) -> int:
    """``notebooks.workers``, 0 meaning one per core (site.yaml's loader refused a negative one)."""
    return config.notebooks.workers or os.cpu_count() or 1


def require(module: str, package: str, key: str, source: Path) -> Any:
    """Import an optional dependency, or fail naming the package and the setting that needs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise SiteError(f"key '{key}' needs the Python package {package}, which is not installed: "
                        "pip install 'sitegen[dask]'", source) from None


# -- here ---------------------------------------------------------------------------------

class LocalExecutor:
    """Kernels on this machine, ``workers`` at a time (each kernel is its own process)."""

    lacks = "this machine lacks"

    def __init__(self, workers: int):
        self.workers = workers

    def missing(self, spec: Spec) -> list[str]:
        return environment.missing(spec.kernel, spec.requires, spec.device)

    def close(self) -> None:
        pass

    def run(self, tasks: Sequence[Task], finished: Finished) -> list[SiteError]:
        if not tasks:
            return []
        from generator.notebooks.execute import execute
        from generator.notebooks.processes import KernelProcesses

        errors: list[SiteError] = []
        running: list[KernelProcesses] = []
        interrupted = threading.Event()
        with Progress(len(tasks), self.workers) as progress, \
                ThreadPoolExecutor(max_workers=self.workers) as pool:

            def work(task: Task) -> None:
                progress.started(task.name)
                processes = KernelProcesses()
                running.append(processes)
                try:
                    run = execute(task.tutorial, task.spec, processes)
                except SiteError as exc:
                    progress.finished(task.name, "could not run")
                    errors.append(exc)
                    return
                finally:
                    running.remove(processes)
                if not interrupted.is_set():     # a run Ctrl-C killed is no result
                    finished(task, run)
                    progress.finished(task.name, outcome(run))

            futures = [pool.submit(work, task) for task in tasks]
            try:
                for future in futures:
                    future.result()
            except BaseException:            # Ctrl-C: start nothing more, and end the running kernels
                interrupted.set()
                for future in futures:
                    future.cancel()
                for processes in list(running):
                    processes.cancel()
                raise
        return errors


def outcome(run: Run) -> str:
    return f"failed ({run.failure.kind})" if run.failure else "ran"


# -- on a Dask cluster ----------------------------------------------------------------------

def resources_of(spec: Spec) -> dict[str, float]:
    """The Dask worker resources a tutorial asks for: a GPU of its kind, and each module it needs."""
    wanted = {name: 1.0 for name in spec.requires}
    if spec.device and spec.device != "cpu":
        wanted.update({"GPU": 1.0, spec.device: 1.0})
    return wanted


@dataclass
class Attempts:
    """The workers a task has started on, in order (reported by the task itself)."""

    task: Any
    workers: list[str]
    announced: bool = False             # progress was told it started
    done: bool = False
    cancelled: bool = False             # started a third time: its workers died twice
    stranded: list[str] = field(default_factory=list)    # what no worker offers any more


class DaskExecutor:
    """One task per tutorial on the cluster behind a Dask scheduler."""

    def __init__(self, address: str, source: Path):
        self.address = address
        self.source = source
        self.lacks = f"no worker of the Dask scheduler at {address} offers"
        self._client: Any = None
        self._offers: dict[str, dict[str, float]] | None = None

    @property
    def client(self) -> Any:
        if self._client is None:
            distributed = require("distributed", "distributed", "notebooks.executor", self.source)
            try:
                self._client = distributed.Client(self.address, timeout=CONNECT_TIMEOUT,
                                                  set_as_default=False)
            except (OSError, TimeoutError) as exc:
                raise SiteError(f"key 'notebooks.executor': cannot reach the Dask scheduler at "
                                f"{self.address}: {exc}", self.source) from None
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def offers(self) -> dict[str, dict[str, float]]:
        """Each worker's address and the resources it offers."""
        workers = self.client.scheduler_info(n_workers=-1)["workers"]
        return {address: dict(info.get("resources") or {}) for address, info in workers.items()}

    def missing(self, spec: Spec) -> list[str]:
        if self._offers is None:            # asked once per build, for every tutorial
            self._offers = self.offers()
        return unmet(resources_of(spec), self._offers)

    def run(self, tasks: Sequence[Task], finished: Finished) -> list[SiteError]:
        if not tasks:
            return []
        distributed = require("distributed", "distributed", "notebooks.executor", self.source)
        client = self.client
        threads = sum(info.get("nthreads", 1)
                      for info in client.scheduler_info(n_workers=-1)["workers"].values())
        topic = f"sitegen-{uuid.uuid4().hex}"
        errors: list[SiteError] = []
        lock = threading.Lock()
        attempts: dict[str, Attempts] = {}
        futures: dict[str, Any] = {}
        with Progress(len(tasks), max(threads, 1)) as progress:

            async def started(event: tuple[float, dict]) -> None:
                """A task says it started on a worker: the first time, or again after a worker died.

                Called in the client's event loop, hence async: a cancel from here is awaited.
                """
                message = event[1]
                with lock:
                    state = attempts.get(message["id"])
                    if state is None or state.cancelled or state.done:
                        return
                    state.workers.append(message["worker"])
                    name = state.task.name
                    if not state.announced:
                        state.announced = True
                        progress.started(name)
                    elif len(state.workers) <= ATTEMPTS:
                        progress.note(f"{name}: the worker {state.workers[-2]} running it died; "
                                      f"retrying on {state.workers[-1]}")
                    elif message["id"] in futures:
                        state.cancelled = True
                if state.cancelled:
                    await client.cancel([futures[message["id"]]], asynchronous=True)

            client.subscribe_topic(topic, started)
            done = threading.Event()
            watchdog = threading.Thread(target=self._cancel_stranded, args=(attempts, futures, lock, done),
                                        daemon=True)
            try:
                for n, task in enumerate(tasks):
                    task_id = f"sitegen-{uuid.uuid4().hex[:12]}-{n}"
                    attempts[task_id] = Attempts(task, [])
                    futures[task_id] = client.submit(
                        run_on_worker, task.tutorial, task.spec, shipped_files(task.tutorial, task.spec),
                        topic, task_id, key=task_id, resources=resources_of(task.spec) or None,
                        pure=False)
                watchdog.start()
                for future in distributed.as_completed(list(futures.values()), loop=client.loop):
                    state = attempts[future.key]
                    with lock:
                        state.done = True
                        if not state.announced:          # its start event may trail its result
                            state.announced = True
                            progress.started(state.task.name)
                    if future.status == "finished":
                        run = future.result()
                        finished(state.task, run)
                        progress.finished(state.task.name, outcome(run))
                    else:
                        progress.finished(state.task.name, "could not run")
                        errors.append(task_error(state, future, distributed))
            except BaseException:
                client.cancel(list(futures.values()))
                raise
            finally:
                done.set()
                client.unsubscribe_topic(topic)
        return errors

    def _cancel_stranded(self, attempts: dict[str, Attempts], futures: dict[str, Any],
                         lock: threading.Lock, done: threading.Event) -> None:
        """Cancel tasks no worker has offered the resources for since ``STRANDED_SECONDS``.

        Checked before submitting too; this catches the only matching worker
        leaving while its tasks wait, which Dask would otherwise wait out forever.
        """
        since: dict[str, float] = {}
        while not done.wait(POLL_SECONDS):
            try:
                offers = self.offers()
            except Exception:            # the scheduler is going away: as_completed will say so
                continue
            now, stranded = time.monotonic(), []
            with lock:
                for task_id, future in futures.items():
                    state = attempts[task_id]
                    lacking = [] if future.done() else unmet(resources_of(state.task.spec), offers)
                    if not lacking:
                        since.pop(task_id, None)
                    elif now - since.setdefault(task_id, now) >= STRANDED_SECONDS and not state.stranded:
                        state.stranded = lacking
                        stranded.append(future)
            for future in stranded:      # outside the lock: the event loop may be waiting for it
                future.cancel()


def task_error(state: Attempts, future: Any, distributed: Any) -> SiteError:
    """Why a task gave no run: its workers died, none is left to run it, or it raised."""
    path = state.task.tutorial.path
    if state.stranded:
        return SiteError(f"needs {', '.join(state.stranded)}, which no worker of the Dask cluster offers "
                         f"any more (for {STRANDED_SECONDS} s); it was not run", path)
    if state.cancelled:
        return died_error(state)
    error = future.exception()
    if isinstance(error, SiteError):
        return error
    if isinstance(error, distributed.KilledWorker):
        return died_error(state)
    first = str(error).strip().splitlines()[0] if str(error).strip() else ""
    hint = ("; the scheduler and workers need the same sitegen and packages as this machine"
            if "deserializ" in str(error).lower() else "")
    return SiteError(f"the Dask task failed: {type(error).__name__}: {first}{hint}", path)


def unmet(wanted: dict[str, float], offers: dict[str, dict[str, float]]) -> list[str]:
    """What no single worker offers, naming each resource that no worker has at all."""
    if not wanted:
        return [] if offers else ["a Dask worker"]
    if any(all(have.get(name, 0) >= amount for name, amount in wanted.items()) for have in offers.values()):
        return []
    absent = [name for name, amount in wanted.items()
              if not any(have.get(name, 0) >= amount for have in offers.values())]
    if absent:
        return [f"resource {name}" for name in absent]
    return [f"resources {' and '.join(wanted)} on one worker"]


def died_error(state: Attempts) -> SiteError:
    where = f" ({', then '.join(state.workers[:ATTEMPTS])})" if state.workers else ""
    return SiteError(f"the Dask workers running it died{where}; it is not retried again",
                     state.task.tutorial.path)


def shipped_files(tutorial: Tutorial, spec: Spec) -> dict[str, bytes]:
    """The files a tutorial declares it reads, for a worker that cannot see the site's folder."""
    files = {}
    for name, _ in spec.reads:
        path = tutorial.folder / name
        for file in sorted(path.rglob("*")) if path.is_dir() else [path]:
            if file.is_file():
                files[file.relative_to(tutorial.folder).as_posix()] = file.read_bytes()
    return files


def run_on_worker(tutorial: Tutorial, spec: Spec, files: dict[str, bytes], topic: str, task_id: str) -> Run:
    """The Dask task: say where it runs (so a death can be reported), then run the tutorial.

    The kernel starts in the tutorial's folder when this worker sees the same
    one (a worker on the build machine), else in a fresh folder holding the
    files the tutorial declares it reads.
    """
    from distributed import get_worker

    from generator.notebooks.execute import execute

    worker = get_worker()
    worker.log_event(topic, {"id": task_id, "worker": worker.address, "host": platform.node()})
    if tutorial.folder.is_dir():
        return execute(tutorial, spec)
    folder = Path(tempfile.mkdtemp(prefix="sitegen-tutorial-"))
    try:
        for name, data in files.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
        return execute(replace(tutorial, folder=folder), spec)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
