"""The build's warnings of broken links, at the Markdown file and line that wrote them.

``sitegen check`` reads the built site and checks everything, at the output's lines; a build
warns of what an author most often breaks, where they wrote it: a link to a page of the site
that does not exist, an anchor that no element of the target page (or of the same page)
carries, an image that does not exist. It costs one pass over the planned files a build
already has: a document's links and ids are found once, when it is parsed (and kept with it),
and each build looks them up, so an incremental build warns exactly as a clean one.

Where a link was written: Python-Markdown keeps no positions, so a link's line is found by
its URL in the source, as other tools do: the line of its first occurrence after the place
of the link before it; else of its first occurrence anywhere (a reference definition used
twice); else the same for the URL without its first path segments (written with
``{{ site.baseurl }}``); else the body's first line.

Only documents' own HTML is looked at (not their templates'), and an anchor only on a target
that is a document (a generated page's ids are the template's); a link into a tree the
publish branch keeps (``publish.keep``) that this build makes nothing of is not known here.
The docs section's pages and tutorials (Markdown cells) are checked the same way, as
:class:`Linked` records its report carries: they are made before the rest of the plan is known.
Every linked page, a document or a :class:`Linked`, keeps its links' paths as written and
carries its URL, against which the check resolves them: one rule for all.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any
from urllib.parse import quote, unquote, urljoin, urlsplit

from generator import codec
from generator.errors import warning
from generator.urls import candidates, output_path

# An <a href> or <img src> of a document's HTML: the tag's name, then the URL, quoted either way.
# Each expression starts with a literal, which the search looks for first (a few times faster).
_REFERENCE = re.compile(r"""<(a|img|A|IMG)\s[^>]*?\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
# An id or name attribute (in text and code, quotes are escaped or made typographic); an
# attribute ending so (``data-id``) names nothing, and only spares a warning.
_ANCHORS = (re.compile(r"""id=(?:"([^"]*)"|'([^']*)')"""), re.compile(r"""name=(?:"([^"]*)"|'([^']*)')"""))
_KINDS = {"a": "link", "img": "image"}
# URLs whose scheme is plain as written (no entity or space to undo first): urlsplit's would be there.
_ELSEWHERE = ("https://", "http://")

# (source line, "link" or "image", the URL as written in the HTML, its path as written (the
# base URL still in), its #fragment decoded): found at the parse, resolved against the
# document's URL (its placement, which the parse does not know) and looked up by every build.
Link = tuple[int, str, str, str, str]


@codec.record
@dataclass(frozen=True)
class Linked:
    """A page of the docs section (a docs page, a tutorial) whose links a build checks as it
    checks its documents': once every file of the site is planned."""

    source: str                     # its file, as warnings name it
    url: str                        # its page's, against which its links are resolved
    links: tuple[Link, ...]
    anchors: tuple[str, ...]
    notes: tuple[str, ...] = ()     # a tutorial's, one a link: its cell and line, said first

    @property
    def output_path(self) -> str:
        return output_path(self.url)


def document_links(html: str, body: str, first_line: int) -> tuple[Link, ...]:
    """The links of a document's ``html`` that may point into the site, each at the line of
    ``body`` (whose first line is ``first_line`` of its file) that wrote it (module docstring),
    their paths as written: the check resolves them against the page's URL."""
    from html import unescape   # with the first parse: a build with nothing to do loads no entities

    found, at = [], 0
    for match in _REFERENCE.finditer(html):
        written = match.group(2) if match.group(2) is not None else match.group(3)
        if written.startswith(_ELSEWHERE):      # most links: a scheme, so not into the site
            continue
        url = unescape(written).strip()
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not url:
            continue
        where = _place_of(url, body, at)
        if where >= 0:
            at = where + 1
        found.append((first_line + body.count("\n", 0, max(where, 0)), _KINDS[match.group(1).lower()], url, parts.path,
                      unquote(parts.fragment)))
    return tuple(found)


_FROM_ROOT = re.compile(r"/(?!/)[\w\-.~!$&'()*+,=:@/ ]*")     # nothing urljoin would change


def site_path(path: str, page_url: str) -> str:
    """The site path (decoded, the base URL still in) that a link's ``path``, as written,
    names from the page at ``page_url`` (a site path too: decoded, so quoted to be joined).
    A path from the root with nothing to decode or resolve is that path already (most links:
    joining costs a build of 10,000 posts a tenth of a second)."""
    if _FROM_ROOT.fullmatch(path) and "/." not in path:
        return path
    return joined_path(path, page_url)


