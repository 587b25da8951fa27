"""Compare two builds of one site page by page: Jekyll's output folder and sitegen's.

For every HTML page both publish (by URL), the element tree of its ``<body>`` is
compared with tests/parity.py's ``dom`` rules (whitespace aside, a highlighted code
block by its text, only the attributes a reader sees); the ``<head>`` is left out
(plugins' tags: jekyll-seo-tag's, feeds'), and so are scripts and styles; redirect pages are
compared by their target. benchmarks/whole_sites.py uses it on whole real sites. Prints the counts, the pages each side
alone publishes (first few), and the divergence kinds with an example of each.

    python benchmarks/site_dom_parity.py JEKYLL_OUT SITEGEN_OUT [--examples N] [--drop CLASS] [--unwrap CLASS]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

import lxml.html

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.parity import HTML5_VOID, _dom, divergence_kind, parting  # noqa: E402


def pages(out: Path) -> dict[str, Path]:
    """URL -> file of each HTML page of a built site (``/a/`` for ``a/index.html``), the search
    index's own aside, and folders named as pages (jruby's files/downloads/9.2.3.0/index.html/)."""
    found = {}
    for path in out.rglob("*.html"):
        rel = path.relative_to(out).as_posix()
        if not rel.startswith("pagefind/") and path.is_file():
            found["/" + rel.removesuffix("index.html")] = path
    return found


# Set aside on both sides: what runs or styles rather than what a reader reads (plugins' JSON-LD).
SET_ASIDE = "//script|//style|//noscript"


def body_tree(path: Path, drop: list[str] = (), unwrap: list[str] = (), home: str = "") -> tuple:
    """The page's ``<body>`` as a ``dom`` tree, scripts, styles and comments set aside; elements of
    a class in ``drop`` removed, those of a class in ``unwrap`` replaced by their first child (a
    plugin's wrapper set aside). A redirect page (jekyll-redirect-from's, sitegen's) is the URL it
    sends the reader to, ``home`` (the site's address) taken off: Jekyll's name it, sitegen's do not."""
    text = HTML5_VOID.sub(r"<\1\2></\1>", path.read_text(encoding="utf-8", errors="replace"))
    if not text.strip():
        return ("empty", {}, "", ())
    document = lxml.html.document_fromstring(text)
    refresh = document.xpath("//meta[@http-equiv='refresh']/@content")
    if refresh:
        target = refresh[0].partition("url=")[2].strip()
        if home and target.startswith(home):
            target = "/" + target[len(home):].lstrip("/")
        return ("redirect", {"href": target}, "", ())
    for element in document.xpath(SET_ASIDE):
        element.drop_tree()
    for comment in document.xpath("//comment()"):
        if comment.getparent() is not None:     # one before <html> has none, and no text around it
            comment.drop_tree()                 # (its tail kept, as drop_tree keeps it)
    for name in drop:
        for element in document.find_class(name):
            element.drop_tree()
    for name in unwrap:
        for element in document.find_class(name):
            if len(element):
                element[0].tail = None
                element.getparent().replace(element, element[0])
    body = document.find("body")
    return _dom(body if body is not None else document)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("jekyll", type=Path)
    parser.add_argument("sitegen", type=Path)
    parser.add_argument("--examples", type=int, default=1)
    parser.add_argument("--drop", action="append", default=[], help="a class whose elements are left out")
    parser.add_argument("--unwrap", action="append", default=[], help="a class whose elements stand for their first child")
    args = parser.parse_args()
    theirs, mine = pages(args.jekyll), pages(args.sitegen)
    both = sorted(theirs.keys() & mine.keys())
    equal, kinds, examples = 0, Counter(), defaultdict(list)
    for url in both:
        a, b = body_tree(mine[url], args.drop, args.unwrap), body_tree(theirs[url], args.drop, args.unwrap)
        found = parting(a, b)
        if found is None:
            equal += 1
            continue
        kind = divergence_kind(a, b)
        kinds[kind] += 1
        if len(examples[kind]) < args.examples:
            where, m, t = found
            examples[kind].append(f"{url} at {where}\n      sitegen: {m[0]} {m[1]} {m[2][:160]!r} "
                                  f"{[c[0] for c in m[3]][:12]}\n      jekyll:  {t[0]} {t[1]} {t[2][:160]!r} "
                                  f"{[c[0] for c in t[3]][:12]}")
    print(f"pages: jekyll {len(theirs)}, sitegen {len(mine)}, both {len(both)}, body DOM-equal {equal}")
    print(f"only jekyll ({len(theirs.keys() - mine.keys())}): {sorted(theirs.keys() - mine.keys())[:8]}")
    print(f"only sitegen ({len(mine.keys() - theirs.keys())}): {sorted(mine.keys() - theirs.keys())[:8]}")
    for kind, count in kinds.most_common():
        print(f"  {count:5d}  {kind}")
        for example in examples[kind]:
            print(f"         {example}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
