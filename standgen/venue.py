"""The venue desk of ``standgen watch --venue``: results typed into a browser (issue #19 item 5).

The TO opens ``/__desk/<token>/`` (the token is random, printed once to the terminal and
never written anywhere) and types a table's result and stats; with ``--self-report``,
players open ``/__report/`` and report their own table with the code printed on its
result slip; a result counts when both players' reports agree, and a disagreement is
shown to the TO. Every entry goes through the loader (:func:`standgen.load.load_event`
on a staging copy of the event folder), is written atomically into the round file while
no build runs, is appended to a log, and makes the watcher rebuild the pages.

Security (docs/venue.md): the desk token is compared in constant time; every change is a
POST with a CSRF token (an HMAC of a per-run key, a nonce and the time) and, when the
browser sends them, an ``Origin`` equal to the ``Host`` and no cross-site
``Sec-Fetch-Site``; the ``Host`` must be an IP address or ``localhost`` (no DNS
rebinding); table codes are 8 base32 characters (40 bits) derived with HMAC from a
secret kept beside the events folder (never in it, never in the site); each client
address gets 10 failed attempts a minute, then 429; POSTs are rate-limited as well.
"""

from __future__ import annotations

import base64
import csv
import errno
import hashlib
import hmac
import io
import ipaddress
import json
import os
import secrets
import shutil
import tempfile
import threading
import time
import traceback
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, quote, urlencode, urlsplit

import jinja2

from standgen.build import TEMPLATES
from standgen.errors import InputError, Problem
from standgen.formats import FORMATS
from standgen.formats.base import Format
from standgen.load import find_events, load_event
from standgen.load.config import load_event_config
from standgen.load.files import CONTROL, display, read_text
from standgen.load.inputs import event_files
from standgen.output import write_atomic

if TYPE_CHECKING:
    from standgen.watch import Watch

DESK_PREFIX = "/__desk/"
REPORT_PATH = "/__report/"
CODE_LENGTH = 8  # base32 characters: 40 bits
FAIL_LIMIT = 10  # failed attempts (token, code, CSRF, origin) per client address ...
WINDOW = 60.0  # ... per this many seconds; then every desk and report request gets 429
POST_LIMIT = 300  # POSTs per client address per window (the desk and reports)
MAX_BODY = 16 * 1024  # bytes of a form
MAX_VALUE = 40  # characters of one entered value
CSRF_SECONDS = 12 * 3600  # a form is good for an event day
MAX_CLIENTS = 10_000  # addresses the rate limiter remembers (its memory is bounded)
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
                               "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",  # "no-referrer" would make browsers send Origin: null
    "X-Content-Type-Options": "nosniff",
}
PLAYER_RESULTS = ("1-0", "0-1", "draw")
DESK_RESULTS = ("1-0", "0-1", "draw", "+-", "-+", "--")

TableKey = tuple[str, int, int]  # event path, round, table


def venue_folder(events: Path) -> Path:
    """Return the folder of the venue secret and log: a hidden sibling of the events folder
    (``.events.standgen-venue/``), so neither the events tree nor the site ever holds it."""
    events = events.absolute()
    return events.parent / f".{events.name}.standgen-venue"


def normal_code(text: str) -> str:
    """Return a typed table code without spaces or dashes, in capitals; the digits 0, 1
    and 8, which base32 does not use, are read as the letters O, I and B they resemble."""
    typed = "".join(c for c in text.upper() if c not in " -\t")
    return typed.translate(str.maketrans("018", "OIB"))


def shown_code(code: str) -> str:
    """Return a code as printed on a slip: ``ABCD-EFGH``."""
    return f"{code[:4]}-{code[4:]}"


class RateLimiter:
    """Counts hits per key in a sliding window; memory is bounded by ``MAX_CLIENTS``."""

    def __init__(self, limit: int, window: float = WINDOW) -> None:
        self.limit = limit
        self.window = window
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        hits = self._hits.get(key)
        if hits is None:
            if len(self._hits) >= MAX_CLIENTS:
                self._hits.pop(next(iter(self._hits)))
            hits = self._hits[key] = deque()
        while hits and now - hits[0] >= self.window:
            hits.popleft()
        return hits

    def blocked(self, key: str) -> float:
        """Return the seconds until ``key`` may try again (0 when it may now)."""
        now = time.monotonic()
        with self._lock:
            hits = self._recent(key, now)
            if len(hits) < self.limit:
                return 0.0
            return max(0.0, self.window - (now - hits[0]))

    def hit(self, key: str) -> bool:
        """Count one hit; return whether ``key`` was still within its limit."""
        now = time.monotonic()
        with self._lock:
            hits = self._recent(key, now)
            if len(hits) >= self.limit:
                return False
            hits.append(now)
            return True


