"""Constructs that made pages of project sites differ from Jekyll's (benchmarks/whole_sites.toml:
apache/datasketches-website, jruby/jruby.github.io, ...), each in a small site written here and
built by real Jekyll and by sitegen after the import, the pages compared."""

from __future__ import annotations

import re

from test_import_jekyll import _built_by_both, _page, needs_jekyll

CONFIG = "title: Small\nurl: https://small.example\ntimezone: UTC\n"
HTML = "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"


@needs_jekyll
def test_a_comment_opening_a_block_runs_to_its_end_over_blank_and_indented_lines_as_in_kramdown(tmp_path) -> None:
    # As datasketches' pages open: a licence header in a comment, its paragraphs indented four
    # spaces, and a heading on the line after `-->`: kramdown's HTML block, not code and a paragraph.
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\n<!--\n    A note kept out.\n\n      indented more\n\n"
                    "    last words\n-->\n## Parts\n\nText.\n\n### Sub\n<!-- one\n\n    two\n-->\nMore.\n"}, CONFIG)
    assert '<h2 id="parts">Parts</h2>' in _page(old, "about.html")
    assert _page(new, "about.html") == _page(old, "about.html")


@needs_jekyll
def test_a_comment_line_under_a_heading_is_a_block_of_its_own_as_in_kramdown(tmp_path) -> None:
    # As datasketches' "## Contents" over a `<!-- TOC -->` line and its list: the heading keeps its
    # id; a comment line under a paragraph's line stays in the paragraph.
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\n## Parts\n<!-- list -->\n* [One](#one)\n* Two\n"
                    "<!-- list -->\n\nWords\n<!-- aside -->\nrun on.\n"}, CONFIG)
    assert '<h2 id="parts">Parts</h2>' in _page(old, "about.html")
    assert _page(new, "about.html") == _page(old, "about.html")


@needs_jekyll
def test_indented_code_keeps_its_tabs_under_a_heading_and_its_blank_lines_spaces_as_in_kramdown(tmp_path) -> None:
    # As datasketches' examples: tab-separated data right under a heading (no blank line between),
    # and Java whose blank lines hold spaces, which kramdown keeps past the code's indentation.
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\n### Data (tabs)\n    1\tred\n    2\tblue\n\n"
                    "Code:\n\n    class A {\n      int a;\n  \n      int b;\n        \n\n    }\n   \n\n"
                    "After.\n"}, CONFIG)
    theirs = re.findall(r"<code>(.*?)</code>", (old / "about.html").read_text(), re.S)
    assert theirs == ["1\tred\n2\tblue\n", "class A {\n  int a;\n  \n  int b;\n    \n\n}\n"]
    assert re.findall(r"<code>(.*?)</code>", (new / "about.html").read_text(), re.S) == theirs


@needs_jekyll
def test_an_include_showing_content_in_a_layout_shows_what_the_layouts_placed_in_it_made_as_in_jekyll(tmp_path) -> None:
    # As systemds' layouts: default.html is `{% include themes/apache/default.html %}`, whose
    # {{ content }} is the page's, or for a page in `home` (placed in default) what home made.
    old, new, _ = _built_by_both(tmp_path, {
        "_includes/theme/frame.html": HTML + "<main>{% include theme/inner.html %}</main></body></html>\n",
        "_includes/theme/inner.html": "<article>{{ content }}</article>",
        "_layouts/default.html": "{% include theme/frame.html %}\n",
        "_layouts/home.html": "---\nlayout: default\n---\n<section class=\"hero\">{{ content }}</section>\n",
        "index.md": "---\nlayout: home\ntitle: Home\n---\nWelcome.\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\nAbout us.\n"}, CONFIG)
    assert '<main><article><section class="hero"><p>Welcome.</p>' in _page(old, "index.html")
    for page in ("index.html", "about.html"):
        assert _page(new, page) == _page(old, page)


