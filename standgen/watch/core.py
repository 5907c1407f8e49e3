"""The watcher: builds on every change (debounced), keeps the last good site, tells
open pages to reload; and :func:`serve`, which runs it until Ctrl+C."""

from __future__ import annotations

import html
import os
import re
import shutil
import signal
import tempfile
import threading
import time
import traceback
import webbrowser
from collections.abc import Callable, Collection, Sequence
from contextlib import ExitStack
from functools import partial
from pathlib import Path
from typing import Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from standgen.build import DOCS, TEMPLATES
from standgen.builder import build_held
from standgen.buildstate import state_file
from standgen.errors import InputError, Problem
from standgen.load.files import display
from standgen.load.inputs import is_litter
from standgen.notices import first_seen
from standgen.output import journal_file, lock_file, place_problems, writing
from standgen.watch.server import SCRIPT_URL, Attachment, Handler, Server

HOST = "127.0.0.1"
DEBOUNCE = 0.2  # seconds of quiet after the last file event before a build starts
MAX_DELAY = 0.75  # ... but a burst of saves waits no longer than this after its first one
POLL_SECONDS = 20.0  # a long poll answers at least this often, so proxies never time out
REQUEST_WAIT = 10.0  # longest a page request waits for a running build

_IGNORED_EVENTS = {"opened", "closed_no_write", "attrib"}
_BODY = re.compile(rb"<body\b[^>]*>", re.IGNORECASE)
_BODY_END = re.compile(rb"</body\s*>", re.IGNORECASE)

Log = Callable[[str], None]


class ServeError(Exception):
    """The watcher cannot start (port in use, unsafe output folder); the message says why."""


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
        self.early = False  # the running build's events' own pages are in place
        self.urgent = False  # a complete write (the desk's): build without waiting for quiet
        self.stopping = False
        self._noticed: dict[str, tuple[int, int, int]] = {}  # path -> stat noticed urgently
        self._touched: set[Path] = set()  # the files changed since the last build started
        self._last_change = 0.0
        self._first_change = 0.0  # the first file event since the last build started
        # builder state (builder thread only)
        self.builds = 0  # build attempts after the first
        self.reports_computed = 0  # events loaded and rendered, over every build
        self.last_written: tuple[str, ...] = ()  # files the last build wrote or removed
        self._observer: Any = None
        self._server: Server | None = None
        self._threads: list[threading.Thread] = []
        self._lock = ExitStack()
        # the venue desk (standgen/venue/), if any; it holds build_lock while it writes
        self.desk: Attachment | None = None
        self.build_lock = threading.Lock()
        self._holding = False  # the builder holds build_lock (builder thread only)

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
            server = Server((self.host, self.port),
                             partial(Handler, directory=str(self.output)))
        except (OSError, OverflowError) as exc:
            reason = getattr(exc, "strerror", None) or exc
            raise ServeError(f"cannot serve on {self.host}:{self.port} ({reason}); choose "
                             "another port with --port, or another address") from exc
        server.watch = self
        self._server = server
        self.port = server.server_address[1]
        started = getattr(self.desk, "started", None)
        if started is not None:  # the desk records where it serves (standgen.venue)
            started()
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
        close = getattr(self.desk, "close", None)
        if close is not None:  # the desk releases its events folder (standgen.venue)
            close()

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

    def notice(self, path: str, urgent: bool = False) -> bool:
        """Record a change to ``path`` unless it is litter or output; return whether it counts.

        ``urgent``: the change is a complete write (the results desk's, through
        :mod:`standgen.roundfile`), so the build starts without waiting for quiet, and
        the file watcher's own event for the same write (the same inode, size and
        modification time) is not counted again."""
        target = Path(path).absolute()
        if not urgent and _stat(target) is not None and \
                self._noticed.get(str(target)) == _stat(target):
            return False  # the desk's write, already noticed
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
            self._touched.add(target)
            if urgent:
                self.urgent = True
                found = _stat(target)
                if found is not None:
                    self._noticed[str(target)] = found
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
                    if quiet >= self.debounce or waited >= MAX_DELAY or self.urgent:
                        break
                    self.changed.wait(min(self.debounce - quiet, MAX_DELAY - waited))
                if self.stopping:
                    return
                self.pending = False
                self.urgent = False
                self.building = True
                self.early = False
                touched, self._touched = self._touched, set()
            try:
                self.builds += 1
                # the venue desk never writes while a build reads the files: until the
                # build's first pages are in place (it has read every input by then)
                self.build_lock.acquire()
                self._holding = True
                try:
                    self._build(touched)
                finally:
                    self._let_desk_write()
            except Exception:  # never let one bad build stop the rebuilding
                self.log("standgen: internal error (a bug):\n" + traceback.format_exc())
            finally:
                with self.changed:
                    self.building = False
                    self.early = False
                    self.changed.notify_all()

    def _build(self, touched: Collection[Path] = ()) -> None:
        """Build as ``standgen build`` does, into the served folder; keep the last good site
        on bad input or a bug (a build that fails writes nothing). ``touched``: the files
        that changed (the pages of their rounds are put in place first)."""
        started = time.monotonic()
        problems: tuple[Problem, ...] = ()
        internal = ""
        written: tuple[str, ...] = ()
        try:
            built = build_held(self.events, self.output, self.docs, self.templates,
                               track=True, first=self._early, touched=touched)
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
            for warning in first_seen(built.warnings):
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

    def _early(self, written: Sequence[str]) -> None:
        """Part of the running build's pages (``written``) is in place: serve them now,
        first the round page, ``pairings.json`` and ``standings.json`` of a result typed
        in at the desk, then the event's other pages, while the pages above events
        (seasons, histories, the club's) are made. Each page is whole; the build's
        generation (what open pages reload on) still ends with the build.

        The build has read every input file by then: the desk may write the next result
        (it starts the next build; the state this one saves has the files as it read
        them, so the next build sees the change)."""
        self._let_desk_write()
        with self.changed:
            self.early = True
            self.changed.notify_all()

    def _let_desk_write(self) -> None:
        if self._holding:
            self._holding = False
            self.build_lock.release()

    def _report(self, problems: tuple[Problem, ...], internal: str, written: Sequence[str],
                seconds: float) -> None:
        if problems:
            for problem in first_seen(problems):
                self.log(str(problem))
            errors = sum(1 for p in problems if not p.warning)
            self.log(f"{errors} problem(s) found; serving the last good site until they are "
                     "fixed.")
        elif not internal:
            self.log(f"Built in {seconds:.2f} s: {len(written)} file(s) changed.")

    # -- what the server shows ---------------------------------------------------------------

    def wait_for_build(self) -> None:
        """Block while a build is pending or running, so a page is never half a build;
        once the running build's events' own pages are in place (:meth:`_early`) they
        are served, with the other pages as the last build left them."""
        with self.changed:
            self.changed.wait_for(
                lambda: not (self.pending or self.building)
                or (self.early and not self.pending) or self.stopping,
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
            # errors first, then warnings; notices ask nothing and are never shown here
            shown = sorted((p for p in self.problems if not p.notice),
                           key=lambda p: (p.warning, p.path, p.line, p.message))
            lines = [str(p) for p in shown]
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


def _stat(path: Path) -> tuple[int, int, int] | None:
    try:
        found = path.stat()
    except OSError:
        return None
    return found.st_ino, found.st_size, found.st_mtime_ns
