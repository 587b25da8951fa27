"""Blog basics: feeds of each tag and category, the JSON Feed, reading time, author pages,
``sitegen new post`` and ``sitegen --version``; checked through real builds and their files."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tomllib
from html import unescape
from datetime import datetime, timezone
from pathlib import Path

import feedparser
import html5lib
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.build import BuildOptions, build
from generator.cli import main
from generator.errors import SiteError
from generator.markdown import render_markdown
from generator.reading import IDEOGRAPH, WORDS_PER_MINUTE, count_words, reading_time, weighted_words
from site_checks import (assert_group_feeds_parse, assert_html5_parses, assert_internal_links_and_anchors,
                         assert_json_feed_valid)
from test_incremental import assert_same_as_full_build

REPO = Path(__file__).resolve().parents[1]
NOW = BuildOptions(now=datetime(2026, 1, 1, tzinfo=timezone.utc))
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>\n'


def configure(site: Path, text: str) -> None:
    with (site / "site.yaml").open("a") as config:
        config.write(text)


def page(path: Path):
    return html5lib.parse(path.read_bytes(), namespaceHTMLElements=False)


def post(site: Path, name: str, front: str, body: str = "Body.\n") -> None:
    (site / "content/posts" / name).write_text(f"---\n{front}---\n{body}", encoding="utf-8")


# --- Feeds of each tag and category, and the JSON Feed ---------------------------------------


def test_each_tag_and_category_has_an_atom_feed_beside_its_page(basic_site):
    build(basic_site, NOW)
    out = basic_site / "_site"
    tags = assert_group_feeds_parse(out, "tags", entries=20)
    categories = assert_group_feeds_parse(out, "categories", entries=20)
    assert [p.relative_to(out).as_posix() for p in tags + categories] == [
        "tags/compilers/atom.xml", "tags/performance/atom.xml", "tags/release/atom.xml",
        "categories/news/atom.xml"]
    compilers = feedparser.parse((out / "tags/compilers/atom.xml").read_bytes())
    assert compilers.feed.title == "Test Site: Posts tagged “compilers”"
    assert [link.href for link in compilers.feed.links if link.rel == "self"] == [
        "https://example.org/tags/compilers/atom.xml"]
    assert [e.title for e in compilers.entries] == ["Second post", "First post"]   # newest first
    assert compilers.entries[0].content[0].value.startswith("<p>Second post body")
    assert "atom.xml" not in (out / "sitemap.txt").read_text()      # feeds are not pages


def test_feeds_entries_limits_every_feed(basic_site):
    configure(basic_site, "feeds: {entries: 1}\n")
    build(basic_site, NOW)
    out = basic_site / "_site"
    assert_group_feeds_parse(out, "tags", entries=1)
    assert len(feedparser.parse((out / "atom.xml").read_bytes()).entries) == 1
    assert [item["title"] for item in assert_json_feed_valid(out / "feed.json")["items"]] == ["Third post"]


def test_tag_feeds_switch_off_in_site_yaml_and_with_the_tag_pages(basic_site):
    configure(basic_site, "feeds: {tags: false, json: false}\n")
    build(basic_site, NOW)
    out = basic_site / "_site"
    assert not list(out.glob("tags/*/atom.xml")) and not (out / "feed.json").exists()
    assert "atom.xml" not in (out / "tags/compilers.html").read_text().replace('href="/atom.xml"', "")
    assert 'href="/feed.json"' not in (out / "index.html").read_text()
    assert_group_feeds_parse(out, "categories", entries=20)    # categories keep theirs
    configure(basic_site, "archives: {categories: false}\n")
    build(basic_site, NOW)
    assert not (out / "categories").exists()                   # no page, no feed beside it


def test_the_json_feed_is_a_json_feed_1_1_of_the_blog(basic_site):
    (basic_site / "content/posts/2019-03-18-first-post.md").write_text(
        (basic_site / "content/posts/2019-03-18-first-post.md").read_text()
        .replace("title: First post", 'title: "First <post> & “quotes”"'))
    build(basic_site, NOW)
    out = basic_site / "_site"
    feed = assert_json_feed_valid(out / "feed.json")
    assert (feed["title"], feed["home_page_url"], feed["feed_url"]) == (
        "Test Site", "https://example.org/blog.html", "https://example.org/feed.json")
    assert [item["id"] for item in feed["items"]] == [
        "https://example.org/2021/01/02/third.html", "https://example.org/2020/05/01/second.html",
        "https://example.org/2019/03/18/first-post.html"]
    first = feed["items"][2]
    assert first["title"] == "First <post> & “quotes”" and first["tags"] == ["compilers", "release"]
    assert first["date_published"] == "2019-03-18T00:00:00+00:00" and first["authors"] == [{"name": "Ada"}]
    assert 'href="https://example.org/2019/03/18/first-post.html#motivation"' in feed["items"][1]["content_html"]
    assert "authors" not in feed["items"][0]         # no author of its own: the feed's
    assert feed["authors"] == [{"name": "Test Author"}]
    head = page(out / "about.html").find(".//head/link[@type='application/feed+json']")
    assert head is not None and head.get("href") == "/feed.json" and head.get("rel") == "alternate"


# --- Reading time ------------------------------------------------------------------------------


def words(n: int, word: str = "word") -> str:
    return " ".join([word] * n)


def test_prose_is_read_at_238_words_a_minute_rounded_up():
    assert WORDS_PER_MINUTE == 238
    assert reading_time(render_markdown(words(1)).html) == 1
    assert reading_time(render_markdown(words(238)).html) == 1
    assert reading_time(render_markdown(words(239)).html) == 2
    assert reading_time(render_markdown(f"# A title\n\n{words(100)}\n\n- {words(50)}\n").html) == 1
    assert weighted_words(render_markdown("Fish &amp; chips — *really* `good`, don't you think?").html) == 7


def test_code_counts_twice_its_line_numbers_not_at_all_and_formulas_as_a_few_words():
    code = "\n".join(f"x{i} = compute(a, b)" for i in range(10))     # 30 words of code
    plain = render_markdown(f"{words(10)}\n\n```python\n{code}\n```\n").html
    numbered = render_markdown(f'{words(10)}\n\n```python linenums="1"\n{code}\n```\n').html
    assert 'class="linenos"' in numbered
    assert weighted_words(plain) == weighted_words(numbered) == 10 + 2 * 30
    formulas = render_markdown("Energy $$E = m c^2 + \\frac{a}{b}$$ here.\n\n$$\n\\sum_{i=0}^{n} x_i^2\n$$\n").html
    assert 'class="arithmatex"' in formulas
    assert weighted_words(formulas) == 2 + 2 + 12        # "Energy", "here." + an inline and a display formula


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab_9 \t\n\u00a0\u2003\u3000\x1c.,-—'é中かЖ٣²")), max_size=80)
       | st.text(max_size=80))
def test_words_are_the_runs_of_non_spaces_holding_a_word_character(text):
    # The definition, as a regular expression; count_words counts without one, run by run.
    ideographs = len(IDEOGRAPH.findall(text))
    assert count_words(text) == ideographs + len(re.findall(r"\S*\w\S*", IDEOGRAPH.sub(" ", text)))


def weighted_words_by_definition(html: str) -> int:
    """weighted_words as first written: each expression run over the whole page."""
    formulas = []
    html = re.sub(r'<(span|div) class="arithmatex">.*?</\1>',
                  lambda m: formulas.append(12 if m.group(1) == "div" else 2) or " ",
                  re.sub(r'<td class="linenos">.*?</td>', "", html, flags=re.S), flags=re.S)
    code = sum(count_words(unescape(re.sub(r"<[^>]+>", "", block)))
               for block in re.findall(r"<pre\b[^>]*>(.*?)</pre>", html, flags=re.S))
    prose = count_words(unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<pre\b[^>]*>(.*?)</pre>", " ", html, flags=re.S))))
    return prose + 2 * code + sum(formulas)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["<pre>", "<pre class='x'>", "</pre>", "</pre", "<pre", "<", ">", "<span>",
                                 '<td class="linenos">', "</td>", '<span class="arithmatex">', "</span>",
                                 '<div class="arithmatex">', "</div>", "a b", "\n", " ", "&amp;", "x-y", "--"]),
                max_size=30).map("".join))
def test_weighted_words_counts_as_its_definition(html):
    assert weighted_words(html) == weighted_words_by_definition(html)


def test_the_shipped_posts_read_as_long_as_by_the_definition():
    for path in sorted((REPO / "content" / "posts").glob("*.md")):
        html = render_markdown(path.read_text(encoding="utf-8").split("---", 2)[2]).html
        assert weighted_words(html) == weighted_words_by_definition(html), path


def test_chinese_and_japanese_characters_count_one_each():
    assert weighted_words(render_markdown("深度学习编译器").html) == 7
    assert weighted_words(render_markdown("TVM は コンパイラです").html) == 1 + 1 + 7


def test_posts_and_post_lists_show_their_reading_time(basic_site):
    post(basic_site, "2020-07-01-long.md", "title: Long read\ntags: [compilers]\n",
         f"{words(700)}\n\n```python\n{words(100, 'x')}\n```\n")       # 700 + 2 * 100 words: 4 minutes
    build(basic_site, NOW)
    out = basic_site / "_site"
    spans = page(out / "2020/07/01/long.html").findall(".//main//span[@class='reading-time']")
    assert [span.text for span in spans] == ["4 min read"]
    for listing in ("blog.html", "tags/compilers.html", "index.html"):
        tree = page(out / listing)
        assert any(span.text == "4 min read" for span in tree.iterfind(".//main//span[@class='reading-time']")), listing


# --- Author pages --------------------------------------------------------------------------------

AUTHORS = """\
ada:
  name: Ada Lovelace
  link: https://example.org/~ada
  avatar: /assets/images/ada.svg
  bio: Writes about analytical engines.
