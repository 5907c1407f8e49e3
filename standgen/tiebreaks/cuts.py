"""Per-round contributions, summed or with cuts and median modifiers (the least and most
significant contributions left out)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from standgen.tiebreaks.base import Adjustment, Part, Value

if TYPE_CHECKING:
    from standgen.records import Entry


class Contribution(NamedTuple):
    """One round's (one opponent's) share of an opponent-based tiebreak, light.

    The first three fields are the cut key (:data:`Key`): the opponent score it is
    ordered by, the value it adds, and whether its round was voluntary (FIDE C.07 art.
    16). The rest is what its breakdown :class:`Part` is made from when a page reads it:
    the round's entry, the opponent (None: an unplayed round), the opponent's score
    before the game's adjustment (None: an unplayed round without a virtual opponent)
    and the adjustment.
    """

    opponent_score: float
    value: float
    voluntary: bool
    entry: Entry
    opponent: str | None
    base: float | None
    change: Adjustment | None = None


PartFn = Callable[[Contribution], Part]


def summed_contributions(contributions: Sequence[Contribution], part_of: PartFn) -> Value:
    """Return the contributions' values summed in round order (from 0: no contribution is
    the integer 0, as ``sum([])``), with ``part_of`` each as the breakdown, built when read."""
    return Value(sum(c.value for c in contributions),
                 build=lambda: [part_of(c) for c in contributions])


def cut(
    contributions: Sequence[Contribution], part_of: PartFn, low: int, high: int = 0,
    unplayed_first: bool = False,
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
    equal values the earliest round is cut. Cut parts stay in the breakdown, marked
    (built when the breakdown is read, by ``part_of``).
    """
    cut_ids = dict(choose_cuts(contributions, low, high, unplayed_first))
    value = sum(c.value for i, c in enumerate(contributions) if i not in cut_ids)

    def parts() -> list[Part]:
        made = []
        for i, c in enumerate(contributions):
            part = part_of(c)
            why = cut_ids.get(i)
            if why is not None:
                part = replace(part, counted=False,
                               note=f"{part.note}; {why}" if part.note else why)
            made.append(part)
        return made

    return Value(value, note=cut_note(low, high), build=parts)


def choose_cuts(
    keys: Sequence[Contribution], low: int, high: int = 0, unplayed_first: bool = False
) -> list[tuple[int, str]]:
    """Return the (index, why) of the contributions :func:`cut` cuts, in cutting order.

    ``keys`` are the contributions in round order, read as (opponent score, value,
    voluntary); the rules are :func:`cut`'s.
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


def cut_note(low: int, high: int) -> str:
    """Return how a cut value's note names the cut: ``lowest 1 cut``."""
    label = []
    if low:
        label.append(f"lowest {low} cut")
    if high:
        label.append(f"highest {high} cut")
    return ", ".join(label)
