"""SB:MP, the team Sonneborn-Berger of match points (FIDE C.07 art. 9.1 over match
points; art. 16.4 for the team's own bye): for each round, the match points of the team
met times the match points scored against it, summed (TieBreakServer's EMMSB)."""

from __future__ import annotations

from standgen.teams.tiebreaks.base import TeamTiebreak, opponent_score, summed
from standgen.teams.tiebreaks.table import TeamTable


def terms(table: TeamTable, team: str) -> tuple[tuple[float, ...], ...]:
    return tuple((opponent_score(table, team, e, "mp"), e.mp) for e in table.entries.get(team, ()))


TIEBREAK = TeamTiebreak("sb-mp", "EMMSB", "Sonneborn-Berger (match points)", summed(terms),
                        terms=terms)
