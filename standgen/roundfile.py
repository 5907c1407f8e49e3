"""Round files: the one reader and the one writer of ``round-N.csv`` (issue #28).

Everything that reads a round file to change it (the venue desk, the players'
self-reports, ``pair``, ``bye``, ``drop``, the importers) reads it here, with the
loader's own tolerant reading (:func:`standgen.load.files.parse_csv`: a UTF-8 BOM,
Windows-1252, ``;`` or tab separators, spaces around cells and header names), and writes
it here, back in its own form: the same separator, line ends, BOM and encoding, one row
replaced and every other line byte for byte as it was (or refused, with a message saying
how to save the file so it can be written). Each write is atomic (written aside, then
renamed over the old file) and compare-and-swap: it happens only if the row (and, when
the caller asks, the whole file) still reads as the caller read it.

The API::

    current = read_round_file(path, fmt, problems)       # RoundFile | None
    row = current.row(3)                                  # RoundRow: cells, line, tag
    change = replace_row(path, fmt, 3, {"result": "1-0"}, expect=row.tag)
    change = remove_row(path, fmt, 3, expect=row.tag)     # e.g. a dropped player's row
    write_round(path, fmt, rnd)                           # a whole round (pair)
    with editing(path, fmt) as edit:                      # read, decide, write, one lock
        edit.current ... edit.write(text)

A refusal is a :class:`RoundFileRefused` holding ``path:line: message`` problems and a
``reason`` (``unreadable``, ``changed``, ``locked``, ``form``, ``missing``). The lock is a
thread lock per file plus, across processes, ``flock`` on the round file itself (checked
to still be the file at the path once held). Editors' lock and swap files (LibreOffice's
``.~lock.X#``, Vim's ``.X.swp``, Emacs's ``.#X``, Office's ``~$X``) refuse every write.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import re
import sys
import threading
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from standgen.errors import Problem
from standgen.formats.base import Format
from standgen.load.boards import ABSENT as SITTING_ABSENT
from standgen.load.boards import OPTIONAL as BOARD_OPTIONAL
from standgen.load.boards import REQUIRED as BOARD_REQUIRED
from standgen.load.boards import SITOUT
from standgen.load.files import (
    CONTROL,
    delimiter_of,
    display,
    parse_csv,
    parse_int,
    read_spreadsheet,
)
from standgen.load.rounds import ABSENT, BYE, columns
from standgen.model import GameKind, Round, TeamRound
from standgen.results import result_code

BOM = b"\xef\xbb\xbf"
_LINES = re.compile(r"[^\n]*\n|[^\n]+\Z")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(value)


def round_rows(fmt: Format, rnd: Round) -> tuple[list[str], list[list[str]]]:
    """Return the header and rows of a two-player round: pairings, results, stats."""
    required, optional = columns(fmt)
    header = list(required) + list(optional)
    rows = []
    for game in rnd.games:
        cells = {c: "" for c in header}
        cells["table"] = str(game.table)
        cells["player_1"] = game.seats[0].player
        if game.kind in (GameKind.BYE, GameKind.ABSENT):
            cells["player_2"] = BYE if game.kind is GameKind.BYE else ABSENT
        else:
            cells["player_2"] = game.seats[1].player
        cells["result"] = result_code(tuple(s.outcome for s in game.seats), game.kind)
        for k, seat in enumerate(game.seats, start=1):
            for stat, value in seat.stats.items():
                if f"{stat}_{k}" in cells:
                    cells[f"{stat}_{k}"] = _number(value)
        for column, value in game.extra.items():
            if column in cells:
                cells[column] = _number(value)
        rows.append([cells[c] for c in header])
    return header, rows


def board_rows(rnd: Round) -> tuple[list[str], list[list[str]]]:
    """Return the header and rows of a Diplomacy round: one row per seat, sit-outs last
    (``end_year`` only when a board of the round has one: pairing leaves it out)."""
    ends = any("end_year" in seat.stats for game in rnd.games for seat in game.seats)
    header = [*BOARD_REQUIRED, *(BOARD_OPTIONAL if ends else BOARD_OPTIONAL[:1])]
    rows = []
    for game in sorted(rnd.games, key=lambda g: g.table):
        for seat in game.seats:
            if game.kind is not GameKind.PLAYED:
                power = SITOUT if game.kind is GameKind.BYE else SITTING_ABSENT
                rows.append(["", seat.player, power] + [""] * (len(header) - 3))
                continue
            centres = seat.stats.get("centres")
            rows.append([str(game.table), seat.player, seat.power,
                         "" if centres is None else str(int(centres)), seat.result]
                        + [_year(seat.stats.get(column))
                           for column in header[len(BOARD_REQUIRED):]])
    return header, rows


def _year(value: float | None) -> str:
    return "" if value is None else str(int(value))


def boards_csv(rnd: Round) -> str:
    """Return the CSV text of a Diplomacy round as ``pair`` writes a new file."""
    return render(*board_rows(rnd), Form())


def new_round_text(fmt: Format, rows: Sequence[Mapping[str, str]]) -> str:
    """Return a new two-player round file holding ``rows`` (column -> value), with the
    format's columns as ``pair`` writes them (comma, LF, UTF-8): the desk's first team
    match of a round without a file yet."""
    required, optional = columns(fmt)
    header = [*required, *optional]
    return render(header, [[cells.get(c, "") for c in header]
                           for cells in sorted(rows, key=lambda c: parse_int(c.get("table", ""))
                                               or 0)], Form())


def round_csv(fmt: Format, rnd: Round) -> str:
    """Return the CSV text of a round as ``pair`` writes a new file (comma, LF, UTF-8)."""
    if fmt.seats > 2:
        return boards_csv(rnd)
    return render(*round_rows(fmt, rnd), Form())


# ----- the form of a file -------------------------------------------------------------

@dataclass(frozen=True)
class Form:
    """How a round file is saved: separator, line end, byte-order mark, encoding."""

    delimiter: str = ","
    newline: str = "\n"
    bom: bool = False
    encoding: str = "utf-8"  # or "cp1252" (Excel's plain "CSV" on Windows)


def form_of(data: bytes, text: str) -> Form:
    """Return the form of a file read as ``data`` (its bytes) and ``text`` (as decoded)."""
    body = data[len(BOM):] if data.startswith(BOM) else data
    try:
        body.decode("utf-8")
        encoding = "utf-8"
    except UnicodeDecodeError:
        encoding = "cp1252"
    first = _LINES.match(text)
    newline = "\r\n" if first is not None and first.group().endswith("\r\n") else "\n"
    return Form(delimiter_of(text), newline, data.startswith(BOM), encoding)


def line_text(cells: Sequence[str], form: Form) -> str:
    """Return one CSV record in ``form`` without its line end."""
    out = io.StringIO()
    csv.writer(out, delimiter=form.delimiter, lineterminator="").writerow(cells)
    return out.getvalue()


def render(header: Sequence[str], rows: Sequence[Sequence[str]], form: Form) -> str:
    """Return a whole round file's text in ``form`` (every line ended)."""
    return "".join(line_text(cells, form) + form.newline for cells in [header, *rows])


