"""Liquid layouts converted to Jinja: each construct renders, in sitegen's Jinja environment
(StrictUndefined), what Liquid rendered; what has no equivalent is a note at its line."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace

import pytest

from markupsafe import Markup

from generator.config import Config
from generator.importers.liquid import convert_template
from generator.render import Renderer

CONFIG = {"title": "T", "url": "https://example.org", "production_url": "https://tvm.apache.org", "JB": {"version": "0.3.0"}}   # the site of Renderer(Config(...)) below
PAGE = SimpleNamespace(title="A & B", url="/a.html", date=datetime(2017, 8, 2, tzinfo=timezone.utc),
                       kind="post", tags=[], categories=["news"], content="", layout="post",
                       meta={"author": "Ann", "order": 3})
POSTS = [SimpleNamespace(title=f"Post {n}", url=f"/p{n}.html", meta={}) for n in range(1, 6)]
DATA = {"menus": [{"name": "Home", "link": "/"}, {"name": "Docs"}]}


def render(tmp_path: Path, templates: dict[str, str], name: str = "t.html", baseurl: str = "") -> str:
    for path, text in templates.items():
        (tmp_path / "templates" / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "templates" / path).write_text(text)
    renderer = Renderer(Config(title="T", url="https://example.org", baseurl=baseurl, root=tmp_path))
    site = {"title": "T", "url": "https://example.org", "baseurl": baseurl, "posts": POSTS, "data": DATA,
            "pages": [], "tags": {"tvm": POSTS[:2]}}
    return renderer.render(name, {"page": PAGE, "site": site, "content": Markup("<p>C</p>")})


def convert(text: str, **options) -> str:
    jinja, notes = convert_template(text, "_layouts/t.html", CONFIG, **options)
    assert notes == [], notes
    return jinja


@pytest.mark.parametrize("liquid, expected", [
    ("{{ page.title | escape }}", "A &amp; B"),
    ("{{ page.title | xml_escape }}", "A &amp; B"),
    ('{{ page.date | date: "%b %-d, %Y" }}', "Aug 2, 2017"),
    ("{{ page.date | date_to_xmlschema }}", "2017-08-02T00:00:00+00:00"),
    ("{{ page.date | date_to_string }}", "02 Aug 2017"),
    ("{{ page.author }}|{{ page.nothing }}|", "Ann||"),                        # front matter, missing = nothing
    ("{% if page.description %}d{% endif %}", ""),         # only the front matter's, as in Jekyll
    ("{% if page.nothing %}x{% elsif page.author %}a{% else %}y{% endif %}", "a"),
    ("{% unless page.tags == empty %}t{% endunless %}{% if page.nothing == nil %}nil{% endif %}", "nil"),
    ("{% if page.categories contains 'news' and page.order > 2 %}yes{% endif %}", "yes"),
    ("{% for post in site.posts limit:2 offset:1 %}{{ forloop.index }}{{ post.title }}"
     "{% if forloop.last %}.{% endif %}{% endfor %}", "1Post 22Post 3."),
    ("{% for post in site.posts reversed limit:2 %}{{ post.title }},{% endfor %}", "Post 2,Post 1,"),
    ("{% for post in site.tags['tvm'] %}{{ post.url }} {{ post.institution }}|{% endfor %}", "/p1.html |/p2.html |"),
    ("{% for i in (1..3) %}{{ i }}{% else %}none{% endfor %}", "123"),
    ("{% for m in site.data.menus %}{{ m.name }}={{ m.link }};{% endfor %}", "Home=/;Docs=;"),
    ("{% case page.layout %}{% when 'page' %}P{% when 'post', 'news' %}N{% else %}?{% endcase %}", "N"),
    ("{% assign n = site.posts | size %}{{ n }} {{ site.posts.size }} {{ site.posts.first.title }}", "5 5 Post 1"),
    ("{% capture who %}by {{ page.author | upcase }}{% endcapture %}{{ who }}", "by ANN"),
    # A name with a '-' is one name in Liquid (accumulo-website's footer-include), not a subtraction.
    ("{% capture footer-include %}by {{ page.author }}{% endcapture %}{% assign n-1 = 2 %}{{ footer-include }}{{ n-1 }}",
     "by Ann2"),
    ("{{ '/css/a.css' | relative_url }} {{ page.url | absolute_url }}", "/tvm/css/a.css https://example.org/tvm/a.html"),
    ("{{ page.categories | jsonify }} {{ page.categories | join: ', ' }}", '["news"] news'),
    ("{{ site.production_url }} {{ site.title }}", "https://tvm.apache.org T"),
    ("{{ page.nothing | default: 'none' }}", "none"),
    ("{% raw %}{{ kept }}{% endraw %}{% comment %}gone {{ x }}{% endcomment %}", "{{ kept }}"),
    ("a {# b {{ page.title }}", "a {# b A & B"),     # not a Jinja comment: Liquid prints it as text, unescaped
    ("{{- page.author -}} !", "Ann!"),
    # Text Jinja would read as a tag is written as text.
    ("a{{% if true %}b{% endif %}{", "a{b{"),      # a '{' before a tag the converter writes
    # A key is a key, and only a key: a number as it is, one known when rendering as an item.
    ("{{ site.data.menus[0].name }} {% assign i = 1 %}{{ site.data.menus[i].name }}", "Home Docs"),
])
def test_each_construct_renders_as_liquid_did(tmp_path, liquid, expected) -> None:
    assert render(tmp_path, {"t.html": convert(liquid)}, baseurl="/tvm") == expected


def test_includes_become_partials_with_their_parameters(tmp_path) -> None:
    layout = convert('{% include header.html %}|{% include note.html kind="tip" who=page.author %}')
    header, _ = convert_template("H:{{ page.title }}", "_includes/header.html", CONFIG, lenient=True)
    note, _ = convert_template("{{ include.kind }} by {{ include.who }}", "_includes/note.html", CONFIG,
                               lenient=True)
    assert render(tmp_path, {"t.html": layout, "partials/header.html": header,
                             "partials/note.html": note}) == "H:A & B|tip by Ann"    # Liquid escapes nothing


def test_a_layout_chain_becomes_extends_and_blocks(tmp_path) -> None:
    """post -> page -> default, each placing the one below it where it says {{ content }}."""
    default = convert("<html>{{ content }}</html>", blocks="content_default")
    page = convert("<main>{{ content }}</main>", parent="default", blocks="content_page")
    post = convert("<article>{{ content }}</article>", parent="page")
    templates = {"default.html": default, "page.html": page, "post.html": post}
    assert render(tmp_path, templates, "post.html").strip() == "<html><main><article><p>C</p></article></main></html>"
    assert render(tmp_path, templates, "page.html").strip() == "<html><main><p>C</p></main></html>"


@pytest.mark.parametrize("liquid, line, construct, action", [
    ("a\n{% tablerow p in site.posts %}{% endtablerow %}", 2, "{% tablerow p in site.posts %}", "Jinja for loop"),
    ("{{ site.posts | find_exp: 'p', 'p.year' }}", 1, "{{ site.posts | find_exp: 'p', 'p.year' }}",
     "filter 'find_exp'"),
    ("{{ jekyll.version }}", 1, "{{ jekyll.version }}", "'jekyll' has no equivalent"),
    ("{% include {{ page.inc }} %}", 1, "{% include {{ page.inc }} %}", "name the file"),
    ("{% break %}", 1, "{% break %}", "outside of a for loop"),
    ("{% post_url 2010-07-21-name %}", 1, "{% post_url 2010-07-21-name %}", "permalink"),
])
def test_what_has_no_equivalent_is_a_note_and_the_template_still_renders(tmp_path, liquid, line, construct,
                                                                          action) -> None:
    jinja, notes = convert_template(liquid, "_layouts/t.html", CONFIG)
    assert [(n.path, n.line, n.construct) for n in notes][:1] == [("_layouts/t.html", line, construct)]
    assert action in notes[0].action
    assert "{{" not in render(tmp_path, {"t.html": jinja}) and "{%" not in render(tmp_path, {"t.html": jinja})


def test_an_unconverted_condition_hides_what_it_guarded_and_keeps_blocks_balanced(tmp_path) -> None:
    jinja, notes = convert_template("{% if jekyll.version %}P{% elsif page.author %}A{% endif %}|"
                                    "{% for x in site.posts cols:2 %}X{% endfor %}|"
                                    "{% if page.author %}A{% elsif jekyll %}P{% else %}E{% endif %}",
                                    "_layouts/t.html", CONFIG)
    assert len(notes) == 3
    assert render(tmp_path, {"t.html": jinja}) == "A||A"   # the elsif was converted: it still decides


def test_sorting_and_filtering_pages_goes_by_their_front_matter(tmp_path) -> None:
    pages = [SimpleNamespace(title=t, meta={"order": o, "group": g}) for t, o, g in
             [("B", 2, "nav"), ("A", 1, "nav"), ("C", 0, "other")]]
    jinja = convert('{% assign listed = site.pages | sort: "order" %}{% for p in listed %}'
                    '{% if p.group == "nav" %}{{ p.title }}{% endif %}{% endfor %}|'
                    '{% assign others = site.pages | where: "group", "other" %}'
                    '{% for p in others %}{{ p.title }}{% endfor %}')
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates/t.html").write_text(jinja)
    renderer = Renderer(Config(title="T", url="https://example.org", root=tmp_path))
    assert renderer.render("t.html", {"page": PAGE, "site": {"pages": pages}}) == "AB|C"


def test_an_include_that_is_not_there_is_a_note(tmp_path) -> None:
    jinja, notes = convert_template("{% include nav.html %}{% include gone.html %}", "_layouts/t.html", CONFIG,
                                    includes={"nav.html"})
    assert [(n.line, n.construct) for n in notes] == [(1, "{% include gone.html %}")]
    assert "there is no _includes/gone.html" in notes[0].action
    assert render(tmp_path, {"t.html": jinja, "partials/nav.html": "N"}) == "N"


LIQUID_SEMANTICS = [
    # A variable assigned in a loop keeps its value after it, as Liquid's do (Jinja's would not).
    "{% assign n = 0 %}{% for post in site.posts %}{% assign n = n | plus: 1 %}{% endfor %}{{ n }}",
    "{% assign last = '' %}{% for post in site.posts %}{% capture t %}{{ post.title | split: ' ' | first }}"
    "{% endcapture %}{% if t != last %}{{ t }},{% assign last = t %}{% endif %}{% endfor %}|{{ last }}|{{ t }}",
    "{% for post in site.posts %}{% assign seen = post.title %}{% endfor %}{{ seen }}",
    # A name assigned nowhere, or nil, prints nothing and is false; one assigned in a capture outlives it.
    "[{{ never }}]{% unless never %}u{% endunless %}{% if never.key %}k{% endif %}{% assign x = nil %}[{{ x }}]"
    "{% capture c %}{% assign inner = 'i' %}{% endcapture %}{{ inner }}{{ c }}",
    # A loop variable hides an assigned one of its name, in the loop only; Jekyll's own may be assigned.
    "{% assign item = 'a' %}{% for item in (1..2) %}{{ item }}{% endfor %}{{ item }}",
    "{% assign page = page.categories | first %}{{ page }}",
    "{% for x in (1..2) %}{% endfor %}[{{ x }}]{% unless x %}nil{% endunless %}",
    # Liquid's filters of plain values, by Liquid's rules ("3" is a number to plus).
    "{{ 7 | divided_by: 2 }} {{ '3' | times: 2 }} {{ 7.5 | minus: 1 }} {{ 10 | modulo: 3 }} {{ -2 | abs }}",
    "{{ 'hello world' | truncate: 8 }} {{ 'a b c d' | truncatewords: 2 }} {{ 'x' | append: 'y' | prepend: 'w' }}",
    "{{ page.categories | array_to_sentence_string }} {{ 'a, b' | split: ', ' | join: '+' }} {{ 'ab' | capitalize }}",
]


@pytest.mark.parametrize("liquid", LIQUID_SEMANTICS)
def test_converted_template_renders_as_python_liquid_renders_it(tmp_path, liquid) -> None:
    """The oracle is Liquid itself (python-liquid with Jekyll's filters, as posts are rendered)."""
    from generator.liquid import environment

    posts = [{"title": post.title, "url": post.url} for post in POSTS]       # the data render() gives
    expected = environment().from_string(liquid).render(site={"posts": posts}, page={"categories": PAGE.categories})
    assert render(tmp_path, {"t.html": convert(liquid)}) == expected
