"""Liquid in posts and pages, run before Markdown as Jekyll runs it.

python-liquid parses and renders; this module declares, in one place, what
of Jekyll's Liquid sitegen supports: the tags (``highlight``, ``include``,
``post_url``, ``link``, plus Liquid's own, ``raw`` among them) and filters
(:data:`JEKYLL_FILTERS`, plus Liquid's standard ones). Anything else is
reported at its file and line: an error, or a warning where site.yaml says
``liquid: {unknown: warning}``; it never reaches the page as text.

A document's Liquid runs when the document is parsed, with ``page``, the
site's settings, ``site.data`` and the includes folder. What it read besides
its own source (include files, data files, posts named by ``post_url``) is
returned with the output, so that the build parses the document again when one
of those files changes. ``site.posts``, ``site.pages``, ``site.tags``,
``site.categories`` and site.yaml's taxonomies exist only once every document is
parsed: a page that reads them is rendered again when its layout is (:class:`NeedsSite`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import date, datetime
from html import escape, unescape
from pathlib import Path
from typing import Any, NoReturn, TextIO
from urllib.parse import quote, quote_plus

from liquid import BoundTemplate, Environment, Mode, RenderContext, Undefined
from liquid.ast import BlockNode, Node
from liquid.builtin.expressions import Identifier, LoopExpression, _tokenize, logical, tokenize
from liquid.builtin.expressions.primitive import Blank
from liquid.builtin.filters.array import sort as liquid_sort
from liquid.builtin.filters.string import split as liquid_split, strip_tags
from liquid.builtin.tags.capture_tag import ENDCAPTUREBLOCK, TAG_ENDCAPTURE, CaptureTag as LiquidCaptureTag
from liquid.builtin.tags.for_tag import ENDFORBLOCK, ENDFORELSEBLOCK, TAG_ELSE, TAG_ENDFOR, ForTag as LiquidForTag
from liquid.builtin.tags.tablerow_tag import END_TAGBLOCK, TAG_ENDTABLEROW, TablerowTag as LiquidTablerowTag
from liquid.exceptions import (ContextDepthError, FilterError, LiquidError, LiquidSyntaxError, LiquidWarning,
                               LocalNamespaceLimitError, LoopIterationLimitError, OutputStreamLimitError)
from liquid import soft_str
from liquid.filter import sequence_filter, string_filter, with_context
from liquid.builtin.filters.misc import date as liquid_date
from liquid.parser import get_parser
from liquid.stream import TokenStream
from liquid.tag import Tag
from liquid.token import (TOKEN_ASSIGN, TOKEN_COLON, TOKEN_COLS, TOKEN_DOT, TOKEN_EOF, TOKEN_EXPRESSION, TOKEN_IN,
                          TOKEN_LBRACKET, TOKEN_LIMIT, TOKEN_OFFSET, TOKEN_REVERSED, TOKEN_TAG, TOKEN_WORD, Token)

from generator.buildtime import NOW, BuildTime
from generator.confine import site_path
from generator.config import LiquidSettings
from generator.errors import SiteError, warning
from generator.highlight import highlight
from generator.layout import DATA, INCLUDES, PAGES, POSTS
from generator.ruby_time import ruby_time
from generator.ruby_values import jekyll_matches, jekyll_sorted, ruby_substitute, ruby_text

INCLUDES_DIR, DATA_DIR, POSTS_DIR, PAGES_DIR = INCLUDES, DATA, POSTS, PAGES
SITE_COLLECTIONS = ("posts", "pages", "tags", "categories", "collections")


class NeedsSite(Exception):
    """Raised when a document's Liquid reads a collection that exists only after parsing."""


@dataclass
class Render:
    """One document's Liquid render in progress: what it read and what it warned of."""

    root: Path
    source: Path
    first_line: int                   # the body's first line in the source file
    markdown: bool                    # the output goes on to Markdown (fences), else it is HTML
    unknown: str                      # "error" or "warning"
    url_of: Callable[[Path], str]     # a post's or page's URL, from its source path
    inputs: dict[str, str] = field(default_factory=dict)   # file read -> sha256 of its bytes
    warnings: list[str] = field(default_factory=list)

    def read(self, relpath: str) -> str:
        """A file of the site, recorded as an input of this document."""
        data = (self.root / relpath).read_bytes()
        self.inputs[relpath] = hashlib.sha256(data).hexdigest()
        return data.decode("utf-8")

    def unknown_found(self, message: str, token: Token | None) -> str:
        """Report a construct sitegen does not know: raise, or warn and render nothing."""
        where, line = self.locate(token)
        if self.unknown == "warning":
            found = warning(message, where, line)
            if found not in self.warnings:     # once a line: a value filtered twice is read twice
                self.warnings.append(found)
            return ""
        raise SiteError(message, where, line)

    def locate(self, token: Token | None) -> tuple[Path, int | None]:
        """The file and line of ``token``: in the document, or in the include it came from."""
        if token is None or token.start_index < 0:
            return self.source, None
        line = token.source.count("\n", 0, token.start_index) + 1
        include = _include_sources.get().get(token.source)
        if include is not None:
            return Path(include), line
        return self.source, line + self.first_line - 1


_current: ContextVar[Render | None] = ContextVar("sitegen_liquid_render", default=None)
_include_sources: ContextVar[dict[str, str]] = ContextVar("sitegen_liquid_includes", default={})  # text -> file


def current() -> Render:
    render = _current.get()
    if render is None:  # pragma: no cover - every render sets it
        raise RuntimeError("no Liquid render in progress")
    return render


class JekyllUndefined(Undefined):
    """Jekyll's leniency, except under ``site``: a missing ``page.x`` is empty, as in
    Jekyll, but ``site.github`` is something Jekyll's plugins may set and sitegen
    does not, so it is reported rather than silently left out."""

    def __str__(self) -> str:
        if self.hint and self.hint.startswith("site."):
            return current().unknown_found(f"Liquid: unknown variable {self.hint.split()[0]}", self.token)
        return ""

    def __iter__(self) -> Iterator[Any]:
        """Looped over (``site.releases``, a Jekyll collection): reported as when it is output."""
        str(self)
        return iter(())


