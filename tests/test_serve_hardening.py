"""The preview against hostile pages and careless hands (issue 15.6), on a real server on 127.0.0.1."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.serve import CONNECTIONS, Preview, PreviewHandler
from test_serve import OPTIONS, REPO, SECRET, WAIT, EventStream, make_site


@pytest.fixture
def site_path(tmp_path: Path) -> Path:
    return make_site(tmp_path / "site")


@pytest.fixture
def preview(tmp_path: Path) -> Iterator[Preview]:
    preview = Preview(make_site(tmp_path / "site"), OPTIONS, port=0).start()
    try:
        yield preview
    finally:
        preview.stop()


def raw_get(preview: Preview | tuple[str, int], path: str, host: str | None) -> tuple[int, bytes]:
    """GET ``path`` with exactly this Host header (None: none at all); status and body."""
    address = preview.server.server_address[:2] if isinstance(preview, Preview) else preview
    with socket.create_connection(address, timeout=WAIT) as sock:
        head = f"GET {path} HTTP/1.1\r\n" + (f"Host: {host}\r\n" if host is not None else "")
        sock.sendall(f"{head}Connection: close\r\n\r\n".encode())
        answer = b""
        while b"\r\n\r\n" not in answer or path.endswith("events") and len(answer) < 20:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
        if not path.endswith("events"):
            while chunk := sock.recv(65536):
                answer += chunk
    status = int(answer.split(b" ", 2)[1])
    return status, answer.partition(b"\r\n\r\n")[2]


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "rebind.attacker.test:80",
                                  "localhost.evil.example:{port}", "127.0.0.1.nip.io:{port}"])
@pytest.mark.parametrize("path", ["/", "/2019/03/18/first-post.html", "/site.yaml", "/__sitegen__/events"])
def test_a_foreign_host_header_is_refused(preview: Preview, host: str, path: str) -> None:
    port = preview.server.server_address[1]
    status, body = raw_get(preview, path, host.format(port=port))
    assert status == 403, body
    assert b"Hello" not in body and SECRET.encode() not in body and b"event:" not in body


@pytest.mark.parametrize("host", ["localhost:{port}", "127.0.0.1:{port}", "localhost", "[::1]:{port}",
                                  "LOCALHOST:{port}", "127.0.0.1"])
def test_the_hosts_it_serves_on_are_answered(preview: Preview, host: str) -> None:
    port = preview.server.server_address[1]
    status, body = raw_get(preview, "/2019/03/18/first-post.html", host.format(port=port))
    assert status == 200 and b"Hello" in body


def test_an_event_stream_for_the_served_host_still_works(preview: Preview) -> None:
    stream = EventStream(preview)   # http.client sends Host: 127.0.0.1:PORT
    try:
        post = preview.root / "content/posts/2021-01-02-third.md"
        post.write_text(post.read_text().replace("Third body.", "Third body, edited."))
        assert "/2021/01/02/third.html" in stream.wait_for("change")["paths"]
    finally:
        stream.close()


def listing(out: Path) -> list[Path]:
    """The output's files and folders; the search index's chunks are named by content, so not by name."""
    return sorted(p.relative_to(out) for p in out.rglob("*") if p.relative_to(out).parts[0] != "pagefind")


def test_deleting_the_output_folder_is_repaired_by_the_next_rebuild(preview: Preview) -> None:
    before = listing(preview.out_dir)
    stream = EventStream(preview)
    try:
        shutil.rmtree(preview.out_dir)
        post = preview.root / "content/posts/2021-01-02-third.md"
        post.write_text(post.read_text().replace("Third body.", "Third body, edited."))
        stream.wait_for("change")
    finally:
        stream.close()
    assert listing(preview.out_dir) == before
    assert (preview.out_dir / "pagefind/pages/pagefind.js").is_file()


def test_a_client_that_goes_away_early_is_not_a_traceback(preview: Preview, capfd) -> None:
    big = preview.root / "assets/big.bin"
    big.write_bytes(b"x" * 8_000_000)
    stream = EventStream(preview)
    try:
        stream.wait_for("change")      # the asset is in the output
    finally:
        stream.close()
    capfd.readouterr()
    address = preview.server.server_address[:2]
    for _ in range(20):
        sock = socket.create_connection(address, timeout=WAIT)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close = reset
        sock.sendall(f"GET /assets/big.bin HTTP/1.1\r\nHost: 127.0.0.1:{address[1]}\r\n\r\n".encode())
        sock.recv(1000)
        sock.close()
    time.sleep(0.5)
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Error" not in err, err


def idle_connections(preview: Preview, count: int) -> list[socket.socket]:
    """``count`` connections to the preview that send nothing, made without waiting to be accepted."""
    address = preview.server.server_address[:2]
    clients = []
    for _ in range(count):
        client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        client.setblocking(False)
        client.connect_ex(address)
        clients.append(client)
    return clients


def test_a_burst_of_connections_is_served_by_a_bounded_number_of_threads(preview: Preview) -> None:
    before = threading.active_count()
    clients = idle_connections(preview, 400)
    try:
        most, deadline = 0, time.monotonic() + 3
        while time.monotonic() < deadline:      # the server takes on all it will
            most = max(most, threading.active_count() - before)
            time.sleep(0.05)
        assert 0 < most <= CONNECTIONS
    finally:
        for client in clients:
            client.close()
    started = time.monotonic()
    assert raw_get(preview, "/", host=None)[0] == 200      # the ones that waited, then this one
    assert time.monotonic() - started < WAIT


def test_stop_does_not_wait_for_idle_connections(site_path: Path) -> None:
    preview = Preview(site_path, OPTIONS, port=0).start(watch=False)
    clients = idle_connections(preview, 20)
    try:
        time.sleep(0.5)                        # accepted, each waiting for its request
        started = time.monotonic()
        preview.stop()
        assert time.monotonic() - started < PreviewHandler.timeout   # not a handler's timeout, let alone 20
    finally:
        for client in clients:
            client.close()


# -- Ctrl-C at every stage (issue 39.9): the command exits, whatever the signal interrupts ---------

# Runs `sitegen ARGS`, sending itself SIGINT as the first call of the function STAGE begins
# (NAME:ARG: of NAME with its argument ARG not empty; @THREAD: the first call in a thread of that
# name): a real signal at the exact moment, which a delay only finds by luck. It says "main" as
# sitegen's code begins (a Ctrl-C before that stops Python starting up, whose error is not ours).
CTRL_C_AT = """
import os, signal, sys, threading
from generator.cli import main

