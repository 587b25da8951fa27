"""An executed notebook as an HTML fragment for a tutorial page.

Cells become plain view objects that the site's own templates draw
(``templates/notebook/*.html``): Markdown cells through the site's Markdown
pipeline (with Jupyter's ``$x$`` math, rewritten for KaTeX), code through
Pygments, and each output in the richest form that is safe to show. Images are
written as files beside the page, never inlined as base64; Markdown cells,
attachments and outputs are sanitized unless the site trusts the notebook; a
text output over the size limit is cut. Ids are unique on the page.

A broken output or a missing image is a problem of its cell: an error naming
the file, cell and output, or with ``notebooks.problems: warn`` a warning and
a note on the page in its place.

Display-only tags shape the page and nothing else: ``remove-cell``,
``remove-input``, ``remove-output`` leave parts out; ``hide-input`` and
``hide-output`` fold them away.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import html
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from markupsafe import Markup, escape
from nbformat import NotebookNode

from generator.config import Notebooks
from generator.errors import SiteError
from generator.highlight import highlight
from generator.markdown import kramdown_id, render_markdown
from generator.notebooks import formulas, sanitize
from generator.notebooks.anchors import PageIds, jupyter_id
from generator.notebooks.sources import Tutorial
from generator.render import Renderer

PRIORITY = ("application/javascript", "text/html", "image/svg+xml", "image/png", "image/jpeg",
            "image/gif", "text/markdown", "text/latex", "text/plain")
IMAGE_SUFFIX = {"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/svg+xml": ".svg"}
IMAGE_SIGNATURES = {"image/png": (b"\x89PNG\r\n\x1a\n",), "image/jpeg": (b"\xff\xd8\xff",),
                    "image/gif": (b"GIF87a", b"GIF89a")}
DATA_IMAGE = re.compile(r"^data:(image/(?:png|jpeg|gif|svg\+xml))(;base64)?,(.*)$", re.S | re.I)
DEFAULT_REPR = re.compile(r"^<.*>$", re.S)
LINKING_TAG = re.compile(r"<(img|a)\b[^>]*>", re.I)
URL_ATTRIBUTE = re.compile(r"""(\s(?:src|href)\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""", re.I)
TITLE = re.compile(r"^\s*#(?!#)\s*(.+?)\s*#*\s*$")
H1 = re.compile(r"<(/?)h1\b")
FIRST_PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.S)


@dataclass
class Output:
    """One output as the templates see it; ``kind`` picks the partial's branch."""

    kind: str           # stream, text, html, image, latex, javascript, error, omitted
    html: str = ""      # Markup for html/markdown/stream/error/javascript
    text: str = ""
    name: str = ""      # stdout or stderr, for streams
    src: str = ""       # site URL of an image file
    alt: str = ""
    width: int | None = None
    height: int | None = None
    note: str = ""


@dataclass
class Cell:
    kind: str                       # markdown or code
    number: int                     # position in the notebook file, from 1
    html: str = ""                  # rendered Markdown
    input: str | None = None        # highlighted code; None when removed
    execution_count: int | None = None
    outputs: list[Output] = field(default_factory=list)
    fold_input: bool = False
    fold_outputs: bool = False


@dataclass
class RenderedNotebook:
    html: str                       # the cells, for the tutorial page's ``content``
    files: dict[str, bytes]         # images, by name within the tutorial's asset folder
    title: str
    description: str
    thumbnail: str | None           # site URL of the first image output
    heading: dict[str, str | None] = field(default_factory=dict)    # the title's id and Jupyter alias
    warnings: list[SiteError] = field(default_factory=list)


class BadImage(ValueError):
    """Image data that cannot be published as an image file."""


class NotebookRenderer:
    """Renders the cells of one tutorial, collecting the image files they need."""

    def __init__(self, tutorial: Tutorial, settings: Notebooks, renderer: Renderer, asset_url: str,
                 pages: dict[Path, str] | None = None):
        self.tutorial = tutorial
        self.settings = settings
        self.trusted = settings.trusts(tutorial.path)
        self.renderer = renderer
        self.asset_url = asset_url          # e.g. /docs/v2/tutorials/scan/
        self.pages = pages or {}            # each tutorial's source file (absolute) -> its page's URL
        self.language = "python"
        self.files: dict[str, bytes] = {}
        self.thumbnail: str | None = None
        self.problems: list[SiteError] = []
        self.warnings: list[SiteError] = []
        self.macros: frozenset[str] = frozenset()     # commands the notebook's math defines

    def render(self, notebook: NotebookNode, title: str | None, description: str | None) -> RenderedNotebook:
        """Render ``notebook`` (the tutorial's cells with their outputs)."""
        info = notebook.metadata.get("language_info", {})
        self.language = info.get("pygments_lexer") or info.get("name") or \
            notebook.metadata.get("kernelspec", {}).get("language") or "python"
        start = 1 if self.tutorial.colab_cell else 0
        self.macros = formulas.defined_commands(_math_texts(notebook.cells))
        cells, found_title, first_markdown = [], None, True
        for index, cell in enumerate(notebook.cells[start:], start=start):
            tags = set(cell.metadata.get("tags", ()))
            if "remove-cell" in tags or cell.cell_type == "raw":
                continue
            if cell.cell_type == "markdown":
                source = cell.source
                if first_markdown:
                    found_title, source = _split_title(source)
                    first_markdown = False
                cells.append(Cell("markdown", index + 1, html=self.markdown(source, cell, index)))
            else:
                cells.append(self.code_cell(cell, index, tags))
        if self.problems:
            raise _combined(self.problems)
        title = title or found_title or self.tutorial.slug
        ids = PageIds()
        title_id = ids.claim(kramdown_id(title))
        heading = {"id": title_id, "alias": ids.alias(jupyter_id(title), title_id)}
        fragment = self.renderer.render("notebook/cells.html", {"cells": cells}, self.tutorial.path)
        fragment = ids.fragment(fragment)
        if description is None:
            first = FIRST_PARAGRAPH.search(fragment)
            description = _shorten(_plain(first.group(1))) if first else ""
        return RenderedNotebook(fragment, self.files, title, description, self.thumbnail, heading,
                                self.warnings)

    # -- problems ------------------------------------------------------------------------

    def problem(self, index: int, message: str) -> str:
        """A broken part of cell ``index``: an error, or (``problems: warn``) a warning and this note."""
        path, line = self.tutorial.locate(index)
        error = SiteError(f"cell {index + 1}: {message}", path, line)
        if self.settings.problems == "error":
            self.problems.append(error)
        else:
            self.warnings.append(error)
        return f"Not shown: {message}."

    def warn(self, index: int, message: str) -> None:
        path, line = self.tutorial.locate(index)
        self.warnings.append(SiteError(f"cell {index + 1}: {message}", path, line))

    # -- cells ---------------------------------------------------------------------------

    def markdown(self, source: str, cell: NotebookNode, index: int) -> Markup:
        # The page's title is its only h1; a notebook's other "# " sections sit below it.
        rendered = H1.sub(r"<\1h2", render_markdown(source, dollar_math=True).html)
        rendered = formulas.typeset_html(rendered, lambda message: self.warn(index, message), self.macros)
        rendered = LINKING_TAG.sub(lambda tag: self.linking_tag(tag, cell, index), rendered)
        return Markup(rendered if self.trusted else sanitize.clean_markdown(rendered))

    def linking_tag(self, tag: re.Match, cell: NotebookNode, index: int) -> str:
        """An ``<img>`` or ``<a>`` of a Markdown cell pointing at what the site publishes.

        Images (local files, attachments, data URLs; shown or linked to) are copied
        as files; a link to a sibling notebook goes to its tutorial page. Either
        quote, or none, is read.
        """
        attribute = URL_ATTRIBUTE.search(tag.group(0))
        if attribute is None:
            return tag.group(0)
        value = html.unescape(next(g for g in attribute.groups()[1:] if g is not None))
        if tag.group(1).lower() == "a" and not _is_image_path(value):
            url = self.link_url(value)
        else:
            try:
                url = self.markdown_image(value, cell, index)
            except BadImage as exc:
                return f'<span class="nb-note">{escape(self.problem(index, str(exc)))}</span>'
        if url == value:
            return tag.group(0)
        return (tag.group(0)[:attribute.start()] + f'{attribute.group(1)}"{escape(url)}"'
                + tag.group(0)[attribute.end():])

    def link_url(self, href: str) -> str:
        """A link to a sibling ``.ipynb`` as a link to its tutorial page (fragment kept)."""
        parts = urlsplit(href)
        if parts.scheme or parts.netloc or not parts.path.endswith(".ipynb"):
            return href
        page = self.pages.get((self.tutorial.folder / unquote(parts.path)).resolve())
        if page is None:
            return href
        return self.renderer.relative_url(page) + (f"#{parts.fragment}" if parts.fragment else "")

    def markdown_image(self, target: str, cell: NotebookNode, index: int) -> str:
        """The URL an image of a Markdown cell is published at (attachments and local files copied)."""
        if target.startswith("attachment:"):
            name = unquote(target.removeprefix("attachment:"))
            bundle = cell.get("attachments", {}).get(name)
            mime = next((m for m in IMAGE_SUFFIX if bundle and m in bundle), None)
            if mime is None:
                raise BadImage(f"no image attachment named {name!r}")
            return self.renderer.relative_url(self.image_file(self.image_data(bundle[mime], mime), mime))
        data_url = DATA_IMAGE.match(target)
        if data_url:
            mime, base64_encoded, value = data_url.group(1).lower(), data_url.group(2), data_url.group(3)
            if mime == "image/svg+xml":
                value = _svg_text(value) if base64_encoded else unquote(value)
            elif not base64_encoded:
                raise BadImage(f"a {mime} data URL that is not base64")
            return self.renderer.relative_url(self.image_file(self.image_data(value, mime), mime))
        parts = urlsplit(target)
        if parts.scheme or parts.netloc or target.startswith(("/", "#")) or not parts.path:
            return target
        folder = self.tutorial.folder
        file = (folder / unquote(parts.path)).resolve()
        if not file.is_relative_to(folder) or not file.is_file():
            raise BadImage(f"image {target!r} is not a file inside the tutorial's folder "
                           f"{self.tutorial.path.parent}/ (symbolic links are followed)")
        mime = next((m for m, suffix in IMAGE_SUFFIX.items() if suffix == file.suffix.lower()), None)
        data = file.read_bytes()
        if mime == "image/svg+xml":
            data = self.image_data(data.decode("utf-8", "replace"), mime)
        return self.renderer.relative_url(self.image_file(data, mime, file.suffix.lower()))

    def image_data(self, value: str | list[str], mime: str) -> bytes:
        """The bytes of an image as a notebook holds it (base64, or SVG text), checked.

        Untrusted SVG is cleaned: it is a document that can run scripts when
        opened at its own URL.
        """
        text = "".join(value) if isinstance(value, list) else value
        if mime == "image/svg+xml":
            if not text.strip():
                raise BadImage("its image/svg+xml data is empty")
            if self.trusted:
                return text.encode("utf-8")
            cleaned = sanitize.clean_svg(text)
            if cleaned is None:
                raise BadImage("its image/svg+xml data is not well-formed SVG")
            return cleaned
        try:
            data = base64.b64decode("".join(text.split()), validate=True)
        except (binascii.Error, ValueError, TypeError):
            raise BadImage(f"its {mime} data is not valid base64") from None
        if not data:
            raise BadImage(f"its {mime} data is empty")
        if not data.startswith(IMAGE_SIGNATURES[mime]):
            raise BadImage(f"its {mime} data is not a {mime.split('/')[1].upper()} image")
        return data

    def code_cell(self, cell: NotebookNode, index: int, tags: set[str]) -> Cell:
        view = Cell("code", index + 1, execution_count=cell.get("execution_count"),
                    fold_input="hide-input" in tags, fold_outputs="hide-output" in tags)
        if "remove-input" not in tags:
            view.input = Markup(highlight(cell.source, self.language))
        if "remove-output" not in tags:
            view.outputs = [self.shown_output(o, index, n) for n, o in _merge_streams(cell.get("outputs", []))]
        return view

    def shown_output(self, output: NotebookNode, index: int, number: int) -> Output:
        """``output`` rendered, its math made fit for KaTeX like a Markdown cell's.

        An output that cannot be rendered is a problem of its cell, never a traceback.
        """
        try:
            shown = self.output(output, index, number)
        except (ValueError, TypeError, KeyError, AttributeError, UnicodeError) as exc:
            return Output("omitted", note=self.problem(
                index, f"output {number} ({output.get('output_type', 'of no type')}) cannot be shown: "
                       f"{type(exc).__name__}: {exc}"))

        def warn(message: str) -> None:
            self.warn(index, f"output {number}: {message}")

        if shown.kind == "latex":
            shown.text = formulas.typeset_tex(shown.text, warn, self.macros)
        elif shown.kind == "html":
            shown.html = Markup(formulas.typeset_html(shown.html, warn, self.macros))
        return shown

    # -- outputs -------------------------------------------------------------------------

    def output(self, output: NotebookNode, index: int, number: int = 1) -> Output:
        kind = output.output_type
        if kind == "stream":
            text, note = self.limit(_apply_carriage_returns(output.text))
            return Output("stream", html=_terminal_html(text), name=output.name, note=note)
        if kind == "error":
            text, note = self.limit("\n".join(output.traceback))
            return Output("error", html=_terminal_html(text), note=note)
        data = output.get("data", {})
        trusted = self.trusted
        if not trusted and "application/javascript" in data and set(data) <= {"application/javascript",
                                                                             "text/plain"}:
            return Output("omitted", note="a JavaScript output, not run: this site does not trust "
                                          "notebook outputs (notebooks.trusted)")
        for mime in PRIORITY:
            if mime not in data or (mime == "application/javascript" and not trusted):
                continue
            value = data[mime]
            value = "".join(value) if isinstance(value, list) else value
            if mime in ("image/png", "image/jpeg", "image/gif", "image/svg+xml"):
                return self.image_output(output, mime, value, index, number)
            if mime == "text/plain":
                text, note = self.limit(value)
                return Output("text", text=text, note=note)
            if len(value) > self.settings.output_limit:
                return self.omitted(f"{mime} output of {len(value):,} characters", data)
            if mime == "application/javascript":
                return Output("javascript", html=Markup(value.replace("</", "<\\/")))
            if mime == "text/latex":
                return Output("latex", text=value.strip().strip("$").strip())
            if mime == "text/markdown":
                value = render_markdown(value, dollar_math=True).html
            return Output("html", html=Markup(value if trusted else sanitize.clean_html(value)))
        return Output("omitted", note=f"an output of type {', '.join(sorted(data))}, which a static "
                                      "page cannot show" if data else "")

    def image_output(self, output: NotebookNode, mime: str, value: str, index: int, number: int) -> Output:
        try:
            data = self.image_data(value, mime)
        except BadImage as exc:
            return Output("omitted", note=self.problem(index, f"output {number}: {exc}"))
        meta = output.get("metadata", {}).get(mime, {})
        plain = output.get("data", {}).get("text/plain", "")
        plain = "".join(plain) if isinstance(plain, list) else plain
        alt = meta.get("alt") or (plain if plain and not DEFAULT_REPR.match(plain) else "") \
            or f"Output of cell {index + 1}"
        src = self.image_file(data, mime)
        self.thumbnail = self.thumbnail or src
        return Output("image", src=src, alt=alt, width=meta.get("width"), height=meta.get("height"))

    def omitted(self, what: str, data: dict) -> Output:
        text = data.get("text/plain")
        limit = self.settings.output_limit
        note = f"{what}, over the limit of {limit:,} (notebooks.output_limit), not shown"
        if text:
            text, _ = self.limit("".join(text) if isinstance(text, list) else text)
            return Output("text", text=text, note=note)
        return Output("omitted", note=note)

    def limit(self, text: str) -> tuple[str, str]:
        """``text`` cut at the output limit, and a note saying so if it was."""
        limit = self.settings.output_limit
        if len(text) <= limit:
            return text, ""
        return text[:limit], (f"output truncated: the first {limit:,} of {len(text):,} characters "
                              "are shown (notebooks.output_limit)")

    def image_file(self, data: bytes, mime: str | None, suffix: str = "") -> str:
        """Publish ``data`` under a name made of its hash; return its site URL."""
        name = hashlib.sha256(data).hexdigest()[:16] + (IMAGE_SUFFIX.get(mime or "", suffix))
        self.files[name] = data
        return self.asset_url + name


def _math_texts(cells: list[NotebookNode]) -> list[str]:
    """Where a notebook's math may be: Markdown cells, and LaTeX and Markdown outputs."""
    texts = [cell.source for cell in cells if cell.cell_type == "markdown"]
    for cell in cells:
        for output in cell.get("outputs", []):
            for mime in ("text/latex", "text/markdown"):
                value = output.get("data", {}).get(mime, "")
                texts.append("".join(value) if isinstance(value, list) else str(value))
    return texts


def _is_image_path(url: str) -> bool:
    """Whether ``url`` names a local image file (``figures/plot.png``), not a page."""
    parts = urlsplit(url)
    return not (parts.scheme or parts.netloc) and Path(unquote(parts.path)).suffix.lower() in \
        {*IMAGE_SUFFIX.values(), ".jpeg"}


def _svg_text(value: str) -> str:
    try:
        return base64.b64decode("".join(value.split()), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        raise BadImage("its image/svg+xml data URL is not valid base64 UTF-8") from None


def _combined(problems: list[SiteError]) -> SiteError:
    """The problems of one notebook as one error: the first, then each other one on a line."""
    first = problems[0]
    rest = [f"  {problem}" for problem in problems[1:]]
    more = " (set notebooks.problems: warn in site.yaml to show a note instead)"
    return SiteError("\n".join([first.message + more, *rest]), first.path, first.line)


def report_warnings(warnings: list[SiteError]) -> None:
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)


def _split_title(source: str) -> tuple[str | None, str]:
    """A Markdown cell's leading ``# Title`` line, and the cell without it."""
    lines = source.lstrip("\n").split("\n")
    match = TITLE.match(lines[0]) if lines else None
    if not match:
        return None, source
    return re.sub(r"[*_`]", "", match.group(1)), "\n".join(lines[1:])


def _merge_streams(outputs: list[NotebookNode]) -> list[tuple[int, NotebookNode]]:
    """Consecutive stream outputs of one name as one (a cell's prints arrive in pieces),
    each with its number in the cell (from 1, the first piece's)."""
    merged: list[tuple[int, NotebookNode]] = []
    for number, output in enumerate(outputs, start=1):
        last = merged[-1][1] if merged else None
        if (output.output_type == "stream" and last is not None and last.output_type == "stream"
                and last.name == output.name):
            merged[-1] = (merged[-1][0], NotebookNode({**last, "text": last.text + output.text}))
        else:
            merged.append((number, output))
    return merged


def _terminal_html(text: str) -> Markup:
    """Terminal text as HTML, its ANSI colours as CSS classes."""
    if "\x1b" not in text:
        return escape(text)
    # nbconvert takes a quarter of a second to import: only pay it for coloured text.
    from nbconvert.filters.ansi import ansi2html

    return Markup(ansi2html(text))


def _apply_carriage_returns(text: str) -> str:
    """What a terminal would show: a ``\\r`` returns to the start of the line (progress bars)."""
    return "\n".join(line.rsplit("\r", 1)[-1] for line in text.replace("\r\n", "\n").split("\n"))


def _plain(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def _shorten(text: str, limit: int = 200) -> str:
    """``text`` cut at a word boundary to at most ``limit`` characters."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + "…"
