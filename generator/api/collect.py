"""A package's API as griffe reads it from a tree of files: statically, never imported.

:func:`collect` loads the package under a docs version's tree and decides
what is documented (public or all members, less site.yaml's ``exclude``
globs), which page each object is shown on, and which modules griffe could
not parse (each one warning, at its file and line; the rest is documented).
"""

from __future__ import annotations

import ast
import fnmatch
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import griffe

from generator.schema.docs import ApiPackage

API_DIR = "api/"                   # a version's reference, below its docs prefix
KINDS = ("modules", "classes", "functions", "attributes")    # how a page groups members

logging.getLogger("griffe").setLevel(logging.ERROR)   # its notes on docstrings are not the reader's


@dataclass
class Package:
    """One documented package of one docs version."""

    spec: ApiPackage
    tree: Path
    root: griffe.Module
    modules: list[griffe.Module] = field(default_factory=list)   # documented, the package first
    split: set[str] = field(default_factory=set)    # modules whose classes have pages of their own
    # objects of undocumented (private) modules that a documented one re-exports, by path ->
    # that re-export: documented there, under its public name (numpy.linalg.norm)
    adopted: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def source(self, obj: Any) -> str:
        """The file defining ``obj``, relative to the tree (and so to the site)."""
        return Path(obj.filepath).relative_to(self.tree).as_posix()

    def documented(self, obj: Any) -> bool:
        """Whether ``obj`` gets an entry: public (or any, with ``members: all``) and not excluded."""
        if any(fnmatch.fnmatchcase(obj.path, glob) for glob in self.spec.exclude):
            return False
        return self.spec.members == "all" or obj.is_public or self._reexported(obj)

    def _reexported(self, obj: Any) -> bool:
        """A public name a package's ``__init__`` imports from inside the package (``from
        .environment import Environment``): a re-export, ``__all__`` or not."""
        if not obj.is_alias or obj.name.startswith("_") or not obj.parent.is_init_module:
            return False
        return obj.target_path.startswith(self.root.package.path + ".")

    def lines(self, obj: Any) -> tuple[int, int]:
        """The lines defining ``obj`` in its file, from its ``def`` or ``class`` line (below
        its decorators) to its last."""
        start, end = obj.lineno, obj.endlineno or obj.lineno
        if obj.is_function or obj.is_class:
            keyword = ("def ", "async def ") if obj.is_function else ("class ",)
            for offset, line in enumerate(obj.lines):
                if line.lstrip().startswith(keyword):
                    return start + offset, end
        return start, end

    def members(self, obj: Any) -> dict[str, list[Any]]:
        """``obj``'s documented members by kind (:data:`KINDS`), in source order; an alias
        (a re-export) counts as what it names and only when that can be found."""
        grouped: dict[str, list[Any]] = {kind: [] for kind in KINDS}
        for member in obj.members.values():
            if not self.documented(member) or (member.is_alias and target(member) is None):
                continue
            kind = _kind(target(member) if member.is_alias else member)
            if kind:
                grouped[kind].append(member)
        for kind in ("classes", "functions", "attributes"):
            grouped[kind].sort(key=lambda m: (m.is_alias, m.lineno or 0))
        return grouped

    def inherited(self, cls: Any) -> list[Any]:
        """The documented members ``cls`` takes from its bases, as aliases to their definitions."""
        try:
            found = cls.inherited_members
        except Exception:          # a base griffe cannot find: nothing to show as inherited
            return []
        return [m for name, m in sorted(found.items()) if name not in cls.members
                and self.documented(m) and target(m) is not None and self.page_of(target(m)) is not None]

    def all_modules(self) -> list[Any]:
        """Every module griffe read of the package, documented or not."""
        return list(_all_modules(self.root.package))

    def reads(self, module: Any) -> set[str]:
        """The files whose text a module's pages show: its own and those of the definitions it
        re-exports (what a class inherits is shown by name: the index of names has it)."""
        shown = [target(m) for m in module.members.values() if m.is_alias and self.documented(m)]
        return {self.source(module), *(self.source(obj) for obj in shown if obj is not None and not obj.is_module
                                       and isinstance(obj.filepath, Path) and obj.filepath.is_relative_to(self.tree))}

    def summaries(self, module: Any) -> list[str]:
        """What a module's page shows of its submodules: their docstrings' first lines."""
        return [first_line(sub) for sub in module.modules.values() if not sub.is_alias]

    def page_of(self, obj: Any) -> str | None:
        """The page (below the reference's folder) showing ``obj``, if this package documents it."""
        module = obj if obj.is_module else obj.module
        if module.path not in self._module_paths:
            top = obj
            while top.parent is not None and not top.parent.is_module:
                top = top.parent
            alias = self.adopted.get(top.path)
            return None if alias is None or obj.is_module else alias.parent.path + ".html"
        if obj.is_class and module.path in self.split and obj.parent is module:
            return obj.path + ".html"
        parent = obj.parent
        if parent is not None and parent.is_class:
            return self.page_of(parent)
        return module.path + ".html"

    @property
    def _module_paths(self) -> set[str]:
        return {m.path for m in self.modules}


