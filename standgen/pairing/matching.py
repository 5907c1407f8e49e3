"""Maximum-weight matching on a general graph with exact (arbitrary-size) integer weights.

The Dutch engine (standgen.pairing.dutch) encodes the FIDE C.04.3 quality criteria in
one edge weight, criterion above criterion, so its weights run to hundreds of bits:
rustworkx's matching takes 128-bit weights at most. This is Edmonds' blossom algorithm
with the primal-dual method of Galil ("Efficient algorithms for finding maximum
matching in graphs", ACM Computing Surveys 1986), O(n^3), in plain Python integers.

Vertex duals are kept doubled (``dual[v]`` is 2u_v) so that, with integer weights, every
quantity stays an integer; the slack of edge (i, j) is ``dual[i] + dual[j] - 2w``.
"""

from __future__ import annotations

from collections.abc import Sequence


def max_weight_matching(n: int, edges: Sequence[tuple[int, int, int]]) -> list[int]:
    """Return ``mate``: ``mate[v]`` is the vertex matched to ``v``, or -1.

    The matching maximises the total weight (not the number of edges); edges of weight
    0 or less are never needed. ``edges`` holds ``(i, j, weight)`` with ``i != j``, at
    most one edge per pair of vertices.
    """
    edges = [e for e in edges if e[2] > 0]
    if not edges:
        return [-1] * n
    return _Matcher(n, edges).run()


