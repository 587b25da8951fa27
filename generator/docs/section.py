"""Build one docs section from a tree of files: ``content/docs/**`` and the
tree's tutorials under a URL prefix.

The tree is any folder shaped like a site (the author's working tree, or a
commit exported by git), so the same code builds the unversioned docs at
``/docs/`` and each version at ``/docs/<name>/``. Pages are parsed like any
page and rendered with the current site's templates; other files under
``content/docs`` (images, downloads) are published beside them as they are.
The tree's tutorials, rendered by :mod:`generator.docs.tutorials`, sit in the
section's ``tutorials/`` folder, and every docs page links their gallery.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from markupsafe import Markup

from generator.errors import SiteError, warning
from generator.files import Files
from generator.layout import DOCS
from generator.links import Linked
from generator.docs.tutorials import TutorialStats, Tutorials
from generator.readers import suffixes
from generator.site import Document, output_path
from generator.sources import Source, load_source
from generator.urls import page_url

if TYPE_CHECKING:          # griffe is loaded only for a site with an API reference, Markdown for a parse
    from generator import myst
    from generator.api import Reference

DOCS_DIR = DOCS
TUTORIALS_DIR = "tutorials/"      # a section's tutorials, below its prefix

Render = Callable[..., str]                       # (template, source, **context) -> HTML
RenderTutorials = Callable[[dict[str, Any], "myst.Labels"], Tutorials]  # (what templates see as docs, labels)
Parse = Callable[[list[Source], Path], list[Document]]     # (sources, the tree they lie in)


class Section(Files):
    """A docs section's files, by path below its prefix, and how its tutorials' outputs were got."""

    def __init__(self, prefix: str, tutorials: TutorialStats = TutorialStats()):
        super().__init__(prefix)
        self.tutorials = tutorials
        self.warnings: list[str] = []     # of its pages and tutorials: ``file:line: warning: ...``
        self.linked: list[Linked] = []    # its pages' and tutorials' links, for the build to check


def gallery_url(prefix: str) -> str:
    """Where the tutorials of the section at ``prefix`` are published."""
    return prefix + TUTORIALS_DIR


def render_section(tree: Path, prefix: str, render: Render, parse: Parse,
                   version: dict[str, Any] | None = None,
                   tutorials: RenderTutorials | None = None,
                   editable: bool = True, reference: Reference | None = None,
                   updated: Mapping[str, str] = {}, relative_url: Callable[[str], str] = str,
                   outer: Callable[[Path, str, str], myst.Target | None] | None = None) -> Section:
    """Every file of the docs section in ``tree`` (its pages and ``tutorials``) below ``prefix``.

    ``version`` (name, title, status) is what templates see as ``docs.version``;
    None for an unversioned docs section. ``tutorials`` renders the tree's
    tutorials given what the docs templates see as ``docs`` (the pages, for
    their sidebar) and the pages' MyST labels, to which it adds the tutorials'
    (a reference in a page or tutorial reaches any of them). ``editable``: the tree is the author's, so pages link
    their source in the repository (a version from a git ref is not).
    ``reference``: the tree's API reference (:mod:`generator.api`), published with the
    pages, which link their ``[name][]`` references through it. ``updated``: the day
    (``YYYY-MM-DD``) each page's source (by its path in ``tree``) last changed in git.
    ``relative_url``: a site path as a link to it (``baseurl`` in front). ``outer``: what a
    reference none of the section's pages resolves leads to (the site's posts and pages).
    """
    base = tree / DOCS_DIR
    sources, others = [], []
    for path in sorted(base.rglob("*")):
        rel = path.relative_to(base)
        if not path.is_file() or any(part.startswith(".") for part in rel.parts):
            continue
        if path.suffix in suffixes():
            sources.append(load_source(tree, "docs", path.relative_to(tree)))
        else:
            others.append((rel.as_posix(), path))
    documents = [_place(doc, prefix) for doc in parse(sources, tree)]
    pages = table_of_contents(documents, prefix)
    context = {"version": version, "root": prefix, "pages": pages, "editable": editable,
               "tutorials": None, "tutorial_pages": [], "api": reference.nav if reference else [],
               "trail": [], "updated": None}     # a docs page's own: its breadcrumbs, its last change
    from generator import myst

    texts = {source.path: [source.body] for source in sources if source.is_markdown}
    body_lines = {source.path: source.body_line for source in sources}
    labels = myst.Labels(outer=outer)
    for doc in documents:
        labels.add(tree / doc.source, relative_url(doc.url), doc.title, texts.get(doc.source, []))
    made = tutorials(context, labels) if tutorials else Tutorials()
    documents = [_linked(doc, labels, tree) for doc in documents]
    section = Section(prefix, tutorials=made.stats)
    if reference:
        for rel, data in made.items():
            if rel.endswith(".html"):
                made[rel] = reference.link(data.decode("utf-8"), tree, made.origins[rel],
                                           gallery_url(prefix) + rel).encode("utf-8")
    section.mount(TUTORIALS_DIR, made)
    for rel, path in others:
        section.add(rel, path.read_bytes(), path.relative_to(tree))
    if made:
        context = {**context, "tutorials": gallery_url(prefix), "tutorial_pages": made.pages}
    for doc in documents:
        content = doc.content if reference is None else \
            reference.link(doc.content, tree, doc.source.as_posix(), doc.url)
        html = render(f"{doc.layout}.html", doc.source, page=doc, content=Markup(content),
                      docs={**context, **neighbours(pages, doc.url), "trail": trail(pages, doc.url, prefix),
                            "updated": updated.get(doc.source.as_posix())})
        section.add(output_path(doc.url).removeprefix(prefix.lstrip("/")), html.encode("utf-8"), doc.source)
    if reference:
        for rel, data, origin in reference.files(tree, prefix, render, context):
            section.add(rel, data, origin)
    repeated = (warning(message, doc.source, body_lines[doc.source] + target.line - 1)
                for doc in documents for target, message in labels.repeats(tree / doc.source).values())
    section.warnings = [*made.warnings, *(w for doc in documents for w in doc.reported), *repeated,
                        *(reference.warnings if reference else ())]
    if editable:        # the author's tree: a version from a git ref is past mending
        section.linked = [*(Linked(doc.source.as_posix(), doc.url, doc.links, doc.anchors)
                            for doc in documents), *made.linked]
    return section


def _linked(doc: Document, labels: myst.Labels, tree: Path) -> Document:
    """``doc`` with the MyST references to other docs pages and tutorials (which its parse did
    not know) linked in its content and its excerpt (its description's text), and their
    warnings dropped."""
    if "myst-unresolved" not in doc.content:
        return doc
    from generator import myst

    find = labels.document(tree / doc.source).find
    content, found = myst.resolve(doc.content, find)
    return dataclasses.replace(doc, content=content, excerpt=myst.resolve(doc.excerpt, find)[0],
                               warnings=tuple(w for w in doc.warnings if not myst.settled(w, found)))


def neighbours(pages: list[dict[str, str]], url: str) -> dict[str, dict[str, str] | None]:
    """The pages before and after ``url`` in reading order (``docs.previous``, ``docs.next``)."""
    at = next(i for i, item in enumerate(pages) if item["url"] == url)
    return {"previous": pages[at - 1] if at else None, "next": pages[at + 1] if at + 1 < len(pages) else None}


def trail(pages: list[dict[str, str]], url: str, prefix: str) -> list[dict[str, str]]:
    """The pages above ``url`` (its breadcrumbs): the section's index, then the index of
    each folder holding it that has one."""
    if url == prefix:
        return []
    by_url = {item["url"]: item for item in pages}
    folders = url.removeprefix(prefix).rstrip("/").split("/")[:-1]
    above = (prefix + "".join(f"{name}/" for name in folders[:depth]) for depth in range(len(folders) + 1))
    return [by_url[folder] for folder in above if folder in by_url]


def _place(doc: Document, prefix: str) -> Document:
    """A docs page's URL is its path below content/docs: the tree is the navigation."""
    if "permalink" in doc.meta:
        raise SiteError("docs pages take their URL from their path: remove 'permalink'", doc.source)
    rel = doc.source.relative_to(DOCS_DIR).with_suffix(".html").as_posix()
    return dataclasses.replace(doc, url=page_url(prefix, rel))


def table_of_contents(documents: list[Document], prefix: str) -> list[dict[str, str]]:
    """The section's pages in reading order: the index, then by ``order`` and title."""
    def position(doc: Document) -> tuple:
        order = doc.meta.get("order")
        return (doc.url != prefix, order if isinstance(order, (int, float)) else float("inf"),
                doc.title.lower())
    return [{"title": doc.title, "url": doc.url} for doc in sorted(documents, key=position)]
