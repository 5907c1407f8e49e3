"""Round robin by Berger tables (FIDE C.05 Annex 1), for any two-player format."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standgen.build import check, pair
from standgen.errors import InputError
from standgen.model import GameKind
from standgen.pairing.roundrobin import berger_numbers, berger_round, planned_rounds
from standgen.pairing.roundrobin import pair as rr_pair
from standgen.pipeline import propose
from standgen.standings import compute_standings, pairing_input
from tests.build import make_event, player

# FIDE Handbook C.05 Annex 1, "Berger Tables for Round-Robin Tournaments" (White first).
FIDE_4 = [
    [(1, 4), (2, 3)],
    [(4, 3), (1, 2)],
    [(2, 4), (3, 1)],
]
FIDE_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
FIDE_8 = [
    [(1, 8), (2, 7), (3, 6), (4, 5)],
    [(8, 5), (6, 4), (7, 3), (1, 2)],
    [(2, 8), (3, 1), (4, 7), (5, 6)],
    [(8, 6), (7, 5), (1, 4), (2, 3)],
    [(3, 8), (4, 2), (5, 1), (6, 7)],
    [(8, 7), (1, 6), (2, 5), (3, 4)],
    [(4, 8), (5, 3), (6, 2), (7, 1)],
]


@pytest.mark.parametrize("n, table", [(4, FIDE_4), (6, FIDE_6), (8, FIDE_8)])
def test_berger_tables_equal_fide(n: int, table: list[list[tuple[int, int]]]) -> None:
    assert [berger_round(n, r) for r in range(1, n)] == table


def test_five_players_use_the_six_table_with_a_bye() -> None:
    names = [f"p{k}" for k in range(5)]
    event = make_event(names, [], options={"pairing": "round-robin"})
    numbers = [p.id for p in berger_numbers(event)]
    for r in range(1, 6):
        games = rr_pair(event, pairing_input(compute_standings(event)), r).round.games
        byes = [g.players[0] for g in games if g.kind is GameKind.BYE]
        # the dummy is Berger number 6: whoever the 6-table pairs with 6 has the bye
        (opponent,) = [a if b == 6 else b for a, b in FIDE_6[r - 1] if 6 in (a, b)]
        assert byes == [numbers[opponent - 1]]
        played = [(g.players[0], g.players[1]) for g in games if g.kind is GameKind.PLAYED]
        expected = [(numbers[a - 1], numbers[b - 1]) for a, b in FIDE_6[r - 1] if 6 not in (a, b)]
        assert played == expected


@settings(deadline=None, max_examples=30)
@given(st.integers(min_value=2, max_value=16), st.integers(min_value=0, max_value=10**6))
def test_everyone_meets_everyone_once(n: int, seed: int) -> None:
    names = [f"p{k}" for k in range(n)]
    event = make_event(names, [], seed=seed, options={"pairing": "round-robin"})
    standings = compute_standings(event)
    met: Counter[frozenset[str]] = Counter()
    whites: Counter[str] = Counter()
    blacks: Counter[str] = Counter()
    byes: Counter[str] = Counter()
    for r in range(1, planned_rounds(n) + 1):
        games = rr_pair(event, pairing_input(standings), r).round.games
        seen = [p for g in games for p in g.players]
        assert sorted(seen) == sorted(names)  # everyone once a round
        for g in games:
            if g.kind is GameKind.BYE:
                byes[g.players[0]] += 1
            else:
                met[frozenset(g.players)] += 1
                whites[g.players[0]] += 1
                blacks[g.players[1]] += 1
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    assert all(v == 1 for v in byes.values()) and len(byes) == (n if n % 2 else 0)
    for name in names:  # Berger colours differ by at most one per player
        assert abs(whites[name] - blacks[name]) <= 1


def test_planned_rounds() -> None:
    assert [planned_rounds(n) for n in (2, 3, 4, 5, 8, 9)] == [1, 3, 3, 5, 7, 9]


def test_dropped_players_opponent_gets_a_bye() -> None:
    people = [player("a"), player("b"), player("c"), player("d", dropped_after=0)]
    event = make_event(people, [], options={"pairing": "round-robin"})
    games = rr_pair(event, pairing_input(compute_standings(event)), 1).round.games
    assert sum(g.kind is GameKind.BYE for g in games) == 1
    assert "d" not in [p for g in games for p in g.players]


def test_propose_dispatches_to_round_robin() -> None:
    names = ["a", "b", "c", "d"]
    event = make_event(names, [], options={"pairing": "round-robin"})
    proposal = propose(event, compute_standings(event))
    assert proposal is not None
    numbers = [p.id for p in berger_numbers(event)]
    assert [g.players for g in proposal.round.games] == [
        (numbers[a - 1], numbers[b - 1]) for a, b in FIDE_4[0]]


EVENT = 'name = "RR"\ndate = 2026-03-14\nformat = "steamroller"\n'


def test_option_accepted_for_a_two_player_format_and_pair_writes_it(tree: object) -> None:
    assert callable(tree)
    root: Path = tree({"ev/event.toml": EVENT + '[options]\npairing = "round-robin"\n',
                       "ev/round-1.csv": None})  # players only, no round yet
    check(root)
    paired = pair(root / "ev", root)
    assert "Berger" in " ".join(paired.notes)
    assert len(paired.text.strip().splitlines()) == 3  # header and two tables


def test_bad_pairing_value_is_a_problem(tree: object) -> None:
    assert callable(tree)
    root = tree({"ev/event.toml": EVENT + '[options]\npairing = "berger"\n'})
    with pytest.raises(InputError) as caught:
        check(root)
    message = str(caught.value)
    assert "event.toml:5" in message and "round-robin" in message
