"""SOS, a Go team's sum of opponents' scores (issue #34; docs/teams.md, "Go team
events"): the team points (match points, ``[teams] match_points``) of the teams met,
summed.

Source: the European Go Congress 2015 team tournament (egc2015.cz/rules/team), a Swiss
on winning points "with SOS and SODOS used for tie breakers", at team level: a team's
score is its team points. A round without an opponent (a team bye, a bye asked for, an
absence) adds nothing: OpenGotha counts an unpaired round as a game against a virtual
opponent on the player's starting score (``Tournament.fillBaseScoringInfo``; the
players' SOS, :func:`standgen.formats.mcmahon.unplayed_sos`), and every team starts on 0
team points (no McMahon bar for teams). A match forfeited is a paired round, its
opponent counted (OpenGotha counts forfeits as paired games)."""

from __future__ import annotations

from standgen.teams.tiebreaks.base import TeamTiebreak, summed
from standgen.teams.tiebreaks.table import TeamTable


def terms(table: TeamTable, team: str) -> tuple[tuple[float, ...], ...]:
    return tuple((table.total(e.opponent, "mp"),) for e in table.entries.get(team, ())
                 if e.played)


TIEBREAK = TeamTiebreak("sos", "SOS", "Strength of schedule (sum of opponents' scores)",
                        summed(terms), terms=terms)
