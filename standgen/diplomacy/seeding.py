"""Seeding the boards of a round: who sits out, who meets whom, who plays which power.

Round 1 is drawn at random from the event's seed. Later rounds minimise the sum over
boards of (times two players have already met) squared, then give each player a power
they have not played, or have played least (exhaustive over the 5,040 permutations of
each board). Every random choice comes from :func:`standgen.pairing.common.rng`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from standgen.diplomacy.games import SITOUT, is_board
from standgen.diplomacy.scoring import POWERS
from standgen.model import GameKind, Round

SEATS = 7
_DUPLICATE = 1_000_000  # a player on the same board twice (plays two boards)


@dataclass(frozen=True)
class History:
    """What earlier rounds tell the seeding: meetings, powers played, sit-outs."""

    met: Mapping[frozenset[str], int]
    powers: Mapping[str, Mapping[str, int]]
    sitouts: Mapping[str, int]


def history(rounds: Sequence[Round]) -> History:
    """Return how often each pair met, each player played each power, each player sat out."""
    met: dict[frozenset[str], int] = {}
    powers: dict[str, dict[str, int]] = {}
    sitouts: dict[str, int] = {}
    for rnd in rounds:
        for game in rnd.games:
            if game.kind is GameKind.BYE:
                for seat in game.seats:
                    sitouts[seat.player] = sitouts.get(seat.player, 0) + 1
            if not is_board(game):
                continue
            for seat in game.seats:
                if seat.power:
                    counts = powers.setdefault(seat.player, {})
                    counts[seat.power] = counts.get(seat.power, 0) + 1
            for a, b in itertools.combinations(game.players, 2):
                if a != b:
                    key = frozenset((a, b))
                    met[key] = met.get(key, 0) + 1
    return History(met, powers, sitouts)


def meeting_cost(boards: Sequence[Sequence[str]], met: Mapping[frozenset[str], int]) -> int:
    """Return the sum over boards of (times two players have already met) squared.

    The issue's seeding rule for round 2 onwards; a player seated twice on one board
    (a two-board player) costs more than any meeting.
    """
    cost = 0
    for board in boards:
        for a, b in itertools.combinations(board, 2):
            cost += _DUPLICATE if a == b else met.get(frozenset((a, b)), 0) ** 2
    return cost


def group_boards(
    slots: Sequence[str], met: Mapping[frozenset[str], int], rand: random.Random,
    restarts: int = 8,
) -> list[list[str]]:
    """Return ``slots`` cut into boards of seven with the least meeting cost found.

    Local search: from a seeded random seating, swap two players of different boards
    while that lowers the cost; best of ``restarts`` starts. Exact minimisation is a
    graph-partitioning problem; the search is exact when it reaches cost 0.
    """
    names = sorted(set(slots))
    index = {name: k for k, name in enumerate(names)}
    weight = [[0] * len(names) for _ in names]
    for pair, times in met.items():
        a, b = sorted(pair)
        if a in index and b in index:
            weight[index[a]][index[b]] = weight[index[b]][index[a]] = times * times
    for k in range(len(names)):
        weight[k][k] = _DUPLICATE
    ids = [index[s] for s in slots]
    best: list[list[int]] | None = None
    best_cost = 0
    for _ in range(max(1, restarts)):
        order = list(ids)
        rand.shuffle(order)
        boards = [order[k:k + SEATS] for k in range(0, len(order), SEATS)]
        cost = _improve(boards, weight)
        if best is None or cost < best_cost:
            best, best_cost = boards, cost
        if best_cost == 0:
            break
    assert best is not None
    return [[names[k] for k in board] for board in best]


def _improve(boards: list[list[int]], weight: list[list[int]]) -> int:
    """Swap players between boards while a swap lowers the cost; return the cost."""

    def pull(board: list[int], skip: int, player: int) -> int:
        return sum(weight[player][other] for k, other in enumerate(board) if k != skip)

    improved = True
    while improved:
        improved = False
        for a, b in itertools.combinations(range(len(boards)), 2):
            first, second = boards[a], boards[b]
            for i, j in itertools.product(range(len(first)), range(len(second))):
                x, y = first[i], second[j]
                delta = (pull(first, i, y) - pull(first, i, x)
                         + pull(second, j, x) - pull(second, j, y))
                if delta < 0:
                    first[i], second[j] = y, x
                    improved = True
    return sum(
        weight[p][q] for board in boards for p, q in itertools.combinations(board, 2)
    )


def assign_powers(
    players: Sequence[str], played: Mapping[str, Mapping[str, int]], rand: random.Random
) -> tuple[str, ...]:
    """Return a power for each player: unplayed, or least played, wherever possible.

    The issue's rule: "give each player a power they have not played, or have played
    least (exhaustive over 5,040 permutations per board is fine)". Minimises first the
    players not on one of their least-played powers, then the total times played; among
    equal assignments the seeded shuffle of the powers decides.
    """
    powers = list(POWERS)
    rand.shuffle(powers)
    counts = [[played.get(p, {}).get(power, 0) for power in powers] for p in players]
    least = [min(row) for row in counts]
    best: tuple[int, ...] | None = None
    best_key = (0, 0)
    for perm in itertools.permutations(range(len(powers)), len(players)):
        off = total = 0
        for k, power in enumerate(perm):
            c = counts[k][power]
            total += c
            off += c > least[k]
        if best is None or (off, total) < best_key:
            best, best_key = perm, (off, total)
            if best_key == (0, sum(least)):
                break
    assert best is not None
    return tuple(powers[k] for k in best)


def choose_sitouts(
    candidates: Sequence[str], count: int, sat_out: Mapping[str, int],
    position: Mapping[str, int], rand: random.Random,
) -> list[str]:
    """Return ``count`` players to sit out: those who sat out least, lowest ranked first.

    The issue's rule for fields not divisible by seven when the TO has not chosen; equal
    players are drawn at random (seeded). ``position``: standings place, 1 = leader.
    """
    shuffled = list(candidates)
    rand.shuffle(shuffled)
    draw = {pid: k for k, pid in enumerate(shuffled)}
    ranked = sorted(candidates,
                    key=lambda p: (sat_out.get(p, 0), -position.get(p, 0), draw[p]))
    return ranked[:count]


__all__ = ["SITOUT", "History", "assign_powers", "choose_sitouts", "group_boards",
           "history", "meeting_cost"]


def round_choices(table: Mapping[str, object], round_number: int) -> list[str]:
    """Return the player ids an ``[options.sit_out]``-style table lists for a round."""
    value = table.get(str(round_number), [])
    return [str(v) for v in value] if isinstance(value, list) else []
