"""A build holds its documents without their HTML past a budget (issue 38: a cold build of
100,000 posts held GiBs of it); a render reads the HTML again from the parse cache, or parses
again without one. Below the budget the documents are held whole, and the site is the same."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.engine import documents as engine_documents
from generator.engine.core import Engine
from generator.site import SlimDocument, parse_document
from generator.sources import load_source

from conftest import copy_site


def test_a_cold_build_holds_no_document_html_past_its_budget_yet_each_gives_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine_documents, "HELD_IN_FULL", 0)
    site = copy_site(tmp_path / "site", "basic")
    engine = Engine(site)
    engine.build()
    documents = [p.document for p in engine.last.parsed.values()]
    assert len(documents) > 2 and not any(name in vars(doc) for doc in documents for name in SlimDocument.REREAD)
    parsed = [parse_document(load_source(site, doc.kind, doc.source), engine.config) for doc in documents]
    for cache in (True, False):        # from the parse cache; parsed again once it is gone
        for doc, its_parse in zip(documents, parsed):
            assert (doc.content, doc.toc, doc.excerpt) == (its_parse.content, its_parse.toc, its_parse.excerpt)
        shutil.rmtree(site / ".sitegen" / "cache" / "documents", ignore_errors=True)
    assert not any(name in vars(doc) for doc in documents for name in SlimDocument.REREAD)


def files(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def test_documents_held_whole_below_the_budget_make_the_same_site_as_slim_ones(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = copy_site(tmp_path / "whole", "basic")
    engine = Engine(whole)
    engine.build()
    held = [p.document for p in engine.last.parsed.values()]
    assert len(held) > 2 and not any(isinstance(doc, SlimDocument) for doc in held)
    monkeypatch.setattr(engine_documents, "HELD_IN_FULL", 0)
    slim = copy_site(tmp_path / "slim", "basic")
    Engine(slim).build()
    assert files(whole / "_site") == files(slim / "_site")
