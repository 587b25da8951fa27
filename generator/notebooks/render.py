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

Raw cells are shown by their MIME type (HTML, Markdown, reST), others left out
with a warning. An HTML output keeps its style sheets, confined to it
(``styles``), and iframes of the hosts ``notebooks.embeds`` lists (``embeds``).

Display-only tags shape the page and nothing else: ``remove-cell``,
``remove-input``, ``remove-output`` leave parts out; ``hide-input``,
``hide-output`` and ``hide-cell`` fold them away (nbconvert's ``remove_cell`` spellings too).
MyST's roles in any cell may point at the targets of all of them, and of the gallery's
other tutorials and docs pages (see :class:`generator.myst.Labels`).
Widgets whose state the notebook saved are drawn in the reader's browser by the
self-hosted widget manager (see ``widgets``), and figures of Plotly, Altair/Vega
and Bokeh from their data by the site's own copy of the library (see ``charts``).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import html
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from markupsafe import Markup, escape
from nbformat import NotebookNode

from generator.errors import SiteError
from generator.highlight import highlight
from generator.links import Link, document_links
from generator import myst
from generator.markdown import MarkdownProblem, kramdown_id, render_markdown
from generator.notebooks import charts, embeds, footnotes, formulas, rst, sanitize, styles, widgets
from generator.notebooks.ansi import ansi_to_html
from generator.notebooks.anchors import PageIds, jupyter_id
from generator.notebooks.sources import Tutorial
from generator.schema.notebooks import Notebooks
from generator.text import plain_text, shorten
from generator.render import Renderer

# The order Jupyter's front ends choose in (the classic notebook's display_order, JupyterLab's
# renderer ranks): a widget first, then HTML, Markdown and LaTeX before any picture, so that
# SymPy's formula wins over its PNG, and JSON before plain text.
PRIORITY = (widgets.VIEW_MIME, "application/javascript", "text/html", "text/markdown", "text/latex",
            "image/svg+xml", "image/png", "image/jpeg", "image/gif", "application/json", "text/plain")
IMAGE_SUFFIX = {"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/svg+xml": ".svg"}
IMAGE_SIGNATURES = {"image/png": (b"\x89PNG\r\n\x1a\n",), "image/jpeg": (b"\xff\xd8\xff",),
                    "image/gif": (b"GIF87a", b"GIF89a")}
DATA_IMAGE = re.compile(r"^data:(image/(?:png|jpeg|gif|svg\+xml))(;base64)?,(.*)$", re.S | re.I)
WHOLE_FORMULA = re.compile(r"\$\$(.+)\$\$|\$([^$]+)\$|\\\[(.+)\\\]|(\\begin\{(\w+\*?)\}.*\\end\{\5\})", re.S)
INLINE_FORMULA = re.compile(r"\$|\\\(|\\\[|\\begin\{")
DEFAULT_REPR = re.compile(r"^<.*>$", re.S)
LINKING_TAG = re.compile(r"<(img|a)\b[^>]*>", re.I)
ALT = re.compile(r"""\salt\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""", re.I)
URL_SAFE = "/:?#[]@!$&'()*+,;=%~"
URL_ATTRIBUTE = re.compile(r"""(\s(?:src|href)\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""", re.I)
TITLE = re.compile(r"^\s*#(?!#)\s*(.+?)\s*#*\s*$")
H1 = re.compile(r"<(/?)h1\b")
FIRST_PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.S)
RST_MIMES = ("text/restructuredtext", "text/x-rst")
FOOTNOTE_REFERENCE = re.compile(r"\[\^[^\]\s]+\]")
FOOTNOTE_ID = re.compile(r"^fn(ref\d*)?:")      # Python-Markdown's footnote ids: fn:1, fnref:1, fnref2:1


@dataclass
class Output:
    """One output as the templates see it; ``kind`` picks the partial's branch."""

    kind: str           # stream, text, html, markdown, image, latex, json, widget, chart, javascript, error,
                        # omitted
    html: str = ""      # Markup for html/markdown/stream/error/javascript
    text: str = ""
    name: str = ""      # stdout or stderr, for streams
    src: str = ""       # site URL of an image file
    alt: str = ""
    width: int | None = None
    height: int | None = None
    note: str = ""
    id: str = ""        # the container's id, which the output's confined style sheet is scoped to


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
    widgets: bool = False           # it draws widgets: the page loads the widget manager
    styles: str = ""                # the outputs' style sheets, confined to them, for the page's head
    charts: set[str] = field(default_factory=set)     # the chart libraries it draws with (``charts.SCRIPTS``)
    links: tuple[Link, ...] = ()    # its Markdown cells' links into the site, for the build to check
    notes: tuple[str, ...] = ()     # each link's cell and line there (``generator.links.Linked``)


