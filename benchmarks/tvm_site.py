"""Acceptance of `sitegen import jekyll` on the real tvm-site: import `main` with zero edits,
build, and compare with what Jekyll published on `asf-site`.

    .venv/bin/python benchmarks/tvm_site.py /work/.mirror/tlopex+tvm-site/repo [--work /tmp/tvm-bench]
        [--main HEAD] [--jekyll /usr/bin/jekyll]

The repository is a git directory (a `fetch` mirror of github:tlopex/tvm-site, carrying
apache/tvm-site's `main` and its built `asf-site`); nothing of it is committed here. The
asf-site commit compared is its last "Build at" commit; the `main` commit it was built
from is the last one committed before it (the build runs on each push to main). Files a
mirror lacks (its largest blobs) are left out of both exports, and counted.

Prints a table (markdown) for benchmarks/RESULTS.md: URLs outside docs/ present, each
page's content and whole-page text ratios, heading ids and element counts, local
references that resolve, feed entries; with the import and build times.

``--main REV`` imports another commit of main (HEAD: the newest); asf-site is then no longer
its exact output, so ``--jekyll`` builds the same export with a local Jekyll and compares
each page with sitegen's by element tree (tests/parity.py's ``dom``). That Jekyll runs
without the Gemfile (Debian's has no Bundler set of the site's gems) and with the one plugin
the Gemfile names that it has, jekyll-feed; the sitegen side gets the export as it is.
"""

from __future__ import annotations

import argparse
import difflib
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from xml.etree import ElementTree

import lxml.html

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.mirrors import export                  # noqa: E402
from generator.build import build                      # noqa: E402
from generator.importers.jekyll import import_jekyll   # noqa: E402
from tests.parity import divergence_kind, dom, first_difference   # noqa: E402

# Trees of asf-site that other workflows build (the TVM docs, the tvm-ffi docs): not from main.
ELSEWHERE = ("docs/", "ffi/")
COUNTED = ("p", "h1", "h2", "h3", "h4", "img", "pre", "table", "li", "a", "script", "link")


def git(repo: Path, *args: str, data: bytes | None = None) -> bytes:
    return subprocess.run(["git", "--git-dir", str(repo), *args], input=data, capture_output=True,
                          check=True).stdout


def matching_commits(repo: Path) -> tuple[str, str]:
    """The last asf-site build, and the main commit it was built from."""
    line = next(entry for entry in git(repo, "log", "--format=%H %ct %s", "asf-site").decode().splitlines()
                if " Build at " in entry)
    built, stamp = line.split()[:2]
    source = git(repo, "log", "-1", "--format=%H", f"--until={stamp}", "main").decode().strip()
    return source, built


def text_of(tree, content: bool) -> str:
    """The page's visible text; ``content``: its main part only (the post or page, without
    header and footer), found as the element holding most of the paragraphs with text."""
    for bad in tree.xpath("//script|//style|//noscript"):
        bad.drop_tree()
    node = tree
    if content:
        parents = Counter(p.getparent() for p in tree.iter("p")
                          if p.getparent() is not None and p.text_content().strip())
        if parents:
            node = parents.most_common(1)[0][0]
    return " ".join(node.text_content().split())


def ratio(a: str, b: str) -> float:
    """difflib's similarity of the two texts' words (by word: by character takes minutes a page)."""
    return difflib.SequenceMatcher(None, a.split(), b.split(), autojunk=False).ratio() if a or b else 1.0


def pages(out: Path) -> dict[str, Path]:
    """URL path -> file, for the HTML pages outside docs/."""
    found = {}
    for path in out.rglob("*.html"):
        rel = path.relative_to(out).as_posix()
        if not rel.startswith((*ELSEWHERE, "pagefind/")):
            found["/" + rel] = path
    return found


def resolves(out: Path, page: str, ref: str) -> bool:
    url = ref.split("#")[0].split("?")[0]
    if not url or re.match(r"[a-z]+:|//", url):
        return True
    path = (url if url.startswith("/") else str(Path(page).parent / url)).lstrip("/")
    target = out / path
    return any(t.is_file() for t in (target, target / "index.html", Path(str(target) + ".html")))


def local_refs(tree) -> list[str]:
    return [value for el in tree.iter() if isinstance(el.tag, str)
            for name in ("href", "src") if (value := el.get(name)) and not value.startswith(("#", "mailto:"))]


