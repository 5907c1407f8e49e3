"""The Dutch engine's procedure: the brackets paired from the top, one decision at a time
(FIDE C.04.3 art. A.3, B, D), each taken with a fresh matching (see the package
docstring), then the colours (art. E) and the board order."""

from __future__ import annotations

from itertools import repeat

from standgen.pairing.dutch.colours import colour
from standgen.pairing.dutch.completion import perfect
from standgen.pairing.dutch.state import WHITE, DutchPairing, NoValidPairing, PairingState
from standgen.pairing.dutch.tight import _TightChoices

# the fast first matching tries at most this many bye candidates before the full one
BYE_TRIES = 12


class _Engine(_TightChoices):
    """One round's pairing; see the package docstring for the model. The choices read
    off the present optimum on the fast path are :class:`_TightChoices`'."""

    def __init__(self, state: PairingState, fast: bool = True, compiled: bool = True
                 ) -> None:
        super().__init__(state, fast, compiled)
        # the bracket being paired: base weights by (lower, higher) position in it, the
        # current best matching, and the vertex range of its resident score group
        self.base: dict[tuple[int, int], int] = {}
        self.stable: list[int] = []
        self.group_vertex = 0
        self.next_vertex = 0

    # ----- the procedure ----------------------------------------------------------------

    def first_matching(self) -> None:
        """Check that a pairing exists and find the bye's score (:meth:`field_matching`);
        on the fast path by the completion test alone (:meth:`quick_first`)."""
        if not (self.fast and self.quick_first()):
            self.field_matching()
        self.flag0 = self.single_downfloater_bye

    def quick_first(self) -> bool:
        """The fast path's first matching (C.04.3 art. C.1-C.4): the field can be
        completed, and with an odd field the bye's score is the lowest at which an
        eligible player can be left out with the rest completed (the top field of the
        reference's weights). Return False to leave it to :meth:`field_matching` (a bye
        in the top score group, where C.9 decides more, or many candidates refused)."""
        players, n = self.players, self.n
        adjacent = self.adjacent()
        everyone = list(range(n))
        if n % 2 == 0:
            if not perfect(everyone, adjacent):
                raise NoValidPairing("no pairing satisfies the absolute criteria "
                                     "(C.04.3 art. C.1-C.3)")
            return True
        candidates = sorted((v for v in everyone if players[v].eligible),
                            key=lambda v: (players[v].score, -v))
        for v in candidates[:BYE_TRIES]:
            if perfect([u for u in everyone if u != v], adjacent):
                self.bye_score = players[v].score
                break
        else:
            return False
        if self.bye_score >= players[0].score:
            return False
        self.single_downfloater_bye = False
        counts = sorted((p.played_games for p in players if p.score == self.bye_score),
                        reverse=True)
        for rank, games in enumerate(counts):
            self.unplayed_rank[games] = rank
        return True

    def field_matching(self) -> None:
        """Check that a pairing exists (C.04.3 art. C.1-C.3) and find the score of the
        bye (C.4: the lowest score a bye-eligible player can be left with), and
        whether C.9 (the bye assignee's unplayed games) applies from the top bracket."""
        players, n = self.players, self.n
        if n % 2:
            top = players[0].score
            for j in range(n):
                for i in range(j):
                    lo, hi = players[j], players[i]
                    w = 0
                    if self.compatible(hi, lo):
                        w = 1 + (not lo.eligible) + (not hi.eligible)
                        w = (w << self.groups_shift) + self.shift[lo.score] + self.shift[hi.score]
                        w = (w << self.size_bits) + int(lo.score >= top)
                    self.set(i, j, w)
        else:
            self.all_edges()
        mate = self.compute()
        unmatched = [v for v in range(n) if mate[v] == v]
        if len(unmatched) > 1 or (unmatched and not players[unmatched[0]].eligible):
            raise NoValidPairing("no pairing satisfies the absolute criteria "
                                 "(C.04.3 art. C.1-C.3)")
        if n % 2:
            bye = unmatched[0]
            self.bye_score = players[bye].score
            top = players[0].score
            single = self.bye_score >= top
            if single:
                for v in range(n):
                    if players[v].score < top:
                        break
                    if players[mate[v]].score < top:
                        single = False
                        break
            self.single_downfloater_bye = single
            counts = sorted((p.played_games for p in players if p.score == self.bye_score),
                            reverse=True)
            for rank, games in enumerate(counts):
                self.unplayed_rank[games] = rank
            self.all_edges()

    def all_edges(self) -> None:
        for j in range(self.n):
            for i in range(j):
                self.set(i, j, self.edge(self.players[i], self.players[j], False, False))

    def in_group(self, vertex: int) -> bool:
        """Whether ``vertex`` is a resident of the bracket's own score group."""
        return self.group_vertex <= vertex < self.next_vertex

    def is_higher(self, v: int) -> bool:
        """Whether ``v`` is, in the current matching, the higher player of a pair in
        the bracket (an S1 player, C.04.3 art. B.2)."""
        return v < self.stable[v] < self.next_vertex

    def with_order(self, small: int, big: int, index: int, pairs: int) -> int:
        """The base weight of a pair in the remainder with, below every criterion, the
        order of C.04.3 art. D.2-D.3: as few exchanges as possible, then the smallest
        difference of the exchanged players' BSNs (bbpPairings' encoding: a bonus when
        the higher player is in S1, less the higher player's index)."""
        w = self.base[(big, small)]
        if w:
            w += ((int(index < pairs) << (2 * self.size_bits)) - index) << 1
        return w

    def run(self) -> DutchPairing:
        """Pair the round: the brackets from the top (C.04.3 art. A.3, B), each with the
        next score group in view (C.7-C.8), then the colours and board order."""
        players, n = self.players, self.n
        if n == 0:
            return DutchPairing((), None)
        self.first_matching()
        top = players[0].score
        bracket = [v for v in range(n) if players[v].score >= top]
        following = len(bracket)
        mdps = 0
        self.group_vertex = 0
        matched = [False] * n
        while len(bracket) > 1 or following < n:
            if following >= n and mdps == len(bracket):
                raise NoValidPairing("moved-down players left with no bracket to pair in")
            residents_end = len(bracket)
            self.next_vertex = self.group_vertex + (residents_end - mdps)
            group_start = following
            following = self.add_next_group(bracket, following)
            self.open_window(bracket, mdps, residents_end)
            self.pair_bracket(bracket, mdps, residents_end, matched)
            new_bracket, new_mdps = self.move_down(bracket, residents_end, group_start, matched)
            bracket, mdps, self.group_vertex = new_bracket, new_mdps, self.next_vertex
        return self.boards()

    def add_next_group(self, bracket: list[int], following: int) -> int:
        """Append the score group after the bracket's (the next bracket's residents, whose
        pairing C.04.3 C.7-C.8 weigh) to ``bracket``; return the position after it."""
        players, n = self.players, self.n
        if following < n:
            level = players[following].score
            while following < n and players[following].score >= level:
                bracket.append(following)
                following += 1
        return following

    def pair_bracket(
        self, bracket: list[int], mdps: int, residents_end: int, matched: list[bool]
    ) -> None:
        """Pair one bracket (C.04.3 art. B): ``bracket[:mdps]`` are its moved-down
        players, ``bracket[mdps:residents_end]`` its residents, the rest the next score
        group. Each decision is taken in turn, with a fresh matching, and kept: the
        moved-down players paired (B.3, C.5-C.6) and their opponents, the exchanges
        between S1 and S2 (D.2-D.3), then each S1 player's opponent (D.1). Those paired
        are finalised and marked in ``matched``."""
        self.base_weights(bracket, mdps, residents_end)
        self.stable = self.compute()
        self.choose_moved_down(bracket, mdps, residents_end, matched)
        self.pair_moved_down(bracket, mdps, residents_end, matched)
        remainder, pairs = self.remainder_of(bracket, mdps, residents_end)
        if not (self.window is not None
                and all(self.is_higher(bracket[pos]) for pos in remainder[:pairs])):
            self.order_weights(bracket, remainder, pairs)
            self.stable = self.compute()
            exchanges = sum(1 for pos in remainder[:pairs] if not self.is_higher(bracket[pos]))
            self.exchange_from_s1(bracket, remainder, pairs, exchanges)
            self.exchange_from_s2(bracket, remainder, pairs, exchanges, residents_end)
        # else (fast path): the present best matching already has S1 the first ``pairs``
        # players, so the order of exchanges (D.2-D.3) keeps it: no exchange to make
        self.fix_halves(bracket, remainder)
        self.transpose(bracket, remainder, matched)

    def base_weights(self, bracket: list[int], mdps: int, residents_end: int) -> None:
        """Set every pair's weight in the bracket (:meth:`edge`), pairs of its own players
        as current (C.5-C.6, C.10-C.21), those with the next score group as following
        (C.7-C.8), and keep them as its base weights."""
        players = self.players
        self.base = {}
        if self.window is not None:
            self.window_base_weights(bracket, mdps, residents_end)
            return
        for big in range(mdps, len(bracket)):
            for small in range(big):
                w = self.edge(players[bracket[small]], players[bracket[big]],
                              big < residents_end, big >= residents_end)
                self.base[(big, small)] = w
                self.set(bracket[small], bracket[big], w)

    def window_base_weights(self, bracket: list[int], mdps: int, residents_end: int
                            ) -> None:
        """:meth:`base_weights` on the fast path, for a new window (the bracket's players
        are its first vertices, in order), a row at a time: :meth:`edge`'s values, each
        pair's compatibility read off the bit sets (:meth:`adjacent`), its weight (and
        the window's reduced weight) kept per two kinds of player (:meth:`kind`, with
        the additive weight the reduced one reads)."""
        players, base, weight = self.players, self.base, self.weight
        adjacent, weighed = self.adjacent(), self._weighed
        window = self.window
        assert window is not None
        additive = self.additive()[0]
        flags = (self.single_downfloater_bye, self.bye_score)
        ids: dict[tuple[object, ...], int] = {}
        kinds = [self.kind(players[v]) for v in bracket]
        kind_id = [ids.setdefault((k, additive[v]), len(ids))
                   for k, v in zip(kinds, bracket, strict=True)]
        first = {kid: pos for pos, kid in reversed(list(enumerate(kind_id)))}
        width = self.n // 8 + 1
        # the residents and the next score group: consecutive players (their
        # compatibility bits read as one string)
        start = bracket[mdps] if mdps < len(bracket) else 0
        run = bracket[mdps:] == list(range(start, start + len(bracket) - mdps))
        tables: dict[tuple[int, bool], tuple[dict[int, int], dict[int, int]]] = {}
        for big in range(mdps, len(bracket)):
            lower = bracket[big]
            current = big < residents_end
            highers = bracket[:big]
            kids = kind_id[:big]
            # the weight and the reduced weight by the higher player's kind
            found = tables.get((kind_id[big], current))
            if found is None:
                found = tables[(kind_id[big], current)] = ({}, {})
            by_kind, reduced = found
            for kid in set(kids).difference(by_kind):
                higher = bracket[first[kid]]
                key = (kinds[first[kid]], kinds[big], current, not current, *flags)
                w = weighed.get(key, -1)
                if w < 0:
                    w = weighed[key] = self.weigh(players[higher], players[lower],
                                                  current, not current)
                by_kind[kid] = w
                reduced[kid] = window.reduced(higher, lower, w)
            row_bits = adjacent[lower]
            if run:
                may_meet = row_bits.to_bytes(width, "little")
                meets = [may_meet[h >> 3] >> (h & 7) & 1 for h in highers[:mdps]]
                # bit i of the string: player start + i (a leading 1 keeps the length)
                tail = row_bits >> start & ((1 << (big - mdps)) - 1) | 1 << (big - mdps)
                meets.extend(map(int, bin(tail)[:2:-1]))
            else:
                may_meet = row_bits.to_bytes(width, "little")
                meets = [may_meet[h >> 3] >> (h & 7) & 1 for h in highers]
            row = [by_kind[k] if m else 0 for k, m in zip(kids, meets, strict=True)]
            if current:  # only the bracket's own rows are read back (the rest: 0 or set)
                base.update(zip(zip(repeat(big), range(big), strict=False), row, strict=True))
            weight.update(zip(zip(highers, repeat(lower), strict=False), row, strict=True))
            window.load_row(big, [reduced[k] if m else 0
                                  for k, m in zip(kids, meets, strict=True)])

    def choose_moved_down(
        self, bracket: list[int], mdps: int, residents_end: int, matched: list[bool]
    ) -> None:
        """Decide which moved-down players are paired in this bracket (C.04.3 B.3,
        C.5-C.6: as many as possible, from the highest score), marking them in
        ``matched``."""
        players = self.players
        level_score = 0.0
        remaining = remaining_matched = 0
        for i in range(mdps):
            v = bracket[i]
            if i == 0 or players[v].score < level_score:
                level_score = players[v].score
                remaining = remaining_matched = 0
                j = i
                while j < len(bracket) and players[bracket[j]].score >= level_score:
                    remaining += 1
                    if self.in_group(self.stable[bracket[j]]):
                        remaining_matched += 1
                    j += 1
            if not remaining_matched:
                continue
            if remaining <= remaining_matched:
                matched[v] = True
                continue
            remaining -= 1
            if not self.in_group(self.stable[v]):
                for o in range(mdps, residents_end):
                    w = self.base[(o, i)]
                    if w:
                        self.set(v, bracket[o], w | 1)
                self.stable = self.compute()
            if self.in_group(self.stable[v]):
                matched[v] = True
                remaining_matched -= 1
                for o in range(mdps, residents_end):
                    w = self.base[(o, i)]
                    if w:
                        self.set(v, bracket[o], (w | (residents_end - mdps)) + 1)

    def pair_moved_down(
        self, bracket: list[int], mdps: int, residents_end: int, matched: list[bool]
    ) -> None:
        """Give each paired moved-down player, from the top, the highest resident that
        still allows the best pairing (C.04.3 B.3), and finalise the pair."""
        for i in range(mdps):
            v = bracket[i]
            if not matched[v]:
                continue
            addend = len(bracket)
            for o in range(residents_end - 1, mdps - 1, -1):
                ov = bracket[o]
                if matched[ov]:
                    continue
                w = self.base[(o, i)]
                if w:
                    self.set(v, ov, w + addend)
                    addend += 1
            self.stable = self.compute()
            m = self.stable[v]
            matched[m] = True
            self.finalise(v, m)

    def remainder_of(
        self, bracket: list[int], mdps: int, residents_end: int
    ) -> tuple[list[int], int]:
        """Return the remainder (the bracket positions of the residents still to pair)
        and its number of pairs. S1 is the first ``pairs`` players, S2 the rest (C.04.3
        art. B.2, D)."""
        remainder = [pos for pos in range(mdps, residents_end)
                     if self.stable[bracket[pos]] >= self.group_vertex]
        pairs = sum(1 for pos in remainder if self.stable[bracket[pos]] < bracket[pos])
        return remainder, pairs

    def order_weights(self, bracket: list[int], remainder: list[int], pairs: int) -> None:
        """Set the remainder's pairs' weights with the order of exchanges below every
        criterion (:meth:`with_order`, C.04.3 art. D.2-D.3)."""
        self.set_many([(bracket[small], bracket[big], self.with_order(small, big, a_i, pairs))
                       for b_i, big in enumerate(remainder)
                       for a_i, small in enumerate(remainder[:b_i])])

    def exchange_from_s1(
        self, bracket: list[int], remainder: list[int], pairs: int, exchanges: int
    ) -> None:
        """Choose the S1 players to exchange, the lowest first (C.04.3 art. D.3)."""
        left = exchanges
        index = pairs
        while index > 0 and left:
            index -= 1
            pos = remainder[index]
            v = bracket[pos]
            if self.is_higher(v):
                for big in remainder[index + 1:]:
                    w = self.with_order(pos, big, index, pairs)
                    if w:
                        self.set(v, bracket[big], w - 1)
                self.stable = self.compute()
            exchange = not self.is_higher(v)
            left -= exchange
            for big in remainder[index + 1:]:
                if exchange:
                    self.base[(big, pos)] = 0
                self.set(v, bracket[big], self.with_order(pos, big, index, pairs))

    def exchange_from_s2(
        self, bracket: list[int], remainder: list[int], pairs: int, exchanges: int,
        residents_end: int,
    ) -> None:
        """Choose the S2 players to exchange, the highest first (C.04.3 art. D.3)."""
        left = exchanges
        for index in range(pairs, len(remainder)):
            if left <= 1:
                break
            pos = remainder[index]
            v = bracket[pos]
            already = self.is_higher(v)
            if not already:
                for big in remainder[index + 1:]:
                    w = self.with_order(pos, big, index, pairs)
                    if w:
                        self.set(v, bracket[big], w + 1)
                self.stable = self.compute()
            if self.is_higher(v):
                left -= 1
                for small in remainder[:index]:
                    self.base[(pos, small)] = 0
                    self.set(v, bracket[small], 0)
                for o in range(residents_end, len(bracket)):
                    self.base[(o, pos)] = 0
                    self.set(v, bracket[o], 0)
            if not already:
                for big in remainder[index + 1:]:
                    self.set(v, bracket[big], self.with_order(pos, big, index, pairs))

    def fix_halves(self, bracket: list[int], remainder: list[int]) -> None:
        """Fix who is in S1 (the higher player of a pair) and who in S2 (C.04.3 art. B.2):
        only the pairs of an S1 player with a lower S2 player keep a weight."""
        base = self.base
        higher = [self.is_higher(bracket[pos]) for pos in remainder]  # the matching stays
        pairs = []
        for a_i, small in enumerate(remainder):
            sv = bracket[small]
            for b_i in range(a_i + 1, len(remainder)):
                big = remainder[b_i]
                if not higher[a_i] or higher[b_i]:
                    base[(big, small)] = 0
                pairs.append((sv, bracket[big], base[(big, small)]))
        self.set_many(pairs)

    def transpose(self, bracket: list[int], remainder: list[int], matched: list[bool]) -> None:
        """Give each S1 player, from the top, the first S2 player that still allows the
        best pairing (C.04.3 art. D.1: transpositions in order), and finalise the pair.
        On the fast path the choices that can be read off the present optimum are
        (:meth:`tight_choices`); a new matching is made only for the others."""
        if self.window is not None:
            self.stable = self.compute()
        for pos in remainder:
            v = bracket[pos]
            if matched[v] or not self.is_higher(v):
                continue
            if self.window is not None:
                self.settle(bracket, remainder, pos, matched)
                if matched[v]:
                    continue
            addend = 0
            for big in reversed(remainder):
                bv = bracket[big]
                if big <= pos or matched[bv]:
                    continue
                w = self.base[(big, pos)]
                if w:
                    self.set(v, bv, w + addend)
                addend += 1
            self.stable = self.compute()
            m = self.stable[v]
            matched[v] = matched[m] = True
            self.finalise(v, m)

    def settle(self, bracket: list[int], remainder: list[int], pos: int,
               matched: list[bool]) -> None:
        """Finalise the S1 players from ``pos`` on whose opponents can be read off the
        present optimum (:meth:`tight_choices`)."""
        firsts = [p for p in remainder
                  if p >= pos and not matched[bracket[p]] and self.is_higher(bracket[p])]
        chosen = self.tight_choices(bracket, remainder, firsts, matched)
        for p, m in zip(firsts[:len(chosen)], chosen, strict=True):
            matched[bracket[p]] = matched[m] = True
            self.finalise(bracket[p], m)

    def move_down(
        self, bracket: list[int], residents_end: int, group_start: int, matched: list[bool]
    ) -> tuple[list[int], int]:
        """Return the next bracket and its number of moved-down players: the bracket's
        unpaired players move down (C.04.3 art. A.3, B.5) to join the next score group.
        Also note whether the bye can still go to the single downfloater (C.9)."""
        players, n = self.players, self.n
        single = (n % 2 == 1 and group_start < n
                  and self.bye_score >= players[group_start].score)
        new_bracket: list[int] = []
        new_mdps = 0
        for pos, v in enumerate(bracket):
            if pos < residents_end and matched[v]:
                continue
            new_bracket.append(v)
            if pos < residents_end:
                new_mdps += 1
            if single and players[self.stable[v]].score < players[group_start].score:
                single = False
        self.single_downfloater_bye = single
        return new_bracket, new_mdps

    def boards(self) -> DutchPairing:
        """Return the pairs made, with colours (C.04.3 art. E) and in board order, and the
        player left for the pairing-allocated bye."""
        players, n = self.players, self.n
        unpaired = [v for v in range(n) if v not in self.partner]
        if len(unpaired) > 1:
            raise NoValidPairing("the brackets left more than one player unpaired")
        bye = players[unpaired[0]].number if unpaired else None
        boards: list[tuple[tuple[float, float, int], tuple[int, int]]] = []
        for v in range(n):
            u = self.partner.get(v)
            if u is None or u < v:
                continue
            a, b = players[v], players[u]  # v < u: a is the higher ranked (art. A.2)
            first, second = (a, b) if a.number < b.number else (b, a)
            if colour(first, second, self.state.initial_colour) == WHITE:
                pair = (first.number, second.number)
            else:
                pair = (second.number, first.number)
            # board order (as bbpPairings: the higher score first, then the lower
            # player's score, then the higher player's pairing number)
            boards.append(((-a.score, -b.score, a.rank), pair))
        boards.sort()
        return DutchPairing(tuple(pair for _, pair in boards), bye)
