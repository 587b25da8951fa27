"""The reference's pages: one per module (and per class of a large module), as HTML fragments.

Each entry shows its signature highlighted by Pygments with its annotations
linked, its docstring's sections as text and tables (examples as highlighted
doctest blocks), a link to its lines in the version's source listing, and,
for a class, its own members then those it inherits. Free text is the site's
Markdown for Google-style (and ``auto``) docstrings; reST and numpydoc text is
escaped and given the little reST it needs (literals, roles, ``::`` blocks).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from typing import Any, Callable

from pygments.lexers import PythonLexer
from pygments.token import STANDARD_TYPES

from generator.api import tables, xref
from generator.api.collect import Package, first_line, target
from generator.highlight import highlight
from generator.markdown import render_markdown

TITLES = {"modules": "Submodules", "classes": "Classes", "functions": "Functions", "attributes": "Attributes"}
WIDTH = 80                # a signature longer than this puts each parameter on its own line
LITERAL = re.compile(r"``(.+?)``|`([^`]+)`")
STRONG = re.compile(r"\*\*(.+?)\*\*")
EMPHASIS = re.compile(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])")
DIRECTIVE = re.compile(r"\.\. ([\w-]+)::\s*(.*)")
Warn = Callable[[str, str], None]      # (the text shown as written, why)


@dataclass(frozen=True)
class Page:
    """A page of the reference: ``rel`` below the reference's folder, its body as HTML."""

    rel: str
    title: str
    html: str
    source: str             # the module's file, relative to the tree
    kind: str               # "module" or "class"


