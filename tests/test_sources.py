"""Front matter is split from the body, and errors point at the file's own lines."""

from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.errors import SiteError
from generator.sources import discover, discover_named, load_source, parse_date, post_name_parts, split_front_matter


def test_split_front_matter_and_body_line():
    meta, body, line = split_front_matter("---\ntitle: Hi\ntags: [a]\n---\nBody\n", Path("p.md"))
    assert meta == {"title": "Hi", "tags": ["a"]}
    assert body == "Body\n"
    assert line == 5


def test_no_front_matter_is_all_body():
    assert split_front_matter("Just text\n", Path("p.md")) == ({}, "Just text\n", 1)


def test_broken_yaml_is_reported_at_its_line_in_the_file():
    text = "---\ntitle: Hi\ntags: [a, b\nauthor: x\n---\nBody\n"
    with pytest.raises(SiteError) as info:
        split_front_matter(text, Path("content/posts/p.md"))
    assert info.value.path == "content/posts/p.md"
    assert info.value.line == 4
    assert "started at line 3" in str(info.value)


def test_unclosed_front_matter():
    with pytest.raises(SiteError, match="not closed"):
        split_front_matter("---\ntitle: Hi\nBody\n", Path("p.md"))


def test_front_matter_must_be_a_mapping():
    with pytest.raises(SiteError, match="mapping"):
        split_front_matter("---\n- a\n- b\n---\n", Path("p.md"))


def test_non_utf8_file_names_file_and_line(tmp_path):
    folder = tmp_path / "content" / "posts"
    folder.mkdir(parents=True)
    (folder / "2020-01-01-x.md").write_bytes(b"---\ntitle: x\n---\nline four\ncaf\xe9\n")
    with pytest.raises(SiteError) as info:
        load_source(tmp_path, "post", Path("content/posts/2020-01-01-x.md"))
    assert "UTF-8" in str(info.value)
    assert info.value.path == "content/posts/2020-01-01-x.md" and info.value.line == 5


@pytest.mark.parametrize("value, expected", [
    ("2019-03-18", datetime(2019, 3, 18, tzinfo=timezone.utc)),
    ("2019-03-18 10:00", datetime(2019, 3, 18, 10, 0, tzinfo=timezone.utc)),
    ("2019-03-18 10:00:00 -0700", datetime(2019, 3, 18, 10, 0, tzinfo=timezone(timedelta(hours=-7)))),
    ("2019-03-18T10:00:00+02:00", datetime(2019, 3, 18, 10, 0, tzinfo=timezone(timedelta(hours=2)))),
    (date(2019, 3, 18), datetime(2019, 3, 18, tzinfo=timezone.utc)),
])
def test_dates_jekyll_accepts(value, expected):
    assert parse_date(value, timezone.utc, Path("p.md")) == expected


def test_a_date_with_an_offset_is_converted_into_the_site_time_zone():
    converted = parse_date("2019-04-30 00:00:00 +0800", timezone.utc, Path("p.md"))
    assert (converted.date(), converted.hour, converted.utcoffset()) == (date(2019, 4, 29), 16, timedelta(0))
    shanghai = parse_date("2019-04-30 00:00:00 +0800", ZoneInfo("Asia/Shanghai"), Path("p.md"))
    assert (shanghai.date(), shanghai.hour) == (date(2019, 4, 30), 0)


def test_unparseable_date_names_the_key():
    with pytest.raises(SiteError, match="key 'date'"):
        parse_date("last tuesday", timezone.utc, Path("p.md"))


def test_post_file_names():
    assert post_name_parts(Path("2019-03-18-my-post.md")) == (date(2019, 3, 18), "my-post")
    assert post_name_parts(Path("my-post.md")) is None
    assert post_name_parts(Path("2019-13-40-bad.md")) is None


def test_front_matter_through_libyaml_reads_as_pure_python_yaml():
    """The C loader gives the pure-Python loader's values, over real front matter and data files."""
    import yaml

    from generator.sources import FRONT_MATTER
    from generator.yamltext import FAST_LOADER, load_yaml
    from tests.conftest import REPO, shared_dir

    assert issubclass(FAST_LOADER, yaml.CSafeLoader)   # PyYAML here is built with libyaml
    texts = []
    for folder in (REPO / "content", shared_dir() / "corpus" / "tvm-site"):
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".md", ".markdown", ".html"):
                match = FRONT_MATTER.match(path.read_text(encoding="utf-8"))
                if match:
                    texts.append(match.group(1))
            elif path.suffix in (".yml", ".yaml"):
                texts.append(path.read_text(encoding="utf-8"))
    assert len(texts) > 30
    for text in texts:
        assert load_yaml(text) == yaml.safe_load(text)


def test_libyamls_loader_makes_the_same_checks():
    import yaml

    from generator.yamltext import FAST_LOADER, MAX_NESTING, load_yaml

    for text, problem in (("date: 2020-02-30", "impossible date"), ('name: "a\\0b"', "NUL"),
                          ('name: "\\ud800"', "lone surrogate")):
        with pytest.raises(yaml.YAMLError):       # libyaml itself refuses the lone surrogate
            yaml.load(text, Loader=FAST_LOADER)
        with pytest.raises(yaml.YAMLError, match=problem):
            load_yaml(text)
    nested = "a: " + "[" * MAX_NESTING + "]" * MAX_NESTING
    with pytest.raises(yaml.YAMLError, match=f"nested more than {MAX_NESTING} deep"):
        load_yaml(nested)


def test_a_yaml_error_names_pure_python_yamls_problem():
    """libyaml words the problem differently; the message stays the one users have seen."""
    text = "---\ntitle: Hi\ntags: [a, b\nauthor: x\n---\nBody\n"
    with pytest.raises(SiteError) as info:
        split_front_matter(text, Path("content/posts/p.md"))
    assert str(info.value).startswith("content/posts/p.md:4: invalid YAML front matter: "
                                      "expected ',' or ']', but got ':'")


PARTS = st.text(st.sampled_from("ab-._ !0~é"), min_size=1, max_size=4).filter(lambda part: part not in (".", ".."))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(PARTS, min_size=1, max_size=3), max_size=12, unique_by=tuple))
def test_sources_are_found_in_the_order_of_their_paths(tails: list[list[str]]) -> None:
    """discover sorts the names as Paths sort (part by part) and gives the Paths their names make."""
    names = [f"content/posts/{'/'.join(tail)}.md" for tail in tails]
    found = [path for kind, path in discover(Path("site"), names) if kind == "post"]
    wanted = sorted(Path(name) for name in names if not name.rpartition("/")[2].startswith("."))
    assert found == wanted and [str(path) for path in found] == [str(path) for path in wanted]
    assert [(path, name) for _, path, name in discover_named(Path("site"), names)] \
        == [(path, path.as_posix()) for path in wanted]
