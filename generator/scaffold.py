"""``sitegen new``: start a source file with the front matter filled in."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import yaml

from generator.config import load_config
from generator.errors import SiteError
from generator.site import slugify, timezone_of

MAX_SLUG = 60


def new_post(root: str | Path, title: str, now: datetime | None = None) -> Path:
    """Create ``content/posts/YYYY-MM-DD-slug.md`` for ``title``; never overwrite."""
    config = load_config(root)
    title = title.strip()
    if not title:
        raise SiteError('the title is empty (sitegen new post "My title")')
    now = now or datetime.now(timezone_of(config))
    slug = slugify(title)
    slug = slug[:MAX_SLUG].rstrip("-")  # file names have a limit (255 bytes); URLs are better short
    path = config.root / "content" / "posts" / f"{now:%Y-%m-%d}-{slug}.md"
    front = {"title": title, "author": config.author or "", "date": now.strftime("%Y-%m-%d %H:%M:%S %z"),
             "tags": [], "categories": []}
    text = "---\n" + yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=1_000_000) + "---\n\nWrite here.\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with path.open("x", encoding="utf-8") as f:
            f.write(text)
    except FileExistsError:
        raise SiteError("already exists: refusing to overwrite it", path.relative_to(config.root)) from None
    return path.relative_to(config.root)
