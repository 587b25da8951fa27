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
# What aliases may add to a file's value, in items and characters, each use counted in full:
# a site reuses a block of defaults a few times; a "billion laughs" (nine lists of nine
# aliases to the one before) would expand 300 bytes into gigabytes in every cache and copy.
MAX_ALIAS_EXPANSION = 1_000_000


def parse_yaml(text: str, path: Path, what: str = "invalid YAML", offset: int = 0) -> Any:
    """The value of YAML ``text`` from file ``path``, or a SiteError saying ``what`` went wrong
    and the line (``offset``: lines of the file before the text)."""
    try:
        return load_yaml(text)
    except yaml.YAMLError as exc:
        raise SiteError(f"{what}: {yaml_problem(exc, offset)}", path, yaml_line(exc, offset)) from None


class _Checks:
    """Three more mistakes reported as YAML errors, at their line, whichever parser runs.

    An impossible date (``2020-02-30``) would raise ValueError from ``datetime``,
    and so would an integer of more digits than ``int()`` reads (4,300 by default);
    a NUL (``"\\0"``) would travel on to file names and pages (a lone
    surrogate, ``"\\ud800"``, could not even be written).
    """

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
    composer), a list or mapping that holds itself (``&a [*a]``: no cache, feed or page
    can write it out) and aliases that expand past :data:`MAX_ALIAS_EXPANSION` are YAML
    errors too, at the alias that crossed it."""

    depth = 0
    open_anchors: tuple[str, ...] = ()    # of the lists and mappings being composed
    sizes: _Measure | None = None         # of the nodes aliases named
    expansion = 0                         # what the aliases so far add, each use in full

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
            node = super().compose_node(parent, index)
            if isinstance(event, yaml.AliasEvent):
                self.sizes = self.sizes or _Measure()
                self.expansion += self.sizes(node)[0]
                if self.expansion > MAX_ALIAS_EXPANSION:
                    raise yaml.composer.ComposerError(
                        None, None, f"aliases expand this file past {MAX_ALIAS_EXPANSION:,} items and "
                        f"characters (*{anchor} used too often: a YAML bomb?)", event.start_mark)
            return node
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

    The document is measured before it is made into values: whatever libyaml
    refuses, nests deeper than the limit, holds itself or expands past
    :data:`MAX_ALIAS_EXPANSION` (or whatever it cannot tell) is read again by
    the pure-Python loader, so that an error names the same problem and line
    whichever parser ran.
    """
    if FAST_LOADER is not _Loader:
        try:
            return _load(text, FAST_LOADER, check=True)
        except (yaml.YAMLError, RecursionError):
            pass
    return _load(text, _Loader, check=False)


def _load(text: str, loader_class: type, check: bool) -> Any:
    """The value of ``text``, its nodes composed and (``check``) measured before any value is made."""
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if check:
            measure = _Measure()
            if measure(node)[1] > MAX_NESTING or measure.expansion > MAX_ALIAS_EXPANSION:
                raise yaml.composer.ComposerError(None, None, "over a limit", node.start_mark)
        return loader.construct_document(node)
    finally:
        loader.dispose()


class _Measure:
    """The size (an item or a character each, aliases expanded) and depth of composed YAML.

    Each node is measured once, so the work is the text's, not the value's:
    a node met again is an alias's use, and what it adds is summed in ``expansion``.
    """

    def __init__(self) -> None:
        self.seen: dict[int, tuple[int, int]] = {}
        self.expansion = 0

    def __call__(self, node: yaml.Node, level: int = 1) -> tuple[int, int]:
        known = self.seen.get(id(node))
        if known is not None:
            if known[1] < 0:     # met inside itself (libyaml composes ``&a [*a]``)
                raise yaml.composer.ComposerError(None, None, "a value that holds itself", node.start_mark)
            self.expansion += known[0]
            return known
        if level > MAX_NESTING:
            raise yaml.composer.ComposerError(None, None, "nested too deep", node.start_mark)
        if isinstance(node, yaml.ScalarNode):
            found = (1 + len(node.value), 1)
        else:
            self.seen[id(node)] = (0, -1)
            children = [part for pair in node.value for part in pair] \
                if isinstance(node, yaml.MappingNode) else node.value
            measured = [self(child, level + 1) for child in children]
            found = (1 + sum(size for size, _ in measured), 1 + max((depth for _, depth in measured), default=0))
        self.seen[id(node)] = found
        return found


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
