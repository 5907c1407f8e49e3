"""The Dutch engine's model: the C.04.3 criteria written as the weights of a
maximum-weight matching, one field above the other, and that matching kept up to date
while the brackets are paired (see the package docstring)."""

from __future__ import annotations

from standgen.pairing.blossom import IncrementalMatching, max_weight_matching
from standgen.pairing.dutch.state import (
    BLACK,
    DOWN,
    UP,
    WHITE,
    PairingState,
    _invert,
    _Player,
    _players,
)
from standgen.pairing.dutch.window import Window

INCREMENTAL = True  # repair the matching between decisions instead of starting again


def _bits(value: int) -> int:
    return max(value, 0).bit_length()


class _Weights:
    """The players of one round's pairing, the weight of pairing any two of them
    (C.04.3 art. C.1-C.21) and the best matching over those weights."""

    def __init__(self, state: PairingState, fast: bool = True, compiled: bool = True
                 ) -> None:
        self.state = state
        self.players = _players(state)
        self.n = len(self.players)
        self.played = state.played_rounds
        met: dict[int, set[int]] = {}
        for e in state.entrants:
            for m in e.history:
                if m.played and m.opponent is not None:  # art. C.1: forfeits do not count
                    met.setdefault(e.number, set()).add(m.opponent)
        for group in state.forbidden:  # forbidden pairs: as if they had met
            for number in group:
                met.setdefault(number, set()).update(group - {number})
        self.met = met
        # lexicographic score levels: the bits each score group takes in a "scores" field
        self.shift: dict[float, int] = {}
        total = 0
        largest = 0
        k = self.n - 1
        while k >= 0:
            score = self.players[k].score
            start = k
            while start > 0 and self.players[start - 1].score == score:
                start -= 1
            size = k - start + 1
            self.shift[score] = total
            total += _bits(size)
            largest = max(largest, size)
            k = start - 1
        self.groups_shift = total
        self.size_bits = max(_bits(largest), 1)
        self.top_threshold = self.played * max(state.win_points, state.draw_points) / 2
        self.bye_score = 0.0
        self.single_downfloater_bye = False
        self.unplayed_rank: dict[int, int] = {}
        self.weight: dict[tuple[int, int], int] = {}
        self._weighed: dict[tuple[object, ...], int] = {}
        self.alive = [True] * self.n
        self.partner: dict[int, int] = {}
        # the fast path (window.py): each bracket's window matched on its own
        self.fast = fast
        self.compiled = compiled  # the windows' matching compiled (blossom.py), if built
        self.window: Window | None = None
        self.fallbacks = 0
        self.flag0 = False  # single_downfloater_bye when the field's weights were set
        self._adjacent: list[int] | None = None
        self._additive: list[int] | None = None
        # the matching kept up to date between decisions (as bbpPairings' matching
        # computer), or None: each matching computed afresh
        self.matcher = (IncrementalMatching(self.n) if INCREMENTAL and self.n > 1 and not fast
                        else None)

    # ----- criteria ---------------------------------------------------------------------

    def compatible(self, a: _Player, b: _Player) -> bool:
        """C.04.3 art. C.1: no two players meet twice (games played over the board), nor
        two the regulations forbid to meet (``PairingState.forbidden``);
        art. C.3: no two players with the same absolute colour preference meet, except
        topscorers (art. A.7: a score above 50 % of the maximum) in the last round."""
        if b.number in self.met.get(a.number, ()):
            return False
        if not (a.absolute and b.absolute and a.preference == b.preference):
            return True
        last = self.played >= self.state.rounds - 1
        return last and (a.score > self.top_threshold or b.score > self.top_threshold)

    def bye_candidate(self, p: _Player) -> bool:
        """C.04.3 C.2 (eligible) and C.4 (the bye at the lowest score that completes the round)."""
        return p.eligible and p.score <= self.bye_score

    def colour_fields(self, lower: _Player, higher: _Player, current: bool) -> list[int]:
        """The colour criteria of a pair in the bracket, each 1 when met.

        C.04.3 C.10 (no colour difference beyond +-2) and C.11 (no same colour three
        times in a row), which only topscorers may break (the last-round exception of
        C.3, A.7); C.12 (both colour preferences granted), C.13 (strong preferences
        granted; two absolute ones count under C.10-C.11 instead).
        """
        if not current:
            return [0, 0, 0, 0]
        same = lower.preference == higher.preference
        c10 = not (lower.absolute_imbalance and higher.absolute_imbalance and same)
        if not (lower.absolute and higher.absolute and same):
            c11 = True
        elif lower.imbalance == higher.imbalance:
            c11 = lower.repeated is None or lower.repeated != higher.repeated
        else:
            assert lower.preference is not None
            less = higher if lower.imbalance > higher.imbalance else lower
            c11 = less.repeated != _invert(lower.preference)
        c12 = (lower.preference is None or higher.preference is None or not same)
        lower_strong = lower.strong or lower.absolute
        higher_strong = higher.strong or higher.absolute
        c13 = ((not lower_strong) or (not higher_strong)
               or (lower.absolute and higher.absolute) or not same)
        return [int(c10), int(c11), int(c12), int(c13)]

    def edge(self, higher: _Player, lower: _Player, current: bool, following: bool) -> int:
        """Return the weight of pairing ``higher`` (better placed) with ``lower``, 0 if
        they may not meet (:meth:`compatible`), else :meth:`weigh`'s, kept for every
        two kinds of player (:meth:`kind`: what the weight reads of a player)."""
        if not self.compatible(higher, lower):
            return 0
        key = (self.kind(higher), self.kind(lower), current, following,
               self.single_downfloater_bye, self.bye_score)
        w = self._weighed.get(key)
        if w is None:
            w = self._weighed[key] = self.weigh(higher, lower, current, following)
        return w

    @staticmethod
    def kind(p: _Player) -> tuple[object, ...]:
        """What :meth:`weigh` reads of a player: score, bye eligibility and games played
        (C.2, C.4, C.9), colour facts (C.10-C.13), floats (C.14-C.21)."""
        return (p.score, p.eligible, p.played_games, p.preference, p.imbalance,
                p.repeated, p.strong, p.floats)

    def weigh(self, higher: _Player, lower: _Player, current: bool, following: bool) -> int:
        """Return the weight of pairing ``higher`` (better placed) with ``lower``, two
        players who may meet. The fields, most important first (each wide enough that
        the sum over a whole matching never reaches the field above):

        completion and the bye (C.2: only an eligible player; C.4: the round can be
        completed; the bye at the lowest possible score), pairs in the bracket (C.5),
        the scores paired (C.6: moved-down players paired from the highest score), the
        same for the next bracket (C.7-C.8), the unplayed games of the bye assignee
        (C.9), colours (C.10-C.13), repeated floats of the last round and of the round
        before (C.14-C.17, counted, then C.18-C.21,
        by score), and room for the transposition and exchange order (art. D).
        """
        sb, sg, shift = self.size_bits, self.groups_shift, self.shift
        w = 1 + (not self.bye_candidate(higher)) + (not self.bye_candidate(lower))
        w = (w << sb) + int(current)
        w = (w << sg) + ((1 << shift[higher.score]) if current else 0)
        w = (w << sb) + int(following)
        w = (w << sg) + ((1 << shift[higher.score]) if following else 0)
        w <<= 2 * sb
        if self.single_downfloater_bye:
            if higher.score == self.bye_score:
                w += self.unplayed_rank[higher.played_games]
            if lower.score == self.bye_score:
                w += self.unplayed_rank[lower.played_games]
        for bit in self.colour_fields(lower, higher, current):
            w = (w << sb) + bit
        float_rounds = [r for r in (0, 1) if self.played > r]
        for r in float_rounds:
            down = up = 0
            if current:
                down = int(lower.floats[r] == DOWN) + int(
                    higher.score <= lower.score and higher.floats[r] == DOWN)
                up = int(not (higher.score > lower.score and lower.floats[r] == UP))
            w = (w << sb) + down
            w = (w << sb) + up
        for r in float_rounds:
            down = up = 0
            if current:
                down = (int(lower.floats[r] == DOWN) << shift[lower.score]) + (
                    int(higher.floats[r] == DOWN) << shift[higher.score])
                if not (lower.floats[r] == UP and higher.score > lower.score):
                    up = 1 << shift[higher.score]
            w = (w << sg) + down
            w = (w << sg) + up
        return w << (3 * sb + 1)

    def places(self) -> tuple[int, int]:
        """The bit positions of the completion field and of C.9 in :meth:`edge`."""
        sb, sg = self.size_bits, self.groups_shift
        floats = min(self.played, 2)
        low = 4 * sb + floats * (2 * sb + 2 * sg) + 3 * sb + 1
        return low + 4 * sb + 2 * sg, low

    def additive(self) -> tuple[list[int], int]:
        """Return ``(a, c)``: a pair outside every window that may meet weighs
        ``c + a[u] + a[v]`` (:meth:`edge` with neither ``current`` nor ``following``:
        completion and the bye, C.2/C.4, and C.9 as the field's weights were set)."""
        top, c9 = self.places()
        if self._additive is None:
            a = []
            for p in self.players:
                value = int(not self.bye_candidate(p)) << top
                if self.flag0 and p.score == self.bye_score:
                    value += self.unplayed_rank[p.played_games] << c9
                a.append(value)
            self._additive = a
        return self._additive, 1 << top

    def adjacent(self) -> list[int]:
        """Return the compatibility bit sets: bit ``j`` of entry ``i`` when players
        ``i`` and ``j`` may meet (:meth:`compatible`, C.1 and C.3, built by groups)."""
        if self._adjacent is None:
            players, n = self.players, self.n
            index = {p.number: i for i, p in enumerate(players)}
            last = self.played >= self.state.rounds - 1
            top = [p.score > self.top_threshold for p in players]
            absolute = {WHITE: 0, BLACK: 0}
            absolute_low = {WHITE: 0, BLACK: 0}
            for i, p in enumerate(players):
                if p.absolute and p.preference is not None:
                    absolute[p.preference] |= 1 << i
                    if not top[i]:
                        absolute_low[p.preference] |= 1 << i
            full = (1 << n) - 1
            out = []
            for i, p in enumerate(players):
                mask = full & ~(1 << i)
                for number in self.met.get(p.number, ()):
                    j = index.get(number)
                    if j is not None:
                        mask &= ~(1 << j)
                if p.absolute and p.preference is not None:
                    if not last:
                        mask &= ~absolute[p.preference]
                    elif not top[i]:
                        mask &= ~absolute_low[p.preference]
                out.append(mask)
            self._adjacent = out
        return self._adjacent

    def weight_of(self, u: int, v: int) -> int:
        """The field model's weight of pair (u, v): as last set, else as the first
        matching set it (:meth:`additive`)."""
        known = self.weight.get((u, v) if u < v else (v, u))
        if known is not None:
            return known
        if not self.adjacent()[u] >> v & 1:
            return 0
        a, c = self.additive()
        return c + a[u] + a[v]

    def open_window(self, vertices: list[int], known: int, alike: int = -1) -> None:
        """Start pairing a bracket: on the fast path, a matching of its window
        (``vertices``: the bracket and the next score group) alone. The caller sets
        every pair's weight but those among the first ``known`` players."""
        if not self.fast:
            return
        inside = set(vertices)
        rest = [v for v in range(self.n) if self.alive[v] and v not in inside]
        a, c = self.additive()
        self.window = Window(vertices, rest, self.weight_of, a, c, self.adjacent(),
                             known=known, alike=alike, compiled=self.compiled)

    # ----- the matching -----------------------------------------------------------------

    def set(self, u: int, v: int, w: int) -> None:
        """Set the weight of pairing ``u`` with ``v`` (``u``: the player whose edges
        change, re-matched first by the incremental matching)."""
        self.weight[(u, v) if u < v else (v, u)] = w
        if self.matcher is not None:
            self.matcher.set_weight(u, v, w)
        elif self.window is not None:
            self.window.set(u, v, w)

    def set_many(self, pairs: list[tuple[int, int, int]]) -> None:
        """:meth:`set` for each pair (u, v, w) in turn (on the fast path, at once)."""
        if self.matcher is not None or self.window is None:
            for u, v, w in pairs:
                self.set(u, v, w)
            return
        weight = self.weight
        for u, v, w in pairs:
            weight[(u, v) if u < v else (v, u)] = w
        self.window.set_many(pairs)

    def compute(self) -> list[int]:
        """Return the best matching of the players not yet paired: ``mate[v]`` (``v``
        itself when unmatched, the fixed partner for those already paired)."""
        if self.window is not None:
            found = self.window.solve(self.n)
            if found is None:  # the rest cannot be completed: the exact graph
                self.fallbacks += 1
                self.window = self.window.exact()
                found = self.window.solve(self.n)
                assert found is not None
            for v, p in self.partner.items():
                found[v] = p
            return found
        if self.matcher is not None:
            found = self.matcher.solve()
            out = list(range(self.n))
            for v, m in enumerate(found):
                if m != -1:
                    out[v] = m
            for v, p in self.partner.items():
                out[v] = p
            return out
        live = [v for v in range(self.n) if self.alive[v]]
        index = {v: k for k, v in enumerate(live)}
        edges = [(index[u], index[v], w) for (u, v), w in self.weight.items()
                 if w > 0 and self.alive[u] and self.alive[v]]
        mate = max_weight_matching(len(live), edges)
        out = list(range(self.n))
        for v, p in self.partner.items():
            out[v] = p
        for k, m in enumerate(mate):
            if m != -1:
                out[live[k]] = live[m]
        return out

    def finalise(self, u: int, v: int) -> None:
        self.alive[u] = self.alive[v] = False
        self.partner[u], self.partner[v] = v, u
        if self.matcher is not None:
            self.matcher.remove(u)
            self.matcher.remove(v)
        elif self.window is not None:
            self.window.remove(u)
            self.window.remove(v)