class JekyllContext(RenderContext):
    """Jekyll's ``post.KEY``: a document of ``site.posts`` or ``site.pages`` shows its front
    matter beside its own fields, as ``page`` does (templates read it as ``post.meta.KEY``).
    A document is an object whose class sets ``front_matter_keys`` (the recording view of
    :mod:`generator.deps`, which imports the site this module renders for). Its ``excerpt``
    is the front matter's as written, where that sets one (sitegen's own is that, as HTML); its
    ``content`` ends with a newline, as kramdown's."""

    def filter(self, name: str, token: Token | None) -> Callable[..., object]:  # noqa: A003 - python-liquid's name
        """An unknown filter, with ``unknown: warning``: warned of at its line and its input passed
        on, as Jekyll passes it (Liquid's strict_filters is off there)."""
        if name not in self.env.filters and current().unknown == "warning":
            current().unknown_found(f"Liquid: unknown filter '{name}' left out", token)
            return lambda value, *args, **kwargs: value
        return super().filter(name, token=token)

    def get_item(self, obj: Any, key: Any) -> Any:
        if _front_matter_first(obj, key) or (key == "excerpt" and getattr(type(obj), "front_matter_keys", False)
                                             and "excerpt" in obj["meta"]):
            return obj["meta"][key]
        if key == "content" and getattr(type(obj), "front_matter_keys", False):
            return _newline_ended(super().get_item(obj, key))
        try:
            return super().get_item(obj, key)
        except KeyError:
            if getattr(type(obj), "front_matter_keys", False) and isinstance(key, str):
                return obj["meta"][key]
            raise


def _newline_ended(html: Any) -> Any:
    """A document's HTML as Jekyll's ``content`` holds it: ending with a newline, as kramdown ends
    its output (``truncatewords`` counts the empty word after it, as Ruby splits)."""
    return html if not isinstance(html, str) or html.endswith("\n") else type(html)(html + "\n")


# What Jekyll's document drop answers itself; any other key of a document is its front matter's,
# even where sitegen's Document has a field of that name (``kind``, ``source``, ``meta``...).
JEKYLL_FIELDS = frozenset({"content", "output", "url", "date", "id", "excerpt", "next", "previous", "path",
                           "relative_path", "collection", "title", "tags", "categories", "layout"})


def _front_matter_first(obj: Any, key: Any) -> bool:
    return (isinstance(key, str) and key not in JEKYLL_FIELDS and getattr(type(obj), "front_matter_keys", False)
            and key in obj["meta"])


def jekyll_item(obj: Any, key: Any, default: Any = None) -> Any:
    """``obj[key]`` as Jekyll's ``where``, ``sort`` and ``map`` read it: a document's front matter too."""
    if _front_matter_first(obj, key):
        return obj["meta"][key]
    try:
        return obj[key]
    except (KeyError, IndexError, TypeError):
        if getattr(type(obj), "front_matter_keys", False) and isinstance(key, str):
            return obj["meta"].get(key, default)
        return default


def _markdownify(value: Any) -> str:
    """Jekyll's ``markdownify``: the text as Markdown, rendered as a post's body is."""
    from generator.markdown import render_markdown

    return render_markdown(str(value if value is not None else "")).html + "\n"


@sequence_filter
def _group_by(sequence: list, key: Any) -> list[dict[str, Any]]:
    """Jekyll's ``group_by``: ``{name, items, size}`` for each value of ``key`` as text, in first-seen order."""
    groups: dict[Any, list] = {}
    for item in sequence:
        value = jekyll_item(item, key)
        name = ruby_text(value)
        groups.setdefault(name, []).append(item)
    return [{"name": name, "items": items, "size": len(items)} for name, items in groups.items()]


@sequence_filter
def _where(sequence: list, attr: Any, value: Any = None) -> list:
    """Jekyll's ``where`` (Liquid 4 has none): by text, a list matching by membership."""

    target = None if isinstance(value, Undefined) else value
    return [item for item in sequence if jekyll_matches(jekyll_item(item, attr), target)]


@with_context
def _where_exp(sequence: Any, name: Any, condition: Any, *, context: Any) -> list:
    """Jekyll's ``where_exp``: the items for which the Liquid ``condition`` holds, ``name`` being
    the item (rails/website's ``where_exp: 'item', 'item.order != null'``). It was a filter
    nobody defined, left out with a warning: every item passed."""
    test = context.env.from_string(f"{{% if {condition} %}}1{{% endif %}}")
    kept = []
    for item in _items(list(sequence.values()) if isinstance(sequence, Mapping) else sequence):   # a Hash's values
        buffer = context.get_buffer()
        with context.extend({str(name): item}):
            test.render_with_context(context, buffer, partial=True)
        if buffer.getvalue():
            kept.append(item)
    return kept


@sequence_filter
def _map(sequence: list, key: Any) -> list:
    return [jekyll_item(item, str(key)) for item in sequence]


class JekyllTemplate(BoundTemplate):
    context_class = JekyllContext


def _raw_expression(stream: Any, eat: bool = False) -> str:
    """The text of a tag's expression, as written (``Plain Text``, ``JB/setup``).

    The parser moves past a tag's last token itself: only a block tag, which
    goes on to parse its body, eats its expression.
    """
    if stream.current.kind != TOKEN_EXPRESSION:
        return ""
    return (next(stream) if eat else stream.current).value.strip()


class OutputNode(Node):
    """A Jekyll tag that writes text: never "blank", so that python-liquid does not drop what it
    writes inside a ``for`` or ``if`` holding nothing else (Ruby Liquid keeps it)."""

    __slots__ = ()

    def __init__(self, token: Token):
        super().__init__(token)
        self.blank = False


class HighlightNode(OutputNode):
    __slots__ = ("language", "linenos", "block")

    def __init__(self, token: Token, language: str, linenos: bool, block: BlockNode):
        super().__init__(token)
        self.language, self.linenos, self.block = language, linenos, block

    def render_to_output(self, context: Any, buffer: TextIO) -> int:
        inner = context.get_buffer(buffer)
        self.block.render(context, inner)
        code = inner.getvalue().strip("\r\n")
        if current().markdown:
            # A fence longer than any backtick run in the code, set apart from the text around it.
            ticks = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", code)), default=0))
            options = ' linenums="1"' if self.linenos else ""
            buffer.write(f"\n\n{ticks}{self.language}{options}\n{code}\n{ticks}\n\n")
        else:
            buffer.write(highlight(code + "\n", self.language, self.linenos))
        return True


class HighlightTag(Tag):
    """``{% highlight lang [linenos] %}``: the first word is the language, as in Jekyll."""

    name, end = "highlight", "endhighlight"

    def parse(self, stream: Any) -> Node:
        token = stream.eat(TOKEN_TAG)
        words = _raw_expression(stream, eat=True).split()
        language = words[0].lower() if words else "text"
        block = get_parser(self.env).parse_block(stream, frozenset((self.end, TOKEN_EOF)))
        stream.expect(TOKEN_TAG, value=self.end)
        linenos = any(word.startswith("linenos") for word in words[1:])   # linenos, linenos=table
        return HighlightNode(token, language, linenos, block)


