"""What a release uploads passes PyPI's checks: the sdist and the wheel that
.github/workflows/release.yml builds, with the metadata and licence PyPI shows."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import yaml

from conftest import REPO


def test_the_release_builds_an_sdist_and_a_wheel_that_twine_passes(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "build", "-o", str(tmp_path), str(REPO)], check=True,
                   capture_output=True)
    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    sdist, wheel = tmp_path / f"sitegen_oss-{version}.tar.gz", tmp_path / f"sitegen_oss-{version}-py3-none-any.whl"
    checked = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", str(sdist), str(wheel)],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(f"sitegen_oss-{version}.dist-info/METADATA").decode()
    assert f"sitegen_oss-{version}.dist-info/licenses/LICENSE" in names
    assert "License-Expression: Apache-2.0" in metadata
    assert "Provides-Extra: execute" in metadata
    assert "# sitegen" in metadata                  # the README, which `sitegen help` reads
    assert "\n# Changelog\n" in metadata            # and the CHANGELOG, after it


def test_the_release_workflow_publishes_by_trusted_publishing_after_the_checks() -> None:
    workflow = yaml.safe_load((REPO / ".github/workflows/release.yml").read_text())
    build, publish = workflow["jobs"]["build"], workflow["jobs"]["publish"]
    runs = " ".join(step.get("run", "") for step in build["steps"])
    assert "twine check --strict" in runs and "python -m build" in runs
    assert publish["needs"] == "build" and publish["permissions"] == {"id-token": "write"}
    assert any(step.get("uses", "").startswith("pypa/gh-action-pypi-publish") for step in publish["steps"])
    assert not any("password" in str(step) for step in publish["steps"])


def test_the_changelog_says_what_the_next_release_brings_above_the_versions_released() -> None:
    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    headings = [line[3:] for line in (REPO / "CHANGELOG.md").read_text().splitlines() if line.startswith("## ")]
    assert headings[0] in ("Unreleased", version), headings      # the next release's, or this one's
    assert version in headings                                     # the version released is listed
