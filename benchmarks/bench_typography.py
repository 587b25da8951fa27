"""The typographic pass alone: smarty's own inline processor against generator/typography.py.

    python benchmarks/bench_typography.py [FOLDER ...] [--rounds 3]

Renders every Markdown file under the FOLDERs (default: the site's content/) with
sitegen's converter and with the same converter using smarty's own pass, ``--rounds``
times, and reports the seconds spent in each typographic pass (timed around the
treeprocessor only) and their ratio. The two give the same HTML (tests/test_markdown_fast_paths.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import markdown  # noqa: E402

from generator.markdown import EXTENSION_CONFIGS, EXTENSIONS, KramdownCompat, markdown_converter  # noqa: E402
from generator.sources import split_front_matter  # noqa: E402


def timed_pass(md: markdown.Markdown) -> list[float]:
    """Time the ``smarty`` treeprocessor of ``md`` (whichever implementation is registered)."""
    spent = [0.0]
    processor = md.treeprocessors["smarty"]
    run = processor.run

    def timed(root):
        started = time.perf_counter()
        result = run(root)
        spent[0] += time.perf_counter() - started
        return result

    processor.run = timed
    return spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="*", type=Path, default=[REPO / "content"])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    bodies = []
    for folder in args.folders:
        for path in sorted(p for p in folder.rglob("*") if p.suffix in (".md", ".markdown")):
            bodies.append(split_front_matter(path.read_text(encoding="utf-8"), path)[1])
    ours = markdown_converter()
    smarty = markdown.Markdown(extensions=[*EXTENSIONS, KramdownCompat()],
                               extension_configs=EXTENSION_CONFIGS, output_format="html")
    spent = {"smarty": timed_pass(smarty), "typography.py": timed_pass(ours)}
    for _ in range(args.rounds):
        for md in (smarty, ours):          # interleaved, so load falls on both alike
            for body in bodies:
                md.reset()
                md.convert(body)
    print(f"{len(bodies)} documents, {args.rounds} rounds")
    for name, seconds in spent.items():
        print(f"{name:>14}: {seconds[0]:.3f} s in the typographic pass")
    print(f"{'ratio':>14}: {spent['smarty'][0] / spent['typography.py'][0]:.1f}x less time")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
