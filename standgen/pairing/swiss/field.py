"""The Swiss field to pair and its costs: score groups in pairing order (FIDE C.04.3
A.2-A.3), the bye's eligibility (C.04.1 c-d) and the cost of each pair and of the bye,
the Dutch criteria written as cost levels for the matching core."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from standgen.model import GameKind, Outcome, Player
from standgen.pairing import core
from standgen.pairing.swiss.colours import KINDS, _clash, _unmet, colour_history, kind_of
from standgen.records import Record


def bye_eligible(record: Record) -> bool:
    """Return whether a player may still receive the pairing-allocated bye.

    FIDE C.04.1 c-d: not a player who already had the pairing-allocated bye or scored a
    point without playing (a forfeit win, or a full-point bye when absent).
    """
    for entry in record.entries:
        if entry.kind is GameKind.BYE:
            return False
        if entry.kind in (GameKind.FORFEIT, GameKind.ABSENT) and entry.outcome is Outcome.WIN:
            return False
    return True


@dataclass(frozen=True)
class Weights:
    """The cost levels, each above everything the levels below can add up to."""

    preference: int
    score: int
    colour_rule: int


def weights(n: int, round_number: int) -> Weights:
    """Return the cost levels for ``n`` players before ``round_number``."""
    preference = n * n + n + 1  # above the whole field's folding and float positions
    score = preference * (n + 1)  # above the whole field's colour preferences
    widest = 2 * max(round_number, 1)  # half points
    colour_rule = score * ((n // 2 + 1) * widest * widest + 1)
    return Weights(preference, score, colour_rule)


@dataclass(frozen=True)
class Field:
    """The players to pair, in the order the cost is written in."""

    order: tuple[Player, ...]
    scores: tuple[float, ...]
    numbers: tuple[int, ...]  # pairing numbers
    colours: tuple[tuple[str, ...], ...]
    eligible: tuple[bool, ...]  # may get the bye
    group_start: tuple[int, ...]
    group_end: tuple[int, ...]
    kinds: tuple[int, ...] = ()  # colour preference, an index in KINDS


def make_field(
    players: Sequence[Player], scores: Mapping[str, float], numbers: Mapping[str, int],
    records: Mapping[str, Record],
) -> Field:
    """Return the field in pairing order: score groups, then pairing number.

    FIDE C.04.3 A.2-A.3: players are ranked by score, then by pairing number, and
    each score group is one bracket.
    """
    order = sorted(players, key=lambda p: (-scores.get(p.id, 0.0), numbers[p.id]))
    pts = tuple(scores.get(p.id, 0.0) for p in order)
    start: list[int] = []
    for k, value in enumerate(pts):
        start.append(start[k - 1] if k and pts[k - 1] == value else k)
    end = list(start)
    for k in range(len(pts) - 1, -1, -1):
        end[k] = end[k + 1] if k + 1 < len(pts) and pts[k + 1] == pts[k] else k
    colours = tuple(colour_history(records[p.id]) for p in order)
    return Field(
        order=tuple(order), scores=pts, numbers=tuple(numbers[p.id] for p in order),
        colours=colours, eligible=tuple(bye_eligible(records[p.id]) for p in order),
        group_start=tuple(start), group_end=tuple(end),
        kinds=tuple(kind_of(c) for c in colours),
    )


def kind_costs(w: Weights) -> tuple[tuple[int, ...], ...]:
    """Return the colour part of a pair's cost (clash and unmet preferences) by kinds."""
    return tuple(
        tuple(w.colour_rule * _clash(a, b) + w.preference * _unmet(a, b) for b in KINDS)
        for a in KINDS
    )


def pair_cost(field: Field, w: Weights) -> core.Cost:
    """Return the cost of pairing positions ``i < j`` of the field.

    Levels, highest first: an absolute colour clash (C.04.3 C.3); the score difference
    squared, in half points (floats, C.5-C.7); an unmet colour preference (C.12-C.13);
    then the distance from the Dutch folding: in a score group of ``g`` players the
    ``k``-th meets the ``k + g // 2``-th (top half against bottom half, C.04.3 B.2), and
    a floater is the lowest of the higher group meeting the highest of the lower one.
    """
    table = kind_costs(w)
    kinds = field.kinds or tuple(kind_of(c) for c in field.colours)
    scores, start, end, score_weight = field.scores, field.group_start, field.group_end, w.score

    def cost(i: int, j: int) -> int:
        gap = round(2 * abs(scores[i] - scores[j]))
        if gap == 0:
            fold = abs((j - i) - (end[i] - start[i] + 1) // 2)
        else:
            fold = (end[i] - i) + (j - start[j])
        return table[kinds[i]][kinds[j]] + score_weight * gap * gap + fold

    return cost


def bye_cost(field: Field, w: Weights) -> core.ByeCost:
    """Return the cost of the bye for each position (None: they already had one).

    FIDE C.04.1 c: the pairing-allocated bye goes to a player of the lowest score
    group who has not had one, the lowest ranked first (C.04.3 A.2: highest pairing
    number of the lowest score). A higher score costs as a float of that size would.
    """
    n = len(field.order)
    eligible = [k for k in range(n) if field.eligible[k]]
    lowest = min((field.scores[k] for k in eligible), default=0.0)

    def cost(k: int) -> int | None:
        if not field.eligible[k]:
            return None
        gap = round(2 * (field.scores[k] - lowest))
        return w.score * gap * gap + (n - 1 - k)

    return cost
