"""Tutorial sources: ``.ipynb`` files and ``.py`` scripts, as nbformat notebooks.

A ``.py`` tutorial is either in the percent format (``# %%`` opens a code cell,
``# %% [markdown]`` a text cell of ``#``-commented lines) or in sphinx-gallery's
format (a docstring, then code, with text blocks of comments opened by a line
of 20 or more ``#`` or by ``# %%``), whose reStructuredText becomes Markdown.
Either may start with a YAML header in comments (``# ---`` ... ``# ---``) that
becomes the notebook's metadata, so a script can declare what a notebook
declares (``sitegen: {requires: [tvm]}``).

Everything is turned into an nbformat notebook here, once; ``to_percent``
writes any notebook back as a percent-format script (the ``.py`` download).
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Collection

import nbformat
import yaml
from nbformat import NotebookNode
from nbformat.warnings import DuplicateCellId, MissingIDFieldWarning
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_raw_cell

from generator.errors import SiteError
from generator.notebooks import FOLDER
from generator.notebooks.rst import RstToMarkdown
from generator.site import slugify
from generator.sources import read_text
from generator.yamltext import parse_yaml

SUFFIXES = (".ipynb", ".py")
PERCENT = re.compile(r"^# %%(?!%)(.*)$")
CELL_TYPE = re.compile(r"\[(markdown|md|raw)\]", re.I)
OPTION = re.compile(r"(\w+)=")
GALLERY_SEPARATOR = re.compile(r"^#{20,}\s*$")
GALLERY_CONFIG = re.compile(r"^\s*#\s*sphinx_gallery_\w+")
DOCSTRING_START = re.compile(r'^[rRuU]?("""|\'\'\')')
TITLE_UNDERLINE = re.compile(r"^([=\-~^\"'`*+#:.])\1{2,}$")     # a reStructuredText title's
SLUG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
PYTHON_METADATA = {
    "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
    "language_info": {"name": "python"},
}


@dataclass
class Tutorial:
    """One tutorial as authored: its notebook and where each cell came from."""

    path: Path                  # relative to the site, as messages name it
    folder: Path                # absolute; the kernel's working directory
    slug: str                   # its page is <slug>.html in the gallery's folder
    notebook: NotebookNode
    lines: list[int] | None     # first line of each cell in a .py source
    repairs: list[str] = field(default_factory=list)    # what was left out of a notebook not valid to its schema

    @property
    def colab_cell(self) -> bool:
        """Whether the first cell only sets up Google Colab (``%%shell`` installs)."""
        cells = self.notebook.cells
        return bool(cells) and cells[0].cell_type == "code" and cells[0].source.lstrip().startswith("%%shell")

    @property
    def shown_cells(self) -> list[tuple[int, NotebookNode]]:
        """``(index, cell)`` of the cells that are executed and shown: all but a Colab cell."""
        start = 1 if self.colab_cell else 0
        return list(enumerate(self.notebook.cells))[start:]

    def named(self, names: Collection[str]) -> bool:
        """Whether one of ``names`` (as ``--refresh NAME`` takes them) is this tutorial."""
        return bool(set(names) & names_of(self.path))

    def locate(self, index: int) -> tuple[Path, int | None]:
        """The file and (for scripts) line of cell ``index``, for error messages."""
        return self.path, self.lines[index] if self.lines else None


def discover(root: Path, exclude: Collection[str] = ()) -> list[Path]:
    """Tutorial files under ``root/notebooks``, relative to ``root``, in name order (see :func:`survey`)."""
    return survey(root, exclude)[0]


def survey(root: Path, exclude: Collection[str] = ()) -> tuple[list[Path], list[Path]]:
    """The tutorial files under ``root/notebooks`` and the ``.py`` modules beside them that are
    not tutorials (:func:`is_tutorial_script`), relative to ``root``, in name order.

    Names starting with ``_`` or ``.`` are helpers, not tutorials (``_data.py``,
    ``.ipynb_checkpoints``), as are the files ``exclude`` (site.yaml's ``notebooks.exclude``)
    matches, by their path in the folder or a folder's (fnmatch: ``data``, ``helpers/*.py``).
    """
    base = root / FOLDER
    if not base.is_dir():
        return [], []
    found: tuple[list[Path], list[Path]] = ([], [])
    for path in sorted(base.rglob("*")):
        rel = path.relative_to(base)
        if any(part.startswith(("_", ".")) for part in rel.parts) or _excluded(rel, exclude):
            continue
        if path.suffix in SUFFIXES and path.is_file():
            module = path.suffix == ".py" and not is_tutorial_script(path.read_text(errors="replace"))
            found[module].append(path.relative_to(root))
    return found


