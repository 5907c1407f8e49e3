"""C-Diplo Namur: C-Diplo's rank bonus over a curved scale of points per centre.

Source: NDC Groningen, "Scoring System" (ndc-groningen.online/Scoring_System.html); the
family is C-Diplo (World Diplomacy Database, "C-Diplo 100"). Help page
``docs/scoring/c-diplo-namur.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standgen.diplomacy.scoring import Board, ScoringSystem, shared_rank_points, soloist

FIRST_SIX = (0.0, 5.0, 9.0, 12.0, 14.0, 16.0, 18.0)  # points for 0 ... 6 centres
RANK_BONUS = (38.0, 14.0, 7.0)
SOLO_POINTS = 85.0


def centre_points(centres: int) -> float:
    """Return the points for a centre count: 5, 9, 12, 14, 16, 18, then 1 per centre.

    NDC Groningen: "The first six supply centres are scored as shown below. All further
    supply centres are worth one point each. 1 Sc = 5pts ... 6 Sc = 18 pts".
    """
    if centres < len(FIRST_SIX):
        return FIRST_SIX[centres]
    return FIRST_SIX[-1] + (centres - (len(FIRST_SIX) - 1))


def c_diplo_namur(board: Board, options: Mapping[str, Any]) -> tuple[float, ...]:
    """Return C-Diplo Namur scores.

    NDC Groningen, "Scoring System": centre points as :func:`centre_points`; "Players in
    first, second and third position receive a bonus ... If any number of players tie for
    any of these positions, the bonus(ses) are evenly divided between the players. first =
    38pts second = 14pts third = 7 pts"; "A player who soloes scores 85 points and all
    players soloed on score 0 points. Unless a solo happens, all players score one point
    for participation."
    """
    solo = soloist(board)
    if solo is not None:
        return tuple(SOLO_POINTS if k == solo else 0.0 for k in range(len(board)))
    ranks = shared_rank_points([float(seat.centres) for seat in board], RANK_BONUS)
    return tuple(1.0 + centre_points(seat.centres) + ranks[k] for k, seat in enumerate(board))


C_DIPLO_NAMUR = ScoringSystem("c-diplo-namur", "C-Diplo Namur", "scoring/c-diplo-namur",
                              c_diplo_namur)
