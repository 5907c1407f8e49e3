"""Round files as the desk reads and edits them: one row replaced, nothing else moved."""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass, field
from pathlib import Path

from standgen.errors import Problem
from standgen.formats.base import Format
from standgen.load.files import display, read_text
from standgen.venue.guard import Refusal


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


