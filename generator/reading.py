"""How long a page takes to read, from its HTML: ``page.reading_time`` in minutes.

Prose is read at :data:`WORDS_PER_MINUTE`, the mean silent reading rate of
English non-fiction that Brysbaert's review of 190 studies found (2019,
*Journal of Memory and Language* 109). Code is read about half as fast, so
each word of a code block counts twice (its line numbers not at all). A
formula counts as a few words however long its TeX is: ``\\frac{a}{b}`` is
read at a glance, not letter by letter. Chinese and Japanese text has no
spaces between words: each of its characters counts as a word, a rough
equivalent (readers of those scripts take in a few hundred characters a
minute). Images are not counted. Minutes are rounded up, so a short post
takes one, as Hugo rounds.
"""

from __future__ import annotations

import math
import re
from html import unescape
from itertools import filterfalse

WORDS_PER_MINUTE = 238
CODE_WEIGHT = 2                  # a word of code takes as long as two of prose
INLINE_FORMULA_WORDS = 2
DISPLAY_FORMULA_WORDS = 12

LINE_NUMBERS = re.compile(r'<td class="linenos">.*?</td>', re.S)
# A <pre> element and its content, up to the first </pre> (as ``.*?`` would, without its try at each character).
CODE = re.compile(r"<pre\b[^>]*>([^<]*(?:<(?!/pre>)[^<]*)*)</pre>")
FORMULA = re.compile(r'<(span|div) class="arithmatex">.*?</\1>', re.S)
TAG = re.compile(r"<[^>]+>")
# Han, kana, and the CJK compatibility ideographs: scripts written without spaces.
IDEOGRAPH = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
WORD_CHARACTER = re.compile(r"\w")


def reading_time(html: str) -> int:
    """Minutes to read ``html`` (at least 1)."""
    return max(1, math.ceil(weighted_words(html) / WORDS_PER_MINUTE))


def weighted_words(html: str) -> int:
    """The words of ``html`` as prose-words: code counted :data:`CODE_WEIGHT` times, formulas as a few."""
    formulas = 0

    def formula(match: re.Match) -> str:
        nonlocal formulas
        formulas += DISPLAY_FORMULA_WORDS if match.group(1) == "div" else INLINE_FORMULA_WORDS
        return " "

    # Each expression is tried only where the text it looks for is there (each is a scan of the page).
    if 'class="linenos"' in html:
        html = LINE_NUMBERS.sub("", html)
    if "arithmatex" in html:
        html = FORMULA.sub(formula, html)
    code = 0
    if "<pre" in html:
        parts = CODE.split(html)    # prose, a block's content, prose...
        # Pygments' spans split a code line at every token: within code a tag is no word break.
        code = sum(count_words(unescape(TAG.sub("", block))) for block in parts[1::2])
        html = " ".join(parts[0::2])
    return count_words(unescape(TAG.sub(" ", html))) + CODE_WEIGHT * code + formulas


def count_words(text: str) -> int:
    """Ideographs, and runs of non-space characters holding a letter, digit or ``_`` (``\\w``)."""
    ideographs = 0
    if not text.isascii():
        ideographs = len(IDEOGRAPH.findall(text))
        if ideographs:
            text = IDEOGRAPH.sub(" ", text)
    runs = text.split()       # split's spaces are an expression's \s: both are str.isspace
    # A run of letters and digits alone is a word; the rest are words if they hold one (not "--").
    others = list(filterfalse(str.isalnum, runs))
    return ideographs + len(runs) - len(others) + sum(map(bool, map(WORD_CHARACTER.search, others)))
