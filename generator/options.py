"""What a build is asked to do, beside the site's own files: the command line's options."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class BuildOptions:
    drafts: bool = False
    future: bool = False
    refresh: bool = False
    rerun: tuple[str, ...] = ()         # tutorials to execute again whatever the cache holds
    now: datetime | None = None
    allow_removals: bool = False    # let a build remove more than half of the output folder's files
