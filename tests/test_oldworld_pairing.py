"""Old World pairing (seed 002, "The Pairing of Players"): swaps, spare, bye, final round."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standgen.formats.base import Proposal
from standgen.formats.oldworld import OLD_WORLD, pair, top_tables
from standgen.model import Event, EventConfig, Game, GameKind, Outcome, Player, Round, Seat
from standgen.pairing import adjacent
from standgen.pairing.common import standings_order
from standgen.records import have_met
from standgen.standings import compute_standings, pairing_input
from tests.pairing_brute import best_key

# ----- building events ------------------------------------------------------------------


def make_event(players: Sequence[Player], rounds: Sequence[Round] = (), seed: int = 0,
               planned: int = 5, **options: object) -> Event:
    config = EventConfig(name="Test", date=dt.date(2026, 5, 1), format="old-world",
                         seed=seed, rounds=planned, options=options)
    return Event(path=("test",), config=config, players=tuple(players), rounds=tuple(rounds))


def named(*names: str, spare: str = "") -> list[Player]:
    return [Player(n.lower(), n, spare=n == spare) for n in names]


def played(number: int, table: int, a: str, b: str, vp_a: int, vp_b: int) -> Game:
    stats = ({"vp": float(vp_a)}, {"vp": float(vp_b)})
    derive = OLD_WORLD.outcome_from_stats
    assert derive is not None
    outcomes = derive("", stats, make_event([]).config)
    assert outcomes is not None
    return Game(number, table, (Seat(a, outcomes[0], stats[0]), Seat(b, outcomes[1], stats[1])))


def play_out(proposal: Proposal, rnd: random.Random) -> Round:
    """Return the proposed round with random VPs at every table (a bye: a crushing win)."""
    games = []
    for game in proposal.round.games:
        if game.kind is GameKind.PLAYED:
            a, b = game.players
            games.append(played(game.round, game.table, a, b, rnd.randint(0, 2500),
                                rnd.randint(0, 2500)))
        else:
            outcome = Outcome.WIN if game.kind is GameKind.BYE else Outcome.LOSS
            games.append(Game(game.round, game.table, (Seat(game.players[0], outcome),),
                              game.kind))
    return Round(proposal.round.number, tuple(games))


def tables(proposal: Proposal) -> list[tuple[str, ...]]:
    return [g.players for g in proposal.round.games if g.kind is GameKind.PLAYED]


def kind_of(proposal: Proposal, kind: GameKind) -> list[str]:
    return [g.players[0] for g in proposal.round.games if g.kind is kind]


def standings_ids(event: Event) -> list[str]:
    return [r.player.id for r in compute_standings(event).rows]


# ----- seed 002's worked example ----------------------------------------------------------


def test_seed_example_danny_swaps_with_becky() -> None:
    """Seed 002: "Dave and Danny have already played one another ... As Danny is the lower
    ranked of the two, he will swap with the highest ranked player on the table shown here -
    which in this case, is Becky." Positions: Connor 0, Jonathan 1, Dave 2, Danny 3, Becky 4,
    Rob 5."""
    met = {(2, 3)}
    seats, stuck = adjacent.swap_seating(6, lambda i, j: (i, j) in met)
    assert stuck is None
    assert seats == [0, 1, 2, 4, 3, 5]
    result = adjacent.pair(6, lambda i, j: (i, j) in met)
    assert result.pairs == ((0, 1), (2, 4), (3, 5)) and result.method == "procedure"


def seed_example_event(also_met: Sequence[tuple[str, str]] = ()) -> Event:
    """Round 1 puts the six of seed 002's table in its order: Connor 6 TP, Jonathan 5, Dave
    and Danny 3 (a drawn game, Dave ahead on VP difference), Becky 1, Rob 0."""
    players = named("Connor", "Jonathan", "Dave", "Danny", "Becky", "Rob")
    r1 = Round(1, (played(1, 1, "connor", "rob", 2000, 0),
                   played(1, 2, "jonathan", "becky", 1700, 1000),
                   played(1, 3, "dave", "danny", 1100, 1000)))
    rounds = [r1]
    if also_met:
        # round 2 keeps everyone's order: draws by equal VP between the given pairs
        games = [played(2, k, a, b, 1000, 1000) for k, (a, b) in enumerate(also_met, start=1)]
        rounds.append(Round(2, tuple(games)))
    return make_event(players, rounds)


def test_seed_example_through_the_format() -> None:
    event = seed_example_event()
    assert standings_ids(event) == ["connor", "jonathan", "dave", "danny", "becky", "rob"]
    proposal = pair(event, pairing_input(compute_standings(event)), 2)
    assert tables(proposal) == [("connor", "jonathan"), ("dave", "becky"), ("danny", "rob")]


def test_and_so_on_down_when_the_swap_is_a_rematch_too() -> None:
    """Dave has met Danny and Becky: Danny goes on down to the next player, Rob."""
    met = {(2, 3), (2, 4)}
    seats, _ = adjacent.swap_seating(6, lambda i, j: (i, j) in met)
    assert seats == [0, 1, 2, 5, 4, 3]
    assert adjacent.pair(6, lambda i, j: (i, j) in met).pairs == ((0, 1), (2, 5), (3, 4))


def test_the_lower_ranked_of_a_swapped_table_moves_on() -> None:
    """After a swap the table below may seat its lower-ranked player first: that player
    (4, not 3) is the one who moves on."""
    met = {(2, 3), (2, 4), (3, 4)}
    seats, stuck = adjacent.swap_seating(8, lambda i, j: (i, j) in met)
    assert stuck is None
    assert seats == [0, 1, 2, 5, 6, 3, 4, 7]


def test_dead_end_is_paired_by_the_matching_core() -> None:
    """The bottom table is a rematch with no table below: the core re-pairs."""
    met = {(2, 3)}
    result = adjacent.pair(4, lambda i, j: (i, j) in met)
    assert result.pairs == ((0, 2), (1, 3)) and result.rematches == 0
    assert result.method == "matching (whole field)"


def test_dead_end_keeps_the_tables_above() -> None:
    met = {(6, 7)}
    result = adjacent.pair(8, lambda i, j: (i, j) in met)
    assert result.pairs[:2] == ((0, 1), (2, 3)) and result.rematches == 0
    assert result.method.startswith("matching (last")


# ----- final round -------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "percent", "expected"),
                         [(6, 10, 1), (20, 10, 1), (21, 10, 2), (25, 10, 2), (40, 10, 2),
                          (41, 10, 3), (16, 25, 2), (16, 0, 0), (8, 12.5, 1)])
def test_top_tables_are_ten_percent_of_the_field_rounded_up(
    players: int, percent: float, expected: int
) -> None:
    """Seed 002: "usually the tables on which the top 10% of the players are playing"."""
    config = make_event([], top_tables_percent=percent).config
    assert top_tables(players, config) == expected


def test_final_round_top_table_rematch_stands() -> None:
    """Seed 002: "in the final round, players on the top tables ... should not swap
    opponents if they draw someone they have already played against"."""
    event = seed_example_event(also_met=[("connor", "jonathan"), ("dave", "danny"),
                                         ("becky", "rob")])
    event = make_event(event.players, event.rounds, planned=3)
    standings = compute_standings(event)
    assert [r.player.id for r in standings.rows][:2] == ["connor", "jonathan"]
    final = pair(event, pairing_input(standings), 3)
    assert tables(final)[0] == ("connor", "jonathan")
    assert any("stands" in note for note in final.notes)
    # below the top table, rematches are still swapped away
    met = have_met(standings.records)
    assert not any(frozenset(t) in met for t in tables(final)[1:])


