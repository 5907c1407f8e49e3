"""Ratings across a club's events (issue #20).

- **OpenSkill** (the ``openskill`` package, Weng and Lin's Bayesian ranking): one model,
  Plackett-Luce with the package's documented defaults (mu 25, sigma 25/3, beta 25/6,
  tau 25/300), for two-player games and seven-player Diplomacy boards alike. A game is
  rated as one ranking of its seats: a win over a loss, a draw as a tie; a Diplomacy
  board ranks its seats by the points the event gave them. Byes, absences and forfeits
  are not rated (nothing was played). The rating shown is the ordinal, mu - 3 sigma
  (the package's conservative estimate). Events are rated in date order, then path; the
  games of one round are rated together against the ratings before that round, so the
  result never depends on the order of events held on the same date with different
  players, nor on table order. An event with ``rated = false`` under ``[options]`` is
  left out.
- **FIDE rating change** of a chess game: ``K x (W - We)`` (FIDE Rating Regulations,
  B.02 art. 8.3), ``We`` from the table of art. 8.1.2 for the rating difference, a
  difference over 400 counted as 400 (art. 8.3.1); K = 20 below 2400 and 10 from 2400
  (art. 8.3.3; the K of 40 for new and young players needs a player's history the
  event's files do not hold).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain

import numpy as np
import pandas as pd
from openskill.models import PlackettLuce

from standgen.clubs.fide import (
    _FIDE_BANDS,
    _FIDE_EXPECTED,
    SCORE,
    fide_change,
    fide_expected,
    fide_k,
)
from standgen.clubs.plackett_luce import Rating, places, rate_pairs
from standgen.formats import FORMATS

__all__ = ["RATED_KINDS", "SCORE", "fide_change", "fide_changes", "fide_expected", "fide_k",
           "openskill_ratings"]

RATED_KINDS = ("played",)


# the formats whose games take FIDE ratings (``Format.ratings``: chess)
FIDE_RATED = tuple(f.id for f in FORMATS.values() if f.ratings == "fide")

def fide_changes(games: pd.DataFrame) -> pd.Series:
    """Return the FIDE rating change of each rated chess row of the tidy table (NaN for
    other rows: other formats, unplayed games, unrated players or opponents); the same
    rule as :func:`fide_change`, for whole columns at once."""
    changes = pd.Series(np.nan, index=games.index, dtype="float64")
    chess = (games["format"].isin(FIDE_RATED) & (games["kind"] == "played")
             & games["rating"].notna())
    if not chess.any():  # (an archive without a rated chess game may hold no strings)
        return changes
    opponents = games["opponent_ratings"].where(chess, "").astype(str)
    chess &= (opponents != "") & ~opponents.str.contains(";", regex=False)
    if not chess.any():
        return changes
    rating = games.loc[chess, "rating"].astype("float64").to_numpy()
    opponent = games.loc[chess, "opponent_ratings"].astype("float64").to_numpy()
    score = games.loc[chess, "outcome"].map(SCORE).astype("float64").to_numpy()
    difference = np.minimum(np.abs(np.round(rating - opponent)), 400)
    band = np.searchsorted(np.array(_FIDE_BANDS), difference, side="left")
    high = np.array((*_FIDE_EXPECTED, 1.0))[band]
    expected = np.where(rating >= opponent, high, np.round(1.0 - high, 2))
    k = np.where(rating >= 2400, 10, 20)
    changes[chess] = np.round(k * (score - expected), 1)
    return changes


def openskill_ratings(games: pd.DataFrame, opted_out: Iterable[str] = (), fast: bool = True
                      ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Return (the rating list, each rated row's rating change) for the tidy table.

    The list has a row per player: ``player``, ``name``, ``mu``, ``sigma``, ``rating``
    (the ordinal mu - 3 sigma, rounded to 2 places), ``games``, ``last`` (date of their
    last rated game), best first. The changes have ``event``, ``round``, ``table``,
    ``player``, ``before``, ``after`` and ``change`` (ordinals), in the order rated (date,
    event, round, table, player). Events in ``opted_out`` (``rated = false``) are left
    out. ``fast`` False rates two-player games by the package too (the fast path's
    reference: the numbers are the same).
    """
    rated = _rated_rows(games, opted_out)
    olds, news = _rate_rows(rated, fast)
    before, after = _ordinals(olds), _ordinals(news)
    changes = pd.DataFrame({
        "event": rated["event"], "round": rated["round"], "table": rated["table"],
        "player": rated["player"], "before": _rounded(before), "after": _rounded(after),
        "change": _rounded(after - before)},
        columns=["event", "round", "table", "player", "before", "after", "change"])
    changes.index = pd.RangeIndex(len(changes))
    # each player's newest rating, name and date: their last row in the order rated
    final = rated.assign(mu=news[:, 0], sigma=news[:, 1]).drop_duplicates("player", keep="last")
    counts = rated["player"].value_counts()
    listing = pd.DataFrame({
        "player": final["player"], "name": final["name"],
        "mu": _rounded(final["mu"].to_numpy(), 4), "sigma": _rounded(final["sigma"].to_numpy(), 4),
        "rating": _rounded(_ordinals(final[["mu", "sigma"]].to_numpy()), 2),
        "games": counts.reindex(final["player"]).to_numpy().astype("int64"),
        "last": final["date"]}, columns=["player", "name", "mu", "sigma", "rating", "games",
                                          "last"])
    listing = listing.sort_values(["rating", "player"], ascending=[False, True],
                                  ignore_index=True)
    return listing, changes


