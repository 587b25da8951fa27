"""Social cards: a picture for each post and page, its title and the site's name drawn on the
site's card, for link previews of pages whose front matter names no ``image``.

On with site.yaml ``theme.social_cards: true``. The card is 1200x630 (what link previews show
best), at ``/assets/social/`` and the page's path (``/2024/01/02/post.html`` ->
``/assets/social/2024/01/02/post.png``); ``partials/meta.html`` names it in ``og:image``. Its
background is ``theme.social_card`` (a picture of the site, cropped to fit) or the header's
colour. The text is set in a subset of DejaVu Sans Bold shipped with the theme
(``themes/default/fonts``: Latin, Greek, Cyrillic), so the same title makes the same PNG on
every machine with the same Pillow.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from functools import cache, partial
from operator import attrgetter
from pathlib import Path

from generator.deps import record, warn
from generator.errors import SiteError, warning
from generator.layout import ASSETS, DEFAULT_THEME
from generator.outputs import PlanContext, Planner
from generator.plan import Plan
from generator.site import Document

SIZE = (1200, 630)
MARGIN = 80
FONT = DEFAULT_THEME / "fonts" / "DejaVuSans-Bold.ttf"
DEFAULT_BACKGROUND = "#1d2330"         # the theme's --header
FOLDER = f"{ASSETS}/social"
# What the font draws (the subset of fonts/README.md): other characters show as boxes.
DRAWN = ((0x20, 0x7E), (0xA0, 0x17F), (0x370, 0x3FF), (0x400, 0x45F), (0x2010, 0x2027), (0x2030, 0x203A),
         (0x20AC, 0x20AC), (0x2122, 0x2122))


@dataclass(frozen=True)
class Social:
    """How pages look where a link to them is shared: their OpenGraph and Twitter card."""

    image: str = ""       # the picture of pages whose front matter names none (image, preview_image)
    twitter: str = ""     # the site's account, "@name" (twitter:site)

    def validate(self, path: Path, prefix: str) -> None:
        if self.image and not (self.image.startswith("/") or re.match(r"https?://[^/\s]+", self.image)):
            raise SiteError(f"key '{prefix}image': expected a path in the site starting with '/' or an "
                            f"http(s) URL, got {self.image!r}", path)
        if self.twitter and not re.fullmatch(r"@\w{1,50}", self.twitter):
            raise SiteError(f"key '{prefix}twitter': expected an account name such as @apachetvm, "
                            f"got {self.twitter!r}", path)


@dataclass(frozen=True)
class SocialSection:
    """site.yaml's ``social``, which every page's ``og:`` and ``twitter:`` tags read."""

    social: Social = field(default_factory=Social)


def card_url(url: str) -> str:
    """The URL of the card of the page at ``url``."""
    path = url + "index.html" if url.endswith("/") else url
    stem = path[:-len(".html")] if path.endswith(".html") else path
    return f"/{FOLDER}{stem}.png"


class SocialCards(Planner):
    name = "social-cards"
    section = SocialSection
    site_values = {"social": attrgetter("social")}

    def plan(self, ctx: PlanContext, plan: Plan) -> None:
        if not ctx.config.branding.social_cards:
            return
        for doc in ctx.site.documents:
            if doc.output_path.endswith(".html"):
                plan.add(card_url(doc.url)[1:], doc.source, partial(make_card, ctx, doc), "social card",
                         listed=False)


def make_card(ctx: PlanContext, doc: Document) -> bytes:
    """The card of ``doc``, read through the recording views: its title, the site's name and card."""
    branding = ctx.site_view["branding"]
    background = None
    if branding.social_card:
        rel = branding.social_card.lstrip("/")
        record(("file", rel))
        background = (ctx.config.root / rel).read_bytes()
    color = branding.colors.accent or DEFAULT_BACKGROUND
    title, site_name = ctx.views.document(doc).title or ctx.site_view["title"], ctx.site_view["title"]
    missing = "".join(sorted({c for c in title + site_name if not c.isspace() and not drawn(c)}))
    if missing:
        warn(warning(f"the social card shows {missing!r} as boxes: its font draws Latin, "
                     "Greek and Cyrillic letters", doc.source))
    return draw(title, site_name, background, color)


def drawn(char: str) -> bool:
    return any(low <= ord(char) <= high for low, high in DRAWN)


def draw(title: str, site_name: str, background: bytes | None, color: str) -> bytes:
    """A PNG card: ``title`` large (wrapped, made smaller until it fits in four lines), ``site_name``
    below, white on ``background`` (darkened under the text) or on ``color``."""
    from PIL import Image, ImageDraw, ImageOps

    if background is None:
        card = Image.new("RGB", SIZE, color)
    else:
        card = ImageOps.fit(Image.open(io.BytesIO(background)).convert("RGB"), SIZE)
        card = Image.blend(card, Image.new("RGB", SIZE, "#000000"), 0.55)
    pen = ImageDraw.Draw(card)
    width = SIZE[0] - 2 * MARGIN
    for size in (72, 64, 56, 48, 40):
        font = font_of(size)
        lines = wrap(title, font, width)
        if len(lines) <= 4:
            break
    if len(lines) > 4:
        lines = [*lines[:3], lines[3] + " \u2026"]
    y = MARGIN
    for line in lines:
        pen.text((MARGIN, y), line, font=font, fill="#ffffff")
        y += round(size * 1.25)
    small = font_of(34)
    pen.text((MARGIN, SIZE[1] - MARGIN - 34), site_name, font=small, fill="#ffffff")
    out = io.BytesIO()
    card.save(out, "PNG")
    return out.getvalue()


@cache
def font_of(size: int):
    """The card's font at ``size`` pixels, loaded once per process."""
    from PIL import ImageFont

    return ImageFont.truetype(str(FONT), size)


def wrap(text: str, font, width: int) -> list[str]:
    """``text`` in lines no wider than ``width`` (a word longer than that has a line of its own)."""
    lines: list[str] = []
    for word in text.split():
        if lines and font.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines
