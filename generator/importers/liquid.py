"""Convert Jekyll's Liquid layouts and includes into Jinja templates for sitegen.

Only constructs with a direct Jinja equivalent are converted: outputs and
their common filters, ``if``/``elsif``/``unless``/``case``, ``for`` (with
``limit``, ``offset``, ``reversed``), ``assign``, ``capture``, ``include``
(its parameters become ``include.*`` as in Jekyll), ``comment``, ``raw``,
``break``, ``continue``, and ``highlight`` blocks of plain code (highlighted
at import, as sitegen highlights code in a page).
Anything else becomes a Jinja comment in place, so that the template still
renders, and a :class:`Note` at its file and line saying what the author must
do. Names are translated to what sitegen's templates see: a front matter key
Jekyll shows as ``page.X`` is ``page.meta.X`` here, ``forloop`` is ``loop``,
a scalar of ``_config.yml`` is written in as its value. Liquid's filters of
plain values (``plus``, ``truncate``, ``append``...) run through the ``liquid``
filter, by python-liquid's own code. An assigned or captured variable lives in a
namespace the layouts and includes of one render share, so that, as in Liquid,
it keeps its value after a loop or capture, an include's assignment is seen by
its includer, and one read before any assignment is nil.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jinja2 import sandbox

from generator.highlight import highlight
from generator.importers.polyglot import LANGUAGE_KEY, Languages

# Fields of a sitegen document that mean what Jekyll's page variables of the same name mean
# (not ``description``: sitegen's falls back to the excerpt, Jekyll's is the front matter's only).
DOCUMENT_FIELDS = {"title", "url", "date", "content", "excerpt", "tags", "categories", "layout",
                   "next", "previous"}
# Jekyll's site variables that sitegen's ``site`` has under the same (or another) name.
SITE_FIELDS = {"title": "title", "description": "description", "url": "url", "baseurl": "baseurl",
               "posts": "posts", "pages": "pages", "tags": "tags", "categories": "categories",
               "data": "data", "lang": "language", "time": "time", "html_pages": "pages"}
# What Jekyll's ``site`` holds besides _config.yml's keys: SiteDrop's own, Jekyll's default settings
# (Configuration::DEFAULTS). Any other name is nil there (jekyll-github-metadata's ``github`` where
# the site does not load it: :meth:`_Converter.site`).
JEKYLL_SITE_NAMES = frozenset({
    "time", "pages", "static_files", "tags", "categories", "posts", "html_pages", "collections", "documents",
    "related_posts", "config", "data", "source", "destination", "collections_dir", "cache_dir", "plugins_dir",
    "layouts_dir", "data_dir", "includes_dir", "safe", "include", "exclude", "keep_files", "encoding",
    "markdown_ext", "strict_front_matter", "show_drafts", "limit_posts", "future", "unpublished", "whitelist",
    "plugins", "markdown", "highlighter", "lsi", "excerpt_separator", "incremental", "detach", "port", "host",
    "baseurl", "show_dir_listing", "permalink", "paginate_path", "timezone", "quiet", "verbose", "defaults",
    "liquid", "kramdown", "url"})
# An include's ``key=value``: a quoted text (its quotes escaped by a backslash inside: just-the-docs'
# ``anchorBody="<svg viewBox=\"0 0 16 16\">"``), as Jekyll's include tag reads it, or a variable.
INCLUDE_PARAMETER = re.compile(r"""([\w-]+)\s*=\s*(?:"([^"\\]*(?:\\.[^"\\]*)*)"|'([^'\\]*(?:\\.[^'\\]*)*)'|([^\s]+))""")
DOCUMENT_COLLECTIONS = ("site.posts", "site.pages", "site.tags[", "site.categories[")
# Filters after which a list of documents is something else: groups of them, or their values.
UNLISTING_FILTERS = ("group_by", "group_by_exp", "map")
# A mapping's methods, which Jinja's ``x.name`` would find before its key ``name``: ``include.items``
# (crystal-lang's image-list include) and a group's ``items`` are written ``x["items"]``, key first.
MAPPING_METHODS = frozenset(name for name in dir(dict) if not name.startswith("_"))
LOOP_FIELDS = {"index", "index0", "rindex", "rindex0", "first", "last", "length"}

# Liquid filter -> Jinja filter and how its arguments carry over (None: as they are).
FILTERS: dict[str, tuple[str, Callable[[list[str]], list[str]] | None]] = {
    "relative_url": ("relative_url", None), "absolute_url": ("absolute_url", None),
    "escape": ("e", None), "xml_escape": ("e", None), "jsonify": ("jsonify", None),
    "date_to_xmlschema": ("date", lambda a: ['"iso"']),
    "date_to_string": ("date", lambda a: ['"%d %b %Y"']),
    "date_to_long_string": ("date", lambda a: ['"%d %B %Y"']),
    "date_to_rfc822": ("date", lambda a: ['"%a, %d %b %Y %H:%M:%S %z"']),
    "date": ("date", None), "size": ("length", None),
    "join": ("jekyll_join", None), "map": ("jekyll_map", None), "default": ("default", lambda a: [a[0], "true"]),
    "upcase": ("upper", None), "downcase": ("lower", None),
    "strip": ("trim", None), "uniq": ("unique", None), "reverse": ("jekyll_reverse", None),
    "number_of_words": ("wordcount", None), "slugify": ("slugify", None),
    "where": ("jekyll_where", None), "group_by": ("jekyll_group_by", None),
    "sort": ("jekyll_sort", lambda a: [f"attribute={a[0]}", *(f"nils={n}" for n in a[1:2])] if a else []),
}

# Liquid's and Jekyll's filters of plain values (numbers, strings, lists of them) that a converted
# template calls through the ``liquid`` filter (generator/render.py): python-liquid's own code,
# Liquid's semantics (``"3" | plus: 1`` is 4). Filters over posts and pages are in FILTERS.
LIQUID_FILTERS = frozenset({
    "plus", "minus", "times", "divided_by", "modulo", "abs", "ceil", "floor", "round", "at_least", "at_most",
    "append", "prepend", "split", "replace", "remove", "truncate", "truncatewords", "capitalize",
    "strip_newlines", "newline_to_br",
    "url_encode", "url_decode", "lstrip", "rstrip", "remove_first", "replace_first", "slice", "escape_once",
    "compact", "concat", "sum", "sort_natural", "array_to_sentence_string", "normalize_whitespace",
    "cgi_escape", "uri_escape", "markdownify", "strip_html", "push", "pop", "shift", "unshift",
    "first", "last"})   # nil for nil, an empty list or a string (Jinja's: the first character, or an error)
# The filters of Jekyll 4.3 and of its Liquid that neither table above has: a layout using one is
# left to its author; any other name is nobody's filter, which Jekyll's Liquid passes the input on from.
JEKYLL_FILTERS = frozenset({
    "smartify", "sassify", "scssify", "find", "find_exp", "to_integer", "sample",
    "inspect", "strip_index"})
TOKEN = re.compile(r"""\s*(?:
    (?P<str>"[^"]*"|'[^']*')
  | (?P<range>\(\s*[^()]+?\s*\.\.\s*[^()]+?\s*\))
  | (?P<num>-?\d+(?:\.\d+)?)
  | (?P<op>==|!=|<>|>=|<=|>|<)
  | (?P<name>\.?[A-Za-z_][\w-]*(?:\.[\w-]+|\[[^\]]*\])*\??)
  | (?P<nameless>\[\])
  | (?P<punct>[|:,=])
)""", re.X)
MARKUP = re.compile(r"\{\{-?(?P<output>.*?)-?\}\}|\{%-?\s*(?P<tag>\w+)(?P<args>.*?)-?%\}", re.S)
# A '{' Jinja could read as opening a tag: before '{', '%' or '#', or last in a text, where the
# converter's next tag follows it ('{' + '{% if %}' would read as '{{').
TAG_OPENING = re.compile(r"\{(?=[{%#]|\Z)")
JINJA_ENDRAW = re.compile(r"\{%[-+]?\s*endraw\s*[-+]?%\}")
# Python's ways from a value to its code and globals: a converted template never names them.
INTERNAL_ATTRIBUTES = frozenset({"mro", "format", "format_map"}).union(
    sandbox.UNSAFE_FUNCTION_ATTRIBUTES, sandbox.UNSAFE_METHOD_ATTRIBUTES, sandbox.UNSAFE_GENERATOR_ATTRIBUTES,
    sandbox.UNSAFE_COROUTINE_ATTRIBUTES, sandbox.UNSAFE_ASYNC_GENERATOR_ATTRIBUTES)


class Unconvertible(Exception):
    """A construct without a direct Jinja equivalent; the message says what to do."""


class Neutralised(Unconvertible):
    """A construct that could reach Python's internals from the converted template: left out."""


@dataclass(frozen=True)
class Note:
    """Something the author must finish by hand, at ``path:line``."""

    path: str
    line: int
    construct: str
    action: str
    neutralised: bool = False      # left out because it could run code, not merely unconverted
    visible: bool = False          # a visitor would see it: a page, style or feed missing or moved

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: `{self.construct}`: {self.action}"


@dataclass
class Scope:
    """What the names of one template mean."""

    config: dict[str, Any]                         # _config.yml: its scalars are written in
    documents: set[str] = field(default_factory=lambda: {"page"})   # names holding documents
    locals: set[str] = field(default_factory=set)  # loop variables
    collections: set[str] = field(default_factory=set)   # names holding lists of documents
    groupings: set[str] = field(default_factory=set)     # names holding group_by's groups of documents
    groups: set[str] = field(default_factory=set)        # loop variables holding one such group
    lenient: bool = False                          # an include: names may come from its includer
    includes: set[str] | None = None               # the files of _includes (None: not known)
    layouts: dict[str, dict[str, Any]] | None = None   # a layout's: ``layout`` by the page's layout
    assigned: set[str] | None = None               # names the site's layouts and includes assign (None: this one's)
    page_layouts: dict[str, dict[str, Any]] | None = None   # an include's: ``layout`` by the page's layout
    languages: Languages | None = None             # jekyll-polyglot's, if the site loads it
    redirect: bool = False                         # the layout jekyll-redirect-from renders its pages with
    kept_redirects: bool = False                   # redirect_from/_to kept as jekyll_redirect_from/_to
    plugin_words: frozenset[str] = frozenset()     # the words of the site's _plugins, which may set site.<name>
    content_includes: frozenset[str] = frozenset()  # the includes that show ``content`` (content_includes())


def _collection_names(config: dict[str, Any]) -> list[str]:
    """The collections ``_config.yml`` declares (a mapping, or a list of names), posts aside."""
    declared = config.get("collections") or {}
    return [str(name) for name in declared if str(name) != "posts"] if isinstance(declared, (dict, list)) else []


def convert_template(text: str, path: str, config: dict[str, Any], *, parent: str | None = None,
                     blocks: str | None = None, lenient: bool = False, includes: set[str] | None = None,
                     include_path: Callable[[str], str] = lambda name: f"partials/{name}",
                     layouts: dict[str, dict[str, Any]] | None = None,
                     assigned: set[str] | None = None,
                     page_layouts: dict[str, dict[str, Any]] | None = None,
                     languages: Languages | None = None, redirect: bool = False,
                     kept_redirects: bool = False, plugin_words: frozenset[str] = frozenset(),
                     content_includes: frozenset[str] = frozenset()) -> tuple[str, list[Note]]:
    """Convert one Liquid template (its front matter removed) into Jinja.

    ``parent``: the layout it is placed in (it then extends it, its whole body
    being the parent's content); ``blocks``: the name under which its own
    ``{{ content }}`` can be replaced by layouts placed in it; ``layouts``: for a
    layout, what Jekyll's ``layout`` variable holds in it, by the layout of the
    page whose chain of layouts reaches it (:func:`layout_variables`); ``page_layouts``: for an include, what it
    holds for a page placed in each layout (:func:`page_layout_variables`); ``assigned``: the names
    that the site's layouts and includes assign or capture (:func:`assigned_names` of each), which
    any of them may read; ``languages``: jekyll-polyglot's, whose links a layout placed in no other
    rewrites into the page's language; ``redirect``: the layout is the site's ``redirect``, which
    sitegen renders its redirect pages with, as jekyll-redirect-from does (``page.redirect.from``
    and ``.to``); ``kept_redirects``: the site loads no jekyll-redirect-from, so the import kept its
    pages' ``redirect_from`` and ``redirect_to`` as ``jekyll_redirect_from`` and ``_to`` (which
    ``page.redirect_to`` then reads, as Jekyll reads the key); ``plugin_words``: the words of the site's
    Ruby plugins, any of which may be a ``site.<name>`` they set; ``content_includes``: the includes
    that show ``content`` (:func:`content_includes`). Returns the Jinja text and the notes for the author.
    """
    scope = Scope(config, lenient=lenient, includes=includes, layouts=layouts, assigned=assigned,
                  page_layouts=page_layouts, languages=languages, redirect=redirect, kept_redirects=kept_redirects,
                  plugin_words=plugin_words, content_includes=content_includes)
    converter = _Converter(text, path, scope, include_path, blocks)
    body = converter.run()
    if parent is None and languages and not lenient:
        body = languages.links_filter(body)
    if parent is not None:
        body = (f'{{% extends "{parent}.html" %}}\n{{% block {block_name(parent)} %}}'
                f"{body}{{% endblock %}}\n")
    if converter.scope_used:      # before any ``extends``: the layouts it extends see it
        body = SCOPE_START + body
    return body, converter.notes


def _merged_chain(meta: dict[str, dict[str, Any]], parents: dict[str, str], start: str):
    """``(layout, what layout holds there)`` up the chain from ``start``: Jekyll renders a document's
    layout, then its parent..., merging each one's front matter under what the layouts below it
    set (the nearer layout wins)."""
    merged: dict[str, Any] = {}
    name: str | None = start
    seen = set()
    while name in meta and name not in seen:
        seen.add(name)
        merged = _deep_merge(meta[name], merged)
        yield name, merged
        name = parents.get(name)


def layout_variables(meta: dict[str, dict[str, Any]],
                     parents: dict[str, str]) -> dict[str, dict[str, dict[str, Any]]]:
    """What ``layout`` holds in each layout, by the name of the page's layout (whose chain reaches it)."""
    found: dict[str, dict[str, dict[str, Any]]] = {name: {} for name in meta}
    for start in meta:
        for name, merged in _merged_chain(meta, parents, start):
            found[name][start] = merged
    return found


def page_layout_variables(meta: dict[str, dict[str, Any]], parents: dict[str, str]) -> dict[str, dict[str, Any]]:
    """What ``layout`` holds, by the name of a page's layout, once its whole chain is merged: what
    an include placed in that chain sees of the layouts above it too."""
    return {start: ([{}] + [merged for _, merged in _merged_chain(meta, parents, start)])[-1] for start in meta}


def _deep_merge(master: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """Jekyll's ``Utils.deep_merge_hashes``: ``other`` wins, mappings in both are merged."""
    merged = dict(master)
    for key, value in other.items():
        both = isinstance(value, dict) and isinstance(merged.get(key), dict)
        merged[key] = _deep_merge(merged[key], value) if both else value
    return merged


CONTENT_OUTPUT = re.compile(r"\{\{-?\s*content\s*-?\}\}")
INCLUDED = re.compile(r"\{%-?\s*include\s+([\w./-]+)")


def content_includes(includes: dict[str, str]) -> frozenset[str]:
    """The includes (name: text) that show ``content``, themselves or through an include of
    theirs: a layout that places it there (systemds' ``{% include themes/apache/default.html %}``)
    hands it the content of the layouts placed in it, as Jekyll renders the include in its context."""
    showing = {name for name, text in includes.items() if CONTENT_OUTPUT.search(text)}
    while grown := {name for name, text in includes.items() if name not in showing
                    and any(inner in showing for inner in INCLUDED.findall(text))}:
        showing |= grown
    return frozenset(showing)


def block_name(layout: str) -> str:
    return "content_" + re.sub(r"\W", "_", layout)


@dataclass
class _Block:
    """An open Liquid block: its tag, line, and for a ``case``, its subject (None: unconverted)."""

    tag: str
    line: int
    subject: str | None = None
    first: bool = True       # a case that has seen no ``when`` yet
    otherwise: int = 0       # an if's ``else`` tags so far: Liquid renders what follows the first


# Where assigned variables live. Liquid's belong to the whole render: they outlive a loop or a
# capture, and an include's are its includer's (Jekyll renders an include in its includer's
# context). A Jinja ``set`` belongs to its loop, ``set`` block or include only; an attribute of
# one namespace, made by the first converted template of a render and handed to the rest
# (includes and extended layouts share their context's values), is seen by all of them.
SCOPE = "liquid_scope"
SCOPE_START = f"{{% if {SCOPE} is undefined %}}{{% set {SCOPE} = namespace() %}}{{% endif %}}"


# Jekyll's own variables: one a template assigns stays a variable of that template (a Jinja ``set``),
# so that what is read before the assignment is still Jekyll's value.
PAYLOAD = frozenset({"site", "page", "layout", "content", "paginator", "jekyll", "include", "forloop"})
NAME = r"[A-Za-z_][\w-]*"      # a variable's, as Ruby Liquid reads it: footer-include is one name


def assigned_names(text: str) -> set[str]:
    """The names besides Jekyll's own that a Liquid template assigns or captures."""
    return {match.group("args").partition("=")[0].strip() for match in MARKUP.finditer(text)
            if match.group("tag") in ("assign", "capture")} - PAYLOAD


# What a Liquid value is read from: a variable and its keys (``site.data.authors[page.author]``).
ROOTED = re.compile(r"\s*([A-Za-z_][\w-]*)(?:\.([\w-]+))?")
# Not documents: the site's own values, an include's parameters, a loop's counters.
NOT_DOCUMENTS = {"site", "include", "forloop", "paginator", "layout", "jekyll"}
DOCUMENT_LISTS = {"posts", "pages", "related_posts", "documents", "tags", "categories"}


def document_fields_read(text: str, fields: tuple[str, ...], collections: list[str]) -> set[str]:
    """Which of ``fields`` this Liquid reads of posts, pages or documents: ``X.field`` of any name
    but one bound to the site's data or settings (``for org in site.data.orgs``), and a quoted key
    of ``where``, ``sort``, ``group_by`` or ``map`` over anything but those."""
    lists = DOCUMENT_LISTS | set(collections)
    data: set[str] = set()

    def is_data(source: str) -> bool:
        match = ROOTED.match(source)
        if match is None:
            return True
        root, key = match.groups()
        return root in data or root in NOT_DOCUMENTS - {"site"} or root == "site" and key not in lists

    tags = list(MARKUP.finditer(text))
    for match in tags:      # in order: an assignment from data makes data of what is read from it
        name, args = match.group("tag"), match.group("args") or ""
        bound = re.match(r"\s*([A-Za-z_]\w*)\s*(?:=|\bin\b)(.*)", args, re.S)
        if name in ("for", "assign", "tablerow") and bound and is_data(bound.group(2)):
            data.add(bound.group(1))
    names = "|".join(map(re.escape, fields))
    found = set()
    for match in tags:
        source = match.group("output") if match.group("output") is not None else match.group("args") or ""
        for variable, field in re.findall(rf"(?<![\w.\]-])([A-Za-z_][\w-]*)\.({names})\b", source):
            if variable not in data and variable not in NOT_DOCUMENTS:
                found.add(field)
        value = re.sub(r"^\s*[A-Za-z_]\w*\s*(?:=|\bin\b)", "", source)
        if not is_data(value):
            found.update(re.findall(rf"\|\s*(?:where|sort|group_by|map)\s*:\s*[\"']({names})[\"']", value))
    return found


class _Converter:
    def __init__(self, text: str, path: str, scope: Scope, include_path: Callable[[str], str],
                 blocks: str | None):
        self.text, self.path, self.scope = text, path, scope
        self.assigned = assigned_names(text) | (scope.assigned or set())
        self.scope_used = False
        self.include_path, self.blocks = include_path, blocks
        self.notes: list[Note] = []
        self.at = (1, "")       # the line and text of the markup being converted
        self.stack: list[_Block] = []
        self.block_used = False
        self.block_read = False    # ``content`` read in an expression (table_wrappers' ``content | replace``)
        self.line = 1           # of the tag or output being converted

    def note(self, line: int, construct: str, action: str, neutralised: bool = False) -> None:
        self.notes.append(Note(self.path, line, " ".join(construct.split())[:120], action, neutralised))

    def run(self) -> str:
        out: list[str] = []
        pos = 0
        text = self.text
        while pos < len(text):
            match = MARKUP.search(text, pos)
            end = match.start() if match else len(text)
            out.append(self.literal(text[pos:end], pos))
            if match is None:
                break
            line = self.line = text.count("\n", 0, match.start()) + 1
            whole = match.group(0)
            if match.group("tag") in ("raw", "comment"):
                pos = self.verbatim(match, line, out)
                continue
            if match.group("tag") == "highlight" and (after := self.highlighted(match, out)) is not None:
                pos = after
                continue
            self.at = (line, whole)
            try:
                out.append(self.output(match, whole) if match.group("output") is not None
                           else self.tag(match, whole, line))
            except Unconvertible as exc:
                self.note(line, whole, str(exc), isinstance(exc, Neutralised))
                out.append(self.placeholder(match, whole))
            pos = match.end()
        for block in reversed(self.stack):
            self.note(block.line, f"{{% {block.tag} %}}", "this block is never closed: close it")
            out.append({"for": "{% endfor %}", "capture": "{% endset %}", "highlight": "{% endfilter %}"}
                       .get(block.tag, "{% endif %}") * (1 + (block.otherwise > 1)))
        if self.block_read and not self.block_used:     # read (assigned, filtered), never shown as it is
            out.append(f"{{% if false %}}{{% block {self.blocks} %}}{{{{ content }}}}{{% endblock %}}{{% endif %}}")
        return "".join(out)

    def target(self, name: str) -> str:
        """Where an assigned Liquid variable is in Jinja: its place in the render's namespace (one
        of Jekyll's own: a variable of this template)."""
        if name in PAYLOAD:
            self.scope.locals.add(name)
            return name
        self.scope_used = True
        return f"{SCOPE}.{name.replace('-', '__')}"     # Liquid's names may hold a '-' (footer-include)

    def placeholder(self, match: re.Match, whole: str) -> str:
        """A Jinja comment standing for an unconverted construct; blocks stay balanced, and
        what an unconverted condition or loop guarded is not shown."""
        comment = "{# sitegen import: see IMPORT-REPORT.md: " + whole.replace("#}", "# }") + " #}"
        tag, line = match.group("tag"), self.text.count("\n", 0, match.start()) + 1
        if tag in ("if", "unless", "for"):
            self.stack.append(_Block(tag, line))
            return comment + ("{% for _ in () %}" if tag == "for" else "{% if false %}")
        if tag == "case":
            self.stack.append(_Block("case", line, None, first=False))
            return comment + "{% if false %}"
        if tag in ("elsif", "when") and self.stack and self.stack[-1].tag in ("if", "unless", "case"):
            block = self.stack[-1]
            opener = "if" if block.tag == "case" and block.first else "elif"
            block.first = False
            return comment + f"{{% {opener} false %}}"
        return comment

    def verbatim(self, match: re.Match, line: int, out: list[str]) -> int:
        tag = match.group("tag")
        closer = re.compile(r"\{%-?\s*end" + tag + r"\s*-?%\}")
        end = closer.search(self.text, match.end())
        if end is None:
            self.note(line, match.group(0), f"no {{% end{tag} %}}: close it")
            return len(self.text)
        inner = self.text[match.end():end.start()]
        for found in JINJA_ENDRAW.finditer(inner) if tag == "raw" else ():
            self.note(self.text.count("\n", 0, match.end() + found.start()) + 1, found.group(0),
                      "Jinja would have ended the raw block here and run what follows: it is written as text",
                      neutralised=True)
        out.append(_text(inner) if tag == "raw" else "{#" + inner.replace("#}", "# }") + "#}")
        return end.end()

    def highlighted(self, match: re.Match, out: list[str]) -> int | None:
        """A ``highlight`` block of plain code, highlighted now as sitegen highlights one in a
        page (the code is the same on every page); where the block holds Liquid, None: its
        tags are then converted (:meth:`tag`). Returns where the text goes on after ``endhighlight``."""
        options = match.group("args").split()
        end = re.compile(r"\{%-?\s*endhighlight\s*-?%\}").search(self.text, match.end())
        if end is None or not options or options[1:] not in ([], ["linenos"]):
            return None
        code = self.text[match.end():end.start()]
        if MARKUP.search(code):
            return None
        if match.group(0).endswith("-%}"):        # Liquid's whitespace control, inside and out
            code = code.lstrip()
        if end.group(0).startswith("{%-"):
            code = code.rstrip()
        if match.group(0).startswith("{%-"):
            out[-1] = out[-1].rstrip()
        out.append(_text(highlight(code.strip("\r\n") + "\n", options[0], linenos=len(options) == 2)))
        after = end.end()
        if end.group(0).endswith("-%}"):
            after = len(self.text) - len(self.text[after:].lstrip())
        return after

    def literal(self, text: str, start: int) -> str:
        """Text between Liquid's tags, as text; what Jinja would have read there as a tag
        (``{%+ endraw %}``, which Liquid does not) is noted as neutralised."""
        for found in re.finditer(r"\{[{%](?:[^\n]{0,100}?[%}]\})?", text):
            line = self.text.count("\n", 0, start + found.start()) + 1
            self.note(line, found.group(0), "not a Liquid tag, but Jinja would have "
                      "read it as one: it is written as text", neutralised=True)
        return _text(text)

    # -- outputs ---------------------------------------------------------------------------

    def output(self, match: re.Match, whole: str) -> str:
        source = match.group("output").strip()
        left, right = ("{{-" if whole.startswith("{{-") else "{{"), ("-}}" if whole.endswith("-}}") else "}}")
        if source == "content":
            if self.blocks is None:
                return f"{left} content {right}"
            if self.block_used:
                return f"{left} self.{self.blocks}() {right}"
            self.block_used = True
            return f"{{% block {self.blocks} %}}{left} content {right}{{% endblock %}}"
        # Liquid escapes no output (``escape`` does, where a layout asks): a value holding HTML,
        # as a site's translations in _data do, is markup, where autoescaping showed its tags;
        # a list is its items' text joined, as Liquid prints it (generator/render.py's liquid_output).
        return f"{left} ({self.expression(source)}) | liquid_output {right}"

    # -- tags -------------------------------------------------------------------------------

    def tag(self, match: re.Match, whole: str, line: int) -> str:
        name, args = match.group("tag"), match.group("args").strip()
        left = "{%-" if whole.startswith("{%-") else "{%"
        right = "-%}" if whole.endswith("-%}") else "%}"

        def wrap(body: str) -> str:
            return f"{left} {body} {right}"

        if name in ("if", "unless"):
            condition = self.condition(args)
            self.stack.append(_Block(name, line))
            return wrap(f"if {condition}" if name == "if" else f"if not ({condition})")
        if name in ("elsif", "else") and self.stack and self.stack[-1].otherwise:
            return self.after_else(self.stack[-1], wrap)
        if name == "elsif":
            self.expect(("if", "unless"), name)
            return wrap(f"elif {self.condition(args)}")
        if name == "else":      # Liquid reads no words after it: `else if x` is an else
            block = self.expect(("if", "unless", "for", "case"), name)
            block.otherwise = 1 if block.tag in ("if", "unless") else 0
            return wrap("else")
        if name in ("endif", "endunless"):
            block = self.close(("if", "unless"), name)
            return wrap("endif") * (1 + (block.otherwise > 1))
        if name == "case":
            self.stack.append(_Block("case", line, self.expression(args)))
            return ""
        if name == "when":
            block = self.expect(("case",), name)
            options = [self.expression(part) for part in re.split(r",|\bor\b", args) if part.strip()]
            if block.subject is None:
                test = "false"
            elif len(options) == 1:
                test = f"{block.subject} == {options[0]}"
            else:
                test = f"{block.subject} in [{', '.join(options)}]"
            opener, block.first = ("if" if block.first else "elif"), False
            return wrap(f"{opener} {test}")
        if name == "endcase":
            block = self.close(("case",), name)
            return wrap("endif") if not block.first else ""
        if name == "for":
            return wrap(self.for_loop(args, line))
        if name == "endfor":
            self.close(("for",), name)
            return wrap("endfor")
        if name in ("break", "continue"):      # Jinja's loopcontrols, on in sitegen's templates
            if not any(block.tag == "for" for block in self.stack):
                raise Unconvertible(f"{{% {name} %}} outside of a for loop: remove it")
            return wrap(name)
        if name == "assign":
            target, _, value = args.partition("=")
            target = target.strip()
            if not re.fullmatch(NAME, target):
                raise Unconvertible(f"cannot assign to {target!r}: give the variable a plain name")
            if self.lists_documents(value):
                self.scope.collections.add(target)
            elif self.groups_documents(value):
                self.scope.groupings.add(target)
            value = self.expression(value)
            return wrap(f"set {self.target(target)} = {value}")
        if name == "capture":
            target = args.strip()
            if not re.fullmatch(NAME, target):
                raise Unconvertible(f"cannot capture into {target!r}: give the variable a plain name")
            self.stack.append(_Block("capture", line))
            return wrap(f"set {self.target(target)}")
        if name == "endcapture":
            self.close(("capture",), name)
            return wrap("endset")
        if name == "include":
            return self.include(args, wrap)
        if name == "highlight":     # one holding Liquid (plain code is highlighted at import: highlighted())
            words = args.split()
            if not words or words[1:] not in ([], ["linenos"]):
                raise Unconvertible(UNSUPPORTED["highlight"])
            self.stack.append(_Block(name, line))
            return wrap(f"filter jekyll_highlight({_literal(words[0].lower())}, {str(len(words) == 2).lower()})")
        if name == "endhighlight":
            self.close(("highlight",), name)
            return wrap("endfilter")
        if name == "static_href" and self.scope.languages:    # a link kept out of the language, as polyglot
            self.stack.append(_Block(name, line))             # marks it: ferh= until its links are rewritten
            return wrap("filter replace('href=', 'ferh=', 1)")
        if name == "endstatic_href":
            self.close(("static_href",), name)
            return wrap("endfilter")
        if name in PLUGIN_TAGS and not args.replace("title=false", "").strip():
            return PLUGIN_TAGS[name].replace("{TITLE}", "" if "title=false" in args else SEO_TITLE)
        raise Unconvertible(UNSUPPORTED.get(name, f"the Liquid tag '{name}' has no Jinja equivalent in "
                                                  f"sitegen: rewrite this part of the template in Jinja"))

    def after_else(self, block: _Block, wrap: Callable[[str], str]) -> str:
        """An ``elsif`` or ``else`` after an if's ``else``: Liquid's first else is always taken, so
        what follows the next one never renders (cordova-docs' head include has
        ``{% else if page.description %}..{% else %}``); Jinja allows one else, so it is hidden."""
        block.otherwise += 1
        if block.otherwise == 2:
            self.note(self.at[0], self.at[1], "a second else (or an elsif after else): Liquid never renders "
                                              "what follows it, nor does sitegen: remove it", neutralised=True)
            return wrap("if false")
        return ""

    def expect(self, tags: tuple[str, ...], name: str) -> _Block:
        if not self.stack or self.stack[-1].tag not in tags:
            raise Unconvertible(f"{{% {name} %}} outside of {' / '.join(tags)}: fix the nesting")
        return self.stack[-1]

    def close(self, tags: tuple[str, ...], name: str) -> _Block:
        block = self.expect(tags, name)
        self.stack.pop()
        return block

    def for_loop(self, args: str, line: int) -> str:
        match = re.fullmatch(r"([A-Za-z_]\w*)\s+in\s+(\S+|\([^)]*\))(.*)", args.strip(), re.S)
        if not match:
            raise Unconvertible("cannot read this for loop: write it in Jinja")
        var, source, options = match.groups()
        collection = self.expression(source)
        if not self.lists_documents(source) and not source.startswith("("):
            collection = f"({collection} | each_pair)"     # a mapping loops over [key, value], as in Liquid
        limit = re.search(r"limit\s*:\s*(\S+)", options)
        offset = re.search(r"offset\s*:\s*(\S+)", options)
        rest = re.sub(r"(limit|offset)\s*:\s*\S+|reversed", "", options).strip()
        if rest:
            raise Unconvertible(f"for-loop option {rest!r} has no Jinja equivalent: rewrite the loop")
        if limit or offset:
            start = self.expression(offset.group(1)) if offset else "0"
            stop = f"{start} + {self.expression(limit.group(1))}" if limit else ""
            collection = f"({collection} | list)[{start}:{stop}]"
        if "reversed" in options:
            collection = f"({collection} | reverse | list)"
        if self.lists_documents(source):
            self.scope.documents.add(var)
        elif source in self.scope.groupings or self.groups_documents(source):
            self.scope.groups.add(var)
        self.scope.locals.add(var)
        self.stack.append(_Block("for", line))
        return f"for {var} in {collection}"

    def lists_documents(self, source: str) -> bool:
        """Does this Liquid value hold posts or pages (it does, before its filters, and none of them
        makes it something else: groups, or values)?"""
        return self.holds_documents(source) and not _unlisted(source)

    def groups_documents(self, source: str) -> bool:
        """Is this Liquid value ``group_by``'s groups of posts or pages?"""
        return self.holds_documents(source) and _unlisted(source) == "group_by"

    def holds_documents(self, source: str) -> bool:
        """Does this Liquid value, before its filters, hold posts or pages (a group's ``items`` too)?"""
        source = source.strip().removeprefix(".")      # lax Liquid's `.site.pages` (see tokenize)
        root = re.split(r"[.\[\s|]", source, maxsplit=1)[0]
        return (source.startswith(DOCUMENT_COLLECTIONS) or root in self.scope.collections
                or root in self.scope.groups and re.match(rf"{root}\.items\b", source) is not None
                or any(re.match(rf"site\.{re.escape(name)}\b", source) for name in _collection_names(self.scope.config)))

    def include(self, args: str, wrap: Callable[[str], str]) -> str:
        match = re.fullmatch(r"([\w./-]+)(.*)", args.strip(), re.S)
        if not match:
            raise Unconvertible("an include whose name is computed ({{ ... }}) cannot be converted: "
                                "name the file, or write the include in Jinja")
        name, params = match.groups()
        if self.scope.includes is not None and name not in self.scope.includes:
            raise Unconvertible(f"there is no _includes/{name}: add it, or remove the include")
        values = {}
        for found in INCLUDE_PARAMETER.finditer(params):
            key, double, single, other = found.groups()
            values[key] = (_literal(double.replace('\\"', '"')) if double is not None else
                           _literal(single.replace("\\'", "'")) if single is not None else self.expression(other))
        leftover = INCLUDE_PARAMETER.sub("", params).strip()
        if leftover:
            raise Unconvertible(f"cannot read the include's parameters {leftover!r}: write them as key=value")
        include = wrap(f'include "{self.include_path(name)}"')
        if self.scope.assigned and not self.scope.lenient:
            # What one include assigns, another reads (livy's JB/setup sets HOME_PATH for its
            # navigation): the render's namespace is made here, in the layout, not in the first include.
            self.scope_used = True
        if self.blocks is not None and name in self.scope.content_includes:
            self.block_read = True     # its ``content``: what the layouts placed in this one made
            include = f"{{% with content = self.{self.blocks}() %}}{include}{{% endwith %}}"
        if not values:
            return include
        mapping = ", ".join(f'"{key}": {value}' for key, value in values.items())
        return f"{{% with include = {{{mapping}}} %}}{include}{{% endwith %}}"

    # -- expressions --------------------------------------------------------------------------

    def condition(self, source: str) -> str:
        tokens = tokenize(source)
        parts, current = [], []
        for kind, value in tokens:
            if kind == "name" and value in ("and", "or"):
                parts.extend([self.comparison(current), value])
                current = []
            else:
                current.append((kind, value))
        parts.append(self.comparison(current))
        return " ".join(parts)

    def comparison(self, tokens: list[tuple[str, str]]) -> str:
        if len(tokens) == 1 or len(tokens) > 1 and tokens[1][1] == "|":
            # Liquid has no filters in a condition: Jekyll reads `x | size > 0` as `x` (its lax parser);
            # only nil and false are false (scala-lang's `{% if page.tags %}` of [] is true)
            return f"({self.operand(tokens[0])} is liquid_true)"
        if len(tokens) == 3:
            left, (kind, op), right = tokens
            if kind == "name" and op == "contains":     # false against nil, as in Liquid (Jinja's `in` stops)
                return f"({self.operand(left)} | liquid_contains({self.operand(right)}))"
            if kind == "op":
                if right[1] in ("empty", "blank") or left[1] in ("empty", "blank"):
                    # Ruby Liquid asks the value for empty? or blank?; only a string, list or hash has
                    # empty?, nothing has blank? (no ActiveSupport in Jekyll): `x == blank` is false and
                    # `x != blank` true whatever x is, `nil == empty` false (rails' speaker cards)
                    special = right[1] if right[1] in ("empty", "blank") else left[1]
                    value = self.operand(left if special == right[1] else right)
                    equal = f"({value} | liquid_empty)" if special == "empty" else "false"
                    return f"not {equal}" if op in ("!=", "<>") else equal
                if right[1] in ("nil", "null") and op in ("==", "!=", "<>"):
                    # nil is a missing key (sitegen's nil, see document()) or a null value (none)
                    return f"({self.operand(left)} | default(none)) is {'not ' if op != '==' else ''}none"
                if op in ("<", ">", "<=", ">="):     # false against nil, as in Liquid (Jinja's stops)
                    return f"({self.operand(left)} | liquid_order({_literal(op)}, {self.operand(right)}))"
                return f"{self.operand(left)} {'!=' if op == '<>' else op} {self.operand(right)}"
        raise Unconvertible("cannot read this condition: write it in Jinja")

    def expression(self, source: str) -> str:
        """An output or assigned value: an operand, then filters."""
        tokens = tokenize(source)
        if not tokens:
            raise Unconvertible("empty expression")
        pieces = _split(tokens, "|")
        if len(pieces[0]) != 1:
            raise Unconvertible("cannot read this expression: write it in Jinja")
        result = self.operand(pieces[0][0])
        documents = self.holds_documents(source)
        for piece in pieces[1:]:
            converted = self.filter(piece, documents)
            result += f" | {converted}" if converted else ""
            documents = documents and piece[0][1] not in UNLISTING_FILTERS
        return result

    def filter(self, tokens: list[tuple[str, str]], documents: bool = False) -> str | None:
        """The Jinja filter for a Liquid one; None for one Jekyll's Liquid would pass the value on from."""
        if not tokens or tokens[0][0] != "name":
            raise Unconvertible("cannot read this filter")
        name = tokens[0][1]
        args = []
        if len(tokens) > 1:
            if tokens[1] != ("punct", ":"):
                raise Unconvertible(f"cannot read the arguments of filter '{name}'")
            if name in ("where_exp", "group_by_exp"):
                return self.where_exp(_split(tokens[2:], ","), name == "group_by_exp")
            args = [self.argument(arg) for arg in _split(tokens[2:], ",")]
            if name in ("sort", "where", "map", "group_by") and args:
                if not args[0].startswith('"'):
                    raise Unconvertible(f"'{name}' by a key held in a variable: name the key")
                for attribute in args[0][1:-1].split("."):    # Jinja follows these as attributes
                    _check_name(attribute)
            if documents and name in ("sort", "where", "map", "group_by") and args and args[0][1:-1] == "path":
                args[0] = '"source"'    # the source file: as Jekyll's path, content/posts/ for _posts/
            elif documents and name in ("sort", "where", "map", "group_by") and args and args[0][0] in "'\"" \
                    and args[0][1:-1] not in DOCUMENT_FIELDS:
                args[0] = f'"meta.{args[0][1:-1]}"'     # a front matter key of posts or pages
        if name not in FILTERS and name in LIQUID_FILTERS:     # by python-liquid's own code, at render
            return f"liquid({', '.join([_literal(name), *args])})"
        if name not in FILTERS and name not in JEKYLL_FILTERS and not _strict_filters(self.scope.config):
            self.note(self.line, f"| {name}", f"'{name}' is not a filter of Jekyll or of its Liquid, which passes "
                      "the value on unchanged: so does the converted layout (a plugin's filter does nothing in "
                      "sitegen: do what it did)")
            return None
        if name not in FILTERS:
            raise Unconvertible(f"the Liquid filter '{name}' has no equivalent among sitegen's Jinja "
                                f"filters: rewrite it in Jinja, or compute the value in the content")
        jinja, adapt = FILTERS[name]
        if name == "absolute_url" and not self.scope.config.get("url"):
            jinja = "relative_url"     # Jekyll's, without a site.url (minima's feed link): the path alone
        if adapt is not None:
            args = adapt(args)
        if name in ("first", "last"):
            return f"{jinja} | default(nil)"    # of an empty list: nil, as in Liquid (Jinja's stops the build)
        return f"{jinja}({', '.join(args)})" if args else jinja

    def where_exp(self, args: list[list[tuple[str, str]]], group: bool = False) -> str:
        """Jekyll's ``where_exp: "doc", "doc.url contains '/step/'"`` (jekyll/jekyll's step-index
        include): the condition converted with ``doc`` as a loop variable, tested on each item
        when the page renders (generator/render.py's ``jekyll_where_exp``); ``group``: its
        ``group_by_exp: "item", "item.nav_order | jsonify"`` (just-the-docs' nav), an expression
        (filters and all) whose value groups the items (``jekyll_group_by_exp``)."""
        filter_name = "group_by_exp" if group else "where_exp"
        if len(args) != 2 or any(len(arg) != 1 or arg[0][0] != "str" for arg in args):
            raise Unconvertible(f"{filter_name}: give the item's name and the {'expression' if group else 'condition'} "
                                f"as two quoted strings")
        name, condition = (arg[0][1][1:-1] for arg in args)
        _check_name(name)
        added = name not in self.scope.locals
        self.scope.locals.add(name)
        try:
            converted = self.expression(condition) if group else self.condition(condition)
        finally:
            if added:
                self.scope.locals.discard(name)
        return f"jekyll_{filter_name}({_literal(name)}, {_literal(converted)})"

    def argument(self, tokens: list[tuple[str, str]]) -> str:
        if len(tokens) == 1:
            return self.operand(tokens[0])
        raise Unconvertible("a keyword argument to a filter has no direct Jinja equivalent here")

    def operand(self, token: tuple[str, str]) -> str:
        kind, value = token
        if kind == "str":
            return _literal(value[1:-1])       # Liquid has no escapes in strings: '\\' is itself
        if kind == "num":
            return value
        if kind == "range":
            low, high = (self.operand(tokenize(part.strip())[0]) for part in value.strip("()").split(".."))
            # Liquid's ends are integers: a captured "2019" is read as one (scala-lang's events)
            low, high = (end if end.lstrip("-").isdigit() else f"({end} | int)" for end in (low, high))
            return f"range({low}, {high} + 1)"
        if kind == "nameless":
            return "nil"          # lax Liquid's lookup of no name (toree's `default: []`)
        if kind != "name":
            raise Unconvertible(f"unexpected {value!r}: write this in Jinja")
        if value in ("nil", "null"):
            return "nil"          # sitegen's nil: prints as nothing, as Liquid's does (none prints 'None')
        if value in ("true", "false"):
            return value
        return self.variable(value)

    def variable(self, path: str) -> str:
        parts = re.findall(r"[\w-]+|\[[^\]]*\]", path.rstrip("?"))
        root, rest = parts[0], parts[1:]
        scope = self.scope
        if root == "forloop":
            if not rest or rest[0] not in LOOP_FIELDS:
                raise Unconvertible("this forloop variable has no Jinja equivalent: use loop.index, loop.first...")
            return "loop." + rest[0]
        local = root in scope.locals or root == "include" and scope.lenient
        if local and root in scope.documents:
            return self.document(root, rest)
        if root in self.assigned:         # nil until assigned, as in Liquid
            value = f"({self.target(root)} | default(nil))"
            if local or scope.lenient:    # a loop variable of that name hides it, as Liquid's loop scope does
                value = f"({root} | default({self.target(root)}) | default(nil))"
            return self.data_value(value, rest)
        if local:                         # read after its loop: nil, as in Liquid
            return f"({self.access(root if root != 'include' else '(include | default(nil))', rest, self.nil_between)} " \
                   "| default(nil))"
        if root in scope.documents:
            return self.document(root, rest)
        if root == "site":
            return self.site(rest)
        if root == "include":      # an include given no parameters has its includer's, or nil
            return self.data_value("(include | default(nil))", rest)
        if root == "content" and not rest:
            if self.blocks is None:
                return "content"
            self.block_read = True      # what the layouts placed in this one made, as in Jekyll
            return f"self.{self.blocks}()"
        if root == "layout" and scope.layouts is not None:
            return self.layout(rest)
        if root == "layout" and scope.page_layouts is not None:
            return self.page_layout(rest)
        if root == "paginator":         # the blog's index page's page of posts (archives.Blog), else nil
            return self.data_value("(paginator | default(nil))", rest)
        if root in ("layout", "jekyll"):
            raise Unconvertible(f"'{root}' has no equivalent in sitegen's templates: "
                                + {"layout": "write the layout's value in, or move it to the page's front matter",
                                   "jekyll": "remove it, or write the value in"}[root])
        if scope.lenient:   # an include sees its includer's names; one set by none is nil, as in Liquid
            return self.data_value(f"({root} | default(nil))", rest)
        return "nil"        # assigned nowhere: nil, as in Liquid

    def data_value(self, value: str, rest: list[str]) -> str:
        """``value``'s ``rest`` (keys of data, mostly), a key it lacks nil: see :attr:`nil_between`."""
        return _maybe(self.access(value, rest, self.nil_between), rest)

    @property
    def nil_between(self) -> bool:
        """Whether a key missing on the way down a value is nil, as in Liquid (a locale's file
        without ``footer``: ``t.footer.contribute.heading``), not only the last one; not where the
        site set Liquid's ``strict_variables``, with which Jekyll stops at it, as sitegen then does."""
        liquid = self.scope.config.get("liquid")
        return not (isinstance(liquid, dict) and liquid.get("strict_variables"))

    def layout(self, rest: list[str]) -> str:
        """A value of the layouts' front matter, as Jekyll's ``layout`` holds it in this layout: the
        layouts' below it merged over its own, so looked up by the page's layout when the chains
        through it set it differently (Leaflet's base layout reads ``layout.root``, which its
        post and tutorial layouts set)."""
        return _by_page_layout(self.scope.layouts, rest)

    def page_layout(self, rest: list[str]) -> str:
        """In an include, a value of the layouts' front matter: looked up by the page's layout when
        the layouts set it differently (crystal-lang's breadcrumbs read ``layout.section``)."""
        return _by_page_layout(self.scope.page_layouts, rest)

    def document(self, root: str, rest: list[str]) -> str:
        if not rest:
            return root
        name, more = rest[0], rest[1:]
        if name == "redirect" and root == "page" and self.scope.redirect:
            return self.access(REDIRECT_PAGE, more)
        if name in ("redirect_from", "redirect_to") and self.scope.kept_redirects:   # the page's own key
            return self.access(f'{root}.meta.get("jekyll_{name}", nil)', more)
        if name == "excerpt":    # the front matter's as written, where it sets one, as in Jekyll
            return self.access(f'({root}.meta.excerpt if "excerpt" in {root}.meta else {root}.excerpt)', more)
        if name == "title":      # nil for a page the import titled (front matter 'untitled'), as in Jekyll
            return self.access(f'({root}.title if not {root}.meta.get("untitled") else nil)', more)
        if name in ("next", "previous"):    # a post's neighbour, nil at either end; a page's front matter's
            own = f'"{name}" in {root}.meta and {root}.kind != "post"'      # (rubygems guides: a path)
            if more:
                return self.access(f"(nil if {own} else {root}.{name} or nil)", more)
            return f'({root}.meta["{name}"] if {own} else {root}.{name} or nil)'
        if name == "url" and root == "page" and self.scope.languages:    # polyglot's: without /<lang>
            return self.access(_in_language(self.scope.languages, "page.url[{cut}:]", "page.url"), more)
        if name in ("tags", "categories"):   # a page's front matter's, or nil (tuweni's `page.tags == empty`)
            return self.access(f'({root}.{name} if {root}.kind == "post" else {root}.meta.get("{name}", nil))', more)
        if name in DOCUMENT_FIELDS:
            return self.access(f"{root}.{name}", more)
        if name in ("size", "first", "last"):
            return self.access(root, rest)
        if name.startswith("["):
            key = tokenize(name[1:-1].strip())
            if len(key) == 1 and key[0][0] == "str":      # page["title"]: page.title
                return self.document(root, [key[0][1][1:-1], *more])
            if len(key) != 1 or key[0][0] != "name":
                raise Unconvertible("a computed key of a page has no direct equivalent: name the key")
            # choosealicense.com's `license[type]` (type: permissions...): a front matter key, nil if missing
            return self.access(f"({root}.meta | item({self.operand(key[0])}))", more)
        return self.access(f'{root}.meta.get("{name}", nil)', more)   # a missing key is nil

    def site(self, rest: list[str]) -> str:
        if not rest:
            raise Unconvertible("'site' on its own has no equivalent in sitegen: use one of its values")
        name, more = rest[0], rest[1:]
        if name == "data":    # a key missing on the way down is nil, as in Liquid (not only the last)
            data = self.access("site.data", more[:1])
            if more and not more[0].startswith("["):    # a file no _data holds (a plugin's, say) is nil too
                data = f'({data} if {_literal(more[0])} in site.data else nil)'
            return _maybe(self.access(data, more[1:], lookup=True), more[1:])
        languages = self.scope.languages
        if languages and name in ("posts", "categories", "tags"):   # polyglot's: the page's language's posts
            keyed = name != "posts" and more and more[0] not in ("size", "first", "last")
            if name == "posts" or keyed:
                base = self.access("site." + SITE_FIELDS[name], more[:1] if keyed else [])
                lang = _in_language(languages, '"{lang}"', _literal(languages.default))
                base = f"({base} | jekyll_where({_literal('meta.' + LANGUAGE_KEY)}, {lang}))"
                return self.access(base, more[1:] if keyed else more)
        if name in ("title", "description") and not self.scope.config.get(name):
            return "nil"    # site.yaml's title is the folder's name (minima's has none): nil, as in Jekyll
        if name in SITE_FIELDS:
            return self.access("site." + SITE_FIELDS[name], more)
        if name == "author":    # _config.yml's (minima's `author: {name, email}`); nil without one, as in Jekyll
            if "author" not in self.scope.config:
                return "nil"
            return _constant(self.scope.config["author"], more) if more else "site.author"
        if name == "collections" or name in _collection_names(self.scope.config):   # site.yaml's, listed
            return self.access(f"site[{name!r}]", more)
        if name == "related_posts":     # Jekyll's without LSI: a post's ten newest others; a page has none
            return self.access('(((site.posts | list)[:11] | reject("equalto", page) | list)[:10] '
                               'if page.kind == "post" else nil)', more)
        if languages and name in ("active_lang", "default_lang", "languages"):    # jekyll-polyglot's
            if name == "active_lang":      # the language of the page's URL
                return self.access(_in_language(languages, '"{lang}"', _literal(languages.default)), more)
            return _constant(languages.default if name == "default_lang" else languages.languages, more)
        if name in self.scope.config:       # _config.yml's value (a list or mapping too), written in
            return _constant(self.scope.config[name], more)
        if name == "github" and name not in self.scope.plugin_words:   # pages-themes' `default: site.github...`
            self.note(self.line, "site.github", "jekyll-github-metadata's, which the site does not load: nil, as in "
                      "Jekyll without it (GitHub Pages loads it: write in the values you want)", neutralised=True)
            return "nil"
        if name not in JEKYLL_SITE_NAMES and name not in self.scope.plugin_words:
            return "nil"        # set nowhere (minima's site.minima.date_format): nil, as in Jekyll
        raise Unconvertible(f"site.{name} has no equivalent in sitegen's site: write its value in, or "
                            f"keep it in a data file (content/data/) and use site.data")

    def access(self, base: str, parts: list[str], lookup: bool = False, nil_between: bool = False) -> str:
        """``base`` followed by Liquid's ``.name``, ``[key]``, ``.size``, ``.first``, ``.last``;
        ``lookup``: each key by the ``item`` filter, which passes a missing one on to the end
        (where ``default(nil)`` makes it nil), as Liquid's nil has no keys either; ``nil_between``:
        each step but the last made nil where missing (``default(nil)``), for what ``item`` cannot
        read (a document's fields)."""
        for index, part in enumerate(parts):
            if nil_between and index:
                base = f"({base} | default(nil))"
            if part.startswith("["):
                kind, value = tokenize(part[1:-1].strip())[0]
                key = self.operand((kind, value))
                if kind == "str":       # x["name"]: Jinja looks the name up as an attribute too
                    _check_name(value[1:-1])
                # A key known only when the page is rendered (site.data[page.lang]) is looked up
                # by the ``item`` filter, which, unlike x[key], never falls back to an attribute.
                base = f"{base}[{key}]" if kind in ("str", "num") and not lookup else f"({base} | item({key}))"
                continue
            if not part.startswith("_") and part in INTERNAL_ATTRIBUTES:
                base = f"({base} | item({_literal(part)}))"    # a key (a locale's byline.format), never Python's
                continue
            _check_name(part)
            if part == "size":                  # nil for nil, as in Liquid (the filter's 0)
                base = f"({base} | liquid_size)"
            elif part in ("first", "last"):     # nil for nil, an empty list or a string, as in Liquid
                base = f'({base} | liquid("{part}"))'
            elif lookup:
                base = f"({base} | item({_literal(part)}))"
            elif re.fullmatch(r"[A-Za-z_]\w*", part) and part not in MAPPING_METHODS:
                base += "." + part
            else:
                base += f'["{part}"]'
        return base


# jekyll-redirect-from's ``page.redirect`` in its redirect layout: where the page was, and the URL it
# sends the reader on to, absolute (sitegen's redirect pages have it as ``target``).
REDIRECT_PAGE = '{"from": page.url, "to": ((target if target is defined else nil) | absolute_url)}'

# jekyll-seo-tag's and jekyll-feed's tags, as what sitegen's default theme writes in a page's head.
SEO_TITLE = ("<title>{% if page.url != '/' and not page.meta.get('untitled') %}{{ page.title }} | {% endif %}"
             "{{ site.title }}</title>\n")
PLUGIN_TAGS = {
    "seo": '{TITLE}{% set canonical = page.url | absolute_url %}{% include "partials/meta.html" %}\n'
           '<link rel="canonical" href="{{ canonical }}">',
    "feed_meta": '<link type="application/atom+xml" rel="alternate" href="{{ site.feeds.atom_urls[0] | '
                 'relative_url }}" title="{{ site.title }}">',
}

UNSUPPORTED = {
    "i18n_headers": "jekyll-polyglot's alternate-language links: write the <link rel=\"alternate\" hreflang> "
                    "tags in, with page.url",
    "highlight": "a highlight block with options besides linenos: highlight code in the "
                 "content (Markdown fences), or write the block in Jinja",
    "post_url": "write the post's URL in (its permalink), or link it from the content",
    "link": "write the page's URL in",
    "seo": "jekyll-seo-tag: only {% seo %} and {% seo title=false %} are converted: write the <meta> tags in",
    "include_relative": "move the file into _includes and include it by name",
    "cycle": "use loop.cycle(...) in the Jinja for loop",
    "tablerow": "write the table with a Jinja for loop",
    "increment": "use loop.index or a Jinja namespace() counter",
    "decrement": "use loop.revindex or a Jinja namespace() counter",
}


def tokenize(source: str) -> list[tuple[str, str]]:
    tokens, pos = [], 0
    source = source.strip()
    while pos < len(source):
        match = TOKEN.match(source, pos)
        if not match or match.end() == pos:
            raise Unconvertible(f"cannot read {source[pos:].strip()!r}: write this in Jinja")
        kind = match.lastgroup
        # lax Liquid (Jekyll's fallback) reads `.site.pages` as site.pages (toree's nav include)
        tokens.append((kind, match.group(kind).lstrip(".") if kind == "name" else match.group(kind)))
        pos = match.end()
        while pos < len(source) and source[pos].isspace():
            pos += 1
    return tokens


def _split(tokens: list[tuple[str, str]], separator: str) -> list[list[tuple[str, str]]]:
    pieces: list[list[tuple[str, str]]] = [[]]
    for token in tokens:
        if token == ("punct", separator):
            pieces.append([])
        else:
            pieces[-1].append(token)
    return pieces


def _in_language(languages: Languages, each: str, default: str) -> str:
    """A Jinja expression that is ``each`` on a page under ``/<lang>/`` ({lang} and {cut}, the
    length of ``/<lang>``, filled in), ``default`` on one of the default language."""
    expression = default
    for lang in reversed(languages.others):
        test = f'page.url.startswith({_literal("/" + lang + "/")})'
        expression = f"{each.format(lang=lang, cut=len(lang) + 1)} if {test} else {expression}"
    return f"({expression})"


def _unlisted(source: str) -> str | None:
    """The first of a Liquid value's filters that makes its documents something else, if any."""
    for piece in _split(tokenize(source), "|")[1:]:
        if piece and piece[0][1] in UNLISTING_FILTERS:
            return piece[0][1]
    return None


def _strict_filters(config: dict[str, Any]) -> bool:
    """Does _config.yml have Jekyll's Liquid stop at a filter it does not know?"""
    liquid = config.get("liquid")
    return isinstance(liquid, dict) and bool(liquid.get("strict_filters"))


def _maybe(expression: str, parts: list[str]) -> str:
    """A key looked up in data (a loop variable, an include parameter) may be missing, which
    Liquid reads as nil: so does ``default(nil)`` (sitegen's templates' ``nil``, which shows as
    nothing, is false, and gives nil for any key of it), where StrictUndefined would stop the build."""
    return f"({expression} | default(nil))" if parts else expression


def _by_page_layout(merged: dict[str, dict[str, Any]], parts: list[str]) -> str:
    """``layout`` followed by ``parts``, where ``merged`` is what ``layout`` holds by the name of the
    page's layout: written in if the same for all, else a table looked up by ``page.layout`` (nil
    for a layout it does not name)."""
    values = {name: _constant(data, parts) for name, data in sorted(merged.items())}
    if len(set(values.values())) <= 1:
        return next(iter(values.values()), "nil")
    table = ", ".join(f"{_literal(name)}: {value}" for name, value in values.items() if value != "nil")
    return f"({{{table}}} | item(page.layout) | default(nil))"


def _constant(value: Any, parts: list[str]) -> str:
    """``value`` (of _config.yml or a layout's front matter) followed by Liquid's ``.key`` and
    ``["key"]``, written in as a Jinja literal; a key it lacks is nil, as in Liquid."""
    for part in parts:
        key = part[1:-1].strip() if part.startswith("[") else part
        if part.startswith("[") and re.fullmatch(r"-?\d+", key):
            value = value[int(key)] if isinstance(value, list) and -len(value) <= int(key) < len(value) else None
            continue
        if part.startswith("["):
            if len(key) < 2 or key[0] not in "\"'":
                raise Unconvertible("a value of the site's settings by a computed key: name the key")
            key = key[1:-1]
        if isinstance(value, list) and key == "size":
            value = len(value)
        elif isinstance(value, list) and key in ("first", "last"):
            value = (value[0] if key == "first" else value[-1]) if value else None
        else:
            value = value.get(key) if isinstance(value, dict) else None
    return "nil" if value is None else _literal(value)


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if value is None:
        return "none"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_literal(str(key))}: {_literal(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(map(_literal, value)) + "]"
    if isinstance(value, int) or isinstance(value, float) and math.isfinite(value):
        return repr(value)
    raise Unconvertible(f"{type(value).__name__} values cannot be written into a template: write it in Jinja")


def _check_name(name: str) -> None:
    """Refuse a name that leads from a value to Python's internals (``__class__``, ``mro``):
    Jinja's sandbox rule, so a name starting with '_' or one of Python's own is not copied."""
    if name.startswith("_") or name in INTERNAL_ATTRIBUTES:
        raise Neutralised(f"the name {name!r} could reach Python's internals from the template, "
                          f"so it was left out: a Jekyll site has no use for it")


def _text(text: str) -> str:
    """Template text that Jinja reads as text whatever it holds: each '{' that could open a tag
    is written as an expression printing it (escaped, not wrapped in ``{% raw %}``, which text
    holding ``{%+ endraw %}`` would end)."""
    return TAG_OPENING.sub('{{ "{" }}', text)