def joined_path(path: str, page_url: str) -> str:
    """:func:`site_path` the plain way, for every path."""
    return unquote(urljoin(quote(page_url), path))


def _place_of(url: str, body: str, start: int) -> int:
    """Where ``body`` holds ``url``: its first place from ``start`` on, else from the top; failing
    that, the same for ``url`` without its first path segments (``/docs/x.html`` of
    ``/project/docs/x.html``, which ``{{ site.baseurl }}/docs/x.html`` wrote); else -1."""
    written = url
    while written:
        place = body.find(written, start)
        if place < 0:
            place = body.find(written)
        if place >= 0:
            return place
        cut = written.find("/", 1)
        written = written[cut:] if cut > 0 and written.startswith("/") else ""
    return -1


def well_formed_links(links: object) -> bool:
    """Whether ``links`` (read from a cache) is what :func:`document_links` gives."""
    return isinstance(links, tuple) and all(
        isinstance(link, tuple) and len(link) == 5 and type(link[0]) is int
        and all(isinstance(part, str) for part in link[1:]) for link in links)


def document_anchors(html: str) -> tuple[str, ...]:
    """The ids (and ``<a name>``s) of a document's ``html``: what a ``#fragment`` may name."""
    from html import unescape
    return tuple(sorted({unescape(a or b) for pattern in _ANCHORS for a, b in pattern.findall(html)}))


def link_warnings(documents: Iterable, planned: Iterable[str], baseurl: str = "",
                  keep: Iterable[str] = ()) -> list[str]:
    """``file:line: warning: ...`` for each link of ``documents`` (their ``links``, ``anchors``,
    ``url``, ``output_path`` and ``source``; :class:`Linked` ones their ``notes``) to a page or
    image that none of the ``planned`` output paths is, or to an anchor its target document lacks."""
    planned = planned if isinstance(planned, (set, frozenset, Mapping)) else set(planned)
    documents = list(documents)
    anchors = {doc.output_path: doc.anchors for doc in documents}
    check = partial(page_warnings, planned=planned, anchors=anchors, base=baseurl.rstrip("/"),
                    unmade=unmade_trees(keep, planned))
    return [w for doc in documents for w in check(doc)[0]]


def unmade_trees(keep: Iterable[str], planned: Iterable[str]) -> tuple[str, ...]:
    """The trees the publish branch keeps (``publish.keep``) that none of the ``planned``
    output paths is in: links into them are not known here."""
    return tuple(k for k in (k.strip("/") for k in keep) if k and not any(p.startswith(k + "/") for p in planned))


def page_warnings(doc: Any, planned: Container[str], anchors: Mapping[str, tuple[str, ...]], base: str,
                  unmade: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """:func:`link_warnings` for one page ``doc``, given the ``anchors`` of every page by its
    output path, the base URL without its last ``/`` and the :func:`unmade_trees`; and the
    site paths its links name (each looked up as :func:`~generator.urls.candidates`), on which
    those warnings depend besides ``doc`` itself and those pages' anchors."""
    warnings, paths = [], []
    notes = getattr(doc, "notes", ())
    for n, (line, kind, url, path, fragment) in enumerate(doc.links):
        note, line = (notes[n] if notes else ""), line or None     # a notebook has no lines
        target = doc.output_path
        if path:
            path = site_path(path, doc.url)
            if base and (path == base or path.startswith(base + "/")):
                path = path[len(base):]
            path = path.lstrip("/")
            paths.append(path)
            target = next((c for c in candidates(path) if c in planned), None)
            if target is None:
                if not any(path == k or path.startswith(k + "/") for k in unmade):
                    what = f"link to {url}: no such page" if kind == "link" else f"image {url}: no such file"
                    warnings.append(warning(note + what, doc.source, line))
                continue
        if (fragment and target in anchors and fragment not in anchors[target]
                and fragment.lower() != "top" and not fragment.startswith(":~:")):
            where = "this page" if target == doc.output_path else f"/{target}"
            warnings.append(warning(f"{note}link to {url}: no anchor #{fragment} on {where}", doc.source, line))
    return warnings, paths