@needs_jekyll
def test_markdown_in_an_element_indented_four_spaces_inside_html_is_read_as_in_kramdown(tmp_path) -> None:
    # As systemds' release notes: <section>, <div> two spaces in, <div markdown="1"> four, never
    # closed (kramdown closes them at the page's end); a tag four spaces in outside HTML is code.
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "notes.md": "---\nlayout: default\ntitle: Notes\n---\n<section class=\"band\">\n  <div class=\"box\">\n"
                    "    <div class=\"col\" markdown=\"1\">\n\n## Changes\n\nThis *release*:\n\n- adds one\n"
                    "- fixes two\n",
        "code.md": "---\nlayout: default\ntitle: Code\n---\nText.\n\n    <div markdown=\"1\">\n"}, CONFIG)
    assert '<div class="col"><h2 id="changes">Changes</h2>' in _page(old, "notes.html")
    assert _page(new, "notes.html") == _page(old, "notes.html")
    code = re.compile(r"<code>(.*?)</code>", re.S)
    assert code.findall((new / "code.html").read_text()) == code.findall((old / "code.html").read_text()) == [
        '&lt;div markdown="1"&gt;\n']


@needs_jekyll
def test_an_index_of_a_string_is_nil_and_what_one_include_assigns_another_reads_as_in_jekyll(tmp_path) -> None:
    # As livy's post layout: JB/setup assigns HOME_PATH, which the navigation include reads (the
    # layout assigning nothing itself), and JB/categories_list asks `categories_list.first[0] == null`
    # of page.categories (strings).
    old, new, _ = _built_by_both(tmp_path, {
        "_includes/setup.html": "{% assign HOME_PATH = '/' %}",
        "_includes/nav.html": '<nav><a href="{{ HOME_PATH }}">Home</a></nav>',
        "_includes/cats.html": "{% if cats.first[0] == null %}{% for c in cats %}<a href=\"#{{ c }}-ref\">{{ c }}</a>"
                               "{% endfor %}{% else %}{% for c in cats %}<a href=\"#{{ c[0] }}-ref\">{{ c[0] }}</a>"
                               "{% endfor %}{% endif %}",
        "_includes/post.html": "{% assign cats = page.categories %}{% include cats.html %}",
        "_layouts/default.html": "{% include setup.html %}" + HTML + "{% include nav.html %}{% include post.html %}"
                                 "{{ content }}</body></html>\n",
        "_posts/2020-01-02-first.md": "---\nlayout: default\ntitle: First\ncategories: [release]\n---\nHi.\n"}, CONFIG)
    page = "release/2020/01/02/first.html"
    assert '<nav><a href="/">Home</a></nav><a href="#release-ref">release</a>' in _page(old, page)
    assert _page(new, page) == _page(old, page)


@needs_jekyll
def test_an_attribute_list_between_blank_lines_goes_to_the_paragraph_after_it_as_in_kramdown(tmp_path) -> None:
    # As livy's history page: a release's heading, a blank line, `{: #v0-8-0}`, a blank line, "New features".
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "history.md": "---\nlayout: default\ntitle: History\n---\n## Release 0.8\n\n{: #v0-8-0}\n\nNew features\n\n"
                      "- one\n\n{: .later}\n\n\nOld notes.\n"}, CONFIG)
    assert '<p id="v0-8-0">New features</p>' in _page(old, "history.html")
    assert _page(new, "history.html") == _page(old, "history.html")


@needs_jekyll
def test_a_posts_tag_is_its_tags_before_any_tags_key_as_in_jekyll(tmp_path) -> None:
    # As livy's release posts: `tag: v0-4-0-incubating`, which their layout lists from page.tags.
    listing = ("{% unless page.tags == empty %}<ul>{% for t in page.tags %}<li>{{ t }}</li>{% endfor %}</ul>"
               "{% endunless %}")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + listing + "{{ content }}</body></html>\n",
        "_posts/2020-01-02-one.md": "---\nlayout: default\ntitle: One\ntag: v0-4-0\n---\nOne.\n",
        "_posts/2020-01-03-two.md": "---\nlayout: default\ntitle: Two\ntag: first one\ntags: [a, b]\n---\nTwo.\n",
        "_posts/2020-01-04-three.md": "---\nlayout: default\ntitle: Three\ntag:\ntags: [c]\n---\nThree.\n"}, CONFIG)
    for page, tags in (("2020/01/02/one.html", "<li>v0-4-0</li>"), ("2020/01/03/two.html", "<li>first one</li>"),
                       ("2020/01/04/three.html", "<li>c</li>")):
        assert f"<ul>{tags}</ul>" in _page(old, page)
        assert _page(new, page) == _page(old, page)


