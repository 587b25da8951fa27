"""Markdown documents written from a small grammar, for differential tests against Jekyll.

Every construct the grammar can write has a name (``list-indent-3``,
``fence-tilde``, ``ial-paragraph``...). :func:`documents` writes documents from
any set of them, so a test can leave out the constructs known to diverge and
check each of those on its own. A document knows which constructs it holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

WORDS = ("alpha", "beta", "gamma", "Delta", "tensor", "build", "x_y", "café", "数据", "v1.2", "C++",
         "a&b", "1990's", "don't", "--", "...", "\"quoted\"", "'single'")

INLINE = {
    "emphasis": lambda w: f"*{w}*",
    "emphasis-underscore": lambda w: f"_{w}_",
    "strong": lambda w: f"**{w}**",
    "strong-underscore": lambda w: f"__{w}__",
    "code-span": lambda w: f"`{w}`",
    "code-span-double": lambda w: f"`` {w} ` ``",
    "strikethrough": lambda w: f"~~{w}~~",
    "link": lambda w: f"[{w}](https://example.org/{len(w)})",
    "link-title": lambda w: f'[{w}](https://example.org/t "a title")',
    "image": lambda w: f"![{w}](/images/{len(w)}.png)",
    "reference-link": lambda w: f"[{w}][ref]",
    "autolink": lambda w: "<https://example.org/auto>",
    "escape": lambda w: f"\\*{w}\\*",
    "hard-break": lambda w: f"{w}  \nbreak",
    "inline-html": lambda w: f"<span>{w}</span>",
    "ial-span": lambda w: f"*{w}*{{: .mark}}",
    "math-inline": lambda w: f"$$x^{len(w)} + y$$",
}

BLOCK_IALS = ("{: .note}", "{: #anchor}", '{: style="color: red"}')

# Block constructs. Each is written by a function (draw, inline) -> text below.
BLOCKS = (
    "paragraph", "paragraph-two-lines", "heading", "heading-closed", "setext-heading", "rule",
    "fence-backtick", "fence-tilde", "fence-close-indented", "fence-language", "indented-code",
    "html-block", "html-block-markdown", "blockquote", "blockquote-list", "table", "table-aligned",
    "list-bullet", "list-numbered", "list-loose", "list-indent-2", "list-indent-3", "list-indent-4",
    "list-code", "list-quote", "task-list", "ial-paragraph", "ial-list", "ial-heading",
    "definition-list", "footnote-unreferenced", "reference-definition", "math-block",
)

# How a block follows the one before: a blank line, or (for some) straight after a text line.
RIGHT_AFTER = frozenset({"list-bullet", "list-numbered", "fence-backtick", "blockquote", "html-block"})

# Constructs of how blocks meet or what a text starts with, rather than of one block.
JOINS = frozenset({"right-after-paragraph", "list-after-list", "blockquote-after-blockquote", "item-dashes",
                   "footnote", "definition-after-list", "table-broken-row", "dash-rule",
                   "code-after-definition-list", "table-dash-cell", "math-paragraph"})

CONSTRUCTS = frozenset(INLINE) | frozenset(BLOCKS) | JOINS


@dataclass(frozen=True)
class Document:
    text: str
    constructs: frozenset[str]

    def __repr__(self) -> str:  # what Hypothesis prints for a failing example
        return f"Document(constructs={sorted(self.constructs)}, text=\n{self.text})"


class _Writer:
    """Writes one document, drawing from ``allowed`` and noting what it used."""

    def __init__(self, draw, allowed: frozenset[str]):
        self.draw, self.allowed, self.used = draw, allowed, set()
        self.footnotes: list[str] = []

    def pick(self, names) -> str:
        name = self.draw(st.sampled_from(sorted(set(names) & self.allowed)))
        self.used.add(name)
        return name

    def word(self) -> str:
        return self.draw(st.sampled_from(WORDS))

    def inline(self, words: int = 4, one_line: bool = False, heading: bool = False) -> str:
        parts = []
        for _ in range(self.draw(st.integers(1, words))):
            spans = set(INLINE) & self.allowed - ({"hard-break"} if one_line or heading else set())
            if spans and self.draw(st.booleans()):
                span = self.pick(spans)
                parts.append(INLINE[span](self.word()))
            else:
                parts.append(self.word())
        if "footnote" in self.allowed and self.draw(st.integers(0, 3)) == 0:
            parts.append(self.footnote())
        if parts[0].startswith("$$") and parts[-1].endswith("$$"):  # a math block to kramdown only when alone
            if "math-paragraph" in self.allowed:
                self.used.add("math-paragraph")
            else:
                parts.insert(0, "x")
        return " ".join(parts)

    def footnote(self) -> str:
        """A reference; its definition goes to the document's end."""
        self.used.add("footnote")
        self.footnotes.append(f"[^f{len(self.footnotes)}]: {self.word()}")
        return f"[^f{len(self.footnotes) - 1}]"

    def cell(self) -> str:
        text = self.inline(2, True)
        if text == "--":  # a row of dashes alone is a separator to kramdown
            if "table-dash-cell" not in self.allowed:
                return "x --"
            self.used.add("table-dash-cell")
        return text

    def item_text(self) -> str:
        text = self.inline(3, True)
        if text.startswith("--"):  # "- --" is a rule to CommonMark, an item to kramdown
            if "item-dashes" not in self.allowed:
                return "x " + text
            self.used.add("item-dashes")
        return text

    def list_block(self, kind: str, depth: int = 0) -> str:
        numbered = kind == "list-numbered" or (kind != "list-bullet" and self.draw(st.booleans()))
        marker = self.draw(st.sampled_from(["-", "*", "+"]))
        loose = kind == "list-loose"
        indent = {"list-indent-2": 2, "list-indent-3": 3, "list-indent-4": 4}.get(kind)
        lines = []
        for number in range(self.draw(st.integers(1, 3))):
            mark = f"{number + 1}." if numbered else marker
            box = self.draw(st.sampled_from(["[ ] ", "[x] "])) if kind == "task-list" else ""
            lines.append(f"{mark} {box}{self.item_text()}")
            if kind == "list-code":
                pad = " " * (len(mark) + 1)
                lines += ["", f"{pad}```", f"{pad}code {number}", f"{pad}```"]
            if kind == "list-quote":
                pad = " " * (len(mark) + 1)
                lines += ["", f"{pad}> {self.inline(2)}"]
            if indent and depth < 2 and self.draw(st.booleans()):
                inner = self.list_block(self.draw(st.sampled_from(["list-bullet", "list-numbered"])), depth + 1)
                lines += [" " * indent + line if line else "" for line in inner.split("\n")]
            if loose:
                lines.append("")
        return "\n".join(lines).rstrip("\n")

    def block(self, kind: str) -> str:
        self.used.add(kind)
        text = self.inline
        if kind == "paragraph":
            return text()
        if kind == "paragraph-two-lines":
            return f"{text()}\n{text()}"
        if kind == "heading":
            return f"{'#' * self.draw(st.integers(1, 4))} {self.word()} {text(3, heading=True)}"
        if kind == "heading-closed":
            return f"## {self.word()} {text(2, heading=True)} ##"
        if kind == "setext-heading":
            return f"{text(2, heading=True)}\n{self.draw(st.sampled_from(['===', '---']))}"
        if kind == "rule":
            if "dash-rule" in self.allowed and self.draw(st.booleans()):
                self.used.add("dash-rule")
                return "- - -"
            return self.draw(st.sampled_from(["***", "___"]))
        if kind.startswith("fence-"):
            fence = "~~~" if kind == "fence-tilde" else "```"
            language = self.draw(st.sampled_from(["python", "c", "", "bash"])) if kind == "fence-language" else ""
            closing = " " * self.draw(st.integers(1, 3)) if kind == "fence-close-indented" else ""
            body = self.draw(st.sampled_from(["x = 1", "- not a list\n# not a heading", "<div>raw</div>",
                                              "def f():\n    return 'a'"]))
            return f"{fence}{language}\n{body}\n{closing}{fence}"
        if kind == "indented-code":
            return "    code line\n    - not a list"
        if kind == "html-block":
            return self.draw(st.sampled_from([f"<div>{self.word()}</div>", f'<div class="box">\n{self.word()}\n</div>',
                                              "<!-- a comment -->", '<p align="center">centred</p>']))
        if kind == "html-block-markdown":
            return f'<div markdown="1">\n{text()}\n</div>'
        if kind == "blockquote":
            return "\n".join(f"> {text()}" for _ in range(self.draw(st.integers(1, 2))))
        if kind == "blockquote-list":
            return f"> {text(2)}\n>\n> - {self.item_text()}\n> - {self.item_text()}"
        if kind.startswith("table"):
            columns = self.draw(st.integers(1, 3))
            rule = (":--", "--:", ":-:") if kind == "table-aligned" else ("---",)
            head = "| " + " | ".join(self.cell() for _ in range(columns)) + " |"
            separator = "|" + "|".join(self.draw(st.sampled_from(rule)) for _ in range(columns)) + "|"
            rows = ["| " + " | ".join(self.cell() for _ in range(columns)) + " |"
                    for _ in range(self.draw(st.integers(1, 2)))]
            return "\n".join([head, separator, *rows])
        if kind.startswith("list-") or kind == "task-list":
            return self.list_block(kind)
        if kind == "ial-paragraph":
            return f"{text()}\n{self.draw(st.sampled_from(BLOCK_IALS))}"
        if kind == "ial-list":
            return f"{{: .steps}}\n- {self.item_text()}\n- {self.item_text()}"
        if kind == "ial-heading":
            return f"## {text(2, heading=True)}\n{{: .head}}"
        if kind == "definition-list":
            return f"{self.word()}\n: {text(2)}"
        if kind == "footnote-unreferenced":
            return f"[^unused]: {text(3)}"
        if kind == "math-block":
            return "$$\n\\frac{a}{b} = c\n$$"
        if kind == "reference-definition":
            return "[ref]: https://example.org/ref"
        raise ValueError(kind)


