"""Check a built site the way its readers' browsers will meet it.

A site that builds can still be broken for its readers. This module reads the
output directory (never the sources: it checks what will be published) and
reports, one :class:`Finding` per fault, at the page and line that has it:

- internal links (``href``, ``src``, ``srcset``, CSS ``url()``) that no file
  serves, resolved with the server's rules (extension-less URLs, folder
  indexes, ``baseurl``); links written with the production host count as
  internal;
- ``#fragments`` that no ``id`` (or ``<a name>``) on the target page carries;
- resources the browser would fetch from another host (scripts, stylesheets,
  images, frames, media, fonts, preconnect hints) whose host is not in
  ``check.allow_hosts``: a project site must not hand its readers to third parties
  (the host of ``theme.analytics``, which the site chose, is allowed too)
  (frames may also come from the hosts ``notebooks.embeds`` lists for tutorials' iframes);
- malformed external URLs (they are not fetched: there may be no network);
- with ``check.html``, every error the Nu Html Checker finds, except those
  ``check.allow_html`` allows on a page (legacy markup browsers accept) and those
  in a notebook's own content on a tutorial page (between the template's
  ``sitegen:notebook`` marks: the author's Markdown and what the code printed,
  which the site does not write), which are listed as warnings;
- with ``against``, every URL published before that no longer resolves.

Links into trees the publish branch keeps (``publish.keep``, a ``docs/`` built
elsewhere) are looked up in that branch's tree, read with git; where no such
branch is here, they are listed as warnings, unverified.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import SplitResult, unquote, urljoin, urlsplit
from xml.parsers import expat

from generator import progress as reporting
from generator import vnu
from generator.config import Config
from generator.errors import SiteError
from generator.git import GitError, git, resolve_commit
from generator.layout import CONFIG_FILE
from generator.scan import ORIGIN_KINDS, PageScan, Reference, scan_css, scan_html
from generator.urls import candidates

KNOWN_SCHEMES = {"http", "https", "mailto", "tel", "ftp", "irc", "ircs", "git", "ssh",
                 "news", "xmpp", "data", "javascript", "about"}
HOSTED_SCHEMES = {"http", "https", "ftp", "irc", "ircs", "git", "ssh"}
# The tutorial template's marks around a notebook's own content (see NotebookLines).
NOTEBOOK_START, NOTEBOOK_END = "<!-- sitegen:notebook -->", "<!-- /sitegen:notebook -->"
_HOST_LABEL = re.compile(r"(?!-)[^\W_](?:[\w-]{0,61}[^\W_])?$")
_IPV6 = re.compile(r"[0-9a-fA-F:.]+$")


@dataclass(frozen=True, order=True)
class Finding:
    """One fault, at ``page:line`` (``page`` relative to the output directory)."""

    page: str
    line: int
    problem: str
    target: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.problem} -> {self.target}"


@dataclass
class Report:
    checked: int            # files read: pages and stylesheets
    findings: list[Finding]
    warnings: list[Finding] = field(default_factory=list)   # listed, but no reason to fail
    skipped: list[str] = field(default_factory=list)        # checks that could not run here, and why

    @property
    def ok(self) -> bool:
        return not self.findings

    def summary(self) -> str:
        warned = f", {_count(len(self.warnings), 'warning')}" if self.warnings else ""
        if self.ok:
            return f"checked {self.checked} files: no errors{warned}"
        pages = len({f.page for f in self.findings})
        return (f"checked {self.checked} files: {_count(len(self.findings), 'error')} in "
                f"{_count(pages, 'file')}{warned}")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def check_site(config: Config, against: str | None = None, out_dir: Path | None = None,
               strict: bool = False) -> Report:
    """Check the built site in ``out_dir`` (default: the output directory), and old URLs.

    With ``check.html`` on and no Nu Html Checker here (a fresh ``make site``
    does not install Java), HTML validation is skipped and the report says
    why; ``strict`` (publishing) makes that an error instead.
    """
    out = out_dir or config.output_dir
    if not out.is_dir():
        raise SiteError(f"no built site in {out}: run 'sitegen build' first", config.root / CONFIG_FILE)
    site = BuiltSite(out, config, kept_tree(config, against))
    analytics = config.branding.analytics
    allowed = [*config.check.allow_hosts, *([analytics.script_host.split(":")[0]] if analytics else [])]
    checker = LinkChecker(site, allowed, config.notebooks.embeds)
    with reporting.current().stage("checking links"):
        findings, warnings, skipped = checker.check(), checker.warnings, []
    if config.check.html:
        try:
            html_checker = vnu.find_checker(config.root)
        except SiteError as exc:
            if strict:
                raise SiteError(f"{exc.message}; check.html is on, so nothing was published",
                                config.root / "site.yaml") from None
            skipped.append(f"HTML validation skipped: {exc.message}")
        else:
            with reporting.current().stage("validating HTML"):
                messages = vnu.validate(out, html_checker)
            notebook_lines = NotebookLines(out)
            for m in messages:
                if notebook_lines.holds(m.page, m.line):
                    warnings.append(Finding(m.page, m.line, f"invalid HTML in a notebook's content: {m.message}",
                                            m.extract))
                    continue
                finding = Finding(m.page, m.line, f"invalid HTML: {m.message}", m.extract)
                (warnings if html_allowed(config, m.page, m.message) else findings).append(finding)
    if against is not None:
        for urls in read_url_lists(against, config):
            findings += check_against(site, urls)
    return Report(len(site.pages) + len(site.stylesheets), sorted(set(findings)), sorted(set(warnings)),
                  skipped)


class NotebookLines:
    """The lines of each built page that hold a notebook's own content (``tutorial.html``'s marks)."""

    def __init__(self, out: Path):
        self.out = out
        self.ranges: dict[str, list[tuple[int, int]]] = {}

    def holds(self, page: str, line: int) -> bool:
        if page not in self.ranges:
            self.ranges[page] = self._ranges(self.out / page)
        return any(start < line < end for start, end in self.ranges[page])

    @staticmethod
    def _ranges(path: Path) -> list[tuple[int, int]]:
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
        except OSError:
            return []
        starts = [n for n, text in enumerate(lines, start=1) if text.strip() == NOTEBOOK_START]
        ends = [n for n, text in enumerate(lines, start=1) if text.strip() == NOTEBOOK_END]
        return list(zip(starts, ends))


def html_allowed(config: Config, page: str, message: str) -> bool:
    """Does site.yaml ``check.allow_html`` let ``page`` carry markup the checker says ``message`` of?

    Keys are globs over output paths (``*`` crosses folders: ``2017/*``), values
    parts of the checker's messages (``Bad value "512px" for attribute "width"``,
    ``The "center" element is obsolete``).
    """
    return any(fnmatch.fnmatchcase(page, glob) and any(part in message for part in parts)
               for glob, parts in config.check.allow_html.items())


@dataclass(frozen=True)
class KeptTree:
    """What the publish branch holds under ``publish.keep``: ``files`` (None: no branch here)."""

    keep: tuple[str, ...]
    ref: str
    files: frozenset[str] | None

    def holds(self, path: str) -> bool:
        return any(path == k or path.startswith(k + "/") for k in self.keep)


def kept_tree(config: Config, against: str | None = None) -> KeptTree:
    """The files under ``publish.keep`` in the publish branch: ``against`` when it is a git ref,
    else the local ``publish.branch``, else its remote-tracking branch."""
    keep = tuple(k.strip("/") for k in config.publish.keep if k.strip("/"))
    branch, remote = config.publish.branch, config.publish.remote
    refs = ([against] if against and not Path(against).is_file() else []) + [branch, f"{remote}/{branch}"]
    for ref in refs if keep else []:
        commit = resolve_commit(config.root, ref)   # None also outside a git repository
        if commit is not None:
            listing = git(config.root, "ls-tree", "-r", "--name-only", "-z", "--full-tree", commit, "--", *keep)
            return KeptTree(keep, ref, frozenset(name for name in listing.split("\0") if name))
    return KeptTree(keep, branch, None)


def require_clean(config: Config, out_dir: Path) -> None:
    """Raise SiteError listing every finding: what stands between a build and its publication."""
    report = check_site(config, out_dir=out_dir, strict=True)
    if not report.ok:
        listing = "".join(f"\n  {finding}" for finding in report.findings)
        raise SiteError(f"the built site fails its check ({report.summary()}); "
                        f"nothing was published:{listing}", out_dir)


class BuiltSite:
    """The output directory as the server and the browser see it."""

    def __init__(self, out_dir: Path, config: Config, kept: KeptTree | None = None):
        self.files = {p.relative_to(out_dir).as_posix() for p in out_dir.rglob("*") if p.is_file()}
        self.kept = kept or KeptTree((), "", frozenset())
        pages = [path for path in sorted(self.files) if path.endswith((".html", ".htm"))]
        self.pages = {}
        with reporting.current().stage("reading", len(pages), "pages") as stage:
            for path in pages:
                self.pages[path] = scan_html(_read(out_dir / path))
                stage.advance()
        self.stylesheets = {path: scan_css(_read(out_dir / path))
                            for path in sorted(self.files) if path.endswith(".css")}
        production = urlsplit(config.url)
        self.host = (production.hostname or "").lower()
        self.baseurl = config.baseurl.rstrip("/")
        self.origin = f"{production.scheme}://{production.netloc}{self.baseurl}"

    def url_of(self, path: str) -> str:
        """The site path that serves output file ``path``: a base for its relative links."""
        return f"{self.baseurl}/{path}"

    def is_own(self, parts: SplitResult) -> bool:
        return parts.scheme in ("", "http", "https") and (parts.hostname or "").lower() == self.host

    def under_baseurl(self, url_path: str) -> bool:
        base = self.baseurl
        return not base or url_path == base or url_path.startswith(base + "/")

    def resolve(self, url_path: str) -> str | None:
        """The file the server sends for ``url_path`` (absolute, decoded), or None.

        The server's rules: everything lives under ``baseurl``, a folder serves
        its ``index.html``, and ``/NAME`` serves ``NAME.html`` when there is no
        file ``NAME``.
        """
        if not self.under_baseurl(url_path):
            return None
        path = url_path[len(self.baseurl):].lstrip("/")
        kept = self.kept.files or frozenset()
        return next((c for c in candidates(path) if c in self.files or c in kept), None)

    def unverifiable(self, url_path: str) -> bool:
        """Is ``url_path`` in a tree the publish branch keeps, with no branch here to look in?"""
        return self.kept.files is None and self.kept.holds(url_path[len(self.baseurl):].lstrip("/"))


class LinkChecker:
    """Applies the rules to every reference of a built site."""

    def __init__(self, site: BuiltSite, allow_hosts: list[str], frame_hosts: list[str]):
        self.site = site
        self.allow_hosts = {h.lower() for h in allow_hosts}
        self.frame_hosts = self.allow_hosts | {h.lower() for h in frame_hosts}
        self.warnings: list[Finding] = []

    def check(self) -> list[Finding]:
        findings = []
        documents = {path: scan.references for path, scan in self.site.pages.items()} | self.site.stylesheets
        for path, references in documents.items():
            for ref in references:
                problem = self.problem(path, ref)
                if problem:
                    findings.append(Finding(path, ref.line, problem, ref.url.strip()))
        return findings

    def problem(self, page: str, ref: Reference) -> str | None:
        """What is wrong with ``ref`` written in ``page``, or None."""
        url = ref.url.strip()  # browsers strip the whitespace around URL attributes
        malformed = url_problem(url)
        if malformed:
            return f"malformed URL ({malformed})"
        parts = urlsplit(url)
        if (parts.scheme or parts.netloc) and not self.site.is_own(parts):
            host = (parts.hostname or "").lower()  # none for data:, mailto:, about:...
            allowed = self.frame_hosts if ref.kind == "frame" else self.allow_hosts
            if ref.fetched and host and host not in allowed:
                return f"third-party {ref.kind} ({host} is not in check.allow_hosts)"
            return None
        if ref.kind in ORIGIN_KINDS:
            return None
        if not (parts.scheme or parts.netloc or parts.path):
            target: str | None = page  # "#id", "?query" or "": this very page
        else:
            path = unquote(urljoin(self.site.url_of(page), parts.path or "/"))
            if not self.site.under_baseurl(path):
                return f"missing {ref.kind} (outside baseurl {self.site.baseurl})"
            target = self.site.resolve(path)
            if target is None and self.site.unverifiable(path):
                self.warnings.append(Finding(page, ref.line, f"not checked: {ref.kind} in a tree kept from "
                                             f"the publish branch {self.site.kept.ref}, which is not here",
                                             ref.url.strip()))
                return None
        if target is None:
            return f"missing {ref.kind}"
        if parts.fragment and not self.has_anchor(target, parts.fragment):
            return "missing anchor"
        return None

    def has_anchor(self, page: str, fragment: str) -> bool:
        """Does ``#fragment`` name a place on ``page``? (Only HTML pages have anchors to check.)"""
        scan: PageScan | None = self.site.pages.get(page)
        if scan is None or fragment.startswith(":~:"):  # not HTML, or a text fragment
            return True
        return (fragment in scan.anchors or unquote(fragment) in scan.anchors
                or fragment.lower() == "top")  # "#top" is the top of any page


def url_problem(url: str) -> str | None:
    """Why ``url`` is not a well-formed URL, or None. Relative URLs are well-formed paths."""
    if re.search(r"[\s\x00-\x1f\x7f]", url):
        return "contains whitespace or a control character"
    if "\\" in url:
        return "contains a backslash"
    parts = urlsplit(url)
    scheme = parts.scheme  # lowercased by urlsplit
    if scheme and scheme not in KNOWN_SCHEMES:
        return f"unknown scheme '{scheme}:'"
    if scheme in ("mailto", "tel") and not parts.path:
        return f"nothing after '{scheme}:'"
    if scheme in HOSTED_SCHEMES or parts.netloc:
        if not parts.netloc:
            return f"no host after '{scheme}:'"
        if not valid_host(parts.hostname or ""):
            return f"invalid host '{parts.hostname or parts.netloc}'"
        try:
            parts.port
        except ValueError:
            return f"invalid port in '{parts.netloc}'"
    return None


def valid_host(host: str) -> bool:
    """A DNS name (letters in any script), an IPv4 address, or a bracketed IPv6 one."""
    if ":" in host:
        return bool(_IPV6.match(host))
    labels = host.removesuffix(".").split(".")
    return bool(host) and all(_HOST_LABEL.match(label) for label in labels)


# -- URLs published before ---------------------------------------------------------------


@dataclass(frozen=True)
class UrlList:
    """URLs published before: ``entries`` are (line in ``name``, URL or site path)."""

    name: str
    entries: list[tuple[int, str]]


def read_url_lists(spec: str, config: Config, in_index: Path | None = None) -> list[UrlList]:
    """Read a ``sitemap.txt``, a ``sitemap.xml`` (a sitemap index: each sitemap it lists, read
    from the index's folder by name; the protocol nests no index in another), or the ``.html``
    files of a git ref."""
    path = Path(spec)
    if not path.is_file():
        return [UrlList(spec, published_pages(spec, config))]
    text = _read(path)
    if not text.lstrip().startswith("<"):
        return [UrlList(spec, [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1)
                               if line.strip() and not line.lstrip().startswith("#")])]
    root, entries = sitemap_xml_urls(text, path)
    if root != "sitemapindex":
        return [UrlList(spec, entries)]
    if in_index is not None:
        raise SiteError(f"it lists {path.name}, itself a sitemap index: an index lists sitemaps only", in_index)
    parts = []
    for line, url in entries:
        part = path.parent / urlsplit(url).path.rsplit("/", 1)[-1]
        if not part.is_file():
            raise SiteError(f"the sitemap index lists {url}, which is not beside it ({part.name})", path, line)
        parts += read_url_lists(str(part), config, in_index=path)
    return parts


def sitemap_xml_urls(text: str, path: Path) -> tuple[str, list[tuple[int, str]]]:
    """The name of a sitemap's root element (``urlset``, ``sitemapindex``) and the ``<loc>`` of
    each of its entries, with its line."""
    parser = expat.ParserCreate()
    names: list[str] = []
    entries: list[tuple[int, str]] = []
    current: list[str] | None = None

    def start(name: str, _attrs: dict) -> None:
        nonlocal current
        local = name.rsplit("}", 1)[-1].rsplit(":", 1)[-1]
        names.append(local)
        if local == "loc":
            current = []
            entries.append((parser.CurrentLineNumber, ""))

    def end(name: str) -> None:
        nonlocal current
        if current is not None:
            entries[-1] = (entries[-1][0], "".join(current).strip())
            current = None

    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.CharacterDataHandler = lambda data: current.append(data) if current is not None else None
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise SiteError(f"not a valid sitemap: {expat.ErrorString(exc.code)}", path, exc.lineno) from None
    return (names[0] if names else ""), entries


def published_pages(ref: str, config: Config) -> list[tuple[int, str]]:
    """The pages a git ref of the publish branch serves (what publishing keeps aside excluded)."""
    root = config.root
    try:
        commit = resolve_commit(root, ref)
        if commit is None:
            raise SiteError(f"--against {ref!r}: neither a file nor a git ref in {root}")
        listing = git(root, "ls-tree", "-r", "--name-only", "-z", "--full-tree", commit)
    except GitError as exc:
        raise SiteError(f"--against {ref!r}: cannot read it with git: {exc}") from None
    kept = tuple(k.strip("/") for k in config.publish.keep)
    base = config.baseurl.rstrip("/")
    return [(n, f"{base}/{name}") for n, name in enumerate(listing.split("\0"), 1)
            if name.endswith((".html", ".htm"))
            and not any(name == k or name.startswith(k + "/") for k in kept)]


def check_against(site: BuiltSite, urls: UrlList) -> list[Finding]:
    """Every URL of ``urls`` that the built site no longer serves (a redirect page counts)."""
    findings = []
    for line, url in urls.entries:
        parts = urlsplit(url)
        if (parts.scheme or parts.netloc) and not site.is_own(parts):
            findings.append(Finding(urls.name, line, f"old URL is not on {site.origin}", url))
        elif site.resolve(unquote(parts.path or "/")) is None:
            findings.append(Finding(urls.name, line, "old URL no longer resolves or redirects", url))
    return findings


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")
