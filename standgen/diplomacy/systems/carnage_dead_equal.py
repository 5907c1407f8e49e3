"""Carnage with dead equal: every eliminated power shares the places left.

Source: dipvis (Chris Brand, Diplomacy Tournament Visualiser), game scoring system
"Carnage with dead equal", beside Carnage as published on the World Diplomacy Wiki
("Carnage Scoring System"); help page ``docs/scoring/carnage-dead-equal.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standgen.diplomacy.scoring import Board, ScoringSystem, carnage_scores


def carnage_dead_equal(board: Board, options: Mapping[str, Any]) -> tuple[float, ...]:
    """Return Carnage scores with every eliminated power on one shared place.

    World Diplomacy Wiki, Carnage: places 7000 ... 1000 by centres, "If two or more
    players share a rank, they split the points for those positions", plus 1 point per
    centre; a solo takes 28,034. "Dead equal": the elimination year is not used, so all
    eliminated powers tie on 0 centres and split the places left.
    """
    return carnage_scores(board, dead_equal=True)


CARNAGE_DEAD_EQUAL = ScoringSystem("carnage-dead-equal", "Carnage (dead equal)",
                                   "scoring/carnage-dead-equal", carnage_dead_equal)