class IncludeNode(OutputNode):
    __slots__ = ("path", "params")

    def __init__(self, token: Token, path: str, params: list[tuple[str, str]]):
        super().__init__(token)
        self.path, self.params = path, params

    def render_to_output(self, context: Any, buffer: TextIO) -> int:
        render = current()
        path = self.path
        if "{{" in path:    # a name made of variables (home/examples/{{ name }}.html), as Jekyll renders it
            named = context.get_buffer(buffer)
            context.env.from_string(path).render_with_context(context, named, partial=True)
            path = named.getvalue().strip()
        relpath, found = self.find(render, path)
        if found is None or not (render.root / found).is_file():
            where, line = render.locate(self.token)
            raise SiteError(f"include {path!r}: no file {relpath}", where, line)
        text = lax(render.read(found), render, Path(relpath), 1)
        _include_sources.get()[keyword_keys(text)] = relpath    # before the parse: its mistakes are the include's
        template = context.env.from_string(text, name=relpath)
        include = {name: _parameter(value, context) for name, value in self.params}
        with context.extend({"include": include}):
            template.render_with_context(context, buffer, partial=True)
        return True

    def find(self, render: Render, path: str) -> tuple[str, str | None]:
        """The file ``path`` names as written, and as a path of the site if it lies in its folder."""
        relpath = f"{INCLUDES_DIR}/{path}"
        return relpath, site_path(render.root, relpath, INCLUDES_DIR)


class IncludeRelativeNode(IncludeNode):
    __slots__ = ()

    def find(self, render: Render, path: str) -> tuple[str, str | None]:
        """Beside the document in Jekyll's tree: in content/pages' same folder, or in the site's,
        where the import put a file without front matter (nim-lang's code_carrousel.html)."""
        folder = render.source.parent.relative_to(render.root) if render.source.is_absolute() else render.source.parent
        places = [folder.as_posix()]
        if folder.is_relative_to(PAGES_DIR):
            places.append(folder.relative_to(PAGES_DIR).as_posix())
        written = [f"{place}/{path}".removeprefix("./") for place in places]
        for relpath in written:
            found = site_path(render.root, relpath)
            if found is not None and (render.root / found).is_file():
                return relpath, found
        return written[0], None


MARKUP = re.compile(r"\{%-?\s*raw\s*-?%\}.*?\{%-?\s*endraw\s*-?%\}|\{\{.*?\}\}|\{%.*?%\}", re.S)   # raw as it is
QUOTED = re.compile(r"""("[^"]*"|'[^']*')""")
RAW = re.compile(r"\{%-?\s*raw\s*-?%\}")
COMMA_FOR_COLON = re.compile(r"(\|\s*\w+)\s*,")
CONDITION = re.compile(r"(\{%-?\s*(?:if|elsif|unless)\s)(.*?)(-?%\})", re.S)
AND_OR = re.compile(r"\s(?:and|or)\s")
LEADING_DOT = re.compile(r"(\{\{-?\s*)\.(?=[A-Za-z_])")      # {{.State.Pid}}, a Go template's in a page


def lax(text: str, render: Render, path: Path, first_line: int) -> str:
    """``text`` with ``| filter, arg`` read as ``| filter: arg``, and a condition's filters left out
    (``{% if list | size > 0 %}`` is ``{% if list %}``), as Ruby Liquid's lax parser (Jekyll's
    fallback) reads them, and ``{{ .a.b }}`` as ``{{ a.b }}``, each with a warning at its file and
    line; and an end tag's words after its name (``{% endhighlight json %}``, as calcite's reference
    writes) left out, as Ruby Liquid reads only the name of an end tag. python-liquid parses strictly."""
    def markup(found: re.Match) -> str:
        if found.group(0).startswith("{%") and RAW.match(found.group(0)):
            return found.group(0)
        line = text.count("\n", 0, found.start()) + first_line
        tag = END_TAG_WORDS.sub(r"\1 \2", found.group(0)) if found.group(0).startswith("{%") else found.group(0)
        if LEADING_DOT.match(tag):
            tag = LEADING_DOT.sub(r"\1", tag, count=1)
            render.warnings.append(warning(f"Liquid: {found.group(0)} read without its first '.', as Jekyll's "
                                           "lax parser reads it", path, line))
        parts = QUOTED.split(_filterless_condition(tag, render, path, line))
        for i in range(0, len(parts), 2):
            fixed = COMMA_FOR_COLON.sub(r"\1:", parts[i])
            if fixed != parts[i]:
                render.warnings.append(warning(f"Liquid: {COMMA_FOR_COLON.search(parts[i]).group(0).strip()} "
                                               "read as a filter's ':', as Jekyll reads it", path, line))
                parts[i] = fixed
        if TRAILING_PIPE.search(parts[-1]):     # rails/website's `| where_exp: ... |  %}`
            parts[-1] = TRAILING_PIPE.sub(r"\1", parts[-1])
            render.warnings.append(warning("Liquid: a '|' with no filter after it left out, as Jekyll's lax "
                                           "parser leaves it", path, line))
        return "".join(parts)

    return MARKUP.sub(markup, text) if "|" in text or END_TAG_WITH_WORDS.search(text) or LEADING_DOT.search(text) \
        else text


TRAILING_PIPE = re.compile(r"\|\s*(-?(?:%\}|\}\}))$")
END_TAG_WORDS = re.compile(r"^(\{%-?\s*end\w+)\s+[^%]*?(-?%\})$", re.S)
END_TAG_WITH_WORDS = re.compile(r"\{%-?\s*end\w+\s+[^\s%-]")


def _filterless_condition(tag: str, render: Render, path: Path, line: int) -> str:
    """An ``if``, ``elsif`` or ``unless`` tag without its conditions' filters: Ruby Liquid's lax
    condition is a value, an operator and a value, each ended by a ``|``, so that what follows one,
    up to the next ``and`` or ``or``, is not read (crystal-lang's ``{% if categories | count > 0 %}``
    tests ``categories``)."""
    found = CONDITION.fullmatch(tag)
    if not found or "|" not in found.group(2):
        return tag
    kept, dropped, cutting = [], [], False
    for i, part in enumerate(QUOTED.split(found.group(2))):
        while part:
            if i % 2:
                if cutting:
                    dropped[-1] += part
                else:
                    kept.append(part)
                break
            end = AND_OR.search(part) if cutting else None
            cut = -1 if cutting else part.find("|")
            if cutting:
                dropped[-1] += part[:end.start()] if end else part
                part, cutting = (part[end.start():], False) if end else ("", True)
            elif cut >= 0:
                kept.append(part[:cut])
                dropped.append("")
                part, cutting = part[cut:], True
            else:
                kept.append(part)
                break
    render.warnings.append(warning(f"Liquid: {', '.join(repr(d.strip()) for d in dropped)} in a condition "
                                   "left out, as Jekyll's lax parser reads it", path, line))
    return f"{found.group(1)}{''.join(kept).rstrip()} {found.group(3)}"


