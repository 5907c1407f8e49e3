"""Each player's games, round by round, with the points the format gives for them.

Derived once from an :class:`~standgen.model.Event` and shared by tiebreaks, standings
and pairing, so no stage re-walks the round files.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Protocol

from standgen.memo import Memo
from standgen.model import Event, EventConfig, Game, GameKind, Outcome, Player, Seat


class Scoring(Protocol):
    """What records read of a format: how a seat scores and which stats it counts.

    :class:`standgen.formats.base.Format` has these fields; records sit below the
    formats (issue #16: a rule imports only what is beneath it), so they name only this.
    """

    @property
    def points(self) -> Callable[[Seat, Game, EventConfig], float]: ...

    @property
    def event_points(self) -> Callable[[Event, int | None],
                                       Mapping[tuple[int, int, str], float]] | None: ...

    @property
    def seat_stats(self) -> Callable[[Seat, Game, EventConfig], Mapping[str, float]] | None: ...


@dataclass(frozen=True)
class Entry:
    """One player's round: the game, their seat, their opponents and the points earned."""

    round: int
    game: Game
    seat: Seat
    opponents: tuple[str, ...]
    points: float
    stats: Mapping[str, float]  # the seat's stats as tiebreaks count them (format's seat_stats)
    against: Mapping[str, float]  # the opponents' stats, summed (for differences: vp-diff)

    @property
    def kind(self) -> GameKind:
        return self.game.kind

    @property
    def outcome(self) -> Outcome:
        assert self.seat.outcome is not None
        return self.seat.outcome

    @property
    def opponent(self) -> str | None:
        """Return the single opponent of a two-player game, or None (bye, absence)."""
        return self.opponents[0] if len(self.opponents) == 1 else None

    @property
    def played(self) -> bool:
        """Return whether the game was played over the board."""
        return self.game.kind is GameKind.PLAYED


@dataclass(frozen=True)
class Record:
    """A player's finished games in round order, and the rounds counted so far."""

    player: Player
    entries: tuple[Entry, ...]

    @property
    def score(self) -> float:
        return sum(entry.points for entry in self.entries)

    def entry(self, round_number: int) -> Entry | None:
        for entry in self.entries:
            if entry.round == round_number:
                return entry
        return None

    def count(self, outcome: Outcome) -> int:
        return sum(1 for entry in self.entries if entry.outcome is outcome)

    @property
    def opponents(self) -> tuple[str, ...]:
        return tuple(o for entry in self.entries for o in entry.opponents)

    @property
    def byes(self) -> int:
        """Return how many pairing-allocated byes the player has had."""
        return sum(1 for entry in self.entries if entry.kind is GameKind.BYE)


def counted_rounds(event: Event) -> int:
    """Return how many rounds standings count: the complete rounds, from round 1 on."""
    count = 0
    for rnd in event.rounds:
        if not rnd.finished:
            break
        count = rnd.number
    return count


def build_records(
    event: Event, fmt: Scoring, upto: int | None = None, shared: bool = True
) -> Mapping[str, Record]:
    """Return every player's record over finished games of rounds ``1..upto``.

    Contract section 1: "standings count only finished games". ``upto`` defaults to all
    rounds, so a round in progress counts the games that already have a result. With
    ``shared`` (the default) the records over every round are kept for the next few
    calls, and the records over fewer rounds taken from them (:func:`_shared_records`);
    False builds them afresh (the straightforward reference).
    """
    if shared and fmt.event_points is None:
        return _shared_records(event, fmt, upto)
    return _build_records(event, fmt, upto)


# the last few events' records over every round: standings after each round, the tiebreak
# lab's other chains and the pairing all start from them (records are immutable)
_RECENT: Memo[tuple[int, int], tuple[Event, Mapping[str, Record]]] = Memo(4)


def _shared_records(event: Event, fmt: Scoring, upto: int | None) -> Mapping[str, Record]:
    """Return :func:`_build_records`' result, sharing one pass over the rounds.

    The records over rounds ``1..upto`` are the full records' entries of those rounds
    (points do not depend on ``upto`` without ``event_points``); an event differing only
    in its tiebreak chain shares them too.
    """
    key = (id(event.rounds), id(event.players))  # the kept event holds both: ids stay
    seen, full = _RECENT.get(key, lambda: (event, _build_records(event, fmt, None)))
    if seen is not event and (
            seen.rounds is not event.rounds or seen.players is not event.players
            or replace(seen.config, tiebreaks=()) != replace(event.config, tiebreaks=())):
        full = _build_records(event, fmt, None)
        _RECENT.put(key, (event, full))
    if upto is None or all(rnd.number <= upto for rnd in event.rounds):
        return full
    return {pid: Record(record.player, tuple(e for e in record.entries if e.round <= upto))
            for pid, record in full.items()}


def _build_records(event: Event, fmt: Scoring, upto: int | None) -> Mapping[str, Record]:
    """Return every player's record over finished games of rounds ``1..upto``: one entry
    per seat of a finished game, in round and table order, with the format's points (or
    its whole-event points table, ``event_points``). Two-seat games skip the generic
    loops (one opponent, the other seat's stats as ``against``)."""
    entries: dict[str, list[Entry]] = {p.id: [] for p in event.players}
    config = event.config
    table = fmt.event_points(event, upto) if fmt.event_points is not None else None
    seat_stats = fmt.seat_stats
    for rnd in event.rounds:
        number = rnd.number
        if upto is not None and number > upto:
            break
        points = fmt.points if table is None else _points_from(table, number)
        for game in rnd.games:
            if not game.finished:
                continue
            seats = game.seats
            stats = [seat_stats(seat, game, config) if seat_stats else seat.stats
                     for seat in seats]
            if len(seats) != 2:
                _add_seats(entries, number, game, stats, points, config)
                continue
            a, b = seats
            for seat, own, other, opp in ((a, stats[0], stats[1], b.player),
                                          (b, stats[1], stats[0], a.player)):
                mine = entries.get(seat.player)
                if mine is not None:
                    mine.append(Entry(number, game, seat, () if opp == seat.player else (opp,),
                                      points(seat, game, config), own,
                                      {key: 0.0 + value for key, value in other.items()}))
    by_id = event.player_by_id
    return {pid: Record(player=by_id[pid], entries=tuple(es)) for pid, es in entries.items()}


PointsFn = Callable[[Seat, Game, EventConfig], float]


def _points_from(table: Mapping[tuple[int, int, str], float], number: int) -> PointsFn:
    """Return the points of round ``number``'s seats as the whole-event table gives them."""
    return lambda seat, game, config: table.get((number, game.table, seat.player), 0.0)


def _add_seats(entries: dict[str, list[Entry]], number: int, game: Game,
               stats: list[Mapping[str, float]], points: PointsFn, config: EventConfig) -> None:
    """Append each seat's entry of a finished game of any size: its opponents (every
    other seat's player), points, stats, and the other seats' stats summed as ``against``."""
    for k, seat in enumerate(game.seats):
        mine = entries.get(seat.player)
        if mine is None:
            continue
        against: dict[str, float] = {}
        for other_k, other_stats in enumerate(stats):
            if other_k != k:
                for key, value in other_stats.items():
                    against[key] = against.get(key, 0.0) + value
        mine.append(Entry(number, game, seat, game.opponents_of(seat.player),
                          points(seat, game, config), stats[k], against))


def have_met(records: Mapping[str, Record]) -> frozenset[frozenset[str]]:
    """Return every pair of players who have already faced each other (played or forfeited)."""
    met: set[frozenset[str]] = set()
    for record in records.values():
        for entry in record.entries:
            for opponent in entry.opponents:
                met.add(frozenset((record.player.id, opponent)))
    return frozenset(met)
