"""Tutorials run into the cache without building the site, and where each one's run stands.

``sitegen tutorials run --shard 2/4`` lets CI fan the working tree's tutorials
out over a job matrix: each job runs its slice into the (shared) cache, and
one last job builds and publishes with every run cached. Slices are dealt
round-robin over the tutorials sorted by path, so the ``n`` shards of one
checkout together take each tutorial exactly once. ``--device`` narrows the
deal to the tutorials a runner is for (``cpu`` means those declaring no other
device), so GPU and CPU runners can each be sharded. A tutorial the executor
cannot run is skipped with the reason, not failed: the build that needs its
outputs is the one that says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.config import Config
from generator.errors import SiteError
from generator.notebooks.executors import executor_for
from generator.notebooks.pipeline import Job, combine, decide, failure_error, load_jobs, run_all
from generator.notebooks.shared import SharedRuns, open_store
from generator.notebooks.store import Run


@dataclass(frozen=True)
class Shard:
    """The ``index``-th (from 1) of ``count`` slices."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        try:
            index, count = (int(part) for part in text.split("/"))
        except ValueError:
            raise ValueError(f"expected I/N, such as 2/4, got {text!r}") from None
        if not 1 <= index <= count:
            raise ValueError(f"expected I/N with 1 <= I <= N, got {text!r}")
        return cls(index, count)

    def take(self, jobs: list[Job]) -> list[Job]:
        ordered = sorted(jobs, key=lambda job: job.tutorial.path.as_posix())
        return ordered[self.index - 1::self.count]


@dataclass
class RunReport:
    ran: list[str] = field(default_factory=list)
    cached: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)   # (name, why)

    def summary(self) -> str:
        line = f"tutorials: {len(self.ran)} ran, {len(self.cached)} already cached"
        return line + (f", {len(self.skipped)} skipped" if self.skipped else "")


def select(config: Config, only: list[str] = (), device: str | None = None,
           shard: Shard | None = None) -> list[Job]:
    """The working tree's tutorials named by ``only`` (all if empty), for ``device``, in ``shard``."""
    jobs = load_jobs(config, config.root)
    if only:
        names = {name: job for job in jobs for name in _names(job)}
        unknown = [name for name in only if name not in names]
        if unknown:
            known = ", ".join(sorted(job.tutorial.slug for job in jobs)) or "none"
            raise SiteError(f"no tutorial named {', '.join(unknown)} (tutorials: {known})")
        wanted = {id(names[name]) for name in only}
        jobs = [job for job in jobs if id(job) in wanted]
    if device is not None:
        jobs = [job for job in jobs if (job.spec.device or "cpu") == device]
    return shard.take(jobs) if shard else jobs


def _names(job: Job) -> tuple[str, ...]:
    path = job.tutorial.path
    return job.tutorial.slug, path.name, path.as_posix()


def run_tutorials(config: Config, jobs: list[Job], refresh: bool = False) -> RunReport:
    """Run the ``jobs`` not yet cached into the cache; fail, after all ran, if any failed."""
    store = open_store(config)
    executor = executor_for(config)
    report, todo = RunReport(), []
    for job in jobs:
        way = decide(job, store, executor, refresh)
        if way == "run":
            todo.append(job)
        elif way == "cached":
            job.origin = "cache"
            report.cached.append(job.name)
        elif way == "stored":
            report.skipped.append((job.name, "set to execute: never"))
        else:               # "elsewhere" or "missing": a build shows another machine's run, if any
            job.run = None
            report.skipped.append((job.name, f"needs {', '.join(job.missing)}, which {executor.lacks}"))
    try:
        errors = run_all(todo, executor, store)
    finally:
        executor.close()
    report.ran = [job.name for job in todo if job.origin == "ran"]
    errors += [failure_error(job) for job in jobs if job.run and job.run.failure]
    if errors:
        raise combine(errors)
    return report


@dataclass(frozen=True)
class Status:
    """Where a tutorial's run stands: ``cached``, ``failed`` or ``stale`` (no run of its code)."""

    name: str
    state: str
    run: Run | None
    cache: str          # which cache holds the run: "local", or the shared cache's URL


def tutorial_status(config: Config) -> list[Status]:
    store = open_store(config)
    statuses = []
    for job in sorted(select(config), key=lambda job: job.tutorial.path.as_posix()):
        run = store.get(job.spec.key)
        if run is None:
            statuses.append(Status(job.name, "stale", None, ""))
            continue
        cache = store.found.get(job.spec.key, "local") if isinstance(store, SharedRuns) else "local"
        statuses.append(Status(job.name, "failed" if run.failure else "cached", run, cache))
    return statuses


def status_rows(statuses: list[Status]) -> list[tuple[str, ...]]:
    rows = [("TUTORIAL", "STATUS", "RAN ON", "AT", "SECONDS", "CACHE")]
    for status in statuses:
        run = status.run
        state = status.state
        if run and run.failure:
            state += f" ({run.failure.kind} in code cell {run.failure.code_cell + 1})"
        rows.append((status.name, state, run.host if run else "-", run.started if run else "-",
                     f"{run.seconds:.2f}" if run else "-", status.cache or "-"))
    return rows