def encode(text: str, form: Form, where: str) -> bytes:
    """Return ``text`` as the bytes of a file in ``form``; raise :class:`RoundFileRefused`
    when the file's encoding cannot hold a character of it."""
    try:
        data = text.encode(form.encoding)
    except UnicodeEncodeError as exc:
        char = exc.object[exc.start]
        raise RoundFileRefused("form", [Problem(where, 1, f"is saved as Windows-1252, which "
                               f"cannot hold '{char}'; save it as CSV UTF-8 in the spreadsheet "
                               "program and enter it again (nothing was changed)")]) from exc
    return (BOM if form.bom else b"") + data


# ----- reading ------------------------------------------------------------------------

def tag_of(text: str) -> str:
    """Return the short digest of a text (a row as the file has it, or a whole file) that
    a caller keeps to say what its change was based on."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


@dataclass(frozen=True)
class RoundRow:
    """One row of a round file: its line number, its cells (stripped, by stripped column
    name) and the line as the file has it (``text``, without its end)."""

    line: int
    table: int | None
    cells: Mapping[str, str]
    text: str

    @property
    def tag(self) -> str:
        """Return the digest a compare-and-swap on this row expects (:func:`replace_row`)."""
        return tag_of(self.text)


@dataclass(frozen=True)
class RoundFile:
    """A round file as the loader reads it, with what writing it back needs."""

    path: Path
    form: Form
    header: tuple[str, ...]  # column names, stripped
    rows: tuple[RoundRow, ...]  # the rows the loader could read, in file order
    lines: tuple[str, ...]  # every line of the text, with its end
    tag: str  # digest of the whole file's bytes
    identity: tuple[int, int, int] = (0, 0, 0)  # (inode, size, mtime_ns) as read

    @property
    def text(self) -> str:
        return "".join(self.lines)

    def row(self, table: int) -> RoundRow | None:
        """Return the row of ``table`` (None when it has no row, or more than one)."""
        found = [row for row in self.rows if row.table == table]
        return found[0] if len(found) == 1 else None

    @property
    def tables(self) -> dict[int, RoundRow]:
        """Return every table's row by number (tables on two rows are left out)."""
        counts: dict[int | None, int] = {}
        for row in self.rows:
            counts[row.table] = counts.get(row.table, 0) + 1
        return {row.table: row for row in self.rows
                if row.table is not None and counts[row.table] == 1}

    @property
    def pairing_tag(self) -> str:
        """Return the digest of who plays at which table (changes with a re-pair, a row
        removed or a file cut short, not with a result)."""
        seats = [f"{r.table}|{r.cells.get('player_1', '')}|{r.cells.get('player_2', '')}"
                 for r in self.rows]
        return tag_of("\n".join(seats))

    def with_row(self, table: int, cells: Mapping[str, str]) -> str:
        """Return the file's text with ``table``'s row holding ``cells`` (a missing column
        is left as it was), every other line as it is."""
        row = self._only(table)
        new = {**row.cells, **cells}
        values = [new.get(name, "") for name in self.header]
        for value in values:
            if CONTROL.search(value):
                raise RoundFileRefused("form", [Problem(display(self.path), row.line,
                                       "a value holds a line break or control character; "
                                       "enter one line")])
        lines = list(self.lines)
        old = lines[row.line - 1]
        end = old[len(old.rstrip("\r\n")):]
        lines[row.line - 1] = line_text(values, self.form) + end
        return "".join(lines)

    def with_rows(self, drop: Collection[int], add: Sequence[Mapping[str, str]]) -> str:
        """Return the file's text without the rows on the lines ``drop`` (line numbers)
        and with a row for each of ``add`` (column -> value), each before the first row
        of a higher table (after the last row when none is higher), every other line as
        it is: a team match's games written together (the desk's match form)."""
        kept = [(line, self._table_at(number)) for number, line in
                enumerate(self.lines, start=1) if number not in drop]
        for cells in sorted(add, key=lambda c: parse_int(c.get("table", "")) or 0):
            table = parse_int(cells.get("table", "")) or 0
            kept.insert(_place(kept, table), (self._new_line(cells), table))
        lines = [line for line, _ in kept]
        for k, line in enumerate(lines[:-1]):  # a last line without its end, now inside
            if not line.endswith("\n"):
                lines[k] = line + self.form.newline
        return "".join(lines)

    def _new_line(self, cells: Mapping[str, str]) -> str:
        """Return a new row of ``cells`` (column -> value) as a line of this file."""
        values = [cells.get(name, "") for name in self.header]
        if any(CONTROL.search(value) for value in values):
            raise RoundFileRefused("form", [Problem(display(self.path), 1, "a value holds "
                                   "a line break or control character; enter one line")])
        return line_text(values, self.form) + self.form.newline

    def _table_at(self, line: int) -> int | None:
        """Return the table of the row on ``line`` (None: the header, a line not read)."""
        return next((row.table for row in self.rows if row.line == line), None)

    def without_row(self, table: int) -> str:
        """Return the file's text without ``table``'s row."""
        row = self._only(table)
        lines = list(self.lines)
        removed = lines.pop(row.line - 1)
        if not removed.endswith("\n") and lines:  # the last line had no end: keep it so
            lines[-1] = lines[-1].rstrip("\r\n")
        return "".join(lines)

    def _only(self, table: int) -> RoundRow:
        row = self.row(table)
        if row is None:
            where = display(self.path)
            many = sum(1 for r in self.rows if r.table == table)
            message = (f"table {table} is on {many} rows; number each table once in the file"
                       if many else f"no table {table} in this round")
            raise RoundFileRefused("missing", [Problem(where, 1, message)])
        return row


