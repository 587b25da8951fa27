"""Cross-references: dotted names to the URLs documenting them.

An :class:`Index` knows every object the site's reference documents (and,
through Sphinx inventories, other projects'). References are resolved once
HTML is made: ``[tvm.build][]`` and ``[`build`][tvm.build]`` in Markdown
(left as text by Markdown, as links without a definition are), and Sphinx
roles in reST docstrings (``:func:`name```, made links marked with
:data:`SCHEME` until then), and, where site.yaml asks, code spans naming an
entry in full. A name that leads nowhere is a warning at its file and line,
and stays text. A docstring's ``:ref:`` names a label of the version's prose:
it stays marked (:data:`LABEL_SCHEME`) until the version's pages and
tutorials have given their labels and headings (:func:`labels_of`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape, unescape
from typing import Callable

from generator.myst import anchor

Locate = Callable[[str], str]      # a reference's name -> ``file:line`` where it is written
SCHEME = "sitegen-xref:"           # href of a link to resolve: sitegen-xref:NAME
MARKED = re.compile(r'<a href="sitegen-xref:([^"]*)">(.*?)</a>', re.S)
# Markdown's leftovers: [name][] and [text][name], in text (not in code blocks)
MARKDOWN_REF = re.compile(r"\[(<code>[^<\]]*</code>|[^\[\]<>]+)\]\[([A-Za-z_][\w.]*)?\]")
NAME = re.compile(r"~?\.?[A-Za-z_][\w.]*\Z")
PRE = re.compile(r"<(pre|script|style|textarea)\b.*?</\1>", re.S | re.I)   # no references in these
ROLE = re.compile(r":(?:py:)?(?:func|class|meth|attr|mod|obj|exc|data|const):`([^`]+)`")
DOC_ROLE = re.compile(r":(?:doc|term|any|envvar|option):`(?:([^`<]*?)\s*<[^`>]*>|([^`]*))`")   # the prose's, not the API's
REF_ROLE = re.compile(r":(?:std:)?ref:`([^`]+)`")        # a label of the docs' prose
LABEL_SCHEME = "sitegen-ref:"     # href of a :ref: until the version's labels are known: sitegen-ref:LABEL
REF_MARKED = re.compile(r'<a href="sitegen-ref:([^"]*)">(.*?)</a>', re.S)
REF_PLACED = re.compile(r'<a href="sitegen-ref:([^"]*)" data-sitegen-at="([^"]*)">(.*?)</a>', re.S)
EXPLICIT = re.compile(r"(.*?)\s*<([^<>]+)>\Z", re.S)      # a role's ``title <target>``: the last <...>
TARGET_DIV = re.compile(r'<div id="([^"]+)" class="myst-target"></div>')   # a page's label
HEADING = re.compile(r'<h([1-6])\b[^>]*\bid="([^"]+)"[^>]*>(.*?)</h\1>', re.S)
CODE_NAME = re.compile(r"<code>([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(\(\))?</code>")    # `a.b` or `a.b()`


@dataclass
class Index:
    """Dotted name -> URL, the site's own objects first, then the inventories' ones."""

    own: dict[str, str] = field(default_factory=dict)
    external: dict[str, str] = field(default_factory=dict)
    unresolved: list[str] = field(default_factory=list)    # ``file:line: warning: ...``
    canonical: Callable[[str], str | None] = lambda name: None    # a re-exported name -> its definition's
    _by_last: dict[str, list[str]] | None = None

    def add(self, name: str, url: str) -> None:
        self.own.setdefault(name, url)
        self._by_last = None

    def url(self, name: str, scope: str = "") -> str | None:
        """Where ``name`` is documented: as written, inside ``scope`` (a dotted name) and its
        parents, in an inventory, or as the one documented object whose name ends so."""
        name = name.lstrip("~").removesuffix("()")
        if name.startswith("."):
            name = name.lstrip(".")
        for prefix in _scopes(scope):
            if (found := self.own.get(prefix + name)) is not None:
                return found
            if (defined := self.canonical(prefix + name)) and (found := self.own.get(defined)) is not None:
                return found
        if (found := self.external.get(name)) is not None:
            return found
        if self._by_last is None:
            self._by_last = {}
            for full in self.own:
                self._by_last.setdefault(full.rsplit(".", 1)[-1], []).append(full)
        last = name.rsplit(".", 1)[-1]
        fits = [full for full in self._by_last.get(last, ()) if full == name or full.endswith("." + name)]
        urls = {self.own[full] for full in fits}
        return urls.pop() if len(urls) == 1 else None

    def exact(self, name: str) -> str | None:
        """Where ``name``, written in full (an annotation's), is documented; no guessing."""
        return self.own.get(name) or self.external.get(name)

    def full(self, name: str) -> str | None:
        """Where ``name``, a full dotted path (a code cell's), is documented, under that name or
        through re-exports to its definition's; no guessing."""
        defined = self.canonical(name)
        return self.exact(name) or (self.own.get(defined) if defined else None)

    def link(self, name: str, html: str, where: str, scope: str = "") -> str:
        """``html`` linked to ``name``'s entry; else left as it is, with a warning at ``where``."""
        url = self.url(name, scope)
        if url is None:
            self.unresolved.append(f"{where}: warning: unknown API reference {name.lstrip('~')!r}")
            return html
        return f'<a class="xref" href="{escape(url)}">{html}</a>'


def _scopes(scope: str) -> list[str]:
    parts = scope.split(".") if scope else []
    return ["".join(p + "." for p in parts[:i]) for i in range(len(parts), -1, -1)]


def roles(text: str) -> str:
    """Sphinx roles of escaped docstring text as links to resolve (``:func:`~a.b``` shows ``b``;
    ``:ref:`label``` waits for the labels of the version's pages, see :func:`resolve_labels`)."""
    linked = ROLE.sub(lambda m: _marked(*role_target(unescape(m.group(1)))), text)
    linked = REF_ROLE.sub(lambda m: '<a href="{}{}">{}</a>'.format(
        LABEL_SCHEME, *map(escape, _label(unescape(m.group(1))))), linked)
    return DOC_ROLE.sub(lambda m: f"<em>{m.group(1) or m.group(2)}</em>", linked)


def markdown_labels(text: str) -> str:
    """``:ref:`` roles of Markdown docstring text as links to resolve (see :func:`roles`)."""
    return REF_ROLE.sub(lambda m: "[{1}]({0}{2})".format(LABEL_SCHEME, *reversed(_label(m.group(1)))), text)


def _label(inner: str) -> tuple[str, str]:
    """A ``:ref:``'s text (``label``, ``title <label>``): the label, the title it shows ("": the target's)."""
    if explicit := EXPLICIT.match(inner.strip()):
        return explicit.group(2).strip(), explicit.group(1).strip()
    return inner.strip(), ""


def place_labels(html: str, locate: Locate) -> str:
    """Each ``:ref:`` link of ``html`` told where it is written (``file:line``), for its warning."""
    return REF_MARKED.sub(lambda m: f'<a href="{LABEL_SCHEME}{m.group(1)}" data-sitegen-at="'
                                    f'{escape(locate(unescape(m.group(1))))}">{m.group(2)}</a>', html)


def resolve_labels(html: str, labels: dict[str, tuple[str, str]], warnings: list[str]) -> str:
    """Each ``:ref:`` link of ``html`` to its label's target (``labels``: id -> URL, title; a
    label is found by the id its target gets, as Sphinx, whose labels ignore case); an unknown
    one is its text, emphasized, and a warning at its docstring's line."""
    def link(match: re.Match[str]) -> str:
        label, at, text = unescape(match.group(1)), unescape(match.group(2)), match.group(3)
        found = labels.get(anchor(label))
        if found is None:
            warnings.append(f"{at}: warning: unknown label {label!r} (a :ref: names a label or heading of the docs)")
            return f"<em>{text or escape(label)}</em>"
        return f'<a class="xref" href="{escape(found[0])}">{text or escape(found[1])}</a>'
    return REF_PLACED.sub(link, html) if LABEL_SCHEME in html else html


def labels_of(html: str, url: str) -> dict[str, tuple[str, str]]:
    """The targets of a page at ``url``: its labels (titled by the heading after them) and its
    headings, by id -> (URL, title)."""
    found: dict[str, tuple[str, str]] = {}
    headings = [(m.start(), m.group(2), unescape(re.sub(r"<[^>]+>", "", m.group(3))).strip())
                for m in HEADING.finditer(html)]
    for target in TARGET_DIV.finditer(html):
        title = next((t for at, _, t in headings if at > target.end()), target.group(1))
        found.setdefault(unescape(target.group(1)), (f"{url}#{target.group(1)}", title))
    for _, ident, title in headings:
        found.setdefault(unescape(ident), (f"{url}#{ident}", title))
    return found


def role_target(inner: str) -> tuple[str, str]:
    """A role's text (``name``, ``~a.b``, ``title <name>``): the name it links, the text it shows."""
    if explicit := EXPLICIT.match(inner.strip()):
        return explicit.group(2).strip(), explicit.group(1).strip()
    return inner.lstrip("~"), inner.rsplit(".", 1)[-1] if inner.startswith("~") else inner


def _marked(name: str, title: str) -> str:
    return f'<a href="{SCHEME}{escape(name)}"><code>{escape(title)}</code></a>'


def resolve_marked(html: str, index: Index, locate: Locate, scope: str = "") -> str:
    """Every link :func:`roles` made in ``html``, resolved (``locate``: name -> ``file:line``)."""
    return MARKED.sub(lambda m: index.link(unescape(m.group(1)), m.group(2), locate(unescape(m.group(1))), scope),
                      html)


def resolve_markdown(html: str, index: Index, locate: Locate, scope: str = "") -> str:
    """``[name][]`` and ``[text][name]`` left by Markdown in ``html`` (outside code blocks), linked."""
    def link(match: re.Match[str]) -> str:
        text, name = match.group(1), match.group(2)
        target = name or unescape(re.sub(r"</?code>", "", text))
        if not NAME.match(target):
            return match.group(0)
        return index.link(target, text, locate(target), scope)
    def in_text(match: re.Match[str]) -> str:
        before = match.string[:match.start()]
        if before.rfind("<") > before.rfind(">") or before.rfind("<code") > before.rfind("</code>"):
            return match.group(0)         # in a tag's attribute (a page's description), or in code
        return link(match)
    pieces, at = [], 0
    for block in PRE.finditer(html):
        pieces += [MARKDOWN_REF.sub(in_text, html[at:block.start()]), block.group(0)]
        at = block.end()
    return "".join(pieces) + MARKDOWN_REF.sub(in_text, html[at:])


def resolve_code(html: str, resolve: Callable[[str], str | None]) -> str:
    """Code spans of ``html`` (outside code blocks and links) that are a documented dotted name,
    in full (``tvm.build``, ``tvm.build()``), linked to its entry; any other stays as it is,
    unwarned: a code span is not written as a reference."""
    def link(match: re.Match[str]) -> str:
        before = match.string[:match.start()]
        url = resolve(match.group(1))
        if url is None or before.rfind("<a ") > before.rfind("</a>"):
            return match.group(0)
        return f'<a class="xref" href="{escape(url)}">{match.group(0)}</a>'
    pieces, at = [], 0
    for block in PRE.finditer(html):
        pieces += [CODE_NAME.sub(link, html[at:block.start()]), block.group(0)]
        at = block.end()
    return "".join(pieces) + CODE_NAME.sub(link, html[at:])


def locator(file: str, text: str, first_line: int = 1) -> Locate:
    """name -> ``file:line`` of its first mention in ``text``, which starts at ``first_line`` of ``file``."""
    def locate(name: str) -> str:
        at = text.find(name.lstrip("~"))
        return f"{file}:{first_line + (text.count(chr(10), 0, at) if at >= 0 else 0)}"
    return locate
