"""YAML read safely: PyYAML's safe loader, through libyaml when present, with the checks sitegen adds.

Front matter, data files and site.yaml are all read here, and a mistake in any
of them is a :class:`SiteError` naming the file and the line. This module is
loaded with the first YAML a build parses: a build with nothing to do parses none.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import yaml

from generator.errors import SiteError

SURROGATE = re.compile("[\ud800-\udfff]")
MAX_NESTING = 64     # lists and mappings inside each other: far beyond any real site's
# Values that aliases may add to a document beyond those written in it: an alias is a
# reference, and eight levels of nine aliases each (a "billion laughs") expand a few hundred
# bytes into 43 million values, for whatever walks them next (a cache, a dump, a page).
MAX_ALIASED_VALUES = 1_000_000


def parse_yaml(text: str, path: Path, what: str = "invalid YAML", offset: int = 0) -> Any:
    """The value of YAML ``text`` from file ``path``, or a SiteError saying ``what`` went wrong
    and the line (``offset``: lines of the file before the text)."""
    try:
        return load_yaml(text)
    except yaml.YAMLError as exc:
        raise SiteError(f"{what}: {yaml_problem(exc, offset)}", path, yaml_line(exc, offset)) from None


class _Checks:
    """Four more mistakes reported as YAML errors, at their line, whichever parser runs.

    An impossible date (``2020-02-30``) would raise ValueError from ``datetime``,
    and so would an integer of more digits than ``int()`` reads (4,300 by default);
    a NUL (``"\\0"``) would travel on to file names and pages (a lone
    surrogate, ``"\\ud800"``, could not even be written). Aliases that would
    expand into more than :data:`MAX_ALIASED_VALUES` values are refused before
    anything is expanded.
    """

    def __init__(self, stream):
        super().__init__(stream)
        self.may_alias = not isinstance(stream, str) or "*" in stream    # no '*', no alias: no walk

    def construct_document(self, node):
        if self.may_alias:
            _check_expansion(node)
        return super().construct_document(node)

    def construct_yaml_timestamp(self, node):
        try:
            return super().construct_yaml_timestamp(node)
        except ValueError as exc:
            raise yaml.constructor.ConstructorError(
                None, None, f"impossible date {node.value!r} ({exc})", node.start_mark) from None

    def construct_yaml_int(self, node):
        try:
            return super().construct_yaml_int(node)
        except ValueError:     # more digits than int() reads
            raise yaml.constructor.ConstructorError(
                None, None, f"a number of more than {sys.get_int_max_str_digits()} digits",
                node.start_mark) from None

    def construct_yaml_str(self, node):
        value = super().construct_yaml_str(node)
        if "\0" in value:
            raise yaml.constructor.ConstructorError(None, None, "a NUL character in a value",
                                                    node.start_mark)
        if SURROGATE.search(value):   # "\ud800": half of a UTF-16 pair, no character at all
            raise yaml.constructor.ConstructorError(None, None, "a lone surrogate (\\uD800-\\uDFFF) "
                                                    "in a value", node.start_mark)
        return value


class _Loader(_Checks, yaml.SafeLoader):
    """PyYAML's safe loader with the checks; deep nesting (RecursionError from the recursive
    composer) and a list or mapping that holds itself (``&a [*a]``: no cache, feed or page
    can write it out) are YAML errors too."""

    depth = 0
    open_anchors: tuple[str, ...] = ()    # of the lists and mappings being composed

    def compose_node(self, parent, index):
        self.depth += 1
        event = self.peek_event()
        anchor = getattr(event, "anchor", None)
        try:
            if self.depth > MAX_NESTING:
                raise yaml.composer.ComposerError(
                    None, None, f"lists or mappings nested more than {MAX_NESTING} deep", event.start_mark)
            if isinstance(event, yaml.AliasEvent) and anchor in self.open_anchors:
                raise yaml.composer.ComposerError(
                    None, None, f"the alias *{anchor} is inside the list or mapping &{anchor} names: "
                    "a value that holds itself", event.start_mark)
            if anchor is not None and not isinstance(event, yaml.AliasEvent):
                self.open_anchors = (*self.open_anchors, anchor)
                try:
                    return super().compose_node(parent, index)
                finally:
                    self.open_anchors = self.open_anchors[:-1]
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


# libyaml's parser where PyYAML was built with it (about ten times the pure-Python one's
# speed), with the same resolvers, constructors and checks; the nesting limit is checked
# on what it made (a value that holds itself nests without end, so it is read again too).
FAST_LOADER = type("FAST_LOADER", (_Checks, yaml.CSafeLoader), {}) if hasattr(yaml, "CSafeLoader") else _Loader
for _loader in {_Loader, FAST_LOADER}:
    _loader.add_constructor("tag:yaml.org,2002:timestamp", _loader.construct_yaml_timestamp)
    _loader.add_constructor("tag:yaml.org,2002:str", _loader.construct_yaml_str)
    _loader.add_constructor("tag:yaml.org,2002:int", _loader.construct_yaml_int)


def load_yaml(text: str) -> Any:
    """``yaml.safe_load`` with every mistake in the text a :class:`yaml.YAMLError`, through
    libyaml when present.

    Whatever libyaml refuses, or a document nested deeper than the limit (or
    one it cannot tell), is read again by the pure-Python loader, so that an
    error names the same problem and line whichever parser ran.
    """
    if FAST_LOADER is not _Loader:
        try:
            value = yaml.load(text, Loader=FAST_LOADER)
            if _depth(value) <= MAX_NESTING:
                return value
        except (yaml.YAMLError, RecursionError):
            pass
    return yaml.load(text, Loader=_Loader)


def _depth(value: Any, limit: int = MAX_NESTING + 1) -> int:
    """How deeply lists and mappings nest in ``value`` (a scalar is 1), counted up to ``limit``."""
    if limit <= 0:
        return 1
    if isinstance(value, dict):
        return 1 + max((_depth(v, limit - 1) for kv in value.items() for v in kv), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v, limit - 1) for v in value), default=0)
    return 1


def _check_expansion(root: yaml.Node) -> None:
    """Refuse a document whose aliases expand it by more than :data:`MAX_ALIASED_VALUES` values,
    at the innermost value that does, counting each node once (linear in what was written)."""
    written, todo = {id(root)}, [root]
    while todo:
        for child in _children(todo.pop()):
            if id(child) not in written:
                written.add(id(child))
                todo.append(child)
    limit, sizes = len(written) + MAX_ALIASED_VALUES, {}

    def expanded(node: yaml.Node) -> int:
        if id(node) not in sizes:
            size = 1 + sum(expanded(child) for child in _children(node))
            if size > limit:
                raise yaml.constructor.ConstructorError(
                    None, None, f"aliases repeat this value into more than {MAX_ALIASED_VALUES:,} values "
                    "(an alias bomb?)", node.start_mark)
            sizes[id(node)] = size
        return sizes[id(node)]

    expanded(root)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return node.value
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def yaml_line(exc: yaml.YAMLError, offset: int = 0) -> int | None:
    """The file line of a YAML error (``offset``: lines before the YAML text began)."""
    mark = getattr(exc, "problem_mark", None)
    return mark.line + 1 + offset if mark else None


def yaml_problem(exc: yaml.YAMLError, offset: int = 0) -> str:
    """PyYAML's complaint, with the line its context started on (an unclosed list, say)."""
    problem = getattr(exc, "problem", None) or str(exc)
    context, mark = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    if context and mark:
        problem += f" ({context} started at line {mark.line + 1 + offset})"
    return problem
