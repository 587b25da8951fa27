"""Results of tutorial runs, kept as plain JSON files under their cache key.

``<cache_dir>/notebooks/<key[:2]>/<key>.json`` holds the outputs of each code
cell and a record of the run: where and when it ran, how long it took, and how
it failed, if it did. Nothing in it depends on the checkout or the machine that
reads it, so the folder can be copied anywhere: a machine with a GPU executes a
tutorial once, and every other build shows its outputs.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from generator.cache import write_atomic
from generator.layout import NOTEBOOKS

FOLDER = NOTEBOOKS    # below the cache folder
FAILURES = ("error", "timeout", "died")


@dataclass(frozen=True)
class Failure:
    """Why a run stopped: a cell raised (``error``), ran too long (``timeout``) or the kernel ``died``."""

    kind: str
    code_cell: int          # which code cell, counting from 0 among the executed ones
    message: str            # one line, e.g. "ZeroDivisionError: division by zero"
    traceback: str          # plain text, ANSI codes removed
    packages: str = ""      # for a module not found: the kernel's package set then (a digest)

    @property
    def from_environment(self) -> bool:
        """Whether the machine, not the code, is to blame: an import that found nothing."""
        return self.kind == "error" and self.message.startswith(("ModuleNotFoundError", "ImportError"))


@dataclass(frozen=True)
class Run:
    """One execution of a tutorial: outputs per code cell, and where, when and how it ran."""

    key: str
    host: str
    started: str                        # ISO 8601, UTC
    seconds: float
    kernel: str
    language_info: dict
    cells: list[dict]                   # per code cell: {"execution_count", "outputs"}
    failure: Failure | None = None

    def to_json(self) -> bytes:
        return json.dumps(asdict(self), indent=1, sort_keys=True, ensure_ascii=False).encode("utf-8")

    @classmethod
    def from_json(cls, data: bytes) -> Run:
        """The run in ``data``; a ``ValueError`` if it is not one, whatever its JSON holds: entries
        are shared between machines, and a run of the wrong shape would break every build that
        shows it."""
        values = json.loads(data)
        if not _is_run(values):
            raise ValueError("not a run")
        failure = values.pop("failure")
        return cls(**values, failure=Failure(**failure) if failure else None)


def _is_run(values: Any) -> bool:
    """Whether ``values`` is a run as :meth:`Run.to_json` writes it, down to each output."""
    strings = ("key", "host", "started", "kernel")
    return (isinstance(values, dict) and values.keys() == {*strings, "seconds", "language_info", "cells", "failure"}
            and all(isinstance(values[name], str) for name in strings)
            and _is_number(values["seconds"]) and isinstance(values["language_info"], dict)
            and isinstance(values["cells"], list) and all(map(_is_cell, values["cells"]))
            and (values["failure"] is None or _is_failure(values["failure"])))


def _is_cell(cell: Any) -> bool:
    return (isinstance(cell, dict) and cell.keys() == {"execution_count", "outputs"}
            and _is_count(cell["execution_count"])
            and isinstance(cell["outputs"], list) and all(map(_is_output, cell["outputs"])))


def _is_output(output: Any) -> bool:
    """An output as nbformat 4 has it (what a page is rendered from is checked, the rest passed on)."""
    if not isinstance(output, dict):
        return False
    kind = output.get("output_type")
    if kind == "stream":
        return isinstance(output.get("name"), str) and isinstance(output.get("text"), str)
    if kind == "error":
        return (isinstance(output.get("ename"), str) and isinstance(output.get("evalue"), str)
                and _is_strings(output.get("traceback")))
    if kind in ("display_data", "execute_result"):
        data = output.get("data")
        return (isinstance(data, dict) and all(isinstance(mime, str) for mime in data)
                and isinstance(output.get("metadata", {}), dict)
                and _is_count(output.get("execution_count")))
    return False


def _is_failure(failure: Any) -> bool:
    return (isinstance(failure, dict) and {"kind", "code_cell", "message", "traceback"} <= failure.keys()
            <= {"kind", "code_cell", "message", "traceback", "packages"}
            and failure["kind"] in FAILURES and _is_count(failure["code_cell"]) and failure["code_cell"] is not None
            and failure["code_cell"] >= 0 and _is_strings([failure["message"], failure["traceback"],
                                                           failure.get("packages", "")]))


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_count(value: Any) -> bool:
    return value is None or isinstance(value, int) and not isinstance(value, bool)


def _is_strings(values: Any) -> bool:
    return isinstance(values, list) and all(isinstance(value, str) for value in values)


class RunStore:
    """Runs by key in ``cache_dir/notebooks``; an entry that is not a run of its key is a miss,
    with a warning naming it (``warn``), and is replaced by the run made in its place."""

    def __init__(self, cache_dir: Path, warn: Callable[[str], None] | None = None):
        self.folder = cache_dir / FOLDER
        self.warn = warn or (lambda line: print(f"warning: {line}", file=sys.stderr))

    def path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> Run | None:
        path = self.path(key)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        try:
            run = Run.from_json(data)
        except (ValueError, TypeError, KeyError, RecursionError):   # RecursionError: JSON nested too deep
            self.warn(f"{path} is not a run; ignored")
            return None
        if run.key != key:
            self.warn(f"{path} holds the run of another key; ignored")
            return None
        return run

    def put(self, run: Run) -> None:
        write_atomic(self.path(run.key), run.to_json())
