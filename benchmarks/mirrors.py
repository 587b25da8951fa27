"""A tree of a ``fetch`` mirror (a bare git directory, some of its largest blobs absent), written
out for a benchmark: nothing of it is committed here."""

from __future__ import annotations

import subprocess
from pathlib import Path


def export(mirror: Path, commit: str, dest: Path, skip: tuple[str, ...] = ()) -> int:
    """The tree of ``commit`` (outside the folders ``skip``) written into ``dest`` through one
    ``git cat-file --batch``; how many files the mirror lacks (its largest blobs), left out. Some
    mirrors come as a clone with a work tree: their git directory is its ``.git``."""
    git = ["git", "--git-dir", str(mirror / ".git" if (mirror / ".git").is_dir() else mirror)]
    listing = subprocess.run([*git, "ls-tree", "-r", "-z", commit], capture_output=True, check=True).stdout
    entries = [(meta.split(), path) for meta, _, path in
               (item.decode().partition("\t") for item in listing.split(b"\0") if item)]
    blobs = [(mode, sha, path) for (mode, kind, sha), path in entries if kind == "blob" and not path.startswith(skip)]
    batch = subprocess.run([*git, "cat-file", "--batch"], input="".join(f"{sha}\n" for _, sha, _ in blobs).encode(),
                           capture_output=True, check=True).stdout
    missing, at = 0, 0
    for mode, _, path in blobs:
        header_end = batch.index(b"\n", at)
        header = batch[at:header_end].split()
        if header[-1] == b"missing":
            missing, at = missing + 1, header_end + 1
            continue
        size = int(header[2])
        data, at = batch[header_end + 1:header_end + 1 + size], header_end + 2 + size
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to(data.decode()) if mode == "120000" else target.write_bytes(data)
    return missing
