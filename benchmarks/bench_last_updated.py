"""What the docs pages' "Last updated" days add to resolving the docs versions, which every
build does: 9 alternating rounds of ``resolve_versions`` for the site in the current folder,
with the days and with them stubbed out; medians in milliseconds.

    .venv/bin/python benchmarks/bench_last_updated.py
"""

import statistics
import time
from pathlib import Path

from generator import versions
from generator.configure import load_config

ROUNDS = 9


def main() -> None:
    config = load_config(Path("."))
    uncached = versions.last_updated.__wrapped__      # each round asks git, as a new process does
    ways = {"with the days": uncached, "without": lambda root, commit: ()}
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(ROUNDS):
        for name, days in ways.items():
            versions.last_updated = days
            start = time.perf_counter()
            versions.resolve_versions(config)
            times[name].append(time.perf_counter() - start)
    for name, found in times.items():
        print(f"{name}: {statistics.median(found) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
