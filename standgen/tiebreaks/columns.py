"""Tiebreak values for the whole field at once, as numpy columns.

Ranking needs every player's value of every tiebreak in the chain; a breakdown is read
for one player, on one page. For a large event (4,096 players × 12 rounds × 17
tiebreaks) computing values player by player in Python costs seconds, so this module
lays the event out once as a grid, one row per player and one column per round, and
computes each supported tiebreak's values for every row with array operations. Each
function here is a tiebreak's fast path, registered on the tiebreak itself
(``Tiebreak(..., fast=columns.sos)``): it returns every player's value, or None where
the event falls outside the grid. The breakdown (parts and note) still comes from the
tiebreak's own function, built when a page reads it (:class:`~standgen.tiebreaks.base.Value`
``source``). This module imports no tiebreak module: where a fast path needs a rule's
own formula (Koya's mark, ARO and TPR from the rated games' sums, an opponent's
large-event share), the tiebreak passes it in.

The values are the same floats the per-player functions return, not approximations:
sums are taken column by column in round order (the order the per-player functions
add their parts in), a player without a counted part gets the integer 0 (``sum([])``),
and the cut rules are :func:`standgen.tiebreaks.cuts.choose_cuts`' applied to every row.
Where an event falls outside what the grid models (a game with more than two seats, two
games of a player in one round, points that are not numbers, a policy's per-game
adjustment or starting score: McMahon), every fast path returns None and the per-player
functions are used.
``tests/test_tiebreak_columns.py`` checks every registered fast path against its
tiebreak on random events of every format.

numpy is imported only for an event large enough to pay for it (:data:`MIN_ENTRIES`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from standgen.model import GameKind, Outcome
from standgen.tiebreaks.base import Context, FieldFn

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


Field = Mapping[str, float]
GridFn = Callable[[Context, "Grid"], Field]


def _on_grid(name: str) -> Callable[[GridFn], FieldFn]:
    """Return a decorator making ``compute(ctx, grid)`` a fast path: every player's value,
    computed once per context (``ctx.memo["columns:<name>"]``), or None without a grid."""

    def decorate(compute: GridFn) -> FieldFn:
        key = f"columns:{name}"

        def fast(ctx: Context) -> Field | None:
            grid = _grid(ctx)
            if grid is None:
                return None
            if key not in ctx.memo:
                ctx.memo[key] = compute(ctx, grid)
            return ctx.memo[key]

        fast.__doc__ = compute.__doc__
        fast.__name__ = fast.__qualname__ = compute.__name__.lstrip("_")
        return fast

    return decorate


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
    if not _modelled(ctx):
        return None
    ids = tuple(records)
    flat, rows, withdrawn = _flatten(ctx, ids)
    cells = _cells(flat)
    if cells is None:
        return None
    rounds, kinds, outcomes, opponents, points = cells
    import numpy as np

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
    unplayed = (kind == _BYE) | (kind == _ABSENT)
    if not policy.forfeit_is_opponent:
        unplayed |= kind == _FORFEIT
    virtual = _virtual(ctx, ids, flat, np.flatnonzero(unplayed[r, c]).tolist(), rows, shape)
    scores = [ctx.scores[pid] for pid in ids]
    if virtual is None or not all(_number(s) for s in scores):
        return None
    index = {pid: i for i, pid in enumerate(ids)}
    return Grid(
        ids=ids,
        present=present,
        recorded=_recorded(present, withdrawn),
        kind=kind,
        outcome=laid(outcomes, np.int8, -1),
        opp=laid([index[o[0]] if o else -1 for o in opponents], np.int64, -1),
        points=laid(points, np.float64, 0.0),
        points_int=laid([type(x) is int for x in points], bool, False),
        unplayed=unplayed,
        voluntary=virtual[0],
        u_score=virtual[1],
        u_score_int=virtual[2],
        u_sos=virtual[3],
        u_sos_int=virtual[4],
        scores=np.array(scores, dtype=np.float64),
        rating=np.array(_ratings(ctx, ids)),
    )


def _modelled(ctx: Context) -> bool:
    """Return whether the grid models the event: no game adjustment or start score in
    the policy, and enough entries for the grid to pay (``MIN_ENTRIES``)."""
    policy = ctx.policy
    if policy.game_adjustment is not None or policy.start_score is not None:
        return False
    return sum(len(r.entries) for r in ctx.records.values()) >= MIN_ENTRIES


def _ratings(ctx: Context, ids: tuple[str, ...]) -> list[float]:
    """Return each player's rating, 0 for none (or none above 0)."""
    ratings = [ctx.records[pid].player.rating for pid in ids]
    return [float(x) if x is not None and x > 0 else 0.0 for x in ratings]


