"""What the site shows of an Old World event: each seat's result band and TP on round
pages (the VPs show in the ``vp`` stat column beside them)."""

from __future__ import annotations

from collections.abc import Sequence

from standgen.formats.oldworld import band_name, points
from standgen.model import EventConfig, Game, Seat
from standgen.site.formats.base import FormatViews


def seat_cells(game: Game, seat: Seat, config: EventConfig) -> Sequence[str]:
    """Return the round page's band and TP cells for one seat (empty while unplayed)."""
    if seat.outcome is None:
        return ("", "")
    return (band_name(seat, game, config), _number(points(seat, game, config)))


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


VIEWS = FormatViews(seat_headers=("Band", "TP"), seat_cells=seat_cells)
