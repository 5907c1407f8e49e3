"""The club's sums over events that a build keeps for the next one (issue #33).

The rating list reads each player's last line and their games over a scope's rated
events, the FIDE columns each player's newest FIDE rating and the sum of their FIDE
changes: folds over every event of the archive, in the order rated (date, then folder).
A build keeps each scope's folds over every event but the newest (:class:`Folded`), and
the next build, when none of those events changed (:func:`covered`), adds up the events
after them alone: a result typed into the newest event costs that event, not the
archive. The folds are the same operations in the same order as from the first event
(:func:`fold_lines`, :func:`fold_fide`, which the from-scratch path runs too), so every
sum is equal to the last bit (``tests/test_club_summary.py`` compares both ways after
random edits).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from standgen.clubs.plackett_luce import Rating

EventPath = tuple[str, ...]


class Folding(Protocol):
    """An event as a fold reads it (:class:`standgen.clubs.summary.ClubEvent`,
    :class:`standgen.clubs.summary.EventRatings`): its folder and where it is rated."""

    @property
    def path(self) -> EventPath: ...

    @property
    def key(self) -> tuple[str, str]: ...


class Lined(Folding, Protocol):
    """What one event's rating gave each player (``EventRatings.lines``)."""

    @property
    def lines(self) -> tuple[tuple[str, int, float, Rating, str], ...]: ...


class Fided(Folding, Protocol):
    """One event's rows with a FIDE change (``ClubEvent.fide``)."""

    @property
    def fide(self) -> tuple[tuple[int, float, float, str], ...]: ...


# each player's last line in a fold over events (name, rating after, games in the event,
# the event's key, rounded rating before its first game there), and their games
Running = dict[str, tuple[str, Rating, int, tuple[str, str], float]]
FideSums = dict[str, tuple[float, float]]  # Kahan's (total, compensation) per player


@dataclass(frozen=True)
class Folded:
    """The folds over a scope's events (in the order rated) that a build keeps for the
    next one: the rating list's over the rated events of ``paths`` (each player's last
    line and their games), the FIDE sums' over the events with a FIDE change of
    ``fide_paths`` (each player's newest FIDE rating and Kahan's sum)."""

    paths: frozenset[EventPath]
    running: Running
    games: dict[str, int]
    fide_paths: frozenset[EventPath]
    newest: dict[str, float]
    totals: FideSums


NOTHING = Folded(frozenset(), {}, {}, frozenset(), {}, {})


def covered(paths: frozenset[EventPath], ordered: Sequence[Folding],
            changed: Collection[EventPath]) -> int | None:
    """Return how many of ``ordered`` (a scope's events in the order rated) a fold over
    ``paths`` covers: the first ``len(paths)``, when they are the events of ``paths``
    and none of them ``changed``; else None (the fold does not hold)."""
    n = len(paths)
    if n > len(ordered) or any(e.path not in paths or e.path in changed
                               for e in ordered[:n]):
        return None
    return n


def fold_lines(running: Running, games: dict[str, int], events: Iterable[Lined]
               ) -> None:
    """Add the lines of ``events`` (in the order rated) to a rating list's fold."""
    for rated in events:
        for pid, count, first, after, name in rated.lines:
            running[pid] = (name, after, count, rated.key, first)
            games[pid] = games.get(pid, 0) + count


def fold_fide(newest: dict[str, float], totals: FideSums, events: Iterable[Fided]
              ) -> None:
    """Add the FIDE changes of ``events`` (in the order rated; each event's rows by
    round, the rows' own order within a round) to the FIDE sums' fold, as
    meta_sums._Kahan adds."""
    for event in events:
        for _, rating, change, pid in sorted(event.fide, key=lambda r: r[0]):
            newest[pid] = rating
            total, compensation = totals.get(pid, (0.0, 0.0))
            y = change - compensation
            t = total + y
            totals[pid] = (t, t - total - y)
