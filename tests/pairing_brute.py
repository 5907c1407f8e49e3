"""Brute-force reference for the pairing core: enumerate every pairing of a small field.

A pairing of positions ``0..n-1`` is a perfect matching, plus one bye when ``n`` is odd.
For n <= 10 there are at most 945 of them (n = 9 or 10), so exhaustive search is cheap
and independent of rustworkx.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

Pairs = tuple[tuple[int, int], ...]
Key = tuple[int, int, int]  # (rematches, repeat byes, total cost)


@dataclass(frozen=True)
class Scored:
    """One pairing with its score: lower ``key`` is better."""

    pairs: Pairs
    bye: int | None
    rematches: int
    repeat_byes: int
    cost: int

    @property
    def key(self) -> Key:
        return (self.rematches, self.repeat_byes, self.cost)


def matchings(members: tuple[int, ...]) -> Iterator[Pairs]:
    """Yield every perfect matching of ``members`` (even length), pairs as (low, high)."""
    if not members:
        yield ()
        return
    first, rest = members[0], members[1:]
    for k, partner in enumerate(rest):
        for tail in matchings(rest[:k] + rest[k + 1 :]):
            yield ((first, partner), *tail)


def pairings(n: int) -> Iterator[tuple[Pairs, int | None]]:
    """Yield every (pairs, bye) of positions ``0..n-1``: a bye exactly when ``n`` is odd."""
    everyone = tuple(range(n))
    if n % 2 == 0:
        for pairs in matchings(everyone):
            yield pairs, None
        return
    for bye in everyone:
        for pairs in matchings(everyone[:bye] + everyone[bye + 1 :]):
            yield pairs, bye


def score(
    pairs: Pairs,
    bye: int | None,
    cost: Callable[[int, int], int],
    forbidden: Callable[[int, int], bool],
    bye_cost: Callable[[int], int | None] | None,
) -> Scored:
    """Return ``pairs`` and ``bye`` scored as the core promises to order them.

    A second bye (``bye_cost`` is None) counts as a repeat bye and adds nothing to the cost.
    """
    total = sum(cost(min(a, b), max(a, b)) for a, b in pairs)
    rematches = sum(1 for a, b in pairs if forbidden(min(a, b), max(a, b)))
    repeat = 0
    if bye is not None:
        assert bye_cost is not None
        c = bye_cost(bye)
        if c is None:
            repeat = 1
        else:
            total += c
    normal = tuple(sorted((min(a, b), max(a, b)) for a, b in pairs))
    return Scored(normal, bye, rematches, repeat, total)


def all_scored(
    n: int,
    cost: Callable[[int, int], int],
    forbidden: Callable[[int, int], bool],
    bye_cost: Callable[[int], int | None] | None = None,
) -> list[Scored]:
    """Return every pairing of ``n`` players, scored."""
    if n > 12:
        raise ValueError("brute force is for small fields only")
    return [score(p, b, cost, forbidden, bye_cost) for p, b in pairings(n)]


def best_key(
    n: int,
    cost: Callable[[int, int], int],
    forbidden: Callable[[int, int], bool],
    bye_cost: Callable[[int], int | None] | None = None,
) -> Key:
    """Return the least (rematches, repeat byes, cost) over every pairing of ``n`` players.

    The same exhaustive enumeration as :func:`pairings`, summing keys along the way
    instead of building every pairing (several times faster).
    """
    if n > 12:
        raise ValueError("brute force is for small fields only")
    key = {(i, j): (int(forbidden(i, j)), 0, cost(i, j))
           for i in range(n) for j in range(i + 1, n)}
    best: list[Key] = []

    def walk(rest: tuple[int, ...], r: int, b: int, c: int) -> None:
        if not rest:
            if not best or (r, b, c) < best[0]:
                best[:] = [(r, b, c)]
            return
        first = rest[0]
        for k in range(1, len(rest)):
            dr, _, dc = key[(first, rest[k])]
            walk(rest[1:k] + rest[k + 1:], r + dr, b, c + dc)

    everyone = tuple(range(n))
    if n % 2 == 0:
        walk(everyone, 0, 0, 0)
    else:
        assert bye_cost is not None
        for bye in everyone:
            c = bye_cost(bye)
            walk(everyone[:bye] + everyone[bye + 1:], 0, int(c is None), c or 0)
    return best[0]