def _excluded(rel: Path, patterns: Collection[str]) -> bool:
    """Whether ``rel`` (a path in notebooks/) or a folder it is in matches one of ``patterns``."""
    return any(fnmatch.fnmatchcase(path.as_posix(), pattern)
               for path in (rel, *list(rel.parents)[:-1]) for pattern in patterns)


def is_tutorial_script(text: str) -> bool:
    """Whether a ``.py`` file is a tutorial, as jupytext and sphinx-gallery would read one: in the
    percent format (a ``# %%`` line, or a ``# ---`` YAML header) or in sphinx-gallery's (a
    docstring opening with a reStructuredText title, a text block's line of ``#``, a
    ``sphinx_gallery_`` setting). Else it is a module the tutorials import (``utils.py``), which
    runs as part of them, not as a page."""
    lines = text.replace("\r\n", "\n").split("\n")
    if lines[0].rstrip() == "# ---" or any(PERCENT.match(line) or GALLERY_SEPARATOR.match(line)
                                           or GALLERY_CONFIG.match(line) for line in lines):
        return True
    start = next((n for n, line in enumerate(lines) if line.strip() and not line.startswith("#")), len(lines))
    opening = DOCSTRING_START.match(lines[start]) if start < len(lines) else None
    if opening is None:
        return False
    docstring = "\n".join([lines[start][opening.end():], *lines[start + 1:]]).split(opening.group(1))[0]
    paragraphs = [p.strip().split("\n") for p in re.split(r"\n\s*\n", docstring.strip())]
    first = next((p for p in paragraphs if not p[0].startswith("..")), [""])
    underline = first[2 if TITLE_UNDERLINE.match(first[0]) else 1:][:1]      # a title may have an overline too
    return bool(underline) and TITLE_UNDERLINE.match(underline[0].strip()) is not None


def load_tutorial(root: Path, relpath: Path, problems: str = "error") -> Tutorial:
    """Read one tutorial file into a :class:`Tutorial`; with ``problems: warn``, a notebook that is
    not valid to its schema loses what is not, each part named in its ``repairs``."""
    path = root / relpath
    text = read_text(path, relpath)
    repairs: list[str] = []
    if relpath.suffix == ".ipynb":
        notebook, lines = read_ipynb(text, relpath, repairs if problems == "warn" else None), None
    else:
        notebook, lines = read_script(text, relpath)
    return Tutorial(relpath, path.parent.resolve(), slug_of(relpath), notebook, lines, repairs)


def slug_of(relpath: Path) -> str:
    """The tutorial's page name in its gallery, from its path (``notebooks/A b.ipynb``: ``a-b``)."""
    stem = relpath.relative_to(FOLDER).with_suffix("")
    return "/".join(part if SLUG.match(part) else slugify(part) for part in stem.parts)


def names_of(relpath: Path) -> set[str]:
    """What a reader may call a tutorial: its path, under notebooks/ or not, with or without
    its suffix, or its slug."""
    rel = relpath.relative_to(FOLDER)
    return {rel.as_posix(), rel.with_suffix("").as_posix(), slug_of(relpath), relpath.as_posix()}


