"""Names in tutorials' code cells linked to their reference entries, as sphinx-gallery links them.

A cell's imports (``import a.b``, ``import a as b``, ``from a import b as c``)
bind names to dotted paths, for that cell and those after it; a name so bound,
and the attribute chain after it (``np.linalg.norm``), is linked where the
path is documented, by the site's reference or an inventory. Nothing is
guessed: a name no import binds, or a path nobody documents, stays as it is.
The links are put around Pygments' token spans once the cell is highlighted,
so the code reads, and copies, as it did.
"""

from __future__ import annotations

import ast
import re
from html import escape, unescape
from typing import Callable, Iterator

Resolve = Callable[[str], "str | None"]      # a full dotted path -> the URL documenting it

# A code cell's highlighted source: from its input's first <pre> to its end, never past a </div>.
CELL = re.compile(r'(<div class="nb-input">(?:(?!</div>).)*?<pre[^>]*>)(.*?)(</pre>)', re.S)
TOKEN = re.compile(r'<span class="([^"]+)">([^<]*)</span>|[^<]+|<[^>]+>')
NAME_CLASSES = ("n", "nn")        # Pygments' names, and module names in import statements


def link_cells(html: str, resolve: Resolve) -> str:
    """``html`` (a tutorial's page) with the imported names of its code cells linked."""
    bound: dict[str, str] = {}

    def cell(match: re.Match[str]) -> str:
        code = match.group(2)
        bound.update(imports(unescape(re.sub(r"<[^>]+>", "", code))))
        return match.group(1) + link_tokens(code, bound, resolve) + match.group(3)
    return CELL.sub(cell, html) if 'class="nb-input"' in html else html


def imports(source: str) -> dict[str, str]:
    """The names ``source``'s imports bind -> the dotted paths they stand for (a cell Python
    cannot parse, with IPython's ``%magic`` lines, is read statement by statement)."""
    try:
        statements = list(ast.walk(ast.parse(source)))
    except (SyntaxError, ValueError):
        statements = [node for line in source.splitlines() for node in _statement(line.strip())]
    bound: dict[str, str] = {}
    for node in statements:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    bound[top] = top
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                if alias.name != "*":
                    bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return bound


def _statement(line: str) -> Iterator[ast.AST]:
    if line.startswith(("import ", "from ")):
        try:
            yield from ast.parse(line).body
        except (SyntaxError, ValueError):
            return


def link_tokens(code: str, bound: dict[str, str], resolve: Resolve) -> str:
    """The token spans of ``code`` (Pygments' HTML), each name of a chain starting with a bound
    name (and each imported module's name) wrapped in a link to its entry."""
    tokens = [(m.group(0), m.group(1), unescape(m.group(2) or "")) for m in TOKEN.finditer(code)]
    links: dict[int, str] = {}
    at = 0
    while at < len(tokens):
        html, css, text = tokens[at]
        if css == "nn" and (url := resolve(text)):
            links[at] = url
        elif css == "n" and text in bound and not _after_dot(tokens, at):
            path, i = bound[text], at
            while True:
                if url := resolve(path):
                    links[i] = url
                following = _attribute(tokens, i)
                if following is None:
                    break
                i = following
                path += "." + tokens[i][2]
            at = i
        at += 1
    return "".join(f'<a class="xref" href="{escape(links[i])}">{html}</a>' if i in links else html
                   for i, (html, _, _) in enumerate(tokens))


def _attribute(tokens: list[tuple[str, str | None, str]], at: int) -> int | None:
    """The index of the name after ``at`` and a dot (``a.b``), if there is one."""
    if at + 2 < len(tokens) and tokens[at + 1][1] == "o" and tokens[at + 1][2] == "." \
            and tokens[at + 2][1] in NAME_CLASSES:
        return at + 2
    return None


def _after_dot(tokens: list[tuple[str, str | None, str]], at: int) -> bool:
    return at > 0 and tokens[at - 1][1] == "o" and tokens[at - 1][2] == "."