grace:
  name: Grace Hopper
  avatar: assets/images/grace.svg
"""


@pytest.fixture
def authored(basic_site: Path) -> Path:
    """The fixture site with an authors.yml: the posts' "Ada" is a key; their "Grace" names
    nobody (she is "Grace Hopper", key "grace"), as "Linus" does."""
    (basic_site / "content/data/authors.yml").write_text(AUTHORS.replace("ada:", "Ada:"))
    (basic_site / "assets/images/ada.svg").write_text(SVG)
    (basic_site / "assets/images/grace.svg").write_text(SVG)
    post(basic_site, "2020-08-01-by-grace.md", "title: By Grace\nauthor: [Grace Hopper, Ada, Linus]\n")
    post(basic_site, "2020-09-01-more.md", "title: More\nauthor: Ada\n")
    return basic_site


def test_each_author_of_the_data_file_has_a_page_listing_their_posts(authored):
    build(authored, NOW)
    out = authored / "_site"
    ada = page(out / "authors/ada.html")
    assert ada.find(".//h1").text == "Ada Lovelace"
    assert ada.find(".//main//img[@class='avatar']").get("src") == "/assets/images/ada.svg"
    assert ada.find(".//main//p[@class='bio']").text == "Writes about analytical engines."
    assert ada.find(".//main//a[@href='https://example.org/~ada']") is not None
    # posts_per_page is 2: Ada's four posts take two pages, newest first.
    titles = [a.text for a in ada.iterfind(".//main//ul[@class='post-list']/li/a")]
    assert titles == ["More", "By Grace"]
    second = page(out / "authors/ada/page2.html")
    assert [a.text for a in second.iterfind(".//main//ul[@class='post-list']/li/a")] == ["Second post", "First post"]
    assert second.find(".//title").text.startswith("Ada Lovelace, page 2")
    grace = page(out / "authors/grace.html")
    assert [a.text for a in grace.iterfind(".//main//ul[@class='post-list']/li/a")] == ["By Grace"]
    assert grace.find(".//main//img[@class='avatar']").get("src") == "/assets/images/grace.svg"
    index = page(out / "authors.html")
    assert [(a.get("href"), a.text) for a in index.iterfind(".//main//li/a")] == [
        ("/authors/ada.html", "Ada Lovelace"), ("/authors/grace.html", "Grace Hopper")]
    assert not (out / "authors/linus.html").exists()
    assert "https://example.org/authors/ada/page2.html" in (out / "sitemap.txt").read_text()
    assert_html5_parses(out)
    assert_internal_links_and_anchors(out)


def test_post_pages_link_their_authors_pages_and_show_others_as_written(authored):
    build(authored, NOW)
    out = authored / "_site"
    meta = page(out / "2020/08/01/by-grace.html").find(".//main//p[@class='post-meta']")
    links = [(a.get("href"), a.get("rel"), a.text) for a in meta.iterfind("a")]
    assert links == [("/authors/grace.html", "author", "Grace Hopper"), ("/authors/ada.html", "author", "Ada Lovelace")]
    assert "Linus" in "".join(meta.itertext()) and "Linus" not in "".join(a.text for a in meta.iterfind("a"))
    second = page(out / "2020/05/01/second.html").find(".//main//p[@class='post-meta']")
    assert [a.text for a in second.iterfind("a")] == ["Ada Lovelace"] and "Grace" in "".join(second.itertext())
    blog = page(out / "blog.html")
    assert blog.find(".//main//a[@href='/authors/ada.html']") is not None


def test_feeds_give_authors_their_link_and_avatar(authored):
    build(authored, NOW)
    out = authored / "_site"
    atom = feedparser.parse((out / "atom.xml").read_bytes())
    by_grace = next(e for e in atom.entries if e.title == "By Grace")
    assert [(a.get("name"), a.get("href")) for a in by_grace.authors] == [
        ("Grace Hopper", "https://example.org/authors/grace.html"), ("Ada Lovelace", "https://example.org/~ada"),
        ("Linus", None)]
    item = next(i for i in assert_json_feed_valid(out / "feed.json")["items"] if i["title"] == "By Grace")
    assert item["authors"] == [
        {"name": "Grace Hopper", "url": "https://example.org/authors/grace.html",
         "avatar": "https://example.org/assets/images/grace.svg"},
        {"name": "Ada Lovelace", "url": "https://example.org/~ada", "avatar": "https://example.org/assets/images/ada.svg"},
        {"name": "Linus"}]


def test_a_missing_avatar_stops_the_build_naming_the_data_file_and_key(authored, capsys):
    build(authored, NOW)
    before = {p: p.read_bytes() for p in (authored / "_site").rglob("*") if p.is_file()}
    (authored / "assets/images/grace.svg").unlink()
    (authored / "content/posts/2020-09-01-more.md").write_text("---\ntitle: More, edited\nauthor: Ada\n---\nB.\n")
    assert main(["-C", str(authored), "build"]) == 1
    error = capsys.readouterr().err
    assert error == ("error: content/data/authors.yml: key 'grace.avatar': the site has no file "
                     "'assets/images/grace.svg' (put it in assets/ or a static folder, or leave the avatar out)\n")
    assert {p: p.read_bytes() for p in (authored / "_site").rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("entry, message", [
    ("ada: {name: Ada, avatar: 'https://cdn.example.com/ada.png'}",
     "key 'ada.avatar': 'https://cdn.example.com/ada.png' is on another host"),
    ("ada: {name: Ada, avatar: //cdn.example.com/ada.png}", "key 'ada.avatar': '//cdn.example.com/ada.png' is on another host"),
    ("ada: {name: Ada, web: https://example.org}", "unknown key 'ada.web' (known keys: avatar, bio, link, name)"),
    ("ada: {bio: Hi}", "missing required key 'ada.name' (a string)"),
    ("ada: {name: '  '}", "key 'ada.name': an author needs a name"),
    ("ada: {name: [Ada]}", "key 'ada.name': expected a string, got a list ['Ada']"),
    ("ada: Ada Lovelace", "key 'ada': expected a mapping with keys name, link, avatar, bio"),
    ("- ada", "expected a mapping of author keys to their name, link, avatar and bio"),
    ("ada: {name: Ada}\nlovelace: {name: Ada}", "keys 'ada' and 'lovelace' have the same name 'Ada'"),
])
def test_a_bad_authors_file_is_an_error_naming_it_and_the_key(basic_site, entry, message):
    (basic_site / "content/data/authors.yml").write_text(entry + "\n")
    with pytest.raises(SiteError) as error:
        build(basic_site, NOW)
    assert error.value.path == "content/data/authors.yml" and message in error.value.message, error.value


def test_with_author_pages_off_authors_yml_is_plain_data(basic_site):
    # A Jekyll theme's authors.yml (minimal-mistakes' shape): data for the site's own templates.
    (basic_site / "content/data/authors.yml").write_text(
        "Ada:\n  name: Ada Lovelace\n  web: https://example.org\n  avatar: https://cdn.example.com/a.png\n")
    configure(basic_site, "archives: {authors: false}\n")
    build(basic_site, NOW)
    out = basic_site / "_site"
    assert not (out / "authors.html").exists() and not (out / "authors").exists()
    meta = page(out / "2019/03/18/first-post.html").find(".//main//p[@class='post-meta']")
    assert meta.find("a") is None and "Ada" in "".join(meta.itertext())


def test_no_authors_file_no_author_pages(basic_site):
    build(basic_site, NOW)
    assert not (basic_site / "_site/authors.html").exists()


def test_editing_authors_yml_remakes_the_pages_that_show_what_it_says(authored):
    build(authored, NOW)
    data = authored / "content/data/authors.yml"
    data.write_text(data.read_text().replace("name: Grace Hopper", "name: Grace B. Hopper"))
    result = build(authored, NOW)
    # Her page and the index; the posts naming her (by her old name: now nobody's) and Ada's
    # lists that show them; the feeds.
    assert "authors/grace.html" in result.written and "authors.html" in result.written
    assert "2020/08/01/by-grace.html" in result.written and "2019/03/18/first-post.html" not in result.written
    assert "Grace Hopper" in (authored / "_site/2020/08/01/by-grace.html").read_text()
    assert 'href="/authors/grace.html"' not in (authored / "_site/2020/08/01/by-grace.html").read_text()
    assert_same_as_full_build(authored, NOW)


# --- sitegen new post, sitegen --version -------------------------------------------------------


@pytest.mark.parametrize("title, slug", [
    ("Ünïcode & C++ — Ça va?", "unicode-c-ca-va"),
    ("Привет, мир", "privet-mir"),
    ("深度学习编译器", "shenduxuexibianyiqi"),       # anyascii's pinyin, syllables run together
    ("Ελληνικά νέα", "ellinika-nea"),
    ("What’s new in TVM 0.18", "what-s-new-in-tvm-0-18"),   # as Jekyll's slugify: tag URLs stay put
    ("🎉 Party time", "tada-party-time"),
    ("Straße", "strasse"),
])
def test_new_post_is_a_draft_with_a_transliterated_slug(basic_site, capsys, title, slug):
    assert main(["-C", str(basic_site), "new", "post", title]) == 0
    created = Path(capsys.readouterr().out.removeprefix("created ").strip())
    assert created.parent == Path("content/posts") and created.name[11:] == f"{slug}.md", created
    front = yaml.safe_load((basic_site / created).read_text(encoding="utf-8").split("---\n")[1])
    assert (front["title"], front["author"], front["draft"]) == (title, "Test Author", True)
    url = f"{created.name[:10].replace('-', '/')}/{slug}.html"
    build(basic_site, BuildOptions(now=datetime(2100, 1, 1, tzinfo=timezone.utc)))
    assert not (basic_site / "_site" / url).exists()                 # a draft until the line goes
    build(basic_site, BuildOptions(now=datetime(2100, 1, 1, tzinfo=timezone.utc), drafts=True))
    assert (basic_site / "_site" / url).is_file()


def test_version_is_the_installed_distributions():
    done = subprocess.run([sys.executable, "-m", "generator", "--version"], capture_output=True, text=True,
                          cwd=REPO)
    assert done.returncode == 0, done.stderr
    installed = importlib.metadata.version("sitegen-oss")
    assert done.stdout == f"sitegen {installed}\n"
    assert installed == tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]


def test_a_person_given_in_place_is_shown_by_name(basic_site):
    """Jekyll sites write ``author: {name, url}`` (jekyll-seo-tag's form): the byline shows the name."""
    post(basic_site, "2020-08-01-placed.md", "title: Placed\nauthor:\n  name: Mei Chen\n  url: https://example.org/mei\n")
    post(basic_site, "2020-08-02-pair.md", "title: Pair\nauthor:\n  - name: Ana\n  - Bo\n")
    build(basic_site, NOW)
    out = basic_site / "_site"
    assert "Mei Chen" in "".join(page(out / "2020/08/01/placed.html").find(".//main//p[@class='post-meta']").itertext())
    assert "Ana, Bo" in "".join(page(out / "2020/08/02/pair.html").find(".//main//p[@class='post-meta']").itertext())


def test_a_person_without_a_name_is_one_line_naming_the_post(basic_site, capsys):
    post(basic_site, "2020-08-01-nameless.md", "title: Nameless\nauthor:\n  url: https://example.org/x\n")
    assert main(["-C", str(basic_site), "build"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "2020-08-01-nameless.md" in err[0] and "key 'author'" in err[0] and "'name'" in err[0]


def test_a_page_of_the_site_at_the_blogs_url_is_its_index_made_once_per_page_of_posts(basic_site):
    # A page of one's own in place of blog.html: its Liquid reads jekyll-paginate's paginator.
    (basic_site / "content/pages/blog.md").write_text(
        "---\ntitle: Our news\n---\n{% for post in paginator.posts %}- [{{ post.title }}]({{ post.url }})\n"
        "{% endfor %}\nPage {{ paginator.page }} of {{ paginator.total_pages }}, {{ paginator.total_posts }} posts."
        "{% if paginator.next_page %} [Older]({{ paginator.next_page_path }}){% endif %}"
        "{% if paginator.previous_page %} [Newer]({{ paginator.previous_page_path }}){% endif %}\n", encoding="utf-8")
    build(basic_site, NOW)
    out = basic_site / "_site"
    first, second = (out / "blog.html").read_text(), (out / "blog/page2.html").read_text()
    assert "Our news" in first and "Page 1 of 2, 3 posts." in first and '<a href="/blog/page2.html">Older</a>' in first
    assert ">Third post</a>" in first and ">First post</a>" not in first
    assert ">First post</a>" in second and '<a href="/blog.html">Newer</a>' in second and "Page 2 of 2" in second
    post(basic_site, "2021-07-01-fourth.md", "title: Fourth post\n")     # every page shifts
    build(basic_site, NOW)
    assert ">Second post</a>" in (out / "blog/page2.html").read_text()
    assert_same_as_full_build(basic_site)
