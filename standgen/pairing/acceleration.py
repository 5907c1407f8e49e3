"""Accelerated Swiss pairings: FIDE C.04.5.1, the Baku Acceleration Method.

``[options] acceleration = "baku"`` of the ``swiss`` format. The rule, as FIDE C.04.5.1
states it:

- *Initial groups division*: before round 1 the players to be paired, in pairing-number
  order, are split in two groups. GA holds the first half of the players, "rounded up to
  the nearest even number" (2 x Q, where Q is the number of players divided by 4 and
  rounded up: 161 players give 82). GB holds the rest.
- *Late entries* take their place in the pairing list (C.04.2), and "the last GA-player
  shall be the same as in the previous round". So GA is every player whose pairing
  number is not below that player's, and after round 1 GA may hold an odd number.
- *Virtual points*: "the accelerated rounds are the ones in the first half (rounded up)
  of the tournament". Before pairing the first half (rounded up) of them, each GA player
  is given 1 virtual point, and 0.5 before pairing the rest of them. GB players never get
  any, and nobody gets any after the last accelerated round. A nine-round tournament has
  five accelerated rounds: 1 point in rounds 1-3, ½ in rounds 4-5.
- *Pairing score*: the standings score plus the virtual points. Only pairing reads it; the
  standings never show virtual points.

The Dutch engine adds a player's virtual points for a round to his score for that round
(:attr:`standgen.pairing.dutch.Entrant.accelerations`). This includes the scores that
decide past floats, as bbpPairings reads accelerations from a TRF file's ``XXA`` records.
bbpPairings' own Baku default (for Burstein) puts ``ceil(n / 2)`` players in GA. Here GA
follows the FIDE text quoted above (``2 x ceil(n / 4)``); the two differ only when the
count of players divided by 4 leaves 1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

BAKU = "baku"
ACCELERATIONS = ("", BAKU)  # ``[options] acceleration``: none (default) or Baku


def group_a_size(players: int) -> int:
    """Return the size of GA before round 1: the first half of ``players`` rounded up to
    the nearest even number, 2 x ceil(players / 4) (FIDE C.04.5.1, 161 -> 82)."""
    return 2 * math.ceil(players / 4)


def accelerated_rounds(planned: int) -> tuple[int, int]:
    """Return (rounds with 1 virtual point, accelerated rounds) of a ``planned``-round
    tournament: the first half rounded up are accelerated, the first half of those
    (rounded up) with a full point (FIDE C.04.5.1: nine rounds -> 3 and 5)."""
    accelerated = math.ceil(planned / 2)
    return math.ceil(accelerated / 2), accelerated


def group_a(numbers: Mapping[str, int], first_round: Sequence[str]) -> frozenset[str]:
    """Return GA: the players whose pairing number (``numbers``) is not below that of
    the last GA player of round 1, who is the ``group_a_size``-th of ``first_round``
    (the players paired in round 1) by pairing number."""
    seeded = sorted(first_round, key=lambda pid: numbers[pid])
    if not seeded:
        return frozenset()
    last = numbers[seeded[min(group_a_size(len(seeded)), len(seeded)) - 1]]
    return frozenset(pid for pid, number in numbers.items() if number <= last)


def virtual_points(in_group_a: bool, round_number: int, planned: int) -> float:
    """Return the virtual points a player has for pairing round ``round_number``."""
    full, accelerated = accelerated_rounds(planned)
    if not in_group_a or round_number > accelerated:
        return 0.0
    return 1.0 if round_number <= full else 0.5


def accelerations(in_group_a: bool, rounds: int, planned: int) -> tuple[float, ...]:
    """Return a player's virtual points before rounds 1 .. ``rounds``, by round index,
    as the Dutch engine and a TRF ``XXA`` record hold them."""
    return tuple(virtual_points(in_group_a, k, planned) for k in range(1, rounds + 1))
