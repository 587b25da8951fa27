"""The API reference (site.yaml ``api``), built from real packages installed in the test
environment: jinja2 (Sphinx-style docstrings), numpy.linalg (numpydoc) and part of Pygments.

Each package's files are copied from site-packages into a site's ``python/`` folder, as a
project keeps its package beside its docs; griffe reads them there, never importing them.
The counts asserted are found independently of sitegen: with :mod:`ast` over the same
files, and with sphobjinv (Sphinx's inventory format) over the ``objects.inv`` written.
"""

from __future__ import annotations

import ast
import contextlib
import json
import re
import shutil
import subprocess
import sys
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler
from pathlib import Path
from typing import Iterator

import jinja2
import lxml.html
import numpy
import pygments
import pytest
import sphobjinv

from generator.build import build
from generator.cache import local_key
from generator.options import BuildOptions
from generator.configure import load_config
from generator.errors import SiteError

from test_versions import commit_and_tag, git, serving as serving_on

SITE_PACKAGES = Path(jinja2.__file__).parents[1]
PYGMENTS_PART = ("__init__.py", "token.py", "util.py", "lexer.py", "filter.py", "formatter.py",
                 "style.py", "regexopt.py", "plugin.py", "modeline.py", "unistring.py")

SITE_YAML = """\
title: API test
url: https://example.org
api:
  - {package: jinja2, path: python/, docstrings: sphinx}
  - {package: numpy.linalg, path: python/, docstrings: numpy, exclude: ["numpy.linalg.tests*"]}
  - {package: pygments, path: python/, docstrings: sphinx}
"""

DOCS_INDEX = """\
---
title: Docs
---
Render with [jinja2.Environment][] or [`the template`][jinja2.Template.render].

```python
keep = x[jinja2.Environment][]
```

And a name nobody documents: [jinja2.NoSuchThing][].
"""


