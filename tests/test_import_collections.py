"""Jekyll collections imported: their documents published at Jekyll's URLs, listed by the
templates and Liquid that read ``site.NAME`` in Jekyll's order, and what cannot be carried
over named in the report. Each site is built by real Jekyll and by sitegen after the import."""

from __future__ import annotations

from pathlib import Path

from generator.build import build
from generator.importers.jekyll import import_jekyll
from test_import_jekyll import _tight, jekyll_build, needs_jekyll, small_site, url_list

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
              "  articles: {output: true, permalink: '/:path/'}\n  recipes: {output: true}\n"
              "defaults:\n  - scope: {type: docs}\n    values: {layout: default}\n"
              "  - scope: {path: '', type: articles}\n    values: {layout: default, permalink: '/guide/:title/'}\n")
    old, new, result = _both(tmp_path, config, {
        "_docs/Getting Started.md": "---\ntitle: Start\n---\nStart here.\n",
        "_docs/install/on-linux.md": "---\n---\nLinux.\n",
        "_docs/own.md": "---\npermalink: /elsewhere/own.html\n---\nOwn.\n",
        "_articles/how-to/Contribute_Now.md": "---\ntitle: Contribute\n---\nHelp.\n",
        "_articles/placed.md": "---\ntitle: Placed\npermalink: /:collection/:name/\n---\nHere.\n",
        "_recipes/2021-03-04-bread.md": "---\nlayout: default\n---\nFlour.\n",
        "_recipes/soup.html": "---\nlayout: default\ntitle: Soup\n---\n<p>Water.</p>\n",
        "_recipes/notes.txt": "no front matter: a static file\n"})
    jekylls = url_list(old, "")
    assert jekylls == ["/2020/01/02/hello-world.html", "/articles/placed/", "/docs/getting-started/",
                       "/docs/on-linux/", "/elsewhere/own.html", "/guide/Contribute_Now/",
                       "/recipes/2021-03-04-bread.html", "/recipes/soup.html"]
    assert [u for u in url_list(new, "") if u != "/404.html"] == jekylls
    assert result.collected == 7
    for url in jekylls:
        path = url.lstrip("/") + ("index.html" if url.endswith("/") else "")
        assert _tight((new / path).read_text()) == _tight((old / path).read_text()), url
    assert "<title>On Linux</title>" in (old / "docs/on-linux/index.html").read_text()
