"""Filtered lexers (generator/lexing.py) give Pygments' own tokens, one for one.

Differential: each lexer that :func:`faster` changes is run beside the
Pygments lexer it stands for, over the code of the shipped site, the TVM
posts and the generated corpus, over generated text in the common languages,
and over one mixed sample in every lexer Pygments has.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygments.lexer import RegexLexer
from pygments.lexers import get_all_lexers, get_lexer_by_name
from pygments.token import Keyword, Name, Whitespace
from pygments.util import ClassNotFound

from generator.lexing import faster, first_characters
from tests.conftest import REPO, shared_dir

FENCE = re.compile(r"^(?:```|~~~)\s*([\w+#.-]+)[^\n]*\n(.*?)^(?:```|~~~)", re.M | re.S)
HIGHLIGHT_TAG = re.compile(r"{%\s*highlight\s+([\w+#.-]+)[^%]*%}(.*?){%\s*endhighlight\s*%}", re.S)
COMMON = ["python", "bash", "console", "c", "cpp", "json", "yaml", "javascript", "html", "css", "rust",
          "go", "java", "diff", "toml", "ini", "sql", "make", "docker", "text"]


def lexer(name: str):
    return get_lexer_by_name(name, stripnl=False, ensurenl=True)


def same_tokens(name: str, code: str) -> None:
    plain = lexer(name)
    assert list(faster(plain).get_tokens(code)) == list(plain.get_tokens(code)), (name, code[:200])


def code_blocks(*folders: Path) -> list[tuple[str, str]]:
    blocks = []
    for folder in folders:
        for path in sorted(p for p in folder.rglob("*") if p.suffix in (".md", ".markdown", ".html")):
            text = path.read_text(encoding="utf-8", errors="replace")
            blocks += FENCE.findall(text) + HIGHLIGHT_TAG.findall(text)
    return blocks


def test_a_filtered_lexer_is_the_same_lexer_with_other_matching():
    plain = lexer("python")
    fast = faster(plain)
    assert type(fast) is not type(plain) and isinstance(fast, type(plain))
    assert (fast.name, fast.aliases, fast.options) == (plain.name, plain.aliases, plain.options)
    assert faster(fast) is not fast or type(faster(fast)) is type(fast)
    json = lexer("json")      # a hand-written lexer, not a RegexLexer's loop: left alone
    assert faster(json) is json


def test_the_characters_a_match_may_start_with():
    assert first_characters(r"\s+") == frozenset(" \t\n\r\f\v\x1c\x1d\x1e\x1f")   # str \s, as the engine has it
    assert first_characters(r"#.*$", re.M) == {"#"}
    assert first_characters(r"(def)(\s+)") == {"d"}
    assert first_characters(r"\b(if|else)\b") == {"i", "e"}       # anchors consume nothing
    assert first_characters(r"(?<=x)y") == {"y"}                   # nor do look-arounds
    assert first_characters(r"a*b") == {"a", "b"}
    assert first_characters(r"(a)\1") == {"a"}                     # a back-reference after a character
    assert first_characters(r"(?i)abc") == {"a", "A"}
    assert first_characters("\u212a", re.I) == {"k", "K"}          # the Kelvin sign folds to ASCII
    assert first_characters("\u212a") == frozenset()              # and without IGNORECASE matches only itself
    assert first_characters(r"[^a-z]") == frozenset(map(chr, range(128))) - set("abcdefghijklmnopqrstuvwxyz")
    assert first_characters(r".", re.S) == frozenset(map(chr, range(128)))
    assert "\n" not in first_characters(r".")
    for anywhere in (r"x?", r"(?=\()", r"", r"(a?)\1b", r"(?(1)a|b)"):   # may be empty; cannot be read
        assert first_characters(anywhere) is None, anywhere


RULES = sorted({rule[0].__self__ for language in COMMON for rules in getattr(lexer(language), "_tokens", {}).values()
                for rule in rules if isinstance(getattr(rule[0], "__self__", None), re.Pattern)},
               key=lambda regex: (regex.pattern, regex.flags))


@settings(max_examples=300, deadline=None)
@given(regex=st.sampled_from(RULES),
       text=st.text(alphabet=st.sampled_from(list("abAZ_09 \t\n'\"`\\/*#;:.,(){}[]<>=+-!?$%&|@^~kK\u212aé中")),
                    max_size=40))
def test_a_rule_matches_only_where_its_first_characters_say(regex, text):
    """Wherever a rule of the common lexers matches, non-empty, at an ASCII character, that
    character is one :func:`first_characters` names: else the filtered loop would pass it over."""
    firsts = first_characters(regex.pattern, regex.flags)
    for pos in range(len(text)):
        m = regex.match(text, pos)
        if m and m.end() > pos and text[pos] < "\x80":
            assert firsts is None or text[pos] in firsts, (regex.pattern, text, pos)


def test_a_lexer_that_wraps_pygments_loop_wraps_the_filtered_loop():
    plain = lexer("cpp")      # its loop marks the standard types among the names Pygments' loop gives
    fast = faster(plain)
    assert type(fast) is not type(plain) and "_filtered" in type(fast).__dict__
    code = "#include <cstdio>\nstd::size_t n = 0; int32_t m; FILE *f = fopen(\"x\", \"r\");\n"
    tokens = list(fast.get_tokens(code))
    assert tokens == list(plain.get_tokens(code))
    assert (Keyword.Type, "int32_t") in tokens


class AskingMore(RegexLexer):
    """A loop of its own that asks RegexLexer for more than its loop: left alone."""
    name = "asking-more"
    tokens = {"root": [(r"\w+", Name), (r"\s+", Whitespace)]}

    def get_tokens_unprocessed(self, text, stack=("root",)):
        RegexLexer.analyse_text(text)
        yield from RegexLexer.get_tokens_unprocessed(self, text, stack)


def test_a_loop_that_asks_regexlexer_for_anything_else_is_left_alone():
    plain = AskingMore()
    assert faster(plain) is plain


def test_the_code_of_the_shipped_site_and_the_tvm_posts():
    blocks = code_blocks(REPO / "content", shared_dir() / "corpus" / "tvm-site")
    assert len(blocks) > 50
    checked = 0
    for language, code in blocks:
        try:
            same_tokens(language.lower(), code)
        except ClassNotFound:
            continue
        checked += 1
    assert checked > 50


def test_the_generated_corpus():
    sys.path.insert(0, str(REPO / "benchmarks"))
    from make_corpus import Writer, plan_posts   # the benchmarks' own generator

    rng = random.Random(13)
    writer = Writer(rng, plan_posts(rng, 150))
    blocks = [block for _ in range(150) for block in FENCE.findall(writer.body())]
    assert {language for language, _ in blocks} >= {"python", "c++", "bash", "json"}
    for language, code in blocks:
        same_tokens(language, code)


@pytest.mark.parametrize("language", COMMON)
@settings(max_examples=40, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("abxyz_09 \t\n'\"`\\/*#;:.,(){}[]<>=+-!?$%&|@^~é中")),
                    max_size=300))
def test_any_text(language, text):
    same_tokens(language, text)


MIXED = """#include <stdio.h>
int main(int argc, char **argv) { printf("%d\\n", argc); /* c */ return 0; }
$ echo "hi $HOME" | grep -v x > /dev/null 2>&1 && cat <<EOF
heredoc
EOF
{"a": [1, 2.5e3, true, null], "b": "x\\u0041"}
<div class="x" id='y'>&amp; text <!-- c --></div>
SELECT * FROM t WHERE a = 'b' AND c > 3; -- comment
key: value
fn main() { let x: Vec<u8> = vec![1,2]; println!("{}", x.len()); }
@decorator
def f(x, *args, **kw) -> None:
    '''doc'''
    return f"{x!r:>10}" + r'\\d' + b"bytes"
"""


def test_every_lexer_pygments_has():
    changed = 0
    for _, aliases, _, _ in get_all_lexers():
        if not aliases:
            continue
        try:
            plain = lexer(aliases[0])
        except ClassNotFound:
            continue
        fast = faster(plain)
        if fast is not plain:
            changed += 1
            assert list(fast.get_tokens(MIXED)) == list(plain.get_tokens(MIXED)), aliases[0]
    assert changed > 450
