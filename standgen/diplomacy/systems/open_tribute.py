"""OpenTribute: 34 + 3 per centre, each power paying the board-topper 1 per centre behind.

Source: Windy City Weasels, "OpenTribute Variant" (windycityweasels.org/
opentribute-scoring-system/). Help page ``docs/scoring/opentribute.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standgen.diplomacy.scoring import TOTAL_CENTRES, Board, ScoringSystem, soloist

BASE = 34.0
PER_CENTRE = 3.0
SOLO_POINTS = 10.0 * TOTAL_CENTRES  # "the soloist receives 340 points (10x34)"


def open_tribute(board: Board, options: Mapping[str, Any]) -> tuple[float, ...]:
    """Return OpenTribute scores.

    Windy City Weasels, OpenTribute: "players receive 34 points plus 3 points per supply
    center, and they pay the board-topper 1 point in tribute per supply center they are
    behind the topper"; "eliminated players do not get to keep their remaining points —
    after the tribute is paid, the remainder is considered spoiled"; "If n players share
    the top, they split 1/n of the collected tribute, so that each receives 1/n2 of what a
    lone topper would have received"; "In the event of a solo, the soloist receives 340
    points (10x34) and all other players receive 0."
    """
    solo = soloist(board)
    if solo is not None:
        return tuple(SOLO_POINTS if k == solo else 0.0 for k in range(len(board)))
    top = max(seat.centres for seat in board)
    toppers = [k for k, seat in enumerate(board) if seat.centres == top]
    collected = float(sum(top - seat.centres for seat in board))
    scores: list[float] = []
    for k, seat in enumerate(board):
        if k in toppers:
            scores.append(BASE + PER_CENTRE * seat.centres + collected / len(toppers) ** 2)
        elif seat.centres == 0:
            scores.append(0.0)
        else:
            scores.append(BASE + PER_CENTRE * seat.centres - (top - seat.centres))
    return tuple(scores)


OPEN_TRIBUTE = ScoringSystem("opentribute", "OpenTribute", "scoring/opentribute", open_tribute)
