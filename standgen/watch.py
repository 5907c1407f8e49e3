"""``standgen watch``: serve the site on 127.0.0.1, rebuild on change, reload the browser.

Data contract section 2. Modelled on MkDocs' ``livereload`` and ``commands/serve.py``:
file events are debounced, a request waits while a build is pending or running, and open
pages long-poll ``/__standgen/events`` and reload when the build generation changes.

Bad input never takes the site down: the last good build stays on disk and every HTML
page is served with the problems (``path:line: message``) in a banner until a build
succeeds. Every build is ``standgen build``'s own (:func:`standgen.builder.build_held`,
into the served folder, as MkDocs' ``serve`` calls ``build()``): its build state does the
"only what changed" work (Lektor's idea: content hashes, not mtimes), so only the events
whose files changed are loaded and rendered again, and only files whose bytes changed are
written. A build that fails writes nothing, so the last good site stays.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
import traceback
import webbrowser
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from standgen.build import DOCS, TEMPLATES
from standgen.builder import build_held
from standgen.buildstate import state_file
from standgen.errors import InputError, Problem
from standgen.load.files import display
from standgen.load.inputs import is_litter
from standgen.output import journal_file, lock_file, place_problems, writing

HOST = "127.0.0.1"
DEBOUNCE = 0.2  # seconds of quiet after the last file event before a build starts
MAX_DELAY = 0.75  # ... but a burst of saves waits no longer than this after its first one
POLL_SECONDS = 20.0  # a long poll answers at least this often, so proxies never time out
REQUEST_WAIT = 10.0  # longest a page request waits for a running build
MAX_CONNECTIONS = 512  # open connections served at once (each holds a thread) ...
MAX_PER_ADDRESS = 128  # ... and from one client address; more are closed at once
EVENTS_URL = "/__standgen/events"
SCRIPT_URL = "/__standgen/live.js"

_IGNORED_EVENTS = {"opened", "closed_no_write", "attrib"}
_BODY = re.compile(rb"<body\b[^>]*>", re.IGNORECASE)
_BODY_END = re.compile(rb"</body\s*>", re.IGNORECASE)

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

Log = Callable[[str], None]


class Attachment(Protocol):
    """What ``watch`` serves beside the site (the venue desk, :mod:`standgen.venue`): it
    answers the requests that are its own and says what the terminal shows at start."""

    def handle(self, request: Any, method: str) -> bool:
        """Answer ``request`` if it is this attachment's; return whether it was."""

    def announce(self) -> str:
        """Return the lines the terminal shows when serving starts."""


class ServeError(Exception):
    """The watcher cannot start (port in use, unsafe output folder); the message says why."""


def same_site_location(path: str, query: str) -> str:
    """Return the redirect to ``path`` + "/" as a path on this server only.

    Browsers read ``\\`` as ``/``, so a request for ``/\\evil.example/%2f..`` would
    otherwise redirect to ``//evil.example/``, another site (an open redirect): the
    path's leading slashes and backslashes become one ``/`` and any other backslash is
    percent-encoded. Issue #15 item 9.
    """
    safe = "/" + path.lstrip("/\\").replace("\\", "%5C")
    return safe + "/" + (f"?{query}" if query else "")


