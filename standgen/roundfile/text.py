"""What a round file says, as text: a round's rows, the file's own form (separator,
line ends, BOM, encoding) and a row's tag (see :mod:`standgen.roundfile`)."""


from __future__ import annotations

import csv
import hashlib
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from standgen.errors import Problem
from standgen.formats.base import Format
from standgen.load.boards import ABSENT as SITTING_ABSENT
from standgen.load.boards import OPTIONAL as BOARD_OPTIONAL
from standgen.load.boards import REQUIRED as BOARD_REQUIRED
from standgen.load.boards import SITOUT
from standgen.load.files import (
    delimiter_of,
    parse_int,
)
from standgen.load.rounds import ABSENT, BYE, columns
from standgen.model import GameKind, Round, TeamRound
from standgen.results import result_code

BOM = b"\xef\xbb\xbf"
LINES = re.compile(r"[^\n]*\n|[^\n]+\Z")


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
    first = LINES.match(text)
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


class RoundFileRefused(Exception):
    """A round file was not written (or cannot be read to be written): ``problems`` say
    why as ``path:line: message``; ``reason`` is ``unreadable``, ``changed`` (not as the
    caller read it), ``locked`` (an editor has it open), ``form`` (its form cannot hold
    the change) or ``missing`` (no such table)."""

    def __init__(self, reason: str, problems: list[Problem]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.reason = reason
        self.problems = problems


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


