"""Carnhik (Carnage 2023): Carnage plus 300 points per centre a lone board-topper leads by.

Source: Boston Massacre, "Scoring" (sites.google.com/site/bostonmassacrediplomacy/
scoring): "Carnhik scoring uses all of the above rules [Carnage] and also awards 300
points to the player with the highest center count for each center they have above the
next player ... If there is a tie for board-top, there are no extra points. These points
are also not awarded for solos". Help page ``docs/scoring/carnhik.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standgen.diplomacy.scoring import Board, ScoringSystem, carnage, soloist

LEAD_POINTS = 300.0  # per centre ahead of the next player


def carnhik(board: Board, options: Mapping[str, Any]) -> tuple[float, ...]:
    """Return Carnhik scores: Carnage, and 300 x the lone topper's lead in centres.

    Boston Massacre, "Scoring": "awards 300 points to the player with the highest center
    count for each center they have above the next player. So if the top player has 12
    centers and the next player has 9 centers, they get an extra 900 points"; none for a
    shared top or a solo.
    """
    scores = list(carnage(board, options))
    if soloist(board) is not None:
        return tuple(scores)
    order = sorted(range(len(board)), key=lambda k: -board[k].centres)
    top, second = board[order[0]].centres, board[order[1]].centres
    if top > second:
        scores[order[0]] += LEAD_POINTS * (top - second)
    return tuple(scores)


CARNHIK = ScoringSystem("carnhik", "Carnhik (Carnage 2023)", "scoring/carnhik", carnhik)
