"""A cache of runs shared between machines, behind the local one.

site.yaml's ``notebooks.cache`` names a folder or an fsspec URL (``s3://``,
``gs://``, ``file://``, ``http(s)://`` read-only). A run missing from the
local ``cache_dir`` is looked for there and, when found, kept locally; a new
run is written to both. So a CPU-only CI build shows the GPU runs a GPU machine
published, with no folder copied by hand.

Entries are laid out as in the local cache (``notebooks/<key[:2]>/<key>.json``,
the key a hash of what decides the run) with a ``<key>.sha256`` beside each: the
digest of the entry's bytes. An entry whose bytes do not match it (truncated,
edited, half uploaded) or that names another key is a miss, with a warning
naming it, never a run shown for the wrong code. The digest guards against
damage and mix-ups, not against someone allowed to write both files: who may
write the bucket is who the site trusts.
"""

from __future__ import annotations

import hashlib
import sys
import uuid
from pathlib import Path
from typing import Any, Callable

from generator.config import Config
from generator.errors import SiteError
from generator.notebooks.executors import require
from generator.notebooks.store import FOLDER, Run, RunStore

READ_ONLY = ("http", "https")


def open_store(config: Config, warn: Callable[[str], None] | None = None) -> RunStore | SharedRuns:
    """The run cache site.yaml asks for: the local folder, with the shared cache behind it if any."""
    local = RunStore(config.root / config.notebooks.cache_dir, warn)
    if not config.notebooks.cache:
        return local
    return SharedRuns(local, config.notebooks.cache, config.root, warn)


class SharedRuns:
    """Runs read through ``local`` from the shared cache at ``url``, and written back to both."""

    def __init__(self, local: RunStore, url: str, root: Path, warn: Callable[[str], None] | None = None):
        fsspec = require("fsspec", "fsspec", "notebooks.cache", root / "site.yaml")
        self.local = local
        self.url = url
        self.warn = warn or (lambda line: print(f"warning: {line}", file=sys.stderr))
        if "://" not in url:                 # a folder, relative to the site
            url = (root / url).resolve().as_uri()
        try:
            self.fs, self.root = fsspec.core.url_to_fs(url)
        except (ImportError, ValueError) as exc:
            raise SiteError(f"key 'notebooks.cache': cannot open {self.url}: {exc}", root / "site.yaml") from None
        protocol = self.fs.protocol if isinstance(self.fs.protocol, str) else self.fs.protocol[0]
        self.writable = protocol not in READ_ONLY
        self.unreachable = False
        self.told_read_only = False
        self.found: dict[str, str] = {}        # key -> where its run was read: "local" or the URL

    def _path(self, key: str, suffix: str) -> str:
        return f"{self.root.rstrip('/')}/{FOLDER}/{key[:2]}/{key}{suffix}"

    def get(self, key: str) -> Run | None:
        run = self.local.get(key)
        if run is not None:
            self.found[key] = "local"
            return run
        run = self._fetch(key)
        if run is not None:
            self.local.put(run)
            self.found[key] = self.url
        return run

    def put(self, run: Run) -> None:
        self.local.put(run)
        if not self.writable:
            if not self.told_read_only:
                self.told_read_only = True
                self.warn(f"notebooks.cache {self.url} is read-only: new runs are kept in "
                          f"{self.local.folder.parent} only")
            return
        if self.unreachable:
            return
        data = run.to_json()
        try:
            self.fs.makedirs(self._path(run.key, "").rsplit("/", 1)[0], exist_ok=True)
            self._write(self._path(run.key, ".json"), data)
            self._write(self._path(run.key, ".sha256"), hashlib.sha256(data).hexdigest().encode())
        except OSError as exc:
            self.warn(f"notebooks.cache {self.url}: could not store the run of {run.key}: {exc}")

    def _write(self, path: str, data: bytes) -> None:
        """Write beside, then move into place, so a reader never sees half a file on a folder."""
        partial = f"{path}.{uuid.uuid4().hex}.partial"
        self.fs.pipe_file(partial, data)
        self.fs.mv(partial, path)

    def _fetch(self, key: str) -> Run | None:
        if self.unreachable:
            return None
        path = self._path(key, ".json")
        try:
            data = self.fs.cat_file(path)
            digest = self.fs.cat_file(self._path(key, ".sha256")).decode("ascii", "replace").strip()
        except FileNotFoundError:
            return None
        except Exception as exc:      # any transport's failure: a miss here, the run made anew
            self.unreachable = True
            self.warn(f"notebooks.cache {self.url} cannot be read ({_reason(exc)}); "
                      "tutorials not cached locally run here")
            return None
        if hashlib.sha256(data).hexdigest() != digest:
            self.warn(f"notebooks.cache: {self._shown(path)} does not match its digest "
                      f"({key}.sha256); ignored")
            return None
        try:
            run = Run.from_json(data)
        except (ValueError, TypeError, KeyError, RecursionError):
            self.warn(f"notebooks.cache: {self._shown(path)} is not a run; ignored")
            return None
        if run.key != key:
            self.warn(f"notebooks.cache: {self._shown(path)} holds the run of another key; ignored")
            return None
        return run

    def _shown(self, path: str) -> str:
        return f"{self.url.rstrip('/')}/{FOLDER}/{path.split(f'/{FOLDER}/', 1)[-1]}"


def _reason(exc: Any) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0]
