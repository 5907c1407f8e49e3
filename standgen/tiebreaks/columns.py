"""Tiebreak values for the whole field at once, as numpy columns.

Ranking needs every player's value of every tiebreak in the chain; a breakdown is read
for one player, on one page. For a large event (4,096 players × 12 rounds × 17
tiebreaks) computing values player by player in Python costs seconds, so this module
lays the event out once as a grid, one row per player and one column per round, and
computes each supported tiebreak's values for every row with array operations. The
breakdown (parts and note) still comes from the tiebreak's own function, built when a
page reads it (:class:`~standgen.tiebreaks.base.Value` ``source``).

The values are the same floats the per-player functions return, not approximations:
sums are taken column by column in round order (the order the per-player functions
add their parts in), a player without a counted part gets the integer 0 (``sum([])``),
and the cut rules are :func:`standgen.tiebreaks.cuts.choose_cuts`' applied to every row.
Where an event falls outside what the grid models (a game with more than two seats, two
games of a player in one round, points that are not numbers, a policy's per-game
adjustment or starting score: McMahon), :func:`values` returns None and the per-player
functions are used.
``tests/test_performance_equivalence.py`` and ``tests/test_tiebreak_columns.py`` compare
both ways on random events of every format.

numpy is imported only for an event large enough to pay for it (:data:`MIN_ENTRIES`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from standgen.model import GameKind, Outcome
from standgen.tiebreaks.base import Context

if TYPE_CHECKING:
    import numpy as np

    from standgen.records import Entry

# below this many player-rounds the per-player functions are as fast (and numpy's import
# alone costs more); tests lower it to check the columns on small events
MIN_ENTRIES = 4096

_PLAYED, _FORFEIT, _BYE, _ABSENT = 0, 1, 2, 3
_KIND = {GameKind.PLAYED: _PLAYED, GameKind.FORFEIT: _FORFEIT, GameKind.BYE: _BYE,
         GameKind.ABSENT: _ABSENT}
_WIN, _DRAW, _LOSS = 0, 1, 2
_OUTCOME = {Outcome.WIN: _WIN, Outcome.DRAW: _DRAW, Outcome.LOSS: _LOSS}


@dataclass(frozen=True)
class Grid:
    """The event as arrays: row = player (``ids`` order), column = round - 1.

    Python's ``sum`` of integers is an integer, so every value grid comes with where its
    values are integers (``points_int``, ``u_score_int``...): a sum whose counted values
    are all integers is an integer, as the per-player functions return it.

    ``present``: the player has an entry that round (``Context.entries``: the record,
    plus a withdrawn round under the policy); ``recorded``: the entry is in the record.
    ``opp``: the opponent's row, -1 for none. ``unplayed``: the round has no opponent to
    count under the policy (bye, absence, withdrawn round, forfeit unless the policy
    counts it); for those, ``voluntary`` (art. 16) and the policy's virtual opponent's
    score and SoS (``u_score``, ``u_sos``; NaN where the policy gives none).
    """

    ids: tuple[str, ...]
    present: np.ndarray
    recorded: np.ndarray
    kind: np.ndarray
    outcome: np.ndarray
    opp: np.ndarray
    points: np.ndarray
    points_int: np.ndarray
    unplayed: np.ndarray
    voluntary: np.ndarray
    u_score: np.ndarray
    u_score_int: np.ndarray
    u_sos: np.ndarray
    u_sos_int: np.ndarray
    scores: np.ndarray  # each player's primary score
    rating: np.ndarray  # each player's rating, 0 for none


def values(ctx: Context, tiebreak: str) -> Mapping[str, float] | None:
    """Return every player's value of ``tiebreak``, or None (not supported here)."""
    compute = _COMPUTE.get(tiebreak)
    if compute is None:
        return None
    grid = _grid(ctx)
    if grid is None:
        return None
    key = f"columns:{tiebreak}"
    if key not in ctx.memo:
        ctx.memo[key] = compute(ctx, grid)
    return ctx.memo[key]


def _grid(ctx: Context) -> Grid | None:
    key = ("columns", "grid")
    if key not in ctx.shared_memo:
        ctx.shared_memo[key] = _build_grid(ctx)
    grid: Grid | None = ctx.shared_memo[key]
    return grid


