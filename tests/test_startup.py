"""A build with nothing to do starts without loading what it does not use.

Builds are real, run as a user runs them (the installed command, a fresh
process each); what a process imported is read from that process.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime
from pathlib import Path

from generator.build import build
from generator.cache import local_key
from generator.codec import dumps_exact, loads

SITEGEN = [str(Path(sys.executable).with_name("sitegen"))]

KEY = bytes(range(32))     # a checkout's key, for values packed outside a site


def init_site(tmp_path: Path) -> Path:
    subprocess.run([*SITEGEN, "init", "site", "--kind", "blog"], cwd=tmp_path, check=True, capture_output=True)
    return tmp_path / "site"


def test_a_build_with_nothing_to_do_loads_only_what_it_uses(tmp_path):
    site = init_site(tmp_path)
    subprocess.run([*SITEGEN, "build"], cwd=site, check=True, capture_output=True)
    unused = ["importlib.metadata", "email", "multiprocessing", "xml.etree", "tarfile", "jinja2", "markdown",
              "pygments.styles", "nbformat", "concurrent.futures", "yaml", "socket", "anyascii", "subprocess",
              "html.entities", "generator.feeds", "generator.docs.versions", "generator.reading", "generator.pagefind",
              "sass"]
    probe = ("import json, sys; from generator.cli import main; code = main(['build']); "
             f"print(json.dumps([code, [m for m in {unused!r} if m in sys.modules]]))")
    ran = subprocess.run([sys.executable, "-c", probe], cwd=site, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    said, loaded = ran.stdout.splitlines()
    assert said.startswith("nothing changed")
    assert json.loads(loaded) == [0, []]


def test_an_edit_parsed_ahead_loads_no_markdown_pygments_or_yaml_here(tmp_path):
    # A site of thousands of files parses an edit's documents in a child (parallel.Background):
    # the threshold is lowered so that the small site does too. Its keys name the readers'
    # versions, and its data files are read back as last parsed, without those modules here.
    site = init_site(tmp_path)
    (site / "content" / "data").mkdir(exist_ok=True)
    (site / "content" / "data" / "team.yml").write_text("- name: Ada\n  role: keeper\n")
    subprocess.run([*SITEGEN, "build"], cwd=site, check=True, capture_output=True)
    post = sorted((site / "content" / "posts").glob("*.md"))[0]
    post.write_text(post.read_text() + "\nA paragraph added with `code` in it.\n")
    unused = ["markdown", "pygments", "pymdownx", "yaml"]
    probe = ("import json, sys; import generator.parallel as p; p.BACKGROUND_THRESHOLD = 1; "
             "from generator.cli import main; code = main(['build']); "
             f"print(json.dumps([code, [m for m in {unused!r} if m in sys.modules]]))")
    ran = subprocess.run([sys.executable, "-c", probe], cwd=site, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    *said, loaded = ran.stdout.splitlines()
    assert any(" written" in line for line in said), said
    assert json.loads(loaded) == [0, []]
    page = next((site / "_site").rglob(post.stem.split("-", 3)[3] + ".html"))
    assert "A paragraph added with <code>code</code> in it." in page.read_text()


def test_site_yaml_is_parsed_again_exactly_when_its_text_changes(tmp_path):
    site = init_site(tmp_path)
    config, kept = site / "site.yaml", site / ".sitegen/site-yaml.msgpack"
    assert not kept.exists()             # a site never built: reading its config made no .sitegen/
    build(site)
    build(site)
    assert loads("site-yaml", kept.read_bytes(), local_key(site / ".sitegen"))["value"]["title"] == "Site"
    config.write_text(config.read_text().replace("title: Site", "title: Renamed", 1))
    build(site)
    assert "Renamed" in (site / "_site/index.html").read_text()
    assert loads("site-yaml", kept.read_bytes(), local_key(site / ".sitegen"))["value"]["title"] == "Renamed"


def test_a_garbled_parse_of_site_yaml_is_parsed_again_and_a_mistake_still_names_its_line(tmp_path):
    site = init_site(tmp_path)
    build(site)
    before = (site / "_site/index.html").read_bytes()
    kept = site / ".sitegen/site-yaml.msgpack"
    kept.write_bytes(b"sitegen site-yaml 1\n\xc1 not msgpack")
    build(site)
    assert (site / "_site/index.html").read_bytes() == before
    assert loads("site-yaml", kept.read_bytes(), local_key(site / ".sitegen"))["value"]["title"] == "Site"     # made again from the text
    config = site / "site.yaml"
    lines = config.read_text().count("\n")
    config.write_text(config.read_text() + "nav: [unclosed\n")
    ran = subprocess.run([*SITEGEN, "build"], cwd=site, capture_output=True, text=True)
    assert ran.returncode == 1
    assert f"site.yaml:{lines + 2}: invalid YAML: expected ','" in ran.stderr, ran.stderr   # the end it reached
    assert loads("site-yaml", kept.read_bytes(), local_key(site / ".sitegen"))["value"]["title"] == "Site"     # the last good parse, kept


def test_a_data_file_is_read_back_as_parsed_and_parsed_again_when_its_bytes_change(tmp_path):
    site = init_site(tmp_path)
    data = site / "content" / "data"
    data.mkdir(exist_ok=True)
    (data / "team.yml").write_text("- name: Ada\n  joined: 2019-03-18\n")
    build(site)
    kept, = (site / ".sitegen" / "cache" / "data").rglob("*.msgpack")
    assert loads("data-yaml", kept.read_bytes(), local_key(site / ".sitegen"))["value"][0]["name"] == "Ada"
    kept.write_bytes(b"sitegen data-yaml 1\n\xc1 not msgpack")    # garbled: a miss, parsed again
    (site / "content" / "posts" / "2020-01-01-unrelated.md").write_text("---\ntitle: Other\ndate: 2020-01-01\n---\nx\n")
    build(site)
    assert loads("data-yaml", kept.read_bytes(), local_key(site / ".sitegen"))["value"][0]["name"] == "Ada"
    (data / "team.yml").write_text("- name: Grace\n  joined: 2019-03-18\n")
    build(site)
    assert {loads("data-yaml", path.read_bytes(), local_key(site / ".sitegen"))["value"][0]["name"]
            for path in (site / ".sitegen" / "cache" / "data").rglob("*.msgpack")} == {"Ada", "Grace"}
    assert dumps_exact("data-yaml", {"value": [{"n": 1, "on": datetime(2020, 1, 1)}]}, KEY) is not None
    assert dumps_exact("data-yaml", {"value": object()}, KEY) is None     # not held, so not kept


def test_a_build_from_the_command_line_runs_no_collection(tmp_path):
    """The collector stays off until what the build returns is frozen: a collection after the
    build would walk every object it made (at 10,000 posts, 0.2 s of an edit build)."""
    site = init_site(tmp_path)
    probe = ("import gc, json, traceback; from generator.cli import main; runs = []; "
             "in_build = lambda: any(frame.name == 'run_build' for frame in traceback.extract_stack()); "
             "gc.callbacks.append(lambda phase, info: phase == 'start' and in_build() and runs.append(info)); "
             "code = main(['build']); print(json.dumps([code, runs, gc.isenabled()]))")
    for _ in range(2):          # the first build, then one with nothing to do
        ran = subprocess.run([sys.executable, "-c", probe], cwd=site, capture_output=True, text=True)
        assert ran.returncode == 0, ran.stderr
        assert json.loads(ran.stdout.splitlines()[-1]) == [0, [], True]


def test_a_build_whose_reader_goes_away_ends_without_a_traceback(tmp_path):
    """``sitegen build | head -1``: the pipe closes before the summary is written; the build is
    done and kept, and the command ends as a process ended by SIGPIPE does, saying nothing."""
    site = init_site(tmp_path)
    build_ = subprocess.Popen([*SITEGEN, "build"], cwd=site, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    build_.stdout.close()                 # the reader is gone before the first line
    _, err = build_.communicate(timeout=120)
    assert build_.returncode == 141, err.decode()
    assert b"Traceback" not in err and b"BrokenPipe" not in err and err.decode().strip() == ""
    assert (site / "_site" / "index.html").is_file()
    again = subprocess.run([*SITEGEN, "build"], cwd=site, capture_output=True, text=True, check=True)
    assert again.stdout.startswith("nothing changed")
