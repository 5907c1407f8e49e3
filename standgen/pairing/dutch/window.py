"""The Dutch engine's fast path: each bracket's matching over the bracket and the next
score group only, the rest of the field standing in through the completion criterion.

The reference model (:mod:`standgen.pairing.dutch.weights`, as bbpPairings) keeps one
maximum-weight matching of the whole field. While a bracket is paired, the only pairs
whose weights carry more than completion (C.04.3 art. C.4) and the bye's unplayed games
(C.9) are those inside the *window*: the bracket and the next score group (C.5-C.8,
C.10-C.21). Every other pair weighs ``c + a[u] + a[v]`` when the two may meet (C.1,
C.3), 0 otherwise (:meth:`_Weights.additive`). So a window player who is not paired
inside the window adds ``f[v] = a[v] + c/2`` however the rest is paired, provided the
rest can be completed, and the bye adds nothing. Subtracting ``f[u] + f[v]`` from each
window pair's weight turns the field's matching into one over the window alone, where
leaving a player unpaired costs nothing (he floats below the window), with one extra
vertex standing for the bye when the field is odd (taking it: the bye stays in the
window; leaving it: the bye goes to the best bye candidate below).

That reduced problem can only be better than the field's; when the players below the
window, with those who float there, can be completed (:func:`completion.perfect`),
its optimum is the field's. Each matching is checked so; when the check fails the
window falls back to the reference model's own graph (the window and everyone below,
all weights exact). ``tests/test_dutch_window.py`` holds the two paths equal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from standgen.pairing.blossom import incremental_matching
from standgen.pairing.dutch.completion import perfect

# Below the window, fewer players than this: the window takes them in (exact weights).
RELAX_MIN = 24


class Window:
    """The matching of one bracket's window, kept up to date while it is paired.

    ``vertices``: the window's players (engine indices, the bracket then the next
    score group); ``rest``: every other player not yet paired. ``weight_of(u, v)`` is
    the field model's weight of a pair, ``additive`` and ``c`` its additive form outside
    windows, ``adjacent`` the compatibility bit sets.
    """

    def __init__(self, vertices: Sequence[int], rest: Sequence[int],
                 weight_of: Callable[[int, int], int], additive: Sequence[int], c: int,
                 adjacent: Sequence[int], exact: bool = False, known: int = -1,
                 alike: int = -1, compiled: bool = True) -> None:
        self.window = list(vertices)
        self.rest = list(rest)
        self.weight_of = weight_of
        self.additive = additive
        self.c = c
        self.adjacent = adjacent
        self.relaxed = not exact and len(self.rest) >= RELAX_MIN
        local = self.window if self.relaxed else self.window + self.rest
        self.vertices = local
        self.index = {g: i for i, g in enumerate(local)}
        odd = (len(self.window) + len(self.rest)) % 2 == 1
        self.token = len(local) if self.relaxed and odd else -1
        self.compiled = compiled
        self.matcher = incremental_matching(len(local) + (self.token >= 0), compiled,
                                            c.bit_length() + 2)
        self.matcher.keep_tight = True
        if 0 <= alike < len(self.window):  # the next score group: start from its pairs
            self.matcher.prime = list(range(alike, len(self.window)))
        self.dead: set[int] = set()
        self.checked: dict[tuple[frozenset[int], int], bool] = {}
        self.best_bye = min(additive[r] for r in self.rest) if self.rest else 0
        # the pairs among the first ``known`` window players and those with a player
        # below (exact mode) are set here; the caller sets the others
        known = len(self.window) if known < 0 else known
        for j, gj in enumerate(local):
            for i in range(j if (j < known or j >= len(self.window)) else known):
                self.matcher.set_weight(i, j, self.reduced(local[i], gj, weight_of(local[i], gj)))
        if self.token >= 0:
            for i, g in enumerate(self.window):
                self.matcher.set_weight(i, self.token,
                                        max(self.best_bye - additive[g], 0))

    def reduced(self, u: int, v: int, w: int) -> int:
        """The weight the window's matching uses for pair (u, v) of field weight ``w``."""
        if w <= 0:
            return 0
        if self.relaxed:
            w -= self.c + self.additive[u] + self.additive[v]
        return w

    def set(self, u: int, v: int, w: int) -> None:
        """The field model's weight of pair (u, v) changed to ``w`` (``u`` re-matched
        first, as :meth:`IncrementalMatching.set_weight`)."""
        lu, lv = self.index.get(u), self.index.get(v)
        if lu is None or lv is None:
            raise ValueError("a pair outside the window was weighed")
        self.matcher.set_weight(lu, lv, self.reduced(u, v, w))

    def load_row(self, v: int, weights: list[int]) -> None:
        """Set the reduced weights (:meth:`reduced`) of the pairs of window position
        ``v`` with positions 0, 1, ... (``weights`` in that order), never set in this
        window before (as :meth:`set` each, the lower position re-matched)."""
        self.matcher.load_row(v, weights)

    def remove(self, v: int) -> None:
        self.dead.add(v)
        self.matcher.remove(self.index[v])

    def solve(self, n: int) -> list[int] | None:
        """Return the field's best matching as the engine reads it (``mate[v]``, ``v``
        itself when unmatched, a player below the window for one who floats there),
        or None when the rest cannot be completed (the caller falls back)."""
        mate = self.matcher.solve()
        out = list(range(n))
        local = self.vertices
        bye_in_window = -1
        floaters: list[int] = []
        for i, g in enumerate(local):
            if g in self.dead:
                continue
            m = mate[i]
            if m == -1:
                floaters.append(g)
            elif m == self.token:
                bye_in_window = g
            else:
                out[g] = local[m]
        if not self.relaxed:
            return out
        if not self.complete(floaters, bye_in_window >= 0):
            return None
        below = self.rest[0]
        for g in floaters:
            out[g] = below
        return out

    def complete(self, floaters: list[int], bye_taken: bool) -> bool:
        """Whether everyone below the window and ``floaters`` can be paired (C.4), the
        bye (odd field, not taken in the window) going to a best candidate below."""
        key = (frozenset(floaters), int(bye_taken))
        known = self.checked.get(key)
        if known is not None:
            return known
        group = self.rest + floaters
        if self.token < 0 or bye_taken:
            found = perfect(group, self.adjacent)
        else:
            found = False
            for b in self.rest:
                if self.additive[b] == self.best_bye:
                    if perfect([g for g in group if g != b], self.adjacent):
                        found = True
                        break
        self.checked[key] = found
        return found

    def exact(self) -> Window:
        """The same window over the reference model's own graph (the window and the
        players below it, with their field weights)."""
        out = Window(self.window, self.rest, self.weight_of, self.additive, self.c,
                     self.adjacent, exact=True, compiled=self.compiled)
        for v in self.dead:
            out.remove(v)
        return out

    def tight(self, u: int, v: int) -> bool | None:
        """Whether pair (u, v) is tight under the optimal duals of the last matching
        (False: no best matching holds it; the duals of the blossoms holding both
        count, as in the blossom algorithm's slack); None when that cannot be read (a
        player outside the window, a weight changed since, or a pair that is no edge
        of the window's matching)."""
        lu, lv = self.index.get(u), self.index.get(v)
        if lu is None or lv is None:
            return None
        return self.matcher.tight(lu, lv)

    def set_many(self, pairs: list[tuple[int, int, int]]) -> None:
        """:meth:`set` for each pair (u, v, w) in turn."""
        index, reduced = self.index, self.reduced
        local = []
        for u, v, w in pairs:
            lu, lv = index.get(u), index.get(v)
            if lu is None or lv is None:
                raise ValueError("a pair outside the window was weighed")
            local.append((lu, lv, reduced(u, v, w)))
        self.matcher.set_weights(local)

    def full_blossoms(self, pairs: dict[int, int]) -> bool:
        """Whether every blossom of positive dual holds as many pairs of ``pairs``
        (a matching, each pair both ways) as its size allows (the blossom conditions
        of an optimal matching)."""
        for leaves in self.matcher.positive_blossoms():
            if self.token in leaves:  # the bye's vertex: not told here
                return False
            inside = {self.vertices[lv] for lv in leaves}
            held = sum(1 for v in inside if pairs.get(v, -1) in inside) // 2
            if held != (len(inside) - 1) // 2:
                return False
        return True
