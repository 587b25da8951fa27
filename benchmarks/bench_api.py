"""The API reference (site.yaml ``api``) on installed packages: its size, and its build times.

For each package a site is made whose ``python/`` holds the package's files as installed
(as tests/test_api_reference.py makes them) and whose docs are one page. Rounds
alternate a cold build (no ``.sitegen/``, no output) with a build after one docstring
edit; the medians are printed with the reference's pages, objects (``objects.inv``
entries), resolved references (links made) and unknown ones (warnings).

    .venv/bin/python benchmarks/bench_api.py --rounds 3 --work /tmp/bench-api
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import time
import zlib
from pathlib import Path

import lxml.html

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from generator.build import build  # noqa: E402
from test_api_reference import copy_packages  # noqa: E402

PACKAGES = {          # name -> (its api entry, the file whose first docstring is edited)
    "jinja2": ("{package: jinja2, path: python/, docstrings: sphinx}", "python/jinja2/utils.py"),
    "numpy.linalg": ("{package: numpy.linalg, path: python/, docstrings: numpy}", "python/numpy/linalg/_linalg.py"),
    "pygments (part)": ("{package: pygments, path: python/, docstrings: sphinx}", "python/pygments/util.py"),
}


def make_site(root: Path, entry: str) -> None:
    shutil.rmtree(root, ignore_errors=True)
    (root / "content" / "docs").mkdir(parents=True)
    (root / "site.yaml").write_text(f"title: Bench\nurl: https://example.org\napi:\n  - {entry}\n")
    (root / "content" / "docs" / "index.md").write_text("---\ntitle: Docs\n---\nThe reference.\n")
    copy_packages(root / "python")


def counts(root: Path, result) -> dict[str, int]:
    api = root / "_site" / "docs" / "api"
    inventory = (root / "_site" / "docs" / "objects.inv").read_bytes().split(b"\n", 4)[4]
    links = sum(len(lxml.html.fromstring(p.read_bytes()).cssselect(".docs-page a.xref")) for p in api.glob("*.html"))
    return {"pages": len(list(api.glob("*.html"))), "objects": zlib.decompress(inventory).count(b"\n"),
            "resolved": links, "unknown": sum("unknown API reference" in w for w in result.warnings),
            "unknown labels": sum("unknown label" in w for w in result.warnings)}


def edit_docstring(path: Path, round_: int) -> None:
    text = path.read_text()
    at = text.index('"""') + 3
    path.write_text(text[:at] + f"Edited {round_}. " + text[at:])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--work", type=Path, default=Path("/tmp/bench-api"))
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()}")
    for name, (entry, edited) in PACKAGES.items():
        root = args.work / name.split()[0]
        make_site(root, entry)
        cold, edit, sizes = [], [], None
        for round_ in range(args.rounds):
            shutil.rmtree(root / ".sitegen", ignore_errors=True)
            shutil.rmtree(root / "_site", ignore_errors=True)
            start = time.perf_counter()
            result = build(root)
            cold.append(time.perf_counter() - start)
            sizes = counts(root, result)
            edit_docstring(root / edited, round_)
            start = time.perf_counter()
            result = build(root)
            edit.append(time.perf_counter() - start)
            rendered, kept = result.reports["docs"].api_modules
        print(f"{name}: {sizes}, cold {statistics.median(cold):.2f} s, after one docstring edit "
              f"{statistics.median(edit):.2f} s ({rendered} modules rendered, {kept} kept); "
              f"cold {[round(t, 2) for t in cold]}, edit {[round(t, 2) for t in edit]}")
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
