"""Constructs that made pages of project sites differ from Jekyll's (benchmarks/whole_sites.toml:
apache/datasketches-website, jruby/jruby.github.io, ...), each in a small site written here and
built by real Jekyll and by sitegen after the import, the pages compared."""

from __future__ import annotations

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
