"""BH:GP, the team Buchholz of game points (FIDE C.07 art. 8.1 over game points; art.
16.4 for the team's own bye): the sum of the game points of the teams met."""

from __future__ import annotations

from collections.abc import Mapping

from standgen.teams.tiebreaks.base import TeamTiebreak, opponent_score
from standgen.teams.tiebreaks.table import TeamTable


def compute(table: TeamTable) -> Mapping[str, float]:
    return {team: sum(opponent_score(table, team, e, "gp") for e in entries)
            for team, entries in table.entries.items()}


TIEBREAK = TeamTiebreak("bh-gp", "BH:GP", "Buchholz (game points)", compute)
