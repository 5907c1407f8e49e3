"""The Dutch engine's fast path for transpositions: the choices read off the present
optimum (FIDE C.04.3 art. D.1), without a new matching for each (see the package
docstring for the model, and :meth:`_TightChoices.tight_choices` for why it is the
step's own answer). :class:`standgen.pairing.dutch.engine._Engine` pairs with it."""

from __future__ import annotations

from collections import deque

from standgen.pairing.dutch.weights import _Weights


class _TightChoices(_Weights):
    """The transposition step's choices read off the present optimum; the bracket's base
    weights (``base``) and the current best matching (``stable``) are the engine's."""

    base: dict[tuple[int, int], int]
    stable: list[int]

    def tight_choices(self, bracket: list[int], remainder: list[int], firsts: list[int],
                      matched: list[bool]) -> list[int]:
        """The opponents of the first S1 players (``firsts``: their bracket positions)
        read off the present optimum.

        Every best matching pairs only players whose pair is tight under the present
        optimal duals. Taking the S1 players in order, each is given his first S2
        player (transposition order) whose pair is tight and that some best matching
        holds: the present one, or one reached by swapping along an alternating cycle
        of tight pairs (the players paired stay the same, so the result is still a best
        matching when the blossoms keep their pairs). That is the step's own answer
        (C.04.3 art. D.1) without a new matching. It stops at a tight pair that cannot
        be settled so (a cycle through an odd one, a player moving out of the window);
        the players settled before it are kept when the blossoms keep their pairs."""
        window = self.window
        assert window is not None
        mate = {v: m for v, m in enumerate(self.stable)
                if m != v and window.index.get(v) is not None}
        fixed: set[int] = set()
        out: list[int] = []
        for pos in firsts:
            pick = self.tight_pick(bracket, remainder, pos, matched, mate, fixed)
            if pick < 0:
                break
            fixed.update((bracket[pos], pick))
            out.append(pick)
        if not window.full_blossoms(mate):
            return []
        for v, m in mate.items():  # the best matching the choices were read off
            self.stable[v] = m
        return out

    def tight_pick(self, bracket: list[int], remainder: list[int], pos: int,
                   matched: list[bool], mate: dict[int, int], fixed: set[int]) -> int:
        """S1 player ``bracket[pos]``'s first S2 player whose tight pair a best matching
        holds (``mate`` turned to hold it), or -1 when that cannot be told."""
        window = self.window
        assert window is not None
        v = bracket[pos]
        for big in remainder:
            x = bracket[big]
            if big <= pos or matched[x] or x in fixed or not self.base[(big, pos)]:
                continue
            tight = window.tight(v, x)
            if tight is None:
                return -1
            if not tight:
                continue
            if mate.get(v) != x and not self.swap_in(v, x, mate, fixed):
                return -1
            return x
        return -1

    def swap_in(self, v: int, x: int, mate: dict[int, int], fixed: set[int]) -> bool:
        """Change ``mate`` along an alternating cycle of tight pairs through (v, x), the
        players not in ``fixed``; return False when none is found (searching as in a
        bipartite graph: a cycle found is one, not every one is found)."""
        window = self.window
        assert window is not None
        u, a = mate.get(v), mate.get(x)
        if u is None or a is None or window.index.get(a) is None:
            return False
        back: dict[int, int] = {}  # y -> the vertex whose new partner y is
        queue = deque([a])
        seen = {v, x, a}
        while queue:
            s = queue.popleft()
            for y in window.window:
                if y in seen or y in fixed or y not in mate or y == s:
                    continue
                if not window.tight(s, y):
                    continue
                seen.add(y)
                back[y] = s
                if y == u:
                    self.rotate(v, x, u, back, mate)
                    return True
                nxt = mate[y]
                if nxt in seen or nxt in fixed or window.index.get(nxt) is None:
                    continue
                seen.add(nxt)
                queue.append(nxt)
        return False

    @staticmethod
    def rotate(v: int, x: int, u: int, back: dict[int, int], mate: dict[int, int]) -> None:
        """Apply the cycle found by :meth:`swap_in`: v-x, then from x's old partner to
        ``u`` (v's old partner) each new pair (``back[y]``, ``y``)."""
        start = mate[x]
        pairs = []
        y = u
        while True:
            s = back[y]
            pairs.append((s, y))
            if s == start:
                break
            y = mate[s]
        for s, y in pairs:
            mate[s], mate[y] = y, s
        mate[v], mate[x] = x, v