class Refusal(Exception):
    """A request ends with this HTTP status and message (and nothing changes)."""

    def __init__(self, status: int, message: str, retry_after: float = 0.0) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


@dataclass(frozen=True)
class EventInfo:
    """One event folder as the desk lists it."""

    path: str  # slugs joined with "/"
    slugs: tuple[str, ...]
    folder: Path
    name: str
    fmt: Format | None  # None while event.toml cannot be read
    rounds: tuple[int, ...]
    files: tuple[Path, ...] = ()  # each round's file, as the loader found it

    def round_file(self, number: int) -> Path:
        """Return round ``number``'s file (``round-3.CSV`` where it is spelt so)."""
        found = dict(zip(self.rounds, self.files, strict=False))
        return found.get(number, self.folder / f"round-{number}.csv")

    @property
    def two_player(self) -> bool:
        return self.fmt is not None and self.fmt.seats == 2

    def columns(self) -> list[str]:
        """Return the columns the desk may change: ``result`` and the stat columns."""
        assert self.fmt is not None
        return ["result"] + [f"{s.id}_{k}" for s in self.fmt.stats for k in (1, 2)]


@dataclass
class RoundFile:
    """A round file read line by line, so one row can be replaced and nothing else moves."""

    path: Path
    lines: list[str]  # with their line ends
    header: list[str]
    newline: str
    rows: dict[int, tuple[int, dict[str, str]]]  # table -> (index in lines, cells)

    def row_text(self, table: int) -> str:
        return self.lines[self.rows[table][0]].rstrip("\r\n")


@dataclass(frozen=True)
class Report:
    """One player's report of their table."""

    seat: int
    values: tuple[tuple[str, str], ...]
    client: str


@dataclass
class Outcome:
    """What became of an entry: ``status`` 200 when done (``changed`` says whether the file
    changed), otherwise the HTTP status and the problems."""

    status: int = 200
    problems: list[str] = field(default_factory=list)
    changed: bool = False
    old: dict[str, str] = field(default_factory=dict)
    new: dict[str, str] = field(default_factory=dict)


def read_round(path: Path) -> RoundFile:
    """Return the round file at ``path``; raise Refusal when the desk cannot edit it."""
    problems: list[Problem] = []
    text = read_text(path, problems)
    if text is None:
        raise Refusal(400, "; ".join(str(p) for p in problems) or f"{display(path)}: unreadable")
    lines = text.splitlines(keepends=True)
    newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    header: list[str] = []
    rows: dict[int, tuple[int, dict[str, str]]] = {}
    for index, line in enumerate(lines):
        content = line.rstrip("\r\n")
        if not content.strip():
            continue
        try:
            cells = next(csv.reader([content], strict=True))
        except (csv.Error, StopIteration) as exc:
            raise Refusal(400, f"{display(path)}:{index + 1}: the desk cannot read this line "
                          f"({exc}); correct it in the file") from exc
        if not header:
            header = cells
            if "table" not in header:
                raise Refusal(400, f"{display(path)}:{index + 1}: no 'table' column; correct "
                              "the header in the file")
            continue
        row = dict(zip(header, cells, strict=False))
        number = row.get("table", "").strip()
        if number.isdigit() and int(number) not in rows:
            rows[int(number)] = (index, row)
    return RoundFile(path, lines, header, newline, rows)


def csv_line(cells: list[str], newline: str) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator=newline).writerow(cells)
    return out.getvalue()