class _Matcher:
    """State of one run. Blossom ids: vertices 0..n-1, nontrivial blossoms n..2n-1.

    ``endpoint[p]`` is the vertex at end ``p`` of edge ``p // 2`` (``p ^ 1`` is the other
    end); ``mate[v]`` is the remote end ``p`` of v's matched edge, or -1.
    """

    def __init__(self, n: int, edges: list[tuple[int, int, int]]) -> None:
        self.n = n
        self.edges = edges
        self.endpoint = [v for i, j, _ in edges for v in (i, j)]
        self.ends = [(i, j) for i, j, _ in edges]
        self.doubled = [2 * w for _, _, w in edges]
        self.neighbend: list[list[int]] = [[] for _ in range(n)]
        for k, (i, j, _) in enumerate(edges):
            self.neighbend[i].append(2 * k + 1)
            self.neighbend[j].append(2 * k)
        top = max(w for _, _, w in edges)
        self.mate = [-1] * n
        self.label = [0] * (2 * n)  # 0 free, 1 S (outer), 2 T (inner)
        self.labelend = [-1] * (2 * n)
        self.inblossom = list(range(n))
        self.parent = [-1] * (2 * n)
        self.childs: list[list[int]] = [[] for _ in range(2 * n)]
        self.base = list(range(n)) + [-1] * n
        self.endps: list[list[int]] = [[] for _ in range(2 * n)]
        self.bestedge = [-1] * (2 * n)
        self.bestedges: list[list[int] | None] = [None] * (2 * n)
        self.unused = list(range(n, 2 * n))
        self.dual = [top] * n + [0] * n
        self.allowed = [False] * len(edges)
        self.queue: list[int] = []

    def slack(self, k: int) -> int:
        i, j = self.ends[k]
        return self.dual[i] + self.dual[j] - self.doubled[k]

    def leaves(self, b: int) -> list[int]:
        if b < self.n:
            return [b]
        out: list[int] = []
        stack = [b]
        while stack:
            t = stack.pop()
            if t < self.n:
                out.append(t)
            else:
                stack.extend(self.childs[t])
        return out

    def assign_label(self, w: int, t: int, p: int) -> None:
        """Label the top blossom of ``w`` with ``t``, reached through endpoint ``p``."""
        b = self.inblossom[w]
        self.label[w] = self.label[b] = t
        self.labelend[w] = self.labelend[b] = p
        self.bestedge[w] = self.bestedge[b] = -1
        if t == 1:
            self.queue.extend(self.leaves(b))
        else:
            base = self.base[b]
            self.assign_label(self.endpoint[self.mate[base]], 1, self.mate[base] ^ 1)

    def scan_blossom(self, v: int, w: int) -> int:
        """Trace back from ``v`` and ``w``: the base of a new blossom, or -1 (augmenting
        path found)."""
        path: list[int] = []
        base = -1
        while v != -1 or w != -1:
            b = self.inblossom[v]
            if self.label[b] & 4:
                base = self.base[b]
                break
            path.append(b)
            self.label[b] = 5
            if self.labelend[b] == -1:
                v = -1
            else:
                v = self.endpoint[self.labelend[b]]
                b = self.inblossom[v]
                v = self.endpoint[self.labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            self.label[b] = 1
        return base

    def add_blossom(self, base: int, k: int) -> None:
        """Make a new blossom of the odd cycle closed by edge ``k``, with base ``base``."""
        v, w, _ = self.edges[k]
        bb = self.inblossom[base]
        bv = self.inblossom[v]
        bw = self.inblossom[w]
        b = self.unused.pop()
        self.base[b] = base
        self.parent[b] = -1
        self.parent[bb] = b
        path, endps = self.cycle(b, bb, bv, bw, k)
        self.childs[b] = path
        self.endps[b] = endps
        self.label[b] = 1
        self.labelend[b] = self.labelend[bb]
        self.dual[b] = 0
        for v in self.leaves(b):
            if self.label[self.inblossom[v]] == 2:
                self.queue.append(v)
            self.inblossom[v] = b
        self.best_edges_of(b, path)

    def cycle(self, b: int, bb: int, bv: int, bw: int, k: int) -> tuple[list[int], list[int]]:
        """Return the sub-blossoms of new blossom ``b`` around the odd cycle closed by edge
        ``k`` (from base blossom ``bb`` through ``bv``'s side and back by ``bw``'s), and
        the edges' endpoints between them; each made a child of ``b``."""
        path: list[int] = []
        endps: list[int] = []
        while bv != bb:
            self.parent[bv] = b
            path.append(bv)
            endps.append(self.labelend[bv])
            v = self.endpoint[self.labelend[bv]]
            bv = self.inblossom[v]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            self.parent[bw] = b
            path.append(bw)
            endps.append(self.labelend[bw] ^ 1)
            w = self.endpoint[self.labelend[bw]]
            bw = self.inblossom[w]
        return path, endps

    def best_edges_of(self, b: int, path: list[int]) -> None:
        """Set the least-slack edges from new blossom ``b`` to every other S-blossom,
        from its sub-blossoms' (``path``) own lists, else their vertices' edges."""
        best_to = [-1] * (2 * self.n)
        for bv in path:
            lists: list[list[int]]
            known = self.bestedges[bv]
            if known is None:
                lists = [[p // 2 for p in self.neighbend[u]] for u in self.leaves(bv)]
            else:
                lists = [known]
            for group in lists:
                for kk in group:
                    i, j, _ = self.edges[kk]
                    if self.inblossom[j] == b:
                        i, j = j, i
                    bj = self.inblossom[j]
                    if (bj != b and self.label[bj] == 1 and
                            (best_to[bj] == -1 or self.slack(kk) < self.slack(best_to[bj]))):
                        best_to[bj] = kk
            self.bestedges[bv] = None
            self.bestedge[bv] = -1
        chosen = [kk for kk in best_to if kk != -1]
        self.bestedges[b] = chosen
        self.bestedge[b] = -1
        for kk in chosen:
            if self.bestedge[b] == -1 or self.slack(kk) < self.slack(self.bestedge[b]):
                self.bestedge[b] = kk

    def expand_blossom(self, b: int, endstage: bool) -> None:
        """Turn blossom ``b`` back into its sub-blossoms (recursively at the end of a
        stage, for those whose dual reached 0)."""
        for s in self.childs[b]:
            self.parent[s] = -1
            if s < self.n:
                self.inblossom[s] = s
            elif endstage and self.dual[s] == 0:
                self.expand_blossom(s, endstage)
            else:
                for v in self.leaves(s):
                    self.inblossom[v] = s
        if not endstage and self.label[b] == 2:
            entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]]
            childs = self.childs[b]
            endps = self.endps[b]
            j = childs.index(entrychild)
            if j & 1:
                j -= len(childs)
                jstep = 1
                endptrick = 0
            else:
                jstep = -1
                endptrick = 1
            p = self.labelend[b]
            while j != 0:
                self.label[self.endpoint[p ^ 1]] = 0
                self.label[self.endpoint[endps[j - endptrick] ^ endptrick ^ 1]] = 0
                self.assign_label(self.endpoint[p ^ 1], 2, p)
                self.allowed[endps[j - endptrick] // 2] = True
                j += jstep
                p = endps[j - endptrick] ^ endptrick
                self.allowed[p // 2] = True
                j += jstep
            bv = childs[j]
            self.label[self.endpoint[p ^ 1]] = self.label[bv] = 2
            self.labelend[self.endpoint[p ^ 1]] = self.labelend[bv] = p
            self.bestedge[bv] = -1
            j += jstep
            while childs[j] != entrychild:
                bv = childs[j]
                if self.label[bv] == 1:
                    j += jstep
                    continue
                for v in self.leaves(bv):
                    if self.label[v] != 0:
                        break
                else:
                    j += jstep
                    continue
                self.label[v] = 0
                self.label[self.endpoint[self.mate[self.base[bv]]]] = 0
                self.assign_label(v, 2, self.labelend[v])
                j += jstep
        self.label[b] = self.labelend[b] = -1
        self.childs[b] = []
        self.endps[b] = []
        self.base[b] = -1
        self.bestedges[b] = None
        self.bestedge[b] = -1
        self.unused.append(b)

    def augment_blossom(self, b: int, v: int) -> None:
        """Rotate blossom ``b`` so that vertex ``v`` becomes its base (after augmenting)."""
        t = v
        while self.parent[t] != b:
            t = self.parent[t]
        if t >= self.n:
            self.augment_blossom(t, v)
        childs = self.childs[b]
        endps = self.endps[b]
        i = j = childs.index(t)
        if i & 1:
            j -= len(childs)
            jstep = 1
            endptrick = 0
        else:
            jstep = -1
            endptrick = 1
        while j != 0:
            j += jstep
            t = childs[j]
            p = endps[j - endptrick] ^ endptrick
            if t >= self.n:
                self.augment_blossom(t, self.endpoint[p])
            j += jstep
            t = childs[j]
            if t >= self.n:
                self.augment_blossom(t, self.endpoint[p ^ 1])
            self.mate[self.endpoint[p]] = p ^ 1
            self.mate[self.endpoint[p ^ 1]] = p
        self.childs[b] = childs[i:] + childs[:i]
        self.endps[b] = endps[i:] + endps[:i]
        self.base[b] = self.base[self.childs[b][0]]

    def augment_matching(self, k: int) -> None:
        """Swap matched and unmatched edges along the augmenting path through edge ``k``."""
        v, w, _ = self.edges[k]
        self.flip_path(v, 2 * k + 1)
        self.flip_path(w, 2 * k)

    def flip_path(self, s: int, p: int) -> None:
        """Match S-vertex ``s`` to endpoint ``p`` (-1: leave it free) and swap matched and
        unmatched edges along the alternating path from ``s`` to its tree's root."""
        while True:
            bs = self.inblossom[s]
            if bs >= self.n:
                self.augment_blossom(bs, s)
            self.mate[s] = p
            if self.labelend[bs] == -1:
                break
            t = self.endpoint[self.labelend[bs]]
            bt = self.inblossom[t]
            s = self.endpoint[self.labelend[bt]]
            j = self.endpoint[self.labelend[bt] ^ 1]
            if bt >= self.n:
                self.augment_blossom(bt, j)
            self.mate[j] = self.labelend[bt]
            p = self.labelend[bt] ^ 1

    def t_blossom_delta(self, delta: int, deltatype: int, deltablossom: int
                        ) -> tuple[int, int, int]:
        """Return (delta, type, blossom) lowered to the dual of a top-level T-blossom
        where that is smaller (type 4: the blossom is expanded next)."""
        dual, label, base_of, parent = self.dual, self.label, self.base, self.parent
        for b in range(self.n, 2 * self.n):
            if base_of[b] >= 0 and parent[b] == -1 and label[b] == 2 and dual[b] < delta:
                delta, deltatype, deltablossom = dual[b], 4, b
        return delta, deltatype, deltablossom

    def shift_duals(self, delta: int) -> None:
        """Change the duals by ``delta``: S-vertices down, T-vertices up, top-level
        S-blossoms up, T-blossoms down (Galil's dual adjustment)."""
        if not delta:
            return
        dual, label, inblossom = self.dual, self.label, self.inblossom
        base_of, parent, n = self.base, self.parent, self.n
        for v in range(n):
            lab = label[inblossom[v]]
            if lab == 1:
                dual[v] -= delta
            elif lab == 2:
                dual[v] += delta
        for b in range(n, 2 * n):
            if base_of[b] >= 0 and parent[b] == -1:
                if label[b] == 1:
                    dual[b] += delta
                elif label[b] == 2:
                    dual[b] -= delta

    def reset_labels(self) -> None:
        """Start a stage: no labels, no least-slack edges, no edge allowed, empty queue."""
        n = self.n
        self.label = [0] * (2 * n)
        self.bestedge = [-1] * (2 * n)
        for b in range(n, 2 * n):
            self.bestedges[b] = None
        self.allowed = [False] * len(self.edges)
        self.queue = []

    def close_cycle(self, v: int, w: int, k: int) -> bool:
        """Tight edge ``k`` joins S-vertices ``v`` and ``w`` of two S-blossoms: make the
        odd cycle it closes a blossom, or augment along the path it completes. Return
        whether the matching was augmented."""
        base = self.scan_blossom(v, w)
        if base >= 0:
            self.add_blossom(base, k)
            return False
        self.augment_matching(k)
        return True

    def grow(self) -> bool:
        """Scan the queued S-vertices' edges with the current duals, labelling and
        shrinking blossoms (Galil's search); return whether the matching was augmented.

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

    def edge_delta(self, delta: int) -> tuple[int, int, int] | None:
        """Return (delta, type, edge): ``delta`` (type 1, a vertex dual) lowered to the
        slack of a free vertex's least-slack edge to an S-blossom (type 2) or half that
        of a top-level S-blossom's least-slack edge to another (type 3), where smaller
        (Galil's dual adjustment). None when such a slack is odd: its half is no integer.
        """
        n, dual, label, inblossom = self.n, self.dual, self.label, self.inblossom
        bestedge, ends, doubled, parent = self.bestedge, self.ends, self.doubled, self.parent
        deltatype = 1
        deltaedge = -1
        for v in range(n):
            k = bestedge[v]
            if k != -1 and label[inblossom[v]] == 0:
                i, j = ends[k]
                d = dual[i] + dual[j] - doubled[k]
                if d < delta:
                    delta, deltatype, deltaedge = d, 2, k
        for b in range(2 * n):
            k = bestedge[b]
            if k != -1 and parent[b] == -1 and label[b] == 1:
                i, j = ends[k]
                kslack = dual[i] + dual[j] - doubled[k]
                if kslack % 2:
                    return None
                d = kslack // 2
                if d < delta:
                    delta, deltatype, deltaedge = d, 3, k
        return delta, deltatype, deltaedge

    def use_delta(self, deltatype: int, deltaedge: int, deltablossom: int) -> None:
        """After the dual change: allow the edge that became tight and queue its S end
        (types 2 and 3), or expand the T-blossom whose dual reached 0 (type 4)."""
        if deltatype == 2:
            self.allowed[deltaedge] = True
            i, j = self.ends[deltaedge]
            if self.label[self.inblossom[i]] == 0:
                i, j = j, i
            self.queue.append(i)
        elif deltatype == 3:
            self.allowed[deltaedge] = True
            i, j = self.ends[deltaedge]
            self.queue.append(i)
        else:
            self.expand_blossom(deltablossom, False)

    def end_stage(self) -> None:
        """Expand the top-level S-blossoms whose dual is 0 (the end of a stage)."""
        for b in range(self.n, 2 * self.n):
            if (self.parent[b] == -1 and self.base[b] >= 0 and self.label[b] == 1
                    and self.dual[b] == 0):
                self.expand_blossom(b, True)

    def augment_stage(self) -> bool:
        """Search for an augmenting path, changing the duals whenever none is tight;
        return whether the matching was augmented (False: it is of maximum weight)."""
        while True:
            if self.grow():
                return True
            # no augmenting path with the current duals: change them
            found = self.edge_delta(min(self.dual[: self.n]))
            assert found is not None
            delta, deltatype, deltaedge = found
            delta, deltatype, deltablossom = self.t_blossom_delta(delta, deltatype, -1)
            self.shift_duals(delta)
            if deltatype == 1:
                return False
            self.use_delta(deltatype, deltaedge, deltablossom)

    def run(self) -> list[int]:
        """Return ``mate`` (the matched vertex, or -1): Galil's stages, each from every
        free vertex, until one finds no augmenting path."""
        n = self.n
        for _ in range(n):
            self.reset_labels()
            for v in range(n):
                if self.mate[v] == -1 and self.label[self.inblossom[v]] == 0:
                    self.assign_label(v, 1, -1)
            if not self.augment_stage():
                break
            self.end_stage()
        return [-1 if p == -1 else self.endpoint[p] for p in self.mate]
