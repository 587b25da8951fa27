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

What each page warned of, the site paths its links name and its anchors' digest are kept in
``.sitegen/cache/link-check.msgpack`` (for ``sitegen build``) and in memory (for the
preview). Absent, unreadable or of another setting, the whole site is checked, and kept.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable, Iterator, Mapping
from functools import cached_property, partial
from pathlib import Path
from typing import Any, Callable

from generator import codec
from generator.cache import local_key, write_atomic
from generator.links import page_warnings
from generator.urls import candidate_of

# A page, as the check last saw it: [its identity, its output path, the digest of its anchors,
# its warnings, the site paths its links name]. Lists, so that msgpack packs them as they are.
IDENTITY, OUTPUT, ANCHORS, WARNINGS, PATHS = range(5)


class LinkCheck:
    """Each page's link warnings, by the page's key, as the last build found them."""

    KIND = "link-check"

    def __init__(self, state_dir: Path | None):
        """Kept in ``state_dir`` (None: in memory only, this engine's builds)."""
        self.path = state_dir / "cache" / f"{self.KIND}.msgpack" if state_dir else None
        self.state_dir = state_dir
        self.setting: str | None = None
        self.planned = ""                       # the output paths it was made against, joined by NULs
        self.unmade: tuple[str, ...] = ()       # of the kept trees, those it had nothing planned in
        self.pages: dict[str, list] = {}
        self.loaded = state_dir is None
        self.changed = False                    # since the file was written

    def warnings(self, pages: Mapping[str, tuple[str | None, Any]], planned: Mapping[str, Any], baseurl: str,
                 keep: Iterable[str], setting: str) -> tuple[str, ...]:
        """The warnings of ``pages`` (key -> (identity, page); an identity of None: check it each
        time), in their order, as :func:`generator.links.link_warnings` gives them for ``planned``
        (output path -> anything), ``baseurl`` and ``keep``, under ``setting``."""
        if not self.loaded:
            self.load()
        plan = "\0".join(planned)     # one string: compared, kept and read back at C speed
        trees = [k for k in (k.strip("/") for k in keep) if k]
        if setting != self.setting:
            self.pages, moved = {}, set()
            unmade = tuple(k for k in trees if not under(k, planned))
        elif plan == self.planned:
            moved, unmade = set(), self.unmade
        else:
            moved = planned.keys() ^ set(self.planned.split("\0"))
            unmade = tuple(k for k in trees if (not under(k, moved) if k in self.unmade
                                                else under(k, moved) and not under(k, planned)))
        if unmade != self.unmade:
            self.pages = {}
        last = self.pages
        todo = {key: (page.output_path, anchors_digest(page.anchors)) for key, (identity, page) in pages.items()
                if identity is None or (held := last.get(key)) is None or held[IDENTITY] != identity}
        for key, (output, anchors) in todo.items():     # what pages linking it see of it
            held = last.get(key)
            if held is None or held[OUTPUT] != output or held[ANCHORS] != anchors:
                moved.add(output)
                if held is not None:
                    moved.add(held[OUTPUT])
        gone = last.keys() - pages.keys() if len(last) + len(todo) > len(pages) else set()
        moved.update(last[key][OUTPUT] for key in gone)
        linking = linkers(last, moved) - gone - todo.keys() if moved else ()
        check = partial(page_warnings, planned=planned, base=baseurl.rstrip("/"), unmade=unmade,
                        anchors=LazyMapping(lambda: {page.output_path: page.anchors for _, page in pages.values()}))
        try:
            for key in gone:
                del last[key]
            for key in itertools.chain(todo, linking):
                identity, page = pages[key]
                found, linked = check(page)
                output, anchors = todo.get(key) or (last[key][OUTPUT], last[key][ANCHORS])
                last[key] = [identity, output, anchors, found, linked]
        except BaseException:       # half checked: the next check is a whole one
            self.setting, self.pages = None, {}
            raise
        if todo or gone or linking or plan != self.planned or setting != self.setting:
            self.setting, self.planned, self.unmade, self.changed = setting, plan, unmade, True
        return tuple(itertools.chain.from_iterable(last[key][WARNINGS] for key in pages))

    def load(self) -> None:
        """The last check, from its file, or none if the file is missing, garbled or not of this shape."""
        self.loaded = True
        try:
            kept = codec.loads(self.KIND, self.path.read_bytes(), local_key(self.state_dir))
        except (OSError, codec.Garbled):
            return
        if well_formed(kept):
            self.setting, self.planned, self.unmade, self.pages = (
                kept["setting"], kept["planned"], tuple(kept["unmade"]), kept["pages"])

    def save(self) -> None:
        """Write what changed since the last write (the whole check: a file of its own)."""
        if self.path is None or not self.changed:
            return
        kept = {"setting": self.setting, "planned": self.planned, "unmade": list(self.unmade), "pages": self.pages}
        try:
            write_atomic(self.path, codec.dumps(self.KIND, kept, local_key(self.state_dir)))
        except OSError:         # a site folder not ours to write: the next build checks every page
            return
        self.changed = False


def under(tree: str, paths: Iterable[str]) -> bool:
    """Is one of ``paths`` inside folder ``tree``?"""
    return any(path.startswith(tree + "/") for path in paths)


def anchors_digest(anchors: tuple[str, ...]) -> str:
    return hashlib.blake2b("\0".join(anchors).encode(), digest_size=16).hexdigest()


def linkers(pages: Mapping[str, list], moved: set[str]) -> set[str]:
    """The keys of ``pages`` whose links name a site path that may be one of the files ``moved``."""
    names = {path for file in moved for path in candidate_of(file)}
    return {key for key, held in pages.items() if not names.isdisjoint(held[PATHS])}


class LazyMapping(Mapping):
    """The mapping ``make()`` gives, made when first asked: most checks look up no anchors."""

    def __init__(self, make: Callable[[], Mapping]):
        self.make = make

    @cached_property
    def table(self) -> Mapping:
        return self.make()

    def __getitem__(self, key: Any) -> Any:
        return self.table[key]

    def __contains__(self, key: object) -> bool:
        return key in self.table

    def __iter__(self) -> Iterator:
        return iter(self.table)

    def __len__(self) -> int:
        return len(self.table)


def well_formed(kept: Any) -> bool:
    """Whether ``kept`` (read from the file, as this sitegen wrote it: the seal says so) is of the
    shape :meth:`LinkCheck.save` writes."""
    return (isinstance(kept, dict) and isinstance(kept.get("setting"), str)
            and isinstance(kept.get("planned"), str) and isinstance(kept.get("unmade"), list)
            and isinstance(kept.get("pages"), dict)
            and all(type(held) is list and len(held) == 5 for held in kept["pages"].values()))
