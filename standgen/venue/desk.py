"""The desk's state and entries: events, table codes, CSRF tokens, entering a result,
the log and the players' self-reports (the HTTP pages are :mod:`standgen.venue.pages`).

Every change goes through :mod:`standgen.roundfile` (the loader's one reader and writer
of round files): read under the file's lock, compared with what the request was based on
(the row, and for desk forms who plays where), checked with the loader, written back in
the file's own form, or refused with the reason. Issue #28.
"""

from __future__ import annotations

import base64
import csv
import hmac
import io
import json
import os
import secrets
import shutil
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
from standgen.load.files import display, empty_file, read_text
from standgen.load.inputs import event_files
from standgen.load.rounds import ABSENT, BYE, has_result
from standgen.roundfile import RoundFile, RoundFileRefused, RoundRow, editing, read_round_file
from standgen.venue.entry import (
    as_typed,
    ascii_digits,
    changed_since,
    no_result,
    no_such_table,
    player_names,
    refused_values,
    stat_problems,
    suspicious,
)
from standgen.venue.guard import (
    CODE_LENGTH,
    CSRF_SECONDS,
    FAIL_LIMIT,
    POST_LIMIT,
    WINDOW,
    EventsClaim,
    RateLimiter,
    Refusal,
    TableKey,
    code_shape_ok,
    load_secret,
    normal_code,
    public_base,
    venue_folder,
)
from standgen.venue.pending import Pending
from standgen.venue.rounds import EventInfo, Outcome, Report
from standgen.watch import ServeError

if TYPE_CHECKING:
    from standgen.watch import Watch

SETTLE = 0.5  # seconds a round file written by someone else is left to settle
EMPTY_WAIT = 0.5  # seconds an empty round file is read again for (an editor saving it)
_STATUS = {"changed": 409, "locked": 409, "missing": 404, "unreadable": 400, "form": 400}


