"""The front matter schema: the keys a post or page may set.

A key nothing reads is most often a typo (``tittle:``, ``catgories:``), which
would otherwise pass silently, so it is reported as a warning at its file and
line, as site.yaml's unknown keys are errors. Known are sitegen's own keys,
those Jekyll sites carry that mean nothing here but are harmless, the keys
plugins declare, and every ``page.meta.KEY`` the site's templates read.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from generator.errors import SiteError
from generator.plugins import extensions

KEYS = {
    "title": "the page's title (required)",
    "author": "one author or a list", "authors": "a list of authors",
    "date": "overrides the date of a post's file name",
    "tags": "a list of tags", "tag": "one tag, in place of tags (as Jekyll reads it)",
    "categories": "a list of categories", "category": "one category",
    "permalink": "the page's URL, or a pattern", "layout": "the template: LAYOUT.html",
    "draft": "true: built only with --drafts", "published": "false: as draft: true (Jekyll)",
    "excerpt": "the summary in lists and feeds", "description": "the page's meta description",
    "redirect_from": "old URLs that lead here", "source": "the file a `layout: source` page lists",
    "order": "a docs page's place in the sidebar",
    "untitled": "true: the title is only sitegen's (`import jekyll` gave a page without one its file's name); "
                "Liquid's page.title is nil, as in Jekyll",
}
# Keys Jekyll sites (and `sitegen import jekyll`) carry that sitegen does not use: not typos.
JEKYLL_KEYS = {"excerpt_separator", "image", "lang", "last_modified_at", "sitemap", "slug", "comments"}
TEMPLATE_META = re.compile(r"""page\.meta(?:\.get\(\s*["']([^"']+)["']|\[["']([^"']+)["']\]|\.([A-Za-z_]\w*))""")


def known_keys(template_dirs: Iterable[Path] = ()) -> set[str]:
    """Every key a source may set without a warning."""
    known = set(KEYS) | JEKYLL_KEYS | extensions().front_matter
    for folder in template_dirs:
        for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
            if path.is_file():
                for match in TEMPLATE_META.finditer(path.read_text(encoding="utf-8", errors="replace")):
                    known.add(next(name for name in match.groups() if name))
    return known


def unknown_keys(meta: dict[str, Any], known: set[str], path: Path, text: str | None = None) -> list[SiteError]:
    """A warning for each key of ``meta`` not in ``known``, at its line in ``text`` (the file)."""
    warnings = []
    for key in meta:
        if str(key) in known:
            continue
        close = difflib.get_close_matches(str(key), sorted(known), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        warnings.append(SiteError(f"unknown front matter key '{key}'{hint}", path, key_line(text, str(key))))
    return warnings


def key_line(text: str | None, key: str) -> int | None:
    """The line of top-level ``key:`` in the front matter of ``text``."""
    if text is None:
        return None
    pattern = re.compile(rf"""^["']?{re.escape(key)}["']?\s*:""")
    for number, line in enumerate(text.splitlines()[1:], start=2):
        if line.rstrip() in ("---", "..."):
            return None
        if pattern.match(line):
            return number
    return None
