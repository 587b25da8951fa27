"""How the time of one long paragraph of inline markup grows with its length (issue 39, item 5).

    PYTHONPATH=REPO python benchmarks/bench_inline.py [SIZE ...]     # default: 100000 400000 1600000

Renders a paragraph of ``UNIT`` repeated to each SIZE characters with sitegen's converter and
prints the CPU seconds of each, alternating the sizes for ROUNDS rounds and giving the median.
Linear parsing shows as a time that grows by the same factor as the size (Python-Markdown's own
inline pass copied the paragraph at each match: a 1.6 MB paragraph took minutes). Tests assert
only that the output is Python-Markdown's (tests/test_limits.py); the time is measured here.
"""

from __future__ import annotations

import statistics
import sys
import time

from generator.markdown import render_markdown

UNIT = "*a* [b](c) `d` <b>e</b> \\* &amp; "
ROUNDS = 3


def seconds(size: int) -> float:
    text = UNIT * (size // len(UNIT))
    started = time.process_time()
    render_markdown(text)
    return time.process_time() - started


def main() -> None:
    sizes = [int(arg) for arg in sys.argv[1:]] or [100_000, 400_000, 1_600_000]
    taken: dict[int, list[float]] = {size: [] for size in sizes}
    for _ in range(ROUNDS):
        for size in sizes:
            taken[size].append(seconds(size))
    for size in sizes:
        print(f"{size:>9,} characters: median {statistics.median(taken[size]):.2f} s CPU "
              f"(rounds: {', '.join(f'{t:.2f}' for t in taken[size])})")


if __name__ == "__main__":
    main()
