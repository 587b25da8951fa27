"""Constructs that stopped apache/storm-site and apache/drill-site (benchmarks/whole_sites.toml)
from building, each in a small site written here, built by real Jekyll and by sitegen after the
import, the pages compared."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from generator.build import build
from generator.cli import main
from generator.importers.jekyll import import_jekyll
from test_import_jekyll import _built_by_both, _page, needs_jekyll
from test_import_polyglot import body, needs_polyglot, write_site

CONFIG = "title: Small\nurl: https://small.example\ntimezone: UTC\n"
HTML = "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"


@needs_jekyll
def test_an_output_starting_with_a_dot_is_read_without_it_as_in_jekyll(tmp_path, capsys) -> None:
    # As storm-site's Docker-support.md: `docker inspect --format '{{.State.Pid}}'` in its text.
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\nRun docker inspect -f {{.State.Pid}} c; "
                    "{{ .page.title }} of {{-.site.title}}.\n"}, CONFIG)
    assert "inspect -f  c; About ofSmall." in (old / "about.html").read_text()
    assert _page(new, "about.html") == _page(old, "about.html")
    shutil.rmtree(tmp_path / "new/.sitegen")
    assert main(["-C", str(tmp_path / "new"), "build"]) == 0
    assert "warning: Liquid: {{.State.Pid}} read without its first '.'" in capsys.readouterr().err


POLYGLOT = """\
title: Poly
url: https://poly.example.org
timezone: UTC
permalink: pretty
plugins: [jekyll-polyglot]
languages: ["en", "zh"]
default_lang: "en"
lang_from_path: true
parallel_localization: false
collections:
  docs:
    output: true
    permalink: /docs/:slug/
