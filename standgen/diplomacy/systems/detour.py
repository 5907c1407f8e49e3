"""Detour: centres, survival, place and lead points, scaled to 100; 0.25 a year if out.

Source: "Specific Rules for Diplomacy National World Cup tournament (edition two)",
"SCORING SYSTEM: The scoring obeys the system 'Detour'" (stabbeurfou.org/docs/regles/en/
DiplomacyNationalWorldCup2_en.html); the same as DAANZ's Detour09. Help page
``docs/scoring/detour.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standgen.diplomacy.scoring import FIRST_YEAR, Board, ScoringSystem, soloist

SOLO_POINTS = 110.0
SURVIVAL = 2.0
PLACES = (4.0, 3.0, 2.0, 1.0)
PER_YEAR = 0.25
MOST_YEARS_POINTS = 2.0


def place_points(centres: list[int]) -> list[float]:
    """Return each power's place points: 4, 3, 2, 1, ties taking the lowest place's.

    National World Cup, Detour: "4 points for the first player; 3 for the second; 2 for
    the third; 1 for the fourth (in case of tie points are allocated as the lowest
    position (2nd and 3rd tied both get 2 points but a twice tied fourth place or a three
    time tied third place yield no point))".
    """
    order = sorted(centres, reverse=True)
    points = []
    for c in centres:
        lowest = len(order) - 1 - order[::-1].index(c)  # the last place this count holds
        points.append(PLACES[lowest] if lowest < len(PLACES) else 0.0)
    return points


def detour(board: Board, options: Mapping[str, Any]) -> tuple[float, ...]:
    """Return Detour scores.

    National World Cup, Detour: "110 points for the winner, 0 point for the others";
    otherwise "2 points for each surviving player, 1 point per owned centre for each
    surviving player", the place points of :func:`place_points`, "the leader gets as a
    bonus the difference of his number of centres with the second (only if alone)", "all
    points are standardized so that the total of all scores is 100", and "after this,
    eliminated players get 0.25 points per year survived no more than 2 points (an
    elimination at the end of diplomatic year 1902 yields 0.25 points)":
    ``eliminated_year`` - 1901 years (none without the year).
    """
    solo = soloist(board)
    if solo is not None:
        return tuple(SOLO_POINTS if k == solo else 0.0 for k in range(len(board)))
    centres = [seat.centres for seat in board]
    places = place_points(centres)
    ranked = sorted(centres, reverse=True)
    raw = [float(c) + (SURVIVAL if c > 0 else 0.0) + places[k] for k, c in enumerate(centres)]
    if ranked[0] > ranked[1]:
        raw[centres.index(ranked[0])] += ranked[0] - ranked[1]
    total = sum(raw)
    scores = [100.0 * r / total for r in raw]
    for k, seat in enumerate(board):
        if seat.centres == 0 and seat.eliminated_year is not None:
            years = max(0, seat.eliminated_year - FIRST_YEAR)
            scores[k] += min(MOST_YEARS_POINTS, PER_YEAR * years)
    return tuple(scores)


DETOUR = ScoringSystem("detour", "Detour", "scoring/detour", detour)
