"""The README's set-up picks the interpreter .venv is made with (scripts/fastest-python), with
real interpreters and stand-ins that answer the script's probe as a faster or an older one would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO

SCRIPT = REPO / "scripts" / "fastest-python"


def stand_in(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


def fastest(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT)], env={**os.environ, "PATH": f"{folder}:/usr/bin:/bin"},
                          capture_output=True, text=True, check=True)


def test_the_fastest_python_that_answers_is_taken(tmp_path):
    (tmp_path / "python3").symlink_to(sys.executable)
    faster = stand_in(tmp_path, "python3.12", "echo 0.0000001")       # times the probe faster than any
    older = stand_in(tmp_path, "python3.10", "exit 1")                # the probe's refusal: below 3.10
    done = fastest(tmp_path)
    assert done.stdout.strip() == str(faster)
    assert f"{os.path.realpath(sys.executable)}: " in done.stderr   # the real one was timed too
    assert str(older) not in done.stderr and f"using {faster}" in done.stderr


def test_a_real_python_is_timed_and_taken_when_it_is_the_fastest(tmp_path):
    (tmp_path / "python3").symlink_to(sys.executable)
    stand_in(tmp_path, "python3.13", "echo 99")                      # slower than any real one
    done = fastest(tmp_path)
    chosen = done.stdout.strip()
    assert chosen != str(tmp_path / "python3.13")
    version = subprocess.run([chosen, "-c", "import sys; print(sys.version_info >= (3, 10))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    assert version == "True"
