"""Constructs that stopped whole real Jekyll sites (benchmarks/whole_sites.toml: crystal-lang's,
scala-lang's, jekyll/jekyll's docs) or made their pages differ, each in a small site written here
and built by real Jekyll and by sitegen after the import, the two pages compared."""

from __future__ import annotations

import shutil
import subprocess
from datetime import datetime

import pytest

from generator.build import BuildOptions, Engine, build
from generator.cli import main
from generator.ruby_time import ruby_time
from test_import_jekyll import _built_by_both, _page, needs_jekyll, url_list

CONFIG = "title: Small\nurl: https://small.example\ntimezone: UTC\n"
HTML = "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"


@needs_jekyll
def test_people_given_without_a_name_are_a_layouts_data_as_in_jekyll(tmp_path) -> None:
    # As crystal-lang's book pages (a collection's): `authors: [{image, description}]`, listed by
    # the layout; no one of them is a named author.
    layout = (HTML + "{% for author in page.authors %}<div><img src=\"{{ author.image }}\">{{ author.description }}"
              "</div>{% endfor %}{{ content }}</body></html>\n")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/book.html": layout,
        "_pages/book.md": "---\nlayout: book\ntitle: Book\nauthors:\n- image: /a.png\n  description: <b>Ann</b> writes.\n"
                          "- image: /b.png\n  description: Bo too.\n---\nRead it.\n"},
        CONFIG + "collections:\n  pages:\n    output: true\n    permalink: /:path/\n")
    assert '<div><img src="/a.png"><b>Ann</b> writes.</div><div><img src="/b.png">Bo too.</div>' in (
        old / "book/index.html").read_text()
    assert _page(new, "book/index.html") == _page(old, "book/index.html")


SORTED = ("{% assign s = site.data.items | sort: 'weight' %}{% for i in s %}{{ i.name }}{% endfor %}|"
          "{% assign s = site.data.items | sort: 'weight', 'last' %}{% for i in s %}{{ i.name }}{% endfor %}")


@needs_jekyll
def test_sort_by_a_key_puts_nils_first_or_last_and_numbers_as_numbers_as_in_jekyll(tmp_path) -> None:
    # As crystal-lang's sitemap: `site.data.sections | h_to_a | sort: "weight", "last"`.
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + f"<p>{SORTED}</p>{{{{ content }}}}</body></html>\n",
        "_data/items.yml": "- {name: a, weight: '10'}\n- {name: b, weight: 9}\n- {name: c}\n- {name: d, weight: 2}\n",
        "about.html": f"---\nlayout: default\ntitle: About\n---\n<p>{SORTED}</p>\n"}, CONFIG)
    assert "<p>cdba|dbac</p><p>cdba|dbac</p>" in (old / "about.html").read_text()
    assert _page(new, "about.html") == _page(old, "about.html")


@needs_jekyll
def test_a_condition_is_liquids_truth_and_its_filters_are_left_out_as_in_jekyll(tmp_path, capsys) -> None:
    # As scala-lang's post layout, `{% if page.tags %}<ul class="tag-list">` with no tags (an
    # empty list is true in Liquid), and crystal-lang's breadcrumbs, `{% if categories | count > 0 %}`.
    liquid = ("{% if page.tags %}<ul>{% for t in page.tags %}<li>{{ t }}</li>{% endfor %}</ul>{% endif %}"
              "{% if page.blank %}[blank]{% endif %}{% if page.zero %}[zero]{% endif %}{% unless page.none %}[none]"
              "{% endunless %}{% if page.items | size > 5 %}[items]{% endif %}")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + f"<p>{liquid}</p>{{{{ content }}}}</body></html>\n",
        "_posts/2020-01-03-about.md": f"---\nlayout: default\ntitle: About\nblank: ''\nzero: 0\nitems: [1]\n---\n"
                                      f"{liquid}\n"}, CONFIG)
    page = "2020/01/03/about.html"
    assert "<p><ul></ul>[blank][zero][none][items]</p>" in (old / page).read_text()
    assert _page(new, page) == _page(old, page)
    shutil.rmtree(tmp_path / "new/.sitegen")
    assert main(["-C", str(tmp_path / "new"), "build"]) == 0
    assert ("content/posts/2020-01-03-about.md:8: warning: Liquid: '| size > 5' in a condition left out, as "
            "Jekyll's lax parser reads it") in capsys.readouterr().err


