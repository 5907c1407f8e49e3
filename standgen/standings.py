"""Standings: players ordered by score, then by the event's tiebreak chain.

Ties that no tiebreak separates share a rank (1, 2, 2, 4), as the data contract says.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial

from standgen.formats import format_of as format_of  # re-exported: callers read it here
from standgen.formats.base import Format
from standgen.model import Event, Outcome, Player
from standgen.pairing.state import PairingInput
from standgen.records import Record, build_records, counted_rounds
from standgen.stages.bracket import double_elimination, single_elimination
from standgen.stages.cut import Cut, cut_of, qualifiers
from standgen.stages.progress import BracketState, cut_order, play
from standgen.tiebreaks import TIEBREAKS
from standgen.tiebreaks.base import Context, Value
from standgen.tiebreaks.ratings import RATING_TIEBREAKS, rating_tiebreaks_dropped

_PRECISION = 9  # values equal to 9 decimals are ties (floats from divisions)


class TiebreakValues(Mapping[str, Value]):
    """A standing's tiebreak values by id, in chain order.

    A value computed for the whole field at once (a tiebreak's ``fast`` path) is
    kept as a number until it is read; it then becomes a :class:`Value` whose breakdown
    the tiebreak's own function builds (4,096 players × 17 tiebreaks are 70,000 values,
    of which ranking reads numbers only and a page one player's breakdowns).

    With ``fill``, a value ranking did not need (the player was no longer tied) is
    computed when first read: the standings after each earlier round and the tiebreak
    lab's chains are read only for their ranks, so most of their values never are.
    ``order`` is then the ids in the order the values iterate.
    """

    __slots__ = ("_context", "_player", "_raw", "_fill", "_order")

    def __init__(
        self, context: Context, player: str, raw: dict[str, Value | float],
        fill: Callable[[str, str], Value | float] | None = None,
        order: tuple[str, ...] | None = None,
    ) -> None:
        self._context = context
        self._player = player
        self._raw = raw
        self._fill = fill
        self._order = order

    def __getitem__(self, tiebreak: str) -> Value:
        got = self._raw.get(tiebreak)
        if got is None:
            if self._fill is None or self._order is None or tiebreak not in self._order:
                raise KeyError(tiebreak)
            got = self._raw[tiebreak] = self._fill(self._player, tiebreak)
        if isinstance(got, Value):
            return got
        made = Value(got, source=partial(TIEBREAKS[tiebreak].compute, self._context,
                                         self._player))
        self._raw[tiebreak] = made  # once made, the same Value for every reader
        return made

    def raw(self) -> Mapping[str, Value | float]:
        """Return the values computed so far, as kept: numbers not read yet, :class:`Value`
        otherwise."""
        return self._raw

    def __contains__(self, tiebreak: object) -> bool:
        return tiebreak in (self._raw if self._order is None else self._order)

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw if self._order is None else self._order)

    def __len__(self) -> int:
        return len(self._raw if self._order is None else self._order)

    def __repr__(self) -> str:
        return f"TiebreakValues({dict(self.items())!r})"


@dataclass(frozen=True)
class Standing:
    """One row of the standings."""

    rank: int
    player: Player
    score: float
    values: Mapping[str, Value]  # tiebreak id -> value and breakdown
    record: Record

    @property
    def wins(self) -> int:
        return self.record.count(Outcome.WIN)

    @property
    def draws(self) -> int:
        return self.record.count(Outcome.DRAW)

    @property
    def losses(self) -> int:
        return self.record.count(Outcome.LOSS)


@dataclass(frozen=True)
class Standings:
    """The standings of one event after the games that have results."""

    event: Event
    format: Format
    rows: tuple[Standing, ...]
    tiebreaks: tuple[str, ...]
    context: Context
    rounds_complete: int  # rounds 1..N are complete
    planned_rounds: int
    finished: bool  # no further round will be paired

    @property
    def records(self) -> Mapping[str, Record]:
        return self.context.records

    def row(self, player: str) -> Standing | None:
        for row in self.rows:
            if row.player.id == player:
                return row
        return None


def tiebreak_chain(event: Event) -> tuple[str, ...]:
    """Return the event's tiebreak ids: event.toml ``tiebreaks`` or the format's default,
    without ARO and TPR when a player is unrated and the event gives unrated players no
    rating (FIDE C.07 art. 10, :func:`standgen.tiebreaks.ratings.rating_tiebreaks_dropped`)."""
    chain = event.config.tiebreaks or format_of(event).default_tiebreaks
    if any(t in RATING_TIEBREAKS for t in chain) and rating_tiebreaks_dropped(event):
        chain = tuple(t for t in chain if t not in RATING_TIEBREAKS)
    return tuple(t for t in chain if t != "score")


def planned_rounds(event: Event) -> int:
    """Return the planned rounds: event.toml ``rounds`` or the format's rule by player count."""
    if event.config.rounds is not None:
        return event.config.rounds
    field = sum(1 for p in event.players if not p.spare)
    return format_of(event).planned_rounds(field, event.config)


def compute_standings(event: Event, upto: int | None = None, fast: bool = True) -> Standings:
    """Return the standings over finished games of rounds ``1..upto`` (default: all).

    ``fast`` (the default) shares records and tiebreak work, uses the tiebreaks' fast
    paths, computes only the values ranking needs (the rest when read) and pauses the
    garbage collector meanwhile (:func:`_collector_paused`); False is the straightforward
    reference (``standgen.perf.straightforward()``, passed down by the pipeline). Both
    give the same standings.
    """
    return _collector_paused(fast, lambda: _compute_standings(event, upto, fast))


def _collector_paused(pause: bool, compute: Callable[[], Standings]) -> Standings:
    """Return ``compute()``, run with Python's cyclic garbage collector paused (if it was
    running).

    Ranking a large event allocates hundreds of thousands of small objects that live
    until the standings are dropped; each allocation burst triggers collections that
    walk every object already alive (the event's games and entries), which doubled the
    time of the 4,096-player standings. Reference counting still frees what dies; the
    few cycles made meanwhile (a lazy breakdown holds its context) wait for the next
    collection after the block. Nested use is harmless; ``pause`` False does nothing.
    """
    if not pause or not gc.isenabled():
        return compute()
    gc.disable()
    try:
        return compute()
    finally:
        gc.enable()


def _compute_standings(event: Event, upto: int | None, fast: bool) -> Standings:
    """Return the standings; with a cut (``[options.cut]``), the Swiss standings frozen
    after its last round, the cut's players then ordered by the bracket."""
    cut = cut_of(event.config)
    if cut is None:
        return _swiss_standings(event, upto, fast)
    swiss = _swiss_standings(event, cut.after_round if upto is None
                             else min(upto, cut.after_round), fast)
    if swiss.rounds_complete < cut.after_round:
        return replace(swiss, finished=False)  # the Swiss is still on
    state = _bracket_state(event, cut, swiss, upto)
    order = cut_order(state, [row.player.id for row in swiss.rows])
    by_id = {row.player.id: row for row in swiss.rows}
    cut_players = set(state.seeds)
    rows = tuple(replace(by_id[pid], rank=k if pid in cut_players else by_id[pid].rank)
                 for k, pid in enumerate(order, start=1))
    complete = counted_rounds(event) if upto is None else min(counted_rounds(event), upto)
    return replace(swiss, rows=rows, rounds_complete=max(complete, swiss.rounds_complete),
                   planned_rounds=cut.after_round + state.bracket.rounds,
                   finished=state.finished)


def cut_state(event: Event, upto: int | None = None) -> BracketState | None:
    """Return the event's cut bracket after rounds ``1..upto``, or None (no cut, or the
    Swiss is not over). MTR 10.4: seeded by the final Swiss standings."""
    cut = cut_of(event.config)
    if cut is None:
        return None
    swiss = _swiss_standings(event, cut.after_round if upto is None
                             else min(upto, cut.after_round), fast=True)
    if swiss.rounds_complete < cut.after_round:
        return None
    return _bracket_state(event, cut, swiss, upto)


def _bracket_state(event: Event, cut: Cut, swiss: Standings, upto: int | None) -> BracketState:
    seeds = qualifiers(cut, [row.player.id for row in swiss.rows], swiss.context.scores,
                       {row.player.id: row.rank for row in swiss.rows})
    bracket = (double_elimination(len(seeds)) if cut.bracket == "double"
               else single_elimination(len(seeds), cut.third_place))
    rounds = [r for r in event.rounds if upto is None or r.number <= upto]
    return play(bracket, seeds, cut.after_round, rounds)


def _swiss_standings(event: Event, upto: int | None, fast: bool) -> Standings:
    fmt = format_of(event)
    records = build_records(event, fmt, upto, shared=fast)
    complete = counted_rounds(event)
    if upto is not None:
        complete = min(complete, upto)
    played = max((e.round for r in records.values() for e in r.entries), default=0)
    ctx = Context(
        event=event,
        records=records,
        policy=fmt.tiebreak_policy(event),
        rounds_counted=max(complete, played),
        planned_rounds=planned_rounds(event),
        scores={pid: fmt.total_score(r, event.config) if fmt.total_score else r.score
                for pid, r in records.items()},
        fast=fast,
    )
    return _ranked(event, fmt, ctx, tiebreak_chain(event), complete, upto, {})


def rerank(standings: Standings, chain: Sequence[str]) -> Standings:
    """Return ``standings`` ranked by another tiebreak chain (the tiebreak lab).

    The same as :func:`compute_standings` on the event with ``tiebreaks = chain``, but
    the records, the tiebreak context and every value already computed are reused (a
    value depends on the player, never on the chain, except a group tiebreak such as
    ``direct``, which is recomputed for its new groups).
    """
    event = replace(standings.event, config=replace(standings.event.config,
                                                    tiebreaks=tuple(chain)))
    fast = standings.context.fast
    if not fast or standings.rounds_complete != counted_rounds(event):
        return compute_standings(event, fast=fast)
    known = {
        row.player.id: {tb: value for tb, value in _raw(row.values).items()
                        if TIEBREAKS[tb].compute_group is None}
        for row in standings.rows
    }
    return _collector_paused(fast, lambda: _ranked(
        event, standings.format, standings.context, tiebreak_chain(event),
        standings.rounds_complete, None, known))


def _raw(values: Mapping[str, Value]) -> Mapping[str, Value | float]:
    return values.raw() if isinstance(values, TiebreakValues) else values


def _ranked(
    event: Event, fmt: Format, ctx: Context, chain: tuple[str, ...], complete: int,
    upto: int | None, known: Mapping[str, Mapping[str, Value | float]],
) -> Standings:
    """Return the standings: players ranked, ``finished`` set.

    The reference path (optimisations off) computes every tiebreak of ``chain`` (or
    takes it from ``known``) for every player first; with optimisations on, a value is
    computed only when ranking needs it (the player is still tied) or a reader asks
    (:class:`TiebreakValues`).
    """
    records = ctx.records
    ranked = [pid for pid, rec in records.items() if not rec.player.spare]
    values: dict[str, dict[str, Value | float]] = {pid: {} for pid in ranked}
    fill = _Fill(ctx, known) if ctx.fast else None
    if fill is None:
        for tb_id in chain:
            tb = TIEBREAKS[tb_id]
            if tb.compute_group is not None:
                continue
            for pid in ranked:
                have = known.get(pid, {}).get(tb_id) if known else None
                values[pid][tb_id] = have if have is not None else tb.compute(ctx, pid)
    groups = fmt.rank_groups(event, upto) if fmt.rank_groups is not None else {}
    order = _rank(ctx, ranked, chain, values, groups, fill)
    # the order the values iterate in: as the reference path fills them in
    ids = tuple(dict.fromkeys(
        [t for t in chain if TIEBREAKS[t].compute_group is None]
        + [t for t in chain if TIEBREAKS[t].compute_group is not None]))
    rows = tuple(
        Standing(rank=rank, player=records[pid].player, score=ctx.scores[pid],
                 values=TiebreakValues(ctx, pid, values[pid], fill, ids if fill else None),
                 record=records[pid])
        for rank, pid in order
    )
    standings = Standings(
        event=event, format=fmt, rows=rows, tiebreaks=chain, context=ctx,
        rounds_complete=complete, planned_rounds=ctx.planned_rounds, finished=False,
    )
    return _with_finished(standings)


class _Fill:
    """Computes one player's value of one tiebreak, when first needed: from ``known``
    (the tiebreak lab's values of the event's own chain), else from the whole field's
    values at once where the tiebreak has a fast path that models the event
    (``Tiebreak.fast``; kept as a number, its breakdown then comes from the tiebreak's
    own function when a page reads it), else from the tiebreak's own function."""

    def __init__(self, ctx: Context, known: Mapping[str, Mapping[str, Value | float]]) -> None:
        self.ctx = ctx
        self.known = known
        self.fields: dict[str, Mapping[str, float] | None] = {}

    def __call__(self, pid: str, tb_id: str) -> Value | float:
        if self.known:
            have = self.known.get(pid, {}).get(tb_id)
            if have is not None:
                return have
        if tb_id in self.fields:
            field = self.fields[tb_id]
        else:
            fast = TIEBREAKS[tb_id].fast
            field = self.fields[tb_id] = fast(self.ctx) if fast is not None else None
        if field is not None:
            return field[pid]
        return TIEBREAKS[tb_id].compute(self.ctx, pid)


def _rank(
    ctx: Context, ranked: Sequence[str], chain: Sequence[str],
    values: dict[str, dict[str, Value | float]], rank_groups: Mapping[str, int],
    fill: Callable[[str, str], Value | float] | None = None,
) -> list[tuple[int, str]]:
    """Return (rank, player) in order, splitting tied groups one tiebreak at a time.

    The format's rank groups come first (Diplomacy finalists), then the score. A value
    missing from ``values`` is made by ``fill`` (only players still tied need one).
    """

    groups: list[list[str]] = [
        by_score
        for by_group in _split(sorted(ranked), lambda p: rank_groups.get(p, 0))
        for by_score in _split(by_group, lambda p: ctx.scores[p])
    ]
    for tb_id in chain:
        tb = TIEBREAKS[tb_id]
        next_groups: list[list[str]] = []
        for group in groups:
            if tb.compute_group is not None:
                members = frozenset(group)
                for pid in group:
                    values[pid][tb_id] = tb.compute_group(ctx, pid, members)
            if len(group) == 1:
                next_groups.append(group)
                continue
            numbers: list[float] = []
            for pid in group:
                row = values[pid]
                have = row.get(tb_id)
                if have is None:
                    assert fill is not None
                    have = row[tb_id] = fill(pid, tb_id)
                numbers.append(have.value if isinstance(have, Value) else have)
            next_groups.extend(_runs(group, numbers))
        groups = next_groups
    order: list[tuple[int, str]] = []
    position = 1
    for group in groups:
        for pid in sorted(group, key=lambda p: (ctx.name(p).casefold(), p)):
            order.append((position, pid))
        position += len(group)
    return order


def _split(group: Sequence[str], key: Callable[[str], float]) -> list[list[str]]:
    """Return ``group`` split into runs of equal key, highest key first."""
    return _runs(group, [key(pid) for pid in group])


def _runs(group: Sequence[str], numbers: Sequence[float]) -> list[list[str]]:
    """Return ``group`` split into runs of equal ``numbers`` (one per member, equal to
    :data:`_PRECISION` decimals), highest first."""
    # sorted by key, highest first, and by position among equal keys (a stable sort)
    keyed = sorted(zip([-round(n, _PRECISION) for n in numbers], range(len(group)), group,
                       strict=True))
    runs: list[list[str]] = []
    last: float | None = None
    for k, _, pid in keyed:
        if runs and k == last:
            runs[-1].append(pid)
        else:
            runs.append([pid])
        last = k
    return runs


def _with_finished(standings: Standings) -> Standings:
    """Return the standings with ``finished`` set: planned rounds played, or the format says so."""
    event, fmt = standings.event, standings.format
    last_round = event.rounds[-1].number if event.rounds else 0
    if last_round > standings.rounds_complete:
        return standings  # a round is in progress
    done = standings.rounds_complete >= standings.planned_rounds
    # a round robin plays every round: its format has no ``finished`` rule; a team event
    # plays its planned team rounds (docs/teams.md: no clear winner among its players)
    if (not done and fmt.finished is not None and standings.rounds_complete > 0
            and not event.config.teams.matches):
        done = fmt.finished(pairing_input(standings), standings.rounds_complete, event.config)
    if not done:
        return standings
    return replace(standings, finished=True)


def pairing_input(standings: Standings) -> PairingInput:
    """Return the small pairing state of ``standings`` (issue #16): what a format's
    pairing and end-of-event rules read, without the ranking machinery. Tiebreak values
    stay lazy: a value is computed only if the pairing reads it."""
    return PairingInput(
        order=tuple(row.player.id for row in standings.rows),
        ranks={row.player.id: row.rank for row in standings.rows},
        scores=standings.context.scores,
        values={row.player.id: row.values for row in standings.rows},
        tiebreaks=standings.tiebreaks,
        records=standings.records,
        planned_rounds=standings.planned_rounds,
    )
