"""EMGSB, the extended match-game Sonneborn-Berger (FIDE C.07 art. 9.1 extended to team
competitions, 2024 text; art. 16.4 for the team's own bye): for each round, the match
points of the team met times the game points scored against it, summed."""

from __future__ import annotations

from standgen.teams.tiebreaks.base import TeamTiebreak, opponent_score, summed
from standgen.teams.tiebreaks.table import TeamTable


def terms(table: TeamTable, team: str) -> tuple[tuple[float, ...], ...]:
    return tuple((opponent_score(table, team, e, "mp"), e.gp) for e in table.entries.get(team, ()))


TIEBREAK = TeamTiebreak("emgsb", "EMGSB", "Extended match-game Sonneborn-Berger", summed(terms),
                        terms=terms)
