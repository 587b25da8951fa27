"""Library methods that sitegen's speed patches stand in for, pinned to the sources they were
written against.

A patch that replaces, wraps or copies a method of Python-Markdown,
pymdownx or Pygments (often a private one) is right only while that method reads as it
did when the patch was written. Each such method's source is recorded here by
sha256, as in Python-Markdown 3.11.3, pymdown-extensions 12.3 (pyproject.toml
bounds both below their next major versions) and Pygments 2.21.0; where the installed library's
source differs, :func:`unchanged` says so, the patch is left out and the
library's own code runs: slower, never different.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
from collections.abc import Callable

COPIED = {
    "markdown.blockparser.BlockParser.parseChunk":
        "c00eb9b066a56f53f729d8942a06e9edff69c93db81c28596c2a3709a1063a9c",
    "pymdownx.superfences.SuperFencesBlockPreprocessor.reassemble":
        "a24dbfe0b6b36d432f96e5bf8ddd7d91253b5ebc5a7770afb5aa3f4a5b56f1ac",
    "markdown.postprocessors.RawHtmlPostprocessor.run":
        "2f00dbe329ee2d4e05b2cfed6d1d9c28c80da7a7da21932b26d1b1d7a7da01a0",
    "markdown.preprocessors.NormalizeWhitespace.run":
        "a99bc2f9e0d83abcd6a7155a5637176e74280f85190e3e05eb1ad20ee5366d2f",
    "markdown.treeprocessors.UnescapeTreeprocessor.unescape":
        "e39bc0842698ba68b92a763e1d99e6b98fa9933fd26c948f91a02e13eb1f317b",
    "markdown.treeprocessors.UnescapeTreeprocessor.run":
        "5752b9f6937e0084f3ebe9302efa614a4794a564c2de656ef2eac69e32d17027",
    "markdown.treeprocessors.InlineProcessor.run":
        "f6c93631f2871499bcbbc2d10ec7e4fddf1023c394179a18ce1053b16d5c9b0e",
    "markdown.treeprocessors.InlineProcessor.__handleInline":
        "fe27babc114aed0ad06af7b99ad449f4bcf2cadab8ee03065a61d3a1f85caa5b",
    "markdown.treeprocessors.InlineProcessor.__processPlaceholders":
        "3f4a6088e773c9965f1008d544aea43c4d97db9ce08f5ebc444b62bee1b29d85",
    "markdown.treeprocessors.InlineProcessor.__applyPattern":
        "8862b35197c0e6141513cea1ccb124e1d0565027073c8c84795f184ee0387596",
    "markdown.inlinepatterns.LinkInlineProcessor.getText":
        "7d0978a16aae3e5bcf046f83dbc99f98b2140103ae565a0bbd6680644647f9d6",
    "markdown.inlinepatterns.LinkInlineProcessor.getLink":
        "fa42883beb8834a6ab82da2d17b48d0ea0dfbafec17a4773fb8251db5be4181f",
    "markdown.inlinepatterns.LinkInlineProcessor.handleMatch":
        "ee8e0e843ea4b7ce64c0ba67ceea6f7583ce1e498b49349eaf4527455976905b",
    "markdown.inlinepatterns.ImageInlineProcessor.handleMatch":
        "508aa1917877b4746f85f54273e4280cdc44f3af54fdb4b0701b49831299e8b5",
    "markdown.extensions.tables.TableProcessor.test":
        "399019a4927efd462fd8e5b3096f0843b6381c1f01b59496d3c8277d10c23248",
    "markdown.inlinepatterns.ReferenceInlineProcessor.handleMatch":
        "a030528fb96718c2d51b63f8b01052b4009d0cd5beea5ac08a6cc3e6c115aca0",
    "pygments.formatters.html.HtmlFormatter._format_lines":
        "0845762c2720334a705784494e8bdf80a1c14e8d19ed07a27cf10d2f5e254434",
}


@functools.cache
def source_digest(method: Callable) -> str | None:
    try:
        return hashlib.sha256(inspect.getsource(method).encode()).hexdigest()
    except (OSError, TypeError):
        return None


def unchanged(*methods: Callable) -> bool:
    """Whether each of ``methods`` (a library's, as its class holds it) reads as it did when the
    patch standing in for it was written."""
    return all(source_digest(method) == COPIED.get(f"{method.__module__}.{method.__qualname__}")
               for method in methods)
