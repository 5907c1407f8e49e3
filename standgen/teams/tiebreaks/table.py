"""The rounds a team tie-break reads (docs/teams.md, "Chess team tie-breaks"): each
team's match points and game points round by round, from the finished team matches.

FIDE C.07 (Tie-Break Regulations, 2024 and the amendments in force from 1 February 2026)
scores a team competition twice: **match points** (MP; a match won, drawn, lost by game
points, 2/1/0 unless the event declares others: ``[teams] match_points``) and **game
points** (GP; the sum of the team's game results, a draw ½). A team's pairing-allocated
bye (PAB, a team bye) is an unplayed round (C.07 art. 16) scored by its members' BYE
rows (the format's bye points); its match points follow from those game points against
the games not played: all won (a bye point of 1) is a match won, half (TRF-2026's 320
of the TEC sample: 1 match point, 2 game points of 4) a match drawn. A bye the team asked
for (TRF-2026's 240) scores its result's share of the games the same way; a match
nobody scored in (a double forfeit, 330 ``--``) is lost by both; a round a team has no
match or bye in is an absence (0, 0). Every one of them is an unplayed round (art. 16),
and the half- and zero-point byes, absences and matches lost by forfeit are voluntary
ones (art. 16.2), which art. 16.3 and 16.5 treat apart.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from standgen.formats import format_of
from standgen.formats.base import Format
from standgen.model import Event
from standgen.results import SHARE
from standgen.teams.matches import REQUESTED_SHARE, MatchResult, match_results, team_of_players
from standgen.tiebreaks.fide import edition_of

# the C.07 amendments' effective date (TieBreakServer applies them by the start date too)
C07_2026 = dt.date(2026, 2, 1)


@dataclass(frozen=True)
class TeamRoundEntry:
    """One team's round: whom it met ("" for a bye or an absence), its match and game
    points."""

    round: int
    opponent: str
    mp: float
    gp: float
    # a match forfeited whole (one team fielded nobody, TRF-2026's 330; both, a double
    # forfeit): an unplayed round of both teams for the Buchholz of C.07 art. 16.4.1
    forfeited: bool = False
    # a round the team chose not to play or was absent from (C.07 art. 16.2): a half- or
    # zero-point bye, an absence, a match lost by forfeit; not the pairing's bye, a
    # full-point bye or a match won by forfeit
    voluntary: bool = False
    # the team's points board by board (board 1 first: the match's games in table
    # order, a board won by forfeit 1, one left empty 0); a bye's every board its share
    # (the pairing's bye: 1 each, as C.07 art. 12 counts it); () when no board counts
    boards: tuple[float, ...] = ()

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

    def adjusted(self, team: str, kind: str) -> float:
        """Return a team's total as its opponents' Buchholz counts it (C.07 art. 16.3):
        the rounds without an opponent after the last round it played, had the
        pairing's or a full-point bye or won by forfeit (a team that withdrew, or was
        absent to the end) count as drawn matches."""
        entries = self.entries.get(team, ())
        last = max((e.round for e in entries if not e.voluntary), default=0)
        draw = self.draw_mp if kind == "mp" else self.draw_gp
        return sum((e.mp if kind == "mp" else e.gp) if e.played or e.round <= last else draw
                   for e in entries)


def team_table(event: Event, upto: int | None = None) -> TeamTable:
    """Return the table of the finished team matches (up to round ``upto``): each team
    has an entry for every round counted, a round it has no match in an absence (0, 0)."""
    won, drawn, _ = event.config.teams.match_points
    entries: dict[str, list[TeamRoundEntry]] = {t.id: [] for t in event.teams}
    fmt = format_of(event)
    rounds = 0
    seen: set[tuple[int, str]] = set()
    members = team_of_players(event)
    for result in match_results(event, upto):
        seen.update((result.round, team) for team in (result.match.team_1,
                                                       result.match.team_2))
        if not result.finished:
            continue
        rounds = max(rounds, result.round)
        for entry_of in _entries(result, event.config.teams.match_points,
                                 _pab_points(result, fmt, event),
                                 _boards(result, members, fmt, event)):
            if entry_of[0] in entries:
                entries[entry_of[0]].append(entry_of[1])
    for team, found in entries.items():
        found.extend(TeamRoundEntry(k, "", 0.0, 0.0, voluntary=True)
                     for k in range(1, rounds + 1) if (k, team) not in seen)
        found.sort(key=lambda e: e.round)
    size = event.config.teams.size or 0
    return TeamTable({t: tuple(e) for t, e in entries.items()}, rounds, drawn, size / 2,
                     capped(event), won)


def capped(event: Event) -> bool:
    """Return whether C.07 art. 16.4 as amended in 2026 applies: the event's ``[options]
    fide_edition`` (the players' tie-breaks' choice, :func:`edition_of`), else its start
    date, from 1 February 2026 (TieBreakServer chooses by the start date too)."""
    return edition_of(event, "2026" if event.config.date >= C07_2026 else "2023") == "2026"


def _pab_points(result: MatchResult, fmt: Format, event: Event) -> float:
    """Return the game points of the pairing's team bye: its players' BYE rows as the
    format scores them (chess: ``[options] bye_points``); a match's team_1 points else."""
    if not result.pab:
        return result.points_1
    return sum(fmt.points(seat, game, event.config) for game in result.games
               for seat in game.seats)


