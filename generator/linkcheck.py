"""The build's link check (:mod:`generator.links`), kept from one build to the next: a page is
checked again only where it changed, or a file its links name came or went, or a page they
name changed its anchors; every other page warns as it did.

Checking every link of the site against the plan is most of a second of each edit's build
at 100,000 posts. A page's warnings are a function of the page (its links, anchors and URL:
what its identity, its parse key and placement, stands for), of which of the files its
links may name (:func:`generator.urls.candidates` of the site paths they resolve to) are
planned, and of the anchors of the pages at those files; and of the base URL, the trees the
publish branch keeps and the code, which the check's ``setting`` stands for. So the pages to
check again are those new or of another identity, and those whose links' site paths may
name a file that came or went, or a page that came, went, moved or changed its anchors.

What each page warned of, the site paths its links name, its output path and its anchors'
digest are kept in ``.sitegen/cache/link-check.msgpack`` (for ``sitegen build``) and in memory
(for the preview), a column each, in the pages' order: 100,000 pages are read, compared and
written as a few lists, not as 100,000 records. What an edit changed (its pages' entries, the
files that came or went) is appended to ``link-check.journal``; the file is written whole when
the pages or their order changed, or the journal grew past a quarter of it. Absent, unreadable
or of another setting, the whole site is checked, and kept. A journal not read (cut short by
a build that died) costs time, never a wrong warning: the pages it changed are, to the file,
of another identity, and the files that came or went since are found again.
"""

from __future__ import annotations

import hashlib
import itertools
import operator
import secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cached_property, partial
from pathlib import Path
from typing import Any

from generator import codec
from generator.cache import local_key, write_atomic
from generator.links import page_warnings
from generator.urls import candidate_of

# The columns kept, each a list in the pages' order: the pages' keys, their identities, output
# paths, anchors' digests, warnings (a list each) and the site paths their links name (a list each).
COLUMNS = ("keys", "identities", "outputs", "anchors", "warnings", "paths")


