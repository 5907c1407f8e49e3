"""The exact-integer maximum-weight matching against an enumeration of every matching."""

from __future__ import annotations

import random

import pytest

from standgen.pairing.blossom import IncrementalMatching, max_weight_matching

Edges = list[tuple[int, int, int]]


def best_total(n: int, edges: Edges) -> int:
    """Return the largest total weight of any matching, by enumeration."""
    weight = {(min(i, j), max(i, j)): w for i, j, w in edges if w > 0}

    def best(free: tuple[int, ...]) -> int:
        if not free:
            return 0
        v, rest = free[0], free[1:]
        found = best(rest)  # v unmatched
        for k, u in enumerate(rest):
            w = weight.get((v, u))
            if w is not None:
                found = max(found, w + best(rest[:k] + rest[k + 1:]))
        return found

    return best(tuple(range(n)))


def total(mate: list[int], edges: Edges) -> int:
    weight = {(min(i, j), max(i, j)): w for i, j, w in edges}
    out = 0
    for v, u in enumerate(mate):
        if u != -1:
            assert mate[u] == v
            if v < u:
                out += weight[(v, u)]
    return out


@pytest.mark.parametrize("seed", range(6))
def test_matching_weight_is_the_best_of_all_matchings(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(150):
        n = rnd.randint(1, 9)
        big = rnd.random() < 0.5  # weights far above 64 bits, as the Dutch engine's
        edges = [(i, j, rnd.randint(1, 2**300) if big else rnd.randint(-2, 12))
                 for i in range(n) for j in range(i + 1, n) if rnd.random() < 0.6]
        mate = max_weight_matching(n, edges)
        assert total(mate, edges) == best_total(n, edges)


def test_a_heavier_pair_beats_two_lighter_ones_and_zero_is_no_edge() -> None:
    assert max_weight_matching(4, [(0, 1, 5), (1, 2, 11), (2, 3, 5)]) == [-1, 2, 1, -1]
    assert max_weight_matching(4, [(0, 1, 5), (1, 2, 9), (2, 3, 5)]) == [1, 0, 3, 2]
    assert max_weight_matching(2, [(0, 1, 0)]) == [-1, -1]


@pytest.mark.parametrize("seed", range(4))
def test_incremental_matching_stays_the_best_through_changes(seed: int) -> None:
    """Weights of random vertices changed (some to 0: no edge, some past 200 bits) and
    vertices removed between solves: each solve's total is the enumeration's best."""
    rnd = random.Random(seed)
    for _ in range(100):
        n = rnd.randint(2, 9)
        matching = IncrementalMatching(n)
        weights: dict[tuple[int, int], int] = {}
        removed: set[int] = set()
        big = rnd.random() < 0.5
        for _ in range(6):
            for _ in range(rnd.randint(1, 3)):
                u = rnd.randrange(n)
                if u in removed:
                    continue
                for v in range(n):
                    if v != u and v not in removed and rnd.random() < 0.6:
                        w = rnd.choice([0, rnd.randint(1, 12)] + ([rnd.randint(1, 2**200)]
                                                                  if big else []))
                        matching.set_weight(u, v, w)
                        weights[(min(u, v), max(u, v))] = w
            if rnd.random() < 0.2 and len(removed) < n - 1:
                gone = rnd.choice([v for v in range(n) if v not in removed])
                matching.remove(gone)
                removed.add(gone)
                weights = {key: (0 if gone in key else w) for key, w in weights.items()}
            mate = matching.solve()
            edges = [(i, j, w) for (i, j), w in weights.items() if w > 0]
            assert all(m == -1 or weights.get((min(v, m), max(v, m)), 0) > 0
                       for v, m in enumerate(mate))
            assert total(mate, edges) == best_total(n, edges)
