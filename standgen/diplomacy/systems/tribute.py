"""Tribute: 1 per centre, survivors share 66, and pay the board-topper its size over 6.

Sources: Windy City Weasels, "Tribute Scoring System" (windycityweasels.org/
tribute-scoring-system/); World Diplomacy Wiki, "Tribute Scoring System" (the rules
"Tribute paid cannot exceed the draw size score", "Tied board-toppers split the tribute
equally"); worked example: Windy City Weasels game #398 (12 February 2020). Help page
``docs/scoring/tribute.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standgen.diplomacy.scoring import Board, ScoringSystem, soloist

SURVIVAL_POOL = 66.0
FREE_CENTRES = 6  # the topper's first six centres draw no tribute
SOLO_POINTS = 100.0


def tribute(board: Board, options: Mapping[str, Any]) -> tuple[float, ...]:
    """Return Tribute scores.

    World Diplomacy Wiki, Tribute: "66 points are divided equally between each surviving
    player"; "1 point by supply center"; "Each player pays the board-topper 1 pt in
    tribute for each center the board-topper has over 6. Tribute paid cannot exceed the
    draw size score. Tied board-toppers split the tribute equally." A solo scores 100 and
    everyone else 0 (Windy City Weasels). Eliminated powers score 0 and pay nothing.
    """
    solo = soloist(board)
    if solo is not None:
        return tuple(SOLO_POINTS if k == solo else 0.0 for k in range(len(board)))
    survivors = [k for k, seat in enumerate(board) if seat.centres > 0]
    share = SURVIVAL_POOL / len(survivors) if survivors else 0.0
    top = max((seat.centres for seat in board), default=0)
    toppers = [k for k in survivors if board[k].centres == top]
    payment = min(share, max(0, top - FREE_CENTRES))
    payers = [k for k in survivors if k not in toppers]
    scores = [float(seat.centres) + (share if seat.centres > 0 else 0.0) for seat in board]
    for k in payers:
        scores[k] -= payment
    for k in toppers:
        scores[k] += payment * len(payers) / len(toppers)
    return tuple(scores)


TRIBUTE = ScoringSystem("tribute", "Tribute", "scoring/tribute", tribute)
