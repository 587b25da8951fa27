"""Time incremental builds and the live preview on generated corpora of N posts.

Like bench_build.py, the generator is driven only as a subprocess. For each N:
a cold build and a no-op build (time, peak RSS); then `sitegen serve` on a free
port, with an event-stream client, for edits made the way an author makes them:
the time from saving a file to the preview announcing the rebuilt outputs (the
files are written by then), for one post's body and for a template every post
uses; the preview's own build time for each (from its log); its peak RSS.

    python benchmarks/bench_incremental.py --posts 1000 10000 [--edits 5] [--work DIR]
                                           [--seed 1] [--sitegen CMD] [--json FILE]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import queue
import re
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench_build import build_env, clean, count_pages, ensure_corpus, log, measure
from make_corpus import REPO_ROOT, set_search

TEMPLATE = Path("templates/post.html")    # used by every post (the default theme's, copied as the site's own)
THEME_TEMPLATE = REPO_ROOT / "generator" / "themes" / "default" / TEMPLATE
WAIT = 600.0                              # seconds for one rebuild, at most


class Preview:
    """`sitegen serve` in a subprocess, with an event-stream client on it."""

    def __init__(self, command: list[str], corpus: Path, env: dict[str, str]):
        self.process = subprocess.Popen([*command, "serve", "--port", "0"], cwd=corpus, env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        port = None
        for line in self.process.stderr:
            if match := re.search(r"at http://127\.0\.0\.1:(\d+)/", line):
                port = int(match.group(1))
                break
        if port is None:
            raise SystemExit(f"bench_incremental: {shlex.join(command)} serve did not start in {corpus}")
        threading.Thread(target=self._read_log, daemon=True).start()
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
        self.connection.request("GET", "/__sitegen__/events")
        self.events = self.connection.getresponse()

    def _read_log(self) -> None:
        for line in self.process.stderr:
            self.lines.put(line)

    def next_change(self) -> list[str]:
        """Wait for the next rebuild that changed files; return their URLs."""
        event, data = None, None
        while True:
            line = self.events.fp.readline().decode()
            if not line:
                raise SystemExit("bench_incremental: the preview closed its event stream")
            line = line.rstrip("\n")
            if line.startswith("event: "):
                event = line[len("event: "):]
            elif line.startswith("data: "):
                data = json.loads(line[len("data: "):])
            elif not line and data is not None:
                if event == "failure":
                    raise SystemExit(f"bench_incremental: the rebuild failed: {data['message']}")
                if event == "change" and data["paths"]:
                    return data["paths"]
                event, data = None, None

    def build_seconds(self) -> float:
        """The preview's own time for its last rebuild, from its log."""
        seconds = None
        while seconds is None or not self.lines.empty():
            line = self.lines.get(timeout=WAIT)
            if match := re.search(r"rebuilt: .* in (\d+\.\d+)s", line):
                seconds = float(match.group(1))
        return seconds

    def edit(self, path: Path, text: str) -> dict:
        """Save ``text`` into ``path``; the time until the preview says what it rewrote."""
        started = time.perf_counter()
        path.write_text(text, encoding="utf-8")
        changed = self.next_change()
        seconds = time.perf_counter() - started
        return {"seconds": seconds, "build_seconds": self.build_seconds(), "files": len(changed)}

    def peak_rss_mib(self) -> float | None:
        """VmHWM of the preview process (Linux only)."""
        try:
            status = Path(f"/proc/{self.process.pid}/status").read_text()
        except OSError:
            return None
        match = re.search(r"VmHWM:\s+(\d+) kB", status)
        return int(match.group(1)) / 1024 if match else None

    def stop(self) -> None:
        self.connection.close()
        self.process.send_signal(signal.SIGINT)
        if self.process.wait(timeout=60) != 0:
            raise SystemExit(f"bench_incremental: the preview exited with {self.process.returncode}")


def edit_and_revert(preview: Preview, path: Path, edited: str) -> dict:
    """Measure saving ``edited`` into ``path``, then put the file back (not measured)."""
    original = path.read_text(encoding="utf-8")
    try:
        sample = preview.edit(path, edited)
    finally:
        preview.edit(path, original)
        time.sleep(0.5)  # let the preview settle before the next measurement
    return sample


