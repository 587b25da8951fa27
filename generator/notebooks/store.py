"""Results of tutorial runs, kept as plain JSON files under their cache key.

``<cache_dir>/notebooks/<key[:2]>/<key>.json`` holds the outputs of each code
cell and a record of the run: where and when it ran, how long it took, and how
it failed, if it did. Nothing in it depends on the checkout or the machine that
reads it, so the folder can be copied anywhere: a machine with a GPU executes a
tutorial once, and every other build shows its outputs.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from generator.cache import write_atomic
from generator.layout import NOTEBOOKS

FOLDER = NOTEBOOKS    # below the cache folder


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
        values = json.loads(data)
        failure = values.pop("failure")
        return cls(**values, failure=Failure(**failure) if failure else None)


class RunStore:
    """Runs by key in ``cache_dir/notebooks``; an unreadable entry counts as absent."""

    def __init__(self, cache_dir: Path):
        self.folder = cache_dir / FOLDER

    def path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> Run | None:
        try:
            run = Run.from_json(self.path(key).read_bytes())
        except (OSError, ValueError, TypeError, KeyError, AttributeError):   # AttributeError: not an object
            return None
        return run if run.key == key else None

    def put(self, run: Run) -> None:
        write_atomic(self.path(run.key), run.to_json())
