"""The club pages' numbers from small per-event summaries, in plain Python (issue #33).

The rating lists, the meta of each format and each player's rating history read the
same rules as the tidy table (:mod:`standgen.clubs.ratings`, :mod:`standgen.clubs.meta`),
but a build does not need the table: it needs a few sums per event.

- **Ratings are a fold over events** in date order (then folder): each event's games are
  rated against the ratings its players had after the events before it
  (:func:`rate_event`). A build keeps what each event gave (its players' ratings before
  and after each game, :class:`EventRatings`), so a change in the newest event re-rates
  that event only, from the kept ratings, not the archive from its first game.
- **The meta is a sum over events**: each event's part (:class:`MetaPart`: per faction
  its wins, draws, losses, solos and points, the matchups, the breakdowns) is added up
  per format and scope; a changed event replaces its own part. The parts and their
  sum have their home in :mod:`standgen.clubs.meta_sums`; the rows both read, in
  :mod:`standgen.clubs.rows`.

Every number equals the tidy table's (pandas) computation exactly, the same floating
point operations in the same order (``tests/test_club_summary.py`` compares the pages'
contexts both ways on the demo events and on random archives with random edits).
Nothing here imports pandas or numpy.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

from standgen.clubs.fide import SCORE, fide_expected, fide_k
from standgen.clubs.folds import NOTHING, Folded, covered, fold_fide, fold_lines
from standgen.clubs.games import EventGames
from standgen.clubs.meta_sums import FormatMeta, MetaPart, format_meta, meta_part
from standgen.clubs.plackett_luce import Rating, places, rate_game, rate_pair
from standgen.clubs.rows import (
    KIND,
    NAME,
    OPP_RATINGS,
    OPPONENTS,
    OUTCOME,
    PLAYER,
    POINTS,
    RATING,
    RESULT,
    ROUND,
    SEATS,
    TABLE,
    Row,
    club_rating,
    column_round,
    on_boards,
    rows_of,
)

START: Rating = (25.0, 25.0 / 3.0)  # openskill's PlackettLuce() defaults: mu, sigma
EventPath = tuple[str, ...]
# where ratings are made: a scope's folder and a format ("": every format rated together)
RatingScope = tuple[EventPath, str]
SITE: RatingScope = ((), "")


def ordinal(rating: Rating) -> float:
    """Return mu - 3 sigma as the tidy table's column path computes it."""
    return (rating[0] - 3.0 * rating[1]) + 0.0


def fide_change_of(row: Row, fmt: str) -> float | None:
    """Return the FIDE change of a tidy row (None when it has none), as
    :func:`standgen.clubs.ratings.fide_changes` computes its column."""
    if club_rating(fmt) != "fide" or row[KIND] != "played" or row[RATING] is None:
        return None
    theirs = str(row[OPP_RATINGS])
    score = SCORE.get(str(row[OUTCOME]))
    if not theirs or ";" in theirs or score is None:
        return None
    rating, opponent = float(row[RATING]), float(theirs)
    expected = fide_expected(rating, opponent)
    if rating < opponent:  # the column path rounds 1 - high as numpy does
        expected = column_round(1.0 - fide_expected(opponent, rating), 2)
    return column_round(fide_k(rating) * (score - expected), 1)


# ----- each event's summary -------------------------------------------------------------------

Fide = tuple[int, float, float, str]  # round, the player's rating, the change, the player


