"""Build one docs section from a tree of files: ``content/docs/**`` and the
tree's tutorials under a URL prefix.

The tree is any folder shaped like a site (the author's working tree, or a
commit exported by git), so the same code builds the unversioned docs at
``/docs/`` and each version at ``/docs/<name>/``. Pages are parsed like any
page and rendered with the current site's templates; other files under
``content/docs`` (images, downloads) are published beside them as they are.
The tree's tutorials, rendered by :mod:`generator.notebooks`, sit in the
section's ``tutorials/`` folder, and every docs page links their gallery.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Callable

from markupsafe import Markup

from generator.errors import SiteError
from generator.files import Files
from generator.layout import DOCS
from generator.notebooks import TutorialStats, Tutorials
from generator.readers import suffixes
from generator.site import Document, output_path
from generator.sources import Source, load_source

DOCS_DIR = DOCS
TUTORIALS_DIR = "tutorials/"      # a section's tutorials, below its prefix

Render = Callable[..., str]                       # (template, source, **context) -> HTML
Parse = Callable[[list[Source], Path], list[Document]]     # (sources, the tree they lie in)


class Section(Files):
    """A docs section's files, by path below its prefix, and how its tutorials' outputs were got."""

    def __init__(self, prefix: str, tutorials: TutorialStats = TutorialStats()):
        super().__init__(prefix)
        self.tutorials = tutorials
        self.warnings: list[str] = []     # of its pages and tutorials: ``file:line: warning: ...``


def gallery_url(prefix: str) -> str:
    """Where the tutorials of the section at ``prefix`` are published."""
    return prefix + TUTORIALS_DIR


def render_section(tree: Path, prefix: str, render: Render, parse: Parse,
                   version: dict[str, Any] | None = None, tutorials: Tutorials | None = None) -> Section:
    """Every file of the docs section in ``tree`` (its pages and ``tutorials``) below ``prefix``.

    ``version`` (name, title, status) is what templates see as ``docs.version``;
    None for an unversioned docs section.
    """
    tutorials = tutorials or Tutorials()
    section = Section(prefix, tutorials=tutorials.stats)
    for rel, data in tutorials.items():
        section.add(TUTORIALS_DIR + rel, data, tutorials.origins[rel])
    base = tree / DOCS_DIR
    sources = []
    for path in sorted(base.rglob("*")):
        rel = path.relative_to(base)
        if not path.is_file() or any(part.startswith(".") for part in rel.parts):
            continue
        if path.suffix in suffixes():
            sources.append(load_source(tree, "docs", path.relative_to(tree)))
        else:
            section.add(rel.as_posix(), path.read_bytes(), path.relative_to(tree))
    documents = [_place(doc, prefix) for doc in parse(sources, tree)]
    section.warnings = [*tutorials.warnings, *(w for doc in documents for w in doc.warnings)]
    context = {"version": version, "root": prefix, "pages": table_of_contents(documents, prefix),
               "tutorials": gallery_url(prefix) if tutorials else None}
    for doc in documents:
        html = render(f"{doc.layout}.html", doc.source, page=doc, content=Markup(doc.content), docs=context)
        section.add(output_path(doc.url).removeprefix(prefix.lstrip("/")), html.encode("utf-8"), doc.source)
    return section


def _place(doc: Document, prefix: str) -> Document:
    """A docs page's URL is its path below content/docs: the tree is the navigation."""
    if "permalink" in doc.meta:
        raise SiteError("docs pages take their URL from their path: remove 'permalink'", doc.source)
    rel = doc.source.relative_to(DOCS_DIR).with_suffix(".html").as_posix()
    return dataclasses.replace(doc, url=page_url(prefix, rel))


def page_url(prefix: str, rel: str) -> str:
    """The URL serving file ``rel`` of a section at ``prefix``: an index is its folder."""
    if rel == "index.html" or rel.endswith("/index.html"):
        rel = rel.removesuffix("index.html")
    return prefix + rel


def table_of_contents(documents: list[Document], prefix: str) -> list[dict[str, str]]:
    """The section's pages in reading order: the index, then by ``order`` and title."""
    def position(doc: Document) -> tuple:
        order = doc.meta.get("order")
        return (doc.url != prefix, order if isinstance(order, (int, float)) else float("inf"),
                doc.title.lower())
    return [{"title": doc.title, "url": doc.url} for doc in sorted(documents, key=position)]
