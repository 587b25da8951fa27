"""The reStructuredText of sphinx-gallery text blocks, as Markdown.

Not a reST parser: a line-by-line translation of what tutorial prose uses —
section titles, inline literals and roles, links, ``::`` literal blocks and
directives, at any depth (a ``code-block`` inside a list item) — into the
Markdown our pipeline reads. Directives become MyST's (see generator.myst),
which have the same names and options: an admonition, a figure, ``math`` with
a ``:label:``; one that MyST here does not render is warned of there, at its
cell. Labels (``.. _name:``) become MyST targets, ``:ref:`` and ``:doc:`` its
roles, so they lead to the target's title. ``contents`` is left out: the page
has its own outline.
"""

from __future__ import annotations

import re

from generator.text import trim_blank_lines

TITLE_CHARS = "=-~^\"'`*+#:."
CODE_DIRECTIVES = {"code", "code-block", "sourcecode"}
LEFT_OUT = {"contents"}
DIRECTIVE = re.compile(r"^(\s*)\.\.\s+([\w:-]+)::\s*(.*)$")
LABEL = re.compile(r"^(\s*)\.\.\s+_([^:`]+):\s*$")
FIELD = re.compile(r"^:([\w-]+):\s*(.*)$")
REFERENCE = re.compile(r":(ref|doc):`([^`]+)`")

INLINE = [
    (re.compile(r"``(.+?)``"), lambda m: _code(m.group(1))),
    (re.compile(r":math:`(.+?)`"), lambda m: f"\\({m.group(1)}\\)"),
    (REFERENCE, lambda m: f"{{{m.group(1)}}}`{m.group(2)}`"),
    (re.compile(r":[\w:.+-]+:`(?:([^`<]*?)\s*<[^`>]*>|~?([^`]+))`"),
     lambda m: _code(m.group(1) or m.group(2))),
    (re.compile(r"`([^`<]+?)\s*<([^`>]+)>`__?"), lambda m: f"[{m.group(1)}]({m.group(2)})"),
    (re.compile(r"`([^`]+)`__?"), lambda m: m.group(1)),
]


# In Markdown: a role, or a code span (whose text is left alone), or a fenced block's fence.
MARKDOWN_ROLE = re.compile(r"(?P<role>:[\w.+-]+(?::[\w.+-]+)*:)`(?P<text>[^`]+)`|(?P<ticks>`+).+?(?P=ticks)")
FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")


def roles_to_markdown(markdown: str) -> str:
    """Markdown with the reST roles that sphinx-gallery leaves in a notebook's text cells
    (``:func:`numpy.sum```, ``:math:`x^2```) made Markdown, outside code spans and blocks."""
    if ":`" not in markdown:
        return markdown
    lines, fence = markdown.split("\n"), None
    for n, line in enumerate(lines):
        opened = FENCE.match(line)
        if opened and (fence is None or opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence)):
            fence = opened.group(1) if fence is None else None
        elif fence is None:
            lines[n] = MARKDOWN_ROLE.sub(_markdown_role, line)
    return "\n".join(lines)


def _markdown_role(match: re.Match) -> str:
    if match.group("role") is None:
        return match.group(0)
    role, text = match.group("role"), match.group("text")
    if role == ":math:":
        return f"${text}$"
    if role in (":ref:", ":doc:"):
        return f"{{{role.strip(':')}}}`{text}`"
    target = re.fullmatch(r"([^<]*?)\s*<[^>]*>", text)
    if target and target.group(1):
        return _code(target.group(1))
    return _code(text[1:].rsplit(".", 1)[-1] if text.startswith("~") else text)   # ~a.b.C shows C


def _code(text: str) -> str:
    fence = "``" if "`" in text else "`"
    return f"{fence}{text}{fence}"


