"""Real Jekyll sites imported whole, built by sitegen and by Jekyll, compared page by page.

benchmarks/parity.py compares documents in a plain site; this takes each site of
benchmarks/whole_sites.toml as it is: its tree at the named commit (read from the
``fetch`` tool's mirrors, never committed), ``sitegen import jekyll`` with no edit,
``sitegen build``; and ``jekyll build --safe`` of the same tree (the manifest says
what the Jekyll side alone needed). Over the pages both publish, each page's
``<body>`` is compared as an element tree (benchmarks/site_dom_parity.py: code blocks
by their text, scripts and styles set aside, redirects by their target), and the construct where the trees first part
is counted (parity.divergence_kind).

    .venv/bin/python -m benchmarks.whole_sites /work/.mirror [--work DIR] [--only OWNER/NAME] [--reuse-jekyll]

``--reuse-jekyll`` keeps Jekyll's output of an earlier run in the same ``--work`` folder and
rebuilds only sitegen's side: Jekyll takes ten minutes and more on the biggest sites
(apache/storm-site), sitegen's side is what changes between runs.

A site sitegen does not import or build is reported with the one line it printed.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import time
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from benchmarks.mirrors import export
from benchmarks.site_dom_parity import body_tree, pages
from generator.importers.jekyll import gemfile_plugins
from tests import parity

REPO = Path(__file__).resolve().parents[1]
MANIFEST = Path(__file__).with_name("whole_sites.toml")
JEKYLL_ASIDE = ("Gemfile", "Gemfile.lock", ".bundle")
# Plugins that Debian packages for its Jekyll (scripts/setup-test-tools installs them); a site's
# others are switched off on the Jekyll side, and --safe runs none of its own Ruby.
JEKYLL_PLUGINS = {"jekyll-feed", "jekyll-paginate", "jekyll-polyglot", "jekyll-redirect-from", "jekyll-seo-tag",
                  "jekyll-sitemap"}
TIMEOUT = 1800


@dataclass
class WholeSite:
    repository: str
    lacking: int = 0                # files the mirror lacks, left out of both sides
    failed: str = ""                # sitegen's one line, when it did not import or build
    jekyll_failed: str = ""
    seconds: dict[str, float] = field(default_factory=dict)
    jekyll_only: list[str] = field(default_factory=list)
    sitegen_only: list[str] = field(default_factory=list)
    compared: int = 0
    equal: int = 0
    kinds: Counter = field(default_factory=Counter)
    examples: dict[str, tuple[str, str]] = field(default_factory=dict)
    warnings: int = 0


def run(command: list[str], cwd: Path | None = None) -> tuple[int, str, float]:
    """Exit status, output (stdout then stderr) and wall seconds of ``command``."""
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return 124, f"timed out after {TIMEOUT} s", TIMEOUT
    return done.returncode, done.stdout + done.stderr, time.perf_counter() - start


def last_line(output: str) -> str:
    """The line that says what went wrong: Jekyll's first error, or the last line printed."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if re.search(r"(?i)error|exception|disallowed", line)
              and not line.startswith("from ")]
    return ((errors or lines or ["(no output)"])[0 if errors else -1])[:300]


def sitegen_side(source: Path, work: Path, result: WholeSite) -> Path | None:
    site = work / "sitegen"
    sitegen = [sys.executable, "-m", "generator"]
    status, output, result.seconds["import"] = run([*sitegen, "import", "jekyll", str(source), str(site)], REPO)
    if status:
        result.failed = f"import: {last_line(output)}"
        return None
    status, output, result.seconds["build"] = run([*sitegen, "-C", str(site), "build"], REPO)
    if status:
        result.failed = f"build: {last_line(output)}"
        return None
    result.warnings = sum(1 for line in output.splitlines() if "warning" in line.lower())
    return site / "_site"


def named_plugins(tree: Path) -> list[str]:
    """The gems the site asks for: _config.yml's ``plugins`` (or the older ``gems``), and the
    Gemfile's ``jekyll_plugins`` group, which Bundler loads without their being named there
    (crystal-lang's ``{% seo %}`` comes from it)."""
    try:
        config = yaml.safe_load((tree / "_config.yml").read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError):
        config = {}
    gemfile = tree / "Gemfile"
    grouped = gemfile_plugins(gemfile.read_text(encoding="utf-8")) if gemfile.is_file() else []
    return [*(str(name) for key in ("plugins", "gems") for name in config.get(key) or ()),
            *(name for name, _ in grouped)]


def jekyll_side(source: Path, work: Path, site: dict, result: WholeSite) -> Path | None:
    """Jekyll's build of the tree, with the manifest's edits for what Debian's Jekyll cannot take."""
    tree = work / "jekyll-src"
    shutil.copytree(source, tree, symlinks=True)
    for name in (*JEKYLL_ASIDE, *site.get("jekyll_remove", ())):
        path = tree / name
        shutil.rmtree(path) if path.is_dir() else path.unlink(missing_ok=True)
    for name, text, replacement in site.get("jekyll_edits", ()):
        path = tree / name
        original = path.read_text(encoding="utf-8")
        if text not in original:
            raise SystemExit(f"{site['repository']}: {name} has no {text!r} (whole_sites.toml's jekyll_edits)")
        path.write_text(original.replace(text, replacement), encoding="utf-8")
    plugins = [name for name in named_plugins(tree) if name in JEKYLL_PLUGINS]     # as the edits name them
    (tree / "_jekyll_extra.yml").write_text(yaml.safe_dump({key: list(plugins) for key in ("plugins", "gems", "whitelist")}),
                                           encoding="utf-8")
    configs = [tree / name for name in ("_config.yml", "_jekyll_extra.yml") if (tree / name).is_file()]
    out = work / "jekyll-out"
    safe = [] if site.get("jekyll_own_plugins") else ["--safe"]
    # Run in the tree, with no --source: a _config.yml's own `source: _src` (systemds') then holds.
    status, output, result.seconds["jekyll"] = run(
        ["jekyll", "build", *safe, "--quiet", "-d", str(out), "--config", ",".join(map(str, configs))], tree)
    if status:
        result.jekyll_failed = last_line(output)
        return None
    return out