_KEYS = ("date", "event", "round", "table", "player")  # the order games are rated in


def _rated_rows(games: pd.DataFrame, opted_out: Iterable[str]) -> pd.DataFrame:
    """Return the rows to rate (played, not opted out), in the order rated: date, event,
    round, table, player (a stable sort, so equal keys keep the table's order)."""
    keep = games["kind"].isin(RATED_KINDS) & ~games["event"].isin(list(opted_out))
    rated = games.loc[keep, [*_KEYS, "name", "outcome", "points"]]
    order = np.lexsort([_codes(rated[key]) for key in reversed(_KEYS)])
    return rated.iloc[order].reset_index(drop=True)


def _codes(column: pd.Series) -> np.ndarray:
    """Return integers that sort as ``column`` does (its own values, or its rank)."""
    if pd.api.types.is_integer_dtype(column):
        return np.asarray(column.to_numpy(), dtype="int64")
    return np.asarray(pd.factorize(column, sort=True)[0], dtype="int64")


def _rate_rows(rated: pd.DataFrame, fast: bool) -> tuple[np.ndarray, np.ndarray]:
    """Return each row's (mu, sigma) before and after its game, rows as ``rated`` orders
    them: round by round, each against the ratings before the round, table by table."""
    n = len(rated)
    keys = [_codes(rated[key]) for key in _KEYS[:4]]
    new_round = np.zeros(n, dtype=bool)
    new_round[:1] = True
    for key in keys[:3]:
        new_round[1:] |= key[1:] != key[:-1]
    new_table = new_round.copy()
    new_table[1:] |= keys[3][1:] != keys[3][:-1]
    rounds = [*np.flatnonzero(new_round).tolist(), n]
    tables = [*np.flatnonzero(new_table).tolist(), n]
    players = rated["player"].tolist()
    values = [SCORE.get(str(o), 0.0) for o in rated["outcome"].tolist()]
    points = [float(p) for p in rated["points"].tolist()]
    model = PlackettLuce()
    start = (model.mu, model.sigma)
    ratings: dict[str, Rating] = {}
    olds: list[Rating] = [start] * n
    news: list[Rating] = [start] * n
    k = 0
    for first, last in zip(rounds, rounds[1:], strict=False):
        olds[first:last] = [ratings.get(pid, start) for pid in players[first:last]]
        pairs = []
        while tables[k] < last:
            i, j = tables[k], tables[k + 1]
            k += 1
            if fast and j - i == 2:
                pairs.append(i)
                continue
            news[i:j] = _rate(model, olds[i:j], places(values[i:j] if j - i == 2
                                                          else points[i:j]))
        if pairs:
            _rate_pairs(pairs, values, olds, news)
        ratings.update(zip(players[first:last], news[first:last], strict=True))
    return _pairs_array(olds), _pairs_array(news)


