"""The shape of the code: no circle of imports among generator's modules.

A circle makes every module in it depend on all the others (none can be read,
tested or loaded alone) and makes the order a process imports them in matter.
The graph counts every import, those inside functions too (an import put off
until a call is still a dependency), a package's ``__init__`` importing its
submodules, and ``from . import x``. Only imports in an ``if TYPE_CHECKING:``
block are left out: they exist for annotations and never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import REPO

PACKAGE = REPO / "generator"


def module_names() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package (a package is its ``__init__``)."""
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(REPO).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, those under ``if TYPE_CHECKING:`` left out."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of the package it imports. ``from a import b`` imports module
    ``a.b`` where there is one, as ``from a.b import c`` does (both run package ``a`` first,
    as any import of a submodule does: that is no edge), and ``a`` otherwise."""
    modules = module_names()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                           for alias in node.names]
            graph[name] |= {target for target in targets if target in modules and target != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_sees_imports_inside_functions_and_the_package_of_a_relative_import():
    graph = import_graph()
    assert "generator.readers" in graph["generator.sources"]      # inside discover_named
    assert "generator.notebooks.sanitize" in graph["generator.notebooks.widgets"]   # from generator.notebooks import
    assert "generator.outputs" in graph["generator.outputs.feeds"]                   # from generator.outputs import


def test_no_module_of_the_generator_imports_itself_through_others():
    graph = import_graph()
    found = cycles(graph)
    described = ["\n  ".join(f"{name} -> {', '.join(sorted(graph[name] & set(component)))}" for name in component)
                 for component in found]
    assert not found, "import cycles:\n  " + "\n\n  ".join(described)
