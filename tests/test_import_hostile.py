"""`sitegen import jekyll` on a hostile Jekyll site: the imported templates run nothing, nothing
outside the Jekyll site is copied in, and a bad ``_config.yml`` is one line, fast.

Each attack has a canary outside both sites: a file its payload would create, or a secret
whose text must appear nowhere in the imported site.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from generator.build import build
from generator.errors import SiteError
from generator.importers.jekyll import import_jekyll

POST = "---\nlayout: default\ntitle: A\n---\nHello\n"
SECRET = "CANARY-SECRET-6b1d"


def jekyll_site(folder: Path, layout: str, includes: dict[str, str] | None = None) -> Path:
    for rel, text in {"_config.yml": "title: T\nurl: https://example.org\n", "_posts/2020-01-01-a.md": POST,
                      "_layouts/default.html": layout,
                      **{f"_includes/{name}": text for name, text in (includes or {}).items()}}.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return folder


def imported_and_built(tmp_path: Path, layout: str, includes: dict[str, str] | None = None) -> tuple[str, str]:
    """The built post's HTML and the import report."""
    source = jekyll_site(tmp_path / "jekyll", layout, includes)
    import_jekyll(source, tmp_path / "site")
    build(tmp_path / "site")
    page = next((tmp_path / "site/_site").rglob("a.html"), None) or next((tmp_path / "site/_site").rglob("a/index.html"))
    return page.read_text(), (tmp_path / "site/IMPORT-REPORT.md").read_text()


def neutralised(report: str) -> str:
    return report.split("## Neutralised", 1)[1].split("## To do by hand", 1)[0]


RUN = 'if cycler.__init__.__globals__.os.system("touch {canary}")'


@pytest.mark.parametrize("layout", [
    # Liquid does not read '{%+' as a tag: the text was wrapped in {% raw %}, which it ended.
    "<style>a{{# x</style>{{%+ endraw %}}{{%+ {run} %}}{{%+ endif %}}{{%+ raw %}}\n{{{{ content }}}}",
    # The same inside a Liquid raw block, whose end Liquid finds later than Jinja would.
    "{{% raw %}}{{%+ endraw %}}{{%+ {run} %}}{{%+ endif %}}{{%+ raw %}}{{% endraw %}}\n{{{{ content }}}}",
    "{{% raw %}}{{%- endraw -%}}{{%+ {run} %}}{{%+ endif %}}\n{{{{ content }}}}",
], ids=["text", "raw-plus", "raw-minus"])
def test_a_layout_that_escapes_the_raw_wrapping_runs_nothing_when_built(tmp_path, layout) -> None:
    canary = tmp_path / "canary"
    html, report = imported_and_built(tmp_path, layout.format(run=RUN.format(canary=canary)))
    assert not canary.exists(), "the imported layout ran a command"
    assert "<p>Hello</p>" in html and "cycler.__init__" in html       # shown as the text it was
    assert "_layouts/default.html:1" in neutralised(report)


@pytest.mark.parametrize("liquid", [
    "{{ cycler.__init__.__globals__ }}",
    "{% assign x = site.posts %}{{ x.__class__.__mro__ }}",
    "{{ include.__init__.__globals__ }}",
    '{{ include["__class__"] }}',
    '{{ site.posts | sort: "__class__.__name__" | first }}',
])
def test_python_internals_are_not_copied_into_templates(tmp_path, liquid) -> None:
    html, report = imported_and_built(tmp_path, "{{ content }}{% include x.html n=1 %}", {"x.html": liquid})
    assert "<p>Hello</p>" in html
    assert "__builtins__" not in html and "<class" not in html and "&lt;class" not in html
    assert "_includes/x.html:1" in neutralised(report)