class BadImage(ValueError):
    """Image data that cannot be published as an image file."""


class NotebookRenderer:
    """Renders the cells of one tutorial, collecting the image files they need."""

    def __init__(self, tutorial: Tutorial, settings: Notebooks, renderer: Renderer, asset_url: str,
                 pages: dict[Path, str] | None = None, labels: myst.Labels | None = None):
        self.tutorial = tutorial
        self.settings = settings
        self.trusted = settings.trusts(tutorial.path)
        self.renderer = renderer
        self.asset_url = asset_url          # e.g. /docs/v2/tutorials/scan/
        self.pages = pages or {}            # each tutorial's source file (absolute) -> its page's URL
        self.labels = labels or myst.Labels()  # what MyST's {ref} and {doc} may point at in other pages
        self.myst = myst.Document()
        self.language = "python"
        self.files: dict[str, bytes] = {}
        self.thumbnail: str | None = None
        self.widgets = widgets.WidgetState({})
        self.widget_views = 0
        self.styles: list[str] = []
        self.charts: set[str] = set()
        self.problems: list[SiteError] = []
        self.warnings = [SiteError(repair, tutorial.path) for repair in tutorial.repairs]
        self.macros: frozenset[str] = frozenset()     # commands the notebook's math defines
        self.links: list[Link] = []
        self.notes: list[str] = []

    def render(self, notebook: NotebookNode, title: str | None, description: str | None) -> RenderedNotebook:
        """Render ``notebook`` (the tutorial's cells with their outputs)."""
        info = notebook.metadata.get("language_info", {})
        self.language = info.get("pygments_lexer") or info.get("name") or \
            notebook.metadata.get("kernelspec", {}).get("language") or "python"
        self.widgets = widgets.WidgetState.of(notebook, self.trusted)
        start = 1 if self.tutorial.colab_cell else 0
        self.macros = formulas.defined_commands(_math_texts(notebook.cells))
        texts = self.markdown_texts(notebook.cells)
        shown = shown_markdown(notebook)
        self.myst = self.labels.document(self.tutorial.folder / self.tutorial.path.name, [text for _, text in shown])
        self.repeats = self.labels.repeats(self.tutorial.folder / self.tutorial.path.name)
        self.warn_defined_again(shown)
        cells, found_title, first_markdown = [], None, True
        for index, cell in enumerate(notebook.cells[start:], start=start):
            tags = _display_tags(cell)
            if "remove-cell" in tags:
                continue
            if cell.cell_type == "raw":
                cells += self.raw_cell(cell, index)
                continue
            if cell.cell_type == "markdown":
                source = texts[index]
                if first_markdown:
                    found_title, source = _split_title(source)
                    first_markdown = False
                cells.append(Cell("markdown", index + 1, html=self.markdown(source, cell, index)))
            elif cell.cell_type == "code":
                cells.append(self.code_cell(cell, index, tags))
            else:   # nbformat 4 admits cell types of later versions, with metadata only
                self.warn(index, f"a cell of type {cell.cell_type!r}, which this site cannot show: left out")
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
            description = shorten(plain_text(first.group(1)), 200) if first else ""
        if self.widget_views:
            fragment += self.widgets.script() + "\n"
        return RenderedNotebook(fragment, self.files, title, description, self.thumbnail, heading,
                                self.warnings, widgets=bool(self.widget_views), styles="\n".join(self.styles),
                                charts=self.charts, links=tuple(self.links), notes=tuple(self.notes))

    def markdown_texts(self, notebook_cells: list[NotebookNode]) -> dict[int, str]:
        """Each Markdown cell's text (by index) with the footnotes it refers to, wherever they are
        defined (see ``footnotes``)."""
        indexes = [index for index, cell in enumerate(notebook_cells) if cell.cell_type == "markdown"]
        texts, unused = footnotes.shared([notebook_cells[index].source for index in indexes])
        for n, label in unused:
            self.warn(indexes[n], f"the footnote [^{label}] is referred to by no cell: left out")
        return dict(zip(indexes, texts))

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

    def warn_defined_again(self, shown: list[tuple[int, str]]) -> None:
        """Warn of the labels the Markdown cells ``shown`` (index, text) define more than once, at
        each later definition's cell and line."""
        for repeat in myst.repeats(text for _, text in shown):
            first = f"line {repeat.first_line}" if repeat.first_text == repeat.text else \
                f"cell {shown[repeat.first_text][0] + 1}, line {repeat.first_line}"
            self.warn(shown[repeat.text][0], f"line {repeat.line}: {repeat.message(first)}")

    def warn_repeated(self, source: str, index: int) -> None:
        """Warn of the labels Markdown cell ``index`` (``source``) defines that an earlier page has."""
        own: dict[str, myst.Target] = {}
        myst.scan(rst.roles_to_markdown(source), own)
        for label in sorted(own.keys() & self.repeats.keys(), key=lambda label: own[label].line):
            self.warn(index, f"line {own[label].line}: {self.repeats.pop(label)[1]}")

    # -- cells ---------------------------------------------------------------------------

    def markdown(self, source: str, cell: NotebookNode, index: int) -> Markup:
        # The page's title is its only h1; a notebook's other "# " sections sit below it.
        try:
            result = render_markdown(rst.roles_to_markdown(source), dollar_math=True, myst=self.myst)
        except MarkdownProblem as exc:
            return Markup(f'<p class="nb-note">{escape(self.problem(index, str(exc)))}</p>')
        for line, message in result.warnings:
            self.warn(index, f"line {line}: {message}")
        if self.repeats:
            self.warn_repeated(source, index)
        rendered = H1.sub(r"<\1h2", result.html)
        rendered = formulas.typeset_html(rendered, lambda message: self.warn(index, message), self.macros)
        rendered = LINKING_TAG.sub(lambda tag: self.linking_tag(tag, cell, index), rendered)
        shown = self.authors_html(rendered, index)
        self.note_links(shown, cell, index)
        return shown

    def note_links(self, shown: str, cell: NotebookNode, index: int) -> None:
        """The links of cell ``index`` into the site (``shown``: as published), at the cell's line
        in the file (a script's; 0 in a notebook's JSON) and their own in the cell."""
        _, line = self.tutorial.locate(index)
        for link in document_links(shown, cell.source, 1):
            self.links.append((line or 0, *link[1:]))
            self.notes.append(f"cell {index + 1}: line {link[0]}: ")

    def authors_html(self, value: str, index: int) -> Markup:
        """The HTML of a Markdown or raw cell as the page shows it: unless trusted, sanitized, its iframes
        kept or made links (see ``embeds``), a style sheet, which could restyle the page, left out
        with a warning; its links and images as the site serves them (``published_links``)."""
        if not self.trusted:
            frames = self.frames(value, index, "")
            if styles.STYLE.search(frames.html):
                self.warn(index, "its <style> is left out: only an output's style sheet is kept (confined to it)")
            value = frames.restore(sanitize.clean_markdown(frames.html))
        return Markup(self.published_links(value, index))

    def raw_cell(self, cell: NotebookNode, index: int) -> list[Cell]:
        """A raw cell, shown as its ``raw_mimetype`` says: HTML (sanitized like Markdown), Markdown,
        reStructuredText. Others are text for other converters (LaTeX, a script) and are left out,
        with a warning naming the cell."""
        mime = cell.metadata.get("raw_mimetype") or cell.metadata.get("format") or ""
        if not cell.source.strip():
            return []
        if mime == "text/html":
            shown = self.authors_html(H1.sub(r"<\1h2", cell.source), index)
        elif mime == "text/markdown":
            shown = self.markdown(cell.source, cell, index)
        elif mime in RST_MIMES:
            shown = self.markdown(rst.RstToMarkdown().convert(cell.source), cell, index)
        else:
            self.warn(index, f"a raw cell {f'of {mime}' if mime else 'with no raw_mimetype'} is left out: a page "
                             f"shows raw cells of text/html, text/markdown and {RST_MIMES[0]} only")
            return []
        return [Cell("markdown", index + 1, html=shown)]

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

    def published_links(self, fragment: str, index: int) -> str:
        """The links and images of rendered HTML (a Markdown cell, an output) as the site serves them.

        What a browser forgives and the HTML standard does not is mended (spaces in
        URLs, an image without ``alt``); a relative link to a sibling notebook goes to
        its page, and one to anything else, which the site does not publish, keeps
        its text but loses its target, with a warning; a picture from a host that
        ``check.allow_hosts`` does not list becomes a link to it, with a warning,
        as readers' browsers talk to this site only (a Sphinx page would show it: list the
        host to have it shown); the link reads as its alt text, else the file's name and host.
        """
        return LINKING_TAG.sub(lambda tag: self.published_link(tag.group(0), tag.group(1).lower(), index),
                               fragment)

    def published_link(self, tag: str, name: str, index: int) -> str:
        if name == "img" and not ALT.search(tag):
            tag = tag[:4] + ' alt=""' + tag[4:]
        attribute = URL_ATTRIBUTE.search(tag)
        if attribute is None:
            return tag
        url = html.unescape(next(g for g in attribute.groups()[1:] if g is not None))
        url = quote(url.strip(), safe=URL_SAFE)
        if not url:
            return tag
        parts = urlsplit(url)
        if name == "img" and parts.netloc and parts.hostname not in self.renderer.config.check.allow_hosts:
            self.warn(index, f"the image {url} is on another host ({parts.hostname}), not in check.allow_hosts: "
                             "shown as a link to it")
            alt = ALT.search(tag)
            text = html.unescape(next((g for g in alt.groups() if g is not None), "")) if alt else ""
            name = unquote(parts.path.rstrip("/").rsplit("/", 1)[-1]) or parts.hostname
            return f'<a href="{escape(url)}">{escape(text or f"image: {name} ({parts.hostname})")}</a>'
        if name == "a" and not (parts.scheme or parts.netloc or url.startswith(("/", "#"))):
            page = self.link_url(url)
            if page == url:
                self.warn(index, f"the link {url!r} leads to nothing this site publishes: its text is kept, "
                                 "without the link")
                return tag[:attribute.start()] + tag[attribute.end():]
            url = page
        return tag[:attribute.start()] + f'{attribute.group(1)}"{escape(url)}"' + tag[attribute.end():]

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
        if not file.is_relative_to(folder) or not file.is_file() or _hidden(file.relative_to(folder)):
            raise BadImage(f"image {target!r} is not a file inside the tutorial's folder "
                           f"{self.tutorial.path.parent}/ (symbolic links are followed), outside its "
                           "dot-files")
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
                    fold_input=bool({"hide-input", "hide-cell"} & tags),
                    fold_outputs=bool({"hide-output", "hide-cell"} & tags))
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

        if shown.kind == "latex" and not shown.html:
            shown.text = formulas.typeset_tex(shown.text, warn, self.macros)
        elif shown.kind in ("html", "markdown", "latex"):
            shown.html = Markup(formulas.typeset_html(shown.html, warn, self.macros))
        return shown

    # -- outputs -------------------------------------------------------------------------

    def output(self, output: NotebookNode, index: int, number: int = 1) -> Output:
        kind = output.output_type
        if kind == "stream":
            text, note = self.limit(_apply_carriage_returns(output.text))
            return Output("stream", html=ansi_to_html(text), name=output.name, note=note)
        if kind == "error":
            text, note = self.limit("\n".join(output.traceback))
            return Output("error", html=ansi_to_html(text), note=note)
        data = output.get("data", {})
        trusted = self.trusted
        chart = charts.read(data, trusted)
        if chart is not None:
            return self.chart_output(chart, output, index, number)
        if not trusted and "application/javascript" in data and set(data) <= {"application/javascript",
                                                                             "text/plain"}:
            return self.not_shown(index, number, "a JavaScript output, not run: this site does not trust "
                                                 "notebook outputs (notebooks.trusted)")
        for mime in PRIORITY:
            if mime not in data or (mime == "application/javascript" and not trusted):
                continue
            value = data[mime]
            if mime == widgets.VIEW_MIME:
                if self.widgets.shows(value):
                    self.widget_views += 1
                    return Output("widget", html=Markup(widgets.view_script(value)))
                return self.widget_without_state(data, value, index, number)
            if mime == "application/json":
                return self.json_output(value)
            value = "".join(value) if isinstance(value, list) else value
            if mime in ("image/png", "image/jpeg", "image/gif", "image/svg+xml"):
                return self.image_output(output, mime, value, index, number)
            if mime == "text/plain":
                text, note = self.limit(value)
                return Output("text", html=ansi_to_html(text), note=note)
            if len(value) > self.settings.output_limit:
                return self.omitted(f"{mime} output of {len(value):,} characters", data)
            if mime == "application/javascript":
                return Output("javascript", html=Markup(value.replace("</", "<\\/")))
            if mime == "text/latex":
                return self.latex_output(value, index)
            if mime == "text/markdown":
                value = render_markdown(value, dollar_math=True).html
            kind = "markdown" if mime == "text/markdown" else "html"
            if trusted:
                return Output(kind, html=Markup(self.published_links(value, index)))
            scope = f"nb-cell-{index + 1}-out-{number}"
            cleaned, styled = self.clean_output_html(value, scope, index, number, keep_footnotes=kind == "markdown")
            note = ""
            if charts.drawn_by_script(value, cleaned):
                note = ("an HTML output drawn by its own script, which this site does not run "
                        "(notebooks.trusted): nothing of it is shown")
                self.warn(index, f"output {number}: {note}")
            return Output(kind, html=Markup(self.published_links(cleaned, index)), id=scope if styled else "",
                          note=note)
        if not data:
            return Output("omitted")
        return self.not_shown(index, number, f"an output of type {', '.join(sorted(data))}, which a static "
                                             "page cannot show")

    def not_shown(self, index: int, number: int, note: str, shown: Output | None = None) -> Output:
        """An output left out (or shown only as ``shown``, its text): the note in its place, and a warning."""
        self.warn(index, f"output {number}: {note}")
        shown = shown or Output("omitted")
        shown.note = note
        return shown

    def clean_output_html(self, value: str, scope: str, index: int, number: int,
                          keep_footnotes: bool = False) -> tuple[str, bool]:
        """Untrusted output HTML sanitized, with its style sheets confined to the element ``scope``
        (see ``styles``) and its iframes kept or made links (see ``embeds``); whether it has
        style rules. What they lose is a warning. A Markdown output keeps its footnotes' ids (``keep_footnotes``)."""
        frames = self.frames(value, index, f"output {number}: ")
        confined = styles.confine(frames.html, scope)
        if confined.left_out:
            self.warn(index, f"output {number}: left out of its style sheet, which may style only the output "
                             f"and with safe properties: {'; '.join(dict.fromkeys(confined.left_out))}")
        if confined.css:
            self.styles.append(confined.css)
        ids = confined.ids
        cleaned = sanitize.clean_html(confined.html, lambda name: styles.prefixed(scope, name) if name in ids
                                      else name if keep_footnotes and FOOTNOTE_ID.match(name) else None)
        return frames.restore(cleaned), bool(confined.css)

    def frames(self, value: str, index: int, where: str) -> embeds.Embeds:
        """``value`` with its iframes taken out, to be put back kept or as links (see ``embeds``)."""
        frames = embeds.take_out(value, self.settings.embeds)
        for message in frames.warnings:
            self.warn(index, where + message)
        return frames

    def latex_output(self, value: str, index: int) -> Output:
        """A formula (``$x$``, ``$$x$$``, ``\\[x\\]``, an environment, bare TeX) as display math;
        text with formulas in it (IPython's ``Latex("The \\LaTeX{} $x$")``) as Markdown with math."""
        tex = value.strip()
        whole = WHOLE_FORMULA.fullmatch(tex)
        if whole:
            return Output("latex", text=next(g for g in whole.groups() if g is not None).strip())
        if not INLINE_FORMULA.search(tex):
            return Output("latex", text=tex)
        rendered = render_markdown(tex, dollar_math=True).html
        rendered = rendered if self.trusted else sanitize.clean_html(rendered)
        return Output("latex", html=Markup(self.published_links(rendered, index)))

    def chart_output(self, chart: charts.Chart, output: NotebookNode, index: int, number: int) -> Output:
        """A figure drawn from its data (its picture for readers without JavaScript); else its
        static forms, a note and a warning."""
        if not chart.library:
            return Output("omitted")
        chart = chart.within(self.settings.output_limit)
        if not chart.problem:
            self.charts.add(chart.library)
            # Its picture, if it has one, for readers without JavaScript and the gallery's card.
            pictures = {mime: value for mime, value in chart.static.items() if mime in IMAGE_SUFFIX}
            still = self.output(NotebookNode({**output, "data": pictures}), index, number) if pictures else None
            src = self.renderer.relative_url(still.src) if still and still.kind == "image" else ""
            return Output("chart", html=chart.html(f"Chart of cell {index + 1}", src))
        shown = self.output(NotebookNode({**output, "data": chart.static}), index, number) if chart.static \
            else Output("omitted")
        instead = {"image": "its picture is shown instead", "text": "its text is shown instead"}.get(shown.kind, "")
        self.warn(index, f"output {number}: {chart.problem}: not drawn" + (f", {instead}" if instead else ""))
        shown.note = " ".join(filter(None, [shown.note, f"A chart not drawn: {chart.problem}."]))
        return shown

    def widget_without_state(self, data: dict, view: object, index: int, number: int) -> Output:
        """A widget the page cannot draw (no state saved for it, or of another package): its text."""
        text = data.get("text/plain", "")
        text, _ = self.limit("".join(text) if isinstance(text, list) else text)
        return self.not_shown(index, number, f"an interactive widget, not shown: {self.widgets.why_not(view)}",
                              Output("text" if text else "omitted", html=ansi_to_html(text)))

    def json_output(self, value: object) -> Output:
        """JSON data as JupyterLab shows it: the document, indented."""
        text = value if isinstance(value, str) else json.dumps(value, indent=2, ensure_ascii=False)
        text, note = self.limit(text)
        return Output("json", text=text, note=note)

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
            return Output("text", html=ansi_to_html(text), note=note)
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