def _boards(result: MatchResult, members: Mapping[str, str], fmt: Format,
            event: Event) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Return the two teams' points board by board: board k is the match's k-th game by
    table (each seat's result: a win 1, a draw ½, a board won by forfeit 1; a result
    left empty, as the format scores it); a
    bye's every board the bye's share of a game, the pairing's bye a game won each
    (C.07 art. 12: a PAB gives the points of a win); none for a double forfeit."""
    size = result.expected
    if result.bye:
        share = 1.0 if result.pab else REQUESTED_SHARE.get(result.match.result, 0.0)
        return (share,) * size, ()
    sides: tuple[list[float], list[float]] = ([], [])
    for game in sorted(result.games, key=lambda g: g.table):
        points = [0.0, 0.0]
        for seat in game.seats:
            team = members.get(seat.player, "")
            if team in (result.match.team_1, result.match.team_2):
                points[result.side_of(team) - 1] += (
                    SHARE[seat.outcome] if seat.outcome is not None
                    else fmt.points(seat, game, event.config))
        sides[0].append(points[0])
        sides[1].append(points[1])
    return tuple(sides[0]), tuple(sides[1])


def _entries(result: MatchResult, match_points: tuple[float, float, float],
             points_1: float, boards: tuple[tuple[float, ...], tuple[float, ...]],
             ) -> list[tuple[str, TeamRoundEntry]]:
    """Return the entries a finished match gives its teams: match points by game points
    (a bye's against the games it did not play; a match nobody scored in, a double
    forfeit, lost by both), forfeits, voluntary rounds."""
    forfeited = not result.bye and all(len(g.seats) == 1 for g in result.games)
    unplayed = forfeited or (result.bye and not result.pab)
    # a bye: its game points against the games it did not play
    theirs = result.expected - points_1 if result.bye else result.points_2
    sides = ((result.match.team_1, result.match.team_2, points_1, theirs, boards[0]),
             (result.match.team_2, result.match.team_1, result.points_2, points_1,
              boards[1]))
    out = []
    for team, other, mine, against, by_board in sides[:2 if result.match.team_2 else 1]:
        mp = _match_points(mine, against, match_points)
        out.append((team, TeamRoundEntry(result.round, other, mp, mine, forfeited,
                                         unplayed and mp < match_points[0], by_board)))
    return out


def _match_points(mine: float, theirs: float, match_points: tuple[float, float, float]
                  ) -> float:
    """Return a team's match points by game points; a match nobody scored in (a double
    forfeit, a zero-point bye) is lost."""
    won, drawn, lost = match_points
    return won if mine > theirs else drawn if mine == theirs and mine else lost