@needs_jekyll
def test_backslashed_brackets_are_escapes_not_math_in_an_imported_site_as_in_kramdown(tmp_path) -> None:
    # As jruby's "jRuby \(which lets capistrano ssh-deployments fail\)" and datasketches' heading
    # "Different values of \(k\)": kramdown's escaped brackets, where sitegen's own Markdown reads math.
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\n## Values of \\(k\\)\n\n- It fails \\(here\\).\n\n"
                    "\\[\nC = A B\n\\]\n"}, CONFIG)
    assert '<h2 id="values-of-k">Values of (k)</h2>' in _page(old, "about.html")
    assert _page(new, "about.html") == _page(old, "about.html")
    assert "backslash_math: false" in (tmp_path / "new/site.yaml").read_text()


@needs_jekyll
def test_a_pre_block_keeps_its_lines_that_look_like_tables_and_lists_as_in_kramdown(tmp_path) -> None:
    # As sinatra's rdoc pages (an include of rdoc's HTML): a <pre> of Slim templates, whose lines
    # start with "|" and "- ", kramdown's HTML block to its </pre>, not a table and a list.
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\nExample:\n\n<pre># in page.slim\n\n| Greet\n"
                    "- a = capture do\n  | there\n|  Hi #{a}!\n\n    four in\n</pre>\n## After\n\nText.\n"}, CONFIG)
    kept = "| Greet\n- a = capture do\n  | there\n|  Hi #{a}!\n\n    four in\n</pre>"
    assert kept in (old / "about.html").read_text() and (new / "about.html").read_text().count(kept) == 1
    assert _page(new, "about.html") == _page(old, "about.html")


@needs_jekyll
def test_a_footnote_referred_to_again_has_kramdowns_ids_and_numbered_back_links(tmp_path) -> None:
    # As datasketches' CPC page: one paper cited in a heading and again in the text below it.
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\nA sketch[^paper] and again[^paper], more[^other] "
                    "and once more[^paper].\n\n[^paper]: The paper.\n[^other]: Another.\n"}, CONFIG)
    marks = re.compile(r'id="(fnref[^"]*)"|href="#(fnref[^"]*)"[^>]*>(&#8617;(?:<sup>\d</sup>)?)</a>(\xa0?)')
    theirs = marks.findall((old / "about.html").read_text())
    assert ("fnref:paper:2", "", "", "") in theirs and ("", "fnref:paper:1", "&#8617;<sup>2</sup>", "\xa0") in theirs
    assert marks.findall((new / "about.html").read_text().replace("&#160;", "\xa0")) == theirs


@needs_jekyll
def test_dashes_under_a_paragraph_of_two_lines_are_its_text_as_in_kramdown(tmp_path) -> None:
    # As datasketches' committer letters: "Regards,\n(PMC Member)\n---", a signature and its dash,
    # where only a paragraph of one line after a blank one is a setext heading.
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\nRegards,\n(A Member)\n---\n\nOne line\n---\n\n"
                    "## Heading\nText under it\n---\n\nLast\n\n---\n"}, CONFIG)
    assert "<p>Regards,\n(A Member)\n—</p>" in (old / "about.html").read_text()
    assert _page(new, "about.html").replace("&mdash;", "—") == _page(old, "about.html").replace("<hr />", "<hr>")


@needs_jekyll
def test_sass_in_a_folder_named_with_an_underscore_is_only_imported_as_in_jekyll(tmp_path) -> None:
    # As training-kit's assets/_scss (a Sass load path): its files need the variables of the
    # stylesheet importing them, and Jekyll publishes nothing of the folder.
    old, new, _ = _built_by_both(tmp_path, {
        "assets/_scss/graph.scss": ".graph { font-size: $small; }\n",
        "assets/css/app.scss": "---\n---\n$small: 12px;\n@import \"graph\";\n",
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\nAbout.\n"},
        CONFIG + "sass: {load_paths: [assets/_scss], style: compressed}\n")
    theirs = (old / "assets/css/app.css").read_text()
    assert "12px" in theirs and not (old / "assets/_scss").exists()
    assert (new / "assets/css/app.css").read_text().split() == theirs.split("/*#")[0].split()
    assert not (new / "assets/_scss").exists()


@needs_jekyll
def test_redirect_to_false_is_no_redirect_as_in_jekyll_redirect_from(tmp_path) -> None:
    # As training-kit: its defaults send every page on (`redirect_to: [https://...]`), its home
    # page says `redirect_to: false` and is itself.
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "<main>{{ content }}</main></body></html>\n",
        "index.html": "---\nlayout: default\ntitle: Home\nredirect_to: false\n---\n<p>The kit.</p>\n",
        "empty.md": "---\nlayout: default\ntitle: Empty\nredirect_to: []\n---\nStays.\n",
        "old.md": "---\nlayout: default\ntitle: Old\n---\nGone.\n"},
        CONFIG + "plugins: [jekyll-redirect-from]\ndefaults:\n  - scope: {path: \"\"}\n"
                 "    values: {redirect_to: [\"https://other.example\"]}\n")
    assert "<main><p>The kit.</p>" in _page(old, "index.html") and "https://other.example" in _page(old, "old.html")
    for page in ("index.html", "empty.html"):
        assert _page(new, page) == _page(old, page)
    assert "https://other.example" in _page(new, "old.html")