def read_ipynb(text: str, path: Path, repairs: list[str] | None = None) -> NotebookNode:
    """The notebook in ``text``. One not valid to nbformat's schema is an error naming the cell (its
    number and id) and the failing key, or, given ``repairs``, loses the failing output, cell or
    metadata key and is read on, each loss added to ``repairs``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SiteError(f"not a notebook: invalid JSON ({exc.msg})", path, exc.lineno) from None
    if not isinstance(data, dict):
        raise SiteError("not a notebook: expected a JSON object with cells and metadata", path)
    try:
        with warnings.catch_warnings():     # about ids it makes up, which _stable_ids replaces
            warnings.simplefilter("ignore", DuplicateCellId)
            warnings.simplefilter("ignore", MissingIDFieldWarning)
            notebook = nbformat.reads(text, as_version=4)    # joins line lists, upgrades old versions
            _validate(notebook, path, repairs)
    except (nbformat.reader.NotJSONError, AttributeError, KeyError, TypeError) as exc:
        message = getattr(exc, "message", None) or str(exc)
        raise SiteError(f"not a valid notebook: {message.splitlines()[0]}", path) from None
    written = [cell.get("id") if isinstance(cell, dict) else None
               for cell in data.get("cells", [])] if data.get("nbformat") == 4 else []
    if notebook.nbformat_minor >= 5:         # a version with cell ids, or upgraded to one
        _stable_ids(notebook, written)
    return notebook


def _validate(notebook: NotebookNode, path: Path, repairs: list[str] | None) -> None:
    for _ in range(10_000):
        try:
            nbformat.validate(notebook)
            return
        except nbformat.ValidationError as exc:
            where = list(getattr(exc, "absolute_path", ()))
            message = f"{_schema_place(notebook, where)}: {_schema_message(exc.message, getattr(exc, 'instance', None))}"
            left_out = _leave_out(notebook, where) if repairs is not None else None
            if left_out is None:
                more = "" if repairs is not None else " (notebooks.problems: warn shows the rest of it)"
                raise SiteError(f"not a valid notebook: {message}{more}", path) from None
            repairs.append(f"not a valid notebook: {message}: {left_out} left out")
    raise SiteError("not a valid notebook: too many parts of it are not", path)


def _schema_message(message: str, instance: object) -> str:
    """The schema's complaint, short: a cell of no known type says so, not the whole cell."""
    if isinstance(instance, dict) and "is not valid under any of the given schemas" in message:
        kind = instance.get("cell_type", instance.get("output_type"))
        key = "cell_type" if "cell_type" in instance else "output_type"
        return f"{key} {kind!r} with keys {', '.join(sorted(map(str, instance)))} is not one nbformat 4 knows"
    first = message.splitlines()[0] if message else "not valid"
    return first if len(first) <= 200 else first[:197] + "..."


def _schema_place(notebook: NotebookNode, where: list) -> str:
    """Where in a notebook a schema error is: ``cell 3 (id 'run'): outputs[0].name``."""
    if len(where) >= 2 and where[0] == "cells" and isinstance(where[1], int):
        cell = notebook.cells[where[1]] if where[1] < len(notebook.cells) else {}
        own = cell.get("id") if isinstance(cell, dict) else None
        return f"cell {where[1] + 1}{f' (id {own!r})' if isinstance(own, str) else ''}: {_key(where[2:]) or 'the cell'}"
    return _key(where) or "the notebook"


def _key(where: list) -> str:
    """A path in the notebook's JSON as written in code: ``outputs[0].name``."""
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in where).lstrip(".")


def _leave_out(notebook: NotebookNode, where: list) -> str | None:
    """Remove the smallest whole part that holds a schema error: the output, the cell (a note takes its
    place, keeping the cells' numbers), or the notebook metadata key (a cell's bad ``execution_count`` is
    only forgotten); what it was, or None."""
    if len(where) >= 3 and where[0] == "cells" and where[2] == "execution_count":
        notebook.cells[where[1]]["execution_count"] = None
        return "its execution count"
    if len(where) >= 4 and where[0] == "cells" and where[2] == "outputs" and isinstance(where[3], int):
        del notebook.cells[where[1]]["outputs"][where[3]]
        return f"output {where[3] + 1}"
    if len(where) >= 2 and where[0] == "cells" and isinstance(where[1], int):
        own = notebook.cells[where[1]].get("id") if isinstance(notebook.cells[where[1]], dict) else None
        note = new_markdown_cell("*A cell is left out here: it is not valid to the notebook format.*")
        if notebook.nbformat_minor < 5:         # no cell ids in this version
            del note["id"]
        elif isinstance(own, str) and re.fullmatch(r"[a-zA-Z0-9-_]{1,64}", own):
            note.id = own
        notebook.cells[where[1]] = note
        return "the cell"
    if len(where) >= 2 and where[0] == "metadata":
        del notebook.metadata[where[1]]
        return f"the metadata key {where[1]!r}"
    return None