def _place(lines: Sequence[tuple[str, int | None]], table: int) -> int:
    """Return where a row of ``table`` goes among ``lines`` (each with its row's table,
    None for the header and lines not read): before the first row of a higher table,
    else after the last row (after the header in a file without rows)."""
    rows = [k for k, (_, t) in enumerate(lines) if t is not None]
    higher = [k for k in rows if (lines[k][1] or 0) > table]
    if higher:
        return higher[0]
    return rows[-1] + 1 if rows else min(1, len(lines))


class RoundFileRefused(Exception):
    """A round file was not written (or cannot be read to be written): ``problems`` say
    why as ``path:line: message``; ``reason`` is ``unreadable``, ``changed`` (not as the
    caller read it), ``locked`` (an editor has it open), ``form`` (its form cannot hold
    the change) or ``missing`` (no such table)."""

    def __init__(self, reason: str, problems: list[Problem]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.reason = reason
        self.problems = problems


def read_round_file(path: Path, fmt: Format, problems: list[Problem]) -> RoundFile | None:
    """Return the round file at ``path`` as the loader reads it, or None after recording
    why it cannot be read (the loader's own messages; its warnings are recorded too).

    Rows the loader refuses (a wrong field count, a control character) are not in
    ``rows``, and their lines are kept as they are by every write.
    """
    where = display(path)
    try:
        st = os.stat(path)
    except OSError:
        st = None
    read = read_spreadsheet(path, problems)
    if read is None:
        return None
    data, text = read
    # a Diplomacy file has a row per seat, its board number as its table
    boards = fmt.seats > 2
    required, optional = (BOARD_REQUIRED, BOARD_OPTIONAL) if boards else columns(fmt)
    table = parse_csv(text, where, required, optional, problems)
    if table is None:
        return None
    header, rows = table
    lines = tuple(m.group() for m in _LINES.finditer(text))
    found = []
    for row in rows:
        raw = lines[row.line - 1] if row.line - 1 < len(lines) else ""
        number = parse_int(row.get("board" if boards else "table"))
        found.append(RoundRow(row.line, number, dict(row.cells),
                              raw.rstrip("\r\n")))
    identity = (st.st_ino, st.st_size, st.st_mtime_ns) if st is not None else (0, 0, 0)
    return RoundFile(path, form_of(data, text), tuple(header), tuple(found), lines,
                     hashlib.sha256(data).hexdigest()[:16], identity)


# ----- editors' lock files ------------------------------------------------------------

def editor_lock(path: Path) -> Path | None:
    """Return an editor's lock or swap file for ``path`` if one exists (the file is open in
    LibreOffice, Vim, Emacs or Office), else None."""
    name = path.name
    for candidate in (f".~lock.{name}#", f".{name}.swp", f".{name}.swo", f".#{name}",
                      f"~${name}", f"~${name[2:]}"):
        lock = path.with_name(candidate)
        if os.path.lexists(lock):
            return lock
    return None


def _locked_problem(path: Path, lock: Path) -> Problem:
    return Problem(display(path), 1, f"is open in an editor ({lock.name} exists); nothing "
                   "was written: save and close the file there (so that the editor does not "
                   "save over this entry), then enter it again")


# ----- writing ------------------------------------------------------------------------

_THREAD_LOCKS: dict[str, threading.Lock] = {}
_THREAD_LOCKS_GUARD = threading.Lock()


def _thread_lock(path: Path) -> threading.Lock:
    key = os.path.abspath(path)
    with _THREAD_LOCKS_GUARD:
        return _THREAD_LOCKS.setdefault(key, threading.Lock())


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """Hold an OS lock on the round file at ``path`` (``flock``; none on Windows). The
    lock is on the file, which a write replaces: once held, the file must still be the
    one at the path, else the lock is taken again on the new one."""
    if sys.platform == "win32" or not path.exists():
        yield
        return
    import fcntl

    for _ in range(100):
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                same = os.stat(path).st_ino == os.fstat(fd).st_ino
            except OSError:
                same = False
            if same:
                try:
                    yield
                finally:
                    fcntl.flock(fd, fcntl.LOCK_UN)
                return
            fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)
    yield  # replaced a hundred times meanwhile: the compare-and-swap still guards


