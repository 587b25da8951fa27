"""jekyll-paginate imported: the index page it paginates is made once per page of posts, at
Jekyll's URLs, its Liquid and layout seeing Jekyll's ``paginator``; where the site does not
load the plugin, nothing is paginated, as in Jekyll. Each site is built by real Jekyll and by
sitegen after the import (as poole/lanyon's home page, rails/website's /blog/page/N/)."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.build import BuildOptions, Engine, build
from generator.cli import main
from generator.importers.jekyll import import_jekyll
from test_import_jekyll import jekyll_build, needs_jekyll, small_site, url_list
from tests import parity

CONFIG = "title: Small\nurl: https://small.example\ntimezone: UTC\npaginate: 2\n"
PLUGIN = "plugins: [jekyll-paginate]\n"
# The layout reads the paginator too (a title's "page N"), and the page's URL, which is page N's.
LAYOUT = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}{% if paginator.page > 1 %}, page "
          "{{ paginator.page }}{% endif %}</title></head><body><p>{{ page.url }}</p>{{ content }}</body></html>\n")
# Every key of jekyll-paginate v1's paginator, as lanyon's and rails/website's index pages read them.
INDEX = ("---\nlayout: default\ntitle: Home\n---\n"
         "<ul>{% for post in paginator.posts %}<li><a href=\"{{ post.url | absolute_url }}\">{{ post.title }}</a>"
         "</li>{% endfor %}</ul>\n<p>{{ paginator.page }}/{{ paginator.total_pages }} ({{ paginator.per_page }} of "
         "{{ paginator.total_posts }}) prev={{ paginator.previous_page }} {{ paginator.previous_page_path }} "
         "next={{ paginator.next_page }} {{ paginator.next_page_path }}</p>\n"
         "{% if paginator.next_page %}<a class=\"older\" href=\"{{ paginator.next_page_path | relative_url }}\">"
         "Older</a>{% endif %}\n")


def _posts(count: int) -> dict[str, str]:
    return {f"_posts/2020-01-{day:02d}-post-{day}.md": f"---\nlayout: default\ntitle: Post {day}\n---\nBody {day}.\n"
            for day in range(1, count + 1)}


def _both(tmp_path: Path, config: str, files: dict[str, str]):
    source = small_site(tmp_path / "jekyll", CONFIG + config, {"_layouts/default.html": LAYOUT, **files})
    jekyll_build(source, tmp_path / "old")
    result = import_jekyll(source, tmp_path / "new")
    build(tmp_path / "new")
    return tmp_path / "old", tmp_path / "new/_site", result


def _same_pages(old: Path, new: Path) -> list[str]:
    """The pages both published, each the same as Jekyll's: its title, and its body as a DOM."""
    urls = url_list(old, "")
    assert [u for u in url_list(new, "") if u != "/404.html"] == urls
    for url in urls:
        path = url.lstrip("/") + ("index.html" if url.endswith("/") else "")
        mine, theirs = (new / path).read_text(), (old / path).read_text()
        assert mine.split("<body>")[0] == theirs.split("<body>")[0], url
        assert parity.dom(_body(mine)) == parity.dom(_body(theirs)), url
    return urls


def _body(html: str) -> str:
    return html.split("<body>", 1)[1].split("</body>", 1)[0]


@needs_jekyll
def test_the_index_page_is_made_once_per_page_of_posts_at_jekylls_urls_with_its_paginator(tmp_path) -> None:
    # As poole/lanyon: the home page paginated, page N at Jekyll's default /page:num; a page elsewhere
    # reading paginator reads nil.
    old, new, result = _both(tmp_path, PLUGIN, {
        **_posts(5), "index.html": INDEX,
        "about/index.html": "---\nlayout: default\ntitle: About\n---\n<p>[{{ paginator.page }}]</p>\n"})
    urls = _same_pages(old, new)
    assert [u for u in urls if "/2020/" not in u] == ["/", "/about/", "/page2/", "/page3/"]
    page2 = (new / "page2/index.html").read_text()
    assert "<title>Home, page 2</title>" in page2 and "<p>/page2/</p>" in page2
    assert "Post 3</a></li><li>" in page2 and "2/3 (2 of 6) prev=1 / next=3 /page3" in page2
    assert '<a class="older" href="/page3">' in page2 and "<p>[]</p>" in (new / "about/index.html").read_text()
    assert any("jekyll-paginate's pages of posts" in line for line in result.settings_taken)


