"""ManorCon: 100 x (S² + 4S + 16) / the board's sum, 0.1 a year for the eliminated.

Source: ManorCon, "Diplomacy Tournament Scoring System" (diplom.org/manorcon/
dipscore.htm). Help page ``docs/scoring/manorcon.md``; it says where dipvis counts one
year less.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standgen.diplomacy.scoring import Board, ScoringSystem, end_year, soloist

SOLO_POINTS = 75.0
PER_YEAR = 0.1


def years_played(year: int) -> int:
    """Return the game years played up to ``year``, that year included (1905: 5).

    ManorCon: "0.10 points for every year they played, including the year they were
    eliminated". dipvis ("ManorCon") counts ``year - 1901``, one year less.
    """
    return year - 1900


def p_value(centres: int) -> float:
    """Return ManorCon's P = S² + 4S + 16 for S centres (an eliminated power: 16)."""
    return float(centres * centres + 4 * centres + 16)


def manorcon(board: Board, options: Mapping[str, Any]) -> tuple[float, ...]:
    """Return ManorCon scores.

    ManorCon: "If a player is eliminated, they score 0.10 points for every year they
    played, including the year they were eliminated. If a player solos, they score 75
    points, and every other player who is still alive at the end of the game, is scored
    as if they have been eliminated in the year of the solo. If no player solos, then for
    every player (including eliminated players), a value of P is calculated, where P = S^2
    + 4*S + 16 ... The board score, B is the sum of the seven values of P ... Each
    non-eliminated players tournament score is 100 * P / B points." The solo year is the
    board's ``end_year``; an eliminated power without ``eliminated_year`` (or a survivor
    of a solo without ``end_year``) scores 0.
    """
    solo = soloist(board)
    last = end_year(board)

    def survival(year: int | None) -> float:
        return PER_YEAR * years_played(year) if year is not None else 0.0

    if solo is not None:
        return tuple(
            SOLO_POINTS if k == solo
            else survival(seat.eliminated_year if seat.centres == 0 else last)
            for k, seat in enumerate(board))
    total = sum(p_value(seat.centres) for seat in board)
    return tuple(
        100.0 * p_value(seat.centres) / total if seat.centres > 0
        else survival(seat.eliminated_year)
        for seat in board)


MANORCON = ScoringSystem("manorcon", "ManorCon", "scoring/manorcon", manorcon)
