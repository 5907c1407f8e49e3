"""Diplomacy board seeding: repeat meetings, powers, sit-outs, two-board players, finals."""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from standgen.diplomacy.scoring import POWERS
from standgen.diplomacy.seeding import (
    assign_powers,
    choose_sitouts,
    group_boards,
    history,
    meeting_cost,
)
from standgen.formats.diplomacy import seat_round
from standgen.model import GameKind, Round
from standgen.standings import compute_standings, pairing_input
from tests.test_diplomacy import board, draw3, make_event

PLAYERS = [f"p{k:02}" for k in range(35)]


def max_matching(edges: Sequence[Sequence[int]], right: int) -> int:
    """Return the size of a maximum bipartite matching (Kuhn's augmenting paths)."""
    owner = [-1] * right

    def augment(u: int, seen: list[bool]) -> bool:
        for v in edges[u]:
            if not seen[v]:
                seen[v] = True
                if owner[v] < 0 or augment(owner[v], seen):
                    owner[v] = u
                    return True
        return False

    return sum(augment(u, [False] * right) for u in range(len(edges)))


@settings(deadline=None, max_examples=60)
@given(st.lists(st.lists(st.integers(0, 3), min_size=7, max_size=7), min_size=7, max_size=7),
       st.integers(0, 2**32))
def test_powers_repeat_only_when_unavoidable(counts: list[list[int]], seed: int) -> None:
    """The issue: "give each player a power they have not played, or have played least".
    The assignment leaves off a least-played power exactly as many players as no
    assignment can avoid (7 minus a maximum matching on least-played powers)."""
    players = [f"x{k}" for k in range(7)]
    played = {p: dict(zip(POWERS, row, strict=True)) for p, row in zip(players, counts,
                                                                       strict=True)}
    powers = assign_powers(players, played, random.Random(seed))
    assert sorted(powers) == sorted(POWERS)
    least = [min(row) for row in counts]
    off = sum(played[p][w] > least[k] for k, (p, w) in enumerate(zip(players, powers,
                                                                     strict=True)))
    edges = [[j for j in range(7) if counts[k][j] == least[k]] for k in range(7)]
    assert off == 7 - max_matching(edges, 7)


def random_history(rand: random.Random, players: Sequence[str], rounds: int) -> list[Round]:
    out = []
    for number in range(1, rounds + 1):
        order = list(players)
        rand.shuffle(order)
        games = [board(number, k // 7 + 1, draw3(order[k:k + 7]))
                 for k in range(0, len(order), 7)]
        out.append(Round(number, tuple(games)))
    return out


@settings(deadline=None, max_examples=25)
@given(st.sampled_from([14, 21, 28, 35]), st.integers(1, 4), st.integers(0, 2**32))
def test_meeting_cost_never_worse_than_a_random_seating(
    field: int, rounds: int, seed: int,
) -> None:
    """The issue: "the meeting cost is never worse than a random seeding's on random
    histories"."""
    rand = random.Random(seed)
    players = PLAYERS[:field]
    past = history(random_history(rand, players, rounds))
    boards = group_boards(players, past.met, random.Random(seed + 1))
    assert sorted(p for b in boards for p in b) == sorted(players)
    assert all(len(b) == 7 for b in boards)
    shuffled = list(players)
    rand.shuffle(shuffled)
    random_boards = [shuffled[k:k + 7] for k in range(0, field, 7)]
    assert meeting_cost(boards, past.met) <= meeting_cost(random_boards, past.met)


def test_meeting_cost_reaches_the_pigeonhole_bound_in_round_two() -> None:
    """21 players after one round: each new board holds 3 + 2 + 2 from the old boards at
    best (3 + 1 + 1 = 5 repeat pairs), so the least cost is 15."""
    past = history(random_history(random.Random(3), PLAYERS[:21], 1))
    boards = group_boards(PLAYERS[:21], past.met, random.Random(4))
    assert meeting_cost(boards, past.met) == 15


def test_sitouts_go_to_who_sat_out_least_lowest_ranked_first() -> None:
    """The issue: "standgen proposes sit-outs among those who sat out least, lowest
    ranked first"."""
    position = {"a": 1, "b": 2, "c": 3, "d": 4}
    sat = {"d": 1}
    chosen = choose_sitouts(["a", "b", "c", "d"], 2, sat, position, random.Random(1))
    assert chosen == ["c", "b"]


def events_with_rounds(field: int, rounds: int, **options: object) -> tuple[object, ...]:
    players = PLAYERS[:field]
    played = random_history(random.Random(9), players[: field - field % 7], rounds)
    return make_event(players, [r.games for r in played], **options), players


DOUBLES = ["p01", "p02", "p03", "p04", "p05", "p06"]


def test_seat_round_sits_out_the_remainder_and_honours_the_to() -> None:
    event, players = events_with_rounds(23, 0)
    proposal = seat_round(event, pairing_input(compute_standings(event)), 1)  # type: ignore[arg-type]
    games = proposal.round.games
    assert [len(g.seats) for g in games] == [7, 7, 7, 1, 1]
    assert all(g.kind is GameKind.BYE for g in games[3:])
    chosen = seat_round(event, pairing_input(compute_standings(event)), 1,  # type: ignore[arg-type]
                        sit_out=["p00"], two_boards=DOUBLES)
    boards = [g for g in chosen.round.games if g.kind is GameKind.PLAYED]
    resting = [g.players[0] for g in chosen.round.games if g.kind is GameKind.BYE]
    assert resting == ["p00"] and len(boards) == 4  # 22 players + 6 second seats = 28
    seated = [p for g in boards for p in g.players]
    assert all(seated.count(p) == 2 for p in DOUBLES)
    assert all(len(set(g.players)) == 7 for g in boards)


def test_later_rounds_avoid_repeat_powers_and_the_final_seats_the_top_seven() -> None:
    event, players = events_with_rounds(21, 2, final_round=3)
    standings = compute_standings(event)  # type: ignore[arg-type]
    proposal = seat_round(event, pairing_input(standings), 3,  # type: ignore[arg-type]
                          final_round=3)
    top = {row.player.id for row in standings.rows[:7]}
    assert set(proposal.round.games[0].players) == top
    past = history(event.rounds)  # type: ignore[attr-defined]
    repeats = sum(past.powers.get(s.player, {}).get(s.power, 0)
                  for g in proposal.round.games for s in g.seats)
    assert repeats == 0
    assert "final" in " ".join(proposal.notes)


