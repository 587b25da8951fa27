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
import uuid
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

from generator.config import Config
from generator.errors import SiteError
from generator.notebooks import environment
from generator.notebooks.progress import Progress
from generator.notebooks.sources import Tutorial
from generator.notebooks.spec import Spec
from generator.notebooks.store import Run

SCHEDULER_ADDRESS = re.compile(r"^[a-z][a-z0-9+]*://\S+$")
CONNECT_TIMEOUT = "30s"
ATTEMPTS = 2                # a tutorial whose worker dies is retried once, elsewhere if it can be


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


def executor_for(config: Config) -> Executor:
    setting = config.notebooks.executor
    if setting == "local":
        return LocalExecutor(local_workers(config))
    if not SCHEDULER_ADDRESS.match(setting):
        raise SiteError(f"key 'notebooks.executor': expected 'local' or a Dask scheduler's address "
                        f"such as tcp://host:8786, got {setting!r}", config.root / "site.yaml")
    return DaskExecutor(setting, config.root / "site.yaml")


def local_workers(config: Config) -> int:
    if config.notebooks.workers < 0:
        raise SiteError(f"key 'notebooks.workers': expected 0 (one per core) or more, "
                        f"got {config.notebooks.workers}", config.root / "site.yaml")
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

    def run(self, tasks: Sequence[Task], finished: Finished) -> list[SiteError]:
        from concurrent.futures import ThreadPoolExecutor

        from generator.notebooks.execute import execute

        if not tasks:
            return []
        errors: list[SiteError] = []
        with Progress(len(tasks), self.workers) as progress, \
                ThreadPoolExecutor(max_workers=self.workers) as pool:

            def work(task: Task) -> None:
                progress.started(task.name)
                try:
                    run = execute(task.tutorial, task.spec)
                except SiteError as exc:
                    progress.finished(task.name, "could not run")
                    errors.append(exc)
                    return
                finished(task, run)
                progress.finished(task.name, outcome(run))

            futures = [pool.submit(work, task) for task in tasks]
            try:
                for future in futures:
                    future.result()
            except BaseException:            # Ctrl-C: start nothing more; running kernels finish
                for future in futures:
                    future.cancel()
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
    cancelled: bool = False


class DaskExecutor:
    """One task per tutorial on the cluster behind a Dask scheduler."""

    def __init__(self, address: str, source: Path):
        self.address = address
        self.source = source
        self.lacks = f"no worker of the Dask scheduler at {address} offers"
        self._client: Any = None

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
        return unmet(resources_of(spec), self.offers())

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
        with Progress(len(tasks), max(threads, 1)) as progress:
            attempts: dict[str, Attempts] = {}
            futures = {}

            def started(event: tuple[float, dict]) -> None:
                """A task says it started on a worker: the first time, or again after a worker died."""
                message = event[1]
                with lock:
                    state = attempts.get(message["id"])
                    if state is None or state.cancelled:
                        return
                    state.workers.append(message["worker"])
                    name = state.task.name
                    if len(state.workers) == 1:
                        progress.started(name)
                    elif len(state.workers) <= ATTEMPTS:
                        progress.note(f"{name}: the worker {state.workers[-2]} running it died; "
                                      f"retrying on {state.workers[-1]}")
                    elif message["id"] in futures:
                        state.cancelled = True
                        futures[message["id"]].cancel()

            client.subscribe_topic(topic, started)
            try:
                for n, task in enumerate(tasks):
                    task_id = f"sitegen-{uuid.uuid4().hex[:12]}-{n}"
                    attempts[task_id] = Attempts(task, [])
                    futures[task_id] = client.submit(
                        run_on_worker, task.tutorial, task.spec, shipped_files(task.tutorial, task.spec),
                        topic, task_id, key=task_id, resources=resources_of(task.spec) or None,
                        pure=False)
                ids = {future.key: task_id for task_id, future in futures.items()}
                for future in distributed.as_completed(list(futures.values()), loop=client.loop):
                    state = attempts[ids[future.key]]
                    name = state.task.name
                    with lock:
                        if not state.workers:            # its start event may trail its result
                            state.workers.append("?")
                            progress.started(name)
                    if future.status == "finished":
                        run = future.result()
                        finished(state.task, run)
                        progress.finished(name, outcome(run))
                        continue
                    error = died_error(state) if state.cancelled or future.status == "cancelled" \
                        else future.exception()
                    if not isinstance(error, SiteError):
                        error = died_error(state) if isinstance(error, distributed.KilledWorker) \
                            else SiteError(f"the Dask task failed: {type(error).__name__}: {error}",
                                           state.task.tutorial.path)
                    progress.finished(name, "could not run")
                    errors.append(error)
            except BaseException:
                client.cancel(list(futures.values()))
                raise
            finally:
                client.unsubscribe_topic(topic)
        return errors


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
    where = " and then ".join(state.workers)
    return SiteError(f"the Dask worker running it died, twice: on {where}; it was not retried again",
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
