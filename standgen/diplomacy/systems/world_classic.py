"""World Classic (Peter McNamara): 10 per centre, 48 to the board-top, 30 for surviving.

Source: World Diplomacy Wiki, "World Classic Scoring System". The wiki gives no score for
a solo; standgen takes 420 for the soloist and 0 for everyone else from dipvis (Chris
Brand, Diplomacy Tournament Visualiser), "World Classic". Help page
``docs/scoring/world-classic.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standgen.diplomacy.scoring import FIRST_YEAR, Board, ScoringSystem, soloist

PER_CENTRE = 10.0
TOP_BONUS = 48.0
SURVIVAL = 30.0
PER_YEAR = 1.0
SOLO_POINTS = 420.0  # dipvis; the wiki is silent


def world_classic(board: Board, options: Mapping[str, Any]) -> tuple[float, ...]:
    """Return World Classic scores.

    World Diplomacy Wiki: "10 point by supply center"; "48 point bonus for Topboarder";
    "shared topboarder share equally the bonus"; "30 point for survival in a non solo
    game"; "1 point by year of survival in a non solo game" (an eliminated power: the game
    years it held a centre at the end of, ``eliminated_year`` - 1901; none without a year).
    """
    solo = soloist(board)
    if solo is not None:
        return tuple(SOLO_POINTS if k == solo else 0.0 for k in range(len(board)))
    top = max(seat.centres for seat in board)
    toppers = sum(1 for seat in board if seat.centres == top)
    scores: list[float] = []
    for seat in board:
        if seat.centres == 0:
            year = seat.eliminated_year
            scores.append(PER_YEAR * (year - FIRST_YEAR) if year else 0.0)
            continue
        bonus = TOP_BONUS / toppers if seat.centres == top else 0.0
        scores.append(PER_CENTRE * seat.centres + SURVIVAL + bonus)
    return tuple(scores)


WORLD_CLASSIC = ScoringSystem("world-classic", "World Classic", "scoring/world-classic",
                              world_classic)