def row_tag(text: str) -> str:
    """Return the short hash of a row's text that a form sends back (``expect``)."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class Desk:
    """The results desk and the self-report pages of one ``standgen watch --venue``."""

    def __init__(self, watch: Watch, self_report: bool = False, *,
                 fail_limit: int = FAIL_LIMIT, post_limit: int = POST_LIMIT,
                 window: float = WINDOW, folder: Path | None = None) -> None:
        self.watch = watch
        self.self_report = self_report
        self.token = secrets.token_urlsafe(24)  # printed once; never stored
        self.folder = folder or venue_folder(watch.events)
        self.log_path = self.folder / "log.jsonl"
        self._csrf_key = secrets.token_bytes(32)  # per run: a restart expires old forms
        self._key: bytes | None = None
        self.failures = RateLimiter(fail_limit, window)
        self.posts = RateLimiter(post_limit, window)
        self.lock = threading.Lock()  # self-reports and disputes; taken before build_lock
        self.reports: dict[TableKey, dict[int, Report]] = {}
        self.disputes: dict[TableKey, tuple[Report, Report]] = {}
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(TEMPLATES / "desk")), autoescape=True,
            undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)

    # -- secrets -------------------------------------------------------------------------

    @property
    def key(self) -> bytes:
        """Return the table-code secret, created (mode 600) on first use."""
        if self._key is None:
            self._key = load_secret(self.folder)
        return self._key

    def code(self, event: str, number: int, table: int) -> str:
        """Return the table code of a table: 40 bits of an HMAC of the secret."""
        mac = hmac.new(self.key, f"table|{event}|{number}|{table}".encode(), "sha256").digest()
        return base64.b32encode(mac).decode()[:CODE_LENGTH]

    def csrf(self, scope: str) -> str:
        """Return a fresh CSRF token for a form of ``scope`` ("desk" or "report")."""
        nonce = secrets.token_urlsafe(12)
        issued = str(int(time.time()))
        return f"{nonce}.{issued}.{self._csrf_mac(scope, nonce, issued)}"

    def csrf_ok(self, token: str, scope: str) -> bool:
        parts = token.split(".")
        if len(parts) != 3 or not parts[1].isdigit():
            return False
        nonce, issued, mac = parts
        if not 0 <= time.time() - int(issued) <= CSRF_SECONDS:
            return False
        return hmac.compare_digest(mac.encode("utf-8", "replace"),
                                   self._csrf_mac(scope, nonce, issued).encode())

    def _csrf_mac(self, scope: str, nonce: str, issued: str) -> str:
        message = f"{scope}|{nonce}|{issued}".encode()
        return hmac.new(self._csrf_key, message, "sha256").hexdigest()[:32]

    # -- the events ----------------------------------------------------------------------

    def events(self) -> dict[str, EventInfo]:
        """Return every event folder of the watched tree by path."""
        try:
            found = find_events(self.watch.events)
        except InputError:
            return {}
        infos: dict[str, EventInfo] = {}
        for folder, slugs in found.folders:
            problems: list[Problem] = []
            files = event_files(folder, self.watch.events)
            config = (load_event_config(files.config, slugs, problems)
                      if files.config is not None else None)
            rounds = sorted(files.rounds)
            path = "/".join(slugs)
            infos[path] = EventInfo(path, slugs, folder, config.name if config else path,
                                    FORMATS.get(config.format) if config else None,
                                    tuple(rounds), tuple(files.rounds[n] for n in rounds))
        return infos

    def event(self, path: str, number: int) -> EventInfo:
        info = self.events().get(path)
        if info is None or number not in info.rounds:
            raise Refusal(404, "No such event or round; choose one from the desk's list.")
        if not info.two_player:
            raise Refusal(400, f"{info.name}: the desk enters two-player results only; "
                          "enter Diplomacy boards (or fix event.toml) in the files")
        return info

    def names(self, info: EventInfo) -> dict[str, str]:
        """Return player names by id, as far as players.csv can be read."""
        problems: list[Problem] = []
        text = read_text(info.folder / "players.csv", problems) or ""
        try:
            return {row.get("id", ""): row.get("name") or row.get("id", "")
                    for row in csv.DictReader(io.StringIO(text))}
        except csv.Error:
            return {}

    # -- entries -------------------------------------------------------------------------

    def apply(self, event: str, number: int, table: int, values: Mapping[str, str], who: str,
              client: str, expect: str | None = None, dry_run: bool = False) -> Outcome:
        """Enter ``values`` (result and stat columns) for a table: check them with the
        loader, then write the round file atomically while no build runs, log the change
        and have the watcher rebuild. Nothing is written when the outcome is not 200."""
        try:
            info = self.event(event, number)
        except Refusal as exc:
            return Outcome(exc.status, [exc.message])
        allowed = info.columns()
        for column, value in values.items():
            if column not in allowed:
                return Outcome(400, [f"'{column}' cannot be entered at the desk"])
            if CONTROL.search(value) or len(value) > MAX_VALUE:
                return Outcome(400, [f"{column}: enter one short line (at most {MAX_VALUE} "
                                     "characters)"])
        path = info.round_file(number)
        if path.is_symlink():
            return Outcome(400, [f"{display(path)}:1: is a symbolic link; the desk writes "
                                 "plain files only: enter this round in the file"])
        with self.watch.build_lock:  # no build runs while the file is read, checked, written
            try:
                current = read_round(path)
            except Refusal as exc:
                return Outcome(exc.status, [exc.message])
            if table not in current.rows:
                return Outcome(404, [f"{display(path)}: no table {table} in this round"])
            index, old = current.rows[table]
            old_text = current.row_text(table)
            if expect is not None and not hmac.compare_digest(expect, row_tag(old_text)):
                return Outcome(409, [f"{display(path)}:{index + 1}: table {table} changed since "
                                     f"this page was loaded (it now reads '{old_text}'); check "
                                     "it and enter the result again"], old=old)
            new = dict(old)
            for column, value in values.items():
                if column in current.header:
                    new[column] = value.strip()
            new["result"] = "draw" if new.get("result", "").lower() == "draw" else new.get(
                "result", "")
            cells = [new.get(column, "") for column in current.header]
            if new == old:
                return Outcome(200, old=old, new=new)
            lines = list(current.lines)
            lines[index] = csv_line(cells, current.newline)
            text = "".join(lines)
            fresh = self._check(info, path.name, text)
            if fresh:
                return Outcome(400, fresh, old=old, new=new)
            if dry_run:
                return Outcome(200, old=old, new=new)
            try:
                write_atomic(path, text)
            except OSError as exc:
                return Outcome(500, [f"{display(path)}:1: cannot be written ({exc.strerror}); "
                                     "nothing was changed"])
            try:
                self._log({"kind": "change", "event": event, "round": number, "table": table,
                           "old": old, "new": new, "who": who, "client": client})
            except OSError as exc:  # a change not in the log is undone
                try:
                    write_atomic(path, "".join(current.lines))
                except OSError:
                    pass
                return Outcome(500, [f"{display(self.log_path)}:1: cannot be appended to "
                                     f"({exc.strerror}); the entry was undone"])
        self.watch.notice(str(path))
        return Outcome(200, changed=True, old=old, new=new)

    def _check(self, info: EventInfo, name: str, text: str) -> list[str]:
        """Return the loader's errors that the new round file text adds to the event."""
        root = self.watch.events
        before: list[Problem] = []
        load_event(info.folder, info.slugs, before, root)
        known = {str(p) for p in before if not p.warning}
        stage = Path(tempfile.mkdtemp(prefix="standgen-venue-"))
        try:
            copy = stage / info.folder.name
            # links stay links: a link to a large folder is never copied (the loader
            # refuses links leading out of the events folder, before and after alike)
            shutil.copytree(info.folder, copy, symlinks=True,
                            ignore=shutil.ignore_patterns(".*"))
            with open(copy / name, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
            after: list[Problem] = []
            load_event(copy, info.slugs, after, stage)
        finally:
            shutil.rmtree(stage, ignore_errors=True)
        staged, real = display(copy), display(info.folder)
        fresh: list[str] = []
        for problem in after:
            line = str(problem).replace(staged, real)
            if not problem.warning and line not in known and line not in fresh:
                fresh.append(line)
        return fresh

    def _log(self, entry: dict[str, Any]) -> None:
        """Append one JSON line to the log (time first) and flush it to the disk."""
        line = json.dumps({"time": datetime.now(UTC).isoformat(timespec="milliseconds"),
                           **entry}, ensure_ascii=False, sort_keys=False)
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        with open(self.log_path, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def recent(self, count: int = 15) -> list[dict[str, Any]]:
        """Return the last ``count`` log entries, newest first."""
        try:
            lines = self.log_path.read_text(encoding="utf-8").splitlines()[-count:]
        except OSError:
            return []
        found: list[dict[str, Any]] = []
        for line in reversed(lines):
            try:
                found.append(json.loads(line))
            except ValueError:
                continue
        return found

    # -- self-reports --------------------------------------------------------------------

    def find_code(self, typed: str) -> tuple[EventInfo, int, int] | None:
        """Return the (event, round, table) whose code is ``typed``, in the last round file
        of a two-player event, or None."""
        code = normal_code(typed)
        if len(code) != CODE_LENGTH:
            return None
        found = None
        for info in self.events().values():
            if not info.two_player or not info.rounds:
                continue
            number = info.rounds[-1]
            try:
                current = read_round(info.round_file(number))
            except Refusal:
                continue
            for table in current.rows:
                if hmac.compare_digest(code, self.code(info.path, number, table)):
                    found = (info, number, table)
        return found

    def report(self, typed: str, seat: int, values: Mapping[str, str],
               client: str) -> tuple[int, str, list[str]]:
        """Take one player's report; return (status, what happened, problems)."""
        found = self.find_code(typed)
        if found is None:
            return 403, "unknown", ["No table of the current round has this code."]
        info, number, table = found
        key = (info.path, number, table)
        code = normal_code(typed)
        with self.lock:
            current = read_round(info.round_file(number))
            if table not in current.rows:  # the file changed since the code was looked up
                return 409, "bad", ["This table is no longer in the round; see the TO."]
            if current.rows[table][1].get("result", ""):
                return 409, "done", ["This table's result is already entered; if it is "
                                     "wrong, tell the TO."]
            check = self.apply(info.path, number, table, values, "", client, dry_run=True)
            if check.status != 200:
                return check.status, "bad", check.problems
            mine = Report(seat, tuple(sorted((k, v.strip()) for k, v in values.items())), client)
            self._log({"kind": "report", "event": info.path, "round": number, "table": table,
                       "seat": seat, "values": dict(mine.values), "who": f"table {code}",
                       "client": client})
            pending = self.reports.setdefault(key, {})
            pending[seat] = mine
            other = pending.get(3 - seat)
            if other is None:
                return 200, "waiting", []
            if other.values != mine.values:
                first, second = (other, mine) if other.seat == 1 else (mine, other)
                self.disputes[key] = (first, second)
                self._log({"kind": "dispute", "event": info.path, "round": number,
                           "table": table, "reports": [dict(first.values),
                                                       dict(second.values)],
                           "who": f"table {code}", "client": client})
                self.watch.log(f"venue: {info.name}, round {number}, table {table}: the "
                               "players' reports disagree; enter the result at the desk")
                return 200, "dispute", []
            same = " from one address" if other.client == mine.client else ""
            done = self.apply(info.path, number, table, values,
                              f"table {code} (both players{same})", client)
            if done.status != 200:
                return done.status, "bad", done.problems
            self.reports.pop(key, None)
            self.disputes.pop(key, None)
            return 200, "saved", []

    def settled(self, key: TableKey) -> None:
        """Forget the reports and dispute of a table the TO has entered."""
        with self.lock:
            self.reports.pop(key, None)
            self.disputes.pop(key, None)

    # -- HTTP ----------------------------------------------------------------------------

    def handle(self, request: BaseHTTPRequestHandler, method: str) -> bool:
        """Answer ``request`` if its path is the desk's or the reports'; return whether it was."""
        url = urlsplit(request.path)
        if url.path.startswith(DESK_PREFIX):
            area = "desk"
        elif url.path in ("/__report", REPORT_PATH) or url.path.startswith(REPORT_PATH):
            area = "report"
        else:
            return False
        client = request.client_address[0]
        try:
            wait = self.failures.blocked(client)
            if wait:
                raise Refusal(429, "Too many failed attempts from this address; wait a minute "
                              "and try again.", wait)
            host = request.headers.get("Host", "")
            if not host_ok(host):
                raise Refusal(421, "Open the desk at the address standgen printed (an IP "
                              "address), not a host name.")
            if area == "desk":
                self._desk(request, method, url.path[len(DESK_PREFIX):], url.query, client)
            else:
                self._reports(request, method, url.path, client)
        except Refusal as exc:
            self.send(request, exc.status, "message.html", {"title": _TITLES.get(
                exc.status, "Refused"), "messages": [exc.message], "back": ""},
                method == "HEAD", exc.retry_after)
        except Exception as exc:  # a bug or the machine: say so, keep serving
            self.watch.log("standgen: venue desk: internal error:\n" + traceback.format_exc())
            if not isinstance(exc, OSError) or exc.errno not in _GONE:
                self.send(request, 500, "message.html", {
                    "title": "Internal error", "back": "", "messages": [
                        "The desk failed (the terminal has the details); nothing was "
                        "changed unless the log says so. Reload and try again."]},
                    method == "HEAD")
        return True

    def _fail(self, client: str) -> None:
        self.failures.hit(client)

    def _desk(self, request: BaseHTTPRequestHandler, method: str, rest: str, query: str,
              client: str) -> None:
        token, slash, page = rest.partition("/")
        if not hmac.compare_digest(token.encode("utf-8", "replace"), self.token.encode()):
            self._fail(client)
            raise Refusal(404, "No page here.")
        if not slash:
            self.redirect(request, f"{DESK_PREFIX}{self.token}/")
            return
        if method in ("GET", "HEAD"):
            args = {k: v[-1] for k, v in parse_qs(query, max_num_fields=10).items()}
            if page == "":
                self.send(request, 200, "desk.html", self._desk_context(args), method == "HEAD")
            elif page == "slips" and self.self_report:
                host = request.headers.get("Host", "")
                self.send(request, 200, "slips.html", self._slips_context(args, host),
                          method == "HEAD")
            else:
                raise Refusal(404, "No page here.")
            return
        form = self.form(request, client, "desk")
        if page != "enter":
            raise Refusal(404, "No page here.")
        event, number, table = form.get("event", ""), _int(form.get("round")), _int(
            form.get("table"))
        info = self.event(event, number)
        values = {c: form[c] for c in info.columns() if c in form}
        outcome = self.apply(event, number, table, values, "desk", client,
                             expect=form.get("expect") or None)
        if outcome.status == 200:
            self.settled((event, number, table))
            query = urlencode({"event": event, "round": number, "saved": table})
            self.redirect(request, f"{DESK_PREFIX}{self.token}/?{query}#table-{table}")
            return
        context = self._desk_context({"event": event, "round": str(number)})
        context["problems"] = outcome.problems
        context["problem_table"] = table
        self.send(request, outcome.status, "desk.html", context, False)

    def _desk_context(self, args: Mapping[str, str]) -> dict[str, Any]:
        events = self.events()
        choices = [info for info in events.values() if info.two_player and info.rounds]
        chosen = events.get(args.get("event", ""))
        if chosen is None or not chosen.two_player or not chosen.rounds:
            chosen = choices[0] if choices else None
        context: dict[str, Any] = {
            "events": choices, "event": chosen, "round": 0, "tables": [], "columns": [],
            "csrf": self.csrf("desk"), "problems": [], "problem_table": 0,
            "saved": _int(args.get("saved")), "self_report": self.self_report,
            "disputes": [], "recent": self.recent(), "results": DESK_RESULTS,
            "base": f"{DESK_PREFIX}{self.token}/", "others": [],
            "skipped": [info for info in events.values() if not info.two_player],
            "derived": False,
        }
        if chosen is None:
            return context
        number = _int(args.get("round"))
        if number not in chosen.rounds:
            number = chosen.rounds[-1]
        context["round"] = number
        context["derived"] = chosen.fmt is not None and chosen.fmt.outcome_from_stats is not None
        context["tables"], context["columns"] = self._tables(chosen, number)
        context["disputes"] = self._disputes(events)
        return context

    def _tables(self, info: EventInfo, number: int) -> tuple[list[dict[str, Any]],
                                                              list[dict[str, str]]]:
        assert info.fmt is not None
        names = self.names(info)
        try:
            current = read_round(info.round_file(number))
        except Refusal as exc:
            raise Refusal(400, exc.message) from exc
        columns = [{"id": f"{s.id}_{k}", "label": s.label, "seat": str(k)}
                   for s in info.fmt.stats for k in (1, 2) if f"{s.id}_{k}" in current.header]
        tables = []
        for table, (_, row) in sorted(current.rows.items()):
            p1, p2 = row.get("player_1", ""), row.get("player_2", "")
            tables.append({"table": table, "p1": names.get(p1, p1), "p2": names.get(p2, p2),
                           "single": p2 in ("BYE", "ABSENT"), "row": row,
                           "expect": row_tag(current.row_text(table)),
                           "code": shown_code(self.code(info.path, number, table))
                           if self.self_report else ""})
        return tables, columns

    def _disputes(self, events: Mapping[str, EventInfo]) -> list[dict[str, Any]]:
        """Return the disagreements of tables still without a result (one entered in the
        file settles it too)."""
        with self.lock:
            disputes = dict(self.disputes)
        shown = []
        for (event, number, table), (first, second) in sorted(disputes.items()):
            if event in events:
                try:
                    row = read_round(events[event].round_file(number)).rows.get(
                        table)
                except Refusal:
                    row = None
                if row is not None and row[1].get("result", ""):
                    continue
            shown.append({"event": event, "name": events[event].name if event in events
                          else event, "round": number, "table": table,
                          "reports": [dict(first.values), dict(second.values)]})
        return shown

    def _slips_context(self, args: Mapping[str, str], host: str) -> dict[str, Any]:
        """Return the slips page: the report address as this desk is reached (the Host is
        an IP address, checked in :meth:`handle`), with a QR code of it."""
        from standgen.site.qr import qr_svg

        context = self._desk_context(args)
        url = f"http://{host}{REPORT_PATH}"
        context["report_url"] = url
        context["qr"] = qr_svg(url, f"QR code: {url}")
        return context

    def _reports(self, request: BaseHTTPRequestHandler, method: str, path: str,
                 client: str) -> None:
        if not self.self_report:
            raise Refusal(404, "Players do not report results here at this event; hand the "
                          "result slip to the TO.")
        page = path[len(REPORT_PATH):] if path.startswith(REPORT_PATH) else None
        if page is None:
            self.redirect(request, REPORT_PATH)
            return
        if method in ("GET", "HEAD"):
            if page != "":
                raise Refusal(404, "No page here.")
            self.send(request, 200, "report.html", self._report_context(None, ""),
                      method == "HEAD")
            return
        form = self.form(request, client, "report")
        typed = form.get("code", "")
        found = self.find_code(typed)
        if found is None:
            self._fail(client)
            context = self._report_context(None, typed)
            context["problems"] = ["No table of the current round has this code; check the "
                                   "code on your result slip."]
            self.send(request, 403, "report.html", context, False)
            return
        info, number, table = found
        if page == "":
            self.send(request, 200, "report.html", self._report_context(found, typed), False)
            return
        if page != "submit":
            raise Refusal(404, "No page here.")
        seat = _int(form.get("seat"))
        if seat not in (1, 2):
            context = self._report_context(found, typed)
            context["problems"] = ["Choose who you are."]
            self.send(request, 400, "report.html", context, False)
            return
        values = {c: form[c] for c in info.columns() if c in form}
        if values.get("result", "") not in PLAYER_RESULTS:
            context = self._report_context(found, typed)
            context["problems"] = ["Choose the result."]
            self.send(request, 400, "report.html", context, False)
            return
        status, what, problems = self.report(typed, seat, values, client)
        context = self._report_context(found, typed)
        context.update({"problems": problems, "done": what})
        self.send(request, status, "report.html", context, False)

    def _report_context(self, found: tuple[EventInfo, int, int] | None,
                        typed: str) -> dict[str, Any]:
        context: dict[str, Any] = {"csrf": self.csrf("report"), "code": typed, "problems": [],
                                   "done": "", "table": None, "columns": []}
        if found is None:
            return context
        info, number, table = found
        tables, columns = self._tables(info, number)
        context.update({"table": next(t for t in tables if t["table"] == table),
                        "columns": columns, "event": info.name, "round": number,
                        "results": PLAYER_RESULTS})
        return context

    # -- requests and answers --------------------------------------------------------------

    def form(self, request: BaseHTTPRequestHandler, client: str, scope: str) -> dict[str, str]:
        """Return a POSTed form's fields after the rate limit, size, Origin and CSRF checks."""
        if not self.posts.hit(client):
            raise Refusal(429, "Too many entries from this address in a minute; wait a "
                          "moment.", self.posts.window)
        length = request.headers.get("Content-Length", "")
        if not length.isdigit():
            raise Refusal(411, "A form must say its length.")
        if int(length) > MAX_BODY:
            raise Refusal(413, "The form is too large.")
        body = request.rfile.read(int(length))
        if request.headers.get_content_type() != "application/x-www-form-urlencoded":
            raise Refusal(415, "Send the form from the desk's page.")
        host = request.headers.get("Host", "")
        origin = request.headers.get("Origin")
        fetch_site = request.headers.get("Sec-Fetch-Site", "")
        if (origin is not None and origin != f"http://{host}") or fetch_site == "cross-site":
            self._fail(client)
            raise Refusal(403, "This form was sent from another site; nothing was changed.")
        try:
            fields = parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=64,
                              strict_parsing=False)
        except (UnicodeDecodeError, ValueError) as exc:
            raise Refusal(400, "The form could not be read.") from exc
        if any(len(v) != 1 for v in fields.values()):
            raise Refusal(400, "A field of the form was sent twice.")
        form = {k: v[0] for k, v in fields.items()}
        if not self.csrf_ok(form.get("csrf", ""), scope):
            self._fail(client)
            raise Refusal(403, "The form has expired or did not come from this page; reload "
                          "the page and enter it again. Nothing was changed.")
        return form

    def send(self, request: BaseHTTPRequestHandler, status: int, template: str,
             context: Mapping[str, Any], head: bool, retry_after: float = 0.0) -> None:
        body = self.env.get_template(template).render(**context).encode()
        request.send_response(status)
        request.send_header("Content-Type", "text/html; charset=utf-8")
        request.send_header("Content-Length", str(len(body)))
        if retry_after:
            request.send_header("Retry-After", str(max(1, round(retry_after))))
        for name, value in SECURITY_HEADERS.items():
            request.send_header(name, value)
        request.end_headers()
        if not head:
            request.wfile.write(body)

    def redirect(self, request: BaseHTTPRequestHandler, location: str) -> None:
        request.send_response(303)
        request.send_header("Location", quote(location, safe="/?&=#%-_.~"))
        request.send_header("Content-Length", "0")
        for name, value in SECURITY_HEADERS.items():
            request.send_header(name, value)
        request.end_headers()


_GONE = {errno.EPIPE, errno.ECONNRESET}  # the browser went away: nothing to answer
_TITLES = {400: "Not saved", 403: "Refused", 404: "Not found", 409: "Changed meanwhile",
           411: "Refused", 500: "Internal error",
           413: "Too large", 415: "Refused", 421: "Wrong address", 429: "Too many attempts"}


def _int(text: str | None) -> int:
    return int(text) if text and text.isdigit() and len(text) < 7 else 0


def host_ok(host: str) -> bool:
    """Return whether a ``Host`` header names an IP address or localhost (with a port).

    A host name could be an attacker's, pointed at this address (DNS rebinding)."""
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    name = name.strip("[]")
    if name == "localhost":
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def load_secret(folder: Path) -> bytes:
    """Return the venue secret in ``folder``, creating it (32 random bytes, mode 600).

    A new secret is written whole to a temporary file and linked into place, so a second
    desk starting at the same moment reads either no file or the whole one."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / "secret"
    if not path.exists():
        tmp = folder / f".secret.tmp-{os.getpid()}-{secrets.token_hex(4)}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secrets.token_hex(32) + "\n")
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another desk made it first: use theirs
        finally:
            tmp.unlink(missing_ok=True)
    try:
        secret = bytes.fromhex(path.read_text(encoding="ascii").strip())
    except (UnicodeDecodeError, ValueError):
        secret = b""
    if len(secret) != 32:
        raise InputError([Problem(display(path), 1, "the venue secret is damaged; delete the "
                                  "file (the table codes then change) and start again")])
    return secret


def lan_address() -> str:
    """Return this computer's address on its network (for a URL when serving on 0.0.0.0)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET: no packet is sent for UDP connect
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def terminal_qr(url: str) -> str:
    """Return a QR code of ``url`` drawn with block characters for the terminal."""
    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def check_address(address: str) -> str | None:
    """Return why ``--venue ADDRESS`` cannot be served on, or None for an IPv4 address.

    A host name is refused: the desk answers only requests whose ``Host`` is an address.
    """
    try:
        ipaddress.IPv4Address(address)
    except ValueError:
        return (f"--venue '{address}' is not an IPv4 address; give this computer's address "
                "on the venue's network (e.g. 192.168.1.20), 0.0.0.0 for every network, or "
                "127.0.0.1 to try the desk on this computer only")
    return None


def public_base(watch: Watch) -> str:
    """Return the site's address as other devices reach it."""
    host = watch.host
    if host in ("0.0.0.0", ""):
        host = lan_address()
    return f"http://{host}:{watch.port}/"


def announce(desk: Desk) -> str:
    """Return what the terminal shows at start: the site's URL and QR code, the report page,
    and the desk's secret URL (printed here once, and nowhere else)."""
    base = public_base(desk.watch)
    lines = [f"Venue: the site is at {base}", terminal_qr(base).rstrip("\n")]
    if desk.self_report:
        lines.append(f"Players report results at {base}{REPORT_PATH.lstrip('/')} with the code "
                     "on their table's result slip (print the slips from the desk).")
    lines.append(f"Results desk (keep this address private; it is not printed again): "
                 f"{base}{DESK_PREFIX.lstrip('/')}{desk.token}/")
    lines.append(f"Every change is logged in {desk.log_path}.")
    return "\n".join(lines)