def test_before_the_final_round_the_top_table_swaps() -> None:
    event = seed_example_event(also_met=[("connor", "jonathan"), ("dave", "danny"),
                                         ("becky", "rob")])
    standings = compute_standings(event)
    proposal = pair(event, pairing_input(standings), 3)  # five rounds planned: not the final round
    met = have_met(standings.records)
    assert not any(frozenset(t) in met for t in tables(proposal))


def test_protected_tables_stay_when_the_rest_needs_the_core() -> None:
    met = {(0, 1), (4, 5), (2, 4)}
    result = adjacent.pair(6, lambda i, j: (i, j) in met, protected=1)
    assert result.pairs == ((0, 1), (2, 5), (3, 4)) and result.rematches == 0


# ----- spare player and bye ----------------------------------------------------------------


def five_and_spare() -> list[Player]:
    return named("Ann", "Bob", "Cat", "Dan", "Eve", "Sam", spare="Sam")


def test_spare_plays_the_bottom_of_the_standings() -> None:
    """Seed 002, "Spare Player": "the spare player should be left out and should always
    play the player at the bottom of the standings"."""
    players = five_and_spare()
    r1 = Round(1, (played(1, 1, "ann", "bob", 2000, 0), played(1, 2, "cat", "sam", 1500, 1000),
                   played(1, 3, "dan", "eve", 1200, 1000)))
    event = make_event(players, [r1])
    order = standings_ids(event)
    assert order == ["ann", "cat", "dan", "eve", "bob"] and "sam" not in order
    proposal = pair(event, pairing_input(compute_standings(event)), 2)
    assert ("bob", "sam") in tables(proposal)
    assert not kind_of(proposal, GameKind.BYE)