def _stable_ids(notebook: NotebookNode, written: list[str | None]) -> None:
    """Cell ids as the file has them, and where it has none (nbformat 3, or a missing or
    repeated id) ids made from the cell's content, not the random ones nbformat invents:
    the same file must give the same download on every build."""
    taken: set[str] = set()
    kept: list[str | None] = []
    for n in range(len(notebook.cells)):
        own = written[n] if n < len(written) else None
        if isinstance(own, str) and own and own not in taken:
            taken.add(own)
            kept.append(own)
        else:
            kept.append(None)
    for cell, own in zip(notebook.cells, kept):
        if own is not None:
            cell.id = own
            continue
        base = hashlib.sha256(f"{cell.cell_type}\0{cell.source}".encode("utf-8")).hexdigest()[:8]
        candidate, n = base, 1
        while candidate in taken:
            n += 1
            candidate = f"{base}-{n}"
        taken.add(candidate)
        cell.id = candidate


def read_script(text: str, path: Path) -> tuple[NotebookNode, list[int]]:
    """A ``.py`` tutorial (percent or sphinx-gallery format) as a notebook."""
    lines = text.replace("\r\n", "\n").split("\n")
    metadata, start = _yaml_header(lines, path)
    body = start
    while body < len(lines) and (not lines[body].strip() or lines[body].startswith("#")) \
            and not PERCENT.match(lines[body]):
        body += 1
    if body < len(lines) and DOCSTRING_START.match(lines[body]):
        cells, first_lines = _gallery_cells(lines, body, path)
    else:
        cells, first_lines = _percent_cells(lines, start, path)
    notebook = new_notebook(cells=cells, metadata={**PYTHON_METADATA, **metadata})
    for n, cell in enumerate(notebook.cells, start=1):
        cell.id = f"cell-{n}"
    return notebook, first_lines


def _yaml_header(lines: list[str], path: Path) -> tuple[dict, int]:
    """The ``# ---`` ... ``# ---`` YAML header of a script, and the line after it."""
    if not lines or lines[0].rstrip() != "# ---":
        return {}, 0
    for end in range(1, len(lines)):
        if lines[end].rstrip() == "# ---":
            break
        if not lines[end].startswith("#"):
            raise SiteError("the YAML header is not closed: end it with a line '# ---'", path, 1)
    else:
        raise SiteError("the YAML header is not closed: end it with a line '# ---'", path, 1)
    text = "\n".join(_uncomment(line) for line in lines[1:end])
    metadata = parse_yaml(text, path, "invalid YAML header", offset=1) or {}
    if not isinstance(metadata, dict):
        raise SiteError("the YAML header must be a mapping of keys to values", path, 2)
    return metadata, end + 1


def _percent_cells(lines: list[str], start: int, path: Path) -> tuple[list[NotebookNode], list[int]]:
    cells, first_lines = [], []
    kind, options, begin, body = "code", {}, start, []

    def flush() -> None:
        source = _trim(body)
        if kind == "code" and not source and not options:
            return
        if kind == "code":
            cell = new_code_cell(source)
        else:
            text = "\n".join(_uncomment(line) for line in source.split("\n")) if source else ""
            cell = new_markdown_cell(text) if kind == "markdown" else new_raw_cell(text)
        cell.metadata.update(options)
        cells.append(cell)
        first_lines.append(begin + 1)

    for number in range(start, len(lines)):
        marker = PERCENT.match(lines[number])
        if marker:
            flush()
            kind, options = _percent_marker(marker.group(1), path, number + 1)
            begin, body = number, []
        else:
            body.append(lines[number])
    flush()
    return cells, first_lines


def _percent_marker(rest: str, path: Path, line: int) -> tuple[str, dict]:
    """The cell type and metadata of a ``# %% [markdown] tags=["x"]`` line."""
    found = CELL_TYPE.search(rest)
    kind = ("raw" if found.group(1).lower() == "raw" else "markdown") if found else "code"
    options = {}
    decoder = json.JSONDecoder()
    position = 0
    while option := OPTION.search(rest, position):
        try:
            options[option.group(1)], position = decoder.raw_decode(rest, option.end())
        except json.JSONDecodeError:
            raise SiteError(f"cell option {option.group(1)}= needs a JSON value, "
                            'e.g. tags=["raises-exception"]', path, line) from None
    return kind, options


