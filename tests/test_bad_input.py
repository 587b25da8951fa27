"""Each kind of bad input stops the build with file and line (or key), exit 1, and the old site intact."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main
from conftest import own_template

FIRST = "content/posts/2019-03-18-first-post.md"


def snapshot(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def replace(site: Path, rel: str, old: str, new: str) -> None:
    if rel.startswith("templates/"):
        own_template(site, rel.removeprefix("templates/"))
    path = site / rel
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def broken_yaml(site):
    replace(site, FIRST, "tags: [compilers, release]", "tags: [compilers, release")


def missing_title(site):
    replace(site, FIRST, "title: First post\n", "")


def bad_date(site):
    replace(site, FIRST, "title: First post\n", "title: First post\ndate: the day after tomorrow\n")


def unknown_layout(site):
    replace(site, FIRST, "title: First post\n", "title: First post\nlayout: fancy\n")


def jinja_error(site):
    replace(site, "templates/post.html", "<h1>{{ page.title }}</h1>", "<h1>{{ page.title | nosuchfilter }}</h1>")


def template_runtime_error(site):
    replace(site, "templates/post.html", "<h1>{{ page.title }}</h1>", "<h1>{{ page.no_such_field }}</h1>")


def url_clash(site):
    (site / "content/posts/2019-03-18-first-post.markdown").write_text("---\ntitle: Clash\n---\nSame URL.\n")


def not_utf8(site):
    (site / "content/pages/latin1.md").write_bytes(b"---\ntitle: Caf\xe9\n---\n")


def missing_data_file(site):
    (site / "templates/people.html").write_text(
        '{% extends "base.html" %}\n{% block main %}\n{{ site.data.people }}\n{% endblock %}\n')
    (site / "content/pages/people.md").write_text("---\ntitle: People\nlayout: people\n---\n")


def broken_config(site):
    (site / "site.yaml").write_text((site / "site.yaml").read_text() + "posts_per_page: lots\n")


CASES = [
    (broken_yaml, [FIRST + ":5", "invalid YAML front matter", "started at line 4"]),
    (missing_title, [FIRST + ":1", "missing required front matter key 'title'"]),
    (bad_date, [FIRST, "key 'date'", "the day after tomorrow"]),
    (unknown_layout, [FIRST, "unknown layout 'fancy'"]),
    (jinja_error, ["templates/post.html:", "nosuchfilter"]),
    (template_runtime_error, ["templates/post.html:", "no_such_field", "while rendering content/posts/"]),
    (url_clash, ["/2019/03/18/first-post.html", FIRST, "content/posts/2019-03-18-first-post.markdown"]),
    (not_utf8, ["content/pages/latin1.md:2", "UTF-8"]),
    (missing_data_file, ["templates/people.html:3", "content/data/people.yml does not exist"]),
    (broken_config, ["site.yaml", "posts_per_page"]),
]


@pytest.mark.parametrize("breakage, expected", CASES, ids=[c[0].__name__ for c in CASES])
def test_bad_input_is_reported_and_keeps_the_old_site(basic_site, capsys, breakage, expected):
    assert main(["-C", str(basic_site), "build"]) == 0
    before = snapshot(basic_site / "_site")
    capsys.readouterr()

    breakage(basic_site)
    assert main(["-C", str(basic_site), "build"]) == 1

    message = capsys.readouterr().err
    assert message.startswith("error: ")
    for fragment in expected:
        assert fragment in message, message
    assert snapshot(basic_site / "_site") == before
