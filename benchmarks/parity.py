"""Parity with Jekyll over real sites: each document built by Jekyll and by sitegen, compared.

The sites are named in benchmarks/parity_sites.toml and read from local mirrors
(``MIRRORS/OWNER+NAME/repo``, as the ``fetch`` tool lays them), never committed.
Each site's documents become the posts of a plain site (body-only layouts, the
site's ``_includes``), built once by ``jekyll build`` and once by sitegen. A
document either build refuses is reported and left out of the counts. Each
post's body is compared as an element tree (tests/parity.dom); a divergence is
named by the construct where the trees first part (parity.divergence_kind).

    .venv/bin/python -m benchmarks.parity /work/.mirror [--work DIR] [--examples N]
"""

from __future__ import annotations

import argparse
import fnmatch
import re
import shutil
import subprocess
import tomllib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from tests import parity

MANIFEST = Path(__file__).with_name("parity_sites.toml")
# Front-matter keys that would move, hide or re-layout a post: the comparison wants each at its name's URL.
DROPPED_KEYS = ("date", "permalink", "slug", "published", "draft", "layout", "categories", "category",
                "redirect_to")
SITEGEN_CONFIG = "liquid:\n  unknown: warning\n"
JEKYLL_CONFIG = "url: https://example.org\n"  # sitegen's (parity.SITEGEN_CONFIG), for {{ site.url }}
MAX_RETRIES = 10
# Liquid tags a plain `jekyll build --safe` knows; `link` and `post_url` are left out too,
# for they name other posts by paths this comparison renames.
KNOWN_TAGS = {"if", "elsif", "else", "endif", "unless", "endunless", "case", "when", "endcase", "for", "endfor",
              "break", "continue", "cycle", "assign", "capture", "endcapture", "comment", "endcomment", "raw",
              "endraw", "increment", "decrement", "tablerow", "endtablerow", "highlight", "endhighlight",
              "include", "include_relative", "liquid", "echo"}
TAG = re.compile(r"\{%-?\s*(\w+)")


@dataclass
class SiteResult:
    repository: str
    documents: int = 0
    refused: dict[str, str] = field(default_factory=dict)  # original path -> why
    equal: int = 0
    kinds: Counter = field(default_factory=Counter)
    examples: dict[str, list[tuple[int, str, str]]] = field(default_factory=lambda: defaultdict(list))
    failed: str = ""


def extract(mirror: Path, site: dict, into: Path) -> list[str]:
    """The site's documents (and includes) at its commit, written under ``into``; their paths."""
    listed = subprocess.run(["git", "-C", str(mirror), "ls-tree", "-r", "--name-only", site["commit"]],
                            check=True, capture_output=True, text=True).stdout.splitlines()
    documents = sorted(p for p in listed if any(fnmatch.fnmatchcase(p, g) for g in site["documents"]))
    includes = [p for p in listed if site.get("includes") and p.startswith(site["includes"] + "/")]
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(mirror), "archive", site["commit"], "--", *documents, *includes],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return documents


def as_post(text: str, name: str) -> str | None:
    """A document as a post of the plain site: its front matter less the keys that move it; None if unreadable."""
    match = re.match(r"---\s*\n(.*?\n)?---\s*\n", text, re.S)
    if not match:
        return None
    try:
        meta = yaml.safe_load(match.group(1) or "") or {}
    except yaml.YAMLError:
        return None
    if not isinstance(meta, dict):
        return None
    # Scalars only: sitegen refuses what Jekyll takes as it comes (``author: {name: ..., url: ...}``),
    # a front-matter difference this Markdown comparison leaves aside.
    meta = {str(k): v for k, v in meta.items() if k not in DROPPED_KEYS and isinstance(v, (str, int, float, bool))}
    meta["title"] = str(meta.get("title") or name)
    return "---\n" + yaml.safe_dump(meta, allow_unicode=True, default_flow_style=False) + "---\n" + text[match.end():]


def culprit(message: str) -> str | None:
    found = re.search(r"2000-01-01-(d\d{4})", message)
    return found.group(1) if found else None


def build_both(site_dir: Path, work: Path, names: dict[str, str], result: SiteResult) -> tuple[Path, Path]:
    """Jekyll's build, then sitegen's, each leaving out (and reporting) a document that stops it."""
    jekyll = _build_until_done(lambda: parity.jekyll_build(site_dir, work, JEKYLL_CONFIG), "Jekyll",
                               ("jekyll-src", "jekyll-out"), site_dir, names, result)
    sitegen = _build_until_done(lambda: parity.sitegen_build(site_dir, work, SITEGEN_CONFIG), "sitegen",
                                ("sitegen-src",), site_dir, names, result)
    return jekyll, sitegen


