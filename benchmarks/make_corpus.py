"""Generate a seeded, realistic site corpus for benchmarking sitegen.

Benchmarks need thousands of posts that look like real ones (front matter, headings,
code, tables, footnotes, cross-links) so that parsing, highlighting and rendering cost
what they would on a real site, and the same seed must give byte-identical output so
that timings are comparable across machines and commits.

    python benchmarks/make_corpus.py --posts 1000 --out /tmp/corpus [--seed 1] [--site SRC]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path

import yaml

REPO_ROOT = Path(__file__).resolve().parent.parent

# What a site skeleton is made of; the site's own posts and notebooks are left out.
SKELETON = ("site.yaml", "templates", "assets", "content/pages", "content/data")

FIRST_DAY = date(2015, 1, 1)
LAST_DAY = date(2025, 12, 31)

AUTHORS = [
    "Ada Moreno", "Bastian Keller", "Chen Wei", "Dana Okafor", "Elif Yilmaz",
    "Farid Haddad", "Greta Lindqvist", "Hiro Tanaka", "Ines Duarte", "Jonas Weber",
    "Kavya Iyer", "Liam O'Connor", "Mara Petrovic", "Nadia Rahman", "Oskar Nowak",
    "Priya Natarajan", "Quentin Roux", "Rosa Jimenez", "Sven Aalto", "Tamar Cohen",
]
TAGS = [
    "compiler", "runtime", "cuda", "rocm", "vulkan", "metal", "webassembly", "arm",
    "x86", "risc-v", "fpga", "microcontrollers", "quantization", "autotuning",
    "scheduling", "codegen", "llvm", "graph-optimization", "operator-fusion",
    "memory-planning", "tensor-ir", "frontend", "pytorch", "onnx", "tensorflow",
    "benchmarks", "performance", "release", "community", "conference", "tutorial",
    "deployment", "mobile", "edge", "security", "testing", "ci", "documentation",
    "python", "c++",
]
CATEGORIES = [
    "announcements", "engineering", "research", "releases", "community",
    "tutorials", "performance", "ecosystem",
]

ADJECTIVES = [
    "incremental", "parallel", "lazy", "vectorized", "quantized", "fused", "dynamic",
    "static", "heterogeneous", "portable", "low-level", "high-level", "end-to-end",
    "memory-bound", "compute-bound", "cache-friendly", "asynchronous", "deterministic",
    "sparse", "dense", "tiled", "hierarchical", "reproducible", "lightweight",
    "modular", "experimental", "stable", "native", "generic", "specialized",
]
NOUNS = [
    "compiler", "scheduler", "runtime", "kernel", "tensor", "operator", "graph",
    "pass", "backend", "frontend", "loop nest", "buffer", "allocator", "cost model",
    "search space", "intermediate representation", "code generator", "profiler",
    "benchmark", "workload", "accelerator", "pipeline", "module", "target", "layout",
    "cache", "thread pool", "build system", "test suite", "microcontroller", "driver",
    "library", "API", "dataset", "model", "quantizer", "autotuner", "executor",
    "checkpoint", "release",
]
VERBS = [
    "reduce", "improve", "simplify", "lower", "rewrite", "schedule", "partition",
    "fuse", "unroll", "vectorize", "cache", "profile", "tune", "generate", "validate",
    "serialize", "optimize", "inline", "specialize", "dispatch", "measure", "replace",
    "extend", "expose", "track", "split", "reorder", "annotate", "compile", "deploy",
]
ADVERBS = [
    "significantly", "automatically", "transparently", "roughly", "consistently",
    "explicitly", "implicitly", "substantially", "carefully", "aggressively",
    "eventually", "largely",
]
TARGETS = [
    "CUDA GPUs", "ARM CPUs", "x86 servers", "WebAssembly", "Vulkan devices",
    "mobile phones", "FPGAs", "RISC-V boards", "Apple Metal", "ROCm GPUs",
]
METRICS = [
    "latency", "throughput", "memory footprint", "compile time", "binary size",
    "energy use", "peak memory", "tuning time",
]
IDENTIFIERS = [
    "build()", "transform.FuseOps", "schedule.split", "te.compute", "opt_level=3",
    'target="llvm"', "PassContext", "auto_scheduler", "export_library", "--num-threads",
    "tune_tasks", "graph_executor", "ndarray.empty", "config.json", "make -j8",
    "LD_LIBRARY_PATH", "tir.Buffer", "runtime.Module", "relax.build", "--target",
]
WORKLOADS = [
    "resnet-18", "resnet-50", "mobilenet-v2", "bert-base", "gpt2-small", "vit-b16",
    "conv2d 3x3", "matmul 1024", "depthwise conv", "lstm cell", "yolo-v5s", "unet",
]

SENTENCES = [
    "The {adj} {noun} {verbs} the {noun} {adv}.",
    "This {verbs} {metric} on {target} by {pct}%.",
    "We {verb} each {noun} before the {noun} runs, which keeps the {noun} {adj}.",
    "In practice, `{ident}` {verbs} most of the {nouns} we care about.",
    "When the {noun} is {adj}, the {noun} can {verb} {nouns} without extra copies.",
    "Our {adj} {noun} now handles {num} {nouns} in under {small} milliseconds.",
    "Compared with the previous release, latency dropped from {ms_a} ms to {ms_b} ms.",
    "The key idea is to {verb} the {noun} once and reuse it across {nouns}.",
    "Most users will not notice the change, but {nouns} that rely on `{ident}` "
    "should {verb} their {nouns}.",
    "A {adj} {noun} makes it easier to {verb} {adj} {nouns}.",
    "This is why we {verb} {nouns} at build time rather than at run time.",
    "Thanks to contributors from {small} organizations, the {noun} now supports {target}.",
    "We measured {metric} on {target} with a {adj} {noun}.",
    "The {noun} exposes a single entry point, `{ident}`, that {verbs} the {noun}.",
    "Each {noun} is {adj} by default; pass `{ident}` to {verb} it.",
    "There are {num} {nouns} in total, and {small} of them are {adj}.",
    "If you {verb} the {noun} by hand, remember to {verb} the {noun} afterwards.",
    "None of this requires changes to existing {nouns}.",
    "The {noun} and the {noun} now share one {adj} {noun}.",
    "Future work will {verb} {adj} {nouns} and {verb} the {noun}.",
    "On {target}, the {adj} {noun} is {adv} faster than the {noun} it replaces.",
    "It turns out that {metric} is dominated by the {noun}, not by the {noun}.",
]
TITLES = [
    "{Adj} {nouns} for {target}",
    "Introducing the {adj} {noun}",
    "How we {verb} the {noun}",
    "Release notes for v0.{small}.{digit}",
    "Faster {metric} with {adj} {nouns}",
    "A deep dive into the {noun}",
    "Bringing {adj} {nouns} to {target}",
    "{Noun} internals: {adj} {nouns}",
    "Community update: the {adj} {noun}",
    "Measuring {metric} on {target}",
]
HEADINGS = [
    "{Adj} {nouns}", "How the {noun} works", "Results on {target}", "Getting started",
    "Measuring {metric}", "Design of the {noun}", "What comes next", "Background",
    "Using the {adj} {noun}", "Acknowledgements", "Limitations", "Related work",
]


def plural(noun: str) -> str:
    """English plural good enough for the word lists above."""
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def third_person(verb: str) -> str:
    """'reduce' -> 'reduces', 'dispatch' -> 'dispatches'."""
    return plural(verb)


def slugify(title: str, limit: int = 60) -> str:
    """Lower-case, hyphenated, cut at a word boundary so URLs stay readable."""
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    if len(slug) > limit:
        slug = slug[:limit].rsplit("-", 1)[0]
    return slug


@dataclass(frozen=True)
class Post:
    """What other posts need to know about a post: its date, slug and title."""

    when: datetime
    slug: str
    title: str

    @property
    def filename(self) -> str:
        return f"{self.when:%Y-%m-%d}-{self.slug}.md"

    @property
    def url(self) -> str:
        return f"/{self.when:%Y/%m/%d}/{self.slug}.html"


class Writer:
    """Builds Markdown from the word lists; every choice goes through one seeded RNG."""

    def __init__(self, rng: random.Random, posts: list[Post]):
        self.rng = rng
        self.posts = posts

    # -- words ------------------------------------------------------------------

    def fill(self, template: str, emphasis: bool = False) -> str:
        """Fill each {slot} independently, so repeated slots get different words."""
        text = re.sub(r"\{(\w+)\}", lambda m: self.word(m.group(1), emphasis), template)
        return re.sub(r"\b([Aa]) (?=\**[aeiou])", r"\1n ", text)  # a -> an

    def word(self, slot: str, emphasis: bool = False) -> str:
        r = self.rng
        if slot[0].isupper():
            text = self.word(slot.lower())
            return text[0].upper() + text[1:]
        if slot == "adj":
            adj = r.choice(ADJECTIVES)
            return f"*{adj}*" if emphasis and r.random() < 0.04 else adj
        if slot == "noun":
            noun = r.choice(NOUNS)
            return f"**{noun}**" if emphasis and r.random() < 0.03 else noun
        return {
            "nouns": lambda: plural(r.choice(NOUNS)),
            "verb": lambda: r.choice(VERBS),
            "verbs": lambda: third_person(r.choice(VERBS)),
            "adv": lambda: r.choice(ADVERBS),
            "target": lambda: r.choice(TARGETS),
            "metric": lambda: r.choice(METRICS),
            "ident": lambda: r.choice(IDENTIFIERS),
            "pct": lambda: str(r.randint(5, 80)),
            "num": lambda: str(r.choice([16, 32, 64, 128, 256, 1000, 4096])),
            "small": lambda: str(r.randint(2, 12)),
            "digit": lambda: str(r.randint(0, 9)),
            "ms_a": lambda: f"{r.uniform(20, 90):.1f}",
            "ms_b": lambda: f"{r.uniform(3, 19):.1f}",
        }[slot]()

    def sentence(self) -> str:
        text = self.fill(self.rng.choice(SENTENCES), emphasis=True)
        roll = self.rng.random()
        if roll < 0.025:
            other = self.rng.choice(self.posts)
            text += f" We covered this in [{other.title}]({other.url})."
        elif roll < 0.04:
            text += (f" See [the discussion](https://discuss.example.org/t/"
                     f"{self.rng.randint(1000, 99999)}) for details.")
        return text

    # -- blocks -------------------------------------------------------------------

    def paragraph(self) -> str:
        return " ".join(self.sentence() for _ in range(self.rng.randint(3, 7)))

    def heading(self, level: int) -> str:
        return "#" * level + " " + self.fill(self.rng.choice(HEADINGS))

    def bullet_list(self) -> str:
        numbered = self.rng.random() < 0.3
        items = []
        for i in range(1, self.rng.randint(3, 6) + 1):
            marker = f"{i}." if numbered else "-"
            items.append(f"{marker} {self.fill(self.rng.choice(SENTENCES))}")
        return "\n".join(items)

    def table(self) -> str:
        rows = ["| Workload | Baseline (ms) | Optimized (ms) | Speedup |",
                "|---|---:|---:|---:|"]
        for workload in self.rng.sample(WORKLOADS, self.rng.randint(3, 6)):
            before = self.rng.uniform(5, 120)
            after = before / self.rng.uniform(1.05, 3.5)
            rows.append(f"| {workload} | {before:.1f} | {after:.1f} | "
                        f"{before / after:.2f}x |")
        return "\n".join(rows)

    def code_block(self) -> str:
        language, make = self.rng.choice([
            ("python", self.python_code), ("c++", self.cpp_code),
            ("bash", self.bash_code), ("json", self.json_code),
        ])
        return f"```{language}\n{make().rstrip()}\n```"

    # -- code ---------------------------------------------------------------------

    def name(self) -> str:
        return f"{self.rng.choice(VERBS)}_{self.rng.choice(NOUNS).replace(' ', '_').lower()}"

    def python_code(self) -> str:
        fn, tile, n = self.name(), self.rng.choice([4, 8, 16, 32]), self.rng.choice([64, 256, 1024])
        if self.rng.random() < 0.5:
            return f'''\
import numpy as np


def {fn}(data, tile={tile}):
    """{self.fill(self.rng.choice(SENTENCES))}"""
    out = np.empty_like(data)
    for start in range(0, len(data), tile):
        block = data[start:start + tile]
        out[start:start + tile] = block * {self.rng.uniform(0.1, 2):.2f}
    return out


if __name__ == "__main__":
    x = np.arange({n}, dtype="float32")
    print({fn}(x)[:{tile}])
'''
        return f'''\
import time
from dataclasses import dataclass


@dataclass
class Config:
    target: str = "{self.rng.choice(["llvm", "cuda", "rocm", "vulkan", "metal"])}"
    trials: int = {self.rng.choice([200, 1000, 2000])}
    opt_level: int = {self.rng.randint(0, 3)}


def {fn}(config: Config) -> float:
    start = time.perf_counter()
    for _ in range(config.trials):
        pass  # compile and run one candidate
    return time.perf_counter() - start


print(f"{{{fn}(Config()):.3f}} s")
'''

    def cpp_code(self) -> str:
        fn, tile = self.name(), self.rng.choice([16, 32, 64, 128])
        return f'''\
#include <algorithm>
#include <cstddef>
#include <vector>

// {self.fill(self.rng.choice(SENTENCES))}
template <typename T>
void {fn}(const std::vector<T>& in, std::vector<T>& out, std::size_t tile = {tile}) {{
  for (std::size_t i = 0; i < in.size(); i += tile) {{
    const std::size_t end = std::min(i + tile, in.size());
    for (std::size_t j = i; j < end; ++j) {{
      out[j] = in[j] * static_cast<T>({self.rng.randint(2, 9)});
    }}
  }}
}}
'''

    def bash_code(self) -> str:
        project = self.rng.choice(["stack", "runtime", "tensorlib", "kernels"])
        flag = self.rng.choice(["CUDA", "LLVM", "VULKAN", "METAL", "ROCM", "OPENCL"])
        if self.rng.random() < 0.5:
            return f'''\
git clone --recursive https://github.com/example/{project}.git
cd {project} && mkdir -p build && cd build
cmake .. -DUSE_{flag}=ON -DCMAKE_BUILD_TYPE=Release
make -j{self.rng.choice([4, 8, 16, 32])}
python -m pip install -e ../python
'''
        return f'''\
for batch in 1 8 32; do
  python -m {project}.bench --target {flag.lower()} --batch "$batch" \\
      --repeat {self.rng.randint(3, 20)} >> results.csv
done
sort -t, -k3 -n results.csv | head -n 5
'''

    def json_code(self) -> str:
        config = {
            "target": self.rng.choice(["llvm -mcpu=skylake", "cuda", "rocm", "vulkan"]),
            "opt_level": self.rng.randint(0, 3),
            "tuning": {"trials": self.rng.choice([200, 1000, 2000]),
                       "early_stopping": self.rng.choice([None, 100, 400]),
                       "log_file": f"{self.name()}.log"},
            "workloads": self.rng.sample(WORKLOADS, 3),
        }
        return json.dumps(config, indent=2)

    # -- whole post ---------------------------------------------------------------

    def body(self) -> str:
        """Intro, 2-4 sections, 1-3 code blocks; some tables, lists and footnotes."""
        r = self.rng
        target_words = r.randint(300, 1250)
        sections = r.randint(2, 4)
        paragraphs: list[str] = []
        while sum(len(p.split()) for p in paragraphs) < target_words or len(paragraphs) < sections + 1:
            paragraphs.append(self.paragraph())
        intro = r.randint(1, min(2, len(paragraphs) - sections))
        cuts = sorted(r.sample(range(intro + 1, len(paragraphs)), sections - 1))
        bounds = [intro, *cuts, len(paragraphs)]

        footnotes = [self.fill(r.choice(SENTENCES)) for _ in range(r.choice([0, 0, 0, 1, 2]))]
        for number in range(1, len(footnotes) + 1):
            i = r.randrange(len(paragraphs))
            head, dot, tail = paragraphs[i].partition(". ")
            paragraphs[i] = f"{head}[^{number}]{dot}{tail}" if dot else f"{paragraphs[i]}[^{number}]"

        extras: list[list[str]] = [[] for _ in range(sections)]
        for _ in range(r.randint(1, 3)):
            extras[r.randrange(sections)].append(self.code_block())
        if r.random() < 0.3:
            extras[r.randrange(sections)].append(self.table())
        for extra in extras:
            if r.random() < 0.5:
                extra.insert(0, self.bullet_list())

        blocks = paragraphs[:intro]
        level = 2
        for s in range(sections):
            blocks.append(self.heading(level))
            section = paragraphs[bounds[s]:bounds[s + 1]]
            blocks.extend(section[:1] + extras[s] + section[1:])
            level = 3 if level == 2 and r.random() < 0.4 else 2
        blocks.extend(f"[^{n}]: {text}" for n, text in enumerate(footnotes, 1))
        return "\n\n".join(blocks) + "\n"

    def front_matter(self, post: Post) -> dict:
        r = self.rng
        authors = r.sample(AUTHORS, r.choice([1, 1, 1, 2, 3]))
        meta = {
            "layout": "post",
            "title": post.title,
            "author": authors[0] if len(authors) == 1 else authors,
            "date": post.when,
            "tags": r.sample(TAGS, r.randint(1, 5)),
            "categories": r.sample(CATEGORIES, r.choice([1, 1, 2])),
        }
        if r.random() < 0.3:
            meta["excerpt"] = self.fill(r.choice(SENTENCES))
        return meta

    def post(self, post: Post) -> str:
        meta = yaml.safe_dump(self.front_matter(post), sort_keys=False,
                              allow_unicode=True, width=1000)
        return f"---\n{meta}---\n\n{self.body()}"


def plan_posts(rng: random.Random, count: int) -> list[Post]:
    """Pick dates, times and unique slugs up front so posts can link to each other."""
    days = (LAST_DAY - FIRST_DAY).days + 1
    writer = Writer(rng, [])
    posts, used = [], set()
    for _ in range(count):
        when = datetime.combine(FIRST_DAY, datetime.min.time()) + timedelta(
            days=rng.randrange(days), minutes=rng.randrange(24 * 60))
        title = writer.fill(rng.choice(TITLES))
        slug = base = slugify(title)
        suffix = 2
        while slug in used:
            slug, suffix = f"{base}-{suffix}", suffix + 1
        used.add(slug)
        posts.append(Post(when, slug, title))
    return sorted(posts, key=lambda p: (p.when, p.slug))


def copy_skeleton(site: Path, out: Path) -> list[str]:
    """Copy the parts of SITE that a build needs besides posts; return what was copied."""
    copied = []
    for part in SKELETON:
        src, dst = site / part, out / part
        if src.is_dir():
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__", ".DS_Store"))
        elif src.is_file():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
        else:
            continue
        copied.append(part)
    _drop_what_needs_the_repository(out)
    return copied


def _drop_what_needs_the_repository(out: Path) -> None:
    """Docs versions are built from the repository's git history and source listings
    point into notebooks/: neither comes along into a corpus folder."""
    config_path = out / "site.yaml"
    if config_path.is_file():
        config = yaml.safe_load(config_path.read_text(encoding="utf-8"))
        if config.pop("versions", None) is not None:
            config_path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    for page in sorted((out / "content" / "pages").rglob("*.md")):
        if re.search(r"^layout:\s*source\s*$", page.read_text(encoding="utf-8"), re.M):
            page.unlink()


SEARCH_OFF = "\nsearch: false\n"


def has_search(repo: Path) -> bool:
    """Whether the sitegen checkout ``repo`` builds a search index (one older than issue 14 does not)."""
    return (repo / "generator" / "outputs" / "search.py").is_file()


def set_search(site: Path, on: bool) -> None:
    """Turn the site's search index on (sitegen's default) or off (``search: false``)."""
    config = site / "site.yaml"
    text = config.read_text(encoding="utf-8").replace(SEARCH_OFF, "")
    config.write_text(text if on else text + SEARCH_OFF, encoding="utf-8")


def make_corpus(posts: int, out: Path, seed: int = 1, site: Path = REPO_ROOT) -> list[Path]:
    """Write a complete site into OUT (which must be empty or absent); return post paths."""
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise SystemExit(f"make_corpus: {out} exists and is not empty")
    out.mkdir(parents=True, exist_ok=True)
    copy_skeleton(Path(site), out)
    rng = random.Random(seed)
    planned = plan_posts(rng, posts)
    writer = Writer(rng, planned)
    post_dir = out / "content" / "posts"
    post_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for post in planned:
        path = post_dir / post.filename
        path.write_text(writer.post(post), encoding="utf-8", newline="\n")
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, required=True, help="number of posts to write")
    parser.add_argument("--out", type=Path, required=True, help="site folder to create")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--site", type=Path, default=REPO_ROOT,
                        help="site skeleton to copy (default: the repository root)")
    args = parser.parse_args(argv)
    paths = make_corpus(args.posts, args.out, args.seed, args.site)
    print(f"wrote {len(paths)} posts to {args.out / 'content' / 'posts'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
