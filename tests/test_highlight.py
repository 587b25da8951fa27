"""Pygments at build time: languages, fallback, source listings and the stylesheet."""

from generator.highlight import highlight, source_lines, stylesheet


def test_known_languages_are_tokenized():
    assert '<span class="k">def</span>' in highlight("def f(): pass\n", "python")
    assert '<span class="nt">"a"</span>' in highlight('{"a": 1}\n', "json")
    assert 'class="nb">echo</span>' in highlight("echo hi\n", "bash")


def test_unknown_language_is_plain_text():
    html = highlight("x <y>\n", "no-such-language")
    assert "x &lt;y&gt;" in html and '<div class="highlight">' in html


def test_source_lines_split_multiline_tokens():
    code = 'def f():\n    """Doc\n    string."""\n    return 1\n'
    lines = source_lines(code, "example.py")
    assert [line.number for line in lines] == [1, 2, 3, 4]
    # The docstring spans lines 2-3, yet each line is complete markup on its own.
    for line in lines:
        assert line.html.count("<span") == line.html.count("</span>")
    assert lines[2].html == '<span class="sd">    string."""</span>'


def test_stylesheet_targets_the_highlight_class():
    css = stylesheet("friendly")
    assert ".highlight .k" in css and ".highlight .hll" in css
