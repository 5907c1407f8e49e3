"""Rating-based tiebreaks: average rating of opponents (ARO) and performance (TPR)."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from standgen.tiebreaks import columns
from standgen.tiebreaks.base import Context, Part, Tiebreak, Value, outcome_share

# FIDE Handbook B.02 (Rating Regulations) table 8.1a: p (percentage score, 0.00-1.00 in
# steps of 0.01) -> dp (rating difference). Index k is p = k / 100.
DP_TABLE: tuple[int, ...] = (
    -800,
    -677, -589, -538, -501, -470, -444, -422, -401, -383, -366,
    -351, -336, -322, -309, -296, -284, -273, -262, -251, -240,
    -230, -220, -211, -202, -193, -184, -175, -166, -158, -149,
    -141, -133, -125, -117, -110, -102, -95, -87, -80, -72,
    -65, -57, -50, -43, -36, -29, -21, -14, -7, 0,
    7, 14, 21, 29, 36, 43, 50, 57, 65, 72,
    80, 87, 95, 102, 110, 117, 125, 133, 141, 149,
    158, 166, 175, 184, 193, 202, 211, 220, 230, 240,
    251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)


def _round_half_up(value: float, places: int = 0) -> Decimal:
    quantum = Decimal(1).scaleb(-places)
    return Decimal(repr(value)).quantize(quantum, rounding=ROUND_HALF_UP)


def round_half_up(value: float) -> float:
    """Return ``value`` rounded to a whole number, halves up, as a float.

    ``float(_round_half_up(value))``, with the float arithmetic where ``value`` is not
    within a millionth of a half (the exact decimal rounding only there).
    """
    whole = math.floor(value)
    if abs(value - whole - 0.5) > 1e-6:
        return float(math.floor(value + 0.5))
    return float(_round_half_up(value))


@lru_cache(maxsize=4096)
def dp(percentage: float) -> int:
    """Return FIDE's rating difference dp for a percentage score p (0 to 1).

    FIDE B.02 table 8.1a; p is rounded to two decimals, halves up.
    """
    index = int(_round_half_up(percentage, 2) * 100)
    return DP_TABLE[max(0, min(100, index))]


def _rated_games(ctx: Context, player: str) -> list[tuple[int, str, float, float]]:
    """Return (round, opponent, opponent's rating, share scored) for rated games played."""
    records = ctx.records
    games = []
    for entry in records[player].entries:
        if not entry.played:
            continue
        for opp in entry.opponents:
            rating = records[opp].player.rating
            if rating is not None and rating > 0:
                games.append((entry.round, opp, float(rating), outcome_share(entry.outcome)))
    return games


def aro(ctx: Context, player: str) -> Value:
    """Return the average rating of the opponents of games played, rounded to a whole number.

    FIDE C.07 art. 10.1 (ARO): unplayed games (byes, forfeits) are left out (art. 16),
    and so are unrated opponents; halves round up. No rated game gives 0.
    """
    games = _rated_games(ctx, player)

    def parts() -> list[Part]:
        return [Part(rnd, opp, rating) for rnd, opp, rating, _ in games]

    note = f"÷ {len(games)} rated games, rounded" if games else "no rated opponent"
    return Value(aro_of(len(games), sum(g[2] for g in games), 0.0), note=note, build=parts)


def aro_of(games: int, total: float, scored: float) -> float:
    """Return ARO from the rated games played: their number and their ratings' sum.

    ``scored`` (the points of those games) is not read; 0 without a rated game.
    """
    return 0.0 if games == 0 else round_half_up(total / games)


def tpr(ctx: Context, player: str) -> Value:
    """Return the tournament performance rating: ARO + dp(p) over the rated games played.

    FIDE C.07 art. 10.2 (TPR) with the dp table of the FIDE Rating Regulations (B.02
    8.1a): p is the points scored in those games divided by their number, rounded to two
    decimals. No rated game gives 0.
    """
    games = _rated_games(ctx, player)

    def parts() -> list[Part]:
        return [Part(rnd, opp, rating, note=f"scored {share:g}")
                for rnd, opp, rating, share in games]

    total, scored = sum(g[2] for g in games), sum(g[3] for g in games)
    value = tpr_of(len(games), total, scored)
    if not games:
        return Value(value, note="no rated opponent", build=parts)
    p = scored / len(games)
    note = (f"ARO {aro_of(len(games), total, scored):g} + dp({float(_round_half_up(p, 2)):g}) "
            f"{dp(p):+d}")
    return Value(value, note=note, build=parts)


def tpr_of(games: int, total: float, scored: float) -> float:
    """Return TPR from the rated games played: their number, ratings' sum and points."""
    if games == 0:
        return 0.0
    return aro_of(games, total, scored) + dp(scored / games)


ARO = Tiebreak("aro", "Average rating of opponents", "ARO", aro, fast=columns.rated(aro_of))
TPR = Tiebreak("tpr", "Tournament performance rating", "TPR", tpr, fast=columns.rated(tpr_of))
