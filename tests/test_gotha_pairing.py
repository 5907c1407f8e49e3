"""OpenGotha's pairing model (issue #22): its documented examples, the name hash, the
fast cost against the criterion-by-criterion one, and the matching against brute force.

The examples come from OpenGotha's help pages (distribution/gothahelp/english in
github.com/lucvannier/opengotha): "Pairing evaluation function" (weights, concavity
example, seeding systems, draw-up/draw-down scenarios), "Pairing settings" (geography:
"prefer a score gap of 3 rather than the same club"), "Handicap settings".
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standgen.formats.mcmahon.pairing import gamers, settings_of
from standgen.model import GameKind, Player
from standgen.pairing import gotha
from standgen.pairing.common import players_for_round
from standgen.standings import compute_standings, pairing_input
from tests.pairing_brute import matchings
from tests.test_mcmahon_pairing import RANKS, make, pairs_of, play, propose, simulate


def person(pid: str, rank: str, rating: float | None = None, club: str = "",
           country: str = "", name: str = "") -> Player:
    return Player(id=pid, name=name or f"{pid} X", rank=rank, rating=rating, club=club,
                  country=country)


def pairs(event: Any) -> set[frozenset[str]]:
    return {frozenset(p) for p in pairs_of(propose(event))}


# --- Pairing.detRandom ------------------------------------------------------------------


def reference_hash(maximum: int, key1: str, key2: str) -> int:
    """Pairing.detRandom written out on the strings, as its help page describes it."""
    inverse = key1 > key2
    text = key2 + key1 if inverse else key1 + key2
    total = sum(ord(c) * (k + 1) for k, c in enumerate(text))
    value = (total * 1234567) % (maximum + 1)
    return maximum - value if inverse else value


def gamer(name: str) -> gotha.Gamer:
    first, rest = gotha.split_name(name)
    return gotha.Gamer(name, first, rest, 0, 0.0, "", "", 0, 0, ())


@given(st.text("abcXYZ éü", min_size=1, max_size=12), st.text("abcXYZ éü", min_size=1,
       max_size=12), st.sampled_from([1, 1_000_000, 10**9]))
def test_det_random_is_the_name_hash(a: str, b: str, maximum: int) -> None:
    """OpenGotha ``Pairing.detRandom``: the sum of char × position over the two names in
    alphabetical order, × 1234567, modulo max + 1; inverted when the players are swapped."""
    p, q = gamer(a), gamer(b)
    assert gotha.det_random(maximum, p, q) == reference_hash(maximum, p.key, q.key)
    assert 0 <= gotha.det_random(maximum, p, q) <= maximum
    if p.key != q.key:
        assert gotha.det_random(maximum, p, q) + gotha.det_random(maximum, q, p) == maximum


def test_det_random_known_value() -> None:
    """A value worked by hand: "ab" + "cd": 97·1 + 98·2 + 99·3 + 100·4 = 990;
    990 × 1234567 = 1222221330; mod 2 = 0 (White to the first), mod 1000001 = 220108."""
    p, q = gamer("a b"), gamer("c d")
    assert gotha.det_random(1, p, q) == 0
    assert gotha.det_random(1_000_000, p, q) == 1222221330 % 1000001 == 220108
    assert gotha.det_random(1_000_000, q, p) == 1_000_000 - 220108


# --- documented examples ----------------------------------------------------------------


def test_concavity_example_prefers_a_chain_of_short_floats() -> None:
    """"Pairing evaluation function", concavity: 1 player 1k, 2 players each 2k ... 10k,
    1 player 11k. OpenGotha pairs 1k-2k, 2k-3k, ... 10k-11k rather than everyone with a
    fellow of his rank and 1k against 11k."""
    ranks = ["1k"] + [f"{k}k" for k in range(2, 11) for _ in range(2)] + ["11k"]
    people = [person(f"p{k:02d}", r, rating=2000.0 - k) for k, r in enumerate(ranks)]
    got = pairs(make(people))
    rank = {p.id: int(p.rank[:-1]) for p in people}
    assert len(got) == 10
    assert all(abs(rank[a] - rank[b]) == 1 for a, b in map(tuple, got))


def test_geography_prefers_a_gap_of_up_to_3_to_a_club_mate() -> None:
    """"Pairing settings": with the default 3, a player meets another club's player up
    to 3 MMS away rather than a club mate on the same MMS; 4 away, the club mate."""
    for gap, split in ((2, True), (3, True), (5, False)):
        low = f"{10 + gap}k"
        people = [person("a", "10k", 2000, club="X", country="FR"),
                  person("b", "10k", 1999, club="X", country="FR"),
                  person("c", low, 1500, club="Y", country="FR"),
                  person("d", low, 1499, club="Y", country="FR")]
        got = pairs(make(people))
        assert (frozenset("ab") not in got) is split, gap


def test_seeding_systems_of_the_help_page() -> None:
    """"Pairing evaluation function", seeding: fold 1-n, 2-(n-1) ...; slip 1-(n/2+1) ...;
    random: each of the upper half with one of the lower half."""
    people = [person(f"p{k}", "5k", rating=2000.0 - k) for k in range(1, 9)]
    fold = pairs(make(people, seeding="fold"))
    assert fold == {frozenset((f"p{k}", f"p{9 - k}")) for k in range(1, 5)}
    slip = pairs(make(people, seeding="slip"))
    assert slip == {frozenset((f"p{k}", f"p{k + 4}")) for k in range(1, 5)}
    upper = {f"p{k}" for k in range(1, 5)}
    for pair in pairs(make(people)):  # default: split and random in round 1
        assert len(pair & upper) == 1


def test_split_and_random_is_the_name_hash() -> None:
    """Split and random keeps the weight minus detRandom(maxSeeding × 0.2): renaming the
    players changes the pairing; the same names give the same pairing."""
    base = [person(f"p{k}", "5k", rating=2000.0 - k) for k in range(1, 9)]
    seen = set()
    for salt in range(6):
        people = [replace(p, name=f"{p.id}{salt} Name{salt * 7}") for p in base]
        first = pairs(make(people))
        assert first == pairs(make(people))
        seen.add(frozenset(first))
    assert len(seen) > 1


def test_draw_up_and_down_come_from_the_middle_of_a_group() -> None:
    """Default top/middle/bottom choice is middle for both groups (``PAIMA_DUDD_MID``):
    of an upper group of 3 the middle player is drawn down, of a lower group of 3 the
    middle one is drawn up; "bottom" and "top" choose the ends facing each other."""
    people = [person("u1", "4d", 2700), person("u2", "3d", 2600), person("u3", "2d", 2500),
              person("l1", "1k", 1900), person("l2", "2k", 1800), person("l3", "3k", 1700)]
    got = pairs(make(people, bar="2d", floor="1k"))  # groups 2 apart (under 4: criterion on)
    assert got == {frozenset(("u1", "u3")), frozenset(("u2", "l2")), frozenset(("l1", "l3"))}
    # with fold seeding (split and random leaves the top two unrewarded together)
    top = pairs(make(people, bar="2d", floor="1k", draw_down_position="bottom",
                     draw_up_position="top", seeding="fold"))
    assert frozenset(("u3", "l1")) in top


def test_a_draw_up_is_compensated_by_a_draw_down() -> None:
    """Scenarios of the draw-up/draw-down criterion: a player drawn up before scores 3
    (60 000 000) when drawn down now, 2 normally, 1 when drawn up again."""
    s = gotha.Settings()
    up_before = gotha.Gamer("x", "x", "", 0, 0.0, "", "", 0, 0, (), group=2, group_size=1,
                            du=1)
    lower = gotha.Gamer("y", "y", "", 0, 0.0, "", "", 0, 0, (), group=3, group_size=1)
    upper = gotha.Gamer("z", "z", "", 0, 0.0, "", "", 0, 0, (), group=1, group_size=1)
    weight = gotha.DUDD_WEIGHT // 5
    assert gotha._dudd(s, up_before, lower) == 3 * weight  # drawn down: compensates
    assert gotha._dudd(s, up_before, upper) == 1 * weight  # drawn up again
    assert gotha._dudd(s, lower, upper) == 2 * weight
    no_comp = replace(s, compensate_dudd=False)
    assert gotha._dudd(no_comp, up_before, lower) == 2 * weight


def test_colour_balance_weights() -> None:
    """"Balance White and Black": 1 000 000 for strictly opposite balances, 500 000 when
    one is 0 and the other greater than 1, else 0; not for a handicap game."""
    f = gotha.Field(gotha.Settings(hd_ceiling=0), 1, 40)

    def colour(wb1: int, wb2: int) -> int:
        p = gotha.Gamer("p", "p", "", 0, 0.0, "", "", 0, 40, (), wb=wb1)
        q = gotha.Gamer("q", "q", "", 0, 0.0, "", "", 0, 40, (), wb=wb2)
        return gotha.cost_parts(f, p, q)["colour"]

    assert colour(1, -1) == 1_000_000
    assert colour(0, 2) == colour(-2, 0) == 500_000
    assert colour(0, 1) == colour(1, 1) == colour(0, 0) == 0


def test_handicap_settings() -> None:
    """"Handicap settings": MMS difference, the stronger capped at the no-handicap rank,
    less the correction, at most the ceiling; the stronger takes White."""
    s = gotha.Settings(hd_threshold=0, hd_correction=1, hd_ceiling=9)

    def at(rank: int) -> gotha.Gamer:
        return gotha.Gamer(str(rank), str(rank), "", rank, 0.0, "", "",
                           0, 2 * (rank - gotha.MIN_RANK), ())

    assert gotha.handicap(s, at(-2), at(-8)) == 5  # 2k - 8k, less 1
    assert gotha.handicap(s, at(-8), at(-2)) == -5
    assert gotha.handicap(s, at(4), at(-3)) == 2  # 5d counts as 1d: 3 - 1
    assert gotha.handicap(replace(s, hd_ceiling=3), at(-2), at(-12)) == 3
    assert gotha.handicap(s, at(-5), at(-6)) == 0
    white, black, hd, _ = gotha.game_between(s, at(-8), at(-2))
    assert (white.rank, black.rank, hd) == (-2, -8, 5)


def test_bye_rule() -> None:
    """``chooseAByePlayer``: least rank + 2 × MMS + 1000 × byes; the later on a tie."""
    a = gotha.Gamer("a", "a", "", -10, 0.0, "", "", 0, 40, ())
    b = gotha.Gamer("b", "b", "", -12, 0.0, "", "", 0, 42, ())  # same weight as a
    c = gotha.Gamer("c", "c", "", -20, 0.0, "", "", 0, 20, (), byes=1)
    assert gotha.choose_bye([a, b, c]) is b
    assert gotha.choose_bye([b, a, c]) is a
    assert gotha.choose_bye([a, c]) is a


# --- the fast cost and the matching -----------------------------------------------------


@st.composite
def histories(draw: st.DrawFn) -> Any:
    n = draw(st.integers(4, 9))
    people = [person(f"p{k}", draw(st.sampled_from(RANKS)),
                     club=draw(st.sampled_from(["", "A", "B"])),
                     country=draw(st.sampled_from(["", "FR", "DE"])),
                     name=f"p{k} {draw(st.sampled_from(['Ann', 'Bo', 'Cy']))}")
              for k in range(n)]
    # corrections beyond OpenGotha's -1..+2 put a player outside its group range
    people = [replace(p, mms_correction=draw(st.sampled_from([0, 0, 0, 1, 4, -3])))
              for p in people]
    options: dict[str, Any] = {}
    if draw(st.booleans()):
        options["bar"] = draw(st.sampled_from(["1d", "3k"]))
    if draw(st.booleans()):
        options["handicap"] = True
    options["seeding"] = draw(st.sampled_from(["", "fold", "slip", "random"]))
    if draw(st.booleans()):
        options["pairing_random"] = True
    if draw(st.booleans()):
        options["minimize_handicap"] = True
    event = make(people, **options)
    rounds = draw(st.integers(0, min(4, n - 2)))
    return simulate(event, rounds, draw(st.integers(0, 999)))


def field_of(event: Any) -> tuple[gotha.Field, list[gotha.Gamer]]:
    number = len(event.rounds) + 1
    standings = compute_standings(event)
    s = settings_of(event, standings.planned_rounds)
    everyone = gamers(event, pairing_input(standings), s)
    f = gotha.Field(s, number - 1, gotha.fill_pairing_info(s, list(everyone.values()),
                                                           number - 1))
    order = gotha.score_order([everyone[p.id] for p in players_for_round(event, number)])
    return f, order


@settings(deadline=None, max_examples=60)
@given(histories())
def test_fast_cost_is_the_criteria_sum(event: Any) -> None:
    """``pair_costs`` (used for matching) equals 1 + the parts of ``cost_parts``."""
    f, order = field_of(event)
    for i, j, c in gotha.pair_costs(f, order):
        assert c == gotha.cost(f, order[i], order[j])


@settings(deadline=None, max_examples=60)
@given(histories())
def test_matching_is_the_best_pairing_by_brute_force(event: Any) -> None:
    """The proposed round has the greatest total OpenGotha cost of all pairings of the
    players left once the bye is out; the bye is OpenGotha's, unless every pairing with
    OpenGotha's bye has a rematch (then a later one in its bye order)."""
    f, order = field_of(event)
    proposal = propose(event)
    got_bye = next((g.players[0] for g in proposal.round.games if g.kind is GameKind.BYE),
                   None)
    assert (got_bye is None) == (len(order) % 2 == 0)

    def best_of(playing: list[gotha.Gamer]) -> tuple[int, bool]:
        """Best total cost, and whether the best pairings must hold a rematch."""
        best = max(sum(gotha.cost(f, playing[i], playing[j]) for i, j in pairs)
                   for pairs in matchings(tuple(range(len(playing)))))
        return best, best < len(playing) // 2 * gotha.AVOID_DUPLICATE

    if got_bye is not None:
        ogs = gotha.choose_bye(order)
        if got_bye != ogs.id:
            assert best_of([p for p in order if p is not ogs])[1], "OpenGotha's bye was fine"
            candidates = [p.id for p in gotha.bye_candidates(order)]
            assert candidates.index(got_bye) > 0
    playing = [p for p in order if p.id != got_bye]
    position = {p.id: k for k, p in enumerate(playing)}
    got = 0
    for a, b in pairs_of(proposal):
        i, j = sorted((position[a], position[b]))
        got += gotha.cost(f, playing[i], playing[j])
    assert got == best_of(playing)[0]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_table_has_a_note(seed: int) -> None:
    """The round page explains each table (which criterion decided it) and the bye."""
    rng = random.Random(seed)
    people = [person(f"p{k}", rng.choice(RANKS), club=rng.choice(["A", "B"]))
              for k in range(9)]
    event = simulate(make(people), 2, seed)
    proposal = propose(event)
    tables = [g for g in proposal.round.games if g.kind is GameKind.PLAYED]
    for game in tables:
        assert any(note.startswith(f"Table {game.table}: ") for note in proposal.notes)
    assert any(note.startswith("Bye: ") for note in proposal.notes)
    event = play(event, proposal, rng)
    assert len(event.rounds) == 3


