"""A build holds its documents without their HTML (issue 38: a cold build of 100,000 posts held
GiBs of it); a render reads the HTML again from the parse cache, or parses again without one."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.engine.core import Engine
from generator.site import SlimDocument, parse_document
from generator.sources import load_source

from conftest import copy_site


def test_a_cold_build_holds_no_document_html_yet_each_gives_it(tmp_path: Path) -> None:
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