@needs_jekyll
def test_dates_in_free_text_are_read_as_rubys_time_parse_reads_them_as_in_jekyll(tmp_path) -> None:
    # jekyll/jekyll's 3.9.3 post is dated `2023-01-29 18:30:22 2023 -0800` (the offset after the year
    # is not read: local time); scala-lang's events start `16 April 2010`; crystal-lang's release
    # notes list discussions at `2025-04-11T01:36:45 1744335405`.
    layout = (HTML + "<p>{{ page.date | date: '%F %T' }}|{{ page.start | date: '%s' }}|{{ page.start | date_to_string }}|"
              "{{ page.seen | date_to_string }}|{{ page.when | date: '%b %-d %Y %H:%M' }}</p>{{ content }}</body></html>\n")
    front = ("layout: default\ntitle: Released\nstart: 16 April 2010\nseen: 2025-04-11T01:36:45 1744335405\n"
             "when: 'Fri, 3 June 2019 10:30 pm'\n")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "_posts/2023-01-29-released.md": f"---\n{front}date: 2023-01-29 18:30:22 2023 -0800\n---\n"
                                         "{{ page.start | date: '%A %-d %B %Y' }}, {{ page.when | date: '%F %R' }}, "
                                         "{{ page.seen | date: '%F %R' }}\n"},
        CONFIG)
    page = "2023/01/29/released.html"
    assert ("<p>2023-01-29 18:30:22|1271376000|16 Apr 2010|11 Apr 2025|Jun 3 2019 22:30</p>"
            "<p>Friday 16 April 2010, 2019-06-03 22:30, 2025-04-11 01:36</p>") in _page(old, page)
    assert _page(new, page) == _page(old, page)


@pytest.mark.skipif(shutil.which("ruby") is None, reason="Ruby is not installed")
def test_ruby_time_reads_what_rubys_time_parse_reads(tmp_path) -> None:
    texts = ["16 April 2010", "April 16, 2010", "16th April 2010", "Apr 2010", "16/04/2010", "2010/04/16",
             "04/16/2010", "16.04.2010", "16-Apr-2010", "2019-6-3", "16 Apr 10", "30 February 2019",
             "2023-01-29 18:30:22 2023 -0800", "2023-01-29 18:30:22 -0800 2023", "2025-04-11T01:36:45 1744335405",
             "Fri, 16 Apr 2010 10:00:00 +0200", "2010-04-16T10:00:00.250+05:30", "2010-04-16T10:00:00Z",
             "Monday, 3 June 2019 10:30pm", "3 June 2019, 10:30 am", "2019-06-03 10:30 PST",
             "2019-06-03 10:30 CEST", "1 Jan 2020 - 3 Jan 2020", "sometime", "10:00 on 5 May 1999"]
    (tmp_path / "texts").write_text("\n".join(texts) + "\n")
    script = ('require "time"; File.readlines(ARGV[0], chomp: true).each { |s| begin; t = Time.parse(s); '
              'puts t.strftime("%Y-%m-%d %H:%M:%S.%6N ") + (s =~ /\\d:\\d\\d(:\\d\\d)?(\\.\\d+)?\\s*([+-]|Z|PST)/ ? '
              't.utc_offset.to_s : "local"); rescue ArgumentError; puts "none"; end }')
    done = subprocess.run(["ruby", "-e", script, str(tmp_path / "texts")], capture_output=True, text=True,
                          env={"TZ": "UTC", "PATH": "/usr/bin:/bin"}, check=True)
    for text, rubys in zip(texts, done.stdout.splitlines(), strict=True):
        ours = ruby_time(text)
        shown = "none" if ours is None else ours.strftime("%Y-%m-%d %H:%M:%S.%f ") + (
            "local" if ours.tzinfo is None else str(int(ours.utcoffset().total_seconds())))
        assert shown == rubys, text
    assert ruby_time("16 Apr", datetime(2026, 12, 4)) == datetime(2026, 4, 16)   # the year is now's
    assert ruby_time("16 Apr") is None      # no now: no year to give it