class Renderer:
    """Renders one package's pages, resolving references through ``index``."""

    def __init__(self, package: Package, index: xref.Index, listing_url: Any):
        self.package = package
        self.index = index
        self.listing_url = listing_url      # (file relative to the tree) -> URL of its listing
        self.markdown = package.spec.docstrings in ("google", "auto")

    def module_pages(self, module: Any) -> list[Page]:
        """A module's page, and its classes' where they have their own."""
        made = [self.module_page(module)]
        if module.path in self.package.split:
            made += [self.class_page(cls) for cls in self.package.members(module)["classes"] if not cls.is_alias]
        return made

    def module_page(self, module: Any) -> Page:
        parts = [self.docstring(module)]
        split = module.path in self.package.split
        for kind, members in self.package.members(module).items():
            if not members:
                continue
            parts.append(f'<h2 id="{kind}">{TITLES[kind]}</h2>')
            for member in members:
                shown = self.adopted(member)
                if shown is not None and not (split and kind == "classes"):
                    parts.append(self.entry(shown, 3, member.path))
                elif member.is_alias or kind == "modules" or (split and kind == "classes"):
                    parts.append(self.summary(member))
                else:
                    parts.append(self.entry(member, 3))
        return Page(self.package.page_of(module), module.path, "\n".join(parts), self.package.source(module), "module")

    def adopted(self, member: Any) -> Any:
        """What ``member`` re-exports here from a module that is not documented, if so."""
        if not member.is_alias:
            return None
        shown = target(member)
        return shown if shown is not None and self.package.adopted.get(shown.path) is member else None

    def class_page(self, cls: Any) -> Page:
        return Page(self.package.page_of(cls), cls.path, self.entry(cls, 2), self.package.source(cls), "class")

    def summary(self, member: Any) -> str:
        """A line for a member documented elsewhere: a submodule, a re-export, a class's own page."""
        shown = target(member) if member.is_alias else member
        link = self.index.url(shown.path) or "#"
        first = first_line(shown)
        also = f" (from <code>{escape(shown.parent.path)}</code>)" if member.is_alias and shown.parent else ""
        return (f'<p class="api-summary" id="{escape(member.path)}"><a href="{escape(link)}"><code>'
                f'{escape(member.name)}</code></a>{also}{" — " + escape(first) if first else ""}</p>')

    def entry(self, obj: Any, level: int, public: str = "") -> str:
        """An object's entry: heading, signature, source link, docstring, and a class's members.
        ``public``: the name it is documented under, where a module re-exports it."""
        kind = "class" if obj.is_class else "function" if obj.is_function else "attribute"
        name = public or (obj.path if not obj.parent.is_class else f"{obj.parent.name}.{obj.name}")
        heading = (f'<h{level} class="api-name" id="{escape(obj.path)}" data-pagefind-weight="10">'
                   f'<code>{escape(name)}</code>{self.source_link(obj)}</h{level}>')
        parts = [f'<section class="api-entry api-{kind}">', heading, self.signature(obj)]
        if obj.is_class and obj.bases:
            parts.append('<p class="api-bases">Bases: ' + ", ".join(self.annotation(b) for b in obj.bases) + "</p>")
        parts.append(self.docstring(obj))
        if obj.is_class:
            for group, members in self.package.members(obj).items():
                for member in members:
                    parts.append(self.summary(member) if member.is_alias else self.entry(member, min(level + 1, 6)))
            parts.append(self.inherited(obj))
        parts.append("</section>")
        return "\n".join(parts)

    def inherited(self, cls: Any) -> str:
        members = self.package.inherited(cls)
        if not members:
            return ""
        items = []
        for alias in members:
            defined = target(alias)
            items.append(f'<li class="api-inherited"><a href="{escape(self.index.url(defined.path) or "#")}">'
                         f'<code>{escape(alias.name)}</code></a> (inherited from '
                         f'<code>{escape(defined.parent.path)}</code>)</li>')
        return '<div class="api-inherited-members"><p>Inherited members</p><ul>' + "".join(items) + "</ul></div>"

    def source_link(self, obj: Any) -> str:
        if not obj.lineno:
            return ""
        start, end = self.package.lines(obj)
        url = self.listing_url(self.package.source(obj))
        return f' <a class="api-source" href="{escape(url)}#L{start}-L{end}" data-pagefind-ignore>source</a>'

    # --- signatures ---------------------------------------------------------

    def signature(self, obj: Any) -> str:
        names = {}        # a name as written in an annotation -> where it is documented
        for expr in _annotations(obj):
            for part in expr.iterate(flat=True):
                if not isinstance(part, str) and (url := self.index.exact(_canonical(part))):
                    names[part.name] = url
        text = _signature_text(obj)
        out = []
        for ttype, value in PythonLexer(ensurenl=False).get_tokens(text):
            css = _css_class(ttype)
            html = f'<span class="{css}">{escape(value)}</span>' if css else escape(value)
            if value in names:
                html = f'<a class="xref" href="{escape(names[value])}">{html}</a>'
            out.append(html)
        return f'<div class="highlight api-signature"><pre><code>{"".join(out).rstrip()}</code></pre></div>'

    def annotation(self, expr: Any) -> str:
        """An annotation (griffe's expression, or a docstring's type as text), its names linked."""
        if expr is None:
            return ""
        if isinstance(expr, str):
            return f"<code>{escape(expr)}</code>"
        out = []
        for part in expr.iterate(flat=True):
            if isinstance(part, str):
                out.append(escape(part))
                continue
            url = self.index.exact(_canonical(part))
            html = escape(part.name)
            out.append(f'<a class="xref" href="{escape(url)}">{html}</a>' if url else html)
        return "<code>" + "".join(out) + "</code>"

    # --- docstrings ---------------------------------------------------------

    def docstring(self, obj: Any) -> str:
        if obj.docstring is None:
            return ""
        where = xref.locator(self.package.source(obj), obj.docstring.value, obj.docstring.lineno or obj.lineno or 1)
        scope = obj.path
        parts = []
        for section in obj.docstring.parsed:
            kind = section.kind.value
            if kind == "text":
                parts.append(self.text(section.value, where, scope))
            elif kind in ("parameters", "other parameters", "attributes"):
                title = {"parameters": "Parameters", "other parameters": "Other parameters"}.get(kind, "Attributes")
                rows = [(f"<code>{escape(p.name)}</code>", self.annotation(p.annotation),
                         self.text(p.description, where, scope), _default(obj, p)) for p in section.value]
                parts.append(_table(title, ("Name", "Type", "Description", "Default"), rows))
            elif kind in ("returns", "yields", "receives"):
                rows = [(f"<code>{escape(r.name)}</code>" if r.name else "", self.annotation(r.annotation),
                         self.text(r.description, where, scope)) for r in section.value]
                parts.append(_table(kind.capitalize(), ("Name", "Type", "Description"), rows))
            elif kind in ("raises", "warns"):
                rows = [(self.annotation(r.annotation), self.text(r.description, where, scope)) for r in section.value]
                parts.append(_table(kind.capitalize(), ("Exception" if kind == "raises" else "Warning",
                                                        "Description"), rows))
            elif kind == "examples":
                parts.append('<p class="api-section">Examples</p>')
                parts += [highlight(text, "pycon") if sub.value == "examples" else self.text(text, where, scope)
                          for sub, text in section.value]
            elif kind == "deprecated":
                parts.append(_admonition("warning deprecated", f"Deprecated since {section.value.version}",
                                         self.text(section.value.description, where, scope)))
            elif kind == "admonition":
                parts.append(self.admonition(section, where, scope))
        return "\n".join(part for part in parts if part)

    def admonition(self, section: Any, where: xref.Locate, scope: str) -> str:
        title = section.title or section.value.annotation or ""
        body = section.value.description
        if title.lower() == "see also":
            return _admonition("seealso", "See also", self.see_also(body, where, scope))
        return _admonition(escape(section.value.annotation or "note"), escape(title), self.text(body, where, scope))

    def see_also(self, text: str, where: xref.Locate, scope: str) -> str:
        """numpydoc's "See Also": ``name : description`` and ``name, name`` lines, each name linked."""
        items = []
        for line in text.splitlines():
            if not line.strip() or line.startswith((" ", "\t")):
                if line.strip() and items:
                    items[-1] += " " + escape(line.strip())
                continue
            names, _, description = line.partition(" : ")
            links = ", ".join(self.index.link(name.strip(), f"<code>{escape(name.strip())}</code>", where(name.strip()), scope)
                              for name in names.split(",") if name.strip())
            items.append(links + (f" — {escape(description.strip())}" if description.strip() else ""))
        return "<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>"

    def text(self, text: str, where: xref.Locate, scope: str) -> str:
        """Free docstring text as HTML, its references resolved."""
        if not text:
            return ""
        if self.markdown:
            text = xref.markdown_labels(xref.ROLE.sub(lambda m: _markdown_ref(m.group(1)), text))
            html = xref.resolve_markdown(render_markdown(xref.DOC_ROLE.sub(r'*\1\2*', text)).html, self.index,
                                         where, scope)
        else:
            def warn(block: str, message: str) -> None:
                self.index.unresolved.append(f"{where(block)}: warning: {message}")
            html = xref.resolve_marked(rest_html(text, warn), self.index, where, scope)
        return xref.place_labels(html, where)


