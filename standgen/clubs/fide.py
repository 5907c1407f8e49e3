"""FIDE's rating change of a chess game (FIDE Rating Regulations B.02, art. 8), one game at
a time: the rule, without pandas (the club pages' summaries and the tidy table's column
path, :func:`standgen.clubs.ratings.fide_changes`, both follow it)."""

from __future__ import annotations

import bisect

# FIDE B.02 art. 8.1.2: the upper end of each rating-difference band and the expected
# score of the higher-rated player in it (the lower-rated player's is 1 minus it)
_FIDE_BANDS = (3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129,
               137, 145, 153, 162, 170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267,
               278, 290, 302, 315, 328, 344, 357, 374, 391, 411, 432, 456, 484, 517, 559,
               619, 735)
_FIDE_EXPECTED = tuple(round(0.50 + 0.01 * k, 2) for k in range(len(_FIDE_BANDS)))


def fide_expected(rating: float, opponent: float) -> float:
    """Return FIDE's expected score ``We`` of ``rating`` against ``opponent``.

    FIDE B.02 art. 8.1.2 (table of PD for each rating difference D), with a difference of
    more than 400 points counted as 400 (art. 8.3.1).
    """
    difference = min(abs(round(rating - opponent)), 400)
    band = bisect.bisect_left(_FIDE_BANDS, difference)
    high = _FIDE_EXPECTED[band] if band < len(_FIDE_EXPECTED) else 1.0
    return high if rating >= opponent else round(1.0 - high, 2)


def fide_k(rating: float) -> int:
    """Return the K factor: 20 below 2400, 10 from 2400 (FIDE B.02 art. 8.3.3)."""
    return 10 if rating >= 2400 else 20


def fide_change(rating: float, opponent: float, score: float) -> float:
    """Return the rating change of one game: K x (W - We) (FIDE B.02 art. 8.3)."""
    return fide_k(rating) * (score - fide_expected(rating, opponent))


SCORE = {"win": 1.0, "draw": 0.5, "loss": 0.0}
