"""What one build records for the next, worked out from the stages' results."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from generator.deps import LINKED_FIELDS
from generator.engine.documents import Parsed
from generator.errors import SiteError
from generator.options import BuildOptions
from generator.site import Document, summary


CONTENT_FIELDS = [f.name for f in dataclasses.fields(Document) if f.name not in LINKED_FIELDS]


def entries_for(table: dict[str, Any], paths: Mapping[str, Any]) -> dict[str, Any]:
    """The entries of ``table`` for ``paths``: a copy where it holds no other (an edit's build)."""
    if table.keys() <= paths.keys():
        return dict(table)
    return {path: value for path, value in table.items() if path in paths}


def summaries_of(parsed: dict[str, Parsed], last: Mapping[str, tuple[str, dict]],
                 kept: Mapping[str, Parsed] = {}) -> dict[str, tuple[str, dict]]:
    """Source -> (parse key, :func:`summary` of its document): the last build's where the parse key
    and the warnings of unread keys are the same (the rest of a document is a function of its key).

    ``kept``: what the last build parsed, whose summaries ``last`` holds; a source still held
    as it was (the same object: the preview's rebuild after an edit) is not looked at again.
    """
    if kept and parsed.keys() == last.keys():
        summaries, look_at = dict(last), [source for source, p in parsed.items() if kept.get(source) is not p]
    else:
        summaries, look_at = {}, list(parsed)
    for source in look_at:
        p, entry = parsed[source], last.get(source)
        if entry is None or entry[0] != p.key or entry[1]["unread"] != p.document.unread:
            entry = (p.key, summary(p.document))
        summaries[source] = entry
    return summaries


def refuse_mass_removal(removed: set[str], present: int, out_dir: Path) -> None:
    """Stop a build that would remove more than half of the files in the output folder (those
    the last build made, and those it finds there that no build made).

    Such a build is more often a source folder gone missing (an unmounted
    disk, a bad checkout) or an output folder that holds someone else's files
    than an author's intent.
    """
    if len(removed) * 2 > present:
        first = ", ".join(f"/{path}" for path in sorted(removed)[:3])
        raise SiteError(f"this build would remove {len(removed)} of the {present} files in the output folder "
                        f"({first}, ...): if that is meant, build again with --allow-removals", out_dir)


def publication_floor(documents: Iterable[Document], now: datetime, options: BuildOptions) -> datetime | None:
    """The newest date of a post published now: before it, that post is in the future again."""
    if options.future:
        return None
    return max((doc.date for doc in documents if doc.kind == "post" and doc.date <= now), default=None)


def publication_horizon(documents: Iterable[Document], now: datetime, options: BuildOptions) -> datetime | None:
    """The earliest date at which a post held back for being in the future gets published."""
    if options.future:
        return None
    return min((doc.date for doc in documents if doc.kind == "post" and doc.date > now), default=None)
