"""What keeping an HTML output's style sheet costs: a pandas Styler table sanitized as before
(the sheet dropped) and with its sheet confined (``generator.notebooks.styles``), in
alternating rounds; medians printed.

    python benchmarks/bench_output_styles.py --rows 100 --columns 8 --rounds 7
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import pandas as pd

from generator.notebooks import sanitize, styles

SCOPE = "nb-cell-2-out-1"


def dropped(html: str) -> None:
    sanitize.clean_html(html)


def confined(html: str) -> None:
    sheet = styles.confine(html, SCOPE)
    sanitize.clean_html(sheet.html, lambda name: styles.prefixed(SCOPE, name) if name in sheet.ids else None)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100)
    parser.add_argument("--columns", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    frame = pd.DataFrame(np.random.default_rng(0).random((args.rows, args.columns)))
    html = frame.style.background_gradient().to_html()
    times: dict[str, list[float]] = {"dropped": [], "confined": []}
    for _ in range(args.rounds):
        for name, run in (("dropped", dropped), ("confined", confined)):
            start = time.perf_counter()
            run(html)
            times[name].append(time.perf_counter() - start)
    print(f"{len(html):,} characters, {html.count('{'):,} rules")
    for name, values in times.items():
        print(f"{name}: median {statistics.median(values) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
