"""An edit build's shortcuts against the plain way: each one gives what the plain way gives, and
the build the output a clean build makes (tests/test_incremental.py holds the property tests)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import state as state_module
from generator.build import Engine
from generator.engine import documents as documents_module
from generator.engine import planning as planning_module
from generator.engine import records as records_module
from generator.engine import rendering
from generator.engine.planning import groups_of
from generator.files import is_output_path
from generator import placement
from generator.errors import SiteError
from generator.outputs import Derived
from generator.site import LazyDocument
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


def test_a_derived_group_none_of_whose_pages_changed_is_kept_without_its_pages_digest(site: Path,
                                                                                       monkeypatch) -> None:
    """Built as ``sitegen build`` does, each search part is kept or made again as the digest of
    its pages' bytes says (the plain way, asked of every group after the build): the shortcut
    (:func:`pages_changed`) applies where only pages' sources changed, not where site.yaml or
    the set of pages did. Each build's output is a clean build's."""
    seen: list[tuple[bool, int]] = []
    shortcut = rendering.derive_files

    def both_ways(engine: Engine, build, remake: bool = True) -> None:
        changed = rendering.pages_changed(engine, build)
        shortcut(engine, build, remake)
        kept = 0
        for planner in engine.planners:
            if not isinstance(planner, Derived):
                continue
            last = engine.state.records.derived.get(planner.name, {})
            groups = groups_of(planner, build.scan.config, build.planned.plan)
            assert list(build.derived.records[planner.name]) == list(groups)
            for group, paths in groups.items():
                made_from = rendering.made_from_pages(engine, planner, paths, build.made)
                plain = rendering.kept_group(engine, build, made_from, last.get(group), remake)
                record = build.derived.records[planner.name][group]
                assert (record is last.get(group)) == (plain is not None), (planner.name, group)
                assert record.inputs == rendering.derived_inputs(made_from, record.settings, build.scan.config)
                kept += plain is not None
        seen.append((changed is not None, kept))

    monkeypatch.setattr(rendering, "derive_files", both_ways)
    Engine(site, OPTIONS).build()
    steps = [
        (FIRST, "Hello \"world\"", "Hello again", True),
        (SECOND, "Second post body", "The second post's body", True),
        ("site.yaml", "title: Test Site", "title: Test Site, renamed", False),
        ("content/posts/2020-06-01-new.md", None, "---\ntitle: New\n---\nNew.\n", False),
        (FIRST, "Hello again", "Hello once more", True),
        ("_site/pagefind/parts.json", None, None, True),        # a derived file removed by hand
    ]
    for name, old, new, applies in steps:
        path = site / name
        if new is None:
            path.unlink()
        else:
            path.write_text(new if old is None else path.read_text().replace(old, new))
        seen.clear()
        Engine(site, OPTIONS).build()
        (shortcut_applied, kept), = seen
        assert shortcut_applied is applies, name
        assert kept > 0 or not applies     # groups the edit did not reach
        assert_same_as_full_build(site)


SOURCES = st.sampled_from(["content/posts/a.md", "content/posts/b.md", "content/about.md", "content/c.md"])
DOCUMENT_KEYS = st.tuples(st.just("doc"), SOURCES, st.sampled_from(["title", "url", "content", "tags", "date"]))
OTHER_KEYS = st.tuples(st.sampled_from(["template", "file", "seq"]), st.sampled_from(["a", "b", "c"]))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(DOCUMENT_KEYS, OTHER_KEYS), unique=True), st.lists(st.one_of(DOCUMENT_KEYS, OTHER_KEYS)))
def test_a_key_table_read_from_a_records_file_names_its_keys_as_one_made_of_them(keys: list, asked: list) -> None:
    """A records file's table names each document's fields when asked (FieldNames): every way of
    reading it (in order, by index, by slice, a key's position, a document's span) answers as the
    table made of the keys themselves."""
    made = state_module.KeyTable.of(keys)
    fields = sorted({key[2] for key in keys if key[0] == "doc"})
    numbers = [[fields.index(name) for name in made.named[source]] for source in made.sources]
    read = state_module.KeyTable(state_module.FieldNames(fields, made.sources, numbers), made.others)
    assert list(read) == list(made) and len(read) == len(made) and read.documents == made.documents
    assert [read[i] for i in range(len(read))] == list(made) and read[1:-1] == made[1:-1]
    for key in asked + keys:
        assert read.position(key) == made.position(key)
    for source in ("content/posts/a.md", "content/posts/b.md", "content/about.md", "content/c.md"):
        span = read.span(source)
        assert span == made.span(source)
        assert span is None or list(read)[span[0]:span[1]] == [key for key in keys if key[:2] == ("doc", source)]


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="./a\0", max_size=12))
def test_an_output_path_is_clean_as_its_segments_say(rel: str) -> None:
    """:func:`is_output_path`, which finds the segments it refuses, answers as splitting does."""
    assert is_output_path(rel) == (bool(rel) and "\0" not in rel and not rel.startswith("/")
                                   and all(part not in ("", ".", "..") for part in rel.split("/")))


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["/", ":year", ":month", ":day", ":slug", ":title", ":categories", ":nope",
                                 "x", "-", ".html", "//", ":", "::y"]), max_size=8),
       st.lists(st.sampled_from(["News", "a b", "Ünï"]), max_size=2), st.booleans())
def test_a_permalink_is_its_pattern_with_each_placeholder_substituted(pieces: list, categories: list,
                                                                      dated: bool) -> None:
    """A permalink, its pattern split once per pattern, is what substituting each placeholder in
    turn gives (the regular expression's way), and an unknown placeholder is refused the same."""
    pattern = "".join(pieces) or "/"
    date = datetime(2020, 5, 1, 10, tzinfo=timezone.utc) if dated else None
    values = {"slug": "a-slug", "title": "a-slug", "categories": "/".join(map(placement.slugify, categories))}
    if date is not None:
        values |= {"year": "2020", "month": "05", "day": "01"}
    names = placement._PLACEHOLDER.findall("/" + pattern.lstrip("/"))
    config = SimpleNamespace(permalink=pattern, root=Path("/site"))
    if not all(name in values for name in names):
        with pytest.raises(SiteError, match=f"unknown placeholder ':{next(n for n in names if n not in values)}'"):
            placement._permalink("post", Path("content/posts/a.md"), {}, config, "a-slug", date, categories)
        return
    expected = placement._SLASHES.sub("/", placement._PLACEHOLDER.sub(
        lambda m: values[m.group(1)], "/" + pattern.lstrip("/")))
    try:
        url = placement._permalink("post", Path("content/posts/a.md"), {}, config, "a-slug", date, categories)
    except SiteError as exc:
        assert "leaves the site" in str(exc) and ("/../" in expected + "/" or "/./" in expected + "/")
        return
    assert url == expected


def test_a_document_read_from_its_summary_keeps_its_recorded_placed_key_where_that_is_its_own(site: Path,
                                                                                           monkeypatch) -> None:
    """Built as ``sitegen build`` does, each document's placed key is the digest of its parse key
    and placement taken anew (the plain way), after edits of posts and of the permalink, the time
    zone and a category in site.yaml; the shortcut (the recorded key of a document read from its
    summary) applies where only sources changed. Each build's output is a clean build's."""
    seen: list[tuple[int, int]] = []
    shortcut = records_module.changes

    def both_ways(engine: Engine, build) -> None:
        shortcut(engine, build)
        plain = {source: p.placed_key for source, p in build.assembled.parsed.items()}
        assert build.placed == plain
        recorded = engine.state.records.documents
        seen.append((sum(recorded.get(source) == key for source, key in plain.items()), len(plain)))

    monkeypatch.setattr(records_module, "changes", both_ways)
    Engine(site, OPTIONS).build()
    for name, old, new in [(FIRST, "Hello \"world\"", "Hello again"),
                           ("site.yaml", "timezone: UTC", "timezone: America/Los_Angeles\npermalink: /:year/:slug.html"),
                           (SECOND, "Second post body", "The second post's body"),
                           (FIRST, "categories: [news]", "categories: [news, more]"),
                           ("site.yaml", "timezone: America/Los_Angeles", "timezone: Asia/Tokyo")]:
        path = site / name
        path.write_text(path.read_text().replace(old, new))
        seen.clear()
        Engine(site, OPTIONS).build()
        (same, documents), = seen
        assert same < documents if name == "site.yaml" else same == documents - 1
        assert_same_as_full_build(site)


def test_a_document_read_from_its_summary_is_placed_where_placing_it_anew_puts_it(site: Path, monkeypatch) -> None:
    """Built as ``sitegen build`` does, each document of the site holds the placement that placing
    it anew from its front matter gives (the plain way), after edits of posts and of the
    permalink, the time zone and a category; the shortcut (a document read from its summary is
    where that says, not placed again) applies where only sources changed, after a settings edit
    that placed the documents anew without parsing them too. Each build's output is a clean build's."""
    seen: list[tuple[bool, int, int]] = []
    shortcut = records_module.changes

    def both_ways(engine: Engine, build) -> None:
        shortcut(engine, build)
        parsed = build.assembled.parsed
        for source, p in parsed.items():
            doc = p.document
            url, date, _, categories = placement.place(doc.kind, doc.source, doc.meta, build.scan.config)
            assert repr((doc.url, doc.date, doc.categories)) == repr((url, date, categories)), source
        seen.append((records_module.settings_as_recorded(engine, build.scan),
                     sum(type(p.document) is LazyDocument for p in parsed.values()), len(parsed)))

    monkeypatch.setattr(records_module, "changes", both_ways)
    monkeypatch.setattr(documents_module, "HELD_IN_FULL", 0)   # each document parsed held slim (a LazyDocument too)
    Engine(site, OPTIONS).build()
    for name, old, new in [(FIRST, "Hello \"world\"", "Hello again"),
                           ("site.yaml", "timezone: UTC", "timezone: America/Los_Angeles\npermalink: /:year/:slug.html"),
                           (SECOND, "Second post body", "The second post's body"),
                           (FIRST, "categories: [news]", "categories: [news, more]"),
                           ("site.yaml", "timezone: America/Los_Angeles", "timezone: Asia/Tokyo"),
                           (FIRST, "Hello again", "Hello once more")]:
        path = site / name
        path.write_text(path.read_text().replace(old, new))
        seen.clear()
        Engine(site, OPTIONS).build()
        (held, summed, documents), = seen
        assert held is (name != "site.yaml") and summed == documents - (name != "site.yaml")
        assert_same_as_full_build(site)


def job_kind(job) -> str:
    """What a planned job makes (its inputs' first item), under the settings its planner read
    (planning wraps the inputs as ``(inputs, settings)`` then)."""
    inputs = job.inputs
    return inputs[0] if isinstance(inputs[0], str) else inputs[0][0]


def test_a_document_read_from_its_summary_answers_for_its_front_matter_by_its_keys(site: Path,
                                                                                     monkeypatch) -> None:
    """Built as ``sitegen build`` does, each document's front matter keys (a document read from
    its summary holds them, its front matter left packed) are its front matter's, read (the
    plain way), and so are the warnings of keys nothing reads and the documents planned as
    redirects, after edits that add a key nothing reads, a template that reads it, a redirect
    and its removal, and of other posts. Each build's output is a clean build's."""
    from generator.errors import warning
    from generator.frontmatter import known_keys, unknown_keys
    from generator.render import template_dirs

    seen: list[tuple[int, int, dict, set]] = []
    shortcut = planning_module.plan

    def both_ways(engine: Engine, build) -> None:
        shortcut(engine, build)
        config, parsed = build.scan.config, build.assembled.parsed
        packed = sum(type(p.document.__dict__.get("meta")) is bytes for p in parsed.values())
        known = known_keys(template_dirs(config)) | set(config.front_matter_keys)
        for source, p in parsed.items():
            doc = p.document
            assert tuple(doc.meta_keys) == tuple(doc.meta), source
            if doc.kind in ("post", "page", "docs"):
                assert doc.unread == tuple(warning(w.message, w.path, w.line) for w in unknown_keys(
                    doc.meta, known, Path(source), (site / source).read_text())), source
        published = build.assembled.site.documents
        moved = {str(doc.source) for doc in published if "redirect_to" in doc.meta}
        planned = {str(doc.source) for doc in published if job_kind(build.planned.plan[doc.output_path]) == "redirect"}
        assert planned == moved
        seen.append((packed, len(parsed), {source: p.document.unread for source, p in parsed.items()
                                           if p.document.unread}, planned))

    monkeypatch.setattr(planning_module, "plan", both_ways)
    Engine(site, OPTIONS).build()
    for name, old, new, unread, redirects in [
            (FIRST, "Hello \"world\"", "Hello again", False, False),
            (SECOND, "title: Second post", "title: Second post\ncolour: red", True, False),
            ("templates/partials/colour.html", None, "<i>{{ page.meta.colour }}</i>\n", False, False),
            (FIRST, "title: First post", "title: First post\nredirect_to: /about.html", False, True),
            (SECOND, "Second post body", "The second post's body", False, True),
            (FIRST, "\nredirect_to: /about.html", "", False, False)]:
        path = site / name
        path.write_text(new if old is None else path.read_text().replace(old, new))
        seen.clear()
        Engine(site, OPTIONS).build()
        (packed, documents, warned, planned), = seen
        assert packed >= documents - 2, name        # the others' front matter not read
        assert ("'colour'" in str(warned.get(SECOND))) is unread, name
        assert planned == ({FIRST} if redirects else set()), name
        assert_same_as_full_build(site)