LITERALS = {"true": True, "false": False, "nil": None, "null": None}


def _parameter(value: str, context: Any) -> Any:
    """An include parameter's value: a quoted string, a literal Liquid reads as itself (crystal-lang's
    ``offset=1``, ``extra=true``), or a variable (``page.title``)."""
    if value[:1] in "\"'" and value[-1:] == value[:1]:      # \" in "...", \' in '...': the quote, as in Jekyll
        return value[1:-1].replace("\\" + value[0], value[0])
    if value in LITERALS:
        return LITERALS[value]
    if re.fullmatch(r"-?\d+", value):
        return int(value)
    if re.fullmatch(r"-?\d+\.\d+", value):
        return float(value)
    head, *rest = value.split(".")
    found = context.resolve(head)
    for name in rest:
        found = found.get(name) if isinstance(found, Mapping) else getattr(found, name, None)
    return found


# Jekyll's include tag's VARIABLE_SYNTAX: a name holding {{ variables }}, then the parameters.
INCLUDE_VARIABLE = re.compile(r"(?P<variable>[^{]*(\{\{\s*[\w\-.]+\s*(\|.*)?\}\}[^\s{}]*)+)(?P<params>.*)", re.S)
# Jekyll's VALID_SYNTAX: names with '-' too, a string's quote escaped by a backslash in it.
INCLUDE_PARAMETER = re.compile(r"""([\w-]+)\s*=\s*("[^"\\]*(?:\\.[^"\\]*)*"|'[^'\\]*(?:\\.[^'\\]*)*'|[\w.\[\]-]+)""")


class IncludeTag(Tag):
    """Jekyll's ``{% include path/file.html key="value" %}``: a file of ``content/includes``."""

    name, block = "include", False

    def parse(self, stream: Any) -> Node:
        token = stream.eat(TOKEN_TAG)
        text = _raw_expression(stream).strip()
        variable = INCLUDE_VARIABLE.match(text)
        if variable:
            path, rest = variable.group("variable").strip(), variable.group("params")
        else:                       # the name may end its line
            path, *more = text.split(None, 1)
            rest = more[0] if more else ""
        return IncludeNode(token, path, INCLUDE_PARAMETER.findall(rest))


class IncludeRelativeTag(IncludeTag):
    """Jekyll's ``{% include_relative file.html %}``: a file beside the document. The Jekyll import
    rewrites a named one in a page into an include of a copy (its file may be a ``_``-file, which
    is not imported); this tag reads the rest, whose name only the build knows (swift-org's icon
    include: ``{% include_relative {{ path }} %}``), from the published files beside the page."""

    name = "include_relative"

    def parse(self, stream: Any) -> Node:
        node = super().parse(stream)
        return IncludeRelativeNode(node.token, node.path, node.params)


class CaptureTag(LiquidCaptureTag):
    """Ruby Liquid's ``capture``: its variable is the first run of a name's characters in the
    markup, so ``{% capture /dev/null %}``, as Jekyll sites write to drop a block, captures into ``dev``."""

    def parse(self, stream: Any) -> Node:
        token = stream.eat(TOKEN_TAG)
        expression = stream.current
        found = CAPTURE_NAME.search(_raw_expression(stream, eat=True))
        if found is None:
            raise LiquidSyntaxError("capture: expected a variable name", token=token)
        block = get_parser(self.env).parse_block(stream, ENDCAPTUREBLOCK)
        stream.expect(TOKEN_TAG, value=TAG_ENDCAPTURE)
        return self.node_class(token, Identifier(found.group(0), token=expression), block)


CAPTURE_NAME = re.compile(r"(?:\(?[\w\-.\[\]]\)?)+")    # Ruby Liquid's VariableSignature, repeated


# Ruby Liquid reserves no words: ``{% assign limit = 5 %}`` and ``limit: limit`` (as crystal-lang's
# includes write them) name a variable. python-liquid's expression tokens take these four for the
# loop's keywords everywhere; as words, the loops below read them as keywords where they stand as one.
LOOP_WORDS = frozenset({TOKEN_LIMIT, TOKEN_OFFSET, TOKEN_REVERSED, TOKEN_COLS})
_tokenize._keywords = _tokenize._keywords - LOOP_WORDS
VALUE_BEFORE = frozenset({TOKEN_COLON, TOKEN_ASSIGN, TOKEN_IN, TOKEN_DOT, TOKEN_LBRACKET})


_liquid_lt, _liquid_le, _liquid_eq = logical._lt, logical._le, logical._eq


def _dates(left: object, right: object) -> bool:
    """Whether ``left`` and ``right`` are two dates, or two times (both with a zone, or neither),
    which Ruby orders (``release.date < other.date``); python-liquid orders numbers and strings only."""
    if not (isinstance(left, date) and isinstance(right, date)) or isinstance(left, datetime) != isinstance(right, datetime):
        return False
    return not isinstance(left, datetime) or (left.tzinfo is None) == (right.tzinfo is None)


def _ruby_lt(token: Token, left: object, right: object) -> bool:
    """``<`` and ``>`` (python-liquid makes the one of the other), dates by their order."""
    return left < right if _dates(left, right) else _liquid_lt(token, left, right)


def _ruby_le(left: object, right: object) -> bool:
    """``<=`` and ``>=``, dates by their order (python-liquid's would ask only whether they are equal)."""
    return left <= right if _dates(left, right) else _liquid_le(left, right)


def _ruby_eq(left: object, right: object) -> bool:
    """``==`` (``!=`` its negation), ``blank`` as Jekyll's Ruby Liquid reads it: the value is asked for
    ``blank?``, which nothing has without ActiveSupport, so ``x == blank`` is false and ``x != blank``
    true whatever x is (python-liquid takes an empty or blank string for blank)."""
    if isinstance(left, Blank) or isinstance(right, Blank):
        return isinstance(left, Blank) and isinstance(right, Blank)
    return _liquid_eq(left, right)


