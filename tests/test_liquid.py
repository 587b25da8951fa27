"""Liquid in posts and pages, as Jekyll runs it: before Markdown, with Jekyll's tags and
filters; anything unknown is an error (or a named warning), never text on the page.
An edit to what a render read (an include, a data file, a listed post) makes it again."""

from __future__ import annotations

import shutil
from datetime import datetime, timezone
from pathlib import Path

import pytest

from generator.build import BuildOptions, build
from generator.cli import main
from generator.errors import SiteError
from tests.test_incremental import assert_same_as_full_build, make_site

OPTIONS = BuildOptions(now=datetime(2030, 1, 1, tzinfo=timezone.utc))


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return make_site(tmp_path / "site")


def write(site: Path, relpath: str, text: str) -> Path:
    path = site / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def post(site: Path, name: str, body: str, front: str = "") -> Path:
    return write(site, f"content/posts/{name}.md", f"---\ntitle: {name}\n{front}---\n{body}")


def built(site: Path, relpath: str) -> str:
    return (site / "_site" / relpath).read_text()


def test_highlight_takes_the_first_word_as_language_and_keeps_the_order(site: Path) -> None:
    post(site, "2021-01-01-code", "Before the code.\n{% highlight Plain Text %}\n$ python x.py\n{% endhighlight %}\n"
         "After the code.\n\n{% highlight python linenos %}\nx = 1\n{% endhighlight %}\n")
    build(site, OPTIONS)
    html = built(site, "2021/01/01/code.html")
    assert "{%" not in html and "Plain Text" not in html
    assert html.index("Before the code.") < html.index("$ python x.py") < html.index("After the code.")
    assert "<p>Before the code.</p>" in html and "<p>After the code.</p>" in html
    assert 'class="linenos"' in html and '<span class="n">x</span>' in html


def test_include_raw_page_and_site_variables(site: Path) -> None:
    write(site, "content/includes/JB/setup", "")
    write(site, "content/includes/note.html", '<aside class="note">{{ include.text }} on {{ page.title }}</aside>\n')
    post(site, "2021-01-02-vars", "{% include JB/setup %}\nOn {{ site.title }}: {{ page.title }} at {{ page.url }}.\n\n"
         '{% include note.html text="Careful" %}\n\n{% raw %}{{ not liquid }}{% endraw %}\n\n'
         "[home]({{ '/about.html' | relative_url }}) {{ page.date | date_to_string }}\n")
    build(site, OPTIONS)
    html = built(site, "2021/01/02/vars.html")
    assert "On Test Site: 2021-01-02-vars at /2021/01/02/vars.html." in html
    assert '<aside class="note">Careful on 2021-01-02-vars</aside>' in html
    assert "{{ not liquid }}" in html and "{%" not in html
    assert 'href="/about.html"' in html and "02 Jan 2021" in html


def test_post_url_and_link_give_the_published_urls(site: Path) -> None:
    post(site, "2021-01-03-target", "Target.\n", front="permalink: /moved/target.html\n")
    post(site, "2021-01-04-source", "[a]({% post_url 2021-01-03-target %}) [b]({% link _posts/2021-01-03-target.md %}) "
         "[c]({% link about.md %})\n")
    build(site, OPTIONS)
    html = built(site, "2021/01/04/source.html")
    assert '<a href="/moved/target.html">a</a> <a href="/moved/target.html">b</a>' in html
    assert '<a href="/about.html">c</a>' in html


def test_a_page_loops_over_site_posts_and_data(site: Path) -> None:
    write(site, "content/pages/list.html", "---\ntitle: List\n---\n<ul>{% for p in site.posts %}"
          '<li class="p"><a href="{{ p.url }}">{{ p.title }}</a></li>{% endfor %}</ul>\n'
          "{% for m in site.data.team.members %}<i>{{ m }}</i>{% endfor %}\n")
    build(site, OPTIONS)
    html = built(site, "list.html")
    assert html.count('<li class="p">') == 3 and '<a href="/2021/01/02/third.html">Third post</a>' in html
    assert "<i>Ada</i><i>Grace</i>" in html and "{%" not in html


