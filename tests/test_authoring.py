"""Authoring constructs in Markdown: content tabs, Mermaid diagrams, code blocks with highlighted
lines and a caption. tests/test_authoring_browser.py shows them in Chromium."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from generator.markdown import render_markdown

TABS = '''\
Install it:

=== "pip"

    ```
    pip install sitegen-oss
    ```

=== "conda"

    Use *conda-forge*.
'''


class Elements(HTMLParser):
    """Every start tag of a document, in order, as (tag, attributes)."""

    def __init__(self, html: str):
        super().__init__()
        self.found: list[tuple[str, dict]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))


def test_content_tabs_are_radio_buttons_with_labels_and_a_block_each():
    html = render_markdown(TABS).html
    elements = Elements(html).found
    sets = [a for tag, a in elements if "tabbed-set" in a.get("class", "")]
    assert len(sets) == 1 and "tabbed-alternate" in sets[0]["class"]
    radios = [a for tag, a in elements if tag == "input"]
    assert [r["type"] for r in radios] == ["radio", "radio"] and "checked" in radios[0]
    assert len({r["name"] for r in radios}) == 1
    labels = re.findall(r'<label for="([^"]+)">([^<]*)</label>', html)
    assert labels == [(radios[0]["id"], "pip"), (radios[1]["id"], "conda")]
    blocks = html.split('<div class="tabbed-block">')[1:]
    assert len(blocks) == 2
    assert 'class="highlight"' in blocks[0] and "pip install sitegen-oss" in blocks[0]
    assert "<em>conda-forge</em>" in blocks[1]
    assert "===" not in html


def test_a_mermaid_fence_is_its_source_escaped_in_a_pre_mermaid():
    html = render_markdown('Before.\n\n```mermaid\ngraph LR\n  A["a & <b>"] --> B\n```\n').html
    assert '<pre class="mermaid">graph LR\n  A["a &amp; &lt;b&gt;"] --&gt; B</pre>' in html
    assert 'class="highlight' not in html


def test_highlighted_lines_and_a_title_shown_as_the_blocks_caption():
    html = render_markdown('```python hl_lines="2 3" title="setup.py"\na = 1\nb = 2\nc = 3\nd = 4\n```\n').html
    assert html.count('<span class="hll">') == 2
    assert re.search(r'<span class="hll"><span class="n">b</span>.*\n</span><span class="hll"><span class="n">c',
                     html)
    opening = Elements(html).found[0][1]
    assert opening["aria-label"] == "setup.py, Python code"
    assert re.match(r'<div class="highlight"[^>]*><span class="filename">setup\.py</span><pre>', html)


def test_a_title_is_escaped_in_the_caption_and_the_blocks_name():
    html = render_markdown('```text title="a<b>.txt"\nx\n```\n').html
    assert '<span class="filename">a&lt;b&gt;.txt</span>' in html
    assert 'aria-label="a&lt;b&gt;.txt, Code"' in html
