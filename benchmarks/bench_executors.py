"""Time 24 small tutorials run locally, on a Dask LocalCluster, and as 4 CI shards.

The site is the repository's skeleton (site.yaml without docs versions,
templates/, assets/) with 24 generated tutorials in notebooks/, each a few
cells that compute a little and sleep ``--sleep`` seconds (work a kernel waits
on). Every tutorial's first cell appends to a log, so "kernels started" is
counted by the kernels themselves, not by sitegen. Four ways, each from an
empty cache:

1. **local**: ``sitegen tutorials run`` with ``executor: local`` (``notebooks.workers``
   threads, each driving one kernel: the default, one per core, then ``--workers``);
2. **LocalCluster**: the same with ``executor:`` a ``distributed.LocalCluster`` of 4
   single-threaded worker processes started here first (its start-up is reported
   apart, as a CI cluster would be running already);
3. **4 shards**: four ``sitegen tutorials run --shard I/4`` processes at once, each in
   its own copy of the site (as CI jobs are), sharing a folder as ``notebooks.cache``;
4. **cached build**: ``sitegen build`` of a fresh copy whose ``notebooks.cache`` holds
   every run (read through from the shared folder), then again with its local cache.

    python benchmarks/bench_executors.py [--tutorials 24] [--sleep 0.5] [--workers 4] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO_ROOT = Path(__file__).resolve().parents[1]
SKELETON = ("templates", "assets")
COUNTS = re.compile(r"(\d+) notebooks ran, (\d+) from cache")


def tutorial(n: int, log: Path, sleep: float) -> str:
    return (f"# %% [markdown]\n# # Tutorial {n}\n\nA small tutorial.\n\n"
            f"# %%\nopen({str(log)!r}, 'a').write('t{n}\\n')\n\n"
            f"# %%\nimport time\ntotal = sum(i * i for i in range(100_000))\ntime.sleep({sleep})\ntotal\n\n"
            f"# %% [markdown]\n# Done.\n\n# %%\nprint('tutorial {n}:', total % 97)\n")


def make_site(destination: Path, count: int, log: Path, sleep: float, notebooks: dict) -> Path:
    destination.mkdir(parents=True)
    config = yaml.safe_load((REPO_ROOT / "site.yaml").read_text(encoding="utf-8"))
    config.pop("versions", None)
    config["notebooks"] = {**config.get("notebooks", {}), **notebooks}
    (destination / "site.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    for name in SKELETON:
        shutil.copytree(REPO_ROOT / name, destination / name)
    (destination / "notebooks").mkdir()
    for n in range(1, count + 1):
        (destination / "notebooks" / f"t{n:02d}.py").write_text(tutorial(n, log, sleep), encoding="utf-8")
    return destination


def sitegen(site: Path, *args: str) -> subprocess.Popen:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return subprocess.Popen([sys.executable, "-m", "generator", *args], cwd=site, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(process: subprocess.Popen) -> str:
    out, err = process.communicate()
    if process.returncode != 0:
        sys.stderr.write(err)
        raise SystemExit(f"bench_executors: {process.args} exited with {process.returncode}")
    return out


def started(log: Path) -> int:
    return len(log.read_text().split()) if log.exists() else 0


def timed(log: Path, *processes: subprocess.Popen) -> dict:
    before, clock = started(log), time.perf_counter()
    outs = [finish(process) for process in processes]
    return {"seconds": round(time.perf_counter() - clock, 2), "kernels": started(log) - before, "out": outs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tutorials", type=int, default=24)
    parser.add_argument("--sleep", type=float, default=0.5)
    parser.add_argument("--workers", type=int, default=4, help="LocalCluster workers and shards")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    from distributed import LocalCluster

    results: dict = {"machine": f"{platform.node()}, {os.cpu_count()} cores (shared with other work)",
                     "tutorials": args.tutorials, "sleep": args.sleep, "workers": args.workers}
    with tempfile.TemporaryDirectory(prefix="bench-executors-") as tmp:
        work = Path(tmp)
        log = work / "kernels.log"
        n = args.tutorials

        site = make_site(work / "local", n, log, args.sleep, {})
        results["local"] = timed(log, sitegen(site, "tutorials", "run"))
        site = make_site(work / "local-wide", n, log, args.sleep, {"workers": args.workers})
        results["local_workers"] = timed(log, sitegen(site, "tutorials", "run"))

        clock = time.perf_counter()
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None)
        results["cluster_start_seconds"] = round(time.perf_counter() - clock, 2)
        try:
            site = make_site(work / "dask", n, log, args.sleep, {"executor": cluster.scheduler_address})
            results["dask"] = timed(log, sitegen(site, "tutorials", "run"))
        finally:
            cluster.close()

        shared = (work / "bucket").as_uri()
        shards = [make_site(work / f"shard{i}", n, log, args.sleep, {"cache": shared})
                  for i in range(1, args.workers + 1)]
        results["shards"] = timed(log, *(sitegen(site, "tutorials", "run", "--shard", f"{i}/{args.workers}")
                                         for i, site in enumerate(shards, start=1)))

        site = make_site(work / "publish", n, log, args.sleep, {"cache": shared})
        results["cached_build_shared"] = timed(log, sitegen(site, "build"))
        shutil.rmtree(site / "_site")
        for state in (site / ".sitegen").glob("state.*"):      # the build's own record of its output
            state.unlink()
        results["cached_build_local"] = timed(log, sitegen(site, "build"))
    for key in ("cached_build_shared", "cached_build_local"):
        counts = COUNTS.search(results[key]["out"][0])
        results[key]["ran, cached"] = [int(counts.group(1)), int(counts.group(2))] if counts else None
    for value in results.values():
        if isinstance(value, dict):
            value.pop("out", None)
    text = json.dumps(results, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
