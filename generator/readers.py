"""Readers: a source's body to HTML, chosen by the file's suffix.

A reader says which suffixes it reads and what, besides the source's own
bytes, its output depends on (library versions, settings): that goes into the
parse cache's key, so upgrading Python-Markdown re-parses the Markdown pages
and nothing else has to remember it. Adding a format is one class here (or in
a plugin, see :mod:`generator.plugins`) and one line in :func:`readers`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from generator import installed
from generator.config import Config
from generator.errors import SiteError, warning
from generator.headings import Heading
from generator.plugins import extensions

if TYPE_CHECKING:   # a reader reads a Source; finding sources asks the readers for their suffixes
    from generator.sources import Source


@dataclass(frozen=True)
class Parsed:
    """What a reader makes of a body: the HTML, its headings (for a table of contents) and
    warnings of what it did not render (``file:line: warning: ...``)."""

    html: str
    toc: tuple[Heading, ...] = ()
    warnings: tuple[str, ...] = ()


class Reader(Protocol):
    suffixes: tuple[str, ...]

    def cache_key(self, config: Config) -> tuple[str, ...]:
        """What the output depends on besides the source's bytes."""

    def read(self, text: str, source: Source, config: Config) -> Parsed:
        """``text``, the body of ``source`` (front matter split off, Liquid run), as HTML."""


class MarkdownReader:
    """kramdown-flavoured Markdown (``generator.markdown``), code highlighted by Pygments."""

    suffixes = (".md", ".markdown")

    def cache_key(self, config: Config) -> tuple[str, ...]:
        # By the installed versions, not by importing them: a build parsing nothing here loads none.
        versions = (installed.version(name) or "" for name in ("Markdown", "pymdown-extensions", "Pygments"))
        return ("markdown", *versions, repr(config.markdown))

    def read(self, text: str, source: Source, config: Config) -> Parsed:
        from generator.markdown import MarkdownProblem, render_markdown   # loaded by the first parse
        from generator.myst import repeats

        try:
            rendered = render_markdown(text, **config.markdown.options())
        except MarkdownProblem as exc:   # lines counted after Liquid ran: near, if Liquid added lines
            raise SiteError(str(exc), source.path, source.body_line + exc.line - 1) from None
        before = source.body_line - 1       # the lines before the body's first
        repeated = [(repeat.line, repeat.message(f"line {before + repeat.first_line}")) for repeat in repeats([text])]
        return Parsed(rendered.html, rendered.toc, tuple(warning(message, source.path, before + line)
                                                         for line, message in [*rendered.warnings, *repeated]))


class HtmlReader:
    """HTML bodies, published as they are written."""

    suffixes = (".html",)

    def cache_key(self, config: Config) -> tuple[str, ...]:
        return ("html", config.markdown.excerpt_separator)   # an excerpt is cut from the body

    def read(self, text: str, source: Source, config: Config) -> Parsed:
        return Parsed(text)


@functools.cache
def readers() -> dict[str, Reader]:
    """Suffix -> reader: the built-ins, then the plugins' (a plugin may take over a suffix)."""
    found: dict[str, Reader] = {}
    for reader in (MarkdownReader(), HtmlReader(), *extensions().readers):
        found.update(dict.fromkeys(reader.suffixes, reader))
    return found


def suffixes() -> tuple[str, ...]:
    """The suffixes of the files that are posts, pages or docs pages."""
    return tuple(readers())


def reader_for(path: Path) -> Reader:
    return readers()[path.suffix]
