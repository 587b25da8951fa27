"""``sitegen init`` and ``sitegen new``: start a site, or a source file with its front matter filled in."""

from __future__ import annotations

import colorsys
from datetime import datetime
from html import escape
from pathlib import Path

import yaml

from generator.configure import load_config
from generator.errors import SiteError
from generator.notebooks.environment import EXTRA, can_run
from generator.placement import timezone_of
from generator.site import slugify

MAX_SLUG = 60


KINDS = ("project", "blog", "docs")     # what `sitegen init --kind` starts; a project site has both
NEW_KINDS = ("post", "page", "doc", "tutorial")


def new_source(root: str | Path, kind: str, title: str, now: datetime | None = None) -> Path:
    """Create the source of a new ``kind`` (:data:`NEW_KINDS`) titled ``title``; never overwrite.

    A post is a draft, as Hugo's archetype starts one: ``build --drafts`` shows it until
    the line goes. Pages, docs pages and tutorials are published at once.
    """
    config = load_config(root)
    title = title.strip()
    if not title:
        raise SiteError(f'the title is empty (sitegen new {kind} "My title")')
    slug = slugify(title)[:MAX_SLUG].rstrip("-")   # file names have a limit (255 bytes); URLs are better short
    if kind == "post":
        now = now or datetime.now(timezone_of(config))
        rel = f"content/posts/{now:%Y-%m-%d}-{slug}.md"
        front = {"title": title, **({"author": config.author} if config.author else {}),
                 "date": now.strftime("%Y-%m-%d %H:%M:%S %z"), "draft": True, "tags": [], "categories": []}
        text = _front_matter(front) + "\nWrite here.\n"
    elif kind == "page":
        rel = f"content/pages/{slug}.md"
        text = _front_matter({"title": title}) + f"\nWrite here. This page is published at /{slug}.html.\n"
    elif kind == "doc":
        rel = f"content/docs/{slug}.md"
        text = _front_matter({"title": title, "order": 100}) + "\nWrite here. `order:` places the page in the sidebar.\n"
    elif kind == "tutorial":
        rel = f"notebooks/{slug}.py"
        text = TUTORIAL.format(title=title)
    else:
        raise SiteError(f"cannot start a {kind!r}: choose one of {', '.join(NEW_KINDS)}")
    path = config.root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with path.open("x", encoding="utf-8") as f:
            f.write(text)
    except FileExistsError:
        raise SiteError("already exists: refusing to overwrite it", Path(rel)) from None
    return Path(rel)


def _front_matter(front: dict) -> str:
    return "---\n" + yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=1_000_000) + "---\n"


def init_site(dest: str | Path, now: datetime | None = None, kind: str = "project",
              tutorial: bool | None = None) -> list[Path]:
    """Start a site in ``dest`` (new or empty) with the default theme: site.yaml, a home and an
    about page and a favicon; a blog adds a post, docs add docs pages and a tutorial (by
    default only where tutorials can run: the kernel stack is an extra).

    Nothing else is needed: templates and assets come from the theme inside the
    package until the site adds its own ``templates/`` or ``assets/`` files.
    """
    if kind not in KINDS:
        raise SiteError(f"--kind {kind}: choose one of {', '.join(KINDS)}")
    dest = Path(dest)
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise SiteError("already exists and is not an empty folder: give a new folder's name", dest)
    now = now or datetime.now().astimezone()
    name = dest.resolve().name
    title = name.replace("-", " ").replace("_", " ").strip().title() or "My site"
    blog, docs = kind in ("project", "blog"), kind in ("project", "docs")
    nav = [*(["  - {title: Blog, url: /blog.html}"] if blog else []),
           *(["  - {title: Docs, url: /docs/}"] if docs else []),
           "  - {title: About, url: /about.html}"]
    files = {
        "site.yaml": STARTER_CONFIG.format(title=title, nav="\n".join(nav)) + ("" if blog else NO_BLOG),
        "content/pages/index.md": STARTER_HOME.format(
            title=title, links=" and ".join([*(["the [blog](/blog.html) lists the posts"] if blog else []),
                                             *(["the [docs](/docs/) begin here"] if docs else [])])),
        "content/pages/about.md": STARTER_ABOUT,
        "assets/favicon.svg": favicon(title),
        "assets/social-card.png": social_card(title),
    }
    if blog:
        files[f"content/posts/{now:%Y-%m-%d}-welcome.md"] = STARTER_POST.format(
            date=now.strftime("%Y-%m-%d %H:%M:%S %z"))
    if docs:
        files["content/docs/index.md"] = STARTER_DOCS
        files["content/docs/install.md"] = STARTER_INSTALL
        if can_run() if tutorial is None else tutorial:
            files["notebooks/first-steps.py"] = TUTORIAL.format(title="First steps")
        else:
            files["content/docs/index.md"] = STARTER_DOCS.replace(TUTORIAL_LINK, NO_TUTORIAL)
    for rel, data in files.items():
        path = dest / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return [Path(rel) for rel in files]


