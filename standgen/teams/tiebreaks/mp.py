"""MP, match points (FIDE C.07, team competitions: the primary score of a team Swiss): a
match won 2, drawn 1, lost 0 (``[teams] match_points``); the team bye a match won."""

from __future__ import annotations

from collections.abc import Mapping

from standgen.teams.tiebreaks.base import TeamTiebreak
from standgen.teams.tiebreaks.table import TeamTable


def compute(table: TeamTable) -> Mapping[str, float]:
    return {team: table.total(team, "mp") for team in table.entries}


TIEBREAK = TeamTiebreak("mp", "MP", "Match points", compute)
