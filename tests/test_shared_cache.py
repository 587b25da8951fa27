"""A run cache shared between builds: a folder URL, and the same folder served over real HTTP.

One site runs its tutorials with ``notebooks.cache`` pointing at a folder;
other sites, each with an empty local cache, reuse those runs through the
folder's URL and through an ``http.server`` on 127.0.0.1. Runs are counted by
a log the tutorials' code appends to, which no cache can fake.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import sys
import threading
from pathlib import Path

import pytest

from generator.build import build
from generator.errors import SiteError
from test_notebooks import NOW, logged, make_site, page, runs

pytest.importorskip("fsspec")


def tutorials(log: Path) -> dict[str, str]:
    return {f"{name}.py": f"# %% [markdown]\n# # {name.title()}\n\n# %%\n{logged(log, name)}\nprint({name!r} * 2)\n"
            for name in ("first", "second")}


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> tuple[Path, Path]:
    """The shared folder after one build ran every tutorial into it, and the runs' log."""
    root = tmp_path_factory.mktemp("shared")
    log, shared = root / "runs.log", root / "bucket"
    site = make_site(root / "publisher", f"cache: {shared.as_uri()}", **tutorials(log))
    result = build(site, NOW)
    assert result.reports["docs"].tutorials.ran == 2 and sorted(runs(log)) == ["first", "second"]
    return shared, log


@pytest.fixture
def http_url(published):
    """The shared folder served read-only by a real HTTP server on 127.0.0.1."""
    shared, _ = published
    handler = functools.partial(QuietHandler, directory=str(shared))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def entries(shared: Path) -> dict[str, Path]:
    return {path.stem: path for path in (shared / "notebooks").glob("*/*.json")}


def test_the_shared_folder_holds_each_run_with_its_digest(published):
    import hashlib

    shared, _ = published
    found = entries(shared)
    assert len(found) == 2
    for key, path in found.items():
        assert json.loads(path.read_bytes())["key"] == key
        digest = (path.parent / f"{key}.sha256").read_text()
        assert digest == hashlib.sha256(path.read_bytes()).hexdigest()
    assert not list(shared.rglob("*.partial"))


@pytest.mark.parametrize("kind", ["folder URL", "relative folder"])
def test_another_build_reuses_the_runs_through_a_folder(published, tmp_path, kind):
    shared, log = published
    before = len(runs(log))
    where = shared.as_uri() if kind == "folder URL" else os.path.relpath(shared, tmp_path / "site")
    site = make_site(tmp_path / "site", f"cache: {where}", **tutorials(log))
    result = build(site, NOW)
    assert (result.reports["docs"].tutorials.ran, result.reports["docs"].tutorials.cached) == (0, 2) and len(runs(log)) == before
    assert "firstfirst" in page(site, "first")
    assert len(list((site / ".sitegen/cache/notebooks").glob("*/*.json"))) == 2   # kept locally too


def test_another_build_reuses_the_runs_over_http_without_writing_there(published, http_url, tmp_path, capsys):
    shared, log = published
    before = len(runs(log))
    site = make_site(tmp_path / "site", f"cache: {http_url}", **tutorials(log))
    result = build(site, NOW)
    assert (result.reports["docs"].tutorials.ran, result.reports["docs"].tutorials.cached) == (0, 2) and len(runs(log)) == before
    assert "secondsecond" in page(site, "second")

    edited = tutorials(log)                        # a new run: kept locally, the server left alone
    edited["second.py"] += "print('edited')\n"
    (site / "notebooks" / "second.py").write_text(edited["second.py"])
    result = build(site, NOW)
    assert (result.reports["docs"].tutorials.ran, result.reports["docs"].tutorials.cached) == (1, 1) and runs(log)[before:] == ["second"]
    assert f"warning: notebooks.cache {http_url} is read-only: new runs are kept in " in capsys.readouterr().err
    assert len(entries(shared)) == 2


