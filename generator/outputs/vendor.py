"""Vendored libraries (KaTeX, the Jupyter widget manager, Mermaid) published only in sites whose pages use them.

Together they weigh 8 MB (Mermaid 5.5 of it), which a site without math, widgets or diagrams should not carry.
Whether a page loads one is known once the page is made (math may come from a post,
a docs page, a notebook or a plugin's page), so this is a derived output: it reads
the pages the build made and publishes a library's folder when one of them refers to
it. As a function of those pages' bytes, an incremental build publishes what a clean
build does: the first page with math brings KaTeX, removing the last one removes it.

Any edit changes a page, so the pages are looked through on every build with work to
do: what each refers to is kept by the digest of its bytes (:class:`Uses`, a file in
``.sitegen/cache``), and only the pages the build changed are read (10,000 posts: 11,752
pages, 330 MB, read back on each one-post edit otherwise).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from generator import codec
from generator.cache import local_key, write_atomic
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
        for name in Uses(ctx.config.state_dir).of(files):
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


class Uses:
    """The libraries each page refers to, by the digest of its bytes, as the last build found them:
    a file in ``.sitegen/cache`` that never goes stale (a page changed is another digest)."""

    KIND = "vendor-uses"

    def __init__(self, state_dir: Path):
        self.path, self.key = state_dir / "cache" / f"{self.KIND}.msgpack", local_key(state_dir)

    def of(self, files: Mapping[str, bytes]) -> list[str]:
        """What :func:`used` gives for ``files`` (an :class:`~generator.engine.planning.OutputBytes`,
        which knows their digests), reading only the pages not seen before; kept for the next build
        are the pages of ``files`` alone."""
        known = self.load()
        digests = {path: files.digest(path) for path in files}
        new = {digest: used([files[path]]) for path, digest in digests.items() if digest not in known}
        uses = {digest: new[digest] if digest in new else known[digest] for digest in digests.values()}
        if new or len(uses) != len(known):
            try:
                write_atomic(self.path, codec.dumps(self.KIND, uses, self.key))
            except OSError:         # a site folder not ours to write: the next build reads every page
                pass
        found = set().union(*uses.values())
        return [name for name in LIBRARIES if name in found]

    def load(self) -> dict[str, list[str]]:
        """The pages seen before, or none if the file is missing, garbled or not of this shape."""
        try:
            uses = codec.loads(self.KIND, self.path.read_bytes(), self.key)
        except (OSError, codec.Garbled):
            return {}
        shaped = isinstance(uses, dict) and all(isinstance(names, list) for names in uses.values())
        return uses if shaped else {}


def vendored(path: str) -> bool:
    """Is output ``path`` one of the libraries published only where used?"""
    return any(path.startswith(f"{FOLDER}/{name}/") for name in LIBRARIES)
