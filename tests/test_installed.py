"""What is installed, read from sys.path's folders, against importlib.metadata as the oracle.

The distributions are real: this environment's, the demo plugin installed as pip
lays it out, a distribution in a zip on the path, a setuptools egg-info folder.
"""

from __future__ import annotations

import os
import sys
import zipfile
from importlib import metadata

import pytest

from conftest import install_demo_plugin
from generator import installed


def test_every_installed_distributions_version_is_the_one_importlib_metadata_gives():
    names = {dist.metadata["Name"] for dist in metadata.distributions()}
    assert {"jinja2", "pygments", "pyyaml", "sitegen-oss"} <= {name.lower() for name in names}
    assert {name: installed.version(name) for name in names} == {name: metadata.version(name) for name in names}
    assert installed.version("no-such-distribution-here") is None


def test_a_group_is_said_to_have_entry_points_whenever_importlib_metadata_finds_some():
    groups = {point.group for dist in metadata.distributions() for point in dist.entry_points}
    assert "console_scripts" in groups
    for group in groups:
        assert installed.may_have_entry_points(group), group
    assert not installed.may_have_entry_points("sitegen.nobody-declares-this")


@pytest.fixture
def on_path(tmp_path):
    """A folder put first on sys.path for the test."""
    sys.path.insert(0, str(tmp_path))
    yield tmp_path
    sys.path.remove(str(tmp_path))


def test_a_plugin_installed_while_the_process_runs_is_seen(on_path):
    os.utime(on_path, ns=(0, 0))       # listed as last changed long ago (a clock tick is coarser than a test)
    assert not installed.may_have_entry_points("sitegen.plugins")
    install_demo_plugin(on_path)       # into a folder already on the path, already listed: its stamp moves
    assert installed.may_have_entry_points("sitegen.plugins")
    assert installed.version("sitegen-demo") == installed.version("sitegen_demo") == "0.1"


def test_distributions_laid_out_otherwise_are_asked_of_importlib_metadata(on_path):
    archive = on_path / "zipped.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("zipped-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: zipped\nVersion: 1.0\n")
        zipped.writestr("zipped-1.0.dist-info/entry_points.txt", "[sitegen.zipped]\none = os:getcwd\n")
    sys.path.insert(0, str(archive))
    try:
        assert not installed.listing().complete
        assert installed.version("zipped") == "1.0"
        assert installed.may_have_entry_points("sitegen.zipped")
    finally:
        sys.path.remove(str(archive))
    info = on_path / "legacy.egg-info"       # a setuptools develop install: its version only in PKG-INFO
    info.mkdir()
    (info / "PKG-INFO").write_text("Metadata-Version: 1.1\nName: legacy\nVersion: 2.5\n\nVersion: 9\n")
    (on_path / "older-1.0-py3.11.egg-info").write_text("Metadata-Version: 1.0\nName: older\nVersion: 1.0\n")
    assert installed.listing().complete
    assert installed.version("legacy") == metadata.version("legacy") == "2.5"
    assert installed.version("older") == metadata.version("older") == "1.0"   # an egg-info that is a file


def test_the_backport_of_importlib_metadata_that_a_library_loads_changes_no_answer():
    backport = pytest.importorskip("importlib_metadata")    # once imported, a finder on sys.meta_path
    assert any(type(finder).__module__ == "importlib_metadata" for finder in sys.meta_path)
    assert installed.listing().complete
    names = {dist.metadata["Name"] for dist in backport.distributions()}
    assert {name: installed.version(name) for name in names} == {name: backport.version(name) for name in names}
