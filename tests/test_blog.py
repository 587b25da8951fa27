"""Blog basics: ``sitegen new post`` and ``sitegen --version``; checked through real builds."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
import tomllib
from datetime import datetime, timezone
from pathlib import Path

import pytest
import yaml

from generator.build import BuildOptions, build
from generator.cli import main

REPO = Path(__file__).resolve().parents[1]
NOW = BuildOptions(now=datetime(2026, 1, 1, tzinfo=timezone.utc))


# --- sitegen new post, sitegen --version -------------------------------------------------------


@pytest.mark.parametrize("title, slug", [
    ("Ünïcode & C++ — Ça va?", "unicode-c-ca-va"),
    ("Привет, мир", "privet-mir"),
    ("深度学习编译器", "shenduxuexibianyiqi"),       # anyascii's pinyin, syllables run together
    ("Ελληνικά νέα", "ellinika-nea"),
    ("What’s new in TVM 0.18", "whats-new-in-tvm-0-18"),
    ("🎉 Party time", "tada-party-time"),
    ("Straße", "strasse"),
])
def test_new_post_is_a_draft_with_a_transliterated_slug(basic_site, capsys, title, slug):
    assert main(["-C", str(basic_site), "new", "post", title]) == 0
    created = Path(capsys.readouterr().out.removeprefix("created ").strip())
    assert created.parent == Path("content/posts") and created.name[11:] == f"{slug}.md", created
    front = yaml.safe_load((basic_site / created).read_text(encoding="utf-8").split("---\n")[1])
    assert (front["title"], front["author"], front["draft"]) == (title, "Test Author", True)
    url = f"{created.name[:10].replace('-', '/')}/{slug}.html"
    build(basic_site, BuildOptions(now=datetime(2100, 1, 1, tzinfo=timezone.utc)))
    assert not (basic_site / "_site" / url).exists()                 # a draft until the line goes
    build(basic_site, BuildOptions(now=datetime(2100, 1, 1, tzinfo=timezone.utc), drafts=True))
    assert (basic_site / "_site" / url).is_file()


def test_version_is_the_installed_distributions():
    done = subprocess.run([sys.executable, "-m", "generator", "--version"], capture_output=True, text=True,
                          cwd=REPO)
    assert done.returncode == 0, done.stderr
    installed = importlib.metadata.version("sitegen")
    assert done.stdout == f"sitegen {installed}\n"
    assert installed == tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
