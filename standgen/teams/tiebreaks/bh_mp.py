"""BH:MP, the team Buchholz of match points (FIDE C.07 art. 8.1 over match points; art.
16.4 for the team's own bye): the sum of the match points of the teams met."""

from __future__ import annotations

from standgen.teams.tiebreaks.base import TeamTiebreak, opponent_score, summed
from standgen.teams.tiebreaks.table import TeamTable


def terms(table: TeamTable, team: str) -> tuple[tuple[float, ...], ...]:
    return tuple((opponent_score(table, team, e, "mp"),) for e in table.entries.get(team, ()))


TIEBREAK = TeamTiebreak("bh-mp", "BH:MP", "Buchholz (match points)", summed(terms),
                        terms=terms)