def copy_packages(python: Path) -> None:
    shutil.copytree(Path(jinja2.__file__).parent, python / "jinja2", ignore=shutil.ignore_patterns("__pycache__"))
    numpy_dir = Path(numpy.__file__).parent
    (python / "numpy").mkdir(parents=True)
    shutil.copy2(numpy_dir / "__init__.py", python / "numpy" / "__init__.py")
    shutil.copytree(numpy_dir / "linalg", python / "numpy" / "linalg",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    pygments_dir = Path(pygments.__file__).parent
    (python / "pygments").mkdir()
    for name in PYGMENTS_PART:
        shutil.copy2(pygments_dir / name, python / "pygments" / name)


def make_site(root: Path, site_yaml: str = SITE_YAML) -> Path:
    (root / "content" / "docs").mkdir(parents=True)
    (root / "site.yaml").write_text(site_yaml)
    (root / "content" / "docs" / "index.md").write_text(DOCS_INDEX)
    copy_packages(root / "python")
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    site = make_site(tmp_path_factory.mktemp("api") / "site")
    result = build(site)
    return site, result


def pkg_site(root: Path, docs: str, files: dict[str, str], api: str = "{package: pkg, docstrings: google}",
             settings: str = "") -> Path:
    """A small site: a docs page saying ``docs``, site.yaml documenting ``api`` (after
    ``settings``), and ``files`` (path -> text: the package, tutorials)."""
    (root / "content" / "docs").mkdir(parents=True)
    (root / "content" / "docs" / "index.md").write_text(f"---\ntitle: Docs\n---\n{docs}\n")
    (root / "site.yaml").write_text(f"title: T\nurl: https://example.org\n{settings}api:\n  - {api}\n")
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def html_of(site: Path, rel: str):
    return lxml.html.fromstring((site / "_site" / rel).read_bytes())


def public_modules(folder: Path, package: str) -> list[str]:
    """The modules of a package folder whose names are public, found with the file system alone."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(folder).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if not any(part.startswith("_") for part in parts):
            found.append(".".join((package, *parts)))
    return found


def top_level(path: Path, kind: type) -> list[str]:
    """Public names defined at a module's top level (in ``if`` blocks too), as ``ast`` sees them."""
    names = []

    def visit(body):
        for node in body:
            if isinstance(node, kind) and not node.name.startswith("_"):
                names.append(node.name)
            elif isinstance(node, ast.If):
                visit(node.body)
                visit(node.orelse)
    visit(ast.parse(path.read_bytes()).body)
    return names


def test_jinja2_one_page_per_public_module_and_every_class_and_function(built):
    site, _ = built
    folder = site / "python" / "jinja2"
    modules = public_modules(folder, "jinja2")
    api = site / "_site" / "docs" / "api"
    assert sorted(p.stem for p in api.glob("jinja2*.html")) == sorted(modules)
    assert len(modules) == 24
    classes = functions = 0
    for module in modules:
        if module == "jinja2":
            continue      # re-exports only: listed, not defined
        path = folder / (module.split(".", 1)[1].replace(".", "/") + ".py")
        tree = html_of(site, f"docs/api/{module}.html")
        expected_classes = set(top_level(path, ast.ClassDef))
        expected_functions = set(top_level(path, (ast.FunctionDef, ast.AsyncFunctionDef)))
        shown = {h.get("id").rsplit(".", 1)[-1]: h for h in tree.cssselect("h3.api-name")}
        entry_kinds = {h.get("id").rsplit(".", 1)[-1]: h.getparent().get("class") for h in shown.values()}
        assert {n for n, k in entry_kinds.items() if k == "api-entry api-class"} == expected_classes, module
        assert {n for n, k in entry_kinds.items() if k == "api-entry api-function"} == expected_functions, module
        classes += len(expected_classes)
        functions += len(expected_functions)
    assert (classes, functions) == (147, 146)


def test_parameters_documented_in_tables(built):
    site, _ = built
    tree = html_of(site, "docs/api/numpy.linalg.html")
    norm = tree.get_element_by_id("numpy.linalg._linalg.norm").getparent()
    assert norm.cssselect("h3 code")[0].text == "numpy.linalg.norm"      # its public name
    table = norm.cssselect("table.api-table")[0]
    assert [th.text for th in table.cssselect("th")] == ["Name", "Type", "Description", "Default"]
    rows = [[td.text_content().strip() for td in tr.cssselect("td")] for tr in table.cssselect("tbody tr")]
    assert [row[0] for row in rows] == ["x", "ord", "axis", "keepdims"]
    assert rows[3][1:] == ["bool", rows[3][2], "False"]        # the default is the signature's
    # every numpydoc function of numpy.linalg with a Parameters section gets its table
    documented = [h for h in tree.cssselect("section.api-function")
                  if h.cssselect("p.api-section") and h.cssselect("p.api-section")[0].text == "Parameters"]
    parameters = sum(len(s.cssselect("table.api-table")[0].cssselect("tbody tr")) for s in documented)
    source = (site / "python/numpy/linalg/_linalg.py").read_text()
    expected = {node.name for node in ast.parse(source).body if isinstance(node, ast.FunctionDef)
                and ast.get_docstring(node) and "\n    Parameters\n    ----------\n" in ast.get_docstring(node, clean=False)}
    assert len(documented) >= len(expected & set(_public_names(site / "python/numpy/linalg/__init__.py")))
    assert parameters > 2 * len(documented)
    # examples are highlighted doctest blocks; See also links are there
    assert norm.cssselect("div.highlight .gp")          # the >>> prompt, as Pygments' pycon marks it
    assert norm.cssselect("div.admonition.seealso li")


def test_sidebar_tree_search_weight_and_inherited_members(built):
    site, _ = built
    page = html_of(site, "docs/api/jinja2.sandbox.html")
    # The sidebar: each package's tree of documented modules, linking their pages.
    tops = page.cssselect("li.docs-nav-api > ul > li")
    assert [li.cssselect("a")[0].text for li in tops] == ["jinja2", "numpy.linalg", "pygments"]
    children = [a.text for a in tops[0].cssselect(":scope > ul > li > a")]
    assert children == sorted(m.split(".", 1)[1] for m in public_modules(site / "python/jinja2", "jinja2")
                              if m != "jinja2")
    assert tops[0].cssselect('a[aria-current="page"]')[0].get("href") == "/docs/api/jinja2.sandbox.html"
    # Every entry's heading, its full name, weighs ten times in search.
    headings = page.cssselect(".api-name")
    assert headings and all(h.get("data-pagefind-weight") == "10" for h in headings)
    # Inherited members: what SandboxedEnvironment takes from Environment, marked and linked.
    environment = ast.parse((site / "python/jinja2/environment.py").read_text())
    sandbox = ast.parse((site / "python/jinja2/sandbox.py").read_text())

    def methods(tree, name):
        cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
        return {n.name for n in cls.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}
    expected = methods(environment, "Environment") - methods(sandbox, "SandboxedEnvironment")
    entry = page.get_element_by_id("jinja2.sandbox.SandboxedEnvironment").getparent()
    inherited = {li.cssselect("code")[0].text: (li.cssselect("a")[0].get("href"), li.cssselect("code")[1].text)
                 for li in entry.cssselect(":scope > .api-inherited-members li.api-inherited")}
    assert expected <= set(inherited)
    assert inherited["get_template"] == ("/docs/api/jinja2.environment.html#jinja2.environment.Environment.get_template",
                                         "jinja2.environment.Environment")


def _public_names(init: Path) -> list[str]:
    found = re.search(r"__all__ = \[(.*?)\]", init.read_text(), re.S)
    return re.findall(r"['\"](\w+)['\"]", found.group(1)) if found else []


def test_signatures_are_highlighted_with_annotations_linked(built):
    site, _ = built
    tree = html_of(site, "docs/api/jinja2.environment.html")
    entry = tree.get_element_by_id("jinja2.environment.Environment.get_template").getparent()
    signature = entry.cssselect("div.highlight.api-signature pre code")[0]
    assert signature.text_content().startswith("def get_template(")
    assert signature.cssselect("span.nf")[0].text == "get_template"      # Pygments' function name
    links = {a.text_content(): a.get("href") for a in signature.cssselect("a.xref")}
    assert links["Template"] == "/docs/api/jinja2.environment.html#jinja2.environment.Template"


def test_every_source_link_lands_on_its_definition(built):
    site, _ = built
    out = site / "_site"
    checked = 0
    for page in sorted((out / "docs" / "api").glob("*.html")):
        tree = lxml.html.fromstring(page.read_bytes())
        for link in tree.cssselect("a.api-source"):
            entry = link.getparent().getparent()
            kind = entry.get("class").split()[-1]
            listing, _, anchor = link.get("href").partition("#")
            start, end = (int(n) for n in re.fullmatch(r"L(\d+)-L(\d+)", anchor).groups())
            assert start <= end
            lines = lxml.html.fromstring((out / listing.lstrip("/")).read_bytes())
            row = lines.get_element_by_id(f"L{start}")
            assert row.cssselect(f'span[id="{anchor}"]'), (page.name, anchor)
            text = row.cssselect("td.line-code")[0].text_content().strip()
            name = link.getparent().get("id").rsplit(".", 1)[-1]
            if kind in ("api-function", "api-class"):
                word = "class" if kind == "api-class" else "def"
                assert re.match(rf"(async )?{word} {name}\b", text), (page.name, anchor, text)
            else:
                assert name in text, (page.name, anchor, text)
            checked += 1
    assert checked > 1000


def test_references_resolved_and_unknown_ones_named_at_their_line(built):
    site, result = built
    tree = html_of(site, "docs/index.html")
    links = {a.text_content(): a.get("href") for a in tree.cssselect("a.xref")}
    assert links == {"jinja2.Environment": "/docs/api/jinja2.environment.html#jinja2.environment.Environment",
                     "the template": "/docs/api/jinja2.environment.html#jinja2.environment.Template.render"}
    assert "x[jinja2.Environment][]" in tree.cssselect("pre")[0].text_content()    # code stays code
    assert "content/docs/index.md:10: warning: unknown API reference 'jinja2.NoSuchThing'" in result.warnings
    # Sphinx roles in docstrings: :class:`Undefined` in Environment's, relative to its module
    environment = html_of(site, "docs/api/jinja2.environment.html").get_element_by_id(
        "jinja2.environment.Environment").getparent()
    hrefs = {a.get("href") for a in environment.cssselect("a.xref")}
    assert "/docs/api/jinja2.runtime.html#jinja2.runtime.Undefined" in hrefs
    unknown = [w for w in result.warnings if "unknown API reference" in w]
    assert all(re.match(r"python/\S+\.py:\d+: warning: ", w) for w in unknown if not w.startswith("content/"))
    assert "python/jinja2/environment.py:225: warning: unknown API reference 'markupsafe.Markup'" in unknown
    resolved = sum(len(lxml.html.fromstring(p.read_bytes()).cssselect(".docs-page a.xref"))
                   for p in (site / "_site" / "docs").rglob("*.html"))
    assert resolved > 500 and len(unknown) > 50


def test_objects_inv_lists_every_entry(built):
    site, _ = built
    inventory = sphobjinv.Inventory(site / "_site" / "docs" / "objects.inv")
    assert inventory.version == ""
    by_name = {o.name: o for o in inventory.objects}
    entries = set()
    for page in (site / "_site" / "docs" / "api").glob("*.html"):
        entries |= {h.get("id") for h in lxml.html.fromstring(page.read_bytes()).cssselect(".api-name")}
    assert entries <= set(by_name)
    env = by_name["jinja2.environment.Environment"]
    assert (env.domain, env.role, env.uri_expanded) == ("py", "class", "api/jinja2.environment.html#"
                                                        "jinja2.environment.Environment")
    assert by_name["jinja2.Environment"].uri_expanded == env.uri_expanded       # the public name too
    assert by_name["jinja2.environment"].role == "module"
    assert by_name["numpy.linalg.norm"].role == "function"


def test_inventories_of_other_projects_link_out(tmp_path):
    inventory = sphobjinv.Inventory()
    inventory.project, inventory.version = "Python", "3.11"
    for name, role, uri in (("markupsafe.Markup", "class", "markupsafe.html#$"),
                            ("json.dumps", "function", "library/json.html#$")):
        inventory.objects.append(sphobjinv.DataObjStr(name=name, domain="py", role=role, priority="1",
                                                      uri=uri, dispname="-"))
    site = make_site(tmp_path / "site", SITE_YAML + "api_inventories:\n  python: {file: inv/python.inv, "
                     "url: 'https://docs.python.org/3/'}\n")
    (site / "inv").mkdir()
    (site / "inv" / "python.inv").write_bytes(sphobjinv.compress(inventory.data_file()))
    result = build(site)
    assert not any("'markupsafe.Markup'" in w or "'json.dumps'" in w for w in result.warnings)
    utils = html_of(site, "docs/api/jinja2.utils.html")
    hrefs = {a.get("href") for a in utils.cssselect("a.xref")}
    assert {"https://docs.python.org/3/library/json.html#json.dumps",
            "https://docs.python.org/3/markupsafe.html#markupsafe.Markup"} <= hrefs


def test_a_module_python_cannot_parse_is_one_warning_and_the_rest_documented(tmp_path):
    site = pkg_site(tmp_path / "site", "See [pkg.good.add][].", {
        "pkg/__init__.py": '"""A package."""\n',
        "pkg/good.py": 'def add(a: int, b: int = 1) -> int:\n    """Add.\n\n    Args:\n'
                       '        a: The first.\n        b: The second.\n    """\n    return a + b\n',
        "pkg/bad.py": '"""Broken."""\n\ndef broken(:\n    pass\n'})
    result = build(site)
    assert [w for w in result.warnings] == ["pkg/bad.py:3: warning: the API reference leaves this module out: "
                                            "Python cannot parse it (invalid syntax)"]
    assert (site / "_site/docs/api/pkg.good.html").is_file() and not (site / "_site/docs/api/pkg.bad.html").exists()
    good = html_of(site, "docs/api/pkg.good.html")
    assert [td.text_content() for td in good.cssselect("table.api-table td")] == ["a", "int", "The first.", "",
                                                                                  "b", "int", "The second.", "1"]


@pytest.mark.parametrize("entry, message", [
    ("{package: 1bad}", "key 'api[0].package': expected a dotted Python name such as 'tvm', got '1bad'"),
    ("{package: x, docstrings: rst}", "key 'api[0].docstrings': expected one of 'numpy', 'google', 'sphinx', "
                                      "'auto', got a string 'rst'"),
    ("{package: x, path: ../up}", "key 'api[0].path': expected a folder inside the site, like 'python/', got '../up'"),
    ("{package: x, members: some}", "key 'api[0].members': expected one of 'public', 'all', got a string 'some'"),
    ("{package: x, colour: red}", "unknown key 'api[0].colour' (known keys: class_pages, docstrings, exclude, "
                                  "members, package, path)"),
])
def test_api_settings_are_checked_naming_the_key(tmp_path, entry, message):
    (tmp_path / "site.yaml").write_text(f"title: T\nurl: https://example.org\napi:\n  - {entry}\n")
    with pytest.raises(SiteError) as caught:
        load_config(tmp_path)
    assert caught.value.message == message


def test_a_docs_site_without_api_builds_its_docs_without_loading_griffe(tmp_path):
    # A fresh process, as a user runs a build: only a site with ``api`` pays for griffe.
    site = tmp_path / "site"
    (site / "content" / "docs").mkdir(parents=True)
    (site / "site.yaml").write_text("title: T\nurl: https://example.org\n")
    (site / "content" / "docs" / "index.md").write_text("---\ntitle: Docs\n---\nSee [pkg.f][].\n")
    probe = ("import json, sys; from generator.cli import main; code = main(['build']); "
             "print(json.dumps([code, 'generator.docs.versions' in sys.modules, sorted(m for m in sys.modules "
             "if m.split('.')[0] == 'griffe' or m.startswith('generator.api'))]))")
    ran = subprocess.run([sys.executable, "-c", probe], cwd=site, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout.splitlines()[-1]) == [0, True, []]      # the docs built, no API work
    assert (site / "_site" / "docs" / "index.html").is_file()


def test_a_docstring_edit_renders_that_module_again_and_each_version_keeps_its_own(tmp_path):
    repo = tmp_path / "repo"
    site = repo
    (site / "content" / "docs").mkdir(parents=True)
    (site / "content" / "docs" / "index.md").write_text("---\ntitle: Docs\n---\nSee [pkg.mod.f][].\n")
    (site / "pkg").mkdir()
    (site / "pkg" / "__init__.py").write_text('"""A package."""\n')
    (site / "pkg" / "mod.py").write_text('def f():\n    """First words."""\n')
    (site / "pkg" / "other.py").write_text('def g():\n    """Other words, see [pkg.nowhere][]."""\n')
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    commit_and_tag(repo, "v1")
    (site / "site.yaml").write_text("title: T\nurl: https://example.org\napi:\n  - {package: pkg, docstrings: google}\n"
                                    "versions:\n  - {name: dev, worktree: true}\n  - {name: v1, ref: v1, default: true}\n")
    (site / "pkg" / "mod.py").write_text('def f():\n    """Second words."""\n')
    assert sorted(build(site).warnings) == [f"pkg/other.py:2: warning: unknown API reference 'pkg.nowhere' "
                                            f"(docs version '{name}')" for name in ("dev", "v1")]
    out = site / "_site" / "docs"
    assert "Second words." in (out / "dev/api/pkg.mod.html").read_text()
    assert "First words." in (out / "v1/api/pkg.mod.html").read_text()
    other = (out / "dev/api/pkg.other.html").stat().st_mtime_ns
    (site / "pkg" / "mod.py").write_text('def f():\n    """Third words."""\n')
    result = build(site)
    assert result.reports["docs"].api_modules == (1, 2)       # pkg.mod rendered; pkg and pkg.other kept
    assert result.warnings == ["pkg/other.py:2: warning: unknown API reference 'pkg.nowhere' (docs version 'dev')"]
    assert "Third words." in (out / "dev/api/pkg.mod.html").read_text()
    assert "docs/dev/api/pkg.mod.html" in result.written
    assert "docs/dev/api/pkg.other.html" not in result.written      # same bytes: not written again
    assert (out / "dev/api/pkg.other.html").stat().st_mtime_ns == other
    assert "First words." in (out / "v1/api/pkg.mod.html").read_text()


def test_a_large_module_gives_each_class_a_page_of_its_own(tmp_path):
    site = pkg_site(tmp_path / "site", "See [pkg.mod.A.run][].", {
        "pkg/__init__.py": '"""A package."""\n',
        "pkg/mod.py": '"""Three members."""\n\n\nclass A:\n    """First."""\n\n'
                      '    def run(self) -> "B":\n        """Run."""\n\n\n'
                      'class B:\n    """Second."""\n\n\ndef f() -> A:\n    """A function."""\n',
        "pkg/small.py": '"""Two members."""\n\n\nclass C:\n    """Third."""\n\n\nx = 1\n'},
        api="{package: pkg, docstrings: google, class_pages: 2}")
    assert build(site).warnings == []
    api = site / "_site" / "docs" / "api"
    assert sorted(p.name for p in api.glob("*.html")) == ["pkg.html", "pkg.mod.A.html", "pkg.mod.B.html",
                                                          "pkg.mod.html", "pkg.small.html"]
    module = html_of(site, "docs/api/pkg.mod.html")
    assert [a.get("href") for a in module.cssselect("p.api-summary a")] == ["/docs/api/pkg.mod.A.html#pkg.mod.A",
                                                                           "/docs/api/pkg.mod.B.html#pkg.mod.B"]
    signature = module.get_element_by_id("pkg.mod.f").getparent().cssselect(".api-signature a.xref")
    assert [a.get("href") for a in signature] == ["/docs/api/pkg.mod.A.html#pkg.mod.A"]
    page = html_of(site, "docs/api/pkg.mod.A.html")
    assert page.get_element_by_id("pkg.mod.A.run") is not None
    # Its breadcrumbs: the docs index, then the modules holding it, as a docs page's.
    assert [(a.text_content(), a.get("href")) for a in page.cssselect("nav.breadcrumbs a")] == [
        ("Docs", "/docs/"), ("pkg", "/docs/api/pkg.html"), ("mod", "/docs/api/pkg.mod.html"),
        ("pkg.mod.A", "/docs/api/pkg.mod.A.html")]
    assert html_of(site, "docs/api/pkg.html").cssselect("nav.breadcrumbs a")[0].get("href") == "/docs/"
    assert html_of(site, "docs/index.html").cssselect("a.xref")[0].get("href") == "/docs/api/pkg.mod.A.html#pkg.mod.A.run"


@contextlib.contextmanager
def serving(handler: type) -> Iterator[str]:
    """``handler`` answering on a free local port, for the while: the URL of its objects.inv."""
    with serving_on(handler) as base:
        yield f"{base}/objects.inv"


def _inventory_server(tmp_path: Path, uri: str = "library/json.html#$"):
    """A folder served with an objects.inv documenting json.dumps at ``uri``, and the paths asked of it."""
    inventory = sphobjinv.Inventory()
    inventory.project, inventory.version = "Python", "3.11"
    inventory.objects.append(sphobjinv.DataObjStr(name="json.dumps", domain="py", role="function", priority="1",
                                                  uri=uri, dispname="-"))
    served = tmp_path / "served"
    served.mkdir(exist_ok=True)
    (served / "objects.inv").write_bytes(sphobjinv.compress(inventory.data_file()))
    asked = []

    class Handler(SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(served), **kwargs)

        def log_message(self, *args):
            asked.append(self.path)
    return Handler, asked


def _linking_site(tmp_path: Path, url: str, settings: str = "") -> Path:
    """A site whose docs page links json.dumps, known from the inventory at ``url``."""
    return pkg_site(tmp_path / "site", "See [json.dumps][].", {"pkg/__init__.py": '"""A package."""\n'},
                    api="{package: pkg}", settings=f"{settings}api_inventories:\n  python: {url}\n")


def test_an_inventory_at_a_url_is_fetched_once_and_kept_under_sitegen(tmp_path):
    handler, asked = _inventory_server(tmp_path)
    with serving(handler) as url:
        site = pkg_site(tmp_path / "site", "See [json.dumps][].", {"pkg/__init__.py": '"""Uses :func:`json.dumps`."""\n'},
                        api="{package: pkg}", settings=f"api_inventories:\n  python: {url}\n")
        assert build(site).warnings == []
        (site / "pkg" / "__init__.py").write_text('"""Uses json.dumps: :func:`json.dumps`."""\n')
        assert build(site).warnings == []
    assert asked == ["/objects.inv"]          # once: the second build read the kept copy
    assert len(list((site / ".sitegen" / "inventories").glob("*.msgpack"))) == 1
    link = html_of(site, "docs/index.html").cssselect("a.xref")[0].get("href")
    assert link == url.removesuffix("objects.inv") + "library/json.html#json.dumps"


def test_a_kept_inventory_tampered_with_is_refused_and_fetched_again(tmp_path):
    from generator import codec

    handler, asked = _inventory_server(tmp_path)
    with serving(handler) as url:
        site = _linking_site(tmp_path, url)
        assert build(site).warnings == []
        [kept] = (site / ".sitegen" / "inventories").glob("*.msgpack")
        fresh = kept.read_bytes()
        # One bit of the kept inventory changed; then one sealed with another checkout's key.
        for tampered in (fresh[:-1] + bytes([fresh[-1] ^ 1]),
                         codec.dumps("api-inventory", codec.loads("api-inventory", fresh, local_key(site / ".sitegen")),
                                     b"another checkout's key".ljust(32))):
            kept.write_bytes(tampered)
            assert build(site).warnings == []
            assert kept.read_bytes() != tampered
        assert build(site).warnings == []        # the copy fetched again is kept
    assert asked == ["/objects.inv"] * 3         # fetched at first, and again after each tampering
    link = html_of(site, "docs/index.html").cssselect("a.xref")[0].get("href")
    assert link == url.removesuffix("objects.inv") + "library/json.html#json.dumps"


def test_an_expired_inventory_is_fetched_again_and_refresh_fetches_it_whatever_its_age(tmp_path):
    from generator import codec

    handler, asked = _inventory_server(tmp_path)
    with serving(handler) as url:
        site = _linking_site(tmp_path, url, "api_inventory_days: 2\n")
        assert build(site).warnings == []
        assert build(site).warnings == []
        assert asked == ["/objects.inv"]
        [kept] = (site / ".sitegen" / "inventories").glob("*.msgpack")
        key = local_key(site / ".sitegen")
        entry = codec.loads("api-inventory", kept.read_bytes(), key)
        entry["fetched"] -= 3 * 86400.0           # fetched three days ago: older than api_inventory_days
        kept.write_bytes(codec.dumps("api-inventory", entry, key))
        _inventory_server(tmp_path, "library/json2.html#$")       # the project's inventory moved meanwhile
        assert build(site).warnings == []       # no file of the site changed: the expired copy was fetched again
        assert asked == ["/objects.inv"] * 2
        assert html_of(site, "docs/index.html").cssselect("a.xref")[0].get("href").endswith("/json2.html#json.dumps")
        assert build(site).warnings == []       # fresh again: kept
        assert asked == ["/objects.inv"] * 2
        assert build(site, BuildOptions(refresh=True)).warnings == []
        assert asked == ["/objects.inv"] * 3


def test_an_inventory_whose_download_breaks_off_is_one_error_and_nothing_kept(tmp_path):
    class Handler(BaseHTTPRequestHandler):      # promises 1000 bytes, sends a few and hangs up
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"# Sphinx inventory version 2\n")
            self.close_connection = True

        def log_message(self, *args):
            pass

    with serving(Handler) as url:
        site = _linking_site(tmp_path, url)
        with pytest.raises(SiteError) as caught:
            build(site)
    assert caught.value.message.startswith(f"site.yaml: api_inventories.python: could not fetch {url} (")
    assert "\n" not in caught.value.message
    assert not list((site / ".sitegen").glob("inventories/*"))


