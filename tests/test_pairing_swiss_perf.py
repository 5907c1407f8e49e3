"""Swiss pairing of large fields: score group by score group on candidate pairs (issue #8).

Fields of more than ``EXACT_LIMIT`` players are paired by ``pair_large``; these tests
force that path on small fields too (``EXACT_LIMIT = 0``, tiny ``FULL_GROUP`` so the
candidates are sparse) and hold it to what the whole-field matching guarantees: no rematch
and no second bye while avoidable (brute force), no colour clash where the whole field
avoids one, every player paired once, the same pairing for the same input, and speed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.synth import make_event as synthetic_event
from standgen.formats.swiss import SWISS
from standgen.model import Event, GameKind, Round
from standgen.pairing import core, swiss
from standgen.pairing.common import players_for_round
from standgen.pairing.swiss import candidates
from standgen.records import have_met
from standgen.standings import compute_standings, pairing_input
from tests.build import make_event
from tests.test_swiss_pairing import field_players, play, simulate, with_rounds


@contextmanager
def large_path(full_group: int = 1) -> Iterator[None]:
    """Pair every field group by group, with sparse candidates even in small groups."""
    saved = swiss.EXACT_LIMIT, candidates.FULL_GROUP
    swiss.EXACT_LIMIT, candidates.FULL_GROUP = 0, full_group
    try:
        yield
    finally:
        swiss.EXACT_LIMIT, candidates.FULL_GROUP = saved


def field_of(event: Event, number: int) -> tuple[swiss.Field, swiss.Weights, list[set[int]]]:
    """Return the field, cost weights and each position's previous opponents."""
    standings = compute_standings(event)
    players = players_for_round(event, number)
    field = swiss.make_field(players, standings.context.scores, swiss.start_ranks(event),
                             standings.records)
    position = {p.id: k for k, p in enumerate(field.order)}
    opponents: list[set[int]] = [set() for _ in field.order]
    for pair in have_met(standings.records):
        a, b = sorted(pair)
        if a in position and b in position:
            opponents[position[a]].add(position[b])
            opponents[position[b]].add(position[a])
    return field, swiss.weights(len(field.order), number), opponents


def levels(field: swiss.Field, w: swiss.Weights, opponents: list[set[int]],
           result: core.Pairing) -> tuple[int, int, int]:
    """Return (rematches, second byes, colour clashes) of a pairing of ``field``."""
    rematches = sum(j in opponents[i] for i, j in result.pairs)
    repeat = int(result.bye is not None and not field.eligible[result.bye])
    clashes = sum(swiss.colour_rule_clash(field.colours[i], field.colours[j])
                  for i, j in result.pairs)
    return rematches, repeat, clashes


def check_complete(field: swiss.Field, result: core.Pairing) -> None:
    seen = sorted([i for p in result.pairs for i in p]
                  + ([] if result.bye is None else [result.bye]))
    assert seen == list(range(len(field.order))), "everyone is paired exactly once"
    assert (result.bye is not None) == (len(field.order) % 2 == 1)
    assert all(i < j for i, j in result.pairs)


@settings(deadline=None, max_examples=40)
@given(st.integers(min_value=2, max_value=9), st.integers(min_value=1, max_value=7),
       st.integers(min_value=0, max_value=10**6))
def test_group_by_group_matches_brute_force(n: int, rounds: int, seed: int) -> None:
    """The brute-force check of test_swiss_pairing, on the group-by-group path: no
    rematch, no second bye and no colour clash while any pairing avoids them (where the
    candidates hold none, pair falls back to the whole-field matching)."""
    with large_path():
        simulate(seed, n, rounds)


@pytest.mark.parametrize("seed, n, rounds", [(13, 9, 7), (15, 8, 6), (16, 8, 6), (3, 10, 9)])
def test_group_by_group_on_hard_small_fields(seed: int, n: int, rounds: int) -> None:
    with large_path():
        simulate(seed, n, rounds)


