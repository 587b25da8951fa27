"""One exception type for everything a site author can get wrong.

Every stage raises :class:`SiteError` with the file (and line or key) at
fault, so the command line can print one clear line and exit non-zero.
"""

from __future__ import annotations

from pathlib import Path


class SiteError(Exception):
    """An error in the site's input, located at ``path`` (and ``line``)."""

    def __init__(self, message: str, path: str | Path | None = None,
                 line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line

    def __reduce__(self):
        # Pickled with its place, so that an error raised on a Dask worker still names the file.
        return type(self), (self.message, self.path, self.line)

    def __str__(self) -> str:
        where = self.path or ""
        if where and self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}" if where else self.message


def warning(message: str, path: str | Path | None = None, line: int | None = None) -> str:
    """A warning as the build reports it: ``file:line: warning: message``."""
    return str(SiteError(f"warning: {message}", path, line))


def warning_line(error: SiteError) -> str:
    """An error that a setting softened into a warning, as :func:`warning` words it."""
    return warning(error.message, error.path, error.line)
