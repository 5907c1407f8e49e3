"""The desk's state and entries: events, table codes, CSRF tokens, entering a result,
the log and the players' self-reports (the HTTP pages are :mod:`standgen.venue.pages`)."""

from __future__ import annotations

import base64
import csv
import hmac
import io
import json
import os
import secrets
import shutil
import tempfile
import threading
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2

from standgen.build import TEMPLATES
from standgen.errors import InputError, Problem
from standgen.formats import FORMATS
from standgen.load import find_events, load_event
from standgen.load.config import load_event_config
from standgen.load.files import CONTROL, display, read_text
from standgen.load.inputs import event_files
from standgen.output import write_atomic
from standgen.venue.guard import (
    CODE_LENGTH,
    CSRF_SECONDS,
    FAIL_LIMIT,
    MAX_VALUE,
    POST_LIMIT,
    WINDOW,
    RateLimiter,
    Refusal,
    TableKey,
    load_secret,
    normal_code,
    venue_folder,
)
from standgen.venue.rounds import (
    EventInfo,
    Outcome,
    Report,
    RoundFile,
    csv_line,
    read_round,
    row_tag,
)

if TYPE_CHECKING:
    from standgen.watch import Watch


class DeskCore:
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
        refused = _refused(info, values)
        if refused is not None:
            return refused
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
            failed = self._write(current, text, {
                "kind": "change", "event": event, "round": number, "table": table,
                "old": old, "new": new, "who": who, "client": client})
            if failed is not None:
                return failed
        self.watch.notice(str(path))
        return Outcome(200, changed=True, old=old, new=new)

    def _write(self, current: RoundFile, text: str, entry: dict[str, Any]) -> Outcome | None:
        """Write a round file's new ``text`` and log ``entry``; return the failure, if any
        (a change that cannot be logged is undone)."""
        path = current.path
        try:
            write_atomic(path, text)
        except OSError as exc:
            return Outcome(500, [f"{display(path)}:1: cannot be written ({exc.strerror}); "
                                 "nothing was changed"])
        try:
            self._log(entry)
        except OSError as exc:  # a change not in the log is undone
            try:
                write_atomic(path, "".join(current.lines))
            except OSError:
                pass
            return Outcome(500, [f"{display(self.log_path)}:1: cannot be appended to "
                                 f"({exc.strerror}); the entry was undone"])
        return None

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


def _refused(info: EventInfo, values: Mapping[str, str]) -> Outcome | None:
    """Return the refusal of values the desk may not enter for ``info``'s tables, or None."""
    allowed = info.columns()
    for column, value in values.items():
        if column not in allowed:
            return Outcome(400, [f"'{column}' cannot be entered at the desk"])
        if CONTROL.search(value) or len(value) > MAX_VALUE:
            return Outcome(400, [f"{column}: enter one short line (at most {MAX_VALUE} "
                                 "characters)"])
    return None