@dataclass(frozen=True)
class ClubEvent:
    """What the club pages read of one event besides its ratings: small, kept by a build
    for every event (the games table itself is needed only to rate an event again)."""

    path: EventPath
    head: tuple[str, str, str, str, str]  # event, event_name, date, season, format
    rated: bool
    played: bool  # a game was played over the board
    people: tuple[tuple[str, str], ...]  # players.csv's (id, name)
    names: tuple[tuple[str, str], ...]  # each player's name in the event's last row of theirs
    meta: MetaPart
    fide: tuple[Fide, ...]  # the rows with a FIDE change, in row order

    @property
    def key(self) -> tuple[str, str]:
        """Where the event is rated: date, then folder."""
        return self.head[2], self.head[0]

    @property
    def has_fide(self) -> bool:
        """Whether a row has a FIDE change (read without unpacking a kept summary)."""
        found = self.__dict__.get("_has_fide")
        return bool(self.fide) if found is None else bool(found)

    # A kept summary's meta and FIDE rows (most of its bytes) are pickled apart, and
    # unpickled when first read: a build reads every event's summary, and the meta of
    # the formats that changed, the FIDE rows of the events after the kept folds alone.
    def __reduce__(self) -> tuple[object, ...]:
        packed = pickle.dumps((self.meta, self.fide), protocol=pickle.HIGHEST_PROTOCOL)
        return (_kept_event, (self.path, self.head, self.rated, self.played, self.people,
                              self.names, packed, bool(self.fide)))

    if not TYPE_CHECKING:  # the fields' types stand for mypy
        def __getattr__(self, name: str) -> object:
            packed = self.__dict__.get("_packed")
            if name not in ("meta", "fide") or packed is None:
                raise AttributeError(name)
            meta, fide = pickle.loads(packed)
            object.__setattr__(self, "meta", meta)
            object.__setattr__(self, "fide", fide)
            return meta if name == "meta" else fide

    @property
    def players(self) -> tuple[tuple[str, str], ...]:
        """players.csv's (id, name), as :attr:`EventGames.players` names them."""
        return self.people


def _kept_event(path: EventPath, head: tuple[str, str, str, str, str], rated: bool,
                played: bool, people: tuple[tuple[str, str], ...],
                names: tuple[tuple[str, str], ...], packed: bytes, has_fide: bool
                ) -> ClubEvent:
    """Return a kept summary (:meth:`ClubEvent.__reduce__`), its meta and FIDE rows
    unpickled when first read."""
    event = object.__new__(ClubEvent)
    event.__dict__.update(path=path, head=head, rated=rated, played=played, people=people,
                          names=names, _packed=packed, _has_fide=has_fide)
    return event


def club_event(part: EventGames) -> ClubEvent:
    """Return the summary of one event's part of the games table."""
    rows = rows_of(part)
    fmt = part.head[4]
    fide = []
    for row in rows:
        change = fide_change_of(row, fmt)
        if change is not None:
            fide.append((int(row[ROUND]), float(row[RATING]), change, str(row[PLAYER])))
    return ClubEvent(part.path, part.head, part.rated,
                     any(row[KIND] == "played" for row in rows), part.players,
                     tuple({str(row[PLAYER]): str(row[NAME]) for row in rows}.items()),
                     meta_part(part), tuple(fide))


# ----- ratings: a fold over events ----------------------------------------------------------

# a rated seat: round, table, player, rating before, after, and what a player's page
# shows of the game: opponents (ids joined with ";"), seats, result, FIDE change
Seat = tuple[int, int, str, Rating, Rating, str, int, str, "float | None"]
# what a build keeps of a player's rated seats in one event (the site's ratings): the
# event, how many, whether one has a FIDE change, the round and rating after the last
DigestEvent = tuple[EventPath, int, bool, int, Rating]


class SeatDigest(NamedTuple):
    """What a build keeps of a player's rated seats for their rating page, oldest first
    (:mod:`standgen.clubs.seat_digest`): each event's part, the first seat and the newest
    seats (at most ``seat_digest.KEEP``), each with its event."""

    events: tuple[DigestEvent, ...]
    first: tuple[EventPath, Seat] | None
    tail: tuple[tuple[EventPath, Seat], ...]
    # the events the player's seats changed in since it was made (a build that did not
    # make their page); it holds for a build that rates them all again
    stale: frozenset[EventPath] = frozenset()


# a player's line in one event: id, games, rounded rating before their first game,
# rating after their last, name
Line = tuple[str, int, float, Rating, str]


@dataclass(frozen=True)
class EventRatings:
    """What rating one event gave: each player's line (what a rating list reads) and,
    unless a build has put them aside, each rated seat in the order rated."""

    path: EventPath
    key: tuple[str, str]  # where it was rated: date, folder (:func:`rating_order`)
    lines: tuple[Line, ...]
    seats: tuple[Seat, ...] = ()

    def finals(self) -> dict[str, Rating]:
        """Return each player's rating after the event."""
        return {line[0]: line[3] for line in self.lines}


def rating_order(part: EventGames | ClubEvent) -> tuple[str, str]:
    """Return the key events are rated in: date, then folder."""
    return part.head[2], part.head[0]