def _flatten(ctx: Context, ids: tuple[str, ...]
             ) -> tuple[list[Entry], list[int], list[tuple[int, set[int]]]]:
    """Return every player's entries (``Context.entries``) in row order, each entry's row,
    and the rows with rounds outside their record (withdrawn rounds) with their own rounds."""
    records = ctx.records
    flat: list[Entry] = []
    rows: list[int] = []
    withdrawn: list[tuple[int, set[int]]] = []
    for i, pid in enumerate(ids):
        entries = ctx.entries(pid)
        own = records[pid].entries
        if len(own) != len(entries):
            withdrawn.append((i, {e.round for e in own}))
        flat.extend(entries)
        rows.extend([i] * len(entries))
    return flat, rows, withdrawn


Cells = tuple[list[int], list[int], list[int], list[tuple[str, ...]], list[float]]


def _cells(flat: list[Entry]) -> Cells | None:
    """Return the entries' rounds, kinds, outcomes, opponents and points as columns, or
    None for what the grid does not model (no entry, several opponents, points that are
    not numbers)."""
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
    return rounds, kinds, outcomes, opponents, points


def _recorded(present: np.ndarray, withdrawn: list[tuple[int, set[int]]]) -> np.ndarray:
    """Return ``present`` without the withdrawn rounds (not in the player's record)."""
    import numpy as np

    recorded = present.copy()
    for i, own_rounds in withdrawn:
        for col in np.flatnonzero(present[i]).tolist():
            if col + 1 not in own_rounds:
                recorded[i, col] = False
    return recorded


def _virtual(ctx: Context, ids: tuple[str, ...], flat: list[Entry], unplayed: list[int],
             rows: list[int], shape: tuple[int, int]) -> tuple[np.ndarray, ...] | None:
    """Return the unplayed rounds' grids: voluntary, the virtual opponent's score and SoS
    (NaN where the policy gives none) and where each is an integer; None where the policy
    gives a value that is not a number."""
    import numpy as np

    policy = ctx.policy
    voluntary = np.zeros(shape, dtype=bool)
    u_score, u_sos = np.full(shape, np.nan), np.full(shape, np.nan)
    u_score_int, u_sos_int = np.zeros(shape, dtype=bool), np.zeros(shape, dtype=bool)
    virtual = [(fn, value, ints) for fn, value, ints in (
        (policy.unplayed_opponent_score, u_score, u_score_int),
        (policy.unplayed_opponent_sos, u_sos, u_sos_int),
    ) if fn is not None]
    for k in unplayed:
        entry, i, col = flat[k], rows[k], flat[k].round - 1
        voluntary[i, col] = policy.voluntary(entry)
        for fn, value, ints in virtual:
            got = fn(ctx, ids[i], entry)
            if got is None:
                continue
            if not _number(got):
                return None
            value[i, col] = got
            ints[i, col] = type(got) is int
    return voluntary, u_score, u_score_int, u_sos, u_sos_int


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
    """Return :func:`opponents.opponent_contributions` as grids: an opponent round adds
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


@_on_grid("sos")
def sos(ctx: Context, grid: Grid) -> Field:
    """Strength of schedule (:func:`opponents.sos`)."""
    value, ints, counted = _sos_keys(ctx, grid)
    found = _sums(grid, value, counted, ints)
    ctx.memo.setdefault("sos", found)  # what ``Context.every("sos", ...)`` computes
    return found


def sos_cut(low: int, high: int = 0) -> FieldFn:
    """Return the fast path of SoS with ``low`` lowest and ``high`` highest contributions
    cut (:func:`opponents.sos_cut`)."""

    @_on_grid(f"sos-cut:{low}:{high}")
    def compute(ctx: Context, grid: Grid) -> Field:
        value, ints, counted = _sos_keys(ctx, grid)
        kept = _cut(value, value, grid.voluntary, counted, low, high,
                    ctx.policy.cut_unplayed_first)
        return _sums(grid, value, kept, ints)

    return compute


@_on_grid("sosos")
def sosos(ctx: Context, grid: Grid) -> Field:
    """The sum of opponents' SoS (:func:`opponents.sosos`)."""
    of = sos(ctx)
    assert of is not None
    value, ints, counted = _opponent_keys(grid, _per_player(grid, of),
                                          (grid.u_sos, grid.u_sos_int))
    return _sums(grid, value, counted, ints)


def opponent_sum(share: Callable[[Context], Callable[[str], float]]) -> FieldFn:
    """Return the fast path of :func:`opponents.opponent_sum` over ``share(ctx)``, each
    opponent's value (an unplayed round adds 0): seed 000's large-event SoS."""

    @_on_grid(f"opponent-sum:{share.__module__}.{share.__qualname__}")
    def compute(ctx: Context, grid: Grid) -> Field:
        value, ints, counted = _opponent_keys(grid, _per_player(grid, share(ctx)), None)
        return _sums(grid, value, counted, ints)

    return compute


