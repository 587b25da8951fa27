"""reST tables of docstrings (grid and simple ones) as HTML tables.

The tables are read by docutils' own parsers (the reference reader of reST:
spans, header rows, multi-line cells as reST reads them); each cell's text is
rendered as the rest of the docstring is, by the caller.
"""

from __future__ import annotations

import re
from typing import Callable

GRID_EDGE = re.compile(r"\+(?:[-=]+\+)+\Z")
SIMPLE_EDGE = re.compile(r"=+(?: +=+)*\Z")


class Malformed(ValueError):
    """A block shaped like a table that docutils cannot read as one."""


def is_table(lines: list[str]) -> bool:
    """Whether ``lines`` (a block, dedented) start and end with a grid or simple table's border."""
    if len(lines) < 3:
        return False
    first, last = lines[0].strip(), lines[-1].strip()
    return bool(GRID_EDGE.match(first) and GRID_EDGE.match(last)) or bool(
        SIMPLE_EDGE.match(first) and SIMPLE_EDGE.match(last))


def table_html(lines: list[str], cell: Callable[[str], str], label: str = "Table") -> str:
    """The table of ``lines`` as HTML, each cell's text through ``cell``; :class:`Malformed` if
    docutils cannot read it."""
    from docutils.parsers.rst.tableparser import GridTableParser, SimpleTableParser, TableMarkupError
    from docutils.statemachine import StringList

    lines = [line.rstrip() for line in lines]
    grid = lines[0].startswith("+")
    if grid and any(len(line) != len(lines[0]) or line[-1:] not in "+|" for line in lines):
        raise Malformed("its lines are not all as wide as its border")
    try:
        _, head, body = (GridTableParser() if grid else SimpleTableParser()).parse(StringList(lines))
    except TableMarkupError as exc:
        raise Malformed(" ".join(str(exc).split())) from None

    def rows(found: list, tag: str) -> str:
        out = []
        for row in found:
            cells = []
            for entry in row:
                if entry is None:          # covered by a cell spanning it
                    continue
                more_rows, more_cols, _, block = entry
                span = (f' rowspan="{more_rows + 1}"' if more_rows else "") + \
                       (f' colspan="{more_cols + 1}"' if more_cols else "")
                cells.append(f"<{tag}{span}>{cell(chr(10).join(block).strip())}</{tag}>")
            out.append("<tr>" + "".join(cells) + "</tr>")
        return "".join(out)
    head_html = f"<thead>{rows(head, 'th')}</thead>" if head else ""
    return (f'<div class="table-wrap" tabindex="0" role="region" aria-label="{label}"><table class="api-table">'
            f"{head_html}<tbody>{rows(body, 'td')}</tbody></table></div>")