@dataclass
class Editing:
    """A round file held for one change: ``current`` as read under the lock, ``write``."""

    path: Path
    fmt: Format
    current: RoundFile | None
    problems: list[Problem] = field(default_factory=list)
    written: bytes | None = None

    def write(self, text: str) -> bool:
        """Write ``text`` over the file in its own form, atomically; return False when it
        is what the file already holds (nothing written). Raise :class:`RoundFileRefused`
        while an editor has the file open, when the form cannot hold ``text``, or when the
        file changed since ``current`` was read."""
        where = display(self.path)
        form = self.current.form if self.current is not None else Form()
        data = encode(text, form, where)
        lock = editor_lock(self.path)
        if lock is not None:
            raise RoundFileRefused("locked", [_locked_problem(self.path, lock)])
        if self.current is not None:
            if text == self.current.text:
                return False
            try:
                st = os.stat(self.path)
                now = (st.st_ino, st.st_size, st.st_mtime_ns)
            except OSError:
                now = (0, 0, 0)
            if now != self.current.identity:
                raise RoundFileRefused("changed", [Problem(where, 1, "changed while this "
                                       "entry was being saved; nothing was written: check "
                                       "the file and enter it again")])
        _write_bytes(self.path, data)
        self.written = data
        return True


@contextmanager
def editing(path: Path, fmt: Format, missing_ok: bool = False) -> Iterator[Editing]:
    """Hold ``path`` for one change (a thread lock and an OS lock) and yield an
    :class:`Editing` with the file as read now. Raise :class:`RoundFileRefused`
    (``unreadable``) when it cannot be read, unless ``missing_ok`` and it does not exist
    (then ``current`` is None: a new file is written in the default form)."""
    with _thread_lock(path), _file_lock(path):
        if missing_ok and not os.path.lexists(path):
            yield Editing(path, fmt, None)
            return
        if os.path.islink(path):
            raise RoundFileRefused("form", [Problem(display(path), 1, "is a symbolic link; "
                                   "standgen writes plain files only: edit this round in "
                                   "the file it points to")])
        problems: list[Problem] = []
        current = read_round_file(path, fmt, problems)
        if current is None:
            raise RoundFileRefused("unreadable", [p for p in problems if not p.warning]
                                   or [Problem(display(path), 1, "cannot be read")])
        yield Editing(path, fmt, current, problems)