@needs_jekyll
def test_an_html_block_left_open_is_closed_at_the_contents_end_as_in_kramdown(tmp_path) -> None:
    # As crail's posts: the last <div style="text-align: justify"> is never closed; kramdown closes
    # it, so the layout's footer after the content stays outside it.
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "<main>{{ content }}</main><footer>End</footer></body></html>\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\nHello.\n\n<section><div style=\"text-align: justify\"> \n"
                    "<p>\nTo summarize.\n</p>\n\n"}, CONFIG)
    assert "</p></div></section></main><footer>" in _page(old, "about.html")
    assert _page(new, "about.html") == _page(old, "about.html")


@needs_jekyll
def test_a_tables_rows_above_its_separator_are_all_its_header_and_a_pipe_opens_a_cell_as_in_kramdown(tmp_path) -> None:
    # As datasketches' error tables (three rows above the separator line) and its features matrix,
    # whose first line has no leading pipe: " | Max Log Precision |" then opens with an empty cell.
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\nSize-> |8|16|32\nEps->  |0.4|0.2|0.1\nLength |Limit-> |\n"
                    "------ | ----|----|---\n100|44|22|11\n\nKind | Sub | T |\n:---:|:---:|:---:|\nSpace | Min | 4 |\n"
                    " | Max | 26 |\n\n| a | b |\n|---|---|\n| 1 | 2 |\n|  | 3 |\n"}, CONFIG)
    table = re.compile(r"<table>.*?</table>", re.S)
    theirs = [re.sub(r">\s+<", "><", t) for t in table.findall((old / "about.html").read_text())]
    assert "<th>Eps-&gt;</th>" in theirs[0] and '<td style="text-align: center"></td><td' in theirs[1]
    ours = [re.sub(r">\s+<", "><", t).replace(';"', '"') for t in table.findall((new / "about.html").read_text())]
    assert ours == theirs


@needs_jekyll
def test_a_plugins_doc_tag_is_the_plugins_not_liquids_doc_block_as_in_jekylls_liquid(tmp_path) -> None:
    # As nlpcraft's pages link with `{% doc installation Installation %}` of its _plugins/doc.rb:
    # Jekyll's Liquid 5.4 has no `doc` block (5.6's), so the tag is the plugin's, which sitegen leaves
    # out with a warning; python-liquid's `doc` stopped the build ("unexpected expression").
    plugin = ("class DocTag < Liquid::Tag\n  def initialize(name, text, tokens)\n    super\n    @path, @label = "
              "text.strip.split(' ', 2)\n  end\n  def render(context)\n    \"<a href=\\\"/#{@path}.html\\\">#{@label}</a>\"\n"
              "  end\nend\nLiquid::Template.register_tag('doc', DocTag)\n")
    old, new, notes = _built_by_both(tmp_path, {
        "_plugins/doc.rb": plugin,
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "about.html": "---\nlayout: default\ntitle: About\n---\n<p>Read {% doc install Installing it %} first.</p>\n"}, CONFIG)
    assert '<p>Read <a href="/install.html">Installing it</a> first.</p>' in _page(old, "about.html")
    assert _page(new, "about.html") == _page(old, "about.html").replace('<a href="/install.html">Installing it</a> ', "")
    assert [(n.path, n.line) for n in notes if n.construct == "{% doc %}"] == [("about.html", 5)]