"""

LAYOUT = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
          "<h1>{{ page.title }}</h1><p>{{ site.active_lang }} {{ page.url }}</p>{{ content }}</body></html>\n")


@needs_polyglot
def test_posts_and_documents_in_another_language_are_published_under_it_as_polyglot_does(tmp_path: Path) -> None:
    # As drill-site's blog/_posts/zh/ (`lang: zh`) beside blog/_posts/en/, and its _docs/en/ and
    # _docs/zh/ giving the same slug; two of its English docs give one slug too: the first is kept.
    source = write_site(tmp_path / "src", {
        "_layouts/default.html": LAYOUT,
        "blog/_posts/en/2021-06-10-released.md": "---\nlayout: default\ntitle: Released\n---\nOut now.\n",
        "blog/_posts/zh/2021-06-10-released.md": "---\nlayout: default\ntitle: 发布\nlang: zh\n---\n现已发布。\n",
        "blog/_posts/en/2021-07-01-later.md": "---\nlayout: default\ntitle: Later\n---\nMore.\n",
        "_docs/en/010-tutorials.md": "---\nlayout: default\ntitle: Tutorials\nslug: Tutorials\n---\nLearn.\n",
        "_docs/en/020-notes.md": "---\nlayout: default\ntitle: Notes one\nslug: Notes\n---\nFirst.\n",
        "_docs/en/030-notes.md": "---\nlayout: default\ntitle: Notes two\nslug: Notes\n---\nSecond.\n",
        "_docs/zh/010-tutorials.md": "---\nlayout: default\ntitle: 教程\nslug: Tutorials\n---\n学习。\n",
    }, POLYGLOT)
    (tmp_path / "extra.yml").write_text("whitelist: [jekyll-polyglot]\n")
    subprocess.run(["jekyll", "build", "--safe", "--quiet", "-s", ".", "-d", str(tmp_path / "old"),
                    "--config", f"_config.yml,{tmp_path / 'extra.yml'}"], check=True, capture_output=True, cwd=source)
    import_jekyll(source, tmp_path / "site")
    build(tmp_path / "site")
    old, new = tmp_path / "old", tmp_path / "site/_site"
    assert "现已发布" in (old / "zh/blog/2021/06/10/released/index.html").read_text()
    assert "Second" not in (old / "docs/notes/index.html").read_text()
    for page in ("blog/2021/06/10/released/index.html", "zh/blog/2021/06/10/released/index.html",
                 "blog/2021/07/01/later/index.html", "docs/tutorials/index.html", "zh/docs/tutorials/index.html",
                 "docs/notes/index.html", "zh/docs/notes/index.html"):
        assert body(new / page) == body(old / page), page


@needs_jekyll
def test_a_data_file_no_data_folder_holds_is_nil_in_a_layout_as_in_jekyll(tmp_path) -> None:
    # As storm-site's header: `{% for r in site.data.releases %}`, data its _plugins/releases.rb
    # makes (no plugin of the site's own runs in Jekyll's --safe, nor in sitegen).
    layout = (HTML + "<ul>{% for r in site.data.releases %}<li>{{ r.name }}</li>{% endfor %}</ul>"
              "[{{ site.data.none.name }}|{{ site.data.meetups.first.city }}]{{ content }}</body></html>\n")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "_data/meetups.yml": "- city: Paris\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\nA.\n"}, CONFIG)
    assert "<ul></ul>[|Paris]" in (old / "about.html").read_text()
    assert _page(new, "about.html") == _page(old, "about.html")


@needs_jekyll
def test_page_relative_path_is_the_documents_source_as_in_jekyll(tmp_path) -> None:
    # As drill-site's docpage layout: an edit link to `.../blob/master/{{ page.relative_path }}`.
    layout = (HTML + '{% if page.relative_path %}<a class="edit" href="https://git.example/{{ page.relative_path }}">'
              "edit</a>{% endif %}{{ content }}</body></html>\n")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "_docs/en/intro.md": "---\nlayout: default\ntitle: Intro\n---\nIn.\n",
        "blog/_posts/2021-06-10-out.md": "---\nlayout: default\ntitle: Out\n---\nOut.\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\nA.\n"},
        CONFIG + "collections:\n  docs:\n    output: true\n    permalink: /docs/:path/\n")
    assert 'href="https://git.example/_docs/en/intro.md"' in (old / "docs/en/intro/index.html").read_text()
    for page in ("docs/en/intro/index.html", "blog/2021/06/10/out.html", "about.html"):
        assert _page(new, page) == _page(old, page), page


@needs_jekyll
def test_the_size_of_nil_is_nil_and_nil_is_in_no_order_as_in_jekyll(tmp_path) -> None:
    # As drill-site's docpage layout: `{% if page_data.children.size == 0 %}` with page_data nil (a
    # plugin's data) is false in Jekyll, which shows the empty children list, not the content.
    layout = (HTML + "{% assign page_data = site.data.none %}"
              "<p>[{% if page_data.children.size == 0 %}zero{% else %}not{% endif %}|{{ page_data.children.size }}]"
              "[{% if page.missing.size > 0 %}pos{% endif %}{% if page.missing < 3 %}lt{% endif %}"
              "{% if 3 >= page.missing %}ge{% endif %}{% if page.flag > 0 %}flag{% endif %}"
              "{% if page.list > 0 %}list{% endif %}{% if page.missing.size %}some{% endif %}]"
              "[{{ page.list.size }} {{ page.h.size }} {{ page.word.size }} {{ page.missing | size }}"
              "{% if page.word.size >= 4 %} long{% endif %}{% if page.list.size != 0 %} listed{% endif %}]</p>"
              "{{ content }}</body></html>\n")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "about.md": "---\nlayout: default\ntitle: About\nflag: true\nlist: [a, b]\nh: {size: 7, x: 1}\n"
                    "word: abcd\n---\nA.\n"}, CONFIG)
    assert "<p>[not|][][2 7 4 0 long listed]</p>" in (old / "about.html").read_text()
    assert _page(new, "about.html") == _page(old, "about.html")


@needs_polyglot
def test_posts_are_coordinated_in_each_language_and_listed_in_theirs_as_polyglot_does(tmp_path: Path, capsys) -> None:
    # As drill-site's blog: 48 English posts and one Chinese translation. Polyglot's zh build
    # publishes each English post under /zh/ too (its fallback), the translation in its place;
    # each language's site.posts (and site.categories) holds that language's version of each URL.
    listing = ("---\nlayout: default\ntitle: Blog\n---\n<ul>{% for post in site.categories.blog %}"
               '<li><a href="{{ post.url }}">{{ post.title }}</a></li>{% endfor %}</ul>'
               "<p>{{ site.posts.size }} {{ site.posts[0].title }} {{ site.categories.blog[1].title }}</p>\n")
    source = write_site(tmp_path / "src", {
        "_layouts/default.html": LAYOUT.replace("{{ content }}", "{{ content }}<aside>{% for post in site.posts "
                                                "limit:2 %}{{ post.title }},{% endfor %}{{ site.categories.blog.size }}"
                                                "</aside>"),
        "blog.html": listing,
        "blog/_posts/en/2021-06-10-released.md": "---\nlayout: default\ntitle: Released\n---\nOut now.\n",
        "blog/_posts/zh/2021-06-10-released.md": "---\nlayout: default\ntitle: 发布\nlang: zh\n---\n现已发布。\n",
        "blog/_posts/en/2021-07-01-later.md": "---\nlayout: default\ntitle: Later\n---\nMore.\n",
        "blog/_posts/zh/2021-08-01-only.md": "---\nlayout: default\ntitle: 只有\nlang: zh\n---\n只有中文。\n",
    }, POLYGLOT)
    (tmp_path / "extra.yml").write_text("whitelist: [jekyll-polyglot]\n")
    subprocess.run(["jekyll", "build", "--safe", "--quiet", "-s", ".", "-d", str(tmp_path / "old"),
                    "--config", f"_config.yml,{tmp_path / 'extra.yml'}"], check=True, capture_output=True, cwd=source)
    import_jekyll(source, tmp_path / "site")
    assert main(["-C", str(tmp_path / "site"), "build"]) == 0
    assert "warning" not in capsys.readouterr().err
    old, new = tmp_path / "old", tmp_path / "site/_site"
    pages = sorted(path.relative_to(old).as_posix() for path in old.rglob("*.html"))
    assert "zh/blog/2021/07/01/later/index.html" in pages and "blog/2021/08/01/only/index.html" in pages
    assert "发布" in (old / "zh/blog/index.html").read_text() and "发布" not in (old / "blog/index.html").read_text()
    assert "<aside>只有,Later,3</aside>" in (old / "zh/blog/2021/06/10/released/index.html").read_text()
    assert sorted(path.relative_to(new).as_posix() for path in new.rglob("*.html")
                  if path.name != "404.html") == pages
    for page in pages:
        assert body(new / page) == body(old / page), page
