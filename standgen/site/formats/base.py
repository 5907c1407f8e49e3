"""What the site shows of one format beyond the common pages: a :class:`FormatViews`.

A format (on the rules floor) knows nothing of pages or files; its views live here, on
the site floor, registered by format id in :data:`standgen.site.formats.VIEWS`.
Everything a view returns is plain (:mod:`standgen.tables`, strings, bytes): the site
escapes every cell.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from standgen.model import EventConfig, Game, Seat
from standgen.pipeline import EventReport
from standgen.site.i18n import _
from standgen.tables import Page, Table

EventTablesFn = Callable[[EventReport], Sequence[Table]]
PlayerTablesFn = Callable[[EventReport, str], Sequence[Table]]
PagesFn = Callable[[EventReport], Sequence[Page]]
DownloadsFn = Callable[[EventReport], Mapping[str, bytes]]
SeatCellsFn = Callable[[Game, Seat, EventConfig], Sequence[str]]
RoundNoteFn = Callable[[EventReport, int], str]


@dataclass(frozen=True)
class FormatViews:
    """A format's extra views; every field is optional."""

    event_tables: EventTablesFn | None = None  # extra sections on the event page (awards)
    player_tables: PlayerTablesFn | None = None  # extra sections on a player page
    pages: PagesFn | None = None  # extra event pages (Diplomacy power statistics)
    downloads: DownloadsFn | None = None  # files in the event folder (results.trf, .h9)
    seat_headers: tuple[str, ...] = ()  # extra per-seat columns on round pages ("Band", "TP")
    seat_cells: SeatCellsFn | None = None  # their values for one seat of a game
    # a note on a round page on how the round was paired (an accelerated Swiss round)
    round_note: RoundNoteFn | None = None


NO_VIEWS = FormatViews()


def colour_cells(game: Game, seat: Seat, config: EventConfig) -> Sequence[str]:
    """Return the seat's colour: ``player_1`` has White, ``player_2`` Black (data
    contract, round files; in Go, Black also takes the handicap stones)."""
    if len(game.seats) != 2:
        return ("",)
    return (_("White") if seat is game.seats[0] else _("Black"),)
