"""Build the real notebooks of public projects as a site: what each output became, and the time.

The corpus is benchmarks/notebook_sources.toml (repository, commit, path, licence per
notebook), read from the `fetch` tool's mirrors (/work/.mirror/OWNER+NAME/repo); nothing
of it is committed. The notebooks are built as tests/notebook_corpus.py builds its own,
saved outputs shown (``execute: never``), by the generator driven as a subprocess.
Per run: a cold build (no output, no caches) and a warm one (nothing changed).

Then every output of every notebook is found on its page and counted, per kind, as
*drawn* (in its own rich form), *static* (a simpler form of it: its text, its picture),
*note* (a named note in its place) or *dropped* (nothing: must be 0).

    python benchmarks/bench_notebook_corpus.py [--mirrors /work/.mirror] [--runs 3] [--work DIR]
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
import warnings
from collections import Counter, defaultdict
from pathlib import Path

import lxml.html
import nbformat

from make_corpus import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "tests"))
sys.path.insert(0, str(REPO_ROOT))
from generator.notebooks import charts  # noqa: E402
from generator.notebooks.sources import slug_of  # noqa: E402
from notebook_corpus import CHOICE, make_corpus_site  # noqa: E402

from bench_build import build_env  # noqa: E402

SOURCES = Path(__file__).with_name("notebook_sources.toml")
# The page's element for an output drawn in its own form (templates/notebook/output.html).
DRAWN = {"stream": "nb-stream", "error": "nb-error", "text": "nb-text", "json": "nb-json", "html": "nb-html",
         "markdown": "nb-markdown-output", "latex": "nb-latex", "svg": "nb-image", "png": "nb-image",
         "jpeg": "nb-image", "gif": "nb-image", "widget": "nb-widget", "chart": "nb-chart-output"}
OUTCOMES = ("drawn", "static", "note", "dropped")
# Notes that speak of the element before them (generator/notebooks/render.py).
ABOUT_ITS_ELEMENT = re.compile(r"^output truncated|over the limit|drawn by its own script|A chart not drawn")


def gather(mirrors: Path, folder: Path) -> list[Path]:
    """Each notebook of notebook_sources.toml, from its mirror at its commit, under a name of its own."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for entry in tomllib.loads(SOURCES.read_text())["notebook"]:
        git_dir = mirrors / entry["repository"].replace("/", "+") / "repo"
        data = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{entry['commit']}:{entry['path']}"],
                              check=True, capture_output=True).stdout
        name = re.sub(r"[^A-Za-z0-9._-]+", "-", f"{entry['repository'].split('/')[1]}--{entry['path']}")
        (folder / name).write_bytes(data)
        paths.append(folder / name)
    return paths


def timed_build(site: Path) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "generator", "build"], cwd=site, env=build_env(),
                          capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode:
        sys.exit(f"the build failed:\n{done.stderr}")
    return seconds, done.stderr


def kind_of(output) -> str | None:
    """The kind Jupyter would show an output as (None: an output with nothing to show)."""
    if output.output_type in ("stream", "error"):
        return output.output_type
    data = output.get("data", {})
    if not data:
        return None
    if charts.read(data, False) is not None:
        return "chart"
    return next((kind for kind, mimes in CHOICE if any(m in data for m in mimes)), "other")


def merged(outputs: list) -> list:
    """Consecutive streams of one name as one, as the page shows them."""
    kept: list = []
    for output in outputs:
        if (output.output_type == "stream" and kept and kept[-1].output_type == "stream"
                and kept[-1].name == output.name):
            continue
        kept.append(output)
    return kept


