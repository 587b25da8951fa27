"""What finding a document's links and ids costs its parse, beside its Markdown, and what the
pass every build makes over them costs (benchmarks/RESULTS.md, issue 36 item 2).

    python benchmarks/make_corpus.py --posts 300 --out /tmp/corpus
    cd /tmp/corpus && python path/to/benchmarks/link_warnings_cost.py [--posts 300]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from pathlib import Path

from generator.build import BuildOptions, Engine
from generator.engine.planning import broken_links
from generator.links import document_anchors, document_links
from generator.markdown import render_markdown
from generator.sources import load_source


def median_seconds(work, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, default=300, help="posts whose parse is timed")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    root = Path(".")
    sources = [load_source(root, "post", path.relative_to(root))
               for path in sorted((root / "content/posts").glob("*.md"))[:args.posts]]
    items = [(render_markdown(s.body).html, s.body) for s in sources]

    def per_document(work) -> float:
        return median_seconds(work, args.rounds) / len(items) * 1e6

    print(f"Markdown: {per_document(lambda: [render_markdown(body) for _, body in items]):.0f} us a document")
    print(f"links: {per_document(lambda: [document_links(h, b, 1) for h, b in items]):.0f} us")
    print(f"ids: {per_document(lambda: [document_anchors(h) for h, _ in items]):.0f} us")
    engine = Engine(root, BuildOptions(), saved=False)
    engine.build(save=False)
    site, plan, config = engine.last.site, engine.last_plan.plan, engine.config
    links = sum(len(doc.links) for doc in site.documents)
    gc.disable()        # as in a build (Engine.build): no collection walks the documents held
    seconds = median_seconds(lambda: broken_links(site, plan, config, {}), args.rounds)   # every page: no check kept
    gc.enable()
    print(f"the pass over {len(site.documents)} documents, {links} links: {seconds * 1000:.1f} ms")


if __name__ == "__main__":
    main()
