"""The HTTP side of ``standgen watch``: the server, its request handler, the reload
script, and what a watcher offers them (:class:`Served`) and an attachment (:class:`Attachment`)."""

from __future__ import annotations

import http.client
import io
import socket
import sys
import threading
import time
from collections.abc import Callable
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

MAX_CONNECTIONS = 512  # open connections served at once (each holds a thread) ...
MAX_PER_ADDRESS = 128  # ... and from one client address; more are closed at once
# Requests not yet read whole (request line, headers and a form's body) must arrive within
# HEAD_SECONDS and HEAD_BYTES; at most UNFINISHED_PER_ADDRESS of them from one address and
# UNFINISHED_TOTAL in all, so half-sent requests cannot take every thread. The desk's
# addresses (Attachment.trusted) are let in past the total: the room kept for the desk.
HEAD_SECONDS = 10.0
HEAD_BYTES = 16 * 1024
BODY_BYTES = 64 * 1024  # a form body read ahead (the desk refuses more than 16 KB)
UNFINISHED_PER_ADDRESS = 8
UNFINISHED_TOTAL = 64
EVENTS_URL = "/__standgen/events"
SCRIPT_URL = "/__standgen/live.js"


LIVE_JS = b"""(function () {
  var me = document.currentScript;
  var generation = me ? me.getAttribute("data-generation") : "0";
  function poll() {
    fetch("/__standgen/events?since=" + generation, {cache: "no-store"})
      .then(function (r) { if (!r.ok) { throw r; } return r.text(); })
      .then(function (now) {
        if (now.trim() !== generation) { location.reload(); } else { poll(); }
      })
      .catch(function () { setTimeout(poll, 1000); });
  }
  poll();
})();
"""


class Attachment(Protocol):
    """What ``watch`` serves beside the site (the venue desk, :mod:`standgen.venue`): it
    answers the requests that are its own and says what the terminal shows at start."""

    def handle(self, request: Any, method: str) -> bool:
        """Answer ``request`` if it is this attachment's; return whether it was."""

    def announce(self) -> str:
        """Return the lines the terminal shows when serving starts."""

    def trusted(self, address: str) -> bool:
        """Return whether requests from ``address`` get the room kept for the desk."""


class Served(Protocol):
    """What the server asks of the watcher (:class:`standgen.watch.core.Watch`)."""

    desk: Attachment | None
    generation: int

    def wait_for_build(self) -> None: ...

    def wait_for_generation(self, since: str) -> int: ...

    def decorate(self, page: bytes, generation: int) -> bytes: ...

    def missing_page(self) -> bytes: ...


def same_site_location(path: str, query: str) -> str:
    """Return the redirect to ``path`` + "/" as a path on this server only.

    Browsers read ``\\`` as ``/``, so a request for ``/\\evil.example/%2f..`` would
    otherwise redirect to ``//evil.example/``, another site (an open redirect): the
    path's leading slashes and backslashes become one ``/`` and any other backslash is
    percent-encoded. Issue #15 item 9.
    """
    safe = "/" + path.lstrip("/\\").replace("\\", "%5C")
    return safe + "/" + (f"?{query}" if query else "")


class HeadTooLarge(http.client.LineTooLong):
    """The request line and headers are over :data:`HEAD_BYTES`."""


class _HeadLimit:
    """A request's input stream whose lines (the request line and headers) may add up to
    ``left`` bytes; ``read`` (a body) is passed through."""

    def __init__(self, raw: Any, left: int) -> None:
        self.raw = raw
        self.left = left

    def readline(self, limit: int = -1) -> bytes:
        cap = self.left + 1 if limit < 0 else min(limit, self.left + 1)
        line: bytes = self.raw.readline(cap)
        self.left -= len(line)
        if self.left < 0:
            raise HeadTooLarge("request head")
        return line

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