def feed_entries(path: Path) -> int:
    if not path.is_file():
        return -1
    root = ElementTree.parse(path).getroot()
    return len(root.findall("{http://www.w3.org/2005/Atom}entry")) or len(root.findall("./channel/item"))


def compare(old: Path, new: Path) -> dict:
    theirs, ours = pages(old), pages(new)
    rows, missing = [], sorted(set(theirs) - set(ours))
    for url in sorted(set(theirs) & set(ours)):
        a, b = lxml.html.parse(str(theirs[url])).getroot(), lxml.html.parse(str(ours[url])).getroot()
        ids_a = [h.get("id") for h in a.iter("h1", "h2", "h3", "h4") if h.get("id")]
        ids_b = [h.get("id") for h in b.iter("h1", "h2", "h3", "h4") if h.get("id")]
        counts_a = {tag: len(list(a.iter(tag))) for tag in COUNTED}
        counts_b = {tag: len(list(b.iter(tag))) for tag in COUNTED}
        refs = local_refs(b)
        broken = [r for r in refs if not resolves(new, url, r)]
        rows.append({"url": url, "content": ratio(text_of(a, True), text_of(b, True)),
                     "whole": ratio(text_of(a, False), text_of(b, False)), "ids": ids_a == ids_b,
                     "counts": counts_a == counts_b,
                     "differing": {t: (counts_a[t], counts_b[t]) for t in COUNTED if counts_a[t] != counts_b[t]},
                     "refs": len(refs), "broken": broken})
    feeds = {name: (feed_entries(old / name), feed_entries(new / name)) for name in ("feed.xml", "atom.xml", "rss.xml")}
    others = sorted(p.relative_to(old).as_posix() for p in old.rglob("*") if p.is_file()
                    and not p.relative_to(old).as_posix().startswith(ELSEWHERE) and p.suffix != ".html"
                    and not (new / p.relative_to(old)).exists())
    return {"rows": rows, "missing": missing, "feeds": feeds, "pages": len(theirs), "other_missing": others}


def jekyll_build(jekyll: str, source: Path, work: Path) -> Path:
    """``source`` built by ``jekyll`` into ``work/jekyll-out``, its Gemfile set aside (in a copy)."""
    copy = work / "jekyll-src"
    shutil.copytree(source, copy, symlinks=True)
    (copy / "Gemfile").unlink(missing_ok=True)
    (work / "jekyll-plugins.yml").write_text("plugins: [jekyll-feed]\n")
    out = work / "jekyll-out"
    subprocess.run([jekyll, "build", "--quiet", "-s", str(copy), "-d", str(out), "--config",
                    f"{copy / '_config.yml'},{work / 'jekyll-plugins.yml'}"], check=True, cwd=work)
    return out


# What the deploy's scripts/download_3rdparty_embeds.py copies into asf-site's _static/downloads/,
# pointing the page at the copy: compared on both sides as "an embed".
EMBEDS = {"img": "src", "script": "src", "iframe": "src", "video": "src", "audio": "src", "link": "href",
          "source": "src", "embed": "src"}


def embeds_as_one(html: str) -> str:
    tree = lxml.html.fromstring(html)
    for tag, attribute in EMBEDS.items():
        for element in tree.iter(tag):
            value = element.get(attribute) or ""
            if re.match(r"(https?:)?//", value) or "_static/downloads/" in value:
                element.set(attribute, "embed")
    return lxml.html.tostring(tree, encoding="unicode")


