"""A team tie-break (docs/teams.md, "Chess team tie-breaks"): its id, its FIDE C.07 /
TRF-2026 code and the function giving every team's value from a :class:`TeamTable`.

The Buchholz rule for a team's own unplayed round (FIDE C.07 art. 16.4, 2026 text) lives
here, once, for every tie-break that sums the opponents' scores."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from standgen.teams.tiebreaks.table import TeamRoundEntry, TeamTable

# a team's terms of a summed tie-break, one per round counted, each a product of factors
# (EMGSB's "the match points of the team met × the game points scored against it")
Terms = Callable[[TeamTable, str], tuple[tuple[float, ...], ...]]


@dataclass(frozen=True)
class TeamTiebreak:
    """One team tie-break: ``id`` in event.toml and standings.json, ``code`` as FIDE
    C.07 and TRF-2026's 202 record spell it (``BH:MP``), a label and its values."""

    id: str
    code: str
    label: str
    compute: Callable[[TeamTable], Mapping[str, float]]
    # a tie-break that decides among the teams still equal on those before it (DE):
    # its values from the table and each team's values of the tie-breaks before it
    compute_tied: Callable[[TeamTable, Mapping[str, tuple[float, ...]]],
                           Mapping[str, float]] | None = None
    lower_first: bool = False  # a place (DE), not a score: lower ranks higher
    # a sum's terms team by team, which a team's page shows (2 × 3 + 1 × 2 = 8)
    terms: Terms | None = None


def summed(terms: Terms) -> Callable[[TeamTable], Mapping[str, float]]:
    """Return the compute function of a tie-break summing ``terms`` (each a product)."""
    def compute(table: TeamTable) -> Mapping[str, float]:
        return {team: sum(math.prod(term) for term in terms(table, team))
                for team in table.entries}
    return compute


def opponent_score(table: TeamTable, team: str, entry: TeamRoundEntry, kind: str) -> float:
    """Return what round ``entry`` of ``team`` adds to a Buchholz of ``kind`` ("mp" or
    "gp"): the opponent's total (as art. 16.3 adjusts it: :meth:`TeamTable.adjusted`);
    for the team's own unplayed round (a bye, an absence, a match forfeited whole) its
    own total (the dummy opponent; C.07 2024 art. 16.4). In an event from 1 February
    2026 (art. 16.4 as amended) that is capped: by the opponent's total after a
    forfeited match (16.4.1), at a draw in every round after a bye or an absence
    (16.4.2)."""
    if entry.played and not entry.forfeited:
        return table.adjusted(entry.opponent, kind)
    own = table.total(team, kind)
    if not table.capped:
        return own
    if entry.played:
        return min(own, table.adjusted(entry.opponent, kind))
    draw = table.draw_mp if kind == "mp" else table.draw_gp
    return min(own, draw * table.rounds)
