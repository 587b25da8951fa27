"""``sitegen serve`` for real: a server on a free port of 127.0.0.1, real file edits,
an event-stream client, a real browser for the live-reload script, and the CLI under Ctrl-C."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

import pytest

from generator.build import BuildOptions
from generator.serve import Preview, inject_live_script, is_loopback
from conftest import own_template

REPO = Path(__file__).resolve().parents[1]
OPTIONS = BuildOptions(now=datetime(2030, 1, 1, tzinfo=timezone.utc))
SECRET = "secret-marker-3f9a"
CHROMIUM = "/usr/bin/chromium"
WAIT = 15.0   # seconds to wait for a rebuild's news (generous for a busy CI machine)


def make_site(folder: Path) -> Path:
    shutil.copytree(REPO / "tests" / "data" / "basic", folder)
    shutil.copytree(REPO / "templates", folder / "templates")
    with (folder / "site.yaml").open("a") as config:
        config.write(f"# {SECRET}\n")
    (folder / "content/pages/guide.md").write_text("---\ntitle: Guide\npermalink: /guide/\n---\nRead me.\n")
    return folder


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return make_site(tmp_path / "site")


@pytest.fixture
def preview(site: Path) -> Iterator[Preview]:
    preview = Preview(site, OPTIONS, port=0).start()
    try:
        yield preview
    finally:
        preview.stop()


def request(preview: Preview, path: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    """Send ``path`` exactly as given (no normalisation) and read the whole answer."""
    host, port = preview.server.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=WAIT)
    try:
        connection.putrequest(method, path, skip_accept_encoding=True)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


class EventStream:
    """A plain server-sent-events client on http.client."""

    def __init__(self, preview: Preview):
        host, port = preview.server.server_address[:2]
        self.connection = http.client.HTTPConnection(host, port, timeout=WAIT)
        self.connection.request("GET", "/__sitegen__/events")
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type") == "text/event-stream"

    def next(self, deadline: float = float("inf")) -> tuple[str, dict]:
        """The next event (name, data); keep-alive comments and retry lines are skipped.
        Past ``deadline`` (time.monotonic) it gives up, even while keep-alives come."""
        name, data = "message", None
        while True:
            if time.monotonic() > deadline:
                raise AssertionError(f"no event within {WAIT}s")
            line = self.response.fp.readline().decode()
            if not line:
                raise EOFError("the event stream ended")
            line = line.rstrip("\n")
            if line.startswith("event: "):
                name = line[len("event: "):]
            elif line.startswith("data: "):
                data = json.loads(line[len("data: "):])
            elif line == "" and data is not None:
                return name, data

    def wait_for(self, name: str, until: Callable[[dict], bool] = lambda data: True) -> dict:
        """The data of the next ``name`` event for which ``until`` holds."""
        deadline = time.monotonic() + WAIT
        while True:
            event, data = self.next(deadline)
            if event == name and until(data):
                return data

    def wait_for_change_of(self, path: str) -> list[str]:
        """The paths of the next change event that lists ``path`` (the search index's own
        change events, once saves pause, may come between)."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            paths = self.wait_for("change")["paths"]
            if path in paths:
                return paths
        raise AssertionError(f"no change of {path} within {WAIT}s")

    def close(self) -> None:
        self.connection.close()


def test_pages_are_served_like_the_live_site(preview: Preview) -> None:
    status, headers, body = request(preview, "/")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert b"Welcome." in body
    status, _, about = request(preview, "/about")            # extension-less, as on the live host
    assert status == 200 and b"About this site." in about
    assert request(preview, "/about.html")[2] == about
    assert request(preview, "/about?utm=x")[2] == about
    status, headers, _ = request(preview, "/guide")           # a folder without its slash
    assert status == 301 and headers["Location"] == "/guide/"
    assert b"Read me." in request(preview, "/guide/")[2]
    assert b"First post" in request(preview, "/2019/03/18/first-post.html")[2]
    for path, kind in [("/assets/css/site.css", "text/css; charset=utf-8"),
                       ("/atom.xml", "application/xml"), ("/sitemap.txt", "text/plain; charset=utf-8")]:
        status, headers, body = request(preview, path)
        assert status == 200 and headers["Content-Type"] == kind
        assert body == (preview.out_dir / path.lstrip("/")).read_bytes()