def _number(value: object) -> bool:
    return type(value) is float or type(value) is int


def _build_grid(ctx: Context) -> Grid | None:
    """Return the event's grid, or None when the event is outside what it models."""
    records = ctx.records
    policy = ctx.policy
    if policy.game_adjustment is not None or policy.start_score is not None:
        return None
    ids = tuple(records)
    if sum(len(r.entries) for r in records.values()) < MIN_ENTRIES:
        return None
    index = {pid: i for i, pid in enumerate(ids)}
    import numpy as np

    flat: list[Entry] = []
    rows: list[int] = []
    withdrawn: list[tuple[int, set[int]]] = []  # rows with rounds outside the record
    for i, pid in enumerate(ids):
        entries = ctx.entries(pid)
        own = records[pid].entries
        if len(own) != len(entries):
            withdrawn.append((i, {e.round for e in own}))
        flat.extend(entries)
        rows.extend([i] * len(entries))
    kind_code, outcome_code = _KIND, _OUTCOME
    cells = [(e.round, kind_code[e.game.kind], outcome_code[e.outcome], e.opponents,
              e.points) for e in flat]  # one pass over the entries, then columns
    if not cells:
        return None
    rounds, kinds, outcomes, opponents, points = (list(x) for x in zip(*cells, strict=True))
    if max(map(len, opponents)) > 1 or min(rounds) < 1:
        return None
    if not all(_number(x) for x in points):
        return None
    r = np.array(rows, dtype=np.int64)
    c = np.array(rounds, dtype=np.int64) - 1
    # one entry per round and player, in round order (the order parts are summed in)
    same_row = r[1:] == r[:-1]
    if (same_row & (c[1:] <= c[:-1])).any():
        return None
    shape = (len(ids), int(c.max()) + 1 if len(c) else 1)

    def laid(data: Any, dtype: Any, fill: Any) -> np.ndarray:
        grid = np.full(shape, fill, dtype=dtype)
        grid[r, c] = np.asarray(data, dtype=dtype)
        return grid

    kind = laid(kinds, np.int8, -1)
    present = laid(True, bool, False)
    recorded = present.copy()
    for i, own_rounds in withdrawn:
        for col in np.flatnonzero(present[i]).tolist():
            if col + 1 not in own_rounds:
                recorded[i, col] = False
    unplayed = (kind == _BYE) | (kind == _ABSENT)
    if not policy.forfeit_is_opponent:
        unplayed |= kind == _FORFEIT
    voluntary = np.zeros(shape, dtype=bool)
    u_score = np.full(shape, np.nan)
    u_sos = np.full(shape, np.nan)
    u_score_int = np.zeros(shape, dtype=bool)
    u_sos_int = np.zeros(shape, dtype=bool)
    virtual = [(fn, value, ints) for fn, value, ints in (
        (policy.unplayed_opponent_score, u_score, u_score_int),
        (policy.unplayed_opponent_sos, u_sos, u_sos_int),
    ) if fn is not None]
    for k in np.flatnonzero(unplayed[r, c]).tolist():
        entry, i, col = flat[k], rows[k], rounds[k] - 1
        voluntary[i, col] = policy.voluntary(entry)
        for fn, value, ints in virtual:
            got = fn(ctx, ids[i], entry)
            if got is None:
                continue
            if not _number(got):
                return None
            value[i, col] = got
            ints[i, col] = type(got) is int
    scores = [ctx.scores[pid] for pid in ids]
    if not all(_number(s) for s in scores):
        return None
    ratings = [records[pid].player.rating for pid in ids]
    return Grid(
        ids=ids,
        present=present,
        recorded=recorded,
        kind=kind,
        outcome=laid(outcomes, np.int8, -1),
        opp=laid([index[o[0]] if o else -1 for o in opponents], np.int64, -1),
        points=laid(points, np.float64, 0.0),
        points_int=laid([type(x) is int for x in points], bool, False),
        unplayed=unplayed,
        voluntary=voluntary,
        u_score=u_score,
        u_score_int=u_score_int,
        u_sos=u_sos,
        u_sos_int=u_sos_int,
        scores=np.array(scores, dtype=np.float64),
        rating=np.array([float(x) if x is not None and x > 0 else 0.0 for x in ratings]),
    )


