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
    # A draft, as Hugo's archetype starts one: `build --drafts` shows it until the line goes.
    front = {"title": title, **({"author": config.author} if config.author else {}),
             "date": now.strftime("%Y-%m-%d %H:%M:%S %z"), "draft": True, "tags": [], "categories": []}
    text = "---\n" + yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=1_000_000) + "---\n\nWrite here.\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with path.open("x", encoding="utf-8") as f:
            f.write(text)
    except FileExistsError:
        raise SiteError("already exists: refusing to overwrite it", path.relative_to(config.root)) from None
    return path.relative_to(config.root)


def init_site(dest: str | Path, now: datetime | None = None) -> list[Path]:
    """Start a site in ``dest`` (new or empty): site.yaml, a post and two pages, the default theme.

    Nothing else is needed: templates and assets come from the theme inside the
    package until the site adds its own ``templates/`` or ``assets/`` files.
    """
    dest = Path(dest)
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise SiteError("already exists and is not an empty folder: give a new folder's name", dest)
    now = now or datetime.now().astimezone()
    name = dest.resolve().name
    title = name.replace("-", " ").replace("_", " ").strip().title() or "My site"
    files = {
        "site.yaml": STARTER_CONFIG.format(title=title),
        f"content/posts/{now:%Y-%m-%d}-welcome.md": STARTER_POST.format(date=now.strftime("%Y-%m-%d %H:%M:%S %z")),
        "content/pages/index.md": STARTER_HOME.format(title=title),
        "content/pages/about.md": STARTER_ABOUT,
    }
    for rel, text in files.items():
        path = dest / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return [Path(rel) for rel in files]


STARTER_CONFIG = """\
# The site's settings: see sitegen's README for every key.
title: {title}
url: https://example.org
description: A site made with sitegen.
author: ""
timezone: UTC
nav:
  - {{title: Blog, url: /blog.html}}
  - {{title: About, url: /about.html}}
"""

STARTER_POST = """\
---
title: Welcome
date: {date}
tags: [news]
---

This is the first post. Posts live in `content/posts/`, named `YYYY-MM-DD-slug.md`;
`sitegen new post "A title"` starts one.
"""

STARTER_HOME = """\
---
title: {title}
---

Welcome. This page is `content/pages/index.md`; the [blog](/blog.html) lists the posts.
"""

STARTER_ABOUT = """\
---
title: About
---

What this site is about. Pages live in `content/pages/`: `about.md` is published at `/about.html`.
"""
