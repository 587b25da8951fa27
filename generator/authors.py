"""The authors of posts: the people of ``content/data/authors.yml``, and what each one wrote.

The data file maps a key to a person::

    mei-lin:
      name: Mei Lin
      link: https://example.org/~mei        # optional: their own page
      avatar: /assets/images/authors/mei.svg   # optional: a file this site publishes
      bio: Works on the GPU code generators.  # optional

A post's ``author`` (or ``authors``) names a person by key or by name; a
name the file does not hold is shown as it is written, with no page. The
file is read only while site.yaml ``archives.authors`` makes author pages:
with ``false`` it is a data file like any other (an imported Jekyll theme's
``authors.yml`` has a schema of its own).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from generator.config import Config, check_link, load_section
from generator.errors import SiteError
from generator.layout import DATA
from generator.sources import DATA_SUFFIXES

DATA_NAME = "authors"      # site.data.authors: content/data/authors.yml


@dataclass(frozen=True)
class Author:
    """One person of the data file (its fields are the file's keys)."""

    name: str
    link: str = ""
    avatar: str = ""        # a path of this site: the check forbids third-party requests
    bio: str = ""
    key: str = field(default="", metadata={"internal": True})

    def validate(self, path: Path, prefix: str) -> None:
        if not self.name.strip():
            raise SiteError(f"key '{prefix}name': an author needs a name", path)
        check_link(self.link, f"{prefix}link", path)
        parts = urlsplit(self.avatar)
        if parts.scheme or parts.netloc:
            raise SiteError(f"key '{prefix}avatar': {self.avatar!r} is on another host: put the image "
                            "in the site (assets/...) and give its path, e.g. /assets/images/authors/"
                            f"{prefix.rstrip('.')}.png", path)

    @property
    def avatar_url(self) -> str:
        """The avatar as a path of the site: ``images/a.png`` is ``/images/a.png``."""
        return "/" + self.avatar.lstrip("/") if self.avatar else ""


def data_file(config: Config) -> Path:
    """The data file as errors name it: ``content/data/authors.yml`` (or ``.yaml``)."""
    found = [DATA + "/" + DATA_NAME + suffix for suffix in DATA_SUFFIXES
             if (config.root / DATA / (DATA_NAME + suffix)).is_file()]
    return Path(found[0] if found else f"{DATA}/{DATA_NAME}{DATA_SUFFIXES[0]}")


def read_people(config: Config, data: dict[str, Any]) -> dict[str, Author]:
    """The data file's people, key -> :class:`Author`, checked as site.yaml is checked;
    none when author pages are off or there is no file."""
    if config.archives.authors is False or DATA_NAME not in data:
        return {}
    path, entries = data_file(config), data[DATA_NAME]
    if entries is None:
        return {}
    if not isinstance(entries, dict):
        raise SiteError("expected a mapping of author keys to their name, link, avatar and bio", path)
    people: dict[str, Author] = {}
    for key, entry in entries.items():
        key = str(key)
        if not isinstance(entry, dict):
            raise SiteError(f"key '{key}': expected a mapping with keys name, link, avatar, bio "
                            f"(at least name), got {entry!r}", path)
        people[key] = dataclasses.replace(load_section(Author, entry, path, key), key=key)
    return people


def directory(people: dict[str, Author], path: Path) -> dict[str, str]:
    """What a post may write as ``author`` -> the key it means: every key, then every name
    that is not a key; two people of one name would be a guess, so that is an error."""
    found = {key: key for key in people}
    for key, person in people.items():
        if person.name in found and person.name not in people:
            raise SiteError(f"keys '{found[person.name]}' and '{key}' have the same name "
                            f"{person.name!r}: posts could not say which one they mean", path)
        found.setdefault(person.name, key)
    return found


def posts_by_author(posts: list, people: dict[str, Author], path: Path) -> dict[str, list]:
    """Each person's posts (newest first, as ``posts`` are), for every key of the file."""
    known = directory(people, path)
    written: dict[str, list] = {key: [] for key in people}
    for post in posts:
        for key in dict.fromkeys(known[name] for name in post.authors if name in known):
            written[key].append(post)
    return written


def check_avatars(people: dict[str, Author], published: Mapping[str, Any], path: Path) -> None:
    """Every avatar must be a file the site publishes (``published``: the planned paths)."""
    for key, person in people.items():
        if person.avatar and unquote(urlsplit(person.avatar_url).path).lstrip("/") not in published:
            raise SiteError(f"key '{key}.avatar': the site has no file {person.avatar!r} "
                            "(put it in assets/ or a static folder, or leave the avatar out)", path)
