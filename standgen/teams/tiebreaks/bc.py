"""BC, board count (FIDE C.07 art. 12.1, a tie-break of the team competitions, most of
all the knockout ones): each board's result times its board number, summed over the
team's rounds; the **lower** the better (points on the top boards weigh least), so a
place in the standings, not a score. FIDE TEC's *Exercises in tie-breaking* (2023),
exercise 46: Koalas won board 1, drew boards 2 and 3 and lost board 4 against Narwhals:
BC 1 × 1 + 2 × ½ + 3 × ½ + 4 × 0 = 3.5, Narwhals 6.5: Koalas ahead.

Board k of a match is its k-th game by table (standgen pairs and writes the boards so;
an imported TRF team file's ``300`` line-ups give the same order). A board won by
forfeit counts as won (the exercises: "individual forfeits are considered equivalent
to actually played matches"), the pairing-allocated bye as a win on every board ("PABs
provide the same points as a regular win"), a bye the team asked for its share on every
board, an absence and a double forfeit nothing: as FIDE TEC's TieBreakServer (commit
14a34a2) counts them, checked team by team on the generated sample. C.07 says BC can
only separate teams equal on match points: put it after MP alone, or after tie-breaks
that keep that so.
"""

from __future__ import annotations

from standgen.teams.tiebreaks.base import TeamTiebreak, summed
from standgen.teams.tiebreaks.table import TeamTable


def terms(table: TeamTable, team: str) -> tuple[tuple[float, ...], ...]:
    """Return the team's terms: each board number times the points scored on it over
    every round (board 1 first)."""
    by_board: dict[int, float] = {}
    for entry in table.entries.get(team, ()):
        for board, points in enumerate(entry.boards, start=1):
            by_board[board] = by_board.get(board, 0.0) + points
    return tuple((float(board), points) for board, points in sorted(by_board.items()))


TIEBREAK = TeamTiebreak("bc", "BC", "Board count", summed(terms), terms=terms,
                        lower_first=True)
