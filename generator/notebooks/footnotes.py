"""Footnotes across a notebook's Markdown cells.

Each Markdown cell is rendered alone, but notebooks often define their notes
in one cell (a closing "References") and refer to them from others: rendered
as written, the reference stays ``[^1]`` in its cell and the note's back link
(``#fnref:1``) leads nowhere. So each note is moved to the cells that refer to
it, where it links both ways; a note no cell refers to is left out, named for
a warning.
"""

from __future__ import annotations

import re

DEFINITION = re.compile(r"^ {0,3}\[\^([^\]\s]+)\]:")
REFERENCE = re.compile(r"\[\^([^\]\s]+)\](?!:)")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def shared(sources: list[str]) -> tuple[list[str], list[tuple[int, str]]]:
    """The Markdown cells' sources with each footnote definition in the cells that refer to it, and
    the definitions referred to nowhere: (cell's place in ``sources``, label), left out."""
    cells = [_split(source) for source in sources]
    definitions: dict[str, str] = {}
    for _, defined, _ in cells:
        for label, text in defined.items():
            definitions.setdefault(label, text)
    referred = {label for _, _, refs in cells for label in refs}
    unused = [(n, label) for n, (_, defined, _) in enumerate(cells) for label in defined if label not in referred]
    result = []
    for (body, defined, refs), source in zip(cells, sources):
        if set(defined) == set(refs) & set(definitions):
            result.append(source)        # self-contained, or without footnotes: as written
            continue
        notes = [definitions[label] for label in dict.fromkeys(refs) if label in definitions]
        result.append("\n\n".join([body.rstrip("\n"), *notes]))
    return result, unused


def _split(source: str) -> tuple[str, dict[str, str], list[str]]:
    """A cell's text without its footnote definitions, the definitions (label -> their lines), and the
    labels it refers to, in order; code blocks are left alone."""
    body: list[str] = []
    defined: dict[str, str] = {}
    refs: list[str] = []
    fence, current = None, None
    for line in source.split("\n"):
        opening = FENCE.match(line)
        if fence is None and opening:
            fence = opening.group(1)[0]
        elif fence is not None and opening and opening.group(1)[0] == fence:
            fence = None
            body.append(line)
            continue
        if fence is not None:
            body.append(line)
            continue
        definition = DEFINITION.match(line)
        if definition:
            current = definition.group(1)
            defined[current] = line
            refs += REFERENCE.findall(line[definition.end():])
        elif current is not None and (line.startswith(("    ", "\t")) or not line.strip()):
            defined[current] += "\n" + line
            refs += REFERENCE.findall(line)
        else:
            if current is not None and defined[current].endswith("\n"):
                body.append("")         # the blank line that ended the note still parts what follows
            current = None
            body.append(line)
            refs += REFERENCE.findall(re.sub(r"`[^`]*`", "", line))
    return "\n".join(body), {label: text.rstrip("\n") for label, text in defined.items()}, refs
