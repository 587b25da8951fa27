"""The API reference of a docs version, from the docstrings of the packages site.yaml's
``api`` names (read statically by griffe: nothing is imported).

:func:`build_reference` collects each package from the version's tree
(:mod:`.collect`), indexes every documented object's URL (:mod:`.xref`),
renders one page per module (:mod:`.render`) and an ``objects.inv``
(:mod:`.inventory`). The docs section (:mod:`generator.docs`) puts the pages
in its layout, lists the package in its sidebar, and links the references of
its pages and tutorials through :meth:`Reference.link`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Iterator

import pygments
from markupsafe import Markup

from generator import __version__, codec
from generator.api import inventory, xref
from generator.api.codelinks import link_cells
from generator.api.collect import API_DIR, Package, collect, target
from generator.api.render import Page, Renderer
from generator.config import Config
from generator.highlight import SourceLine, source_lines
from generator.cache import DataCache, digest, local_key, write_atomic
from generator.layout import VERSIONS_DIR
from generator.outputs import generated_page
from generator.schema.docs import ApiInventory

LISTINGS_DIR = API_DIR + "_source/"        # the packages' files, line-numbered
INVENTORY = "objects.inv"


@dataclass
class Reference:
    """A version's reference: its pages (by path below the section), the listings of its
    files, the sidebar's tree of modules, and the index its references resolve through."""

    index: xref.Index
    pages: dict[str, Page] = field(default_factory=dict)
    listings: dict[str, list[tuple[int, int]]] = field(default_factory=dict)   # file -> objects' line ranges
    nav: list[dict[str, Any]] = field(default_factory=list)
    inventory: bytes = b""
    rendered: int = 0         # modules whose pages were rendered, and those kept from the last build
    reused: int = 0
    collect_warnings: list[str] = field(default_factory=list)
    highlighted: Listings = field(default_factory=lambda: Listings(None))    # the listings' lines
    baseurl: str = ""
    link_code: bool = False      # site.yaml api_link_code: `tvm.build` in prose links its entry
    labels: dict[str, tuple[str, str]] = field(default_factory=dict)    # of the version's pages: id -> URL, title

    @property
    def warnings(self) -> list[str]:
        return [*self.collect_warnings, *self.index.unresolved]

    def files(self, tree: Path, prefix: str, render: Any, docs: dict[str, Any]) -> Iterator[tuple[str, bytes, str]]:
        """The reference's files below the section at ``prefix``: (path, bytes, origin).

        Pages take the docs layout (``docs`` is what it sees, the sidebar's
        pages and tree); a listing takes the ``source`` layout, each object's
        lines marked ``#Lstart-Lend``.
        """
        editable = docs.get("editable")
        for rel, page in self.pages.items():
            shown = {**generated_page(page.title, prefix + rel, kind="api"), "source": page.source if editable else None}
            body = xref.resolve_labels(page.html, self.labels, self.index.unresolved)
            html = render("docs.html", Path(page.source), page=shown, content=Markup(body),
                          docs={**docs, "previous": None, "next": None, "trail": trail(docs, prefix + rel)})
            yield rel, html.encode("utf-8"), page.source
        for file, ranges in sorted(self.listings.items()):
            marks: dict[int, str] = {}
            for start, end in sorted(set(ranges)):
                marks[start] = marks.get(start, "") + f'<span id="L{start}-L{end}"></span>'
            lines = [SourceLine(line.number, marks.get(line.number, "") + line.html)
                     for line in self.highlighted.lines(tree, file)]
            shown = {**generated_page(file, prefix + listing_path(file), kind="source"),
                     "source": file if editable else None}
            html = render("api_source.html", Path(file), page=shown, filename=file, lines=lines, docs=docs)
            yield listing_path(file), html.encode("utf-8"), file
        yield INVENTORY, self.inventory, "site.yaml"

    def link(self, html: str, tree: Path, where: str, url: str = "") -> str:
        """A docs page's (or tutorial's) HTML with its ``[name][]`` references linked, and the
        imported names of its code cells; ``where``, its source in ``tree``, is read (to name a
        reference's line) only when it has any. The page's labels and headings, at ``url``, are
        kept for the docstrings' ``:ref:`` (the pages are linked before :meth:`files` is read)."""
        if url:
            for ident, (to, title) in xref.labels_of(html, self.baseurl + url).items():
                self.labels.setdefault(ident, (to, title))
        html = link_cells(html, self.index.full)
        if self.link_code:
            html = xref.resolve_code(html, self.index.full)
        if not xref.MARKDOWN_REF.search(html):
            return html
        path = tree / where           # none for a page made from a template
        text = path.read_text("utf-8", errors="replace") if path.is_file() else ""
        return xref.resolve_markdown(html, self.index, xref.locator(where, text))