# --- sums and cuts, as the per-player functions do them --------------------------------


def _sums(grid: Grid, value: np.ndarray, counted: np.ndarray,
          ints: np.ndarray | None = None) -> Mapping[str, float]:
    """Return each row's counted values summed column by column (round order), as
    Python's ``sum`` over the parts: an integer where every counted value is one
    (``ints``; the integer 0 where nothing is counted)."""
    import numpy as np

    total = np.zeros(len(grid.ids))
    for col in range(value.shape[1]):
        total = total + np.where(counted[:, col], value[:, col], 0.0)
    mixed = counted if ints is None else counted & ~ints
    whole: list[bool] = np.logical_not(mixed.any(axis=1)).tolist()
    sums: list[float] = total.tolist()
    return {pid: int(sums[i]) if whole[i] else sums[i] for i, pid in enumerate(grid.ids)}


def _cut(score: np.ndarray, value: np.ndarray, voluntary: np.ndarray, counted: np.ndarray,
         low: int, high: int, unplayed_first: bool) -> np.ndarray:
    """Return ``counted`` without the cut contributions: :func:`cuts.choose_cuts` on
    every row (the least significant (score, value) first, the earliest on ties; art.
    16.5's voluntary unplayed round first when it is worth at least as much)."""
    import numpy as np

    kept = counted.copy()
    rows = np.arange(kept.shape[0])
    inf = np.inf
    for _ in range(low):
        has = kept.any(axis=1)
        least = _first_lowest(score, value, kept)
        chosen = least
        if unplayed_first:
            pool = kept & voluntary
            has_pool = pool.any(axis=1)
            lowest = _first_lowest(value, score, pool)
            take = has_pool & (value[rows, lowest] >= value[rows, least])
            chosen = np.where(take, lowest, least)
        kept[rows[has], chosen[has]] = False
    for _ in range(high):
        has = kept.any(axis=1)
        top = np.where(kept, score, -inf).max(axis=1)
        tied = kept & (score == top[:, None])
        most = np.where(tied, value, -inf).argmax(axis=1)
        kept[rows[has], most[has]] = False
    return kept


def _first_lowest(first: np.ndarray, second: np.ndarray, among: np.ndarray) -> np.ndarray:
    """Return each row's column with the least (first, second) among ``among``, the
    earliest on ties (Python's ``min`` with a tuple key); any column where none."""
    import numpy as np

    low = np.where(among, first, np.inf).min(axis=1)
    tied = among & (first == low[:, None])
    result: np.ndarray = np.where(tied, second, np.inf).argmin(axis=1)
    return result


# --- the tiebreaks ---------------------------------------------------------------------


Keys = tuple["np.ndarray", "np.ndarray", "np.ndarray"]  # (value, integer, counted) grids


def _per_player(grid: Grid, found: Mapping[str, float] | Callable[[str], float]
                ) -> tuple[np.ndarray, np.ndarray]:
    """Return a value per player (row order) and where it is an integer."""
    import numpy as np

    get = found.__getitem__ if isinstance(found, Mapping) else found
    got = [get(pid) for pid in grid.ids]
    return (np.array(got, dtype=np.float64),
            np.array([type(x) is int for x in got], dtype=bool))


def _opponent_keys(grid: Grid, of: tuple[np.ndarray, np.ndarray],
                   unplayed: tuple[np.ndarray, np.ndarray] | None) -> Keys:
    """Return :func:`opponents.opponent_keys` as grids: an opponent round adds
    ``of[opponent]``, an unplayed round ``unplayed`` (0.0 where NaN or None)."""
    import numpy as np

    counted = grid.present & (grid.unplayed | (grid.opp >= 0))
    if unplayed is None:
        virtual = np.zeros(grid.opp.shape)
        virtual_int = np.zeros(grid.opp.shape, dtype=bool)
    else:
        virtual = np.nan_to_num(unplayed[0], nan=0.0)
        virtual_int = unplayed[1]
    value = np.where(grid.unplayed, virtual, of[0][grid.opp])
    ints = np.where(grid.unplayed, virtual_int, of[1][grid.opp])
    return value, ints, counted


