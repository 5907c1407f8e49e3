"""SODOS, a Go team's sum of defeated opponents' scores (issue #34; docs/teams.md, "Go
team events"): the team points of each team it beat, plus half the team points of each
team it drew with (a drawn match: equal board wins).

Source: the European Go Congress 2015 team tournament (egc2015.cz/rules/team), "SOS and
SODOS used for tie breakers", at team level; a drawn match weighs half, as the players'
SODOS weighs a jigo (OpenGotha's ``Tournament.fillBaseScoringInfo``, the opponent's score
times the result; :mod:`standgen.tiebreaks.defeated`). A round without an opponent adds
nothing (see :mod:`standgen.teams.tiebreaks.sos`); a match lost adds nothing."""

from __future__ import annotations

from standgen.teams.tiebreaks.base import TeamTiebreak, summed
from standgen.teams.tiebreaks.table import TeamTable


def terms(table: TeamTable, team: str) -> tuple[tuple[float, ...], ...]:
    out = []
    for e in table.entries.get(team, ()):
        if not e.played:
            continue
        share = 1.0 if e.mp == table.won_mp else 0.5 if e.mp == table.draw_mp else 0.0
        if share and e.mp:
            out.append((table.total(e.opponent, "mp"), share))
    return tuple(out)


TIEBREAK = TeamTiebreak("sodos", "SODOS", "Sum of defeated opponents' scores (SODOS)",
                        summed(terms), terms=terms)
