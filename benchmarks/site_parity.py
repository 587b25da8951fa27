"""Two builds of one whole site compared page by page: Jekyll's output folder and sitegen's.

Over the URLs both publish, each page is read as an element tree (tests/parity.dom, which
sets aside highlighting and whitespace) and counted DOM-equal or named by the construct
where the trees first part (parity.divergence_kind), with the first example of each kind.
The head's plugin tags are set aside: ``<meta>``, ``<link rel="canonical|alternate">``, JSON-LD
and what jekyll-seo-tag writes between its comments (sitegen writes its own meta tags).

    .venv/bin/python -m benchmarks.site_parity JEKYLL_OUT SITEGEN_OUT [--examples N]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

import lxml.html

from tests import parity

SEO_BLOCK = re.compile(r"<!-- Begin Jekyll SEO tag.*?<!-- End Jekyll SEO tag -->", re.S)
PLUGIN_HEAD = {"meta"}
PLUGIN_LINKS = {"canonical", "alternate"}


def pages(out: Path) -> dict[str, Path]:
    """URL -> file, for the HTML pages of an output folder (``/a/`` for ``a/index.html``)."""
    return {"/" + p.relative_to(out).as_posix().removesuffix("index.html"): p for p in out.rglob("*.html")}


def tree(path: Path) -> tuple:
    html = SEO_BLOCK.sub("", path.read_text(encoding="utf-8", errors="replace"))
    root = lxml.html.document_fromstring(html)
    for element in root.xpath("//head/*"):
        rel = set((element.get("rel") or "").split())
        if element.tag in PLUGIN_HEAD or element.tag == "link" and rel & PLUGIN_LINKS \
                or element.tag == "script" and element.get("type") == "application/ld+json":
            element.drop_tree()
    return parity._dom(root)


def compare(theirs: Path, mine: Path, examples: int) -> str:
    jekyll, sitegen = pages(theirs), pages(mine)
    both = sorted(jekyll.keys() & sitegen.keys())
    kinds: Counter[str] = Counter()
    shown: dict[str, list[str]] = {}
    equal = 0
    for url in both:
        a, b = tree(sitegen[url]), tree(jekyll[url])
        kind = parity.divergence_kind(a, b)
        if kind is None:
            equal += 1
            continue
        kinds[kind] += 1
        if len(shown.setdefault(kind, [])) < examples:
            shown[kind].append(f"{url}: {parity.first_difference(a, b)}")
    lines = [f"pages: Jekyll {len(jekyll)}, sitegen {len(sitegen)}, both {len(both)}; "
             f"DOM-equal {equal} of {len(both)}",
             f"only Jekyll's: {len(jekyll.keys() - sitegen.keys())}, e.g. {sorted(jekyll.keys() - sitegen.keys())[:5]}",
             f"only sitegen's: {len(sitegen.keys() - jekyll.keys())}, e.g. {sorted(sitegen.keys() - jekyll.keys())[:5]}"]
    for kind, count in kinds.most_common():
        lines.append(f"{count:5}  {kind}")
        lines += [f"         {example}" for example in shown[kind]]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("jekyll_out", type=Path)
    parser.add_argument("sitegen_out", type=Path)
    parser.add_argument("--examples", type=int, default=2)
    args = parser.parse_args()
    print(compare(args.jekyll_out, args.sitegen_out, args.examples))


if __name__ == "__main__":
    main()
