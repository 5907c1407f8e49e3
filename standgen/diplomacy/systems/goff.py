"""Goff (Andrew Goff; WDC 2011): 420 per centre, 1260 for the draw, three top pools.

Source: DAANZ, "A Scoring System" by Andrew Goff (daanz.org/sc-goff.htm). Help page
``docs/scoring/goff.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standgen.diplomacy.scoring import (
    DRAW,
    FIRST_YEAR,
    Board,
    ScoringSystem,
    end_year,
    soloist,
)

SOLO_POINTS = 16800.0
PER_CENTRE = 420.0
DRAW_BONUS = 1260.0
POOL = 420.0
PER_YEAR = 140.0


def goff(board: Board, options: Mapping[str, Any]) -> tuple[float, ...]:
    """Return Goff scores.

    DAANZ, "A Scoring System" (Andrew Goff): "If a player achieves an 18 centre victory,
    they are awarded 16800 points." In a draw: "420 points for every centre they hold";
    "1260 additional points for survival in a declared draw"; "420 points are split
    equally between all players with the highest supply centre count. 420 points ...
    within 1 of the highest ... 420 points ... within 2 of the highest". "Each eliminated
    or losing player scores 140 points per year of survival (with a maximum of ???). A
    year of survival is defined to be a year in which the player has at least one supply
    centre at the end of the year, and nobody has 18 or more centres at the end of that
    year": ``eliminated_year`` - 1901 for an eliminated power, the board's ``end_year`` -
    1901 for a loser to a solo (none without the year); no maximum (the text leaves it
    open).
    """
    solo = soloist(board)
    last = end_year(board)
    if solo is not None:
        return tuple(
            SOLO_POINTS if k == solo else _years(seat.eliminated_year if seat.centres == 0
                                                 else last)
            for k, seat in enumerate(board))
    top = max(seat.centres for seat in board)
    pools = [[k for k, s in enumerate(board) if s.centres > 0 and top - s.centres <= gap]
             for gap in (0, 1, 2)]
    scores: list[float] = []
    for k, seat in enumerate(board):
        if seat.centres == 0:
            scores.append(_years(seat.eliminated_year))
            continue
        score = PER_CENTRE * seat.centres + sum(POOL / len(p) for p in pools if k in p)
        scores.append(score + (DRAW_BONUS if seat.result == DRAW else 0.0))
    return tuple(scores)


def _years(year: int | None) -> float:
    return PER_YEAR * max(0, year - FIRST_YEAR) if year is not None else 0.0


GOFF = ScoringSystem("goff", "Goff", "scoring/goff", goff)
