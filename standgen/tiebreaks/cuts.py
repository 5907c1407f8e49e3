"""Cut and median modifiers: leave out the least (and most) significant contributions."""

from __future__ import annotations

from collections.abc import Sequence
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
    keys = [(c.opponent_score, c.part.value, c.voluntary) for c in contributions]
    cut_ids = dict(choose_cuts(keys, low, high, unplayed_first))
    parts = []
    for i, c in enumerate(contributions):
        if i in cut_ids:
            note = f"{c.part.note}; {cut_ids[i]}" if c.part.note else cut_ids[i]
            parts.append(replace(c.part, counted=False, note=note))
        else:
            parts.append(c.part)
    return summed(parts, note=cut_note(low, high))


Key = tuple[float, float, bool]  # (opponent score, contribution, voluntary unplayed round)


def choose_cuts(
    keys: Sequence[Key], low: int, high: int = 0, unplayed_first: bool = False
) -> list[tuple[int, str]]:
    """Return the (index, why) of the contributions :func:`cut` cuts, in cutting order.

    ``keys`` are the contributions as (opponent score, value, voluntary), in round
    order; the rules are :func:`cut`'s.
    """
    kept = list(range(len(keys)))
    low = min(low, len(kept))
    high = min(high, len(kept) - low)
    removed: list[tuple[int, str]] = []
    for _ in range(low):
        least = min(kept, key=lambda i: (keys[i][0], keys[i][1]))
        chosen, why = least, "cut: least significant"
        unplayed = [i for i in kept if keys[i][2]]
        if unplayed_first and unplayed:
            lowest = min(unplayed, key=lambda i: (keys[i][1], keys[i][0]))
            if keys[lowest][1] >= keys[least][1]:
                chosen, why = lowest, "cut: voluntary unplayed round first"
        kept.remove(chosen)
        removed.append((chosen, why))
    for _ in range(high):
        most = max(kept, key=lambda i: (keys[i][0], keys[i][1]))
        kept.remove(most)
        removed.append((most, "cut: most significant"))
    return removed


def cut_value(
    keys: Sequence[Key], low: int, high: int = 0, unplayed_first: bool = False
) -> float:
    """Return ``cut(...).value`` from the keys alone: the kept contributions summed in
    round order, as :func:`~standgen.tiebreaks.base.summed` sums them."""
    gone = {i for i, _ in choose_cuts(keys, low, high, unplayed_first)}
    return sum(key[1] for i, key in enumerate(keys) if i not in gone)


def cut_note(low: int, high: int) -> str:
    """Return how a cut value's note names the cut: ``lowest 1 cut``."""
    label = []
    if low:
        label.append(f"lowest {low} cut")
    if high:
        label.append(f"highest {high} cut")
    return ", ".join(label)
