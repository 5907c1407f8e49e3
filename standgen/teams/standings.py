"""Team standings of an individual event: each team's score from its members' scores.

The rule (docs/teams.md), as team trophies of individual events declare it (Diplomacy's
team trophies: "the sum of its members' best results", for example the best three; a
wargame or chess event's team prize: the sum of the members' points):

1. A member's score is their score in the event's standings (the first column: TP,
   points, MMS, the Diplomacy tournament score), games of every round counted, a player
   who dropped with the score they had.
2. The team's **score** is the sum of its best ``[teams] counted`` member scores (every
   member's when ``counted`` is not set); a team with fewer members sums what it has.
   With ``[teams] best = N`` it is instead the sum of the N best results (a game's
   points: a Diplomacy board's score) of its members, whoever played them, the team
   trophy of a Diplomacy event ("the sum of its members' best results, for example the
   best three", issue #34); fewer results: what it has.
3. Ties are broken by ``all`` (the sum over every member, which rewards the members not
   counted), then ``best`` (the best placed member's rank, lower first); teams still
   equal share a rank, listed by name.
"""

from __future__ import annotations

from dataclasses import dataclass

from standgen.model import Team
from standgen.standings import Standing, Standings

TEAM_TIEBREAKS = ("all", "best")  # ids in standings.json's "teams" rows


@dataclass(frozen=True)
class TeamStanding:
    """One team's row: its rank, score, tiebreaks and members, best placed first."""

    rank: int
    team: Team
    score: float
    all: float  # the sum over every member
    best: int  # the best placed member's rank
    members: tuple[Standing, ...]  # best placed first
    counted: tuple[Standing, ...]  # the members whose scores make ``score``


def team_standings(standings: Standings) -> tuple[TeamStanding, ...]:
    """Return the event's teams ranked by the rule above; () when it has none."""
    event = standings.event
    if not event.teams:
        return ()
    counted_n = event.config.teams.counted
    rows: list[TeamStanding] = []
    for team in event.teams:
        members = tuple(row for row in standings.rows if row.player.team == team.id)
        if not members:
            continue
        ordered = tuple(sorted(members, key=lambda r: (-r.score, r.rank)))
        counted = ordered if counted_n is None else ordered[:counted_n]
        score = sum(r.score for r in counted)
        if event.config.teams.best is not None:
            score, counted = best_results(ordered, event.config.teams.best)
        rows.append(TeamStanding(
            rank=0, team=team, score=score,
            all=sum(r.score for r in members), best=min(r.rank for r in members),
            members=tuple(sorted(members, key=lambda r: r.rank)), counted=counted))
    rows.sort(key=lambda t: (-t.score, -t.all, t.best, t.team.name.casefold(), t.team.id))
    ranked: list[TeamStanding] = []
    for k, row in enumerate(rows):
        before = ranked[-1] if ranked else None
        same = before is not None and (before.score, before.all, before.best) == (
            row.score, row.all, row.best)
        ranked.append(_with_rank(row, before.rank if same and before else k + 1))
    return tuple(ranked)


def best_results(members: tuple[Standing, ...], n: int
                 ) -> tuple[float, tuple[Standing, ...]]:
    """Return the sum of the ``n`` best results (each a game's points) of ``members``
    (best placed first among equal results) and the members who played them, in the
    order given."""
    results = sorted(((entry.points, k) for k, row in enumerate(members)
                      for entry in row.record.entries), key=lambda r: (-r[0], r[1]))[:n]
    players = {k for _, k in results}
    return (sum(points for points, _ in results),
            tuple(row for k, row in enumerate(members) if k in players))


def _with_rank(row: TeamStanding, rank: int) -> TeamStanding:
    return TeamStanding(rank, row.team, row.score, row.all, row.best, row.members,
                        row.counted)
