"""The rounds a team tie-break reads (docs/teams.md, "Chess team tie-breaks"): each
team's match points and game points round by round, from the finished team matches.

FIDE C.07 (Tie-Break Regulations, 2024 and the amendments in force from 1 February 2026)
scores a team competition twice: **match points** (MP; a match won, drawn, lost by game
points, 2/1/0 unless the event declares others: ``[teams] match_points``) and **game
points** (GP; the sum of the team's game results, a draw ½). A team's pairing-allocated
bye (PAB, a team bye) is an unplayed round (C.07 art. 16) scored by its members' BYE
rows (the format's bye points); its match points follow from those game points against
the games not played: all won (a bye point of 1) is a match won, half (TRF-2026's 320
of the TEC sample: 1 match point, 2 game points of 4) a match drawn.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from standgen.model import Event
from standgen.teams.matches import match_results

# the C.07 amendments' effective date (TieBreakServer applies them by the start date too)
C07_2026 = dt.date(2026, 2, 1)


@dataclass(frozen=True)
class TeamRoundEntry:
    """One team's round: whom it met ("" for the team bye), its match and game points."""

    round: int
    opponent: str
    mp: float
    gp: float
    # a match forfeited whole (one team fielded nobody, TRF-2026's 330): an unplayed round
    # of both teams for the Buchholz of C.07 art. 16.4.1, as TieBreakServer counts it
    forfeited: bool = False

    @property
    def played(self) -> bool:
        return bool(self.opponent)


@dataclass(frozen=True)
class TeamTable:
    """Every team's rounds, the rounds counted and the points of a drawn match and of a
    drawn round's games (half the team size), which C.07 art. 16.4 caps a bye's value by."""

    entries: Mapping[str, tuple[TeamRoundEntry, ...]]
    rounds: int
    draw_mp: float
    draw_gp: float
    # C.07 art. 16.4 as amended from 1 February 2026 (an event starting on or after it):
    # a bye's dummy opponent capped at draws; before, the team's own score
    capped: bool = True
    won_mp: float = 2.0  # the match points of a match won

    def total(self, team: str, kind: str) -> float:
        """Return a team's total ``"mp"`` or ``"gp"``."""
        entries = self.entries.get(team, ())
        return sum(e.mp for e in entries) if kind == "mp" else sum(e.gp for e in entries)


def team_table(event: Event, upto: int | None = None) -> TeamTable:
    """Return the table of the finished team matches (up to round ``upto``)."""
    won, drawn, lost = event.config.teams.match_points
    entries: dict[str, list[TeamRoundEntry]] = {t.id: [] for t in event.teams}
    rounds = 0
    for result in match_results(event, upto):
        if not result.finished:
            continue
        rounds = max(rounds, result.round)
        forfeited = not result.bye and all(len(g.seats) == 1 for g in result.games)
        sides = ((result.match.team_1, result.match.team_2, result.points_1,
                  result.points_2),
                 (result.match.team_2, result.match.team_1, result.points_2,
                  result.points_1))
        for team, other, mine, theirs in sides:
            if not team or team not in entries:
                continue
            if not other:  # the bye: its game points against the games it did not play
                theirs = result.expected - mine
            mp = won if mine > theirs else drawn if mine == theirs else lost
            entries[team].append(TeamRoundEntry(result.round, other, mp, mine, forfeited))
    size = event.config.teams.size or 0
    return TeamTable({t: tuple(e) for t, e in entries.items()}, rounds, drawn, size / 2,
                     event.config.date >= C07_2026, won)