@needs_jekyll
def test_layouts_and_includes_of_scala_and_crystal_render_as_in_jekyll(tmp_path) -> None:
    # `include.page_title` in a layout (crystal-lang's event layout: nil there), an include's
    # `include.items` (a key, not the mapping's method), `include.list.first.date` of an empty
    # list and a range between captured years (scala-lang's events), `'img/logo.png' | relative_url`
    # (jekyll/jekyll's header), and `site.posts.first` in a page (crystal-lang's blog).
    layout = (HTML + "<h1>{{ include.page_title | default: page.title }}</h1>"
              "{% include list.html items=page.items %}{% include years.html list=page.none %}"
              "{% include years.html list=site.posts %}<img src=\"{{ 'img/logo.png' | relative_url }}\">"
              "{{ content }}</body></html>\n")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "_includes/list.html": "<ul>{% for item in include.items %}<li>{{ item.name }}</li>{% endfor %}</ul>",
        "_includes/years.html": "{% capture first %}{{ include.list.first.date | date: '%Y' }}{% endcapture %}"
                                "{% capture last %}{{ include.list.last.date | date: '%Y' }}{% endcapture %}"
                                "<p>[{{ first }}-{{ last }}]{% for y in (first..last) %}{{ y }};{% endfor %}</p>",
        "_posts/2019-05-06-old.md": "---\nlayout: default\ntitle: Old\n---\nO.\n",
        "about.md": "---\nlayout: default\ntitle: About\nitems: [{name: x}, {name: y}]\n---\n"
                    "{% assign post = site.posts.first %}Latest: {{ post.title }}\n"}, CONFIG)
    theirs = _page(old, "about.html")
    assert ('<h1>About</h1><ul><li>x</li><li>y</li></ul><p>[-]0;</p><p>[2020-2019]</p><img src="/img/logo.png">'
            '<p>Latest: Hello</p>') in theirs
    assert _page(new, "about.html") == theirs


@needs_jekyll
def test_posts_are_published_at_the_posts_collections_permalink_as_in_jekyll(tmp_path) -> None:
    # As jekyll/jekyll's docs: `collections: {posts: {permalink: /news/:year/:month/:day/:title/}}`.
    old, new, _ = _built_by_both(tmp_path, {},
                                 CONFIG + "collections:\n  posts:\n    permalink: /news/:year/:month/:day/:title/\n")
    assert url_list(old, "") == ["/news/2020/01/02/hello-world/"]
    assert [u for u in url_list(new, "") if u != "/404.html"] == url_list(old, "")


@needs_jekyll
def test_two_pages_redirecting_from_one_url_the_later_wins_as_in_jekyll(tmp_path, capsys) -> None:
    # As jekyll/jekyll's docs: code_of_conduct.md and conduct.md both `redirect_from: /conduct/index.html`.
    old, new, _ = _built_by_both(tmp_path, {
        "_docs/code_of_conduct.md": "---\ntitle: Code\nredirect_from: /conduct/index.html\n---\nC.\n",
        "_docs/conduct.md": "---\ntitle: Conduct\nredirect_from: /conduct/index.html\n---\nC.\n"},
        CONFIG + "plugins: [jekyll-redirect-from]\ncollections:\n  docs:\n    output: true\n"
                 "    permalink: /:collection/:path/\n")
    assert 'href="https://small.example/docs/conduct/"' in (old / "conduct/index.html").read_text()
    assert 'href="/docs/conduct/"' in (new / "conduct/index.html").read_text()
    shutil.rmtree(tmp_path / "new/.sitegen")
    assert main(["-C", str(tmp_path / "new"), "build"]) == 0
    assert ("content/pages/_docs/conduct.md: warning: /conduct/index.html: redirects to /docs/conduct/, not to "
            "/docs/code_of_conduct/ that content/pages/_docs/code_of_conduct.md also asks for") in capsys.readouterr().err


def test_a_stylesheet_libsass_cannot_compile_is_compiled_by_dart_sass(tmp_path) -> None:
    # scala-lang's `font-size: min(max(1.6vw, 1.2rem), 1.31rem)`: libsass stops on the units
    # (so does Debian's Jekyll); Jekyll 4.3's Dart Sass writes CSS's own min() and max().
    site = tmp_path / "site"
    assert main(["init", str(site)]) == 0
    (site / "assets/x.scss").write_text("$big: 2rem;\nh1 { font-size: min(max(1.6vw, 1.2rem), $big); }\n")
    build(site)
    assert "min(max(1.6vw, 1.2rem), 2rem)" in (site / "_site/assets/x.css").read_text()