def test_notes_name_the_deciding_criterion() -> None:
    """A club clash avoided by floating is put down to geography; a float between two
    neighbouring groups in the concavity example to the MMS difference."""
    people = [person("a", "10k", 2000, club="X", country="FR"),
              person("b", "10k", 1999, club="X", country="FR"),
              person("c", "12k", 1500, club="Y", country="FR"),
              person("d", "12k", 1499, club="Y", country="FR")]
    notes = [n for n in propose(make(people)).notes if n.startswith("Table ")]
    assert len(notes) == 2
    assert all("decided by avoiding club mates and compatriots" in n for n in notes)
    ranks = ["1k"] + [f"{k}k" for k in range(2, 11) for _ in range(2)] + ["11k"]
    chain = [person(f"p{k:02d}", r, rating=2000.0 - k) for k, r in enumerate(ranks)]
    notes = [n for n in propose(make(chain)).notes if n.startswith("Table ")]
    assert any("decided by MMS difference" in n for n in notes)
    assert all("a float across 1 MMS" in n for n in notes)


def test_without_ratings_the_group_order_follows_rank() -> None:
    """A player without a rating has OpenGotha's rating from rank ((rank + 30) × 100 −
    900), so in round 1 the bar group is ordered strongest first, not by name."""
    people = [person("a", "2d"), person("b", "4d"), person("c", "3d"), person("d", "5d")]
    f, order = field_of(make(people, bar="2d"))
    inner = {p.id: p.inner for p in order}
    assert inner == {"d": 0, "b": 1, "c": 2, "a": 3}
    assert gotha.rating_from_rank(0) == 2100 and gotha.rating_from_rank(-1) == 2000
    del f


def test_over_600_players_are_matched_in_parts_from_the_top() -> None:
    """``makeAutomaticPairing``: while more than 600 remain, players are taken from the
    top score down until an even part of at least 200 (the last score taken whole)."""
    s = gotha.Settings(bar=0, floor=-20)
    rng = random.Random(5)
    field = [gotha.Gamer(f"p{k}", f"p{k}", "", 0, 0.0, "", "", 0, 2 * rng.randint(10, 34), ())
             for k in range(1001)]
    parts = gotha.pairing_groups(field, 2, s)
    assert sum(len(p) for p in parts) == 1001
    assert len(parts[-1]) <= 600 and all(len(p) >= 200 for p in parts)
    for upper, lower in zip(parts, parts[1:], strict=False):
        assert min(p.mms2 for p in upper) >= max(p.mms2 for p in lower)
        assert len(upper) % 2 == 0
