"""MP, match points (FIDE C.07, team competitions: the primary score of a team Swiss): a
match won 2, drawn 1, lost 0 (``[teams] match_points``); the team bye a match won."""

from __future__ import annotations

from standgen.teams.tiebreaks.base import TeamTiebreak, summed
from standgen.teams.tiebreaks.table import TeamTable


def terms(table: TeamTable, team: str) -> tuple[tuple[float, ...], ...]:
    return tuple((e.mp,) for e in table.entries.get(team, ()))


TIEBREAK = TeamTiebreak("mp", "MP", "Match points", summed(terms),
                        terms=terms)
