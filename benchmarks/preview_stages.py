"""Where a preview rebuild's time goes: the preview run in this process, its engine's steps timed.

    PYTHONPATH=REPO python benchmarks/preview_stages.py SITE [--edits 10]

SITE is a site built before (bench_incremental.py's ``WORK/posts-N-seed-S``). A preview of it is
started here (no watcher, the server on a free port), then the middle post is edited ``--edits``
times, each followed by the rebuild the watcher would run, with a timer around the engine's
steps. The steps nest, so the rows do not add up to the rebuild. The edits stay in the post
(appended text): use a copy of a site.

Unlike bench_incremental.py this leaves out the watcher and the browser's reload: run it to
see the shares, and bench_incremental.py to compare save-to-reload between checkouts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from edit_stages import timed   # beside this script
from generator.engine import loading, planning, records, rendering, scanning
from generator.serve import Preview

STEPS = [(scanning, "scan"), (loading, "swap_in"), (records, "changes"), (planning, "plan"),
         (rendering, "outdated"), (rendering, "make"), (rendering, "derive_files"), (rendering, "write"),
         (records, "next_state"), (loading, "load_documents")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--edits", type=int, default=10)
    args = parser.parse_args()
    root = args.site.resolve()
    steps: dict[str, list[float]] = {}
    for owner, name in STEPS:
        setattr(owner, name, timed(steps, name, getattr(owner, name)))
    preview = Preview(root, port=0).start(watch=False)
    posts = sorted((root / "content" / "posts").iterdir())
    middle = posts[len(posts) // 2]
    rounds = []                         # per rebuild: step -> its calls' seconds (the first build not counted)
    try:
        for n in range(args.edits):
            with open(middle, "a", encoding="utf-8") as post:
                post.write(f"\nOne more sentence, appended by preview_stages.py ({n}).\n")
            steps.clear()
            start = time.perf_counter()
            preview.rebuild({middle.relative_to(root).as_posix()}, derive=False)
            steps["rebuild"] = [time.perf_counter() - start]
            rounds.append({name: list(times) for name, times in steps.items()})
    finally:
        preview.stop()
    print(f"\n{args.edits} rebuilds of {root}, each after an edit of {middle.name}\n")
    print("| step | ms per rebuild, median | calls per rebuild, median |\n|---|---:|---:|")
    for name in ["rebuild", *(name for name in dict.fromkeys(n for r in rounds for n in r) if name != "rebuild")]:
        seconds = [sum(r.get(name, ())) for r in rounds]
        calls = [len(r.get(name, ())) for r in rounds]
        print(f"| {name} | {1000 * statistics.median(seconds):.1f} | {statistics.median(calls):g} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