def test_a_tutorials_text_links_references_and_names_an_unknown_one_at_its_line(tmp_path):
    site = pkg_site(tmp_path / "site", "The docs.", {
        "pkg/__init__.py": '"""A package."""\n\n\ndef f() -> int:\n    """One."""\n    return 1\n',
        "notebooks/intro.py": '"""\nIntro\n=====\n\nCall [pkg.f][] first.\n\n'
                              'Then [pkg.g][].\n"""\n\nx = [1][0]  # [pkg.f][] in code\n'})
    result = build(site)
    assert result.warnings == ["notebooks/intro.py:7: warning: unknown API reference 'pkg.g'"]
    tutorial = html_of(site, "docs/tutorials/intro.html")
    assert [a.get("href") for a in tutorial.cssselect("a.xref")] == ["/docs/api/pkg.html#pkg.f"]
    description = tutorial.cssselect('meta[name="description"]')[0].get("content")
    assert description.startswith("Call [pkg.f][] first.")       # an attribute keeps its text
    assert "# [pkg.f][] in code" in tutorial.cssselect("pre")[0].text_content()


def test_source_listings_are_highlighted_once_per_file_content_and_the_kept_ones_are_the_fresh_ones(tmp_path):
    repo = tmp_path / "repo"
    (repo / "content" / "docs").mkdir(parents=True)
    (repo / "content" / "docs" / "index.md").write_text("---\ntitle: Docs\n---\nSee [pkg.mod.f][].\n")
    (repo / "pkg").mkdir()
    (repo / "pkg" / "__init__.py").write_text('"""A package."""\n')
    (repo / "pkg" / "mod.py").write_text('def f():\n    """First words."""\n    return """a\nlong string"""\n')
    (repo / "pkg" / "other.py").write_text('class G:\n    """Other words."""\n\n    def run(self) -> int:\n'
                                           '        return 1  # one\n')
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    commit_and_tag(repo, "v1")
    (repo / "site.yaml").write_text("title: T\nurl: https://example.org\napi:\n  - {package: pkg, docstrings: google}\n"
                                    "versions:\n  - {name: dev, worktree: true}\n  - {name: v1, ref: v1, default: true}\n")
    assert build(repo).warnings == []
    kept = repo / ".sitegen" / "cache" / "listings"
    entries = {p: p.stat().st_mtime_ns for p in kept.rglob("*.msgpack")}
    assert len(entries) == 2          # mod.py and other.py (__init__.py defines nothing): once for both versions
    (repo / "pkg" / "mod.py").write_text('def f():\n    """Second words."""\n    return """a\nlong string"""\n')
    assert build(repo).warnings == []
    again = {p: p.stat().st_mtime_ns for p in kept.rglob("*.msgpack")}
    assert len(again) == 3 and {p: again[p] for p in entries} == entries      # only the edited file highlighted
    # The listings made from kept lines are those a build without any cache makes.
    fresh = tmp_path / "fresh"
    shutil.copytree(repo, fresh, ignore=shutil.ignore_patterns(".sitegen", "_site"))
    assert build(fresh).warnings == []
    listings = sorted(p.relative_to(repo / "_site") for p in (repo / "_site").rglob("_source/**/*.html"))
    assert len(listings) == 4
    for rel in listings:
        assert (repo / "_site" / rel).read_bytes() == (fresh / "_site" / rel).read_bytes()