def rest_html(text: str, warn: Warn = lambda block, message: None) -> str:
    """Enough of reST for docstrings, its HTML escaped: paragraphs, literals, roles, ``::`` and
    doctest blocks, grid and simple tables, directives as admonitions. ``warn`` is told of
    what is shown as it is written instead (a table docutils cannot read): its first line, why."""
    blocks, literal_next = [], False
    for block in re.split(r"\n\s*\n", text.strip("\n")):
        lines = block.splitlines()
        if literal_next and block.startswith((" ", "\t")):
            blocks.append(highlight(_dedent(block), "python"))
            literal_next = False
            continue
        literal_next = False
        if block.lstrip().startswith(">>>"):
            blocks.append(highlight(_dedent(block), "pycon"))
        elif tables.is_table(rows := _dedent(block).splitlines()):
            try:
                blocks.append(tables.table_html(rows, lambda cell: rest_html(cell, warn)))
            except tables.Malformed as exc:
                warn(rows[0], f"a reST table docutils cannot read, shown as written ({exc})")
                blocks.append(f"<pre>{escape(_dedent(block))}</pre>")
        elif len(lines) > 1 and not lines[0][:1].isspace() and _indent(lines[1]) > 0 \
                and not DIRECTIVE.match(lines[0].strip()):     # a definition: the term, then its text indented
            blocks.append(f"<dl><dt>{_inline(lines[0].strip())}</dt><dd>{rest_html(_dedent(chr(10).join(lines[1:])), warn)}"
                          "</dd></dl>")
        elif match := DIRECTIVE.match(lines[0].strip()):
            name, argument = match.groups()
            body = _dedent("\n".join(lines[1:]))
            if name in ("code-block", "code", "sourcecode"):
                blocks.append(highlight(body, argument or "python"))
            else:
                title = f"{name.replace('version', 'version ')} {argument}".strip().capitalize()
                blocks.append(_admonition(escape(name), escape(title), rest_html(body, warn) if body.strip() else ""))
        else:
            paragraph = block.strip()
            if paragraph.endswith("::"):
                literal_next = True
                paragraph = paragraph[:-1] if not paragraph[:-2].endswith(" ") else paragraph[:-2].rstrip()
            if paragraph:
                blocks.append(f"<p>{_inline(paragraph)}</p>")
    return "\n".join(blocks)


