"""An event's rows of the tidy table as the club summaries read them (issue #33).

:mod:`standgen.clubs.summary` (the ratings) and :mod:`standgen.clubs.meta_sums` (the
meta) read the same rows (:attr:`standgen.clubs.games.EventGames.rows`, one per player
and game, the columns of ``standgen.clubs.games._ROW``) and round as the tidy table's
column path (pandas) does: the column numbers, the format facts they ask for, and that
rounding have their one home here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from standgen.clubs.games import EventGames
from standgen.formats import FORMATS

Row = Sequence[Any]  # a row of the tidy table's event columns (standgen.clubs.games._ROW)

# the columns of an event's rows (standgen.clubs.games._ROW)
ROUND, TABLE, KIND, PLAYER, NAME, FACTION, RANK_, RATING, COLOUR, OPPONENTS = range(10)
OPP_FACTIONS, OPP_RANKS, OPP_RATINGS, SEATS, OUTCOME, RESULT, POINTS = range(10, 17)
HANDICAP = 18


def rows_of(part: EventGames) -> Sequence[Row]:
    """Return an event's rows of the tidy table."""
    return cast("Sequence[Row]", part.rows)


def club_rating(fmt: str) -> str:
    """Return the club's rating of a format's games (``Format.ratings``: "fide", "go" or
    "")."""
    return FORMATS[fmt].ratings if fmt in FORMATS else ""


def on_boards(fmt: str) -> bool:
    """Return whether the format's games are boards of more than two seats (Diplomacy)."""
    return fmt in FORMATS and FORMATS[fmt].seats > 2


def column_round(value: float, digits: int) -> float:
    """Return ``value`` rounded as pandas' and numpy's ``round`` do (``rint(value x
    10**digits) / 10**digits``; Python's ``round`` is correctly rounded instead)."""
    scale = 10.0**digits
    return round(value * scale) / scale