def _sos_keys(ctx: Context, grid: Grid) -> Keys:
    return _opponent_keys(grid, _per_player(grid, ctx.opponent_value),
                          (grid.u_score, grid.u_score_int))


def _sos(ctx: Context, grid: Grid) -> Mapping[str, float]:
    value, ints, counted = _sos_keys(ctx, grid)
    found = _sums(grid, value, counted, ints)
    ctx.memo.setdefault("sos", found)  # what ``Context.every("sos", ...)`` computes
    return found


def _sos_cut(low: int, high: int = 0) -> Callable[[Context, Grid], Mapping[str, float]]:
    def compute(ctx: Context, grid: Grid) -> Mapping[str, float]:
        value, ints, counted = _sos_keys(ctx, grid)
        kept = _cut(value, value, grid.voluntary, counted, low, high,
                    ctx.policy.cut_unplayed_first)
        return _sums(grid, value, kept, ints)

    return compute


def _sosos(ctx: Context, grid: Grid) -> Mapping[str, float]:
    sos = values(ctx, "sos")
    assert sos is not None
    value, ints, counted = _opponent_keys(grid, _per_player(grid, sos),
                                          (grid.u_sos, grid.u_sos_int))
    return _sums(grid, value, counted, ints)


def _sos_large(ctx: Context, grid: Grid) -> Mapping[str, float]:
    """Seed 000's large-event SoS (:func:`opponents.large_event_share`)."""
    import numpy as np

    from standgen.tiebreaks.opponents import dropped_before_end

    games = max(ctx.rounds_counted, 1)
    dropped = np.array([dropped_before_end(ctx, pid) for pid in grid.ids], dtype=bool)
    share = np.where(dropped, 1.0 / games, grid.scores / games)
    value, ints, counted = _opponent_keys(grid, (share, np.zeros(share.shape, bool)), None)
    return _sums(grid, value, counted, ints)


def _shares(ctx: Context, grid: Grid) -> np.ndarray:
    """Return :func:`base.result_share` of every entry."""
    import numpy as np

    policy = ctx.policy
    if policy.share_from_points and policy.win_points > 0:
        share: np.ndarray = np.minimum(1.0, np.maximum(0.0, grid.points / policy.win_points))
        return share
    return np.select([grid.outcome == _WIN, grid.outcome == _DRAW], [1.0, 0.5], 0.0)


def _defeated_keys(ctx: Context, grid: Grid) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return :func:`defeated.defeated_keys` as (score, value, counted) grids."""
    import numpy as np

    share = _shares(ctx, grid)
    counted = grid.present & (grid.unplayed | (grid.opp >= 0))
    opponent = _per_player(grid, ctx.opponent_value)[0][grid.opp]
    if ctx.policy.defeated_counts_unplayed:
        virtual = np.isnan(grid.u_score)
        u = np.nan_to_num(grid.u_score, nan=0.0)
        u_value = np.where(virtual, 0.0, u * share)
    else:
        u = u_value = np.zeros(grid.opp.shape)
    score = np.where(grid.unplayed, u, opponent)
    value = np.where(grid.unplayed, u_value, opponent * share)
    return score, value, counted


def _defeated(ctx: Context, grid: Grid) -> Mapping[str, float]:
    _, value, counted = _defeated_keys(ctx, grid)
    return _sums(grid, value, counted)


def _sb_cut1(ctx: Context, grid: Grid) -> Mapping[str, float]:
    score, value, counted = _defeated_keys(ctx, grid)
    kept = _cut(score, value, grid.voluntary, counted, 1, 0, ctx.policy.cut_unplayed_first)
    return _sums(grid, value, kept)


def _cumulative(ctx: Context, grid: Grid) -> Mapping[str, float]:
    """Seed 000's cumulative score (:func:`progress.cumulative`)."""
    import numpy as np

    start = ctx.policy.start_score
    running = (np.array([start(ctx, pid) for pid in grid.ids], dtype=np.float64)
               if start is not None else np.zeros(len(grid.ids)))
    total = np.zeros(len(grid.ids))
    points = np.where(grid.recorded, grid.points, 0.0)
    for col in range(ctx.rounds_counted):
        if col < points.shape[1]:
            running = running + points[:, col]
        else:
            running = running + 0.0
        total = total + running
    found: Mapping[str, float] = (
        dict.fromkeys(grid.ids, 0) if ctx.rounds_counted == 0
        else {pid: float(total[i]) for i, pid in enumerate(grid.ids)}
    )
    ctx.memo.setdefault("cumulative", found)  # ``Context.every("cumulative", ...)``
    return found