def rate_event(part: EventGames, ratings: dict[str, Rating], fast: bool = True
               ) -> EventRatings:
    """Rate one event's played games, round by round, each round against the ratings
    before it (``ratings``: every player's rating before the event; updated in place).

    Two-player games by :func:`standgen.clubs.plackett_luce.rate_pair` (the package's
    operations; with ``fast`` False by the package itself), boards of more seats by the
    package, as :func:`standgen.clubs.ratings.openskill_ratings` rates them.
    """
    played = [row for row in rows_of(part) if row[KIND] == "played"]
    fmt = part.head[4]
    seats: list[Seat] = []
    k = 0
    while k < len(played):
        end = k
        while end < len(played) and played[end][ROUND] == played[k][ROUND]:
            end += 1
        before = {row[PLAYER]: ratings.get(row[PLAYER], START) for row in played[k:end]}
        after: dict[str, Rating] = {}
        table = k
        while table < end:
            last = table
            while last < end and played[last][TABLE] == played[table][TABLE]:
                last += 1
            rows = played[table:last]
            olds = [before[row[PLAYER]] for row in rows]
            after.update(zip((row[PLAYER] for row in rows), _rate(rows, olds, fast),
                             strict=True))
            table = last
        for row in played[k:end]:
            pid = str(row[PLAYER])
            seats.append((int(row[ROUND]), int(row[TABLE]), pid, before[pid], after[pid],
                          str(row[OPPONENTS]), int(row[SEATS]), str(row[RESULT]),
                          fide_change_of(row, fmt)))
        ratings.update(after)
        k = end
    names = {str(row[PLAYER]): str(row[NAME]) for row in played}
    counts: dict[str, int] = {}
    firsts: dict[str, float] = {}
    lasts: dict[str, Rating] = {}
    for seat in seats:
        pid = seat[2]
        if pid not in counts:
            counts[pid] = 0
            firsts[pid] = round(ordinal(seat[3]), 2)
        counts[pid] += 1
        lasts[pid] = seat[4]
    return EventRatings(part.path, rating_order(part),
                        tuple((pid, count, firsts[pid], lasts[pid], names[pid])
                              for pid, count in counts.items()), tuple(seats))


def _rate(rows: Sequence[Row], olds: list[Rating], fast: bool) -> list[Rating]:
    values = [SCORE.get(str(row[OUTCOME]), 0.0) for row in rows]
    if fast and len(rows) == 2:
        if values[0] < values[1]:
            second, first = rate_pair(olds[1], olds[0], False)
            return [first, second]
        return list(rate_pair(olds[0], olds[1], values[0] == values[1]))
    scores = values if len(rows) == 2 else [float(row[POINTS]) for row in rows]
    return rate_game(olds, places(scores))


# ----- a scope's rating list ----------------------------------------------------------------

class Listed(NamedTuple):
    """A player in a rating list (a named tuple, not a dataclass: a list of 2,000 is made
    again after each result, and a tuple is made in a quarter of the time)."""

    player: str
    name: str
    mu: float  # rounded to 4 places, as the list shows it
    sigma: float
    rating: float  # mu - 3 sigma, rounded to 2 places
    games: int
    last: str  # the date of their last rated game
    last_event: str
    last_change: float


@dataclass(frozen=True)
class ScopeRatings:
    """A scope's ratings: what each rated event gave, in the order rated, and the list;
    with ``base``, what the events before ``events`` gave (a kept fold, :class:`Folded`):
    ``events`` are then the rest."""

    events: tuple[EventRatings, ...]
    redone: frozenset[EventPath] = frozenset()  # the events rated again (the rest kept)
    base: Folded | None = None

    def folded(self) -> Folded:
        """Return the rating list's fold over every event but the newest (the FIDE part
        empty)."""
        base = self.base or NOTHING
        running, games = dict(base.running), dict(base.games)
        fold_lines(running, games, self.events[:-1])
        paths = base.paths | {rated.path for rated in self.events[:-1]}
        return Folded(paths, running, games, frozenset(), {}, {})

    @cached_property
    def listing(self) -> tuple[Listed, ...]:
        """Return the rating list, best first (then by id)."""
        base = self.base or NOTHING
        running, games = dict(base.running), dict(base.games)
        fold_lines(running, games, self.events)
        rows = []
        for pid, (name, rating, _, (date, slug), first) in running.items():
            shown = round(ordinal(rating), 2)
            rows.append(Listed(pid, name, round(rating[0], 4), round(rating[1], 4),
                               shown, games[pid], date, slug, round(shown - first, 2)))
        rows.sort(key=lambda r: (-r.rating, r.player))
        return tuple(rows)