class DeskCore:
    """The results desk and the self-report pages of one ``standgen watch --venue``."""

    def __init__(self, watch: Watch, self_report: bool = False, *,
                 fail_limit: int = FAIL_LIMIT, post_limit: int = POST_LIMIT,
                 window: float = WINDOW, folder: Path | None = None) -> None:
        self.watch = watch
        self.self_report = self_report
        self.token = secrets.token_urlsafe(24)  # printed once; never stored
        self.slips_token = secrets.token_urlsafe(24)  # the slips' own address
        self.folder = folder or venue_folder(watch.events)
        self.log_path = self.folder / "log.jsonl"
        self.claim = EventsClaim(self.folder)
        holder = self.claim.take(public_base(watch))
        if holder is not None:
            raise ServeError(f"another 'standgen watch --venue' serves {display(watch.events)} "
                             f"already ({holder}); two desks on one events folder would lose "
                             "each other's entries: use that one, or stop it first (Ctrl+C "
                             "in its terminal)")
        _clear_staging(self.folder / "staging")  # the copies a killed desk left
        self._csrf_key = secrets.token_bytes(32)  # per run: a restart expires old forms
        self._key: bytes | None = None
        self.failures = RateLimiter(fail_limit, window)
        self.posts = RateLimiter(post_limit, window)
        self.lock = threading.Lock()  # self-reports and disputes; taken before build_lock
        self.pending = Pending(self.folder)
        self.desk_clients: dict[str, float] = {}  # addresses that opened the desk, and when
        self._written: dict[str, tuple[int, int, int]] = {}  # our last write of each file
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(TEMPLATES / "desk")), autoescape=True,
            undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)

    def close(self) -> None:
        """Release the events folder (``watch`` calls this when it stops)."""
        self.claim.release()

    def trusted(self, address: str) -> bool:
        """Return whether ``address`` opened the desk with its token in the last 12 hours
        (the server keeps room for it when the venue's network floods it)."""
        seen = self.desk_clients.get(address)
        return seen is not None and time.monotonic() - seen < CSRF_SECONDS

    # -- secrets -------------------------------------------------------------------------

    @property
    def key(self) -> bytes:
        """Return the table-code secret, created (mode 600) on first use."""
        if self._key is None:
            self._key = load_secret(self.folder)
        return self._key

    def code(self, event: str, number: int, table: int, player_1: str | None = None,
             player_2: str | None = None) -> str:
        """Return the table code of a table and the players sitting there: 40 bits of an
        HMAC of the secret, so a re-paired table gets a new code (old slips stop working).
        Without the players, they are read from the round file as it is now."""
        if player_1 is None or player_2 is None:
            info = self.events(event).get(event)
            row = self.read(info, number).row(table) if info is not None and info.fmt \
                else None
            player_1 = row.cells.get("player_1", "") if row is not None else ""
            player_2 = row.cells.get("player_2", "") if row is not None else ""
        message = f"table|{event}|{number}|{table}|{player_1}|{player_2}".encode()
        mac = hmac.new(self.key, message, "sha256").digest()
        return base64.b32encode(mac).decode()[:CODE_LENGTH]

    def row_code(self, event: str, number: int, row: RoundRow) -> str:
        assert row.table is not None
        return self.code(event, number, row.table, row.cells.get("player_1", ""),
                         row.cells.get("player_2", ""))

    def current_code(self, event: str, number: int, table: int) -> str | None:
        """Return the code of ``table`` as the round file pairs it now, or None."""
        info = self.events(event).get(event)
        if info is None or info.fmt is None:
            return None
        row = self.read(info, number).row(table)
        return None if row is None else self.row_code(event, number, row)

    def csrf(self, scope: str) -> str:
        """Return a fresh CSRF token for a form of ``scope`` ("desk" or "report")."""
        nonce = secrets.token_urlsafe(12)
        issued = str(int(time.time()))
        return f"{nonce}.{issued}.{self._csrf_mac(scope, nonce, issued)}"

    def csrf_ok(self, token: str, scope: str) -> bool:
        parts = token.split(".")
        if len(parts) != 3 or not parts[1].isascii() or not parts[1].isdigit():
            return False
        nonce, issued, mac = parts
        if len(issued) > 12 or not 0 <= time.time() - int(issued) <= CSRF_SECONDS:
            return False
        return hmac.compare_digest(mac.encode("utf-8", "replace"),
                                   self._csrf_mac(scope, nonce, issued).encode())

    def _csrf_mac(self, scope: str, nonce: str, issued: str) -> str:
        message = f"{scope}|{nonce}|{issued}".encode("utf-8", "replace")
        return hmac.new(self._csrf_key, message, "sha256").hexdigest()[:32]

    # -- the events ----------------------------------------------------------------------

    def events(self, only: str | None = None) -> dict[str, EventInfo]:
        """Return every event folder of the watched tree by path (only the one at
        ``only``, when given: an entry reads one event's files, not every event.toml)."""
        try:
            found = find_events(self.watch.events)
        except InputError:
            return {}
        infos: dict[str, EventInfo] = {}
        for folder, slugs in found.folders:
            path = "/".join(slugs)
            if only is not None and path != only:
                continue
            problems: list[Problem] = []
            files = event_files(folder, self.watch.events)
            config = (load_event_config(files.config, slugs, problems)
                      if files.config is not None else None)
            rounds = sorted(files.rounds)
            infos[path] = EventInfo(path, slugs, folder, config.name if config else path,
                                    FORMATS.get(config.format) if config else None,
                                    tuple(rounds), tuple(files.rounds[n] for n in rounds),
                                    config, tuple(sorted(files.team_rounds)))
        return infos

    def event(self, path: str, number: int) -> EventInfo:
        info = self.events(path).get(path)
        if info is None or number not in info.rounds:
            raise Refusal(404, "No such event or round; choose one from the desk's list.")
        if not info.two_player:
            raise Refusal(400, f"{info.name}: the desk enters two-player results only; "
                          "enter Diplomacy boards (or fix event.toml) in the files")
        return info

    def read(self, info: EventInfo, number: int) -> RoundFile:
        """Return a round file as the loader reads it; raise Refusal with its messages (an
        empty file read again for up to EMPTY_WAIT s: an editor saving in place empties it)."""
        assert info.fmt is not None
        path, waited = info.round_file(number), time.monotonic() + EMPTY_WAIT
        while True:
            problems: list[Problem] = []
            current = read_round_file(path, info.fmt, problems)
            if current is not None or not empty_file(path) or time.monotonic() > waited:
                break
            time.sleep(0.05)
        errors = [str(p) for p in problems if not p.warning]
        if current is None or (errors and not current.rows):
            raise Refusal(400, "; ".join(errors)
                          or f"{display(info.round_file(number))}:1: cannot be read")
        return current

    def started(self) -> None:
        """Record the address served at in the events folder's lock (``watch`` calls this
        once it serves: with ``--port 0`` the port is known only then)."""
        self.claim.record(public_base(self.watch))

    def names(self, info: EventInfo) -> dict[str, str]:
        """Return player names by id, as far as players.csv can be read."""
        problems: list[Problem] = []
        text = read_text(info.folder / "players.csv", problems, spreadsheet=True) or ""
        delimiter = "," if "," in text.split("\n", 1)[0] else ";"
        try:
            rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
        except csv.Error:
            return {}
        if not rows:
            return {}
        return player_names(rows)

    def finished(self, info: EventInfo, row: RoundRow) -> bool:
        """Return whether a row holds a result, as the loader reads it."""
        assert info.fmt is not None and info.config is not None
        return has_result(row.cells, info.fmt, info.config)

    # -- entries -------------------------------------------------------------------------

    def apply(self, event: str, number: int, table: int, values: Mapping[str, str], who: str,
              client: str, expect: str | None = None, dry_run: bool = False,
              pairing: str | None = None, extra: Mapping[str, Any] | None = None) -> Outcome:
        """Enter ``values`` (result and stat columns) for a table: under the round file's
        lock (no build runs meanwhile), compare the row (``expect``) and who plays where
        (``pairing``) with what the request was based on, check the values with the
        loader, write the file back in its own form, log the change and have the watcher
        rebuild. Nothing is written when the outcome is not 200 or ``changed`` is False."""
        try:
            info = self.event(event, number)
        except Refusal as exc:
            return Outcome(exc.status, [exc.message])
        refused = refused_values(info, values)
        if refused is not None:
            return refused
        values = as_typed(values)
        path = info.round_file(number)
        assert info.fmt is not None
        self._settle(path)
        with self.watch.build_lock:  # no build runs while the file is read, checked, written
            try:
                with editing(path, info.fmt) as edit:
                    assert edit.current is not None
                    outcome = self._apply_held(info, number, table, values, who, client,
                                               expect, pairing, dry_run, extra, edit)
            except RoundFileRefused as exc:
                return Outcome(_STATUS.get(exc.reason, 400), [str(p) for p in exc.problems])
            except OSError as exc:
                return Outcome(500, [f"{display(path)}:1: cannot be written ({exc.strerror}); "
                                     "nothing was changed"])
        if outcome.changed:
            self.watch.notice(str(path), urgent=True)
        return outcome

    def _apply_held(self, info: EventInfo, number: int, table: int, values: dict[str, str],
                    who: str, client: str, expect: str | None, pairing: str | None,
                    dry_run: bool, extra: Mapping[str, Any] | None, edit: Any) -> Outcome:
        current: RoundFile = edit.current
        path = current.path
        row = current.row(table)
        if row is None:
            return no_such_table(current, table)
        old = dict(row.cells)
        changed = changed_since(current, row, table, pairing, expect)
        if changed:
            return Outcome(409, [changed], old=old)
        new = {**old, **{k: v for k, v in values.items() if k in current.header}}
        unwritten = self._nothing_to_write(info, table, row, old, new)
        if unwritten is not None:
            return unwritten
        text = current.with_row(table, new)
        fresh = self._check(info, path.name, text)
        if fresh:
            return Outcome(400, fresh, old=old, new=new)
        if dry_run or not edit.write(text):
            return Outcome(200, old=old, new=new)
        self._remember(path)
        entry = {"kind": "change", "event": info.path, "round": number, "table": table,
                 "old": old, "new": new, "who": who, "client": client, **(extra or {})}
        return self._logged_or_undone(info, edit, current, entry)

    def _logged_or_undone(self, info: EventInfo, edit: Any, current: RoundFile,
                          entry: dict[str, Any]) -> Outcome:
        """Log a change written to its round file; a change the log cannot take is undone
        (the desk's rule: every change is in the log)."""
        try:
            self._log(entry)
        except OSError as exc:
            self._undo(info, edit, current)
            return Outcome(500, [f"{display(self.log_path)}:1: cannot be appended to "
                                 f"({exc.strerror}); the entry was undone"])
        return Outcome(200, changed=True, old=entry["old"], new=entry["new"])

    def _nothing_to_write(self, info: EventInfo, table: int, row: RoundRow,
                          old: dict[str, str], new: dict[str, str]) -> Outcome | None:
        """Return the outcome of an entry with nothing to write: a field's problem (400,
        beside its field), or the row as it was (200); None when there is a change."""
        fields = self._field_problems(info, table, row, new)
        if fields:
            return Outcome(400, list(fields.values()), old=old, new=new, fields=fields)
        if new == old:
            return Outcome(200, old=old, new=new)
        return None

    def _undo(self, info: EventInfo, edit: Any, current: RoundFile) -> None:
        """Write the round file back as it was before a change the log could not take."""
        path = current.path
        try:
            assert info.fmt is not None
            edit.current = read_round_file(path, info.fmt, [])
            if edit.current is not None:
                edit.write(current.text)
                self._remember(path)
        except (OSError, RoundFileRefused):
            pass

    def _field_problems(self, info: EventInfo, table: int, row: RoundRow,
                        new: Mapping[str, str]) -> dict[str, str]:
        """Return the problem of each entered field, in the TO's words ("Table 2: control
        points of Dan O'Neill must be a whole number"), and a save that gives stats but
        no result the format can read."""
        assert info.fmt is not None and info.config is not None
        names = self.names(info)
        who = {k: names.get(row.cells.get(f"player_{k}", ""), row.cells.get(f"player_{k}", ""))
               for k in (1, 2)}
        found = stat_problems(info.fmt.stats, table, who, new)
        if found or new.get("player_2") in (BYE, ABSENT):
            return found
        stats = [s for s in info.fmt.stats if new.get(f"{s.id}_1") or new.get(f"{s.id}_2")]
        if stats and not has_result(new, info.fmt, info.config):
            found["result"] = no_result(table, stats, info.fmt.outcome_from_stats is not None)
        return found

    def _settle(self, path: Path) -> None:
        """Wait (at most :data:`SETTLE` seconds) while a round file someone else wrote a
        moment ago may still be being written (an editor that writes in parts)."""
        try:
            st = os.stat(path)
        except OSError:
            return
        if (st.st_ino, st.st_size, st.st_mtime_ns) == self._written.get(str(path)):
            return
        age = time.time() - st.st_mtime_ns / 1e9
        if 0 <= age < SETTLE:
            time.sleep(SETTLE - age)

    def _remember(self, path: Path) -> None:
        try:
            st = os.stat(path)
        except OSError:
            return
        self._written[str(path)] = (st.st_ino, st.st_size, st.st_mtime_ns)

    def _check(self, info: EventInfo, name: str, text: str) -> list[str]:
        """Return the loader's errors that the new round file text adds to the event."""
        root = self.watch.events
        before: list[Problem] = []
        load_event(info.folder, info.slugs, before, root)
        known = {str(p) for p in before if not p.warning}
        staging = self.folder / "staging"
        staging.mkdir(mode=0o700, parents=True, exist_ok=True)
        stage = staging / f"{os.getpid()}-{secrets.token_hex(8)}"
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
            with open(self.log_path, "rb") as handle:
                handle.seek(max(0, os.fstat(handle.fileno()).st_size - 64 * 1024))
                lines = handle.read().decode("utf-8", "replace").splitlines()[-count:]
        except OSError:
            return []
        found: list[dict[str, Any]] = []
        for line in reversed(lines):
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict):
                found.append(entry)
        return found

    # -- self-reports --------------------------------------------------------------------

    def find_code(self, typed: str) -> tuple[EventInfo, int, int] | None:
        """Return the (event, round, table) whose code is ``typed``, in the last round file
        of a two-player event, or None (a code outside the code alphabet is never
        compared: it is a wrong guess)."""
        code = normal_code(typed)
        if not code_shape_ok(code):
            return None
        found = None
        for info in self.events().values():
            if not info.two_player or not info.rounds:
                continue
            number = info.rounds[-1]
            try:
                current = self.read(info, number)
            except Refusal:
                continue
            for table, row in current.tables.items():
                if row.cells.get("player_2") in (BYE, ABSENT):
                    continue
                mine = self.row_code(info.path, number, row).encode()
                if hmac.compare_digest(code.encode(), mine):
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
            try:
                current = self.read(info, number)
            except Refusal as exc:
                return exc.status, "bad", [exc.message]
            row = current.row(table)
            if row is None or self.row_code(info.path, number, row) != code:
                return 409, "bad", ["This table is no longer in the round as it was paired; "
                                    "see the TO."]
            self._drop_stale(key, row)
            closed = self._closed_to_reports(info, key, row)
            if closed is not None:
                return closed
            check = self.apply(info.path, number, table, values, "", client, expect=row.tag,
                               dry_run=True)
            if check.status != 200:
                return check.status, "bad", check.problems
            mine = Report(seat, tuple(sorted((k, ascii_digits(v.strip()))
                                             for k, v in values.items())),
                          client, time.time(), row.tag)
            self._log({"kind": "report", "event": info.path, "round": number, "table": table,
                       "seat": seat, "values": dict(mine.values), "who": f"table {code}",
                       "client": client})
            seats = self.pending.reports.setdefault(key, {})
            seats[seat] = mine
            other = seats.get(3 - seat)
            if other is None:
                self.pending.save()
                return 200, "waiting", []
            if other.values != mine.values:
                return self._dispute(info, number, table, code, client, other, mine)
            return self._both_reported(info, number, table, code, client, row, other, mine,
                                       values)

    def _closed_to_reports(self, info: EventInfo, key: tuple[str, int, int],
                           row: RoundRow) -> tuple[int, str, list[str]] | None:
        """Return why a table takes no more reports (409): its result is entered (a wrong
        one is the TO's to correct), or its reports disagreed, so the TO decides it; None
        while it takes them."""
        if self.finished(info, row):
            return 409, "done", ["This table's result is already entered; if it is "
                                 "wrong, tell the TO."]
        if key in self.pending.disputes:
            return 409, "frozen", ["Your table's reports disagree, so the TO decides its "
                                   "result: please see the desk."]
        return None

    def _dispute(self, info: EventInfo, number: int, table: int, code: str, client: str,
                 other: Report, mine: Report) -> tuple[int, str, list[str]]:
        """Freeze a table whose two reports disagree: the TO decides its result."""
        key = (info.path, number, table)
        first, second = (other, mine) if other.seat == 1 else (mine, other)
        self.pending.disputes[key] = (first, second)
        self.pending.reports.pop(key, None)
        self.pending.save()
        self._log({"kind": "dispute", "event": info.path, "round": number,
                   "table": table, "reports": [dict(first.values), dict(second.values)],
                   "who": f"table {code}", "client": client})
        self.watch.log(f"venue: {info.name}, round {number}, table {table}: the "
                       "players' reports disagree; enter the result at the desk")
        return 200, "dispute", []

    def _both_reported(self, info: EventInfo, number: int, table: int, code: str,
                       client: str, row: RoundRow, other: Report, mine: Report,
                       values: Mapping[str, str]) -> tuple[int, str, list[str]]:
        """Save a table's result the two players' reports agree on, marked when they came
        from one address or within :data:`QUICK` seconds of each other."""
        key = (info.path, number, table)
        why = suspicious(other, mine)
        who = f"table {code} (both players{' ' if why else ''}{' and '.join(why)})"
        done = self.apply(info.path, number, table, values, who, client, expect=row.tag,
                          extra={"check": why} if why else None)
        self.pending.reports.pop(key, None)
        if done.status == 409:
            self.pending.save()
            return 409, "done", ["The TO entered this table's result meanwhile; if it is "
                                 "wrong, tell the TO."]
        if done.status != 200:
            self.pending.save()
            return done.status, "bad", done.problems
        if why:
            self.pending.marks[key] = "confirmed by both players " + " and ".join(why)
        self.pending.save()
        return 200, "saved", []

    def _drop_stale(self, key: TableKey, row: RoundRow) -> None:
        """Forget reports made when the table's row read otherwise (a re-pair, an entry in
        the file or at the desk), and a dispute once the players at the table changed."""
        seats = self.pending.reports.get(key, {})
        stale = [s for s, r in seats.items() if r.row != row.tag]
        for seat in stale:
            del seats[seat]
        if not seats:
            self.pending.reports.pop(key, None)
        dispute = self.pending.disputes.get(key)
        if dispute is not None and dispute[0].row != row.tag:
            self.pending.disputes.pop(key, None)
            stale.append(0)
        if stale:
            self.pending.save()

    def settled(self, key: TableKey) -> None:
        """Forget the reports, dispute and mark of a table the TO has entered."""
        with self.lock:
            found = self.pending.forget(key)
            if self.pending.marks.pop(key, None) is not None or found:
                self.pending.save()


def _clear_staging(staging: Path) -> None:
    """Remove the copies of event folders that desks no longer running left in
    ``staging`` (each is named ``<pid>-<random>``; this process's own stay)."""
    try:
        entries = list(staging.iterdir())
    except OSError:
        return
    for entry in entries:
        pid = entry.name.split("-", 1)[0]
        if pid.isdigit() and int(pid) == os.getpid():
            continue
        shutil.rmtree(entry, ignore_errors=True)
