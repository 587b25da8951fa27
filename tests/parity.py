"""Build one Jekyll site with Jekyll and with sitegen, and compare what each post became.

Jekyll (Debian's, with kramdown's GFM parser: Jekyll 4's defaults) is the
oracle: sitegen claims to render what Jekyll renders. Both builds use layouts
that output the body alone, so that bodies are compared, not themes.

Run as a script for the parity table (``python -m tests.parity [SITE]``).
"""

from __future__ import annotations

import difflib
import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import lxml.html

REPO = Path(__file__).resolve().parents[1]
BODY_LAYOUT = "{{ content }}\n"
# Includes the corpus refers to but does not carry (its theme's files): ours, empty or tiny.
INCLUDES = {"JB/setup": "", "community.html": "<p>Community links.</p>\n",
            "contrib_orgs.html": "<p>Organizations.</p>\n"}
JEKYLL_CONFIG = "timezone: UTC\npermalink: /:year/:month/:day/:title.html\n"
SITEGEN_CONFIG = ("title: Parity\nurl: https://example.org\ntimezone: UTC\n"
                  "permalink: /:year/:month/:day/:title.html\n")


def jekyll_available() -> bool:
    return shutil.which("jekyll") is not None


def _layouts(site: Path) -> set[str]:
    found = {"default", "post", "page"}
    for path in site.rglob("*"):
        if path.suffix in (".md", ".markdown", ".html") and path.is_file():
            match = re.search(r"^layout:\s*(\S+)", path.read_text(encoding="utf-8")[:2000], re.M)
            if match:
                found.add(match.group(1).strip("'\""))
    return found


def jekyll_build(site: Path, work: Path, config: str = "") -> Path:
    """Build the Jekyll site ``site`` (folders _posts, _data, pages) with Jekyll; the output dir.

    ``config``: more of _config.yml (``kramdown: {input: kramdown}``, say).
    """
    source = work / "jekyll-src"
    shutil.copytree(site, source, ignore=shutil.ignore_patterns("SOURCE.md"))
    (source / "_config.yml").write_text(JEKYLL_CONFIG + config)
    for layout in _layouts(site):
        (source / "_layouts").mkdir(exist_ok=True)
        (source / "_layouts" / f"{layout}.html").write_text(BODY_LAYOUT)
    for name, text in INCLUDES.items():
        (source / "_includes" / name).parent.mkdir(parents=True, exist_ok=True)
        (source / "_includes" / name).write_text(text)
    out = work / "jekyll-out"
    subprocess.run(["jekyll", "build", "--safe", "--quiet", "-s", str(source), "-d", str(out)],
                   check=True, capture_output=True, text=True, cwd=work)
    return out


def sitegen_site(site: Path, work: Path, config: str = "") -> Path:
    """The Jekyll site ``site`` laid out as a sitegen site, with body-only layouts; ``config``: more of site.yaml."""
    root = work / "sitegen-src"
    (root / "content").mkdir(parents=True)
    shutil.copytree(site / "_posts", root / "content" / "posts")
    if (site / "_data").is_dir():
        shutil.copytree(site / "_data", root / "content" / "data")
    pages = root / "content" / "pages"
    pages.mkdir()
    for path in site.iterdir():
        if path.is_file() and path.suffix in (".md", ".markdown", ".html") and path.name != "SOURCE.md":
            shutil.copy2(path, pages / path.name)
    if (site / "_includes").is_dir():
        shutil.copytree(site / "_includes", root / "content" / "includes")
    for name, text in INCLUDES.items():
        (root / "content" / "includes" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "content" / "includes" / name).write_text(text)
    shutil.copytree(REPO / "templates", root / "templates")
    for layout in _layouts(site):
        (root / "templates" / f"{layout}.html").write_text(BODY_LAYOUT)
    (root / "site.yaml").write_text(SITEGEN_CONFIG + config)
    return root


def sitegen_build(site: Path, work: Path, config: str = "") -> Path:
    from generator.build import build  # imported late: the script may run without the package on path

    root = sitegen_site(site, work, config)
    build(root)
    return root / "_site"


