"""`sitegen import jekyll` on a hostile Jekyll site: the imported templates run nothing, nothing
outside the Jekyll site is copied in, and a bad ``_config.yml`` is one line, fast.

Each attack has a canary outside both sites: a file its payload would create, or a secret
whose text must appear nowhere in the imported site.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.build import build
from generator.cli import main
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
    "{{ include.mro }}",
    '{{ site.posts | sort: "__class__.__name__" | first }}',
])
def test_python_internals_are_not_copied_into_templates(tmp_path, liquid) -> None:
    html, report = imported_and_built(tmp_path, "{{ content }}{% include x.html %}", {"x.html": liquid})
    assert "<p>Hello</p>" in html
    assert "__builtins__" not in html and "<class" not in html and "&lt;class" not in html
    assert "_includes/x.html:1" in neutralised(report)