@needs_jekyll
def test_where_exp_and_a_plugins_filter_in_a_layout_render_as_in_jekyll(tmp_path) -> None:
    # jekyll/jekyll's step-index include: `site.docs | where_exp: "doc", "doc.url contains '/step/'"`,
    # and its tutorials' `site.data.tutorials | map: 'tutorials' | join: ','` (lists joined flat);
    # crystal-lang's page header: `page.title | liquify` (its plugin's filter, which Jekyll without
    # the plugin passes over, as sitegen does, naming it in the report).
    layout = (HTML + "<h1>{{ page.title | liquify | upcase }}</h1>{% assign docs = site.docs | where_exp: 'doc', "
              "\"doc.url contains '/step/' and doc.rank > 1\" %}<ol>{% for doc in docs %}<li>{{ doc.title }}</li>"
              "{% endfor %}</ol><p>{{ site.data.parts | map: 'items' | join: ',' }}|{{ site.docs | map: 'rank' | "
              "join: '+' }}</p>{{ content }}</body></html>\n")
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "_data/parts.yml": "- {title: A, items: [one, two]}\n- {title: B}\n- {title: C, items: [three]}\n",
        "_docs/step/one.md": "---\ntitle: One\nrank: 1\n---\n1.\n",
        "_docs/step/two.md": "---\ntitle: Two\nrank: 2\n---\n2.\n",
        "_docs/other.md": "---\ntitle: Other\nrank: 3\n---\n3.\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\nA.\n"},
        CONFIG + "collections:\n  docs:\n    output: true\n")
    assert "<h1>ABOUT</h1><ol><li>Two</li></ol><p>one,two,,three|3+1+2</p>" in _page(old, "about.html")
    assert _page(new, "about.html") == _page(old, "about.html")
    assert [(n.path, n.line) for n in notes if "'liquify'" in n.action] == [("_layouts/default.html", 2)]


@needs_jekyll
def test_a_collections_documents_link_their_neighbours_as_in_jekyll_and_a_warm_build_follows(tmp_path) -> None:
    # As crystal-lang's release notes (a collection, dated): `page.next.url`, `page.previous.title`.
    layout = (HTML + "{{ content }}<nav>{% if page.next.url %}<a rel=\"next\" href=\"{{ page.next.url }}\">"
              "{{ page.next.title }}</a>{% endif %}{% if page.previous.url %}<a rel=\"prev\" "
              "href=\"{{ page.previous.url }}\">{{ page.previous.title }}</a>{% endif %}</nav></body></html>\n")
    release = "---\nlayout: default\ntitle: {}\n---\n{}.\n"
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "_releases/2020-01-01-one.md": release.format("One", 1), "_releases/2020-03-01-three.md": release.format("Three", 3),
        "_releases/2020-04-01-four.md": release.format("Four", 4)},
        CONFIG + "collections:\n  releases:\n    output: true\n    permalink: /:year/:title/\n")
    assert ('<nav><a rel="next" href="/2020/four/">Four</a><a rel="prev" href="/2020/one/">One</a></nav>'
            in _page(old, "2020/three/index.html"))
    for page in ("2020/one/index.html", "2020/three/index.html", "2020/four/index.html"):
        assert _page(new, page) == _page(old, page), page
    site = tmp_path / "new"
    engine = Engine(site, BuildOptions())
    engine.build()
    (site / "content/pages/_releases/2020-02-01-two.md").write_text(     # as the import writes one
        "---\nlayout: default\ntitle: Two\ndate: '2020-02-01'\npermalink: /2020/two/\n---\n2.\n")
    engine.build()
    clean = tmp_path / "clean"
    shutil.copytree(site, clean, ignore=shutil.ignore_patterns("_site", ".sitegen"))
    build(clean)
    for page in ("2020/one/index.html", "2020/two/index.html", "2020/three/index.html"):
        assert (site / "_site" / page).read_text() == (clean / "_site" / page).read_text(), page
    assert '<a rel="next" href="/2020/two/">Two</a>' in (site / "_site/2020/one/index.html").read_text()