def markdown_sources(notebook: NotebookNode) -> list[str]:
    """The text of the Markdown cells the page shows (not those tagged ``remove-cell``) as the Markdown
    pipeline reads it: the first one's title is the page's, and only their labels are targets."""
    return [text for _, text in shown_markdown(notebook)]


def shown_markdown(notebook: NotebookNode) -> list[tuple[int, str]]:
    """Each Markdown cell the page shows, by its index, with its text as :func:`markdown_sources` gives it."""
    return [(index, rst.roles_to_markdown(cell.source)) for index, cell in enumerate(notebook.cells)
            if cell.cell_type == "markdown" and "remove-cell" not in _display_tags(cell)]


def page_title(tutorial: Tutorial, title: str | None, texts: list[str]) -> str:
    """A tutorial's title: its own (front matter), else its first heading's, else its name."""
    return title or (_split_title(texts[0])[0] if texts else None) or tutorial.slug


def _math_texts(cells: list[NotebookNode]) -> list[str]:
    """Where a notebook's math may be: Markdown cells, and LaTeX and Markdown outputs."""
    texts = [cell.source for cell in cells if cell.cell_type == "markdown"]
    for cell in cells:
        for output in cell.get("outputs", []):
            for mime in ("text/latex", "text/markdown"):
                value = output.get("data", {}).get(mime, "")
                texts.append("".join(value) if isinstance(value, list) else str(value))
    return texts


