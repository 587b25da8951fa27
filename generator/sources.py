"""Find the site's sources and split each into front matter and body.

A source is read as bytes and decoded here, once, so that every later stage
works on text that is known to be UTF-8 and every error can still name the
file and line it came from.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from datetime import date, datetime, time, tzinfo
from pathlib import Path
from typing import Any, Iterable, Iterator

import yaml

from generator.errors import SiteError
from generator.layout import SOURCE_FOLDERS

POST_NAME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})-(.+)$")
DATA_SUFFIXES = (".yml", ".yaml")
SURROGATE = re.compile("[\ud800-\udfff]")
MAX_NESTING = 64     # lists and mappings inside each other: far beyond any real site's


@dataclass(frozen=True)
class Source:
    """One input file: where it is (``path``, relative to the site) and what it says."""

    path: Path
    kind: str            # "post", "page" or "data"
    meta: dict[str, Any]
    body: str
    body_line: int       # line number of the body's first line in the file
    digest: str          # hash of the file's bytes, for caching

    @property
    def is_markdown(self) -> bool:   # Liquid's {% highlight %} gives Markdown a fenced block
        from generator.readers import MarkdownReader, readers

        return isinstance(readers().get(self.path.suffix), MarkdownReader)


def discover(root: Path, files: Iterable[str] | None = None) -> Iterator[tuple[str, Path]]:
    """Yield ``(kind, relative path)`` for every source under ``root/content``.

    ``files`` (POSIX paths relative to ``root``) saves walking the folders
    when the caller has just listed them.
    """
    from generator.readers import suffixes  # the readers read Sources: imported here, not at the top

    if files is None:
        files = [path.relative_to(root).as_posix()
                 for _, folder in SOURCE_FOLDERS for path in (root / folder).rglob("*") if path.is_file()]
    files = list(files)
    markup = suffixes()
    for kind, folder in SOURCE_FOLDERS:
        wanted = DATA_SUFFIXES if kind == "data" else markup
        found = [name for name in files if name.startswith(folder + "/") and name.endswith(wanted)
                 and not name.rpartition("/")[2].startswith(".")]
        for name in sorted(found, key=lambda name: name.split("/")):  # as Paths sort
            yield kind, Path(name)


def refuse_links_outside(root: Path, names: Iterable[str]) -> None:
    """Refuse an input that a symbolic link brings in from outside the site's folder.

    A link to ``~/.ssh`` in ``assets/`` would be published like any asset;
    site.yaml ``allow_symlinks_outside: true`` says such links are meant.
    """
    real_root = os.path.realpath(root)
    for name in sorted(names):
        real = os.path.realpath(root / name)
        if os.path.commonpath([real_root, real]) != real_root:
            raise SiteError(f"a symbolic link to {real}, outside the site: remove it, or set "
                            "allow_symlinks_outside: true in site.yaml to publish it", name)


def read_text(path: Path, shown_as: Path | None = None) -> str:
    """Read a file as UTF-8, naming the file and line of the first bad byte."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise SiteError(f"not valid UTF-8 (byte {exc.start}): save the file as UTF-8",
                        shown_as or path, line) from None
    nul = text.find("\0")
    if nul >= 0:  # no text format means one; it would reach pages and file names
        raise SiteError(f"a NUL byte (character {nul}): is this a binary file?",
                        shown_as or path, text.count("\n", 0, nul) + 1)
    return text


def load_source(root: Path, kind: str, relpath: Path) -> Source:
    """Read one content file into a :class:`Source`."""
    raw = (root / relpath).read_bytes()
    text = read_text(root / relpath, relpath)
    digest = hashlib.sha256(raw).hexdigest()
    if kind == "data":
        return Source(relpath, kind, {}, text, 1, digest)
    meta, body, body_line = split_front_matter(text, relpath)
    return Source(relpath, kind, meta, body, body_line, digest)


FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)^(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.S | re.M)


