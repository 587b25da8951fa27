#!/usr/bin/env python3
"""The peer benchmark's corpus: the same generated blog laid out for sitegen, Hugo and Pelican.

    python benchmarks/peers/corpus.py N OUTDIR [--seed S] [--layouts plain,hugo,pelican]

N Markdown posts that look like a real project blog (an ML-compiler project's
engineering blog): title, author, date, tags, categories; ~550-2100 words of body
(median ~1300), h2/h3 headings, paragraphs with links / emphasis / strong /
inline code, 1-3 fenced code blocks (python, c++, bash), a pipe table in ~37%
of posts, footnotes in ~29%, 0-3 images in ~67% (referenced only).

Post i comes from its own RNG seeded with (seed, i), so post i is the same
whatever N is. The body is byte-identical in every layout; only the metadata
syntax and the folder differ:

    OUTDIR/plain/posts/YYYY-MM-DD-slug.md         YAML front matter (sitegen)
    OUTDIR/hugo/content/posts/YYYY-MM-DD-slug.md  YAML front matter (RFC 3339 date)
    OUTDIR/pelican/content/YYYY-MM-DD-slug.md     Python-Markdown "Key: value" metadata

Dates are all in the past (2012-2021), so no tool skips "future" posts; nothing
in the bodies uses '{{' or '{%' (Liquid and Go templates leave them alone).
"""
from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import random
import re
import sys

SEED = 20240601
LAYOUTS = ("plain", "hugo", "pelican")
BASE_DATE = dt.datetime(2012, 1, 2, 9, 0, 0)
STEP = dt.timedelta(hours=17)  # 5000 posts -> ~9.7 years, ends in 2021
LAST_DATE = dt.datetime(2024, 12, 31, 9, 0, 0)   # every post in the past, whenever the benchmark runs


def step(n: int) -> dt.timedelta:
    """Time between posts: 17 hours, less where ``n`` posts would run past LAST_DATE (over
    about 6,600): future posts are not published, so a larger corpus would publish no more
    posts than a smaller one, and how many it publishes would depend on the day it is built."""
    return min(STEP, (LAST_DATE - BASE_DATE) / max(1, n - 1))

AUTHORS = [
    "Tianqi Chen", "Ada Moreno", "Wei Zhang", "Priya Raman", "Lukas Becker",
    "Mei Lin", "Jordan Ellis", "Sofia Rossi", "Kenji Sato", "Amara Okafor",
    "Elena Petrova", "Diego Alvarez", "Hannah Kim", "Omar Haddad",
]
TAGS = [
    "compiler", "autotuning", "cuda", "rocm", "vulkan", "metal", "webgpu",
    "llvm", "mlir", "relay", "tensorir", "quantization", "int8", "fp16",
    "scheduling", "codegen", "runtime", "rpc", "microtvm", "embedded",
    "arm", "x86", "risc-v", "benchmark", "transformer", "cnn", "llm",
    "release", "community", "tutorial", "performance", "memory", "sparse",
    "dynamic-shapes", "graph-optimization", "operator-fusion", "python", "c++",
    "onnx", "pytorch",
]
CATEGORIES = ["engineering", "release", "community", "research", "tutorial", "performance"]

