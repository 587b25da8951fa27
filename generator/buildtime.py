"""Jekyll's ``site.time`` and Liquid's ``"now"``: the time of the build, one for all its pages.

A page showing the time would differ from one build to the next, and an incremental build
from a clean one made a moment later. So templates read it through :class:`BuildTime`, which
records, for each format a page shows it in, the key ``("time", format)``: the builder makes
a page again exactly when its text of the time changes (a ``"%Y"`` footer once a year,
``{{ site.time }}`` on every build), as a clean build would. ``SOURCE_DATE_EPOCH`` (the
reproducible-builds.org convention) fixes the time, so that the same sources give the same
bytes.
"""

from __future__ import annotations

import os
import re
from datetime import datetime, timedelta

from generator.errors import SiteError
from generator.tracing import record

# Ruby's Time#to_s, which Jekyll's {{ site.time }} prints.
RUBY_TIME = "%Y-%m-%d %H:%M:%S %z"
NOW = ("now", "today")      # what Liquid's date filter reads as the current time


def build_time(now: datetime) -> datetime:
    """The build's time: ``SOURCE_DATE_EPOCH`` if set (in ``now``'s time zone), else ``now``."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch:
        return now.replace(microsecond=0)     # Jekyll shows it to the second
    if not epoch.isdigit():
        raise SiteError(f"SOURCE_DATE_EPOCH: expected whole seconds since 1970, got {epoch[:40]!r}")
    return datetime.fromtimestamp(int(epoch), now.tzinfo)


# strftime's directives by the unit whose turn changes what they print (finest first).
UNITS = (("second", "SsTcXrf"), ("minute", "MR"), ("hour", "HIlkp"), ("day", "daAejuwDxFUWVgGZz"),
         ("month", "mbBh"), ("year", "YyCG"))


def changes_at(fmt: str, time: datetime) -> datetime | None:
    """The first moment after ``time`` at which ``time`` shown in ``fmt`` may read otherwise
    (the next year for ``"%Y"``); None if it never does. A build after it makes the pages
    showing it again (the state's horizon), a build before it has nothing to make."""
    used = set(re.findall(r"%[-_0^#]?([A-Za-z])", fmt)) if fmt != "iso" else {"S"}
    unit = next((name for name, letters in UNITS if used & set(letters)), None)
    if unit is None:
        return None
    if unit == "second":
        return time + timedelta(seconds=1)
    if unit == "minute":
        return time.replace(second=0, microsecond=0) + timedelta(minutes=1)
    if unit == "hour":
        return time.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    day = time.replace(hour=0, minute=0, second=0, microsecond=0)
    if unit == "day":
        return day + timedelta(days=1)
    if unit == "month":
        return day.replace(day=1, month=time.month % 12 + 1, year=time.year + (time.month == 12))
    return day.replace(day=1, month=1, year=time.year + 1)


class BuildTime:
    """``site.time`` in templates: the build's time, recorded in the format a page shows it in."""

    __slots__ = ("time",)

    def __init__(self, time: datetime):
        self.time = time

    def format(self, fmt: str = RUBY_TIME) -> str:
        record(("time", fmt))
        return self.time.isoformat() if fmt == "iso" else self.time.strftime(fmt)

    def __str__(self) -> str:
        return self.format()

    def __html__(self) -> str:
        return self.format()