def compare(jekyll_out: Path, sitegen_out: Path, result: WholeSite) -> None:
    theirs, ours = pages(jekyll_out), pages(sitegen_out)
    config = yaml.safe_load((sitegen_out.parent / "site.yaml").read_text(encoding="utf-8")) or {}
    home = str(config.get("url") or "").rstrip("/")
    result.jekyll_only = sorted(set(theirs) - set(ours))
    result.sitegen_only = sorted(set(ours) - set(theirs))
    for url in sorted(set(theirs) & set(ours)):
        their_tree, my_tree = body_tree(theirs[url], home=home), body_tree(ours[url], home=home)
        result.compared += 1
        kind = parity.divergence_kind(my_tree, their_tree)
        if kind is None:
            result.equal += 1
            continue
        result.kinds[kind] += 1
        result.examples.setdefault(kind, (url, parity.first_difference(my_tree, their_tree) or ""))


def compare_site(mirrors: Path, site: dict, work: Path, reuse_jekyll: bool = False) -> WholeSite:
    """``reuse_jekyll``: take ``work``'s jekyll-out of an earlier run, if it is there, as Jekyll's side."""
    result = WholeSite(site["repository"])
    mirror = mirrors / site["repository"].replace("/", "+") / "repo"
    earlier = work / "jekyll-out"
    reused = reuse_jekyll and earlier.is_dir()
    for entry in work.iterdir():
        if not (reused and entry == earlier):
            shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
    tree = work / "tree"
    result.lacking = export(mirror, site["commit"], tree)
    source = tree / site.get("root", "")
    sitegen_out = sitegen_side(source, work, result)
    jekyll_out = earlier if reused else jekyll_side(source, work, site, result)
    if sitegen_out and jekyll_out:
        compare(jekyll_out, sitegen_out, result)
    return result


def report(results: list[WholeSite]) -> str:
    rows = ["| site | sitegen | Jekyll | pages both publish | body DOM equal | Jekyll's only | sitegen's only "
            "| build warnings | mirror lacks |", "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        built = "**no**" if r.failed else f"{r.seconds.get('import', 0):.1f} + {r.seconds.get('build', 0):.1f} s"
        jekyll = "**no**" if r.jekyll_failed else f"{r.seconds.get('jekyll', 0):.1f} s"
        rows.append(f"| {r.repository} | {built} | {jekyll} | {r.compared} | {r.equal} | {len(r.jekyll_only)} | "
                    f"{len(r.sitegen_only)} | {r.warnings} | {r.lacking} |")
    compared, equal = sum(r.compared for r in results), sum(r.equal for r in results)
    rows.append(f"| **all** | {sum(not r.failed for r in results)}/{len(results)} built | | {compared} | "
                f"{equal} ({equal / max(compared, 1):.0%}) | | | | |")
    rows += ["", "Failures (the one line printed):", ""]
    rows += [f"- {r.repository}: sitegen {r.failed}" for r in results if r.failed]
    rows += [f"- {r.repository}: Jekyll: {r.jekyll_failed}" for r in results if r.jekyll_failed]
    kinds = sum((r.kinds for r in results), Counter())
    rows += ["", "| first differing construct | pages | sites |", "|---|---:|---:|"]
    rows += [f"| {kind} | {count} | {sum(1 for r in results if r.kinds[kind])} |" for kind, count in kinds.most_common()]
    rows += ["", "One page of each kind per site:"]
    for r in results:
        for kind, (url, difference) in sorted(r.examples.items()):
            rows += ["", f"{r.repository} {url} ({kind})", "```", difference[:600], "```"]
    rows += ["", "Pages one side publishes and the other does not (first five):", ""]
    for r in results:
        if r.jekyll_only or r.sitegen_only:
            rows.append(f"- {r.repository}: Jekyll's only {r.jekyll_only[:5]}; sitegen's only {r.sitegen_only[:5]}")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mirrors", type=Path, help="folder of OWNER+NAME/repo mirrors")
    parser.add_argument("--work", type=Path, default=Path("/tmp/whole-sites"))
    parser.add_argument("--only", action="append", help="a repository of the manifest (again for more)")
    parser.add_argument("--reuse-jekyll", action="store_true",
                        help="take Jekyll's output of an earlier run in --work instead of building it again")
    args = parser.parse_args()
    results = []
    for site in tomllib.loads(MANIFEST.read_text(encoding="utf-8"))["site"]:
        if args.only and site["repository"] not in args.only:
            continue
        work = args.work / site["repository"].replace("/", "+")
        work.mkdir(parents=True, exist_ok=True)
        results.append(compare_site(args.mirrors, site, work, args.reuse_jekyll))
        r = results[-1]
        print(f"{r.repository}: {r.failed or f'{r.equal}/{r.compared} pages equal'}"
              f"{'; Jekyll: ' + r.jekyll_failed if r.jekyll_failed else ''}", flush=True)
    print(report(results))


if __name__ == "__main__":
    main()
