"""EDET, the extended direct encounter with the top-board results (FIDE C.07 art. 13.3.2
with art. 12.2): EDE (:mod:`standgen.teams.tiebreaks.ede`: match points, then game
points, between the teams of a group still equal) and, where exactly two teams are left
equal, the results of their match(es) board by board from the top: board 1 alone, then
board 2, and so on (TBR, art. 12.2: only boards of matches the two actually played).
FIDE TEC, *Exercises in tie-breaking* (2023), exercise 47: Koalas and Narwhals drew
their match 2-2 and are equal on its match and game points; Koalas won board 1: Koalas
ahead.

Board k of a match is its k-th game by table (standgen writes the boards so; an
imported TRF team file's ``300`` line-ups give the same order). The value is the team's
place in its group (1, 2 ...; lower is better), 0 in a group left equal; the steps in
the order FIDE TEC's TieBreakServer (commit 14a34a2) applies them, checked team by team
on the generated sample. It is the tie-break the FIDE TEC team sample's ``202`` record
names first (``EDET/P``).
"""

from __future__ import annotations

from collections.abc import Mapping

from standgen.teams.tiebreaks.base import TeamTiebreak
from standgen.teams.tiebreaks.de import MATCH_POINTS, Step, resolve
from standgen.teams.tiebreaks.ede import GAME_POINTS
from standgen.teams.tiebreaks.table import TeamTable


def top_board(board: int) -> Step:
    """Return the step of board ``board`` (1 first): the team's result on it, between
    two teams only (C.07 art. 13.3.2); a pairing not played could bring the board."""
    return Step(lambda e: e.boards[board - 1] if len(e.boards) >= board else 0.0,
                lambda table: 1.0, pairs_only=True)


def compute_tied(table: TeamTable, before: Mapping[str, tuple[float, ...]]
                 ) -> Mapping[str, float]:
    """Return each team's EDET among the teams equal on ``before``."""
    size = round(2 * table.draw_gp)
    return resolve(table, before, (MATCH_POINTS, GAME_POINTS,
                                   *(top_board(k) for k in range(1, size + 1))))


TIEBREAK = TeamTiebreak("edet", "EDET", "Extended direct encounter, top boards",
                        lambda table: {}, compute_tied, lower_first=True)
