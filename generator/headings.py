"""A document's outline: each heading its reader found, with the id it links to.

Its own module, beside nothing, because documents hold headings and documents
are read back from the caches by builds that have nothing to parse: they must
not pay for loading Markdown.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator import codec


@codec.record
@dataclass(frozen=True)
class Heading:
    level: int
    id: str
    title: str
