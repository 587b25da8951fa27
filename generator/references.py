"""The site's MyST labels in one table: what a reference in a post or page resolves against.

Posts and pages give theirs from their parse (``Document.targets``), each at the URL
placement gave it; the docs pages of the author's tree theirs, read from their sources,
and its tutorials theirs, read from their Markdown cells (kept by the notebook's digest, so
a build reads only the notebooks that changed), at the URLs the docs section publishes them
(``/docs/``, or the worktree version's ``/docs/<name>/``): a blog post may link a docs page
or a tutorial, or a section of one, as a docs page does. Docs pages and tutorials resolve
theirs in the docs section (:func:`generator.docs.section.render_section`).
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from generator.cache import DataCache, digest, local_key
from generator.config import Config
from generator.deps import record
from generator.docs.section import DOCS_DIR, gallery_url, page_url
from generator.engine.documents import code_digest
from generator.errors import SiteError, warning
from generator.myst import Labels, Target, resolve, scan, targets_of
from generator.notebooks.sources import discover, load_tutorial
from generator.readers import MarkdownReader
from generator.sources import Source, load_source


def site_labels(documents: Iterable[Any], config: Config,
                file_digest: Callable[[str], str | None] | None = None) -> Labels:
    """The labels of ``documents`` (the site's posts and pages), of the author's docs pages and
    of its tutorials (``file_digest``: a file's digest by its path in the site, as the build's
    scan knows it; else read)."""
    labels = Labels.of_documents(documents, config.root)
    prefix = docs_prefix(config)
    if prefix is None:
        return labels
    add_docs_pages(labels, config, prefix)
    add_tutorials(labels, config, prefix, file_digest or functools.partial(_read_digest, config.root))
    return labels


def add_docs_pages(labels: Labels, config: Config, prefix: str) -> None:
    for path, source in _docs_sources(config):
        rel = path.relative_to(config.root / DOCS_DIR)
        labels.add(path, page_url(prefix, rel.with_suffix(".html").as_posix()),
                   str(source.meta.get("title", rel.stem)), [source.body])


def _docs_sources(config: Config) -> Iterable[tuple[Path, Source]]:
    """The author's docs pages, each its path and its source (one that cannot be read is left
    to the docs section's build, which says what is wrong with it)."""
    base = config.root / DOCS_DIR
    if not base.is_dir():
        return
    for path in sorted(p for suffix in MarkdownReader.suffixes for p in base.rglob(f"*{suffix}")):
        rel = path.relative_to(base)
        if any(part.startswith(".") for part in rel.parts) or not path.is_file():
            continue
        try:
            yield path, load_source(config.root, "docs", path.relative_to(config.root))
        except SiteError:
            continue


def shared_with_posts(site: Any) -> tuple[str, ...]:
    """Warnings of the docs pages' and tutorials' labels that a post or page has too: the site's
    table leads the posts' and pages' references to the post's or page's (it comes first), the
    docs section its own to its own. Each at its file and line (a tutorial's: cell and line);
    the files are read only when such a label is there."""
    posted = {target[0] for doc in site.documents for target in doc.targets}
    if not posted:
        return ()
    labels, config = site.labels, site.config
    shared = {key: repeated.keys() & posted for key, repeated in labels.repeated.items()}
    found: list[str] = []
    for path, source in _docs_sources(config) if any(shared.values()) else ():
        own = {label: line for label, *_, line in targets_of(source.body, source.body_line)}
        found += [warning(_shared(label, labels.targets[label]), source.path, own[label])
                  for label in sorted(shared.get(os.path.splitext(path)[0], ()))]
    for rel in discover(config.root) if any(shared.values()) else ():
        wanted = shared.get(os.path.splitext(config.root / rel)[0])
        try:
            found += _in_cells(load_tutorial(config.root, rel), wanted, labels) if wanted else []
        except SiteError:       # as in add_tutorials
            continue
    return tuple(found)


def _in_cells(tutorial: Any, wanted: set[str], labels: Labels) -> list[str]:
    """The warnings of :func:`shared_with_posts` of ``tutorial``'s labels ``wanted``, at their cells."""
    from generator.notebooks.rst import roles_to_markdown

    found = []
    for index, cell in enumerate(tutorial.notebook.cells):
        own: dict[str, Target] = {}
        if cell.cell_type == "markdown":
            scan(roles_to_markdown(cell.source), own)
        for label in sorted(wanted & own.keys()):
            path, line = tutorial.locate(index)
            found.append(warning(f"cell {index + 1}: line {own[label].line}: {_shared(label, labels.targets[label])}",
                                 path, line))
            wanted = wanted - {label}
    return found


def _shared(label: str, first: Target) -> str:
    return (f"duplicate label {label!r}: {first.url} has it too (the posts' and pages' references to it "
            "lead there)")


def add_tutorials(labels: Labels, config: Config, prefix: str, file_digest: Callable[[str], str | None]) -> None:
    """The tutorials' pages and labels, in the gallery below ``prefix``: each notebook's as last
    read while its digest (and site.yaml's settings for it, which may title it) stays the same."""
    cache = DataCache(config.state_dir / "cache" / "tutorial-labels", "tutorial-labels",
                      local_key(config.state_dir), _well_formed)
    for rel in discover(config.root):
        name = rel.as_posix()
        found = file_digest(name)
        if found is None:
            continue
        key = digest(name, found, code_digest(), repr(config.notebooks.settings_for(rel)))
        page = cache.get(key)
        if page is None:
            try:
                page = _tutorial_page(config, rel)
            except SiteError:       # the docs section's build says what is wrong with it
                continue
            cache.put(key, page)
        slug, title, targets = page
        labels.place(config.root / rel, f"{gallery_url(prefix)}{slug}.html", title,
                     {label: Target(*rest) for label, *rest in targets})


def _tutorial_page(config: Config, rel: Path) -> tuple[str, str, tuple[tuple, ...]]:
    """A tutorial's slug, title and labels (as :func:`generator.myst.targets_of` gives them)."""
    from generator.notebooks.render import markdown_sources, page_title
    from generator.notebooks.spec import metadata_of

    tutorial = load_tutorial(config.root, rel, config.notebooks.problems)
    texts = markdown_sources(tutorial.notebook)
    own: dict[str, Target] = {}
    for text in texts:
        scan(text, own)
    title = page_title(tutorial, metadata_of(tutorial, config.notebooks).title, texts)
    return tutorial.slug, title, tuple((label, t.url, t.title, t.number, t.kind, t.line) for label, t in own.items())


def _well_formed(page: Any) -> bool:
    return (isinstance(page, tuple) and len(page) == 3 and all(isinstance(part, str) for part in page[:2])
            and isinstance(page[2], tuple) and all(isinstance(t, tuple) and len(t) == 6 for t in page[2]))


def _read_digest(root: Path, name: str) -> str | None:
    try:
        return digest((root / name).read_bytes())
    except OSError:
        return None


def asked(site: Any, url: Callable[[str], str]) -> Callable[[Path, str, str], Target | None]:
    """``site``'s table (:attr:`generator.site.Site.labels`) as a render asks it (a post's, or the
    docs section's for what its own pages and tutorials do not resolve), targets at ``url(path)``
    (``baseurl`` in front): each question a key, so what asked it is made again when the answer
    changes (the target's heading edited, the label coming or going)."""
    root = site.config.root

    def find(source: Path, role: str, text: str) -> Target | None:
        if not source.is_relative_to(root):     # a docs version's tree: the site is not its
            return None
        record(("ref", source.relative_to(root).as_posix(), role, text))
        target = site.labels.find(source, role, text)
        return target and dataclasses.replace(target, url=url(target.url))

    return find


def linked(site: Any, source: Path, html: str) -> str:
    """``html`` of the post or page of ``source`` (its content, its excerpt: on its own page, in a
    listing, in a feed) with the MyST references its parse left unresolved linked by ``site``'s
    table, ``baseurl`` in front."""
    from generator.render import relative_url

    record(("setting", "baseurl"))
    find = asked(site, functools.partial(relative_url, site.config))
    return resolve(html, functools.partial(find, site.config.root / source))[0]


def docs_prefix(config: Config) -> str | None:
    """Where the docs section of the author's tree is published: ``/docs/``, or the worktree
    version's folder; None when no version is built from it."""
    if not config.versions:
        return "/docs/"
    return next((f"/docs/{version.name}/" for version in config.versions if version.worktree), None)
