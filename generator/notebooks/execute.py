"""Run one tutorial top to bottom in a fresh Jupyter kernel (nbclient).

The kernel starts in the tutorial's own folder, each cell gets the spec's
timeout, and a cell that raises, runs too long or kills the kernel ends the run
with a :class:`Failure` saying which code cell and why. Such a run is a result
like any other (it is cached); only a kernel that cannot start at all is an
error of this machine, raised as :class:`SiteError` and never cached.
"""

from __future__ import annotations

import atexit
import copy
import json
import platform
import re
import tempfile
import time
from datetime import datetime, timezone

from jupyter_client.kernelspec import NoSuchKernel
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError
from nbformat import NotebookNode
from nbformat.v4 import new_notebook

from generator.errors import SiteError
from generator.notebooks.processes import KernelProcesses
from generator.notebooks.sources import Tutorial
from generator.notebooks.spec import Spec
from generator.notebooks.store import Failure, Run

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
KERNEL_LOG_NOISE = re.compile(r"^\[IPKernelApp\] WARNING \| Kernel is running over TCP")


def strip_ansi(text: str) -> str:
    return ANSI.sub("", text)


KERNEL_STARTS = 2   # tries at starting a tutorial's kernel before the machine is blamed


class _NoKernel(Exception):
    """The kernel died or fell silent before it answered, before any cell ran."""


def execute(tutorial: Tutorial, spec: Spec, processes: KernelProcesses | None = None) -> Run:
    """Execute ``tutorial``'s code cells (a Colab set-up cell left out) and record the outcome.

    A kernel that dies or falls silent before its first answer (one did so under CI's load,
    started beside other kernels) is started once more, on a fresh copy of the cells.
    ``processes`` (made here if not given) ends what the kernel started; a caller may end
    it sooner (Ctrl-C)."""
    starts = KERNEL_STARTS
    while True:
        starts -= 1
        try:
            return _execute_once(tutorial, spec, processes or KernelProcesses())
        except _NoKernel as exc:
            if not starts or processes and processes.cancelled:
                raise SiteError(f"the {spec.kernel} kernel did not start: {exc}", tutorial.path) from None


def _execute_once(tutorial: Tutorial, spec: Spec, processes: KernelProcesses) -> Run:
    notebook = runnable(tutorial)
    if not any(cell.cell_type == "code" for cell in notebook.cells):
        return _record(spec, notebook, datetime.now(timezone.utc), 0.0, None)    # no kernel needed
    current: list[int] = []
    client = _Client(
        notebook, timeout=spec.timeout, kernel_name=spec.kernel, allow_errors=spec.allow_errors,
        resources={"metadata": {"path": str(tutorial.folder)}},
        on_notebook_start=lambda notebook: processes.adopt(client.km),
        on_cell_start=lambda cell, cell_index: current.append(cell_index),
    )
    started = datetime.now(timezone.utc)
    clock = time.perf_counter()
    failure = None
    with tempfile.TemporaryFile() as kernel_log:
        try:
            client.execute(stderr=kernel_log, env=processes.environment())
        except CellExecutionError:
            failure = _cell_error(notebook, current[-1])
        except CellTimeoutError:
            failure = Failure("timeout", _code_position(notebook, current[-1]),
                              f"the cell ran longer than its timeout of {spec.timeout} s", "")
        except DeadKernelError:
            kernel_log.seek(0)
            failure = Failure("died", _code_position(notebook, current[-1]) if current else 0,
                              "the kernel died", _log_tail(kernel_log.read()))
        except NoSuchKernel:
            raise SiteError(f"no Jupyter kernel named {spec.kernel!r} is installed here",
                            tutorial.path) from None
        except RuntimeError as exc:
            if current:
                raise
            # nbclient cleaned up after the kernel, but left its clean-up for the process's exit,
            # where it fails on what it cleaned up.
            atexit.unregister(client._cleanup_kernel)
            raise _NoKernel(str(exc)) from None
        finally:
            processes.end()
    return _record(spec, notebook, started, time.perf_counter() - clock, failure)


class _Client(NotebookClient):
    """nbclient's client, each output's MIME bundle made one the notebook format takes first."""

    def process_message(self, msg: dict, cell: NotebookNode, cell_index: int) -> NotebookNode | None:
        data = msg.get("content", {}).get("data")
        if isinstance(data, dict):
            msg["content"]["data"] = schema_bundle(data)
        return super().process_message(msg, cell, cell_index)


JSON_TYPE = re.compile(r"^application/(.*\+)?json$")     # the types whose value may be JSON (nbformat's rule)


def schema_bundle(data: dict) -> dict:
    """``data`` with what a library sends against the notebook format's rule read as it meant it:
    Altair 6's ``mimetype`` renderer names Vega-Lite ``application/vnd.vegalite.v6.json`` (the
    ``+json`` type, drawn as such); any other JSON value under a text type becomes its JSON text.
    nbclient refused the whole run with a traceback."""
    bundle = {}
    for kind, value in data.items():
        if isinstance(value, (dict, list)) and not JSON_TYPE.match(kind):
            if kind.startswith("application/") and kind.endswith(".json") and kind[:-5] + "+json" not in data:
                kind = kind[:-5] + "+json"
            else:
                value = json.dumps(value)
        bundle[kind] = value
    return bundle


def _record(spec: Spec, notebook: NotebookNode, started: datetime, seconds: float,
            failure: Failure | None) -> Run:
    return Run(
        key=spec.key,
        host=platform.node(),
        started=started.isoformat(timespec="seconds"),
        seconds=round(seconds, 3),
        kernel=spec.kernel,
        language_info=dict(notebook.metadata.get("language_info", {})),
        cells=[{"execution_count": cell.get("execution_count"), "outputs": cell.outputs}
               for cell in notebook.cells if cell.cell_type == "code"],
        failure=failure,
    )


def runnable(tutorial: Tutorial) -> NotebookNode:
    """The cells to execute, without any stored outputs (they must not leak into a run)."""
    cells = []
    for _, cell in tutorial.shown_cells:
        cell = copy.deepcopy(cell)
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
        cells.append(cell)
    notebook = new_notebook(metadata=copy.deepcopy(tutorial.notebook.metadata))
    notebook.nbformat_minor = tutorial.notebook.nbformat_minor   # 4.0-4.4 cells have no ids, and need none
    notebook.cells = cells
    return notebook


def _code_position(notebook: NotebookNode, index: int) -> int:
    return sum(1 for cell in notebook.cells[:index] if cell.cell_type == "code")


def _cell_error(notebook: NotebookNode, index: int) -> Failure:
    errors = [o for o in notebook.cells[index].outputs if o.output_type == "error"]
    error = errors[-1] if errors else {"ename": "Error", "evalue": "", "traceback": []}
    traceback = strip_ansi("\n".join(error["traceback"]))
    return Failure("error", _code_position(notebook, index),
                   f"{error['ename']}: {error['evalue']}".rstrip(": "), traceback)


def _log_tail(data: bytes, lines: int = 20) -> str:
    text = strip_ansi(data.decode("utf-8", "replace"))
    kept = [line for line in text.splitlines() if not KERNEL_LOG_NOISE.match(line)]
    return "\n".join(kept[-lines:])