def test_head_answers_like_get_without_a_body(preview: Preview) -> None:
    _, get_headers, body = request(preview, "/about")
    status, headers, head_body = request(preview, "/about", "HEAD")
    assert status == 200 and head_body == b""
    assert headers["Content-Length"] == get_headers["Content-Length"] == str(len(body))
    assert request(preview, "/missing", "HEAD")[0] == 404


def test_unknown_paths_get_the_sites_404_page_with_status_404(preview: Preview) -> None:
    status, headers, body = request(preview, "/no/such/page")
    assert status == 404 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert b"Page not found" in body and b"/__sitegen__/live.js" in body


def test_only_served_html_carries_the_live_reload_script(preview: Preview) -> None:
    on_disk = (preview.out_dir / "about.html").read_bytes()
    served = request(preview, "/about")[2]
    assert b"__sitegen__" not in on_disk
    assert served == inject_live_script(on_disk, "/about.html")
    assert served.index(b"/__sitegen__/live.js") < served.rindex(b"</body>")
    css = request(preview, "/assets/css/site.css")[2]
    assert b"__sitegen__" not in css
    status, headers, script = request(preview, "/__sitegen__/live.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    assert b"EventSource" in script


@pytest.mark.parametrize("path", [
    "/../site.yaml", "/%2e%2e/site.yaml", "/%2E%2E/%2e%2e/etc/passwd", "/..%2fsite.yaml",
    "/assets%2f..%2f..%2fsite.yaml", "/assets/%2e%2e/%2e%2e/site.yaml", "/..\\site.yaml",
    "/assets\\..\\..\\site.yaml", "/%5c..%5csite.yaml", "//etc/passwd", "/etc/passwd",
    "http://127.0.0.1/../site.yaml", "/assets/../../site.yaml", "/./../site.yaml", "/site.yaml%00.html",
    "site.yaml", "/leak.yaml", "/up/site.yaml",
])
def test_nothing_outside_the_output_directory_is_served(preview: Preview, path: str) -> None:
    (preview.out_dir / "leak.yaml").symlink_to(preview.root / "site.yaml")
    (preview.out_dir / "up").symlink_to(preview.root, target_is_directory=True)
    status, _, body = request(preview, path)
    assert status in (400, 404)
    assert SECRET.encode() not in body and b"root:" not in body


def test_fifty_concurrent_requests_are_all_answered(preview: Preview) -> None:
    paths = ["/", "/about", "/blog.html", "/atom.xml", "/assets/css/site.css", "/2019/03/18/first-post.html",
             "/tags.html", "/missing"] * 7
    expected = {p: request(preview, p) for p in set(paths)}
    streams = [EventStream(preview) for _ in range(5)]   # open event streams hold threads too
    try:
        with ThreadPoolExecutor(max_workers=len(paths)) as pool:
            answers = list(pool.map(lambda p: (p, request(preview, p)), paths))
    finally:
        for stream in streams:
            stream.close()
    assert len(answers) == 56
    for path, (status, _, body) in answers:
        assert (status, body) == (expected[path][0], expected[path][2])


def test_an_edit_reaches_the_open_page_as_a_reload_event(preview: Preview) -> None:
    stream = EventStream(preview)
    try:
        post = preview.root / "content/posts/2021-01-02-third.md"
        post.write_text(post.read_text().replace("Third body.", "Third body, edited."))
        changed = stream.wait_for("change")["paths"]
    finally:
        stream.close()
    assert "/2021/01/02/third.html" in changed
    assert "/about.html" not in changed and "/2019/03/18/first-post.html" not in changed
    assert b"Third body, edited." in request(preview, "/2021/01/02/third.html")[2]


def test_a_started_preview_has_made_what_the_first_edit_needs(preview: Preview) -> None:
    """Made once the first build is done and before edits are watched, not by the first rebuild
    after an edit: the index of the recorded keys, each output's read keys as a set, the
    compiled templates."""
    engine = preview.engine
    assert engine._keys is not None
    records = engine.state.records.outputs.values()
    assert records and all(type(r._coded) is frozenset or r._coded is None for r in records)
    compiled = {name for _, name in engine.renderer.env.cache.keys()}
    assert {"post.html", "page.html", "base.html"} <= compiled


def test_an_edit_shows_first_and_the_search_index_follows_once_saves_pause(preview: Preview) -> None:
    from site_checks import searched

    stream = EventStream(preview)
    builds = preview.builds
    try:
        post = preview.root / "content/posts/2021-01-02-third.md"
        post.write_text(post.read_text().replace("Third body.", "Third body, on armadillos."))
        first = stream.wait_for("change")["paths"]
        assert "/2021/01/02/third.html" in first and not [p for p in first if p.startswith("/pagefind/")]
        assert "armadillos" not in searched(preview.out_dir)["/2021/01/02/third.html"]
        index = stream.wait_for("change")["paths"]
    finally:
        stream.close()
    assert index and all(p.startswith("/pagefind/") for p in index)
    assert "armadillos" in searched(preview.out_dir)["/2021/01/02/third.html"]
    assert request(preview, index[0])[0] in (200, 404)            # written, or an old chunk removed
    assert request(preview, "/pagefind/pages/pagefind.js")[0] == 200
    assert preview.builds == builds + 1 and not preview.engine.state.derived_out_of_date()


def test_a_broken_edit_shows_the_error_and_keeps_the_last_good_site(preview: Preview) -> None:
    stream = EventStream(preview)
    post = preview.root / "content/posts/2021-01-02-third.md"
    good = post.read_text()
    try:
        post.write_text(good.replace("title: Third post", "title: Third post\ntags: [unclosed"))
        failure = stream.wait_for("failure")["message"]
        assert re.match(r"content/posts/2021-01-02-third\.md:\d+: invalid YAML", failure), failure
        status, _, body = request(preview, "/2021/01/02/third.html")
        assert status == 200 and b"Third body." in body          # the last good build
        late = EventStream(preview)                                # a page opened now sees it too
        assert late.next() == ("failure", {"message": failure})
        late.close()
        post.write_text(good.replace("Third body.", "Third body, fixed."))
        assert "/2021/01/02/third.html" in stream.wait_for("change")["paths"]
    finally:
        stream.close()
    assert preview.news.failure is None
    assert b"Third body, fixed." in request(preview, "/2021/01/02/third.html")[2]


def test_a_template_error_names_the_template_line_and_the_server_keeps_running(preview: Preview) -> None:
    stream = EventStream(preview)
    template = own_template(preview.root, "page.html")
    good = template.read_text()
    try:
        template.write_text(good.replace("{{ content }}", "{{ content | no_such_filter }}"))
        assert "templates/page.html:" in stream.wait_for("failure")["message"]
        assert request(preview, "/about")[0] == 200
        template.write_text(good)
        stream.wait_for("change")
    finally:
        stream.close()


def test_a_burst_of_saves_and_a_save_by_rename_each_rebuild_once(preview: Preview) -> None:
    stream = EventStream(preview)
    try:
        builds = preview.builds
        for n in range(5):   # an editor saving all open files
            (preview.root / f"content/posts/2022-01-0{n + 1}-burst-{n}.md").write_text(f"---\ntitle: Burst {n}\n---\nx\n")
            time.sleep(0.002)
        changed = stream.wait_for("change")["paths"]
        assert all(f"/2022/01/0{n + 1}/burst-{n}.html" in changed for n in range(5)), changed
        time.sleep(1.0)
        assert preview.builds == builds + 1

        page = preview.root / "content/pages/about.md"
        temporary = page.with_name(".about.md.swp")
        temporary.write_text("---\ntitle: About, saved by rename\n---\nAbout.\n")
        os.replace(temporary, page)
        stream.wait_for_change_of("/about.html")
        time.sleep(1.0)
        assert preview.builds == builds + 2
    finally:
        stream.close()


def test_a_stylesheet_edit_lists_only_the_stylesheet(preview: Preview) -> None:
    stream = EventStream(preview)
    try:
        css = preview.root / "assets/css/site.css"
        css.write_text(css.read_text() + "\nbody { color: #123456; }\n")
        assert stream.wait_for("change")["paths"] == ["/assets/css/site.css"]
    finally:
        stream.close()


def test_site_yaml_edits_are_seen_even_when_saved_by_rename(preview: Preview) -> None:
    stream = EventStream(preview)
    try:
        config = preview.root / "site.yaml"
        temporary = config.with_name("site.yaml.tmp")
        temporary.write_text(config.read_text().replace("title: Test Site", "title: Renamed Site"))
        os.replace(temporary, config)
        assert "/about.html" in stream.wait_for("change")["paths"]
        temporary.write_text(config.read_text().replace("title: Renamed Site", "title: Renamed Again"))
        os.replace(temporary, config)
        assert "/about.html" in stream.wait_for("change")["paths"]
    finally:
        stream.close()
    assert b"Renamed Again" in request(preview, "/about")[2]


def test_a_new_output_folder_or_baseurl_is_served_from_the_next_build(preview: Preview) -> None:
    stream = EventStream(preview)
    try:
        config = preview.root / "site.yaml"
        config.write_text(config.read_text() + "output: _preview\nbaseurl: /tvm\n")
        assert "/tvm/about.html" in stream.wait_for("change")["paths"]
    finally:
        stream.close()
    assert preview.out_dir == preview.root / "_preview"
    status, _, body = request(preview, "/tvm/about")
    assert status == 200 and b'href="/tvm/blog.html"' in body
    assert request(preview, "/about")[0] == 404


def test_drafts_and_future_posts_are_previewed_when_asked(site: Path) -> None:
    preview = Preview(site, BuildOptions(drafts=True, future=True, now=OPTIONS.now), port=0).start(watch=False)
    try:
        assert request(preview, "/2021/06/01/secret")[0] == 200
        assert request(preview, "/2099/01/01/future")[0] == 200
    finally:
        preview.stop()


def test_stop_ends_every_thread_and_closes_the_port(site: Path) -> None:
    before = set(threading.enumerate())
    preview = Preview(site, OPTIONS, port=0).start()
    address = preview.server.server_address[:2]
    stream = EventStream(preview)               # an open page must not hold up the stop
    assert request(preview, "/")[0] == 200
    preview.stop()
    assert set(threading.enumerate()) == before
    with pytest.raises(EOFError):
        stream.next()
    with pytest.raises(OSError):
        socket.create_connection(address, timeout=2).close()
    assert (site / ".sitegen/state.msgpack").is_file()


def test_binds_to_loopback_and_warns_for_any_other_address(site: Path, capfd) -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")
    preview = Preview(site, OPTIONS, port=0)
    assert preview.server.server_address[0] == "127.0.0.1"
    preview.server.server_close()
    assert "warning" not in capfd.readouterr().err
    preview = Preview(site, OPTIONS, host="::1", port=0)
    assert preview.server.server_address[0] == "::1"
    preview.server.server_close()
    assert "warning" not in capfd.readouterr().err
    preview = Preview(site, OPTIONS, host="0.0.0.0", port=0)
    preview.server.server_close()
    assert "warning: serving on 0.0.0.0" in capfd.readouterr().err


def test_the_command_serves_until_ctrl_c_and_exits_cleanly(site: Path) -> None:
    process = subprocess.Popen([sys.executable, "-m", "generator", "-C", str(site), "serve", "--port", "0"],
                               cwd=REPO, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        lines = []
        for line in process.stderr:
            lines.append(line)
            if match := re.search(r"at http://127\.0\.0\.1:(\d+)/", line):
                break
        else:
            pytest.fail("".join(lines))
        connection = http.client.HTTPConnection("127.0.0.1", int(match.group(1)), timeout=WAIT)
        connection.request("GET", "/about")
        assert connection.getresponse().status == 200
        connection.close()
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=4 * WAIT) == 0   # generous: saving the state on a loaded CI machine
    finally:
        process.kill()
        process.stderr.close()


def test_a_preview_stopped_before_it_served_stops(site: Path) -> None:
    """As `sitegen serve` stops it after a Ctrl-C during its first build (found by CI: a Ctrl-C
    before the watch began left the server's thread running, and the command waiting for it)."""
    preview = Preview(site, OPTIONS, port=0)
    stopping = threading.Thread(target=preview.stop, daemon=True)
    stopping.start()
    stopping.join(timeout=WAIT)
    assert not stopping.is_alive()


@pytest.fixture
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/setup-test-tools")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        yield browser
        browser.close()


def test_in_a_browser_pages_reload_stylesheets_swap_and_errors_overlay(preview: Preview, browser) -> None:
    page = browser.new_page()
    page.goto(preview.url + "2021/01/02/third")
    page.wait_for_function("document.currentScript === null && window.EventSource !== undefined")
    page.evaluate("window.kept = true")        # gone if the page reloads
    page.wait_for_timeout(300)                 # let the event stream connect

    css = preview.root / "assets/css/site.css"
    css.write_text(css.read_text() + "\nbody { outline: 3px solid rgb(1, 2, 3); }\n")
    page.wait_for_function("getComputedStyle(document.body).outlineColor === 'rgb(1, 2, 3)'",
                           timeout=WAIT * 1000)
    assert page.evaluate("window.kept") is True          # swapped, not reloaded

    other = preview.root / "content/posts/2019-03-18-first-post.md"
    other.write_text(other.read_text().replace("first post.", "first post, edited."))
    page.wait_for_timeout(1500)
    assert page.evaluate("window.kept") is True          # another page changed: no reload

    post = preview.root / "content/posts/2021-01-02-third.md"
    good = post.read_text()
    post.write_text(good.replace("title: Third post", "title: [unclosed"))
    overlay = page.wait_for_selector("#sitegen-error", timeout=WAIT * 1000)
    assert "content/posts/2021-01-02-third.md:" in overlay.inner_text()

    post.write_text(good.replace("Third body.", "Third body, live."))
    page.wait_for_function("window.kept === undefined", timeout=WAIT * 1000)  # reloaded
    page.wait_for_selector("text=Third body, live.")
    assert page.query_selector("#sitegen-error") is None


def test_the_preview_says_how_many_drafts_it_hides_and_how_to_show_them(site: Path, capfd) -> None:
    (site / "content/posts/2021-06-02-second-draft.md").write_text("---\ntitle: Two\ndraft: true\n---\nx\n")
    preview = Preview(site, OPTIONS, port=0).start(watch=False)
    preview.stop()
    assert "2 drafts are hidden: 'sitegen serve --drafts' shows them" in capfd.readouterr().err
    preview = Preview(site, BuildOptions(drafts=True, now=OPTIONS.now), port=0).start(watch=False)
    preview.stop()
    assert "hidden" not in capfd.readouterr().err


@pytest.mark.parametrize("port, why", [("99999", "99999 is not a port: ports go from 0 to 65535"),
                                       ("http", "'http' is not a port number")])
def test_a_bad_port_is_one_line_naming_it(site: Path, port: str, why: str) -> None:
    done = subprocess.run([sys.executable, "-m", "generator", "-C", str(site), "serve", "--port", port],
                          cwd=REPO, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == f"sitegen serve: error: argument --port: {why}"
    assert "Traceback" not in done.stderr


def test_a_port_in_use_is_one_line_and_no_traceback(site: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "generator", "-C", str(site), "serve", "--port", str(port)],
                              cwd=REPO, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 1
    assert done.stderr.strip() == f"error: cannot listen on 127.0.0.1:{port}: Address already in use"


def test_a_host_that_cannot_be_listened_on_is_one_line_and_no_traceback(site: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "generator", "-C", str(site), "serve",
                           "--host", "no-such-host.invalid", "--port", "0"], cwd=REPO, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1].startswith("error: cannot listen on no-such-host.invalid:0: ")
    assert "Traceback" not in done.stderr
