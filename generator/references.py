"""The site's MyST labels in one table: what a reference in a post or page resolves against.

Posts and pages give theirs from their parse (``Document.targets``), each at the URL
placement gave it; the docs pages of the author's tree theirs, read from their sources,
at the URL the docs section publishes them (``/docs/``, or the worktree version's
``/docs/<name>/``): a blog post may link a docs page, or a section of one, as a docs
page does. Docs pages and tutorials resolve theirs in the docs section
(:func:`generator.docs.section.render_section`).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from generator.config import Config
from generator.deps import record
from generator.docs.section import DOCS_DIR, page_url
from generator.errors import SiteError
from generator.myst import Labels, Target, resolve
from generator.readers import MarkdownReader
from generator.sources import load_source


def site_labels(documents: Iterable[Any], config: Config) -> Labels:
    """The labels of ``documents`` (the site's posts and pages) and of the author's docs pages."""
    labels = Labels.of_documents(documents, config.root)
    prefix = docs_prefix(config)
    base = config.root / DOCS_DIR
    if prefix is None or not base.is_dir():
        return labels
    for path in sorted(p for suffix in MarkdownReader.suffixes for p in base.rglob(f"*{suffix}")):
        rel = path.relative_to(base)
        if any(part.startswith(".") for part in rel.parts) or not path.is_file():
            continue
        try:
            source = load_source(config.root, "docs", path.relative_to(config.root))
        except SiteError:       # the docs section's build says what is wrong with it
            continue
        labels.add(path, page_url(prefix, rel.with_suffix(".html").as_posix()),
                   str(source.meta.get("title", rel.stem)), [source.body])
    return labels


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
