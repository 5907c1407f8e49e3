"""Team matches of a team-vs-team event (docs/teams.md, "Team matches"): each match's
result from its games, and the team standings.

The rules, WTC/ETC style (the Warmachine & Hordes World Team Championship; the issue #34
summary of WMATC's team standings, checked against the WTC Committee's player-pack notes
at wmhwtc.wordpress.com, 2013-03-20, "The Pairing System"):

1. Inside a match the captains draft the games (defender, two attackers, one refused);
   standgen records the drafted games, one row each in ``round-N.csv``.
2. A team **wins** its match by winning more than half of its games (3 of 5); equal game
   wins is a **drawn match** (possible with an even team size, never with the WTC's
   five: a Steamroller game always has a winner). No text we found scores a drawn
   match; standgen counts it half a win to each team, the team-Swiss convention of match
   points 2/1/0 halved (FIDE C.04.6 and C.07 use 2/1/0), and docs/teams.md says so.
3. A **team bye** (``team_2`` empty in ``teams-round-N.csv``) is a match won by every
   game: each member has a BYE row, scored by the format's bye rule. A team short of
   players (a player dropped) concedes the games it cannot play: each opponent without
   a game has a BYE row, a game won. A bye the team asked for (the row's ``result``:
   ``1-0``, ``draw``, ``0-1``; TRF-2026's 240) wins all, half or none of ``size`` games;
   a double forfeit (``--``, TRF-2026's 330) is lost by both teams, as TieBreakServer
   scores a match in which neither team scored.
4. Team standings: **Wins** (matches won, a drawn match ½), then **SoS** (the sum of the
   Wins of the teams met; a bye adds none), **TP** (games won by the team's players, a
   drawn game ½), then the format's per-seat stats summed over the team's games
   (Steamroller: CP, APD). Teams equal on all share a rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from standgen.memo import Memo
from standgen.model import Event, Game, GameKind, Team, TeamMatch
from standgen.results import SHARE

# a teams-round-N.csv match row's result when both teams forfeited (TRF-2026's 330 --)
DOUBLE_FORFEIT = "--"
# the Wins of a match won, drawn, lost
MATCH_WIN, MATCH_DRAW, MATCH_LOSS = 1.0, 0.5, 0.0
# the ids of the team tiebreaks after Wins in standings.json, before the format's stats
TEAM_MATCH_TIEBREAKS = ("sos", "tp")


@dataclass(frozen=True)
class MatchResult:
    """One team match of a round: its games and who won it."""

    round: int
    match: TeamMatch
    games: tuple[Game, ...]  # the games between the two teams' players (a bye's BYE rows)
    points_1: float  # games won by team_1's players (a drawn game ½)
    points_2: float
    expected: int  # the games a complete match has: [teams] size
    stats_1: Mapping[str, float]  # team_1's per-seat stats summed over the match
    stats_2: Mapping[str, float]

    @property
    def bye(self) -> bool:
        """Return whether this is a team bye: the pairing's, or one the team asked for."""
        return not self.match.team_2

    @property
    def pab(self) -> bool:
        """Return whether this is the pairing-allocated bye (its players' BYE rows)."""
        return self.bye and not self.match.result

    @property
    def double_forfeit(self) -> bool:
        """Return whether both teams forfeited the match (``--``: nobody fielded)."""
        return not self.bye and self.match.result == DOUBLE_FORFEIT

    @property
    def settled(self) -> bool:
        """Return whether the team round's file gives the result (a bye, a double
        forfeit): no games are expected in the round file."""
        return self.bye or self.double_forfeit

    @property
    def finished(self) -> bool:
        """Return whether every game of the match is in and has its result (a bye and a
        double forfeit are finished as soon as they are written)."""
        return self.settled or (len(self.games) == self.expected
                                and all(game.finished for game in self.games))

    @property
    def score_1(self) -> float:
        """Return team_1's Wins from the match (only meaningful once finished)."""
        theirs = self.expected - self.points_1 if self.bye else self.points_2
        return _match_score(self.points_1, theirs, self.pab)

    @property
    def score_2(self) -> float:
        return _match_score(self.points_2, self.points_1, False)

    def side_of(self, team: str) -> int:
        """Return 1 or 2: the side ``team`` plays in this match."""
        return 1 if self.match.team_1 == team else 2


