"""Time `sitegen import jekyll` on the shared TVM corpus laid out as a Jekyll site.

The corpus (../shared/corpus/tvm-site: 19 posts, 7 pages, 4 data files) is laid
out as tests/jekyll_fixture.py lays it out for the import tests (a _config.yml,
five layouts, four includes, static folders), then imported into a new folder
RUNS times, each by a fresh `python -m generator` process, so interpreter
start-up is counted as a user would meet it. The imported site's first build
is timed too, for scale.

    python benchmarks/bench_import.py [--runs 5] [--work DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from jekyll_fixture import jekyll_site  # noqa: E402


def timed(*args: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "generator", *args], check=True, capture_output=True, env=env)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--work", type=Path)
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus" / "tvm-site")
    args = parser.parse_args()
    corpus = args.corpus if args.corpus.is_dir() else Path("/work/shared/corpus/tvm-site")
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-import-"))
    source = jekyll_site(corpus, work / "jekyll")
    imports, builds = [], []
    for run in range(args.runs):
        dest = work / f"site{run}"
        imports.append(timed("import", "jekyll", str(source), str(dest)))
        builds.append(timed("-C", str(dest), "build"))
    files = sum(1 for p in source.rglob("*") if p.is_file())
    print(f"source: {files} files ({len(list((source / '_posts').iterdir()))} posts)")
    print(f"sitegen import jekyll: median {statistics.median(imports):.2f} s "
          f"(runs: {', '.join(f'{t:.2f}' for t in imports)})")
    print(f"first sitegen build of the imported site: median {statistics.median(builds):.2f} s "
          f"(runs: {', '.join(f'{t:.2f}' for t in builds)})")
    if args.work is None:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