GALLERY = '''"""
Templates
=========

Render one.
"""

import jinja2
from jinja2 import Template as T
from jinja2.utils import pass_context as pc

env = jinja2.Environment(autoescape=True)
print(T("{{ x }}").render(x=1), len("Environment"), jinja2.environment.os.sep, pc)
Environment = None
'''

NOTEBOOK = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"title": "Sandbox"}, "cells": [
    {"cell_type": "markdown", "id": "a", "metadata": {}, "source": "# Sandbox\n\nText."},
    {"cell_type": "code", "id": "b", "metadata": {}, "execution_count": None, "outputs": [],
     "source": "%time x = 1\nimport jinja2.sandbox as sb"},
    {"cell_type": "code", "id": "c", "metadata": {}, "execution_count": None, "outputs": [],
     "source": "sb.SandboxedEnvironment().from_string('{{ 1 }}').render()"}]}


def test_names_in_tutorials_code_cells_link_their_entries_through_the_cells_imports(tmp_path):
    site = pkg_site(tmp_path / "site", "The docs.", {"notebooks/templates.py": GALLERY,
                                                     "notebooks/sandbox.ipynb": json.dumps(NOTEBOOK)},
                    api="{package: jinja2, path: python/, docstrings: sphinx}")
    shutil.copytree(Path(jinja2.__file__).parent, site / "python" / "jinja2",
                    ignore=shutil.ignore_patterns("__pycache__"))
    warnings = build(site).warnings
    assert not [w for w in warnings if not w.startswith("python/jinja2/")]   # a name nobody documents: unwarned

    def links(rel):
        page = html_of(site, rel)
        return [(a.text_content(), a.get("href")) for a in page.cssselect(".nb-input a.xref")]
    api = "/docs/api/"
    environment = api + "jinja2.environment.html#jinja2.environment."
    assert links("docs/tutorials/templates.html") == [
        ("jinja2", api + "jinja2.html"),
        ("jinja2", api + "jinja2.html"), ("T", environment + "Template"),
        ("jinja2.utils", api + "jinja2.utils.html"), ("pc", api + "jinja2.utils.html#jinja2.utils.pass_context"),
        ("jinja2", api + "jinja2.html"), ("Environment", environment + "Environment"),
        ("T", environment + "Template"),
        ("jinja2", api + "jinja2.html"), ("environment", api + "jinja2.environment.html"),   # not os: jinja2's import
        ("pc", api + "jinja2.utils.html#jinja2.utils.pass_context")]
    assert links("docs/tutorials/sandbox.html") == [
        ("jinja2.sandbox", api + "jinja2.sandbox.html"),
        ("sb", api + "jinja2.sandbox.html"), ("SandboxedEnvironment", api + "jinja2.sandbox.html#jinja2.sandbox.SandboxedEnvironment")]
    # The code reads as it did: only links were added around the token spans.
    code = html_of(site, "docs/tutorials/templates.html").cssselect(".nb-input pre")[0].text_content()
    assert 'env = jinja2.Environment(autoescape=True)' in code and "Environment = None" in code


