"""A player's rated seats as their rating page reads them, and what a build keeps of them
for the next (issue #33).

A player's rating page shows their newest games (a table), a chart (a point per game,
or per event past a few hundred games), how many games they have and whether one has a
FIDE change; their ``ratings.json`` lists every game, and after a steady change is made
from the file the last build wrote (:func:`standgen.site.club_splice.spliced_games`).
The build state keeps each player's rated seats a row per event. In an archive where the
same people play a thousand events, a new round's players have thousands of seats each,
and reading them all back, one row per event, was most of that round's rebuild.

So a build also keeps a :class:`~standgen.clubs.summary.SeatDigest` per player: a few
numbers per event, the first seat and the newest :data:`KEEP` seats. The next build
takes the digest's part before the events it rates again
(:attr:`~standgen.clubs.summary.ScopeRatings.redone`: those from the first changed
event on, in the order rated, so always the digest's last events) and adds those events'
seats (:func:`rated_seats`). Whenever a player's seats in an event change and this build
made no new digest of them (their page was not made: a result typed in changes the seats
of everyone in its event, and the numbers of two), the build state marks the digest with
that event (``stale``, :func:`standgen.buildstate.BuildState.save`), and a build uses it
only if it rates all its marked events again. ``tests/test_seat_digest.py`` compares
both ways on random archives with random edits.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from typing import NamedTuple

from standgen.clubs.plackett_luce import Rating
from standgen.clubs.summary import (
    SITE,
    ClubEvent,
    ClubTables,
    DigestEvent,
    EventPath,
    Seat,
    SeatDigest,
)

KEEP = 256  # the newest seats a digest keeps: a page's table, and the events rated again
SHOWN = 200  # the most newest seats a page reads besides the chart (its table, the JSON)

# each event's part of a player's seats: the event, how many, whether one has a FIDE
# change, the round and rating after the last
EventPart = tuple[ClubEvent, int, bool, int, Rating]


class RatedSeats(NamedTuple):
    """A player's rated seats across the site (the site's ratings), as their rating page
    reads them, oldest first."""

    games: int  # how many
    first: tuple[ClubEvent, Seat] | None
    # the newest seats: all of them (``len(tail) == games``), or more than SHOWN
    tail: Sequence[tuple[ClubEvent, Seat]]
    events: Sequence[EventPart]  # each event's part, in the order rated
    # how many of the newest seats are in the events this build rated again; -1 when an
    # event before them was rated again too (the JSON cannot keep the lines before them)
    fresh: int

    @property
    def fide(self) -> bool:
        """Whether a seat has a FIDE change."""
        return any(part[2] for part in self.events)


def rated_games(tables: ClubTables, pid: str) -> list[tuple[ClubEvent, Seat]]:
    """Return a player's rated games across the site (event, seat), in the order rated:
    their kept seats in the events not rated again, then the seats of those that were."""
    fresh = tables.redone_seats.get(pid, [])
    if tables.seats_kept is None:  # a full build: every event rated again
        return list(fresh)
    redone = tables.ratings(SITE[0]).redone
    kept = tables.seats_kept(pid)
    events = [event for event in (tables.event(path) for path in kept if path not in redone)
              if event is not None and event.rated]
    found: list[tuple[ClubEvent, Seat]] = []
    for event in sorted(events, key=lambda e: e.key):  # every one rated before those again
        found.extend(zip(repeat(event), kept[event.path]))  # thousands of seats: paired in C
    found.extend(fresh)
    return found


def rated_seats(tables: ClubTables, pid: str) -> RatedSeats:
    """Return a player's rated seats as their rating page reads them: from the digest the
    last build kept, when it holds (see the module's docstring), else from every seat
    kept; and keep this build's digest of them (``tables.digests``)."""
    digest = None if tables.digest_kept is None else tables.digest_kept(pid)
    found = None if digest is None else resumed(tables, pid, digest)
    if found is None:
        found = seats_of(rated_games(tables, pid), tables.ratings(SITE[0]).redone)
    tables.digests[pid] = digest_of(found)
    return found


def seats_of(seats: Sequence[tuple[ClubEvent, Seat]],
             redone: frozenset[EventPath] = frozenset()) -> RatedSeats:
    """Return :class:`RatedSeats` of every rated seat of a player (oldest first; ``redone``:
    the events this build rated again)."""
    fresh = 0
    while fresh < len(seats) and seats[len(seats) - 1 - fresh][0].path in redone:
        fresh += 1
    if any(event.path in redone for event, _seat in seats[:len(seats) - fresh]):
        fresh = -1
    return RatedSeats(len(seats), seats[0] if seats else None, seats, _parts(seats), fresh)


def _parts(seats: Sequence[tuple[ClubEvent, Seat]]) -> list[EventPart]:
    """Return each event's part of ``seats`` (oldest first), in their order."""
    parts: list[EventPart] = []
    count, fide, last = 0, False, None
    for event, seat in seats:
        if last is not None and event is not last[0]:
            parts.append((last[0], count, fide, last[1][0], last[1][4]))
            count, fide = 0, False
        count += 1
        fide = fide or seat[8] is not None
        last = (event, seat)
    if last is not None:
        parts.append((last[0], count, fide, last[1][0], last[1][4]))
    return parts


def digest_of(seats: RatedSeats) -> SeatDigest:
    """Return what a build keeps of a player's rated seats."""
    events: tuple[DigestEvent, ...] = tuple(
        (event.path, count, fide, rnd, after) for event, count, fide, rnd, after in seats.events)
    first = None if seats.first is None else (seats.first[0].path, seats.first[1])
    return SeatDigest(events, first, tuple((event.path, seat)
                                           for event, seat in seats.tail[-KEEP:]))


def resumed(tables: ClubTables, pid: str, digest: SeatDigest) -> RatedSeats | None:
    """Return :class:`RatedSeats` of a player from the digest the last build kept and the
    seats of the events this build rated again; None when the digest does not hold: an
    event of its part kept is gone, out of the ratings or rated again, or too few of its
    newest seats are left to show."""
    redone = tables.ratings(SITE[0]).redone
    if not digest.stale <= redone:
        return None
    cut = len(digest.events)
    while cut and digest.events[cut - 1][0] in redone:
        cut -= 1
    parts: list[EventPart] = []
    count = 0
    for path, seats, fide, rnd, after in digest.events[:cut]:
        event = tables.event(path)
        if event is None or not event.rated or path in redone:
            return None
        parts.append((event, seats, fide, rnd, after))
        count += seats
    dropped = sum(part[1] for part in digest.events[cut:])
    tail_kept = digest.tail[:max(len(digest.tail) - dropped, 0)]
    if len(tail_kept) < count and len(tail_kept) <= SHOWN:
        return None
    tail: list[tuple[ClubEvent, Seat]] = []
    for path, seat in tail_kept:
        event = tables.event(path)
        if event is None:
            return None
        tail.append((event, seat))
    new = tables.redone_seats.get(pid, [])
    first = new[0] if new else None
    if cut:  # the first seat is the digest's
        if digest.first is None:
            return None
        event = tables.event(digest.first[0])
        if event is None:
            return None
        first = (event, digest.first[1])
    tail.extend(new)
    parts.extend(_parts(new))
    return RatedSeats(count + len(new), first, tail, parts, len(new))


def keep_every(tables: ClubTables) -> None:
    """Keep the digest of every rated player's seats (a full build, every event rated:
    the next build then resumes each page from its digest)."""
    for pid, seats in tables.redone_seats.items():
        if pid not in tables.digests:
            tables.digests[pid] = digest_of(seats_of(seats))
