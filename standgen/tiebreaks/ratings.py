"""Rating-based tiebreaks: average rating of opponents (ARO) and performance (TPR)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal

from standgen import perf
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

    if not games:
        return _value(0.0, parts, "no rated opponent")
    average = sum(g[2] for g in games) / len(games)
    return _value(float(_round_half_up(average)), parts,
                  f"÷ {len(games)} rated games, rounded")


def _value(value: float, parts: Callable[[], list[Part]], note: str) -> Value:
    """Return the value, its parts built when read (at once with optimisations off)."""
    if not perf.enabled():
        return Value(value, tuple(parts()), note)
    return Value(value, note=note, build=parts)


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

    if not games:
        return _value(0.0, parts, "no rated opponent")
    average = float(_round_half_up(sum(g[2] for g in games) / len(games)))
    scored = sum(g[3] for g in games)
    p = scored / len(games)
    diff = dp(p)
    return _value(average + diff, parts,
                  f"ARO {average:g} + dp({float(_round_half_up(p, 2)):g}) {diff:+d}")


ARO = Tiebreak("aro", "Average rating of opponents", "ARO", aro)
TPR = Tiebreak("tpr", "Tournament performance rating", "TPR", tpr)
