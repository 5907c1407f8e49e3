"""The crosstable: one row per ranked player, one cell per round (chess-results style).

A cell reads ``W3``: a win against the player now ranked 3rd. Letters: ``W`` win, ``D``
draw, ``L`` loss; ``+``/``-`` a win or loss by forfeit; ``B`` a bye, ``A`` absent;
``…`` a game without a result yet. On a board of more than two seats the cell is the
board number and the seat's result word (``B2 solo``).
"""

from __future__ import annotations

from dataclasses import dataclass

import standgen.site.links as links
from standgen.model import GameKind, Outcome
from standgen.pipeline import EventReport
from standgen.site.contexts import Frame, Link, shown_names_of
from standgen.site.i18n import _
from standgen.site.numbers import display_number
from standgen.site.results import seat_result

_LETTER = {Outcome.WIN: "W", Outcome.DRAW: "D", Outcome.LOSS: "L"}
_FORFEIT = {Outcome.WIN: "+", Outcome.DRAW: "D", Outcome.LOSS: "-"}
_WORD = {Outcome.WIN: "win", Outcome.DRAW: "draw", Outcome.LOSS: "loss"}


@dataclass(frozen=True)
class CrossCell:
    """One round of one player: short text, a longer description, the opponent's page."""

    text: str
    title: str
    href: str


@dataclass(frozen=True)
class CrossRow:
    rank: int
    player: Link
    cells: tuple[CrossCell, ...]
    score: str


@dataclass(frozen=True)
class Crosstable:
    rounds: tuple[int, ...]
    rows: tuple[CrossRow, ...]


def crosstable(report: EventReport, page: Frame) -> Crosstable:
    """Return the event's crosstable over its round files, rows in standings order."""
    event = report.event
    standings = report.standings
    rank = {row.player.id: row.rank for row in standings.rows}
    names = shown_names_of(event)
    games = {(rnd.number, pid): g for rnd in event.rounds for g in rnd.games for pid in g.players}
    numbers = tuple(rnd.number for rnd in event.rounds)
    rows = []
    for row in standings.rows:
        pid = row.player.id
        cells = []
        for number in numbers:
            game = games.get((number, pid))
            if game is None:
                cells.append(CrossCell("", _("not in this round"), ""))
                continue
            seat = game.seat_of(pid)
            if game.kind in (GameKind.BYE, GameKind.ABSENT):
                letter = _("B") if game.kind is GameKind.BYE else _("A")
                word = _(game.kind.value) + (f", {_(_WORD[seat.outcome])}" if seat.outcome else "")
                cells.append(CrossCell(letter, f"R{number}: {word}", ""))
                continue
            if len(game.seats) > 2:
                result = seat_result(seat) or "…"
                cells.append(CrossCell(f"B{game.table} {result}", _(
                    "R{number}: board {table}, {result}").format(
                        number=number, table=game.table, result=result), ""))
                continue
            other = game.opponents_of(pid)[0]
            where = str(rank.get(other, "")) or "–"
            name = names.get(other, other)
            href = page.href(links.player_page(event, other))
            if seat.outcome is None:
                cells.append(CrossCell(f"…{where}", _(
                    "R{number}: against {name}, no result yet").format(number=number, name=name),
                    href))
                continue
            table = _FORFEIT if game.kind is GameKind.FORFEIT else _LETTER
            said = (_("R{number}: {result} by forfeit against {name}")
                    if game.kind is GameKind.FORFEIT else _("R{number}: {result} against {name}"))
            cells.append(CrossCell(f"{_(table[seat.outcome])}{where}", said.format(
                number=number, result=_(_WORD[seat.outcome]), name=name), href))
        rows.append(
            CrossRow(row.rank, Link(names[pid], page.href(links.player_page(event, pid))),
                     tuple(cells), display_number(row.score))
        )
    return Crosstable(numbers, tuple(rows))
