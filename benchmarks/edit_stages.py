"""Where a one-post edit build's time goes: the build run in this process, its steps timed.

    PYTHONPATH=REPO python benchmarks/edit_stages.py SITE [--builds 3]

SITE is a site built before (bench_peers.py's ``WORK/sites/sitegen-N``); it is built once more
first, not counted. Each counted build runs in a process of its own, as ``sitegen build`` does,
after a sentence is appended to the middle post, with a timer around the engine's steps and the
functions below them that an edit build's time is known to go to (reading the records, the
parse keys, the plan). Nested steps are timed inside their parents, so the rows do not add up
to ``build``; the rest of it is what no row names (``imports`` comes before it). The edits stay
in the post (appended text): use a copy of a site.

Unlike bench_incremental.py this imports the generator (the checkout on ``PYTHONPATH``), and
wraps its functions: run it to see the shares, and time the command itself to compare checkouts.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

STEPS = [  # (module, object, attribute): what is timed
    ("generator.state", "BuildState", "load"),
    ("generator.engine.scanning", None, "scan"),
    ("generator.state", "FileIndex", "rescan"),
    ("generator.state", None, "read_records"),
    ("generator.state", "Records", "from_data"),
    ("generator.engine.loading", None, "parse_ahead"),
    ("generator.parallel", "Background", "result"),
    ("generator.engine.loading", None, "ready_renderer"),
    ("generator.engine.loading", None, "load"),
    ("generator.engine.loading", None, "load_documents"),
    ("generator.engine.documents", None, "document_keys"),
    ("generator.engine.loading", None, "assemble_site"),
    ("generator.engine.records", None, "changes"),
    ("generator.engine.planning", None, "plan"),
    ("generator.engine.rendering", None, "outdated"),
    ("generator.engine.rendering", None, "make"),
    ("generator.engine.rendering", None, "derive_files"),
    ("generator.engine.rendering", None, "write"),
    ("generator.engine.records", None, "next_state"),
    ("generator.engine.core", "Engine", "save"),
]


def timed(steps: dict[str, list[float]], name: str, function):
    @functools.wraps(function)
    def run(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            steps.setdefault(name, []).append(time.perf_counter() - start)
    return run


def one_build(site: Path, edit: Path) -> dict[str, float]:
    """Edit ``edit``, then build ``site`` here with the steps timed: step -> seconds."""
    started = time.perf_counter()
    modules = {name: importlib.import_module(name) for name in {m for m, _, _ in STEPS}}
    steps: dict[str, list[float]] = {"imports": [time.perf_counter() - started]}
    for module, owner, attribute in STEPS:
        where = modules[module] if owner is None else getattr(modules[module], owner)
        label = attribute if owner is None else f"{owner}.{attribute}"
        setattr(where, attribute, timed(steps, label, getattr(where, attribute)))
    state = modules["generator.state"].BuildState      # the records, read on first use: a property
    state.records = property(timed(steps, "BuildState.records", state.records.fget))
    with open(edit, "a", encoding="utf-8") as post:
        post.write("\nOne more sentence, appended by edit_stages.py.\n")
    os.chdir(site)
    start = time.perf_counter()
    importlib.import_module("generator.build").build(Path("."))
    steps["build"] = [time.perf_counter() - start]
    return {name: sum(times) for name, times in steps.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--builds", type=int, default=3)
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)   # a child: edit this post, build once
    args = parser.parse_args()
    site = args.site.resolve()
    if args.one:
        print(json.dumps(one_build(site, args.one)))
        return 0
    posts = sorted((site / "content" / "posts").iterdir())
    middle = posts[len(posts) // 2]
    # A build first, not counted, so that each counted one finds the state of the one before.
    subprocess.run([sys.executable, "-m", "generator", "build"], cwd=site, check=True, capture_output=True)
    rounds = []
    for _ in range(args.builds):    # each build in a process of its own, as the command runs
        child = subprocess.run([sys.executable, __file__, str(site), "--one", str(middle)],
                               check=True, capture_output=True, text=True)
        rounds.append(json.loads(child.stdout.splitlines()[-1]))
    print(f"{args.builds} builds of {site}, each after an edit of {middle.name}\n")
    print("| step | seconds, median | each build |\n|---|---:|---|")
    for name in dict.fromkeys(name for r in rounds for name in r):
        times = [r.get(name, 0.0) for r in rounds]
        print(f"| {name} | {statistics.median(times):.3f} | {' '.join(f'{t:.3f}' for t in times)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
