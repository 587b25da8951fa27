"""What a tutorial declares, and the cache key: the hash of what decides its run.

A notebook's settings live under the ``sitegen`` key of its metadata (a
script's YAML header), checked like site.yaml::

    sitegen:
      title: Scan and recurrence      # else the first "# heading"
      timeout: 300                    # seconds per cell, else notebooks.timeout
      allow_errors: true              # show errors on the page, do not fail
      requires: [tvm]                 # Python modules the kernel must import
      device: cuda                    # hardware it must run on
      reads: [data/input.csv, helpers.py]   # files whose contents it depends on
      execute: never                  # auto | never | always, else notebooks.execute

site.yaml's ``notebooks.tutorials`` may set ``requires``, ``device``, ``timeout``
and ``execute`` for the tutorials a pattern matches, over the file's own.

The key covers exactly what determines the outputs: the code cells' sources
in order, the kernel, the tags that change execution, the execution options,
the requirements, the contents of the files it reads, and the cache format.
Markdown, cell ids, titles and display-only tags and metadata do not count, so
editing them re-renders without running anything again; nor does ``execute``,
which decides whether a run happens, not what it gives.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from generator import codec
from generator.config import load_section
from generator.errors import SiteError
from generator.layout import CONFIG_FILE
from generator.notebooks.environment import DEVICES
from generator.notebooks.sources import Tutorial
from generator.schema.notebooks import Execute, Notebooks

CACHE_FORMAT = str(codec.VERSIONS["notebook-run"])
EXECUTION_TAGS = ("raises-exception", "skip-execution")
DEFAULT_KERNEL = "python3"


@dataclass(frozen=True)
class Metadata:
    """The ``sitegen`` key of a notebook's metadata."""

    title: str | None = None
    description: str | None = None
    timeout: int | None = None
    allow_errors: bool = False
    requires: list[str] = field(default_factory=list)
    device: str | None = None
    reads: list[str] = field(default_factory=list)
    execute: Execute | None = None


@dataclass(frozen=True)
class Spec:
    """How one tutorial is executed, resolved against site.yaml; ``key`` names its result."""

    kernel: str
    timeout: int
    allow_errors: bool
    requires: tuple[str, ...]
    device: str | None
    reads: tuple[tuple[str, str], ...]     # (path in the tutorial's folder, sha256 of contents)
    code: tuple[tuple[str, tuple[str, ...]], ...]   # (source, execution tags) of each code cell
    key: str
    execute: Execute = "auto"      # not part of the key: it decides whether to run, not the outputs


def metadata_of(tutorial: Tutorial, settings: Notebooks | None = None) -> Metadata:
    """The tutorial's ``sitegen`` metadata, with what site.yaml's ``notebooks.tutorials`` sets
    for it on top (an upstream file need not be edited to say what it needs here)."""
    meta = load_section(Metadata, tutorial.notebook.metadata.get("sitegen", {}), tutorial.path, "sitegen")
    for pattern, entry in settings.settings_for(tutorial.path) if settings else ():
        if entry.device is not None and entry.device not in DEVICES:
            raise SiteError(f"key 'notebooks.tutorials.{pattern}.device': unknown device {entry.device!r} "
                            f"(known: {', '.join(sorted(DEVICES))})", CONFIG_FILE)
        meta = dataclasses.replace(meta, **{name: value for name, value in dataclasses.asdict(entry).items()
                                            if value is not None})
    return meta


def resolve(tutorial: Tutorial, meta: Metadata, settings: Notebooks) -> Spec:
    """The tutorial's execution spec, with the files it reads hashed now."""
    kernel = tutorial.notebook.metadata.get("kernelspec", {}).get("name") or DEFAULT_KERNEL
    timeout = meta.timeout if meta.timeout is not None else settings.timeout
    if timeout <= 0:
        raise SiteError(f"key 'sitegen.timeout': expected a positive number of seconds, got {timeout}",
                        tutorial.path)
    if meta.device is not None and meta.device not in DEVICES:
        raise SiteError(f"key 'sitegen.device': unknown device {meta.device!r} "
                        f"(known: {', '.join(sorted(DEVICES))})", tutorial.path)
    code = tuple(
        (cell.source, tuple(t for t in EXECUTION_TAGS if t in cell.metadata.get("tags", ())))
        for _, cell in tutorial.shown_cells if cell.cell_type == "code"
    )
    reads = tuple((name, _hash_read(tutorial, name)) for name in meta.reads)
    parts = {
        "format": CACHE_FORMAT, "kernel": kernel, "timeout": timeout, "allow_errors": meta.allow_errors,
        "requires": sorted(meta.requires), "device": meta.device, "reads": reads, "code": code,
    }
    key = hashlib.sha256(json.dumps(parts, sort_keys=True).encode("utf-8")).hexdigest()
    return Spec(kernel, timeout, meta.allow_errors, tuple(sorted(meta.requires)), meta.device,
                reads, code, key, meta.execute or settings.execute)


def _hash_read(tutorial: Tutorial, name: str) -> str:
    """sha256 of a declared file (or of every file in a declared folder, by relative name)."""
    path = (tutorial.folder / name).resolve()
    if not path.is_relative_to(tutorial.folder) or not path.exists():
        raise SiteError(f"key 'sitegen.reads': {name!r} is not a file or folder beside the tutorial",
                        tutorial.path)
    h = hashlib.sha256()
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for file in files:
        h.update(file.relative_to(path if path.is_dir() else path.parent).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(file.read_bytes()).digest())
    return h.hexdigest()


def read_paths(tutorial: Tutorial, meta: Metadata) -> set[Path]:
    """Files a tutorial declares it reads (so that they are not taken for tutorials)."""
    return {(tutorial.folder / name).resolve() for name in meta.reads}
