"""MyST's directives, roles and targets (Jupyter Book, MyST-NB) in the Python-Markdown pipeline.

Notebooks written for Jupyter Book and Markdown pages use the same subset:
fenced directives (```` ```{note} ````, ``:::{tip}``, nested with longer fences),
``(label)=`` targets and roles (``{ref}`label```, ``{eq}`label```). myst-parser
reads MyST with markdown-it-py and renders through docutils; sitegen keeps
Python-Markdown and kramdown's rules for everything else, so the directives are
one preprocessor here and the roles one inline pattern.

A directive becomes HTML of its own (its body rendered by a converter of the
same kind, so it nests) kept in the stash, in place of its lines, which stay
as blank lines so the lines after it keep their numbers. Targets, equation
numbers and figure captions are read from the whole :class:`Document` first
(all the cells of a notebook), so a reference may come before its target. A
docs section's pages and tutorials share their labels (:class:`Labels`, made once
the section's pages are parsed): a reference a page's parse could not resolve is
left marked, and :func:`resolve` links it then, as Jupyter Book does across a book.
What is not rendered is warned of, at its line, and shown as a block.
"""

from __future__ import annotations

import dataclasses
import functools
import html
import os
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import markdown
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor

from generator.text import trim_blank_lines

DIRECTIVE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,}|:{3,})\{(?P<name>[\w:.-]+)\}[ \t]*(?P<argument>.*?)\s*$")
FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
OPTION = re.compile(r"^:([\w-]+):[ \t]*(.*?)\s*$")
TARGET = re.compile(r"^[ \t]*\((?P<label>[^()\s]+)\)=\s*$")
HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+(.+?)[ \t#]*$")
ROLE = re.compile(r"\{(?P<name>[\w:.-]+)\}`(?P<text>[^`]+)`")
CODE_SPAN = re.compile(r"(`+).+?\1")     # where a role is only text: ``{ref}`x` `` shows the syntax
EMPHASIS = re.compile(r"(\*{1,3}|`+)(.+?)\1|(?<!\w)(_{1,3})(.+?)\3(?!\w)")
# A target's anchor right before a heading of the same id: the heading is the target (as in Sphinx).
HEADING_TARGET = re.compile(r'<div id="(?P<id>[^"]+)" class="myst-target"></div>\s*(?=<h[1-6] (?:[^>]* )?id="(?P=id)")')
MARK = re.compile("^([ \t]*)\x1amyst:(\\d+)\x1a$")
DOLLAR_LABEL = re.compile(r"\$\$[ \t]*\((?P<label>[^()\s]+)\)[ \t]*$")     # MyST's "$$ (label)"
EXPLICIT = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$", re.S)
UNRESOLVED = re.compile(r'<span class="myst-unresolved" data-role="(?P<role>[\w-]+)" data-text="(?P<text>[^"]*)">'
                        r'[^<]*</span>')
UNRESOLVED_WARNING = re.compile(r"(\{(?:ref|numref|eq|doc)\}`[^`]+`): no (?:target labelled|page) ")
DOC_SUFFIX = re.compile(r"\.(md|ipynb|py|rst)$")      # a {doc} path may name its file
WORDS = re.compile(r"[^\W_]+(?: [^\W_]+)*")    # text that Markdown and typography leave as it is
# Where any of them may be: a directive's fence and "{", a target's ")=", a role's "}`", "$$ (label)".
CONSTRUCT = re.compile(r"[`~:]\{|\)=|\}`|\$\$[ \t]*\(")
# CONSTRUCT's alternatives that are two characters as written, and what the last begins with.
CONSTRUCT_PAIRS = ("`{", "~{", ":{", ")=", "}`")


def may_hold_construct(text: str) -> bool:
    """Whether :data:`CONSTRUCT` is in ``text``: its pairs looked for one after the other (each a
    scan of the text in C), the expression only where ``$$`` is. The expression, tried at every
    character, took a few percent of a post's conversion, most posts holding none."""
    return any(pair in text for pair in CONSTRUCT_PAIRS) or ("$$" in text and CONSTRUCT.search(text) is not None)

ADMONITIONS = {"note": "Note", "warning": "Warning", "tip": "Tip", "important": "Important",
               "caution": "Caution", "danger": "Danger", "seealso": "See also", "hint": "Hint",
               "attention": "Attention", "error": "Error"}
CODE = {"code-cell", "code-block", "code", "sourcecode"}
ROLES = {"ref", "doc", "eq", "numref", "sub", "sup", "math", "kbd", "abbr"}
NUMBERED = {"figure": "Figure %s", "equation": "Equation %s"}    # {numref}'s text, as Jupyter Book's


@dataclass(frozen=True)
class Target:
    """Where a label leads, and the text a reference to it shows."""

    url: str            # "#label" on the same page, a page's URL (and fragment) elsewhere
    title: str
    number: int | None = None     # a labelled figure's or equation's, counted per page
    kind: str = "section"         # "section", "figure" or "equation": what {numref} calls it
    line: int = field(default=0, repr=False, compare=False)  # where its text labels it (1: the first line)


Find = Callable[[str, str], "Target | None"]    # (role, text) -> where the reference leads


@dataclass
class Document:
    """What the directives and roles of one page (or one notebook's cells) refer to.

    ``targets`` holds the page's own labels (see :func:`scan`) and those of other
    pages (a gallery's, given by its builder); ``pages`` maps a ``{doc}`` path (as
    written, without suffix; or an absolute path, found by its last part) to a page's
    URL and title; ``outer`` is asked what neither knows (the site's posts and pages, for
    a docs page or tutorial). Warnings are gathered as
    ``(line, message)``; ``line`` counts from the rendered text's first line.
    """

    targets: dict[str, Target] = field(default_factory=dict)
    pages: dict[str, Target] = field(default_factory=dict)
    warnings: list[tuple[int, str]] = field(default_factory=list)
    outer: Find | None = None

    def page(self, name: str) -> Target | None:
        """The page ``{doc}`name``` names: by its path from this one, or, for a path from the
        docs' root as Sphinx reads one (``/how_to/tutorials/x``), the only page of that name."""
        name = DOC_SUFFIX.sub("", name.strip())
        if not name.startswith("/"):
            return self.pages.get(name)
        stem = name.rsplit("/", 1)[-1]
        found = {target for key, target in self.pages.items() if key.startswith("/") and key.rsplit("/", 1)[-1] == stem}
        return found.pop() if len(found) == 1 else None

    def find(self, role: str, text: str) -> Target | None:
        """What the reference ``{role}`text``` leads to, if this document (or ``outer``) knows."""
        label = _label(text)
        found = self.page(label) if role == "doc" else self.targets.get(label)
        return found if found is not None or self.outer is None else self.outer(role, text)

    @classmethod
    def of(cls, *texts: str, targets: dict[str, Target] | None = None,
           pages: dict[str, Target] | None = None) -> Document:
        """The document made of ``texts`` (a page, or a notebook's Markdown cells), in order."""
        own = {**(targets or {})}
        for text in texts:
            scan(text, own)
        return cls(own, pages or {})


@dataclass
class Labels:
    """A docs section's labels, site-wide: every docs page's and tutorial's targets, and each
    of those pages by its source path, for the roles of any of them (``{ref}`` to a section
    of another page, ``{doc}``), as Jupyter Book resolves them across a book."""

    targets: dict[str, Target] = field(default_factory=dict)
    pages: dict[str, Target] = field(default_factory=dict)   # source's path (absolute) without suffix -> its page
    own: dict[str, dict[str, Target]] = field(default_factory=dict)  # each page's, as its own roles see them
    repeated: dict[str, dict[str, Target]] = field(default_factory=dict)  # page -> its labels another page had
    named: dict[str, list[Target]] = field(default_factory=dict)     # the pages by file name, for "/name"
    outer: Callable[[Path, str, str], Target | None] | None = None    # (source, role, text): the site's

    def add(self, source: str | os.PathLike, url: str, title: str, texts: list[str]) -> None:
        """The page of ``source`` at ``url``, titled ``title``, written in ``texts`` (each scanned
        once: its roles see its targets, kept here, at ``#label``; the others' at ``url#label``)."""
        own: dict[str, Target] = {}
        for text in texts:
            scan(text, own)
        self.place(source, url, title, own)

    def place(self, source: str | os.PathLike, url: str, title: str, own: dict[str, Target]) -> None:
        """The page of ``source`` at ``url``, titled ``title``, whose own targets (at ``#label``)
        are ``own``. (Paths as strings: a site's table holds thousands, which pathlib makes slow.)"""
        key = _key(source)
        self.own[key] = own
        for label, target in own.items():
            if label in self.targets:       # the first page's: Sphinx warns of the others
                self.repeated.setdefault(key, {})[label] = self.targets[label]
            else:
                self.targets[label] = dataclasses.replace(target, url=url + target.url)
        self.pages[key] = page = Target(url, title)
        self.named.setdefault(os.path.basename(key), []).append(page)

    @classmethod
    def of_documents(cls, documents: Iterable, root: Path, url: Callable[[str], str] = str) -> Labels:
        """The labels of a site's posts and pages, each at its placed URL (``url`` puts
        ``baseurl`` in front): what their references to one another resolve against."""
        labels, root = cls(), os.fspath(root)
        for doc in documents:
            labels.place(os.path.join(root, doc.source), url(doc.url), doc.title,
                         {label: Target(*rest) for label, *rest in doc.targets})
        return labels

    def repeats(self, source: str | os.PathLike) -> dict[str, tuple[Target, str]]:
        """The labels of the page of ``source`` that an earlier page has (where the other pages'
        references lead; its own lead to its own), each with the page's own target (its
        :attr:`Target.line` in the text it was read from) and the warning, as Sphinx's."""
        own = self.own.get(_key(source), {})
        return {label: (own[label], f"duplicate label {label!r}: {first.url} has it too (the other pages' "
                                    "references to it lead there)")
                for label, first in self.repeated.get(_key(source), {}).items()}

    def find(self, source: str | os.PathLike, role: str, text: str) -> Target | None:
        """What the reference ``{role}`text``` of the page of ``source`` leads to, if anything:
        a label of any page, or for ``{doc}`` a page by its path from this one's folder (``../``
        included) or, from the root (``/guide``), the only page of that name."""
        label = _label(text)
        if role != "doc":
            return self.targets.get(label)
        name = DOC_SUFFIX.sub("", label)
        if not name.startswith("/"):
            return self.pages.get(os.path.normpath(os.path.join(os.path.dirname(source), name)))
        found = set(self.named.get(name.rsplit("/", 1)[-1], ()))
        return found.pop() if len(found) == 1 else None

    def document(self, source: Path, texts: list[str] = ()) -> Document:
        """What the roles of the page of ``source`` (its Markdown ``texts``, read unless it was
        added) point at: its own labels, then the others' labels and pages, ``{doc}`` names
        relative to its folder."""
        own = self.own.get(_key(source))
        document = Document.of(*texts) if own is None else Document(dict(own))
        for label, target in self.targets.items():
            document.targets.setdefault(label, target)
        folder = os.path.dirname(source) + "/"
        for path, target in self.pages.items():
            document.pages[path] = target      # for a {doc} path from the docs' root
            if path.startswith(folder):
                document.pages[path[len(folder):]] = target
        if self.outer is not None:
            document.outer = functools.partial(self.outer, source)
        return document


def _key(source: str | os.PathLike) -> str:
    """A page's key in :class:`Labels`: its source's path without its suffix."""
    return os.path.splitext(os.fspath(source))[0]


def resolve(rendered: str, find: Find) -> tuple[str, set[str]]:
    """``rendered`` HTML with the references its page could not resolve alone linked where
    ``find`` (its page's :meth:`Document.find`, or the site's :meth:`Labels.find`) knows their
    target; and those references, as written (``{ref}`label```): their warnings no longer stand."""
    found: set[str] = set()

    def linked(m: re.Match) -> str:
        role, text = m.group("role"), html.unescape(m.group("text"))
        target = find(role, text)
        if target is None:
            return m.group(0)
        found.add(f"{{{role}}}`{text}`")
        shown = html.escape(_shown(role, target, EXPLICIT.match(text)), quote=False)
        return f'<a class="reference {role}" href="{html.escape(target.url)}">{shown}</a>'

    return (UNRESOLVED.sub(linked, rendered) if "myst-unresolved" in rendered else rendered), found


def settled(message: str, resolved: set[str]) -> bool:
    """Whether ``message`` is the warning of a reference that :func:`resolve` has since linked."""
    m = UNRESOLVED_WARNING.search(message)
    return m is not None and m.group(1) in resolved


def resolvable(message: str, find: Find) -> bool:
    """Whether ``message`` is the warning of a reference that ``find`` resolves."""
    m = UNRESOLVED_WARNING.search(message)
    role = m and ROLE.match(m.group(1))
    return bool(role) and find(role.group("name"), role.group("text")) is not None


def targets_of(text: str, first: int = 1) -> tuple[tuple[str, str, str, int | None, str, int], ...]:
    """The labels Markdown ``text`` (whose first line is line ``first`` of its file) defines, as a
    document keeps them: (label, ``#fragment``, title, number, kind, line in the file), for
    :meth:`Labels.of_documents`."""
    own: dict[str, Target] = {}
    scan(text, own)
    return tuple((label, t.url, t.title, t.number, t.kind, t.line + first - 1) for label, t in own.items())


def scan(text: str, targets: dict[str, Target], page_url: str = "",
         repeats: list[tuple[str, int]] | None = None) -> None:
    """Add the labels ``text`` defines to ``targets``: ``(label)=`` (titled by the heading
    after it), a figure's ``:name:`` (by its caption), an equation's ``:label:`` or ``$$ (label)``
    (numbered). A label ``targets`` has already keeps its target; ``repeats`` gets its label and line."""
    if ")=" not in text and "{math}" not in text and "{figure}" not in text and "$$" not in text:
        return
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if m := TARGET.match(line):
            after = next((l for l in lines[i + 1:] if l.strip()), "")
            heading = HEADING.match(after)
            title = plain(heading.group(1)) if heading else m.group("label")
            if not _taken(targets, m.group("label"), i + 1, repeats):
                targets[m.group("label")] = Target(f"{page_url}#{anchor(m.group('label'))}", title, line=i + 1)
        elif (m := DIRECTIVE.match(line)) and m.group("name") in ("math", "figure"):
            options, body = _options(lines[i + 1:])
            if m.group("name") == "math":
                _numbered(targets, options.get("label"), "equation", page_url, i + 1, repeats)
            else:
                caption = plain(next((l.strip() for l in body if l.strip()), options.get("name", "")))
                _numbered(targets, options.get("name"), "figure", page_url, i + 1, repeats, caption)
        elif "$$" in line and (formula := _dollar_math(lines, i)):
            _numbered(targets, formula[1], "equation", page_url, i + 1, repeats)


def _taken(targets: dict[str, Target], label: str, line: int, repeats: list[tuple[str, int]] | None) -> bool:
    """Whether ``label`` has a target already (the first stands, as in Sphinx): if so, and
    ``repeats`` is given, the definition at ``line`` is noted there."""
    if label not in targets:
        return False
    if repeats is not None:
        repeats.append((label, line))
    return True


@dataclass(frozen=True)
class Repeat:
    """A label a page defines again: in its text ``text`` (a notebook's Markdown cell; a page has
    one) at ``line``, after its first definition in text ``first_text`` at ``first_line``."""

    label: str
    text: int
    line: int
    first_text: int
    first_line: int

    def message(self, first: str) -> str:
        """The warning, as Sphinx's "duplicate label", naming where (``first``) the first definition is."""
        return f"duplicate label {self.label!r}: {first} has it too (the references to it lead there)"


def repeats(texts: Iterable[str]) -> list[Repeat]:
    """The labels that ``texts`` (a page, or a notebook's Markdown cells, in order) define more
    than once, for a warning: the references all lead to the first, which may not be meant."""
    own: dict[str, Target] = {}
    first: dict[str, int] = {}      # label -> the text defining it first
    found: list[Repeat] = []
    for n, text in enumerate(texts):
        again: list[tuple[str, int]] = []
        scan(text, own, repeats=again)
        for label in own.keys() - first.keys():
            first[label] = n
        found += [Repeat(label, n, line, first[label], own[label].line) for label, line in again]
    return found


def _numbered(targets: dict[str, Target], label: str | None, kind: str, page_url: str, line: int,
              repeats: list[tuple[str, int]] | None, caption: str = "") -> None:
    """A figure or equation labelled ``label`` at ``line``, numbered after the page's others of its kind."""
    if not label or _taken(targets, label, line, repeats):
        return
    number = 1 + sum(1 for t in targets.values() if t.kind == kind and t.url.startswith(page_url + "#"))
    if kind == "equation":
        targets[label] = Target(f"{page_url}#equation-{anchor(label)}", f"({number})", number, kind, line)
    else:
        targets[label] = Target(f"{page_url}#{anchor(label)}", caption, number, kind, line)


def _dollar_math(lines: list[str], start: int) -> tuple[int, str, list[str]] | None:
    """The labelled display formula that line ``start`` opens (MyST's dollarmath: ``$$`` ...
    ``$$ (label)``, on one line or more, no blank line in it): its last line, label and TeX;
    else None."""
    opened = lines[start].strip()
    if not opened.startswith("$$"):
        return None
    first = opened[2:]
    if "$$" in first:
        closing, at = DOLLAR_LABEL.search(first), start
    else:
        at = next((n for n in range(start + 1, len(lines)) if "$$" in lines[n] or not lines[n].strip()), None)
        closing = DOLLAR_LABEL.search(lines[at]) if at is not None else None
    if closing is None:
        return None
    last = (first if at == start else lines[at])[:closing.start()]
    tex = [last] if at == start else [first, *lines[start + 1:at], last]
    return at, closing.group("label"), tex


def plain(markdown: str) -> str:
    """A title's text without its emphasis and code marks (``Setting *up*``: ``Setting up``)."""
    return EMPHASIS.sub(lambda m: m.group(2) or m.group(4), markdown)


def anchor(label: str) -> str:
    """The id a label gives its target, as Sphinx makes it (``My_Label`` -> ``my-label``)."""
    return re.sub(r"[^\w]+", "-", label.lower()).strip("-") or "target"


def _options(lines: list[str]) -> tuple[dict[str, str], list[str]]:
    """A directive's ``:key: value`` lines (or YAML between ``---`` lines) and the body after them."""
    options: dict[str, str] = {}
    if lines and lines[0].strip() == "---":
        end = next((n for n in range(1, len(lines)) if lines[n].strip() == "---"), None)
        if end is not None:
            for line in lines[1:end]:
                key, _, value = line.partition(":")
                options[key.strip()] = value.strip().strip("'\"")
            return options, lines[end + 1:]
    n = 0
    while n < len(lines) and (m := OPTION.match(lines[n].strip())):
        options[m.group(1)] = m.group(2)
        n += 1
    return options, lines[n:]


class Directives(Preprocessor):
    """Each fenced MyST directive as stashed HTML, each ``(label)=`` as an anchor."""

    def __init__(self, md: markdown.Markdown, extension: MystExtension):
        super().__init__(md)
        self.extension = extension
        self.blocks: list[str] = []      # this document's directives' HTML, for Stashed

    def run(self, lines: list[str]) -> list[str]:
        self.blocks = []
        if not may_hold_construct("\n".join(lines)):
            return lines
        out: list[str] = []
        fence: str | None = None
        i = 0
        while i < len(lines):
            line = lines[i]
            if fence is not None:           # inside ordinary fenced code: left alone
                if _closes(fence, line):
                    fence = None
                out.append(line)
                i += 1
                continue
            opening = line.lstrip()[:1] in ("`", "~", ":")       # what the expressions need, asked first
            directive = opening and DIRECTIVE.match(line)
            if directive:
                end = _closing(lines, i, directive.group("fence"))
                block = self.directive(directive, lines[i + 1:end], i + 1)
                out += block + [""] * (min(end + 1, len(lines)) - i - len(block))
                i = end + 1
                continue
            if "$$" in line and (formula := _dollar_math(lines, i)):
                end, label, tex = formula
                out += ["", line[:len(line) - len(line.lstrip())] + self.block(self.math({"label": label}, tex)), ""]
                out += [""] * (end + 1 - i - 3)
                i = end + 1
                continue
            if opening and (opened := FENCE.match(line)):
                fence = opened.group(1)
            elif ")=" in line and (target := TARGET.match(line)):
                # A block of its own, as MyST's: it ends a paragraph above, and is not in the one below.
                out += ["", line[:len(line) - len(line.lstrip())] +
                        self.block(f'<div id="{anchor(target.group("label"))}" class="myst-target"></div>'), ""]
                i += 1
                continue
            elif "}`" in line:
                self.check_roles(line, i + 1)
            out.append(line)
            i += 1
        return out

    def check_roles(self, line: str, number: int) -> None:
        """Warn of the roles on ``line`` that will not render as meant (the inline pattern
        does not know lines)."""
        doc = self.extension.document
        for m in ROLE.finditer(line):
            name, text = m.group("name"), m.group("text")
            if _in_code(line, m.start()):
                continue
            if name not in ROLES:
                doc.warnings.append((number, f"MyST role '{{{name}}}' is not supported: its text is shown "
                                             "as code"))
            elif name in ("ref", "numref", "eq", "doc") and (found := doc.find(name, text)) is None:
                doc.warnings.append((number, f"{{doc}}`{text}`: no page {_label(text)!r} in the docs" if name == "doc"
                                     else f"{{{name}}}`{text}`: no target labelled {_label(text)!r} on this "
                                          "page or in the docs"))
            elif name == "numref" and found.number is None:
                doc.warnings.append((number, f"{{numref}}`{text}`: {_label(text)!r} has no number (only "
                                             "labelled figures and equations are numbered): its title is shown"))

    def directive(self, m: re.Match, body: list[str], number: int) -> list[str]:
        """The lines standing for one directive (its HTML's placeholder, or Markdown)."""
        indent, name, argument = m.group("indent"), m.group("name"), m.group("argument")
        body = _dedent(body, len(indent.expandtabs(4)))
        options, content = _options(body)
        first = number + 1 + len(body) - len(content)       # the line of the content's start
        if name in CODE:
            language = options.get("language") or argument or "python"
            language = "python" if language.startswith("ipython") else language
            fence = "`" * max([3, *(len(f) + 1 for f in re.findall(r"`{3,}", "\n".join(content)))])
            return [indent + fence + language, *(indent + l for l in trim_blank_lines(content)), indent + fence]
        rendered = self.render(name, argument, options, content, first)
        if rendered is None:
            self.extension.document.warnings.append(
                (number, f"MyST directive '{{{name}}}' is not supported: its content is shown as a block"))
            rendered = f'<div class="myst-directive myst-{html.escape(name)}">{self.markdown(content, first)}</div>'
        return ["", indent + self.block(rendered), ""]

    def block(self, html: str) -> str:
        """A line standing for ``html`` until :class:`Stashed` puts it in the stash (whose
        placeholders Python-Markdown's whitespace pass would take apart)."""
        self.blocks.append(html)
        return f"\x1amyst:{len(self.blocks) - 1}\x1a"

    def render(self, name: str, argument: str, options: dict[str, str], content: list[str],
               first: int) -> str | None:
        """A directive MyST here renders, as HTML (its content from line ``first``); else None."""
        if name in ADMONITIONS or name == "admonition":
            title = argument if name == "admonition" else ADMONITIONS[name]
            if name != "admonition" and argument:   # "{note} text": the text is the body's start
                content = [argument, *content]
            classes = " ".join(filter(None, ["admonition", name if name != "admonition" else "",
                                             options.get("class", "")]))
            return (f'<div class="{html.escape(classes)}"><p class="admonition-title">'
                    f"{self.inline(title)}</p>\n{self.markdown(content, first)}</div>")
        if name == "dropdown":
            return (f'<details class="admonition dropdown {html.escape(options.get("class", ""))}">'
                    f"<summary>{self.inline(argument or 'Details')}</summary>\n"
                    f"{self.markdown(content, first)}</details>")
        if name in ("margin", "sidebar"):
            title = f'<p class="admonition-title">{self.inline(argument)}</p>' if argument else ""
            return f'<aside class="{name}">{title}\n{self.markdown(content, first)}</aside>'
        if name == "math":
            return self.math(options, content)
        if name in ("figure", "image"):
            return self.figure(name, argument, options, content, first)
        if name == "list-table":
            return self.list_table(argument, options, content, first)
        return None

    def list_table(self, title: str, options: dict[str, str], content: list[str], first: int) -> str | None:
        """A table written as a list of rows, each a list of cells (``* - a`` / ``  - b``);
        None if the body is not such a list."""
        rows = [_items(row) for row in _items(trim_blank_lines(content))]
        if not rows or not all(rows):
            return None
        heads = int(options["header-rows"]) if options.get("header-rows", "").isdigit() else 0
        widths = options.get("widths", "").replace(",", " ").split()
        columns = "".join(f'<col style="width: {int(w) * 100 // sum(map(int, widths))}%">' for w in widths) \
            if widths and all(w.isdigit() for w in widths) and sum(map(int, widths)) else ""

        def row(cells: list[list[str]], tag: str) -> str:
            shown = (self.inline(cell, first) for cell in cells)
            return "<tr>" + "".join(f"<{tag}>{cell}</{tag}>" for cell in shown) + "</tr>"

        head = "".join(row(cells, "th") for cells in rows[:heads])
        body = "".join(row(cells, "td") for cells in rows[heads:])
        classes = " ".join(filter(None, ["list-table", options.get("class")]))
        caption = f"<caption>{self.inline(title)}</caption>" if title else ""
        return (f'<table class="{html.escape(classes)}">{caption}'
                + (f"<colgroup>{columns}</colgroup>" if columns else "")
                + (f"<thead>{head}</thead>" if head else "") + f"<tbody>{body}</tbody></table>")

    def math(self, options: dict[str, str], content: list[str]) -> str:
        tex = html.escape("\n".join(trim_blank_lines(content)), quote=False)
        label = options.get("label")
        target = self.extension.document.targets.get(label) if label else None
        if target is None or target.number is None:
            return f'<div class="arithmatex">\\[{tex}\\]</div>'
        return (f'<div class="math-equation" id="equation-{anchor(label)}">'
                f'<div class="arithmatex">\\[{tex}\\]</div><span class="eqno">({target.number})</span></div>')

    def figure(self, name: str, argument: str, options: dict[str, str], content: list[str], first: int) -> str:
        caption = self.markdown(content, first) if name == "figure" else ""
        alt = options.get("alt", "")    # a figure's caption is beside it
        size = ""
        for key in ("width", "height"):
            value = options.get(key, "")
            if value.isdigit() or value.endswith("px") and value[:-2].isdigit():
                size += f' {key}="{value.removesuffix("px")}"'
            elif value:
                size += f' style="{key}: {html.escape(value)}"'
        image = f'<img src="{html.escape(argument)}" alt="{html.escape(alt)}"{size}>'
        label = options.get("name")
        classes = " ".join(filter(None, ["figure", options.get("align") and f"align-{options['align']}",
                                         options.get("class")]))
        ident = f' id="{anchor(label)}"' if label else ""
        if name == "image":
            return f'<p class="{html.escape(classes)}"{ident}>{image}</p>'
        target = self.extension.document.targets.get(label) if label else None
        if target is not None and target.kind == "figure" and target.url.startswith("#"):
            number = f'<span class="caption-number">{NUMBERED["figure"] % target.number} </span>'
            caption = re.sub(r"^(<p>)?", lambda p: (p.group(1) or "") + number, caption or "", count=1)
        shown = f"<figcaption>{caption}</figcaption>" if caption else ""
        return f'<figure class="{html.escape(classes)}"{ident}>{image}{shown}</figure>'

    def markdown(self, lines: list[str], first: int) -> str:
        """``lines`` (a directive's body, from line ``first``) rendered by a converter of this
        kind, its warnings taken into the document's at their lines here."""
        child = self.extension.child()
        inner = child.myst_extension
        outer = self.extension.document
        inner.document = Document(outer.targets, outer.pages, outer=outer.outer)
        child.reset()
        rendered = child.convert("\n".join(lines))
        self.extension.document.warnings += [(first + line - 1, message) for line, message in inner.document.warnings]
        return rendered

    def inline(self, text: str | list[str], first: int = 0) -> str:
        """A title's Markdown (or a table cell's lines, from line ``first``) as HTML, without
        the ``<p>`` it opens with and the ``</p>`` it closes with. Words alone (an admonition's
        "Note") are as they are: no conversion of their own."""
        lines = [text] if isinstance(text, str) else text
        if len(lines) == 1 and WORDS.fullmatch(lines[0]):
            return lines[0]
        rendered = self.markdown(lines, first)
        return re.sub(r"^<p>(.*)</p>$", r"\1", rendered.strip(), flags=re.S)


class HeadingTargets(Postprocessor):
    """A ``(label)=`` whose heading has the label's id already is that heading's id alone: one
    element per id, and the reference lands on the heading (Sphinx gives the label the section's id)."""

    def run(self, text: str) -> str:
        return HEADING_TARGET.sub("", text) if "myst-target" in text else text


class Stashed(Preprocessor):
    """The directives' HTML in Python-Markdown's stash, after its whitespace pass."""

    def __init__(self, md: markdown.Markdown, directives: Directives):
        super().__init__(md)
        self.directives = directives

    def run(self, lines: list[str]) -> list[str]:
        if not self.directives.blocks:
            return lines
        blocks = self.directives.blocks

        def stashed(m: re.Match) -> str:
            return m.group(1) + self.md.htmlStash.store(blocks[int(m.group(2))])

        return [MARK.sub(stashed, line) if "\x1a" in line else line for line in lines]


def _closing(lines: list[str], start: int, fence: str) -> int:
    """The line closing the directive opened at ``start`` (past the last line if none does:
    the directive runs to the end, as in MyST)."""
    return next((n for n in range(start + 1, len(lines)) if _closes(fence, lines[n])), len(lines))


def _closes(fence: str, line: str) -> bool:
    """Whether ``line`` is a run of ``fence``'s mark at least as long, alone on its line."""
    run = line.strip()
    return len(run) >= len(fence) and run == fence[0] * len(run)


def _items(lines: list[str]) -> list[list[str]]:
    """The items of a bullet list (``*``, ``-`` or ``+`` at its left edge), each its lines with the
    marker taken off and the rest dedented; empty if ``lines`` are not such a list."""
    items: list[list[str]] = []
    for line in lines:
        marker = re.match(r"^[*+-]([ \t]+|$)", line)
        if marker:
            items.append([line[marker.end():]])
        elif not items:
            return [] if line.strip() else items
        else:
            items[-1].append(line)
    return [[item[0], *_dedent(item[1:], min((len(l) - len(l.lstrip()) for l in item[1:] if l.strip()),
                                              default=0))] for item in items]


def _dedent(lines: list[str], indent: int) -> list[str]:
    return [l.expandtabs(4)[indent:] if l.expandtabs(4)[:indent].strip() == "" else l.lstrip() for l in lines]


def _in_code(text: str, position: int) -> bool:
    """Whether ``position`` of ``text`` lies inside a code span (asked only where a role is)."""
    for span in CODE_SPAN.finditer(text):
        if span.start() >= position:
            return False
        if position < span.end():
            return True
    return False


def _label(text: str) -> str:
    explicit = EXPLICIT.match(text)
    return (explicit.group("target") if explicit else text).strip()


class Roles(InlineProcessor):
    """``{name}`text``` as the role renders it; an unknown role as code (warned of by line in
    :meth:`Directives.check_roles`)."""

    def __init__(self, pattern: str, md: markdown.Markdown, extension: MystExtension):
        super().__init__(pattern, md)
        self.extension = extension

    def handleMatch(self, m: re.Match, data: str):
        name, text = m.group("name"), m.group("text")
        doc = self.extension.document
        if _in_code(data, m.start()):       # the code pattern's
            return None, None, None
        if name in ("sub", "sup", "kbd"):
            element = etree.Element(name)
            element.text = text
        elif name == "abbr":
            explicit = re.match(r"^(.*?)\s*\((.*)\)$", text, re.S)
            element = etree.Element("abbr", {"title": explicit.group(2)} if explicit else {})
            element.text = explicit.group(1) if explicit else text
        elif name == "math":
            element = etree.Element("span", {"class": "arithmatex"})
            element.text = markdown.util.AtomicString(f"\\({text}\\)")
        elif name in ("ref", "numref", "eq", "doc"):
            label = _label(text)
            explicit = EXPLICIT.match(text)
            found = doc.find(name, text)
            if found is None:       # for resolve(), once the site's labels are known
                element = etree.Element("span", {"class": "myst-unresolved", "data-role": name, "data-text": text})
                element.text = markdown.util.AtomicString(explicit.group("title") if explicit else label)
            else:
                element = etree.Element("a", {"href": found.url, "class": f"reference {name}"})
                element.text = markdown.util.AtomicString(_shown(name, found, explicit))
        else:
            element = etree.Element("code", {"class": f"myst-role myst-{name}"})
            element.text = markdown.util.AtomicString(text)
        return element, m.start(0), m.end(0)


def _shown(role: str, target: Target, explicit: re.Match | None) -> str:
    """A reference's text: its own, else the target's title; for ``{numref}`` its number
    in the text (``%s`` or ``{number}``, as Sphinx reads them; ``{name}`` the title)."""
    own = explicit.group("title") if explicit and role != "eq" else None
    if role != "numref" or target.number is None:
        return own or target.title
    template = own if own is not None else NUMBERED[target.kind]
    return template.replace("%s", str(target.number)).replace("{number}", str(target.number)) \
        .replace("{name}", target.title)


class MystExtension(Extension):
    """MyST for one converter; ``child`` makes the converter that renders directives' bodies."""

    def __init__(self, child: Callable[[], markdown.Markdown], **kwargs):
        self.make_child = child
        self.made: markdown.Markdown | None = None
        self.document = Document()
        super().__init__(**kwargs)

    def child(self) -> markdown.Markdown:
        if self.made is None:
            self.made = self.make_child()
        return self.made

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.myst_extension = self
        # Before kramdown's preprocessors (38 and below): a directive's lines are its own.
        directives = Directives(md, self)
        md.preprocessors.register(directives, "myst_directives", 39)
        md.preprocessors.register(Stashed(md, directives), "myst_stashed", 29)   # after normalize_whitespace (30)
        md.postprocessors.register(HeadingTargets(md), "myst_heading_targets", 25)   # after raw_html (30)
        # Above code spans (190): the role's backticks are not a code span.
        md.inlinePatterns.register(Roles(ROLE.pattern, md, self), "myst_roles", 195)
