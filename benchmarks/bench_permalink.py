"""Time the build after a ``permalink:`` edit in site.yaml, for sitegen checkouts side by side.

Each checkout gets its own copy of one generated corpus (search off: the index would cost
the same to every checkout), built once; then each round edits the permalink (two patterns,
taken in turn) and builds, checkouts alternating within the round, so that a change of the
machine's load falls on all of them alike. Prints each round and the medians.

    python benchmarks/bench_permalink.py --posts 1000 --rounds 5 \\
        --sitegen main=/tmp/main-checkout --sitegen branch=. [--work DIR] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from bench_build import ensure_corpus, log, measure
from make_corpus import REPO_ROOT, set_search

PATTERNS = ("/:year/:month/:day/:slug.html", "/posts/:year/:slug/")


def set_permalink(site: Path, pattern: str) -> None:
    config = site / "site.yaml"
    text = re.sub(r"(?m)^permalink:.*\n?", "", config.read_text(encoding="utf-8"))
    config.write_text(text.rstrip("\n") + f"\npermalink: {pattern}\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sitegen", action="append", required=True, metavar="NAME=CHECKOUT")
    parser.add_argument("--work", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    checkouts = dict(item.split("=", 1) for item in args.sitegen)
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-permalink-"))
    corpus = work / f"corpus-{args.posts}"
    ensure_corpus(args.posts, corpus, args.seed, REPO_ROOT)
    sites, envs = {}, {}
    for name, checkout in checkouts.items():
        sites[name] = work / f"site-{name}"
        if not sites[name].exists():
            shutil.copytree(corpus, sites[name])
            set_search(sites[name], False)
            set_permalink(sites[name], PATTERNS[0])
        envs[name] = {**os.environ, "PYTHONPATH": str(Path(checkout).resolve())}
        measure([sys.executable, "-m", "generator", "build"], sites[name], envs[name])   # cold, not counted
    figures: dict[str, list[dict]] = {name: [] for name in checkouts}
    for round_ in range(args.rounds):
        for name in checkouts:
            set_permalink(sites[name], PATTERNS[(round_ + 1) % 2])
            figures[name].append(measure([sys.executable, "-m", "generator", "build"], sites[name], envs[name]))
            log(f"round {round_} {name}: {figures[name][-1]['seconds']:.2f} s wall, "
                f"{figures[name][-1]['cpu_seconds']:.2f} s CPU, load {os.getloadavg()[0]:.2f}")
    for name, runs in figures.items():
        print(f"{name}: median {statistics.median(r['seconds'] for r in runs):.2f} s wall, "
              f"{statistics.median(r['cpu_seconds'] for r in runs):.2f} s CPU over {len(runs)} rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