def scope_ratings(events: Sequence[ClubEvent], games: Callable[[EventPath], EventGames],
                  fast: bool = True, kept: Mapping[EventPath, EventRatings] | None = None,
                  changed: Iterable[EventPath] = (), base: Folded | None = None
                  ) -> ScopeRatings:
    """Return the ratings of ``events`` (one scope's), rated in date order; ``games``
    gives an event's part of the games table, to rate it.

    ``kept`` holds what each event gave when last rated (a build state's), ``changed``
    the events whose parts changed since. Events rated before the first change (the
    earliest place, in the order rated, where a changed, new or removed event is or
    was) keep theirs; the rest are rated again from the ratings after the last kept
    one. Without ``kept``: every event, from the start. With ``base`` (a kept fold over
    the first events, none of them changed: :func:`covered`), the events after those
    alone, from the ratings after them (``kept`` needs only theirs and the changed
    events').
    """
    ordered = sorted((e for e in events if e.rated), key=lambda e: e.key)
    kept = kept or {}
    redo = set(changed)
    if base is not None:
        skip = covered(base.paths, ordered, redo)
        if skip is None:
            raise ValueError("a fold over events that changed")
        ordered = ordered[skip:]
    present = {event.path for event in ordered}
    starts = [e.key for e in ordered if e.path in redo or e.path not in kept]
    starts += [held.key for path, held in kept.items() if path in redo or path not in present]
    start = min(starts, default=None)
    ratings = {} if base is None else {pid: line[1] for pid, line in base.running.items()}
    done: list[EventRatings] = []
    redone: set[EventPath] = set()
    for event in ordered:
        if start is None or event.key < start:
            done.append(kept[event.path])
            continue
        if not redone:  # the first event rated again: the ratings after those before it
            for rated in done:
                ratings.update(rated.finals())
        redone.add(event.path)
        done.append(rate_event(games(event.path), ratings, fast))
    return ScopeRatings(tuple(done), frozenset(redone), base)


def fide_by_player(events: Iterable[ClubEvent], base: Folded | None = None
                   ) -> dict[str, tuple[float, float]]:
    """Return each chess player's newest FIDE rating and the sum of their FIDE changes
    over ``events`` (FIDE B.02 art. 8.3): the newest by date, event and round (events in
    that order, each event's rows by round; the rows' own order within a round). With
    ``base``: ``events`` are those after its FIDE fold's."""
    newest = {} if base is None else dict(base.newest)
    totals = {} if base is None else dict(base.totals)
    fold_fide(newest, totals, sorted((e for e in events if e.has_fide), key=lambda e: e.key))
    return {pid: (newest[pid], round(totals[pid][0], 1)) for pid in newest}


# ----- the archive's club numbers, from each event's summary ---------------------------------

