"""The preview against hostile pages and careless hands (issue 15.6), on a real server on 127.0.0.1."""

from __future__ import annotations

import shutil
import socket
import struct
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.serve import Preview
from test_serve import OPTIONS, SECRET, WAIT, EventStream, make_site


@pytest.fixture
def preview(tmp_path: Path) -> Iterator[Preview]:
    preview = Preview(make_site(tmp_path / "site"), OPTIONS, port=0).start()
    try:
        yield preview
    finally:
        preview.stop()


def raw_get(preview: Preview, path: str, host: str | None) -> tuple[int, bytes]:
    """GET ``path`` with exactly this Host header (None: none at all); status and body."""
    address = preview.server.server_address[:2]
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
    assert (preview.out_dir / "pagefind/site/pagefind.js").is_file()


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
