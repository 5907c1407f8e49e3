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

import bisect
from collections.abc import Iterable
from itertools import groupby

import numpy as np
import pandas as pd
from openskill.models import PlackettLuce

from standgen.clubs.plackett_luce import Rating, ordinal, rate_two

RATED_KINDS = ("played",)

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


def fide_changes(games: pd.DataFrame) -> pd.Series:
    """Return the FIDE rating change of each rated chess row of the tidy table (NaN for
    other rows: other formats, unplayed games, unrated players or opponents); the same
    rule as :func:`fide_change`, for whole columns at once."""
    changes = pd.Series(np.nan, index=games.index, dtype="float64")
    chess = ((games["format"] == "swiss") & (games["kind"] == "played")
             & games["rating"].notna() & (games["opponent_ratings"] != "")
             & ~games["opponent_ratings"].str.contains(";", regex=False))
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


def openskill_ratings(games: pd.DataFrame, opted_out: Iterable[str] = ()
                      ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Return (the rating list, each rated row's rating change) for the tidy table.

    The list has a row per player: ``player``, ``name``, ``mu``, ``sigma``, ``rating``
    (the ordinal mu - 3 sigma, rounded to 2 places), ``games``, ``last`` (date of their
    last rated game), best first. The changes have ``event``, ``round``, ``table``,
    ``player``, ``before``, ``after`` and ``change`` (ordinals). Events in ``opted_out``
    (``rated = false``) are left out.
    """
    model = PlackettLuce()
    rated = games[games["kind"].isin(RATED_KINDS) & ~games["event"].isin(list(opted_out))]
    rated = rated.sort_values(["date", "event", "round", "table", "player"], kind="stable")
    columns = ("date", "event", "round", "table", "player", "name", "outcome", "points")
    values = zip(*(rated[c].tolist() for c in columns), strict=True)
    start = (model.mu, model.sigma)
    ratings: dict[str, Rating] = {}
    counts: dict[str, int] = {}
    last: dict[str, str] = {}
    names: dict[str, str] = {}
    changes: list[tuple[object, ...]] = []
    # the seats of each round, table by table: rated against the ratings before the round
    for _, round_seats in groupby(values, key=lambda v: (v[0], v[1], v[2])):
        seats = list(round_seats)
        before = {v[4]: ratings.get(v[4], start) for v in seats}
        for _, table_seats in groupby(seats, key=lambda v: v[3]):
            at_table = list(table_seats)
            olds = [before[v[4]] for v in at_table]
            news = _rate(model, olds, _places(at_table))
            for v, old, new in zip(at_table, olds, news, strict=True):
                pid = v[4]
                ratings[pid] = new
                counts[pid] = counts.get(pid, 0) + 1
                last[pid], names[pid] = str(v[0]), str(v[5])
                changes.append((v[1], int(v[2]), int(v[3]), pid, round(ordinal(old), 2),
                                round(ordinal(new), 2), round(ordinal(new) - ordinal(old), 2)))
    listing = pd.DataFrame(
        [{"player": pid, "name": names[pid], "mu": round(r[0], 4),
          "sigma": round(r[1], 4), "rating": round(ordinal(r), 2),
          "games": counts[pid], "last": last[pid]} for pid, r in ratings.items()],
        columns=["player", "name", "mu", "sigma", "rating", "games", "last"])
    listing = listing.sort_values(["rating", "player"], ascending=[False, True],
                                  ignore_index=True)
    return listing, pd.DataFrame(changes, columns=["event", "round", "table", "player",
                                                   "before", "after", "change"])


def _rate(model: PlackettLuce, olds: list[Rating], places: list[float]) -> list[Rating]:
    """Return the seats' new ratings after one game: a two-player game by the fast path
    that equals the package bit for bit (:mod:`standgen.clubs.plackett_luce`), a board
    of more seats by the package."""
    if len(olds) == 2:
        score = 0.5 if places[0] == places[1] else (1.0 if places[0] < places[1] else 0.0)
        first, second = rate_two(olds[0], olds[1], score)
        return [first, second]
    teams = model.rate([[model.rating(mu=mu, sigma=sigma)] for mu, sigma in olds],
                       ranks=places)
    return [(team[0].mu, team[0].sigma) for team in teams]


def _places(seats: list[tuple[object, ...]]) -> list[float]:
    """Return each seat's place at its table (0 best; ties share a place): a two-player
    game by its outcome, a Diplomacy board by the points the event gave each seat."""
    if len(seats) == 2:
        value = [SCORE.get(str(v[6]), 0.0) for v in seats]
    else:
        value = [float(str(v[7])) for v in seats]
    ordered = sorted(set(value), reverse=True)
    return [float(ordered.index(v)) for v in value]