@dataclass
class PostParity:
    name: str
    jekyll_url: str
    sitegen_url: str | None
    jekyll: dict
    sitegen: dict
    text_ratio: float

    @property
    def differences(self) -> list[str]:
        found = []
        if self.jekyll_url != self.sitegen_url:
            found.append(f"url {self.sitegen_url} != {self.jekyll_url}")
        for key in self.jekyll:
            if key != "text" and self.jekyll[key] != self.sitegen.get(key):
                found.append(f"{key}: sitegen {self.sitegen.get(key)} != jekyll {self.jekyll[key]}")
        if self.text_ratio < 0.99:
            found.append(f"text ratio {self.text_ratio:.3f}")
        return found


def measure(html: str) -> dict:
    """What is compared of a page: ids of headings in order, counts of structures, and the words."""
    tree = lxml.html.fromstring(f"<div>{html}</div>")
    return {
        "ids": [h.get("id") for h in tree.iter("h1", "h2", "h3", "h4", "h5", "h6")],
        "list items": len(tree.findall(".//li")),
        "table cells": len(tree.xpath(".//td | .//th")),
        "code blocks": len(tree.findall(".//pre")),
        "images": len(tree.findall(".//img")),
        "text": tree.text_content().split(),
    }


# Attributes whose difference a reader sees; the rest (a highlighter's wrappers and labels) are left out.
DOM_ATTRIBUTES = ("id", "class", "href", "src", "alt", "type", "checked", "disabled")


def dom(html: str) -> tuple:
    """A body's element tree as ``(tag, attributes, text, children)``, whitespace aside.

    Unlike :func:`measure`, a list item moved into another or a heading swallowed
    by a code block changes it. A code block is ``("pre", {}, code)`` however it
    is wrapped (Jekyll's Rouge divs, sitegen's Pygments ones): its text is compared,
    not its highlighting; a code span's classes (Rouge's) are left out too, and its text
    is compared as it is, spaces and all (`` `a ` `` is not `` `a` ``); so is the
    scrolling frame sitegen puts around a table (``div.table-wrap``), and the element
    arithmatex puts around math, which kramdown leaves as text. A code block with line
    numbers is compared by its numbers and its code, whichever table lays them out.
    """
    html = HTML5_VOID.sub(r"<\1\2></\1>", MATH.sub(_bare_math, html))
    return _dom(lxml.html.fromstring(f"<div>{html}</div>"))


# Void elements HTML 5 added, which lxml's HTML 4 parser reads as holding what follows them
# (``<source>`` a second ``<source>``, or a paragraph's text); closed where they stand.
HTML5_VOID = re.compile(r"<(source|track|wbr)\b((?:[^>\"']|\"[^\"]*\"|'[^']*')*?)\s*/?>", re.I)
MATH = re.compile(r'<(span|div) class="arithmatex">(\\[\[(])\s*(.*?)\s*(\\[\])])</\1>', re.S)


def _bare_math(match: re.Match) -> str:
    return match.group(2) + match.group(3) + match.group(4)


def _dom(element) -> tuple:
    if "table-wrap" in element.get("class", "").split() and len(element) == 1:
        element = element[0]
    code = element.find(".//pre") if element.tag in ("div", "pre", "figure") else None
    if element.tag == "pre" or (code is not None and "highlight" in element.get("class", "")):
        numbered = _numbered_code(element)
        if numbered is not None:
            return ("pre", {}, numbered, ())
        block = code if code is not None else element
        text = block.text_content()
        if (block.text or "").startswith("\n"):   # HTML 5's parser drops a newline right after <pre>; lxml's keeps it
            text = text[1:]
        return ("pre", {}, text.rstrip("\n"), ())
    attributes = {name: element.get(name) for name in DOM_ATTRIBUTES
                  if element.get(name) is not None and element.tag != "code"}
    children, texts = [], [element.text or ""]
    for child in element:
        if isinstance(child.tag, str):
            children.append(_dom(child))
        texts.append(child.tail or "")
    text = "".join(texts) if element.tag == "code" else " ".join(" ".join(texts).split())
    return (element.tag, attributes, text, tuple(children))


def _numbered_code(element) -> str | None:
    """A code block laid out as a table of its line numbers and its code (``linenos``: Rouge's
    ``td.gutter`` in a ``pre``, Pygments' ``td.linenos`` beside a ``pre``): the numbers, then the code."""
    for table in element.iter("table"):
        cells = table.findall(".//td")
        if len(cells) == 2 and {"gutter", "linenos"} & set(cells[0].get("class", "").split()) \
                and "code" in cells[1].get("class", "").split():
            code = cells[1].text_content().rstrip("\n")
            return " ".join(cells[0].text_content().split()) + "\n" + code.removeprefix("\n")
    return None


