"""Bangkok 2022 (Lei Saarlainen; WDC 2023): centres, three domination pools, survival.

Source: World Diplomacy Wiki, "Bangkok 2022"; diplomania-gen.fr wiki, "Bangkok 2022"
(French). Help page ``docs/scoring/bangkok-2022.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standgen.diplomacy.scoring import Board, ScoringSystem, end_year, soloist

PER_CENTRE = 105.0
POOL = 420.0  # each of the three domination pools
SURVIVAL = 210.0
PER_YEAR = 35.0
YEARS_CAP = 210.0
SOLO_POINTS = 1680.0 + 1890.0 + 420.0  # domination + power (18 centres) + sole survivor


def survival_years(year: int) -> int:
    """Return the years a power survived up to ``year``, that year counted (1905: 5).

    The Bangkok family counts the elimination year: World Diplomacy Wiki, "Bangkok 2020
    Scoring System": "players eliminated in 1905 receive 5yrs x 0.3 pts/yrs".
    """
    return year - 1900


def bangkok_2022(board: Board, options: Mapping[str, Any]) -> tuple[float, ...]:
    """Return Bangkok 2022 scores.

    World Diplomacy Wiki, "Bangkok 2022": "105 points for every supply center"; "420 point
    shared between player topping board"; "420 points shared by board top player and all
    players at less then 2 centers of the top"; "420 points shared by board top player and
    all players at less then 3 centers of the top"; "210 points for survival"; "35 points
    by survival years capped to 210 (can be added with final survival)". A solo: "1680 for
    domination", "1890 for power (18sc)", "420 for be the only survival player"; the
    others score 0. A survivor's years run to the board's ``end_year`` (without it, the
    cap); an eliminated power's to its ``eliminated_year`` (without it, none).
    """
    solo = soloist(board)
    if solo is not None:
        return tuple(SOLO_POINTS if k == solo else 0.0 for k in range(len(board)))
    top = max(seat.centres for seat in board)
    last = end_year(board)
    scores: list[float] = []
    pools = [[k for k, s in enumerate(board) if s.centres > 0 and top - s.centres <= gap]
             for gap in (0, 1, 2)]
    for k, seat in enumerate(board):
        score = PER_CENTRE * seat.centres
        score += sum(POOL / len(pool) for pool in pools if k in pool)
        if seat.centres > 0:
            years = YEARS_CAP if last is None else PER_YEAR * survival_years(last)
            score += SURVIVAL + min(YEARS_CAP, years)
        elif seat.eliminated_year is not None:
            score += min(YEARS_CAP, PER_YEAR * survival_years(seat.eliminated_year))
        scores.append(score)
    return tuple(scores)


BANGKOK_2022 = ScoringSystem("bangkok-2022", "Bangkok 2022", "scoring/bangkok-2022",
                             bangkok_2022)
