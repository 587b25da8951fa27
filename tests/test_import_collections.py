"""Jekyll collections imported: their documents published at Jekyll's URLs, listed by the
templates and Liquid that read ``site.NAME`` in Jekyll's order, and what cannot be carried
over named in the report. Each site is built by real Jekyll and by sitegen after the import."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.build import BuildOptions, Engine, build
from generator.importers.jekyll import import_jekyll
from test_import_jekyll import _tight, jekyll_build, needs_jekyll, small_site, url_list
from tests import parity

CONFIG = "title: Small\nurl: https://small.example\ntimezone: UTC\n"


def _both(tmp_path: Path, config: str, files: dict[str, str]):
    source = small_site(tmp_path / "jekyll", CONFIG + config, files)
    jekyll_build(source, tmp_path / "old")
    result = import_jekyll(source, tmp_path / "new")
    build(tmp_path / "new")
    return tmp_path / "old", tmp_path / "new/_site", result


@needs_jekyll
def test_published_collections_are_pages_at_jekylls_urls(tmp_path) -> None:
    # As apache/drill-site's docs (`permalink: /docs/:slug/`), github/opensource.guide's
    # articles (`/:path/`), and a collection with Jekyll's default permalink.
    config = ("collections:\n  docs: {output: true, permalink: '/docs/:slug/'}\n"
              "  articles: {output: true, permalink: '/:path/'}\n  recipes: {output: true}\n  releases: {output: true}\n"
              "defaults:\n  - scope: {type: docs}\n    values: {layout: default}\n"
              "  - scope: {path: '', type: articles}\n    values: {layout: default, permalink: '/guide/:title/'}\n"
              "  - scope: {type: releases}\n    values: {layout: default, permalink: '/:year/:month/:day/:title/'}\n")
    old, new, result = _both(tmp_path, config, {
        "_docs/Getting Started.md": "---\ntitle: Start\n---\nStart here.\n",
        "_docs/install/on-linux.md": "---\n---\nLinux.\n",
        "_docs/own.md": "---\npermalink: /elsewhere/own.html\n---\nOwn.\n",
        "_articles/how-to/Contribute_Now.md": "---\ntitle: Contribute\n---\nHelp.\n",
        "_articles/placed.md": "---\ntitle: Placed\npermalink: /:collection/:name/\n---\nHere.\n",
        "_recipes/2021-03-04-bread.md": "---\nlayout: default\n---\nFlour.\n",
        "_recipes/soup.html": "---\nlayout: default\ntitle: Soup\n---\n<p>Water.</p>\n",
        "_recipes/notes.txt": "no front matter: a static file\n",
        "_releases/2014-06-19-crystal-0.1.0-released.md": "---\n---\nFirst.\n",     # as crystal-lang's
        "_releases/2015-3-4-minor.md": "---\n---\nOne digit.\n"})
    jekylls = url_list(old, "")
    assert jekylls == ["/2014/06/19/crystal-0.1.0-released/", "/2015/03/04/minor/", "/2020/01/02/hello-world.html",
                       "/articles/placed/",
                       "/docs/getting-started/",
                       "/docs/on-linux/", "/elsewhere/own.html", "/guide/Contribute_Now/",
                       "/recipes/2021-03-04-bread.html", "/recipes/soup.html"]
    assert [u for u in url_list(new, "") if u != "/404.html"] == jekylls
    assert result.collected == 9
    for url in jekylls:
        path = url.lstrip("/") + ("index.html" if url.endswith("/") else "")
        assert _tight((new / path).read_text()) == _tight((old / path).read_text()), url
    assert "<title>On Linux</title>" in (old / "docs/on-linux/index.html").read_text()


LISTING = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>{{ content }}<ul>"
           "{% for doc in site.docs %}<li><a href=\"{{ doc.url }}\">{{ doc.title }}</a> {{ doc.rank }}</li>{% endfor %}"
           "</ul><ol>{% for t in site.team %}<li>{{ t.title }}: {{ t.role }}</li>{% endfor %}</ol>"
           "<p>{% for c in site.collections %}{% if c.label != 'posts' %}{{ c.label }}={{ c.docs.size }} "
           "{% endif %}{% endfor %}</p>{% assign leads = site.team | where: 'role', 'lead' %}"
           "{% assign ranked = site.docs | where: 'rank', 2 %}<p>{{ leads.size }} {{ leads.first.title }} "
           "{{ ranked.size }} {{ ranked.first.title }}</p><p>{% assign byrank = site.docs | sort: 'rank' %}"
           "{% for d in byrank %}{{ d.title }};{% endfor %}</p></body></html>\n")
COLLECTED = {
    "_layouts/default.html": LISTING,
    "_docs/b.md": "---\ntitle: Bee\nrank: 1\n---\nB.\n",
    "_docs/a.md": "---\ntitle: Ay\nrank: 2\n---\nA.\n",
    "_docs/c.md": "---\ntitle: Sea\n---\nC.\n",
    "_team/zed.md": "---\nrole: lead\n---\nZ.\n",
    "_team/amy.md": "---\nrole: docs\n---\nA.\n",
    "_team/bob.md": "---\nrole: tests\n---\nB.\n",
    "_events/b-first.md": "---\ndate: 2020-01-01\n---\nB.\n",
    "_events/a-second.md": "---\ndate: 2021-01-01\n---\nA.\n",
    "_events/2022-01-01-last.md": "---\n---\nL.\n",
    "people.md": "---\nlayout: default\ntitle: People\n---\n{% for t in site.team %}- {{ t.title }} ({{ t.role }})\n"
                 "{% endfor %}\n\nEvents: {% for e in site.events %}[{{ e.title }}]{% endfor %}\n",
}
COLLECTIONS = ("collections:\n  docs: {output: true, sort_by: rank}\n  team: {order: [zed.md, bob.md]}\n  events: {}\n"
               "defaults:\n  - scope: {type: docs}\n    values: {layout: default}\n")


@needs_jekyll
def test_templates_and_liquid_list_collections_in_jekylls_order_unpublished_ones_too(tmp_path) -> None:
    # As scala/scala-lang's layouts loop over collections Jekyll does not publish (output: false),
    # and crystal-lang's pages list theirs: sort_by (documents without the key last), order.
    old, new, result = _both(tmp_path, COLLECTIONS, COLLECTED)
    assert [u for u in url_list(new, "") if u != "/404.html"] == url_list(old, "") == [
        "/2020/01/02/hello-world.html", "/docs/a.html", "/docs/b.html", "/docs/c.html", "/people.html"]
    page = (old / "people.html").read_text()
    assert "<li>Bee 1</li>" not in page and '<li><a href="/docs/b.html">Bee</a> 1</li><li><a href="/docs/a.html">Ay</a> 2' \
           '</li><li><a href="/docs/c.html">Sea</a> </li>' in page
    assert "<li>Zed: lead</li><li>Bob: tests</li><li>Amy: docs</li>" in page and "docs=3 events=3 team=3" in page
    assert "Events: [B First][A Second][Last]" in page and "<p>1 Zed 1 Ay</p>" in page     # where, on front matter
    assert "<p>Sea;Bee;Ay;</p>" in page      # sort by a front matter key: those without it first      # by date, the name's or the front matter's
    for path in ("people.html", "docs/a.html", "docs/c.html"):
        assert _tight((new / path).read_text()) == _tight((old / path).read_text()), path
    assert yaml_of(tmp_path / "new/site.yaml")["collections"] == {
        "docs": {"output": True, "sort_by": "rank", "order": []},
        "team": {"output": False, "sort_by": "", "order": ["zed.md", "bob.md"]},
        "events": {"output": False, "sort_by": "", "order": []}}


def yaml_of(path: Path) -> dict:
    import yaml

    return yaml.safe_load(path.read_text())


@needs_jekyll
def test_an_edited_document_of_a_collection_remakes_the_pages_listing_it_as_a_clean_build(tmp_path) -> None:
    old, new, _ = _both(tmp_path, COLLECTIONS, COLLECTED)
    site = tmp_path / "new"
    engine = Engine(site, BuildOptions())     # warm, as the preview's: an edit that moves nothing swaps in
    engine.build()
    edits = [("content/pages/_team/amy.md", "role: docs\n", "role: design\n"),     # a field a listing shows
             ("content/pages/_docs/c.md", "title: Sea\n", "title: Sea\nrank: 0\n"),  # its place in the order
             ("content/pages/_docs/a.md", "title: Ay\n", "title: Aye\n"),
             ("content/pages/_team/cat.md", None, "---\ntitle: Cat\nrole: new\n---\nC.\n")]   # one more
    for name, before, after in edits:
        path = site / name
        path.write_text(after if before is None else path.read_text().replace(before, after))
        engine.build()
        clean = tmp_path / f"clean-{path.stem}"
        shutil.copytree(site, clean, ignore=shutil.ignore_patterns("_site", ".sitegen"))
        build(clean)
        for page in ("people.html", "docs/a.html", "docs/b.html", "docs/c.html"):
            assert (site / "_site" / page).read_text() == (clean / "_site" / page).read_text(), (name, page)
    page = (site / "_site/people.html").read_text()
    assert "Amy: design" in page and page.index("Sea") < page.index("Bee") < page.index("Aye")
    assert "<li>Amy: design</li><li>Cat: new</li></ol>" in page and "team=4" in page


@needs_jekyll
def test_files_of_collections_are_copied_where_jekyll_put_them_and_the_rest_is_named(tmp_path) -> None:
    # A collection's pictures (no front matter) are published beside its pages; a document in a
    # format sitegen does not read is named in the report at its file, never left out silently,
    # unless Jekyll made an HTML page of it (`/manual/api/`): then so does sitegen, of its text.
    old, new, result = _both(tmp_path, "collections:\n  docs: {output: true, permalink: '/manual/:path/'}\n"
                                       "  notes: {}\n", {
        "_docs/guide/intro.md": "---\nlayout: default\n---\nSee ![x](logo.png).\n",
        "_docs/guide/logo.png": "PNG",
        "_docs/api.json": "---\n---\n{\"version\": 1}\n",
        "_notes/old.textile": "---\ntitle: Old\n---\nh1. Old\n"})
    assert (old / "manual/guide/logo.png").read_text() == (new / "manual/guide/logo.png").read_text() == "PNG"
    assert (old / "manual/api/index.html").is_file()      # Jekyll published the JSON document as a page
    assert [u for u in url_list(new, "") if u != "/404.html"] == url_list(old, "") == [
        "/2020/01/02/hello-world.html", "/manual/api/", "/manual/guide/intro/"]
    assert parity.dom((new / "manual/api/index.html").read_text()) == parity.dom((old / "manual/api/index.html").read_text())
    named = {(n.path, n.line, n.visible) for n in result.notes if "a document of the collection" in n.action}
    assert named == {("_notes/old.textile", 1, False)}
    report = (tmp_path / "new/IMPORT-REPORT.md").read_text()
    assert "- `_notes/old.textile:1`: `_notes/old.textile`: a document of the collection 'notes' that is not Markdown" in report


@needs_jekyll
def test_dates_ruby_reads_day_first_are_carried_over_as_jekyll_read_them(tmp_path) -> None:
    # As apache/drill-site's docs (`date: "23/01/2022"`) and scala/scala-lang's posts
    # (`date: 11-9-2017`) have them: sitegen's build refused both.
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>"
              "<p>{{ page.date | date: '%Y-%m-%d' }}</p>{{ content }}</body></html>\n")
    old, new, _ = _both(tmp_path, "collections:\n  docs: {output: true}\n", {
        "_layouts/default.html": layout,
        "_docs/gcp.md": "---\nlayout: default\ntitle: GCP\ndate: \"23/01/2022\"\n---\nG.\n",
        "_posts/2017-09-11-fix.md": "---\nlayout: default\ntitle: Fix\ndate: 11-9-2017\n---\nF.\n"})
    for page in ("docs/gcp.html", "2017/09/11/fix.html"):
        assert _tight((new / page).read_text()) == _tight((old / page).read_text()), page
    assert "<p>2022-01-23</p>" in (old / "docs/gcp.html").read_text()


@needs_jekyll
def test_an_unpublished_collections_documents_are_rendered_where_a_page_lists_them(tmp_path) -> None:
    # As scala/scala-lang's install tabs: documents Jekyll does not publish, whose Liquid includes
    # a file (the name alone on the tag's first line), shown through a page that loops over them.
    old, new, _ = _both(tmp_path, "collections:\n  tabs: {output: false}\n", {
        "_includes/alt.html": "<details id=\"{{ include.id }}\">{{ include.title }}</details>",
        "_tabs/1-macos.html": "---\nos: macOS\n---\n{% assign t = 'Brew' %}<p>On {{ page.os }}:</p>\n"
                              "{% include alt.html\n  id='mac'\n  title=t\n%}\n",
        "_tabs/2-linux.md": "---\nos: Linux\n---\nUse *apt*.\n",
        "install.html": "---\nlayout: default\ntitle: Install\n---\n{% for tab in site.tabs %}<section>{{ tab.content }}"
                        "</section>{% endfor %}\n"})
    assert [u for u in url_list(new, "") if u != "/404.html"] == url_list(old, "") == [
        "/2020/01/02/hello-world.html", "/install.html"]
    page = (old / "install.html").read_text()
    assert '<details id="mac">Brew</details>' in page and "<em>apt</em>" in page
    assert _tight((new / "install.html").read_text()) == _tight(page)


def test_a_placeholder_the_import_cannot_fill_is_named_and_the_page_kept_at_its_path(tmp_path) -> None:
    # Jekyll itself stops on such a template; the import names it and the site still builds.
    source = small_site(tmp_path / "jekyll", CONFIG + "collections:\n  docs: {output: true}\n"
                        "defaults:\n  - scope: {type: docs}\n    values: {permalink: '/:collection/:weekday/'}\n",
                        {"_docs/a.md": "---\ntitle: A\n---\nA.\n"})
    result = import_jekyll(source, tmp_path / "new")
    assert [(n.path, n.line, n.visible) for n in result.notes if "placeholder" in n.action] == [("_docs/a.md", 1, True)]
    build(tmp_path / "new")
    assert (tmp_path / "new/_site/_docs/a.html").is_file()


def test_a_collection_named_as_sitegens_own_lists_or_set_wrong_is_one_line_naming_the_key(tmp_path, capsys) -> None:
    from generator.cli import main

    source = small_site(tmp_path / "jekyll", CONFIG + "collections:\n  docs: {output: true}\n",
                        {"_docs/a.md": "---\ntitle: A\n---\nA.\n"})
    import_jekyll(source, tmp_path / "new")
    config = tmp_path / "new/site.yaml"
    text = config.read_text()
    for wrong, said in (("posts", "key 'collections.posts': a collection's name is a folder's"),
                        ("docs: {output: maybe}\n  x", "key 'collections.docs.output'")):
        config.write_text(text.replace("collections:\n  docs", f"collections:\n  {wrong}"))
        assert main(["-C", str(tmp_path / "new"), "build"]) == 1
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and said in err, err


# As bitcoin-core/bitcoincore.org's RPC docs: a menu of group_by's groups of a collection (a filter
# Jekyll does not have, sort_by, passed over), each group's items documents again, and a layout
# showing the document's body as code in a highlight block.
GROUPED = {
    "_includes/menu.html":
        '<ul>{% assign groups = site.doc | group_by:"btcversion" | sort_by: "btcversion" | reverse %}'
        '{% for group in groups %}{% if group.name != "index" %}{% for article in group.items %}'
        '{% if article.name == "index" %}<li><a href="{{ article.url }}">{{ group.name }}</a> {{ group.size }}</li>'
        '{% endif %}{% endfor %}{% endif %}{% endfor %}</ul>\n',
    "_layouts/doc.html":
        "<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body>{% include menu.html %}\n"
        '{% assign groups = site.doc | where:"btcversion", page.btcversion | group_by:"btcgroup" | sort: "name" %}'
        '{% for group in groups %}<h3>{{ group.name }}</h3><ul>{% for article in group.items %}'
        '<li><a href="{{ article.url }}">{{ article.name }}</a></li>{% endfor %}</ul>{% endfor %}\n'
        '{% if page.name != "index" %}<span class="doc">\n{% highlight text %}{{ content }}{% endhighlight %}\n'
        "</span>{% endif %}</body></html>\n",
    "_doc/index.html": "---\nname: index\nbtcversion: index\nbtcgroup: index\n---\n",
    "_doc/1.0/index.html": "---\nname: index\nbtcversion: '1.0'\nbtcgroup: index\n---\n",
    "_doc/1.0/rpc/stop.html": "---\nname: stop\nbtcversion: '1.0'\nbtcgroup: control\n---\nstop\n\nStops <the> node & exits.\n",
    "_doc/1.0/rpc/getinfo.html": "---\nname: getinfo\nbtcversion: '1.0'\nbtcgroup: util\n---\ngetinfo {\"a\": 1}\n",
    "_doc/2.0/index.html": "---\nname: index\nbtcversion: '2.0'\nbtcgroup: index\n---\n",
    "_doc/2.0/rpc/getinfo.html": "---\nname: getinfo\nbtcversion: '2.0'\nbtcgroup: util\n---\ngetinfo\n",
    "_doc/2.0/rpc/unsorted.html": "---\nname: unsorted\nbtcversion: '2.0'\n---\nIn no group.\n",
}
GROUPED_CONFIG = ("collections:\n  doc: {output: true}\n"
                  "defaults:\n  - scope: {path: '', type: doc}\n    values: {layout: doc}\n")
GROUPED_PAGES = ("doc/index.html", "doc/1.0/index.html", "doc/1.0/rpc/stop.html", "doc/1.0/rpc/getinfo.html",
                 "doc/2.0/rpc/getinfo.html", "doc/2.0/rpc/unsorted.html")


def _body(path: Path) -> tuple:
    from tests import parity

    return parity.dom(path.read_text().split("<body>", 1)[1].split("</body>", 1)[0])


@needs_jekyll
def test_layouts_group_a_collection_as_jekyll_and_show_a_body_as_code(tmp_path) -> None:
    old, new, result = _both(tmp_path, GROUPED_CONFIG, GROUPED)
    menu = '<ul><li><a href="/doc/2.0/index.html">2.0</a> 3</li><li><a href="/doc/1.0/index.html">1.0</a> 3</li></ul>'
    assert menu in (old / "doc/1.0/rpc/stop.html").read_text()
    assert "<h3></h3><ul><li><a href=\"/doc/2.0/rpc/unsorted.html\">unsorted</a>" in \
           (old / "doc/2.0/rpc/getinfo.html").read_text()      # no btcgroup: the group "" (nil as text)
    assert "Stops &lt;the&gt; node &amp; exits." in (old / "doc/1.0/rpc/stop.html").read_text()
    for page in GROUPED_PAGES:
        assert _body(new / page) == _body(old / page), page
    notes = (tmp_path / "new/IMPORT-REPORT.md").read_text()
    assert "`_includes/menu.html:1`: `| sort_by`: 'sort_by' is not a filter of Jekyll" in notes
    assert "group_by" not in notes and "highlight" not in notes


@needs_jekyll
def test_an_edited_document_remakes_the_pages_grouping_its_collection_as_a_clean_build(tmp_path) -> None:
    _, _, _ = _both(tmp_path, GROUPED_CONFIG, GROUPED)
    site = tmp_path / "new"
    engine = Engine(site, BuildOptions())
    engine.build()
    edits = [("content/pages/_doc/1.0/rpc/getinfo.html", "btcgroup: util\n", "btcgroup: network\n"),  # another group
             ("content/pages/_doc/2.0/index.html", "btcversion: '2.0'\n", "btcversion: '3.0'\n"),  # the menu's name
             ("content/pages/_doc/1.0/rpc/stop.html", "exits.", "exits now.")]      # a body shown as code
    for name, before, after in edits:
        path = site / name
        assert before in path.read_text(), name
        path.write_text(path.read_text().replace(before, after))
        engine.build()
        clean = tmp_path / f"clean-{path.stem}"
        shutil.copytree(site, clean, ignore=shutil.ignore_patterns("_site", ".sitegen"))
        build(clean)
        for page in GROUPED_PAGES:
            assert (site / "_site" / page).read_text() == (clean / "_site" / page).read_text(), (name, page)
    stop = (site / "_site/doc/1.0/rpc/stop.html").read_text()
    assert "<h3>network</h3>" in stop and ">3.0</a>" in stop and "exits now." in stop


FIELDS = "n={{ X.name }}|rp={{ X.relative_path }}|s={{ X.slug }}|e={{ X.ext }}|c={{ X.collection }}|id={{ X.id }}"


@needs_jekyll
def test_posts_documents_and_pages_have_jekylls_fields_of_their_files(tmp_path) -> None:
    # bitcoincore.org's menus pick documents by `name` (the front matter's, else the file's name).
    layout = ("<!DOCTYPE html>\n<html><head><title>{{ page.title }}</title></head><body><p>" + FIELDS.replace("X", "page")
              + "</p>{% for X in site.doc %}<p>" + FIELDS + "</p>{% endfor %}{% for X in site.posts %}<p>" + FIELDS
              + '</p>{% endfor %}{% assign named = site.doc | where: "name", "index.html" %}<p>{{ named.size }}</p>'
              "{{ content }}</body></html>\n")
    old, new, _ = _both(tmp_path, "collections:\n  doc: {output: true}\n", {
        "_layouts/default.html": layout,
        "_posts/2020-01-03-named.md": "---\nlayout: default\nname: own\nslug: myslug\n---\nx\n",
        "_doc/v1/index.html": "---\nlayout: default\n---\nx\n",
        "_doc/v1/get.info.md": "---\nlayout: default\nname: getinfo\n---\nx\n",
        "_doc/v2/about.md": "---\nlayout: default\npermalink: /v2/about/\n---\n"
                            "{% for d in site.doc %}{{ d.name }} {{ d.slug }} {{ d.collection }};{% endfor %}\n",
        "about/team.md": "---\nlayout: default\n---\nx\n"})
    page = (old / "about/team.html").read_text()
    assert "<p>n=team.md|rp=|s=|e=|c=|id=</p>" in page
    assert "<p>n=getinfo|rp=_doc/v1/get.info.md|s=get.info|e=.md|c=doc|id=/doc/v1/get.info</p>" in page
    assert "<p>n=index.html|rp=_doc/v1/index.html|s=index|e=.html|c=doc|id=/doc/v1/index</p>" in page
    assert "<p>n=own|rp=_posts/2020-01-03-named.md|s=myslug|e=.md|c=posts|id=/2020/01/03/myslug</p>" in page
    for name in ("about/team.html", "2020/01/02/hello-world.html", "doc/v1/index.html", "doc/v1/get.info.html",
                 "v2/about/index.html"):
        assert _tight((new / name).read_text()) == _tight((old / name).read_text()), name
