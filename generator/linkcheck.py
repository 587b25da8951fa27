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
written as a few lists, not as 100,000 records. Absent, unreadable or of another setting, the
whole site is checked, and kept.
"""

from __future__ import annotations

import hashlib
import itertools
import operator
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
        self.planned = ""                       # the output paths it was made against, joined by NULs
        self.unmade: tuple[str, ...] = ()       # of the kept trees, those it had nothing planned in
        self.columns: dict[str, list] = {name: [] for name in COLUMNS}
        self.loaded = state_dir is None
        self.changed = False                    # since the file was written

    def warnings(self, keys: list[str], identities: list[str | None], pages: Sequence[Any],
                 planned: Mapping[str, Any], baseurl: str, keep: Iterable[str], setting: str) -> tuple[str, ...]:
        """The warnings of ``pages``, in their order, as :func:`generator.links.link_warnings`
        gives them for ``planned`` (output path -> anything), ``baseurl`` and ``keep``, under
        ``setting``; each page known by its key (one page a key) and its identity (None: check
        it each time)."""
        if not self.loaded:
            self.load()
        plan = "\0".join(planned)     # one string: compared, kept and read back at C speed
        trees = [k for k in (k.strip("/") for k in keep) if k]
        last = self.columns
        if setting != self.setting:
            last, moved = {name: [] for name in COLUMNS}, set()
            unmade = tuple(k for k in trees if not under(k, planned))
        elif plan == self.planned:
            moved, unmade = set(), self.unmade
        else:
            moved = planned.keys() ^ set(self.planned.split("\0"))
            unmade = tuple(k for k in trees if (not under(k, moved) if k in self.unmade
                                                else under(k, moved) and not under(k, planned)))
        if unmade != self.unmade:
            last = {name: [] for name in COLUMNS}
        now, todo, gone = aligned(last, keys)
        old_identities = now["identities"]
        todo.update(itertools.compress(range(len(keys)), map(operator.ne, identities, old_identities)))
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
            self.setting, self.columns = None, {name: [] for name in COLUMNS}
            raise
        now["identities"] = identities
        if todo or now is not last or plan != self.planned or setting != self.setting:
            self.setting, self.planned, self.unmade, self.columns, self.changed = setting, plan, unmade, now, True
        return tuple(itertools.chain.from_iterable(warned))

    def load(self) -> None:
        """The last check, from its file, or none if the file is missing, garbled or not of this shape."""
        self.loaded = True
        try:
            kept = codec.loads(self.KIND, self.path.read_bytes(), local_key(self.state_dir))
        except (OSError, codec.Garbled):
            return
        if well_formed(kept):
            self.setting, self.planned, self.unmade = kept["setting"], kept["planned"], tuple(kept["unmade"])
            self.columns = {name: kept[name] for name in COLUMNS}

    def save(self) -> None:
        """Write the check, if it changed since it was last written."""
        if self.path is None or not self.changed:
            return
        kept = {"setting": self.setting, "planned": self.planned, "unmade": list(self.unmade), **self.columns}
        try:
            write_atomic(self.path, codec.dumps(self.KIND, kept, local_key(self.state_dir)))
        except OSError:         # a site folder not ours to write: the next build checks every page
            return
        self.changed = False


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
            and isinstance(kept.get("planned"), str) and isinstance(kept.get("unmade"), list)
            and all(isinstance(kept.get(name), list) for name in COLUMNS)
            and len({len(kept[name]) for name in COLUMNS}) == 1)