@needs_jekyll
def test_a_pages_own_next_and_previous_keys_are_its_front_matters_as_in_jekyll(tmp_path) -> None:
    # As rubygems/guides: each guide's front matter links the next and previous ones by hand
    # (`previous: /credits`), read as {{ page.previous }}; a post's are its neighbours.
    layout = (HTML + "{{ content }}<nav><a href=\"{{ page.previous }}\">prev</a> <a href=\"{{ page.next }}\">next</a> "
              "{{ page.next.url }}|{{ page.previous.title }}</nav></body></html>\n")
    post = HTML + "{{ content }}<nav>{{ page.next.url }}|{{ page.previous.title }}</nav></body></html>\n"
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": layout, "_layouts/post.html": post,
        "guide.md": "---\nlayout: default\ntitle: Guide\nprevious: /credits\nnext: /install\n---\nG.\n",
        "plain.md": "---\nlayout: default\ntitle: Plain\n---\nP.\n",
        "_posts/2020-01-01-one.md": "---\nlayout: post\ntitle: One\nnext: /ignored\n---\n1.\n",
        "_posts/2020-01-02-two.md": "---\nlayout: post\ntitle: Two\n---\n2.\n"}, CONFIG)
    assert '<a href="/credits">prev</a><a href="/install">next</a> |</nav>' in _page(old, "guide.html")
    for page in ("guide.html", "plain.html", "2020/01/01/one.html", "2020/01/02/two.html"):
        assert _page(new, page) == _page(old, page), page


@needs_jekyll
def test_contains_against_nil_and_a_trailing_pipe_read_as_in_jekyll(tmp_path) -> None:
    # As rails/website's sessions: `where_exp: "s", "s.path contains page.speaker"` where a session has
    # no speaker (Jinja's `in` stopped the build), and an include's `| where_exp: ... |  %}`.
    layout = (HTML + "{{ content }}<p>{% if page.title contains page.none %}a{% endif %}"
              "{% if page.none contains 'x' %}b{% endif %}{% if page.title contains 20 %}c{% endif %}"
              "{% if page.tags contains 'one' %}d{% endif %}{% if page.tags contains 1 %}e{% endif %}"
              "{% if page.extra contains 'k' %}f{% endif %}</p>"
              "{% assign found = site.pages | where_exp: 'p', 'p.title contains page.none' %}<p>{{ found.size }}</p>"
              "</body></html>\n")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "_includes/count.html": "{% assign some = site.posts | where_exp: 'p', 'p.title contains \"e\"' |  %}"
                                "{{ some.size }} posts",
        "about.md": "---\nlayout: default\ntitle: About 2020\ntags: [one, two]\nextra: {k: 1}\n---\n"
                    "{% include count.html %}\n"}, CONFIG)
    assert "<p>cdf</p><p>0</p>" in _page(old, "about.html") and "1 posts" in _page(old, "about.html")
    assert _page(new, "about.html") == _page(old, "about.html")


@needs_jekyll
def test_comparisons_with_blank_and_empty_are_jekylls(tmp_path) -> None:
    # As rails/website's session cards: `session.session_date != blank` with no such key. Ruby Liquid
    # asks the value for blank? (nothing has it without ActiveSupport) or empty? (strings, lists, hashes).
    layout = (HTML + "{{ content }}<p>{% if page.none == blank %}a{% endif %}{% if page.none != blank %}b{% endif %}"
              "{% if page.title != blank %}c{% endif %}{% if page.empty_s == blank %}d{% endif %}"
              "{% if page.none == empty %}e{% endif %}{% if page.none != empty %}f{% endif %}"
              "{% if page.empty_s == empty %}g{% endif %}{% if page.tags == empty %}h{% endif %}"
              "{% if page.num == empty %}j{% endif %}{% if page.map == empty %}k{% endif %}"
              "{% unless page.title == empty %}l{% endunless %}</p></body></html>\n")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": layout,
        "about.md": "---\nlayout: default\ntitle: About\nempty_s: ''\ntags: []\nnum: 0\nmap: {}\n---\nA.\n",
        # the same in a page's own Liquid
        "own.html": "---\nlayout: default\ntitle: Own\nempty_s: ''\ntags: []\nnum: 0\nmap: {}\n---\n"
                    + layout.split("{{ content }}")[1].split("</body>")[0] + "\n"}, CONFIG)
    assert "<p>bcfghkl</p>" in _page(old, "about.html")
    assert _page(new, "own.html") == _page(old, "own.html")
    assert _page(new, "about.html") == _page(old, "about.html")


