"""Time building the site's tutorials: cold, with a warm cache, and after a Markdown edit.

Like bench_build.py, the generator is driven only as a subprocess. The site is
a copy of the repository's skeleton with its tutorials (site.yaml, templates/,
assets/, notebooks/; no posts, so the figures are the tutorials'), without its
docs versions (they need the repository's history): the tutorials are built
once, at /docs/tutorials/. For each run:

1. **cold**: output and cache deleted, every tutorial executes in a kernel;
2. **warm**: nothing changed, every tutorial's outputs come from the cache;
3. **markdown edit**: one Markdown cell of one notebook gains a sentence, so that
   page is rendered again, and no notebook may execute.

The build's own "N notebooks ran, M from cache" line is read back and reported,
so a figure taken while the cache misbehaved is visible as such.

    python benchmarks/bench_tutorials.py [--runs 3] [--sitegen "CMD"] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO_ROOT = Path(__file__).resolve().parents[1]
SKELETON = ("templates", "assets", "notebooks")
EDITED = "notebooks/scan_recurrence.ipynb"
COUNTS = re.compile(r"(\d+) notebooks ran, (\d+) from cache")


def make_site(destination: Path) -> None:
    destination.mkdir(parents=True)
    config = yaml.safe_load((REPO_ROOT / "site.yaml").read_text(encoding="utf-8"))
    config.pop("versions", None)
    (destination / "site.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    for name in SKELETON:
        source = REPO_ROOT / name
        if source.is_dir():
            shutil.copytree(source, destination / name)
        else:
            shutil.copy2(source, destination / name)


def edit_markdown(site: Path, run: int) -> None:
    """Add a sentence to the last Markdown cell of the edited notebook."""
    path = site / EDITED
    notebook = json.loads(path.read_text(encoding="utf-8"))
    cell = [c for c in notebook["cells"] if c["cell_type"] == "markdown"][-1]
    source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    cell["source"] = source + f"\n\nEdited for benchmark run {run}."
    path.write_text(json.dumps(notebook, indent=1) + "\n", encoding="utf-8")


def timed_build(command: list[str], site: Path) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT), *filter(None, [env.get("PYTHONPATH")])])
    start = time.perf_counter()
    done = subprocess.run(command, cwd=site, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    sys.stderr.write(done.stderr)
    if done.returncode != 0:
        raise SystemExit(f"bench_tutorials: {shlex.join(command)} exited with {done.returncode} in {site}")
    counts = COUNTS.search(done.stdout)
    ran, cached = (int(counts.group(1)), int(counts.group(2))) if counts else (None, None)
    return {"seconds": seconds, "ran": ran, "cached": cached}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="repetitions; medians are reported")
    parser.add_argument("--sitegen", help='build command (default: "python -m generator build")')
    parser.add_argument("--json", type=Path, help="also write the figures to FILE as JSON")
    args = parser.parse_args(argv)
    command = shlex.split(args.sitegen) if args.sitegen else [sys.executable, "-m", "generator", "build"]

    samples = []
    with tempfile.TemporaryDirectory(prefix="sitegen-tutorials-") as tmp:
        site = Path(tmp) / "site"
        make_site(site)
        tutorials = sum(1 for p in (site / "notebooks").iterdir() if p.suffix in (".ipynb", ".py"))
        for run in range(1, args.runs + 1):
            shutil.rmtree(site / "_site", ignore_errors=True)
            shutil.rmtree(site / ".sitegen", ignore_errors=True)
            cold = timed_build(command, site)
            warm = timed_build(command, site)
            edit_markdown(site, run)
            edited = timed_build(command, site)
            samples.append({"cold": cold, "warm": warm, "markdown_edit": edited})

    rows = ["| build | seconds (median) | notebooks ran | from cache |", "|---|---:|---:|---:|"]
    for kind, label in (("cold", "cold (empty cache)"), ("warm", "warm cache, nothing changed"),
                        ("markdown_edit", "one Markdown cell edited")):
        last = samples[-1][kind]
        seconds = statistics.median(s[kind]["seconds"] for s in samples)
        rows.append(f"| {label} | {seconds:.2f} | {last['ran']} | {last['cached']} |")
    print(f"{tutorials} tutorials, {args.runs} run(s)\n")
    print("\n".join(rows))
    if args.json:
        report = {"command": command, "runs": args.runs, "tutorials": tutorials,
                  "python": platform.python_version(), "platform": platform.platform(),
                  "cpus": os.cpu_count(), "samples": samples}
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
