"""Index HTML pages with Pagefind (https://pagefind.app), in memory, through its service mode.

The ``pagefind[bin]`` package installs Pagefind's binary. Started with ``--service``,
it reads requests on stdin and answers on stdout, each a base64 JSON message ended by
a comma, one at a time in the order sent. Pages go in sorted, so the same pages give the
same index, byte for byte, on any machine (the ``pagefind --site`` command indexes a
folder in the order the file system lists it, which differs between file systems).
The package's own Python client is not used: it reads one answer per 0.1 s, ten pages a
second, and fails on an answer over 2 MiB (the files of any sizeable index).
"""

from __future__ import annotations

import base64
import json
import re
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from generator.errors import SiteError

# Pagefind's ready-made interfaces: the site has its own (assets/js/search.js), so these stay out.
UI_FILES = re.compile(r"pagefind-(ui|modular-ui|component-ui|highlight)\.(js|css)")


def executable() -> Path:
    """Pagefind's binary, as the ``pagefind`` package finds it (``PAGEFIND_BINARY_PATH``, the
    extended binary, the plain one, then ``PATH``)."""
    from pagefind.service import get_executable

    found = get_executable()
    if found is None or not found.is_file():
        raise SiteError("search: Pagefind is not installed (pip install 'pagefind[bin]'); "
                        "or turn search off in site.yaml with `search: false`")
    return found


def index_pages(pages: list[tuple[str, str]], settings: dict[str, Any] | None = None) -> dict[str, bytes]:
    """The files of one Pagefind bundle (``pagefind.js``, its wasm, the index and the
    fragments) for ``pages``, (URL, HTML) pairs, indexed in that order; the ready-made
    UI files left out. ``settings`` are Pagefind's index options (``exclude_selectors``...)."""
    with tempfile.TemporaryFile() as errors, subprocess.Popen(
            [str(executable()), "--service"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=errors) as process:
        service = _Service(process, errors)
        try:
            index_id = service.ask({"type": "NewIndex", "config": settings or None})["index_id"]
            service.ask_all([{"type": "AddFile", "index_id": index_id, "url": url, "file_path": None,
                              "file_contents": html} for url, html in pages], [url for url, _ in pages])
            files = service.ask({"type": "GetFiles", "index_id": index_id})["files"]
        finally:
            service.close()
    return {f["path"]: base64.b64decode(f["content"]) for f in files if not UI_FILES.fullmatch(f["path"])}


class _Service:
    """One running ``pagefind --service``: requests out, answers in."""

    def __init__(self, process: subprocess.Popen, errors: BinaryIO):
        self.process = process
        self.errors = errors
        self.answers = self._answers()
        self.sent = 0

    def ask(self, payload: dict[str, Any]) -> dict[str, Any]:
        return self.ask_all([payload], [None])[0]

    def ask_all(self, payloads: list[dict[str, Any]], about: list[str | None]) -> list[dict[str, Any]]:
        """Send every request (from a thread, so that answers never fill the pipe while we
        write) and read their answers; an error names the page it was about."""
        first = self.sent
        self.sent += len(payloads)
        writer = threading.Thread(target=self._write, args=(payloads, first), daemon=True)
        writer.start()
        try:
            answers = [self._answer(about, first) for _ in payloads]
        except SiteError:
            self.process.kill()       # the writer may be waiting on a full pipe: it stops too
            raise
        finally:
            writer.join()
        return answers

    def _answer(self, about: list[str | None], first: int) -> dict[str, Any]:
        answer = next(self.answers, None)
        if answer is None:
            raise SiteError(f"search: Pagefind stopped: {self._stderr() or 'no message'}")
        payload = answer["payload"]
        if payload["type"] == "Error":
            number = answer.get("message_id")
            page = about[number - first] if isinstance(number, int) and 0 <= number - first < len(about) else None
            raise SiteError(f"search: Pagefind could not index this page: {payload['message']}", page)
        return payload

    def close(self) -> None:
        """End the input: the service stops there."""
        try:
            self.process.stdin.close()
        except OSError:      # it was stopped, with requests still buffered
            pass

    def _write(self, payloads: list[dict[str, Any]], first: int) -> None:
        try:
            for number, payload in enumerate(payloads, start=first):
                message = json.dumps({"message_id": number, "payload": payload}).encode("utf-8")
                self.process.stdin.write(base64.b64encode(message) + b",")
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError):   # it stopped: the reader says why
            return

    def _answers(self) -> Iterator[dict[str, Any]]:
        """Each answer as it is complete (the index's files come as one of many MiB)."""
        parts: list[bytes] = []
        while chunk := self.process.stdout.read1(1 << 20):
            while (end := chunk.find(b",")) >= 0:
                parts.append(chunk[:end])
                yield json.loads(base64.b64decode(b"".join(parts)))
                parts, chunk = [], chunk[end + 1:]
            parts.append(chunk)

    def _stderr(self) -> str:
        self.process.wait()
        self.errors.seek(0)
        return self.errors.read().decode("utf-8", "replace").strip()[-2000:]
