"""The output directory: find what differs from the last build, write and remove files.

Files are replaced atomically (a preview server reading one never sees half of
it) and only when their bytes differ from what is there, so unchanged files
keep their modification times and a publish sees no spurious changes.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.cache import write_atomic
from generator.config import Config
from generator.deps import value_digest
from generator.errors import SiteError
from generator.state import OutputRecord, Stamp, file_stamp, scan


def safe_output_dir(config: Config) -> Path:
    """The output directory, refused if writing there could destroy the site's sources."""
    out = config.output_dir.resolve()
    root = config.root.resolve()
    sources = [root / name for name in ("content", "templates", "notebooks", "generator", ".git",
                                        *config.static_paths)]
    if root.is_relative_to(out) or any(out.is_relative_to(s) for s in sources):
        raise SiteError(f"key 'output': {config.output!r} would overwrite the site's sources",
                        root / "site.yaml")
    return out


def check_outputs(out_dir: Path, records: dict[str, OutputRecord]) -> tuple[set[str], set[str]]:
    """Outputs that are not as the last build left them, and files it did not make."""
    found = scan(out_dir, follow_links=False)
    tampered = {path for path, record in records.items() if found.get(path) != record.stamp}
    return tampered, found.keys() - records.keys()


def delete_outputs(out_dir: Path, paths: set[str]) -> list[str]:
    """Remove files no longer produced, and the folders they leave empty."""
    deleted = []
    for rel in sorted(paths):
        path = out_dir / rel
        if not (path.is_symlink() or path.is_file()):
            continue
        path.unlink()
        deleted.append(rel)
        for parent in path.parents:
            if parent == out_dir or any(parent.iterdir()):
                break
            parent.rmdir()
    return deleted


def write_outputs(out_dir: Path, made: dict[str, bytes],
                  records: dict[str, OutputRecord]) -> tuple[list[str], dict[str, Stamp]]:
    """Write the files whose bytes differ from what is there; return them and every file's stamp."""
    written, stamps = [], {}
    for rel, data in sorted(made.items()):
        path = out_dir / rel
        stamp = _holds(path, data, records.get(rel))
        if stamp is None:
            _write(out_dir, rel, data)
            written.append(rel)
            stamp = file_stamp(path.stat())
        stamps[rel] = stamp
    return written, stamps


def _holds(path: Path, data: bytes, record: OutputRecord | None) -> Stamp | None:
    """The stamp of ``path`` if it already holds exactly ``data``, else None."""
    try:
        if path.is_symlink():
            return None
        stamp = file_stamp(path.stat())
        if record is not None and record.stamp == stamp:
            return stamp if record.digest == value_digest(data) else None
        return stamp if stamp[0] == len(data) and path.read_bytes() == data else None
    except OSError:
        return None


def _write(out_dir: Path, rel: str, data: bytes) -> None:
    """Replace ``out_dir/rel`` with ``data``, clearing a file or folder in the way."""
    path = out_dir / rel
    try:
        write_atomic(path, data)
        return
    except OSError:
        pass
    for parent in reversed(path.parents):
        if parent.is_relative_to(out_dir) and parent != out_dir and (parent.is_file() or parent.is_symlink()):
            parent.unlink()
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    write_atomic(path, data)