def test_a_name_python_has_is_read_as_a_key_never_as_pythons(tmp_path) -> None:
    """``include.mro`` (as a locale's ``byline.format``) is a key of the value, looked up by ``item``,
    which never falls back to an attribute: nothing of Python's is shown, so nothing is left out."""
    html, report = imported_and_built(tmp_path, "{{ content }}{% include x.html n=1 mro=7 %}",
                                      {"x.html": "[{{ include.mro }}|{{ include.format }}]"})
    assert "[7|]" in html
    assert "_includes/x.html" not in neutralised(report)


def test_a_key_known_only_when_rendering_is_never_an_attribute(tmp_path) -> None:
    """Jinja's x[k] falls back to the attribute named k: converted templates look keys up
    with the ``item`` filter, which does not."""
    liquid = ('{% assign k = "__class__" %}[{{ include[k] }}][{{ include.n[k] }}]'
              '[{{ site.data.menus[include.key].name }}]')
    source = jekyll_site(tmp_path / "jekyll", "{{ content }}{% include x.html n=1 key=\"main\" %}",
                         {"x.html": liquid})
    (source / "_data").mkdir()
    (source / "_data/menus.yml").write_text("main: {name: Home}\n")
    import_jekyll(source, tmp_path / "site")
    build(tmp_path / "site")
    html = next((tmp_path / "site/_site").rglob("a.html")).read_text()
    assert "[][][Home]" in html, html


# -- symbolic links in the Jekyll site --------------------------------------------------------

def test_symbolic_links_bring_nothing_from_outside_into_the_site(tmp_path) -> None:
    outside = tmp_path / "outside"
    (outside / "folder").mkdir(parents=True)
    for path in (outside / "secret.txt", outside / "folder/secret.css", outside / "post.md",
                 outside / "layout.html", outside / "data.yml", outside / "include.html"):
        path.write_text(f"---\ntitle: {SECRET}\n---\n{SECRET}\n" if path.suffix == ".md" else SECRET + "\n")
    before = {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()}
    source = jekyll_site(tmp_path / "jekyll", "{{ content }}")
    (source / "real.txt").write_text("inside\n")
    (source / ".git").mkdir()
    (source / ".git/config").write_text(f"[remote]\n  token = {SECRET}\n")
    links = {"secret.txt": outside / "secret.txt", "css": outside / "folder",
             "_posts/2020-01-02-s.md": outside / "post.md", "_layouts/evil.html": outside / "layout.html",
             "_data/d.yml": outside / "data.yml", "_includes/i.html": outside / "include.html",
             "config.txt": source / ".git/config", "copy.txt": source / "real.txt"}
    for rel, target in links.items():
        (source / rel).parent.mkdir(exist_ok=True)
        (source / rel).symlink_to(target)
    result = import_jekyll(source, tmp_path / "site")
    site = tmp_path / "site"
    for path in site.rglob("*"):
        assert not path.is_symlink(), path
        assert not path.is_file() or SECRET.encode() not in path.read_bytes(), path
    assert (site / "copy.txt").read_text() == "inside\n"       # a link inside the site: its file
    assert result.posts == 1 and result.data == 0 and result.includes == 0
    report = (site / "IMPORT-REPORT.md").read_text()
    for rel in ("secret.txt", "css", "_posts/2020-01-02-s.md", "_layouts/evil.html", "_data/d.yml",
                "_includes/i.html", "config.txt"):
        assert f"`{rel}:1`" in report, rel
    assert {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()} == before


def test_a_folder_of_the_site_linked_outside_is_not_read(tmp_path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "2020-01-03-x.md").write_text(f"---\ntitle: {SECRET}\n---\n")
    source = jekyll_site(tmp_path / "jekyll", "{{ content }}")
    (source / "_data").symlink_to(outside)
    (source / "_includes").symlink_to(outside)
    import_jekyll(source, tmp_path / "site")
    assert not any(SECRET.encode() in p.read_bytes() for p in (tmp_path / "site").rglob("*") if p.is_file())
    assert "2020-01-03-x" not in (tmp_path / "site/IMPORT-REPORT.md").read_text()  # not even its name


