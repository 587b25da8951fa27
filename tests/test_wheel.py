"""sitegen as anyone gets it: a wheel installed into a fresh virtualenv, no repository in sight.

The wheel is built from this checkout (``pip wheel``), installed with its
dependencies from the package index (pip's cache makes this quick after the
first run), and its ``sitegen`` command starts, builds, checks and serves a
site with the default theme shipped inside the package.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import venv
from pathlib import Path

import pytest

from conftest import REPO


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


ENV = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
KERNEL_STACK = {"ipykernel", "ipython", "debugpy", "jedi", "jupyter_client", "nbclient", "pyzmq", "tornado",
                "psutil", "nbconvert"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("wheels")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(folder), str(REPO)],
                   check=True, env=ENV, capture_output=True)
    (built,) = folder.glob("sitegen_oss-*.whl")
    return built


def installed(wheel: Path, folder: Path, extras: str = "") -> Path:
    """A fresh venv with the wheel installed (with ``extras``, e.g. "[execute]"); its bin folder."""
    venv.create(folder, with_pip=True)
    subprocess.run([folder / "bin" / "pip", "install", "-q", f"{wheel}{extras}"], check=True, env=ENV,
                   capture_output=True)
    return folder / "bin"


def test_a_wheel_in_a_fresh_venv_starts_a_site_that_builds_checks_and_serves(tmp_path, wheel):
    env = ENV
    bin_dir = installed(wheel, tmp_path / "venv", "[execute]")

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
            "assets/social-card.png", "content/docs/index.md", "notebooks/first-steps.py"} < files and len(files) == 9
    sitegen("build", cwd=site)
    assert "no errors" in sitegen("check", cwd=site).stdout
    assert (site / "_site/assets/css/site.css").is_file()
    assert "[0, 1, 4, 9, 16, 25]" in (site / "_site/docs/tutorials/first-steps.html").read_text()
    # No math, widgets, diagrams or charts: none of the vendored libraries is published.
    assert not (site / "_site/assets/vendor").exists() and not (site / "_site/docs/tutorials/_charts").exists()
    # The user guide and the changelog travel in the wheel's metadata: readable with no repository
    # and no network.
    assert "  Tutorials\n" in sitegen("help", cwd=work).stdout
    assert sitegen("help", "versioned", cwd=work).stdout.startswith("Versioned docs\n==============\n")
    assert sitegen("help", cwd=work).stdout.endswith("  Security\n  Changelog\n")
    changelog = sitegen("help", "changelog", cwd=work).stdout
    assert changelog.startswith("Changelog\n=========\nWhat changed for users of sitegen")
    assert "\n## Unreleased\n" in changelog
    assert "Changelog" not in sitegen("help", "security", cwd=work).stdout     # the guide's last topic ends there

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


def test_the_core_install_builds_blogs_and_saved_notebooks_without_the_kernel_stack(tmp_path, wheel):
    """A blog or a docs site showing saved notebooks needs none of Jupyter's kernel stack; a
    tutorial that must run says, in one line, which extra runs it."""
    bin_dir = installed(wheel, tmp_path / "venv")
    listed = subprocess.run([bin_dir / "pip", "list", "--format=freeze"], env=ENV, capture_output=True,
                            text=True, check=True).stdout
    names = {line.split("==")[0].lower().replace("-", "_") for line in listed.split()}
    assert not names & KERNEL_STACK

    def sitegen(*args: str, cwd: Path) -> subprocess.CompletedProcess:
        return subprocess.run([bin_dir / "sitegen", *args], cwd=cwd, env=ENV, capture_output=True, text=True)

    made = sitegen("init", "docs", "--kind", "docs", cwd=tmp_path)
    assert "no tutorial: running tutorials needs sitegen's 'execute' extra" in made.stdout
    site = tmp_path / "docs"
    (site / "notebooks").mkdir()
    (site / "notebooks/saved.py").write_text("# %%\nprint('hello')\n")
    failed = sitegen("build", cwd=site)
    assert failed.returncode == 1
    assert failed.stderr.startswith("error: notebooks/saved.py: needs sitegen's 'execute' extra "
                                    "(pip install 'sitegen-oss[execute]')")
    assert "Traceback" not in failed.stderr
    (site / "notebooks/saved.py").unlink()
    saved = {"cells": [{"cell_type": "code", "execution_count": 1, "id": "c1", "metadata": {},
                        "source": "print('hi')",
                        "outputs": [{"output_type": "stream", "name": "stdout", "text": "\x1b[31mred\x1b[0m\n"}]},
                       {"cell_type": "code", "execution_count": 2, "id": "c2", "metadata": {}, "source": "fig",
                        "outputs": [{"output_type": "display_data", "metadata": {}, "data": {
                            "application/vnd.plotly.v1+json": {"data": [{"type": "bar", "y": [1, 2]}]}}}]}],
             "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                          "sitegen": {"execute": "never"}},
             "nbformat": 4, "nbformat_minor": 5}
    (site / "notebooks/saved.ipynb").write_text(json.dumps(saved))
    built = sitegen("build", cwd=site)
    assert built.returncode == 0, built.stderr
    assert '<span class="ansi-red-fg">red</span>' in (site / "_site/docs/tutorials/saved.html").read_text()
    charts = site / "_site/docs/tutorials/_charts/plotly"           # the chart library is in the package
    vendored = REPO / "generator/themes/default/vendor/plotly"
    assert (charts / "plotly.min.js").read_bytes() == (vendored / "plotly.min.js").read_bytes()
    assert (charts / "LICENSE").is_file()