class Watch:
    """A running ``standgen watch``: the builder, the file observer and the HTTP server.

    Use as a context manager, or call :meth:`start` and :meth:`stop`.
    """

    def __init__(
        self,
        events: Path,
        port: int = 8000,
        output: Path | None = None,
        log: Log | None = None,
        debounce: float = DEBOUNCE,
        docs: Path = DOCS,
        templates: Path = TEMPLATES,
        host: str = HOST,
    ) -> None:
        self.events = events
        self.host = host  # 127.0.0.1 unless --venue names another address
        self.docs = docs
        self.templates = templates
        self.port = port
        self.debounce = debounce
        self.log: Log = log or (lambda line: None)
        self._own_output = output is None
        self.output = (output or Path(tempfile.mkdtemp(prefix="standgen-watch-"))).absolute()
        # shared state, guarded by the condition
        self.changed = threading.Condition()
        self.generation = 0
        self.problems: tuple[Problem, ...] = ()
        self.internal_error = ""
        self.has_site = False
        self.pending = False
        self.building = False
        self.stopping = False
        self._last_change = 0.0
        self._first_change = 0.0  # the first file event since the last build started
        # builder state (builder thread only)
        self.builds = 0  # build attempts after the first
        self.reports_computed = 0  # events loaded and rendered, over every build
        self.last_written: tuple[str, ...] = ()  # files the last build wrote or removed
        self._observer: Any = None
        self._server: _Server | None = None
        self._threads: list[threading.Thread] = []
        self._lock = ExitStack()
        # the venue desk (standgen/venue/), if any; it holds build_lock while it writes
        self.desk: Attachment | None = None
        self.build_lock = threading.Lock()

    @property
    def url(self) -> str:
        """Return the address the site is served at."""
        return f"http://{self.host}:{self.port}/"

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> Watch:
        """Build once, then start serving and watching; raise ServeError if it cannot."""
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self) -> None:
        if not self.events.is_dir():
            raise InputError([Problem(display(self.events), 1, "events folder not found; run "
                                      "standgen in the folder that holds events/ or name it")])
        self._check_output()
        self._lock.enter_context(writing(self.output))  # one writer, until stop()
        self.output.mkdir(parents=True, exist_ok=True)
        self._build()
        try:
            server = _Server((self.host, self.port),
                             partial(_Handler, directory=str(self.output)))
        except (OSError, OverflowError) as exc:
            reason = getattr(exc, "strerror", None) or exc
            raise ServeError(f"cannot serve on {self.host}:{self.port} ({reason}); choose "
                             "another port with --port, or another address") from exc
        server.watch = self
        self._server = server
        self.port = server.server_address[1]
        observer = Observer()
        changes = _Changes(self)
        for folder in self._watched():
            try:
                observer.schedule(changes, str(folder), recursive=True)
            except OSError as exc:  # e.g. the system's limit on watched folders
                raise ServeError(f"cannot watch {folder} ({exc}); on Linux raise "
                                 "fs.inotify.max_user_watches") from exc
        observer.start()
        self._observer = observer
        for name, target in (("standgen-build", self._build_loop),
                             ("standgen-http", partial(server.serve_forever, 0.1))):
            thread = threading.Thread(target=target, name=name)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        """Stop serving and watching, join every thread, remove the temporary output."""
        with self.changed:
            self.stopping = True
            self.changed.notify_all()  # wakes the builder and every long poll
        if self._observer is not None:
            self._observer.stop()
            self._observer.join()
        if self._server is not None:
            self._server.shutdown()
            self._server.close_connections()
            self._server.server_close()  # joins the request threads
        for thread in self._threads:
            thread.join()
        self._threads.clear()
        self._lock.close()
        self._remove_output()

    def __enter__(self) -> Watch:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _watched(self) -> list[Path]:
        folders = [self.events.absolute(), self.docs.absolute(), self.templates.absolute()]
        return [f for f in folders if f.is_dir()]

    def _check_output(self) -> None:
        """Refuse an output folder whose replacement would destroy input or other files
        (the rules of ``standgen build``: :func:`standgen.output.place_problems`)."""
        if self._own_output:
            return
        for problem in place_problems(self.output, (self.events, self.docs, self.templates)):
            raise ServeError(f"{problem.path}: {problem.message}")

    def _remove_output(self) -> None:
        if self._own_output:
            shutil.rmtree(self.output, ignore_errors=True)
            for sibling in (lock_file(self.output), state_file(self.output),
                            journal_file(self.output)):
                sibling.unlink(missing_ok=True)

    # -- file events -> builds ---------------------------------------------------------------

    def notice(self, path: str) -> bool:
        """Record a change to ``path`` unless it is litter or output; return whether it counts."""
        target = Path(path).absolute()
        if target.is_relative_to(self.output):
            return False
        for folder in self._watched():
            if target.is_relative_to(folder):
                parts = target.relative_to(folder).parts
                if any(part.startswith(".") for part in parts) or (parts and
                                                                   is_litter(parts[-1])):
                    return False
        with self.changed:
            now = time.monotonic()
            if not self.pending:
                self._first_change = now
            self.pending = True
            self._last_change = now
            self.changed.notify_all()
        return True

    def _build_loop(self) -> None:
        while True:
            with self.changed:
                self.changed.wait_for(lambda: self.pending or self.stopping)
                while not self.stopping:
                    now = time.monotonic()
                    quiet = now - self._last_change
                    waited = now - self._first_change
                    if quiet >= self.debounce or waited >= MAX_DELAY:
                        break
                    self.changed.wait(min(self.debounce - quiet, MAX_DELAY - waited))
                if self.stopping:
                    return
                self.pending = False
                self.building = True
            try:
                self.builds += 1
                with self.build_lock:  # the venue desk never writes while a build runs
                    self._build()
            except Exception:  # never let one bad build stop the rebuilding
                self.log("standgen: internal error (a bug):\n" + traceback.format_exc())
            finally:
                with self.changed:
                    self.building = False
                    self.changed.notify_all()

    def _build(self) -> None:
        """Build as ``standgen build`` does, into the served folder; keep the last good site
        on bad input or a bug (a build that fails writes nothing)."""
        started = time.monotonic()
        problems: tuple[Problem, ...] = ()
        internal = ""
        written: tuple[str, ...] = ()
        try:
            built = build_held(self.events, self.output, self.docs, self.templates,
                               track=True)
        except InputError as exc:
            problems = exc.problems
        except OSError as exc:  # a file moved or vanished mid-build: its event builds again
            where = display(Path(os.fsdecode(exc.filename))) if exc.filename else "events"
            problems = (Problem(where, 1, f"changed while it was read ({exc.strerror}); "
                                "save it again if this message stays"),)
        except Exception as exc:  # a bug: report it on the page, keep serving
            internal = f"internal error (a bug, not your files): {type(exc).__name__}: {exc}"
            self.log("standgen: " + internal + "\n" + traceback.format_exc())
        else:
            for warning in built.warnings:
                self.log(str(warning))
            self.reports_computed += built.rebuilt
            written = built.changed
        self._report(problems, internal, written, time.monotonic() - started)
        with self.changed:
            state_changed = (problems, internal) != (self.problems, self.internal_error)
            if written or state_changed or not self.has_site:
                self.generation += 1
            self.problems, self.internal_error = problems, internal
            self.has_site = self.has_site or (not problems and not internal)
            self.last_written = written
            self.changed.notify_all()

    def _report(self, problems: tuple[Problem, ...], internal: str, written: Sequence[str],
                seconds: float) -> None:
        if problems:
            for problem in problems:
                self.log(str(problem))
            errors = sum(1 for p in problems if not p.warning)
            self.log(f"{errors} problem(s) found; serving the last good site until they are "
                     "fixed.")
        elif not internal:
            self.log(f"Built in {seconds:.2f} s: {len(written)} file(s) changed.")

    # -- what the server shows ---------------------------------------------------------------

    def wait_for_build(self) -> None:
        """Block while a build is pending or running, so a page is never half a build."""
        with self.changed:
            self.changed.wait_for(lambda: not (self.pending or self.building) or self.stopping,
                                  timeout=REQUEST_WAIT)

    def wait_for_generation(self, since: str, timeout: float = POLL_SECONDS) -> int:
        """Return the build generation once it differs from ``since`` (or at the timeout)."""
        with self.changed:
            self.changed.wait_for(lambda: str(self.generation) != since or self.stopping,
                                  timeout=timeout)
            return self.generation

    def decorate(self, page: bytes, generation: int) -> bytes:
        """Return an HTML page with the problem banner (if any) and the reload script.

        ``generation`` is the build generation read *before* the page was read, so a build
        finishing in between makes the page reload rather than show stale content.
        """
        with self.changed:
            banner = self._banner()
        script = (f'<script src="{SCRIPT_URL}" data-generation="{generation}"></script>'
                  .encode())
        if banner:
            found = _BODY.search(page)
            at = found.end() if found else 0
            page = page[:at] + banner.encode() + page[at:]
        ends = list(_BODY_END.finditer(page))
        at = ends[-1].start() if ends else len(page)
        return page[:at] + script + page[at:]

    def _banner(self) -> str:
        """Return the escaped problem list shown on every page, or '' when all is well."""
        if self.internal_error:
            head = ("The site was not rebuilt; the pages show the last good build. The "
                    "terminal has the details.")
            lines = [self.internal_error]
        elif any(not p.warning for p in self.problems):
            head = ("The site was not rebuilt: fix these problems and save. The pages show "
                    "the last good build.")
            lines = [str(p) for p in self.problems]
        else:
            return ""
        items = "".join(f"<li><code>{html.escape(line)}</code></li>" for line in lines)
        return ('<div id="standgen-watch-problems" role="alert" style="position:sticky;top:0;'
                "z-index:2147483647;max-height:45vh;overflow:auto;background:#fff3cd;"
                "color:#3d2c00;border:3px solid #b45309;padding:0.75em 1em;margin:0;"
                'font-size:1.1rem;line-height:1.4">'
                f"<p style=\"margin:0 0 0.5em\"><strong>{html.escape(head)}</strong></p>"
                f'<ul style="margin:0;padding-left:1.2em">{items}</ul></div>')

    def missing_page(self) -> bytes:
        """Return the page served where the site has no page (yet): it reloads when built."""
        with self.changed:
            text = ("The site could not be built yet." if not self.has_site
                    else "No page here.")
        return (b"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                b"<title>standgen watch</title></head><body><h1>standgen watch</h1><p>"
                + text.encode() + b"</p></body></html>")


