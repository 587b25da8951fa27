"""A notebook's tutorial page compared, cell by cell, with what Jupyter itself shows of it.

Jupyter's view is nbconvert's ``HTMLExporter`` with the ``lab`` template (JupyterLab's
markup); sitegen's is the tutorial page. Cells are paired in the notebook's order, and
of each are compared, as element trees (:func:`tree`): a code cell's input text and every
output, a Markdown cell's rendered Markdown. Each tool's own chrome is left out (prompts,
wrappers, classes, a heading's anchor link and ids, style sheets); what a reader sees is
kept (text, ANSI colours as span classes and styles, tables, links, an image's data,
math as its TeX). The first difference of a cell is given with its kind, as
tests/parity.py gives Jekyll's.

Used by tests/test_notebook_corpus.py (the corpus made here) and
benchmarks/notebook_parity.py (the real notebooks of notebook_sources.toml).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

import lxml.etree
import lxml.html
import nbformat

from parity import KINDS, parting

# Attributes a reader's view depends on; ids and classes are each tool's own, but for ANSI colours.
ATTRIBUTES = ("href", "src", "colspan", "rowspan", "width", "height", "style")
ANSI_CLASS = re.compile(r"^ansi-")
# Math as Jupyter's Markdown leaves it for MathJax: $$x$$, $x$, an environment.
JUPYTER_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|(\\begin\{([\w*]+)\}.*?\\end\{\4\})", re.S)
SITEGEN_MATH = re.compile(r"^\s*\\[\[(](.*)\\[\])]\s*$", re.S)
# Notes that speak of the output element before them (generator/notebooks/render.py), not of one left out.
ABOUT_ITS_ELEMENT = re.compile(r"^output truncated|over the limit|drawn by its own script|A chart not drawn"
                               r"|^an interactive widget")
# sitegen's output classes as the MIME type Jupyter would name (templates/notebook/output.html).
SITEGEN_MIME = {"nb-stdout": "text/plain", "nb-stderr": "application/vnd.jupyter.stderr",
                "nb-error": "application/vnd.jupyter.stderr", "nb-text": "text/plain",
                "nb-json": "application/json", "nb-markdown-output": "text/markdown", "nb-html": "text/html",
                "nb-latex": "text/latex", "nb-widget": "application/vnd.jupyter.widget-view+json",
                "nb-chart-output": "chart"}


@dataclass
class Shown:
    """One cell as a tool shows it: its input's text, and element trees of what it renders."""

    kind: str                                   # code, markdown (raw cells shown as such too)
    id: str | None = None                       # the notebook's cell id (Jupyter's view names it)
    input: str | None = None
    outputs: list[tuple[str, tuple]] = field(default_factory=list)   # (MIME type shown, tree)
    markdown: tuple | None = None


@dataclass
class CellParity:
    number: int             # the cell's position in the notebook, from 1
    kind: str               # the notebook's cell type
    difference: str | None  # where the two first part, readable; None when equal
    what: str | None        # the kind of that difference ("input", "output html: table", "markdown: math"...)


# -- element trees -----------------------------------------------------------------------------

def tree(element, pre: bool = False, spans: bool = False) -> tuple:
    """``(tag, attributes, text, children)`` of an element: text with whitespace collapsed (kept in
    ``pre``), only :data:`ATTRIBUTES` and ANSI classes; comments and style sheets dropped.

    A code block is its text alone, however a highlighter wrapped it, unless ``spans``: a text
    output's colours are its spans."""
    if element.tag == "pre" and not spans:
        text = element.text_content()
        return ("pre", {}, (text[1:] if (element.text or "").startswith("\n") else text).rstrip("\n"), ())
    pre = pre or element.tag == "pre"
    if element.tag == "table" and any(child.tag == "tr" for child in element):
        element = _with_tbody(element)
    attributes = {name: " ".join(element.get(name).split()) for name in ATTRIBUTES if element.get(name) is not None}
    if "style" in attributes:
        attributes["style"] = _style(attributes["style"])
    ansi = [name for name in element.get("class", "").split() if ANSI_CLASS.match(name)]
    if ansi:
        attributes["class"] = " ".join(sorted(ansi))
    children, texts = [], [element.text or ""]
    for child in element:
        if isinstance(child.tag, str) and child.tag not in ("style",):
            children.append(tree(child, pre, spans))
        texts.append(child.tail or "")
    text = "".join(texts)
    if element.tag == "pre":    # HTML 5's parser drops a newline right after <pre>; lxml's keeps it
        text = (text[1:] if (element.text or "").startswith("\n") else text).rstrip("\n")
    elif not pre:
        text = " ".join(text.split())
    return (element.tag, attributes, text, tuple(children))