TABLES = '''"""Tables.

A grid table:

+--------+-------------------+
| Mode   | Meaning           |
+========+===================+
| ``r``  | read, see         |
|        | :func:`pkg.f`     |
+--------+-------------------+
| both columns, spanned      |
+----------------------------+

A simple table:

=====  =====
A      B
=====  =====
1      <x>
=====  =====

A broken one:

+-----+----+
| a | b  |
+-----+----+

Install it first: :ref:`install`; then :ref:`Start here <getting-started>`,
:ref:`the tutorial <tut-label>`, and :ref:`nowhere`.
"""


def f():
    """One."""
'''

GOOGLE = '''"""Google style: read :ref:`install` and :ref:`nothing-here`."""
'''


def test_rest_tables_render_as_tables_and_refs_resolve_to_the_docs_labels_or_warn_at_their_line(tmp_path):
    site = pkg_site(tmp_path / "site", "(install)=\n## Installing it\n\nText.\n\n## Getting started\n\nMore.", {
        "pkg/__init__.py": TABLES, "gpkg/__init__.py": GOOGLE,
        "notebooks/tut.py": '"""\n.. _tut-label:\n\nThe tutorial\n============\n\nText.\n"""\n\nx = 1\n'},
        api="{package: pkg, docstrings: sphinx}\n  - {package: gpkg, docstrings: google}")
    result = build(site)
    assert sorted(result.warnings) == [
        "gpkg/__init__.py:1: warning: unknown label 'nothing-here' (a :ref: names a label or heading of the docs)",
        "pkg/__init__.py:24: warning: a reST table docutils cannot read, shown as written (its lines are not "
        "all as wide as its border)",
        "pkg/__init__.py:29: warning: unknown label 'nowhere' (a :ref: names a label or heading of the docs)"]
    page = html_of(site, "docs/api/pkg.html")
    grid, simple = page.cssselect("table.api-table")[:2]
    assert [[c.text_content().strip() for c in row] for row in grid.cssselect("tr")] == [
        ["Mode", "Meaning"], ["r", "read, see\npkg.f"], ["both columns, spanned"]]
    assert grid.cssselect("tr")[2][0].get("colspan") == "2"
    assert grid.cssselect("a.xref")[0].get("href") == "/docs/api/pkg.html#pkg.f"
    assert [[c.text_content() for c in row] for row in simple.cssselect("tr")] == [["A", "B"], ["1", "<x>"]]
    assert [pre.text_content() for pre in page.cssselect("pre") if "| a |" in pre.text_content()] == [
        "+-----+----+\n| a | b  |\n+-----+----+"]      # the broken one, as written
    refs = {a.text_content(): a.get("href") for a in page.cssselect("a.xref") if "api" not in a.get("href")}
    assert refs == {"Installing it": "/docs/#install", "Start here": "/docs/#getting-started",
                    "the tutorial": "/docs/tutorials/tut.html#tut-label"}
    assert [e.text_content() for e in page.cssselect("p em")] == ["nowhere"]
    google = html_of(site, "docs/api/gpkg.html")
    assert [(a.text_content(), a.get("href")) for a in google.cssselect("a.xref")] == [("Installing it", "/docs/#install")]


