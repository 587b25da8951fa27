"""Ruby's ``Time.parse`` (``Date._parse``), by which Jekyll reads a front matter ``date`` and Liquid's
``date`` filters read text: it picks a date and a time out of free text (``16 April 2010``,
``April 16, 2010``, ``16/04/2010``, ``2025-04-11T01:36:45 1744335405``), leaving the rest unread.

The parsers run in Ruby's order, each blanking what it read, and the first date form found
wins; an offset counts only right after the time (``18:30:22 2023 -0800`` has none, so it is
local time, as in Ruby). Ruby's rarer forms (week dates, JIS eras, bare digit runs) are not
read: :func:`ruby_time` gives None for them, as for text Ruby cannot read either, and the
caller says so at the file and key.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = "(" + "|".join(MONTHS) + ")"
_ERA = r"(c(?:e|\.e\.)|b(?:ce|\.c\.e\.)|a(?:d|\.d\.)|b(?:c|\.c\.))"
# The zone names Ruby's Time.zone_offset knows (hours); another name is read as no offset (CEST too).
ZONES = {"z": 0, "ut": 0, "utc": 0, "gmt": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6,
         "pst": -8, "pdt": -7}

_NOT_DATE = re.compile(r"[^-+',./:@\w\[\]]+|_")
_DAY = re.compile(r"\b(sun|mon|tue|wed|thu|fri|sat)[^-/\d\s]*", re.I)
_TIME = re.compile(
    r"((?:\d+\s*:\s*\d+(?:\s*:\s*\d+(?:[,.]\d*)?)?|\d+\s*h(?:\s*\d+m?(?:\s*\d+s?)?)?)(?:\s*[ap](?:m\b|\.m\.))?"
    r"|\d+\s*[ap](?:m\b|\.m\.))"
    r"(?:\s*((?:gmt|utc?)?[-+]\d+(?:[,.:]\d+(?::\d+)?)?|(?-i:[A-Za-z.\s]+)(?:standard|daylight)\stime\b"
    r"|(?-i:[A-Za-z]+)(?:\sdst)?\b))?", re.I)
_TIME_PARTS = re.compile(r"\A(\d+)h?(?:\s*:?\s*(\d+)m?(?:\s*:?\s*(\d+)(?:[,.](\d+))?s?)?)?(?:\s*([ap])(?:m\b|\.m\.))?",
                         re.I)
_EU = re.compile(rf"'?\b(\d+)[^-\d\s']*\s*{_MONTH}[^-\d\s']*(?:\s*{_ERA}?\s*('?-?\d+(?:(?:st|nd|rd|th)\b)?))?", re.I)
_US = re.compile(rf"\b{_MONTH}[^-\d\s']*\s*('?\d+)[^-\d\s']*(?:\s*,?\s*{_ERA}?\s*('?-?\d+))?", re.I)
_ISO = re.compile(r"('?[-+]?\d+)-(\d+)-('?-?\d+)")
_VMS = re.compile(rf"('?-?\d+)-{_MONTH}[^-/.]*-('?-?\d+)", re.I)
_SLASH = re.compile(r"('?-?\d+)/\s*('?\d+)(?:\D\s*('?-?\d+))?")
_DOT = re.compile(r"('?-?\d+)\.\s*('?\d+)\.\s*('?-?\d+)")
_YEAR = re.compile(r"'(\d+)\b")
_MON = re.compile(rf"\b{_MONTH}\S*", re.I)
_MDAY = re.compile(r"(\d+)(st|nd|rd|th)\b", re.I)


def ruby_time(text: str, now: datetime | None = None) -> datetime | None:
    """``Time.parse(text, now)``: naive where the text gives no offset (Ruby's local time),
    aware where it does; what the text leaves out before its first given part is ``now``'s
    (without ``now``, a text with no year is None). None where Ruby raises ArgumentError."""
    found = _parse(text)
    if not found:
        return None     # "no time information"
    if now is not None:
        for key in ("year", "mon", "mday", "hour", "min", "sec"):
            if key in found:
                break
            found[key] = getattr(now, {"mon": "month", "mday": "day", "min": "minute", "sec": "second"}.get(key, key))
    if "year" not in found:
        return None
    try:
        # Ruby's Time takes a day up to 31 and runs on into the next month (February 30 is March 2).
        if not 1 <= found.get("mday", 1) <= 31:
            return None
        start = datetime(found["year"], found.get("mon", 1), 1, found.get("hour", 0), found.get("min", 0),
                         min(found.get("sec", 0), 59), found.get("usec", 0))
    except ValueError:
        return None     # "argument out of range"
    result = start + timedelta(days=found.get("mday", 1) - 1)
    offset = _offset(found.get("zone"))
    return result if offset is None else result.replace(tzinfo=timezone(timedelta(seconds=offset)))


def _parse(text: str) -> dict:
    """Ruby's ``Date._parse(text)``, for the forms this module reads."""
    s = _NOT_DATE.sub(" ", text)
    found: dict = {}

    def take(pattern: re.Pattern, read) -> bool:
        nonlocal s
        match = pattern.search(s)
        if not match:
            return False
        s = s[:match.start()] + " " + s[match.end():]
        read(match)
        return True

    take(_DAY, lambda m: None)
    take(_TIME, lambda m: _read_time(m, found))
    month = lambda name: str(MONTHS.index(name[:3].lower()) + 1)     # noqa: E731 - one line
    (take(_EU, lambda m: _s3e(found, m.group(4), month(m.group(2)), m.group(1), _bc(m.group(3))))
     or take(_US, lambda m: _s3e(found, m.group(4), month(m.group(1)), m.group(2), _bc(m.group(3))))
     or take(_ISO, lambda m: _s3e(found, m.group(1), m.group(2), m.group(3)))
     or take(_VMS, lambda m: _s3e(found, m.group(3), month(m.group(2)), m.group(1)))
     or take(_SLASH, lambda m: _s3e(found, m.group(1), m.group(2), m.group(3)))
     or take(_DOT, lambda m: _s3e(found, m.group(1), m.group(2), m.group(3)))
     or take(_YEAR, lambda m: found.update(year=int(m.group(1))))
     or take(_MON, lambda m: found.update(mon=int(month(m.group(1)))))
     or take(_MDAY, lambda m: found.update(mday=int(m.group(1)))))
    if found.pop("_comp", False) and 0 <= found.get("year", -1) <= 99:
        found["year"] += 1900 if found["year"] >= 69 else 2000
    if found.pop("_bc", False) and "year" in found:
        found["year"] = 1 - found["year"]
    return found


def _bc(era: str | None) -> bool:
    return bool(era) and era[0].lower() == "b"


def _read_time(match: re.Match, found: dict) -> None:
    parts = _TIME_PARTS.match(match.group(1))
    hour = int(parts.group(1))
    if parts.group(5):
        hour = hour % 12 + (12 if parts.group(5).lower() == "p" else 0)
    found["hour"] = hour
    if parts.group(2):
        found["min"] = int(parts.group(2))
    if parts.group(3):
        found["sec"] = int(parts.group(3))
    if parts.group(4):
        found["usec"] = int((parts.group(4) + "000000")[:6])
    if match.group(2):
        found["zone"] = match.group(2)


def _s3e(found: dict, y: str | None, m: str | None, d: str | None, bc: bool = False) -> None:
    """Ruby's ``s3e``: which of three numbers is the year, the month and the day (a number of
    more than two digits, or one written ``'10``, is a year: ``16/04/2010`` is 2010-04-16)."""
    if y is not None and m is not None and d is None:
        y, m, d = d, y, m
    if y is None:
        if d is not None and (len(d) > 2 or d.startswith("'")):
            y, d = d, None
    if y is not None:
        digits = re.match(r"\D*?([-+]?)(\d*)(.*)", y, re.S)
        if digits.group(3):
            y, d = d, y.lstrip("'")
    if m is not None and (m.startswith("'") or len(m) > 2):
        y, m, d = m, d, y
    if d is not None and (d.startswith("'") or len(d) > 2):
        y, d = d, y
    if y is not None:
        sign, digits = re.match(r"\D*?([-+]?)(\d*)", y).groups()
        found["year"] = int(sign + digits) if digits else 0
        if not y.startswith("'") and not sign and len(digits) <= 2:
            found["_comp"] = True
    if bc:
        found["_bc"] = True
    if m is not None:
        found["mon"] = int(re.search(r"\d+", m).group(0))
    if d is not None:
        found["mday"] = int(re.search(r"\d+", d).group(0))


def _offset(zone: str | None) -> int | None:
    """Seconds east of UTC that Ruby's ``zone_offset`` gives a zone; None for a name it does not know."""
    if not zone:
        return None
    text = zone.strip().lower()
    numeric = re.fullmatch(r"(?:gmt|utc?)?([-+])(\d+)(?:[,.:](\d+)(?::(\d+))?)?", text)
    if numeric:
        sign, hours, minutes, seconds = numeric.groups()
        if minutes is None and len(hours) > 2:      # +0800, +080000
            hours, minutes, seconds = hours[:-2] if len(hours) <= 4 else hours[:-4], \
                hours[-2:] if len(hours) <= 4 else hours[-4:-2], None if len(hours) <= 4 else hours[-2:]
        total = int(hours) * 3600 + int(minutes or 0) * 60 + int(seconds or 0)
        return -total if sign == "-" else total
    return None if ZONES.get(text) is None else ZONES[text] * 3600