WORDS = """
model tensor operator kernel schedule loop compute memory buffer layout target
device backend frontend graph node edge pass pipeline runtime module function
compiler optimization search space cost measurement latency throughput batch
shape dimension axis stride vector register cache shared global thread block
warp lane pointer array index primitive expression statement analysis rewrite
lowering fusion inline unroll vectorize parallelize tile reorder split bind
quantize dequantize scale offset precision accuracy inference training gradient
accelerator hardware software stack library framework ecosystem community user
developer contributor release feature support improvement regression benchmark
workload network convolution matmul attention softmax normalization activation
embedding sequence token context window prefill decode sampling distribution
cluster node machine server client request response latency bandwidth capacity
build test continuous integration coverage documentation tutorial example design
proposal discussion roadmap milestone deprecation migration compatibility
interface abstraction implementation specialization generalization heuristic
profile trace counter metric dashboard experiment result baseline comparison
speedup slowdown bottleneck overhead allocation pool arena planner scheduler
dispatch queue stream event synchronization barrier atomic reduction broadcast
""".split()
FILLER = """the a an of to in for with on by from into over under across this that
these those our their its we they it is are was were be been can will may
should must also then thus however while because although when where which
new simple fast efficient robust portable flexible modular generic native
""".split()
IDENTS = [
    "relay.build", "tvm.tir", "te.compute", "tvm.target.Target", "meta_schedule",
    "auto_scheduler", "PackedFunc", "NDArray", "IRModule", "tir.Schedule",
    "sch.split", "sch.reorder", "sch.vectorize", "ffi.register_func", "PassContext",
    "opt_level=3", "--target=llvm", "build_module", "graph_executor", "VirtualMachine",
    "dlpack", "TVM_FFI", "num_threads", "TVM_NUM_THREADS", "cuda.so", "libtvm_runtime.so",
]
LINK_HOSTS = ["https://example.com", "https://example.org", "https://docs.example.net"]
HEADINGS = [
    "Background", "Motivation", "Design Overview", "Implementation", "Evaluation",
    "Results", "Performance Analysis", "Memory Planning", "Scheduling Primitives",
    "Code Generation", "Runtime Integration", "Limitations", "Future Work",
    "Getting Started", "Acknowledgements", "Related Work", "Case Study",
    "Tuning Strategy", "Hardware Backends", "Migration Guide",
]
TITLE_PARTS_A = [
    "Introducing", "Optimizing", "Bringing", "Scaling", "Compiling", "Deploying",
    "Understanding", "Accelerating", "Rethinking", "Announcing", "Benchmarking",
    "Auto-tuning", "Quantizing", "Profiling", "Building",
]
TITLE_PARTS_B = [
    "Transformer Inference", "Sparse Kernels", "Dynamic Shapes", "Operator Fusion",
    "Mixed Precision", "Embedded Devices", "the Unity Runtime", "Tensor Programs",
    "Graph-Level Optimization", "LLM Serving", "WebGPU Backends", "ARM CPUs",
    "Memory Planning", "the Meta Schedule", "Int8 Convolutions", "RISC-V Targets",
    "Distributed Tuning", "Microcontrollers", "Attention Kernels", "Release 0.%d",
]
TITLE_PARTS_C = [
    "", "", " with TVM", " in Practice", ": A Deep Dive", " on Commodity GPUs",
    ": Lessons Learned", " at Scale", " for Everyone", " Without Rewriting Models",
]


def slugify(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:60].rstrip("-")