logical._lt, logical._le, logical._eq = _ruby_lt, _ruby_le, _ruby_eq


def _loop_expression(env: Environment, stream: Any, tag: Token) -> LoopExpression:
    """A ``for`` or ``tablerow`` expression, ``limit`` (and the other three) a keyword where a
    parameter's name stands, a variable where a value does. Where the strict parse fails, it is
    read as Ruby Liquid's lax parser reads it (Jekyll's fallback), with a warning at its line."""
    expression = stream.current
    try:
        return _strict_loop(env, stream.into_inner(tag=tag))
    except LiquidSyntaxError:
        read = _lax_loop(expression.value)
        if read is None:
            raise
        render = current()
        render.warnings.append(warning(f"Liquid: '{expression.value.strip()}' read as '{read}', as Jekyll's "
                                       "lax parser reads it", *render.locate(expression)))
        return _strict_loop(env, TokenStream(tokenize(read, parent_token=expression)))


def _strict_loop(env: Environment, tokens: Any) -> LoopExpression:
    tokens.tokens = [Token(item.value, *item[1:]) if item.kind == TOKEN_WORD and item.value in LOOP_WORDS
                     and i and tokens.tokens[i - 1].kind not in VALUE_BEFORE else item
                     for i, item in enumerate(tokens.tokens)]
    return LoopExpression.parse(env, tokens)


# Ruby Liquid's lax For: the variable, the collection (one QuotedFragment), ``reversed`` right after
# it; then any ``name: value`` anywhere in the markup, of which the loop takes limit, offset and cols.
FRAGMENT = r"""(?:"[^"]*"|'[^']*'|[^\s,|'"])+"""
LAX_LOOP = re.compile(rf"\A\s*([\w\-.\[\]]+)\s+in\s+({FRAGMENT})\s*(reversed)?")
LAX_ATTRIBUTE = re.compile(rf"(\w[\w-]*)\s*:\s*({FRAGMENT})")


def _lax_loop(markup: str) -> str | None:
    """The loop ``markup`` means to Ruby Liquid's lax parser, written as a strict one; None if
    that parser refuses it too."""
    found = LAX_LOOP.match(markup)
    if found is None:
        return None
    name, collection, backwards = found.groups()
    attributes = [f"{key}: {value}" for key, value in LAX_ATTRIBUTE.findall(markup, found.end())
                  if key in ("limit", "offset", "cols")]
    return " ".join([name, "in", collection, *(["reversed"] if backwards else []), *attributes])


class ForTag(LiquidForTag):
    """Liquid's ``for``, its parameters' values any expression (``limit: limit``)."""

    def parse(self, stream: Any) -> Node:
        token = stream.eat(TOKEN_TAG)
        expression = _loop_expression(self.env, stream, token)
        parse_block = get_parser(self.env).parse_block
        block = parse_block(stream, ENDFORBLOCK)
        default = None
        if stream.current.is_tag(TAG_ELSE):
            next(stream)
            default = parse_block(stream, ENDFORELSEBLOCK)
        stream.expect(TOKEN_TAG, value=TAG_ENDFOR)
        return self.node_class(token, expression=expression, block=block, default=default)


class TablerowTag(LiquidTablerowTag):
    """Liquid's ``tablerow``, read as :class:`ForTag` reads its parameters."""

    def parse(self, stream: Any) -> Node:
        token = stream.eat(TOKEN_TAG)
        expression = _loop_expression(self.env, stream, token)
        block = get_parser(self.env).parse_block(stream, END_TAGBLOCK)
        stream.expect(TOKEN_TAG, value=TAG_ENDTABLEROW)
        return self.node_class(token, expression=expression, block=block)


class PostUrlNode(OutputNode):
    __slots__ = ("name",)

    def __init__(self, token: Token, name: str):
        super().__init__(token)
        self.name = name

    def render_to_output(self, context: Any, buffer: TextIO) -> int:
        render = current()
        found = sorted(path for suffix in (".md", ".markdown", ".html")
                       for path in (render.root / POSTS_DIR).rglob(f"{Path(self.name).name}{suffix}")
                       if path.relative_to(render.root / POSTS_DIR).with_suffix("").as_posix().endswith(self.name))
        if not found:
            where, line = render.locate(self.token)
            raise SiteError(f"post_url {self.name!r}: no such post in {POSTS_DIR}/", where, line)
        buffer.write(_url_of(render, found[0].relative_to(render.root), context))
        return True


class PostUrlTag(Tag):
    """``{% post_url 2019-03-18-slug %}``: the URL that post is published at."""

    name, block = "post_url", False

    def parse(self, stream: Any) -> Node:
        token = stream.eat(TOKEN_TAG)
        return PostUrlNode(token, _raw_expression(stream))


class LinkNode(OutputNode):
    __slots__ = ("path",)

    def __init__(self, token: Token, path: str):
        super().__init__(token)
        self.path = path

    def render_to_output(self, context: Any, buffer: TextIO) -> int:
        render = current()
        path = self.path
        if "{{" in path:    # a path made of variables ({% link {{ url }} %}), as Jekyll renders it
            named = context.get_buffer(buffer)
            context.env.from_string(path).render_with_context(context, named, partial=True)
            path = named.getvalue().strip()
        name = path.lstrip("/")
        candidates = [name, f"{POSTS_DIR}/{name.removeprefix('_posts/')}" if name.startswith("_posts/") else None,
                      # a post of a category folder (en/news/_posts/x.md), where the import put it
                      f"{POSTS_DIR}/{name.replace('/_posts/', '/', 1)}" if "/_posts/" in name else None,
                      f"{PAGES_DIR}/{name}"]
        for candidate in filter(None, candidates):
            folder = next((f for f in (POSTS_DIR, PAGES_DIR) if candidate.startswith(f + "/")), None)
            found = site_path(render.root, candidate, folder) if folder else None
            if found is not None and (render.root / found).is_file():
                buffer.write(_url_of(render, Path(found), context))
                return True
        # an error; with liquid.unknown: warning (a site with plugins, which may have made the page), a warning
        buffer.write(render.unknown_found(f"link {path!r}: no such post or page", self.token))
        return True


class LinkTag(Tag):
    """``{% link _posts/2019-03-18-slug.md %}`` or ``{% link about.md %}``: that document's URL."""

    name, block = "link", False

    def parse(self, stream: Any) -> Node:
        token = stream.eat(TOKEN_TAG)
        return LinkNode(token, _raw_expression(stream))


