"""The Dutch engine's fast path (``standgen.pairing.dutch.window``: each bracket matched
over its window, the completion criterion checked on the rest) against the reference
model (one matching of the whole field, as bbpPairings), round for round.

The fast path is the default; ``_Engine(state, fast=False)`` is the reference. Both
must give the same round, pairs, colours and bye, on random fields with draws,
forfeits, absences, late entries, requested byes and acceleration, and on the last round
(topscorers). The parts it rests on are checked on their own: the additive weights
outside windows, the compatibility bit sets, and the completion test against brute
force.
"""

from __future__ import annotations

import itertools
import random

import pytest

from standgen.pairing.dutch import (
    Entrant,
    NoValidPairing,
    PairingState,
    RoundEntry,
    _Engine,
    pair_dutch,
)
from standgen.pairing.dutch import engine as engine_module
from standgen.pairing.dutch import window as window_module
from standgen.pairing.dutch.completion import adjacency, perfect
from tests.test_dutch_brute import play


def random_field(seed: int, lo: int = 24, hi: int = 110) -> PairingState:
    """A field of ``lo``-``hi`` players after 2-8 rounds paired by the engine, with
    random results (draws, a twelfth of the games forfeited), players absent for a round,
    late entries and half the time Baku-like virtual points."""
    rnd = random.Random(seed)
    n = rnd.randint(lo, hi)
    rounds = rnd.randint(2, 8)
    planned = rounds + rnd.choice((0, 0, 1, 3))
    late = set(rnd.sample(range(1, n + 1), k=n // 15))
    virtual = rnd.random() < 0.3
    history: dict[int, list[RoundEntry]] = {k: [] for k in range(1, n + 1)}

    def state(active: set[int], upto: int) -> PairingState:
        def acc(k: int) -> tuple[float, ...]:
            if not virtual or k > n // 2:
                return ()
            return tuple(1.0 if r < 2 else 0.0 for r in range(upto + 1))
        return PairingState(tuple(Entrant(k, tuple(h), k in active, acc(k))
                                  for k, h in history.items()), max(planned, upto + 1))

    for number in range(rounds):
        active = {k for k in history
                  if not (k in late and number == 0) and rnd.random() > 0.04}
        try:
            made = pair_dutch(state(active, number))
        except NoValidPairing:
            break
        for k in history:
            if k not in active:
                history[k].append(RoundEntry(None, None, 0.0, paired=False))
        play(made, history, rnd, 1 / 12)
    played = max(len(h) for h in history.values())
    active = {k for k in history if rnd.random() > 0.03}
    return state(active, played)


def both(state: PairingState) -> tuple[object, object]:
    def run(fast: bool) -> object:
        try:
            return _Engine(state, fast=fast).run()
        except NoValidPairing:
            return "no pairing"
    return run(True), run(False)


@pytest.mark.parametrize("seed", range(60))
def test_fast_path_pairs_as_the_reference(seed: int) -> None:
    state = random_field(seed)
    fast, reference = both(state)
    assert fast == reference


@pytest.mark.parametrize("seed", range(12))
def test_fast_path_pairs_alike_with_the_python_matching(seed: int) -> None:
    """The windows' matching compiled (``_blossom.c``, the default when it was built) or
    the Python class (where it was not): the same round."""
    state = random_field(500 + seed)
    assert _Engine(state, compiled=False).run() == _Engine(state).run()


@pytest.mark.parametrize("seed", range(8))
def test_fast_path_on_the_last_round(seed: int) -> None:
    """The last round: topscorers may meet with the same absolute colour preference
    (C.04.3 art. C.3), which changes the compatibility bit sets."""
    field = random_field(1000 + seed, 30, 70)
    played = field.played_rounds
    last = PairingState(field.entrants, played + 1, field.initial_colour)
    fast, reference = both(last)
    assert fast == reference


@pytest.mark.parametrize("seed", range(6))
def test_fast_path_when_completion_fails(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every completion check refused: each window falls back to the exact graph, and
    the round is still the reference's."""
    state = random_field(2000 + seed, 40, 80)
    reference = _Engine(state, fast=False).run()
    monkeypatch.setattr(window_module, "perfect", lambda group, adjacent: False)
    engine = _Engine(state)
    engine.quick_first = lambda: False  # type: ignore[method-assign]
    assert engine.run() == reference
    assert engine.fallbacks > 0


@pytest.mark.parametrize("seed", range(6))
def test_fast_path_step_by_step(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the transposition choices read off the duals turned off (a matching for
    each S1 player in turn, as the reference), the round is the same."""
    state = random_field(3000 + seed, 30, 90)
    reference = _Engine(state, fast=False).run()
    monkeypatch.setattr(engine_module._Engine, "tight_choices",
                        lambda self, bracket, remainder, firsts, matched: [])
    assert _Engine(state).run() == reference


@pytest.mark.parametrize("seed", range(10))
def test_outside_windows_weights_are_additive(seed: int) -> None:
    """A pair outside every window weighs c + a[u] + a[v] when the two may meet, 0
    otherwise (the reference's first weights, :meth:`_Weights.edge`)."""
    state = random_field(4000 + seed, 20, 40)
    engine = _Engine(state)
    engine.first_matching()
    a, c = engine.additive()
    adjacent = engine.adjacent()
    players = engine.players
    for j in range(engine.n):
        for i in range(j):
            edge = engine.edge(players[i], players[j], False, False)
            may = bool(adjacent[i] >> j & 1)
            assert may == engine.compatible(players[i], players[j])
            assert edge == ((c + a[i] + a[j]) if may else 0)


@pytest.mark.parametrize("seed", range(6))
def test_weights_kept_by_kind_are_the_weights(seed: int) -> None:
    """:meth:`_Weights.edge` keeps one weight for every two kinds of player; it is the
    weight :meth:`_Weights.weigh` gives each pair, in and out of the bracket, with and
    without C.9."""
    state = random_field(5000 + seed, 20, 40)
    engine = _Engine(state, fast=False)
    engine.first_matching()
    players = engine.players
    for flag in (False, True) if engine.unplayed_rank else (False,):  # C.9 needs a bye
        engine.single_downfloater_bye = flag
        for j in range(engine.n):
            for i in range(j):
                hi, lo = players[i], players[j]
                for current, following in ((True, False), (False, True), (False, False)):
                    expected = (engine.weigh(hi, lo, current, following)
                                if engine.compatible(hi, lo) else 0)
                    assert engine.edge(hi, lo, current, following) == expected


def brute_perfect(vertices: list[int], adjacent: list[int]) -> bool:
    if not vertices:
        return True
    first, rest = vertices[0], vertices[1:]
    for k, other in enumerate(rest):
        if adjacent[first] >> other & 1 and brute_perfect(rest[:k] + rest[k + 1:], adjacent):
            return True
    return False


@pytest.mark.parametrize("seed", range(300))
def test_completion_against_brute_force(seed: int) -> None:
    rnd = random.Random(seed)
    n = rnd.randint(1, 12)
    density = rnd.random()
    edges = {(i, j) for i, j in itertools.combinations(range(n), 2) if rnd.random() < density}
    adjacent = adjacency(n, lambda i, j: (i, j) in edges)
    vertices = sorted(rnd.sample(range(n), k=rnd.randint(0, n)))
    assert perfect(vertices, adjacent) == brute_perfect(vertices, adjacent)


def test_completion_needs_an_odd_cycle() -> None:
    """Two triangles joined by one edge: the greedy pass and short swaps can miss the
    perfect matching, the augmenting search (with blossoms) finds it."""
    pairs = {(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (2, 3)}
    adjacent = adjacency(6, lambda i, j: (i, j) in pairs)
    assert perfect(list(range(6)), adjacent)
    assert not perfect([0, 1, 2, 4], adjacent)
