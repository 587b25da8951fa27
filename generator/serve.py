"""``sitegen serve``: preview the site while it is written.

Three parts: an HTTP server that serves the output directory as the live host
would (and nothing outside it), a watcher that rebuilds through one warm
incremental :class:`~generator.build.Engine` after each burst of edits, and
a broadcast that tells every open page, over server-sent events, which
outputs a rebuild changed or which error stopped it. Only served HTML carries
the live-reload script; the files on disk are exactly what ``build`` writes.
A failed rebuild leaves the last good site on disk, so it keeps being served.
"""

from __future__ import annotations

import functools
import http.server
import ipaddress
import json
import mimetypes
import os
import re
import socket
import sys
import threading
import time
import traceback
import webbrowser
from collections.abc import Iterator
from dataclasses import dataclass
from html import escape
from importlib.resources import files
from pathlib import Path
from urllib.parse import unquote, urlsplit

import watchfiles

from generator import gcpolicy
from generator.build import BuildOptions, BuildResult, Engine
from generator.config import Config
from generator.configure import load_config
from generator.errors import SiteError
from generator.layout import ASSETS, CONFIG_FILE, STATE_DIR, WATCHED
from generator.lock import site_lock
from generator.stamps import Stamp, file_stamp
from generator.urls import candidates

POLL_MS = 400              # how often site.yaml and new folders are checked
SETTLE_MS = 20             # a burst of saves closer than this is one change (a save by rename,
                           # saves a few ms apart); a slower burst is two rebuilds, the second right
LIVE = "/__sitegen__/"     # the preview's own URLs: the script and the event stream
KEEPALIVE_S = 15
CONNECTIONS = 64           # connections answered at once, a thread each; more wait to be accepted
ACCEPT_S = 0.25            # how often the server's thread looks whether the preview is stopping

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8", ".json": "application/json",
    ".xml": "application/xml", ".txt": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
    ".gif": "image/gif", ".webp": "image/webp", ".ico": "image/x-icon",
    ".woff": "font/woff", ".woff2": "font/woff2", ".pdf": "application/pdf",
    ".ipynb": "application/x-ipynb+json", ".py": "text/x-python; charset=utf-8",
}
# Refused before decoding: encoded slashes, backslashes and NUL smuggle path separators.
SMUGGLED = re.compile(r"%(2f|5c|00)", re.I)
BODY_END = re.compile(rb"</body\s*>", re.I)


