"""GP, game points (FIDE C.07, team competitions): the sum of the team's game results
(a win 1, a draw ½), the team bye's BYE rows included."""

from __future__ import annotations

from collections.abc import Mapping

from standgen.teams.tiebreaks.base import TeamTiebreak
from standgen.teams.tiebreaks.table import TeamTable


def compute(table: TeamTable) -> Mapping[str, float]:
    return {team: table.total(team, "gp") for team in table.entries}


TIEBREAK = TeamTiebreak("gp", "GP", "Game points", compute)
