"""An edit build's shortcuts against the plain way: each one gives what the plain way gives, and
the build the output a clean build makes (tests/test_incremental.py holds the property tests)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.build import Engine
from generator.engine import records as records_module
from test_incremental import OPTIONS, assert_same_as_full_build, make_site

FIRST = "content/posts/2019-03-18-first-post.md"
SECOND = "content/posts/2020-05-01-second.md"

# (file, text replaced, by what, does the edit move a document's placement?)
EDITS = [
    (FIRST, "Hello \"world\"", "Hello again", False),                  # the body
    (FIRST, "title: First post", "title: First post, renamed", False),  # a field others show
    (FIRST, "tags: [compilers, release]", "tags: [release]", True),    # its tag pages
    (SECOND, "date: 2020-05-01 10:00:00 -0700", "date: 2018-05-01 10:00:00 -0700", True),   # the order
    (FIRST, "categories: [news]", "categories: [news, more]", True),   # its URL
    (SECOND, "author: [Ada, Grace]", "author: [Grace]", True),         # its author pages
    (FIRST, "title: First post, renamed", "title: First post\nlayout: page", True),
    (SECOND, "Second post body", "The second post's body", False),
]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return make_site(tmp_path / "site")


def test_an_edit_resolves_the_collections_keys_only_where_a_placement_moved(site: Path, monkeypatch) -> None:
    """Built as ``sitegen build`` does (a new engine each time, the site assembled again), an edit
    that moves no document's placement resolves none of the collections' keys: the keys it finds
    changed are those that all the recorded keys, resolved, say changed; one that moves a
    placement resolves them all. Each build's output is a clean build's."""
    seen: list[tuple[bool, dict, dict]] = []
    shortcut = records_module.changes

    def both_ways(engine: Engine, build) -> None:
        shortcut(engine, build)
        records = engine.state.records
        reparsed = records.reparsed(build.placed)
        plain = records.changed(engine.keys.candidates(reparsed, build.order != records.order, True),
                                build.resolver)
        seen.append((records_module.placement_kept(engine, build, reparsed), build.moved, plain))

    monkeypatch.setattr(records_module, "changes", both_ways)
    Engine(site, OPTIONS).build()
    collections_moved = []
    for name, old, new, moves in EDITS:
        path = site / name
        assert old in path.read_text()
        path.write_text(path.read_text().replace(old, new))
        seen.clear()
        Engine(site, OPTIONS).build()
        (kept, moved, plain), = seen
        assert kept is not moves, name
        assert moved == plain
        if any(key[0] in ("seq", "names") for key in plain):
            collections_moved.append(new)
        assert_same_as_full_build(site)
    assert collections_moved == [EDITS[i][2] for i in (2, 3, 4)]    # what a wrong shortcut would miss
