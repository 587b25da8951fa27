"""Cold, no-op and one-post-edit `sitegen build`s of two checkouts, interleaved on one corpus.

Each checkout builds its own copy of the corpus (the output and state are the
build's own), one build of each in turn, so both see the same load on the
machine. Per round, for each checkout: a cold build (no ``_site/``, no
``.sitegen/``), a no-op build, then one post's body edited (a sentence added
to its last paragraph) and built again. Times are wall and CPU (user + sys of
the build's process tree) in seconds.

    python benchmarks/bench_side_by_side.py --corpus DIR --before CHECKOUT --after CHECKOUT
                                            [--rounds 3] [--json FILE]

``DIR`` is a corpus from make_corpus.py; it is copied twice beside itself.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def run(checkout: Path, corpus: Path) -> tuple[float, float]:
    """One `python -m generator build` of ``corpus`` with ``checkout``'s code: (wall s, CPU s)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "generator", "build"], cwd=corpus, check=True,
                   env={"PYTHONPATH": str(checkout), "PATH": "/usr/bin:/bin"},
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def edit_one_post(corpus: Path, round_: int) -> None:
    post = sorted((corpus / "content/posts").glob("*.md"))[len(list((corpus / "content/posts").glob("*.md"))) // 2]
    text = post.read_text(encoding="utf-8")
    post.write_text(text.rstrip("\n") + f" Edited in round {round_}.\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    sides = {"before": args.before.resolve(), "after": args.after.resolve()}
    copies = {}
    for side in sides:
        copies[side] = args.corpus.with_name(f"{args.corpus.name}-{side}")
        if not copies[side].exists():
            shutil.copytree(args.corpus, copies[side])
    times: dict[str, dict[str, list[tuple[float, float]]]] = {
        side: {"cold": [], "no-op": [], "one post edited": []} for side in sides}
    for round_ in range(1, args.rounds + 1):
        for side, checkout in sides.items():
            corpus = copies[side]
            for name in ("_site", ".sitegen"):
                shutil.rmtree(corpus / name, ignore_errors=True)
            times[side]["cold"].append(run(checkout, corpus))
            times[side]["no-op"].append(run(checkout, corpus))
            edit_one_post(corpus, round_)
            times[side]["one post edited"].append(run(checkout, corpus))
            print(f"round {round_} {side}: " + ", ".join(f"{kind} {w:.2f} s ({c:.2f} CPU)"
                  for kind, runs in times[side].items() for w, c in runs[-1:]), file=sys.stderr, flush=True)
    print(f"| {args.corpus.name} | before wall / CPU s (median) | after wall / CPU s (median) |")
    print("|---|---:|---:|")
    for kind in ("cold", "no-op", "one post edited"):
        cells = []
        for side in sides:
            runs = times[side][kind]
            cells.append(f"{statistics.median(w for w, _ in runs):.2f} / {statistics.median(c for _, c in runs):.2f}")
        print(f"| {kind} | {cells[0]} | {cells[1]} |")
    if args.json:
        args.json.write_text(json.dumps(times, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
