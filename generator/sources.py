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

from generator.confine import NEVER_READ
from generator.errors import SiteError
from generator.layout import SOURCE_FOLDERS

# A post's file name: its date, then its slug. Month and day of one or two digits
# (``2021-11-8-slug.md``), as Jekyll 4's DATE_FILENAME_MATCHER takes them.
POST_NAME = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})-(.+)$")
DATA_SUFFIXES = (".yml", ".yaml")


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
    return ((kind, path) for kind, path, _ in discover_named(root, files))


def discover_named(root: Path, files: Iterable[str] | None = None) -> Iterator[tuple[str, Path, str]]:
    """:func:`discover`, each path with its POSIX name (as ``files`` gives it)."""
    from generator.readers import suffixes  # the readers read Sources: imported here, not at the top

    if files is None:
        files = [path.relative_to(root).as_posix()
                 for _, folder in SOURCE_FOLDERS for path in (root / folder).rglob("*") if path.is_file()]
    files = list(files)
    markup = suffixes()
    folders: dict[str, Path] = {}
    for kind, folder in SOURCE_FOLDERS:
        wanted = DATA_SUFFIXES if kind == "data" else markup
        found = [name for name in files if name.startswith(folder + "/") and name.endswith(wanted)
                 and not name.rpartition("/")[2].startswith(".")]
        for name in sorted(found, key=_as_paths_sort):
            parent, _, base = name.rpartition("/")
            if parent not in folders:
                folders[parent] = Path(parent)
            yield kind, folders[parent] / base, name     # a third quicker than Path(name)


def _as_paths_sort(name: str) -> str:
    """A key that orders POSIX paths as :class:`Path` does, part by part: a part's end (the NUL
    in place of its slash) sorts before any character that could go on with it."""
    return name.replace("/", "\0")


def refuse_links_outside(root: Path, names: Iterable[str], outside_allowed: bool = False) -> None:
    """Refuse an input that a symbolic link brings in from outside the site's folder, or from
    its ``.git/`` or ``.sitegen/`` (which no setting opens).

    A link to ``~/.ssh`` in ``assets/`` would be published like any asset;
    site.yaml ``allow_symlinks_outside: true`` (``outside_allowed``) says such links are meant.
    """
    real_root = os.path.realpath(root)
    real_folders: dict[str, str] = {}    # a folder's real path, found once for all of its files
    for name in sorted(names):
        folder, _, base = name.rpartition("/")
        real_folder = real_folders.get(folder)
        if real_folder is None:
            real_folder = real_folders[folder] = os.path.realpath(root / folder)
        path = os.path.join(real_folder, base)
        real = os.path.realpath(path) if os.path.islink(path) else path
        if os.path.commonpath([real_root, real]) != real_root:
            if not outside_allowed:
                raise SiteError(f"a symbolic link to {real}, outside the site: remove it, or set "
                                "allow_symlinks_outside: true in site.yaml to publish it", name)
        else:
            parts = os.path.relpath(real, real_root).split(os.sep)
            if any(part in NEVER_READ for part in parts):
                raise SiteError("a symbolic link into the site's .git/ or .sitegen/, which sitegen never reads",
                                name)
            if _hidden(parts) - _hidden(name.split("/")):     # a link may not open a dot-file (.env)
                raise SiteError(f"a symbolic link to {'/'.join(parts)}, a hidden file of the site, which "
                                "sitegen reads only where site.yaml names it", name)


def _hidden(parts: Iterable[str]) -> set[str]:
    return {part for part in parts if part.startswith(".")}


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
    from generator.yamltext import parse_yaml

    meta = parse_yaml(match.group(1), path, "invalid YAML front matter", offset=1)
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
    from generator.yamltext import parse_yaml

    return parse_yaml(source.body, source.path)


def parse_date(value: Any, tz: tzinfo, path: Path, key: str = "date") -> datetime:
    """Turn a front-matter date (YAML date, datetime or string) into an aware datetime.

    Accepts what Jekyll accepts: ``2019-03-18``, ``2019-03-18 10:00``,
    ``2019-03-18 10:00:00 -0700``, ISO 8601, and the free text Ruby's ``Time.parse``
    reads (``16 April 2010``: :mod:`generator.ruby_time`). A date without an offset is in
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
            raise SiteError(f"key '{key}': cannot read {value!r} as a date (expected YYYY-MM-DD, optionally "
                            "with HH:MM[:SS] and a UTC offset, or a date with its year as Ruby's Time.parse reads it)",
                            path)
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
        from generator.ruby_time import ruby_time

        return ruby_time(text)


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

