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
from hypothesis import HealthCheck, example, given, settings
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


# -- hostile values (issue 39): paths out of the site, sizes, nesting, the wrong types ----------------
#
# Each example builds a site beside a folder of canary files, and asks besides the above that no
# file outside the site's folder was made, changed or removed, and that no canary's text reached
# the output. ``output`` and ``notebooks.cache_dir`` (which name where a build writes) and the
# keys needing git are left to their own tests.

CANARY = "sitegen-canary-a41c"
OUTSIDE = "@OUTSIDE@"       # stands for the canary folder's absolute path
CANARIES = {"canary.yml": f"secret: {CANARY}\n", "canary.md": f"---\ntitle: {CANARY}\n---\n{CANARY}\n",
            "canary.html": f"<p>{CANARY}</p>\n", "canary.txt": f"{CANARY}\n",
            "templates/post.html": f"{CANARY}\n", "data/canary.yml": f"secret: {CANARY}\n"}

PATHS = st.sampled_from([
    "..", "../", "../outside", "../outside/canary.yml", "../outside/canary", "../outside/canary.md",
    "../../..", OUTSIDE, f"{OUTSIDE}/canary.yml", f"{OUTSIDE}/canary", f"{OUTSIDE}/canary.html", "/",
    "/etc/passwd", "~/.ssh/id_rsa", ".git/config", ".sitegen", ".sitegen/lock", ".env",
    "content/../../outside/canary.md", "/../../outside/canary.html", "file:///etc/passwd",
    "..\\outside\\canary.yml", "%2e%2e/outside/canary.txt", "a\0b", "javascript:alert(1)", "",
]) | st.integers(1, 40).map(lambda n: "../" * n + "outside/canary.yml") \
   | st.integers(200, 5000).map(lambda n: "a" * n) | st.integers(100, 1500).map(lambda n: "x/" * n) \
   | st.integers(100, 400).map(lambda n: "/" + "é" * n)
SIZES = st.sampled_from(["0", "-1", "2147483648", "9223372036854775808", "1e400", "-.inf", ".nan", "1" * 5000]) \
    | st.integers().map(str)
NESTING = st.integers(1, 600).map(lambda n: "[" * n + "]" * n) \
    | st.integers(1, 600).map(lambda n: "{a: " * n + "1" + "}" * n)
OTHER_TYPES = st.sampled_from(["[a, b]", "{a: b}", "[{a: [b]}]", "12", "1.5", "true", "null", "{title: x, url: /y}",
                               "[[/about.html]]", "{/x.html: ../outside/canary.html}", '"' + "b" * 100_000 + '"'])
HOSTILE = PATHS.map(lambda path: yaml.safe_dump(path, default_flow_style=True, width=1 << 30)
                    .rstrip("\n").removesuffix("\n...")) | SIZES | NESTING | OTHER_TYPES


def shaped(key: str, sub: str | None, shape: str, value: str) -> str:
    """``key`` set to ``value`` as it is, in a list, under ``sub`` or as both sides of a map."""
    if sub is not None:
        return f"{key}:\n  {sub}: {value}"
    return {"plain": f"{key}: {value}", "list": f"{key}: [{value}]",
            "map": f"{key}: {{{value}: {value}}}"}[shape]


def outside_state(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file beside the site, with its bytes and modification time."""
    return {path.relative_to(folder).as_posix(): (path.read_bytes(), path.stat().st_mtime_ns)
            for path in folder.rglob("*") if path.is_file() and not path.is_relative_to(folder / "site")}


def build_touching_nothing_outside(folder: Path, write) -> tuple[Path, int, str]:
    """A fresh site in ``folder`` beside the canaries, changed by ``write(site, outside)`` and built;
    asserts that nothing outside the site changed and no canary reached the output."""
    site = fresh_site(folder)
    outside = folder / "outside"
    for name, text in CANARIES.items():
        (outside / name).parent.mkdir(parents=True, exist_ok=True)
        (outside / name).write_text(text)
    before = outside_state(folder)
    write(site, str(outside))
    code, err = run_build(site)
    assert outside_state(folder) == before, err
    if (site / "_site").is_dir():
        leaked = [page for page in (site / "_site").rglob("*")
                  if page.is_file() and CANARY.encode() in page.read_bytes()]
        assert not leaked, leaked
    return site, code, err


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entry=st.sampled_from([
    ("theme", None), ("static", None), ("social", "image"), ("redirects", None), ("repository", "url"),
    ("repository", "edit"), ("archives", "blog"), ("archives", "tags"), ("search", "exclude"), ("nav", None),
    ("permalink", None), ("baseurl", None), ("url", None), ("posts_per_page", None), ("limits", "max_source_bytes"),
    ("feeds", "entries"), ("title", None), ("markdown", "header_ids"), ("pygments_style", "light"),
    ("notebooks", "executor"), ("notebooks", "timeout"), ("check", "allow_html")]),
    shape=st.sampled_from(["plain", "list", "map"]), value=HOSTILE)
@example(entry=("posts_per_page", None), shape="plain", value="1" * 5000)     # tracebacks once
@example(entry=("feeds", "entries"), shape="plain", value="1" * 5000)
@example(entry=("permalink", None), shape="plain", value="/same.html")     # a clash the posts are named in
def test_hostile_site_yaml_values_build_or_stop_with_one_line_touching_nothing_outside(entry, shape, value):
    key, sub = entry

    def write(site: Path, outside: str) -> None:
        config = site / "site.yaml"
        kept = [line for line in config.read_text().splitlines()
                if not line.startswith(f"{key}:") and not (key == "nav" and line.startswith("  -"))]
        config.write_text("\n".join(kept + [shaped(key, sub, shape, value.replace(OUTSIDE, outside))]) + "\n")

    with tempfile.TemporaryDirectory() as folder:
        site, code, err = build_touching_nothing_outside(Path(folder), write)
        assert_build_or_one_line_error(site, code, err, "site.yaml")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(["layout", "permalink", "image", "source", "redirect_from", "author", "authors", "tags",
                            "categories", "excerpt", "date", "title", "description", "slug"]),
       shape=st.sampled_from(["plain", "list", "map"]), value=HOSTILE, listing=st.booleans())
@example(key="layout", shape="plain", value="a" * 300, listing=False)         # each tracebacked once
@example(key="source", shape="plain", value="a" * 300, listing=True)
@example(key="excerpt", shape="plain", value="'{::nomarkdown}'", listing=False)
@example(key="permalink", shape="plain", value="/" + "é" * 200, listing=False)
@example(key="title", shape="plain", value="1" * 5000, listing=False)
@example(key="tags", shape="list", value="a" * 300, listing=False)
def test_hostile_front_matter_values_build_or_stop_with_one_line_touching_nothing_outside(key, shape, value, listing):
    def write(site: Path, outside: str) -> None:
        lines = ["title: A title"] + (["layout: source"] if listing and key != "layout" else [])
        lines = [line for line in lines if not line.startswith(f"{key}:")]
        lines.append(shaped(key, None, shape, value.replace(OUTSIDE, outside)))
        (site / POST).write_text("---\n" + "\n".join(lines) + "\n---\nBody text.\n", encoding="utf-8")

    with tempfile.TemporaryDirectory() as folder:
        site, code, err = build_touching_nothing_outside(Path(folder), write)
        assert_build_or_one_line_error(site, code, err, POST)
