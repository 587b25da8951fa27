"""What search costs: Pagefind's indexing time, the index's size, and the cold, no-op and
one-post-edit builds with search on beside the same builds with ``search: false``.

    python benchmarks/bench_search.py --posts 1000 10000 [--rounds 2] [--work DIR] [--seed 1]
                                      [--json FILE]

For each N, on the corpus of make_corpus.py (``--work`` keeps and reuses it), each round
builds with search on and with it off, in an order that alternates between rounds so that
load from other work on a shared machine falls on both: a cold build (output and .sitegen
removed), a no-op build, and a one-post edit (a sentence appended to the middle post,
undone afterwards). Times are CPU seconds (user+sys of the whole process tree, Pagefind
included) and wall seconds; medians over the rounds. Then, on the site the last build with
search made: the index's files and bytes, and Pagefind alone, run (in a subprocess, through
generator.pagefind as the build runs it) on the pages the build indexed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_build import build_env, clean, ensure_corpus, log, measure
from make_corpus import REPO_ROOT, set_search

EDIT = "\n\nA sentence added by bench_search, found by no search yet.\n"

# Pagefind alone, as the build's planner runs it: the marked pages of the site group, in path
# order. Run in a fresh interpreter so that its CPU figures are Pagefind's and its client's.
INDEX_ONLY = r"""
import json, resource, sys, time
from pathlib import Path
from generator.outputs.search import MARKER, page_url
from generator.pagefind import index_pages
out = Path(sys.argv[1])
pages = [(p.relative_to(out).as_posix(), p.read_bytes()) for p in sorted(out.rglob("*.html"))
         if p.relative_to(out).parts[0] not in ("pagefind", "docs")]
marked = [(page_url(path), data.decode("utf-8", "replace")) for path, data in pages if MARKER in data]
start = time.perf_counter()
files = index_pages(marked)
wall = time.perf_counter() - start
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
json.dump({"pages": len(marked), "wall_s": wall, "files": len(files),
           "pagefind_cpu_s": kids.ru_utime + kids.ru_stime, "client_cpu_s": me.ru_utime + me.ru_stime,
           "pagefind_peak_rss_mib": kids.ru_maxrss / 1024}, sys.stdout)
"""


def middle_post(corpus: Path) -> Path:
    posts = sorted((corpus / "content" / "posts").glob("*.md"))
    return posts[len(posts) // 2]


def one_round(corpus: Path, command: list[str], env: dict[str, str], on: bool) -> dict:
    """Cold, no-op and one-post-edit builds with search ``on`` (else off)."""
    set_search(corpus, on)
    clean(corpus, "_site")
    label = "on" if on else "off"
    log(f"  search {label}: cold build")
    cold = measure(command, corpus, env)
    log(f"  search {label}: no-op build")
    noop = measure(command, corpus, env)
    found = {"index": index_size(corpus / "_site"), "alone": index_only(corpus / "_site", env)} if on else {}
    post = middle_post(corpus)
    text = post.read_text(encoding="utf-8")
    post.write_text(text + EDIT, encoding="utf-8")
    try:
        log(f"  search {label}: one-post edit")
        edit = measure(command, corpus, env)
    finally:
        post.write_text(text, encoding="utf-8")
    return {"cold": cold, "noop": noop, "edit": edit, **found}


def index_size(out: Path) -> dict:
    files = [p for p in (out / "pagefind").rglob("*") if p.is_file()]
    return {"files": len(files), "bytes": sum(p.stat().st_size for p in files),
            "fragments": sum(1 for p in files if p.parent.name == "fragment"),
            "site_html_bytes": sum(p.stat().st_size for p in out.rglob("*.html"))}


def index_only(out: Path, env: dict[str, str]) -> dict:
    log("  Pagefind alone, on the pages the build indexed")
    done = subprocess.run([sys.executable, "-c", INDEX_ONLY, str(out)], env=env, stdout=subprocess.PIPE,
                          text=True, check=True)
    return json.loads(done.stdout)


def bench(posts: int, corpus: Path, rounds: int, seed: int) -> dict:
    ensure_corpus(posts, corpus, seed, REPO_ROOT)
    env, command = build_env(), [sys.executable, "-m", "generator", "build"]
    samples: dict[str, list[dict]] = {"on": [], "off": []}
    for n in range(rounds):
        order = (True, False) if n % 2 == 0 else (False, True)
        log(f"N={posts}: round {n + 1}/{rounds}")
        for on in order:
            samples["on" if on else "off"].append(one_round(corpus, command, env, on))
    set_search(corpus, True)
    alone = {key: statistics.median(s["alone"][key] for s in samples["on"])
             for key in ("pages", "wall_s", "files", "pagefind_cpu_s", "client_cpu_s", "pagefind_peak_rss_mib")}

    def median(setting: str, phase: str, key: str) -> float:
        return statistics.median(s[phase][key] for s in samples[setting])

    figures = {phase: {setting: {"cpu_s": median(setting, phase, "cpu_seconds"),
                                 "wall_s": median(setting, phase, "seconds")}
                       for setting in ("on", "off")}
               for phase in ("cold", "noop", "edit")}
    return {"posts": posts, "rounds": rounds, "phases": figures, "index": samples["on"][-1]["index"],
            "pagefind_alone": alone,
            "samples": samples}


def table(results: list[dict]) -> str:
    rows = ["| N | pages indexed | Pagefind alone: wall s / CPU s (its own + client) | index files | index MiB |"
            " cold CPU s on / off (+%) | no-op CPU s on / off | edit CPU s on / off |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        p, alone, size = r["phases"], r["pagefind_alone"], r["index"]

        def pair(phase: str) -> str:
            on, off = p[phase]["on"]["cpu_s"], p[phase]["off"]["cpu_s"]
            return f"{on:.2f} / {off:.2f}"
        cold_on, cold_off = p["cold"]["on"]["cpu_s"], p["cold"]["off"]["cpu_s"]
        rows.append(f"| {r['posts']:,} | {alone['pages']:,} | {alone['wall_s']:.1f} / "
                    f"{alone['pagefind_cpu_s']:.1f} + {alone['client_cpu_s']:.1f} | {size['files']:,} | "
                    f"{size['bytes'] / 2**20:.1f} | {pair('cold')} (+{100 * (cold_on - cold_off) / cold_off:.0f}%) | "
                    f"{pair('noop')} | {pair('edit')} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, nargs="+", required=True)
    parser.add_argument("--rounds", type=int, default=2, help="rounds of on and off builds (medians)")
    parser.add_argument("--work", type=Path, help="keep corpora in DIR/posts-N-seed-S and reuse them")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write every figure to FILE")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="sitegen-search-") as tmp:
        base = (args.work or Path(tmp)).resolve()
        results = [bench(n, base / f"posts-{n}-seed-{args.seed}", args.rounds, args.seed) for n in args.posts]
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps({"python": platform.python_version(), "platform": platform.platform(),
                                         "cpus": os.cpu_count(), "results": results}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
