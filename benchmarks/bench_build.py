"""Time cold and no-op `sitegen build`s on generated corpora of N posts.

The generator is driven only as a subprocess, so this script keeps working whatever
its internals become. For each N it writes a corpus (make_corpus.py), deletes the
output and cache directories, runs a cold build, counts the HTML pages written, then
runs the same command again with nothing changed (the no-op build that caching and
dependency tracking should make cheap).

    python benchmarks/bench_build.py --posts 1000 10000 [--runs 1] [--sitegen "CMD"]
                                     [--work DIR] [--seed 1] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from make_corpus import REPO_ROOT, make_corpus

# Build state removed before every cold build, relative to the corpus directory.
CACHE_DIRS = (".sitegen",)

MEMORY_METHOD = ("peak RSS = getrusage(RUSAGE_CHILDREN).ru_maxrss read in a fresh "
                 "intermediate Python process per build: the largest single process "
                 "of the build's process tree (workers are not summed)")

# Runs in a fresh interpreter for each measurement so RUSAGE_CHILDREN covers only
# that one build; the interpreter's own memory is not counted.
RUNNER = r"""
import json, resource, subprocess, sys, time
command, cwd = json.loads(sys.argv[1]), sys.argv[2]
start = time.perf_counter()
returncode = subprocess.call(command, cwd=cwd, stdout=sys.stderr)
seconds = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
kib = usage.ru_maxrss // 1024 if sys.platform == "darwin" else usage.ru_maxrss  # bytes on macOS
json.dump({"returncode": returncode, "seconds": seconds, "maxrss_kib": kib,
           "cpu_seconds": usage.ru_utime + usage.ru_stime}, sys.stdout)
"""


def measure(command: list[str], cwd: Path, env: dict[str, str]) -> dict:
    """Run COMMAND in CWD once; return wall seconds, peak RSS in MiB and CPU seconds
    (user + system, of the whole process tree: steadier than wall time on a busy machine)."""
    done = subprocess.run([sys.executable, "-c", RUNNER, json.dumps(command), str(cwd)],
                          env=env, stdout=subprocess.PIPE, text=True, check=True)
    result = json.loads(done.stdout)
    if result["returncode"] != 0:
        raise SystemExit(f"bench_build: {shlex.join(command)} exited with "
                         f"{result['returncode']} in {cwd}")
    return {"seconds": result["seconds"], "peak_rss_mib": result["maxrss_kib"] / 1024,
            "cpu_seconds": result["cpu_seconds"]}


def count_pages(output: Path) -> int:
    """HTML files the build wrote, the unit of the pages/s figure."""
    return sum(1 for path in output.rglob("*.html") if path.is_file())


def clean(corpus: Path, output: str) -> None:
    """Remove output and caches so the next build is cold."""
    for name in (output, *CACHE_DIRS):
        shutil.rmtree(corpus / name, ignore_errors=True)


def build_env() -> dict[str, str]:
    """The environment with the repository root first on PYTHONPATH."""
    env = dict(os.environ)
    paths = [str(REPO_ROOT), *filter(None, [env.get("PYTHONPATH")])]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


def ensure_corpus(posts: int, corpus: Path, seed: int, site: Path) -> None:
    """Write the corpus unless an earlier run left it there (``--work``)."""
    if (corpus / "content" / "posts").is_dir():
        log(f"N={posts}: reusing corpus {corpus}")
    else:
        log(f"N={posts}: writing corpus to {corpus}")
        make_corpus(posts, corpus, seed, site)


def bench_one(posts: int, corpus: Path, command: list[str], output: str,
              runs: int, seed: int, site: Path) -> dict:
    """Figures for one corpus size: medians over RUNS cold + no-op pairs."""
    ensure_corpus(posts, corpus, seed, site)
    env = build_env()
    samples = []
    for run in range(1, runs + 1):
        clean(corpus, output)
        log(f"N={posts}: run {run}/{runs}: cold build")
        cold = measure(command, corpus, env)
        pages = count_pages(corpus / output)
        log(f"N={posts}: run {run}/{runs}: no-op build")
        noop = measure(command, corpus, env)
        samples.append({"cold": cold, "noop": noop, "pages": pages})
    if len({s["pages"] for s in samples}) > 1:
        log(f"N={posts}: warning: page counts differ between runs")

    def median(kind: str, key: str) -> float:
        return statistics.median(s[kind][key] for s in samples)

    return {
        "posts": posts,
        "pages": samples[-1]["pages"],
        "cold_s": median("cold", "seconds"),
        "noop_s": median("noop", "seconds"),
        "peak_rss_mib": median("cold", "peak_rss_mib"),
        "noop_peak_rss_mib": median("noop", "peak_rss_mib"),
        "samples": samples,
    }


def markdown_table(results: list[dict]) -> str:
    rows = ["| N | cold build s | pages | pages/s | peak RSS MiB | no-op build s | cold/no-op |",
            "|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        rate = r["pages"] / r["cold_s"] if r["cold_s"] else 0.0
        ratio = f"{r['cold_s'] / r['noop_s']:.1f}x" if r["noop_s"] else "n/a"
        rows.append(f"| {r['posts']} | {r['cold_s']:.2f} | {r['pages']} | {rate:.0f} | "
                    f"{r['peak_rss_mib']:.0f} | {r['noop_s']:.2f} | {ratio} |")
    return "\n".join(rows)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, nargs="+", required=True,
                        help="corpus sizes to benchmark, e.g. 1000 10000")
    parser.add_argument("--runs", type=int, default=1,
                        help="cold + no-op pairs per size; medians are reported")
    parser.add_argument("--sitegen", help='build command (default: "python -m generator build")')
    parser.add_argument("--output", default="_site",
                        help="output directory, relative to the corpus (default _site)")
    parser.add_argument("--work", type=Path,
                        help="keep corpora in DIR/posts-N-seed-S and reuse them (default: temp dir)")
    parser.add_argument("--seed", type=int, default=1, help="corpus seed (default 1)")
    parser.add_argument("--site", type=Path, default=REPO_ROOT,
                        help="site skeleton for the corpus (default: the repository root)")
    parser.add_argument("--json", type=Path, help="also write the figures to FILE as JSON")
    args = parser.parse_args(argv)

    command = (shlex.split(args.sitegen) if args.sitegen
               else [sys.executable, "-m", "generator", "build"])
    with tempfile.TemporaryDirectory(prefix="sitegen-bench-") as tmp:
        base = (args.work or Path(tmp)).resolve()
        results = [bench_one(n, base / f"posts-{n}-seed-{args.seed}", command,
                             args.output, args.runs, args.seed, args.site)
                   for n in args.posts]

    print(markdown_table(results))
    if args.json:
        report = {
            "command": command, "seed": args.seed, "runs": args.runs,
            "python": platform.python_version(), "platform": platform.platform(),
            "cpus": os.cpu_count(), "memory_method": MEMORY_METHOD, "results": results,
        }
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
