"""Huge inputs (issue 15.5): refused beyond site.yaml's limit, rendered right below it.

How the time grows with the input is measured in benchmarks/bench_huge.py, not here.
"""

from __future__ import annotations

from generator.cli import main
from generator.markdown import render_markdown


def test_a_post_beyond_the_limit_is_refused_naming_its_size(basic_site, capsys):
    (basic_site / "site.yaml").write_text((basic_site / "site.yaml").read_text()
                                          + "limits:\n  max_source_bytes: 50000\n")
    body = "A sentence of a pasted log.\n" * 2000
    (basic_site / "content/posts/2020-01-01-log.md").write_text(f"---\ntitle: Log\n---\n{body}")
    assert main(["-C", str(basic_site), "build"]) == 1
    message = capsys.readouterr().err
    assert message == ("error: content/posts/2020-01-01-log.md: 56,000 bytes: larger than "
                       "site.yaml's limits.max_source_bytes (50,000)\n"), message
    assert not (basic_site / "_site").exists()


def test_the_limit_must_be_a_whole_number(basic_site, capsys):
    (basic_site / "site.yaml").write_text((basic_site / "site.yaml").read_text()
                                          + "limits:\n  max_source_bytes: 10 MB\n")
    assert main(["-C", str(basic_site), "build"]) == 1
    assert "key 'limits.max_source_bytes': expected a whole number" in capsys.readouterr().err


def test_thousands_of_equal_headings_get_numbered_ids_in_order():
    text = "".join(f"## Setup\n\nStep {i}.\n\n" for i in range(3000))
    ids = [heading.id for heading in render_markdown(text).toc]
    assert ids == ["setup"] + [f"setup-{n}" for n in range(1, 3000)]


def test_a_long_document_renders_every_block_in_order():
    blocks = [f"## Part {i}\n\nParagraph {i} says \"hello\" -- twice.\n\n* item {i}\n" for i in range(5000)]
    html = render_markdown("\n".join(blocks)).html
    assert html.count("<h2 ") == 5000 and html.count("<li>") == 5000
    assert html.index('id="part-4999"') > html.index("Paragraph 4998 says &ldquo;hello&rdquo; &ndash; twice.")
