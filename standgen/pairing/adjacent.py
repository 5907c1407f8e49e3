"""Adjacent pairing with downward swaps: 1 v 2, 3 v 4, ... and a swap on a rematch.

Seed 002 (Warhammer: The Old World, "The Pairing of Players", "Subsequent Rounds"):
"the player who is highest in the standings will be matched against the player who is
second ... If drawing a round in this way results in two players that have already faced
one another being drawn to face one another again, the lowest ranked of the two players
will swap places with the highest ranked player on the table below them."

Generic over any even field in standings order (positions ``0..n-1``). A format removes
its bye or spare player first. The first ``protected`` tables are never changed (seed
002's final-round top tables). When the swaps run out at the bottom, the shared matching
core (:mod:`standgen.pairing.core`) re-pairs a growing tail, as it does for its own
procedure, so no rematch is made while a pairing without one exists.
"""

from __future__ import annotations

from standgen.pairing import core


def _met(forbidden: core.Forbidden, a: int, b: int) -> bool:
    return forbidden(min(a, b), max(a, b))


def swap_seating(
    n: int, forbidden: core.Forbidden, protected: int = 0
) -> tuple[list[int], int | None]:
    """Return the seating after the swaps (slot -> position) and the first table left a rematch.

    Seed 002, "Subsequent Rounds": table ``t`` seats slots ``2t`` and ``2t + 1``. On a
    rematch the lower-ranked of the two (the higher position) swaps with the
    highest-ranked player on the table below; if that is a rematch as well, "and so on
    down": the other player of that table, then the players of the next table, highest
    ranked first. Tables are settled top down; the first ``protected`` tables are left as
    drawn. The table index is None when every table is free of rematches.
    """
    if n % 2:
        raise ValueError("adjacent pairing needs an even field; remove the bye first")
    seats = list(range(n))
    for table in range(protected, n // 2):
        s = 2 * table
        if not _met(forbidden, seats[s], seats[s + 1]):
            continue
        stay = s if seats[s] < seats[s + 1] else s + 1
        move = s + 1 if stay == s else s
        for candidate in _below(seats, table):
            if not _met(forbidden, seats[stay], seats[candidate]):
                seats[move], seats[candidate] = seats[candidate], seats[move]
                break
        else:
            return seats, table
    return seats, None


def _below(seats: list[int], table: int) -> list[int]:
    """Return the slots below ``table``: table by table, highest-ranked player first."""
    slots: list[int] = []
    for lower in range(table + 1, len(seats) // 2):
        s = 2 * lower
        slots.extend(sorted((s, s + 1), key=lambda slot: seats[slot]))
    return slots


def pair(n: int, forbidden: core.Forbidden, protected: int = 0) -> core.Pairing:
    """Return the pairing of positions ``0..n-1`` (``n`` even) by adjacent tables and swaps.

    Seed 002, "Subsequent Rounds" (see :func:`swap_seating`); the first ``protected``
    tables are (0, 1), (2, 3), ... whether or not they are rematches ("in the final round,
    players on the top tables ... should not swap opponents"). When the swaps dead-end,
    the tables above the dead end are kept and the rest is re-paired by the matching core
    (cost: squared distance in the standings), un-keeping more tables above (1, 2, 4 ...)
    until no rematch is left, at worst the whole unprotected field (the fewest rematches
    possible). ``rematches`` counts rematches outside the protected tables only.
    """
    protected = max(0, min(protected, n // 2))
    seats, stuck = swap_seating(n, forbidden, protected)
    tables = [(min(seats[s], seats[s + 1]), max(seats[s], seats[s + 1]))
              for s in range(0, n, 2)]
    if stuck is None:
        return core.Pairing(tuple(sorted(tables)), None)
    back = 0
    while True:
        keep_to = max(protected, stuck - back)
        kept = tables[:keep_to]
        rest = sorted(p for pair_ in tables[keep_to:] for p in pair_)
        matched = _match(rest, forbidden)
        pairs = kept + [(rest[i], rest[j]) for i, j in matched.pairs]
        whole = keep_to == protected
        if matched.rematches == 0 or whole:
            method = f"matching (last {len(rest)})"
            if whole:
                method = ("matching (whole field)" if protected == 0
                          else f"matching (all {len(rest)} below the top tables)")
            return core.Pairing(tuple(sorted(pairs)), None, matched.rematches, method=method)
        back = 1 if back == 0 else 2 * back


def _match(rest: list[int], forbidden: core.Forbidden) -> core.Pairing:
    """Return the matching core's best pairing of ``rest`` (positions, ascending)."""
    return core.pair(
        len(rest),
        cost=lambda i, j: (rest[j] - rest[i]) ** 2,
        forbidden=lambda i, j: _met(forbidden, rest[i], rest[j]),
        use_procedure=False,
    )
