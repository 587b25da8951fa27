"""The speed patches of Python-Markdown and pymdownx stand in for library methods only while
those read as they did when the patches were written (generator/pinned.py): with another
version of a method, the library's own runs, and the text is the same."""

from __future__ import annotations

from markdown.blockparser import BlockParser
from markdown.extensions.tables import TableProcessor
from markdown.treeprocessors import InlineProcessor

from generator import pinned
from generator.inline import SkippingInlineProcessor
from generator.markdown import markdown_converter
from generator.sources import split_front_matter
from tests.conftest import REPO


def patched(md) -> dict[str, bool]:
    """Which of the patches ``md`` has."""
    return {"parseChunk": "parseChunk" in vars(md.parser),
            "reassemble": "reassemble" in vars(md.preprocessors["fenced_code_block"]),
            "raw_html": "run" in vars(md.postprocessors["raw_html"]),
            "normalize_whitespace": "run" in vars(md.preprocessors["normalize_whitespace"]),
            "unescape": "unescape" in vars(md.treeprocessors["unescape"]),
            "unescape_tree": "run" in vars(md.treeprocessors["unescape"]),
            "table_test": any("test" in vars(p) for p in md.parser.blockprocessors if type(p) is TableProcessor),
            "inline": type(md.treeprocessors["inline"]) is SkippingInlineProcessor}


def test_the_installed_libraries_are_the_ones_the_patches_were_written_for():
    """If this fails, a library changed a method a patch stands in for: read the new method,
    mend the patch if it must change, and record the new method's digest in generator.pinned."""
    changed = [name for name in pinned.COPIED if not any(
        pinned.unchanged(method) for method in methods_named(name))]
    assert not changed
    assert all(patched(markdown_converter()).values())


def methods_named(name: str) -> list:
    """The method ``module.Class.method`` names (a private one by its mangled name)."""
    import importlib

    parts = name.split(".")
    for cut in range(len(parts) - 2, 0, -1):
        try:
            owner = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:-1]:
            owner = getattr(owner, part)
        attribute = parts[-1]
        return [getattr(owner, f"_{parts[-2]}{attribute}" if attribute.startswith("__") else attribute)]
    return []


def test_with_another_version_of_a_method_the_library_runs_its_own_and_reads_the_same(monkeypatch):
    fast = markdown_converter()
    for name in ("markdown.blockparser.BlockParser.parseChunk",
                 "pymdownx.superfences.SuperFencesBlockPreprocessor.reassemble",
                 "markdown.postprocessors.RawHtmlPostprocessor.run",
                 "markdown.preprocessors.NormalizeWhitespace.run",
                 "markdown.treeprocessors.UnescapeTreeprocessor.unescape",
                 "markdown.treeprocessors.UnescapeTreeprocessor.run",
                 "markdown.extensions.tables.TableProcessor.test",
                 "markdown.treeprocessors.InlineProcessor.__handleInline"):
        monkeypatch.setitem(pinned.COPIED, name, "0" * 64)      # as another version's source would hash
    plain = markdown_converter()
    assert not any(patched(plain).values())
    assert type(plain.treeprocessors["inline"]) is InlineProcessor
    assert plain.parser.parseChunk.__func__ is BlockParser.parseChunk
    documents = sorted(p for p in (REPO / "content").rglob("*.md"))
    assert len(documents) > 10
    for path in documents:
        _, body, _ = split_front_matter(path.read_text(encoding="utf-8"), path)
        fast.reset()
        plain.reset()
        assert fast.convert(body) == plain.convert(body), path


def test_with_another_version_of_pygments_loop_its_own_formats_the_tokens(monkeypatch):
    from pygments.formatters import HtmlFormatter

    from generator.highlight import quicker

    assert "_format_lines" in vars(quicker(HtmlFormatter(wrapcode=True)))
    monkeypatch.setitem(pinned.COPIED, "pygments.formatters.html.HtmlFormatter._format_lines", "0" * 64)
    assert "_format_lines" not in vars(quicker(HtmlFormatter(wrapcode=True)))