def _url_of(render: Render, relpath: Path, context: Any) -> str:
    """The URL of a post or page under ``site.baseurl``: Jekyll 4's ``link`` and ``post_url`` give
    relative_url's path (just-the-docs' ``{{ site.baseurl }}{% link x.md %}`` has it twice)."""
    render.read(relpath.as_posix())     # its front matter may move it: an input of ours
    return _sanitized_baseurl(context) + render.url_of(relpath)


def _sanitized_baseurl(context: Any) -> str:
    """``site.baseurl`` without its end slash, as Jekyll's URL filters take it (``site.baseurl``
    itself stays as written: tuweni's ``/`` gives ``{{ site.baseurl }}/download`` as ``//download``)."""
    return str(context.resolve("site")["baseurl"]).rstrip("/")


# Jekyll's filters (https://jekyllrb.com/docs/liquid/filters/) that sitegen supports.
def _date(value: Any) -> datetime | date | None:
    return value if isinstance(value, (datetime, date)) else None


def _date_format(fmt: str) -> Callable[[Any], str]:
    return lambda value: value.format(fmt) if isinstance(value, BuildTime) else (
        _date(value).strftime(fmt) if _date(value) else "")


@with_context
def _date_filter(value: Any, fmt: Any = None, *, context: Any) -> str:
    """Liquid's ``date``, where ``"now"`` and ``site.time`` are the build's time (one for the whole
    build, noted in the format shown: :mod:`generator.buildtime`), not the moment the page renders,
    and text is read as Ruby's ``Time.parse`` reads it (:mod:`generator.ruby_time`)."""
    if isinstance(value, str) and value in NOW:
        value = context.resolve("site")["time"]      # while parsing: NeedsSite, rendered with the site
    if isinstance(value, BuildTime):
        return value.format(fmt) if isinstance(fmt, str) else str(value)
    if isinstance(value, str) and value.strip() and not value.isdigit() and fmt:
        value = ruby_time(value) or value   # text it cannot read is printed as it is, as in Liquid
    return liquid_date(value, fmt, environment=context.env)


def _sort(value: Any, key: Any = None, nils: Any = "first") -> list:
    """Jekyll's ``sort`` (which Jekyll puts over Liquid's): a mapping (``site.categories``) sorts
    into its ``[name, value]`` pairs, by name, as Ruby's ``Hash#sort`` does (python-liquid's gives
    ``[the mapping]``); by a key (dotted: ``data.weight``) with :func:`jekyll_sorted`, nils first
    unless ``"last"`` is given (crystal-lang's ``sort: "weight", "last"``)."""
    if isinstance(value, Mapping) and not key:
        return [[name, value[name]] for name in sorted(value)]
    if not key:
        return liquid_sort(value)
    items = [value] if isinstance(value, (str, Mapping)) or not isinstance(value, Iterable) else list(value)
    try:
        return jekyll_sorted(items, lambda item: _dotted(item, str(key)), nils)
    except ValueError as error:
        raise FilterError(str(error), token=None) from None


def _dotted(item: Any, key: str) -> Any:
    """Jekyll's ``read_liquid_attribute``: ``a.b`` is ``item.a.b``, nil where a step has none."""
    for part in key.split("."):
        item = jekyll_item(item, part) if item is not None else None
    return item


def _split(value: Any, separator: Any = None) -> list[str]:
    """Liquid's ``split`` as Ruby's ``String#split`` splits: without the empty strings at the end
    (``"<ol><li>a</li></ol>" | split: ">"`` ends in ``"</ol"``, which opensource.guide's table of
    contents joins again and closes with its own ``>``)."""
    parts = liquid_split(value, separator)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def _items(value: Any) -> list:
    """An array filter's input as a list: nil is empty; a string or a mapping (a page, a Hash) is one
    item; anything else iterable (a list, ``site.posts``' view) its items."""
    if value is None or isinstance(value, Undefined):
        return []
    return [value] if isinstance(value, (str, Mapping)) or not isinstance(value, Iterable) else list(value)


def _sentence(items: Any, connector: str = "and") -> str:
    items = [str(item) for item in items or []]
    if len(items) < 3:
        return f" {connector} ".join(items)
    return ", ".join(items[:-1]) + f", {connector} " + items[-1]


def _jekyll_slugify(value: Any, mode: str = "default") -> str:
    return re.sub(r"[^a-z0-9]+", "-", str(value).lower()).strip("-")


def _json_default(value: Any) -> Any:
    return value.isoformat() if isinstance(value, (date, datetime)) else str(value)


JEKYLL_FILTERS: dict[str, Callable[..., Any]] = {
    "date_to_xmlschema": lambda value: value.format("iso") if isinstance(value, BuildTime) else (
        _date(value).isoformat() if _date(value) else ""),
    "date": _date_filter,
    "sort": _sort,
    # Jekyll's array filters: a new list, the one given left as it was.
    "push": lambda array, item: [*_items(array), item],
    "unshift": lambda array, item: [item, *_items(array)],
    "pop": lambda array, count=1: _items(array)[:max(0, len(_items(array)) - int(count))],
    "shift": lambda array, count=1: _items(array)[int(count):],
    "date_to_rfc822": _date_format("%a, %d %b %Y %H:%M:%S %z"),
    "date_to_string": _date_format("%d %b %Y"),
    "date_to_long_string": _date_format("%d %B %Y"),
    "xml_escape": lambda value: escape(str(value or ""), quote=True),
    "cgi_escape": lambda value: quote_plus(str(value)),
    "uri_escape": lambda value: quote(str(value), safe="/:?=&#%~!$'()*+,;@"),
    "jsonify": lambda value: json.dumps(value, default=_json_default),
    "number_of_words": lambda value: len(str(value).split()),
    "truncatewords": lambda value, words=15, end="...": _truncatewords(value, words, end),
    "array_to_sentence_string": _sentence,
    "normalize_whitespace": lambda value: re.sub(r"\s+", " ", str(value)).strip(),
    "slugify": _jekyll_slugify,
    # Ruby's gsub and sub: the replacement's \\& is the match.
    "replace": string_filter(lambda value, seq, sub="": ruby_substitute(value, soft_str(seq), soft_str(sub))),
    "replace_first": string_filter(lambda value, seq, sub="": ruby_substitute(value, soft_str(seq), soft_str(sub), 1)),
    "markdownify": lambda value: _markdownify(value),
    "strip_html": lambda value: _as_characters(strip_tags(str(value))),
}
# What Ruby's String#split(" ") splits at: ASCII whitespace only, so that a no-break space
# (kramdown's for &nbsp;) is a word of its own, as Liquid's truncatewords counts it.
RUBY_SPACES = " \t\n\v\f\r"
RUBY_SPACE = re.compile(f"[{RUBY_SPACES}]+")