class Broadcast:
    """Rebuild news for every open page: what changed, or the error that stopped a build."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._events: list[tuple[int, str, str]] = []     # (id, event, JSON data), the latest few
        self._closed = False
        self.failure: str | None = None                   # the current error, as JSON data

    def publish(self, event: str, data: dict) -> None:
        payload = json.dumps(data)
        with self._cond:
            number = self._events[-1][0] + 1 if self._events else 1
            self._events = [*self._events[-31:], (number, event, payload)]
            self.failure = payload if event == "failure" else None
            self._cond.notify_all()

    def latest(self) -> int:
        with self._cond:
            return self._latest()

    def since(self, seen: int, timeout: float) -> list[tuple[int, str, str]] | None:
        """Events after ``seen`` (waiting up to ``timeout`` for one); None once closed."""
        with self._cond:
            self._cond.wait_for(lambda: self._closed or self._latest() > seen, timeout)
            if self._closed:
                return None
            return [e for e in self._events if e[0] > seen]

    def _latest(self) -> int:
        return self._events[-1][0] if self._events else 0

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()


class Preview:
    """The preview of one site: a warm build engine, an HTTP server and a watcher."""

    def __init__(self, root: str | Path, options: BuildOptions = BuildOptions(),
                 host: str = "127.0.0.1", port: int = 8000):
        self.root = Path(root).resolve()
        self.engine = Engine(self.root, options)
        self.out_dir, self.base = self._where(load_config(self.root))
        self.news = Broadcast()
        self.stopping = threading.Event()
        self.watching = threading.Event()      # set once edits are being watched
        self.builds = 0
        self.warned: set[str] = set()     # the warnings shown since the last change to them
        self.hidden_drafts = 0            # as last reported
        if not is_loopback(host):
            self._report(f"warning: serving on {host}: anyone who can reach this machine can read "
                         "the preview, drafts included")
        try:
            self.server = PreviewServer((host, port), self)
        except OSError as exc:
            raise SiteError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
        self._threads: list[threading.Thread] = []

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{port}{self.base}/"

    def start(self, watch: bool = True) -> Preview:
        """Build once, then serve (and watch, unless told not to) in background threads.

        Returns once edits are being watched, so an edit made after it is never missed.
        """
        self.rebuild()
        self.engine.ready_for_edits()
        self._spawn("sitegen-server", self.server.serve_until, self.stopping)
        if watch:
            self._spawn("sitegen-watcher", self.watch)
            self.watching.wait()
        return self

    def watch(self) -> None:
        """Rebuild after each burst of changes until :meth:`stop` (or Ctrl-C in the main thread).

        A rebuild after an edit leaves the files derived from the pages (the search index)
        behind, so the edited page shows at once; they are made once the files have been
        quiet for a moment, unless more edits come first.
        """
        try:
            for changed in watch_inputs(self.root, self.stopping):
                if changed or not self.watching.is_set():
                    # The first time (maybe nothing): for edits made before the watch was in place.
                    self.rebuild({Path(os.path.relpath(path, self.root)).as_posix() for path in changed},
                                 derive=False)
                    self.watching.set()
                elif self.engine.warm and self.engine.state.derived_out_of_date():   # not after a failure
                    self.catch_up()
        finally:
            self.watching.set()                  # never leave start() waiting

    def rebuild(self, changed: set[str] | None = None, derive: bool = True) -> BuildResult | None:
        """Build (``changed``: files a watcher saw change; ``derive=False``: leave the files
        derived from pages to :meth:`catch_up`); publish the outputs that changed, or the
        error. Never raises for bad content."""
        first = self.builds == 0
        self.builds += 1
        return self._build(changed, derive, first)

    def catch_up(self) -> BuildResult | None:
        """Make the files the last rebuild left out of date (the search index)."""
        return self._build(set(), True, False)

    def _build(self, changed: set[str] | None, derive: bool, first: bool) -> BuildResult | None:
        started = time.perf_counter()
        try:
            # stop() saves the state; the first build loads the site for the edits to come.
            result = self.engine.build(save=first, changed=changed, load=first, derive=derive or first)
        except SiteError as exc:
            self._report(f"error: {exc}")
            self.news.publish("failure", {"message": str(exc)})
            return None
        except Exception as exc:  # noqa: BLE001 - a bug must not take the preview down either
            self._report(traceback.format_exc())
            self.news.publish("failure", {"message": f"internal error: {type(exc).__name__}: {exc}"})
            return None
        self.out_dir, self.base = self._where(self.engine.config)   # site.yaml may have moved them
        changed = sorted(f"{self.base}/{path}" for path in result.written + result.deleted)
        if first or changed:
            self._report(f"{'built' if first else 'rebuilt'}: {result.summary()} "
                         f"in {time.perf_counter() - started:.2f}s")
        if result.site is not None:     # each warning once, until a save fixes it
            for warning in result.warnings:
                if warning not in self.warned:
                    self._report(warning)
            self.warned = set(result.warnings)
            self._report_drafts(result.site.hidden_drafts)
        self.news.publish("change", {"paths": changed})   # also clears a shown error
        gcpolicy.settle()
        return result

    def _report_drafts(self, hidden: int) -> None:
        """Say how many drafts the preview leaves out, once per change of that number: a new
        post starts as a draft, and a preview that silently lacks it looks broken."""
        if hidden != self.hidden_drafts and (hidden or self.hidden_drafts):
            plural = "draft is" if hidden == 1 else "drafts are"
            self._report(f"{hidden} {plural} hidden: 'sitegen serve --drafts' shows them" if hidden
                         else "no drafts are hidden now")
        self.hidden_drafts = hidden

    def stop(self) -> None:
        """Stop watching and serving; wait for every thread; save the build state.

        Whatever of :meth:`start` ran, Ctrl-C included: a thread not yet running when
        ``stopping`` is set sees it set when it runs, so it ends at once and is not waited for.
        """
        self.stopping.set()
        self.news.close()
        for thread in self._threads:
            if thread.is_alive():
                thread.join()
        self.server.server_close()   # ends open connections, then joins their threads
        self.engine.save()

    @staticmethod
    def _where(config: Config) -> tuple[Path, str]:
        """The folder served, and the URL path it is served at (site.yaml ``baseurl``)."""
        return config.output_dir.resolve(), config.baseurl.rstrip("/")

    def _spawn(self, name: str, target, *args) -> None:
        """Start a thread, recorded first: a Ctrl-C while ``start()`` waits for it to run
        must leave it where :meth:`stop` ends it. A daemon: :meth:`stop` waits for it, but
        an exit that a second Ctrl-C cut :meth:`stop` short of never does."""
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        self._threads.append(thread)
        thread.start()

    def _report(self, message: str) -> None:
        print(message, file=sys.stderr, flush=True)


def watch_inputs(root: Path, stopping: threading.Event) -> Iterator[set[str]]:
    """Yield once per burst of changes to the site's inputs, until ``stopping`` is set.

    Paths are absolute. The first yield (possibly empty) comes as soon as the
    watch is in place; after it, an empty set says the files have been quiet for
    a while (``POLL_MS``). The input folders are watched by the OS (watchfiles);
    ``site.yaml`` and static files at the top are checked by their stamps on
    each wake-up, because watching a single file does not survive an editor
    replacing it by rename. A folder that appears (or that site.yaml's
    ``static`` adds) restarts the watch so it is included; the change is
    yielded once the new watch is in place, so that an edit made in between
    is seen by the rebuild it causes, or else by the watch.
    """
    started = False
    pending: set[str] = set()        # folders and files that came or went: rebuilt under the new watch
    while not stopping.is_set():
        folders, files = watched(root)
        stamps = {path: _stamp(path) for path in files}
        if not folders:
            if not started:
                started = True
                yield set()
            stopping.wait(POLL_MS / 1000)
            yield _moved(stamps) | pending      # empty: quiet since the last one
            pending = set()
            continue
        # Its first batch (empty, on timeout, if nothing happened) comes with the watch in place.
        for batch in watchfiles.watch(*folders, stop_event=stopping, step=SETTLE_MS,
                                      rust_timeout=POLL_MS, yield_on_timeout=True):
            changed = {path for _, path in batch} | _moved(stamps) | pending
            pending = set()
            started = True
            yield changed                               # empty: quiet since the last one
            now, now_files = watched(root)
            if now != folders or now_files != files:   # a folder appeared or went: all its files did
                pending = {str(path) for path in set(now) ^ set(folders) | set(now_files) ^ set(files)}
                break


def watched(root: Path) -> tuple[list[Path], list[Path]]:
    """The input folders to watch, and the files to poll: site.yaml and static files.

    While site.yaml does not load, only the folders every site has are watched;
    the build reports what is wrong with it.
    """
    places = [root / name for name in (*WATCHED, *_static_paths(root, _stamp(root / CONFIG_FILE)))]
    return [p for p in places if p.is_dir()], [root / CONFIG_FILE, *(p for p in places if p.is_file())]


@functools.lru_cache(maxsize=4)
def _static_paths(root: Path, config_stamp: Stamp | None) -> tuple[str, ...]:
    """site.yaml's static paths, theme folder and what the outputs read besides (Sass load
    paths), read again only when its stamp moves."""
    from generator.outputs.registry import default_registry

    try:
        config = load_config(root)
        return (config.static_paths + config.theme_paths
                + tuple(path for planner in default_registry() for path in planner.watches(config)))
    except SiteError:
        return (ASSETS,)


def _moved(stamps: dict[Path, Stamp | None]) -> set[str]:
    """The polled files whose stamps moved since ``stamps`` (which are brought up to date)."""
    moved = set()
    for path, stamp in stamps.items():
        if (now := _stamp(path)) != stamp:
            stamps[path] = now
            moved.add(str(path))
    return moved


def _stamp(path: Path) -> Stamp | None:
    try:
        return file_stamp(path.stat())
    except OSError:
        return None


class PreviewServer(http.server.ThreadingHTTPServer):
    """A thread per connection, at most :data:`CONNECTIONS` at once; the others wait in the
    listen queue (a burst of thousands costs no more threads, and no more open files)."""

    request_queue_size = 128         # many tabs and assets at once
    daemon_threads = True            # an exit never waits for a client...
    block_on_close = True            # ...but server_close() does, once it has ended their connections
    timeout = ACCEPT_S               # handle_request() waits this long for a connection

    def __init__(self, address: tuple[str, int], preview: Preview):
        self.preview = preview
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.host = address[0].lower()
        self.slots = threading.BoundedSemaphore(CONNECTIONS)
        self.connections: set[socket.socket] = set()     # open, for server_close() to end
        self.connections_lock = threading.Lock()         # before binding: a failed bind closes the server
        super().__init__(address, PreviewHandler)

    def serve_until(self, stopping: threading.Event) -> None:
        """Serve until ``stopping`` is set, even if it was set before this began (unlike
        ``serve_forever()``, whose ``shutdown()`` waits for a loop that may never run)."""
        while not stopping.is_set():
            self.handle_request()

    def process_request(self, request: socket.socket, client_address) -> None:
        """Hand the connection to a thread once fewer than :data:`CONNECTIONS` are busy."""
        while not self.slots.acquire(timeout=ACCEPT_S):
            if self.preview.stopping.is_set():
                return self.shutdown_request(request)
        with self.connections_lock:
            self.connections.add(request)
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._release(request)
            raise

    def process_request_thread(self, request: socket.socket, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._release(request)

    def _release(self, request: socket.socket) -> None:
        with self.connections_lock:
            self.connections.discard(request)
        self.slots.release()

    def server_close(self) -> None:
        """Stop listening, end every open connection (an idle one would hold the stop up to
        the handler's timeout), and wait for their threads."""
        self.socket.close()
        with self.connections_lock:
            for connection in self.connections:
                try:
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        super().server_close()

    def serves_host(self, header: str | None) -> bool:
        """Whether a request's ``Host`` names this server, not a site the browser was visiting.

        A page on another site can rebind its own name to 127.0.0.1 (DNS
        rebinding) and read the preview, drafts and all: its requests carry its
        own name. Accepted: localhost names, IP addresses (no name to rebind)
        and the host the preview listens on; any port, for port forwarding.
        No header at all is not a browser.
        """
        if header is None:
            return True
        try:
            host = urlsplit(f"//{header}").hostname or ""
        except ValueError:   # "[::1" and the like
            return False
        if host in ("localhost", self.host) or host.endswith(".localhost"):
            return True
        try:
            ipaddress.ip_address(host)
        except ValueError:
            return False
        return True

    def handle_error(self, request, client_address) -> None:
        """A client that went away mid-answer is normal (a page left, a reload): not an error."""
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


class PreviewHandler(http.server.BaseHTTPRequestHandler):
    """Serves the output directory like the live host: ``/x`` finds ``x.html``, ``/d/`` its index."""

    server: PreviewServer
    protocol_version = "HTTP/1.0"    # one request per connection: no idle threads to wait for
    timeout = 10                     # a client that sends nothing holds its thread this long at most
    server_version = "sitegen"

    def do_GET(self) -> None:
        self.respond(body=True)

    def do_HEAD(self) -> None:
        self.respond(body=False)

    def respond(self, body: bool) -> None:
        preview = self.server.preview
        if not self.server.serves_host(self.headers.get("Host")):
            return self.send(403, CONTENT_TYPES[".txt"], b"refused: not a host this preview serves\n", body)
        path = self.path
        if "://" in path.split("?", 1)[0]:     # absolute-form request target
            path = urlsplit(path).path or "/"
        path = path.split("?", 1)[0].split("#", 1)[0]
        if path == LIVE + "live.js":
            return self.send(200, CONTENT_TYPES[".js"], LIVE_JS, body)
        if path == LIVE + "events":
            return self.stream_events() if body else self.send(200, "text/event-stream", b"", False)
        if preview.base and (path == preview.base or path.startswith(preview.base + "/")):
            path = path[len(preview.base):] or "/"
        elif preview.base:
            return self.not_found(body)
        try:
            found = locate(preview.out_dir, path)
        except Refused:
            return self.send(400, CONTENT_TYPES[".txt"], b"refused: not a path inside the site\n", body)
        if isinstance(found, Redirect):
            return self.redirect(preview.base + found.location)
        if found is None:
            return self.not_found(body)
        self.send_file(200, found, body)

    def not_found(self, body: bool) -> None:
        page = self.server.preview.out_dir / "404.html"
        if page.is_file():
            return self.send_file(404, page, body, live_page="")
        self.send(404, CONTENT_TYPES[".txt"], b"not found\n", body)

    def redirect(self, location: str) -> None:
        self.send_response(301)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def send_file(self, status: int, path: Path, body: bool, live_page: str | None = None) -> None:
        try:
            data = path.read_bytes()
        except OSError:   # removed by a rebuild since it was found
            return self.send(404, CONTENT_TYPES[".txt"], b"not found\n", body)
        kind = content_type(path)
        if kind.startswith("text/html"):
            if live_page is None:
                rel = path.relative_to(self.server.preview.out_dir).as_posix()
                live_page = f"{self.server.preview.base}/{rel}"
            data = inject_live_script(data, live_page)
        self.send(status, kind, data, body)

    def send(self, status: int, kind: str, data: bytes, body: bool) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if body:
            self.wfile.write(data)

    def stream_events(self) -> None:
        """Server-sent events: the current error at once, then every rebuild's news."""
        news = self.server.preview.news
        seen = news.latest()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        first = "retry: 1000\n\n"
        if news.failure is not None:
            first += f"event: failure\ndata: {news.failure}\n\n"
        try:
            self.wfile.write(first.encode())
            while (events := news.since(seen, KEEPALIVE_S)) is not None:
                text = "".join(f"id: {n}\nevent: {name}\ndata: {data}\n\n" for n, name, data in events)
                self.wfile.write((text or ": keep-alive\n\n").encode())
                seen = events[-1][0] if events else seen
        except OSError:   # the page went away
            return

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        """Quiet: the preview reports builds, not requests."""


class Refused(ValueError):
    """A URL path that tries to leave the output directory."""


@dataclass(frozen=True)
class Redirect:
    """A folder asked for without its trailing slash: send the browser to its URL."""

    location: str


def locate(out_dir: Path, url_path: str) -> Path | Redirect | None:
    """The file under ``out_dir`` that serves ``url_path``, as the live host finds it.

    ``/x`` is the file ``x``, else the folder ``x/`` (by a redirect), else
    ``x.html``; ``/d/`` is ``d/index.html``. None when nothing is there,
    including a symbolic link that points outside. Raises :class:`Refused`
    for dot segments, encoded separators and backslashes.
    """
    if "\\" in url_path or SMUGGLED.search(url_path) or not url_path.startswith("/"):
        raise Refused(url_path)
    decoded = unquote(url_path)
    segments = decoded.split("/")[1:]
    if "\\" in decoded or "\x00" in decoded or any(s in (".", "..") for s in segments):
        raise Refused(url_path)
    rel = "/".join(s for s in segments if s)
    root = os.path.realpath(out_dir)
    for candidate in candidates(rel + "/" if rel and decoded.endswith("/") else rel):
        real = os.path.realpath(os.path.join(root, candidate))
        if os.path.commonpath([root, real]) != root or not os.path.isfile(real):
            continue
        if candidate.endswith("/index.html") and not decoded.endswith("/"):
            return Redirect(decoded + "/")
        return Path(real)
    return None


def content_type(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix in CONTENT_TYPES:
        return CONTENT_TYPES[suffix]
    guessed, _ = mimetypes.guess_type(path.name)
    return guessed or "application/octet-stream"


LIVE_JS = files("generator").joinpath("live.js").read_bytes()


def inject_live_script(html: bytes, page: str) -> bytes:
    """Add the live-reload script before ``</body>`` (served pages only, never files on disk)."""
    tag = (f'<script src="{LIVE}live.js" data-page="{escape(page)}" data-events="{LIVE}events">'
           '</script>').encode()
    ends = list(BODY_END.finditer(html))
    if not ends:
        return html + tag
    at = ends[-1].start()
    return html[:at] + tag + html[at:]


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(root: str | Path, host: str = "127.0.0.1", port: int = 8000,
          options: BuildOptions = BuildOptions(), open_browser: bool = False) -> None:
    """Preview until Ctrl-C: the watcher runs in this thread, so Ctrl-C also stops a build.

    The site's lock is held for the whole preview, not only while it rebuilds: its
    engine trusts the output folder to stay as its last build left it.
    """
    with site_lock(Path(root) / STATE_DIR, "sitegen serve"):
        preview = Preview(root, options, host, port)
        try:      # Ctrl-C from here on, even before the watch, stops what was started
            preview.start(watch=False)
            print(f"serving {preview.out_dir} at {preview.url} (Ctrl-C to stop)", file=sys.stderr)
            if open_browser:
                webbrowser.open(preview.url)
            preview.watch()
        except KeyboardInterrupt:
            pass
        finally:
            preview.stop()