@needs_jekyll
def test_where_exp_in_a_pages_liquid_keeps_what_jekyll_keeps(tmp_path) -> None:
    # As rails/website's speakers section: `where_exp: 'item', 'item.specific_order != null'`, then a
    # multi-line include of each; the filter was unknown to the page's Liquid, so every item passed.
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "_data/people.yml": "- {first: Ann, order: 2, tags: [x]}\n- {first: Bob}\n- {first: Cy, order: 1}\n",
        "_data/byname.yml": "ann: {first: Ann, order: 2}\nbob: {first: Bob}\n",
        "_includes/card.html": "<i>{{ include.first_name }}</i>",
        "people.html": "---\nlayout: default\ntitle: People\n---\n"
                       "{% assign ordered = site.data.people | where_exp: 'item', 'item.order != null' | sort: 'order' %}"
                       "{% for speaker in ordered %}{%\n  include card.html\n  first_name=speaker.first\n%}{% endfor %}|"
                       "{% assign tagged = site.data.people | where_exp: 'p', \"p.tags contains 'x'\" %}{{ tagged.size }}|"
                       "{% assign low = site.data.people | where_exp: 'p', 'p.order < 2 and p.order != nil' %}"
                       "{{ low | map: 'first' | join: ',' }}|"
                       "{{ site.data.byname | where_exp: 'p', 'p.order' | map: 'first' | join: ',' }}\n"}, CONFIG)
    assert "<i>Cy</i><i>Ann</i>|1|Cy|Ann" in _page(old, "people.html")
    assert _page(new, "people.html") == _page(old, "people.html")


@needs_jekyll
def test_an_includes_literal_parameters_in_a_page_are_themselves_as_in_jekyll(tmp_path) -> None:
    # As crystal-lang's blog page: `{% include posts/recent_news.html offset=1 %}`, a number, not a
    # variable; and scala-lang's `codeSnippet=site.data.setup-scala.macOS-brew`, names with hyphens.
    old, new, _ = _built_by_both(tmp_path, {
        "_includes/recent.html": "{% for n in (1..4) offset: include.offset %}{{ n }};{% endfor %}"
                                 "{% if include.extra %}[extra {{ include.ratio | times: 2 }}]{% endif %}"
                                 "<code>{{ include.code-snippet }}</code>",
        "_data/setup-scala.yml": "macOS-brew: brew install coursier\n",
        "about.html": "---\nlayout: default\ntitle: About\n---\n<p>{% include recent.html offset=1 extra=true "
                      "ratio=1.5 code-snippet=site.data.setup-scala.macOS-brew %}</p>\n"}, CONFIG)
    assert "<p>2;3;4;[extra 3.0]<code>brew install coursier</code></p>" in _page(old, "about.html")
    assert _page(new, "about.html") == _page(old, "about.html")


@needs_jekyll
def test_a_loop_over_a_text_runs_once_with_the_whole_text_as_in_jekyll(tmp_path) -> None:
    # As nim-lang's post layout: `{% for author in page.author %}` where a post says `author: Andreas
    # Rumpf` (Liquid loops once over a string, Jinja over its characters); an empty text loops never.
    loop = "{% for a in page.author %}<span>{{ a }}</span>{% endfor %}{% for a in page.none %}[{{ a }}]{% endfor %}"
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/post.html": HTML + f"<h3>{loop}</h3>{{{{ content }}}}</body></html>\n",
        "_posts/2009-12-21-released.md": f"---\nlayout: post\ntitle: Released\nauthor: Andreas Rumpf\nnone: ''\n---\n"
                                         f"{loop}\n"}, CONFIG)
    page = "2009/12/21/released.html"
    assert "<h3><span>Andreas Rumpf</span></h3><p><span>Andreas Rumpf</span></p>" in _page(old, page)
    assert _page(new, page) == _page(old, page)