class LinkCheck:
    """Each page's link warnings, as the last build found them."""

    KIND = "link-check"

    def __init__(self, state_dir: Path | None):
        """Kept in ``state_dir`` (None: in memory only, this engine's builds)."""
        self.path = state_dir / "cache" / f"{self.KIND}.msgpack" if state_dir else None
        self.state_dir = state_dir
        self.setting: str | None = None
        self.planned: set[str] = set()          # the output paths it was made against
        self.unmade: tuple[str, ...] = ()       # of the kept trees, those it had nothing planned in
        self.columns: dict[str, list] = {name: [] for name in COLUMNS}
        self.loaded = state_dir is None
        self.generation = ""                    # the file's, which its journal's entries name
        self.journal = 0                        # the bytes of the journal that go with the file
        self.pending: set[int] | None = set()   # the pages checked since the last write (None: all)
        self.replanned: dict[str, bool] = {}    # output paths that came (True) or went since then

    def warnings(self, keys: list[str], identities: list[str | None], pages: Sequence[Any],
                 planned: Mapping[str, Any], baseurl: str, keep: Iterable[str], setting: str) -> tuple[str, ...]:
        """The warnings of ``pages``, in their order, as :func:`generator.links.link_warnings`
        gives them for ``planned`` (output path -> anything), ``baseurl`` and ``keep``, under
        ``setting``; each page known by its key (one page a key) and its identity (None: check
        it each time)."""
        if not self.loaded:
            self.load()
        trees = [k for k in (k.strip("/") for k in keep) if k]
        last, moved = self.columns, set()
        if setting == self.setting:
            moved = planned.keys() ^ self.planned
            unmade = tuple(k for k in trees if (not under(k, moved) if k in self.unmade
                                                else under(k, moved) and not under(k, planned)))
        whole = setting != self.setting or unmade != self.unmade
        if whole:           # every page checked: nothing of the last check holds
            last, moved, self.planned = {name: [] for name in COLUMNS}, set(), set(planned)
            unmade = tuple(k for k in trees if not under(k, planned))
        replanned = {path: path in planned for path in moved}
        now, todo, gone = aligned(last, keys)
        todo.update(itertools.compress(range(len(keys)), map(operator.ne, identities, now["identities"])))
        if None in identities:
            todo.update(i for i, identity in enumerate(identities) if identity is None)
        outputs, anchors = now["outputs"], now["anchors"]
        for i in todo:          # what pages linking it see of it: where it is, its anchors
            output, digest = pages[i].output_path, anchors_digest(pages[i].anchors)
            if output != outputs[i] or digest != anchors[i]:
                moved.update((output, outputs[i]) if outputs[i] is not None else (output,))
            outputs[i], anchors[i] = output, digest
        moved.update(gone)
        if moved:
            todo.update(linkers(now["paths"], moved))
        check = partial(page_warnings, planned=planned, base=baseurl.rstrip("/"), unmade=unmade,
                        anchors=Anchors(outputs, pages))
        warned, named = now["warnings"], now["paths"]
        try:
            for i in todo:
                warned[i], named[i] = check(pages[i])
        except BaseException:       # half checked: the next check is a whole one
            self.setting, self.columns, self.pending = None, {name: [] for name in COLUMNS}, None
            raise
        now["identities"] = identities
        if whole or now is not last or self.pending is None:
            self.pending = None
        else:
            self.pending |= todo
            self.replanned.update(replanned)
        self.planned.symmetric_difference_update(replanned)
        self.setting, self.unmade, self.columns = setting, unmade, now
        return tuple(itertools.chain.from_iterable(warned))

    def load(self) -> None:
        """The last check, from its file and journal, or none if either is missing, garbled or
        not of this shape."""
        self.loaded, key = True, local_key(self.state_dir)
        try:
            kept = codec.loads(self.KIND, self.path.read_bytes(), key)
            if not well_formed(kept):
                return
            entries = journal_path(self.path).read_bytes() if journal_path(self.path).exists() else b""
        except (OSError, codec.Garbled):
            return
        columns = {name: kept[name] for name in COLUMNS}
        planned, at = set(kept["planned"].split("\0")) - {""}, 0
        setting, unmade = kept["setting"], tuple(kept["unmade"])
        while at + 8 <= len(entries):       # each entry: its length, then it (a build that died: cut short)
            size = int.from_bytes(entries[at:at + 8], "little")
            try:
                entry = codec.loads(self.CHANGES, entries[at + 8:at + 8 + size], key)
            except codec.Garbled:
                break
            if not well_formed_entry(entry, kept["generation"], len(columns["keys"])):
                return
            setting, unmade = entry["setting"], tuple(entry["unmade"])
            for path, present in entry["planned"].items():
                (planned.add if present else planned.discard)(path)
            for name in COLUMNS[1:]:
                column = columns[name]
                for i, value in zip(entry["at"], entry[name]):
                    column[i] = value
            at += 8 + size
        self.setting, self.unmade, self.planned, self.columns = setting, unmade, planned, columns
        self.generation, self.journal, self.pending = kept["generation"], at, set()

    CHANGES = "link-check-changes"
    JOURNAL_SHARE = 0.25        # past this share of the file's size, the journal is folded into it

    def save(self) -> None:
        """Write what changed since the last write: to the journal, as its pages' columns and the
        paths that came or went, or (many pages changed, or their order) the whole check."""
        if self.path is None or self.pending == set() and not self.replanned:
            return
        key = local_key(self.state_dir)
        try:
            if self.pending is not None:
                at = sorted(self.pending)
                entry = codec.dumps(self.CHANGES, {
                    "generation": self.generation, "setting": self.setting, "unmade": list(self.unmade),
                    "planned": self.replanned, "at": at,
                    **{name: [self.columns[name][i] for i in at] for name in COLUMNS[1:]}}, key)
                if self.journal + len(entry) <= self.JOURNAL_SHARE * file_size(self.path):
                    with open(journal_path(self.path), "a+b") as journal:
                        journal.truncate(self.journal)      # past it: what a build that died wrote
                        journal.write(len(entry).to_bytes(8, "little") + entry)
                    self.journal += 8 + len(entry)
                    self.pending, self.replanned = set(), {}
                    return
            generation = secrets.token_hex(8)
            kept = {"generation": generation, "setting": self.setting, "planned": "\0".join(self.planned),
                    "unmade": list(self.unmade), **self.columns}
            write_atomic(self.path, codec.dumps(self.KIND, kept, key))
            journal_path(self.path).unlink(missing_ok=True)
        except OSError:         # a site folder not ours to write: the next build checks every page
            return
        self.generation, self.journal, self.pending, self.replanned = generation, 0, set(), {}