def shown_items(cell) -> list[tuple[str, bool]]:
    """The outputs a cell's page shows, in order: (the element's classes, or "" for a note alone; noted).

    A note follows the element it speaks of (templates/notebook/output.html); one that speaks
    of no element (an output left out) stands alone, even right after another output's element.
    """
    items: list[tuple[str, bool]] = []
    for child in cell.xpath("./div[@class='nb-outputs']/* | ./details/div[@class='nb-outputs']/*"):
        classes = child.get("class", "")
        if "nb-note" in classes:
            previous = items[-1][0] if items and not items[-1][1] else ""
            if previous and (ABOUT_ITS_ELEMENT.search(child.text_content())
                             or "nb-text" in previous and child.text_content().startswith("an interactive widget")):
                items[-1] = (previous, True)
            else:
                items.append(("", True))
        elif "nb-output" in classes or child.tag == "script":
            items.append((classes or "script", False))
    return items


def outcomes(source: Path, page: Path) -> dict[str, Counter]:
    """For each kind of output in ``source``, how many its page drew, showed static, noted or dropped."""
    with warnings.catch_warnings():          # about cell ids nbformat mends, as the build does
        warnings.simplefilter("ignore")
        notebook = nbformat.read(source, as_version=4)
    tree = lxml.html.parse(str(page))
    counts: dict[str, Counter] = defaultdict(Counter)
    for index, cell in enumerate(notebook.cells):
        expected = [kind for kind in map(kind_of, merged(cell.get("outputs", []))) if kind]
        if not expected:
            continue
        found = tree.xpath(f"//div[@id='nb-cell-{index + 1}']")
        tags = set(cell.metadata.get("tags", ()))
        if {"remove-output", "remove-cell"} & tags:
            counts["(removed by a tag)"]["note"] += len(expected)
            continue
        items = shown_items(found[0]) if found else []
        for n, kind in enumerate(expected):
            if n >= len(items):
                counts[kind]["dropped"] += 1
            elif not items[n][0]:
                counts[kind]["note"] += 1
            elif DRAWN.get(kind, "-") in items[n][0].split():
                counts[kind]["drawn"] += 1
            else:
                counts[kind]["static"] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", type=Path, help="folder for the corpus site (default: a temporary one)")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="nb-corpus-"))
    sources = gather(args.mirrors, work / "sources")
    samples: dict[str, list[float]] = {"cold": [], "warm": []}
    for _ in range(args.runs):
        site = work / "site"
        shutil.rmtree(site, ignore_errors=True)
        make_corpus_site(site, sources, executed=())
        seconds, log = timed_build(site)
        samples["cold"].append(seconds)
        samples["warm"].append(timed_build(site)[0])
    repositories = {entry["repository"] for entry in tomllib.loads(SOURCES.read_text())["notebook"]}
    size = sum(path.stat().st_size for path in sources)
    print(f"{len(sources)} notebooks of {len(repositories)} repositories ({size / 2**20:.1f} MB), "
          f"{args.runs} runs, {platform.node()} ({platform.python_implementation()} "
          f"{platform.python_version()}), load average {os.getloadavg()[0]:.1f}")
    for name, values in samples.items():
        print(f"{name:>6} build: median {statistics.median(values):6.2f} s  "
              f"(samples {', '.join(f'{v:.2f}' for v in values)})")
    print(f"warnings of the last cold build: {log.count('warning')}")
    total: dict[str, Counter] = defaultdict(Counter)
    tutorials = site / "_site" / "docs" / "tutorials"
    for path in sources:
        page = tutorials / f"{slug_of(Path('notebooks') / path.name)}.html"
        for kind, counted in outcomes(path, page).items():
            total[kind].update(counted)
            if counted["dropped"]:
                print(f"dropped: {counted['dropped']} {kind} output(s) of {path.name}")
    print(f"\n| kind | {' | '.join(OUTCOMES)} |\n|---|{'---:|' * len(OUTCOMES)}")
    for kind in sorted(total, key=lambda kind: -sum(total[kind].values())):
        print(f"| {kind} | {' | '.join(str(total[kind][outcome]) for outcome in OUTCOMES)} |")
    whole = sum(total.values(), Counter())
    print(f"| all | {' | '.join(str(whole[outcome]) for outcome in OUTCOMES)} |")


if __name__ == "__main__":
    main()
