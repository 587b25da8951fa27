"""Versioned docs: the docs section built once per version listed in site.yaml.

A version's files come from its own source: a git ref (exported by git into a
temporary folder, never over the author's checkout), the working tree, or an
archived build published as it is. Pages are rendered with the *current*
site's templates. What ties the versions together (the switcher, the outdated
banner, ``rel=canonical``) is added afterwards, on every build, into slots
the ``docs`` and tutorial templates leave; so a version whose tree has not
changed is reused as the last build rendered it, while its switcher still
knows every other version's pages.

Each version's tutorials are executed in its own tree, through the one
notebook cache; ``/docs/tutorials/``, where tutorials lived before the docs
were versioned, keeps serving the default version's.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import tempfile
from dataclasses import dataclass
from html import escape
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

from generator import __version__, git, notebooks
from generator import codec
from generator.cache import digest, local_key, write_atomic
from generator.config import Config, setting_digest, unrecorded
from generator.confine import NEVER_READ, site_path
from generator.deps import Trace, record, tracing, warn
from generator.docs.section import DOCS_DIR, TUTORIALS_DIR, Parse, Section, gallery_url, render_section
from generator.docs.tutorials import TutorialStats, Tutorials
from generator.errors import SiteError
from generator.files import Files
from generator.layout import CONFIG_FILE, VERSIONS_DIR
from generator.links import Linked
from generator.outputs import generated_page
from generator.schema.docs import Version
from generator.urls import page_url

if TYPE_CHECKING:
    from generator.myst import Labels, Target
    from generator.render import Renderer

SLOT_BANNER = "<!-- sitegen:version-banner -->"
SLOT_SWITCHER = "<!-- sitegen:version-switcher -->"
SWITCHER_TEMPLATE = "partials/version_switcher.html"
BANNER_TEMPLATE = "partials/version_banner.html"
REDIRECT_TEMPLATE = "redirect.html"
TREE_DIRS = (DOCS_DIR, notebooks.FOLDER)  # what a version's docs are built from, with its API packages

BODY_OPEN = re.compile(r"<body\b[^>]*>", re.I)
HEAD_CLOSE = re.compile(r"</head\s*>", re.I)
CANONICAL = re.compile(r"""<link\b[^>]*\brel=["']?canonical["'\s/>][^>]*>""", re.I)
OG_URL = re.compile(r"""<meta\b[^>]*\bproperty=["']?og:url["'\s/>][^>]*>""", re.I)


@dataclass(frozen=True)
class Resolved:
    """A version and what its source resolves to now."""

    version: Version
    commit: str | None = None                  # a ref's commit; the working tree's HEAD
    trees: tuple[tuple[str, str], ...] = ()    # (folder, git tree id) of a ref's docs folders
    updated: tuple[tuple[str, str], ...] = ()  # (page source, day it last changed) at the commit

    @property
    def name(self) -> str:
        return self.version.name

    @property
    def source(self) -> str:
        version = self.version
        if version.ref is not None:
            return f"ref {version.ref}"
        return "working tree" if version.worktree else f"archive {version.archive}"


class Docs(Files):
    """The docs section's files by output path, and what the build did for each version."""

    def __init__(self) -> None:
        super().__init__("/", where=CONFIG_FILE)
        self.report: dict[str, str] = {}        # version -> "built", "reused" or "archived"
        self.tutorials = TutorialStats()   # of the sections built
        self.warnings: list[str] = []                # of the sections built
        self.linked: list[Linked] = []               # their pages' links (generator.links)
        self.api_modules = [0, 0]                    # API reference modules rendered, kept (generator.api)


def tree_dirs(config: Config) -> tuple[str, ...]:
    """The folders a version's docs are built from: the docs, the tutorials, the API's packages."""
    return (*TREE_DIRS, *config.api_folders)


def resolve_versions(config: Config) -> list[Resolved]:
    """Resolve each version's source (refs to commits and trees); site.yaml checked them at load."""
    return [_resolve(config, version) for version in config.versions]


def _resolve(config: Config, version: Version) -> Resolved:
    root, where = config.root, config.root / CONFIG_FILE
    if version.archive is not None:
        if archive_path(root, version.archive) is None:
            raise SiteError(f"version '{version.name}': archive {version.archive!r} is not a folder or "
                            ".tar.gz inside the site (outside its .git/ and .sitegen/)", where)
        return Resolved(version)
    try:
        prefix = git.site_prefix(root)
    except git.GitError:
        if version.worktree:
            return Resolved(version)
        raise SiteError(f"version '{version.name}': ref '{version.ref}' needs git history, "
                        f"but {root} is not in a git repository", where) from None
    if version.worktree:
        head = git.resolve_commit(root, "HEAD")
        return Resolved(version, commit=head, updated=last_updated(root, head))
    ref = version.ref
    commit = git.resolve_commit(root, ref)
    if commit is None:
        if git.is_shallow(root):
            raise SiteError(f"version '{version.name}': ref '{ref}' is not in this clone, which is shallow: "
                            f"fetch the history with `git fetch --unshallow` (or only the tag, with "
                            f"`git fetch origin tag {ref}`)", where)
        raise SiteError(f"version '{version.name}': unknown git ref '{ref}' "
                        "(not a branch, tag or commit of this repository)", where)
    trees = tuple((folder, tree) for folder in tree_dirs(config)
                  if (tree := git.tree_id(root, commit, prefix + folder)) is not None)
    if not trees or trees[0][0] != DOCS_DIR:
        raise SiteError(f"version '{version.name}': ref '{ref}' (commit {commit[:12]}) "
                        f"has no {DOCS_DIR}/ folder", where)
    return Resolved(version, commit=commit, trees=trees, updated=last_updated(root, commit))


@functools.lru_cache(maxsize=16)
def last_updated(root: Path, commit: str | None) -> tuple[tuple[str, str], ...]:
    """The day each docs page and tutorial source last changed in the history of ``commit`` (pages
    show it, so it is an input of theirs); none without a commit (outside git, before the first
    commit). A commit's history never changes: a build (which resolves the versions twice) and the
    preview's rebuilds ask git once per commit."""
    return tuple(sorted(git.last_changed(root, commit, *TREE_DIRS).items())) if commit else ()


def worktree_updated(root: Path) -> tuple[tuple[str, str], ...]:
    """:func:`last_updated` for the unversioned docs: the working tree's, at HEAD."""
    return last_updated(root, git.resolve_commit(root, "HEAD"))


# --- the build stage -------------------------------------------------------

class VersionedDocs:
    """Renders the docs section, once per version, with the current site's templates."""

    def __init__(self, config: Config, renderer: Renderer, site: dict[str, Any], parse: Parse,
                 outer: Callable[[Path], Callable[[Path, str, str], Target | None]] | None = None):
        self.config = config
        self.outer = outer          # a tree's finder of the site's labels (generator.deps.asked)
        self.renderer = renderer
        self.site = site
        self.parse = parse
        self.last = LastBuilds(config.state_dir / VERSIONS_DIR, local_key(config.state_dir))
        self.inventories: dict[str, str] | None = None     # of the API reference: read once for all versions

    def render(self, template: str, source: Path | None = None, **context: Any) -> str:
        return self.renderer.render(template, {"site": self.site, **context}, source)

    def build(self, site_key: str, refresh: bool = False, rerun: tuple[str, ...] = ()) -> Docs:
        """All docs files. ``site_key`` stands for the rest of the site, which docs pages may show;
        ``rerun`` names tutorials to execute again."""
        docs = Docs()
        if not self.config.versions:
            root = self.config.root
            if any((root / folder).is_dir() for folder in tree_dirs(self.config)):
                section = self._section(root, "/docs/", refresh, docs, rerun=rerun,
                                        updated=dict(worktree_updated(root)))
                for rel, data in section.items():
                    if rel.endswith(".html"):
                        section[rel] = _fill_slots(data.decode("utf-8"), "", "").encode("utf-8")
                docs.mount("docs/", section)
            return docs
        files = {}
        with _noting() as trace:    # what the versions read of the settings, all so far (see _files_of)
            versions = resolve_versions(self.config)
            fingerprint = digest(str(codec.VERSIONS["version-files"]), __version__, site_key,
                                 self._templates_digest(),
                                 *(part for item in sorted(self._inventories(refresh).items()) for part in item))
            for resolved in versions:
                try:
                    files[resolved.name] = self._files_of(resolved, fingerprint, refresh, docs, rerun, trace)
                except SiteError as exc:      # named on its first line: a tutorial's message goes on
                    first, newline, rest = exc.message.partition("\n")
                    raise SiteError(f"{first} (docs version '{resolved.name}', {resolved.source}){newline}{rest}",
                                    exc.path, exc.line) from None
        self._publish(versions, files, docs)
        return docs

    def _files_of(self, resolved: Resolved, fingerprint: str, refresh: bool, docs: Docs,
                  rerun: tuple[str, ...], trace: Trace) -> dict[str, bytes]:
        """One version's files, before the switcher and banner: reused while its tree and the
        settings it read are as they were.

        The settings are those ``trace`` holds once it is built: every one the versions read so
        far, its own among them (a value read once for all versions, the API inventories, is
        noted by the first). A version reused notes its settings again, for the bundle's
        reads and the next versions'."""
        version = resolved.version
        if version.archive is not None:
            docs.report[version.name] = "archived"
            return read_archive(self.config.root, archive_path(self.config.root, version.archive))
        seen = {"name": version.name, "title": version.label, "status": version.status}  # by templates
        base = digest(fingerprint, repr(seen), self._tree_key(resolved), repr(resolved.updated))
        last = None if refresh or rerun else self.last.get(version.name, functools.partial(self._key, base))
        if last is not None:
            files, linked, settings = last
            for name in settings:
                record(("setting", name))
            docs.report[version.name] = "reused"
            docs.linked += linked
            return files
        with self._tree(resolved) as tree:
            section = self._section(tree, f"/docs/{version.name}/", refresh, docs, seen, rerun,
                                    editable=version.worktree, updated=dict(resolved.updated))
        if section.tutorials.unexecuted:     # a run of it may turn up (a copied cache): build again
            self.last.drop(version.name)
        else:
            settings = sorted(key[1] for key in trace.reads if key[0] == "setting")
            self.last.put(version.name, self._key(base, settings), settings, dict(section), section.linked)
        docs.report[version.name] = "built"
        return section

    def _section(self, tree: Path, prefix: str, refresh: bool, docs: Docs,
                 version: dict[str, Any] | None = None, rerun: tuple[str, ...] = (),
                 editable: bool = True, updated: Mapping[str, str] = {}) -> Section:
        """The docs section of ``tree`` at ``prefix``: its pages and its tutorials, executed there."""
        name = version["name"] if version else None

        def tutorials(context: dict[str, Any], labels: Labels) -> Tutorials:
            if not (tree / notebooks.FOLDER).is_dir():
                return Tutorials()
            from generator.docs.gallery import render_tutorials    # a site without tutorials pays nothing

            return render_tutorials(self.config, tree, gallery_url(prefix), self.render, self.renderer, refresh,
                                    name, rerun, context, labels, updated)

        reference = None
        if self.config.api:
            from generator.api import build_reference     # griffe, for a site with an API reference

            reference = build_reference(self.config, tree, prefix, version["title"] if version else "", name or "",
                                        self._inventories(refresh))
        section = render_section(tree, prefix, self.render, self.parse, version, tutorials, editable, reference,
                                 updated, self.renderer.relative_url, self.outer and self.outer(tree))
        if reference:
            docs.api_modules = [docs.api_modules[0] + reference.rendered, docs.api_modules[1] + reference.reused]
        docs.tutorials += section.tutorials
        docs.warnings += [f"{w} (docs version '{name}')" if name else w for w in section.warnings]
        docs.linked += section.linked
        return section

    def _inventories(self, refresh: bool) -> dict[str, str]:
        """The objects of the API reference's inventories, read (or fetched) once for all versions."""
        if self.inventories is None:
            self.inventories = {}
            if self.config.api:
                from generator.api import inventories

                self.inventories = inventories(self.config, refresh)
        return self.inventories

    def _tree_key(self, resolved: Resolved) -> str:
        if resolved.version.worktree:
            return _folders_digest(self.config.root, tree_dirs(self.config))
        return digest(*(part for pair in resolved.trees for part in pair))

    @contextlib.contextmanager
    def _tree(self, resolved: Resolved) -> Iterator[Path]:
        """A folder holding the version's docs: the working tree, or a ref exported by git."""
        if resolved.version.worktree:
            yield self.config.root
            return
        with tempfile.TemporaryDirectory(prefix="sitegen-version-") as tmp:
            for folder, tree in resolved.trees:
                try:
                    git.export_tree(self.config.root, tree, Path(tmp) / folder)
                except git.GitError as exc:
                    raise SiteError(f"git could not read {folder}/ of commit {resolved.commit}: {exc}",
                                    CONFIG_FILE) from None
            yield Path(tmp)

    def _key(self, base: str, settings: list[str]) -> str:
        """A version's key: ``base`` (its tree, the templates, the rest of the site) and the
        values of the settings it read."""
        plain = unrecorded(self.config)
        return digest(base, *(f"{name}={setting_digest(plain, name)}" for name in settings))

    def _templates_digest(self) -> str:
        """Every template a version may be rendered with: the site's, its theme's, the default theme's."""
        from generator.render import template_dirs

        return digest(*(_folders_digest(folder.parent, (folder.name,)) for folder in template_dirs(self.config)))

    def _publish(self, versions: list[Resolved], files: dict[str, dict[str, bytes]], docs: Docs) -> None:
        """Each version with its switcher and banner, its aliases, /docs/ and versions.json."""
        default = next(r.version for r in versions if r.version.default)
        pages = {name: {rel for rel in found if rel.endswith(".html")} for name, found in files.items()}
        for resolved in versions:
            version = resolved.version
            origin = f"docs version '{version.name}' ({resolved.source})"
            listed = version.sitemap if version.sitemap is not None else version is default
            published = {rel: self._decorate(rel, data, version, versions, pages, default)
                         if rel.endswith(".html") else data for rel, data in files[version.name].items()}
            docs.mount(f"docs/{version.name}/", published, origin, listed)
            for alias in version.aliases:
                if version.alias_type == "copy":
                    docs.mount(f"docs/{alias}/", published, origin, listed=False)
                    continue
                for rel in published:
                    if rel in pages[version.name]:
                        docs.add(f"docs/{alias}/{rel}", self._redirect(f"/docs/{alias}/{rel}",
                                 page_url(f"/docs/{version.name}/", rel)), origin, listed=False)
        docs.add("docs/index.html", self._redirect("/docs/", f"/docs/{default.name}/"), CONFIG_FILE, listed=False)
        self._publish_unversioned_tutorials(default, files[default.name], docs)
        docs.add("docs/versions.json", versions_json(self.config.versions), CONFIG_FILE)

    def _publish_unversioned_tutorials(self, default: Version, files: dict[str, bytes], docs: Docs) -> None:
        """Keep ``/docs/tutorials/``, where tutorials were published before versions, alive:
        its pages redirect to the default version's, its downloads and images are copies."""
        origin = f"/docs/{TUTORIALS_DIR} (the default version's tutorials, at their unversioned URLs)"
        docs.mount("docs/", {rel: self._redirect(page_url("/docs/", rel), page_url(f"/docs/{default.name}/", rel))
                             if rel.endswith(".html") else data
                             for rel, data in files.items() if rel.startswith(TUTORIALS_DIR)}, origin, listed=False)

    def _decorate(self, rel: str, data: bytes, version: Version, versions: list[Resolved],
                  pages: dict[str, set[str]], default: Version) -> bytes:
        """Fill a page's slots with the switcher and banner, and point its canonical at the default."""
        def target(other: Version) -> dict[str, Any]:
            same = rel in pages[other.name]
            return {"name": other.name, "title": other.label, "status": other.status,
                    "url": page_url(f"/docs/{other.name}/", nearest_page(rel, pages[other.name])),
                    "same_page": same, "current": other is version, "stable": other is default}
        switcher = self.render(SWITCHER_TEMPLATE, versions=[target(r.version) for r in versions],
                               current=target(version))
        banner = "" if version is default else self.render(BANNER_TEMPLATE, version=target(version),
                                                           default=target(default))
        canonical = target(default if rel in pages[default.name] else version)["url"]
        html = _fill_slots(data.decode("utf-8", "surrogateescape"), banner, switcher)
        return _set_canonical(html, self.renderer.absolute_url(canonical)).encode("utf-8", "surrogateescape")

    def _redirect(self, url: str, target: str) -> bytes:
        html = self.render(REDIRECT_TEMPLATE, page=generated_page("Redirecting", url), target=target)
        return html.encode("utf-8")


def nearest_page(rel: str, pages: set[str]) -> str:
    """``rel`` where ``pages`` has it, else the index of its nearest folder that does: a tutorial
    another version lacks leads to that version's gallery, and anything else to its docs index."""
    if rel in pages:
        return rel
    folders = rel.split("/")[:-1]
    while folders:
        index = "/".join(folders) + "/index.html"
        if index in pages:
            return index
        folders.pop()
    return "index.html"


def versions_json(versions: list[Version]) -> bytes:
    """The versions in mike's ``versions.json`` shape, so tools that read mike's read ours."""
    listed = [{"version": v.name, "title": v.label, "aliases": list(v.aliases)} for v in versions]
    return (json.dumps(listed, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _fill_slots(html: str, banner: str, switcher: str) -> str:
    """Put banner and switcher into their slots; a page without slots (an archived
    build) gets them at the top of its body."""
    unplaced = ""
    for slot, part in ((SLOT_BANNER, banner), (SLOT_SWITCHER, switcher)):
        if slot in html:
            html = html.replace(slot, part)
        else:
            unplaced += part
    if unplaced:
        html = BODY_OPEN.sub(lambda m: m.group(0) + unplaced, html, count=1)
    return html


def _set_canonical(html: str, url: str) -> str:
    """Point the page's canonical link, and its OpenGraph URL (the same address), at ``url``."""
    link = f'<link rel="canonical" href="{escape(url)}">'
    html, found = CANONICAL.subn(lambda m: link, html, count=1)
    if not found:
        html = HEAD_CLOSE.sub(lambda m: link + "\n" + m.group(0), html, count=1)
    return OG_URL.sub(lambda m: f'<meta property="og:url" content="{escape(url)}">', html, count=1)


def _folders_digest(root: Path, folders: tuple[str, ...]) -> str:
    """A hash of every (non-hidden) file under ``root/folder`` for each folder, names included."""
    parts: list[str | bytes] = []
    for folder in folders:
        base = root / folder
        for path in sorted(base.rglob("*")) if base.is_dir() else ():
            rel = path.relative_to(root)
            if path.is_file() and not any(part.startswith(".") for part in rel.parts):
                parts += [rel.as_posix(), path.read_bytes()]
    return digest(*parts)


# --- archived builds ---------------------------------------------------------

def archive_path(root: Path, archive: str) -> Path | None:
    """A version's ``archive``, if it is a folder or file in the site (:func:`site_path`); else None."""
    found = site_path(root, archive, named=True)
    return root / found if found is not None and (root / found).exists() else None


def read_archive(root: Path, path: Path) -> dict[str, bytes]:
    """The files of a built docs tree (a folder or a .tar.gz in the site ``root``), keyed by path
    below its index.

    A tarball whose files all sit in one top folder (``project-docs-0.7/...``)
    is read from inside that folder. A folder's symbolic links must stay inside it.
    """
    import tarfile

    if path.is_dir():
        folder = path.relative_to(root).as_posix()
        files = {}
        for p in sorted(path.rglob("*")):
            inside = p.relative_to(path)
            if any(part in NEVER_READ for part in inside.parts):    # a checkout's .git stays behind
                continue
            if site_path(root, p.relative_to(root).as_posix(), folder, named=True) is None:
                raise SiteError(f"archive {path.name}: {inside.as_posix()!r} is a symbolic link leading "
                                "out of the archive", path)
            if p.is_file():
                files[inside.as_posix()] = p.read_bytes()
    elif tarfile.is_tarfile(path):
        with tarfile.open(path) as archive:
            files = {m.name: archive.extractfile(m).read() for m in archive.getmembers() if m.isfile()}
    else:
        raise SiteError(f"archive {path.name}: expected a folder or a .tar.gz of HTML", path)
    for name in files:
        pure = PurePosixPath(name)
        if pure.is_absolute() or ".." in pure.parts:
            raise SiteError(f"archive {path.name}: {name!r} would be written outside its version", path)
    files = {PurePosixPath(name).as_posix(): data for name, data in files.items()}
    tops = {name.split("/", 1)[0] for name in files}
    if "index.html" not in files and len(tops) == 1 and all("/" in name for name in files):
        files = {name.split("/", 1)[1]: data for name, data in files.items()}
    if "index.html" not in files:
        raise SiteError(f"archive {path.name}: no index.html at its top", path)
    return files


# --- the last build of each version ------------------------------------------

@contextlib.contextmanager
def _noting() -> Iterator[Trace]:
    """Collect what the block reads, and note it for the trace around as well (the bundle's)."""
    with tracing() as trace:
        yield trace
    for key in trace.reads:
        record(key)
    for message in trace.warnings:
        warn(message)


class LastBuilds:
    """Each version's files as the last build rendered them, with the key they were rendered for.

    One slot per version name (not a growing cache): "reused" means the
    version's inputs are exactly those of the last build.
    """

    def __init__(self, folder: Path, key: bytes):
        self.folder = folder
        self.key = key           # the checkout's (generator.cache.local_key): the files are published

    def get(self, name: str, key_of: Callable[[list[str]], str]
            ) -> tuple[dict[str, bytes], list[Linked], list[str]] | None:
        """The version's files, its pages' links and the settings it read, if last rendered for
        the key ``key_of`` makes of those settings."""
        try:
            saved_key, settings, files, linked = codec.loads("version-files", self._path(name).read_bytes(),
                                                             self.key)
            if not isinstance(settings, list) or not all(isinstance(s, str) for s in settings) \
                    or saved_key != key_of(settings):
                return None
        except (OSError, codec.Garbled, ValueError, TypeError):
            return None
        if not isinstance(files, dict) \
                or not all(isinstance(p, str) and isinstance(d, bytes) for p, d in files.items()) \
                or not isinstance(linked, list) or not all(isinstance(page, Linked) for page in linked):
            return None
        return files, linked, settings

    def put(self, name: str, key: str, settings: list[str], files: dict[str, bytes], linked: list[Linked]) -> None:
        write_atomic(self._path(name), codec.dumps("version-files", [key, settings, files, linked], self.key))

    def drop(self, name: str) -> None:
        self._path(name).unlink(missing_ok=True)

    def _path(self, name: str) -> Path:
        return self.folder / f"{name}.msgpack"
