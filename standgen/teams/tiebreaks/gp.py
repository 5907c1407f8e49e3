"""GP, game points (FIDE C.07, team competitions): the sum of the team's game results
(a win 1, a draw ½), the team bye's BYE rows included."""

from __future__ import annotations

from standgen.teams.tiebreaks.base import TeamTiebreak, summed
from standgen.teams.tiebreaks.table import TeamTable


def terms(table: TeamTable, team: str) -> tuple[tuple[float, ...], ...]:
    return tuple((e.gp,) for e in table.entries.get(team, ()))


TIEBREAK = TeamTiebreak("gp", "GP", "Game points", summed(terms),
                        terms=terms)
