"""Time to draw one social card (generator/outputs/social.py), on the header's colour and on a picture.

    .venv/bin/python benchmarks/bench_social_cards.py [cards per round]

Three rounds each; prints the milliseconds per card of each round and their median.
"""

from __future__ import annotations

import io
import statistics
import sys
import time

from PIL import Image

from generator.outputs.social import draw


def per_card(count: int, background: bytes | None) -> list[float]:
    titles = [f"Post number {i}: a title of a typical length about compilers and tensors" for i in range(count)]
    draw("warm up", "Site", background, "#1d2330")
    rounds = []
    for _ in range(3):
        start = time.perf_counter()
        for title in titles:
            draw(title, "Test Site", background, "#1d2330")
        rounds.append((time.perf_counter() - start) / count * 1000)
    return rounds


def main(count: int) -> None:
    picture = io.BytesIO()
    Image.new("RGB", (1600, 900), "#336699").save(picture, "PNG")
    for name, background in (("colour", None), ("picture", picture.getvalue())):
        rounds = per_card(count, background)
        print(f"{name}: {', '.join(f'{r:.1f}' for r in rounds)} ms per card; median {statistics.median(rounds):.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
