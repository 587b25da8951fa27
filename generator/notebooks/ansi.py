"""Terminal text with ANSI colour codes as HTML, the way Jupyter shows it.

Jupyter's classes (``ansi-red-fg``, ``ansi-bold``...) and its reading of the codes
(bold brightens the eight basic colours; 256-colour and 24-bit colours become inline
styles), so the site's CSS for notebook outputs applies. Written here rather than
taken from nbconvert so that showing a saved notebook needs none of Jupyter's kernel
stack, which nbconvert depends on; tests/test_ansi.py compares it with nbconvert's
``ansi2html`` on generated text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from markupsafe import Markup, escape

ESCAPE = re.compile("\x1b\\[(.*?)([@-~])")     # a control sequence; only those ending in "m" set colours
NAMES = ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white")
Colour = int | tuple[int, int, int] | None     # a palette index 0-15, an RGB triple, or the default


@dataclass(frozen=True)
class Style:
    fg: Colour = None
    bg: Colour = None
    bold: bool = False
    underline: bool = False
    inverse: bool = False

    def tags(self) -> tuple[str, str]:
        """The span that gives text this style ("" around unstyled text)."""
        if self == PLAIN:
            return "", ""
        fg = self.fg + 8 if self.bold and isinstance(self.fg, int) and self.fg < 8 else self.fg
        bg = self.bg
        if self.inverse:
            fg, bg = bg, fg
        classes, styles = [], []
        for colour, layer, prop in ((fg, "fg", "color"), (bg, "bg", "background-color")):
            if isinstance(colour, int):
                classes.append(f"{_class(colour)}-{layer}")
            elif colour:
                styles.append("{}: rgb({},{},{})".format(prop, *colour))
            elif self.inverse:
                classes.append(f"ansi-default-inverse-{layer}")
        classes += ["ansi-bold"] * self.bold + ["ansi-underline"] * self.underline
        start = "<span" + (f' class="{" ".join(classes)}"' if classes else "")
        start += (f' style="{"; ".join(styles)}"' if styles else "") + ">"
        return start, "</span>"


PLAIN = Style()


def ansi_to_html(text: str) -> Markup:
    """``text`` escaped, each run of it in a span for its colours; other control sequences dropped."""
    text = str(escape(text))
    out, style, at = [], PLAIN, 0
    for match in ESCAPE.finditer(text):
        out.append(_styled(text[at:match.start()], style))
        at = match.end()
        if match.group(2) == "m":
            try:
                codes = [int(code) if code else 0 for code in match.group(1).split(";")]
            except ValueError:
                continue        # not a colour code after all: ignored, as terminals do
            style = _apply(style, codes)
    out.append(_styled(text[at:], style))
    return Markup("".join(out))


def _styled(chunk: str, style: Style) -> str:
    if not chunk:
        return ""
    start, end = style.tags()
    return start + chunk + end


def _apply(style: Style, codes: list[int]) -> Style:
    """``style`` after the select-graphic-rendition ``codes`` of one sequence."""
    while codes:
        code = codes.pop(0)
        if code == 0:
            style = PLAIN
        elif code in (1, 5):                    # blinking shows as bold
            style = replace(style, bold=True)
        elif code in (21, 22):
            style = replace(style, bold=False)
        elif code in (4, 24):
            style = replace(style, underline=code == 4)
        elif code in (7, 27):
            style = replace(style, inverse=code == 7)
        elif 30 <= code <= 37 or 90 <= code <= 97:
            style = replace(style, fg=code % 10 + (8 if code >= 90 else 0))
        elif 40 <= code <= 47 or 100 <= code <= 107:
            style = replace(style, bg=code % 10 + (8 if code >= 100 else 0))
        elif code in (39, 49):
            style = replace(style, **{"fg" if code == 39 else "bg": None})
        elif code in (38, 48):
            colour = _extended(codes)
            if colour is None:
                codes.clear()                   # the rest of a broken colour is not read as codes
            else:
                style = replace(style, **{"fg" if code == 38 else "bg": colour})
    return style


def _extended(codes: list[int]) -> Colour:
    """The colour of ``38;5;N`` or ``38;2;R;G;B`` (taking its numbers off ``codes``), None if broken."""
    kind = codes.pop(0) if codes else None
    if kind == 2 and len(codes) >= 3:
        rgb = (codes.pop(0), codes.pop(0), codes.pop(0))
        return rgb if all(0 <= c <= 255 for c in rgb) else None
    if kind == 5 and codes:
        index = codes.pop(0)
        if 0 <= index < 16:
            return index
        if 16 <= index < 232:               # the 6x6x6 cube
            return tuple(55 + 40 * level if level else 0
                         for level in ((index - 16) // 36, (index - 16) % 36 // 6, (index - 16) % 6))
        if 232 <= index < 256:              # the greys
            return ((index - 232) * 10 + 8,) * 3
    return None


def _class(index: int) -> str:
    return f"ansi-{NAMES[index % 8]}" + ("-intense" if index >= 8 else "")
