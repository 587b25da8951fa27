"""Mistakes a careless author makes (issue 15): one line naming the file and line, exit 1, nothing lost.

Each case here raised a Python traceback, or built a broken site, before.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import own_template
from generator.cli import main
from generator.errors import SiteError

FIRST = "content/posts/2019-03-18-first-post.md"


def snapshot(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def set_front(site: Path, line: str, rel: str = FIRST) -> None:
    path = site / rel
    path.write_text(path.read_text().replace("title: First post\n", f"title: First post\n{line}\n", 1))


def write_post(site: Path, front: str, body: str = "Hello.\n", name: str = "2020-01-01-new.md") -> None:
    (site / "content/posts" / name).write_text(f"---\n{front}---\n{body}", encoding="utf-8")


CASES = [
    ("month 13", lambda s: set_front(s, "date: 2020-13-45"), [FIRST + ":3", "2020-13-45"]),
    ("February 30", lambda s: set_front(s, "date: 2020-02-30"), [FIRST + ":3", "2020-02-30"]),
    ("date in a data file", lambda s: (s / "content/data/events.yml").write_text("- when: 2020-02-30\n"),
     ["content/data/events.yml:1", "2020-02-30"]),
    ("date in site.yaml", lambda s: (s / "site.yaml").write_text(
        (s / "site.yaml").read_text() + "description: 2020-02-30\n"), ["site.yaml:", "2020-02-30"]),
    ("list nested 1000 deep", lambda s: write_post(s, "title: x\ntags: " + "[" * 1000 + "]" * 1000 + "\n"),
     ["content/posts/2020-01-01-new.md:3", "nested"]),
    ("data nested 1000 deep", lambda s: (s / "content/data/deep.yml").write_text("x: " + "[" * 1000 + "]" * 1000),
     ["content/data/deep.yml:1", "nested"]),
    ("a list that holds itself", lambda s: write_post(s, "title: x\nextra: &a [*a]\n"),
     ["content/posts/2020-01-01-new.md:3", "*a"]),
    ("data that holds itself", lambda s: (s / "content/data/loop.yml").write_text("x: &m {y: *m}\n"),
     ["content/data/loop.yml:1", "*m"]),
    ("NUL in a permalink", lambda s: write_post(s, 'title: x\npermalink: "/a\\0b.html"\n'),
     ["content/posts/2020-01-01-new.md:3", "NUL"]),
    ("NUL byte in a body", lambda s: write_post(s, "title: x\n", "one\ntwo\x00three\n"),
     ["content/posts/2020-01-01-new.md:5", "NUL"]),
]


@pytest.mark.parametrize("breakage, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_mistake_is_one_line_and_keeps_the_old_site(basic_site, capsys, breakage, expected):
    assert main(["-C", str(basic_site), "build"]) == 0
    before = snapshot(basic_site / "_site")
    capsys.readouterr()

    breakage(basic_site)
    assert main(["-C", str(basic_site), "build"]) == 1

    message = capsys.readouterr().err
    assert message.startswith("error: ") and message.count("\n") == 1, message
    for fragment in expected:
        assert fragment in message, message
    assert snapshot(basic_site / "_site") == before


def test_control_characters_in_a_title_keep_the_feeds_valid_xml(basic_site):
    write_post(basic_site, 'title: "bell\\a and \\x01 escape\\e"\nauthor: "x\\x0b"\n', "Text.\n")
    assert main(["-C", str(basic_site), "build"]) == 0
    out = basic_site / "_site"
    for feed in ("atom.xml", "rss.xml"):
        titles = [e.text for e in ET.parse(out / feed).iter() if e.tag.endswith("title")]
        assert "bell and  escape" in titles, titles
    assert "\x00" not in "".join(p.read_text() for p in out.rglob("*.html"))


@pytest.mark.parametrize("title, expected", [
    ("", "the title is empty"),
    ("   ", "the title is empty"),
])
def test_new_post_with_an_empty_title_is_refused(basic_site, capsys, title, expected):
    posts = sorted((basic_site / "content/posts").iterdir())
    assert main(["-C", str(basic_site), "new", "post", title]) == 1
    message = capsys.readouterr().err
    assert message.startswith("error: ") and message.count("\n") == 1 and expected in message, message
    assert sorted((basic_site / "content/posts").iterdir()) == posts


def test_new_post_with_a_300_character_title_gets_a_short_file_name(basic_site, capsys):
    title = ("A very long title " * 20)[:300]
    assert main(["-C", str(basic_site), "new", "post", title]) == 0
    created = Path(capsys.readouterr().out.split("created ", 1)[1].strip())
    assert len(created.name) <= 100 and created.name.endswith(".md") and "-a-very-long-title-" in created.name
    assert f"title: {title.strip()}\n" in (basic_site / created).read_text()   # kept whole, on one line
    assert main(["-C", str(basic_site), "build"]) == 0


def test_tags_in_any_script_get_distinct_stable_pages(basic_site):
    write_post(basic_site, 'title: x\ntags: ["日本語", "Привет мир", "🎉", "!!!", "???", "Café"]\n')
    assert main(["-C", str(basic_site), "build"]) == 0
    pages = {p.name for p in (basic_site / "_site/tags").iterdir()}
    assert {"ribenyu.html", "privet-mir.html", "tada.html", "cafe.html"} <= pages
    assert "-.html" not in pages
    from generator.site import slugify
    fallbacks = {slugify("!!!") + ".html", slugify("???") + ".html"}
    assert len(fallbacks) == 2 and fallbacks <= pages


def test_names_in_other_scripts_with_nothing_to_spell_keep_distinct_fallbacks():
    """An em dash and an en dash both transliterate to a hyphen: each still gets a name of its own."""
    from generator.site import slugify
    assert slugify("—") != slugify("–") and slugify("—") == slugify("—")
    assert {slugify("—"), slugify("–")}.isdisjoint({slugify("-"), slugify("!!!")})


def test_an_empty_tag_is_an_error(basic_site, capsys):
    write_post(basic_site, 'title: x\ntags: [compilers, ""]\n')
    assert main(["-C", str(basic_site), "build"]) == 1
    message = capsys.readouterr().err
    assert "content/posts/2020-01-01-new.md" in message and "key 'tags'" in message, message


@pytest.mark.parametrize("line", ['draft: "false"', "draft: 0", "published: \"no\"", "draft: [false]"])
def test_draft_must_be_true_or_false(basic_site, capsys, line):
    write_post(basic_site, f"title: x\n{line}\n")
    assert main(["-C", str(basic_site), "build"]) == 1
    message = capsys.readouterr().err
    key = line.split(":")[0]
    assert "content/posts/2020-01-01-new.md" in message and f"key '{key}'" in message, message
    assert "true or false" in message


def outside_file(tmp_path: Path, name: str, text: str) -> Path:
    outside = tmp_path / "elsewhere"
    outside.mkdir(exist_ok=True)
    (outside / name).write_text(text)
    return outside / name


@pytest.mark.parametrize("link, target", [
    ("content/posts/2020-01-01-linked.md", "2020-01-01-linked.md"),
    ("assets/secret.txt", "secret.txt"),
    ("content/data/people.yml", "people.yml"),
    ("content/pages/more", "."),              # a linked folder: every file in it is outside
])
def test_a_symlink_out_of_the_site_is_refused_by_name(basic_site, tmp_path, capsys, link, target):
    assert main(["-C", str(basic_site), "build"]) == 0
    before = snapshot(basic_site / "_site")
    capsys.readouterr()
    outside_file(tmp_path, "2020-01-01-linked.md", "---\ntitle: Linked\n---\nprivate\n")
    outside_file(tmp_path, "secret.txt", "private\n")
    outside_file(tmp_path, "people.yml", "- private\n")
    (basic_site / link).symlink_to(tmp_path / "elsewhere" / target)

    assert main(["-C", str(basic_site), "build"]) == 1
    message = capsys.readouterr().err
    assert message.startswith(f"error: {link}") and "outside the site" in message, message
    assert "allow_symlinks_outside" in message and message.count("\n") == 1
    assert snapshot(basic_site / "_site") == before

    with (basic_site / "site.yaml").open("a") as config:
        config.write("allow_symlinks_outside: true\n")
    assert main(["-C", str(basic_site), "build"]) == 0


def test_a_symlink_within_the_site_is_followed(basic_site):
    (basic_site / "assets/logo-again.css").symlink_to(next((basic_site / "assets/css").iterdir()))
    assert main(["-C", str(basic_site), "build"]) == 0
    assert (basic_site / "_site/assets/logo-again.css").is_file()


def test_check_without_the_html_checker_says_once_it_was_skipped_and_publish_refuses(
        basic_site, tmp_path, capsys, monkeypatch):
    from generator.check import require_clean
    from generator.configure import load_config

    with (basic_site / "site.yaml").open("a") as config:
        config.write("check:\n  html: true\n")
    monkeypatch.setenv("SITEGEN_VNU_JAR", str(tmp_path / "no-such-vnu.jar"))   # as after `make site`
    assert main(["-C", str(basic_site), "build"]) == 0
    capsys.readouterr()

    assert main(["-C", str(basic_site), "check"]) == 0
    captured = capsys.readouterr()
    skipped = [line for line in (captured.out + captured.err).splitlines() if "skipped" in line]
    assert len(skipped) == 1 and skipped[0].startswith("HTML validation skipped: "), captured
    assert "no-such-vnu.jar" in skipped[0] and "setup-test-tools" in skipped[0]

    with pytest.raises(SiteError, match="Nu Html Checker") as refused:
        require_clean(load_config(basic_site), basic_site / "_site")
    assert "nothing was published" in str(refused.value)


def test_inline_script_and_style_are_not_smartened(basic_site):
    write_post(basic_site, "title: x\n",
               'Count <script>var s = "it\'s"; if (a*b*c) t = \'--\';</script> and '
               '<style>p::before { content: "--"; }</style> "quoted" -- text.\n')
    assert main(["-C", str(basic_site), "build"]) == 0
    html = (basic_site / "_site/2020/01/01/new.html").read_text()
    assert '<script>var s = "it\'s"; if (a*b*c) t = \'--\';</script>' in html
    assert '<style>p::before { content: "--"; }</style>' in html
    assert "&ldquo;quoted&rdquo; &ndash; text." in html


def test_a_missing_include_names_the_template_line(basic_site, capsys):
    path = own_template(basic_site, "post.html")    # the default theme's, made the site's own
    lines = path.read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if "<h1>{{ page.title }}</h1>" in line)
    lines.insert(at + 1, '{% include "no-such-part.html" %}\n')
    path.write_text("".join(lines))
    assert main(["-C", str(basic_site), "build"]) == 1
    message = capsys.readouterr().err
    assert message.startswith(f"error: templates/post.html:{at + 2}: template 'no-such-part.html' not found")
    assert "(while rendering content/posts/" in message
