"""A site's colours from two settings: the light and dark palettes derived, and their contrast checked.

A site that sets ``theme.colors`` recolours the theme without a copy of its
stylesheet: the primary colour is that of links (on the page's paper), the accent
that of the header bar (under its white text). The dark palette is derived from the
same hues, lightened (links) or darkened (the header) until they read on the dark
backgrounds, so that a recoloured site has no dark mode left in the old colours. A colour
too faint to read on the light backgrounds stops the build, naming the nearest one that
reads (WCAG 2: 4.5:1 for text).
"""

from __future__ import annotations

import colorsys
import re

HEX = re.compile(r"#(?:[0-9a-fA-F]{3}){1,2}")
MINIMUM = 4.5                       # WCAG 2 AA for body text
# What links are read on (site.css: --paper, --tint, --note, --warn), light and dark: a colour
# must read on each of them.
LIGHT = ("#ffffff", "#f5f6f9", "#eef4fc", "#fdf6ea")
DARK = ("#12161e", "#1b212b", "#16243a", "#2e2412")
HEADER_TEXT = "#ffffff"             # the header bar's text, in both modes


def parse(color: str) -> tuple[float, float, float]:
    """``#rgb`` or ``#rrggbb`` as red, green, blue in 0..1."""
    digits = color[1:] if len(color) == 7 else "".join(c * 2 for c in color[1:])
    return tuple(int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4))


def to_hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(min(max(c, 0.0), 1.0) * 255):02x}" for c in rgb)


def luminance(color: str) -> float:
    """WCAG 2's relative luminance."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in parse(color)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(color: str, *against: str) -> float:
    """WCAG 2's contrast ratio of ``color`` with the least distinct of ``against``, 1 to 21."""
    ratios = []
    for other in against:
        high, low = sorted((luminance(color), luminance(other)), reverse=True)
        ratios.append((high + 0.05) / (low + 0.05))
    return min(ratios)


def with_lightness(color: str, lightness: float) -> str:
    hue, _, saturation = colorsys.rgb_to_hls(*parse(color))
    return to_hex(colorsys.hls_to_rgb(hue, min(max(lightness, 0.0), 1.0), saturation))


def reading(color: str, against: tuple[str, ...], lighter: bool) -> str:
    """``color``, itself if it reads on each of ``against``, else its hue made lighter (or darker)
    by the least step that reads."""
    _, lightness, _ = colorsys.rgb_to_hls(*parse(color))
    step = 0.01 if lighter else -0.01
    candidate = to_hex(parse(color))
    while contrast(candidate, *against) < MINIMUM and 0.0 <= lightness <= 1.0:
        lightness += step
        candidate = with_lightness(color, lightness)
    return candidate


def shift(color: str, amount: float) -> str:
    """``color`` with its lightness moved by ``amount`` (a hover's shade)."""
    _, lightness, _ = colorsys.rgb_to_hls(*parse(color))
    return with_lightness(color, lightness + amount)


def problem(key: str, color: str) -> str:
    """Why ``color`` cannot be setting ``key`` (``primary`` or ``accent``), or "" if it can."""
    if not HEX.fullmatch(color):
        return f"expected a colour as #rrggbb or #rgb, got {color!r}"
    against, what = (LIGHT, "on the theme's light backgrounds") if key == "primary" \
        else ((HEADER_TEXT,), "under the header's white text")
    ratio = contrast(color, *against)
    if ratio >= MINIMUM:
        return ""
    better = reading(color, against, lighter=False)
    return f"{color} has a contrast of {ratio:.2f}:1 {what}; text needs {MINIMUM}:1 (try {better})"


def stylesheet(primary: str, accent: str) -> str:
    """The theme's colour variables for these colours, light then dark (derived)."""
    light, dark = [], []
    if primary:
        link = to_hex(parse(primary))
        light += [f"--accent: {link}", f"--accent-dark: {shift(link, -0.12)}"]
        night = reading(link, DARK, lighter=True)
        dark += [f"--accent: {night}", f"--accent-dark: {reading(shift(night, 0.1), DARK, lighter=True)}"]
    if accent:
        bar = to_hex(parse(accent))
        _, lightness, _ = colorsys.rgb_to_hls(*parse(bar))
        light.append(f"--header: {bar}")
        dark.append(f"--header: {with_lightness(bar, lightness * 0.55)}")
    if not light:
        return ""
    night = "; ".join(dark)
    return (f':root {{ {"; ".join(light)}; }}\n'
            f':root[data-theme="dark"] {{ {night}; }}\n'
            f'@media (prefers-color-scheme: dark) {{ :root:not([data-theme="light"]) {{ {night}; }} }}\n')
