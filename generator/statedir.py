"""sitegen's own folder, ``.sitegen/``: made and checked before anything in it is written.

``.sitegen/`` travels (CI restores it, people copy it, a checkout may hold
one), so a symbolic link in it may point anywhere: followed, the lock would
truncate the file it names, a build would empty its target's ``staging/`` and
overwrite its state, and caches would be written into someone else's folder.
So ``.sitegen/`` must be a real folder, and the folders sitegen writes in under
it (``.sitegen/`` itself, ``versions/``, ``cache/`` and each cache's folder) hold
no link, neither to a folder (a cache's shard) nor to a file (the lock, the
records' journal, which are written in place): one stops the command naming it.
In a shard, a file is only ever replaced by a rename, which replaces a link, not
its target; ``staging/`` is emptied without following links. The lock is opened
so as not to follow one besides.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from generator.errors import SiteError
from generator.layout import STAGING_DIR

DEPTH = 3     # .sitegen/cache/documents/ab: the deepest folder sitegen writes in


def own_state_dir(folder: Path) -> Path:
    """``folder`` (a site's ``.sitegen``), made if missing; refused if it is a link, a file,
    not writable, or holds a link where sitegen writes."""
    try:
        os.mkdir(folder)
    except FileExistsError:
        pass
    except OSError as exc:
        raise SiteError(f"cannot make sitegen's folder here: {exc.strerror}", folder) from None
    mode = os.lstat(folder).st_mode
    if stat.S_ISLNK(mode):
        raise SiteError("a symbolic link: sitegen keeps its state in a folder of the site, never "
                        "through a link; remove the link", folder)
    if not stat.S_ISDIR(mode):
        raise SiteError("not a folder: sitegen keeps its state in a folder of this name; "
                        "move the file away", folder)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise SiteError("sitegen cannot write in its folder (no permission)", folder)
    _refuse_links(folder, DEPTH)
    return folder


def _refuse_links(folder: Path, depth: int) -> None:
    """Stop at a symbolic link among ``folder``'s entries, and its folders' to ``depth`` levels
    (``staging/`` aside: a build empties it without following links)."""
    try:
        with os.scandir(folder) as listing:
            entries = list(listing)
    except OSError as exc:
        raise SiteError(f"sitegen cannot read its folder: {exc.strerror}", folder) from None
    for entry in entries:
        if entry.is_symlink():
            raise SiteError("a symbolic link in sitegen's folder, which holds only sitegen's own "
                            "files: remove it", entry.path)
        if depth > 1 and entry.is_dir(follow_symlinks=False) and entry.name != STAGING_DIR:
            _refuse_links(Path(entry.path), depth - 1)