def _shares(ctx: Context, grid: Grid) -> np.ndarray:
    """Return :func:`base.result_share` of every entry."""
    import numpy as np

    policy = ctx.policy
    if policy.share_from_points and policy.win_points > 0:
        share: np.ndarray = np.minimum(1.0, np.maximum(0.0, grid.points / policy.win_points))
        return share
    return np.select([grid.outcome == _WIN, grid.outcome == _DRAW], [1.0, 0.5], 0.0)


def _defeated_keys(ctx: Context, grid: Grid) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return :func:`defeated.compute_defeated`'s contributions as (score, value, counted)
    grids."""
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


@_on_grid("defeated")
def defeated(ctx: Context, grid: Grid) -> Field:
    """SODOS and Sonneborn-Berger (:func:`defeated.compute_defeated`)."""
    _, value, counted = _defeated_keys(ctx, grid)
    return _sums(grid, value, counted)


@_on_grid("sb-cut1")
def sb_cut1(ctx: Context, grid: Grid) -> Field:
    """Sonneborn-Berger cut-1 (:func:`defeated.sonneborn_berger_cut1`)."""
    score, value, counted = _defeated_keys(ctx, grid)
    kept = _cut(score, value, grid.voluntary, counted, 1, 0, ctx.policy.cut_unplayed_first)
    return _sums(grid, value, kept)


@_on_grid("cumulative")
def cumulative(ctx: Context, grid: Grid) -> Field:
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
    found: Field = (
        dict.fromkeys(grid.ids, 0) if ctx.rounds_counted == 0
        else {pid: float(total[i]) for i, pid in enumerate(grid.ids)}
    )
    ctx.memo.setdefault("cumulative", found)  # ``Context.every("cumulative", ...)``
    return found


@_on_grid("cumulative-sos")
def cumulative_sos(ctx: Context, grid: Grid) -> Field:
    """Seed 000's cumulative SoS (:func:`progress.cumulative_sos`)."""
    of = cumulative(ctx)
    assert of is not None
    value, ints, counted = _opponent_keys(grid, _per_player(grid, of), None)
    return _sums(grid, value, counted, ints)


def koya(mark: Callable[[Context], float]) -> FieldFn:
    """Return the fast path of FIDE art. 9.2's Koya (:func:`defeated.koya`), whose 50 %
    mark is ``mark(ctx)``."""

    @_on_grid("koya")
    def compute(ctx: Context, grid: Grid) -> Field:
        strong = grid.scores[grid.opp] + 1e-9 >= mark(ctx)
        counted = grid.recorded & (grid.opp >= 0) & strong
        return _sums(grid, grid.points, counted, grid.points_int)

    return compute


@_on_grid("wins")
def wins(ctx: Context, grid: Grid) -> Field:
    """FIDE art. 7.1 (:func:`results.wins`)."""
    import numpy as np

    counted = grid.recorded & (grid.outcome == _WIN)
    return _sums(grid, np.ones(grid.opp.shape), counted)


@_on_grid("won")
def won(ctx: Context, grid: Grid) -> Field:
    """FIDE art. 7.2 (:func:`results.won`)."""
    import numpy as np

    counted = grid.recorded & (grid.outcome == _WIN) & (grid.kind == _PLAYED)
    return _sums(grid, np.ones(grid.opp.shape), counted)


def _rated(grid: Grid, unrated: float | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return each row's rated games played: (count, rating sum, share sum); an unrated
    opponent counts at ``unrated`` when it is not None."""
    import numpy as np

    counted = grid.recorded & (grid.kind == _PLAYED) & (grid.opp >= 0)
    rating = grid.rating[grid.opp]
    if unrated is None:
        counted &= rating > 0
    else:
        rating = np.where(rating > 0, rating, unrated)
    share = np.select([grid.outcome == _WIN, grid.outcome == _DRAW], [1.0, 0.5], 0.0)
    total = np.zeros(len(grid.ids))
    scored = np.zeros(len(grid.ids))
    for col in range(counted.shape[1]):
        total = total + np.where(counted[:, col], rating[:, col], 0.0)
        scored = scored + np.where(counted[:, col], share[:, col], 0.0)
    return counted.sum(axis=1), total, scored


def rated(finish: Callable[[int, float, float], float]) -> FieldFn:
    """Return the fast path of a rating-based tiebreak (FIDE art. 10, :mod:`ratings`):
    ``finish(games, rating sum, points)`` over each player's rated games played."""

    @_on_grid(f"rated:{finish.__name__}")
    def compute(ctx: Context, grid: Grid) -> Field:
        unrated = ctx.event.config.options.get("unrated_rating")
        count, total, scored = _rated(grid, None if unrated is None else float(unrated))
        counts: list[int] = count.tolist()
        totals: list[float] = total.tolist()
        points: list[float] = scored.tolist()
        return {pid: finish(counts[i], totals[i], points[i]) for i, pid in enumerate(grid.ids)}

    return compute