def collect(tree: Path, spec: ApiPackage, loaded: dict[tuple, Any] | None = None) -> Package | None:
    """``spec``'s package as found in ``tree`` (a docs version's files); None if that version
    has no such package (it predates it). ``loaded`` keeps the top-level packages griffe read,
    for the other parts of one package that site.yaml names."""
    search = tree / spec.path
    if not (tree / spec.folder).exists() and not (tree / (spec.folder + ".py")).is_file():
        return None
    top, _, rest = spec.package.partition(".")
    key = (search, top, spec.docstrings)
    if loaded is None or key not in loaded:
        loader = griffe.GriffeLoader(search_paths=[search], docstring_parser=spec.docstrings,
                                     allow_inspection=False)
        try:       # only in the tree: never a folder of the current directory, nor an installed one
            found = loader.load(top, try_relative_path=False)
        except ModuleNotFoundError:
            return None
        loader.resolve_aliases(implicit=False, external=False)
        if loaded is not None:
            loaded[key] = found
    else:
        found = loaded[key]
    try:
        root = found[rest] if rest else found
    except KeyError:          # the top package is there, not this part of it
        return None
    package = Package(spec, tree, root)
    _walk(package, root)
    package.adopted = _adopted(package)
    package.split = {m.path for m in package.modules if spec.class_pages
                     and sum(map(len, package.members(m).values())) > spec.class_pages}
    package.warnings = _unparsed(package, search)
    return package


def _adopted(package: Package) -> dict[str, Any]:
    """What documented modules re-export from modules that are not documented (see ``Package.adopted``)."""
    documented = {m.path for m in package.modules}
    found: dict[str, Any] = {}
    for module in package.modules:
        for alias in module.members.values():
            if not alias.is_alias or not package.documented(alias):
                continue
            defined = target(alias)
            if defined is not None and not defined.is_module and defined.module.path not in documented \
                    and defined.module.path.startswith(package.root.path + "."):
                found.setdefault(defined.path, alias)
    return found


def _walk(package: Package, module: griffe.Module) -> None:
    package.modules.append(module)
    for sub in sorted(module.modules.values(), key=lambda m: m.name):
        if not sub.is_alias and package.documented(sub):
            _walk(package, sub)


def _unparsed(package: Package, search: Path) -> list[str]:
    """One warning per file of the package that griffe left out because Python cannot parse it."""
    loaded = {Path(m.filepath) for m in _all_modules(package.root.package) if isinstance(m.filepath, Path)}
    top = package.root.package.filepath
    if not isinstance(top, Path) or top.name != "__init__.py":
        return []                      # a module of one file (griffe read it), or a namespace package
    warnings = []
    for path in sorted(top.parent.rglob("*.py")):
        if path in loaded or any(part.startswith(".") for part in path.relative_to(search).parts):
            continue
        try:
            ast.parse(path.read_bytes(), filename=str(path))
        except (SyntaxError, ValueError) as exc:
            line = getattr(exc, "lineno", None) or 1
            warnings.append(f"{path.relative_to(package.tree).as_posix()}:{line}: warning: the API "
                            f"reference leaves this module out: Python cannot parse it ({getattr(exc, 'msg', exc)})")
    return warnings


def _all_modules(module: griffe.Module):
    yield module
    for sub in module.modules.values():
        if not sub.is_alias:
            yield from _all_modules(sub)


def first_line(obj: Any) -> str:
    """The first line of ``obj``'s docstring ("" without one): what a summary of it shows."""
    return obj.docstring.value.strip().split("\n", 1)[0] if obj.docstring else ""


def target(alias: Any) -> Any:
    try:
        return alias.final_target
    except Exception:        # griffe's alias errors: the name leads outside what was loaded
        return None


def _kind(obj: Any) -> str | None:
    if obj.is_module:
        return "modules"
    if obj.is_class:
        return "classes"
    if obj.is_function:
        return "functions"
    if obj.is_attribute:
        return "attributes"
    return None