def test_a_post_in_site_posts_shows_its_front_matter_as_jekyll_does(site: Path) -> None:
    # Found on Apache Calcite's downloads page: {{ post.version }} of each release post.
    post(site, "2021-02-01-release", "Released.\n", front="version: 1.2.0\ncategories: [release]\n")
    write(site, "content/pages/releases.html", "---\ntitle: Releases\n---\n"
          "{% for p in site.categories.release %}<b>{{ p.version }}|{{ p.title }}</b>{% endfor %}\n")
    build(site, OPTIONS)
    assert "<b>1.2.0|2021-02-01-release</b>" in built(site, "releases.html")


@pytest.mark.parametrize("tag, written", [
    ("{% include item.html %}", "<b>item</b>"),
    ("{% post_url 2021-01-02-third %}", "/2021/01/02/third.html"),
    ("{% link about.md %}", "/about.html"),
    ("{% highlight python %}\nx = 1\n{% endhighlight %}", '<span class="n">x</span>'),
])
def test_a_jekyll_tag_alone_in_a_loop_or_condition_is_written(site: Path, tag: str, written: str) -> None:
    # Found on Apache Calcite's news pages: {% for post in ... %} {% include news_item.html %} {% endfor %}
    # came out empty, python-liquid taking the tag for one that writes nothing.
    write(site, "content/includes/item.html", "<b>item</b>")
    write(site, "content/pages/blank.html", f"---\ntitle: Blank\n---\n<section>{{% for i in (1..2) %}}\n  {tag}\n"
          f"{{% endfor %}}{{% if true %}}\n  {tag}\n{{% endif %}}</section>\n")
    build(site, OPTIONS)
    section = built(site, "blank.html").split("<section>")[1].split("</section>")[0]
    assert section.count(written) == 3


@pytest.mark.parametrize("body, line, message", [
    ("Fine.\n\n{% gallery x %}\n", 7, "unexpected tag 'gallery'"),
    ("Fine.\n{{ page.title | shout }}\n", 6, "unknown filter 'shout'"),
    ("{{ site.github.url }}\n", 5, "unknown variable site.github"),
    ("{% include missing.html %}\n", 5, "include 'missing.html'"),
    ("{% post_url 1999-01-01-nothing %}\n", 5, "post_url"),
    ("{% if x %}\nopen\n", 5, "expected tag endif"),    # the block never closed: at its tag
])
def test_unknown_liquid_is_an_error_at_its_line(site: Path, capsys, body: str, line: int, message: str) -> None:
    post(site, "2021-01-05-bad", body, front="author: A\n")
    with pytest.raises(SiteError) as info:
        build(site, OPTIONS)
    assert info.value.path == "content/posts/2021-01-05-bad.md"
    assert info.value.line == line and message in info.value.message
    assert main(["-C", str(site), "build"]) == 1
    assert "content/posts/2021-01-05-bad.md" in capsys.readouterr().err
    assert not (site / "_site").exists()


def test_unknown_liquid_may_be_a_named_warning(site: Path, capsys) -> None:
    config = site / "site.yaml"
    config.write_text(config.read_text() + "liquid:\n  unknown: warning\n")
    post(site, "2021-01-05-warn", "Fine.\n\n{% gallery x %}\n{{ 1 | shout }}\n")
    write(site, "content/pages/list.html", "---\ntitle: List\n---\n{% for p in site.posts %}{{ p.title | shout }}{% endfor %}\n")
    assert main(["-C", str(site), "build"]) == 0
    err = capsys.readouterr().err
    assert "content/posts/2021-01-05-warn.md:6: warning: Liquid: unexpected tag 'gallery' left out" in err
    assert "content/posts/2021-01-05-warn.md:7: warning: Liquid: unknown filter 'shout' left out" in err
    assert "content/pages/list.html:4: warning: Liquid: unknown filter 'shout' left out" in err
    html = built(site, "2021/01/05/warn.html")
    assert "{%" not in html and "gallery" not in html