def test_a_tampered_or_misplaced_entry_is_a_miss_with_a_warning_naming_it(published, http_url, tmp_path, capsys):
    shared, log = published
    copy = tmp_path / "bucket"
    shutil.copytree(shared, copy)
    keys = sorted(entries(copy))
    runs_by_key = {key: json.loads(entries(copy)[key].read_bytes()) for key in keys}
    first_key = next(k for k, run in runs_by_key.items() if "firstfirst" in json.dumps(run))
    second_key = next(k for k in keys if k != first_key)

    tampered = entries(copy)[first_key]             # outputs edited, digest left as it was
    tampered.write_bytes(tampered.read_bytes().replace(b"firstfirst", b"forged!!!!"))
    misplaced = entries(copy)[second_key]           # another key's run, with a matching digest
    forge(misplaced, second_key, json.dumps({**runs_by_key[first_key]}, indent=1, sort_keys=True).encode())

    before = len(runs(log))
    site = make_site(tmp_path / "site", f"cache: {copy.as_uri()}", **tutorials(log))
    result = build(site, NOW)
    assert (result.reports["docs"].tutorials.ran, result.reports["docs"].tutorials.cached) == (2, 0)
    assert sorted(runs(log)[before:]) == ["first", "second"]
    assert "forged" not in page(site, "first") and "firstfirst" in page(site, "first")
    err = capsys.readouterr().err
    assert (f"warning: notebooks.cache: {copy.as_uri()}/notebooks/{first_key[:2]}/{first_key}.json "
            f"does not match its digest ({first_key}.sha256); ignored") in err
    assert (f"warning: notebooks.cache: {copy.as_uri()}/notebooks/{second_key[:2]}/{second_key}.json "
            "holds the run of another key; ignored") in err
    # The fresh runs were written back over the bad entries.
    assert b"forged" not in tampered.read_bytes()


def test_an_unreachable_cache_is_a_warning_and_the_tutorials_run_here(tmp_path, capsys):
    import socket

    with socket.socket() as s:                     # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = tmp_path / "runs.log"
    site = make_site(tmp_path / "site", f"cache: http://127.0.0.1:{port}/", **tutorials(log))
    result = build(site, NOW)
    assert result.reports["docs"].tutorials.ran == 2
    err = capsys.readouterr().err
    assert err.count(f"warning: notebooks.cache http://127.0.0.1:{port}/ cannot be read (") == 1


def test_without_fsspec_installed_a_cache_url_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "fsspec", None)      # as if it were not installed
    site = make_site(tmp_path / "site", "cache: s3://bucket/cache", **{"one.py": "# %%\n1\n"})
    with pytest.raises(SiteError) as error:
        build(site, NOW)
    assert str(error.value).endswith("site.yaml: key 'notebooks.cache' needs the Python package fsspec, "
                                     "which is not installed: pip install 'sitegen[dask]'")


def test_a_cache_url_whose_filesystem_is_not_installed_is_a_clear_error(tmp_path):
    pytest.importorskip("fsspec")
    try:
        import s3fs  # noqa: F401
        pytest.skip("s3fs is installed here")
    except ImportError:
        pass
    site = make_site(tmp_path / "site", "cache: s3://bucket/cache", **{"one.py": "# %%\n1\n"})
    with pytest.raises(SiteError) as error:
        build(site, NOW)
    assert error.value.path == str(site / "site.yaml")
    assert error.value.message.startswith("key 'notebooks.cache': cannot open s3://bucket/cache: "
                                          "Install s3fs to access S3")


