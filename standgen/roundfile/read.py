"""Reading a round file as the loader reads it, with each row's line and tag (see
:mod:`standgen.roundfile`)."""


from __future__ import annotations

import hashlib
import os
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from standgen.errors import Problem
from standgen.formats.base import Format
from standgen.load.boards import OPTIONAL as BOARD_OPTIONAL
from standgen.load.boards import REQUIRED as BOARD_REQUIRED
from standgen.load.files import (
    CONTROL,
    display,
    parse_csv,
    parse_int,
    read_spreadsheet,
)
from standgen.load.rounds import columns
from standgen.roundfile.text import LINES, Form, RoundFileRefused, form_of, line_text, tag_of


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
    lines = tuple(m.group() for m in LINES.finditer(text))
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