def _pairs_array(ratings: list[Rating]) -> np.ndarray:
    """Return the (mu, sigma) pairs as an n x 2 array."""
    flat = np.fromiter(chain.from_iterable(ratings), dtype="float64", count=2 * len(ratings))
    return flat.reshape(len(ratings), 2)


def _rate_pairs(pairs: list[int], values: list[float], olds: list[Rating],
                news: list[Rating]) -> None:
    """Rate the two-player games of one round that start at the rows ``pairs`` by the
    fast path (:func:`standgen.clubs.plackett_luce.rate_pairs`), winner first."""
    swap = [values[i] < values[i + 1] for i in pairs]
    firsts = [i + 1 if s else i for i, s in zip(pairs, swap, strict=True)]
    seconds = [i if s else i + 1 for i, s in zip(pairs, swap, strict=True)]
    draw = np.array([values[i] == values[i + 1] for i in pairs], dtype=bool)
    first = np.array([olds[i] for i in firsts], dtype="float64").reshape(len(pairs), 2)
    second = np.array([olds[i] for i in seconds], dtype="float64").reshape(len(pairs), 2)
    mu_a, sigma_a, mu_b, sigma_b = rate_pairs(first[:, 0], first[:, 1], second[:, 0],
                                              second[:, 1], draw)
    for i, mu, sigma in zip(firsts, mu_a.tolist(), sigma_a.tolist(), strict=True):
        news[i] = (mu, sigma)
    for i, mu, sigma in zip(seconds, mu_b.tolist(), sigma_b.tolist(), strict=True):
        news[i] = (mu, sigma)


def _ordinals(ratings: np.ndarray) -> np.ndarray:
    """Return :func:`~standgen.clubs.plackett_luce.ordinal` of each (mu, sigma) row: the
    same floating-point operations, a column at a time."""
    return (ratings[:, 0] - 3.0 * ratings[:, 1]) + 0.0


def _rounded(values: np.ndarray, digits: int = 2) -> list[float]:
    """Return Python's ``round(value, digits)`` of each value, a column at a time.

    ``round`` is correctly rounded: the double nearest the decimal ``d / 10**digits``, d
    the nearest integer to ``value * 10**digits``. numpy's ``rint(value * 10**digits) /
    10**digits`` is the same double whenever the product's own rounding cannot move it
    across a half (IEEE 754 division is correctly rounded too); values near a half,
    large or not finite are rounded by ``round`` itself. ``tests/test_clubs.py`` checks
    the two agree.
    """
    scale = 10.0**digits
    with np.errstate(all="ignore"):  # overflow and NaN: left to round() below
        scaled = values * scale
        quick: list[float] = (np.rint(scaled) / scale).tolist()
        fraction = np.abs(scaled - np.trunc(scaled))
    # below 2**30 the product is within 2**-23 of value x 10**digits: a fraction more
    # than 1e-6 from a half is on the same side of it as the exact product's
    doubtful = ~((np.abs(fraction - 0.5) > 1e-6) & (np.abs(scaled) < 2.0**30))
    for i in np.flatnonzero(doubtful).tolist():
        quick[i] = round(float(values[i]), digits)
    return quick


def _rate(model: PlackettLuce, olds: list[Rating], places: list[float]) -> list[Rating]:
    """Return the seats' new ratings after one game by the package's ``rate`` (Weng and
    Lin 2011, Algorithm 4): the rule. A two-player game has a faster path that equals it
    bit for bit (:func:`standgen.clubs.plackett_luce.rate_pairs`, used unless
    :func:`openskill_ratings` is asked not to be ``fast``; ``tests/test_clubs.py`` proves
    the two equal)."""
    teams = model.rate([[model.rating(mu=mu, sigma=sigma)] for mu, sigma in olds],
                       ranks=places)
    return [(team[0].mu, team[0].sigma) for team in teams]

