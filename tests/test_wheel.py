"""sitegen as anyone gets it: a wheel installed into a fresh virtualenv, no repository in sight.

The wheel is built from this checkout (``pip wheel``), installed with its
dependencies from the package index (pip's cache makes this quick after the
first run), and its ``sitegen`` command starts, builds, checks and serves a
site with the default theme shipped inside the package.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import venv
from pathlib import Path

from conftest import REPO


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_wheel_in_a_fresh_venv_starts_a_site_that_builds_checks_and_serves(tmp_path):
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "wheels"),
                    str(REPO)], check=True, env=env, capture_output=True)
    (wheel,) = (tmp_path / "wheels").glob("sitegen-*.whl")
    venv.create(tmp_path / "venv", with_pip=True)
    bin_dir = tmp_path / "venv" / "bin"
    subprocess.run([bin_dir / "pip", "install", "-q", str(wheel)], check=True, env=env, capture_output=True)

    def sitegen(*args: str, cwd: Path) -> subprocess.CompletedProcess:
        done = subprocess.run([bin_dir / "sitegen", *args], cwd=cwd, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done

    work = tmp_path / "work"          # no repository here: templates and assets come from the wheel
    work.mkdir()
    sitegen("init", "mysite", cwd=work)
    site = work / "mysite"
    files = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    assert {"site.yaml", "content/pages/index.md", "content/pages/about.md", "assets/favicon.svg",
            "content/docs/index.md", "notebooks/first-steps.py"} < files and len(files) == 8
    sitegen("build", cwd=site)
    assert "no errors" in sitegen("check", cwd=site).stdout
    assert (site / "_site/assets/css/site.css").is_file()
    assert "[0, 1, 4, 9, 16, 25]" in (site / "_site/docs/tutorials/first-steps.html").read_text()
    # The user guide travels in the wheel's metadata: readable with no repository and no network.
    assert "  Tutorials\n" in sitegen("help", cwd=work).stdout
    assert sitegen("help", "versioned", cwd=work).stdout.startswith("Versioned docs\n==============\n")

    port = free_port()
    server = subprocess.Popen([bin_dir / "sitegen", "serve", "--port", str(port)], cwd=site, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline, page = time.monotonic() + 60, None
        while page is None and time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/about", timeout=5) as response:
                    page = response.read().decode()
            except OSError:
                time.sleep(0.2)
        assert page is not None, server.stdout.read() if server.poll() is not None else "no answer"
        assert "<h1>About</h1>" in page
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