def favicon(title: str) -> str:
    """The site's first letter on a square of a colour drawn from its name: a tab tells the
    site apart from the first build, and the browser's request for an icon finds one."""
    letter = next((c for c in title if c.isalnum()), "S").upper()
    hue = site_hue(title)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
            f'<rect width="64" height="64" rx="12" fill="hsl({hue}, 55%, 32%)"/>'
            f'<text x="32" y="45" font-family="sans-serif" font-size="38" font-weight="bold" '
            f'fill="#fff" text-anchor="middle">{escape(letter)}</text></svg>\n')


def site_hue(title: str) -> int:
    """The hue of the site's icon and card, drawn from its name."""
    return sum(title.encode()) * 47 % 360


def social_card(title: str) -> bytes:
    """The picture of the site's shared links (site.yaml social.image): its title on the icon's colour."""
    from generator.branding import to_hex
    from generator.outputs.social import draw

    return draw(title, "A site made with sitegen", None, to_hex(colorsys.hls_to_rgb(site_hue(title) / 360, 0.32, 0.55)))


STARTER_CONFIG = """\
# The site's settings: `sitegen help site.yaml` lists every key.
title: {title}
url: https://example.org
description: A site made with sitegen.
author: ""
timezone: UTC
social:
  image: /assets/social-card.png     # the picture of shared links (theme.social_cards draws one per page)
nav:
{nav}
"""

# A site without posts makes no empty blog, archives or feeds, and no page links them.
NO_BLOG = """\
# No blog: remove these lines to start one (sitegen new post "A title").
outputs: {blog: false, history: false, tags: false, categories: false, feeds: false}
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

Welcome. This page is `content/pages/index.md`; {links}.
"""

STARTER_ABOUT = """\
---
title: About
---

What this site is about. Pages live in `content/pages/`: `about.md` is published at `/about.html`.
"""

STARTER_DOCS = """\
---
title: Documentation
order: 1
---

The docs of this project. Each page of this section is a Markdown file in `content/docs/`.

## Add a page

`sitegen new doc "A title"` starts `content/docs/a-title.md`, which is published at
`/docs/a-title.html`. A page in a folder, such as `content/docs/guide/setup.md`, is
published in that folder, and the images beside it are published with it.

## Order the sidebar

This page, the section's index, comes first. The others follow by the `order:` in their
front matter, smallest first, then by title; a page without `order:` comes last. The
links to the previous and next page, at the foot of each, follow the same order.

## Contents and dates

A page with two or more `##` or `###` headings, like this one, lists them under "On this
page". Once the site is in git, each page ends with the day its source last changed.

## Tutorials

Tutorials live in `notebooks/`, as Jupyter notebooks or `.py` scripts of cells, and are
run when the site is built: see [First steps](tutorials/first-steps.html).
`sitegen help tutorials` tells more.
"""
TUTORIAL_LINK = "see [First steps](tutorials/first-steps.html)."
NO_TUTORIAL = f"running them needs {EXTRA}."

STARTER_INSTALL = """\
---
title: Install
order: 2
---

How to install the project: replace these steps with its own.

## With pip

```console
$ pip install example
```

## Check the installation

```console
$ python -c "import example; print(example.__version__)"
```

A code block is highlighted in the language named after its opening fence.
"""

TUTORIAL = """\
# %% [markdown]
# # {title}
#
# A tutorial is a script of cells (or a `.ipynb` notebook) that sitegen runs when it
# builds the site; its outputs are shown on the page.

# %%
squares = [n * n for n in range(6)]
print(squares)

# %% [markdown]
# The last value of a cell is shown too:

# %%
sum(squares)
"""