def bench_one(posts: int, corpus: Path, command: list[str], edits: int, seed: int, site: Path,
              search: bool = True) -> dict:
    ensure_corpus(posts, corpus, seed, site)
    if not (corpus / TEMPLATE).is_file():        # a site override, byte for byte the theme's
        (corpus / TEMPLATE).parent.mkdir(parents=True, exist_ok=True)
        (corpus / TEMPLATE).write_bytes(THEME_TEMPLATE.read_bytes())
    set_search(corpus, search)
    env = build_env()
    clean(corpus, "_site")
    log(f"N={posts}: cold build")
    cold = measure([*command, "build"], corpus, env)
    pages = count_pages(corpus / "_site")
    log(f"N={posts}: no-op build")
    noop = measure([*command, "build"], corpus, env)

    log(f"N={posts}: preview")
    preview = Preview(command, corpus, env)
    try:
        sources = sorted((corpus / "content" / "posts").glob("*.md"))
        chosen = [sources[i * len(sources) // edits] for i in range(edits)]
        post_edits = []
        for n, path in enumerate(chosen, start=1):
            text = path.read_text(encoding="utf-8")
            post_edits.append(edit_and_revert(preview, path, text.rstrip("\n") + f" One more sentence, {n}.\n"))
            log(f"N={posts}: post edit {n}/{edits}: {post_edits[-1]}")
        template = corpus / TEMPLATE
        text = template.read_text(encoding="utf-8")
        marked = text.replace("</article>", "<!-- edited --></article>", 1)
        template_edit = edit_and_revert(preview, template, marked)
        log(f"N={posts}: template edit: {template_edit}")
        serve_rss = preview.peak_rss_mib()
    finally:
        preview.stop()

    def median(key: str) -> float:
        return statistics.median(sample[key] for sample in post_edits)

    return {
        "posts": posts, "pages": pages,
        "cold_s": cold["seconds"], "cold_peak_rss_mib": cold["peak_rss_mib"],
        "noop_s": noop["seconds"],
        "post_edit_s": median("seconds"), "post_edit_build_s": median("build_seconds"),
        "post_edit_files": median("files"),
        "template_edit_s": template_edit["seconds"], "template_edit_build_s": template_edit["build_seconds"],
        "template_edit_files": template_edit["files"],
        "serve_peak_rss_mib": serve_rss,
        "samples": {"post_edits": post_edits, "template_edit": template_edit},
    }


def markdown_table(results: list[dict]) -> str:
    rows = ["| N | cold build s | no-op build s | cold/no-op | post edit ms (its build) | files "
            "| template edit s (its build) | files | peak RSS MiB: cold build / preview |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        serve_rss = f"{r['serve_peak_rss_mib']:.0f}" if r["serve_peak_rss_mib"] else "n/a"
        rows.append(
            f"| {r['posts']} | {r['cold_s']:.2f} | {r['noop_s']:.2f} | {r['cold_s'] / r['noop_s']:.0f}x "
            f"| {r['post_edit_s'] * 1000:.0f} ({r['post_edit_build_s'] * 1000:.0f}) | {r['post_edit_files']:.0f} "
            f"| {r['template_edit_s']:.2f} ({r['template_edit_build_s']:.2f}) | {r['template_edit_files']} "
            f"| {r['cold_peak_rss_mib']:.0f} / {serve_rss} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, nargs="+", required=True, help="corpus sizes, e.g. 1000 10000")
    parser.add_argument("--edits", type=int, default=5, help="posts edited per size; medians are reported")
    parser.add_argument("--sitegen", help='the command, without "build" or "serve" (default: "python -m generator")')
    parser.add_argument("--work", type=Path, help="keep corpora in DIR/posts-N-seed-S and reuse them")
    parser.add_argument("--seed", type=int, default=1, help="corpus seed (default 1)")
    parser.add_argument("--site", type=Path, default=REPO_ROOT, help="site skeleton for the corpus")
    parser.add_argument("--json", type=Path, help="also write the figures to FILE as JSON")
    parser.add_argument("--no-search", dest="search", action="store_false",
                        help="build without the search index (search: false), as the peers build")
    args = parser.parse_args(argv)

    command = shlex.split(args.sitegen) if args.sitegen else [sys.executable, "-m", "generator"]
    with tempfile.TemporaryDirectory(prefix="sitegen-bench-") as tmp:
        base = (args.work or Path(tmp)).resolve()
        results = [bench_one(n, base / f"posts-{n}-seed-{args.seed}", command, args.edits, args.seed, args.site,
                             args.search)
                   for n in args.posts]
    print(markdown_table(results))
    if args.json:
        report = {"command": command, "seed": args.seed, "edits": args.edits,
                  "python": platform.python_version(), "platform": platform.platform(),
                  "cpus": os.cpu_count(), "results": results}
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
