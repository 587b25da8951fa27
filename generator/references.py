"""The site's MyST labels in one table: what a reference in a post or page resolves against.

Posts and pages give theirs from their parse (``Document.targets``), each at the URL
placement gave it; the docs pages of the author's tree theirs, read from their sources,
and its tutorials theirs (given: :func:`generator.docs.labels.tutorial_pages`), at the
URLs the docs section publishes them (``/docs/``, or the worktree version's
``/docs/<name>/``): a blog post may link a docs page or a tutorial, or a section of one, as
a docs page does. Docs pages and tutorials resolve theirs in the docs section
(:func:`generator.docs.section.render_section`). A render asks the table through
:func:`generator.deps.asked`, which records each question.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from generator.config import Config
from generator.errors import SiteError
from generator.layout import DOCS
from generator.myst import Labels, Target
from generator.readers import MarkdownReader
from generator.sources import Source, load_source
from generator.urls import page_url


TutorialPage = tuple[Path, str, str, tuple[tuple, ...]]   # source, URL, title, labels (as Document.targets)


def site_labels(documents: Iterable[Any], config: Config, tutorials: Iterable[TutorialPage] = ()) -> Labels:
    """The labels of ``documents`` (the site's posts and pages), of the author's docs pages and
    of ``tutorials`` (its tutorials' pages), in that order: a label's first page is the one
    a reference to it leads to."""
    labels = Labels.of_documents(documents, config.root)
    prefix = docs_prefix(config)
    if prefix is None:
        return labels
    for path, source in docs_sources(config):
        rel = path.relative_to(config.root / DOCS)
        labels.add(path, page_url(prefix, rel.with_suffix(".html").as_posix()),
                   str(source.meta.get("title", rel.stem)), [source.body])
    for path, url, title, targets in tutorials:
        labels.place(path, url, title, {label: Target(*rest) for label, *rest in targets})
    return labels


def docs_sources(config: Config) -> Iterator[tuple[Path, Source]]:
    """The author's docs pages, each its path and its source (one that cannot be read is left
    to the docs section's build, which says what is wrong with it)."""
    base = config.root / DOCS
    if not base.is_dir():
        return
    for path in sorted(p for suffix in MarkdownReader.suffixes for p in base.rglob(f"*{suffix}")):
        rel = path.relative_to(base)
        if any(part.startswith(".") for part in rel.parts) or not path.is_file():
            continue
        try:
            source = load_source(config.root, "docs", path.relative_to(config.root))
        except SiteError:       # the docs section's build says what is wrong with it
            continue
        yield path, source


def docs_prefix(config: Config) -> str | None:
    """Where the docs section of the author's tree is published: ``/docs/``, or the worktree
    version's folder; None when no version is built from it."""
    if not config.versions:
        return "/docs/"
    return next((f"/docs/{version.name}/" for version in config.versions if version.worktree), None)