def parting(mine: tuple, theirs: tuple, path: str = ""):
    """``(path, mine, theirs)`` of the first elements where two :func:`dom` trees part, else None.

    The pair is the parent when the two have their children in different numbers.
    """
    where = f"{path}/{theirs[0]}"
    if mine[:3] != theirs[:3]:
        return where, mine, theirs
    for number, (child, their_child) in enumerate(zip(mine[3], theirs[3])):
        found = parting(child, their_child, f"{where}[{number}]")
        if found:
            return found
    return (where, mine, theirs) if len(mine[3]) != len(theirs[3]) else None


def first_difference(mine: tuple, theirs: tuple) -> str | None:
    """Where two :func:`dom` trees first part, as one readable paragraph; None when equal."""
    found = parting(mine, theirs)
    if found is None:
        return None
    where, mine, theirs = found
    if mine[:3] != theirs[:3]:
        return (f"at {where}:\n  sitegen: {mine[0]} {mine[1]} {mine[2]!r}\n"
                f"  jekyll:  {theirs[0]} {theirs[1]} {theirs[2]!r}")
    return (f"at {where}: sitegen has {len(mine[3])} children, jekyll {len(theirs[3])}:\n"
            f"  sitegen: {[c[0] for c in mine[3]]}\n  jekyll:  {[c[0] for c in theirs[3]]}")


KINDS = {"list": {"ul", "ol", "li"}, "code": {"pre", "code"}, "table": {"table", "thead", "tbody", "tr", "td", "th"},
         "heading": {"h1", "h2", "h3", "h4", "h5", "h6"}, "blockquote": {"blockquote"}, "link": {"a"},
         "image": {"img"}, "emphasis": {"em", "strong", "del"}, "definition list": {"dl", "dt", "dd"},
         "rule": {"hr"}, "line break": {"br"}, "paragraph": {"p"}, "math": {"script", "span"}}


def divergence_kind(mine: tuple, theirs: tuple) -> str | None:
    """The construct where two :func:`dom` trees first part (list, code, table, heading id...)."""
    found = parting(mine, theirs)
    if found is None:
        return None
    _, mine, theirs = found
    footnote = {"footnote", "footnotes", "footnote-ref", "footnote-backref", "reversefootnote"}
    if footnote & set(" ".join(str(node[1].get("class", "")) for node in (mine, theirs)).split()):
        return "footnote"
    if mine[0] == theirs[0] and mine[0] in KINDS["heading"] and mine[1].get("id") != theirs[1].get("id"):
        return "heading id"
    if mine[0] == theirs[0] and mine[1] != theirs[1]:
        return f"attributes ({mine[0]})"
    tags = (theirs[0], mine[0])
    if mine[:2] == theirs[:2]:  # the same element holding different things: named by what differs
        extra = Counter(c[0] for c in theirs[3]) - Counter(c[0] for c in mine[3]) or \
            Counter(c[0] for c in mine[3]) - Counter(c[0] for c in theirs[3])
        if not extra:
            return "code" if mine[0] == "pre" else "text (escapes, typography, entities)"
        tags = tuple(extra)
    for tag in tags:
        for kind, tags in KINDS.items():
            if tag in tags:
                return kind
    return "html"


# Jekyll's own Markdown converter (kramdown, GFM input, Jekyll's defaults), kept running:
# a document is one JSON line in and one out, so thousands cost one Jekyll start-up.
CONVERTER = r"""
require "jekyll"
require "json"
$stdout.sync = true
site = Jekyll::Site.new(Jekyll.configuration(
  "quiet" => true, "safe" => true, "source" => ARGV[0], "destination" => ARGV[0] + "/_site"))
markdown = site.find_converter_instance(Jekyll::Converters::Markdown)
$stdin.each_line do |line|
  begin
    puts JSON.generate({"html" => markdown.convert(JSON.parse(line))})
  rescue StandardError => error
    puts JSON.generate({"error" => error.message})
  end
end
"""