def _write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` aside and rename it over ``path`` (the old file or the new one,
    never half), keeping the old file's permission bits."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    try:
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        mode = 0o644
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass


@dataclass(frozen=True)
class Change:
    """What a row edit did: the row's cells before and after (``new`` is empty for a
    removed row) and whether the file changed."""

    old: Mapping[str, str]
    new: Mapping[str, str]
    changed: bool
    line: int


def _expect(edit: Editing, table: int, expect: str | None,
            expect_file: str | None) -> tuple[RoundFile, RoundRow]:
    current = edit.current
    assert current is not None
    where = display(edit.path)
    if expect_file is not None and expect_file != current.tag:
        raise RoundFileRefused("changed", [Problem(where, 1, "changed since it was read; "
                               "nothing was written: check it and enter it again")])
    row = current.row(table)
    if row is None:
        current._only(table)  # raises with the reason
        raise AssertionError
    if expect is not None and expect != row.tag:
        raise RoundFileRefused("changed", [Problem(where, row.line, f"table {table} changed "
                               f"since it was read (it now reads '{row.text}'); nothing was "
                               "written: check it and enter it again")])
    return current, row


def replace_row(path: Path, fmt: Format, table: int, cells: Mapping[str, str],
                expect: str | None, expect_file: str | None = None) -> Change:
    """Set ``cells`` (column -> value) in ``table``'s row of the round file at ``path``
    and write the file back in its own form; return the :class:`Change`.

    A compare-and-swap: ``expect`` is :attr:`RoundRow.tag` of the row as the caller read
    it (None: any), ``expect_file`` :attr:`RoundFile.tag` of the whole file (None: any).
    Raise :class:`RoundFileRefused` when the row or file no longer reads so, when there is
    no such table, while an editor has the file open, or when it cannot be written in its
    form. Values are stripped; nothing is written when nothing changes."""
    with editing(path, fmt) as edit:
        current, row = _expect(edit, table, expect, expect_file)
        new = {**row.cells, **{k: v.strip() for k, v in cells.items() if k in current.header}}
        changed = edit.write(current.with_row(table, new))
        return Change(dict(row.cells), new, changed, row.line)


def remove_row(path: Path, fmt: Format, table: int, expect: str | None,
               expect_file: str | None = None) -> Change:
    """Remove ``table``'s row from the round file at ``path`` (compare-and-swap as
    :func:`replace_row`; every other line stays as it is); return the :class:`Change`."""
    with editing(path, fmt) as edit:
        current, row = _expect(edit, table, expect, expect_file)
        edit.write(current.without_row(table))
        return Change(dict(row.cells), {}, True, row.line)


def write_round(path: Path, fmt: Format, rnd: Round, expect_file: str | None = None) -> str:
    """Write a whole round (``pair``, ``pair --redo``) to ``path``; return the text.

    A file already there is replaced in its own form (separator, line ends, BOM,
    encoding), and only if it still reads as :attr:`RoundFile.tag` ``expect_file`` says
    (None: any); a new file is written as comma-separated UTF-8 with LF line ends. Raise
    :class:`RoundFileRefused` as :meth:`Editing.write` does."""
    if fmt.seats > 2:
        return _write_new(path, boards_csv(rnd))
    with editing(path, fmt, missing_ok=True) as edit:
        if edit.current is not None and expect_file is not None \
                and edit.current.tag != expect_file:
            raise RoundFileRefused("changed", [Problem(display(path), 1, "changed since it "
                                   "was read; nothing was written: run the command again")])
        form = edit.current.form if edit.current is not None else Form()
        text = render(*round_rows(fmt, rnd), form)
        edit.write(text)
        return text



# ----- team pairings (teams-round-N.csv) ----------------------------------------------

TEAM_ROUND_HEADER = ("match", "team_1", "team_2")


def team_round_csv(rnd: TeamRound) -> str:
    """Return the CSV text of a round's team matches (``match,team_1,team_2``; a team bye
    has ``team_2`` empty; a ``result`` column when a match has one: a requested bye, a
    double forfeit) as ``pair`` writes it: comma, LF, UTF-8."""
    if not any(m.result for m in rnd.matches):
        return render(TEAM_ROUND_HEADER, [[str(m.number), m.team_1, m.team_2]
                                          for m in rnd.matches], Form())
    return render((*TEAM_ROUND_HEADER, "result"), [[str(m.number), m.team_1, m.team_2,
                                                     m.result] for m in rnd.matches], Form())


def write_team_round(path: Path, rnd: TeamRound) -> str:
    """Write a team event's round of team matches to ``path`` (docs/teams.md, "Team
    matches"), the one writer of ``teams-round-N.csv``; return the text. Atomic, and
    refused (:class:`RoundFileRefused`) while an editor has the file open."""
    return _write_new(path, team_round_csv(rnd))


def _write_new(path: Path, text: str) -> str:
    """Write ``text`` to ``path`` as UTF-8, whole and atomically, unless an editor has
    the file open (:class:`RoundFileRefused`); return the text."""
    lock = editor_lock(path)
    if lock is not None:
        raise RoundFileRefused("locked", [_locked_problem(path, lock)])
    with _thread_lock(path), _file_lock(path):
        _write_bytes(path, text.encode("utf-8"))
    return text
