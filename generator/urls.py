"""How a URL path finds its file in the built site: one rule for the preview server and the checker;
and which URL paths name a place inside the site (site.yaml's and its sections' checks).

The checker must accept exactly the links the server (and the live host,
GitHub Pages or ASF's) would serve, so both ask :func:`candidates`; a page's
own file is :func:`output_path` of its URL.
"""

from __future__ import annotations

import functools
from typing import Any
from urllib.parse import quote


def candidates(path: str) -> list[str]:
    """The files that may serve site path ``path`` (decoded, relative to the site's root, no
    leading ``/``), in the order they are tried: ``x`` is the file ``x``, else the folder
    ``x/`` (its ``index.html``), else ``x.html``; ``d/`` and the root serve their ``index.html``."""
    if not path or path.endswith("/"):
        return [path + "index.html"]
    return [path, path + "/index.html", path + ".html"]


def candidate_of(file: str) -> list[str]:
    """The site paths whose :func:`candidates` include output ``file``: the links whose target a
    file's coming or going may change."""
    found = [file]
    if file == "index.html" or file.endswith("/index.html"):
        found.append(file.removesuffix("index.html"))
    if file.endswith("/index.html"):
        found.append(file.removesuffix("/index.html"))
    if file.endswith(".html"):
        found.append(file.removesuffix(".html"))
    return found


def output_path(url: str) -> str:
    """The file (relative to the output dir) that serves ``url``."""
    path = url.lstrip("/")
    if path == "" or path.endswith("/"):
        return path + "index.html"
    if "." not in path.rsplit("/", 1)[-1]:
        return path + ".html"
    return path


def page_url(prefix: str, rel: str) -> str:
    """The URL serving file ``rel`` of a section at ``prefix``: an index is its folder."""
    if rel == "index.html" or rel.endswith("/index.html"):
        rel = rel.removesuffix("index.html")
    return prefix + rel


def relative_url(config: Any, url: str) -> str:
    """A site path with ``config.baseurl`` in front; other URLs unchanged."""
    if not isinstance(url, str) or not url.startswith("/") or url.startswith("//"):
        return url
    return config.baseurl.rstrip("/") + quoted(url)


@functools.lru_cache(maxsize=4096)
def quoted(url: str) -> str:
    """A site path, quoted for a link (the same few recur on every page: the menu, the stylesheets)."""
    return quote(url, safe="/#?=&%:.-_~")


def plain_path(url: str) -> bool:
    """A URL path naming a place inside the site: '/', no '.', '..' or empty segments."""
    rest = url[1:].removesuffix("/")
    return url.startswith("/") and "\0" not in url and (
        url == "/" or not any(part in ("", ".", "..") for part in rest.split("/")))
