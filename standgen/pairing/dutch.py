"""FIDE Dutch system (C.04.3 as amended in 2025, in force 2026): one round's pairing.

A pure function, :func:`pair_dutch`, over a small pairing state (:class:`PairingState`):
each player's pairing number and round-by-round history (opponent, colour, points,
whether the game was played over the board, the pairing-allocated bye). Nothing here
knows about events, files or standings.

Where the text needs an interpretation this module follows bbpPairings 6.0.0 (a
FIDE-endorsed engine) and says so; its behaviour was learnt from its published source,
and the model is the one it uses: the pairing of the whole field is a maximum-weight
matching whose edge weights hold the quality criteria one above the other, so that a
heavier matching is always a better pairing by C.04.3 (the criteria compared in
their order, art. C.4-C.21). The brackets are then fixed from the top (art. A.3, B),
one decision at a time, each decision kept for the later ones: which moved-down
players are paired (B.3 / C.6), their opponents, the number of exchanges and who is
exchanged (D.2-D.3), then each pair (D.1, in transposition order). Every decision is
taken with a fresh matching of all the players not yet paired, so the rest of the
field can always be completed (C.4, the completion criterion).

Article numbers: the section letters (A definitions, B the pairing of a bracket, D
transpositions and exchanges, E colour allocation) and the criterion numbers C.1-C.21
are those bbpPairings' source uses for the 2025 rules (C.1-C.3 absolute, C.4
completion, C.5-C.21 quality; the 2017 text had C.1-C.19, before the bye assignee's
unplayed games, C.9, came in). The 2025 handbook text numbers its sections 1, 2, ...;
where cited here, those numbers were checked (1.2 order, 1.3 brackets, 1.4 floats).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from standgen.pairing.blossom import IncrementalMatching, max_weight_matching

WHITE, BLACK = "w", "b"
INCREMENTAL = True  # repair the matching between decisions instead of starting again
DOWN, UP, NONE = "D", "U", ""


class NoValidPairing(Exception):
    """No pairing satisfies the absolute criteria (C.04.3 art. C.1-C.3)."""


@dataclass(frozen=True)
class RoundEntry:
    """One player's past round.

    ``opponent`` is the opponent's pairing number (None without one); ``colour`` is
    ``"w"`` / ``"b"`` for a game played over the board and None otherwise; ``points``
    what the round scored (a forfeit win 1, the pairing-allocated bye its value);
    ``bye`` marks the pairing-allocated bye (C.04.1 art. c); ``paired`` is False for a
    round the player was not paired in (absent, a requested bye).
    """

    opponent: int | None
    colour: str | None
    points: float
    bye: bool = False
    paired: bool = True

    @property
    def played(self) -> bool:
        """Whether the game was played over the board (C.04.3 art. A.6 counts only
        those for colours; C.04.1 art. b: forfeits are not 'played')."""
        return self.colour is not None and self.opponent is not None


@dataclass(frozen=True)
class Entrant:
    """A player of the tournament: pairing number (1 is the top seed, C.04.2 art. C)
    and history, one :class:`RoundEntry` per round played so far."""

    number: int
    history: tuple[RoundEntry, ...]
    active: bool = True  # paired this round (False: withdrawn or absent)


@dataclass(frozen=True)
class PairingState:
    """What the Dutch engine needs to pair the next round.

    ``entrants`` are every player of the tournament (the inactive ones still count as
    opponents: their scores decide past floats); ``rounds`` is the tournament's
    planned number of rounds (C.04.3 art. A.7: topscorers, art. C.3: last round);
    ``initial_colour`` is drawn by lot before round 1 (art. E.5).
    """

    entrants: tuple[Entrant, ...]
    rounds: int
    initial_colour: str = WHITE
    win_points: float = 1.0
    draw_points: float = 0.5

    @property
    def played_rounds(self) -> int:
        return max((len(e.history) for e in self.entrants), default=0)


@dataclass(frozen=True)
class DutchPairing:
    """A round: ``pairs`` as (white, black) pairing numbers, top board first, and the
    pairing-allocated bye (a pairing number) or None."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None


