"""Cut and median modifiers: leave out the least (and most) significant contributions."""

from __future__ import annotations

from dataclasses import dataclass, replace

from standgen.tiebreaks.base import Part, Value, summed


@dataclass(frozen=True)
class Contribution:
    """A part, the opponent score it is ordered by, and whether its round was voluntary."""

    part: Part
    opponent_score: float
    voluntary: bool = False  # a voluntary unplayed round (FIDE C.07 art. 16)


def cut(
    contributions: list[Contribution], low: int, high: int = 0, unplayed_first: bool = False
) -> Value:
    """Return the sum once ``low`` least and ``high`` most significant values are cut.

    FIDE C.07 art. 14.1-14.4 (Cut-1, Cut-2, Median-1): the least significant value is
    the contribution of the opponent with the lowest score, the lowest such contribution
    where several share it (for Buchholz the value is the score itself). Art. 16.5.1:
    with ``unplayed_first``, "the lowest contribution coming from" a voluntary unplayed
    round is cut, "as long as such contribution is not lower than the least significant
    value"; for Sonneborn-Berger, "cut the higher of these two values" (the lowest
    contribution, not the round whose dummy scores least: under the 2026 caps two dummies
    can differ). For Buchholz the value is the score, so the lowest voluntary round is
    always cut. Art. 16.5.2: each further low cut applies the rule again to what is left.
    High cuts know no exception. Cuts never exceed the contributions there are; among
    equal values the earliest round is cut. Cut parts stay in the breakdown, marked.
    """
    kept = list(contributions)
    low = min(low, len(kept))
    high = min(high, len(kept) - low)
    removed: list[tuple[Contribution, str]] = []
    for _ in range(low):
        least = min(kept, key=lambda c: (c.opponent_score, c.part.value))
        chosen, why = least, "cut: least significant"
        unplayed = [c for c in kept if c.voluntary]
        if unplayed_first and unplayed:
            lowest = min(unplayed, key=lambda c: (c.part.value, c.opponent_score))
            if lowest.part.value >= least.part.value:
                chosen, why = lowest, "cut: voluntary unplayed round first"
        kept = [c for c in kept if c is not chosen]
        removed.append((chosen, why))
    for _ in range(high):
        most = max(kept, key=lambda c: (c.opponent_score, c.part.value))
        kept = [c for c in kept if c is not most]
        removed.append((most, "cut: most significant"))
    cut_ids = {id(c): why for c, why in removed}
    parts = []
    for c in contributions:
        if id(c) in cut_ids:
            note = f"{c.part.note}; {cut_ids[id(c)]}" if c.part.note else cut_ids[id(c)]
            parts.append(replace(c.part, counted=False, note=note))
        else:
            parts.append(c.part)
    label = []
    if low:
        label.append(f"lowest {low} cut")
    if high:
        label.append(f"highest {high} cut")
    return summed(parts, note=", ".join(label))