def _truncatewords(value: Any, words: Any = 15, end: Any = "...") -> str:
    """Liquid's ``truncatewords`` as Ruby splits the words (python-liquid's counts a no-break space
    as a space: rubyonrails.org's blog index shows a word more of a post than Jekyll's)."""
    if value is None or isinstance(value, Undefined):
        return ""
    text, count = soft_str(value), max(1, int(words))
    found = RUBY_SPACE.split(text.lstrip(RUBY_SPACES), count)
    if len(found) <= count:
        return text
    return " ".join(found[:count]) + soft_str(end)


# A character reference to a character beyond ASCII (``&rsquo;``, ``&#8217;``): how sitegen's HTML writes
# typographic quotes and dashes, where kramdown (``entity_output: as_char``) writes the character, which
# ``truncate`` counts once.
CHARACTER_REFERENCE = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")


def _as_characters(text: str) -> str:
    """``text`` with its references to characters beyond ASCII written as the characters, as in
    kramdown's HTML (``&amp;`` and ``&lt;`` stay)."""
    def character(match: re.Match) -> str:
        found = unescape(match.group())
        return found if len(found) == 1 and ord(found) > 127 else match.group()
    return CHARACTER_REFERENCE.sub(character, text)


JEKYLL_TAGS = (HighlightTag, IncludeTag, IncludeRelativeTag, PostUrlTag, LinkTag, CaptureTag, ForTag, TablerowTag)


@functools.cache
def standard_filter(name: str) -> Callable[..., Any]:
    """Liquid's or Jekyll's filter ``name``, as the content's Liquid runs it (given the
    environment it asks for: ``strip_newlines``, ``newline_to_br``, ``url_encode``...)."""
    env = environment()
    function = env.filters[name]
    return functools.partial(function, environment=env) if getattr(function, "with_environment", False) else function


# python-liquid's words that Ruby's Liquid reads as keys after a dot (locale.continue, item.if).
KEYWORDS = ("true", "false", "nil", "null", "empty", "blank", "and", "or", "contains", "not", "in", "offset",
            "limit", "reversed", "cols", "continue", "with", "for", "as", "if", "else", "required")
LIQUID_MARKUP = re.compile(r"\{%-?\s*(raw|comment)\s*-?%\}.*?\{%-?\s*end\1\s*-?%\}|(\{\{.*?\}\}|\{%.*?%\})", re.S)
KEYWORD_KEY = re.compile(r"""("[^"]*"|'[^']*')|(?<=[\w\]])\.(""" + "|".join(KEYWORDS) + r")(?![\w-])")


def keyword_keys(source: str) -> str:
    """``x.continue`` as ``x["continue"]`` in the markup of ``source`` (same lines): Ruby's Liquid
    reads a keyword after a dot as a key (ruby-lang.org's ``news_locale.continue``), python-liquid
    refuses it."""
    if not any("." + word in source for word in KEYWORDS):
        return source

    def keys(markup: re.Match) -> str:
        if markup.group(2) is None:
            return markup.group(0)       # raw or comment: text
        return KEYWORD_KEY.sub(lambda m: m.group(1) or f'["{m.group(2)}"]', markup.group(0))

    return LIQUID_MARKUP.sub(keys, source)


class JekyllEnvironment(Environment):
    """python-liquid, reading keys as Ruby's Liquid does (:func:`keyword_keys`)."""

    def from_string(self, source: str, *args: Any, **kwargs: Any) -> BoundTemplate:
        return super().from_string(keyword_keys(source), *args, **kwargs)

    def error(self, exc: Any, msg: str | None = None, token: Token | None = None) -> None:
        """python-liquid's, a mistake it warns of (``unknown: warning``) naming the include it is
        in: python-liquid names a template only in what it raises."""
        if isinstance(exc, LiquidError) and exc.template_name is None and exc.token is not None:
            exc.template_name = _include_sources.get().get(exc.token.source)
        super().error(exc, msg, token)


def environment(settings: LiquidSettings = LiquidSettings()) -> Environment:
    """python-liquid with Jekyll's tags and filters, ``relative_url``/``absolute_url`` among them,
    within site.yaml's ``liquid`` limits.

    ``unknown: warning`` lets python-liquid warn instead of raise (see :func:`render_liquid`).
    """
    env = JekyllEnvironment(undefined=JekyllUndefined, strict_filters=True,
                      tolerance=Mode.WARN if settings.unknown == "warning" else Mode.STRICT)
    env.template_class = JekyllTemplate
    env.loop_iteration_limit = settings.loop_iterations
    env.output_stream_limit = settings.output_bytes
    env.local_namespace_limit = settings.variables_bytes
    env.context_depth_limit = settings.include_depth
    del env.tags["doc"]   # Liquid 5.6's, not Jekyll's 5.4: `{% doc %}` there is a plugin's (nlpcraft's links)
    for tag in JEKYLL_TAGS:
        env.add_tag(tag)
    for name, function in JEKYLL_FILTERS.items():
        env.add_filter(name, function)
    for name, function in (("where", _where), ("where_exp", _where_exp), ("map", _map), ("sort", _sort),
                           ("group_by", _group_by), ("split", _split)):
        env.add_filter(name, function)
    env.add_filter("relative_url", _relative_url)
    env.add_filter("absolute_url", _absolute_url)
    for tag in env.tags.values():
        tag.parse = functools.partial(_placed_parse, tag.parse)
    return env


def _placed_parse(parse: Callable[[Any], Node], stream: Any) -> Node:
    """A tag's parse, a mistake inside its expression (``(1..3``) placed at the tag: python-liquid
    gives the expression's own token no place in the text (``start_index`` -1)."""
    tag = stream.current
    try:
        return parse(stream)
    except LiquidError as exc:
        if exc.token is None or exc.token.start_index < 0:
            exc.token = tag
        raise


@with_context
def _relative_url(value: Any, *, context: Any) -> str:
    """The path under ``site.baseurl``, read when the filter runs, as Jekyll reads it: only a
    document that uses the filter depends on the setting."""
    text = str(value or "")
    if "://" in text:
        return text
    return _sanitized_baseurl(context) + ("/" if not text.startswith("/") else "") + text


@with_context
def _absolute_url(value: Any, *, context: Any) -> str:
    if "://" in str(value or ""):
        return str(value)
    return context.resolve("site")["url"] + _relative_url(value, context=context)