class PostGen:
    def __init__(self, seed: int, i: int, step: dt.timedelta = STEP):
        h = hashlib.sha256(f"{seed}:{i}".encode()).digest()
        self.r = random.Random(int.from_bytes(h[:8], "big"))
        self.i = i
        self.step = step
        self.footnotes: list[str] = []

    # ---- inline text -------------------------------------------------
    def word(self) -> str:
        r = self.r
        return r.choice(FILLER) if r.random() < 0.35 else r.choice(WORDS)

    def inline_item(self) -> str:
        r = self.r
        x = r.random()
        if x < 0.04:
            w = " ".join(r.choice(WORDS) for _ in range(r.randint(1, 3)))
            path = "/".join(r.choice(WORDS) for _ in range(r.randint(1, 3)))
            return f"[{w}]({r.choice(LINK_HOSTS)}/{path}.html)"
        if x < 0.075:
            return f"`{r.choice(IDENTS)}`"
        if x < 0.095:
            return f"*{r.choice(WORDS)}*"
        if x < 0.105:
            return f"**{r.choice(WORDS)} {r.choice(WORDS)}**"
        return self.word()

    def sentence(self) -> str:
        r = self.r
        n = r.randint(8, 22)
        items = [self.inline_item() for _ in range(n)]
        first = items[0]
        if first[0].isalpha():
            items[0] = first[0].upper() + first[1:]
        if n > 12 and r.random() < 0.3:
            k = r.randint(4, n - 4)
            items[k] = items[k] + ","
        s = " ".join(items) + r.choice([".", ".", ".", ".", "?", "!"])
        return s

    def paragraph(self, allow_footnote: bool) -> str:
        r = self.r
        sents = [self.sentence() for _ in range(r.randint(3, 7))]
        if allow_footnote and r.random() < 0.5 and len(self.footnotes) < 3:
            n = len(self.footnotes) + 1
            self.footnotes.append(
                f"[^{n}]: " + " ".join(self.word() for _ in range(r.randint(8, 18))).capitalize() + "."
            )
            k = r.randrange(len(sents))
            sents[k] = sents[k][:-1] + f"[^{n}]" + sents[k][-1]
        return " ".join(sents)

    # ---- blocks ------------------------------------------------------
    def code_block(self) -> str:
        r = self.r
        lang = r.choice(["python", "python", "cpp", "bash"])
        ident = lambda: r.choice(WORDS).replace("-", "_")
        lines: list[str] = []
        if lang == "python":
            lines += ["import tvm", "from tvm import te, tir", ""]
            for _ in range(r.randint(1, 3)):
                fn = f"{ident()}_{ident()}"
                lines.append(f"def {fn}({ident()}, {ident()}, n={r.randint(2, 512)}):")
                lines.append(f'    """{" ".join(self.word() for _ in range(6)).capitalize()}."""')
                for _ in range(r.randint(2, 6)):
                    a, b = ident(), ident()
                    lines.append(f"    {a} = te.placeholder((n, {r.choice([16, 32, 64, 128])}), name=\"{b}\")")
                lines.append(f"    for i in range({r.randint(2, 64)}):")
                lines.append(f"        print(f\"step {{i}}: {ident()}\")")
                lines.append(f"    return {ident()}")
                lines.append("")
        elif lang == "cpp":
            lines += ["#include <tvm/runtime/packed_func.h>", "#include <vector>", ""]
            for _ in range(r.randint(1, 3)):
                fn = f"{ident().capitalize()}{ident().capitalize()}"
                lines.append(f"void {fn}(const float* in, float* out, int n) {{")
                lines.append(f"  // {' '.join(self.word() for _ in range(7))}")
                lines.append(f"  for (int i = 0; i < n; ++i) {{")
                for _ in range(r.randint(1, 5)):
                    lines.append(f"    out[i] += in[i] * {r.uniform(0, 4):.3f}f;  // {ident()}")
                lines.append("  }")
                lines.append(f"  std::vector<int> {ident()}_shape = {{{r.randint(1, 9)}, {r.randint(1, 512)}}};")
                lines.append("}")
                lines.append("")
        else:
            for _ in range(r.randint(3, 10)):
                c = r.choice([
                    f"git clone --recursive https://example.com/{ident()}/{ident()}.git",
                    f"cmake -DUSE_{ident().upper()}=ON -DCMAKE_BUILD_TYPE=Release ..",
                    f"make -j{r.randint(2, 64)} {ident()}",
                    f"python3 -m pip install -e ./python",
                    f"export TVM_NUM_THREADS={r.randint(1, 32)}",
                    f"python3 tune_{ident()}.py --target llvm --trials {r.randint(100, 20000)}",
                    f"./build/{ident()} --input {ident()}.bin | tee {ident()}.log",
                ])
                lines.append(c)
        while lines and lines[-1] == "":
            lines.pop()
        return f"```{lang}\n" + "\n".join(lines) + "\n```"

    def table(self) -> str:
        r = self.r
        ncol = r.randint(3, 5)
        header = ["Model"] + [r.choice(["Latency (ms)", "Throughput", "Speedup", "Memory (MB)", "Accuracy", "Batch"]) for _ in range(ncol - 1)]
        rows = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] * ncol) + "|"]
        for _ in range(r.randint(3, 8)):
            cells = [f"{r.choice(WORDS)}-{r.randint(1, 152)}"] + [f"{r.uniform(0.1, 999):.2f}" for _ in range(ncol - 1)]
            rows.append("| " + " | ".join(cells) + " |")
        return "\n".join(rows)

    def image(self, slug: str, k: int) -> str:
        r = self.r
        cap = " ".join(self.word() for _ in range(r.randint(3, 8))).capitalize()
        return f"![Figure {k}: {cap}](/images/{slug}/figure-{k}.png)"

    # ---- whole post ------------------------------------------------------
    def post(self) -> dict:
        r = self.r
        i = self.i
        a = r.choice(TITLE_PARTS_A)
        b = r.choice(TITLE_PARTS_B)
        if "%d" in b:
            b = b % r.randint(1, 20)
        title = f"{a} {b}{r.choice(TITLE_PARTS_C)}"
        date = (BASE_DATE + self.step * i).replace(microsecond=0)
        slug = f"{slugify(title)}-{i:05d}"
        author = r.choice(AUTHORS)
        tags = sorted(r.sample(TAGS, r.randint(2, 4)))
        categories = [r.choice(CATEGORIES)]
        target_words = r.randint(450, 1650)  # overshoot of the last section brings it to ~600-2000
        want_table = r.random() < 0.35
        want_footnotes = r.random() < 0.30
        n_code = r.randint(1, 3)
        n_images = r.choice([0, 0, 1, 1, 2, 3])

        blocks: list[str] = [self.paragraph(False), self.paragraph(want_footnotes)]
        headings = r.sample(HEADINGS, len(HEADINGS))
        h_i = 0
        code_left, img_left, table_left = n_code, n_images, want_table
        img_k = 0
        words = sum(len(b.split()) for b in blocks)
        # keep adding sections until the word target is met AND every
        # planned code block / image / table is placed
        while words < target_words:
            sec: list[str] = [f"## {headings[h_i % len(headings)]}"]
            h_i += 1
            sec.append(self.paragraph(want_footnotes))
            for _ in range(r.randint(0, 2)):
                sec.append(f"### {' '.join(r.choice(WORDS) for _ in range(r.randint(2, 4))).capitalize()}")
                sec.append(self.paragraph(want_footnotes))
                if r.random() < 0.5:
                    sec.append(self.paragraph(False))
            if code_left and r.random() < 0.6:
                sec.append(self.code_block())
                code_left -= 1
                sec.append(self.paragraph(False))
            if img_left and r.random() < 0.5:
                img_k += 1
                sec.append(self.image(slug, img_k))
                img_left -= 1
            if table_left and r.random() < 0.4:
                sec.append(self.table())
                table_left = False
            if r.random() < 0.25:
                sec.append("\n".join(f"- {self.sentence()}" for _ in range(r.randint(2, 5))))
            blocks.extend(sec)
            words += sum(len(b.split()) for b in sec)
            if h_i > 60:  # safety
                break
        # whatever was planned but not yet placed goes into a closing section
        if code_left or img_left or table_left:
            blocks.append(f"## {headings[h_i % len(headings)]}")
            for _ in range(code_left):
                blocks.append(self.code_block())
            for _ in range(img_left):
                img_k += 1
                blocks.append(self.image(slug, img_k))
            if table_left:
                blocks.append(self.table())
        if self.footnotes:
            blocks.append("\n".join(self.footnotes))
        body = "\n\n".join(blocks) + "\n"
        return {
            "i": i, "title": title, "slug": slug, "date": date, "author": author,
            "tags": tags, "categories": categories, "body": body,
            "words": len(body.split()), "code_blocks": n_code, "images": n_images,
            "table": want_table, "footnotes": len(self.footnotes),
        }


