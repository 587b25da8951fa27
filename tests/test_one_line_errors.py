"""Input that used to stop the build with a Python traceback (issue 39, item 7) stops it with one
line naming the file and what to change, exit 1, and the last good site kept as it was."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest

from generator.cli import main
from test_bad_input import snapshot
from test_dask_executor import script
from test_notebooks import make_site

PAGES = "content/pages"


def nested_lists(site: Path) -> None:
    items = "".join("  " * level + "- item\n" for level in range(600))
    (site / PAGES / "deep.md").write_text("---\ntitle: Deep\n---\nIntro.\n\n" + items)


def deep_folders(site: Path, top: str) -> None:
    """A page 120 folders down, past the bound of 100 (not 1,000 as first reported: Python's
    shutil.rmtree recurses, and pytest could then not remove its temporary folders)."""
    here = os.getcwd()
    try:
        os.makedirs(site / top, exist_ok=True)
        os.chdir(site / top)
        for _ in range(120):
            os.mkdir("d")
            os.chdir("d")
        Path("deep.md").write_text("---\ntitle: Deep\n---\nDeep down.\n")
    finally:
        os.chdir(here)


def deep_content(site: Path) -> None:
    deep_folders(site, PAGES)


def deep_static(site: Path) -> None:
    with open(site / "site.yaml", "a") as config:
        config.write("static: [files]\n")
    deep_folders(site, "files")


def long_file_name(site: Path) -> None:
    (site / PAGES / f"{'a' * 252}.md").write_text("---\ntitle: Long\n---\nA long name.\n")


def long_permalink(site: Path) -> None:
    (site / PAGES / "short.md").write_text(f"---\ntitle: Long\npermalink: /{'b' * 300}/\n---\nText.\n")


def long_path(site: Path) -> None:
    folders = "/".join(["c" * 200] * 20)
    (site / PAGES / "short.md").write_text(f"---\ntitle: Long\npermalink: /{folders}/\n---\nText.\n")


def permalink_out_of_site(site: Path) -> None:
    (site / PAGES / "out.md").write_text("---\ntitle: Out\npermalink: /a/../../b.html\n---\nText.\n")


CASES = [
    (nested_lists, "content/pages/deep.md:605: lists nested more than 100 deep: flatten them"),
    (deep_content, "content/pages/" + "d/" * 98 + "d: folders nested more than 100 deep: "
                   "move what this folder holds nearer the top"),
    (deep_static, "files/" + "d/" * 99 + "d: folders nested more than 100 deep: "
                  "move what this folder holds nearer the top"),
    (long_file_name, f"content/pages/{'a' * 252}.md: its output /{'a' * 60}... has a name of 257 bytes"),
    (long_permalink, f"content/pages/short.md: its output /{'b' * 60}... has a name of 300 bytes, "
                     "more than the 255 a file system takes: shorten the file's name or its permalink"),
    (long_path, f"content/pages/short.md: its output /{'c' * 60}... has a path of 4030 bytes, more than "
                "2048: shorten its folders' names or its permalink"),
    # Whose pattern it is, the page's or site.yaml's, is named only when one is wrong.
    (permalink_out_of_site, "content/pages/out.md: key 'permalink': '/a/../../b.html' leaves the site"),
]


@pytest.mark.parametrize("breakage, expected", CASES, ids=[case[0].__name__ for case in CASES])
def test_one_line_naming_the_file_and_the_old_site_kept(basic_site, capsys, breakage, expected):
    assert main(["-C", str(basic_site), "build"]) == 0
    before = snapshot(basic_site / "_site")
    capsys.readouterr()

    breakage(basic_site)
    assert main(["-C", str(basic_site), "build"]) == 1

    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"error: {expected}"), err[:400]
    assert snapshot(basic_site / "_site") == before


def test_a_wrong_permalink_of_site_yaml_is_one_line_naming_site_yaml(basic_site, capsys):
    """Whose pattern it is (site.yaml's here, a page's above) is named only when one is wrong."""
    with open(basic_site / "site.yaml", "a") as config:
        config.write("permalink: /:year/:nope/:slug.html\n")
    assert main(["-C", str(basic_site), "build"]) == 1
    assert capsys.readouterr().err == (f"error: {basic_site / 'site.yaml'}: key 'permalink': unknown "
                                       "placeholder ':nope' in '/:year/:nope/:slug.html'\n")


@pytest.mark.parametrize("address", ["inproc://x", "tcp://localhost", "tls://host", "tcp://host:0"])
def test_a_dask_address_distributed_cannot_use_is_one_line_naming_the_key(tmp_path, capfd, address):
    site = make_site(tmp_path / "site", f"executor: {address}", **{"one.py": script("# # One", "1")})
    assert main(["-C", str(site), "build"]) == 1
    err = capfd.readouterr().err
    assert err == (f"error: {site / 'site.yaml'}: key 'notebooks.executor': expected 'local' or a Dask "
                   "scheduler's address (tcp, tls, ws, wss or ucx, a host and a port) such as "
                   f"tcp://host:8786, got {address!r}\n")


def test_lists_nested_too_deep_in_a_notebook_are_one_line_naming_the_cell(tmp_path, capfd):
    items = "".join("  " * level + "- item\n" for level in range(600))
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Deep"),
                                               nbformat.v4.new_markdown_cell(items)])
    site = make_site(tmp_path / "site", "execute: never", **{"deep.ipynb": notebook})
    assert main(["-C", str(site), "build"]) == 1
    err = capfd.readouterr().err
    assert err.endswith("error: notebooks/deep.ipynb: cell 2: lists nested more than 100 deep: flatten them "
                        "(set notebooks.problems: warn in site.yaml to show a note instead)\n"), err[-600:]
    assert "Traceback" not in err, err[-600:]
