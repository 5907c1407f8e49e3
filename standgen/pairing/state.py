"""The small pairing state: what a pairing rule reads of the standings (issue #16).

Pairing never sees the whole :class:`standgen.standings.Standings` (the tiebreak
breakdowns, the format, the ranking machinery): the ranking floor hands it this, built
by :func:`standgen.standings.pairing_input`. Colours, floats, opponents met and byes are
in each player's record (:class:`standgen.records.Record`, its entries by round).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from standgen.records import Record
from standgen.tiebreaks.base import Value


@dataclass(frozen=True)
class PairingInput:
    """The standings after the last complete round, as pairing reads them."""

    order: tuple[str, ...]  # ranked player ids, first place first (spare players left out)
    ranks: Mapping[str, int]  # player id -> rank (ties share one)
    scores: Mapping[str, float]  # player id -> the primary score (McMahon: the MMS)
    # player id -> tiebreak id -> value, computed when read (McMahon's placement)
    values: Mapping[str, Mapping[str, Value]]
    tiebreaks: tuple[str, ...]  # the event's tiebreak chain, in order
    records: Mapping[str, Record]  # every player's games: opponents, colours, byes
    planned_rounds: int

    def ordered_scores(self) -> list[float]:
        """Return the ranked players' scores, first place first."""
        return [self.scores[pid] for pid in self.order]
