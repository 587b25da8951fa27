"""sitegen beside Hugo and Pelican: the same generated blog built by each, rounds interleaved.

    python benchmarks/bench_peers.py --posts 1000 5000 [--runs 3] [--cold-runs K] [--tools sitegen,hugo,pelican]
        [--sitegen NAME=REPO ...] [--phases cold,noop,edit] [--search] [--work DIR] [--json FILE]

For each N, the corpus (benchmarks/peers/corpus.py: the same post bodies for every
tool) is laid out as a site for each tool; then, phase by phase, each round runs
every tool once, the order rotating from round to round, so that load from other
work on a shared machine falls on all tools alike:

- ``cold``: outputs and caches removed first (sitegen's ``.sitegen/``, Hugo's
  ``resources/`` and cache dir, Pelican's ``cache/``);
- ``noop``: nothing changed since the last build;
- ``edit``: a paragraph appended to the middle post; the new text must then be in
  the built HTML (checked).

Each run's wall time, CPU time (user + sys of the process and its children, so
(user+sys)/wall is the cores used) and peak RSS are taken from ``os.wait4``; every
run is a JSON line in ``WORK/results.jsonl``. Printed: the medians per tool and
phase (wall and CPU), and the ratios of each sitegen to Hugo and to Pelican (>1: sitegen
slower), of wall and of CPU seconds (on a shared machine, the figure to compare).

``--sitegen NAME=REPO`` times the sitegen in the checkout REPO (``python -m
generator build`` with REPO on PYTHONPATH, the site's skeleton taken from REPO);
give it twice (``before=/tmp/old after=.``) to compare two commits in one run, and
``NAME=REPO@PYTHON`` to run one with another interpreter (one that has sitegen's
dependencies; default ``--python``): the same code on two Pythons.
``--search`` builds each site with a search index: sitegen's own (made by default;
without the flag ``search: false``), the peers' by ``pagefind --site OUTPUT`` after the
build, as their sites would make one (a cold phase removes the index too).
Default: ``sitegen=`` this checkout. Hugo is the ``hugo`` on PATH (Debian: ``apt-get
install hugo``); Pelican is installed from PyPI into ``WORK/venvs/pelican`` on
first use (not a project dependency). See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
PEERS = HERE / "peers"
PHASES = ("cold", "noop", "edit")
POSTS_PER_PAGE = 10          # what every peer's configuration uses


class Tool:
    """One generator: how to lay out its site, clean it, build it and find its output."""

    name: str
    output: str
    posts: str               # where its posts go, inside its site

    def lay_out(self, site: Path, corpus: Path) -> None: ...
    def clean(self, site: Path) -> None: ...
    def command(self, site: Path) -> tuple[list[str], dict[str, str]]: ...


def _remove(site: Path, *names: str) -> None:
    for name in names:
        path = site / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()


class Sitegen(Tool):
    output, posts = "_site", "content/posts"

    def __init__(self, name: str, repo: Path, python: str, search: bool = False):
        self.name, self.repo, self.python, self.search = name, repo, python, search

    def lay_out(self, site: Path, corpus: Path) -> None:
        sys.path.insert(0, str(HERE))
        from make_corpus import copy_skeleton, has_search, set_search   # this checkout's code, on REPO's site
        import yaml

        copy_skeleton(self.repo, site)
        config = yaml.safe_load((site / "site.yaml").read_text(encoding="utf-8"))
        config["posts_per_page"] = POSTS_PER_PAGE
        (site / "site.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
        if has_search(self.repo):
            set_search(site, self.search)      # the peers build an index only with --search too
        shutil.copytree(corpus / "plain" / "posts", site / self.posts)

    def clean(self, site: Path) -> None:
        _remove(site, "_site", ".sitegen")

    def command(self, site: Path) -> tuple[list[str], dict[str, str]]:
        return [self.python, "-m", "generator", "build"], {"PYTHONPATH": str(self.repo)}


class Hugo(Tool):
    name, output, posts = "hugo", "public", "content/posts"

    def lay_out(self, site: Path, corpus: Path) -> None:
        shutil.copytree(PEERS / "hugo", site)
        shutil.copytree(corpus / "hugo" / "content", site / "content")

    def clean(self, site: Path) -> None:
        _remove(site, "public", "resources", ".hugo_cache", ".hugo_build.lock")

    def command(self, site: Path) -> tuple[list[str], dict[str, str]]:
        return ["hugo", "--cacheDir", str(site / ".hugo_cache")], {}


class Pelican(Tool):
    name, output, posts = "pelican", "output", "content"

    def __init__(self, work: Path):
        self.venv = work / "venvs" / "pelican"

    def install(self) -> None:
        if not (self.venv / "bin" / "pelican").exists():
            subprocess.run([sys.executable, "-m", "venv", str(self.venv)], check=True)
            subprocess.run([str(self.venv / "bin" / "pip"), "install", "-q", "pelican", "markdown"], check=True)

    def lay_out(self, site: Path, corpus: Path) -> None:
        self.install()
        shutil.copytree(PEERS / "pelican", site)
        shutil.copytree(corpus / "pelican" / "content", site / "content")

    def clean(self, site: Path) -> None:
        _remove(site, "output", "cache", "__pycache__")

    def command(self, site: Path) -> tuple[list[str], dict[str, str]]:
        return [str(self.venv / "bin" / "pelican"), "content", "-s", "pelicanconf.py", "-o", "output"], {}


def with_pagefind(argv: list[str], output: str) -> list[str]:
    """``argv``, then Pagefind's command line indexing its output folder, as a peer's site makes its index."""
    sys.path.insert(0, str(REPO))
    from generator.pagefind import executable

    return ["sh", "-c", f"{shlex.join(argv)} && exec {shlex.join([str(executable()), '--site', output])}"]


def timed(argv: list[str], cwd: Path, env: dict[str, str], log: Path) -> dict:
    """Run ``argv`` once: wall, user+sys CPU and peak RSS of it and its children, exit status."""
    with log.open("a") as out:
        out.write(f"\n### {' '.join(argv)} in {cwd}\n")
        out.flush()
        started = time.monotonic()
        process = subprocess.Popen(argv, cwd=cwd, env={**os.environ, **env}, stdin=subprocess.DEVNULL,
                                   stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.monotonic() - started
        process.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    return {"wall_s": round(wall, 4), "cpu_s": round(cpu, 3), "cores": round(cpu / wall, 2),
            "maxrss_mib": round(usage.ru_maxrss / 1024, 1), "rc": process.returncode}


def html_files(out: Path, marker: str | None = None, since: float = 0.0) -> tuple[int, bool]:
    """HTML files under ``out``, and whether one written at ``since`` or later holds ``marker``
    (the others are not read: at 100,000 posts that would be GiBs a round)."""
    pages = [path for path in out.rglob("*.html")]
    found = marker is not None and any(marker in path.read_text(encoding="utf-8", errors="replace")
                                       for path in pages if path.stat().st_mtime >= since)
    return len(pages), found


def run(n: int, tools: list[Tool], phases: list[str], runs: int, work: Path, results: Path,
        reuse: bool = False, cold_runs: int | None = None, search: bool = False) -> None:
    cold_runs = runs if cold_runs is None else cold_runs
    corpus = work / f"corpus-{n}"
    if not (corpus / "corpus.json").exists():
        subprocess.run([sys.executable, str(PEERS / "corpus.py"), str(n), str(corpus)], check=True,
                       stdout=subprocess.DEVNULL)
    edited = sorted((corpus / "plain" / "posts").iterdir())[n // 2].name
    sites = {}
    for tool in tools:
        site = work / "sites" / f"{tool.name}-{n}"
        if reuse and site.is_dir():      # as an earlier run (say, of the cold phase) left it
            sites[tool.name] = site
            continue
        shutil.rmtree(site, ignore_errors=True)
        site.parent.mkdir(parents=True, exist_ok=True)
        tool.lay_out(site, corpus)
        sites[tool.name] = site
    log = work / "logs" / f"{n}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    for phase in phases:
        for k in range(cold_runs if phase == "cold" else runs):
            for tool in tools[k % len(tools):] + tools[:k % len(tools)]:
                site = sites[tool.name]
                marker = None
                if phase == "cold":
                    tool.clean(site)
                elif phase == "edit":
                    marker = f"BenchEditMarker{k}t{time.monotonic_ns()}"
                    with (site / tool.posts / edited).open("a", encoding="utf-8") as post:
                        post.write(f"\n\n{marker}: this paragraph was appended for a one-post rebuild.\n")
                argv, env = tool.command(site)
                started = time.time() - 1          # file times may be coarser than the clock
                if search and not isinstance(tool, Sitegen):
                    argv = with_pagefind(argv, tool.output)
                result = timed(argv, site, env, log)
                pages, found = html_files(site / tool.output, marker, started)
                record = {"tool": tool.name, "n": n, "phase": phase, "round": k, **result, "html": pages,
                          "load": os.getloadavg()[0]}
                if marker:
                    record["edit_seen"] = found
                with results.open("a") as out:
                    out.write(json.dumps(record) + "\n")
                print(f"  {tool.name:>10} N={n:<6} {phase:5} round {k}: {result['wall_s']:8.2f} s wall, "
                      f"{result['cores']:.2f} cores, {result['maxrss_mib']:7.0f} MiB, {pages} pages"
                      + (f", edit seen: {found}" if marker else "") + ("" if result["rc"] == 0 else
                                                                      f"  FAILED rc={result['rc']} (see {log})"),
                      flush=True)


def summarize(results: Path, names: list[str]) -> str:
    """Markdown: medians per N, tool and phase; then sitegen / peer ratios of the medians."""
    rows: dict[tuple[int, str, str], list[dict]] = {}
    for line in results.read_text().splitlines():
        r = json.loads(line)
        if r["rc"] == 0 and r["tool"] in names:
            rows.setdefault((r["n"], r["tool"], r["phase"]), []).append(r)

    def median(n: int, tool: str, phase: str, field: str = "wall_s") -> float | None:
        found = rows.get((n, tool, phase))
        return statistics.median(r[field] for r in found) if found else None

    ns = sorted({n for n, _, _ in rows})
    lines = ["| N | tool | runs | cold s | no-op s | edit s | cold CPU s | no-op CPU s | edit CPU s "
             "| cold cores (CPU/wall) | cold peak RSS MiB | pages |",
             "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    fmt = lambda x, spec=".2f": "–" if x is None else format(x, spec)  # noqa: E731
    for n in ns:
        for tool in names:
            if not any((n, tool, p) in rows for p in PHASES):
                continue
            count = len(rows.get((n, tool, "cold"), []))
            pages = max((r["html"] for r in rows.get((n, tool, "cold"), [])), default=None)
            lines.append(f"| {n} | {tool} | {count} | {fmt(median(n, tool, 'cold'))} | "
                         f"{fmt(median(n, tool, 'noop'), '.3f')} | {fmt(median(n, tool, 'edit'))} | "
                         + " | ".join(fmt(median(n, tool, phase, "cpu_s")) for phase in PHASES) + " | "
                         f"{fmt(median(n, tool, 'cold', 'cores'))} | {fmt(median(n, tool, 'cold', 'maxrss_mib'), '.0f')} | "
                         f"{fmt(pages, 'd')} |")
    ours = [name for name in names if name not in ("hugo", "pelican")]
    peers = [name for name in ("hugo", "pelican") if name in names]
    for field, what in (("wall_s", "wall"), ("cpu_s", "CPU seconds")) if peers else ():
        lines += ["", f"Ratios of the medians of {what}, sitegen / peer (>1: sitegen slower):", "",
                  "| N | sitegen | " + " | ".join(f"{p} {phase}" for p in peers for phase in PHASES) + " |",
                  "|---:|---|" + "---:|" * (len(peers) * len(PHASES))]
        for n in ns:
            for name in ours:
                cells = []
                for peer in peers:
                    for phase in PHASES:
                        a, b = median(n, name, phase, field), median(n, peer, phase, field)
                        cells.append("–" if a is None or not b else f"{a / b:.2f}")
                lines.append(f"| {n} | {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--posts", type=int, nargs="+", default=[1000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cold-runs", type=int, metavar="K",
                        help="rounds of the cold phase (default: --runs): a cold round of 10,000 posts "
                             "takes minutes where a no-op or edit round takes seconds")
    parser.add_argument("--tools", default="sitegen,hugo,pelican")
    parser.add_argument("--sitegen", action="append", default=[], metavar="NAME=REPO",
                        help="a sitegen checkout to time (repeatable); default sitegen=this checkout")
    parser.add_argument("--python", default=sys.executable, help="the Python with sitegen's dependencies")
    parser.add_argument("--phases", default=",".join(PHASES))
    parser.add_argument("--search", action="store_true",
                        help="build a search index: sitegen's own, the peers' by pagefind --site after the build")
    parser.add_argument("--work", type=Path, default=Path.home() / ".cache" / "sitegen-peer-bench")
    parser.add_argument("--json", type=Path, help="also copy every run's record here (JSON lines)")
    parser.add_argument("--reuse", action="store_true",
                        help="keep the sites and results an earlier run left in WORK (e.g. run the cold "
                             "phase, then --reuse --phases noop,edit with fewer runs)")
    args = parser.parse_args()
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    phases = [p for p in args.phases.split(",") if p]
    unknown = set(phases) - set(PHASES)
    if unknown:
        parser.error(f"unknown phase {sorted(unknown)}; known: {', '.join(PHASES)}")
    tools: list[Tool] = []
    for name in args.tools.split(","):
        if name == "sitegen":
            for spec in args.sitegen or [f"sitegen={REPO}"]:
                label, _, where = spec.partition("=")
                repo, _, python = where.partition("@")
                tools.append(Sitegen(label, Path(repo).resolve(), python or args.python, args.search))
        elif name == "hugo":
            if not shutil.which("hugo"):
                parser.error("no hugo on PATH (Debian: apt-get install hugo)")
            tools.append(Hugo())
        elif name == "pelican":
            tools.append(Pelican(work))
        else:
            parser.error(f"unknown tool {name!r}: sitegen, hugo or pelican")
    results = work / "results.jsonl"
    if not args.reuse:
        results.unlink(missing_ok=True)
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}; work in {work}", flush=True)
    for tool in tools:
        if isinstance(tool, Sitegen):
            version = subprocess.run([tool.python, "-c", "import sys; print(sys.version.split()[0])"],
                                     capture_output=True, text=True).stdout.strip()
            print(f"{tool.name}: {tool.repo} on Python {version} ({tool.python})", flush=True)
    for n in args.posts:
        run(n, tools, phases, args.runs, work, results, args.reuse, args.cold_runs, args.search)
    if args.json:
        shutil.copyfile(results, args.json)
    print()
    print(summarize(results, [tool.name for tool in tools]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
