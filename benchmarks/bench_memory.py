#!/usr/bin/env python3
"""Peak memory of a cold build, and where it goes: stage by stage, at several corpus sizes.

    python benchmarks/bench_memory.py REPO N [N ...] [--work DIR] [--search/--no-search]

For each N, the peer benchmark's corpus (benchmarks/peers/corpus.py, laid out as
bench_peers.py lays out sitegen's site) is built cold (no ``_site``, no ``.sitegen``)
by the sitegen checkout REPO. Printed: wall, user+sys CPU and peak RSS from ``os.wait4``
(the largest process of the tree: the build's own, or a worker's), and the build
process's resident size when each stage ended and its peak then (VmRSS, VmHWM),
logged by a wrapper of :meth:`generator.progress.Progress.stage` in the build
process. The slope of the peak between two sizes, in MiB per 1,000 posts, is
what a 100,000-post build adds to the smallest.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_peers import PEERS, Sitegen  # noqa: E402

# Run in the build process: each stage's end logged with the process's resident size then.
DRIVER = r"""
import contextlib, json, os, sys, time
from generator import progress

def memory():
    fields = dict(line.split(":", 1) for line in open("/proc/self/status"))
    return {k: int(fields[k].split()[0]) // 1024 for k in ("VmRSS", "VmHWM")}

stage_of = progress.Progress.stage
log = open(os.environ["MEMORY_LOG"], "a")

@contextlib.contextmanager
def stage(self, name, total=0, noun=""):
    with stage_of(self, name, total, noun) as s:
        yield s
    log.write(json.dumps({"stage": name, "t": time.monotonic(), **memory()}) + "\n")
    log.flush()

progress.Progress.stage = stage
sys.argv = ["sitegen", "build"]
from generator.cli import main
sys.exit(main())
"""


def cold(repo: Path, site: Path, log: Path) -> dict:
    """One cold build of ``site`` by ``repo``: wall, CPU, peak RSS, and the stage log."""
    Sitegen("sitegen", repo, sys.executable).clean(site)
    log.unlink(missing_ok=True)
    errors = log.with_suffix(".err")
    started = time.monotonic()
    with errors.open("w") as stderr:
        process = subprocess.Popen([sys.executable, "-c", DRIVER], cwd=site, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=stderr,
                                   env={**os.environ, "PYTHONPATH": str(repo), "MEMORY_LOG": str(log)})
        _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - started
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"build failed:\n{errors.read_text()[-3000:]}")
    stages = [json.loads(line) for line in log.read_text().splitlines()]
    return {"wall_s": round(wall, 1), "cpu_s": round(usage.ru_utime + usage.ru_stime, 1),
            "maxrss_mib": round(usage.ru_maxrss / 1024), "stages": stages}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("sizes", type=int, nargs="+")
    parser.add_argument("--work", type=Path, default=Path("/tmp/bench-memory"))
    parser.add_argument("--search", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--name", default="")
    args = parser.parse_args()
    repo = args.repo.resolve()
    peaks = {}
    for n in args.sizes:
        corpus = args.work / f"corpus-{n}"
        if not (corpus / "corpus.json").exists():
            subprocess.run([sys.executable, str(PEERS / "corpus.py"), str(n), str(corpus), "--layouts", "plain"],
                           check=True, stdout=subprocess.DEVNULL)
        site = args.work / f"site-{args.name or repo.name}-{n}"
        if not site.is_dir():
            Sitegen("sitegen", repo, sys.executable, search=args.search).lay_out(site, corpus)
        result = cold(repo, site, args.work / f"stages-{args.name or repo.name}-{n}.jsonl")
        peaks[n] = result["maxrss_mib"]
        print(f"{n:>7} posts: {result['wall_s']:7.1f} s wall, {result['cpu_s']:7.1f} s CPU, "
              f"peak {result['maxrss_mib']:6d} MiB  ({open('/proc/loadavg').read().split()[0]} load)")
        start = result["stages"][0]["t"] if result["stages"] else 0
        for s in result["stages"]:
            print(f"    {s['stage']:<12} at {s['t'] - start:7.1f} s: RSS {s['VmRSS']:6d} MiB, peak so far {s['VmHWM']:6d} MiB")
    sizes = sorted(peaks)
    for small, large in zip(sizes, sizes[1:]):
        slope = (peaks[large] - peaks[small]) / (large - small) * 1000
        print(f"slope {small}->{large}: {slope:.1f} MiB per 1,000 posts; "
              f"at 100,000: {peaks[small] + slope * (100_000 - small) / 1000:.0f} MiB")


if __name__ == "__main__":
    main()
