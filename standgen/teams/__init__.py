"""Teams in individual events (docs/teams.md): team standings from the players' own.

The team-mates-apart rule lives with pairing (:func:`standgen.pairing.common.team_groups`);
this package ranks the teams once the players are ranked.
"""

from standgen.teams.standings import TeamStanding, team_standings

__all__ = ["TeamStanding", "team_standings"]
