"""The shared matching core every format's pairing rule sits on.

A format lists the players in its procedure's order and says what a rematch is, what a
bye costs and how far a pair strays from the procedure. The core:

1. runs the written procedure greedily (top player takes the first opponent in order
   he has not met), and returns its result when it completes without a rematch;
2. otherwise re-pairs a growing tail of the field with maximum-weight matching
   (rustworkx), keeping the procedure's pairs above it, the "several attempts" a TO
   would make (seed 004, "Second and Subsequent Matches");
3. and finally matches the whole field, which guarantees: never a rematch and never a
   second bye while any pairing without one exists; among those, the fewest rematches,
   then the fewest second byes, then the lowest total cost.

A format with its own way of narrowing the search (the chess Swiss pairs a large field
score group by score group) uses :func:`min_cost_perfect_matching` on the candidate
pairs it chooses, and :func:`pair` with ``use_procedure=False`` as its exact last resort.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

Cost = Callable[[int, int], int]  # positions i < j in the order -> cost >= 0 of pairing them
Forbidden = Callable[[int, int], bool]  # positions -> True for a rematch
ByeCost = Callable[[int], int | None]  # position -> cost of the bye, None = a second bye


@dataclass(frozen=True)
class Pairing:
    """Pairs as positions in the order given (lower position first), and the bye if any."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None
    rematches: int = 0
    repeat_byes: int = 0
    method: str = "procedure"  # "procedure", "matching (last N)", "matching (whole field)"


def procedure(n: int, forbidden: Forbidden, bye: int | None = None) -> tuple[
    list[tuple[int, int]], bool
]:
    """Return the procedure's pairs, and whether it paired everyone.

    Seed 004: "Take the top sheet ... and choose the first opponent in the pile he has not
    already played ... When you reach the end of a pile move to the next pile." It stops
    at a dead end (the top sheet has met everyone left) and returns the pairs made so far.
    """
    remaining = [i for i in range(n) if i != bye]
    pairs: list[tuple[int, int]] = []
    while remaining:
        top = remaining.pop(0)
        partner = next((o for o in remaining if not forbidden(top, o)), None)
        if partner is None:
            return pairs, False
        remaining.remove(partner)
        pairs.append((top, partner))
    return pairs, True


def pair(
    n: int,
    cost: Cost,
    forbidden: Forbidden,
    bye_cost: ByeCost | None = None,
    procedure_bye: int | None = None,
    use_procedure: bool = True,
) -> Pairing:
    """Return the pairing of positions ``0..n-1`` closest to the procedure, as described above.

    ``procedure_bye`` is the bye the written procedure picks (seeded at random among the
    eligible), tried first. ``bye_cost`` is needed when ``n`` is odd.
    """
    if n % 2 == 1 and bye_cost is None:
        raise ValueError("an odd field needs a bye cost")
    fixed: list[tuple[int, int]] = []
    if use_procedure:
        bye = procedure_bye if n % 2 else None
        fixed, complete = procedure(n, forbidden, bye)
        if complete and (n % 2 == 0 or _bye_ok(bye_cost, bye)):
            return Pairing(tuple(fixed), bye)
    window = max(4, 2 * (n - 2 * len(fixed)))
    tried: set[int] = set()
    while window < n:
        keep = _prefix_outside(fixed, n - window)
        window *= 2
        if not keep:
            break  # the "tail" is the whole field: matched once, below
        tail = sorted(set(range(n)) - {i for p in keep for i in p})
        if len(tail) in tried:
            continue  # the same tail as the last window: no new attempt
        tried.add(len(tail))
        result = _match(tail, cost, forbidden, bye_cost)
        if result.rematches == 0 and result.repeat_byes == 0:
            return Pairing(
                tuple(sorted(keep + list(result.pairs))), result.bye,
                method=f"matching (last {len(tail)})",
            )
    result = _match(list(range(n)), cost, forbidden, bye_cost)
    return Pairing(
        tuple(sorted(result.pairs)), result.bye, result.rematches, result.repeat_byes,
        method="matching (whole field)",
    )


def _bye_ok(bye_cost: ByeCost | None, bye: int | None) -> bool:
    return bye is not None and bye_cost is not None and bye_cost(bye) is not None


def _prefix_outside(fixed: list[tuple[int, int]], limit: int) -> list[tuple[int, int]]:
    """Return the procedure's pairs made before any player at position >= ``limit``."""
    keep: list[tuple[int, int]] = []
    for a, b in fixed:
        if a >= limit or b >= limit:
            break
        keep.append((a, b))
    return keep


def _match(
    members: Sequence[int], cost: Cost, forbidden: Forbidden, bye_cost: ByeCost | None
) -> Pairing:
    """Return the lexicographically best pairing of ``members`` by maximum-weight matching.

    Levels: fewest rematches, then fewest second byes, then least total cost. Each level's
    weight exceeds the most the levels below can add up to, so the matching respects them.
    """
    m = len(members)
    needs_bye = m % 2 == 1
    ends: list[tuple[int, int]] = []
    costs: list[int] = []
    bad: list[bool] = []
    for x in range(m):
        i = members[x]
        for y in range(x + 1, m):
            j = members[y]
            ends.append((x, y))
            costs.append(cost(i, j))
            bad.append(forbidden(i, j))
    bye_edges: list[tuple[int, int, bool]] = []
    if needs_bye:
        assert bye_cost is not None
        for x in range(m):
            c = bye_cost(members[x])
            bye_edges.append((x, 0 if c is None else c, c is None))
    top = max(max(costs, default=0), max((b[1] for b in bye_edges), default=0), 0) + 1
    level_bye = top * (m // 2 + 2)
    level_rematch = level_bye * (m // 2 + 2)
    ceiling = level_rematch * 2
    import rustworkx as rx  # here: a build, which pairs no round, does without it

    graph = rx.PyGraph()
    graph.add_nodes_from(range(m + (1 if needs_bye else 0)))
    graph.add_edges_from([
        (x, y, ceiling - c - (level_rematch if b else 0))
        for (x, y), c, b in zip(ends, costs, bad, strict=True)
    ])
    graph.add_edges_from([
        (x, m, ceiling - c - (level_bye if repeat else 0)) for x, c, repeat in bye_edges
    ])
    matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    rematches = repeat_byes = 0
    for x, y in matched:
        x, y = min(x, y), max(x, y)
        if y == m and needs_bye:
            bye = members[x]
            repeat_byes += bye_cost(bye) is None if bye_cost else 0
            continue
        i, j = members[x], members[y]
        pairs.append((i, j))
        rematches += forbidden(i, j)
    return Pairing(tuple(sorted(pairs)), bye, rematches, repeat_byes)


def min_cost_perfect_matching(
    size: int, edges: Sequence[tuple[int, int, int]]
) -> list[tuple[int, int]] | None:
    """Return a perfect matching of nodes ``0..size-1`` of least total cost, or None.

    ``edges`` are the candidate pairs ``(x, y, cost)`` with ``cost >= 0``, no pair twice;
    None when they hold no perfect matching. The pairs come back as ``(low, high)``, sorted.
    """
    if size == 0:
        return []
    if size % 2 or not edges:
        return None
    ceiling = max(c for _, _, c in edges) + 1
    import rustworkx as rx  # here: a build, which pairs no round, does without it

    graph = rx.PyGraph()
    graph.add_nodes_from(range(size))
    graph.add_edges_from([(x, y, ceiling - c) for x, y, c in edges])
    matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(matched) != size:
        return None
    return sorted((min(x, y), max(x, y)) for x, y in matched)