@needs_jekyll
def test_the_deepest_index_page_above_paginate_path_is_paginated_there(tmp_path) -> None:
    # As rails/website: paginate_path /blog/page/:num, blog/index.html paginated (not the home page,
    # which a shallower index.html is); an include in the loop shows each post's first words, a
    # no-break space one of them, as Ruby splits words, and the empty one after the content's last
    # newline (six words and "...").
    old, new, _ = _both(tmp_path, PLUGIN + "paginate_path: /blog/page/:num\n", {
        **_posts(5), "_posts/2020-01-03-post-3.md": "---\nlayout: default\ntitle: Post 3\n---\n"
                                                    "Greetings! Let's dive in.\n&nbsp;\nTwo new guides are open.\n",
        "_posts/2020-01-04-post-4.md": "---\nlayout: default\ntitle: Post 4\n---\nOne two three four five six.",
        "blog/index.html": INDEX.replace("<li><a", "<li>{% include post.html %}<a"),
        "_includes/post.html": "<time>{{ post.date | date: '%b %-d' }}</time>"
                               "<p>{{ post.content | strip_html | truncatewords: 6 }}</p>",
        "index.html": "---\nlayout: default\ntitle: Home\n---\n<p>{{ site.posts.size }} posts</p>\n"})
    urls = _same_pages(old, new)
    assert [u for u in urls if "/2020/" not in u] == ["/", "/blog/", "/blog/page/2/", "/blog/page/3/"]
    page2 = (new / "blog/page/2/index.html").read_text()
    assert "next=3 /blog/page/3</p>" in page2 and "dive in. \xa0 Two...</p>" in page2
    assert "<p>One two three four five six....</p>" in (new / "blog/index.html").read_text()


@needs_jekyll
def test_without_the_plugin_nothing_is_paginated_as_in_jekyll(tmp_path) -> None:
    # As poole/hyde: `paginate` set, jekyll-paginate not loaded: paginator is nil, on one page.
    old, new, result = _both(tmp_path, "", {**_posts(3), "index.html": INDEX})
    assert [u for u in _same_pages(old, new) if "/2020/" not in u] == ["/"]
    assert any("jekyll-paginate is not among the site's plugins" in note.action for note in result.notes)


@needs_jekyll
def test_a_new_post_shifts_every_page_as_a_clean_build_makes_them(tmp_path) -> None:
    _, _, _ = _both(tmp_path, PLUGIN, {**_posts(4), "index.html": INDEX})
    site = tmp_path / "new"
    engine = Engine(site, BuildOptions())     # warm, as the preview's
    engine.build()
    edits = [("content/posts/2020-01-05-post-5.md", None, "---\nlayout: default\ntitle: Post 5\n---\nBody 5.\n"),
             ("content/posts/2020-01-02-post-2.md", "title: Post 2", "title: Post Two"),   # shown on page 2
             ("content/pages/index.html", "<ul>", "<ul class=\"listed\">"),               # on every page
             ("content/posts/2020-01-05-post-5.md", "", None),
             ("site.yaml", "posts_per_page: 2", "posts_per_page: 3")]                   # a page fewer
    for number, (name, before, after) in enumerate(edits):
        path = site / name
        if after is None:
            path.unlink()
        else:
            path.write_text(after if before is None else path.read_text().replace(before, after))
        engine.build()
        clean = tmp_path / f"clean-{number}"
        shutil.copytree(site, clean, ignore=shutil.ignore_patterns("_site", ".sitegen"))
        build(clean)
        made = sorted(p.relative_to(site / "_site").as_posix() for p in (site / "_site").rglob("*.html"))
        assert made == sorted(p.relative_to(clean / "_site").as_posix() for p in (clean / "_site").rglob("*.html"))
        for page in made:
            assert (site / "_site" / page).read_text() == (clean / "_site" / page).read_text(), (name, page)
    assert not (site / "_site/page3").exists()
    page2 = (site / "_site/page2/index.html").read_text()
    assert "Post Two</a>" in (site / "_site/index.html").read_text() and "Post 5" not in page2
    assert '<ul class="listed">' in page2 and ">Hello</a></li><li>" in page2 and "Post 1</a>" in page2 and "2/2 (3 of 5)" in page2


def test_a_post_jekyll_paginate_left_out_is_named_in_the_report(tmp_path) -> None:
    source = small_site(tmp_path / "jekyll", CONFIG + PLUGIN, {
        **_posts(2), "_posts/2020-01-03-aside.md": "---\nlayout: default\ntitle: Aside\nhidden: true\n---\nA.\n",
        "index.html": INDEX})
    result = import_jekyll(source, tmp_path / "new")
    assert [(note.path, note.construct) for note in result.notes if "left this post out" in note.action] == [
        ("_posts/2020-01-03-aside.md", "hidden")]


def test_a_paginate_path_without_num_is_one_line_naming_the_key(tmp_path, capsys) -> None:
    source = small_site(tmp_path / "jekyll", CONFIG + PLUGIN, {**_posts(3), "index.html": INDEX})
    import_jekyll(source, tmp_path / "new")
    config = tmp_path / "new/site.yaml"
    config.write_text(config.read_text().replace("paginate_path: /page:num", "paginate_path: /page"))
    assert main(["-C", str(tmp_path / "new"), "build"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "key 'archives.paginate_path': expected a path starting with '/' holding :num" \
        in err, err