def yq(s: str) -> str:
    """YAML double-quoted scalar."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(layout: str, p: dict) -> tuple[str, str]:
    """Return (relative path, file text) of post p for one layout."""
    d: dt.datetime = p["date"]
    fname = f"{d:%Y-%m-%d}-{p['slug']}.md"
    tags_yaml = "[" + ", ".join(p["tags"]) + "]"
    cats_yaml = "[" + ", ".join(p["categories"]) + "]"
    if layout == "plain":
        fm = (f"---\ntitle: {yq(p['title'])}\nauthor: {yq(p['author'])}\n"
              f"date: {d:%Y-%m-%d %H:%M:%S}\ntags: {tags_yaml}\ncategories: {cats_yaml}\n---\n\n")
        return f"posts/{fname}", fm + p["body"]
    if layout == "hugo":
        fm = (f"---\ntitle: {yq(p['title'])}\nauthor: {yq(p['author'])}\n"
              f"date: {d:%Y-%m-%dT%H:%M:%S}Z\nslug: {p['slug']}\ntags: {tags_yaml}\ncategories: {cats_yaml}\n---\n\n")
        return f"content/posts/{fname}", fm + p["body"]
    if layout == "pelican":
        # Pelican: one category; Python-Markdown meta block ends at first blank line
        fm = (f"Title: {p['title']}\nDate: {d:%Y-%m-%d %H:%M}\nAuthor: {p['author']}\n"
              f"Category: {p['categories'][0]}\nTags: {', '.join(p['tags'])}\nSlug: {p['slug']}\n\n")
        return f"content/{fname}", fm + p["body"]
    raise ValueError(layout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("n", type=int)
    ap.add_argument("outdir")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--layouts", default=",".join(LAYOUTS))
    args = ap.parse_args(argv)
    layouts = [x for x in args.layouts.split(",") if x]
    for lay in layouts:
        if lay not in LAYOUTS:
            ap.error(f"unknown layout {lay!r}")
    stats = {"n": args.n, "seed": args.seed, "words": 0, "code_blocks": 0, "images": 0,
             "tables": 0, "posts_with_footnotes": 0, "bytes_body": 0}
    for i in range(args.n):
        p = PostGen(args.seed, i, step(args.n)).post()
        stats["words"] += p["words"]
        stats["code_blocks"] += p["code_blocks"]
        stats["images"] += p["images"]
        stats["tables"] += int(p["table"])
        stats["posts_with_footnotes"] += int(p["footnotes"] > 0)
        stats["bytes_body"] += len(p["body"].encode())
        for lay in layouts:
            rel, text = render(lay, p)
            path = os.path.join(args.outdir, lay, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
    stats["avg_words"] = round(stats["words"] / max(args.n, 1), 1)
    os.makedirs(args.outdir, exist_ok=True)
    with open(os.path.join(args.outdir, "corpus.json"), "w") as f:
        json.dump(stats, f, indent=1)
    print(json.dumps(stats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