class RstToMarkdown:
    """Converts the text blocks of one script, keeping its section levels across blocks."""

    def __init__(self) -> None:
        self.levels: list[str] = []   # title adornments in the order they appeared

    def convert(self, text: str) -> str:
        lines = text.split("\n")
        out: list[str] = []
        i = 0
        while i < len(lines):
            line = lines[i]
            title = self._title(lines, i)
            if title:
                heading, i = title
                out += [heading, ""]
                continue
            indent = line[:len(line) - len(line.lstrip())]
            directive = DIRECTIVE.match(line)
            if directive:
                body, i = _indented_block(lines, i + 1, len(indent))
                out += [indent + l if l else "" for l in
                        self._directive(directive.group(2).lower(), directive.group(3), body)]
                continue
            label = LABEL.match(line)
            if label:
                out += [f"{indent}({label.group(2).strip()})=", ""]
                i += 1
                continue
            if line.lstrip().startswith(".."):        # a comment or a link target
                _, i = _indented_block(lines, i + 1, len(indent))
                continue
            if line.rstrip().endswith("::") and (i + 1 == len(lines) or not lines[i + 1].strip()):
                body, end = _indented_block(lines, i + 1, len(indent))
                if body:
                    head = line.rstrip()[:-2].rstrip()
                    if head.strip():
                        out.append(self.inline(head + ":"))
                    out += ["", *(indent + l for l in ["```python", *_dedent(body), "```"])]
                    i = end
                    continue
            out.append(self.inline(line))
            i += 1
        return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip("\n")

    def inline(self, line: str) -> str:
        for pattern, replace in INLINE:
            line = pattern.sub(replace, line)
        return line

    def _title(self, lines: list[str], i: int) -> tuple[str, int] | None:
        """A section title at line ``i`` (underlined, maybe overlined): its heading and next line."""
        over = None
        if _is_adornment(lines[i]) and i + 2 < len(lines) and lines[i + 2].rstrip() == lines[i].rstrip():
            over, i = lines[i].rstrip()[0], i + 1
        if i + 1 >= len(lines) or not lines[i].strip() or lines[i].startswith(" "):
            return None
        under = lines[i + 1].rstrip()
        if not _is_adornment(under) or len(under) < len(lines[i].strip()):
            return None
        style = (over or "") + under[0]
        if style not in self.levels:
            self.levels.append(style)
        level = min(self.levels.index(style) + 1, 6)
        return "#" * level + " " + self.inline(lines[i].strip()), i + 2

    def _directive(self, name: str, argument: str, body: list[str]) -> list[str]:
        """A directive as Markdown: code as a fence, anything else as MyST's directive of
        its name, the body converted (but math's, which is TeX)."""
        fields = []
        while body and FIELD.match(body[0].strip()):
            fields.append(body[0].strip())
            body = body[1:]
        content = _dedent(body)
        if name in CODE_DIRECTIVES:
            language = (argument.strip() or "python").lower()
            return ["", f"```{language}", *trim_blank_lines(content), "```", ""]
        if name in LEFT_OUT:
            return []
        if name == "math" and not fields:
            return ["", "$$", *([argument] if argument else []), *trim_blank_lines(content), "$$", ""]
        inner = trim_blank_lines(content) if name == "math" else self.convert("\n".join(content)).split("\n")
        fence = "`" * max([3, *(len(f) + 1 for f in re.findall(r"^\s*(`{3,})", "\n".join(inner), re.M))])
        head = f"{fence}{{{name}}} {argument.strip()}".rstrip()
        return ["", head, *fields, *([""] if fields and inner else []), *inner, fence, ""]


def _is_adornment(line: str) -> bool:
    line = line.rstrip()
    return len(line) >= 3 and line[0] in TITLE_CHARS and line == line[0] * len(line)


def _indented_block(lines: list[str], i: int, indent: int = 0) -> tuple[list[str], int]:
    """The lines from ``i`` on indented deeper than ``indent`` (blank lines inside kept), and
    the index after them."""
    block: list[str] = []
    while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent):
        block.append(lines[i])
        i += 1
    while block and not block[-1].strip():
        block.pop()
        i -= 1
    return block, i


def _dedent(lines: list[str]) -> list[str]:
    indent = min((len(l) - len(l.lstrip()) for l in lines if l.strip()), default=0)
    return [l[indent:] for l in trim_blank_lines(lines)]
