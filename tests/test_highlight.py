"""Pygments at build time: languages, fallback, source listings and the stylesheet."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygments import format as format_tokens
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.token import Comment, Error, Keyword, Name, String, Text, Whitespace

from generator.code_styles import STYLES
from generator.config import CodeStyles
from generator.highlight import _block_formatter, highlight, lexer_for, source_lines, stylesheet
from tests.conftest import REPO, shared_dir


def test_known_languages_are_tokenized():
    assert '<span class="k">def</span>' in highlight("def f(): pass\n", "python")
    assert '<span class="nt">"a"</span>' in highlight('{"a": 1}\n', "json")
    assert 'class="nb">echo</span>' in highlight("echo hi\n", "bash")


def test_unknown_language_is_plain_text():
    html = highlight("x <y>\n", "no-such-language")
    assert "x &lt;y&gt;" in html and '<div class="highlight" tabindex="0" role="group" aria-label="Code">' in html


def test_a_block_is_a_named_stop_for_the_keyboard():
    assert highlight("x = 1\n", "python").startswith(
        '<div class="highlight" tabindex="0" role="group" aria-label="Python code"><pre>')


def test_source_lines_split_multiline_tokens():
    code = 'def f():\n    """Doc\n    string."""\n    return 1\n'
    lines = source_lines(code, "example.py")
    assert [line.number for line in lines] == [1, 2, 3, 4]
    # The docstring spans lines 2-3, yet each line is complete markup on its own.
    for line in lines:
        assert line.html.count("<span") == line.html.count("</span>")
    assert lines[2].html == '<span class="sd">    string."""</span>'


def test_stylesheet_targets_the_highlight_class():
    css = stylesheet(CodeStyles("friendly", "friendly"))
    assert ".highlight .k" in css and ".highlight .hll" in css
    assert "@media" not in css and "data-theme" not in css       # one style: the same in both modes
    assert not re.search(r"^(pre|td|span)[ .]", css, re.M)       # nothing outside .highlight


def test_the_dark_style_applies_where_the_page_is_dark():
    css = stylesheet(CodeStyles("sitegen-light", "sitegen-dark"))
    chosen, system = css.split("@media (prefers-color-scheme: dark) {")
    light, dark = chosen[:chosen.index('[data-theme="dark"]')], chosen[chosen.index('[data-theme="dark"]'):]
    assert ".highlight { background: #f6f8fa" in light
    assert '[data-theme="dark"] .highlight { background: #0d1117' in dark
    assert ':root:not([data-theme="light"]) .highlight { background: #0d1117' in system
    assert not re.search(r"^\.highlight", dark + system, re.M)    # the dark rules are all scoped


def _contrast(one: str, other: str) -> float:
    def luminance(color: str) -> float:
        channels = [int(color.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
        r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("name", sorted(STYLES))
def test_sitegens_styles_reach_wcag_aa_on_code_and_on_highlighted_lines(name):
    style = STYLES[name]
    for token, shown in style:
        if token in Whitespace or token in Error or not shown["color"]:
            continue
        for background in ([shown["bgcolor"]] if shown["bgcolor"] else
                           [style.background_color, style.highlight_color]):
            assert _contrast("#" + shown["color"], "#" + background.lstrip("#")) >= 4.5, (token, background)


def test_friendly_falls_short_which_is_why_sitegen_has_its_own():
    from pygments.styles import get_style_by_name
    friendly = get_style_by_name("friendly")
    assert _contrast("#" + friendly.style_for_token(Comment)["color"], friendly.background_color) < 4.5


def test_a_lexer_filters_its_rules_once_it_has_lexed_a_few_blocks():
    """Filtering costs more than a block or two gain (an edit build highlights one post):
    blocks go through Pygments' own loop until a language has had FILTER_AFTER of them."""
    from generator import highlight as module


    code = "def f(x):\n    return x + 1  # one\n"
    expected = module.lexer_for("python")   # the tokens of Pygments' own lexer
    module._uses.pop(type(get_lexer_by_name("python")), None)   # as in a process that lexed no Python yet
    module._made.pop(("python", None), None)
    seen = [module.lexer_for("python") for _ in range(module.FILTER_AFTER + 2)]
    plain, filtered = seen[:module.FILTER_AFTER], seen[module.FILTER_AFTER:]
    assert all("_filtered" not in type(lexer).__dict__ for lexer in plain)
    assert all("_filtered" in type(lexer).__dict__ for lexer in filtered)
    assert {tuple(lexer.get_tokens(code)) for lexer in seen} == {tuple(expected.get_tokens(code))}


def test_the_config_knows_sitegens_own_styles_by_the_names_they_carry():
    from generator.config import OWN_STYLES      # checked by name, so a no-op loads no Pygments

    assert set(OWN_STYLES) == set(STYLES)


def test_a_process_that_edits_its_site_filters_no_lexer(tmp_path):
    """The preview, once ready for edits, lexes with Pygments' own loop however many blocks it
    highlights: a filtering would land in the middle of an edit; the tokens are the same."""
    from conftest import copy_site
    from generator import highlight as module
    from generator.build import BuildOptions, Engine

    engine = Engine(copy_site(tmp_path / "site", "basic"), BuildOptions())
    engine.build(load=True)
    engine.ready_for_edits()
    module._uses.pop(type(get_lexer_by_name("lua")), None)
    module._made.pop(("lua", None), None)
    seen = [module.lexer_for("lua") for _ in range(module.FILTER_AFTER * 3)]
    assert all("_filtered" not in type(lexer).__dict__ for lexer in seen)


# Tokens of a few classes (and none: Text), texts holding newlines, escapes, nothing.
TOKENS = st.lists(st.tuples(st.sampled_from([Text, Whitespace, Comment, Keyword, Name, Name.Function, String]),
                            st.lists(st.sampled_from(["a", "x y", " ", "\n", "\n\n", "&", "<", ">", "\"'", ""]),
                                     max_size=4).map("".join)), max_size=30)


@settings(max_examples=1000, deadline=None)
@given(TOKENS, st.booleans())
def test_tokens_are_formatted_as_pygments_formats_them(tokens, linenos):
    formatter = _block_formatter(linenos)
    assert "_format_lines" in vars(formatter)       # the quick loop is the one installed
    plain = HtmlFormatter(cssclass="highlight", wrapcode=True, linenos="table" if linenos else False)
    assert list(formatter._format_lines(iter(tokens))) == list(plain._format_lines(iter(tokens)))
    assert format_tokens(tokens, formatter) == format_tokens(tokens, plain)


def test_code_blocks_are_formatted_as_pygments_formats_them():
    """The fenced code of the shared TVM posts and of the shipped site, lexed and formatted both ways."""
    fences = [(m.group(1) or "text", m.group(2)) for folder in (shared_dir() / "corpus" / "tvm-site" / "_posts",
                                                                  REPO / "content")
              for path in sorted(folder.rglob("*.md"))
              for m in re.finditer(r"^```(\w*)[^\n]*\n(.*?)^```", path.read_text(encoding="utf-8"), re.M | re.S)]
    assert len(fences) > 20
    plain = HtmlFormatter(cssclass="highlight", wrapcode=True)
    for language, code in fences:
        tokens = list(lexer_for(language).get_tokens(code))
        assert format_tokens(tokens, _block_formatter(False)) == format_tokens(tokens, plain), code