def build_reference(config: Config, tree: Path, prefix: str, version: str = "",
                    version_name: str = "", external: dict[str, str] | None = None) -> Reference | None:
    """The reference of the packages in ``tree`` for the docs section at ``prefix``; None without ``api``.
    ``external``: the inventories' objects (:func:`inventories`), read once for every version.

    A module's pages are rendered again only when a file they show changed (its own, those
    it re-exports from), its submodules' summaries or the index of names did; else the last
    build's are kept.
    """
    if not config.api:
        return None
    base = config.baseurl.rstrip("/") + prefix
    index = xref.Index(external=inventories(config) if external is None else external)
    loaded: dict[tuple, Any] = {}
    packages = [package for spec in config.api if (package := collect(tree, spec, loaded)) is not None]
    if not packages:
        return None
    index.canonical = partial(_canonical, packages)
    reference = Reference(index, highlighted=Listings(config.state_dir), baseurl=config.baseurl.rstrip("/"),
                          link_code=config.api_link_code)
    objects = _index(reference, packages, base, prefix)
    _render(reference, packages, tree, base, LastPages(
        config.state_dir / VERSIONS_DIR / f"api-{version_name or 'docs'}.msgpack", local_key(config.state_dir)),
        digest(__version__, str(codec.VERSIONS["api-pages"]), repr(config.api), base))
    reference.inventory = inventory.write(config.title, version, objects)
    return reference


def _index(reference: Reference, packages: list[Package], base: str, prefix: str) -> list[tuple[str, str, str]]:
    """Every documented object's URL into the index, its lines into the listings; the
    inventory's objects: (name, role, URI below the section)."""
    index, objects = reference.index, []
    for package in packages:
        for obj in _documented(package):
            rel = API_DIR + package.page_of(obj) + ("" if obj.is_module else "#" + obj.path)
            index.add(obj.path, base + rel)
            objects.append((obj.path, _role(obj), rel))
            if not obj.is_module and obj.lineno:
                reference.listings.setdefault(package.source(obj), []).append(package.lines(obj))
        for module in package.modules:          # re-exports: jinja2.Environment
            for alias in (m for m in module.members.values() if m.is_alias and package.documented(m)):
                found = target(alias)
                if found is not None and (url := index.own.get(found.path)):
                    index.add(alias.path, url)
                    objects.append((alias.path, _role(found), url.removeprefix(base)))
        reference.collect_warnings += package.warnings
        reference.nav += _nav(package, prefix)
    return objects


def _render(reference: Reference, packages: list[Package], tree: Path, base: str, last: LastPages,
            settings: str) -> None:
    """Each module's pages: rendered, or as the last build rendered them (with the warnings
    it gave then) while their key is the same."""
    index = reference.index
    kept = last.get()
    names = digest(settings, *(part for name in sorted(index.own) for part in (name, index.own[name])),
                   repr(sorted(index.external.items())))
    files = _file_digests(tree, packages)
    saved: dict[str, Any] = {}
    for package in packages:
        renderer = Renderer(package, index, lambda file: base + listing_path(file))
        for module in package.modules:
            key = digest(names, *package.summaries(module), *(
                part for file in sorted(package.reads(module))
                for part in (file, files.get(file) or digest((tree / file).read_bytes()))))
            again = kept.get(module.path)
            if again is not None and again[0] == key:
                pages, warned = [Page(*fields) for fields in again[1]], list(again[2])
                index.unresolved += warned
                reference.reused += 1
            else:
                before = len(index.unresolved)
                pages = renderer.module_pages(module)
                warned = index.unresolved[before:]
                reference.rendered += 1
            saved[module.path] = [key, [list(dataclasses.astuple(p)) for p in pages], warned]
            for page in pages:
                reference.pages[API_DIR + page.rel] = page
    last.put(saved)


class LastPages:
    """A version's reference pages as last rendered, by module: [key, pages, warnings]."""

    def __init__(self, path: Path, key: bytes):
        self.path, self.key = path, key

    def get(self) -> dict[str, Any]:
        try:
            found = codec.loads("api-pages", self.path.read_bytes(), self.key)
        except (OSError, codec.Garbled, ValueError, TypeError):
            return {}
        if not isinstance(found, dict) or not all(
                isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str) and all(
                    isinstance(page, list) and len(page) == 5 and all(isinstance(f, str) for f in page)
                    for page in entry[1]) and all(isinstance(w, str) for w in entry[2]) for entry in found.values()):
            return {}
        return found

    def put(self, pages: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path, codec.dumps("api-pages", pages, self.key))


