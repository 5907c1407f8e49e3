"""BH:MP, the team Buchholz of match points (FIDE C.07 art. 8.1 over match points; art.
16.4 for the team's own bye): the sum of the match points of the teams met."""

from __future__ import annotations

from collections.abc import Mapping

from standgen.teams.tiebreaks.base import TeamTiebreak, opponent_score
from standgen.teams.tiebreaks.table import TeamTable


def compute(table: TeamTable) -> Mapping[str, float]:
    return {team: sum(opponent_score(table, team, e, "mp") for e in entries)
            for team, entries in table.entries.items()}


TIEBREAK = TeamTiebreak("bh-mp", "BH:MP", "Buchholz (match points)", compute)
