"""The CommonMark and GFM specs' examples, each rendered by sitegen and by Jekyll: how many agree.

Jekyll reads GFM through kramdown, which is not CommonMark: an example counts as
agreeing when sitegen's element tree equals Jekyll's (tests/parity.dom), whatever
the spec's own HTML says. The specs come from packages that
scripts/setup-test-tools installs (npm commonmark-spec; the GFM spec in marko's
source distribution on PyPI).

    .venv/bin/python -m benchmarks.parity_spec [--examples]   # a table per spec, by section
"""

from __future__ import annotations

import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

from generator.markdown import render_markdown
from tests import parity

REPO = Path(__file__).resolve().parents[1]
SPECS = {"CommonMark 0.31.2": REPO / ".tools/node_modules/commonmark-spec/spec.txt",
         "GFM 0.29-gfm": REPO / ".tools/specs/gfm.txt"}
FENCE = "`" * 32
EXAMPLE = re.compile(rf"^{FENCE} example( \w+)?\n(.*?)^\.\n(.*?)^{FENCE}$|^#{{1,6}} +([^\n]*)$", re.M | re.S)


def examples(spec: Path) -> list[tuple[str, int, str]]:
    """(section, number, Markdown) for each example the spec runs, in order (spec_tests.py's reading)."""
    text = spec.read_text(encoding="utf-8").split("<!-- END TESTS -->")[0]
    found, section, number = [], "", 0
    for match in EXAMPLE.finditer(text):
        if match.group(4) is not None:
            section = match.group(4).strip()
            continue
        number += 1
        if (match.group(1) or "").strip() != "disabled":
            found.append((section, number, match.group(2).replace("→", "\t")))
    return found


def compare(spec: Path, jekyll: parity.JekyllMarkdown) -> list[tuple[str, int, str, str | None]]:
    """(section, number, Markdown, first difference or None) for each example Jekyll converts."""
    results = []
    for section, number, text in examples(spec):
        try:
            theirs = parity.dom(jekyll.convert(text))
        except ValueError as error:  # not counted: there is nothing to agree with
            print(f"example {number} ({section}) left out: {error}", file=sys.stderr)
            continue
        try:
            mine = parity.dom(render_markdown(text).html)
        except Exception as error:  # what sitegen refuses is a divergence too, named as such
            results.append((section, number, text, f"[sitegen error] {type(error).__name__}: {error}"))
            continue
        difference = parity.first_difference(mine, theirs)
        kind = parity.divergence_kind(mine, theirs)
        results.append((section, number, text, difference and f"[{kind}] {difference}"))
    return results


def table(results) -> str:
    totals, equal = Counter(r[0] for r in results), Counter(r[0] for r in results if r[3] is None)
    rows = ["| section | examples | equal | rate |", "|---|---:|---:|---:|"]
    for section in totals:
        rows.append(f"| {section} | {totals[section]} | {equal[section]} | {equal[section] / totals[section]:.0%} |")
    rows.append(f"| **all** | {len(results)} | {sum(equal.values())} | {sum(equal.values()) / len(results):.1%} |")
    kinds = Counter(r[3][1:r[3].index("]")] for r in results if r[3])
    rows += ["", "| first differing construct | examples |", "|---|---:|"]
    rows += [f"| {kind} | {count} |" for kind, count in kinds.most_common()]
    return "\n".join(rows)


def main(argv: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp, parity.JekyllMarkdown(Path(tmp)) as jekyll:
        for name, spec in SPECS.items():
            results = compare(spec, jekyll)
            print(f"\n### {name}\n\n{table(results)}")
            if "--examples" in argv:
                for section, number, text, difference in results:
                    if difference:
                        print(f"\n{name} example {number} ({section}): {text!r}\n{difference}")


if __name__ == "__main__":
    main(sys.argv[1:])