# A run of the right key, whose digest matches, but whose values are not what a run holds.
WRONG_SHAPES = {
    "cells not a list": {"cells": "firstfirst"},
    "a cell not an object": {"cells": ["firstfirst"]},
    "outputs not a list": {"cells": [{"execution_count": 1, "outputs": "firstfirst"}]},
    "an output of no type": {"cells": [{"execution_count": 1, "outputs": [{"text": "x"}]}]},
    "a stream without text": {"cells": [{"execution_count": 1, "outputs": [{"output_type": "stream",
                                                                            "name": "stdout"}]}]},
    "data not a mapping": {"cells": [{"execution_count": 1, "outputs": [{"output_type": "display_data",
                                                                         "data": ["x"], "metadata": {}}]}]},
    "a count not a number": {"cells": [{"execution_count": "one", "outputs": []}]},
    "a failure of no known kind": {"failure": {"kind": "exploded", "code_cell": 0, "message": "m",
                                               "traceback": "", "packages": ""}},
    "a failure in no cell": {"failure": {"kind": "error", "code_cell": "first", "message": "m",
                                         "traceback": "", "packages": ""}},
    "language info not a mapping": {"language_info": "python"},
    "seconds not a number": {"seconds": "long"},
}


@pytest.mark.parametrize("shape", sorted(WRONG_SHAPES))
def test_an_entry_of_the_right_key_and_digest_but_the_wrong_shape_is_a_miss_with_a_warning(
        published, tmp_path, capsys, shape):
    """Issue 39.6: such an entry crashed every build, and kept doing so from the local copy
    until --refresh."""
    shared, log = published
    copy = tmp_path / "bucket"
    shutil.copytree(shared, copy)
    key, path = next((key, path) for key, path in entries(copy).items() if b"firstfirst" in path.read_bytes())
    forge(path, key, json.dumps({**json.loads(path.read_bytes()), **WRONG_SHAPES[shape]}).encode())

    before = len(runs(log))
    site = make_site(tmp_path / "site", f"cache: {copy.as_uri()}", **tutorials(log))
    result = build(site, NOW)
    assert (result.reports["docs"].tutorials.ran, result.reports["docs"].tutorials.cached) == (1, 1)
    assert runs(log)[before:] == ["first"] and "firstfirst" in page(site, "first")
    assert (f"warning: notebooks.cache: {copy.as_uri()}/notebooks/{key[:2]}/{key}.json "
            "is not a run; ignored") in capsys.readouterr().err
    assert json.loads(path.read_bytes()) == json.loads((site / ".sitegen/cache/notebooks" / key[:2] /
                                                        f"{key}.json").read_bytes())   # mended in both
    result = build(site, NOW)                      # and the next build is fine, from the local copy
    assert result.reports["docs"].tutorials.ran == 0 and runs(log)[before:] == ["first"]


@pytest.mark.parametrize("shape", sorted(WRONG_SHAPES))
def test_a_local_entry_of_the_wrong_shape_is_a_miss_with_a_warning(tmp_path, capsys, shape):
    log = tmp_path / "runs.log"
    site = make_site(tmp_path / "site", **tutorials(log))
    build(site, NOW)
    key, path = next((path.stem, path) for path in (site / ".sitegen/cache/notebooks").glob("*/*.json")
                     if b"firstfirst" in path.read_bytes())
    path.write_text(json.dumps({**json.loads(path.read_bytes()), **WRONG_SHAPES[shape]}))
    tutorial = site / "notebooks/first.py"        # its prose edited: the same code, the same key
    tutorial.write_text(tutorial.read_text().replace("# # First", "# # The first"))
    capsys.readouterr()
    result = build(site, NOW)
    assert result.reports["docs"].tutorials.ran == 1 and runs(log)[2:] == ["first"]
    assert f"warning: {path} is not a run; ignored" in capsys.readouterr().err
    assert "firstfirst" in page(site, "first")


def forge(entry: Path, key: str, data: bytes) -> None:
    """Write ``data`` as the shared cache's entry ``key``, with the digest that vouches for it."""
    import hashlib

    entry.write_bytes(data)
    (entry.parent / f"{key}.sha256").write_text(hashlib.sha256(data).hexdigest())