@needs_jekyll
def test_lax_liquids_dotted_names_and_empty_brackets_in_an_include_read_as_in_jekyll(tmp_path) -> None:
    # As toree's docs nav: `.site.pages` and `.page.path` (lax Liquid, Jekyll's fallback, reads the
    # names after the dot) and `default: []` (a lookup of no name: nil); the import left them out,
    # and the nav listed no page.
    nav = ('{% assign DOCS = .site.pages | where: "type", "doc" %}{% assign GROUPS = DOCS | group_by: "section" %}'
           '{% assign HERE = .page.path %}<ul>{% for s in site.data.sections %}'
           '{% assign g = GROUPS | where: "name", s.id | first %}{% assign pages = g["items"] | default: [] %}'
           '{% if pages | size > 0 %}{% assign pages = pages | sort: "weight" %}{% endif %}'
           '<li>{{ s.name }}<ul>{% for p in pages %}<li><a class="{% if p.path == HERE %}active{% endif %}" '
           'href="{{ p.url }}">{{ p.title }}</a></li>{% endfor %}</ul></li>{% endfor %}</ul>')
    doc = "---\nlayout: doc\ntype: doc\nsection: {section}\nweight: {weight}\ntitle: {title}\n---\n{title} text.\n"
    old, new, notes = _built_by_both(tmp_path, {
        "_data/sections.yml": "- {id: user, name: User}\n- {id: dev, name: Developer}\n- {id: none, name: Empty}\n",
        "_includes/nav.html": nav,
        "_layouts/doc.html": HTML + "<nav>{% include nav.html %}</nav>{{ content }}</body></html>\n",
        "docs/start.md": doc.format(section="user", weight=2, title="Start"),
        "docs/install.md": doc.format(section="user", weight=1, title="Install"),
        "docs/build.md": doc.format(section="dev", weight=1, title="Build")}, CONFIG)
    assert '<li>User<ul><li><a class="" href="/docs/install.html">Install</a></li><li><a class="active" ' \
           'href="/docs/start.html">Start</a></li></ul></li>' in _page(old, "docs/start.html")
    for page in ("docs/start.html", "docs/install.html", "docs/build.html"):
        assert _page(new, page) == _page(old, page)
    assert not [n for n in notes if n.path.startswith("_includes/")]


@needs_jekyll
def test_site_github_of_a_site_without_jekyll_github_metadata_is_nil_as_in_jekyll(tmp_path) -> None:
    # As pages-themes' layouts (cayman, minimal): `page.title | default: site.title | default:
    # site.github.repository_name`, and links under `site.github.is_project_page`. Jekyll without the
    # plugin has site.github nil; the import left each whole output out (no title on any page).
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title><link href=\"{{ '/style.css?v=' | append: "
              "site.github.build_revision | relative_url }}\"></head><body><h1>{{ page.title | default: site.title | "
              "default: site.github.repository_name }}</h1>{% if site.github.is_project_page %}<a href=\""
              "{{ site.github.repository_url }}\">GitHub</a>{% endif %}{{ content }}</body></html>\n")
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "index.md": "---\nlayout: default\n---\nHome.\n",
        "other.md": "---\nlayout: default\ntitle: Other\n---\nMore.\n"}, CONFIG)
    assert '<link href="/style.css?v="></head><body><h1>Small</h1><p>Home.</p>' in _page(old, "index.html")
    for page in ("index.html", "other.html"):
        assert _page(new, page) == _page(old, page)
    assert {n.construct for n in notes if n.path.startswith("_layouts/")} == {"site.github"}


