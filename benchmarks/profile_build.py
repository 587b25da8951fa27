"""Where a cold build's time goes: cProfile of one build, as shares of named stages and top functions.

    python benchmarks/profile_build.py POSTS_DIR [--repo REPO] [--work DIR] [--top 12]

Lays out a site from REPO's skeleton (default: this checkout) with the posts of
POSTS_DIR (``peers/corpus.py``'s ``plain/posts``, or make_corpus.py's), and builds
it cold with REPO's sitegen in this process under cProfile. Documents are parsed
in this process too (not in worker processes, which the profiler would not see),
so the shares are of the whole work of one core. Prints Markdown: the stages
(Markdown, its inline patterns, the typographic pass, Pygments, front matter YAML,
rendering and writing) by cumulative time, then the top functions by own time.
The profile counts CPU time (time.process_time), so waiting for a busy machine's
cores is left out; cProfile's overhead weighs on many small Python calls: compare
shares, not seconds.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def stage_time(stats: pstats.Stats, file_part: str, name: str, line: int | None = None,
               total: bool = False) -> float:
    """The cumulative time of the outermost matching function (or the sum over all, ``total``)."""
    found = [ct for (file, ln, fn), (_, _, _, ct, _) in stats.stats.items()
             if file_part in file and fn == name and (line is None or ln == line)]
    return (sum(found) if total else max(found)) if found else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("posts", type=Path)
    parser.add_argument("--repo", type=Path, default=HERE.parent)
    parser.add_argument("--work", type=Path, help="where to lay out the site (default: a temporary folder)")
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    repo = args.repo.resolve()
    sys.path[:0] = [str(repo), str(HERE)]
    import generator.build as build
    import generator.parallel as parallel
    from markdown.treeprocessors import InlineProcessor
    from make_corpus import copy_skeleton, has_search, set_search

    work = args.work or Path(tempfile.mkdtemp(prefix="sitegen-profile-"))
    site = work / "site"
    shutil.rmtree(site, ignore_errors=True)
    copy_skeleton(repo, site)
    if has_search(repo):                       # off, as bench_peers.py builds it
        set_search(site, False)
    shutil.copytree(args.posts, site / "content" / "posts")
    parallel.PARALLEL_THRESHOLD = 10 ** 9     # parse and render here, where the profiler sees it
    profile = cProfile.Profile(time.process_time)   # CPU time: a shared machine's waits left out
    profile.enable()
    build.build(site)
    profile.disable()
    stats = pstats.Stats(profile)
    whole = stage_time(stats, "generator/build.py", "build")
    inline_line = InlineProcessor.run.__code__.co_firstlineno
    stages = [
        ("Markdown (Python-Markdown's convert, all of it)", stage_time(stats, "markdown/core.py", "convert")),
        ("- inline patterns (Python-Markdown's InlineProcessor; smarty's own pass was one too)",
         stage_time(stats, "markdown/treeprocessors.py", "run", inline_line, total=True)),
        ("- typographic pass (generator/typography.py)", stage_time(stats, "generator/typography.py", "run")),
        ("- Pygments (fences, through pymdownx.highlight)", stage_time(stats, "pymdownx/highlight.py", "highlight")),
        ("  - of which making Pygments formatters", stage_time(stats, "pygments/formatters/html.py", "__init__")),
        ("front matter YAML", stage_time(stats, "generator/sources.py", "split_front_matter")),
        ("reading time (generator/reading.py)", stage_time(stats, "generator/reading.py", "reading_time")),
        ("rendering (Jinja) and writing the outputs", stage_time(stats, "generator/build.py", "make")),
        ("- feeds (Atom, RSS, JSON Feed: the blog's, each tag's and category's)",
         sum(stage_time(stats, "generator/feeds.py", name) for name in ("atom_feed", "rss_feed", "json_feed"))),
    ]
    print(f"cold build of {len(list(args.posts.glob('*.md')))} posts: {whole:.1f} s of CPU under cProfile\n")
    print("| stage | s | share |\n|---|---:|---:|")
    for name, seconds in stages:
        print(f"| {name} | {seconds:.1f} | {100 * seconds / whole:.1f} % |")
    print("\n| function (own time) | s | share |\n|---|---:|---:|")
    own = sorted(((tt, key) for key, (_, _, tt, _, _) in stats.stats.items()), reverse=True)[:args.top]
    for seconds, (file, line, name) in own:
        where = file.split("site-packages/")[-1].replace(str(repo) + "/", "")
        print(f"| `{where}:{line}({name})` | {seconds:.1f} | {100 * seconds / whole:.1f} % |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
