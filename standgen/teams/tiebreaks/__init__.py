"""The team tie-breaks of a team-vs-team event (docs/teams.md, "Chess team tie-breaks"):
FIDE C.07's team scores and tie-breaks, one module each, registered here (the team
registry; the players' own tie-breaks are :mod:`standgen.tiebreaks`).

A tie-break is its module (a :class:`TeamTiebreak` named ``TIEBREAK``), one line in
:data:`TEAM_TIEBREAKS` and its row in docs/teams.md's table. Verified team by team
against FIDE TEC's TieBreakServer on a generated 50-team, 14-round sample
(tests/test_team_tiebreaks.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from standgen.model import Event
from standgen.teams.tiebreaks import (
    bc,
    bh_gp,
    bh_mp,
    cut1,
    de,
    ede,
    edet,
    emgsb,
    gp,
    mp,
    sb_mp,
    sodos,
    sos,
)
from standgen.teams.tiebreaks.base import TeamTiebreak
from standgen.teams.tiebreaks.table import TeamTable, team_table

TEAM_TIEBREAKS: Mapping[str, TeamTiebreak] = {t.id: t for t in (
    mp.TIEBREAK,
    gp.TIEBREAK,
    bh_mp.TIEBREAK,
    bh_gp.TIEBREAK,
    emgsb.TIEBREAK,
    sb_mp.TIEBREAK,
    de.TIEBREAK,
    ede.TIEBREAK,
    edet.TIEBREAK,
    bc.TIEBREAK,
    *cut1.CUTS,  # BH:MP/C1, BH:GP/C1, EMGSB/C1, EMMSB/C1
    sos.TIEBREAK,  # Go: SOS of team points
    sodos.TIEBREAK,  # Go: SODOS of team points
)}


def team_tiebreak_values(event: Event, ids: tuple[str, ...],
                         upto: int | None = None) -> dict[str, dict[str, float]]:
    """Return each team's values of the team tie-breaks ``ids`` (team id -> id -> value),
    in order: a tie-break deciding among teams still equal (DE) reads those before it."""
    table = team_table(event, upto)
    values: dict[str, dict[str, float]] = {team: {} for team in table.entries}
    before: dict[str, tuple[float, ...]] = {team: () for team in table.entries}
    for tid in ids:
        tiebreak = TEAM_TIEBREAKS[tid]
        found = (tiebreak.compute_tied(table, before) if tiebreak.compute_tied is not None
                 else tiebreak.compute(table))
        for team, value in found.items():
            values[team][tid] = value
            before[team] += (-value if tiebreak.lower_first else value,)
    return values


__all__ = ["TEAM_TIEBREAKS", "TeamTable", "TeamTiebreak", "team_table",
           "team_tiebreak_values"]
