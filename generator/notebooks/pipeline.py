"""Tutorials from source to runs: load, decide, execute in parallel (the docs section
renders the pages: :mod:`generator.docs.gallery`).

For each tutorial the cache key decides: a stored run of the same code is
used as it is; otherwise the tutorial runs if its executor (this machine, or
the Dask cluster site.yaml names: see ``executors``) offers what it declares it
needs. If not, a run made elsewhere (found in a copied or shared cache, even
under ``--refresh``) is shown with a note saying where and when it
ran; failing that, the notebook's stored outputs are shown as "not executed"
when site.yaml allows it, and the build fails otherwise. Failed runs are
cached and reported like fresh ones, except that a failed import is tried again
once the kernel's installed packages have changed. All runs finish (and are
cached) before any failure stops the build, so one broken tutorial does not
cost the others. A tutorial set to ``execute: never`` skips all of this and
shows its saved outputs; ``execute: always`` (or ``--refresh NAME``) ignores
the cache.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import platform
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Collection

import nbformat
from nbformat import NotebookNode

from generator import progress as reporting
from generator.config import Config
from generator.errors import SiteError
from generator.layout import CONFIG_FILE
from generator.notebooks import FOLDER, environment
from generator.notebooks.executors import Executor, executor_for
from generator.notebooks.shared import open_store
from generator.notebooks.sources import Tutorial, load_tutorial, survey
from generator.notebooks.spec import Metadata, Spec, metadata_of, read_paths, resolve
from generator.notebooks.store import Run, RunStore

SOURCE_LINES_SHOWN = 5


@dataclass
class Job:
    """One tutorial on its way to a page."""

    tutorial: Tutorial
    meta: Metadata
    spec: Spec
    version: str | None = None      # the docs version whose tree holds it
    missing: list[str] = field(default_factory=list)     # what it needs and the executor lacks
    run: Run | None = None
    origin: str = ""                # "ran", "cache" or "unexecuted"

    @property
    def name(self) -> str:
        path = self.tutorial.path.as_posix()
        return f"{path} ({self.version})" if self.version else path


def execute_tutorials(config: Config, tree: Path, refresh: bool = False, version: str | None = None,
                      rerun: Collection[str] = ()) -> list[Job]:
    """The tutorials of ``tree`` (the site, or a docs version's export), each with the run that
    gives its outputs (executed in ``tree``, or cached) and where the run came from.

    ``rerun`` names tutorials to execute again whatever the cache holds (``--refresh NAME``).
    """
    jobs = load_jobs(config, tree, version)
    store = open_store(config)
    executor = executor_for(config)
    packages = functools.cache(environment.package_set)
    errors: list[SiteError] = []
    todo = []
    for job in jobs:
        way = decide(job, store, executor, refresh or job.tutorial.named(rerun), packages)
        if way == "run":
            todo.append(job)
        elif way == "stored":
            job.origin = "stored"
        elif way in ("cached", "elsewhere"):
            job.origin = "cache"
        elif config.notebooks.allow_unexecuted:
            job.origin = "unexecuted"
        else:
            errors.append(SiteError(
                f"needs {', '.join(job.missing)}, which {executor.lacks}, and no run of this code "
                f"is cached: build once where they exist and copy its {config.notebooks.cache_dir}/ "
                "folder here (or share it as notebooks.cache), or set notebooks.allow_unexecuted in "
                "site.yaml to show the notebook's stored outputs", job.tutorial.path))
    try:
        errors += run_all(todo, executor, store, packages)
    finally:
        executor.close()
    errors += [failure_error(job) for job in jobs if job.run and job.run.failure]
    if errors:
        raise combine(errors)
    return jobs


def decide(job: Job, store: RunStore, executor: Executor, fresh: bool,
           packages: Callable[[str], str] = environment.package_set) -> str:
    """How ``job`` gets its outputs, for a build and for ``sitegen tutorials run`` alike.

    ``"stored"``: it is set to ``execute: never``. ``"cached"``: a run of its code is
    cached, and none is asked for (``fresh``, ``execute: always``), or it failed for a
    missing module and nothing was installed since. ``"run"``: the executor offers what it
    needs. ``"elsewhere"``: a run is wanted but the executor lacks ``job.missing``, and a
    run of its code from elsewhere is cached. ``"missing"``: it lacks them, and none is.
    ``job.run`` is set to the cached run; ``job.missing`` to what the executor lacks,
    asked unless the cached run was made on this machine (so it had what it needs).
    """
    if job.spec.execute == "never":
        return "stored"
    fresh = fresh or job.spec.execute == "always"
    cached = job.run = store.get(job.spec.key)
    if cached and cached.failure and cached.failure.from_environment \
            and cached.failure.packages != packages(job.spec.kernel):
        fresh = True            # a module was missing; something was installed since: try again
    if cached and not fresh and cached.host == platform.node():
        return "cached"
    job.missing = executor.missing(job.spec)
    if cached and not fresh:
        return "cached"
    if not job.missing:
        job.run = None
        return "run"
    return "elsewhere" if cached else "missing"


def load_jobs(config: Config, tree: Path, version: str | None = None) -> list[Job]:
    """Every tutorial with its settings resolved; files a tutorial reads are not tutorials, nor
    the modules beside them (said of the author's tree, once per run of the tutorials)."""
    found, modules = survey(tree, config.notebooks.exclude)
    tutorials = [load_tutorial(tree, path, config.notebooks.problems) for path in found]
    if version is None and modules:
        names = ", ".join(path.relative_to(FOLDER).as_posix() for path in modules)
        reporting.current().line(f"notebooks: not tutorials but modules they may import (no '# %%' cells, no "
                                 f"sphinx-gallery title): {names}")
    if version is None:     # a docs version's older tree may lack what a pattern names today
        for pattern in config.notebooks.tutorials:
            if not any(pattern in dict(config.notebooks.settings_for(t.path)) for t in tutorials):
                raise SiteError(f"key 'notebooks.tutorials.{pattern}': matches no tutorial in {FOLDER}/ "
                                "(patterns are matched against paths in it, e.g. tvm/*.py)", CONFIG_FILE)
    metas = [metadata_of(t, config.notebooks) for t in tutorials]
    helpers = set().union(*(read_paths(t, m) for t, m in zip(tutorials, metas)))
    jobs = []
    for tutorial, meta in zip(tutorials, metas):
        if (tree / tutorial.path).resolve() in helpers:
            continue
        jobs.append(Job(tutorial, meta, resolve(tutorial, meta, config.notebooks), version))
    return jobs


def run_all(jobs: list[Job], executor: Executor, store: RunStore,
            packages: Callable[[str], str] = environment.package_set) -> list[SiteError]:
    """Execute ``jobs``, caching each run as it comes back; errors of machinery returned.

    A run that found a module missing is stored with the kernel's package set, so that
    installing anything makes the next build try it again.
    """

    def finished(job: Job, run: Run) -> None:
        if run.failure and run.failure.from_environment:
            run = dataclasses.replace(run, failure=dataclasses.replace(
                run.failure, packages=packages(job.spec.kernel)))
        store.put(run)
        job.run, job.origin = run, "ran"

    return executor.run(jobs, finished)


def failure_error(job: Job) -> SiteError:
    """The failed run of ``job`` as an error naming the cell, its first lines and the traceback."""
    run, tutorial = job.run, job.tutorial
    failure = run.failure
    code_cells = [i for i, cell in tutorial.shown_cells if cell.cell_type == "code"]
    index = code_cells[min(failure.code_cell, len(code_cells) - 1)]
    path, line = tutorial.locate(index)
    source = tutorial.notebook.cells[index].source.split("\n")
    shown = [f"    | {text}" for text in source[:SOURCE_LINES_SHOWN]]
    if len(source) > SOURCE_LINES_SHOWN:
        shown.append(f"    | ... ({len(source) - SOURCE_LINES_SHOWN} more lines)")
    what = {"error": f"cell {index + 1} raised {failure.message}",
            "timeout": f"cell {index + 1} timed out: {failure.message}",
            "died": f"the kernel died while running cell {index + 1}"}[failure.kind]
    parts = [what, *shown]
    if failure.traceback:
        parts += ["", failure.traceback]
    if job.origin == "cache":
        parts += ["", f"(this run was cached on {run.host} at {run.started}; it is reported without "
                      "running again until the code changes"
                      + (" or a package is installed for its kernel" if failure.from_environment else "")
                      + f"; --refresh {job.tutorial.path.relative_to(FOLDER).as_posix()} runs it again)"]
    elif failure.kind == "error":
        parts += ["", "(add the tag raises-exception to the cell, or set sitegen.allow_errors in the "
                      "notebook's metadata, to show the error on the page instead)"]
    return SiteError("\n".join(parts), path, line)


def combine(errors: list[SiteError]) -> SiteError:
    """One error for the build: the first in full, with every other one listed after it."""
    first = errors[0]
    if len(errors) == 1:
        return first
    rest = "\n\n".join(str(error) for error in errors[1:])
    return SiteError(f"{first.message}\n\n{len(errors) - 1} more tutorial(s) failed:\n\n{rest}",
                     first.path, first.line)


def executed_notebook(job: Job) -> NotebookNode:
    """The tutorial as authored, with the outputs of its run (stored outputs when not executed)."""
    notebook = copy.deepcopy(job.tutorial.notebook)
    if job.run is None:
        return notebook
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    executed = [i for i, cell in job.tutorial.shown_cells if cell.cell_type == "code"]
    for index, result in zip(executed, job.run.cells):
        notebook.cells[index].outputs = nbformat.from_dict(result["outputs"])
        notebook.cells[index].execution_count = result["execution_count"]
    if job.run.language_info:
        notebook.metadata["language_info"] = job.run.language_info
    return notebook


def cut_outputs(notebook: NotebookNode, limit: int) -> None:
    """Cut the outputs of the download as the page cuts them (``notebooks.output_limit``).

    A text output over the limit keeps its first ``limit`` characters and a
    note. Any other form over it but an image (HTML, Markdown, JSON...) is
    replaced by a note that it was left out, kept under its own type where
    that type is text, so that the output stays what it was. Images stay:
    the page publishes them too.
    """
    for cell in notebook.cells:
        for output in cell.get("outputs", ()):
            if output.output_type == "stream":
                output.text = _cut(_text(output.text), limit)
            data = output.get("data", {})
            for mime, value in list(data.items()):
                text = json.dumps(value) if isinstance(value, dict) else _text(value)
                if mime.startswith("image/") or len(text) <= limit:
                    continue
                note = (f"[a {mime} output of {len(text):,} characters, over the limit of "
                        f"{limit:,} (notebooks.output_limit), left out]")
                if mime == "text/plain":
                    data[mime] = _cut(text, limit)
                elif isinstance(value, dict):
                    del data[mime]
                    data["text/plain"] = note
                else:
                    data[mime] = f"<p>{note}</p>" if mime == "text/html" else note


def _text(value: str | list[str]) -> str:
    return "".join(value) if isinstance(value, list) else value


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return (f"{text[:limit]}\n[output truncated: the first {limit:,} of {len(text):,} characters "
            "are kept (notebooks.output_limit)]\n")
