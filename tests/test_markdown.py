"""The Markdown pipeline renders what kramdown renders, checked against real TVM posts."""

import re

import pytest

from generator.config import Config
from generator.markdown import kramdown_id, render_markdown
from generator.site import parse_document
from generator.sources import load_source, split_front_matter
from pathlib import Path


def corpus_post(shared, name: str) -> str:
    path = shared / "corpus" / "tvm-site" / "_posts" / name
    return split_front_matter(path.read_text(encoding="utf-8"), path)[1]


@pytest.mark.parametrize("text, expected", [
    ("Motivation", "motivation"),
    ("Download  Source Code", "download--source-code"),
    ("1. Getting Started!", "getting-started"),
    ("C++ & CUDA: a tour", "c--cuda-a-tour"),
    ("???", "section"),
])
def test_kramdown_header_id_rule(text, expected):
    assert kramdown_id(text) == expected


def test_header_ids_use_rendered_text_and_stay_unique():
    html = render_markdown("## **Motivation**\n\n## Download  Source Code\n\n## Motivation\n").html
    assert '<h2 id="motivation"><strong>Motivation</strong></h2>' in html
    assert 'id="download--source-code"' in html
    assert 'id="motivation-1"' in html


def test_explicit_ids_are_kept():
    assert 'id="custom"' in render_markdown("## Title {#custom}\n").html


def test_real_post_heading_with_emphasis(shared):
    rendered = render_markdown(corpus_post(shared, "2026-06-22-tirx.md"))
    assert '<h2 id="motivation"><strong>Motivation</strong></h2>' in rendered.html
    assert rendered.toc[0].id == "motivation" and rendered.toc[0].title == "Motivation"


def test_real_post_image_attributes_and_named_attribute_lists(shared):
    html = render_markdown(corpus_post(
        shared, "2017-08-22-Optimize-Deep-Learning-GPU-Operators-with-TVM-A-Depthwise-Convolution-Example.md")).html
    assert re.search(r'<p style="text-align: center">\s*<img alt="image" '
                     r'src="/images/depthconv_tutorial/tf_compare.png" width="95%"', html)
    assert "{:center" not in html
    assert "<table>" in html


def test_real_post_footnotes_and_blank_targets(shared):
    html = render_markdown(corpus_post(shared, "2020-09-26-bring-your-own-datatypes.md")).html
    assert re.search(r'<sup id="fnref:\w+" role="doc-noteref"><a class="footnote" href="#fn:\w+"', html)
    assert '<div class="footnotes" role="doc-endnotes">' in html
    assert re.search(r'<a href="https?://[^"]+" target="_blank">', html)


def test_real_post_math_passes_through(shared):
    html = render_markdown(corpus_post(shared, "2026-06-22-tirx.md")).html
    assert '<div class="arithmatex">\\[' in html
    assert "$$" not in html


def test_jekyll_highlight_tags_become_highlighted_code(shared, tmp_path):
    """Liquid's highlight tags (run before Markdown, see liquid.py) turn into Pygments blocks."""
    posts = tmp_path / "content" / "posts"
    posts.mkdir(parents=True)
    name = "2017-10-30-Bringing-AMDGPUs-to-TVM-Stack-and-NNVM-Compiler-with-ROCm.md"
    (posts / name).write_text((shared / "corpus" / "tvm-site" / "_posts" / name).read_text())
    config = Config(title="t", url="https://example.org", root=tmp_path)
    html = parse_document(load_source(tmp_path, "post", Path("content/posts") / name), config).content
    assert "{%" not in html and "endhighlight" not in html and "Plain Text" not in html
    assert html.count('<div class="highlight" ') == 8      # as many as Jekyll makes


def test_every_kramdown_feature_in_one_document():
    html = render_markdown('''\
Term
: Definition

| a | b |
|---|---|
| 1 | 2 |

"Quoted" -- and 'single'.

Inline $$ a_{i} = \\sum_j b_{ij} $$ math, and prices like $5 stay.

$$
C = A B
$$

[out](https://example.org/){:target="_blank"}

Paragraph
{: .note}

!!! warning "Careful"
    Admonition body.

<div class="box" markdown="1">
*inside*
</div>

The IR matters.

*[IR]: Intermediate Representation
''').html
    assert "<dl>\n<dt>Term</dt>\n<dd>Definition</dd>" in html
    assert "<table>" in html and "<th>a</th>" in html
    assert "&ldquo;Quoted&rdquo; &ndash; and &lsquo;single&rsquo;." in html
    assert '<span class="arithmatex">\\(a_{i} = \\sum_j b_{ij}\\)</span>' in html
    assert "$5 stay" in html
    assert '<div class="arithmatex">\\[\nC = A B\n\\]</div>' in html
    assert '<a href="https://example.org/" target="_blank">out</a>' in html
    assert '<p class="note">Paragraph</p>' in html
    assert '<div class="admonition warning">' in html and "Careful" in html
    assert '<div class="box">\n<p><em>inside</em></p>' in html
    assert '<abbr title="Intermediate Representation">IR</abbr>' in html


def test_fenced_code_languages_line_numbers_and_highlighted_lines():
    html = render_markdown('''\
```python hl_lines="2" linenums="1"
a = 1
b = 2
```

```c++
int main() { return 0; }
```

```nosuchlanguage
plain <text>
```
''').html
    assert 'class="linenos"' in html
    assert '<span class="hll"><span class="n">b</span>' in html
    assert '<span class="kt">int</span>' in html
    assert "plain &lt;text&gt;" in html