@needs_jekyll
def test_include_relative_reads_the_file_beside_the_page_as_in_jekyll(tmp_path) -> None:
    # As nim-lang's home page: `{% include_relative code_carrousel.html %}`, a file without front
    # matter beside it (published as it is too); and a page in a folder, its file beside it.
    old, new, notes = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "carrousel.html": "<select class=\"b\"><option>{{ page.title }}</option></select>\n",
        "guide/part.html": "<p>Part of {{ page.title }}</p>\n",
        "index.html": "---\nlayout: default\ntitle: Home\n---\n<div>{% include_relative carrousel.html %}</div>\n",
        "guide/index.html": "---\nlayout: default\ntitle: Guide\n---\n{% include_relative part.html %}\n"}, CONFIG)
    assert '<div><select class="b"><option>Home</option></select></div>' in _page(old, "index.html")
    assert "<p>Part of Guide</p>" in _page(old, "guide/index.html")
    for page in ("index.html", "guide/index.html"):
        assert _page(new, page) == _page(old, page)
    assert not [n for n in notes if "include_relative" in n.construct]


@needs_jekyll
def test_include_relative_of_a_name_made_in_an_include_reads_it_beside_the_page_as_in_jekyll(tmp_path) -> None:
    # As swift-org-website's components/icon.html: `{% include_relative {{ path }} %}` in an include,
    # a name only the build knows, read from the including page's folder (the import cannot rewrite
    # it: sitegen's Liquid tag finds it); a change to the file remakes the page as a clean build would.
    from test_incremental import assert_same_as_full_build

    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "_includes/icon.html": "{% capture path %}icons/{{ include.name }}.svg{% endcapture %}"
                               "<span>{% include_relative {{ path }} %}</span>",
        "icons/star.svg": "<svg><title>{{ page.title }}</title></svg>\n",
        "guide/icons/star.svg": "<svg><title>guide's</title></svg>\n",
        "index.html": "---\nlayout: default\ntitle: Home\n---\n<div>{% include icon.html name=\"star\" %}</div>\n",
        "guide/index.html": "---\nlayout: default\ntitle: Guide\n---\n{% include icon.html name=\"star\" %}\n"}, CONFIG)
    assert "<div><span><svg><title>Home</title></svg>" in _page(old, "index.html")
    assert "<span><svg><title>guide's</title></svg>" in _page(old, "guide/index.html")
    for page in ("index.html", "guide/index.html"):
        assert _page(new, page) == _page(old, page)
    site = tmp_path / "new"
    (site / "icons/star.svg").write_text("<svg><title>{{ page.title }}!</title></svg>\n")
    build(site)
    assert "<title>Home!</title>" in _page(new, "index.html")
    assert_same_as_full_build(site)


@needs_jekyll
def test_an_else_with_words_is_a_plain_else_and_what_follows_it_never_renders_as_in_jekyll(tmp_path) -> None:
    # As cordova-docs' head include: `{% if page.excerpt %}..{% else if page.description %}..{% else %}..
    # {% endif %}`: Liquid reads `else if ...` as `else`, and a block's first else wins.
    test = ("{% if page.a %}A{% else if page.b %}B{% elsif page.c %}C{% else %}D{% endif %}|"
            "{% unless page.c %}U{% else %}V{% else %}W{% endunless %}")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + f"<p>{test}</p>{{{{ content }}}}</body></html>\n",
        "one.md": "---\nlayout: default\ntitle: One\na: 1\nc: 1\n---\nx\n",
        "two.md": "---\nlayout: default\ntitle: Two\n---\nx\n"}, CONFIG)
    assert "<p>A|V</p>" in _page(old, "one.html") and "<p>B|U</p>" in _page(old, "two.html")
    for page in ("one.html", "two.html"):
        assert _page(new, page) == _page(old, page)


