"""A large Swiss field paired score group by score group on candidate pairs (FIDE C.04.3
A.3, C.4: the brackets from the top, each with the player floated down into it), with
the whole field on candidate pairs as the last resort: :func:`pair_large`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from standgen.pairing import core
from standgen.pairing.swiss.candidates import _Candidates
from standgen.pairing.swiss.field import Field, Weights

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


class _Groups(_Candidates):
    """A large field in score groups, paired run by run on candidate pairs."""

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
    runs = _runs(groups)
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


def _runs(groups: _Groups) -> list[_Run]:
    """Return the runs of score groups paired top down, each with the player it floats
    down into the next, or none when a run cannot be paired even with every group below."""
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
        found, last = _widened(groups, first, last, incoming)
        if found is None:
            return []
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
    return runs


def _widened(groups: _Groups, first: int, last: int,
             incoming: int | None) -> tuple[_Run | None, int]:
    """Return the best run from group ``first`` to ``last`` and its last group: a run that
    cannot be paired, or only with a colour clash, takes in the next group while that
    helps."""
    found = groups.best_run(first, last, incoming)
    while last + 1 < len(groups.groups) and (found is None or found.clashes):
        wider = groups.best_run(first, last + 1, incoming)
        if found is not None and (wider is None or wider.clashes >= found.clashes):
            break
        found, last = wider, last + 1
    return found, last
