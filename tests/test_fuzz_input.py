"""Fuzzing front matter and site.yaml (issue 15): every outcome is a build or a one-line error.

Hypothesis writes values of every kind (titles with control characters and NULs,
possible and impossible dates, deep lists, huge numbers, wrong types) into a
post's front matter or into site.yaml, as YAML values and as raw YAML text. The
build, run as the command runs it, must then either succeed, with feeds that
parse as XML and no NUL in any page, or stop with exactly one line naming the
file at fault and exit 1. A Python traceback fails the test.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import tempfile
import xml.etree.ElementTree as ET
from datetime import date, timedelta, timezone
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import DATA, REPO
from generator.cli import main

POST = "content/posts/2020-01-01-fuzzed.md"
FRONT_KEYS = ["title", "author", "authors", "date", "tags", "categories", "category", "permalink",
              "layout", "draft", "excerpt", "redirect_from", "description", "published", "image"]
# Keys of site.yaml that cannot write outside a temp folder or need git (output, redirects,
# notebooks.cache_dir, versions and publish are left to their own tests).
CONFIG_KEYS = ["title", "url", "description", "baseurl", "author", "language", "timezone", "permalink",
               "posts_per_page", "pygments_style", "nav", "feeds", "check", "limits", "notebooks"]

# Raw YAML text that no Python value dumps to: plain scalars PyYAML turns into dates or
# numbers, escapes, deep nesting, tags and anchors.
RAW = st.sampled_from([
    "2020-13-45", "2020-02-30", "2019-02-29", "2020-02-29 25:61:00", "0000-01-01", "9999-12-31",
    "2020-01-01T10:00:00+25:00", '"\\0"', '"a\\x01b\\x1b[31m"', '"\\uFFFE\\uD800"', "1e400", "-.inf", ".nan",
    "0x7fffffffffffffffffff", "99999999999999999999999999", "[" * 200 + "]" * 200,
    "{a: {b: {c: {d: [[[[[]]]]]}}}}", "!!binary aGVsbG8=", "!!python/object/apply:os.system [ls]",
    "&a [*a]", "*nothing", "? [a, b]\n: c", "~", "''", "|\n  block\n  text", "!!set {a, b}",
    "[a, [b, [c]]]", "{title: nested}", "yes", "no", "on", "off", "null", "true", "false",
])

TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40)
LEAVES = (TEXT | st.integers() | st.integers(min_value=-(10 ** 30), max_value=10 ** 30) | st.floats()
          | st.booleans() | st.none()
          | st.dates(min_value=date(1, 1, 1), max_value=date(9999, 12, 31))
          | st.datetimes(timezones=st.sampled_from([None, timezone.utc, timezone(timedelta(hours=-7))])))
VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(TEXT, inner, max_size=3), max_leaves=8)


def as_yaml(value) -> str:
    """A value as one YAML flow value (on one line, so that it fits after any key)."""
    return yaml.safe_dump(value, default_flow_style=True, allow_unicode=False, width=1 << 30).rstrip("\n")\
        .removesuffix("\n...")


YAML_VALUE = VALUES.map(as_yaml) | RAW


def fresh_site(folder: Path) -> Path:
    site = folder / "site"
    shutil.copytree(DATA / "basic", site)
    shutil.copytree(REPO / "templates", site / "templates")
    return site


def run_build(site: Path) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["-C", str(site), "build"])
    return code, err.getvalue()


def assert_build_or_one_line_error(site: Path, code: int, err: str, names: str) -> None:
    if code == 0:
        out = site / "_site"
        for feed in ("atom.xml", "rss.xml"):
            if (out / feed).exists():
                ET.parse(out / feed)
        for page in out.rglob("*.html"):
            assert "\x00" not in page.read_text(encoding="utf-8", errors="replace"), page
        return
    assert code == 1, (code, err)
    assert err.startswith("error: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert names in err, err


def block(text: str) -> str:
    """A YAML value that is a block of lines, indented to sit under its key."""
    return text.replace("\n", "\n  ")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries=st.lists(st.tuples(st.sampled_from(FRONT_KEYS) | TEXT.filter(str.isidentifier), YAML_VALUE),
                        max_size=4),
       title=st.one_of(st.just("A title"), YAML_VALUE))
def test_fuzzed_front_matter_builds_or_stops_with_one_line(entries, title) -> None:
    with tempfile.TemporaryDirectory() as folder:
        site = fresh_site(Path(folder))
        lines = [f"title: {block(title)}"] + [f"{key}: {block(value)}" for key, value in entries
                                               if key != "title"]
        (site / POST).write_text("---\n" + "\n".join(lines) + "\n---\nBody \"text\".\n", encoding="utf-8")
        code, err = run_build(site)
        assert_build_or_one_line_error(site, code, err, POST)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(CONFIG_KEYS), value=YAML_VALUE, sub=st.sampled_from([
    None, "atom", "entries", "html", "allow_hosts", "max_source_bytes", "timeout", "output_limit", "trusted"]))
def test_fuzzed_site_yaml_builds_or_stops_with_one_line(key, value, sub) -> None:
    with tempfile.TemporaryDirectory() as folder:
        site = fresh_site(Path(folder))
        config = site / "site.yaml"
        kept = [line for line in config.read_text().splitlines()
                if not line.startswith(f"{key}:") and not (key == "nav" and line.startswith("  -"))]
        entry = f"{key}: {block(value)}" if sub is None else f"{key}:\n  {sub}: {block(block(value))}"
        config.write_text("\n".join(kept + [entry]) + "\n", encoding="utf-8")
        code, err = run_build(site)
        assert_build_or_one_line_error(site, code, err, "site.yaml")
