"""Sphinx inventories (``objects.inv``, version 2): written for each docs version's
reference, read to link other projects' objects.

An inventory is four header lines, then zlib-compressed lines
``name domain:role priority uri display`` (``$`` in the URI stands for the
name, ``-`` as the display for the name), the format intersphinx reads.
"""

from __future__ import annotations

import http.client
import re
import urllib.request
import zlib
from pathlib import Path
from urllib.parse import urljoin

from generator.cache import digest, write_atomic
from generator.errors import SiteError

HEADER = "# Sphinx inventory version 2"
LINE = re.compile(r"(?x)(.+?)\s+(\S+:\S+)\s+(-?\d+)\s+(\S*)\s+(.*)")
FETCH_TIMEOUT = 30


def write(project: str, version: str, objects: list[tuple[str, str, str]]) -> bytes:
    """An inventory of ``objects``: (name, role such as ``py:function``, URI relative to the inventory)."""
    lines = []
    for name, role, uri in sorted(objects):
        if uri.endswith("#" + name):
            uri = uri[: -len(name)] + "$"
        lines.append(f"{name} {role} 1 {uri} -\n")
    head = f"{HEADER}\n# Project: {project}\n# Version: {version}\n# The remainder of this file is compressed using zlib.\n"
    return head.encode("utf-8") + zlib.compress("".join(lines).encode("utf-8"), 9)


def read(data: bytes, base: str, where: str) -> dict[str, str]:
    """The Python objects of inventory ``data`` -> their URLs, below ``base``."""
    lines = data.split(b"\n", 4)
    if len(lines) < 5 or lines[0].decode("utf-8", "replace").strip() != HEADER:
        raise SiteError(f"{where}: not a Sphinx inventory of version 2 (its first line is not {HEADER!r})")
    try:
        body = zlib.decompress(lines[4]).decode("utf-8")
    except (zlib.error, UnicodeDecodeError) as exc:
        raise SiteError(f"{where}: its compressed part cannot be read ({exc})") from None
    found = {}
    for line in body.splitlines():
        match = LINE.match(line.rstrip())
        if not match:
            continue
        name, role, _, uri, _ = match.groups()
        if role.startswith("py:"):
            found.setdefault(name, urljoin(base, uri.replace("$", name) if uri.endswith("$") else uri))
    return found


def load(source: str, base: str | None, root: Path, cache: Path, where: str) -> dict[str, str]:
    """The inventory at ``source``: a file of the site, or a URL fetched once and kept in ``cache``."""
    if base is not None:
        return read((root / source).read_bytes(), base, where)
    kept = cache / (digest(source)[:32] + ".inv")
    if kept.is_file():
        return read(kept.read_bytes(), source, where)
    try:
        with urllib.request.urlopen(source, timeout=FETCH_TIMEOUT) as response:
            data = response.read()
    except (OSError, http.client.HTTPException) as exc:     # a refusal, a timeout, a body cut short
        raise SiteError(f"{where}: could not fetch {source} ({exc})") from None
    found = read(data, source, where)          # a page that is not an inventory is not kept
    cache.mkdir(parents=True, exist_ok=True)
    write_atomic(kept, data)
    return found
