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

WORDS_PER_MINUTE = 238
CODE_WEIGHT = 2                  # a word of code takes as long as two of prose
INLINE_FORMULA_WORDS = 2
DISPLAY_FORMULA_WORDS = 12

LINE_NUMBERS = re.compile(r'<td class="linenos">.*?</td>', re.S)
CODE = re.compile(r"<pre\b[^>]*>(.*?)</pre>", re.S)
FORMULA = re.compile(r'<(span|div) class="arithmatex">.*?</\1>', re.S)
TAG = re.compile(r"<[^>]+>")
# Han, kana, and the CJK compatibility ideographs: scripts written without spaces.
IDEOGRAPH = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
WORD = re.compile(r"\S*\w\S*")


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

    html = FORMULA.sub(formula, LINE_NUMBERS.sub("", html))
    # Pygments' spans split a code line at every token: within code a tag is no word break.
    code = sum(count_words(unescape(TAG.sub("", block))) for block in CODE.findall(html))
    prose = count_words(unescape(TAG.sub(" ", CODE.sub(" ", html))))
    return prose + CODE_WEIGHT * code + formulas


def count_words(text: str) -> int:
    ideographs = len(IDEOGRAPH.findall(text))
    if ideographs:
        text = IDEOGRAPH.sub(" ", text)
    return ideographs + len(WORD.findall(text))
