"""An incremental maximum-weight matching: the Dutch engine's, repaired between its
decisions instead of computed again (as bbpPairings' matching computer), in Python and,
where it was built, its compiled twin (``_blossom.c``).

The algorithm itself, Edmonds' blossom algorithm with Galil's primal-dual method over
exact integer weights, is :mod:`standgen.pairing.matching`.
"""

from __future__ import annotations

from typing import Protocol

from standgen.pairing.matching import _Matcher
from standgen.pairing.matching import max_weight_matching as max_weight_matching

try:  # the compiled twin of IncrementalMatching (_blossom.c), when it was built
    from standgen.pairing import _blossom as _compiled
except ImportError:  # no C compiler where it was installed: the Python class alone
    _compiled = None  # type: ignore[assignment]

# above this many vertices the compiled matching's exact weights (one number of every
# edge, L 64-bit limbs each) would take hundreds of MB: the Python class, which shares
# equal weights, is used instead
COMPILED_MAX = 2048


class IncrementalMatching(_Matcher):
    """A maximum-weight matching kept up to date while edge weights change.

    The graph is complete; an edge of weight 0 is no edge. After :meth:`set_weight`
    calls that touch k vertices, :meth:`solve` repairs the previous optimum instead of
    starting again: each touched vertex is taken out of its blossoms (their duals moved
    onto their vertices, so every edge stays feasible) and unmatched, its dual raised
    until its edges are feasible, and the search resumes from the free vertices whose
    dual is still positive (a free vertex of dual 0 already meets the optimality
    conditions). The stages are Galil's, with one change: a vertex of a search tree
    whose dual reaches 0 before its root becomes the free one, the path to the root
    being flipped.
    """

    def __init__(self, n: int) -> None:
        pairs = [(i, j, 0) for j in range(n) for i in range(j)]
        super().__init__(n, pairs if pairs else [(0, 0, 0)])
        self.doubled = [0] * len(self.edges)
        self.dual = [0] * (2 * n)
        self.dirty: set[int] = set()
        self.dead = [False] * n
        self._pending: dict[int, int] = {}
        self.scale = 1  # weights and duals are kept multiplied by this (see rescale)
        self.keep_tight = False  # see solve
        self.prime: list[int] = []  # see pair_within

    def set_weight(self, u: int, v: int, w: int) -> None:
        """Set the weight of edge (u, v); ``u`` is the vertex taken out and re-matched
        (its dual raised so that all its edges are feasible)."""
        k = self.edge_index(u, v)
        if self.pending.get(k, self.doubled[k] // (2 * self.scale)) != max(w, 0):
            self.dirty.add(u)
            self.pending[k] = max(w, 0)

    def load(self, weights: list[tuple[int, int, int]]) -> None:
        """Set the weights (u, v, w) of edges not set since the graph was made (as
        :meth:`set_weight` each, ``u`` the vertex re-matched)."""
        pending, dirty, index = self.pending, self.dirty, self.edge_index
        for u, v, w in weights:
            pending[index(u, v)] = max(w, 0)
            dirty.add(u)

    def load_row(self, v: int, weights: list[int]) -> None:
        """Set the weights of edges (u, v), ``u`` = 0, 1, ... in the order of ``weights``
        (as :meth:`load`: each ``u`` re-matched)."""
        self.load([(u, v, w) for u, w in enumerate(weights)])

    @staticmethod
    def edge_index(u: int, v: int) -> int:
        """The index of edge (u, v) (edges are numbered pair by pair, (0, 1), (0, 2),
        (1, 2), (0, 3), ...)."""
        if u > v:
            u, v = v, u
        return v * (v - 1) // 2 + u

    def remove(self, v: int) -> None:
        """Take ``v`` out of the graph for good (all its edges weigh 0)."""
        self.extract(v)
        self.dead[v] = True
        for u in range(self.n):
            if u != v:
                k = self.edge_index(u, v)
                self.doubled[k] = 0
                self.pending.pop(k, None)
        self.dual[v] = 0
        self.dirty.discard(v)

    @property
    def pending(self) -> dict[int, int]:
        """Weights set since the last :meth:`solve`, by edge."""
        return self._pending

    def extract(self, v: int) -> None:
        """Make ``v`` a free top-level vertex without breaking dual feasibility."""
        while self.inblossom[v] != v:
            b = self.inblossom[v]
            while self.parent[b] != -1:
                b = self.parent[b]
            self.dissolve(b)
        if self.mate[v] != -1:
            u = self.endpoint[self.mate[v]]
            self.mate[u] = self.mate[v] = -1

    def dissolve(self, b: int) -> None:
        """Expand top-level blossom ``b``: its dual goes onto its vertices (edges inside
        stay as tight as they were), and the base's matched edge out of it, no longer
        tight when that dual was positive, is unmatched."""
        z = self.dual[b]
        leaves = self.leaves(b)
        for v in leaves:
            self.dual[v] += z
        base = self.base[b]
        if z and self.mate[base] != -1:
            u = self.endpoint[self.mate[base]]
            self.mate[u] = self.mate[base] = -1
        for s in self.childs[b]:
            self.parent[s] = -1
            for v in self.leaves(s):
                self.inblossom[v] = s
        self.dual[b] = 0
        self.label[b] = self.labelend[b] = -1
        self.childs[b] = []
        self.endps[b] = []
        self.base[b] = -1
        self.bestedges[b] = None
        self.bestedge[b] = -1
        self.unused.append(b)

    def solve(self) -> list[int]:
        """Return ``mate`` (the matched vertex, or -1) for the current weights.

        With ``keep_tight``, a touched vertex outside any blossom keeps its pair when,
        with its dual set as low as its edges allow, that pair is still tight (the
        matching stays optimal there: no search from it)."""
        dirty = sorted(self.dirty)
        kept = []
        for v in dirty:
            if self.keep_tight and self.inblossom[v] == v and self.mate[v] != -1:
                kept.append(v)
            else:
                self.extract(v)
        for k, w in self.pending.items():
            self.doubled[k] = 2 * w * self.scale
        self.pending.clear()
        if self.keep_tight and self.prime:
            dirty = self.pair_prime(dirty)
        for v in dirty:
            self.lower_dual(v)
        for v in kept:
            self.unpair_if_loose(v)
        if self.keep_tight:
            self.match_tight(dirty)
        self.dirty.clear()
        # every free vertex may have its own dual: the stages below only start from
        # those whose dual is positive
        while self.stage():
            pass
        return [-1 if p == -1 else self.endpoint[p] for p in self.mate]

    def pair_prime(self, dirty: list[int]) -> list[int]:
        """Pair the primed vertices among themselves when the matching is fresh, and
        return the vertices whose duals are to be set again: then every live vertex
        outside the primed, else ``dirty``."""
        primed = set(self.prime)
        if self.fresh():
            self.pair_within(self.prime)
            dirty = [v for v in range(self.n) if not self.dead[v] and v not in primed]
        self.prime = []
        return dirty

    def lower_dual(self, v: int) -> None:
        """Set a touched vertex's dual as low as its edges allow (a free vertex's is not
        lowered below what it was)."""
        best = 0
        for p in self.neighbend[v]:
            k = p >> 1
            if self.doubled[k]:
                best = max(best, self.doubled[k] - self.dual[self.endpoint[p]])
        self.dual[v] = max(self.dual[v], best) if self.mate[v] == -1 else best

    def unpair_if_loose(self, v: int) -> None:
        """Free a kept vertex and its mate when their pair is no longer tight."""
        p = self.mate[v]
        if p == -1:
            return
        u = self.endpoint[p]
        if self.dual[v] + self.dual[u] != self.doubled[p >> 1]:
            self.mate[u] = self.mate[v] = -1

    def tight(self, u: int, v: int) -> bool | None:
        """Whether edge (u, v) is tight under the duals of the last optimum, the duals
        of the blossoms holding both counted (False: no best matching holds it); None
        when its weight changed since, or it weighs 0 (no edge)."""
        k = self.edge_index(u, v)
        if k in self.pending or not self.doubled[k]:
            return None
        dual, parent = self.dual, self.parent
        slack = dual[u] + dual[v] - self.doubled[k]
        if parent[u] == -1 or parent[v] == -1:  # no blossom holds both
            return slack == 0
        above = set()
        b = parent[u]
        while b != -1:
            above.add(b)
            b = parent[b]
        b = parent[v]
        while b != -1:
            if b in above:
                slack += 2 * dual[b]
            b = parent[b]
        return slack == 0

    def set_weights(self, weights: list[tuple[int, int, int]]) -> None:
        """:meth:`set_weight` for each (u, v, w) in turn."""
        for u, v, w in weights:
            self.set_weight(u, v, w)

    def positive_blossoms(self) -> list[list[int]]:
        """The vertices of each blossom whose dual is positive."""
        return [self.leaves(b) for b in range(self.n, 2 * self.n)
                if self.base[b] >= 0 and self.dual[b]]

    def fresh(self) -> bool:
        """Whether nothing is matched yet and every dual is 0 (no blossom)."""
        return (len(self.unused) == self.n and not any(self.dual)
                and all(m == -1 for m in self.mate))

    def pair_within(self, group: list[int]) -> None:
        """Start a new graph from ``group`` (vertices whose edges among themselves weigh
        about the same): each one's dual half its heaviest edge in the group, and the
        group's tight edges matched greedily. The other vertices' duals are then set
        against these (:meth:`solve`), so every dual stays feasible."""
        mate, dual, doubled, endpoint = self.mate, self.dual, self.doubled, self.endpoint
        inside = set(group)
        for v in group:
            dual[v] = max((doubled[p >> 1] for p in self.neighbend[v]
                           if endpoint[p] in inside), default=0) // 2
        for v in group:
            if mate[v] != -1 or not dual[v]:
                continue
            for p in self.neighbend[v]:
                u = endpoint[p]
                w = doubled[p >> 1]
                if w and u in inside and mate[u] == -1 and dual[v] + dual[u] == w:
                    mate[v], mate[u] = p, p ^ 1
                    break

    def match_tight(self, vertices: list[int]) -> None:
        """Pair each free vertex of ``vertices`` outside any blossom with a free one
        over a tight edge, where there is one (a matched edge must be tight: the
        optimality conditions hold, and the stages have fewer paths to find)."""
        mate, dual, doubled, endpoint = self.mate, self.dual, self.doubled, self.endpoint
        inblossom, dead = self.inblossom, self.dead
        for v in vertices:
            if mate[v] != -1 or inblossom[v] != v or dead[v] or dual[v] <= 0:
                continue
            dv = dual[v]
            for p in self.neighbend[v]:
                k = p >> 1
                w = doubled[k]
                if not w:
                    continue
                u = endpoint[p]
                if mate[u] == -1 and inblossom[u] == u and dv + dual[u] == w:
                    mate[v], mate[u] = p, p ^ 1
                    break

    def rescale(self) -> None:
        """Double every weight and dual (the same optimum; keeps halved slacks whole)."""
        self.doubled = [2 * d for d in self.doubled]
        self.dual = [2 * d for d in self.dual]
        self.scale *= 2

    def label_roots(self) -> bool:
        """Start a stage: label S the free vertices of positive dual (the roots of the
        search trees); return whether there is one."""
        self.reset_labels()
        roots = False
        for v in range(self.n):
            if self.dead[v] or self.mate[v] != -1:
                continue
            b = self.inblossom[v]
            if self.label[b] != 0:
                continue
            if self.dual[v] > 0:
                self.assign_label(v, 1, -1)
                roots = True
            else:
                self.labelend[v] = self.labelend[b] = -1
        return roots

    def grow(self) -> bool:
        """Scan the queued S-vertices' edges as :meth:`_Matcher.grow` does, over edges of
        positive weight only; a tight edge to a free vertex of dual 0 augments the
        matching too. Return whether the matching was augmented.

        The innermost loop of the algorithm: kept in one piece, with locals.
        """
        label, inblossom, allowed = self.label, self.inblossom, self.allowed
        dual, endpoint, bestedge = self.dual, self.endpoint, self.bestedge
        ends, doubled, queue = self.ends, self.doubled, self.queue
        while queue:
            v = queue.pop()
            bv = inblossom[v]
            for p in self.neighbend[v]:
                k = p >> 1
                if not doubled[k]:
                    continue
                w = endpoint[p]
                bw = inblossom[w]
                if bv == bw:
                    continue
                kslack = 0
                if not allowed[k]:
                    i, j = ends[k]
                    kslack = dual[i] + dual[j] - doubled[k]
                    if kslack <= 0:
                        allowed[k] = True
                if allowed[k]:
                    if label[bw] == 0:
                        if self.mate[self.base[bw]] == -1:  # a free vertex of dual 0
                            self.augment_matching(k)
                            return True
                        self.assign_label(w, 2, p ^ 1)
                    elif label[bw] == 1:
                        if self.close_cycle(v, w, k):
                            return True
                        bv = inblossom[v]
                    elif label[w] == 0:
                        label[w] = 2
                        self.labelend[w] = p ^ 1
                else:
                    # a least-slack candidate: from S-blossom bv to another S-blossom, or
                    # from free vertex w to an S-blossom
                    x = bv if label[bw] == 1 else (w if label[w] == 0 else -1)
                    if x != -1 and (bestedge[x] == -1 or kslack < self.slack(bestedge[x])):
                        bestedge[x] = k
        return False

    def stage(self) -> bool:
        """Run one stage; return whether another may be needed."""
        if not self.label_roots():
            return False
        n, label, inblossom = self.n, self.label, self.inblossom
        while True:
            if self.grow():
                self.end_stage()
                return True
            delta = min(self.dual[v] for v in range(n) if label[inblossom[v]] == 1)
            found = self.edge_delta(delta)
            if found is None:  # an odd slack: halved slacks must stay whole
                self.rescale()
                continue
            delta, deltatype, deltaedge = found
            delta, deltatype, deltablossom = self.t_blossom_delta(delta, deltatype, -1)
            self.shift_duals(delta)
            if deltatype == 1:
                dual = self.dual
                x = next(v for v in range(n) if label[inblossom[v]] == 1 and dual[v] == 0)
                self.free_along_path(x)
                self.end_stage()
                return True
            self.use_delta(deltatype, deltaedge, deltablossom)

    def free_along_path(self, x: int) -> None:
        """S-vertex ``x`` reached dual 0: flip the alternating path from its root so that
        ``x`` is free (and optimal) and the root matched."""
        self.flip_path(x, -1)


class Matcher(Protocol):
    """What the Dutch engine's windows use of an incremental matching (the Python
    class or its compiled twin)."""

    keep_tight: bool
    prime: list[int]

    def set_weight(self, u: int, v: int, w: int) -> None: ...
    def load(self, weights: list[tuple[int, int, int]]) -> None: ...
    def load_row(self, v: int, weights: list[int]) -> None: ...
    def remove(self, v: int) -> None: ...
    def solve(self) -> list[int]: ...
    def tight(self, u: int, v: int) -> bool | None: ...
    def set_weights(self, weights: list[tuple[int, int, int]]) -> None: ...
    def positive_blossoms(self) -> list[list[int]]: ...


def compiled_available() -> bool:
    """Whether the compiled matching was built and imported."""
    return _compiled is not None


def incremental_matching(n: int, compiled: bool = True, bits: int = 0) -> Matcher:
    """Return an :class:`IncrementalMatching` of ``n`` vertices, compiled when asked, built
    and not too large (the same steps, duals and matchings: tests/test_blossom_compiled.py);
    ``bits``: about how large the weights will be (the compiled numbers start that wide)."""
    if compiled and _compiled is not None and 2 <= n <= COMPILED_MAX:
        return _compiled.Matching(n, bits)
    return IncrementalMatching(n)
