"""Sphinx inventories (``objects.inv``, version 2): written for each docs version's
reference, read to link other projects' objects.

An inventory is four header lines, then zlib-compressed lines
``name domain:role priority uri display`` (``$`` in the URI stands for the
name, ``-`` as the display for the name), the format intersphinx reads.

One fetched from a URL is kept in ``.sitegen/inventories/``, sealed as every
cache there is (:mod:`generator.codec`: a file crafted or copied from another
checkout is a miss, so it cannot link a page where its author did not), with
the time it was fetched: after site.yaml's ``api_inventory_days`` it is
fetched again, as it is by ``build --refresh``.
"""

from __future__ import annotations

import http.client
import re
import time
import urllib.request
import zlib
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from generator import codec
from generator.cache import digest, local_key, write_atomic
from generator.errors import SiteError

HEADER = "# Sphinx inventory version 2"
LINE = re.compile(r"(?x)(.+?)\s+(\S+:\S+)\s+(-?\d+)\s+(\S*)\s+(.*)")
FETCH_TIMEOUT = 30
KEPT_DIR = "inventories"      # below .sitegen/
DAY = 86400.0


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


def load(file: str, base: str, root: Path, where: str) -> dict[str, str]:
    """The objects of the site's inventory ``file``, documented below ``base``."""
    return read((root / file).read_bytes(), base, where)


def fetch(url: str, state_dir: Path, days: float, where: str, refresh: bool = False) -> dict[str, str]:
    """The objects of the inventory at ``url``: as kept under ``state_dir`` while it is younger
    than ``days`` (and sealed by this checkout), else fetched and kept; ``refresh``: fetched."""
    path, key = kept_path(state_dir, url), local_key(state_dir)
    entry = None if refresh else kept(path, key, url)
    if entry is not None and time.time() - entry["fetched"] < days * DAY:
        return read(entry["data"], url, where)
    try:
        with urllib.request.urlopen(url, timeout=FETCH_TIMEOUT) as response:
            data = response.read()
    except (OSError, http.client.HTTPException) as exc:     # a refusal, a timeout, a body cut short
        raise SiteError(f"{where}: could not fetch {url} ({exc})") from None
    found = read(data, url, where)          # a page that is not an inventory is not kept
    write_atomic(path, codec.dumps("api-inventory", {"url": url, "fetched": time.time(), "data": data}, key))
    return found


def freshness(urls: list[str], state_dir: Path, days: float) -> tuple[str, ...]:
    """When each URL's kept copy was fetched, or, where a build must fetch it (missing, expired,
    not sealed here), "stale" and the time now, unlike any plan's before: what a plan compares,
    so that such a copy is fetched even when no file of the site changed."""
    key, now = local_key(state_dir), time.time()
    entries = [kept(kept_path(state_dir, url), key, url) for url in urls]
    return tuple(f"stale {now!r}" if e is None or now - e["fetched"] >= days * DAY else repr(e["fetched"])
                 for e in entries)


def kept_path(state_dir: Path, url: str) -> Path:
    return state_dir / KEPT_DIR / (digest(url)[:32] + ".msgpack")


def kept(path: Path, key: bytes, url: str) -> dict[str, Any] | None:
    """The kept copy of ``url``'s inventory ({url, fetched, data}); None when missing, not sealed
    by this checkout, or of another URL."""
    try:
        entry = codec.loads("api-inventory", path.read_bytes(), key)
    except (OSError, codec.Garbled, ValueError, TypeError):
        return None
    if not isinstance(entry, dict) or entry.get("url") != url or not isinstance(entry.get("data"), bytes) \
            or not isinstance(entry.get("fetched"), float):
        return None
    return entry
