"""The Markdown conversion of a corpus's first posts, in one process: a fixed piece of work to count.

    PYTHONPATH=REPO PYTHONHASHSEED=0 valgrind --tool=callgrind python benchmarks/markdown_work.py FOLDER [N]

Converts the bodies of the first N (default 100) Markdown files of FOLDER, in name order, with
sitegen's converter (Pygments included, each block new to the process) and exits. Run under
callgrind, its instruction count compares two checkouts where this machine's clock cannot: the
same work gives the same count, whatever else the machine runs (with ``PYTHONHASHSEED`` fixed
and both checkouts' bytecode compiled; the start and imports alone, N = 0, are about 670 M).
``PYTHONPATH`` picks the checkout (the script imports whichever ``generator`` comes first).
"""

from __future__ import annotations

import sys
from pathlib import Path

from generator.markdown import MarkdownRenderer
from generator.sources import split_front_matter


def main() -> None:
    folder, count = Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 100
    renderer = MarkdownRenderer()
    for path in sorted(folder.glob("*.md"))[:count]:
        _, body, _ = split_front_matter(path.read_text(encoding="utf-8"), path)
        renderer.render(body)


if __name__ == "__main__":
    main()
