"""`sitegen --help` is written for users: it says what the tool makes and how to start, and
the start it shows works as written."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def sitegen(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(REPO)})


def test_the_first_site_steps_in_the_help_work_as_written(tmp_path: Path) -> None:
    shown = sitegen("--help", cwd=tmp_path)
    assert shown.returncode == 0
    assert "the tests" not in shown.stdout and "static HTML" in shown.stdout
    steps = [line.split("   ")[0].strip() for line in shown.stdout.splitlines()
             if line.startswith("  sitegen ") and "serve" not in line]
    assert [step.split()[1] for step in steps] == ["init", "new", "build"]
    here = tmp_path
    for step in steps:
        for command in step.split("&&"):
            words = shlex.split(command)
            if words[0] == "cd":
                here = here / words[1]
                continue
            done = sitegen(*words[1:], cwd=here)
            assert done.returncode == 0, (command, done.stderr)
    assert [path.name for path in (here / "content/posts").glob("*-hello.md")]
    assert (here / "_site/index.html").is_file()
