"""Time `sitegen build` of the real-notebook corpus: cold, warm, and after one Markdown edit.

The corpus is tests/data/notebooks/real (17 notebooks from public projects), built as
the tests build it (tests/notebook_corpus.py): saved outputs shown, one notebook run in
a real kernel, one whose kernel is missing. The generator is driven as a subprocess,
like the other benchmarks. Per run: a cold build (no output, no caches: the one
runnable notebook executes), a warm build (nothing changed), and a build after one
sentence is appended to a Markdown cell of one notebook (re-rendered, nothing runs).

    python benchmarks/bench_notebook_corpus.py [--runs 3] [--work DIR] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from make_corpus import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "tests"))
from notebook_corpus import make_corpus_site, notebooks  # noqa: E402

from bench_build import build_env  # noqa: E402

EDITED = "Running Code.ipynb"


def timed_build(site: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "generator", "build"], cwd=site, env=build_env(),
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def edit_markdown(site: Path, n: int) -> None:
    path = site / "notebooks" / EDITED
    notebook = json.loads(path.read_text())
    cell = next(c for c in notebook["cells"] if c["cell_type"] == "markdown")
    cell["source"] = "".join(cell["source"]) + f"\n\nEdited for run {n}."
    path.write_text(json.dumps(notebook, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", type=Path, help="folder for the corpus site (default: a temporary one)")
    parser.add_argument("--json", type=Path, help="also write the samples here")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="nb-corpus-"))
    samples: dict[str, list[float]] = {"cold": [], "warm": [], "markdown edit": []}
    for n in range(args.runs):
        site = work / "site"
        shutil.rmtree(site, ignore_errors=True)
        make_corpus_site(site)
        samples["cold"].append(timed_build(site))
        samples["warm"].append(timed_build(site))
        edit_markdown(site, n)
        samples["markdown edit"].append(timed_build(site))
    print(f"{len(notebooks())} notebooks, {args.runs} runs, {platform.node()} "
          f"({platform.python_implementation()} {platform.python_version()})")
    for name, values in samples.items():
        print(f"{name:>14}: median {statistics.median(values):6.2f} s  "
              f"(samples {', '.join(f'{v:.2f}' for v in values)})")
    if args.json:
        args.json.write_text(json.dumps(samples, indent=1))


if __name__ == "__main__":
    main()
