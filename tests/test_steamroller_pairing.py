"""Steamroller pairing (seed 004) through the real rule, on model objects.

Events are built directly from :mod:`standgen.model`; results of simulated rounds are
drawn at random. Small fields are checked against the brute force of
``tests/pairing_brute.py`` wherever the rule has to fall back on "the fewest possible".
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from hypothesis import given, settings
from hypothesis import strategies as st

from standgen.formats.base import Proposal
from standgen.formats.steamroller import drawn_bye, pair, pile_order, validate_event
from standgen.model import Event, EventConfig, Game, GameKind, Outcome, Player, Round, Seat
from standgen.pairing.common import standings_order
from standgen.records import have_met
from standgen.standings import Standings, compute_standings, pairing_input
from tests.pairing_brute import best_key

# ----- building events ------------------------------------------------------------------


def make_event(
    players: Sequence[Player], rounds: Sequence[Round] = (), seed: int = 0,
    planned: int | None = None, **options: object,
) -> Event:
    config = EventConfig(name="Test", date=dt.date(2026, 3, 1), format="steamroller",
                         seed=seed, rounds=planned, options={"clear_winner": False, **options})
    return Event(path=("test",), config=config, players=tuple(players), rounds=tuple(rounds))


def people(factions: str, drops: Sequence[int | None] = ()) -> list[Player]:
    """Players ``p0, p1 ...``, one per character of ``factions``."""
    drops = list(drops) + [None] * (len(factions) - len(drops))
    return [Player(id=f"p{k}", name=f"Player {k}", faction=f, dropped_after=d)
            for k, (f, d) in enumerate(zip(factions, drops, strict=True))]


def played(number: int, table: int, winner: str, loser: str, cp: int = 0) -> Game:
    return Game(number, table, (Seat(winner, Outcome.WIN, {"cp": float(cp), "apd": 0.0}),
                                Seat(loser, Outcome.LOSS, {"cp": 0.0, "apd": 0.0})))


def bye(number: int, table: int, player: str) -> Game:
    return Game(number, table, (Seat(player, Outcome.WIN),), GameKind.BYE)


def play_out(proposal: Proposal, rnd: random.Random) -> Round:
    """Return the proposed round with a random result at every table."""
    games = []
    for game in proposal.round.games:
        if game.kind is GameKind.BYE:
            games.append(bye(game.round, game.table, game.seats[0].player))
            continue
        a, b = game.players
        if rnd.random() < 0.5:
            a, b = b, a
        games.append(played(game.round, game.table, a, b, cp=rnd.randint(0, 5)))
    return Round(proposal.round.number, tuple(games))


# ----- reading a proposal ---------------------------------------------------------------


@dataclass(frozen=True)
class Paired:
    pairs: list[frozenset[str]]
    byes: list[str]

    @property
    def everyone(self) -> list[str]:
        return [p for pair_ in self.pairs for p in pair_] + self.byes


def read(proposal: Proposal) -> Paired:
    pairs: list[frozenset[str]] = []
    byes: list[str] = []
    for game in proposal.round.games:
        assert game.round == proposal.round.number
        assert all(seat.outcome is None for seat in game.seats)
        if game.kind is GameKind.BYE:
            assert len(game.seats) == 1
            byes.append(game.seats[0].player)
        else:
            assert game.kind is GameKind.PLAYED and len(game.seats) == 2
            pairs.append(frozenset(game.players))
            assert len(pairs[-1]) == 2
    return Paired(pairs, byes)


def active(event: Event, number: int) -> list[str]:
    return [p.id for p in event.players if p.active_in(number)]


def previous_byes(standings: Standings) -> set[str]:
    return {pid for pid, rec in standings.records.items() if rec.byes}


# ----- round 1 -------------------------------------------------------------------------


def test_round_one_pairs_different_factions_for_every_seed() -> None:
    players = people("AABB")
    for seed in range(60):
        event = make_event(players, seed=seed)
        got = read(pair(event, pairing_input(compute_standings(event)), 1))
        factions = {p.id: p.faction for p in players}
        assert len(got.pairs) == 2 and not got.byes
        for table in got.pairs:
            assert len({factions[p] for p in table}) == 2, (seed, got.pairs)


def test_round_one_same_faction_only_when_unavoidable() -> None:
    # Four of faction A and two of B: exactly two mixed tables and one A-A table.
    players = people("AAAABB")
    factions = {p.id: p.faction for p in players}
    for seed in range(40):
        event = make_event(players, seed=seed)
        got = read(pair(event, pairing_input(compute_standings(event)), 1))
        same = sum(1 for t in got.pairs if len({factions[p] for p in t}) == 1)
        assert same == 1, (seed, got.pairs)


def test_round_one_odd_field_one_bye_and_mixed_tables() -> None:
    # A, A, B, B, C: a bye to anyone but C would still allow mixed tables; whatever the
    # random bye, both tables are mixed.
    players = people("AABBC")
    factions = {p.id: p.faction for p in players}
    byes = set()
    for seed in range(60):
        event = make_event(players, seed=seed)
        got = read(pair(event, pairing_input(compute_standings(event)), 1))
        assert len(got.byes) == 1 and len(got.pairs) == 2
        assert sorted(got.everyone) == sorted(p.id for p in players)
        for table in got.pairs:
            assert len({factions[p] for p in table}) == 2, (seed, got.pairs)
        byes.add(got.byes[0])
    assert len(byes) >= 3  # the bye is drawn at random, not always the same player


# ----- later rounds --------------------------------------------------------------------


def test_pairs_within_the_tp_pile() -> None:
    # Round 1: p0 beat p1, p2 beat p3. Round 2: 1-TP players p0, p2 play each other; the
    # 0-TP players p1, p3 play each other; for every seed.
    players = people("ABCD")
    for seed in range(40):
        r1 = Round(1, (played(1, 1, "p0", "p1"), played(1, 2, "p2", "p3")))
        event = make_event(players, [r1], seed=seed)
        got = read(pair(event, pairing_input(compute_standings(event)), 2))
        assert set(got.pairs) == {frozenset({"p0", "p2"}), frozenset({"p1", "p3"})}


def test_pile_floats_down_only_when_the_pile_is_exhausted() -> None:
    # After two rounds: p0 2 TP; p1, p2, p3, p4 1 TP; p5 0 TP.
    # Met: 0-1, 2-3, 4-5, 0-2, 1-4, 3-5.
    r1 = Round(1, (played(1, 1, "p0", "p1"), played(1, 2, "p2", "p3"),
                   played(1, 3, "p4", "p5")))
    r2 = Round(2, (played(2, 1, "p0", "p2"), played(2, 2, "p1", "p4"),
                   played(2, 3, "p3", "p5")))
    players = people("ABCDEF")
    for seed in range(30):
        event = make_event(players, [r1, r2], seed=seed, planned=4)
        standings = compute_standings(event)
        scores = standings.context.scores
        assert [scores[f"p{k}"] for k in range(6)] == [2, 1, 1, 1, 1, 0]
        got = read(pair(event, pairing_input(standings), 3))
        met = have_met(standings.records)
        assert not any(t in met for t in got.pairs)
        # p0 (alone on 2 TP) plays a 1-TP player he has not met: p3 or p4.
        opponent = next(iter(next(t for t in got.pairs if "p0" in t) - {"p0"}))
        assert opponent in {"p3", "p4"}
        # Three 1-TP players are left: exactly one floats down to p5, who is not paired
        # with p0 across two piles.
        opponent5 = next(iter(next(t for t in got.pairs if "p5" in t) - {"p5"}))
        assert scores[opponent5] == 1


def test_dead_end_is_repaired_without_rematch() -> None:
    # 1 met 2 and 3 met 4 and 2 met 4: the procedure pairs 1-3 and dead-ends at 2-4.
    # Round 1: p0 beat p1, p2 beat p3; round 2: p0 beat p2, p1 beat p3.
    # TP: p0 2, p1 1, p2 1, p3 0. Met: 0-1, 2-3, 0-2, 1-3. Only 0-3, 1-2 is fresh.
    r1 = Round(1, (played(1, 1, "p0", "p1"), played(1, 2, "p2", "p3")))
    r2 = Round(2, (played(2, 1, "p0", "p2"), played(2, 2, "p1", "p3")))
    for seed in range(20):
        event = make_event(people("ABCD"), [r1, r2], seed=seed, planned=3)
        proposal = pair(event, pairing_input(compute_standings(event)), 3)
        got = read(proposal)
        assert set(got.pairs) == {frozenset({"p0", "p3"}), frozenset({"p1", "p2"})}
        # Round 3 is the final round: p0 met both 1-TP players, so the round says why #1
        # does not play #2 (p1 met in round 1, p2 in round 2, whichever ranks second).
        standings = compute_standings(event)
        second = standings_order(pairing_input(standings), list(event.players), 3, event)[1].id
        met_in = {"p1": 1, "p2": 2}[second]
        assert (f"Final round: Player 0 and Player {second[1]}, first and second in the "
                f"standings, met in round {met_in}; seed 004 pairs the top two, but not as "
                "a rematch, so the TP piles pair them as usual.") in proposal.notes


def _after_a_round_one_bye(seed: int) -> tuple[Event, Paired, Proposal]:
    # Round 1: p4 had the bye; p0 beat p1, p2 beat p3. TP: p0, p2, p4 1; p1, p3 0.
    r1 = Round(1, (played(1, 1, "p0", "p1"), played(1, 2, "p2", "p3"), bye(1, 3, "p4")))
    event = make_event(people("ABCDE"), [r1], seed=seed)
    proposal = pair(event, pairing_input(compute_standings(event)), 2)
    return event, read(proposal), proposal


def test_odd_field_no_second_bye_and_one_bye_only() -> None:
    for seed in range(40):
        _, got, _ = _after_a_round_one_bye(seed)
        assert len(got.byes) == 1 and len(got.pairs) == 2
        assert got.byes != ["p4"], seed
        assert sorted(got.everyone) == [f"p{k}" for k in range(5)]


def test_odd_field_bye_to_lowest_tp_when_the_procedure_completes() -> None:
    seen = set()
    for seed in range(40):
        _, got, proposal = _after_a_round_one_bye(seed)
        if any("dead-ended" in note for note in proposal.notes):
            continue
        assert got.byes[0] in {"p1", "p3"}, (seed, got)
        seen.add(got.byes[0])
    assert seen == {"p1", "p3"}  # drawn at random among the lowest


def test_odd_field_bye_to_lowest_tp_after_a_dead_end() -> None:
    # Seed 4: order p0, p4, p2 (1 TP), p1, p3 (0 TP); the drawn bye p1 leaves p2-p3, who
    # met. Giving the bye to p3 instead (p0-p4, p2-p1) avoids every rematch, so the
    # seed-004 rule ("the bye from the players with the lowest tournament point totals")
    # can be kept, and is: a bye above the lowest pile costs more than any pairing.
    _, got, proposal = _after_a_round_one_bye(4)
    assert any("dead-ended" in note for note in proposal.notes)
    assert got.byes[0] in {"p1", "p3"}, got


def test_bye_goes_to_the_only_player_without_one() -> None:
    # p0 and p1 have had byes; p2 has none and the most TP: eligibility comes before TP.
    r1 = Round(1, (played(1, 1, "p2", "p1"), bye(1, 2, "p0")))
    r2 = Round(2, (played(2, 1, "p2", "p0"), bye(2, 2, "p1")))
    for seed in range(20):
        event = make_event(people("ABC"), [r1, r2], seed=seed, planned=4)
        got = read(pair(event, pairing_input(compute_standings(event)), 3))
        assert got.byes == ["p2"]
        assert got.pairs == [frozenset({"p0", "p1"})]


def test_final_round_pairs_the_top_two() -> None:
    # Planned 3 rounds, 6 players. After two rounds p0 and p1 are 2-0 and have not met.
    r1 = Round(1, (played(1, 1, "p0", "p2", cp=5), played(1, 2, "p1", "p3", cp=4),
                   played(1, 3, "p4", "p5")))
    r2 = Round(2, (played(2, 1, "p0", "p4", cp=5), played(2, 2, "p1", "p5", cp=4),
                   played(2, 3, "p2", "p3")))
    for seed in range(20):
        event = make_event(people("ABCDEF"), [r1, r2], seed=seed, planned=3)
        standings = compute_standings(event)
        assert [row.player.id for row in standings.rows[:2]] == ["p0", "p1"]
        proposal = pair(event, pairing_input(standings), 3)
        assert frozenset({"p0", "p1"}) in read(proposal).pairs


def test_same_seed_same_pairing() -> None:
    rnd = random.Random(7)
    players = people("AABBCCD")
    rounds: list[Round] = []
    for number in (1, 2, 3):
        first = make_event(players, rounds, seed=11)
        again = make_event(list(players), list(rounds), seed=11)  # equal, not the same
        proposal = pair(first, pairing_input(compute_standings(first)), number)
        assert pair(again, pairing_input(compute_standings(again)), number) == proposal
        rounds.append(play_out(proposal, rnd))


def test_seed_changes_the_first_round() -> None:
    players = people("ABCDEFGH")
    pairings = set()
    for seed in range(10):
        event = make_event(players, seed=seed)
        pairings.add(frozenset(read(pair(event, pairing_input(compute_standings(event)), 1)).pairs))
    assert len(pairings) > 1


# ----- simulated events ----------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    factions: str
    drops: tuple[int | None, ...]
    rounds: int
    seed: int
    results: int
    options: tuple[tuple[str, object], ...] = ()


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    n = draw(st.integers(4, 12))
    rounds = draw(st.integers(3, 5))
    factions = "".join(draw(st.lists(st.sampled_from("ABCD"), min_size=n, max_size=n)))
    drops: list[int | None] = [None] * n
    # Up to half the field drops after some round; the event keeps at least 2 players.
    for k in draw(st.lists(st.integers(0, n - 1), max_size=n // 2, unique=True)):
        drops[k] = draw(st.integers(1, rounds - 1))
    options = (("pile_order", draw(st.sampled_from(("standings", "random")))),
               ("avoid_same_faction", draw(st.booleans())),
               ("avoid_repeat_faction", draw(st.booleans())))
    return Scenario(factions, tuple(drops), rounds, draw(st.integers(0, 10**6)),
                    draw(st.integers(0, 10**6)), options)


def _check_round(event: Event, standings: Standings, number: int, proposal: Proposal) -> None:
    ids = active(event, number)
    got = read(proposal)
    n = len(ids)
    # Every active player exactly once; no dropped player.
    assert sorted(got.everyone) == sorted(ids)
    assert len(got.byes) == n % 2

    order = pile_order(state=pairing_input(standings), event=event, round_number=number,
                       players=[p for p in event.players if p.id in ids])
    pos = {p.id: k for k, p in enumerate(order)}
    met = have_met(standings.records)
    had_bye = previous_byes(standings)
    scores = standings.context.scores

    if number == 1:
        faction = {p.id: p.faction for p in order}

        def forbidden(i: int, j: int) -> bool:
            return faction[order[i].id] == faction[order[j].id]
    else:
        def forbidden(i: int, j: int) -> bool:
            return frozenset((order[i].id, order[j].id)) in met

    bad_pairs = sum(1 for a, b in map(sorted, got.pairs) if forbidden(pos[a], pos[b]))
    repeat = sum(1 for b in got.byes if b in had_bye)

    def zero(i: int, j: int) -> int:
        return 0

    def bye_cost(k: int) -> int | None:
        return None if order[k].id in had_bye else 0

    drawn = drawn_bye(event, pairing_input(standings), number)
    assert (drawn is None) == (n % 2 == 0)
    if drawn is not None:
        # The drawn bye is published unless every pairing with it has more rematches
        # (round 1: same-faction tables are legal, so the drawn bye always stays).
        with_drawn = fewest_without(n, forbidden, {pos[drawn]})
        drawn_repeat = int(drawn in had_bye)
        if got.byes != [drawn]:
            assert number > 1, (number, got.byes, drawn)
            assert (bad_pairs, repeat) < (with_drawn, drawn_repeat), (number, got, drawn)
        else:
            assert bad_pairs == with_drawn, (number, got, with_drawn)

    if (bad_pairs or repeat) and (number > 1 or drawn is None):
        # Rematches (round 1: same-faction tables) and second byes only when no pairing
        # has fewer, rematches first.
        fewest = best_key(n, zero, forbidden, bye_cost)
        assert (bad_pairs, repeat) == fewest[:2], (number, got, fewest)

    dead_end = any("dead-ended" in note for note in proposal.notes)
    if number > 1 and got.byes and not repeat:
        # The bye goes to a lowest-TP player without a bye, unless every such bye forces
        # a rematch that another bye avoids (also after a dead end).
        eligible = [p.id for p in order if p.id not in had_bye]
        lowest = min(scores[p] for p in eligible)
        if scores[got.byes[0]] != lowest:
            def lowest_bye(k: int) -> int | None:
                pid = order[k].id
                return 0 if pid not in had_bye and scores[pid] == lowest else None

            best = best_key(n, zero, forbidden, lowest_bye)
            assert best[:2] > (bad_pairs, 0), (number, got.byes, lowest, best)

    if number > 1 and not dead_end:
        # The written procedure: top sheet takes the first opponent he has not played,
        # so a player only floats down when nobody unmet is left in his pile.
        byes = set(got.byes)
        taken: set[str] = set()
        for table in sorted(got.pairs, key=lambda t: min(pos[p] for p in t)):
            top, other = sorted(table, key=pos.__getitem__)
            taken |= {top, other}
            if scores[other] < scores[top]:
                left = [p.id for p in order if p.id not in taken | byes
                        and scores[p.id] == scores[top]
                        and frozenset((top, p.id)) not in met]
                assert not left, (number, top, other, left)

    if number > 1 and event.config.options.get("avoid_same_faction"):
        # Same-faction tables only when the round says they could not be avoided.
        faction = {p.id: p.faction for p in order}
        same = [t for t in got.pairs if len({faction[p] for p in t}) == 1]
        if any(t not in met for t in same):
            assert any(x.startswith("Faction options:") for x in proposal.notes), same

    if number == standings.planned_rounds and n >= 2 and number > 1:
        # Final round: the top two play each other if they have not met, unless one of
        # them drew the bye or pairing them forces a rematch among the rest.
        a, b = order[0].id, order[1].id
        if frozenset((a, b)) not in met and drawn not in (a, b):
            away = {0, 1} | ({pos[drawn]} if drawn is not None else set())
            if fewest_without(n, forbidden, away) == 0:
                assert frozenset((a, b)) in got.pairs, (a, b, got.pairs)
                assert any("top two of the standings play" in x for x in proposal.notes)
        elif frozenset((a, b)) in met:
            assert any(x.startswith("Final round:") and " met in round " in x
                       for x in proposal.notes), proposal.notes


def fewest_without(n: int, forbidden: Callable[[int, int], bool], away: set[int]) -> int:
    """Return the fewest forbidden pairs over every pairing of positions not in ``away``."""
    rest = [k for k in range(n) if k not in away]
    if not rest:
        return 0

    def zero(i: int, j: int) -> int:
        return 0

    return best_key(len(rest), zero, lambda i, j: forbidden(rest[i], rest[j]))[0]


@settings(max_examples=300, deadline=None)
@given(scenarios())
def test_simulated_events(scenario: Scenario) -> None:
    players = people(scenario.factions, scenario.drops)
    rnd = random.Random(scenario.results)
    event = make_event(players, seed=scenario.seed, planned=scenario.rounds,
                       **dict(scenario.options))
    for number in range(1, scenario.rounds + 1):
        standings = compute_standings(event)
        proposal = pair(event, pairing_input(standings), number)
        _check_round(event, standings, number, proposal)
        # Determinism: the same event and seed give the same proposal.
        assert pair(event, pairing_input(compute_standings(event)), number) == proposal
        event = replace(event, rounds=(*event.rounds, play_out(proposal, rnd)))


# ----- the drawn bye is a hard constraint (issue #21) -----------------------------------


def test_published_bye_is_the_drawn_one_whenever_a_legal_pairing_keeps_it() -> None:
    # Seed 004: "the TO will randomly determine which player receives the bye". Odd
    # fields of three faction mixes, 200 seeds each, four rounds with random results:
    # the bye published is the drawn one whenever a pairing without a rematch keeps it
    # (round 1: always; same-faction games are legal), and the round says when it is not.
    kept = moved = 0
    for factions in ("AAABBBCCC", "AABBBCCCC", "AAAAABBBB"):
        players = people(factions)
        for seed in range(200):
            rnd = random.Random(seed)
            event = make_event(players, seed=seed, planned=4)
            for number in range(1, 5):
                standings = compute_standings(event)
                proposal = pair(event, pairing_input(standings), number)
                got = read(proposal)
                drawn = drawn_bye(event, pairing_input(standings), number)
                assert drawn is not None and len(got.byes) == 1
                state = pairing_input(standings)
                order = standings_order(state, list(event.players), number, event)
                pos = {p.id: k for k, p in enumerate(order)}
                met = have_met(standings.records)

                rematches = {(i, j) for i in range(len(order)) for j in range(len(order))
                             if number > 1 and frozenset((order[i].id, order[j].id)) in met}
                if fewest_without(len(order), lambda i, j, r=rematches: (i, j) in r,
                                  {pos[drawn]}) == 0:
                    assert got.byes == [drawn], (factions, seed, number, got.byes, drawn)
                    kept += 1
                elif got.byes != [drawn]:
                    name = order[pos[drawn]].name
                    assert any(f"The bye was drawn for {name}, but every pairing" in note
                               for note in proposal.notes), proposal.notes
                    moved += 1
                event = replace(event, rounds=(*event.rounds, play_out(proposal, rnd)))
    assert kept > 2000 and moved < kept // 100, (kept, moved)


def test_round_one_keeps_the_drawn_bye_at_the_cost_of_a_same_faction_game() -> None:
    # Five of faction A, four of B. A bye drawn from B leaves five A and three B: one A-A
    # table is unavoidable with that bye (a bye from A would avoid it, but the draw is
    # the seed's rule and same-faction games are legal).
    players = people("AAAAABBBB")
    factions = {p.id: p.faction for p in players}
    drawn_b = 0
    for seed in range(60):
        event = make_event(players, seed=seed)
        standings = compute_standings(event)
        proposal = pair(event, pairing_input(standings), 1)
        got = read(proposal)
        drawn = drawn_bye(event, pairing_input(standings), 1)
        assert got.byes == [drawn]
        same = sum(1 for t in got.pairs if len({factions[p] for p in t}) == 1)
        assert same == (1 if factions[drawn] == "B" else 0), (seed, got)
        if factions[drawn] == "B":
            drawn_b += 1
            assert any("could not be avoided with the drawn bye" in n for n in proposal.notes)
    assert drawn_b > 0


def test_drawn_bye_moves_only_when_every_pairing_with_it_has_a_rematch() -> None:
    # Five players, round 4 of 4. Byes so far: p0 (R1), p1 (R2), p4 (R3); TP: p3 3,
    # p0 2, p2 2, p1 1, p4 1. Without a bye: p2 and p3; the lowest of them, p2, is drawn.
    # p3 has met p1, p4 and p0, so with p2 on the bye p3 has only rematches left; p2 has
    # met p4, p0 and p1, so the bye to p3 leaves p2 the same. Only a second bye avoids a
    # rematch: p0 (p1-p4, p2-p3), p1 (p0-p4, p2-p3) or p4 (p0-p1, p2-p3).
    r1 = Round(1, (played(1, 1, "p2", "p4"), played(1, 2, "p3", "p1"), bye(1, 3, "p0")))
    r2 = Round(2, (played(2, 1, "p0", "p2"), played(2, 2, "p3", "p4"), bye(2, 3, "p1")))
    r3 = Round(3, (played(3, 1, "p3", "p0"), played(3, 2, "p2", "p1"), bye(3, 3, "p4")))
    for seed in range(10):
        event = make_event(people("ABCDE"), [r1, r2, r3], seed=seed, planned=4)
        standings = compute_standings(event)
        assert drawn_bye(event, pairing_input(standings), 4) == "p2"
        proposal = pair(event, pairing_input(standings), 4)
        got = read(proposal)
        assert got.byes[0] in {"p0", "p1", "p4"}, got
        assert frozenset({"p2", "p3"}) in got.pairs
        assert not any(t in have_met(standings.records) for t in got.pairs)
        assert any(n.startswith("The bye was drawn for Player 2, but every pairing")
                   and "a second bye" in n for n in proposal.notes), proposal.notes


# ----- TO options of seed 004 (issue #21) ----------------------------------------------


def scored(number: int, table: int, winner: str, loser: str, cp_win: int, cp_loss: int
           ) -> Game:
    return Game(number, table, (
        Seat(winner, Outcome.WIN, {"cp": float(cp_win), "apd": 0.0}),
        Seat(loser, Outcome.LOSS, {"cp": float(cp_loss), "apd": 0.0})))


# Round 1 of six: p0 beat p1, p2 beat p3, p4 beat p5. Control points order each TP pile:
# 1 TP p0 (5 CP), p2 (4), p4 (3); 0 TP p1 (2), p3 (1), p5 (0).
SIX_R1 = Round(1, (scored(1, 1, "p0", "p1", 5, 2), scored(1, 2, "p2", "p3", 4, 1),
                   scored(1, 3, "p4", "p5", 3, 0)))


def round_two(factions: str, seed: int = 0, **options: object) -> Proposal:
    event = make_event(people(factions), [SIX_R1], seed=seed, planned=4, **options)
    return pair(event, pairing_input(compute_standings(event)), 2)


def test_avoid_same_faction_inside_the_pile() -> None:
    # Factions p0 A, p1 C, p2 A, p3 D, p4 B, p5 E. The procedure: p0 takes p2 (A-A), p4
    # floats to p1, p3-p5. With avoid_same_faction p0 passes over p2 for p4 (B); p2,
    # last of the 1-TP pile, floats to p1 (C); p3-p5.
    plain = read(round_two("ACADBE"))
    assert set(plain.pairs) == {frozenset(t) for t in (("p0", "p2"), ("p4", "p1"),
                                                       ("p3", "p5"))}
    avoided = round_two("ACADBE", avoid_same_faction=True)
    assert set(read(avoided).pairs) == {frozenset(t) for t in (("p0", "p4"), ("p2", "p1"),
                                                               ("p3", "p5"))}
    assert not any("dead-ended" in n or "Faction options" in n for n in avoided.notes)


def test_avoid_same_faction_never_leaves_the_pile() -> None:
    # Seed 004: extra criteria "must come after matching players with the same number of
    # tournament points who have not already played one another". Four players, p0 and
    # p2 both faction A and alone on 1 TP: they still play, and the round says why.
    r1 = Round(1, (scored(1, 1, "p0", "p1", 5, 2), scored(1, 2, "p2", "p3", 4, 1)))
    event = make_event(people("ABAC"), [r1], planned=3, avoid_same_faction=True)
    proposal = pair(event, pairing_input(compute_standings(event)), 2)
    assert set(read(proposal).pairs) == {frozenset(("p0", "p2")), frozenset(("p1", "p3"))}
    assert any(n.startswith("Faction options: 1 table(s) could not avoid")
               for n in proposal.notes), proposal.notes


def test_avoid_repeat_faction() -> None:
    # Factions p0 A, p1 C, p2 B, p3 D, p4 E, p5 C. p4 met p5 (C) in round 1. The
    # procedure floats p4 to p1, a second C; with avoid_repeat_faction p4 takes p3 (D)
    # and p1-p5 play: same faction, but neither has met C before.
    plain = read(round_two("ACBDEC"))
    assert frozenset(("p4", "p1")) in plain.pairs
    fresh = round_two("ACBDEC", avoid_repeat_faction=True)
    assert set(read(fresh).pairs) == {frozenset(t) for t in (("p0", "p2"), ("p4", "p3"),
                                                             ("p1", "p5"))}


def test_both_faction_options_use_the_matching_when_the_procedure_cannot() -> None:
    # As above with both options: p0-p2, p4-p3 leaves p1-p5, a C-C table, so the
    # procedure dead-ends. Every pairing floats one 1-TP player; the fewest faction
    # conflicts (none) come with p0-p4 and p2 floating: p2-p1, p3-p5 (positions 0-2,
    # 1-3, 4-5: 5) or p2-p5, p1-p3 (7); the first is closer to the procedure.
    proposal = round_two("ACBDEC", avoid_same_faction=True, avoid_repeat_faction=True)
    assert set(read(proposal).pairs) == {frozenset(t) for t in (("p0", "p4"), ("p2", "p1"),
                                                                ("p3", "p5"))}
    assert any("dead-ended" in n for n in proposal.notes)
    assert not any("Faction options" in n for n in proposal.notes)


def test_pile_order_random_shuffles_inside_the_pile_only() -> None:
    # The 1-TP pile p0, p2, p4 is odd: its last sheet floats. In standings order that is
    # always p4 (least CP); with pile_order = "random" the seed decides, and the 0-TP
    # pile is still below the 1-TP pile.
    floats_standings: set[str] = set()
    floats_random: set[str] = set()
    for seed in range(30):
        for option, floats in (("standings", floats_standings), ("random", floats_random)):
            got = read(round_two("ABCDEF", seed=seed, pile_order=option))
            cross = [t for t in got.pairs if len(t & {"p0", "p2", "p4"}) == 1]
            assert len(cross) == 1
            floats.add(next(iter(cross[0] & {"p0", "p2", "p4"})))
        event = make_event(people("ABCDEF"), [SIX_R1], seed=seed, pile_order="random")
        standings = compute_standings(event)
        state = pairing_input(standings)
        order = [p.id for p in pile_order(event, state, list(event.players), 2)]
        assert set(order[:3]) == {"p0", "p2", "p4"} and set(order[3:]) == {"p1", "p3", "p5"}
        assert order == [p.id for p in pile_order(event, state, list(event.players), 2)]
    assert floats_standings == {"p4"}
    assert floats_random == {"p0", "p2", "p4"}


def test_pile_order_must_be_standings_or_random() -> None:
    event = make_event(people("AB"), pile_order="sorted")
    problems = validate_event(event, "event.toml")
    assert len(problems) == 1 and "'pile_order'" in problems[0].message
    assert validate_event(make_event(people("AB"), pile_order="random"), "event.toml") == []