def test_spare_plays_the_next_lowest_who_has_not_played_them() -> None:
    """Seed 002: "If this player has already played against the spare player, simply pair
    the next lowest ranked player against the spare player instead"."""
    players = five_and_spare()
    r1 = Round(1, (played(1, 1, "ann", "cat", 1400, 1000), played(1, 2, "bob", "sam", 0, 2000),
                   played(1, 3, "dan", "eve", 1200, 1000)))
    event = make_event(players, [r1])
    assert standings_ids(event)[-1] == "bob"
    proposal = pair(event, pairing_input(compute_standings(event)), 2)
    partner = next(t for t in tables(proposal) if "sam" in t)
    assert partner == (standings_ids(event)[-2], "sam")


def test_without_a_spare_the_bottom_player_gets_the_bye() -> None:
    """Seed 002, "Byes": "the player that would normally be paired with the spare player
    ... will instead receive a Bye"."""
    players = named("Ann", "Bob", "Cat", "Dan", "Eve")
    r1 = Round(1, (played(1, 1, "ann", "bob", 2000, 0), played(1, 2, "cat", "dan", 1500, 1000),
                   Game(1, 3, (Seat("eve", Outcome.WIN),), GameKind.BYE)))
    event = make_event(players, [r1])
    order = standings_ids(event)
    assert order[-1] == "bob"
    proposal = pair(event, pairing_input(compute_standings(event)), 2)
    assert kind_of(proposal, GameKind.BYE) == ["bob"]
    r2 = play_out(proposal, random.Random(0))
    event2 = make_event(players, [r1, r2])
    third = pair(event2, pairing_input(compute_standings(event2)), 3)
    bye = kind_of(third, GameKind.BYE)
    assert bye and bye[0] not in ("eve", "bob")  # nobody gets a second bye


def test_even_field_the_spare_sits_out() -> None:
    players = named("Ann", "Bob", "Cat", "Dan", "Sam", spare="Sam")
    event = make_event(players)
    proposal = pair(event, pairing_input(compute_standings(event)), 1)
    assert kind_of(proposal, GameKind.ABSENT) == ["sam"]
    assert len(tables(proposal)) == 2 and not kind_of(proposal, GameKind.BYE)


