"""What Pagefind costs a part of the search index: its CPU time for 0 to 240 pages.

    PYTHONPATH=REPO python benchmarks/pagefind_cost.py OUTPUT_DIR

OUTPUT_DIR is a built site's output folder; its first pages marked for search (in path order)
are indexed through sitegen's Pagefind service client, one index per count. The CPU seconds are
Pagefind's (the child's), which a busy machine does not inflate as it does wall time.
"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

from generator import pagefind
from generator.outputs.search import MARKER


def main() -> None:
    out = Path(sys.argv[1])
    pages = sorted(p for p in out.rglob("*.html") if MARKER in p.read_bytes())
    print(f"{len(pages)} marked pages in {out}")
    for count in (0, 1, 30, 60, 120, 240):
        chosen = [("/" + p.relative_to(out).as_posix(), p.read_text(encoding="utf-8")) for p in pages[:count]]
        before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
        files = pagefind.index_pages(chosen)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        print(f"{count:4d} pages: {cpu:.3f} s CPU, {time.monotonic() - started:.3f} s wall, "
              f"{len(files)} files, {sum(map(len, files.values())) / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
