"""The swiss format's Dutch pairing on events: an event and its TRF export, imported
back, pair alike, forfeits are not 'met', the option and the fallback."""

from __future__ import annotations

import random

import pytest

from standgen.formats.swiss import SWISS, validate_event
from standgen.model import Event, Game, GameKind, Outcome, Round, Seat
from standgen.pairing import dutch_swiss
from standgen.pairing.dutch import pair_dutch
from standgen.pairing.swiss import start_ranks
from standgen.standings import compute_standings, pairing_input
from standgen.trf import export_event
from tests.build import make_event
from tests.dutch_trf import pair_from_trf, state_from_trf
from tests.test_swiss_pairing import field_players, play, with_rounds


def simulate(seed: int, n: int, rounds: int, **options: object) -> Event:
    """Play a random event (some forfeits) paired by the swiss format's default."""
    rnd = random.Random(seed)
    event = make_event(field_players(n, rnd), [], fmt=SWISS.id, seed=seed, rounds=rounds,
                       options=dict(options))
    played: list[Round] = []
    for number in range(1, rounds + 1):
        event = with_rounds(event, played)
        proposal = SWISS.pair(event, pairing_input(compute_standings(event)), number)
        played.append(play(number, proposal.round.games, rnd))
    return with_rounds(event, played)


def pairs_of(games: tuple[Game, ...], numbers: dict[str, int]) -> tuple[set[tuple[int, int]],
                                                                          int | None]:
    pairs = {(numbers[g.seats[0].player], numbers[g.seats[1].player])
             for g in games if len(g.seats) == 2}
    byes = [numbers[g.seats[0].player] for g in games if g.kind is GameKind.BYE]
    return pairs, (byes[0] if byes else None)


@pytest.mark.parametrize("seed, n, rounds", [(1, 9, 5), (2, 12, 6), (3, 15, 7), (4, 7, 6)])
def test_event_and_its_trf_export_give_the_same_dutch_pairing(seed: int, n: int,
                                                              rounds: int) -> None:
    """Each round of a simulated event, proposed from the event's records, is the round
    the engine pairs from the event's TRF export cut to the rounds before it and
    imported back (:mod:`tests.dutch_trf`)."""
    event = simulate(seed, n, rounds)
    numbers = start_ranks(event)
    text = export_event(event)
    for rnd in event.rounds[1:]:
        from_trf = pair_from_trf(text, rnd.number)
        assert pairs_of(rnd.games, numbers) == (set(from_trf.pairs), from_trf.bye), rnd.number


def test_every_round_pairs_everyone_once_without_replaying_a_played_game() -> None:
    event = simulate(7, 11, 6)
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    for rnd in event.rounds:
        seen = [p for g in rnd.games for p in g.players]
        assert sorted(seen) == sorted(p.id for p in event.players)
        for game in rnd.games:
            if game.kind is GameKind.BYE:
                byes.append(game.players[0])
            elif game.kind is GameKind.PLAYED:
                assert frozenset(game.players) not in met
                met.add(frozenset(game.players))
    assert len(byes) == len(set(byes)) == 6


def two_player_event(kind: GameKind) -> Event:
    outcomes = (Outcome.WIN, Outcome.LOSS)
    game = Game(1, 1, (Seat("p0", outcomes[0]), Seat("p1", outcomes[1])), kind)
    event = make_event(field_players(2, random.Random(0)), [], fmt=SWISS.id, rounds=2)
    return with_rounds(event, [Round(1, (game,))])


def test_a_forfeited_pair_may_meet_again_a_played_one_falls_back() -> None:
    """C.04.3 C.1 (and C.04.1 b): only games played over the board are 'met'."""
    event = two_player_event(GameKind.FORFEIT)
    proposal = SWISS.pair(event, pairing_input(compute_standings(event)), 2)
    assert sorted(proposal.round.games[0].players) == ["p0", "p1"]
    assert not any("absolute criteria" in note for note in proposal.notes)
    event = two_player_event(GameKind.PLAYED)
    proposal = SWISS.pair(event, pairing_input(compute_standings(event)), 2)
    assert any("absolute criteria" in note for note in proposal.notes)