def test_site_posts_in_a_post_lists_them_as_jekyll_does(site: Path, capsys) -> None:
    """A post may list the site's posts, itself among them; a feed reading its body is told it is empty."""
    post(site, "2021-01-06-list", "{% for p in site.posts %}{{ p.title }};{% endfor %}\n")
    write(site, "content/pages/bodies.html", "---\ntitle: Bodies\n---\n"
          "{% for p in site.posts %}{{ p.content }}{% endfor %}\n")
    assert main(["-C", str(site), "build"]) == 0
    assert "2021-01-06-list;" in built(site, "2021/01/06/list.html")
    assert ("content/posts/2021-01-06-list.md: warning: its Liquid lists the site's documents, so its body is "
            "rendered on its own page only") in capsys.readouterr().err


def test_liquid_settings_are_validated(site: Path) -> None:
    config = site / "site.yaml"
    config.write_text(config.read_text() + "liquid:\n  unknown: ignore\n")
    with pytest.raises(SiteError, match="liquid.unknown"):
        build(site, OPTIONS)


def test_edits_to_what_liquid_read_make_the_page_again(site: Path) -> None:
    write(site, "content/includes/note.html", "<aside>first note</aside>\n")
    post(site, "2021-01-07-inc", "{% include note.html %}\n\n{{ site.data.team.members | size }} people\n")
    post(site, "2021-01-03-target", "Target.\n")
    post(site, "2021-01-08-ref", "[t]({% post_url 2021-01-03-target %})\n")
    write(site, "content/pages/list.html", "---\ntitle: List\n---\n{% for p in site.posts %}{{ p.title }};{% endfor %}\n"
          "{% include note.html %}\n")
    build(site, OPTIONS)

    write(site, "content/includes/note.html", "<aside>second note</aside>\n")
    result = build(site, OPTIONS)
    assert "second note" in built(site, "2021/01/07/inc.html")
    assert "2021/01/07/inc.html" in result.written and "2021/01/08/ref.html" not in result.written
    assert "second note" in built(site, "list.html")   # a listing page, rendered with the site
    assert_same_as_full_build(site)

    team = site / "content/data/team.yml"
    team.write_text(team.read_text() + "  - Someone New\n")
    build(site, OPTIONS)
    assert "3 people" in built(site, "2021/01/07/inc.html")
    assert_same_as_full_build(site)

    target = site / "content/posts/2021-01-03-target.md"
    target.write_text(target.read_text().replace("title: 2021-01-03-target\n", "title: Renamed\npermalink: /t.html\n"))
    result = build(site, OPTIONS)
    assert 'href="/t.html"' in built(site, "2021/01/08/ref.html")
    assert "Renamed;" in built(site, "list.html")
    assert_same_as_full_build(site)

    shutil.rmtree(site / ".sitegen")     # a new process: the disk cache checks the include too
    write(site, "content/includes/note.html", "<aside>third note</aside>\n")
    build(site, OPTIONS)
    assert "third note" in built(site, "2021/01/07/inc.html")


def test_an_error_inside_an_include_names_the_include(site: Path) -> None:
    write(site, "content/includes/broken.html", "fine\n{{ 1 | shout }}\n")
    post(site, "2021-01-09-uses", "{% include broken.html %}\n")
    with pytest.raises(SiteError) as info:
        build(site, OPTIONS)
    assert (info.value.path, info.value.line) == ("content/includes/broken.html", 2)


def test_a_syntax_error_inside_an_include_names_the_include(site: Path) -> None:
    write(site, "content/includes/odd.html", "fine\n\n{{ 1 | plus 2 }}\n")
    post(site, "2021-01-09-uses", "Text.\n\n{% include odd.html %}\n")
    with pytest.raises(SiteError) as info:
        build(site, OPTIONS)
    assert (info.value.path, info.value.line) == ("content/includes/odd.html", 3)


