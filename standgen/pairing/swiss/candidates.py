"""A large Swiss field in score groups, and the candidate pairs its matching is drawn
from (around the Dutch fold, FIDE C.04.3 B.2; by colour preference, C.12-C.13; floaters,
A.3), with lower bounds on what the colour preferences force."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from standgen.pairing.swiss.colours import KINDS, _clash, _unmet, kind_of
from standgen.pairing.swiss.field import Field, Weights, bye_cost, kind_costs, pair_cost

FULL_GROUP = 24  # a score group up to this size: every pair in it is a candidate
WINDOW = 1  # candidates: the fold partner (k + g // 2) and WINDOW either side of it
NEAREST = 2  # ... of each compatible preference, the NEAREST either side of the fold
ALIGNED = 2  # ... top against bottom half by colour wanted: ALIGNED either side in order
FLOATERS = 2  # of each colour preference, the lowest FLOATERS of a group may float down
CROSS = 4  # ... as may the lowest CROSS of a group, each against CROSS of the group below


class _Candidates:
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
        if end - start + 1 <= FULL_GROUP * density:
            for i in range(start, end + 1):
                met = self.opp[i]
                out.update((i, j) for j in range(i + 1, end + 1) if j not in met)
            return
        self._around_fold(group, density, out)
        self._across_halves(group, density, out)

    def _around_fold(self, group: int, density: int, out: set[tuple[int, int]]) -> None:
        """Add each player's fold partner and WINDOW either side of it, and the NEAREST
        of each compatible colour preference either side of the fold partner."""
        start, end = self.groups[group]
        half = (end - start + 1) // 2
        window, near = WINDOW * density, NEAREST * density
        lists = self.by_kind[group]
        for i in range(start, end + 1):
            met = self.opp[i]
            out.update((i, j) for j in range(max(i + 1, i + half - window),
                                             min(end, i + half + window) + 1) if j not in met)
            for kind in self.compatible[self.kinds[i]]:
                members = lists[kind]
                if not members:
                    continue
                for target in (min(i + half, end), max(i - half, start)):
                    at = bisect_left(members, target)
                    self._walk(i, members, at, 1, near, out)
                    self._walk(i, members, at - 1, -1, near, out)

    def _across_halves(self, group: int, density: int, out: set[tuple[int, int]]) -> None:
        """Add the top half's players wanting one colour against the bottom half's wanting
        the other (or none) in order, the r-th against the r-th (aligned at the top, at
        the bottom and in proportion), ALIGNED either side."""
        start, end = self.groups[group]
        half = (end - start + 1) // 2
        aligned = ALIGNED * density
        middle = start + half
        tops: list[list[int]] = [[], [], []]  # by colour wanted: none, White, Black
        bottoms: list[list[int]] = [[], [], []]
        for i in range(start, end + 1):
            (tops if i < middle else bottoms)[(self.kinds[i] + 2) // 3].append(i)
        for wanted_top, top in enumerate(tops):
            for wanted_bottom, bottom in enumerate(bottoms):
                if not top or not bottom or (wanted_top == wanted_bottom and wanted_top):
                    continue
                p, q = len(top), len(bottom)
                for r, i in enumerate(top):
                    met = self.opp[i]
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

    def complete(self, first: int, last: int, density: int) -> bool:
        """Return whether every pair inside groups ``first..last`` is a candidate."""
        return all(self.size(g) <= FULL_GROUP * density for g in range(first, last + 1))