def _style(value: str) -> str:
    """An inline style's declarations, written one way (``a:b;`` and ``a: b`` are one style)."""
    declarations = (part.split(":", 1) for part in value.split(";") if ":" in part)
    return "; ".join(sorted(f"{name.strip().lower()}: {' '.join(text.split())}" for name, text in declarations))


def _with_tbody(table):
    """A table's rows in the ``tbody`` a browser puts them in (lxml leaves them bare)."""
    table = lxml.html.fromstring(lxml.html.tostring(table))
    body = None
    for child in list(table):
        if child.tag == "tr":
            if body is None:
                body = lxml.html.Element("tbody")
                child.addprevious(body)
            body.append(child)
        elif child.tag not in ("script",):
            body = None
    return table


def _math_key(tex: str) -> str:
    return "⟨math " + " ".join(tex.split()) + "⟩"


def _jupyter_math(element) -> None:
    """Jupyter's math, left as text for MathJax, as one token per formula (``_math_key``)."""
    for node in element.iter():
        if not isinstance(node.tag, str) or node.tag in ("pre", "code", "script"):
            continue
        sub = lambda m: _math_key(m.group(1) or m.group(2) or m.group(3))  # noqa: E731
        node.text = JUPYTER_MATH.sub(sub, node.text) if node.text else node.text
        for child in node:
            child.tail = JUPYTER_MATH.sub(sub, child.tail) if child.tail else child.tail


def _sitegen_math(element) -> None:
    """sitegen's math elements (arithmatex's ``\\(x\\)``, ``\\[x\\]``) as the same tokens; a displayed
    one as a paragraph, as Jupyter's Markdown leaves it."""
    for node in list(element.iter("span", "div")):
        if "arithmatex" not in node.get("class", "").split():
            continue
        match = SITEGEN_MATH.match(node.text_content())
        if not match:
            continue
        token = _math_key(match.group(1))
        if node.tag == "div":
            paragraph = lxml.html.Element("p")
            paragraph.text, paragraph.tail = token, node.tail
            node.getparent().replace(node, paragraph)
        else:
            _replace_with_text(node, token)


def _replace_with_text(node, text: str) -> None:
    parent, previous = node.getparent(), node.getprevious()
    text += node.tail or ""
    if previous is not None:
        previous.tail = (previous.tail or "") + text
    else:
        parent.text = (parent.text or "") + text
    parent.remove(node)


def _image_key(src: str, folder: Path | None) -> str:
    """An image by its data: a hash of the bytes of a data URL or of the file a page links to;
    an SVG by its elements and text (sitegen publishes it cleaned)."""
    if src.startswith("data:"):
        head, _, value = src.partition(",")
        try:    # nbconvert labels an SVG attachment base64 but leaves its text as it is
            data = base64.b64decode(value) if head.endswith(";base64") and not value.lstrip().startswith("<") \
                else unquote(value).encode()
        except (binascii.Error, ValueError):
            return src[:40]
    else:
        file = _published(urlsplit(src).path, folder) if folder and not urlsplit(src).scheme else None
        if file is None:
            return src
        data = file.read_bytes()
    return _data_key(data)


def _published(path: str, folder: Path) -> Path | None:
    """The file a page in ``folder`` links to at ``path`` (relative, or from the site's root above it)."""
    if not path.startswith("/"):
        return folder / path if (folder / path).is_file() else None
    return next((root / path[1:] for root in folder.parents if (root / path[1:]).is_file()), None)


def _data_key(data: bytes) -> str:
    if data.lstrip().startswith((b"<svg", b"<?xml")) or b"<svg" in data[:300]:
        try:
            svg = lxml.etree.fromstring(data.strip(), lxml.etree.XMLParser(recover=True, resolve_entities=False))
            shape = repr([(lxml.etree.QName(n).localname, " ".join((n.text or "").split()))
                          for n in svg.iter() if isinstance(n.tag, str)])
            return "svg:" + hashlib.sha256(shape.encode()).hexdigest()[:16]
        except (lxml.etree.XMLSyntaxError, ValueError):
            pass
    return hashlib.sha256(data).hexdigest()[:16]


