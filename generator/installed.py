"""What is installed: distributions' versions and whether any declares sitegen's plugins.

Every build needs both, for its fingerprint. ``importlib.metadata`` answers
them, but importing it costs a build with nothing to do a tenth of its time
(it brings the e-mail parser along) and its answers more: it reads every
distribution's files. The folders on ``sys.path`` say the same more cheaply:
a ``.dist-info`` folder named ``{name}-{version}.dist-info``, as the packaging
specification names it (else the ``Version`` its metadata file declares, as a
setuptools ``.egg-info`` has it), and its ``entry_points.txt``. Where
distributions may be found otherwise (an egg or a zip on the path, a finder of
its own on ``sys.meta_path``), ``importlib.metadata`` is asked, as it is for a
version no file declares: the answers are the ones it gives.
"""

from __future__ import annotations

import functools
import os
import re
import sys


# Finders of distributions that look where this module looks, in the folders on sys.path:
# Python's own, and the importlib_metadata backport's (which some libraries load).
PATH_FINDERS = ("_frozen_importlib_external", "importlib_metadata")


class Listing:
    """The metadata folders of the distributions on ``sys.path``, first on the path first."""

    def __init__(self, entries: list[str]) -> None:
        self.folders: dict[str, tuple[str, str | None]] = {}   # normalized name -> (folder, version)
        # False when distributions may be found elsewhere: a zip or an egg on the path, a finder of its own
        self.complete = not any(hasattr(finder, "find_distributions") for finder in sys.meta_path
                                if finder.__module__ not in PATH_FINDERS)
        for entry in entries:
            try:
                names = os.listdir(entry or ".")
            except NotADirectoryError:
                self.complete = False
                continue
            except OSError:
                continue
            for name in names:
                stem, _, kind = name.rpartition(".")
                if kind == "dist-info" and stem.count("-") == 1:
                    project, version = stem.split("-")
                    self.folders.setdefault(normalize(project), (os.path.join(entry, name), version))
                elif kind in ("dist-info", "egg-info"):     # a version only its metadata file says
                    self.folders.setdefault(normalize(stem.split("-")[0]), (os.path.join(entry, name), None))
                elif kind == "egg":
                    self.complete = False


@functools.lru_cache(maxsize=4)
def _listing(path: tuple[tuple[str, int | None], ...]) -> Listing:
    return Listing([entry for entry, _ in path])


def listing() -> Listing:
    """The distributions on ``sys.path``, listed again when it or one of its folders changes
    (as ``importlib.metadata`` itself decides)."""
    return _listing(tuple((entry, _mtime(entry)) for entry in sys.path))


def _mtime(entry: str) -> int | None:
    try:
        return os.stat(entry or ".").st_mtime_ns
    except OSError:
        return None


def normalize(name: str) -> str:
    """A project's name as distributions' folders compare it (``PyYAML``, ``pyyaml`` and ``py_yaml`` alike)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def version(distribution: str) -> str | None:
    """The installed version of ``distribution``, or None when it is not installed."""
    found = listing()
    folder, known = found.folders.get(normalize(distribution), (None, None))
    if found.complete and folder is None:
        return None
    if found.complete and (known := known or _declared_version(folder)):
        return known
    from importlib import metadata

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _declared_version(folder: str) -> str | None:
    """The ``Version`` field of a metadata folder's file (an egg-info may be that file itself)."""
    if os.path.isdir(folder):
        folder = os.path.join(folder, "METADATA" if folder.endswith(".dist-info") else "PKG-INFO")
    try:
        with open(folder, encoding="utf-8") as file:
            for line in file:
                if not line.strip():               # the headers end: no version among them
                    return None
                if line.startswith("Version:"):
                    return line[len("Version:"):].strip()
    except (OSError, UnicodeDecodeError):
        pass
    return None


def may_have_entry_points(group: str) -> bool:
    """False only when no installed distribution declares an entry point in ``group``."""
    found = listing()
    if not found.complete:
        return True
    for folder, _ in found.folders.values():     # an egg-info folder has its entry_points.txt too
        try:
            with open(os.path.join(folder, "entry_points.txt"), encoding="utf-8") as file:
                if group in file.read():
                    return True
        except OSError:
            continue
    return False