@pytest.mark.parametrize("enabled", [True, False])
def test_plain_code_spans_naming_an_entry_link_it_where_site_yaml_enables_it(tmp_path, enabled):
    site = pkg_site(tmp_path / "site", "Call `pkg.f` or `pkg.f()`, not `pkg.nowhere` nor `f`; "
                    "[`pkg.f`][pkg.f] once.\n\n```python\npkg.f()\n```\n\n`json.dumps`", {
                        "pkg/__init__.py": '"""A package."""\n\n\ndef f() -> int:\n    """One."""\n    return 1\n',
                        "notebooks/intro.py": '"""\nIntro\n=====\n\nSee `pkg.f`.\n"""\n\nx = "pkg.f"\n'},
                    settings=f"api_link_code: {str(enabled).lower()}\n")
    assert build(site).warnings == []          # a code span that is no entry is not a reference: unwarned
    docs = html_of(site, "docs/index.html")
    links = [(a.text_content(), a.get("href")) for a in docs.cssselect(".docs-page a.xref, article a.xref")]
    entry = "/docs/api/pkg.html#pkg.f"
    assert links == ([("pkg.f", entry), ("pkg.f()", entry)] if enabled else []) + [("pkg.f", entry)]
    tutorial = html_of(site, "docs/tutorials/intro.html")
    assert [a.get("href") for a in tutorial.cssselect("a.xref")] == ([entry] if enabled else [])


def test_html_in_rest_docstrings_is_shown_as_text_in_text_tables_parameters_and_refs(tmp_path):
    hostile = '<script>alert(1)</script><img src=x onerror="alert(2)">'
    site = pkg_site(tmp_path / "site", "(install)=\n## Installing", {"pkg/__init__.py": f'''"""Text {hostile}.

=====  ==========================================================
A      B
=====  ==========================================================
1      {hostile}
=====  ==========================================================

See :ref:`a&b "q" <install>` and :func:`{hostile} <pkg.f>`.
"""


def f(x):
    """One.

    :param x: {hostile}
    """
'''}, api="{package: pkg, docstrings: sphinx}")
    assert build(site).warnings == []
    page = html_of(site, "docs/api/pkg.html")
    assert not page.cssselect(".docs-page script, .docs-page img, article script, article img")
    text = page.text_content()
    assert text.count(hostile) == 4        # the text, the table cell, the role title, the parameter
    assert {a.text_content(): a.get("href") for a in page.cssselect("a.xref")} == {
        'a&b "q"': "/docs/#install", hostile: "/docs/api/pkg.html#pkg.f"}
