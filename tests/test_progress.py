"""Progress of long work (issue 14.6): the real command on a terminal (a pseudo-terminal) and
through a pipe, as a CI log takes it.

On a terminal one status line is rewritten in place (stage and count) and cleared at the end;
through a pipe nothing is redrawn and a short build writes no progress line at all; either
way the command ends with the stages' times. A build with nothing to do writes its one line.
"""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

import pytest

from generator import progress as reporting
from generator.build import BuildOptions, Engine
from conftest import REPO, copy_site
from test_parallel import many_posts

STATUS = "\r\x1b[K"
TUTORIAL = "# %% [markdown]\n# # Quick\n#\n# A tutorial that prints.\n\n# %%\nprint(6 * 7)\n"
STAGES = re.compile(r"^stages: scanning \d+\.\d\d s, parsing \d+\.\d\d s, assembling \d+\.\d\d s, "
                    r"planning \d+\.\d\d s, rendering \d+\.\d\d s, deriving \d+\.\d\d s, writing \d+\.\d\d s, "
                    r"recording \d+\.\d\d s$",
                    re.M)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = many_posts(copy_site(tmp_path / "site", "basic"))
    (site / "notebooks").mkdir()
    (site / "notebooks/quick.py").write_text(TUTORIAL)
    return site


def environment(tmp_path: Path) -> dict[str, str]:
    config = tmp_path / "gitconfig"
    config.write_text("[user]\n\tname = Test Author\n\temail = author@example.org\n")
    return {**os.environ, "PYTHONPATH": str(REPO), "GIT_CONFIG_GLOBAL": str(config), "GIT_CONFIG_NOSYSTEM": "1"}


def on_a_terminal(site: Path, *args: str) -> str:
    """What the command writes on a terminal 200 columns wide (stdout and stderr both)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 200, 0, 0))
    process = subprocess.Popen([sys.executable, "-m", "generator", "-C", str(site), *args],
                               stdin=follower, stdout=follower, stderr=follower,
                               env=environment(site.parent))
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:           # the terminal closed: the command is done
            break
        if not data:
            break
        chunks.append(data)
    os.close(leader)
    assert process.wait(timeout=600) == 0, b"".join(chunks).decode()
    return b"".join(chunks).decode().replace("\r\n", "\n")


def through_a_pipe(site: Path, *args: str) -> tuple[str, str]:
    run = subprocess.run([sys.executable, "-m", "generator", "-C", str(site), *args], capture_output=True,
                         text=True, env=environment(site.parent), timeout=600)
    assert run.returncode == 0, run.stderr
    return run.stdout, run.stderr


def test_on_a_terminal_one_status_line_is_rewritten_then_cleared(site: Path):
    shown = on_a_terminal(site, "build")
    assert re.search(re.escape(STATUS) + r"parsing \d+/\d+ documents", shown), shown
    assert re.search(re.escape(STATUS) + r"rendering [\d,]+/[\d,]+ files", shown), shown
    assert STATUS + "running: notebooks/quick.py" in shown                    # the tutorial's status
    assert re.search(r"\[1/1\] notebooks/quick.py: ran in \d+\.\d\d s\n", shown)  # and its line
    last = shown.rsplit(STATUS, 1)[1]                  # after the last rewrite: the line cleared
    assert last.startswith("built 7") and STAGES.search(last) and not re.search(r"\d+/\d+ (documents|files)", last)
    assert re.search(r"^7\d documents parsed, 0 from cache$", last, re.M)

    assert on_a_terminal(site, "build").startswith("nothing changed: ")   # nothing to do: no status
    assert STATUS not in on_a_terminal(site, "build")

    checked = on_a_terminal(site, "check")
    assert re.search(re.escape(STATUS) + r"reading \d+/\d+ pages", checked), checked
    assert re.search(r"^stages: reading \d+\.\d\d s, checking links \d+\.\d\d s$", checked, re.M)


def test_publish_shows_its_stages_on_a_terminal(site: Path):
    shutil.rmtree(site / "notebooks")                 # publish keeps docs/ from the branch by default
    (site / ".gitignore").write_text("/_site/\n/.sitegen/\n")
    for command in (["init", "--quiet", "--initial-branch", "main"], ["add", "--all"],
                    ["commit", "--quiet", "--message", "Site"]):
        subprocess.run(["git", *command], cwd=site, check=True, env=environment(site.parent))
    shown = on_a_terminal(site, "publish", "--dry-run", "--no-push")
    assert re.search(re.escape(STATUS) + r"staging the branch [\d,]+/[\d,]+ files", shown), shown
    last = shown.rsplit(STATUS, 1)[1]
    assert "documents parsed" in last and "dry run: " in last
    assert re.search(r"^stages: scanning .*, reading \d+\.\d\d s, checking links \d+\.\d\d s, "
                     r"staging the branch \d+\.\d\d s$", last, re.M), last


def test_through_a_pipe_a_short_build_writes_results_and_no_progress(site: Path):
    out, err = through_a_pipe(site, "build")
    assert "\r" not in out + err and "\x1b" not in out + err
    # The tutorial's lines, the listing page's warning, and a line per 10 s of a stage that long.
    allowed = (r"notebooks: running 1 tutorial, 1 at a time", r"\[1/1\] notebooks/quick.py: ran in \d+\.\d\d s",
               r"content/pages/listing.md:5: warning: .*", r"(parsing|rendering) [\d,]+/[\d,]+ \w+ \(\d+ s\)")
    assert all(any(re.fullmatch(form, line) for form in allowed) for line in err.splitlines()), err
    assert "notebooks: running 1 tutorial, 1 at a time" in err and len(err.splitlines()) < 10
    lines = out.splitlines()
    assert lines[0].startswith("built 7") and re.fullmatch(r"7\d documents parsed, 0 from cache", lines[1])
    assert lines[2] == "1 notebooks ran, 0 from cache" and STAGES.fullmatch(lines[-1])
    out, err = through_a_pipe(site, "build")                  # nothing to do: a line, and what it kept
    assert out.splitlines()[0].startswith("nothing changed: ") and len(out.splitlines()) == 2 and err == ""


@pytest.mark.parametrize("threads", [False, True], ids=["forked workers", "a thread running: spawned workers"])
def test_in_a_log_a_long_stage_says_where_it_is_once_per_interval(site: Path, threads: bool):
    """Measured in lines: ``every`` seconds apart; at 0, a line per batch of results, never per
    page, whether the workers were forked or (a thread running, as in the preview) spawned."""
    stop = threading.Event()
    if threads:
        threading.Thread(target=stop.wait, daemon=True).start()
    try:
        for every, expected in ((0.0, True), (3600.0, False)):
            log = io.StringIO()
            with reporting.active(reporting.Progress(log, live=False, every=every)):
                Engine(site, BuildOptions(refresh=True)).build()
            lines = [line for line in log.getvalue().splitlines() if not line.startswith(("notebooks:", "[1/1]"))]
            assert all(re.fullmatch(r"(parsing|rendering) [\d,]+/[\d,]+ (documents|files) \(\d+ s\)", line)
                       for line in lines), lines
            assert bool(lines) is expected and len(lines) < 40     # 79 documents, 230 files
    finally:
        stop.set()