def _match_score(mine: float, theirs: float, pab: bool) -> float:
    """Return a team's Wins from a match: more than half of the games won is a win; a
    match in which neither team scored (a double forfeit) is lost by both."""
    if pab or mine > theirs:
        return MATCH_WIN
    return MATCH_DRAW if mine == theirs and mine else MATCH_LOSS


def team_of_players(event: Event) -> dict[str, str]:
    """Return each player's team id (players without a team left out)."""
    return {p.id: p.team for p in event.players if p.team}


# a requested team bye's share of the games, by its result (TRF-2026's 240 F / H)
REQUESTED_SHARE = {"1-0": 1.0, "draw": 0.5, "0-1": 0.0}


def match_results(event: Event, upto: int | None = None) -> tuple[MatchResult, ...]:
    """Return the team matches of every team round (up to round ``upto``), each with the
    games of its round file between its teams' players, in round then match order; a
    bye the team asked for scores its result's share of ``[teams] size`` games and a
    double forfeit nothing, whatever rows the round file has.

    The last few events' results are kept (a team event's pages ask for them once per
    team): the event is immutable, and the kept one is checked to be the same object."""
    seen, found = _RECENT.get((id(event), upto), lambda: (event, _match_results(event, upto)))
    if seen is not event:
        found = _match_results(event, upto)
        _RECENT.put((id(event), upto), (event, found))
    return found


# the last few events' match results, with the event they were computed from
_RECENT: Memo[tuple[int, int | None], tuple[Event, tuple[MatchResult, ...]]] = Memo(8)


def _match_results(event: Event, upto: int | None) -> tuple[MatchResult, ...]:
    teams = team_of_players(event)
    rounds = {r.number: r for r in event.rounds}
    size = event.config.teams.size or 0
    out: list[MatchResult] = []
    for team_round in event.team_rounds:
        if upto is not None and team_round.number > upto:
            break
        rnd = rounds.get(team_round.number)
        index = _MatchIndex(rnd.games if rnd is not None else (), teams)
        for match in team_round.matches:
            if match.result:
                share = REQUESTED_SHARE.get(match.result, 0.0) * size
                out.append(MatchResult(team_round.number, match, (), share, 0.0, size, {}, {}))
                continue
            mine = index.of((match.team_1, match.team_2))
            out.append(_result_of(team_round.number, match, mine, teams, size))
    return tuple(out)


class _MatchIndex:
    """A round's games by the teams they belong to, so each match finds its games
    without reading the whole round (:func:`_in_match` is the rule: a played game
    belongs to the match of its two players' teams; a BYE row, of one player, to every
    match of its player's team)."""

    def __init__(self, games: Sequence[Game], teams: Mapping[str, str]) -> None:
        self.games = games
        self.played: dict[frozenset[str], list[int]] = {}
        self.single: dict[str, list[int]] = {}
        for k, game in enumerate(games):
            own = frozenset(teams.get(p, "") for p in game.players)
            if game.kind is GameKind.BYE or len(game.seats) == 1:
                if len(own) == 1 and "" not in own:
                    self.single.setdefault(next(iter(own)), []).append(k)
            elif len(own) == 2:
                self.played.setdefault(own, []).append(k)

    def of(self, sides: tuple[str, str]) -> tuple[Game, ...]:
        """Return the games of the match of ``sides``, in the round file's order."""
        found = [*self.single.get(sides[0], ()), *self.single.get(sides[1], ())]
        if sides[1]:
            found.extend(self.played.get(frozenset(sides), ()))
        return tuple(self.games[k] for k in sorted(set(found)))


def _result_of(number: int, match: TeamMatch, games: tuple[Game, ...],
               teams: Mapping[str, str], size: int) -> MatchResult:
    """Return a match's result from its games: each side's points and summed stats."""
    sides = (match.team_1, match.team_2)
    points = [0.0, 0.0]
    stats: list[dict[str, float]] = [{}, {}]
    for game in games:
        for seat in game.seats:
            side = sides.index(teams.get(seat.player, ""))
            if seat.outcome is not None:
                points[side] += SHARE[seat.outcome]
            for stat, value in seat.stats.items():
                stats[side][stat] = stats[side].get(stat, 0.0) + value
    return MatchResult(number, match, games, points[0], points[1], size, stats[0], stats[1])