def _inline(text: str) -> str:
    html = xref.roles(escape(text, quote=False))
    pieces = re.split(r"(<a href=\"sitegen-xref:[^\"]*\">.*?</a>)", html)
    for i in range(0, len(pieces), 2):
        piece = LITERAL.sub(lambda m: f"<code>{m.group(1) or m.group(2)}</code>", pieces[i])
        pieces[i] = EMPHASIS.sub(r"<em>\1</em>", STRONG.sub(r"<strong>\1</strong>", piece))
    return "".join(pieces)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _dedent(text: str) -> str:
    import textwrap

    return textwrap.dedent(text).strip("\n")


def _markdown_ref(inner: str) -> str:
    name, shown = xref.role_target(inner)
    return f"[`{shown}`][{name}]"


def _annotations(obj: Any) -> list[Any]:
    """The expressions of ``obj``'s signature that may name documented objects."""
    if obj.is_class:
        init = _init(obj)
        found = [p.annotation for p in init.parameters] if init is not None else []
    elif obj.is_attribute:
        found = [obj.annotation]
    else:
        found = [p.annotation for p in obj.parameters] + [obj.returns]
    return [expr for expr in found if expr is not None and not isinstance(expr, str)]


def _signature_text(obj: Any) -> str:
    if obj.is_class:
        init = _init(obj)
        if init is None:
            return f"class {obj.name}"
        return _call("class ", obj.name, [p for i, p in enumerate(init.parameters) if i or p.name != "self"], "")
    if obj.is_attribute:
        text = obj.name + (f": {obj.annotation}" if obj.annotation is not None else "")
        value = str(obj.value) if obj.value is not None else ""
        return text + (f" = {value}" if value and len(value) < WIDTH else "")
    returns = f" -> {obj.returns}" if obj.returns is not None else ""
    prefix = "async def " if "async" in getattr(obj, "labels", ()) else "def "
    return _call(prefix, obj.name, list(obj.parameters), returns)


def _init(cls: Any) -> Any:
    """The ``__init__`` a class is called through, its own or a base's (None: object's)."""
    try:
        init = cls.all_members.get("__init__")
    except Exception:        # a base griffe cannot find
        init = cls.members.get("__init__")
    return target(init) if init is not None and init.is_alias else init


def _call(prefix: str, name: str, parameters: list[Any], returns: str) -> str:
    """``prefix name(parameters) returns``, one parameter a line when that is long."""
    params, marker = [], None
    for param in parameters:
        kind = param.kind.value if param.kind else ""
        if marker == "positional-only" and kind != "positional-only":
            params.append("/")
        if kind == "keyword-only" and marker not in ("keyword-only", "variadic positional"):
            params.append("*")
        marker = kind
        star = "*" if kind == "variadic positional" else "**" if kind == "variadic keyword" else ""
        text = star + param.name
        if param.annotation is not None:
            text += f": {param.annotation}"
        if param.default is not None:
            text += f" = {param.default}" if param.annotation is not None else f"={param.default}"
        params.append(text)
    if marker == "positional-only":
        params.append("/")
    one_line = f"{prefix}{name}({', '.join(params)}){returns}"
    return one_line if len(one_line) <= WIDTH else (
        f"{prefix}{name}(\n" + "".join(f"    {p},\n" for p in params) + f"){returns}")


def _default(obj: Any, documented: Any) -> str:
    """A parameter's default as the signature gives it (a docstring's guess otherwise)."""
    signature = _init(obj) if obj.is_class else obj if obj.is_function else None
    if signature is not None and documented.name in {p.name for p in signature.parameters}:
        value = signature.parameters[documented.name].default
    else:
        value = getattr(documented, "default", None)
    return f"<code>{escape(str(value))}</code>" if value is not None else ""


def _canonical(name: Any) -> str:
    try:
        return name.canonical_path
    except Exception:       # a name griffe cannot follow
        return name.name


def _css_class(ttype: Any) -> str:
    while ttype not in STANDARD_TYPES:
        ttype = ttype.parent
    return STANDARD_TYPES[ttype]


def _table(title: str, headers: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    if not rows:
        return ""
    keep = [i for i in range(len(headers)) if any(row[i] for row in rows)]     # no empty column
    head = "".join(f"<th>{headers[i]}</th>" for i in keep)
    body = "".join("<tr>" + "".join(f"<td>{row[i]}</td>" for i in keep) + "</tr>" for row in rows)
    label = escape(title)
    return (f'<p class="api-section">{label}</p><div class="table-wrap" tabindex="0" role="region" '
            f'aria-label="{label}"><table class="api-table"><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>")


def _admonition(kind: str, title: str, body: str) -> str:
    return f'<div class="admonition {kind}"><p class="admonition-title">{title}</p>{body}</div>'
