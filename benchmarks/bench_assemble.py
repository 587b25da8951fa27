"""assemble() of synthetic posts (3 tags, 1 category each): what building the collections costs,
in the checkouts named, a fresh process per run, rounds alternating between them.

    python benchmarks/bench_assemble.py POSTS ROUNDS CHECKOUT...
    (a checkout of main: git archive main | tar -x -C /tmp/main)
"""

from __future__ import annotations

import statistics
import subprocess
import sys

RUN = r'''
import sys, time
from datetime import datetime, timedelta, timezone
from pathlib import Path
sys.path.insert(0, TREE)
from generator.config import Config
from generator.site import Document, assemble
config = Config(title="t", url="https://e.org")
start = datetime(2000, 1, 1, tzinfo=timezone.utc)
docs = [Document(source=Path(f"content/posts/p{i}.md"), kind="post", url=f"/p{i}.html", title=f"P{i}",
                 layout="post", content="", date=start + timedelta(hours=7 * i),
                 tags=[f"t{i % 300}", f"t{i % 7}", "all"], categories=[f"c{i % 11}"]) for i in range(POSTS)]
t = time.perf_counter()
for _ in range(5):
    assemble(docs, {}, config, now=datetime(2100, 1, 1, tzinfo=timezone.utc))
print((time.perf_counter() - t) / 5)
'''


def main() -> None:
    posts, rounds, trees = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    times: dict[str, list[float]] = {tree: [] for tree in trees}
    for _ in range(rounds):
        for tree in trees:
            out = subprocess.run([sys.executable, "-c", f"TREE = {tree!r}; POSTS = {posts}" + RUN],
                                 capture_output=True, text=True, check=True)
            times[tree].append(float(out.stdout))
    for tree, runs in times.items():
        print(f"{tree}: median {statistics.median(runs) * 1000:.1f} ms ({', '.join(f'{t * 1000:.1f}' for t in runs)})")


if __name__ == "__main__":
    main()
