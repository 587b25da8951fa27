"""``sitegen help``: the user guide, read offline from the installed package.

The guide is the README, which the package's metadata carries whole (pyproject's
``readme``), so a wheel installed anywhere has it without a second copy to keep.
Its ``##`` sections are the topics.
"""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

from generator.errors import SiteError

DISTRIBUTION = "sitegen-oss"


def guide_text() -> str:
    """The README as installed with the package (a checkout's own, which may be newer than
    what its editable install recorded, when run from one)."""
    checkout = Path(__file__).resolve().parents[1]
    if (checkout / "pyproject.toml").is_file() and (checkout / "README.md").is_file():
        return (checkout / "README.md").read_text(encoding="utf-8")
    try:
        text = metadata.metadata(DISTRIBUTION).get_payload()
    except metadata.PackageNotFoundError:
        text = None
    if not text:
        raise SiteError("the user guide is not installed with this copy of sitegen "
                        "(install it with pip to read it offline)")
    return text


def topics(text: str) -> dict[str, str]:
    """Each ``##`` section of ``text`` by its heading, in order."""
    sections: dict[str, str] = {}
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    for heading, body in zip(parts[1::2], parts[2::2]):
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
