"""``sitegen help``: the user guide, read offline from the installed package.

The guide is the README, then the CHANGELOG, which the package's metadata carries
whole (pyproject's ``readme`` joins the two files), so a wheel installed anywhere
has them without a second copy to keep. The README's ``##`` sections are the
topics, and the changelog one more.
"""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

from generator.errors import SiteError

DISTRIBUTION = "sitegen-oss"
CHANGELOG = re.compile(r"^# (Changelog)\s*$", re.M)     # where the CHANGELOG starts, and its topic


def guide_text() -> str:
    """The README and CHANGELOG as installed with the package (a checkout's own, which may be
    newer than what its editable install recorded, when run from one)."""
    checkout = Path(__file__).resolve().parents[1]
    if (checkout / "pyproject.toml").is_file() and (checkout / "README.md").is_file():
        return "\n".join((checkout / name).read_text(encoding="utf-8") for name in ("README.md", "CHANGELOG.md")
                         if (checkout / name).is_file())
    try:
        text = metadata.metadata(DISTRIBUTION).get_payload()
    except metadata.PackageNotFoundError:
        text = None
    if not text:
        raise SiteError("the user guide is not installed with this copy of sitegen "
                        "(install it with pip to read it offline)")
    return text


def topics(text: str) -> dict[str, str]:
    """Each ``##`` section of the guide in ``text`` by its heading, in order; then the changelog."""
    sections: dict[str, str] = {}
    guide, *changelog = CHANGELOG.split(text, maxsplit=1)
    parts = re.split(r"^## (.+)$", guide, flags=re.M)
    for heading, body in [*zip(parts[1::2], parts[2::2]), *([changelog] if changelog else [])]:
        sections[heading.strip()] = f"{heading.strip()}\n{'=' * len(heading.strip())}\n{body.strip()}\n"
    return sections


def find_topic(text: str, words: str) -> str:
    """The section whose heading holds every word asked for (case aside); one line naming the
    topics if none or several do."""
    sections = topics(text)
    wanted = words.lower().split()
    found = [heading for heading in sections if all(word in heading.lower() for word in wanted)]
    if len(found) == 1:
        return sections[found[0]]
    exact = [heading for heading in found if heading.lower() == words.lower()]
    if len(exact) == 1:
        return sections[exact[0]]
    choices = found or list(sections)
    raise SiteError(f"help {words!r}: {'several topics match' if found else 'no such topic'}; "
                    f"topics: {'; '.join(h.lower() for h in choices)}")


def topic_list(text: str) -> str:
    return "topics ('sitegen help TOPIC', a word of the title is enough):\n" + "".join(
        f"  {heading}\n" for heading in topics(text))