stage, args = sys.argv[1], sys.argv[2:]
name, _, arg = stage.partition(":")
sent = False

def hook(frame, event, _):
    global sent
    if event != "call" or sent:
        return
    if name.startswith("@"):
        hit = threading.current_thread().name == name[1:]
    else:
        hit = frame.f_code.co_name == name and (not arg or frame.f_locals.get(arg))
    if hit:
        sent = True
        sys.setprofile(None)
        threading.setprofile(None)
        print("ctrl-c", file=sys.stderr, flush=True)
        os.kill(os.getpid(), signal.SIGINT)

if name != "-":          # "-": no stage, the test sends the Ctrl-C
    threading.setprofile(hook)
    if not name.startswith("@"):
        sys.setprofile(hook)
print("main", file=sys.stderr, flush=True)
sys.exit(main(args))
"""
EXIT_S = 10.0    # from the last Ctrl-C to the prompt, on a loaded machine


@pytest.fixture(scope="module")
def cpu_load() -> Iterator[None]:
    """A process spinning beside the preview, as other builds on a busy CI machine."""
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        burner.kill()
        burner.wait()


class Command:
    """``sitegen serve`` in a process of its own, its error output read as it comes."""

    def __init__(self, site: Path, stage: str = "-"):
        self.process = subprocess.Popen(
            [sys.executable, "-c", CTRL_C_AT, stage, "-C", str(site), "serve", "--port", "0"],
            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
        self.lines: list[str] = []
        self.interrupted = 0.0            # when the last Ctrl-C was sent (time.monotonic)
        self.started = threading.Event()
        self.serving = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.port = 0

    def _read(self) -> None:
        for line in self.process.stderr:
            self.lines.append(line)
            if line == "ctrl-c\n":
                self.interrupted = time.monotonic()
            if line == "main\n":
                self.started.set()
            if match := re.search(r"at http://127\.0\.0\.1:(\d+)/", line):
                self.port = int(match.group(1))
                self.serving.set()
        self.started.set()                # ended before serving: nothing to wait for
        self.serving.set()

    def interrupt(self) -> None:
        self.interrupted = time.monotonic()
        self.process.send_signal(signal.SIGINT)

    def exits_promptly(self) -> None:
        """Ends within EXIT_S of the last Ctrl-C (which its own stage may not have sent yet)."""
        started = time.monotonic()
        while self.process.poll() is None:
            last = self.interrupted or started + 4 * WAIT
            if time.monotonic() > last + EXIT_S:
                self.process.kill()
                self.process.wait()
                pytest.fail(f"still running {EXIT_S} s after Ctrl-C:\n" + "".join(self.lines))
            time.sleep(0.05)
        code = self.process.returncode
        self.reader.join(timeout=WAIT)
        err = "".join(line for line in self.lines if line not in ("main\n", "ctrl-c\n"))
        assert code in (0, 130), err
        assert "Traceback" not in err and "Exception" not in err, err


@pytest.mark.parametrize("stage, then", [
    ("rebuild", None),                   # the first build
    ("@sitegen-server", None),           # as start() waits for the server's thread to run
    ("watch", None),                     # the watch begins
    ("do_GET", "request"),               # while a page is answered
    ("build:changed", "edit"),           # a rebuild after a save
    ("stop", "ctrl-c"),                  # Ctrl-C twice: the second as the first stops the preview
    ("server_close", "ctrl-c"),
    ("save", "ctrl-c"),
])
def test_ctrl_c_at_each_stage_ends_the_command(tmp_path: Path, cpu_load, stage: str, then: str | None) -> None:
    site = make_site(tmp_path / "site")
    command = Command(site, stage)
    if then:
        assert command.serving.wait(timeout=4 * WAIT), "".join(command.lines)
        if then == "request":
            try:
                raw_get(("127.0.0.1", command.port), "/", host=None)
            except (OSError, ValueError, IndexError):    # cut short by the stop: no matter
                pass
        elif then == "edit":    # again until a rebuild sees it (the first may come before the watch)
            post = site / "content/posts/2021-01-02-third.md"
            for n in range(20):
                if command.interrupted or command.process.poll() is not None:
                    break
                post.write_text(post.read_text().replace("Third body", f"Third body, edit {n}", 1))
                time.sleep(1)
        else:
            command.interrupt()
    command.exits_promptly()


@pytest.mark.parametrize("delay", [0.05, 0.2, 0.5, 0.8, 1.2, 2.0])
@pytest.mark.parametrize("after", ["start", "edit"])
def test_ctrl_c_after_any_delay_under_load_ends_the_command(tmp_path: Path, cpu_load, after: str,
                                                            delay: float) -> None:
    site = make_site(tmp_path / "site")
    command = Command(site)
    assert command.started.wait(timeout=4 * WAIT), "".join(command.lines)
    if after == "edit":
        assert command.serving.wait(timeout=4 * WAIT), "".join(command.lines)
        post = site / "content/posts/2021-01-02-third.md"
        post.write_text(post.read_text().replace("Third body.", "Third body, edited."))
    time.sleep(delay)
    command.interrupt()
    command.exits_promptly()


def test_ctrl_c_while_a_tutorial_runs_ends_its_kernel_and_the_command(tmp_path: Path, cpu_load) -> None:
    from test_notebooks import make_site as make_tutorial_site, notebook
    from nbformat.v4 import new_code_cell

    running = tmp_path / "running"
    cell = f"import os, time\nopen({str(running)!r}, 'w').write(str(os.getpid()))\ntime.sleep(300)"
    site = make_tutorial_site(tmp_path / "site", **{"slow.ipynb": notebook(new_code_cell(cell))})
    command = Command(site)
    deadline = time.monotonic() + 4 * WAIT
    while not (running.is_file() and running.read_text()) and time.monotonic() < deadline:
        assert command.process.poll() is None, "".join(command.lines)
        time.sleep(0.1)
    kernel = int(running.read_text())
    command.interrupt()
    command.exits_promptly()
    assert not psutil_alive(kernel)
    assert not list(site.glob(".sitegen/cache/notebooks/*/*.json"))    # a run cut short is not kept


def psutil_alive(pid: int) -> bool:
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