def test_round_one_is_a_seeded_random_draw() -> None:
    players = five_and_spare()
    draws = set()
    for seed in range(20):
        event = make_event(players, seed=seed)
        first = pair(event, pairing_input(compute_standings(event)), 1)
        again = pair(event, pairing_input(compute_standings(event)), 1)
        assert tables(first) == tables(again)
        assert sorted(p for t in tables(first) for p in t) == sorted(p.id for p in players)
        draws.add(tuple(tables(first)))
    assert len(draws) > 5


# ----- properties --------------------------------------------------------------------------


@st.composite
def fields(draw: st.DrawFn) -> tuple[int, frozenset[tuple[int, int]], int]:
    n = draw(st.sampled_from([2, 4, 6, 8, 10]))
    pairs = list(combinations(range(n), 2))
    density = draw(st.sampled_from([0.0, 0.15, 0.3, 0.5, 0.8]))
    rnd = random.Random(draw(st.integers(0, 2**32)))
    met = frozenset(p for p in pairs if rnd.random() < density)
    protected = draw(st.integers(0, n // 2))
    return n, met, protected


@settings(deadline=None, max_examples=300)
@given(fields())
def test_swaps_never_make_a_rematch_a_rematch_free_pairing_avoids(
    case: tuple[int, frozenset[tuple[int, int]], int]
) -> None:
    n, met, protected = case

    def forbidden(i: int, j: int) -> bool:
        return (i, j) in met

    result = adjacent.pair(n, forbidden, protected)
    assert sorted(p for pr in result.pairs for p in pr) == list(range(n))
    assert all((2 * t, 2 * t + 1) in result.pairs for t in range(protected))
    # the unprotected part: positions 2*protected .. n-1, brute-forced
    base = 2 * protected
    m = n - base
    fewest = best_key(m, lambda i, j: 0, lambda i, j: forbidden(i + base, j + base))[0]
    unprotected = [p for p in result.pairs if p[0] >= base]
    made = sum(1 for p in unprotected if p in met)
    assert made == result.rematches == fewest
    seats, stuck = adjacent.swap_seating(n, forbidden, protected)
    if stuck is None:  # the written procedure succeeded: its tables, unchanged
        swapped = tuple(sorted((min(seats[s], seats[s + 1]), max(seats[s], seats[s + 1]))
                               for s in range(0, n, 2)))
        assert result.pairs == swapped


@settings(deadline=None, max_examples=25)
@given(st.integers(3, 9), st.booleans(), st.integers(0, 1000))
def test_simulated_events_spare_rules(n: int, with_spare: bool, seed: int) -> None:
    """Every round: each player once; the spare never gets a bye, is never ranked, and
    meets the lowest-ranked player who has not played them."""
    names = [f"P{k}" for k in range(n)]
    players = named(*names, spare="P0" if with_spare else "")
    spare = "p0" if with_spare else None
    rnd = random.Random(seed)
    rounds: list[Round] = []
    for number in range(1, 5):
        event = make_event(players, rounds, seed=seed, planned=4)
        standings = compute_standings(event)
        proposal = pair(event, pairing_input(standings), number)
        seated = [p for g in proposal.round.games for p in g.players]
        assert sorted(seated) == sorted(p.id for p in players)
        assert spare not in kind_of(proposal, GameKind.BYE)
        ranked = [r.player.id for r in standings.rows]
        assert spare not in ranked
        field = n - (1 if with_spare else 0)
        if spare is not None and field % 2 and number > 1:
            met = have_met(standings.records)
            opponent = next(t for t in tables(proposal) if spare in t)[0]
            field_players = [p for p in players if not p.spare]
            state = pairing_input(standings)
            order = [p.id for p in standings_order(state, field_players, number, event)]
            fresh = [p for p in order if frozenset((p, spare)) not in met]
            assert opponent == (fresh[-1] if fresh else order[-1])
        rounds.append(play_out(proposal, rnd))