def _gallery_cells(lines: list[str], start: int, path: Path) -> tuple[list[NotebookNode], list[int]]:
    """Cells of a sphinx-gallery script whose docstring starts at line index ``start``."""
    quote = DOCSTRING_START.match(lines[start]).group(1)
    opening = lines[start].index(quote) + 3
    end = start
    while quote not in lines[end][opening if end == start else 0:]:
        end += 1
        if end == len(lines):
            raise SiteError("the docstring is not closed", path, start + 1)
    close = lines[end].index(quote, opening if end == start else 0)
    if end == start:
        doc = [lines[start][opening:close]]
    else:
        doc = [lines[start][opening:], *lines[start + 1:end], lines[end][:close]]
    converter = RstToMarkdown()
    cells = [new_markdown_cell(converter.convert(_dedent_docstring(doc)))]
    first_lines = [start + 1]

    number = end + 1
    code: list[str] = []
    code_start = number
    while number < len(lines):
        line = lines[number]
        if GALLERY_SEPARATOR.match(line) or PERCENT.match(line):
            _add_code(cells, first_lines, code, code_start)
            text_start, number = number, number + 1
            text = []
            while number < len(lines) and lines[number].startswith("#") \
                    and not GALLERY_SEPARATOR.match(lines[number]) and not PERCENT.match(lines[number]):
                text.append(_uncomment(lines[number]))
                number += 1
            if _trim(text):
                cells.append(new_markdown_cell(converter.convert(_trim(text))))
                first_lines.append(text_start + 1)
            code, code_start = [], number
            continue
        if not GALLERY_CONFIG.match(line):
            code.append(line)
        number += 1
    _add_code(cells, first_lines, code, code_start)
    return cells, first_lines


def _add_code(cells: list[NotebookNode], first_lines: list[int], code: list[str], start: int) -> None:
    source = _trim(code)
    if source:
        skipped = next(i for i, line in enumerate(code) if line.strip())
        cells.append(new_code_cell(source))
        first_lines.append(start + skipped + 1)


def _dedent_docstring(lines: list[str]) -> str:
    """Docstring lines without their common indentation (the first line excepted)."""
    rest = [line for line in lines[1:] if line.strip()]
    indent = min((len(line) - len(line.lstrip()) for line in rest), default=0)
    return _trim([lines[0].strip()] + [line[indent:] for line in lines[1:]])


def _uncomment(line: str) -> str:
    if line.startswith("# "):
        return line[2:]
    return line[1:] if line.startswith("#") else line


def _trim(lines: list[str]) -> str:
    """Lines joined, without blank lines at either end or trailing spaces."""
    text = "\n".join(line.rstrip() for line in lines)
    return text.strip("\n")


class HeaderDumper(yaml.SafeDumper):
    """YAML as people write a header: mappings in blocks, short lists inline (``requires: [tvm]``)."""

    def represent_list(self, data: list) -> yaml.Node:
        flow = all(isinstance(item, (str, int, float, bool)) for item in data)
        return self.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


HeaderDumper.add_representer(list, HeaderDumper.represent_list)


def to_percent(notebook: NotebookNode) -> str:
    """The notebook as a percent-format script; ``read_script`` reads back the same cells."""
    parts = []
    if "sitegen" in notebook.metadata:
        header = {"sitegen": json.loads(json.dumps(notebook.metadata["sitegen"]))}  # plain dicts for YAML
        dumped = yaml.dump(header, Dumper=HeaderDumper, sort_keys=False, allow_unicode=True).rstrip("\n")
        parts.append("\n".join(["# ---", *_comment(dumped.split("\n")), "# ---"]))
    for cell in notebook.cells:
        tags = cell.metadata.get("tags")
        options = f" tags={json.dumps(tags)}" if tags else ""
        source = cell.get("source", "").strip("\n")    # a cell type of a later nbformat has none
        if cell.cell_type == "code":
            parts.append(f"# %%{options}" + (f"\n{source}" if source else ""))
        else:
            kind = "markdown" if cell.cell_type == "markdown" else "raw"
            lines = _comment(source.split("\n")) if source else []
            parts.append("\n".join([f"# %% [{kind}]{options}", *lines]))
    return "\n\n".join(parts) + "\n"


def _comment(lines: list[str]) -> list[str]:
    return [f"# {line}".rstrip() if line else "#" for line in lines]