@st.composite
def documents(draw, allowed: frozenset[str] = CONSTRUCTS, required: str | None = None) -> Document:
    """A Markdown document of 1-6 blocks, each from ``allowed``; ``required`` is in it for sure."""
    writer = _Writer(draw, frozenset(allowed) | ({required} if required else set()))
    kinds = [writer.pick(set(BLOCKS)) for _ in range(draw(st.integers(1, 6)))]
    if required in BLOCKS:
        kinds.insert(draw(st.integers(0, len(kinds))), required)
    for number in range(len(kinds) - 1, 0, -1):  # blocks that would join their neighbour
        for join, before, after in JOINED:
            if _family(kinds[:number]) == before and _family(kinds[number:number + 1]) == after:
                if join in writer.allowed:
                    writer.used.add(join)
                else:
                    kinds.insert(number, "paragraph")
    parts = []
    for kind in kinds:
        block = writer.block(kind)
        if required in INLINE and kind.startswith("paragraph"):
            block += " " + INLINE[required](writer.word())
            writer.used.add(required)
        follows = parts and kinds[len(parts) - 1].startswith("paragraph") and kind in RIGHT_AFTER
        if follows and "right-after-paragraph" in writer.allowed and draw(st.booleans()):
            writer.used.add("right-after-paragraph")
            parts.append("\n" + block)
        else:
            parts.append(("\n\n" if parts else "") + block)
    if required and required not in writer.used:  # it had no place in what was drawn: a block of its own
        parts.append("\n\n" + _FORCED.get(required, lambda w: INLINE[required](w))(writer))
        writer.used.add(required)
    for definition in writer.footnotes:
        parts.append("\n\n" + definition)
    return Document("".join(parts).lstrip("\n") + "\n", frozenset(writer.used))