def _images(element, folder: Path | None) -> None:
    for img in element.iter("img"):
        if img.get("src"):
            img.set("src", _image_key(img.get("src"), folder))


def _inline_svg(element) -> None:
    """An SVG drawn inline (Jupyter's) as the image it is, keyed like a file's."""
    for svg in list(element.iter("svg", "{http://www.w3.org/2000/svg}svg")):
        img = lxml.html.Element("img", src=_data_key(lxml.etree.tostring(svg)))
        img.tail = svg.tail
        svg.getparent().replace(svg, img)


def _no_chrome(element) -> None:
    """Each tool's own additions: Jupyter's heading anchors, sitegen's empty id-only spans (a heading's
    Jupyter alias) and scrolling frames around tables."""
    for node in list(element.iter("a", "span", "div")):
        if node.tag == "div" and "highlight" in node.get("class", "").split() and node.find(".//pre") is not None:
            pre = node.find(".//pre")
            pre.tail = node.tail
            node.getparent().replace(node, pre)
        elif node.tag == "a" and "anchor-link" in node.get("class", ""):
            _replace_with_text(node, "")
        elif node.tag == "span" and node.get("id") and not len(node) and not node.text:
            _replace_with_text(node, "")
        elif node.tag == "div" and "table-wrap" in node.get("class", "").split() and len(node) == 1:
            node.getparent().replace(node, node[0])


def markdown_tree(element, jupyter: bool, folder: Path | None) -> tuple:
    """A rendered Markdown cell or HTML output as compared: chrome out, math and images keyed,
    headings at the page's levels (a notebook's ``#`` is the page's ``h2``: the title is its only ``h1``)."""
    _no_chrome(element)
    if jupyter:
        _jupyter_math(element)
        _inline_svg(element)
        for heading in element.iter("h1"):
            heading.tag = "h2"
    else:
        _sitegen_math(element)
    _images(element, folder)
    return tree(element)[3]


# -- the two views -----------------------------------------------------------------------------

def jupyter_view(notebook: nbformat.NotebookNode) -> list[Shown]:
    """Each cell of ``notebook`` nbconvert's lab template shows, in order (a raw cell of a type it does
    not show has none)."""
    from nbconvert import HTMLExporter

    with warnings.catch_warnings():         # "not able to be represented": a type it has no view of
        warnings.simplefilter("ignore")
        body, _ = HTMLExporter(template_name="lab").from_notebook_node(notebook)
    page = lxml.html.fromstring(body)
    views = []
    for cell in page.xpath("//main/div[contains(concat(' ', @class, ' '), ' jp-Cell ')]"):
        classes = cell.get("class").split()
        id = cell.get("id", "").removeprefix("cell-id=") or None
        if "jp-CodeCell" in classes:
            code = cell.xpath(".//div[contains(@class, 'jp-InputArea-editor')]//pre")
            shown = Shown("code", id, input=code[0].text_content().rstrip() if code else None)
            for output in cell.xpath(".//div[contains(concat(' ', @class, ' '), ' jp-OutputArea-output ')]"):
                shown.outputs.append(_jupyter_output(output))
            views.append(shown)
        else:
            rendered = cell.xpath(".//div[contains(@class, 'jp-RenderedMarkdown')]")
            views.append(Shown("markdown", id, markdown=markdown_tree(rendered[0], True, None) if rendered else ()))
    return views


def _jupyter_output(output) -> tuple[str, tuple]:
    classes = output.get("class").split()
    mime = output.get("data-mime-type") or ""
    if "jp-RenderedImage" in classes:
        img = output.find(".//img")
        mime = (img.get("src", "").split(";")[0].removeprefix("data:")) if img is not None else "image"
    elif "jupyter-widgets" in classes:
        mime = "application/vnd.jupyter.widget-view+json"
    if mime.startswith("image/") or mime == "text/html" or mime == "text/markdown":
        return mime, markdown_tree(output, True, None)
    if mime == "text/latex":
        text = output.text_content().strip()
        match = re.fullmatch(r"\$\$(.*)\$\$|\$(.*)\$|\\\[(.*)\\\]", text, re.S)
        return mime, (("math", {}, _math_key(next(g for g in match.groups() if g is not None) if match else text),
                       ()),)
    if mime == "application/vnd.jupyter.widget-view+json":
        return mime, _widget(output)
    pre = output.find(".//pre")
    return mime, (tree(pre, spans=True),) if pre is not None else tree(output)[3]


