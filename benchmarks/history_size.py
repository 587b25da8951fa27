"""How large the history's pages of a site are: its pages, and the bytes of the largest, made
in memory by the history's planner alone (the posts are parsed; no other page is made).

    .venv/bin/python benchmarks/make_corpus.py --posts 10000 --out /tmp/corpus --site SKELETON
    .venv/bin/python benchmarks/history_size.py /tmp/corpus

The sizes are a function of the code and the corpus: one run of each code gives them.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.build import BuildOptions, render_site  # noqa: E402
from generator.configure import load_config  # noqa: E402
from generator.outputs import Registry  # noqa: E402
from generator.outputs.archives import History  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("site", type=Path)
    args = parser.parse_args()
    options = BuildOptions(now=datetime(2030, 1, 1, tzinfo=timezone.utc))
    outputs = render_site(load_config(args.site), options, Registry([History()])).outputs
    pages = {path: len(data) for path, data in outputs.items() if path.endswith(".html")}
    largest = max(pages, key=pages.__getitem__)
    print(f"{len(pages)} history pages, {sum(pages.values()):,} bytes in all; "
          f"largest {largest}: {pages[largest]:,} bytes")


if __name__ == "__main__":
    main()
