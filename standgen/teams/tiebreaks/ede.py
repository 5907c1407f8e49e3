"""EDE, the extended direct encounter for teams (FIDE C.07 art. 13.3): direct encounter
(:mod:`standgen.teams.tiebreaks.de`, art. 6) inside each group of teams still equal on
every tie-break before it, by the primary score, match points (art. 13.3.1); where that
splits nothing, by the secondary score, game points, a pairing not played counted as
every game won; each group split off decided again the same way, by the score that
split it as long as it splits, then the other. FIDE TEC, *Exercises in tie-breaking*
(2023), ch. 11, exercise 45: five teams equal on 10 match points, all met, each with 4
against the others; game points place Deer (8½) first and Elephants (7½) last; the
three left, by game points against each other, Bonobos 5½, Antelopes 5, Cougars 1½.

The value is the team's place in its group (1, 2 ...; lower is better), 0 in a group
left equal; the order of the steps as FIDE TEC's TieBreakServer (commit 14a34a2)
applies them, checked team by team on the generated sample.
"""

from __future__ import annotations

from collections.abc import Mapping

from standgen.teams.tiebreaks.base import TeamTiebreak
from standgen.teams.tiebreaks.de import MATCH_POINTS, Step, resolve
from standgen.teams.tiebreaks.table import TeamTable

# the secondary score: a pairing not played could still bring every game (2 × a drawn
# match's game points)
GAME_POINTS = Step(lambda e: e.gp, lambda table: 2 * table.draw_gp)


def compute_tied(table: TeamTable, before: Mapping[str, tuple[float, ...]]
                 ) -> Mapping[str, float]:
    """Return each team's EDE among the teams equal on ``before``."""
    return resolve(table, before, (MATCH_POINTS, GAME_POINTS))


TIEBREAK = TeamTiebreak("ede", "EDE", "Extended direct encounter", lambda table: {},
                        compute_tied, lower_first=True)