class Server(ThreadingHTTPServer):
    daemon_threads = False  # server_close() joins request threads: nothing leaks
    block_on_close = True
    request_queue_size = 128  # a venue's phones connect at once
    watch: Served

    def __init__(self, address: tuple[str, int], handler: Callable[..., Any]) -> None:
        self._open: dict[socket.socket, str] = {}  # open connections -> client address
        self._per_address: dict[str, int] = {}
        self._unfinished: dict[socket.socket, tuple[str, float]] = {}  # -> address, deadline
        self._unfinished_per: dict[str, int] = {}
        self._open_lock = threading.Lock()
        self._closing = threading.Event()
        self._reaper = threading.Thread(target=self._reap, name="standgen-http-deadlines")
        super().__init__(address, handler)  # closes the socket itself if it cannot bind
        self._reaper.start()

    def _trusted(self, address: str) -> bool:
        desk = getattr(getattr(self, "watch", None), "desk", None)
        trusted = getattr(desk, "trusted", None)
        return bool(trusted(address)) if trusted is not None else False

    def process_request(self, request: Any, client_address: Any) -> None:
        address = client_address[0] if isinstance(client_address, tuple) else ""
        trusted = self._trusted(address)
        with self._open_lock:
            full = (self._per_address.get(address, 0) >= MAX_PER_ADDRESS
                    or self._unfinished_per.get(address, 0) >= UNFINISHED_PER_ADDRESS
                    or (not trusted and (len(self._open) >= MAX_CONNECTIONS
                                         or len(self._unfinished) >= UNFINISHED_TOTAL)))
            if not full:
                self._open[request] = address
                self._per_address[address] = self._per_address.get(address, 0) + 1
                self._unfinished[request] = (address, time.monotonic() + HEAD_SECONDS)
                self._unfinished_per[address] = self._unfinished_per.get(address, 0) + 1
        if full:  # at the venue, one device (or a few) cannot take every thread
            super().shutdown_request(request)
            return
        super().process_request(request, client_address)

    def finished_reading(self, request: Any) -> None:
        """Note that ``request`` has been read whole: its deadline no longer applies."""
        with self._open_lock:
            self._forget_unfinished(request)

    def _forget_unfinished(self, request: Any) -> None:
        found = self._unfinished.pop(request, None)
        if found is not None:
            left = self._unfinished_per.get(found[0], 1) - 1
            if left > 0:
                self._unfinished_per[found[0]] = left
            else:
                self._unfinished_per.pop(found[0], None)

    def _reap(self) -> None:
        """Close connections whose request was not read whole by its deadline (a header
        line trickled every 20 seconds would otherwise hold a thread for ever)."""
        while not self._closing.wait(0.25):
            now = time.monotonic()
            with self._open_lock:
                late = [c for c, (_, deadline) in self._unfinished.items() if deadline < now]
            for connection in late:
                try:
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def shutdown_request(self, request: Any) -> None:
        with self._open_lock:
            self._forget_unfinished(request)
            address = self._open.pop(request, None)
            if address is not None:
                left = self._per_address.get(address, 1) - 1
                if left > 0:
                    self._per_address[address] = left
                else:
                    self._per_address.pop(address, None)
        super().shutdown_request(request)

    def close_connections(self) -> None:
        """End idle connections (a browser's preconnects) so their threads finish now."""
        with self._open_lock:
            for connection in self._open:
                try:
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def server_close(self) -> None:
        self._closing.set()
        super().server_close()
        if self._reaper.is_alive():
            self._reaper.join()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Stay quiet when a browser goes away mid-answer; report anything else."""
        if not isinstance(sys.exc_info()[1], OSError | HeadTooLarge):
            super().handle_error(request, client_address)


class Handler(SimpleHTTPRequestHandler):
    """Serves the output folder; adds the banner and reload script to HTML pages."""

    server: Server
    timeout = 30  # a client that connects and sends nothing does not hold a thread forever

    def setup(self) -> None:
        super().setup()
        self.rfile = _HeadLimit(self.rfile, HEAD_BYTES)  # type: ignore[assignment]

    def finish(self) -> None:
        super().finish()
        stream = getattr(self, "_stream", None)
        if stream is not None:
            stream.close()

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except HeadTooLarge:  # in the request line: parse_request answers the headers'
            self.close_connection = True

    def parse_request(self) -> bool:
        """Read the head (its size is capped by the stream), then a POST's body, so that
        the request is read whole before anything is evaluated."""
        ok = super().parse_request()
        if ok and self.command == "POST":
            length = self.headers.get("Content-Length", "")
            if length.isascii() and length.isdigit() and int(length) <= BODY_BYTES:
                self._stream = self.rfile
                self.rfile = io.BytesIO(self.rfile.read(int(length)))
        self.server.finished_reading(self.connection)
        return ok

    def do_GET(self) -> None:
        self._answer(head=False)

    def do_HEAD(self) -> None:
        self._answer(head=True)

    def do_POST(self) -> None:
        desk = self.server.watch.desk
        if desk is None or not desk.handle(self, "POST"):
            self._send(405, "text/plain; charset=utf-8", b"Method not allowed\n", False)

    def log_message(self, format: str, *args: Any) -> None:
        """Keep the terminal for build messages."""

    def _answer(self, head: bool) -> None:
        watch = self.server.watch
        if watch.desk is not None and watch.desk.handle(self, "HEAD" if head else "GET"):
            return
        url = urlsplit(self.path)
        if url.path == EVENTS_URL:
            since = parse_qs(url.query).get("since", [""])[0]
            self._send(200, "text/plain; charset=utf-8",
                       str(watch.wait_for_generation(since)).encode(), head)
            return
        if url.path == SCRIPT_URL:
            self._send(200, "text/javascript; charset=utf-8", LIVE_JS, head)
            return
        watch.wait_for_build()
        local = Path(self.translate_path(self.path))
        if local.is_dir():
            if not url.path.endswith("/"):
                self.send_response(301)
                self.send_header("Location", same_site_location(url.path, url.query))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            local = local / "index.html"
        if local.suffix == ".html" or not (local.suffix or local.exists()):
            generation = watch.generation
            try:
                page, status = local.read_bytes(), 200
            except OSError:
                page, status = watch.missing_page(), 404
            self._send(status, "text/html; charset=utf-8", watch.decorate(page, generation),
                       head)
            return
        if head:
            super().do_HEAD()
        else:
            super().do_GET()

    def _send(self, status: int, content_type: str, body: bytes, head: bool) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")  # a reload always fetches the new build
        super().end_headers()