def _display_tags(cell: NotebookNode) -> set[str]:
    """A cell's tags, nbconvert's spellings (``remove_input``) read as Jupyter Book's (``remove-input``)."""
    return {str(tag).replace("_", "-") for tag in cell.metadata.get("tags", ())}


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


def _split_title(source: str) -> tuple[str | None, str]:
    """A Markdown cell's leading ``# Title`` line, and the cell without it.

    The title is plain text in the page's heading: a footnote reference in it moves to the
    start of the cell, so that its note still has a reference to link back to.
    """
    lines = source.lstrip("\n").split("\n")
    n = 0      # MyST targets (a sphinx-gallery label) before it stay, as the cell's start
    while n + 1 < len(lines) and (myst.TARGET.match(lines[n]) or not lines[n].strip()):
        n += 1
    match = TITLE.match(lines[n])       # split() gives at least one line
    if not match:
        return None, source
    notes = FOOTNOTE_REFERENCE.findall(match.group(1))
    title = FOOTNOTE_REFERENCE.sub("", match.group(1)).strip()
    after = lines[:n] + lines[n + 1:]
    rest = [" ".join(notes), "", *after] if notes else after
    return re.sub(r"[*_`]", "", title), "\n".join(rest)


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


def _apply_carriage_returns(text: str) -> str:
    """What a terminal would show: a ``\\r`` returns to the start of the line (progress bars)."""
    return "\n".join(line.rsplit("\r", 1)[-1] for line in text.replace("\r\n", "\n").split("\n"))


def _hidden(relative: Path) -> bool:
    """Whether a path below the tutorial's folder passes through a dot-file or dot-folder (``.env``,
    ``.git/``), which no page shows (generator.confine's rule)."""
    return any(part.startswith(".") for part in relative.parts)