def _widget(element) -> tuple:
    script = element.xpath(".//script[@type='application/vnd.jupyter.widget-view+json']")
    found = re.search(r'"model_id"\s*:\s*"([^"]+)"', script[0].text or "") if script else None
    return (("widget", {}, found.group(1) if found else "", ()),)


def sitegen_view(page: Path) -> dict[int, Shown]:
    """Each cell a tutorial page shows, by its number in the notebook (from 1)."""
    tree_ = lxml.html.parse(str(page))
    folder = page.parent
    views: dict[int, Shown] = {}
    for cell in tree_.xpath("//div[contains(concat(' ', @class, ' '), ' nb-cell ')][starts-with(@id, 'nb-cell-')]"):
        number = int(cell.get("id").removeprefix("nb-cell-"))
        if "nb-markdown" in cell.get("class").split():
            views[number] = Shown("markdown", markdown=markdown_tree(cell, False, folder))
            continue
        code = cell.xpath("./div[@class='nb-input']//pre | ./details/div[@class='nb-input']//pre")
        shown = Shown("code", input=code[0].text_content().removeprefix("\n").rstrip() if code else None)
        for child in cell.xpath("./div[@class='nb-outputs']/* | ./details/div[@class='nb-outputs']/*"):
            classes = child.get("class", "").split()
            if "nb-note" in classes:
                if shown.outputs and ABOUT_ITS_ELEMENT.search(child.text_content()) and shown.outputs[-1][0] != "note":
                    continue
                shown.outputs.append(("note", (("p", {}, " ".join(child.text_content().split()), ()),)))
            elif child.tag == "script":
                shown.outputs.append(("application/javascript", ()))
            elif "nb-output" in classes:
                shown.outputs.append(_sitegen_output(child, classes, folder))
        views[number] = shown
    return views


def _sitegen_output(element, classes: list[str], folder: Path) -> tuple[str, tuple]:
    if "nb-image" in classes:
        img = element.find("img")
        suffix = Path(urlsplit(img.get("src", "")).path).suffix
        mime = {".png": "image/png", ".jpg": "image/jpeg", ".gif": "image/gif", ".svg": "image/svg+xml"}[suffix]
        for name in ("alt", "loading"):     # sitegen's alt text is its own (Jupyter's says it has none)
            img.attrib.pop(name, None)
        return mime, markdown_tree(element, False, folder)
    mime = next((SITEGEN_MIME[name] for name in classes[::-1] if name in SITEGEN_MIME), "other")
    if mime == "text/latex" and "arithmatex" in classes:
        match = SITEGEN_MATH.match(element.text_content())
        return mime, (("math", {}, _math_key(match.group(1) if match else element.text_content()), ()),)
    if mime == "application/vnd.jupyter.widget-view+json":
        return mime, _widget(element)
    if element.tag == "pre":
        return mime, (tree(element, spans=True),)
    return mime, markdown_tree(element, False, folder)


# -- comparing -----------------------------------------------------------------------------------

def first_difference(mine: tuple, theirs: tuple) -> tuple[str, str] | None:
    """Where two lists of trees first part, readable, and the kind of construct there; None when equal."""
    found = parting(("", {}, "", mine), ("", {}, "", theirs))
    if found is None:
        return None
    where, a, b = found
    if a[:3] != b[:3]:
        text = f"at {where}:\n  sitegen: {a[0]} {a[1]} {a[2][:300]!r}\n  jupyter: {b[0]} {b[1]} {b[2][:300]!r}"
    else:
        text = (f"at {where or '/'}: sitegen has {len(a[3])} elements, jupyter {len(b[3])}:\n"
                f"  sitegen: {[c[0] for c in a[3]]}\n  jupyter: {[c[0] for c in b[3]]}")
    return text, _kind(a, b)


def _kind(a: tuple, b: tuple) -> str:
    if a[:2] == b[:2] and len(a[3]) == len(b[3]) and _typography(a[2]) == _typography(b[2]):
        return "typography"
    if "⟨math" in a[2] + b[2] or a[0] == "math":
        return "math"
    if a[0] == b[0] and a[1] != b[1]:
        if "class" in a[1] or "class" in b[1]:
            return "ansi colours"
        if a[0] == "img":
            return "image"
        return f"attributes ({a[0]})"
    if a[:2] == b[:2] and len(a[3]) == len(b[3]):
        return "code" if a[0] == "pre" else "text"
    tags = {a[0], b[0]} if a[:2] != b[:2] else \
        set(Counter(c[0] for c in a[3]) - Counter(c[0] for c in b[3]) or
            Counter(c[0] for c in b[3]) - Counter(c[0] for c in a[3])) or {a[0]}
    for own in ("script", "iframe"):        # left out by the sanitizer, or by notebooks.embeds
        if own in tags:
            return own
    for kind, names in KINDS.items():
        if tags & names:
            return kind
    return "html"