def file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def journal_path(path: Path) -> Path:
    return path.with_suffix(".journal")


def well_formed_entry(entry: Any, generation: str, pages: int) -> bool:
    """Whether ``entry`` (read from the journal) changes the file of ``generation``, of so many
    ``pages``, as :meth:`LinkCheck.save` writes it."""
    return (isinstance(entry, dict) and entry.get("generation") == generation
            and isinstance(entry.get("setting"), str) and isinstance(entry.get("unmade"), list)
            and isinstance(entry.get("planned"), dict) and isinstance(entry.get("at"), list)
            and all(type(i) is int and 0 <= i < pages for i in entry["at"])
            and all(isinstance(entry.get(name), list) and len(entry[name]) == len(entry["at"])
                    for name in COLUMNS[1:]))


def aligned(last: dict[str, list], keys: list[str]) -> tuple[dict[str, list], set[int], set[str]]:
    """The columns of ``last`` in the order of ``keys`` (``last`` itself, where the pages are the
    same), with None for the pages it lacks; the positions of those, and the output paths of the
    pages of ``last`` that are gone."""
    if keys == last["keys"]:
        return last, set(), set()
    at = dict(zip(last["keys"], range(len(last["keys"]))))
    absent = len(last["keys"])          # the position of the None each column gets at its end
    where = [at.get(key, absent) for key in keys]
    now = {name: list(map(column.__getitem__, where)) for name, column in last.items() if name != "keys"
           for column in ([*column, None],)}
    gone = at.keys() - set(keys)
    return ({"keys": keys, **now}, {i for i, j in enumerate(where) if j == absent},
            {last["outputs"][at[key]] for key in gone})


def under(tree: str, paths: Iterable[str]) -> bool:
    """Is one of ``paths`` inside folder ``tree``?"""
    return any(path.startswith(tree + "/") for path in paths)


def anchors_digest(anchors: tuple[str, ...]) -> str:
    return hashlib.blake2b("\0".join(anchors).encode(), digest_size=16).hexdigest()


def linkers(paths: list[list[str] | None], moved: set[str]) -> list[int]:
    """The positions of the pages whose links name (``paths``) a site path that may be one of
    the files ``moved``: none, most often, which one set of every named path tells."""
    names = {path for file in moved for path in candidate_of(file)}
    if names.isdisjoint(itertools.chain.from_iterable(filter(None, paths))):
        return []
    return [i for i, named in enumerate(paths) if named and not names.isdisjoint(named)]


class Anchors(Mapping):
    """Output path -> the anchors of the page there (the last of the pages there), as
    :func:`generator.links.link_warnings` looks them up: found through ``outputs``, the pages'
    output paths in their order (a dictionary of those made when first asked, at C speed)."""

    def __init__(self, outputs: list[str], pages: Sequence[Any]):
        self.outputs, self.pages = outputs, pages

    @cached_property
    def at(self) -> dict[str, int]:
        return dict(zip(self.outputs, range(len(self.outputs))))

    def __getitem__(self, output: str) -> tuple[str, ...]:
        return self.pages[self.at[output]].anchors

    def __contains__(self, output: object) -> bool:
        return output in self.at

    def __iter__(self) -> Iterator[str]:
        return iter(self.at)

    def __len__(self) -> int:
        return len(self.at)


def well_formed(kept: Any) -> bool:
    """Whether ``kept`` (read from the file, as this sitegen wrote it: the seal says so) is of the
    shape :meth:`LinkCheck.save` writes."""
    return (isinstance(kept, dict) and isinstance(kept.get("setting"), str)
            and isinstance(kept.get("generation"), str) and isinstance(kept.get("planned"), str) and isinstance(kept.get("unmade"), list)
            and all(isinstance(kept.get(name), list) for name in COLUMNS)
            and len({len(kept[name]) for name in COLUMNS}) == 1)