def games_waiting(event: Event) -> dict[int, int]:
    """Return, for each round with a file, how many games its team matches still lack:
    a match is complete with ``[teams] size`` games (a conceded game's BYE row counts), a
    team bye as soon as it is paired. Round state reads it (:attr:`Round.waiting`)."""
    waiting: dict[int, int] = {}
    for result in match_results(event):
        if not result.settled:
            missing = max(0, result.expected - len(result.games))
            waiting[result.round] = waiting.get(result.round, 0) + missing
    return waiting


def _in_match(game: Game, sides: tuple[str, str], teams: Mapping[str, str]) -> bool:
    """Return whether a game belongs to the match of ``sides``: every player's team is
    one of its two (a BYE row: the bye team's, or a team whose opponent is short of
    players: a game conceded)."""
    own = {teams.get(p, "") for p in game.players}
    if game.kind is GameKind.BYE or len(game.seats) == 1:
        return bool(own) and own <= {sides[0], sides[1]} - {""}
    return bool(sides[1]) and own == set(sides)


@dataclass(frozen=True)
class TeamMatchStanding:
    """One team's row in a team event's standings."""

    rank: int
    team: Team
    wins: float  # matches won, a drawn match ½
    sos: float  # the sum of the opponents' Wins
    tp: float  # games won by the team's players
    stats: Mapping[str, float]  # the format's per-seat stats summed (Steamroller: cp, apd)
    played: int  # matches finished, the bye included
    record: tuple[int, int, int]  # matches won, drawn, lost

    def tiebreaks(self, stat_ids: tuple[str, ...]) -> tuple[float, ...]:
        """Return the values after Wins, in order: SoS, TP, then each stat."""
        return (self.sos, self.tp, *(self.stats.get(s, 0.0) for s in stat_ids))


@dataclass
class _Tally:
    """One team's sums over its finished matches, as team_match_standings adds them."""

    wins: float = 0.0
    tp: float = 0.0
    played: int = 0
    stats: dict[str, float] = field(default_factory=dict)
    met: list[str] = field(default_factory=list)
    record: list[int] = field(default_factory=lambda: [0, 0, 0])

    def add(self, result: MatchResult, side: int) -> None:
        """Add one finished match, seen from ``side`` (1 or 2)."""
        first = side == 1
        score = result.score_1 if first else result.score_2
        self.wins += score
        self.tp += result.points_1 if first else result.points_2
        for stat, value in (result.stats_1 if first else result.stats_2).items():
            self.stats[stat] = self.stats.get(stat, 0.0) + value
        self.played += 1
        self.record[0 if score == MATCH_WIN else 1 if score == MATCH_DRAW else 2] += 1
        other = result.match.team_2 if first else result.match.team_1
        if other:
            self.met.append(other)


def team_match_standings(
    event: Event, stat_ids: tuple[str, ...], upto: int | None = None,
) -> tuple[TeamMatchStanding, ...]:
    """Return the teams ranked by Wins, SoS, TP, then ``stat_ids`` (the format's stats,
    e.g. Steamroller's ``("cp", "apd")``), over the finished matches up to ``upto``."""
    tally = {t.id: _Tally() for t in event.teams}
    for result in match_results(event, upto):
        if not result.finished:
            continue
        for side, team in ((1, result.match.team_1), (2, result.match.team_2)):
            if team in tally:
                tally[team].add(result, side)
    rows = []
    for t in event.teams:
        sums = tally[t.id]
        rows.append(TeamMatchStanding(
            0, t, sums.wins, sum(tally[o].wins for o in sums.met if o in tally), sums.tp,
            sums.stats, sums.played, (sums.record[0], sums.record[1], sums.record[2])))
    return _ranked(rows, stat_ids)


def _ranked(rows: list[TeamMatchStanding], stat_ids: tuple[str, ...]
            ) -> tuple[TeamMatchStanding, ...]:
    """Return ``rows`` sorted by Wins, SoS, TP, ``stat_ids``, teams equal sharing a rank."""
    def key(row: TeamMatchStanding) -> tuple[float, ...]:
        return (row.wins, *row.tiebreaks(stat_ids))

    rows = sorted(rows, key=lambda r: (tuple(-v for v in key(r)), r.team.name.casefold(),
                                       r.team.id))
    ranked: list[TeamMatchStanding] = []
    for k, row in enumerate(rows):
        same = bool(ranked) and key(ranked[-1]) == key(row)
        ranked.append(TeamMatchStanding(ranked[-1].rank if same else k + 1, row.team,
                                        row.wins, row.sos, row.tp, row.stats, row.played,
                                        row.record))
    return tuple(ranked)