def test_the_engine_option_is_validated_and_standgen_keeps_the_old_engine() -> None:
    bad = simulate(5, 5, 1, pairing_engine="bbp")
    assert any("pairing_engine" in p.message for p in validate_event(bad, "event.toml"))
    good = simulate(5, 5, 1, pairing_engine=dutch_swiss.STANDGEN)
    assert not validate_event(good, "event.toml")
    proposal = SWISS.pair(with_rounds(good, []),
                          pairing_input(compute_standings(with_rounds(good, []))), 1)
    assert not any("Dutch" in note for note in proposal.notes)


def test_absences_a_withdrawal_and_a_half_point_bye_pair_legally() -> None:
    """A player withdrawn after round 1, two absent in round 2 (a half-point and a
    zero-point bye: not paired, not played, C.04.1): round 3 pairs the active players
    once each, replays no game played, and gives the bye to an eligible player; the TRF
    export of the event gives the engine the same state."""
    rnd = random.Random(11)
    event = make_event(field_players(8, rnd), [], fmt=SWISS.id, seed=11, rounds=4)
    state = pairing_input(compute_standings(event))
    round_1 = play(1, SWISS.pair(event, state, 1).round.games, rnd)
    players = tuple(p if p.id != "p7" else type(p)(**{**p.__dict__, "dropped_after": 1})
                    for p in event.players)
    event = Event(path=event.path, config=event.config, players=players, rounds=(round_1,))
    proposed = SWISS.pair(event, pairing_input(compute_standings(event)), 2).round.games
    first = next(g for g in proposed if len(g.seats) == 2)
    a, b = first.players
    absent = (Game(2, 90, (Seat(a, Outcome.DRAW),), GameKind.ABSENT),
              Game(2, 91, (Seat(b, Outcome.LOSS),), GameKind.ABSENT))
    round_2 = play(2, tuple(g for g in proposed if g is not first), rnd)
    round_2 = Round(2, round_2.games + absent)
    event = with_rounds(event, [round_1, round_2])
    games = SWISS.pair(event, pairing_input(compute_standings(event)), 3).round.games
    active = sorted(p.id for p in players if p.id != "p7")
    assert sorted(p for g in games for p in g.players) == active
    played = {frozenset(g.players) for r in event.rounds for g in r.games
              if g.kind is GameKind.PLAYED}
    assert not any(frozenset(g.players) in played for g in games if len(g.seats) == 2)
    byes = [g.players[0] for g in games if g.kind is GameKind.BYE]
    earlier = {g.players[0] for r in event.rounds for g in r.games if g.kind is GameKind.BYE}
    assert len(byes) == 1 and byes[0] not in earlier
    numbers = start_ranks(event)
    state = state_from_trf(export_event(event), 3)
    state = type(state)(tuple(type(e)(e.number, e.history, e.number != numbers["p7"])
                              for e in state.entrants), 4, state.initial_colour)
    from_trf = pair_dutch(state)
    assert pairs_of(games, numbers) == (set(from_trf.pairs), from_trf.bye)


def test_the_dutch_system_pairs_unless_the_standgen_engine_is_asked() -> None:
    """The Dutch engine pairs every field (no size limit since its fast path); the
    earlier engine only when ``pairing_engine = "standgen"`` is written."""
    default = simulate(8, 7, 1)
    notes = SWISS.pair(with_rounds(default, []), pairing_input(compute_standings(default)), 1).notes
    assert any("Dutch system" in note for note in notes)
    asked = simulate(8, 7, 1, pairing_engine=dutch_swiss.STANDGEN)
    notes = SWISS.pair(with_rounds(asked, []), pairing_input(compute_standings(asked)), 1).notes
    assert not any("Dutch system" in note for note in notes)