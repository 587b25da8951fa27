"""Time and peak memory of a cold `sitegen build` of a site with one huge post.

Two kinds of huge (issue 15): a post of N megabytes of the corpus's generated prose
(headings, code, lists, tables, footnotes: make_corpus.Writer's bodies, one after
another), and a post of N headings, each with a one-line paragraph, the heading
texts repeating every 50 so that ids must be told apart. Linear is the goal: the
last column is the CPU time per unit of input (a megabyte, a thousand headings),
which stays flat when the time is linear. CPU time (user + system) is given beside
the wall time because it is steadier on a machine shared with other work.

    python benchmarks/bench_huge.py [--mb 1 2 5 10 20] [--headings 1000 10000 100000]
                                    [--sitegen "CMD"] [--work DIR]
"""

from __future__ import annotations

import argparse
import random
import re
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

import yaml

from bench_build import build_env, measure
from make_corpus import REPO_ROOT, Writer, copy_skeleton, plan_posts

MIB = 1 << 20


def prose(size: int, seed: int = 1) -> str:
    """About ``size`` bytes of generated posts' bodies, footnote labels kept unique."""
    rng = random.Random(seed)
    writer = Writer(rng, plan_posts(rng, 50))
    parts, total = [], 0
    while total < size:
        body = re.sub(r"\[\^(\d+)\]", lambda m, k=len(parts): f"[^{k}-{m.group(1)}]", writer.body())
        parts.append(body)
        total += len(body.encode("utf-8"))
    return "\n".join(parts)


def headings(count: int) -> str:
    return "".join(f"## Section {i % 50}\n\nA paragraph under heading {i}.\n\n" for i in range(count))


def make_site(folder: Path, body: str) -> None:
    """The repository's site skeleton with one post holding ``body``, and no size limit."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    copy_skeleton(REPO_ROOT, folder)
    config_path = folder / "site.yaml"
    config = yaml.safe_load(config_path.read_text(encoding="utf-8"))
    config["limits"] = {"max_source_bytes": 1 << 40}
    config_path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    posts = folder / "content" / "posts"
    posts.mkdir(parents=True, exist_ok=True)
    (posts / "2020-01-01-huge.md").write_text(f"---\ntitle: Huge\n---\n{body}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, nargs="*", default=[1, 2, 5, 10, 20])
    parser.add_argument("--headings", type=int, nargs="*", default=[1000, 10000, 100000])
    parser.add_argument("--sitegen", default=f"{shlex.quote(sys.executable)} -m generator",
                        help="the command that runs sitegen (default: this Python, -m generator)")
    parser.add_argument("--work", type=Path, help="folder for the generated sites (default: a temp dir)")
    args = parser.parse_args(argv)

    work = args.work or Path(tempfile.mkdtemp(prefix="bench-huge-"))
    command = [*shlex.split(args.sitegen), "build"]
    cases = [(f"{mb:g} MB of prose", prose(int(mb * MIB)), mb, "MB") for mb in args.mb]
    cases += [(f"{n:,} headings", headings(n), n / 1000, "1k headings") for n in args.headings]
    print("| post | bytes | cold build s (wall) | CPU s | peak RSS MiB | CPU s per unit |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, body, units, unit in cases:
        site = work / re.sub(r"\W+", "-", label)
        make_site(site, body)
        size = len(body.encode("utf-8"))
        print(f"{label}: building {size:,} bytes", file=sys.stderr, flush=True)
        result = measure(command, site, build_env())
        print(f"| {label} | {size:,} | {result['seconds']:.2f} | {result['cpu_seconds']:.2f} | "
              f"{result['peak_rss_mib']:.0f} | {result['cpu_seconds'] / units:.2f} per {unit} |", flush=True)
        shutil.rmtree(site)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