@needs_jekyll
def test_an_excerpt_is_the_body_before_the_first_blank_line_as_in_jekyll(tmp_path) -> None:
    # nim-lang's blog lists `post.excerpt`, whose first paragraph runs on into a list; cordova's
    # post layout shows the next post's, which opens with a heading (after blank lines, which Jekyll's
    # front matter pattern takes); a reference link is resolved
    # by its definition further down; a post with its own separator is cut there.
    listing = ("{% for post in site.posts %}<section>{{ post.excerpt }}</section>{% endfor %}")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "_posts/2025-04-22-two.md": "---\ntitle: Two\n---\nTwo [releases][r]:\n- 2.2.4\n- 2.0.16\n\nMore.\n\n"
                                    "[r]: https://nim-lang.org/r\n",
        "_posts/2017-02-01-road.md": "---\ntitle: Road\n---\n\n## The Road\n\nDuring my internship.\n",
        "_posts/2020-09-29-advisory.md": "---\ntitle: Advisory\n---\n\n\n### Disclosed:\n- [a](/a)\n\n\nThis.\n",
        "_posts/2017-01-01-cut.md": "---\ntitle: Cut\nexcerpt_separator: <!--more-->\n---\nOne.\n\nTwo.\n<!--more-->\n"
                                    "Three.\n",
        "blog.html": f"---\nlayout: default\ntitle: Blog\n---\n{listing}\n"}, CONFIG)
    assert ('<section><p>Two <a href="https://nim-lang.org/r">releases</a>:</p><ul><li>2.2.4</li><li>2.0.16</li>'
            '</ul></section><section><h3 id="disclosed">Disclosed:</h3><ul><li><a href="/a">a</a></li></ul></section>'
            '<section><p>Hi.</p></section><section><h2 id="the-road">The Road</h2></section>'
            '<section><p>One.</p><p>Two.</p></section>') in _page(old, "blog.html")
    assert _page(new, "blog.html") == _page(old, "blog.html")


@needs_jekyll
def test_site_url_is_as_the_config_writes_it_as_in_jekyll(tmp_path) -> None:
    # nim-lang's `url: "https://nim-lang.org/"` and its posts' `{{ site.url }}{{ site.baseurl }}/assets/..`.
    img = '<img src="{{ site.url }}{{ site.baseurl }}/a.png">'
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + img + "{{ content }}</body></html>\n",
        "about.html": f"---\nlayout: default\ntitle: About\n---\n<p>{img}</p>\n"},
        CONFIG.replace("https://small.example", '"https://small.example/"'))
    assert '<img src="https://small.example//a.png"><p><img src="https://small.example//a.png"></p>' in (
        _page(old, "about.html"))
    assert _page(new, "about.html") == _page(old, "about.html")


@needs_jekyll
def test_a_code_span_closes_at_the_first_run_of_its_backticks_as_in_kramdown(tmp_path) -> None:
    # nim-lang's 0.19.0 notes: ``rationals.`div```, ``rationals.`mod``` (kramdown closes at the first
    # two of three, codespan.rb's scan_until); a run with no closing one is text.
    text = ("- Added ``rationals.`div```, ``rationals.`mod```, ``rationals.floorDiv`` for rationals.\n"
            "- And ```none`` here.\n")
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "about.md": f"---\nlayout: default\ntitle: About\n---\n{text}"}, CONFIG)
    theirs = _page(old, "about.html").replace(' class="language-plaintext highlighter-rouge"', "")   # Rouge's
    assert "<code>rationals.`div</code><code>, </code><code>rationals.</code>mod```," in theirs
    assert _page(new, "about.html") == theirs


@needs_jekyll
@pytest.mark.parametrize("config, about, notes", [
    ('permalink: "/:path/"\n', "about/index.html", "notes/index.html"),     # opensource.guide's
    ("collections:\n  posts:\n    permalink: /news/:year/:title/\n", "about.html", "notes.html"),  # jekyll docs'
    ("permalink: pretty\n", "about/index.html", "notes/index.html"),
])
def test_pages_take_the_sites_permalink_style_not_the_posts_as_in_jekyll(tmp_path, config, about, notes) -> None:
    # Jekyll's Utils.add_permalink_suffix of the site's `permalink`: a pattern ending in "/" gives
    # pages folders' URLs (opensource.guide's /notices/); the posts' own pattern does not.
    old, new, _ = _built_by_both(tmp_path, {
        "_layouts/default.html": HTML + "{{ content }}</body></html>\n",
        "about.md": "---\nlayout: default\ntitle: About\n---\nAbout us.\n",
        "notes.html": "---\nlayout: default\ntitle: Notes\n---\n<p>Notes.</p>\n"}, CONFIG + config)
    for page in (about, notes):
        assert (old / page).is_file()
        assert _page(new, page) == _page(old, page)
