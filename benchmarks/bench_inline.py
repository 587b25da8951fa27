"""How the time of one long paragraph of inline markup grows with its length (issue 39, item 5).

    PYTHONPATH=REPO python benchmarks/bench_inline.py [--unit NAME ...] [SIZE ...]
    # default: --unit markup, sizes 100000 400000 1600000

Renders a paragraph of a unit (``UNITS``) repeated to each SIZE characters with sitegen's
converter and prints the CPU seconds of each, alternating the sizes for ROUNDS rounds and giving
the median. Linear parsing shows as a time that grows by the same factor as the size
(Python-Markdown's own inline pass copied the paragraph at each match: a 1.6 MB paragraph took
minutes; its link patterns count brackets from each ``[`` to the end: 25,000 characters of
``[a `` took 15 s). Adjacent links still grow faster than their length (100,000 / 400,000
characters: 1.0 / 6.2 s; main 1.8 / 22 s): the pass makes the text again after each match the
next can see. Tests assert only that the output is Python-Markdown's
(tests/test_limits.py, tests/test_markdown_fast_paths.py); the time is measured here.
"""

from __future__ import annotations

import argparse
import statistics
import time

from generator.markdown import render_markdown

UNITS = {
    "markup": "*a* [b](c) `d` <b>e</b> \\* &amp; ",
    "open-bracket": "[a ",              # a link's text never closed
    "nested-bracket": "[a [b] ",        # closed inside, the outer one never
    "open-image": "![a ",
    "open-target": "[a](b ",            # a link's target never closed
    "adjacent-links": "[a](b)",         # each match makes the text again (the next one sees it)
}
ROUNDS = 3


def seconds(unit: str, size: int) -> float:
    text = unit * (size // len(unit))
    started = time.process_time()
    render_markdown(text)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--unit", action="append", choices=UNITS, help="repeat for several (default: markup)")
    parser.add_argument("sizes", nargs="*", type=int, default=[100_000, 400_000, 1_600_000])
    args = parser.parse_args()
    for name in args.unit or ["markup"]:
        taken: dict[int, list[float]] = {size: [] for size in args.sizes}
        for _ in range(ROUNDS):
            for size in args.sizes:
                taken[size].append(seconds(UNITS[name], size))
        for size in args.sizes:
            print(f"{name} {UNITS[name]!r}: {size:>9,} characters: median {statistics.median(taken[size]):.2f} s CPU "
                  f"(rounds: {', '.join(f'{t:.2f}' for t in taken[size])})")


if __name__ == "__main__":
    main()
