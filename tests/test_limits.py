"""Limits that hold (issue 39.5): content cannot make a build take unbounded memory or time.

Each case gave a build gigabytes of work from a few hundred bytes of input; now
it is one line naming the file (and line or key), exit 1, the old site kept.
Builds that could run away are run in a child process under a memory limit.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from generator.cli import main

MEMORY = 2 * 1024 ** 3     # address space of a build that could run away: ten times a small site's


def snapshot(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def build_bounded(site: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    """``sitegen build`` of ``site`` in a child process that may use at most :data:`MEMORY`."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    return subprocess.run([sys.executable, "-m", "generator", "-C", str(site), "build"], capture_output=True,
                          text=True, timeout=timeout, preexec_fn=limit)


def assert_one_line_error(result: subprocess.CompletedProcess, *fragments: str) -> None:
    assert result.returncode == 1, (result.returncode, result.stderr[-2000:])
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr[-2000:]
    for fragment in fragments:
        assert fragment in result.stderr, result.stderr


def yaml_bomb(levels: int, indent: str = "") -> str:
    """A "billion laughs": each list holds nine aliases of the one before (9**levels strings)."""
    lines = [f'{indent}a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"{indent}a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


BOMBS = {
    "a data file nothing prints": ("content/data/bomb.yml", lambda: yaml_bomb(8)),
    "front matter": ("content/posts/2020-01-01-bomb.md", lambda: "---\ntitle: x\n" + yaml_bomb(8) + "---\nHi\n"),
}


@pytest.mark.parametrize("name", BOMBS)
def test_a_yaml_alias_bomb_is_refused_before_it_expands(basic_site, name):
    """Eight levels cost 4.8 GB before; the aliases are now counted as they are read."""
    assert main(["-C", str(basic_site), "build"]) == 0
    before = snapshot(basic_site / "_site")
    relpath, text = BOMBS[name]
    (basic_site / relpath).write_text(text(), encoding="utf-8")

    result = build_bounded(basic_site)

    assert_one_line_error(result, f"{relpath}:", "aliases expand this file past 1,000,000")
    assert snapshot(basic_site / "_site") == before


def test_site_yaml_with_an_alias_bomb_is_one_line(basic_site):
    site_yaml = basic_site / "site.yaml"
    site_yaml.write_text(site_yaml.read_text() + "extra_lol:\n" + yaml_bomb(8, "  "))
    assert_one_line_error(build_bounded(basic_site), "site.yaml:", "aliases expand")


def test_aliases_a_real_site_uses_still_read():
    """Defaults reused by alias and merge key: far below the limit, read as PyYAML reads them."""
    import yaml

    from generator.yamltext import load_yaml

    text = "base: &base {layout: post, tags: [a, b]}\none: {<<: *base, title: One}\ntwo: [*base, *base]\n"
    assert load_yaml(text) == yaml.safe_load(text)
    assert load_yaml(yaml_bomb(5)) == yaml.safe_load(yaml_bomb(5))      # 9**5 strings: allowed


def test_the_bomb_is_refused_at_the_alias_that_crossed_the_limit_before_expanding():
    import yaml

    from generator.yamltext import load_yaml

    with pytest.raises(yaml.YAMLError, match="aliases expand this file") as info:
        load_yaml(yaml_bomb(12))                # 9**12 strings: expanded, they would not fit in memory
    assert info.value.problem_mark.line + 1 == 6        # a5: 9**6 strings of 3 characters


def write_post(site: Path, body: str, front: str = "title: x\n") -> str:
    relpath = "content/posts/2020-01-01-limit.md"
    (site / relpath).write_text(f"---\n{front}---\n\n{body}\n", encoding="utf-8")
    return relpath


LIQUID = {
    "loop_iterations": "{% for i in (1..100) %}{% for j in (1..100) %}{% endfor %}{% endfor %}",
    "output_bytes": "{% for i in (1..2000) %}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx{% endfor %}",
    "variables_bytes": '{% assign s = "xxxxxxxxxx" %}{% for i in (1..20) %}{% assign s = s | append: s %}'
                       "{% endfor %}{{ s | size }}",
}


@pytest.mark.parametrize("key", LIQUID)
def test_liquid_limits_from_site_yaml_stop_the_document_naming_file_and_key(basic_site, capsys, key):
    assert main(["-C", str(basic_site), "build"]) == 0
    before = snapshot(basic_site / "_site")
    site_yaml = basic_site / "site.yaml"
    site_yaml.write_text(site_yaml.read_text() + f"liquid: {{{key}: 5000}}\n")
    relpath = write_post(basic_site, LIQUID[key])
    capsys.readouterr()

    assert main(["-C", str(basic_site), "build"]) == 1

    message = capsys.readouterr().err
    assert message.startswith(f"error: {relpath}:") and message.count("\n") == 1, message
    assert f"liquid.{key}: 5,000" in message
    assert snapshot(basic_site / "_site") == before


def test_a_string_doubled_forty_times_stops_at_the_default_limit(basic_site):
    """A terabyte asked for by eleven words of Liquid: refused at 50 MB, one line."""
    write_post(basic_site, '{% assign s = "xxxxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}'
                           "{% endfor %}{{ s | size }}")
    assert_one_line_error(build_bounded(basic_site), "2020-01-01-limit.md", "liquid.variables_bytes: 50,000,000")


def test_liquid_limits_must_be_positive(basic_site, capsys):
    site_yaml = basic_site / "site.yaml"
    site_yaml.write_text(site_yaml.read_text() + "liquid: {loop_iterations: 0}\n")
    assert main(["-C", str(basic_site), "build"]) == 1
    assert "key 'liquid.loop_iterations': expected 1 or more, got 0" in capsys.readouterr().err


@pytest.mark.parametrize("key", ["tags", "categories", "author"])
def test_names_past_max_tags_stop_the_build_naming_file_and_key(basic_site, capsys, key):
    assert main(["-C", str(basic_site), "build"]) == 0
    before = snapshot(basic_site / "_site")
    site_yaml = basic_site / "site.yaml"
    site_yaml.write_text(site_yaml.read_text() + "limits: {max_tags: 20}\n")
    relpath = write_post(basic_site, "Hello.", f"title: x\n{key}: [{', '.join(f'n{i}' for i in range(21))}]\n")
    capsys.readouterr()

    assert main(["-C", str(basic_site), "build"]) == 1

    message = capsys.readouterr().err
    assert message == f"error: {relpath}: key '{key}': 21 names, more than site.yaml's limits.max_tags (20)\n"
    assert snapshot(basic_site / "_site") == before


def test_ten_thousand_tags_on_one_post_are_refused_at_once(basic_site):
    """They made 3.2 GB of tag pages before: each lists the post with its 10,000 tags."""
    write_post(basic_site, "Hello.", f"title: x\ntags: [{', '.join(f't{i}' for i in range(10_000))}]\n")
    assert_one_line_error(build_bounded(basic_site, timeout=60), "key 'tags': 10,000 names", "limits.max_tags (500)")


def test_a_page_past_max_output_bytes_stops_the_build_naming_file_and_key(basic_site, capsys):
    assert main(["-C", str(basic_site), "build"]) == 0
    before = snapshot(basic_site / "_site")
    site_yaml = basic_site / "site.yaml"
    site_yaml.write_text(site_yaml.read_text() + "limits: {max_output_bytes: 50000}\n")
    relpath = write_post(basic_site, "word " * 12_000)
    capsys.readouterr()

    assert main(["-C", str(basic_site), "build"]) == 1

    message = capsys.readouterr().err
    assert message.startswith(f"error: {relpath}: its page is ") and message.count("\n") == 1, message
    assert "more than site.yaml's limits.max_output_bytes (50,000)" in message
    assert snapshot(basic_site / "_site") == before


@pytest.mark.parametrize("unit", ["*a* ", "&amp; ", "<b>a</b> ", "\\* ", "[b](c) ", "`d` "])
def test_a_long_paragraph_of_inline_markup_reads_as_python_markdown_reads_it(unit):
    """The inline pass made linear (generator.inline joins the text once per element instead of
    at each match) gives Python-Markdown's own output on a long paragraph of one construct; how
    its time grows is measured by benchmarks/bench_inline.py, never asserted in a test."""
    from tests.test_markdown_fast_paths import both

    fast, plain = both(unit * (10_000 // len(unit)))
    assert fast == plain