def _build_until_done(build, who: str, outputs: tuple[str, ...], site_dir: Path, names: dict[str, str],
                      result: SiteResult) -> Path:
    for _ in range(MAX_RETRIES):
        for stale in outputs:
            shutil.rmtree(site_dir.parent / stale, ignore_errors=True)
        try:
            return build()
        except subprocess.CalledProcessError as error:
            message = error.stderr + error.stdout
        except Exception as error:  # sitegen's own one-line report of a bad document
            message = str(error)
        name = culprit(message)
        if name is None:
            raise SiteFailed(f"{who} failed on no one document: {message.strip()[-300:]}")
        (site_dir / "_posts" / f"2000-01-01-{name}.md").unlink()
        line = next((ln for ln in message.splitlines() if name in ln), message.strip().splitlines()[-1])
        result.refused[names.pop(name)] = f"{who}: {line.strip()[:200]}"
    raise SiteFailed(f"{who} refused more than {MAX_RETRIES} documents")


class SiteFailed(Exception):
    """A site neither build could be brought to finish: reported, not counted."""


def compare_site(mirror_root: Path, site: dict, work: Path) -> SiteResult:
    result = SiteResult(site["repository"])
    raw = work / "raw"
    documents = extract(mirror_root / site["repository"].replace("/", "+") / "repo", site, raw)
    site_dir = work / "site"
    (site_dir / "_posts").mkdir(parents=True)
    if site.get("includes") and (raw / site["includes"]).is_dir():
        shutil.copytree(raw / site["includes"], site_dir / "_includes")
    names, texts = {}, {}
    for number, path in enumerate(documents):
        name = f"d{number:04d}"
        post = as_post((raw / path).read_text(encoding="utf-8", errors="replace"), name)
        if post is None:
            result.refused[path] = "no readable front matter"
            continue
        unknown = sorted({tag for tag in TAG.findall(post) if tag not in KNOWN_TAGS})
        if unknown:
            result.refused[path] = f"Liquid tags a plain Jekyll site lacks: {', '.join(unknown)}"
            continue
        (site_dir / "_posts" / f"2000-01-01-{name}.md").write_text(post, encoding="utf-8")
        names[name], texts[name] = path, post
    try:
        jekyll_out, sitegen_out = build_both(site_dir, work, names, result)
    except SiteFailed as failure:
        result.failed = str(failure)
        return result
    for name, path in names.items():
        theirs = (jekyll_out / "2000/01/01" / f"{name}.html").read_text(encoding="utf-8")
        mine_file = sitegen_out / "2000/01/01" / f"{name}.html"
        if not mine_file.exists():
            result.refused[path] = "sitegen wrote no page"
            continue
        result.documents += 1
        mine, their_tree = parity.dom(mine_file.read_text(encoding="utf-8")), parity.dom(theirs)
        kind = parity.divergence_kind(mine, their_tree)
        if kind is None:
            result.equal += 1
        else:
            result.kinds[kind] += 1
            result.examples[kind].append((len(texts[name]), path, parity.first_difference(mine, their_tree)))
    return result


def report(results: list[SiteResult], examples: int) -> str:
    rows = ["| site | documents | equal | rate | left out |", "|---|---:|---:|---:|---:|"]
    for r in results:
        rows.append(f"| {r.repository} | {r.documents} | {r.equal} | {r.equal / max(r.documents, 1):.0%} | "
                    f"{len(r.refused)} |")
    total, equal = sum(r.documents for r in results), sum(r.equal for r in results)
    rows.append(f"| **all** | {total} | {equal} | {equal / max(total, 1):.1%} | "
                f"{sum(len(r.refused) for r in results)} |")
    kinds = sum((r.kinds for r in results), Counter())
    rows += ["", "| first differing construct | documents | sites |", "|---|---:|---:|"]
    for kind, count in kinds.most_common():
        rows.append(f"| {kind} | {count} | {sum(1 for r in results if r.kinds[kind])} |")
    rows += ["", "Left out (a build refused them):", ""]
    rows += [f"- {r.repository}: the whole site: {r.failed}" for r in results if r.failed]
    rows += [f"- {r.repository}: {path}: {why}" for r in results for path, why in r.refused.items()]
    if examples:
        rows += ["", "Shortest documents of each kind:"]
        for kind, _ in kinds.most_common():
            found = sorted((e + (r.repository,) for r in results for e in r.examples[kind]))[:examples]
            for size, path, difference, repository in found:
                rows += ["", f"{kind}: {repository} {path} ({size} chars)", "```", difference, "```"]
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mirrors", type=Path, help="folder of OWNER+NAME/repo mirrors")
    parser.add_argument("--work", type=Path, default=Path("/tmp/parity-sites"))
    parser.add_argument("--examples", type=int, default=2, help="shortest divergent documents shown per kind")
    parser.add_argument("--only", help="one repository of the manifest")
    args = parser.parse_args()
    sites = tomllib.loads(MANIFEST.read_text(encoding="utf-8"))["site"]
    results = []
    for site in sites:
        if args.only and site["repository"] != args.only:
            continue
        work = args.work / site["repository"].replace("/", "+")
        shutil.rmtree(work, ignore_errors=True)
        results.append(compare_site(args.mirrors, site, work))
        r = results[-1]
        print(f"{r.repository}: {r.equal}/{r.documents} equal, {len(r.refused)} left out", flush=True)
    print(report(results, args.examples))


if __name__ == "__main__":
    main()