class ClubTables:
    """The club pages' numbers from each event's summary (:class:`ClubEvent`): each
    scope's ratings and each format's meta are made when first asked for.

    A full build gives every event's part of the games table (``parts``); an incremental
    build gives the kept summaries (``events``), the parts it has (``games``, the others
    read when an event must be rated again), what each event's rating gave per scope
    (``kept``, by the scope's folder and format, :data:`RatingScope`: of every event, or
    of the events given), the folds kept per scope (``folds``, :class:`Folded`), each
    player's rated seats (``seats``) and what their rating page reads of them
    (``digests``, :class:`SeatDigest`), and the events whose parts changed (``changed``).
    """

    def __init__(self, parts: Iterable[EventGames] = (), fast: bool = True, *,
                 events: Mapping[EventPath, ClubEvent] | None = None,
                 games: Callable[[EventPath], EventGames] | None = None,
                 kept: Callable[[RatingScope, Iterable[EventPath] | None],
                                Mapping[EventPath, EventRatings]] | None = None,
                 seats: Callable[[str], Mapping[EventPath, tuple[Seat, ...]]] | None = None,
                 changed: Iterable[EventPath] = (),
                 folds: Callable[[RatingScope], Folded | None] | None = None,
                 digests: Callable[[str], SeatDigest | None] | None = None) -> None:
        by_path = {part.path: part for part in parts}
        found = dict(events) if events is not None else {}
        found.update((path, club_event(part)) for path, part in by_path.items())
        self.events = sorted(found.values(), key=lambda e: e.head[0])  # by folder
        self.fast = fast
        self.kept = kept
        self.changed = tuple(changed)
        self._games = games
        self._parts = by_path
        self.seats_kept = seats
        self.digest_kept = digests
        self.digests: dict[str, SeatDigest] = {}  # made by this build, to keep
        self._ratings: dict[RatingScope, ScopeRatings] = {}
        self._fide: dict[RatingScope, dict[str, tuple[float, float]]] = {}
        self._folds = folds
        self._bases: dict[RatingScope, Folded | None] = {}

    def part(self, path: EventPath) -> EventGames:
        """Return an event's part of the games table (to rate it)."""
        if path in self._parts:
            return self._parts[path]
        if self._games is None:
            raise KeyError(path)
        return self._games(path)

    def within(self, scope: Sequence[str]) -> list[ClubEvent]:
        """Return the events in the folder ``scope`` (every event for ()), by folder."""
        if not scope:
            return self.events
        prefix = "/".join(scope) + "/"
        return [e for e in self.events if e.head[0].startswith(prefix)]

    def ratings(self, scope: Sequence[str], fmt: str = "") -> ScopeRatings:
        """Return the scope's ratings (a season's events rated on their own); with
        ``fmt``, of that format's events alone (the rating list's list per format)."""
        key = (tuple(scope), fmt)
        if key not in self._ratings:
            events = self._of(key)
            base = self._rating_base(key, events)
            kept = None if self.kept is None else self.kept(key, None if base is None else [
                *(e.path for e in events if e.path not in base.paths), *self.changed])
            self._ratings[key] = scope_ratings(events, self.part, self.fast, kept,
                                               self.changed if kept is not None else (),
                                               base)
        return self._ratings[key]

    def _of(self, key: RatingScope) -> list[ClubEvent]:
        """Return the events of a rating scope (its folder's, of its format)."""
        events = self.within(key[0])
        return [e for e in events if e.head[4] == key[1]] if key[1] else events

    def _rating_base(self, key: RatingScope, events: list[ClubEvent]) -> Folded | None:
        """Return the folds kept for ``key`` when their rating fold holds for its rated
        ``events`` (:func:`covered`), else None."""
        base = self._base(key)
        if base is None or covered(base.paths, sorted((e for e in events if e.rated),
                                                      key=lambda e: e.key),
                                   self.changed) is None:
            return None
        return base

    def _base(self, key: RatingScope) -> Folded | None:
        """Return the folds a build kept for ``key`` (None: none kept)."""
        if key not in self._bases:
            self._bases[key] = None if self._folds is None else self._folds(key)
        return self._bases[key]

    @cached_property
    def names(self) -> dict[str, str]:
        """Return each player's name by id, as their last row (events by folder) spells it."""
        return {pid: name for event in self.events for pid, name in event.names}

    @cached_property
    def people(self) -> dict[str, str]:
        """Return every player of every event (those without a game too) by id."""
        return {pid: name for event in self.events for pid, name in event.people}

    def formats(self, scope: Sequence[str]) -> list[str]:
        """Return the formats of the scope's games played over the board, by id."""
        return sorted({e.head[4] for e in self.within(scope) if e.played})

    def meta(self, scope: Sequence[str], fmt: str) -> FormatMeta:
        """Return the meta of format ``fmt`` over the scope's events."""
        return format_meta([e.meta for e in self.within(scope) if e.head[4] == fmt],
                           on_boards(fmt))

    def fide(self, scope: Sequence[str], fmt: str = "") -> dict[str, tuple[float, float]]:
        """Return each chess player's newest FIDE rating and FIDE change in the scope
        (with ``fmt``: over that format's events)."""
        key = (tuple(scope), fmt)
        if key not in self._fide:
            events, base = self._fide_events(key)
            self._fide[key] = fide_by_player(
                events if base is None else [e for e in events if e.path not in base.fide_paths],
                base)
        return self._fide[key]

    def _fide_events(self, key: RatingScope) -> tuple[list[ClubEvent], Folded | None]:
        """Return the events of ``key`` with a FIDE change, in the order rated, and the
        folds kept for it when their FIDE fold holds for them (else None)."""
        events = sorted((e for e in self._of(key) if e.has_fide), key=lambda e: e.key)
        base = self._base(key)
        if base is not None and covered(base.fide_paths, events, self.changed) is None:
            base = None
        return events, base

    def event(self, path: EventPath) -> ClubEvent | None:
        """Return an event's summary (None: no such event)."""
        return self._by_path.get(path)

    @cached_property
    def _by_path(self) -> dict[EventPath, ClubEvent]:
        return {e.path: e for e in self.events}

    def kept_state(self, removed: Iterable[EventPath] = ()) -> ClubKept:
        """Return what a build keeps for the next one: the summaries of the events it
        read, and the ratings of the events it rated, per scope it rated."""
        ratings = {scope: tuple(replace(rated, seats=()) for rated in made.events
                                if rated.path in made.redone)
                   for scope, made in self._ratings.items()}
        seats: dict[EventPath, dict[str, tuple[Seat, ...]]] = {}
        site = self._ratings.get(SITE)
        if site is not None:
            for rated in site.events:
                if rated.path in site.redone:
                    by_player: dict[str, list[Seat]] = {}
                    for seat in rated.seats:
                        by_player.setdefault(seat[2], []).append(seat)
                    seats[rated.path] = {pid: tuple(s) for pid, s in by_player.items()}
        return ClubKept(
            {path: self._by_path[path] for path in self._parts},
            frozenset(self.changed) | frozenset(removed), ratings, seats,
            None if site is None else tuple(line.player for line in site.listing),
            *self._kept_folds(), digests=self.digests)

    def _kept_folds(self) -> tuple[dict[RatingScope, Folded], frozenset[RatingScope]]:
        """Return the folds to keep of each scope this build made both lists of (its
        ratings and FIDE sums) over every event but the newest, where they are new, and
        the scopes whose kept folds still hold (:class:`ClubKept`)."""
        folds: dict[RatingScope, Folded] = {}
        holding: set[RatingScope] = set()
        for key, made in self._ratings.items():
            if key not in self._fide:
                continue
            events, fide_base = self._fide_events(key)
            if (made.base is not None and len(made.events) <= 1 and fide_base is not None
                    and len(events) - len(fide_base.fide_paths) <= 1):
                holding.add(key)  # the same events but the newest: the same folds
                continue
            start = fide_base or NOTHING
            newest, totals = dict(start.newest), dict(start.totals)
            rest = [e for e in events[:-1] if e.path not in start.fide_paths]
            fold_fide(newest, totals, rest)
            folds[key] = replace(made.folded(), newest=newest, totals=totals,
                                 fide_paths=start.fide_paths | {e.path for e in rest})
        return folds, frozenset(holding)

    @cached_property
    def redone_seats(self) -> dict[str, list[tuple[ClubEvent, Seat]]]:
        """Return each player's rated seats in the events the site's ratings rated again
        (every event, on a full build), in the order rated
        (:func:`standgen.clubs.seat_digest.rated_games` adds the kept ones)."""
        site = self.ratings(SITE[0])
        by_path = self._by_path
        found: dict[str, list[tuple[ClubEvent, Seat]]] = {}
        for rated in site.events:
            if rated.path in site.redone:
                event = by_path[rated.path]
                for seat in rated.seats:
                    found.setdefault(seat[2], []).append((event, seat))
        return found


@dataclass(frozen=True)
class ClubKept:
    """What a build keeps of the club's numbers for the next build: ``events`` the
    summaries to put; ``dropped`` the events whose kept ratings and seats go (changed or
    removed); ``ratings`` per scope (folder and format) the events rated again (their
    seats put aside);
    ``seats`` per event rated again in the site's scope each player's rated seats;
    ``listing`` the site's rating list (ids, best first), when it was made; ``folds``
    per scope its folds to put (:class:`Folded`), ``holding`` the scopes whose kept
    folds still hold (the others of a folder an event of ``dropped`` is below go)."""

    events: Mapping[EventPath, ClubEvent]
    dropped: frozenset[EventPath]
    ratings: Mapping[RatingScope, tuple[EventRatings, ...]]
    seats: Mapping[EventPath, Mapping[str, tuple[Seat, ...]]]
    listing: tuple[str, ...] | None
    folds: Mapping[RatingScope, Folded] = field(default_factory=dict)
    holding: frozenset[RatingScope] = frozenset()
    digests: Mapping[str, SeatDigest] = field(default_factory=dict)
