"""EMGSB, the extended match-game Sonneborn-Berger (FIDE C.07 art. 9.1 extended to team
competitions, 2024 text; art. 16.4 for the team's own bye): for each round, the match
points of the team met times the game points scored against it, summed."""

from __future__ import annotations

from collections.abc import Mapping

from standgen.teams.tiebreaks.base import TeamTiebreak, opponent_score
from standgen.teams.tiebreaks.table import TeamTable


def compute(table: TeamTable) -> Mapping[str, float]:
    return {team: sum(opponent_score(table, team, e, "mp") * e.gp for e in entries)
            for team, entries in table.entries.items()}


TIEBREAK = TeamTiebreak("emgsb", "EMGSB", "Extended match-game Sonneborn-Berger", compute)
