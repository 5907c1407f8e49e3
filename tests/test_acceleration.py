"""Accelerated Swiss pairings, FIDE C.04.5.1 (Baku acceleration; issue #17 item 2).

The rule's own numbers (161 players: GA of 82; nine rounds: 1 virtual point in rounds
1-3, ½ in rounds 4-5), its late-entry rule, the Dutch engine pairing with pairing scores
(round 1: GA and GB each paired as its own score group), the round page's note, and the
TRF ``XXA`` records both ways.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from standgen.model import Event, EventsTree, Player, SiteConfig
from standgen.pairing import acceleration
from standgen.pipeline import pair_round, reports
from standgen.site.renderer import render_site
from standgen.standings import compute_standings
from standgen.trf import event_files, export_event, parse_trf
from tests.build import make_event
from tests.dutch_trf import pair_from_trf
from tests.test_swiss_pairing import play


def accelerated_event(players: int, rounds: int, played: int, seed: int = 5,
                      options: dict[str, object] | None = None) -> Event:
    """Return a Swiss event with Baku acceleration, ``played`` rounds paired by standgen
    (the Dutch engine) and results drawn by lot."""
    people = [Player(id=f"p{k:02d}", name=f"Player {k:02d}", rating=2400.0 - 10 * k)
              for k in range(players)]
    event = make_event(people, [], fmt="swiss", rounds=rounds, seed=seed)
    event = replace(event, config=replace(
        event.config, options={"acceleration": "baku", **(options or {})}))
    rnd = random.Random(seed)
    for number in range(1, played + 1):
        proposal = pair_round(event, compute_standings(event), number)
        event = replace(event, rounds=(*event.rounds, play(number, proposal.round.games, rnd)))
    return event


def test_the_rules_own_numbers() -> None:
    """C.04.5.1: "if there are 161 players ... is 82"; "in a nine-round tournament, the
    accelerated rounds are five ... one virtual point in the first three rounds, and
    half virtual point in the remaining two"."""
    assert acceleration.group_a_size(161) == 82
    assert [acceleration.group_a_size(n) for n in (16, 17, 18, 19, 20)] == [8, 10, 10, 10, 10]
    assert acceleration.accelerated_rounds(9) == (3, 5)
    assert [acceleration.virtual_points(True, r, 9) for r in range(1, 10)] == [
        1, 1, 1, 0.5, 0.5, 0, 0, 0, 0]
    assert [acceleration.virtual_points(False, r, 9) for r in range(1, 10)] == [0] * 9
    assert acceleration.accelerated_rounds(7) == (2, 4)
    assert acceleration.accelerations(True, 5, 7) == (1.0, 1.0, 0.5, 0.5, 0.0)


def test_a_late_entry_keeps_the_last_group_a_player() -> None:
    """C.04.5.1, late entries: "the last GA-player shall be the same as in the previous
    round"; GA may then hold an odd number of players."""
    numbers = {f"p{k}": k for k in range(1, 9)}
    first = list(numbers)
    assert acceleration.group_a(numbers, first) == {"p1", "p2", "p3", "p4"}
    later = {"p1": 1, "late": 2, **{f"p{k}": k + 1 for k in range(2, 9)}}
    assert acceleration.group_a(later, first) == {"p1", "late", "p2", "p3", "p4"}


def test_round_one_pairs_group_a_and_group_b_apart() -> None:
    """With 1 virtual point GA (pairing numbers 1-8 of 16) is a score group of its own:
    C.04.3 pairs it top half against bottom half (1-5, 2-6, 3-7, 4-8), and GB likewise
    (9-13 ...), where without acceleration 1 meets 9."""
    event = accelerated_event(16, 9, 0)
    games = pair_round(event, compute_standings(event), 1).round.games
    number = {f"p{k:02d}": k + 1 for k in range(16)}
    pairs = {frozenset(number[p] for p in g.players) for g in games}
    assert pairs == {frozenset(p) for p in ((1, 5), (2, 6), (3, 7), (4, 8), (9, 13),
                                            (10, 14), (11, 15), (12, 16))}
    plain = replace(event, config=replace(event.config, options={}))
    games = pair_round(plain, compute_standings(plain), 1).round.games
    assert frozenset((1, 9)) in {frozenset(number[p] for p in g.players) for g in games}


def test_virtual_points_end_after_the_accelerated_rounds() -> None:
    """After the last accelerated round the pairing score is the score: the engine's
    state of round 6 (nine rounds) holds no virtual point, round 4's holds ½ for GA."""
    from standgen.pairing.dutch_swiss import pairing_state as state_of
    from standgen.standings import pairing_input

    event = accelerated_event(12, 9, 5)
    later = state_of(event, pairing_input(compute_standings(event)), 6)
    assert all(not e.accelerations or e.accelerations[5] == 0 for e in later.entrants)
    fourth = state_of(event, pairing_input(compute_standings(event)), 4)
    values = sorted({e.accelerations[3] for e in fourth.entrants})
    assert values == [0.0, 0.5]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_trf_carries_the_acceleration_both_ways(seed: int) -> None:
    """Export writes an ``XXA`` line per GA player (JaVaFo's and bbpPairings' record);
    the file imports back as ``acceleration = "baku"`` and pairs the next round alike
    (:mod:`tests.dutch_trf`)."""
    event = accelerated_event(14, 7, 3, seed=seed)
    text = export_event(event)
    xxa = [line for line in text.splitlines() if line.startswith("XXA")]
    assert len(xxa) == acceleration.group_a_size(14) == 8
    assert xxa[0].split() == ["XXA", "1", "1.0", "1.0", "0.5", "0.5"]
    tournament = parse_trf(text, "acc.trf")
    files, warnings = event_files(tournament, "acc.trf", "acc")
    assert 'acceleration = "baku"' in files["event.toml"]
    assert not any("XXA" in w.message for w in warnings)
    made = pair_from_trf(text, 4)
    ours = pair_round(event, compute_standings(event), 4).round
    number = {f"p{k:02d}": k + 1 for k in range(14)}
    assert {frozenset(p) for p in made.pairs} == {
        frozenset(number[p] for p in g.players) for g in ours.games if len(g.seats) == 2}


def test_virtual_points_other_than_baku_are_named() -> None:
    event = accelerated_event(8, 5, 1)
    text = export_event(event).replace("XXA    1  1.0", "XXA    1  2.0")
    _, warnings = event_files(parse_trf(text, "odd.trf"), "odd.trf", "odd")
    assert any("not the Baku acceleration" in w.message for w in warnings)


def test_the_round_page_shows_the_virtual_points() -> None:
    from standgen.build import DOCS, TEMPLATES

    event = accelerated_event(16, 9, 4)
    tree = EventsTree("events", (event,), (), site=SiteConfig())
    site = render_site(tree, reports(tree), DOCS, TEMPLATES)
    first = site["test/round-1/index.html"].decode()
    assert ("Accelerated round (FIDE C.04.5.1, Baku acceleration): the 8 players of group "
            "A (pairing numbers 1 to 8) were paired with 1 virtual point") in first
    fourth = site["test/round-4/index.html"].decode()
    assert "paired with ½ virtual point" in fourth
    fifth = site["test/round-5/index.html"].decode()
    assert "½ virtual point" in fifth
    plain = replace(event, config=replace(event.config, options={}))
    tree = EventsTree("events", (plain,), (), site=SiteConfig())
    site = render_site(tree, reports(tree), DOCS, TEMPLATES)
    assert "Accelerated round" not in site["test/round-1/index.html"].decode()