# Neighbours read as one block by one of the two (a join), unless a paragraph stands between.
JOINED = (("list-after-list", "list", "list"), ("blockquote-after-blockquote", "blockquote", "blockquote"),
          ("definition-after-list", "list", "reference"),
          ("code-after-definition-list", "definition", "indented"))


def _family(kinds: list[str]) -> str:
    """What the last of ``kinds`` belongs to: indented code after a list continues its last item."""
    kind = kinds[-1]
    if kind.startswith("list-") or kind in ("task-list", "ial-list"):
        return "list"
    if kind == "indented-code" and len(kinds) > 1 and _family(kinds[:-1]) == "list":
        return "list"
    return kind.split("-")[0]


_FORCED = {
    "right-after-paragraph": lambda writer: f"{writer.word()}\n- {writer.word()}",
    "list-after-list": lambda writer: f"- {writer.word()}\n\n1. {writer.word()}",
    "blockquote-after-blockquote": lambda writer: f"> {writer.word()}\n\n> {writer.word()}",
    "item-dashes": lambda writer: f"- {writer.word()}\n- --",
    "footnote": lambda writer: f"{writer.word()} {writer.footnote()}",
    "definition-after-list": lambda writer: f"- {writer.word()}\n\n[ref]: https://example.org/\n\n    code",
    "code-after-definition-list": lambda writer: f"{writer.word()}\n: {writer.word()}\n\n    code",
    "dash-rule": lambda writer: f"- {writer.word()}\n\n- - -\n\n    code",
    "math-paragraph": lambda writer: "$$a$$ and $$b$$",
    "table-dash-cell": lambda writer: f"| {writer.word()} |\n|---|\n| -- |",
    "table-broken-row": lambda writer: f"| {writer.word()} | a  \nb |\n|---|---|\n| c | d |",
}
