"""The season leaderboard: points for each placing, best N events (``season.toml [points]``).

docs/seasons.md describes it for TOs. A player is known by their id in ``players.csv``
across the season's events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from standgen.site.summary import EventSummary

DEFAULT_PLACINGS = (25.0, 18.0, 15.0, 12.0, 10.0, 8.0, 6.0, 4.0, 2.0, 1.0)


@dataclass(frozen=True)
class PointsRule:
    """How placings score: points for 1st, 2nd ...; a participation bonus; best N events."""

    placings: tuple[float, ...] = DEFAULT_PLACINGS
    participation: float = 0.0
    best: int | None = None  # None: every event counts

    def for_rank(self, rank: int) -> float:
        """Return the season points of finishing ``rank`` (shared ranks score alike)."""
        placing = self.placings[rank - 1] if 0 < rank <= len(self.placings) else 0.0
        return placing + self.participation


def points_rule(points: Mapping[str, Any]) -> PointsRule:
    """Return a season's ``[points]`` table (validated by load) as a rule, with defaults."""
    placings = points.get("placings")
    best = points.get("best")
    return PointsRule(
        placings=tuple(float(p) for p in placings) if placings is not None else DEFAULT_PLACINGS,
        participation=float(points.get("participation", 0)),
        best=int(best) if best is not None else None,
    )


@dataclass(frozen=True)
class EventResult:
    """A player's placing in one season event and the season points it gives."""

    event: int  # index into the leaderboard's events
    rank: int
    points: float
    counted: bool  # False when outside the player's best N


@dataclass(frozen=True)
class Leader:
    """One leaderboard row."""

    rank: int
    player: str  # id
    name: str  # as in the player's newest event
    total: float
    results: tuple[EventResult, ...]  # in the leaderboard's event order


@dataclass(frozen=True)
class Leaderboard:
    """A season's events (oldest first) and its rows, best total first."""

    events: tuple[EventSummary, ...]
    rows: tuple[Leader, ...]
    rule: PointsRule


def leaderboard(summaries: Sequence[EventSummary], rule: PointsRule) -> Leaderboard:
    """Return the season leaderboard of the events ``summaries``.

    Each ranked player of an event (a spare player is not ranked) scores
    ``rule.for_rank(rank)``; events still running count with their current standings.
    A player's total is the sum of their best ``rule.best`` event scores (all when unset;
    equal scores: the earlier event counts). Equal totals share a rank (1, 2, 2, 4),
    listed by name.
    """
    events = tuple(sorted(summaries, key=lambda e: (e.config.date, e.path)))
    placed: dict[str, list[tuple[int, int]]] = {}  # id -> (event index, rank), in order
    names: dict[str, str] = {}
    for index, summary in enumerate(events):
        for pid, name, rank in summary.ranking:
            names[pid] = name
            placed.setdefault(pid, []).append((index, rank))
    points: dict[int, float] = {}  # rank -> its season points
    scored = []
    for pid, own in placed.items():
        marked = _marked(own, rule, points)
        total = sum(r.points for r in marked if r.counted)
        scored.append((-total, names[pid].casefold(), pid, total, marked))
    scored.sort(key=lambda r: r[:3])
    ranked: list[Leader] = []
    for i, (_, _, pid, total, marked) in enumerate(scored):
        rank = ranked[-1].rank if ranked and ranked[-1].total == total else i + 1
        ranked.append(Leader(rank, pid, names[pid], total, marked))
    return Leaderboard(events, tuple(ranked), rule)


def _marked(own: Sequence[tuple[int, int]], rule: PointsRule, points: dict[int, float]
            ) -> tuple[EventResult, ...]:
    """Return a player's results (``own``: event index and rank, in event order), each
    marked counted or not: their best ``rule.best`` scores (equal scores: the earlier
    event); ``points`` keeps each rank's points."""
    scores = []
    for _, rank in own:
        found = points.get(rank)
        if found is None:
            found = points[rank] = rule.for_rank(rank)
        scores.append(found)
    if rule.best is None or rule.best >= len(own):
        return tuple(EventResult(index, rank, score, True)
                     for (index, rank), score in zip(own, scores, strict=True))
    order = sorted(range(len(own)), key=lambda i: (-scores[i], own[i][0]))
    keep = set(order[: rule.best])
    return tuple(EventResult(index, rank, scores[i], i in keep)
                 for i, (index, rank) in enumerate(own))