class JekyllMarkdown:
    """Jekyll's Markdown converter in one long-lived Ruby process: the oracle for many snippets.

    It is the converter ``jekyll build`` runs on a post's body after Liquid, set up
    from the same defaults, so it answers what a post's body becomes.
    """

    def __init__(self, workdir: Path):
        workdir.mkdir(parents=True, exist_ok=True)
        self._process = subprocess.Popen(["ruby", "-e", CONVERTER, str(workdir)], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def convert(self, text: str) -> str:
        self._process.stdin.write(json.dumps(text) + "\n")
        self._process.stdin.flush()
        answer = json.loads(self._process.stdout.readline())
        if "error" in answer:
            raise ValueError(f"Jekyll cannot convert this document: {answer['error']}")
        return answer["html"]

    def close(self) -> None:
        self._process.stdin.close()
        self._process.wait()

    def __enter__(self) -> JekyllMarkdown:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


LEFTOVER = re.compile(r"\{%|\{:|\{\{")


def leftovers(out: Path) -> list[str]:
    """``file: text`` for every built page whose text shows Liquid or kramdown markup."""
    found = []
    for path in sorted(out.rglob("*.html")):
        tree = lxml.html.fromstring(f"<div>{path.read_text(encoding='utf-8')}</div>")
        for element in tree.iter():
            if element.tag in ("script", "style"):
                continue
            for text in (element.text, element.tail):
                match = LEFTOVER.search(text or "")
                if match:
                    start = max(match.start() - 20, 0)
                    found.append(f"{path.relative_to(out)}: ...{text[start:match.end() + 30]!r}")
    return found


def text_ratio(a: list[str], b: list[str]) -> float:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def post_urls(out: Path) -> dict[str, str]:
    """Post name (file name without date or suffix... as Jekyll's :title) -> URL, for a built tree."""
    urls = {}
    for path in out.rglob("*.html"):
        rel = path.relative_to(out).as_posix()
        if re.match(r"\d{4}/\d{2}/\d{2}/", rel):
            urls[path.stem] = "/" + rel
    return urls


def compare(site: Path, work: Path) -> list[PostParity]:
    return compare_outputs(jekyll_build(site, work), sitegen_build(site, work))


def compare_outputs(jekyll_out: Path, sitegen_out: Path) -> list[PostParity]:
    ours = post_urls(sitegen_out)
    results = []
    for name, url in sorted(post_urls(jekyll_out).items(), key=lambda kv: kv[1]):
        theirs = measure((jekyll_out / url[1:]).read_text(encoding="utf-8"))
        mine = measure((sitegen_out / ours[name][1:]).read_text(encoding="utf-8")) if name in ours else {}
        ratio = text_ratio(theirs["text"], mine.get("text", []))
        results.append(PostParity(name, url, ours.get(name), theirs, mine, ratio))
    return results


def table(results: list[PostParity]) -> str:
    """The parity table, in Markdown."""
    rows = ["| post | URL | ids | lists | tables | code | images | text ratio |",
            "|---|---|---|---|---|---|---|---|"]

    def cell(r: PostParity, key: str) -> str:
        j, s = r.jekyll[key], r.sitegen.get(key)
        shown = len(j) if isinstance(j, list) else j
        return f"{shown} ✓" if j == s else f"{len(s) if isinstance(s, list) else s} ≠ {shown}"

    for r in results:
        url = "same" if r.jekyll_url == r.sitegen_url else f"{r.sitegen_url} ≠ {r.jekyll_url}"
        rows.append(f"| {r.name[:40]} | {url} | {cell(r, 'ids')} | {cell(r, 'list items')} | "
                    f"{cell(r, 'table cells')} | {cell(r, 'code blocks')} | {cell(r, 'images')} | "
                    f"{r.text_ratio:.4f} |")
    return "\n".join(rows)


if __name__ == "__main__":
    import tempfile

    from tests.conftest import shared_dir

    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else shared_dir() / "corpus" / "tvm-site"
    with tempfile.TemporaryDirectory() as tmp:
        found = compare(corpus, Path(tmp))
        print(table(found))
        for r in found:
            for difference in r.differences:
                print(f"{r.name}: {difference}")
        for leftover in leftovers(Path(tmp) / "sitegen-src" / "_site"):
            print(leftover)
