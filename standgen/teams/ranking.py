"""The team standings of a team-vs-team event, whichever order ranks them (docs/teams.md,
"Team standings" and "Chess team standings"): one row per team with its score, its
tie-break values by id and its record, as the event page, the team pages, standings.json
and the ``.trf`` read them.

A format whose teams are ranked by match points (``Format.team_tiebreaks``, carried into
``[teams] tiebreaks``: chess) ranks them by **MP**, then the event's team tie-breaks
(FIDE C.07, :mod:`standgen.teams.tiebreaks`); any other by **Wins**, SoS, TP and the
format's stats (:func:`standgen.teams.matches.team_match_standings`).
"""

from __future__ import annotations

from dataclasses import dataclass

from standgen.model import Event, Team
from standgen.teams.matches import (
    TEAM_MATCH_TIEBREAKS,
    TeamMatchStanding,
    team_match_standings,
)
from standgen.teams.tiebreaks import TEAM_TIEBREAKS, team_tiebreak_values


@dataclass(frozen=True)
class TeamRow:
    """One team's row: its rank, score (Wins or MP), tie-break values (in the order of
    :attr:`TeamStandings.ids`), matches finished and record (won, drawn, lost)."""

    rank: int
    team: Team
    score: float
    values: tuple[float, ...]
    played: int
    record: tuple[int, int, int]


@dataclass(frozen=True)
class TeamStandings:
    """The ranked teams: ``score_id`` ("wins" or "mp"), the tie-break ids after it."""

    score_id: str
    ids: tuple[str, ...]
    rows: tuple[TeamRow, ...]

    @property
    def by_match_points(self) -> bool:
        return self.score_id == "mp"


def team_standings(event: Event, stat_ids: tuple[str, ...],
                   upto: int | None = None) -> TeamStandings:
    """Return the team standings over the finished matches up to round ``upto``
    (``stat_ids``: the format's stats, the last wargame tie-breaks)."""
    wargame = team_match_standings(event, stat_ids, upto)
    ids = event.config.teams.tiebreaks
    if not ids:
        return TeamStandings("wins", TEAM_MATCH_TIEBREAKS + stat_ids, tuple(
            TeamRow(r.rank, r.team, r.wins, r.tiebreaks(stat_ids), r.played, r.record)
            for r in wargame))
    return _by_match_points(event, wargame, ids, upto)


def _by_match_points(event: Event, wargame: tuple[TeamMatchStanding, ...],
                     ids: tuple[str, ...], upto: int | None) -> TeamStandings:
    """Return the teams ranked by MP, then the team tie-breaks ``ids`` (FIDE C.07); the
    record and matches played as ``wargame`` has them."""
    values = team_tiebreak_values(event, ("mp", *ids), upto)
    rows = [TeamRow(0, r.team, values[r.team.id]["mp"],
                    tuple(values[r.team.id][t] for t in ids), r.played, r.record)
            for r in wargame]
    flip = tuple(-1.0 if TEAM_TIEBREAKS[t].lower_first else 1.0 for t in ids)

    def key(row: TeamRow) -> tuple[float, ...]:
        return (row.score, *(v * s for v, s in zip(row.values, flip, strict=True)))

    rows.sort(key=lambda r: (tuple(-v for v in key(r)), r.team.name.casefold(), r.team.id))
    ranked: list[TeamRow] = []
    for k, row in enumerate(rows):
        same = bool(ranked) and key(ranked[-1]) == key(row)
        ranked.append(TeamRow(ranked[-1].rank if same else k + 1, row.team, row.score,
                              row.values, row.played, row.record))
    return TeamStandings("mp", ids, tuple(ranked))