class DataFolder(Mapping):
    """``site.data`` at parse time: ``content/data/NAME.yml``, read when asked for (an input);
    a subfolder (``content/data/locales/``) is ``site.data.locales``, as Jekyll nests ``_data``."""

    def __init__(self, render: Render, folder: str = DATA_DIR):
        self._render, self._folder = render, folder

    def _path(self, name: str) -> str | None:
        for suffix in (".yml", ".yaml"):
            found = site_path(self._render.root, f"{self._folder}/{name}{suffix}", DATA_DIR)
            if found is not None and (self._render.root / found).is_file():
                return found
        return None

    def __getitem__(self, name: str) -> Any:
        relpath = self._path(str(name))
        if relpath is None:
            folder = site_path(self._render.root, f"{self._folder}/{name}", DATA_DIR)
            if folder is not None and (self._render.root / folder).is_dir():
                return DataFolder(self._render, folder)
            raise KeyError(name)
        from generator.yamltext import parse_yaml

        return parse_yaml(self._render.read(relpath), Path(relpath))

    def __iter__(self) -> Iterator[str]:
        folder = self._render.root / self._folder
        if not folder.is_dir():
            return iter(())
        return iter(sorted({path.stem for path in folder.glob("*.y*ml")}
                           | {path.name for path in folder.iterdir() if path.is_dir()}))

    def __len__(self) -> int:
        return sum(1 for _ in self)


class ParseTimeSite(Mapping):
    """``site`` while a document is parsed: settings (each read when asked for) and data; the
    collections raise :class:`NeedsSite`."""

    def __init__(self, settings: Mapping[str, Any], data: Mapping):
        self._settings, self._data = settings, data

    def __getitem__(self, name: str) -> Any:
        if name in SITE_COLLECTIONS or name == "time":    # the build's time: read when the page renders
            raise NeedsSite(name)
        if name == "data":
            return self._data
        try:
            return self._settings[name]
        except KeyError:
            lists = getattr(self._settings, "lists", None)    # the site's SiteSettings
            if lists is not None and lists(name):
                raise NeedsSite(name) from None
            raise

    def __iter__(self) -> Iterator[str]:
        return iter((*self._settings, "data"))

    def __len__(self) -> int:
        return len(self._settings) + 1


class ParseTimePaginator:
    """``paginator`` while a document is parsed: which page of posts it is (if it is the blog's
    index, paginated) is known once the site is, so reading it raises :class:`NeedsSite`."""

    def __getitem__(self, name: str) -> NoReturn:
        raise NeedsSite("paginator")

    def __liquid__(self) -> NoReturn:    # its truth, its text
        raise NeedsSite("paginator")


PARSE_TIME_PAGINATOR = ParseTimePaginator()


@dataclass(frozen=True)
class LiquidResult:
    text: str
    inputs: tuple[tuple[str, str], ...]   # (file, sha256) read besides the source
    warnings: tuple[str, ...]


def render_liquid(text: str, env: Environment, render: Render, page: Mapping[str, Any],
                  site: Mapping[str, Any] | None = None, settings: Mapping[str, Any] | None = None,
                  paginator: Mapping[str, Any] | None = None) -> LiquidResult:
    """Run a document's Liquid; ``site`` is the whole site's view, or None while parsing;
    ``paginator`` the page of posts it is, where it is the blog's index, else nil.

    Raises :class:`SiteError` at the file and line of a mistake, and
    :class:`NeedsSite` when parsing meets a collection it cannot have yet.
    An unknown tag or filter is an error, or (``unknown: warning``) a warning,
    and renders as nothing.
    """
    values = {} if paginator is None else {"paginator": paginator}
    if site is None:
        site, values = ParseTimeSite(settings or {}, DataFolder(render)), {"paginator": PARSE_TIME_PAGINATOR}
    token, includes = _current.set(render), _include_sources.set({})
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                text = lax(text, render, render.source, render.first_line)
                output = env.from_string(text, name=str(render.source)).render(site=site, page=page, **values)
            except LiquidError as exc:
                message = exc.args[0] if exc.args else str(exc)
                raise SiteError(f"Liquid: {message}{_limit_named(exc, env)}", *render.locate(exc.token)) from None
            except MemoryError:     # a value one filter makes (a string joined by itself, say)
                raise SiteError("Liquid: out of memory; a filter made a value too large to hold",
                                render.source) from None
        for found in caught:
            if issubclass(found.category, LiquidWarning):
                _warned(render, found)
            else:   # not Liquid's: another part of the process (a ResourceWarning from the GC, say)
                warnings.warn_explicit(found.message, found.category, found.filename, found.lineno)
    finally:
        _current.reset(token)
        _include_sources.reset(includes)
    return LiquidResult(output, tuple(sorted(render.inputs.items())), tuple(render.warnings))


LIMITS = {LoopIterationLimitError: ("loop_iterations", "loop_iteration_limit"),
          OutputStreamLimitError: ("output_bytes", "output_stream_limit"),
          LocalNamespaceLimitError: ("variables_bytes", "local_namespace_limit"),
          ContextDepthError: ("include_depth", "context_depth_limit")}


def _limit_named(exc: LiquidError, env: Environment) -> str:
    """Which of site.yaml's ``liquid`` limits ``exc`` says was reached, and its value; else ""."""
    for kind, (key, attribute) in LIMITS.items():
        if isinstance(exc, kind):
            return f" (site.yaml liquid.{key}: {getattr(env, attribute):,})"
    return ""


UNKNOWN = re.compile(r"^(unexpected tag|unknown filter) '[^']*'")
WARNED_AT = re.compile(r"-> (?:'.*'|(\S+)):(\d+):\d+$|-> '.*' (\d+):\d+$", re.M)


def _warned(render: Render, found: warnings.WarningMessage) -> None:
    """python-liquid's warning (``unknown: warning`` only): a sitegen warning at its file and line."""
    text = str(found.message)
    where = WARNED_AT.search(text)
    name, line = (where.group(1), int(where.group(2) or where.group(3))) if where else (None, None)
    if name is None or name == str(render.source):
        path, line = render.source, (line + render.first_line - 1 if line else None)
    else:
        path = Path(name)
    unknown = UNKNOWN.match(text)
    if unknown is None:   # WARN mode also softens real mistakes: those stay errors
        raise SiteError(f"Liquid: {text.splitlines()[0]}", path, line)
    render.warnings.append(warning(f"Liquid: {unknown.group(0)} left out", path, line))