def test_a_config_linked_outside_is_one_line(tmp_path) -> None:
    (tmp_path / "secret.yml").write_text(f"title: {SECRET}\n")
    source = jekyll_site(tmp_path / "jekyll", "{{ content }}")
    (source / "_config.yml").unlink()
    (source / "_config.yml").symlink_to(tmp_path / "secret.yml")
    with pytest.raises(SiteError, match="symbolic link to outside"):
        import_jekyll(source, tmp_path / "site")


# -- _config.yml ---------------------------------------------------------------------------------

def run_import(source: Path, dest: Path, timeout: float) -> subprocess.CompletedProcess:
    """`sitegen import jekyll` in a process of at most 1 GB."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    return subprocess.run([sys.executable, "-m", "generator", "import", "jekyll", str(source), str(dest)],
                          capture_output=True, text=True, timeout=timeout, preexec_fn=limit,
                          cwd=Path(__file__).parent.parent)


def test_an_alias_bomb_in_the_config_is_refused_fast_in_one_line(tmp_path) -> None:
    source = jekyll_site(tmp_path / "jekyll", "{{ content }}")
    levels = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for previous, name in zip("abcdefgh", "bcdefghi"):
        levels.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
    (source / "_config.yml").write_text("title: T\n" + "\n".join(levels) + "\nkramdown:\n  options: *i\n")
    done = run_import(source, tmp_path / "site", timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    # named at the alias that crossed the limit (*e, line 7)
    assert done.stderr.count("\n") == 1 and "_config.yml:7:" in done.stderr and "alias" in done.stderr, done.stderr


def test_a_binary_config_is_one_line(tmp_path) -> None:
    source = jekyll_site(tmp_path / "jekyll", "{{ content }}")
    (source / "_config.yml").write_bytes(b"title: T\nlogo: \x89PNG\r\n\x1a\n\x00\xff\xfe")
    done = run_import(source, tmp_path / "site", timeout=60)
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "_config.yml:2:" in done.stderr and "UTF-8" in done.stderr, done.stderr


def test_a_large_config_has_each_key_noted_at_its_line(tmp_path) -> None:
    """The report's key lines are found in one pass (a search per key took minutes on a 1 MB
    config, as commit 6dcda85 measured; the timeout only ends a run that hangs)."""
    source = jekyll_site(tmp_path / "jekyll", "{{ content }}")
    keys = "".join(f"key_{n}: value number {n}\n" for n in range(20_000))     # 0.5 MB, each noted
    (source / "_config.yml").write_text("title: T\nurl: https://example.org\n" + keys)
    done = run_import(source, tmp_path / "site", timeout=300)
    assert done.returncode == 0, done.stderr
    assert "`_config.yml:20002`: `key_19999`" in (tmp_path / "site/IMPORT-REPORT.md").read_text()


@pytest.mark.parametrize("setting, expected", [
    ("paginate: lots", "key 'paginate': expected a whole number of posts per page, got 'lots'"),
    ("defaults: [1, 2]", "key 'defaults': expected a list of entries, each with a 'scope' and 'values' mapping"),
    ("defaults:\n  - scope: 3\n    values: x", "key 'defaults': expected a list of entries"),
    ("plugins: 5", "key 'plugins': expected a list of plugin names, got 5"),
    ("exclude: 3", "key 'exclude': expected a list of paths, got 3"),
    ("kramdown: [a]", "key 'kramdown': expected a mapping of kramdown options"),
])
def test_a_setting_of_the_wrong_shape_is_one_line_naming_its_key(tmp_path, setting, expected) -> None:
    """Each was a traceback (int() of 'lots', .get of an int, iterating an int)."""
    source = jekyll_site(tmp_path / "jekyll", "{{ content }}")
    (source / "_config.yml").write_text(f"title: T\n{setting}\n")
    done = run_import(source, tmp_path / "site", timeout=60)
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert f"_config.yml:2: {expected}" in done.stderr, done.stderr

