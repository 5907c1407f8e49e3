"""A large Swiss field paired score group by score group on candidate pairs (FIDE C.04.3
A.3, C.4: the brackets from the top, each with the player floated down into it), with
the whole field on candidate pairs as the last resort: :func:`pair_large`."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from standgen.pairing import core
from standgen.pairing.swiss.colours import KINDS, _clash, _unmet, kind_of
from standgen.pairing.swiss.field import Field, Weights, bye_cost, kind_costs, pair_cost

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
        edges = self.run_edges(first, last, incoming, density, u, v)
        estimates = self.floater_edges(last, start, density, d, edges)
        matched = core.min_cost_perfect_matching(size, edges)
        if matched is None:
            return None
        return self.read_run(matched, start, incoming, (u, v, d), estimates)

    def run_edges(self, first: int, last: int, incoming: int | None, density: int, u: int,
                  v: int) -> list[tuple[int, int, int]]:
        """Return a run's candidate pairs with their costs, as edges between positions
        counted from the run's first player: inside each group and across groups, with
        the player floated in (node ``u``) and with the bye (node ``v``, when the run
        holds the bye group; C.04.1 c)."""
        start, end = self.groups[first][0], self.groups[last][1]
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
        if v >= 0:
            assert self.bye_of is not None
            for y in ([incoming] if incoming is not None else []) + list(range(start, end + 1)):
                c = self.bye_of(y)
                if c is not None:
                    edges.append((u if y == incoming else y - start, v, c))
        return edges

    def floater_edges(self, last: int, start: int, density: int, d: int,
                      edges: list[tuple[int, int, int]]) -> dict[int, tuple[int, int]]:
        """Add to ``edges`` the run's lowest players floated down to the next group (node
        ``d``, when the run has an odd number of players; C.04.3 A.3), each valued at its
        best partner there; return those estimates (cost, partner's kind) by player."""
        estimates: dict[int, tuple[int, int]] = {}
        if d >= 0:
            for x in self.lowest(last, density):
                estimate = self.float_estimate(x, last + 1)
                if estimate is not None:
                    estimates[x] = estimate
                    edges.append((x - start, d, estimate[0]))
        return estimates

    def read_run(self, matched: Sequence[tuple[int, int]], start: int, incoming: int | None,
                 extra: tuple[int, int, int], estimates: Mapping[int, tuple[int, int]]
                 ) -> _Run:
        """Return a run's matching as a :class:`_Run`: its pairs, the player floated down,
        the bye, and its cost, colour clashes and unmet preferences. ``extra`` are the
        nodes after the run's players: the player floated in, the bye, the float down
        (-1 for those the run does not have)."""
        u, v, d = extra
        cost = self.cost
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
