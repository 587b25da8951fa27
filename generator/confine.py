"""One rule for every file that content or configuration names: it is read only from the site.

A page's Liquid (``site.data`` keys, ``{% include %}``, ``{% link %}``), a source
listing's ``source:`` and a docs version's ``archive:`` each name a path. That path
is read only when, symbolic links followed, it lies inside the site's folder and
outside its hidden places: ``.git/`` (``actions/checkout`` leaves a token in its
config), ``.sitegen/``, and dot-files and dot-folders such as ``.env``, unless
site.yaml names a dot-path itself. Callers answer a refused path exactly as a
missing one, so a page cannot probe what exists outside the site.
"""

from __future__ import annotations

import os
from pathlib import Path

from generator.layout import STATE_DIR

NEVER_READ = (".git", STATE_DIR)     # not even when site.yaml names them


def site_path(root: Path, name: str, folder: str = "", named: bool = False) -> str | None:
    """``name`` (relative to the site ``root``) as the POSIX path, relative to the site, of what
    it resolves to, if that lies in the site's ``folder`` and outside the hidden places; else None.

    ``named``: site.yaml names the path, so it may be (or be in) a dot-folder other than
    :data:`NEVER_READ`. Whether the path exists is left to the caller.
    """
    if not isinstance(name, str) or not name or "\0" in name or os.path.isabs(name):
        return None
    real_root = os.path.realpath(root)
    real = os.path.realpath(os.path.join(real_root, name))
    inside = os.path.realpath(os.path.join(real_root, folder)) if folder else real_root
    if os.path.commonpath([inside, real]) != inside or real == real_root:
        return None
    parts = Path(os.path.relpath(real, real_root)).parts
    if any(part in NEVER_READ or (part.startswith(".") and not named) for part in parts):
        return None
    return "/".join(parts)
