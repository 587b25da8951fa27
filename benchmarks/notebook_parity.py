"""The real notebooks of public projects, each page compared cell by cell with what Jupyter shows.

The notebooks are those of benchmarks/notebook_sources.toml, read from the `fetch` tool's
mirrors and built as one site with their saved outputs (as bench_notebook_corpus.py builds
them); each page is then compared with nbconvert's ``lab`` rendering of its published
``.ipynb`` (tests/notebook_parity.py). Printed: cells equal / compared per notebook, and
how many cells first differ in each kind of way, with one example of each.

    python benchmarks/notebook_parity.py [--mirrors /work/.mirror] [--work DIR] [--show KIND]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench_notebook_corpus import gather, timed_build
from notebook_corpus import make_corpus_site
from notebook_parity import compare

from generator.notebooks.sources import slug_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--work", type=Path, help="folder for the site (default: a temporary one)")
    parser.add_argument("--show", action="append", default=[], help="print every difference of this kind")
    parser.add_argument("--reuse", action="store_true", help="compare the site already built in --work")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="nb-parity-"))
    site = work / "site"
    if not args.reuse:
        sources = gather(args.mirrors, work / "sources")
        shutil.rmtree(site, ignore_errors=True)
        make_corpus_site(site, sources, executed=())
        seconds, _ = timed_build(site)
        print(f"built {len(sources)} notebooks in {seconds:.1f} s")
    tutorials = site / "_site" / "docs" / "tutorials"
    kinds: Counter = Counter()
    examples: dict[str, str] = {}
    equal = compared = 0
    start = time.process_time()
    print("\n| notebook | cells equal / compared |\n|---|---:|")
    for source in sorted((site / "notebooks").glob("*.ipynb")):
        slug = slug_of(Path("notebooks") / source.name)
        try:
            results = compare(tutorials / f"{slug}.ipynb", tutorials / f"{slug}.html")
        except Exception as exc:    # nbconvert's own failures (a widget state without "state"...)
            print(f"| {source.name[:70]} | not compared: {type(exc).__name__}: {str(exc)[:80]} |")
            continue
        same = sum(result.difference is None for result in results)
        equal, compared = equal + same, compared + len(results)
        print(f"| {source.name[:70]} | {same} / {len(results)} |")
        for result in results:
            if result.difference:
                kinds[result.what] += 1
                examples.setdefault(result.what, f"{source.name} cell {result.number}: {result.difference}")
                if result.what in args.show:
                    print(f"  cell {result.number}: {result.difference}")
    print(f"| all | {equal} / {compared} ({equal / compared:.1%}) |")
    print(f"\ncompared in {time.process_time() - start:.1f} CPU s (this process), "
          f"load average {os.getloadavg()[0]:.1f}\n\n| first difference | cells |\n|---|---:|")
    for kind, count in kinds.most_common():
        print(f"| {kind} | {count} |")
    print()
    for kind, _ in kinds.most_common():
        print(f"{kind}: e.g. {examples[kind][:700]}\n")


if __name__ == "__main__":
    sys.exit(main())
