"""Sass stylesheets (``.scss``, ``.sass``) of the static folders, compiled to ``.css`` at build time.

As Jekyll does for its Sass pages, and as a site's author expects of a preview
that recompiles on save: ``css/site.scss`` is published as ``css/site.css``;
files named ``_*`` are partials, only imported. libsass (the ``libsass``
package) compiles; site.yaml ``sass`` gives its load paths and output style.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from generator.config import SassSettings
from generator.deps import record
from generator.errors import SiteError

SUFFIXES = (".scss", ".sass")
_WHERE = re.compile(r"on line (\d+)(?::\d+)? of ([^,\n]+)")
_MODULE_RULE = re.compile(r"^[ \t]*@(use|forward)\b", re.M)


def is_sass(rel: str) -> bool:
    """Is ``rel`` a stylesheet to compile (not a partial, which only others import)?"""
    return rel.endswith(SUFFIXES) and not rel.rsplit("/", 1)[-1].startswith("_")


def css_path(rel: str) -> str:
    return rel.rsplit(".", 1)[0] + ".css"


def compile_sass(root: Path, rel: str, settings: SassSettings) -> str:
    """The CSS of the stylesheet ``rel``; a Sass error stops the build at its file and line.

    What it may import is recorded as read: every Sass file of its folder and of the load
    paths (libsass does not say which it opened), so an edit to any of them makes it again."""
    import sass     # with the job: a build with nothing to compile loads no libsass

    load_paths = [root / name for name in settings.load_paths]
    for folder in [(root / rel).parent, *load_paths]:
        for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
            if path.suffix in (*SUFFIXES, ".css") and path.is_file():
                record(("file", path.relative_to(root).as_posix()))
    record(("file", rel))
    try:
        css = sass.compile(filename=str(root / rel), include_paths=[str(p) for p in load_paths],
                           output_style=settings.style)
    except sass.CompileError as exc:
        message = str(exc).strip()
        where = _WHERE.search(message)
        first = message.split("\n", 1)[0].removeprefix("Error: ")
        if where is None:
            raise SiteError(f"Sass: {first}", rel) from None
        path = Path(os.path.normpath(Path.cwd() / where.group(2).strip()))   # named from the working folder
        shown = path.relative_to(root) if path.is_relative_to(root) else rel
        raise SiteError(f"Sass: {first}", shown, int(where.group(1))) from None
    module = _MODULE_RULE.search(css)
    if module:
        # libsass writes a rule it does not know into the CSS as it is: a stylesheet of
        # @use lines, which browsers ignore, would be published unstyled without a word.
        text = (root / rel).read_text(encoding="utf-8", errors="replace")
        here = _MODULE_RULE.search(text)       # else the rule is in a partial it imports
        raise SiteError(f"Sass: @{module.group(1)} is Dart Sass's module system, which libsass (sitegen's "
                        f"Sass) does not have: write @import instead", rel,
                        text.count("\n", 0, here.start()) + 1 if here else None)
    return css
