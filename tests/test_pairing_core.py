"""The shared matching core against a brute-force enumeration of every pairing (n <= 10)."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standgen.pairing.core import Pairing, pair, procedure
from tests.pairing_brute import Key, all_scored, best_key, score


@dataclass(frozen=True)
class Field:
    """A random small field: who has met whom, who had a bye, what each pair costs."""

    n: int
    met: frozenset[tuple[int, int]]
    had_bye: tuple[bool, ...]
    costs: dict[tuple[int, int], int]
    bye_costs: tuple[int, ...]
    procedure_bye: int | None
    use_procedure: bool

    def cost(self, i: int, j: int) -> int:
        assert 0 <= i < j < self.n, (i, j)
        return self.costs[(i, j)]

    def forbidden(self, i: int, j: int) -> bool:
        return (min(i, j), max(i, j)) in self.met

    def bye_cost(self, k: int) -> int | None:
        assert 0 <= k < self.n, k
        return None if self.had_bye[k] else self.bye_costs[k]

    def run(self) -> Pairing:
        return pair(
            self.n, self.cost, self.forbidden,
            self.bye_cost if self.n % 2 else None,
            procedure_bye=self.procedure_bye, use_procedure=self.use_procedure,
        )

    def key_of(self, result: Pairing) -> Key:
        return score(result.pairs, result.bye, self.cost, self.forbidden, self.bye_cost).key

    def best(self) -> Key:
        return best_key(self.n, self.cost, self.forbidden, self.bye_cost)


@st.composite
def fields(
    draw: st.DrawFn, use_procedure: bool | None = None, odd: bool = False
) -> Field:
    n = draw(st.sampled_from([3, 5, 7, 9]) if odd else st.integers(2, 10))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    # Structure is drawn by hypothesis, the per-pair details from a seeded Random (much
    # faster to generate than one hypothesis draw per pair). Density runs from empty to
    # complete; a clique of mutual opponents larger than half the field makes a
    # rematch-free pairing impossible.
    rnd = random.Random(draw(st.integers(0, 2**32)))
    density = draw(st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0]))
    met = {p for p in pairs if rnd.random() < density}
    clique = set(rnd.sample(range(n), draw(st.integers(0, n))))
    met |= {(i, j) for i, j in pairs if i in clique and j in clique}
    bye_rate = draw(st.sampled_from([0.0, 0.3, 0.7, 1.0]))
    had_bye = tuple(rnd.random() < bye_rate for _ in range(n))
    top = draw(st.sampled_from([0, 3, 20, 10**6]))
    costs = {p: rnd.randint(0, top) for p in pairs}
    bye_costs = tuple(rnd.randint(0, top) for _ in range(n))
    procedure_bye = draw(st.none() | st.integers(0, n - 1)) if n % 2 else None
    if use_procedure is None:
        use_procedure = draw(st.booleans())
    return Field(n, frozenset(met), had_bye, costs, bye_costs, procedure_bye, use_procedure)


def _positions(result: Pairing) -> list[int]:
    return [i for p in result.pairs for i in p] + ([] if result.bye is None else [result.bye])


SETTINGS = settings(max_examples=300, deadline=None)


@SETTINGS
@given(fields())
def test_every_player_appears_exactly_once(f: Field) -> None:
    result = f.run()
    assert sorted(_positions(result)) == list(range(f.n))
    assert (result.bye is not None) == (f.n % 2 == 1)
    assert all(a < b for a, b in result.pairs)
    assert list(result.pairs) == sorted(result.pairs)


@SETTINGS
@given(fields())
def test_fewest_rematches_then_fewest_second_byes(f: Field) -> None:
    result = f.run()
    rematches, repeat_byes, _ = f.key_of(result)
    best_rematches, best_repeat, _ = f.best()
    assert (rematches, repeat_byes) == (best_rematches, best_repeat)
    # The counts the core reports are the real ones.
    assert (result.rematches, result.repeat_byes) == (rematches, repeat_byes)


@SETTINGS
@given(fields())
def test_never_a_rematch_while_a_pairing_without_one_exists(f: Field) -> None:
    result = f.run()
    best_rematches, best_repeat, _ = f.best()
    if best_rematches == 0:
        assert all(not f.forbidden(a, b) for a, b in result.pairs)
        if best_repeat == 0:
            assert result.bye is None or not f.had_bye[result.bye]
    else:
        assert result.rematches == best_rematches


@SETTINGS
@given(fields(odd=True))
def test_never_a_second_bye_while_one_is_avoidable_at_no_extra_rematch(f: Field) -> None:
    result = f.run()
    assert result.bye is not None
    best_rematches, best_repeat, _ = f.best()
    if best_repeat == 0:
        # Some pairing with the fewest rematches has no second bye.
        assert not f.had_bye[result.bye]
    if not all(f.had_bye) and f.had_bye[result.bye]:
        # Somebody was eligible: a second bye only to avoid a rematch.
        rematch_free_byes = {
            s.bye for s in all_scored(f.n, f.cost, f.forbidden, f.bye_cost)
            if s.rematches == best_rematches
        }
        assert all(f.had_bye[k] for k in rematch_free_byes if k is not None)


@SETTINGS
@given(fields(use_procedure=True))
def test_a_complete_procedure_is_returned_unchanged(f: Field) -> None:
    result = f.run()
    bye = f.procedure_bye if f.n % 2 else None
    pairs, complete = procedure(f.n, f.forbidden, bye)
    # procedure() itself: the pairs it makes are never rematches and never the bye.
    assert all(not f.forbidden(a, b) for a, b in pairs)
    assert bye not in {i for p in pairs for i in p}
    if complete and (bye is None or not f.had_bye[bye]):
        assert result.pairs == tuple(sorted(pairs))
        assert result.bye == bye
        assert result.method == "procedure"
    else:
        assert result.method != "procedure"


@SETTINGS
@given(fields(use_procedure=True))
def test_a_tail_window_keeps_the_procedures_top_pairs(f: Field) -> None:
    result = f.run()
    if not result.method.startswith("matching (last "):
        return
    tail = int(result.method.removeprefix("matching (last ").rstrip(")"))
    bye = f.procedure_bye if f.n % 2 else None
    pairs, _ = procedure(f.n, f.forbidden, bye)
    kept = pairs[: (f.n - tail) // 2]
    assert set(kept) <= set(result.pairs)
    assert 2 * len(kept) + tail == f.n
    assert kept, "a window covering the whole field is reported as the whole field"
    # A window is only accepted when it is perfect.
    assert (result.rematches, result.repeat_byes) == (0, 0)
    assert f.key_of(result)[:2] == (0, 0)


@SETTINGS
@given(fields(use_procedure=False))
def test_whole_field_matching_is_optimal(f: Field) -> None:
    result = f.run()
    assert f.key_of(result) == f.best()
    assert result.method == "matching (whole field)"


@SETTINGS
@given(fields())
def test_deterministic(f: Field) -> None:
    assert f.run() == f.run()


# ----- examples -----------------------------------------------------------------------


def _met(*pairs: tuple[int, int]) -> frozenset[frozenset[int]]:
    return frozenset(frozenset(p) for p in pairs)


def test_procedure_dead_end_is_repaired_by_matching() -> None:
    # 1 met 2, 3 met 4, 2 met 4 (0-based: 0-1, 2-3, 1-3). The procedure pairs 0-2 and is
    # left with 1-3, who met; the matching finds 0-3, 1-2.
    met = _met((0, 1), (2, 3), (1, 3))

    def forbidden(i: int, j: int) -> bool:
        return frozenset((i, j)) in met

    assert procedure(4, forbidden) == ([(0, 2)], False)
    result = pair(4, lambda i, j: j - i, forbidden)
    assert result.pairs == ((0, 3), (1, 2))
    assert result.bye is None
    assert result.rematches == 0
    assert result.method != "procedure"


def test_complete_procedure_is_kept_even_when_costlier() -> None:
    # The procedure pairs 0-1, 2-3; the matching would prefer 0-2, 1-3 by cost.
    costs = {(0, 1): 50, (2, 3): 50, (0, 2): 0, (1, 3): 0, (0, 3): 9, (1, 2): 9}
    result = pair(4, lambda i, j: costs[(i, j)], lambda i, j: False)
    assert result == Pairing(((0, 1), (2, 3)), None)
    cheapest = pair(4, lambda i, j: costs[(i, j)], lambda i, j: False, use_procedure=False)
    assert cheapest.pairs == ((0, 2), (1, 3))


def test_tail_window_keeps_top_tables() -> None:
    # Eight players; only 6 and 7 met. The procedure pairs 0-1, 2-3, 4-5 and dead-ends
    # at 6-7; the last four are re-paired and the top two tables kept.
    result = pair(8, lambda i, j: (j - i) ** 2, lambda i, j: (i, j) == (6, 7))
    assert result.pairs == ((0, 1), (2, 3), (4, 6), (5, 7))
    assert result.method == "matching (last 4)"
    assert result.rematches == 0


def test_window_that_is_the_whole_field_is_reported_as_such() -> None:
    # Five players, bye 4 already had one: the procedure completes with an ineligible
    # bye; re-pairing "the last five" is the whole field and says so.
    had_bye = [False, False, False, False, True]
    result = pair(5, lambda i, j: j - i, lambda i, j: False,
                  lambda k: None if had_bye[k] else 0, procedure_bye=4)
    assert result.method == "matching (whole field)"
    assert result.bye != 4


def test_odd_field_bye_goes_to_the_only_eligible_player() -> None:
    had_bye = [True, True, True, False, True]
    for procedure_bye in (None, 0, 3, 4):
        result = pair(5, lambda i, j: j - i, lambda i, j: False,
                      lambda k: None if had_bye[k] else 0, procedure_bye=procedure_bye)
        assert result.bye == 3
        assert result.repeat_byes == 0
        assert sorted(_positions(result)) == list(range(5))


def test_procedure_bye_is_used_when_eligible() -> None:
    result = pair(5, lambda i, j: j - i, lambda i, j: False, lambda k: 7, procedure_bye=2)
    assert result == Pairing(((0, 1), (3, 4)), 2)


def test_ineligible_procedure_bye_is_replaced() -> None:
    had_bye = [False, False, False, False, True]
    result = pair(5, lambda i, j: j - i, lambda i, j: False,
                  lambda k: None if had_bye[k] else 10 * (4 - k), procedure_bye=4)
    assert result.bye is not None and not had_bye[result.bye]
    assert result.bye == 3  # cheapest eligible bye
    assert result.repeat_byes == 0


def test_second_bye_when_everyone_has_had_one() -> None:
    result = pair(3, lambda i, j: 0, lambda i, j: False, lambda k: None)
    assert result.repeat_byes == 1
    assert result.bye is not None
    assert sorted(_positions(result)) == [0, 1, 2]


def test_rematch_is_avoided_before_a_second_bye() -> None:
    # Only 2 is eligible for the bye, but then 0 and 1 (who met) must play. Avoiding the
    # rematch costs a second bye: rematches come first in the core's order.
    result = pair(3, lambda i, j: 0, lambda i, j: (i, j) == (0, 1),
                  lambda k: None if k in (0, 1) else 0, procedure_bye=2)
    assert (result.rematches, result.repeat_byes) == (0, 1)
    assert result.bye in (0, 1)


def test_unavoidable_rematches_are_minimised_and_counted() -> None:
    # Everyone has met everyone: two rematches at four players, whatever the pairing.
    result = pair(4, lambda i, j: j - i, lambda i, j: True)
    assert result.rematches == 2
    assert sorted(_positions(result)) == [0, 1, 2, 3]
    # A clique of 0, 1, 2 with 3 fresh: exactly one rematch is forced.
    clique = {0, 1, 2}
    result = pair(4, lambda i, j: 0, lambda i, j: i in clique and j in clique)
    assert result.rematches == 1
    assert any(3 in p for p in result.pairs)


def test_odd_field_needs_a_bye_cost() -> None:
    with pytest.raises(ValueError):
        pair(3, lambda i, j: 0, lambda i, j: False)


def test_huge_costs_keep_the_levels_apart() -> None:
    # Costs far beyond the level constants of small examples must not let a cheap
    # rematch beat an expensive fresh pairing.
    big = 10**12
    met = {(0, 1), (2, 3)}
    costs = {(0, 1): 0, (2, 3): 0, (0, 2): big, (1, 3): big, (0, 3): big, (1, 2): big}
    result = pair(4, lambda i, j: costs[(i, j)], lambda i, j: (i, j) in met,
                  use_procedure=False)
    assert result.rematches == 0
    assert {result.pairs} <= {((0, 2), (1, 3)), ((0, 3), (1, 2))}


@pytest.mark.parametrize("n", [0, 1, 2])
def test_tiny_fields(n: int) -> None:
    result = pair(n, lambda i, j: 0, lambda i, j: False, lambda k: 0, procedure_bye=None)
    assert sorted(_positions(result)) == list(range(n))
    assert (result.bye is not None) == (n % 2 == 1)


@settings(max_examples=300, deadline=None)
@given(fields())
def test_brute_force_reference_is_consistent(f: Field) -> None:
    # The fast best_key and the plain enumeration agree, and the enumeration is complete:
    # (n - 1)!! pairings for even n, n * (n - 2)!! for odd n.
    scored = all_scored(f.n, f.cost, f.forbidden, f.bye_cost)
    assert f.best() == min(s.key for s in scored)
    count = 1
    for k in range(f.n - 1 if f.n % 2 == 0 else f.n - 2, 0, -2):
        count *= k
    assert len(scored) == count * (f.n if f.n % 2 else 1)
    assert len({(s.pairs, s.bye) for s in scored}) == len(scored)