class Listings:
    """Files highlighted line by line, kept by their bytes: a version built again (or another
    version holding the same file) highlights only the files that changed."""

    def __init__(self, state_dir: Path | None):
        self.cache = None if state_dir is None else DataCache(
            state_dir / "cache" / "listings", "api-listing", local_key(state_dir), _well_formed)

    def lines(self, tree: Path, file: str) -> list[SourceLine]:
        data = (tree / file).read_bytes()
        key = digest(__version__, pygments.__version__, file, data)
        kept = self.cache.get(key) if self.cache else None
        if kept is not None:
            return [SourceLine(number, html) for number, html in kept]
        lines = source_lines(data.decode("utf-8", errors="replace"), file)
        if self.cache:
            self.cache.put(key, [[line.number, line.html] for line in lines])
        return lines


def _well_formed(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(line, list) and len(line) == 2 and isinstance(line[0], int) and isinstance(line[1], str)
        for line in value)


def _file_digests(tree: Path, packages: list[Package]) -> dict[str, str]:
    files = {package.source(m) for package in packages for m in package.all_modules()}
    return {file: digest((tree / file).read_bytes()) for file in files}


def listing_path(file: str) -> str:
    """Where the listing of ``file`` (relative to the tree) is published, below the section."""
    return LISTINGS_DIR + file + ".html"


def _documented(package: Package):
    """Every object the package documents, each once (re-exports are not definitions)."""
    def walk(obj: Any):
        yield obj
        for member in obj.members.values():
            if member.is_alias or member.is_module or not package.documented(member):
                continue
            yield from walk(member)
    for module in package.modules:
        yield from walk(module)
    for defined in package.adopted.values():
        yield from walk(target(defined))


def _canonical(packages: list[Package], name: str) -> str | None:
    """The path of the object ``name`` leads to through re-exports (``jinja2.Environment`` ->
    ``jinja2.environment.Environment``), if one of ``packages`` has it."""
    for package in packages:
        top = package.root.path
        if name != top and not name.startswith(top + "."):
            continue
        try:
            found = package.root[name[len(top) + 1:]] if name != top else package.root
            return (target(found) if found.is_alias else found).path
        except Exception:     # no such member, or a re-export griffe cannot follow
            return None
    return None


def _role(obj: Any) -> str:
    if obj.is_module:
        return "py:module"
    if obj.is_class:
        return "py:class"
    in_class = obj.parent is not None and obj.parent.is_class
    if obj.is_function:
        return "py:method" if in_class else "py:function"
    return "py:attribute" if in_class else "py:data"


def trail(docs: dict[str, Any], url: str) -> list[dict[str, Any]]:
    """The pages above the reference's page at ``url`` (its breadcrumbs): the docs index, then
    the modules holding it, outermost first (``pkg``, ``pkg.mod`` above ``pkg.mod.Class``)."""
    by_url, items = {}, list(docs["api"])
    while items:
        item = items.pop()
        by_url[item["url"]] = item
        items += item["children"]
    folder, _, name = url.rpartition("/")
    parts = name.removesuffix(".html").split(".")
    above = (f"{folder}/{'.'.join(parts[:n])}.html" for n in range(1, len(parts)))
    index = [page for page in docs["pages"] if page["url"] == docs["root"]]
    return [*index, *(by_url[at] for at in above if at in by_url)]


def _nav(package: Package, prefix: str) -> list[dict[str, Any]]:
    """The package's modules as a tree: each item's title, URL (below the base URL, as the
    sidebar's other links) and children."""
    items: dict[str, dict[str, Any]] = {}
    roots = []
    for module in package.modules:
        top = module is package.root
        item = {"title": module.path if top else module.name, "url": prefix + API_DIR + package.page_of(module),
                "children": []}
        items[module.path] = item
        parent = items.get(module.parent.path) if module.parent is not None else None
        (parent["children"] if parent else roots).append(item)
    return roots


def inventories(config: Config, refresh: bool = False) -> dict[str, str]:
    """The objects of site.yaml's ``api_inventories`` -> their URLs (``refresh``: those at a URL
    fetched again, whatever their age)."""
    found: dict[str, str] = {}
    for name, source in config.api_inventories.items():
        where = f"site.yaml: api_inventories.{name}"
        if isinstance(source, ApiInventory):
            found.update(inventory.load(source.file, source.url, config.root, where))
        else:
            found.update(inventory.fetch(source, config.state_dir, config.api_inventory_days, where, refresh))
    return found