@needs_jekyll
def test_a_pages_tags_and_categories_are_its_front_matters_or_nil_as_in_jekyll(tmp_path) -> None:
    # As tuweni's (Jekyll-Bootstrap's) post and tutorial layouts: `{% unless page.tags == empty %}` shows
    # the tag box on a page without tags (nil is not empty), hides it on a post or a collection's
    # document without them (an empty list); sitegen's pages had empty lists, the box hidden.
    layout = (HTML + "{% unless page.tags == empty %}<ul class=\"tags\">{% for t in page.tags %}<li>{{ t }}</li>"
              "{% endfor %}</ul>{% endunless %}{% unless page.categories == empty %}<ul class=\"cats\">"
              "[{{ page.categories }}]</ul>{% endunless %}{{ content }}</body></html>\n")
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "plain.md": "---\nlayout: default\ntitle: Plain\n---\nP.\n",
        "tagged.md": "---\nlayout: default\ntitle: Tagged\ntags: [x, y]\ncategories: notes\n---\nT.\n",
        "_posts/2020-01-02-hello.md": "---\nlayout: default\ntitle: Hello\n---\nH.\n",
        "_posts/2020-01-03-tagged.md": "---\nlayout: default\ntitle: Tagged post\ntags: [z]\n---\nZ.\n",
        "_guides/one.md": "---\nlayout: default\ntitle: One\n---\nO.\n"},
        CONFIG + "collections: {guides: {output: true}}\n")
    assert '<ul class="tags"></ul><ul class="cats">[]</ul><p>P.</p>' in _page(old, "plain.html")
    assert "<body><p>H.</p>" in _page(old, "2020/01/02/hello.html")
    for page in ("plain.html", "tagged.html", "2020/01/02/hello.html", "2020/01/03/tagged.html", "guides/one.html"):
        assert _page(new, page) == _page(old, page), page


@needs_jekyll
def test_a_page_under_a_sites_own_permalink_pattern_has_no_extension_in_its_url_as_in_jekyll(tmp_path) -> None:
    # As edgent's `permalink: pygments` (and a pattern ending in `.html`): Jekyll's
    # Utils.add_permalink_suffix gives a page no suffix, so page.url is /docs/start, written to
    # docs/start.html; its sidebar marks the page whose `page.url | append: '.html'` is the item's.
    layout = (HTML + "<nav>{% for item in site.data.nav %}{% capture here %}{{ page.url | append: '.html' }}"
              "{% endcapture %}<a{% if here == item.url %} class=\"active\"{% endif %} href=\"{{ item.url }}\">"
              "{{ item.title }}</a>{% endfor %}</nav><p>[{{ page.url }}]</p>{{ content }}</body></html>\n")
    files = {
        "_data/nav.yml": "- {title: Start, url: /docs/start.html}\n- {title: About, url: /about.html}\n",
        "_layouts/default.html": layout,
        "index.md": "---\nlayout: default\ntitle: Home\n---\nHome.\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\nAbout.\n",
        "docs/start.md": "---\nlayout: default\ntitle: Start\n---\nStart.\n",
        "docs/start_index.md": "---\nlayout: default\ntitle: Start index\n---\nNot an index.\n"}
    for pattern in ("pygments", "/:year/:title.html"):
        old, new, _ = _built_by_both(tmp_path / pattern.replace("/", "_"), files, CONFIG + f"permalink: {pattern}\n")
        assert '<a class="active" href="/docs/start.html">Start</a>' in _page(old, "docs/start.html")
        assert "<p>[/docs/start]</p>" in _page(old, "docs/start.html")
        assert "<p>[/docs/start_index]</p>" in _page(old, "docs/start_index.html")
        for page in ("index.html", "about.html", "docs/start.html", "docs/start_index.html"):
            assert _page(new, page) == _page(old, page), (pattern, page)


@needs_jekyll
def test_site_baseurl_in_a_pages_own_liquid_is_as_config_writes_it_as_in_jekyll(tmp_path) -> None:
    # As tuweni's history page: `baseurl: /` and `[downloads]({{ site.baseurl }}/download)`, which Jekyll
    # writes as //download (sitegen's Liquid had the baseurl without its end slash); relative_url and
    # {% link %} take the slash off, in the page and in its layout.
    layout = (HTML + "<nav><a href=\"{{ site.baseurl }}/\">[{{ site.baseurl }}]</a><a href=\"{{ '/about.html' | "
              "relative_url }}\">About</a></nav>{{ content }}</body></html>\n")
    page = ("---\nlayout: default\ntitle: History\n---\nSee [downloads]({{ site.baseurl }}/download), "
            "[about]({{ 'about.html' | relative_url }}) and [it]({% link about.md %}).\n")
    for base in ("/", "/docs/"):
        old, new, _ = _built_by_both(tmp_path / (base.strip("/") or "root"), {
            "_layouts/default.html": layout, "history.md": page,
            "about.md": "---\nlayout: default\ntitle: About\n---\nA.\n"}, CONFIG + f"baseurl: {base}\n")
        if base == "/":
            assert '<a href="//download">downloads</a>' in _page(old, "history.html")
        for name in ("history.html", "about.html"):
            assert _page(new, name) == _page(old, name), (base, name)
