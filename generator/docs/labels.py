"""The tutorials' part of the site's MyST label table, and what it says of labels shared.

A post or page reaches a tutorial's labels as it reaches a docs page's
(:func:`generator.references.site_labels`). A notebook is read for them only when it
changed: each one's slug, title and labels are kept by its digest as the build's scan
knows it. The build gives the site :func:`tutorial_pages` (the site table's module may
not import the notebooks', which import the site's). The modules that read Markdown and
notebooks are imported when a table is made or a shared label found: a build whose site
has no label loads none of them here.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.cache import DataCache, digest, local_key
from generator.config import Config
from generator.errors import SiteError, warning

if TYPE_CHECKING:
    from generator.myst import Labels
    from generator.notebooks.sources import Tutorial
    from generator.references import TutorialPage


def tutorial_pages(config: Config, file_digest: Callable[[str], str | None]) -> list[TutorialPage]:
    """The author's tutorials' pages and labels, in the gallery of the author's docs section:
    each notebook's as last read while its digest (``file_digest`` of its path in the site),
    site.yaml's settings for it (which may title it) and the code stay the same."""
    from generator.docs.section import gallery_url
    from generator.engine.documents import code_digest
    from generator.notebooks.sources import discover
    from generator.references import docs_prefix

    prefix = docs_prefix(config)
    if prefix is None:
        return []
    cache = DataCache(config.state_dir / "cache" / "tutorial-labels", "tutorial-labels",
                      local_key(config.state_dir), _well_formed)
    pages = []
    for rel in discover(config.root, config.notebooks.exclude):
        found = file_digest(rel.as_posix())
        if found is None:
            continue
        key = digest(rel.as_posix(), found, code_digest(), repr(config.notebooks.settings_for(rel)))
        page = cache.get(key)
        if page is None:
            try:
                page = _read(config, rel)
            except SiteError:       # the docs section's build says what is wrong with it
                continue
            cache.put(key, page)
        slug, title, targets = page
        pages.append((config.root / rel, f"{gallery_url(prefix)}{slug}.html", title, targets))
    return pages


def _read(config: Config, rel: Path) -> tuple[str, str, tuple[tuple, ...]]:
    """A tutorial's slug, title and labels (as :func:`generator.myst.targets_of` gives them)."""
    from generator.myst import Target, scan
    from generator.notebooks.render import markdown_sources, page_title
    from generator.notebooks.sources import load_tutorial
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


def shared_with_posts(site: Any) -> tuple[str, ...]:
    """Warnings of the docs pages' and tutorials' labels that a post or page has too: the site's
    table leads the posts' and pages' references to the post's or page's (it comes first), the
    docs section its own to its own. Each at its file and line (a tutorial's: cell and line);
    the files are read only when such a label is there."""
    posted = {target[0] for doc in site.documents for target in doc.targets}
    if not posted:
        return ()
    from generator.myst import targets_of
    from generator.notebooks.sources import discover, load_tutorial
    from generator.references import docs_sources

    labels, config = site.labels, site.config
    shared = {key: repeated.keys() & posted for key, repeated in labels.repeated.items()}
    if not any(shared.values()):
        return ()
    found: list[str] = []
    for path, source in docs_sources(config):
        own = {label: line for label, *_, line in targets_of(source.body, source.body_line)}
        found += [warning(_shared(label, labels), source.path, own[label])
                  for label in sorted(shared.get(os.path.splitext(path)[0], ()))]
    for rel in discover(config.root, config.notebooks.exclude):
        wanted = shared.get(os.path.splitext(config.root / rel)[0])
        try:
            found += _in_cells(load_tutorial(config.root, rel), wanted, labels) if wanted else []
        except SiteError:       # as in tutorial_pages
            continue
    return tuple(found)


def _in_cells(tutorial: Tutorial, wanted: set[str], labels: Labels) -> list[str]:
    """The warnings of :func:`shared_with_posts` of ``tutorial``'s labels ``wanted``, at their cells."""
    from generator.myst import Target, scan
    from generator.notebooks.rst import roles_to_markdown

    found = []
    for index, cell in enumerate(tutorial.notebook.cells):
        own: dict[str, Target] = {}
        if cell.cell_type == "markdown":
            scan(roles_to_markdown(cell.source), own)
        for label in sorted(wanted & own.keys()):
            path, line = tutorial.locate(index)
            found.append(warning(f"cell {index + 1}: line {own[label].line}: {_shared(label, labels)}", path, line))
            wanted = wanted - {label}
    return found


def _shared(label: str, labels: Labels) -> str:
    return (f"duplicate label {label!r}: {labels.targets[label].url} has it too (the posts' and pages' "
            "references to it lead there)")