def split_front_matter(text: str, path: Path) -> tuple[dict[str, Any], str, int]:
    """Split ``---``-fenced YAML front matter from the body.

    Returns the metadata, the body and the body's first line number. YAML
    errors are reported at their line in the file, not in the fragment.
    """
    text = text.removeprefix("\ufeff")
    match = FRONT_MATTER.match(text)
    if not match:
        if text.startswith("---"):
            raise SiteError("front matter is not closed: add a line '---' after it", path, 1)
        return {}, text, 1
    try:
        meta = load_yaml(match.group(1))
    except yaml.YAMLError as exc:
        raise SiteError(f"invalid YAML front matter: {yaml_problem(exc, 1)}", path,
                        yaml_line(exc, 1)) from None
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        raise SiteError("front matter must be a mapping of keys to values", path, 2)
    body_line = text.count("\n", 0, match.end()) + 1
    return meta, text[match.end():], body_line


LIQUID_MARK = re.compile(r"\{%|\{\{")


def has_liquid(text: str) -> bool:
    """Whether ``text`` holds Liquid markup (``{% %}`` or ``{{ }}``), to run before its reader."""
    return LIQUID_MARK.search(text) is not None


def load_data(source: Source) -> Any:
    """Parse a data file's YAML, with errors at their line."""
    try:
        return load_yaml(source.body)
    except yaml.YAMLError as exc:
        raise SiteError(f"invalid YAML: {yaml_problem(exc)}", source.path, yaml_line(exc)) from None


class _Checks:
    """Two more mistakes reported as YAML errors, at their line, whichever parser runs.

    An impossible date (``2020-02-30``) would raise ValueError from ``datetime``,
    and a NUL (``"\\0"``) would travel on to file names and pages (a lone
    surrogate, ``"\\ud800"``, could not even be written).
    """

    def construct_yaml_timestamp(self, node):
        try:
            return super().construct_yaml_timestamp(node)
        except ValueError as exc:
            raise yaml.constructor.ConstructorError(
                None, None, f"impossible date {node.value!r} ({exc})", node.start_mark) from None

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


def parse_date(value: Any, tz: tzinfo, path: Path, key: str = "date") -> datetime:
    """Turn a front-matter date (YAML date, datetime or string) into an aware datetime.

    Accepts what Jekyll accepts: ``2019-03-18``, ``2019-03-18 10:00``,
    ``2019-03-18 10:00:00 -0700`` and ISO 8601. A date without an offset is in
    the site's time zone ``tz``; one with an offset is converted into it, as
    Jekyll does, so that the day in the permalink is the site's day.
    """
    if isinstance(value, datetime):
        result = value
    elif isinstance(value, date):
        result = datetime.combine(value, time())
    elif isinstance(value, str):
        result = _parse_date_string(value.strip())
        if result is None:
            raise SiteError(f"key '{key}': cannot read {value!r} as a date "
                            "(expected YYYY-MM-DD, optionally with HH:MM[:SS] and a UTC offset)", path)
    else:
        raise SiteError(f"key '{key}': expected a date, got {value!r}", path)
    if result.tzinfo is None:
        return result.replace(tzinfo=tz)
    return result.astimezone(tz)


def _parse_date_string(text: str) -> datetime | None:
    normalized = re.sub(r"\s+([+-]\d{2}):?(\d{2})$", r"\1\2", text)
    for fmt in ("%Y-%m-%d %H:%M:%S%z", "%Y-%m-%d %H:%M%z", "%Y-%m-%d %H:%M:%S",
                "%Y-%m-%d %H:%M", "%Y-%m-%d"):
        try:
            return datetime.strptime(normalized, fmt)
        except ValueError:
            continue
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def post_name_parts(path: Path) -> tuple[date, str] | None:
    """``2019-03-18-my-post.md`` -> (date(2019, 3, 18), "my-post")."""
    match = POST_NAME.match(path.stem)
    if not match:
        return None
    year, month, day, slug = match.groups()
    try:
        return date(int(year), int(month), int(day)), slug
    except ValueError:
        return None

