"""DixieCon: place points 270, 70, 50, 34, 20, 10, 0, draws sharing theirs, 4 per centre.

Source: DixieCon, "Tournament Descriptions and Rules" (dixiecon.com/tournament-rules),
"DIXIECON SCORING SYSTEM". Help page ``docs/scoring/dixiecon.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standgen.diplomacy.scoring import DRAW, Board, ScoringSystem, shared_rank_points, soloist

PLACES = (270.0, 70.0, 50.0, 34.0, 20.0, 10.0, 0.0)
PER_CENTRE = 4.0


def dixiecon(board: Board, options: Mapping[str, Any]) -> tuple[float, ...]:
    """Return DixieCon scores.

    DixieCon rules: "Win: 270 points 2nd: 70 3rd: 50 4th: 34 5th: 20 6th: 10 7th: 0. Also,
    each player receives 4 points per center held at the end of the game. Places are
    determined by the number of supply centers ... Ties split the points for the tied
    places involved. Eliminations are scored by order of elimination, with the first
    eliminated being 7th place. Participants in a draw split the total points for the
    places involved in that size of a draw" (a 2-way draw 170 each, 3-way 130, 4-way 106).
    The soloist, or the draw, holds the first places; every other power follows by
    centres, eliminated powers by year (without years they share the places left).
    """
    solo = soloist(board)
    dead_years = [seat.eliminated_year for seat in board if seat.centres == 0]
    by_year = all(year is not None for year in dead_years)

    def key(k: int) -> float:
        seat = board[k]
        if k == solo or (solo is None and seat.result == DRAW):
            return 1_000_000.0  # the win, or the draw: they share the first places
        if seat.centres > 0:
            return 10_000.0 + seat.centres
        return float(seat.eliminated_year or 0) if by_year else 0.0

    places = shared_rank_points([key(k) for k in range(len(board))], PLACES)
    return tuple(places[k] + PER_CENTRE * seat.centres for k, seat in enumerate(board))


DIXIECON = ScoringSystem("dixiecon", "DixieCon", "scoring/dixiecon", dixiecon)
