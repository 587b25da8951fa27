"""Vendored libraries (KaTeX, the Jupyter widget manager, Mermaid) published only in sites whose pages use them.

Together they weigh 8 MB (Mermaid 5.5 of it), which a site without math, widgets or diagrams should not carry.
Whether a page loads one is known once the page is made (math may come from a post,
a docs page, a notebook or a plugin's page), so this is a derived output: it reads
the pages the build made and publishes a library's folder when one of them refers to
it. As a function of those pages' bytes, an incremental build publishes what a clean
build does: the first page with math brings KaTeX, removing the last one removes it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from generator.config import Config
from generator.files import Files
from generator.layout import ASSETS, DEFAULT_THEME
from generator.outputs import Derived, PlanContext

FOLDER = f"{ASSETS}/vendor"
LIBRARIES = ("katex", "jupyter-widgets", "mermaid")     # folders of the default theme's assets/vendor
PAGES = "pages"                              # the one group: every HTML page


class Vendored(Derived):
    name = "vendor"

    def group(self, config: Config, path: str) -> str | None:
        return PAGES if path.endswith(".html") else None

    def make(self, ctx: PlanContext, group: str, files: Mapping[str, bytes]) -> Files:
        """The folders of the libraries some page refers to (``assets/vendor/katex/``), but the
        files the site's own ``assets/`` holds at the same place: those are published as they are."""
        out = Files()
        for name in used(files.values()):
            top = DEFAULT_THEME / FOLDER / name
            for path in sorted(p for p in top.rglob("*") if p.is_file()):
                rel = f"{FOLDER}/{name}/{path.relative_to(top).as_posix()}"
                if not (ctx.config.root / rel).exists():
                    out.add(rel, path.read_bytes(), f"<default theme>/{rel}")
        return out


def used(pages: Iterable[bytes]) -> list[str]:
    """The libraries some of ``pages`` refer to, each page read once (until all are found); a page
    without the folder's name at all (most pages) is looked through once, not once a library."""
    markers, found, folder = {name: f"{FOLDER}/{name}/".encode() for name in LIBRARIES}, set(), f"{FOLDER}/".encode()
    for data in pages:
        if folder not in data:
            continue
        found.update(name for name, marker in markers.items() if name not in found and marker in data)
        if len(found) == len(markers):
            break
    return [name for name in LIBRARIES if name in found]


def vendored(path: str) -> bool:
    """Is output ``path`` one of the libraries published only where used?"""
    return any(path.startswith(f"{FOLDER}/{name}/") for name in LIBRARIES)