@dataclass
class _Player:
    """Derived facts about one player to pair (C.04.3 art. A.2-A.7)."""

    number: int
    rank: int  # 0-based order of pairing numbers among the players to pair
    score: float
    entry: Entrant
    played_games: int = 0
    colours: list[str] = field(default_factory=list)
    preference: str | None = None
    imbalance: int = 0
    repeated: str | None = None  # the colour of the last two games, when the same
    strong: bool = False
    eligible: bool = True
    floats: tuple[str, str] = (NONE, NONE)  # last round, two rounds before

    @property
    def absolute_imbalance(self) -> bool:
        return self.imbalance > 1

    @property
    def absolute(self) -> bool:
        return self.absolute_imbalance or self.repeated is not None


def _invert(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE


def colour_facts(history: Sequence[RoundEntry]) -> tuple[str | None, int, str | None, bool]:
    """Return (preference, colour difference, repeated colour, strong) from the games
    played over the board.

    C.04.3 art. A.6: absolute when the colour difference is above +1 or below -1, or
    the same colour was played in the last two games; strong when the difference is +1
    or -1; mild when it is 0 (the opposite of the last game); none before any game.
    Unplayed games are skipped (art. A.6: "games not played do not count"). As in
    bbpPairings, "the last two games" are the last two played games, whatever lies
    between them.
    """
    white = black = consecutive = 0
    last: str | None = None
    for entry in history:
        if not entry.played:
            continue
        assert entry.colour is not None
        if entry.colour == WHITE:
            white += 1
        else:
            black += 1
        consecutive = consecutive + 1 if consecutive and entry.colour == last else 1
        last = entry.colour
    lower = BLACK if white > black else WHITE
    imbalance = abs(white - black)
    if imbalance > 1:
        preference: str | None = lower
    elif consecutive > 1:
        assert last is not None
        preference = _invert(last)
    elif imbalance > 0:
        preference = lower
    elif consecutive:
        assert last is not None
        preference = _invert(last)
    else:
        preference = None
    repeated = last if consecutive > 1 else None
    absolute = imbalance > 1 or repeated is not None
    return preference, imbalance, repeated, (not absolute) and imbalance > 0


def _score(entry: Entrant, rounds: int) -> float:
    return sum(r.points for r in entry.history[:rounds])


def _float(entry: Entrant, back: int, played: int, by_number: dict[int, Entrant]) -> str:
    """Return the float of a player ``back`` rounds before the one being paired.

    C.04.3 A.4 (2025 art. 1.4.2-1.4.3): the higher ranked of two players with different
    scores gets a downfloat, the lower an upfloat; a player who scores more than a
    loss without playing (the bye, a forfeit win) also gets a downfloat. Scores are
    those before that round.
    """
    index = played - back
    if index < 0 or index >= len(entry.history):
        return NONE
    match = entry.history[index]
    if not match.played:
        return DOWN if match.points > 0 else NONE
    assert match.opponent is not None
    mine = _score(entry, index)
    other = by_number.get(match.opponent)
    theirs = _score(other, index) if other is not None else mine
    return DOWN if mine > theirs else UP if mine < theirs else NONE


def _eligible_for_bye(entry: Entrant, win: float) -> bool:
    """C.04.1 art. c (2025): no pairing-allocated bye for a player who already had one,
    or who scored a win's points without playing (a forfeit win, a full-point bye)."""
    for match in entry.history:
        if not match.played and (match.points >= win or match.bye):
            return False
    return True


def _players(state: PairingState) -> list[_Player]:
    """Return the players to pair, by score then pairing number (C.04.3 A.2, 2025 art.
    1.2)."""
    played = state.played_rounds
    by_number = {e.number: e for e in state.entrants}
    everyone = sorted(state.entrants, key=lambda e: e.number)
    out: list[_Player] = []
    rank = -1
    for entry in everyone:
        # the effective pairing number (A.2, E.5) counts the players to pair and those
        # paired in an earlier round, not one absent from the start (as bbpPairings)
        if entry.active or any(m.paired for m in entry.history):
            rank += 1
        if not entry.active:
            continue
        p = _Player(entry.number, rank, _score(entry, played), entry)
        p.colours = [m.colour for m in entry.history if m.played and m.colour is not None]
        p.played_games = len(p.colours)
        p.preference, p.imbalance, p.repeated, p.strong = colour_facts(entry.history)
        p.eligible = _eligible_for_bye(entry, state.win_points)
        p.floats = (_float(entry, 1, played, by_number), _float(entry, 2, played, by_number))
        out.append(p)
    out.sort(key=lambda p: (-p.score, p.rank))
    return out


def _bits(value: int) -> int:
    return max(value, 0).bit_length()


class _Engine:
    """One round's pairing; see the module docstring for the model."""

    def __init__(self, state: PairingState) -> None:
        self.state = state
        self.players = _players(state)
        self.n = len(self.players)
        self.played = state.played_rounds
        met: dict[int, set[int]] = {}
        for e in state.entrants:
            for m in e.history:
                if m.played and m.opponent is not None:  # art. C.1: forfeits do not count
                    met.setdefault(e.number, set()).add(m.opponent)
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
        self.alive = [True] * self.n
        self.partner: dict[int, int] = {}
        # the matching kept up to date between decisions (as bbpPairings' matching
        # computer), or None: each matching computed afresh
        self.matcher = IncrementalMatching(self.n) if INCREMENTAL and self.n > 1 else None
        # the bracket being paired: base weights by (lower, higher) position in it, the
        # current best matching, and the vertex range of its resident score group
        self.base: dict[tuple[int, int], int] = {}
        self.stable: list[int] = []
        self.group_vertex = 0
        self.next_vertex = 0

    # ----- criteria ---------------------------------------------------------------------

    def compatible(self, a: _Player, b: _Player) -> bool:
        """C.04.3 art. C.1: no two players meet twice (games played over the board);
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
        they may not meet. The fields, most important first (each wide enough that
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
        if not self.compatible(higher, lower):
            return 0
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

    # ----- the matching -----------------------------------------------------------------

    def set(self, u: int, v: int, w: int) -> None:
        """Set the weight of pairing ``u`` with ``v`` (``u``: the player whose edges
        change, re-matched first by the incremental matching)."""
        self.weight[(u, v) if u < v else (v, u)] = w
        if self.matcher is not None:
            self.matcher.set_weight(u, v, w)

    def compute(self) -> list[int]:
        """Return the best matching of the players not yet paired: ``mate[v]`` (``v``
        itself when unmatched, the fixed partner for those already paired)."""
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

    # ----- the procedure ----------------------------------------------------------------

    def first_matching(self) -> None:
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
        remainder, pairs = self.remainder_weights(bracket, mdps, residents_end)
        self.stable = self.compute()
        exchanges = sum(1 for pos in remainder[:pairs] if not self.is_higher(bracket[pos]))
        self.exchange_from_s1(bracket, remainder, pairs, exchanges)
        self.exchange_from_s2(bracket, remainder, pairs, exchanges, residents_end)
        self.fix_halves(bracket, remainder)
        self.transpose(bracket, remainder, matched)

    def base_weights(self, bracket: list[int], mdps: int, residents_end: int) -> None:
        """Set every pair's weight in the bracket (:meth:`edge`), pairs of its own players
        as current (C.5-C.6, C.10-C.21), those with the next score group as following
        (C.7-C.8), and keep them as its base weights."""
        players = self.players
        self.base = {}
        for big in range(mdps, len(bracket)):
            for small in range(big):
                w = self.edge(players[bracket[small]], players[bracket[big]],
                              big < residents_end, big >= residents_end)
                self.base[(big, small)] = w
                self.set(bracket[small], bracket[big], w)

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

    def remainder_weights(
        self, bracket: list[int], mdps: int, residents_end: int
    ) -> tuple[list[int], int]:
        """Return the remainder (the bracket positions of the residents still to pair)
        and its number of pairs; set its pairs' weights with the order of exchanges
        below every criterion (:meth:`with_order`). S1 is the first ``pairs`` players,
        S2 the rest (C.04.3 art. B.2, D)."""
        remainder = [pos for pos in range(mdps, residents_end)
                     if self.stable[bracket[pos]] >= self.group_vertex]
        pairs = sum(1 for pos in remainder if self.stable[bracket[pos]] < bracket[pos])
        for b_i, big in enumerate(remainder):
            for a_i, small in enumerate(remainder[:b_i]):
                self.set(bracket[small], bracket[big], self.with_order(small, big, a_i, pairs))
        return remainder, pairs

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
        for a_i, small in enumerate(remainder):
            sv = bracket[small]
            for big in remainder[a_i + 1:]:
                bv = bracket[big]
                if not self.is_higher(sv) or self.is_higher(bv):
                    self.base[(big, small)] = 0
                self.set(sv, bv, self.base[(big, small)])

    def transpose(self, bracket: list[int], remainder: list[int], matched: list[bool]) -> None:
        """Give each S1 player, from the top, the first S2 player that still allows the
        best pairing (C.04.3 art. D.1: transpositions in order), and finalise the pair."""
        for pos in remainder:
            v = bracket[pos]
            if not self.is_higher(v):
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
            if self.colour(first, second) == WHITE:
                pair = (first.number, second.number)
            else:
                pair = (second.number, first.number)
            # board order (as bbpPairings: the higher score first, then the lower
            # player's score, then the higher player's pairing number)
            boards.append(((-a.score, -b.score, a.rank), pair))
        boards.sort()
        return DutchPairing(tuple(pair for _, pair in boards), bye)

    # ----- colours ----------------------------------------------------------------------

    def colour(self, player: _Player, opponent: _Player) -> str:
        """Return the colour ``player`` gets against ``opponent`` (C.04.3 art. E).

        E.1 grant both preferences; E.2 grant the stronger preference (both absolute:
        the wider colour difference); E.3 alternate to the most recent round in which
        they had different colours; E.4 grant the higher ranked player's preference;
        E.5 the higher ranked player gets the initial colour if his pairing number is
        odd, the other one if even. As bbpPairings, E.3 compares the two players'
        played games backwards in step (unplayed rounds skipped on each side).
        """
        neutral = self.neutral_colour(player, opponent)
        if neutral is not None:
            return neutral
        player_higher = (player.score, -player.rank) > (opponent.score, -opponent.rank)
        initial = self.state.initial_colour
        if player.preference is None:
            if not player_higher:
                return initial if opponent.rank % 2 else _invert(initial)
            return _invert(initial) if player.rank % 2 else initial
        if not player_higher:
            assert opponent.preference is not None
            return _invert(opponent.preference)
        return player.preference

    @staticmethod
    def neutral_colour(player: _Player, opponent: _Player) -> str | None:
        """E.1-E.3; None when they do not decide."""
        p, o = player.preference, opponent.preference
        if p != o or p is None or o is None:
            if p is not None:
                return p
            if o is not None:
                return _invert(o)
            return None
        if player.absolute and (player.imbalance > opponent.imbalance or not opponent.absolute):
            return p
        if opponent.absolute and (opponent.imbalance > player.imbalance or not player.absolute):
            return _invert(o)
        if player.strong and not opponent.strong:
            return p
        if opponent.strong and not player.strong:
            return _invert(o)
        mine, theirs = player.colours[::-1], opponent.colours[::-1]
        for a, b in zip(mine, theirs, strict=False):
            if a != b:
                return b
        return None


def pair_dutch(state: PairingState) -> DutchPairing:
    """Return the Dutch-system pairing of the next round (FIDE C.04.3, 2025).

    Raise :class:`NoValidPairing` when no pairing satisfies the absolute criteria.
    """
    return _Engine(state).run()
