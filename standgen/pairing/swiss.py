"""Chess Swiss pairing on the shared matching core: score groups, folding, colours, byes.

The rules come from the FIDE Handbook: C.04.1 (basic rules for Swiss systems), C.04.2
(general handling rules) and the Dutch system C.04.3 (2017), whose criteria are
expressed as one cost per pair that the matching core minimises over the whole field
(up to EXACT_LIMIT players; a larger field is matched score group by score group on
candidate pairs, see pair_large, with the whole field as the exact last resort).
It is an approximation of the Dutch system, not a certified FIDE implementation:
where the two differ the documentation (docs/formats/swiss.md) says how.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from standgen.model import Event, GameKind, Outcome, Player, Proposal
from standgen.pairing import core
from standgen.pairing.common import players_for_round, proposal, rng
from standgen.pairing.state import PairingInput
from standgen.records import Record

WHITE, BLACK = "w", "b"
NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3
STRENGTH_WORDS = {NONE: "none", MILD: "mild", STRONG: "strong", ABSOLUTE: "absolute"}
START_ORDERS = ("rating", "file")
INITIAL_COLOURS = ("", "white", "black")


def start_ranks(event: Event) -> dict[str, int]:
    """Return each player's pairing number (TRF start rank), 1 for the top seed.

    FIDE C.04.2 (initial order): by rating, highest first. ``[options] start_order``:
    ``"rating"`` (default) sorts by rating, unrated players last, ties in players.csv
    order; ``"file"`` keeps players.csv order (an imported TRF file's start ranks).
    """
    players = list(event.players)
    if event.config.options.get("start_order", "rating") == "rating":
        players.sort(key=lambda p: -(p.rating or 0.0))
    return {p.id: k for k, p in enumerate(players, start=1)}


def initial_colour(event: Event) -> str:
    """Return the colour the top seed gets in round 1 (``w`` or ``b``).

    FIDE C.04.3 E.5 "initial-colour", drawn by lot before round 1: the event's seed
    draws it unless ``[options] initial_colour`` is ``"white"`` or ``"black"``.
    """
    chosen = event.config.options.get("initial_colour", "")
    if chosen in ("white", "black"):
        return WHITE if chosen == "white" else BLACK
    return rng(event, 1, "initial-colour").choice((WHITE, BLACK))


def colour_history(record: Record) -> tuple[str, ...]:
    """Return the colours of a player's games played over the board, in round order.

    FIDE C.04.2 D.5 (and C.04.3 A.6): games not played (byes, absences, forfeits) do
    not count for colours. ``player_1`` of a round file has White (data contract).
    """
    colours: list[str] = []
    for entry in record.entries:
        if entry.kind is GameKind.PLAYED and len(entry.game.seats) == 2:
            colours.append(WHITE if entry.game.seats[0].player == record.player.id else BLACK)
    return tuple(colours)


def preference(colours: Sequence[str]) -> tuple[str | None, int]:
    """Return a player's colour preference and its strength (NONE ... ABSOLUTE).

    FIDE C.04.3 A.6: absolute when the colour difference is above +1 or below -1, or
    the last two games had the same colour; strong when the difference is +1 or -1;
    mild when it is 0 (alternate from the last game); none before any game is played.
    """
    if not colours:
        return None, NONE
    difference = colours.count(WHITE) - colours.count(BLACK)
    other = BLACK if colours[-1] == WHITE else WHITE
    if difference > 1:
        return BLACK, ABSOLUTE
    if difference < -1:
        return WHITE, ABSOLUTE
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return other, ABSOLUTE
    if difference == 1:
        return BLACK, STRONG
    if difference == -1:
        return WHITE, STRONG
    return other, MILD


def breaks_colour_rules(colours: Sequence[str]) -> bool:
    """Return whether a colour sequence breaks an absolute rule.

    FIDE C.04.1 f-g (as C.04.3 C.3 applies them): no player's colour difference
    exceeds +2 or -2, and no player gets the same colour three times in a row.
    """
    difference = colours.count(WHITE) - colours.count(BLACK)
    three = any(colours[k] == colours[k + 1] == colours[k + 2] for k in range(len(colours) - 2))
    return abs(difference) > 2 or three


def high_gets_white(
    high: Sequence[str], low: Sequence[str], high_number: int, initial: str
) -> bool:
    """Return whether the higher-ranked player of a pair gets White.

    FIDE C.04.3 E (colour allocation): E.1 grant both preferences; E.2 grant the
    stronger one (two absolutes: the wider colour difference); E.3 alternate to the
    most recent round in which one had White and the other Black; E.4 grant the higher
    ranked player's preference; E.5 the higher ranked player gets the initial colour if
    his pairing number is odd, the other colour if it is even.
    """
    high_pref, high_strength = preference(high)
    low_pref, low_strength = preference(low)
    if high_pref is not None and high_pref != low_pref:
        return high_pref == WHITE
    if high_pref is None and low_pref is not None:
        return low_pref == BLACK
    if high_pref is not None:  # both prefer the same colour
        if high_strength != low_strength:
            return (high_pref == WHITE) == (high_strength > low_strength)
        if high_strength == ABSOLUTE:
            wide_high = abs(high.count(WHITE) - high.count(BLACK))
            wide_low = abs(low.count(WHITE) - low.count(BLACK))
            if wide_high != wide_low:
                return (high_pref == WHITE) == (wide_high > wide_low)
        for k in range(1, min(len(high), len(low)) + 1):
            if high[-k] != low[-k]:
                return high[-k] == BLACK
        return high_pref == WHITE
    return (high_number % 2 == 1) == (initial == WHITE)


def bye_eligible(record: Record) -> bool:
    """Return whether a player may still receive the pairing-allocated bye.

    FIDE C.04.1 c-d: not a player who already had the pairing-allocated bye or scored a
    point without playing (a forfeit win, or a full-point bye when absent).
    """
    for entry in record.entries:
        if entry.kind is GameKind.BYE:
            return False
        if entry.kind in (GameKind.FORFEIT, GameKind.ABSENT) and entry.outcome is Outcome.WIN:
            return False
    return True


@dataclass(frozen=True)
class Weights:
    """The cost levels, each above everything the levels below can add up to."""

    preference: int
    score: int
    colour_rule: int


def weights(n: int, round_number: int) -> Weights:
    """Return the cost levels for ``n`` players before ``round_number``."""
    preference = n * n + n + 1  # above the whole field's folding and float positions
    score = preference * (n + 1)  # above the whole field's colour preferences
    widest = 2 * max(round_number, 1)  # half points
    colour_rule = score * ((n // 2 + 1) * widest * widest + 1)
    return Weights(preference, score, colour_rule)


# A player's colour preference as one small integer ("kind"): 0 none, 1-3 White
# (mild, strong, absolute), 4-6 Black (mild, strong, absolute).
KINDS: tuple[tuple[str | None, int], ...] = (
    (None, NONE), (WHITE, MILD), (WHITE, STRONG), (WHITE, ABSOLUTE),
    (BLACK, MILD), (BLACK, STRONG), (BLACK, ABSOLUTE),
)


def kind_of(colours: Sequence[str]) -> int:
    """Return the index in :data:`KINDS` of a player's colour preference."""
    return KINDS.index(preference(colours))


@dataclass(frozen=True)
class Field:
    """The players to pair, in the order the cost is written in."""

    order: tuple[Player, ...]
    scores: tuple[float, ...]
    numbers: tuple[int, ...]  # pairing numbers
    colours: tuple[tuple[str, ...], ...]
    eligible: tuple[bool, ...]  # may get the bye
    group_start: tuple[int, ...]
    group_end: tuple[int, ...]
    kinds: tuple[int, ...] = ()  # colour preference, an index in KINDS


def make_field(
    players: Sequence[Player], scores: Mapping[str, float], numbers: Mapping[str, int],
    records: Mapping[str, Record],
) -> Field:
    """Return the field in pairing order: score groups, then pairing number.

    FIDE C.04.3 A.2-A.3: players are ranked by score, then by pairing number, and
    each score group is one bracket.
    """
    order = sorted(players, key=lambda p: (-scores.get(p.id, 0.0), numbers[p.id]))
    pts = tuple(scores.get(p.id, 0.0) for p in order)
    start: list[int] = []
    for k, value in enumerate(pts):
        start.append(start[k - 1] if k and pts[k - 1] == value else k)
    end = list(start)
    for k in range(len(pts) - 1, -1, -1):
        end[k] = end[k + 1] if k + 1 < len(pts) and pts[k + 1] == pts[k] else k
    colours = tuple(colour_history(records[p.id]) for p in order)
    return Field(
        order=tuple(order), scores=pts, numbers=tuple(numbers[p.id] for p in order),
        colours=colours, eligible=tuple(bye_eligible(records[p.id]) for p in order),
        group_start=tuple(start), group_end=tuple(end),
        kinds=tuple(kind_of(c) for c in colours),
    )


def _clash(a: tuple[str | None, int], b: tuple[str | None, int]) -> bool:
    return a[1] == ABSOLUTE and b[1] == ABSOLUTE and a[0] == b[0]


def _unmet(a: tuple[str | None, int], b: tuple[str | None, int]) -> int:
    if a[0] is None or b[0] is None or a[0] != b[0]:
        return 0
    return 2 if min(a[1], b[1]) >= STRONG else 1


def colour_rule_clash(a: Sequence[str], b: Sequence[str]) -> bool:
    """Return whether two players both have an absolute preference for the same colour.

    FIDE C.04.3 C.3: such players shall not meet (one of them would break a rule).
    """
    return _clash(preference(a), preference(b))


def preference_cost(a: Sequence[str], b: Sequence[str]) -> int:
    """Return 0 if both colour preferences can be met, else 1, or 2 if both are strong.

    FIDE C.04.3 C.12-C.13: minimise players who do not get their colour preference,
    then those who do not get a strong one.
    """
    return _unmet(preference(a), preference(b))


def kind_costs(w: Weights) -> tuple[tuple[int, ...], ...]:
    """Return the colour part of a pair's cost (clash and unmet preferences) by kinds."""
    return tuple(
        tuple(w.colour_rule * _clash(a, b) + w.preference * _unmet(a, b) for b in KINDS)
        for a in KINDS
    )


def pair_cost(field: Field, w: Weights) -> core.Cost:
    """Return the cost of pairing positions ``i < j`` of the field.

    Levels, highest first: an absolute colour clash (C.04.3 C.3); the score difference
    squared, in half points (floats, C.5-C.7); an unmet colour preference (C.12-C.13);
    then the distance from the Dutch folding: in a score group of ``g`` players the
    ``k``-th meets the ``k + g // 2``-th (top half against bottom half, C.04.3 B.2), and
    a floater is the lowest of the higher group meeting the highest of the lower one.
    """
    table = kind_costs(w)
    kinds = field.kinds or tuple(kind_of(c) for c in field.colours)
    scores, start, end, score_weight = field.scores, field.group_start, field.group_end, w.score

    def cost(i: int, j: int) -> int:
        gap = round(2 * abs(scores[i] - scores[j]))
        if gap == 0:
            fold = abs((j - i) - (end[i] - start[i] + 1) // 2)
        else:
            fold = (end[i] - i) + (j - start[j])
        return table[kinds[i]][kinds[j]] + score_weight * gap * gap + fold

    return cost


def bye_cost(field: Field, w: Weights) -> core.ByeCost:
    """Return the cost of the bye for each position (None: they already had one).

    FIDE C.04.1 c: the pairing-allocated bye goes to a player of the lowest score
    group who has not had one, the lowest ranked first (C.04.3 A.2: highest pairing
    number of the lowest score). A higher score costs as a float of that size would.
    """
    n = len(field.order)
    eligible = [k for k in range(n) if field.eligible[k]]
    lowest = min((field.scores[k] for k in eligible), default=0.0)

    def cost(k: int) -> int | None:
        if not field.eligible[k]:
            return None
        gap = round(2 * (field.scores[k] - lowest))
        return w.score * gap * gap + (n - 1 - k)

    return cost


# A field of more than EXACT_LIMIT players is paired score group by score group on
# candidate pairs (see pair_large); up to it, the whole field is matched on every pair.
EXACT_LIMIT = 256
FULL_GROUP = 24  # a score group up to this size: every pair in it is a candidate
WINDOW = 1  # candidates: the fold partner (k + g // 2) and WINDOW either side of it
NEAREST = 2  # ... of each compatible preference, the NEAREST either side of the fold
ALIGNED = 2  # ... top against bottom half by colour wanted: ALIGNED either side in order
FLOATERS = 2  # of each colour preference, the lowest FLOATERS of a group may float down
CROSS = 4  # ... as may the lowest CROSS of a group, each against CROSS of the group below
MAX_DENSITY = 8  # candidates are widened (doubled) up to this factor when it may help
SLACK = 2  # ... as when a run leaves more than SLACK preferences unmet above its bound
LOOKAHEAD = 1024  # a group is paired with the group below it if the two are no larger


@dataclass(frozen=True)
class _Run:
    """A run of score groups paired together: its pairs (positions), the player floated
    down to the next group and the bye (positions or None), and its cost as matched."""

    pairs: tuple[tuple[int, int], ...]
    floater: int | None
    bye: int | None
    cost: int
    clashes: int
    unmet: int


class _Groups:
    """A large field in score groups, with what candidate pairs are drawn from."""

    def __init__(self, field: Field, w: Weights, opponents: Sequence[set[int]]) -> None:
        self.field, self.opp, self.w = field, opponents, w
        self.n = n = len(field.order)
        self.cost = pair_cost(field, w)
        self.kinds = field.kinds or tuple(kind_of(c) for c in field.colours)
        self.table = table = kind_costs(w)
        self.clash = [[int(_clash(a, b)) for b in KINDS] for a in KINDS]
        self.unmet = [[_unmet(a, b) for b in KINDS] for a in KINDS]
        # partners worth seeking out: no clash, at most one unmet preference
        self.compatible = [[b for b in range(len(KINDS)) if table[a][b] < 2 * w.preference]
                           for a in range(len(KINDS))]
        self.groups: list[tuple[int, int]] = []
        self.group_of = [0] * n
        k = 0
        while k < n:
            end = field.group_end[k]
            self.group_of[k:end + 1] = [len(self.groups)] * (end + 1 - k)
            self.groups.append((k, end))
            k = end + 1
        self.by_kind: list[list[list[int]]] = [[[] for _ in KINDS] for _ in self.groups]
        for i in range(n):
            self.by_kind[self.group_of[i]][self.kinds[i]].append(i)
        self.bye_of = bye_cost(field, w) if n % 2 else None
        eligible = [k for k in range(n) if field.eligible[k]]
        # the bye is a node of the lowest score group with a player who may receive it
        self.bye_group = self.group_of[eligible[-1]] if n % 2 and eligible else None
        self._edges: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
        self._freed_cache: dict[int, list[int]] = {}

    def size(self, group: int) -> int:
        start, end = self.groups[group]
        return end - start + 1

    def _walk(self, i: int, members: Sequence[int], at: int, step: int, count: int,
              out: set[tuple[int, int]]) -> None:
        """Add up to ``count`` pairs of ``i`` with unmet ``members`` from index ``at``."""
        opp = self.opp[i]
        while count and 0 <= at < len(members):
            j = members[at]
            if j != i and j not in opp:
                out.add((i, j) if i < j else (j, i))
                count -= 1
            at += step

    def within(self, group: int, density: int, out: set[tuple[int, int]]) -> None:
        """Add the candidate pairs inside one score group.

        Around the fold: each player's fold partner (``k + g // 2``) and WINDOW either
        side of it. Colour preferences: the top half's players wanting one colour
        against the bottom half's wanting the other (or none) in order, the r-th
        against the r-th (aligned at the top, at the bottom and in proportion), NEAREST
        either side; and of each kind that leaves one preference unmet (the same
        colour, one of them mild), the NEAREST either side of the fold partner.
        """
        start, end = self.groups[group]
        size = end - start + 1
        opp = self.opp
        if size <= FULL_GROUP * density:
            for i in range(start, end + 1):
                met = opp[i]
                out.update((i, j) for j in range(i + 1, end + 1) if j not in met)
            return
        half, window, near = size // 2, WINDOW * density, NEAREST * density
        aligned = ALIGNED * density
        kinds = self.kinds
        lists = self.by_kind[group]
        for i in range(start, end + 1):
            met = opp[i]
            out.update((i, j) for j in range(max(i + 1, i + half - window),
                                             min(end, i + half + window) + 1) if j not in met)
            for kind in self.compatible[kinds[i]]:
                members = lists[kind]
                if not members:
                    continue
                for target in (min(i + half, end), max(i - half, start)):
                    at = bisect_left(members, target)
                    self._walk(i, members, at, 1, near, out)
                    self._walk(i, members, at - 1, -1, near, out)
        middle = start + half
        tops: list[list[int]] = [[], [], []]  # by colour wanted: none, White, Black
        bottoms: list[list[int]] = [[], [], []]
        for i in range(start, end + 1):
            (tops if i < middle else bottoms)[(kinds[i] + 2) // 3].append(i)
        for wanted_top, top in enumerate(tops):
            for wanted_bottom, bottom in enumerate(bottoms):
                if not top or not bottom or (wanted_top == wanted_bottom and wanted_top):
                    continue
                p, q = len(top), len(bottom)
                for r, i in enumerate(top):
                    met = opp[i]
                    for centre in {r, r + q - p, r * q // p, bisect_left(bottom, i + half)}:
                        out.update((i, j) for j in bottom[max(0, centre - aligned):
                                                          centre + aligned + 1] if j not in met)

    def group_edges(self, group: int, density: int) -> list[tuple[int, int, int]]:
        """Return the candidate pairs inside a group with their costs (kept: a group is
        matched in two runs, with the group above and with the group below)."""
        key = (group, density)
        if key not in self._edges:
            candidates: set[tuple[int, int]] = set()
            self.within(group, density, candidates)
            table, kinds, half = self.table, self.kinds, self.size(group) // 2
            # pair_cost on one score: no float, the distance from the fold
            self._edges[key] = [(i, j, table[kinds[i]][kinds[j]] + abs(j - i - half))
                                for i, j in sorted(candidates)]
        return self._edges[key]

    def lowest(self, group: int, density: int) -> list[int]:
        """Return the players of a group offered to float down, lowest first."""
        start, end = self.groups[group]
        chosen = set(range(max(start, end + 1 - CROSS * density), end + 1))
        for members in self.by_kind[group]:
            chosen.update(members[-FLOATERS * density:])
        return sorted(chosen, reverse=True)

    def across(self, upper: int, lower: int, density: int, out: set[tuple[int, int]]) -> None:
        """Add candidate pairs between a higher and a lower score group of one run."""
        start, end = self.groups[lower]
        everyone = range(start, end + 1)
        for x in self.lowest(upper, density):
            self._walk(x, everyone, 0, 1, CROSS * density, out)
            for kind in self.compatible[self.kinds[x]]:
                self._walk(x, self.by_kind[lower][kind], 0, 1, NEAREST * density, out)

    def float_estimate(self, x: int, group: int) -> tuple[int, int] | None:
        """Return the least cost of floating ``x`` down into ``group`` (or the bye there),
        and the kind of that partner; None if ``x`` has met everyone there.

        The partner leaves the rest of ``group`` to pair among themselves: a partner
        whose colour preference that group has too many of counts as the colour
        preferences it frees there (what pairing the two groups together would see).
        """
        opp = self.opp[x]
        best: tuple[int, int] | None = None
        freed = self._freed(group)
        for kind, members in enumerate(self.by_kind[group]):
            y = next((y for y in members if y not in opp), None)  # the highest: least fold
            if y is not None:
                c = self.cost(x, y) + freed[kind]
                if best is None or c < best[0]:
                    best = (c, kind)
        if group == self.bye_group and self.bye_of is not None:
            c_bye = self.bye_of(x)
            if c_bye is not None and (best is None or c_bye < best[0]):
                best = (c_bye, 0)
        return best

    def _freed(self, group: int) -> list[int]:
        """Return, by kind, the cost of the colour conflicts forced in ``group`` (its bound)
        once a player of that kind leaves it, above the least of them."""
        if group not in self._freed_cache:
            start, end = self.groups[group]
            members = range(start, end + 1)
            counts = [len(m) for m in self.by_kind[group]]
            w = self.w
            values = []
            for kind in range(len(KINDS)):
                if not counts[kind]:
                    values.append(0)
                    continue
                rest = [i for i in members if i != self.by_kind[group][kind][0]]
                clashes, unmet = self.bound(rest, len(rest) % 2)
                values.append(w.colour_rule * clashes + w.preference * unmet)
            least = min(values)
            self._freed_cache[group] = [v - least for v in values]
        return self._freed_cache[group]

    def bound(self, members: Sequence[int], extra: int) -> tuple[int, int]:
        """Return lower bounds on (clashes, unmet preferences) of pairing ``members`` and
        ``extra`` players without a preference, counted from the preferences alone."""
        size = len(members) + extra
        counts = [0] * len(KINDS)
        for i in members:
            counts[self.kinds[i]] += 1
        clashes = unmet = 0
        for mild, strong, absolute in ((1, 2, 3), (4, 5, 6)):
            same = counts[mild] + counts[strong] + counts[absolute]
            forced = max(0, same - size // 2)  # pairs of two players wanting this colour
            unmet += forced + max(0, forced - counts[mild])
            clashes += max(0, counts[absolute] - size // 2)
        return clashes, unmet

    def run(self, first: int, last: int, incoming: int | None, density: int) -> _Run | None:
        """Return the best pairing of score groups ``first..last`` (and a player floated
        down into them) on the candidate pairs, or None if they hold no pairing."""
        start, end = self.groups[first][0], self.groups[last][1]
        m = end - start + 1
        size = m
        u = v = d = -1
        if incoming is not None:
            u, size = size, size + 1
        has_bye = self.bye_group is not None and first <= self.bye_group <= last
        if has_bye:
            v, size = size, size + 1
        if size % 2:
            if last + 1 >= len(self.groups):
                return None
            d, size = size, size + 1
        cost = self.cost
        edges: list[tuple[int, int, int]] = []
        for group in range(first, last + 1):
            edges += [(i - start, j - start, c) for i, j, c in self.group_edges(group, density)]
            candidates: set[tuple[int, int]] = set()
            for lower in range(group + 1, last + 1):
                self.across(group, lower, density, candidates)
            edges += [(i - start, j - start, cost(i, j)) for i, j in sorted(candidates)]
        if incoming is not None:
            opp = self.opp[incoming]
            edges += [(y - start, u, cost(incoming, y)) for y in range(start, end + 1)
                      if y not in opp]
        if has_bye:
            assert self.bye_of is not None
            for y in ([incoming] if incoming is not None else []) + list(range(start, end + 1)):
                c = self.bye_of(y)
                if c is not None:
                    edges.append((u if y == incoming else y - start, v, c))
        estimates: dict[int, tuple[int, int]] = {}
        if d >= 0:
            for x in self.lowest(last, density):
                estimate = self.float_estimate(x, last + 1)
                if estimate is not None:
                    estimates[x] = estimate
                    edges.append((x - start, d, estimate[0]))
        matched = core.min_cost_perfect_matching(size, edges)
        if matched is None:
            return None
        pairs: list[tuple[int, int]] = []
        floater = bye = None
        total = clashes = unmet = 0
        kinds = self.kinds
        for x, y in matched:  # x < y; the extra nodes u < v < d come after the members
            i = incoming if x == u else x + start
            assert i is not None
            if y == d:
                floater = i
                c, k = estimates[i]
                total += c
                clashes += self.clash[kinds[i]][k]
                unmet += self.unmet[kinds[i]][k]
            elif y == v:
                bye = i
                c_bye = self.bye_of(i) if self.bye_of else None
                assert c_bye is not None
                total += c_bye
            else:
                j = incoming if y == u else y + start
                assert j is not None
                i, j = min(i, j), max(i, j)
                pairs.append((i, j))
                total += cost(i, j)
                clashes += self.clash[kinds[i]][kinds[j]]
                unmet += self.unmet[kinds[i]][kinds[j]]
        return _Run(tuple(pairs), floater, bye, total, clashes, unmet)

    def keep_first(self, found: _Run, group: int, incoming: int | None) -> _Run | None:
        """Return the part of a two-group run that pairs ``group`` (and the player floated
        into it): its own pairs, and as floater the one player it sends to the group below.
        None when that is not one clean cut (more than one player crosses, or the player
        floated into it floats on)."""
        start, end = self.groups[group]
        own = [p for p in found.pairs if start <= p[0] <= end or p[0] == incoming]
        crossing = [p for p in own if p[1] > end]
        if len(crossing) > 1 or any(p[0] == incoming for p in crossing):
            return None
        kept = [p for p in own if p[1] <= end]
        if found.bye is not None and (start <= found.bye <= end or found.bye == incoming):
            return None
        kinds = self.kinds
        return _Run(
            tuple(kept), crossing[0][0] if crossing else None, None,
            sum(self.cost(i, j) for i, j in kept),
            sum(self.clash[kinds[i]][kinds[j]] for i, j in kept),
            sum(self.unmet[kinds[i]][kinds[j]] for i, j in kept),
        )

    def score(self, pairs: Sequence[tuple[int, int]], bye: int | None) -> tuple[int, int]:
        """Return the colour clashes and the total cost of a pairing of the field."""
        kinds, cost = self.kinds, self.cost
        clashes = sum(self.clash[kinds[i]][kinds[j]] for i, j in pairs)
        total = sum(cost(i, j) for i, j in pairs)
        if bye is not None and self.bye_of is not None:
            total += self.bye_of(bye) or 0
        return clashes, total

    def float_bound(self) -> int:
        """Return a lower bound on the floats (score differences squared, half points) of
        any pairing: a cut between two scores with an odd number of players (and the bye)
        above it is crossed by at least one pair."""
        scores = self.field.scores
        above = total = 0
        for group, (start, end) in enumerate(self.groups[:-1]):
            above += end - start + 1 + int(self.bye_group is not None and group == self.bye_group)
            if above % 2:
                gap = round(2 * (scores[start] - scores[end + 1]))
                total += gap * gap
        return total

    def whole(self) -> _Run | None:
        """Return the whole field matched at once on candidate pairs: the fallback when
        group by group leaves a colour clash. Widened while that lowers the clashes or the
        floats, until both meet their lower bounds."""
        last = len(self.groups) - 1
        clashes_bound = self.bound(range(self.n), self.n % 2)[0]
        floats_bound = self.float_bound()
        w = self.w
        best: _Run | None = None
        density = 1
        while True:
            found = self.run(0, last, None, density)
            if found is not None:
                key = (found.cost // w.colour_rule, found.cost % w.colour_rule // w.score)
                if best is not None and key >= (best.cost // w.colour_rule,
                                                best.cost % w.colour_rule // w.score):
                    return best if best.cost <= found.cost else found
                best = found
                if key <= (clashes_bound, floats_bound):
                    return best
            if self.complete(0, last, density) or density >= MAX_DENSITY:
                return best
            density *= 2

    def complete(self, first: int, last: int, density: int) -> bool:
        return all(self.size(g) <= FULL_GROUP * density for g in range(first, last + 1))

    def run_bound(self, first: int, last: int, incoming: int | None) -> tuple[int, int]:
        """Return lower bounds on (clashes, unmet preferences) of a run's pairing, group
        by group: with floats kept to the fewest, each group pairs within itself except
        for a player floated in or out, counted as one without a preference."""
        clashes = unmet = 0
        floated_in = 0
        for group in range(first, last + 1):
            start, end = self.groups[group]
            members = list(range(start, end + 1))
            if group == first and incoming is not None:
                members.append(incoming)
            own = len(members) + floated_in + int(group == self.bye_group)
            floated_out = own % 2
            c, u = self.bound(members, own - len(members) + floated_out)
            clashes, unmet = clashes + c, unmet + u
            floated_in = floated_out
        return clashes, unmet

    def best_run(self, first: int, last: int, incoming: int | None) -> _Run | None:
        """Return :meth:`run` on candidates widened (doubled) while that may still help:
        no pairing found, a colour clash, or unmet colour preferences well above what
        the preferences alone force (the candidates around the fold are then too few).
        Widening stops when it gains nothing on those levels."""
        clashes_bound, unmet_bound = self.run_bound(first, last, incoming)
        best: _Run | None = None
        density = 1
        while True:
            found = self.run(first, last, incoming, density)
            if found is not None:
                if best is not None and (found.clashes, found.unmet) >= (best.clashes,
                                                                        best.unmet):
                    return best if best.cost <= found.cost else found
                best = found
                if not found.clashes and found.unmet <= unmet_bound + SLACK:
                    return best
                if found.clashes <= clashes_bound and found.unmet <= unmet_bound:
                    return best
            if self.complete(first, last, density) or density >= MAX_DENSITY:
                return best
            density *= 2


def pair_large(field: Field, w: Weights, opponents: Sequence[set[int]]) -> core.Pairing | None:
    """Return a pairing of a large field without a rematch or a second bye, score group by
    score group, or None if none is found that way.

    Top down, as the Dutch system does (C.04.3 A.3, C.4): each score group, with the
    player floated down into it, is matched on candidate pairs (around the fold, the
    nearest partners of each compatible colour preference, and the lowest players as
    floaters, valued at their best partner in the group below). A group that cannot be
    paired is joined with the groups below it until the run can.
    """
    groups = _Groups(field, w, opponents)
    count = len(groups.groups)
    runs: list[_Run] = []
    incoming: int | None = None
    first = 0
    while first < count:
        # the group is paired together with the next one (a look-ahead: which player to
        # float down is chosen knowing the group below), then only its own pairs are kept
        last = first
        if first + 1 < count and groups.size(first) + groups.size(first + 1) <= LOOKAHEAD:
            last = first + 1
        found = groups.best_run(first, last, incoming)
        # a run that cannot be paired, or only with a colour clash, takes in the next group
        while last + 1 < count and (found is None or found.clashes):
            wider = groups.best_run(first, last + 1, incoming)
            if found is not None and (wider is None or wider.clashes >= found.clashes):
                break
            found, last = wider, last + 1
        if found is None:
            runs = []
            break
        if last == first + 1 and last + 1 < count:
            kept = groups.keep_first(found, first, incoming)
            if kept is not None:
                runs.append(kept)
                incoming = kept.floater
                first += 1
                continue
        runs.append(found)
        incoming = found.floater
        first = last + 1
    pairs = sorted(p for r in runs for p in r.pairs)
    bye = next((r.bye for r in runs if r.bye is not None), None)
    clashes, cost = groups.score(pairs, bye)
    if not runs or clashes > groups.bound(range(groups.n), groups.n % 2)[0]:
        # perhaps avoidable by floating across the groups already paired: the whole
        # field at once, on the candidate pairs
        whole = groups.whole()
        if whole is not None and (not runs or (whole.clashes, whole.cost) < (clashes, cost)):
            pairs, bye = list(whole.pairs), whole.bye
        elif not runs:
            return None
    return core.Pairing(tuple(sorted(pairs)), bye, method="score groups")


def pair(event: Event, state: PairingInput, round_number: int) -> Proposal:
    """Return the proposed Swiss pairings for ``round_number``, White first at each table.

    FIDE C.04.1 (basic rules), C.04.3 (Dutch system criteria as costs): no rematch and
    no second bye while avoidable (C.04.1 b-d), no two players with the same absolute
    colour preference paired while avoidable, score groups with top half against bottom
    half, colour preferences, and colours allocated by C.04.3 E.
    """
    players = players_for_round(event, round_number)
    records = state.records
    numbers = start_ranks(event)
    field = make_field(players, state.scores, numbers, records)
    n = len(field.order)
    ids = [p.id for p in field.order]
    position = {pid: k for k, pid in enumerate(ids)}
    opponents: list[set[int]] = [set() for _ in range(n)]
    for pid, record in records.items():
        k = position.get(pid)
        if k is None:
            continue
        for entry in record.entries:
            for opponent in entry.opponents:
                other = position.get(opponent)
                if other is not None:
                    opponents[k].add(other)
                    opponents[other].add(k)
    w = weights(n, round_number)
    result = pair_large(field, w, opponents) if n > EXACT_LIMIT else None
    if result is None:
        result = core.pair(
            n, pair_cost(field, w), lambda i, j: j in opponents[i],
            bye_cost(field, w) if n % 2 else None, use_procedure=False,
        )
    initial = initial_colour(event)
    white_first: dict[str, bool] = {}
    clashes = 0
    for i, j in result.pairs:
        high_white = high_gets_white(field.colours[i], field.colours[j], field.numbers[i],
                                     initial)
        white_first[ids[i]] = high_white
        given_i = (*field.colours[i], WHITE if high_white else BLACK)
        given_j = (*field.colours[j], BLACK if high_white else WHITE)
        clashes += breaks_colour_rules(given_i) and not breaks_colour_rules(field.colours[i])
        clashes += breaks_colour_rules(given_j) and not breaks_colour_rules(field.colours[j])
    notes = ["Swiss pairing: score groups, top half against bottom half, colours by "
             "FIDE C.04.3 (see the Swiss help page)."]
    if clashes:
        notes.append(f"{clashes} player(s) must break a colour rule (three in a row or a "
                     "colour difference above 2): no pairing avoids it.")
    # the whole field is matched by design: no "procedure dead-ended" note
    made = proposal(event, round_number, field.order, replace(result, method="procedure"),
                    notes)
    games = []
    for game in made.round.games:
        first = game.seats[0].player
        if len(game.seats) == 2 and not white_first.get(first, True):
            game = replace(game, seats=(game.seats[1], game.seats[0]))
        games.append(game)
    return Proposal(replace(made.round, games=tuple(games)), made.notes)