class _Server(ThreadingHTTPServer):
    daemon_threads = False  # server_close() joins request threads: nothing leaks
    block_on_close = True
    request_queue_size = 128  # a venue's phones connect at once
    watch: Watch

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


class _Handler(SimpleHTTPRequestHandler):
    """Serves the output folder; adds the banner and reload script to HTML pages."""

    server: _Server
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


class _Changes(FileSystemEventHandler):
    """Turns watchdog's file events into :meth:`Watch.notice` calls."""

    def __init__(self, watch: Watch) -> None:
        super().__init__()
        self.watch = watch

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in _IGNORED_EVENTS:
            return
        if event.is_directory and event.event_type == "modified":
            return  # a file inside changed; that file's own event follows
        paths = [event.src_path, *([event.dest_path] if event.dest_path else [])]
        for path in paths:
            if self.watch.notice(os.fsdecode(path)):
                return


def serve(events: Path, port: int, output: Path | None, open_browser: bool, log: Log,
          say: Log, host: str = HOST, attach: Callable[[Watch], Attachment] | None = None
          ) -> None:
    """Run ``standgen watch`` until Ctrl+C (or SIGTERM); raise ServeError if it cannot start.

    ``attach`` makes what is served beside the site (the venue desk: the CLI passes it with
    ``--venue``, so this module never imports :mod:`standgen.venue`).
    """
    watch = Watch(events, port, output, log, host=host)
    if attach is not None:
        watch.desk = attach(watch)
    watch.start()
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        say(f"Serving {watch.url} (site in {watch.output}); watching {events}. "
            "Press Ctrl+C to stop.")
        if watch.desk is not None:
            say(watch.desk.announce())
        if open_browser:
            webbrowser.open(watch.url)
        while True:
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        watch.stop()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    say("Stopped.")


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