def dom_parity(theirs: Path, ours: Path, published: bool = False) -> dict:
    """Each page outside docs/ of both outputs compared by element tree: the equal ones, and
    for the others the first difference and its kind. ``published``: ``theirs`` is asf-site,
    whose third-party embeds the deploy copied (:func:`embeds_as_one`)."""
    old, new = pages(theirs), pages(ours)
    differing = {}
    same = embeds_as_one if published else (lambda html: html)
    for url in sorted(set(old) & set(new)):
        mine, their = dom(same(new[url].read_text())), dom(same(old[url].read_text()))
        if (difference := first_difference(mine, their)) is not None:
            differing[url] = (divergence_kind(mine, their), difference)
    return {"jekyll": len(old), "sitegen": len(new), "only_jekyll": sorted(set(old) - set(new)),
            "only_sitegen": sorted(set(new) - set(old)), "equal": len(set(old) & set(new)) - len(differing),
            "differing": differing}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repo", type=Path, help="git directory of a tlopex/tvm-site mirror")
    parser.add_argument("--work", type=Path, default=Path("/tmp/tvm-site-bench"))
    parser.add_argument("--rounds", type=int, default=3, help="import+build rounds timed (medians)")
    parser.add_argument("--main", help="the commit of main to import (default: the one asf-site was built from)")
    parser.add_argument("--jekyll", help="a Jekyll to build that commit with too, compared page by page")
    args = parser.parse_args()
    matching, built = matching_commits(args.repo)
    source = git(args.repo, "rev-parse", args.main).decode().strip() if args.main else matching
    shutil.rmtree(args.work, ignore_errors=True)
    lacking = export(args.repo, source, args.work / "main")
    export(args.repo, built, args.work / "asf-site", skip=ELSEWHERE)
    imports, builds = [], []
    for n in range(args.rounds):
        site = args.work / f"site{n}"
        start = time.perf_counter()
        import_jekyll(args.work / "main", site)
        imports.append(time.perf_counter() - start)
        start = time.perf_counter()
        result = build(site)
        builds.append(time.perf_counter() - start)
    print(f"main {source[:9]} -> asf-site {built[:9]}; {lacking} files the mirror lacks left out"
          + ("" if source == matching else f" (asf-site was built from {matching[:9]})"))
    print(f"import {statistics.median(imports):.2f} s, build {statistics.median(builds):.2f} s "
          f"(medians of {args.rounds}; each: {', '.join(f'{i:.2f}/{b:.2f}' for i, b in zip(imports, builds))}); "
          f"build warnings: {len(result.warnings)}", flush=True)
    site = args.work / f"site{args.rounds - 1}"
    found = compare(args.work / "asf-site", site / "_site")
    rows = found["rows"]
    print(f"pages outside {', '.join(ELSEWHERE)}: {len(rows)}/{found['pages']} present; missing: {', '.join(found['missing']) or 'none'}")
    print(f"other files missing: {', '.join(found['other_missing']) or 'none'}")
    print(f"feeds (Jekyll, sitegen entries): {found['feeds']}")
    print(f"content ratio median {statistics.median(r['content'] for r in rows):.3f}, min "
          f"{min(r['content'] for r in rows):.3f}; whole-page median {statistics.median(r['whole'] for r in rows):.3f}, "
          f"min {min(r['whole'] for r in rows):.3f}")
    print(f"same heading ids: {sum(r['ids'] for r in rows)}/{len(rows)}; same element counts: "
          f"{sum(r['counts'] for r in rows)}/{len(rows)}; local references resolving: "
          f"{sum(r['refs'] - len(r['broken']) for r in rows)}/{sum(r['refs'] for r in rows)}")
    print("\n| page | content | whole | ids | counts differing | broken refs |\n|---|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: r["content"]):
        print(f"| {r['url']} | {r['content']:.3f} | {r['whole']:.3f} | {'=' if r['ids'] else '≠'} | "
              f"{', '.join(f'{t} {a}/{b}' for t, (a, b) in r['differing'].items()) or '-'} | "
              f"{', '.join(r['broken'][:3]) or '-'} |")
    parity = dom_parity(args.work / "asf-site", site / "_site", published=True)
    print(f"\nagainst asf-site by element tree (third-party embeds as one): DOM-equal {parity['equal']}/"
          f"{parity['jekyll']}; kinds: {dict(Counter(kind for kind, _ in parity['differing'].values()))}")
    for url, (kind, difference) in parity["differing"].items():
        print(f"- {url} ({kind}): {difference}")
    if args.jekyll:
        parity = dom_parity(jekyll_build(args.jekyll, args.work / "main", args.work), site / "_site")
        print(f"\nagainst {args.jekyll} on the same export: pages outside {', '.join(ELSEWHERE)}: Jekyll "
              f"{parity['jekyll']}, sitegen {parity['sitegen']}; only Jekyll's: {parity['only_jekyll'] or 'none'}; "
              f"only sitegen's: {parity['only_sitegen'] or 'none'}; DOM-equal: {parity['equal']}; kinds: "
              f"{dict(Counter(kind for kind, _ in parity['differing'].values()))}")
        for url, (kind, difference) in parity["differing"].items():
            print(f"- {url} ({kind}): {difference}")


if __name__ == "__main__":
    main()
