"""The completion criterion as a question about whole-field matchings, answered without
weights: can these players all be paired (FIDE C.04.3 art. C.4, with C.1 and C.3)?

The Dutch engine's bracket-by-bracket path (:mod:`standgen.pairing.dutch.window`) asks it
of the players below the bracket being paired; the first matching asks it to find the
score of the pairing-allocated bye (C.2, C.4). Compatibility is a bit set per player
(bit ``j`` of ``adjacent[i]``: players ``i`` and ``j`` may meet), so a field of
thousands is answered in milliseconds: a greedy pairing, fewest partners first, then
Edmonds' augmenting paths (with blossoms) for whoever it left unpaired.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence


def adjacency(n: int, compatible: Callable[[int, int], bool]) -> list[int]:
    """Return the compatibility bit sets of ``n`` players from a pairwise test (the
    reference, used by tests; the engine builds the same sets by groups)."""
    out = [0] * n
    for i in range(n):
        for j in range(i):
            if compatible(j, i):
                out[i] |= 1 << j
                out[j] |= 1 << i
    return out


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def perfect(vertices: Sequence[int], adjacent: Sequence[int]) -> bool:
    """Whether ``vertices`` (player indices) can all be paired with each other."""
    if len(vertices) % 2:
        return False
    if not vertices:
        return True
    inside = 0
    for v in vertices:
        inside |= 1 << v
    free = inside
    mate: dict[int, int] = {}
    order = sorted(vertices, key=lambda v: ((adjacent[v] & inside).bit_count(), v))
    for v in order:
        if not free >> v & 1:
            continue
        options = adjacent[v] & free
        if not options:
            continue
        low = options & -options
        u = low.bit_length() - 1
        mate[v], mate[u] = u, v
        free &= ~((1 << v) | low)
    if not free:
        return True
    free = _swap_in(free, inside, adjacent, mate)
    if not free:
        return True
    return _augment_all(_bits(free), inside, adjacent, mate)


def _swap_in(free: int, inside: int, adjacent: Sequence[int], mate: dict[int, int]) -> int:
    """Pair left-over players by the shortest augmenting paths, ``r - x = y - z`` (``x``
    and ``y`` a pair, ``r`` and ``z`` free); return who is still free."""
    for r in _bits(free):
        if not free >> r & 1:
            continue
        others = free & ~(1 << r)
        paired = adjacent[r] & inside & ~free
        while paired:
            low = paired & -paired
            paired ^= low
            x = low.bit_length() - 1
            y = mate[x]
            options = adjacent[y] & others
            if options:
                zlow = options & -options
                z = zlow.bit_length() - 1
                mate[r], mate[x] = x, r
                mate[y], mate[z] = z, y
                free &= ~((1 << r) | zlow)
                break
    return free


def _augment_all(free: list[int], inside: int, adjacent: Sequence[int],
                 mate: dict[int, int]) -> bool:
    """Edmonds' algorithm from each free vertex in turn (a vertex that no augmenting
    path reaches stays free: then there is no perfect matching)."""
    for root in free:
        if root in mate:
            continue
        if not _Search(root, inside, adjacent, mate).run():
            return False
    return True


class _Search:
    """One search of Edmonds' algorithm (the breadth-first form with contracted bases)
    from a free ``root``: :meth:`run` flips an augmenting path and returns True, or
    returns False when there is none."""

    def __init__(self, root: int, inside: int, adjacent: Sequence[int],
                 mate: dict[int, int]) -> None:
        self.root, self.inside, self.adjacent, self.mate = root, inside, adjacent, mate
        self.parent: dict[int, int] = {}
        self.base: dict[int, int] = {}
        self.used = {root}
        self.queue = deque([root])
        self.members = _bits(inside)

    def base_of(self, v: int) -> int:
        return self.base.get(v, v)

    def lca(self, a: int, b: int) -> int:
        mate, parent = self.mate, self.parent
        seen: set[int] = set()
        while True:
            a = self.base_of(a)
            seen.add(a)
            if a not in mate:
                break
            a = parent[mate[a]]
        while True:
            b = self.base_of(b)
            if b in seen:
                return b
            b = parent[mate[b]]

    def mark(self, v: int, top: int, child: int, blossom: set[int]) -> None:
        mate, parent = self.mate, self.parent
        while self.base_of(v) != top:
            blossom.add(self.base_of(v))
            blossom.add(self.base_of(mate[v]))
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    def contract(self, v: int, to: int) -> None:
        top = self.lca(v, to)
        blossom: set[int] = set()
        self.mark(v, top, to, blossom)
        self.mark(to, top, v, blossom)
        for x in self.members:
            if self.base_of(x) in blossom:
                self.base[x] = top
                if x not in self.used:
                    self.used.add(x)
                    self.queue.append(x)

    def run(self) -> bool:
        mate, parent, queue = self.mate, self.parent, self.queue
        while queue:
            v = queue.popleft()
            for to in _bits(self.adjacent[v] & self.inside):
                if self.base_of(v) == self.base_of(to) or mate.get(v) == to:
                    continue
                if to == self.root or (to in mate and mate[to] in parent):
                    self.contract(v, to)
                elif to not in parent:
                    parent[to] = v
                    if to not in mate:
                        _flip(to, parent, mate)
                        return True
                    nxt = mate[to]
                    self.used.add(nxt)
                    queue.append(nxt)
        return False


def _flip(end: int, parent: dict[int, int], mate: dict[int, int]) -> None:
    v = end
    while True:
        pv = parent[v]
        ppv = mate.get(pv)
        mate[v], mate[pv] = pv, v
        if ppv is None:
            return
        v = ppv
