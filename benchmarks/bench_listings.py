"""Source listings of the API reference: highlighting a package's files, against reading
their lines kept in ``.sitegen/cache/listings/`` (what a version built again does for the
files that did not change). Alternating rounds, medians.

    .venv/bin/python benchmarks/bench_listings.py --rounds 5
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import jinja2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.api import Listings  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    tree = Path(tempfile.mkdtemp())
    try:
        shutil.copytree(Path(jinja2.__file__).parent, tree / "jinja2", ignore=shutil.ignore_patterns("__pycache__"))
        files = sorted(p.relative_to(tree).as_posix() for p in (tree / "jinja2").glob("*.py"))
        (tree / ".sitegen").mkdir()
        kept = Listings(tree / ".sitegen")
        for file in files:
            kept.lines(tree, file)
        print(f"load average at start: {os.getloadavg()}")
        fresh, cached = [], []
        for _ in range(args.rounds):
            start = time.perf_counter()
            for file in files:
                Listings(None).lines(tree, file)
            fresh.append(time.perf_counter() - start)
            start = time.perf_counter()
            for file in files:
                kept.lines(tree, file)
            cached.append(time.perf_counter() - start)
        lines = sum(len((tree / f).read_text().splitlines()) for f in files)
        print(f"jinja2: {len(files)} files, {lines} lines; highlighted {statistics.median(fresh):.3f} s, "
              f"kept {statistics.median(cached):.3f} s (medians of {[round(t, 3) for t in fresh]}, "
              f"{[round(t, 3) for t in cached]})")
        print(f"load average at end: {os.getloadavg()}")
    finally:
        shutil.rmtree(tree)


if __name__ == "__main__":
    main()