@pytest.mark.parametrize("mistake", ["{% for y in (1..3 %}{{ y }}{% endfor %}", "{% if (1 %}x{% endif %}",
                                     "{{ (1..2 }}"])
@pytest.mark.parametrize("in_include", [False, True])
@pytest.mark.parametrize("unknown", ["error", "warning"])
def test_a_mistake_inside_an_expression_names_its_tag_line(site: Path, mistake: str, in_include: bool,
                                                           unknown: str) -> None:
    """python-liquid gives such a mistake no place of its own: it is the tag's. With unknown
    constructs warned of (an imported site's default) it is still an error, at the same place."""
    config = site / "site.yaml"
    config.write_text(config.read_text() + f"liquid:\n  unknown: {unknown}\n")
    text = f"fine\n\n{{% for x in page.items %}}\n  {{{{ x }}}}\n{{% endfor %}}\n{mistake}\n"
    if in_include:
        write(site, "content/includes/loop.html", text)
        post(site, "2021-01-09-uses", "Text.\n\n{% include loop.html %}\n", front="items: [a]\n")
        where = ("content/includes/loop.html", 6)
    else:
        post(site, "2021-01-09-uses", text, front="items: [a]\n")
        where = ("content/posts/2021-01-09-uses.md", 10)
    with pytest.raises(SiteError) as info:
        build(site, OPTIONS)
    assert (info.value.path, info.value.line) == where


def test_highlight_in_an_html_page_is_highlighted_html(site: Path) -> None:
    write(site, "content/pages/snippet.html", "---\ntitle: Snippet\n---\n<p>Code:</p>\n"
          "{% highlight python %}\nx = 1\n{% endhighlight %}\n")
    build(site, OPTIONS)
    html = built(site, "snippet.html")
    assert '<div class="highlight" tabindex="0" role="group" aria-label="Python code"><pre>' in html
    assert '<span class="n">x</span>' in html
    assert "```" not in html and "{%" not in html


def test_highlight_linenos_in_an_html_page_numbers_the_lines(site: Path) -> None:
    write(site, "content/pages/numbered.html", "---\ntitle: Numbered\n---\n"
          "{% highlight python linenos %}\nx = 1\ny = 2\n{% endhighlight %}\n")
    build(site, OPTIONS)
    html = built(site, "numbered.html")
    assert '<table class="highlighttable"><tr><td class="linenos">' in html
    assert '<span class="normal">1</span>' in html and '<span class="normal">2</span>' in html


class _PageThatWarns(dict):
    """A page whose lookup raises an unrelated warning, as a loop collected mid-render does."""

    def __getitem__(self, key: str):
        import warnings
        warnings.warn("unclosed event loop <_UnixSelectorEventLoop>", ResourceWarning)
        return super().__getitem__(key)


@pytest.mark.parametrize("unknown", ["error", "warning"])
def test_a_warning_from_elsewhere_is_not_taken_for_liquid(tmp_path: Path, unknown: str) -> None:
    """A ResourceWarning raised while a post renders (the GC closing another test's event loop, in
    CI) is passed on as it is; it neither fails the post nor becomes one of its warnings."""
    from generator.config import LiquidSettings
    from generator.liquid import Render, environment, render_liquid

    render = Render(tmp_path, Path("content/posts/2020-01-01-x.md"), 4, True, unknown, lambda p: "/")
    with pytest.warns(ResourceWarning, match="unclosed event loop"):
        result = render_liquid("Hello {{ page.title }}{% nosuchtag %}" if unknown == "warning"
                               else "Hello {{ page.title }}", environment(LiquidSettings(unknown)), render,
                               _PageThatWarns(title="World"))
    assert result.text.startswith("Hello World")
    assert all("unclosed" not in w for w in result.warnings)
    assert len(result.warnings) == (1 if unknown == "warning" else 0)
