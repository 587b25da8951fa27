"""A tutorial's Markdown cells, Jupyter Book style, converted as the notebook renderer converts them:
a fixed piece of work, and how many Markdown conversions it takes.

    PYTHONPATH=REPO PYTHONHASHSEED=0 python benchmarks/bench_markdown_cells.py [N]
    PYTHONPATH=REPO PYTHONHASHSEED=0 valgrind --tool=callgrind python benchmarks/bench_markdown_cells.py [N]

Renders N (default 400) cells, each a labelled section with emphasis, code, a link, math, a list,
a table and a ``{note}``, with sitegen's notebook converter (``dollar_math``), and prints the
number of ``Markdown.convert`` calls (a directive's body and title each took one of their own).
Under callgrind its instruction count compares two checkouts where this machine's clock cannot
(see markdown_work.py).
"""

from __future__ import annotations

import sys

import markdown

from generator.markdown import render_markdown

CELL = ("({n})=\n## Part {n}\n\nSome *text* with `code`, a [link](https://example.org) and $a_{n}$.\n\n"
        "- item one\n- item **two**\n\n```{{note}}\nA note, {n}.\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    conversions = 0
    convert = markdown.Markdown.convert

    def counted(md: markdown.Markdown, text: str) -> str:
        nonlocal conversions
        conversions += 1
        return convert(md, text)

    markdown.Markdown.convert = counted
    for n in range(count):
        render_markdown(CELL.format(n=f"sec-{n}"), dollar_math=True)
    print(f"{count} cells, {conversions} Markdown conversions")


if __name__ == "__main__":
    main()
