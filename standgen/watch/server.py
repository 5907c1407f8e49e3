"""The HTTP side of ``standgen watch``: the server, its request handler, the reload
script, and what a watcher offers them (:class:`Served`) and an attachment (:class:`Attachment`)."""

from __future__ import annotations

import socket
import sys
import threading
from collections.abc import Callable
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

MAX_CONNECTIONS = 512  # open connections served at once (each holds a thread) ...
MAX_PER_ADDRESS = 128  # ... and from one client address; more are closed at once
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


class Server(ThreadingHTTPServer):
    daemon_threads = False  # server_close() joins request threads: nothing leaks
    block_on_close = True
    request_queue_size = 128  # a venue's phones connect at once
    watch: Served

    def __init__(self, address: tuple[str, int], handler: Callable[..., Any]) -> None:
        super().__init__(address, handler)
        self._open: dict[socket.socket, str] = {}  # open connections -> client address
        self._per_address: dict[str, int] = {}
        self._open_lock = threading.Lock()

    def process_request(self, request: Any, client_address: Any) -> None:
        address = client_address[0] if isinstance(client_address, tuple) else ""
        with self._open_lock:
            full = (len(self._open) >= MAX_CONNECTIONS
                    or self._per_address.get(address, 0) >= MAX_PER_ADDRESS)
            if not full:
                self._open[request] = address
                self._per_address[address] = self._per_address.get(address, 0) + 1
        if full:  # at the venue, one device cannot take every thread
            super().shutdown_request(request)
            return
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._open_lock:
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

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Stay quiet when a browser goes away mid-answer; report anything else."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


class Handler(SimpleHTTPRequestHandler):
    """Serves the output folder; adds the banner and reload script to HTML pages."""

    server: Server
    timeout = 30  # a client that connects and sends nothing does not hold a thread forever

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