def _cumulative_sos(ctx: Context, grid: Grid) -> Mapping[str, float]:
    cumulative = values(ctx, "cumulative")
    assert cumulative is not None
    value, ints, counted = _opponent_keys(grid, _per_player(grid, cumulative), None)
    return _sums(grid, value, counted, ints)


def _koya(ctx: Context, grid: Grid) -> Mapping[str, float]:
    """FIDE art. 9.2 (:func:`defeated.koya`)."""
    mark = ctx.policy.win_points * ctx.rounds_counted / 2
    strong = grid.scores[grid.opp] + 1e-9 >= mark
    counted = grid.recorded & (grid.opp >= 0) & strong
    return _sums(grid, grid.points, counted, grid.points_int)


def _wins(ctx: Context, grid: Grid) -> Mapping[str, float]:
    import numpy as np

    counted = grid.recorded & (grid.outcome == _WIN)
    return _sums(grid, np.ones(grid.opp.shape), counted)


def _won(ctx: Context, grid: Grid) -> Mapping[str, float]:
    import numpy as np

    counted = grid.recorded & (grid.outcome == _WIN) & (grid.kind == _PLAYED)
    return _sums(grid, np.ones(grid.opp.shape), counted)


def _rated(grid: Grid) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return each row's rated games played: (count, rating sum, share sum)."""
    import numpy as np

    counted = grid.recorded & (grid.kind == _PLAYED) & (grid.opp >= 0)
    rating = grid.rating[grid.opp]
    counted &= rating > 0
    share = np.select([grid.outcome == _WIN, grid.outcome == _DRAW], [1.0, 0.5], 0.0)
    total = np.zeros(len(grid.ids))
    scored = np.zeros(len(grid.ids))
    for col in range(counted.shape[1]):
        total = total + np.where(counted[:, col], rating[:, col], 0.0)
        scored = scored + np.where(counted[:, col], share[:, col], 0.0)
    return counted.sum(axis=1), total, scored


def _aro(ctx: Context, grid: Grid) -> Mapping[str, float]:
    """FIDE art. 10.1 (:func:`ratings.aro`)."""
    count, total, _ = _rated(grid)
    return {pid: 0.0 if count[i] == 0 else _round_half_up(float(total[i]) / int(count[i]))
            for i, pid in enumerate(grid.ids)}


def _tpr(ctx: Context, grid: Grid) -> Mapping[str, float]:
    """FIDE art. 10.2 (:func:`ratings.tpr`)."""
    from standgen.tiebreaks.ratings import dp

    count, total, scored = _rated(grid)
    found: dict[str, float] = {}
    diffs: dict[float, int] = {}
    for i, pid in enumerate(grid.ids):
        games = int(count[i])
        if games == 0:
            found[pid] = 0.0
            continue
        average = _round_half_up(float(total[i]) / games)
        p = float(scored[i]) / games
        if p not in diffs:
            diffs[p] = dp(p)
        found[pid] = average + diffs[p]
    return found


def _round_half_up(value: float) -> float:
    """Return ``float(ratings._round_half_up(value))``, without Decimal away from a half."""
    whole = math.floor(value)
    if abs(value - whole - 0.5) > 1e-6:
        return float(math.floor(value + 0.5))
    from standgen.tiebreaks.ratings import _round_half_up as exact

    return float(exact(value))


_COMPUTE: Mapping[str, Callable[[Context, Grid], Mapping[str, float]]] = {
    "sos": _sos,
    "sos-cut1": _sos_cut(1),
    "sos-cut2": _sos_cut(2),
    "sos-median": _sos_cut(1, 1),
    "sosos": _sosos,
    "sos-large": _sos_large,
    "sodos": _defeated,
    "sb": _defeated,
    "sb-cut1": _sb_cut1,
    "cumulative": _cumulative,
    "cumulative-sos": _cumulative_sos,
    "koya": _koya,
    "wins": _wins,
    "won": _won,
    "aro": _aro,
    "tpr": _tpr,
}
