"""sitegen's ANSI-to-HTML against nbconvert's ``ansi2html``, the way Jupyter shows terminal
text: same HTML for generated text of escapes, colours and markup characters."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from nbconvert.filters.ansi import ansi2html

from generator.notebooks.ansi import ansi_to_html

# Codes nbconvert reads, with the extended colours' arguments in and out of range.
NUMBERS = st.sampled_from([0, 1, 2, 4, 5, 7, 21, 22, 24, 27, 30, 33, 37, 39, 40, 45, 49, 90, 97,
                           100, 107, 38, 48, 5, 2, 15, 16, 100, 231, 232, 255, 256, 300, -1])
SEQUENCES = st.one_of(
    st.lists(NUMBERS, max_size=6).map(lambda codes: "\x1b[" + ";".join(map(str, codes)) + "m"),
    st.sampled_from(["\x1b[m", "\x1b[;1m", "\x1b[2K", "\x1b[1A", "\x1b[x;1m", "\x1b[38;5;208m",
                     "\x1b[48;2;1;2;3m", "\x1b[38;2;300;0;0m", "\x1b[38;5m", "\x1b["]),
)
TEXT = st.text(alphabet="ab <&>\"'\n\t\x1b[", max_size=8)


def _nbconvert_reads(text: str) -> bool:
    """nbconvert raises IndexError on ``38``/``48`` with nothing after it; sitegen ignores the code."""
    try:
        ansi2html(text)
        return True
    except IndexError:
        return False


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.lists(st.one_of(SEQUENCES, TEXT), max_size=12).map("".join))
def test_the_same_html_as_nbconvert(text: str) -> None:
    if _nbconvert_reads(text):
        assert ansi_to_html(text) == ansi2html(text)


def test_known_cases() -> None:
    assert ansi_to_html("\x1b[1;32mok\x1b[0m <b>") == (
        '<span class="ansi-green-intense-fg ansi-bold">ok</span> &lt;b&gt;')
    assert ansi_to_html("\x1b[38;5;208mx\x1b[48;2;1;2;3my") == (
        '<span style="color: rgb(255,135,0)">x</span>'
        '<span style="color: rgb(255,135,0); background-color: rgb(1,2,3)">y</span>')
    assert ansi_to_html("\x1b[38m broken") == " broken"