def play_rounds(n: int, rounds: int, seed: int) -> Iterator[tuple[Event, int]]:
    """Yield an event before each round, played with the exact whole-field pairing."""
    rnd = random.Random(seed)
    event = make_event(field_players(n, rnd), [], fmt=SWISS.id, seed=seed, rounds=rounds)
    played: list[Round] = []
    for number in range(1, rounds + 1):
        event = with_rounds(event, played)
        yield event, number
        games = swiss.pair(event, pairing_input(compute_standings(event)), number).round.games
        played.append(play(number, games, rnd))


def whole_field(field: swiss.Field, w: swiss.Weights,
                opponents: list[set[int]]) -> core.Pairing:
    """Return the exact whole-field matching (what fields up to EXACT_LIMIT get)."""
    return core.pair(len(field.order), swiss.pair_cost(field, w),
                     lambda i, j: j in opponents[i],
                     swiss.bye_cost(field, w) if len(field.order) % 2 else None,
                     use_procedure=False)


def floats(field: swiss.Field, w: swiss.Weights, result: core.Pairing) -> int:
    """Return the score differences squared (half points) of a pairing's games."""
    cost = swiss.pair_cost(field, w)
    return sum(cost(i, j) for i, j in result.pairs) % w.colour_rule // w.score


@pytest.mark.parametrize("seed, n", [(1, 41), (2, 60), (3, 75), (4, 90)])
def test_group_by_group_keeps_the_top_levels_of_the_whole_field(seed: int, n: int) -> None:
    """Medium fields, several rounds: the group-by-group pairing has the whole-field
    matching's rematches, second byes and colour clashes (none), and floats no more than
    twice as much; it is a complete pairing."""
    for event, number in play_rounds(n, 7, seed):
        field, w, opponents = field_of(event, number)
        exact = whole_field(field, w, opponents)
        with large_path(full_group=4):
            mine = swiss.pair_large(field, w, opponents)
        assert mine is not None
        check_complete(field, mine)
        assert levels(field, w, opponents, mine) == levels(field, w, opponents, exact)
        assert floats(field, w, mine) <= 2 * floats(field, w, exact) + 1


def test_no_rematch_free_pairing_falls_back_to_the_whole_field() -> None:
    """Four players who have all met: the candidates hold no pairing, so the whole-field
    matching pairs them with the fewest rematches, and says so."""
    people = ["a", "b", "c", "d"]
    event = make_event(people, [[("a", "b", "1-0"), ("c", "d", "1-0")],
                                [("a", "c", "1-0"), ("b", "d", "1-0")],
                                [("a", "d", "1-0"), ("b", "c", "1-0")]], fmt="swiss")
    field, w, opponents = field_of(event, 4)
    with large_path():
        assert swiss.pair_large(field, w, opponents) is None
        made = swiss.pair(event, pairing_input(compute_standings(event)), 4)
    assert sorted(p for g in made.round.games for p in g.players) == people
    assert any("rematch" in note for note in made.notes)


def test_same_input_same_pairing() -> None:
    """Determinism: a large field paired twice, and from a rebuilt event, gives the same
    round; the candidates and the matching involve no unseeded choice."""
    event = synthetic_event(400, 9, "swiss", seed=5, pairing="fast", played=6)
    first = swiss.pair(event, pairing_input(compute_standings(event)), 7)
    again = synthetic_event(400, 9, "swiss", seed=5, pairing="fast", played=6)
    second = swiss.pair(again, pairing_input(compute_standings(again)), 7)
    assert first == second


def test_large_field_pairs_everyone_without_rematch() -> None:
    """A 1,024-player round takes the group-by-group path and pairs every active player
    without a rematch. (Its time is a benchmark case, ``python -m benchmarks.run``, not
    an assertion here.)"""
    event = synthetic_event(1024, 8, "swiss", seed=11, pairing="fast", played=5)
    standings = compute_standings(event)
    made = swiss.pair(event, pairing_input(standings), 6)
    games = made.round.games
    ids = sorted(p for g in games for p in g.players)
    assert ids == sorted(p.id for p in players_for_round(event, 6))
    met = have_met(standings.records)
    assert not any(frozenset(g.players) in met for g in games if g.kind is GameKind.PLAYED)
    assert not any("rematch" in note for note in made.notes)