TYPOGRAPHY = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "--", "—": "---", "…": "..."})


def _typography(text: str) -> str:
    return text.translate(TYPOGRAPHY)


def compare(notebook_path: Path, page: Path) -> list[CellParity]:
    """Every cell of the notebook ``notebook_path`` (as published) compared on its page ``page``."""
    with warnings.catch_warnings():     # cell ids nbformat mends, as the build does
        warnings.simplefilter("ignore")
        notebook = nbformat.read(notebook_path, as_version=4)
    for number, cell in enumerate(notebook.cells):     # ids of our own, by which Jupyter's view names each
        cell["id"] = f"cell-{number}"
    by_id = {view.id: view for view in jupyter_view(notebook)}
    theirs = [by_id.get(cell.id) for cell in notebook.cells]
    mine = sitegen_view(page)
    title = lxml.html.parse(str(page)).xpath("//h1")
    title_text = " ".join(title[0].text_content().split()) if title else None
    results, first_markdown = [], True
    for number, (cell, their) in enumerate(zip(notebook.cells, theirs), start=1):
        ours = mine.get(number)
        if their is None:       # a raw cell nbconvert does not show
            found = ("jupyter leaves the cell out", "cell jupyter leaves out") if ours else (None, None)
            results.append(CellParity(number, cell.cell_type, *found))
            continue
        if their.kind == "markdown" and first_markdown and cell.cell_type == "markdown":
            first_markdown = False
            their = _without_title(their, title_text)
        if ours is None:
            results.append(CellParity(number, cell.cell_type, "the page leaves the cell out", "cell left out"))
            continue
        results.append(CellParity(number, cell.cell_type, *_cell_difference(ours, their)))
    return results


def _without_title(shown: Shown, title: str | None) -> Shown:
    """The first Markdown cell without its heading, when it is the page's title (sitegen's h1)."""
    if shown.markdown and shown.markdown[0][0] == "h2" and title and _heading_text(shown.markdown[0]) == title:
        return Shown("markdown", markdown=shown.markdown[1:])
    return shown


def _heading_text(node: tuple) -> str:
    return " ".join(" ".join([node[2], *(_heading_text(child) for child in node[3])]).split())


def _cell_difference(ours: Shown, theirs: Shown) -> tuple[str | None, str | None]:
    if ours.kind != theirs.kind:
        return f"sitegen shows a {ours.kind} cell, jupyter a {theirs.kind} cell", "cell kind"
    if ours.kind == "markdown":
        found = first_difference(ours.markdown, theirs.markdown)
        return (found[0], f"markdown: {found[1]}") if found else (None, None)
    if ours.input != theirs.input:
        return f"input:\n  sitegen: {ours.input!r}\n  jupyter: {theirs.input!r}", "input"
    for number, (mine, their) in enumerate(zip(ours.outputs, theirs.outputs), start=1):
        if mine[0] != their[0]:
            return (f"output {number}: sitegen shows {mine[0]}, jupyter {their[0]}: {mine[1][:1]!r:.200}",
                    f"output: {_short(mine[0])} for jupyter's {_short(their[0])}")
        found = first_difference(mine[1], their[1])
        if found:
            return f"output {number} ({mine[0]}) {found[0]}", f"output {_short(mine[0])}: {found[1]}"
    if len(ours.outputs) != len(theirs.outputs):
        return (f"sitegen shows {len(ours.outputs)} outputs ({[m for m, _ in ours.outputs]}), jupyter "
                f"{len(theirs.outputs)} ({[m for m, _ in theirs.outputs]})", "output count")
    return None, None


SHORT = {"application/vnd.jupyter.stderr": "stderr", "application/vnd.jupyter.widget-view+json": "widget",
         "application/javascript": "javascript", "image/svg+xml": "svg"}


def _short(mime: str) -> str:
    return SHORT.get(mime, mime.split("/")[-1])
