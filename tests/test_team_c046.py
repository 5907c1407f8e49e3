"""The chess team Swiss by FIDE C.04.6 (effective 1 February 2026; issue #34,
docs/teams.md "Pairing a chess team Swiss"): the articles' own examples, rule-by-rule
positions, a brute-force property test against a plain enumeration of the articles on
small random fields, and a chess team event paired, typed in and built through the CLI.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from standgen.teams.c046 import (
    BLACK,
    WHITE,
    NoLegalPairing,
    Preference,
    RoundPairing,
    Settings,
    TeamState,
    allocate,
    candidate_sets,
    first_team,
    pair_bracket,
    pair_costs,
    pair_round,
    preference,
)
from tests.test_team_matches import rows_of
from tests.test_teams import cli, write_csv


def team(tpn: int, score: float = 0.0, colours: str = "", met: Sequence[int] = (),
         **kw: object) -> TeamState:
    """Return team ``t<tpn>`` with ``colours`` its board-1 colours in rounds 1, 2 ..."""
    history = {r: c for r, c in enumerate(colours, start=1) if c in (WHITE, BLACK)}
    return TeamState(f"t{tpn}", tpn, score, colours=history,
                     opponents=frozenset(f"t{m}" for m in met), **kw)  # type: ignore[arg-type]


# -- 1.7 colour preferences ------------------------------------------------------------

@pytest.mark.parametrize(("colours", "kind", "last", "expected"), [
    ("", "A", False, Preference()),                  # no match played: none
    ("BB", "A", False, Preference(WHITE, True)),     # CD -2 < -1: White
    ("WB", "A", False, Preference()),                # CD 0, last two not the same: none
    ("WBB", "A", False, Preference(WHITE, True)),    # CD -1, Black in the last two
    ("BWW", "A", False, Preference(BLACK, True)),    # CD +1, White in the last two
    ("WBW", "A", False, Preference()),               # CD +1 alone: Type A has none
    ("WBW", "B", False, Preference(BLACK, False)),   # Type B: CD +1 is a mild Black
    ("WB", "B", False, Preference(WHITE, False)),    # CD 0, Black last: mild White
    ("WB", "B", True, Preference()),                 # ... but not in the last round
    ("WWBB", "B", False, Preference(WHITE, True)),   # CD 0, Black in the last two: strong
    ("BB", "none", False, Preference()),             # no preferences at all
])
def test_colour_preferences_1_7(colours: str, kind: str, last: bool,
                                expected: Preference) -> None:
    assert preference(team(1, colours=colours), Settings(kind, last_round=last)) == expected


def test_a_round_not_played_has_no_colour_1_6() -> None:
    # "-" : a round without a played match (a bye, a match forfeited whole) is skipped
    t = team(1, colours="B-B")
    assert t.history == (BLACK, BLACK) and t.cd == -2
    assert preference(t, Settings()) == Preference(WHITE, True)


# -- 4 colour allocation ---------------------------------------------------------------

def test_first_team_4_2() -> None:
    a, b = team(3, 4.0, secondary=7.0), team(1, 4.0, secondary=6.5)
    assert first_team(a, b) is a                                   # 4.2.2: higher GP
    assert first_team(team(5, 6.0), team(1, 4.0)).id == "t5"       # 4.2.1: higher MP
    assert first_team(team(5, 4.0), team(2, 4.0)).id == "t2"       # 4.2.3: smaller TPN


@pytest.mark.parametrize(("a", "b", "white"), [
    # 4.3.1 both yet to play: the first-team (t1, odd TPN) takes the initial-colour (W)
    (team(1), team(5), "t1"),
    # ... with an even TPN the other colour
    (team(2), team(6), "t6"),
    # 4.3.2 only one preference: granted (t4 has had Black twice: White)
    (team(1, 2.0, "WB"), team(4, 2.0, "BB"), "t4"),
    # 4.3.3 opposite preferences: both granted
    (team(1, 2.0, "BB"), team(4, 2.0, "WW"), "t1"),
    # 4.3.5 same preference, lower CD gets White (t3: CD -3)
    (team(1, 2.0, "WBB"), team(3, 2.0, "BBB"), "t3"),
    # 4.3.6 equal CD, no preference: alternate from the latest round they differed
    # (round 2: t1 Black, t2 White, so now t1 White)
    (team(1, 2.0, "WB"), team(2, 2.0, "BW"), "t1"),
    # 4.3.8 same history, no preference: the first-team alternates from its last
    (team(1, 2.0, "BW"), team(2, 2.0, "BW"), "t2"),
])
def test_colour_allocation_4_3(a: TeamState, b: TeamState, white: str) -> None:
    assert allocate(a, b, Settings())[0].id == white


def test_type_b_only_one_strong_preference_4_3_4() -> None:
    strong, mild = team(2, 2.0, "WWBB"), team(1, 2.0, "WBWB")  # both want White
    settings = Settings("B")
    assert preference(strong, settings).strong and not preference(mild, settings).strong
    assert allocate(mild, strong, settings)[0].id == "t2"
    assert pair_costs(mild, strong, 2.0, settings)[:2] == (1, 0)  # [C8] 1, [C9] 0


def test_an_even_first_team_takes_the_other_colour_4_3_1() -> None:
    # neither has played a match (a PAB gives no colour): the first-team t2 (4.2.3) has an
    # even TPN, so it takes the colour other than the initial-colour (Black): White
    assert allocate(team(2, 1.0), team(3, 1.0), Settings(initial_colour=BLACK))[0].id == "t2"
    assert allocate(team(3, 1.0), team(4, 1.0), Settings(initial_colour=BLACK))[0].id == "t4"


# -- 3.4 the PAB -----------------------------------------------------------------------

def test_the_pab_goes_to_the_lowest_score_then_most_played_then_largest_tpn() -> None:
    teams = [team(1, 2.0), team(2, 0.0, played=1), team(3, 0.0, played=2), team(4, 2.0),
             team(5, 0.0, played=2)]
    assert pair_round(teams, Settings()).bye == "t5"  # 3.4.3, then 3.4.4 (5 over 3)
    barred = [replace(t, bye_barred=t.id == "t5") for t in teams]
    assert pair_round(barred, Settings()).bye == "t3"  # [C2]


def test_the_pab_leaves_a_legal_pairing_3_4_1() -> None:
    # t3 has met t1 and t2: were t3 paired, t1-t2... leaves t3 with nobody new
    teams = [team(1, 2.0, met=[3]), team(2, 2.0, met=[3]), team(3, 2.0, met=[1, 2]),
             team(4, 0.0, met=[5]), team(5, 0.0, met=[4])]
    result = pair_round(teams, Settings())
    assert result.bye in ("t4", "t5")
    assert all(frozenset(m) not in ({"t1", "t3"}, {"t2", "t3"}, {"t4", "t5"})
               for m in result.matches)


# -- 3.5 upfloaters --------------------------------------------------------------------

def test_the_3_5_4_example_orders_sets_of_upfloaters() -> None:
    """C.04.6 3.5.4's example: 2, 6 and 8 have 3 points, 1, 3 and 5 have 2.5, three
    upfloaters are needed and [C5] takes two of 3 points and one of 2.5: the sets are
    {2,6,1}, {2,6,3}, {2,6,5}, {2,8,1} ... (each by score, then TPN: 3.5.3)."""
    others = [team(n, 3.0) for n in (2, 6, 8)] + [team(n, 2.5) for n in (1, 3, 5)]
    profiles = list(candidate_sets(others, 3))
    first = [tuple(t.tpn for t in s) for s in profiles[0]]
    assert first == [(2, 6, 8)]  # the best [C5] profile: three 3-pointers
    second = [tuple(t.tpn for t in s) for s in profiles[1]]
    assert second[:4] == [(2, 6, 1), (2, 6, 3), (2, 6, 5), (2, 8, 1)]
    assert len(second) == 9


def test_the_fewest_upfloaters_c4_then_the_highest_scores_c5() -> None:
    # t1 (4 MP) alone at the top: one upfloater, the 3-pointer t4 before the 2-pointers
    teams = [team(1, 4.0), team(2, 2.0), team(3, 2.0), team(4, 3.0), team(5, 0.0),
             team(6, 0.0)]
    result = pair_round(teams, Settings())
    assert result.brackets[0] == (("t1",), ("t4",))
    assert {frozenset(m) for m in result.matches} >= {frozenset({"t1", "t4"})}


def test_an_upfloater_that_floated_last_round_is_avoided_c7() -> None:
    teams = [team(1, 4.0), team(2, 2.0, floater=True), team(3, 2.0), team(4, 0.0),
             team(5, 0.0), team(6, 0.0)]
    assert pair_round(teams, Settings()).brackets[0] == (("t1",), ("t3",))
    # ... except in the last two rounds: then the first set (3.5.4), t2
    late = Settings(last_two=True)
    assert pair_round(teams, late).brackets[0] == (("t1",), ("t2",))


def test_more_upfloaters_when_the_top_scoregroup_cannot_pair_within_c4() -> None:
    # t1 and t2 have met: two upfloaters, the 2-pointers t3 and t4
    teams = [team(1, 4.0, met=[2]), team(2, 4.0, met=[1]), team(3, 2.0), team(4, 2.0),
             team(5, 0.0), team(6, 0.0)]
    result = pair_round(teams, Settings())
    assert result.brackets[0] == (("t1", "t2"), ("t3", "t4"))


def test_upfloaters_leave_the_following_scoregroup_pairable_c6() -> None:
    # t1 needs one upfloater from {t2, t3, t4} (2 MP). t2 and t3 have met, so taking t4
    # would leave t2-t3 unpairable among themselves: [C6] takes t2 (or t3), not t4.
    teams = [team(1, 4.0), team(2, 2.0, met=[3]), team(3, 2.0, met=[2]), team(4, 2.0),
             team(5, 0.0), team(6, 0.0), team(7, 0.0), team(8, 0.0)]
    teams[3] = replace(teams[3], tpn=0)  # t4 first in 3.5.4's order without [C6]
    assert pair_round(teams, Settings()).brackets[0][1] == ("t2",)


# -- 3.6 the bracket -------------------------------------------------------------------

def test_identifier_order_3_6() -> None:
    """3.6.2-3.6.3: of 1-2 3-4 (1,3,2,4), 1-3 2-4 (1,2,3,4) and 1-4 2-3 (1,2,4,3), the
    first is 1-3 2-4; round 1 of eight teams is 1-5, 2-6, 3-7, 4-8."""
    pairs = pair_bracket([team(n) for n in (1, 2, 3, 4)], Settings())
    assert [(a.tpn, b.tpn) for a, b in pairs] == [(1, 3), (2, 4)]
    eight = pair_bracket([team(n) for n in range(1, 9)], Settings())
    assert [(a.tpn, b.tpn) for a, b in eight] == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_colour_preferences_reorder_the_bracket_c8() -> None:
    # 1-3 2-4 (the first identifier) would leave t1 or t3, and t2 or t4, without their
    # colour; 1-4 2-3 (1,2,4,3) and 1-2 3-4 (1,3,2,4) meet every preference: the first
    teams = [team(1, 2.0, "BB"), team(2, 2.0, "WW"), team(3, 2.0, "BB"), team(4, 2.0, "WW")]
    pairs = pair_bracket(teams, Settings())
    assert [(a.tpn, b.tpn) for a, b in pairs] == [(1, 4), (2, 3)]
    none = pair_bracket(teams, Settings("none"))
    assert [(a.tpn, b.tpn) for a, b in none] == [(1, 3), (2, 4)]


def test_a_round_without_a_legal_pairing_raises_3_3_3() -> None:
    teams = [team(1, met=[2, 3, 4]), team(2, met=[1]), team(3, met=[1]), team(4, met=[1])]
    with pytest.raises(NoLegalPairing):
        pair_round(teams, Settings())


# -- brute force: the articles enumerated ----------------------------------------------

def pairings(teams: Sequence[TeamState]) -> list[list[tuple[TeamState, TeamState]]]:
    """Return every pairing of ``teams`` without a rematch ([C1])."""
    if not teams:
        return [[]]
    head, rest = teams[0], teams[1:]
    out = []
    for k, other in enumerate(rest):
        if other.id in head.opponents:
            continue
        for below in pairings(rest[:k] + rest[k + 1:]):
            out.append([(head, other), *below])
    return out


def can_pair(teams: Sequence[TeamState]) -> bool:
    return len(teams) % 2 == 0 and bool(pairings(teams))


def legal_sets(residents: list[TeamState], others: list[TeamState],
               k: int) -> list[tuple[TeamState, ...]]:
    return [s for s in itertools.combinations(others, k)
            if can_pair([*residents, *s]) and can_pair([t for t in others if t not in s])]


def fewest(residents: list[TeamState], others: list[TeamState]) -> int | None:
    for k in range(len(residents) % 2, len(others) + 1, 2):
        if legal_sets(residents, others, k):
            return k
    return None


def reference(teams: list[TeamState], settings: Settings) -> RoundPairing:
    """C.04.6 3.3-3.6 and 4 by enumeration: every candidate listed, sorted by the
    articles' order, the first taken (shares only the team model, 1.7 and 4.3)."""
    bye = None
    if len(teams) % 2:
        order = sorted((t for t in teams if not t.bye_barred),
                       key=lambda t: (t.score, -t.played, -t.tpn))
        bye = next((t for t in order if can_pair([u for u in teams if u is not t])), None)
        if bye is None:
            raise NoLegalPairing
    left = sorted((t for t in teams if t is not bye), key=lambda t: (-t.score, t.tpn))
    pairs: list[tuple[TeamState, TeamState]] = []
    while left:
        residents = [t for t in left if t.score == left[0].score]
        others = left[len(residents):]
        k = fewest(residents, others)
        if k is None:
            raise NoLegalPairing
        ups = choose(residents, others, legal_sets(residents, others, k), settings)
        bracket = [*residents, *ups]
        top = max(t.score for t in bracket)
        pairs += min(pairings(bracket), key=lambda p: bracket_key(p, top, settings))
        left = [t for t in others if t not in ups]
    coloured = [allocate(a, b, settings) for a, b in pairs]
    return RoundPairing(tuple(sorted((w.id, b.id) for w, b in coloured)),
                        bye.id if bye else "", ())


def choose(residents: list[TeamState], others: list[TeamState],
           sets: list[tuple[TeamState, ...]], settings: Settings) -> tuple[TeamState, ...]:
    best = max(tuple(sorted(t.score for t in s)) for s in sets)  # [C5]
    sets = [s for s in sets if tuple(sorted(t.score for t in s)) == best]

    def c6(s: tuple[TeamState, ...]) -> int:
        rest = [t for t in others if t not in s]
        following = [t for t in rest if others and t.score == others[0].score]
        if not following:
            return 0
        k = fewest(following, rest[len(following):])
        return len(rest) if k is None else k - len(following) % 2

    def key(s: tuple[TeamState, ...]) -> tuple[int, int, tuple[int, ...]]:
        c7 = 0 if settings.last_two else sum(t.floater for t in s)
        ordered = sorted(s, key=lambda t: (-t.score, t.tpn))  # 3.5.3
        return c6(s), c7, tuple(t.tpn for t in ordered)  # 3.5.4

    return min(sets, key=key)


def bracket_key(pairing: list[tuple[TeamState, TeamState]], top: float,
                settings: Settings) -> tuple[int, int, int, tuple[int, ...]]:
    costs = [pair_costs(a, b, top, settings) for a, b in pairing]
    members = sorted((min(a.tpn, b.tpn), max(a.tpn, b.tpn)) for a, b in pairing)
    identifier = tuple(t for t, _ in members) + tuple(b for _, b in members)  # 3.6.2
    return (sum(c[0] for c in costs), sum(c[1] for c in costs), sum(c[2] for c in costs),
            identifier)


def play(teams: list[TeamState], result: RoundPairing, number: int,
         draw: random.Random, size: int = 4) -> list[TeamState]:
    """Return the teams after round ``number``: random board results, 2/1/0 MP, the PAB
    a drawn match (C.04.6 1.4), now and then a match forfeited whole."""
    by_id = {t.id: t for t in teams}
    out = {t.id: replace(t, floater=False) for t in teams}
    for white, black in result.matches:
        a, b = by_id[white], by_id[black]
        gp = sum(draw.choice((0.0, 0.5, 1.0)) for _ in range(size))
        mp = 2.0 if gp > size / 2 else 1.0 if gp == size / 2 else 0.0
        forfeit = draw.random() < 0.05
        for me, other, colour, my_mp, my_gp in ((a, b, WHITE, mp, gp),
                                                (b, a, BLACK, 2.0 - mp, size - gp)):
            out[me.id] = replace(
                out[me.id], score=me.score + my_mp, secondary=me.secondary + my_gp,
                colours=me.colours if forfeit else {**me.colours, number: colour},
                opponents=me.opponents if forfeit else me.opponents | {other.id},
                played=me.played + (not forfeit), floater=me.score != other.score,
                bye_barred=me.bye_barred or (forfeit and my_mp == 2.0))
    if result.bye:
        t = out[result.bye]
        out[result.bye] = replace(t, score=t.score + 1.0, secondary=t.secondary + size / 2,
                                  bye_barred=True)
    return [out[t.id] for t in teams]


def check_absolute(teams: list[TeamState], result: RoundPairing) -> None:
    by_id = {t.id: t for t in teams}
    seen = [t for m in result.matches for t in m] + ([result.bye] if result.bye else [])
    assert sorted(seen) == sorted(by_id)  # every team once ([C3]: complete)
    assert all(b not in by_id[a].opponents for a, b in result.matches)  # [C1]
    assert not result.bye or not by_id[result.bye].bye_barred  # [C2]
    assert bool(result.bye) == (len(teams) % 2 == 1)


@pytest.mark.parametrize("seed", range(40))
def test_the_engine_is_the_articles_enumerated_on_small_fields(seed: int) -> None:
    draw = random.Random(seed)
    n = draw.randint(4, 8)
    rounds = draw.randint(3, min(6, n))
    kind = draw.choice(("A", "A", "B", "none"))
    teams = [TeamState(f"t{k}", k, 0.0) for k in range(1, n + 1)]
    for number in range(1, rounds + 1):
        settings = Settings(kind, draw.choice((WHITE, BLACK)), number == rounds,
                            number >= rounds - 1)
        try:
            expected = reference(teams, settings)
        except NoLegalPairing:
            with pytest.raises(NoLegalPairing):
                pair_round(teams, settings)
            return
        result = pair_round(teams, settings)
        check_absolute(teams, result)
        assert (tuple(sorted(result.matches)), result.bye) == (expected.matches,
                                                               expected.bye), number
        teams = play(teams, result, number, draw)


@pytest.mark.parametrize("seed", range(20))
def test_random_positions_match_the_enumeration(seed: int) -> None:
    """Teams with random scores, colour histories and past opponents (not only the
    positions a played event reaches)."""
    draw = random.Random(1000 + seed)
    n = draw.randint(4, 8)
    teams = [TeamState(f"t{k}", k, float(draw.randint(0, 3)), float(draw.randint(0, 6)),
                       {r: draw.choice((WHITE, BLACK)) for r in range(1, 4)
                        if draw.random() < 0.8},
                       frozenset(), draw.random() < 0.3, draw.randint(0, 3),
                       draw.random() < 0.4) for k in range(1, n + 1)]
    for a, b in itertools.combinations(range(n), 2):
        if draw.random() < 0.25:
            teams[a] = replace(teams[a], opponents=teams[a].opponents | {teams[b].id})
            teams[b] = replace(teams[b], opponents=teams[b].opponents | {teams[a].id})
    settings = Settings(draw.choice(("A", "B", "none")), WHITE, draw.random() < 0.3,
                        draw.random() < 0.3)
    try:
        expected = reference(teams, settings)
    except NoLegalPairing:
        with pytest.raises(NoLegalPairing):
            pair_round(teams, settings)
        return
    result = pair_round(teams, settings)
    check_absolute(teams, result)
    assert (tuple(sorted(result.matches)), result.bye) == (expected.matches, expected.bye)


def test_64_teams_pair_fast_every_round() -> None:
    import time
    draw = random.Random(64)
    teams = [TeamState(f"t{k}", k, 0.0) for k in range(1, 65)]
    for number in range(1, 10):
        start = time.process_time()
        result = pair_round(teams, Settings("A", WHITE, number == 9, number >= 8))
        assert time.process_time() - start < 2.0
        check_absolute(teams, result)
        teams = play(teams, result, number, draw, size=5)


# -- through the CLI ---------------------------------------------------------------------

NAMES = ("Łódź", "Paris", "Stuttgart", "東京", "Praha")


def chess_team_event(root: Path, size: int = 4, rounds: int = 4, extra: str = "") -> Path:
    folder = root / "events" / "2026" / "team-swiss"
    folder.mkdir(parents=True)
    (folder / "event.toml").write_text(
        f'name = "Team Swiss"\ndate = 2026-05-02\nformat = "swiss"\nrounds = {rounds}\n'
        f"seed = 3\n{extra}\n[teams]\nmatches = true\nsize = {size}\n", encoding="utf-8")
    write_csv(folder / "teams.csv", ["id", "name"],
              [[f"c{k}", name] for k, name in enumerate(NAMES, start=1)])
    write_csv(folder / "players.csv", ["id", "name", "rating", "team"],
              [[f"c{k}-{b}", f"{name} {b}", str(2400 - 10 * b), f"c{k}"]
               for k, name in enumerate(NAMES, start=1) for b in range(1, size + 1)])
    return folder


def type_results(folder: Path, number: int, result: str = "1-0") -> None:
    path = folder / f"round-{number}.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    at = header.index("result")
    out = [lines[0]]
    for line in lines[1:]:
        cells = line.split(",")
        if cells[header.index("player_2")] != "BYE":
            cells[at] = result
        out.append(",".join(cells))
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def test_a_chess_team_event_paired_typed_in_and_built(tmp_path: Path) -> None:
    folder = chess_team_event(tmp_path)
    code, out = cli("pair", str(folder))
    assert code == 0, out
    assert "team_1 White on board 1 and the odd boards" in out
    matches = rows_of(folder / "teams-round-1.csv")
    # round 1 (3.6): TPN 1-3, 2-4; the PAB (3.4.4): the largest TPN, c5
    assert [(m["team_1"], m["team_2"]) for m in matches] in (
        [("c1", "c3"), ("c4", "c2"), ("c5", "")], [("c3", "c1"), ("c2", "c4"), ("c5", "")])
    games = rows_of(folder / "round-1.csv")
    first = matches[0]["team_1"]
    other = matches[0]["team_2"]
    # board k of team_1 against board k of team_2, team_1 White on the odd boards
    assert [(g["player_1"], g["player_2"]) for g in games[:4]] == [
        (f"{first}-1", f"{other}-1"), (f"{other}-2", f"{first}-2"),
        (f"{first}-3", f"{other}-3"), (f"{other}-4", f"{first}-4")]
    assert [g["player_2"] for g in games[8:]] == ["BYE"] * 4  # the PAB's four boards
    code, out = cli("pair", str(folder))
    assert code != 0 and "do not have all their games and results" in out
    type_results(folder, 1)
    assert cli("check", str(folder.parent.parent))[0] == 0
    code, out = cli("pair", str(folder))
    assert code == 0, out
    second = {frozenset((m["team_1"], m["team_2"]) if m["team_2"] else (m["team_1"],))
              for m in rows_of(folder / "teams-round-2.csv")}
    firsts = {frozenset((m["team_1"], m["team_2"])) for m in matches if m["team_2"]}
    assert not second & firsts  # [C1]
    assert frozenset({"c5"}) not in second  # [C2]: c5 had the PAB
    # pair --redo 2 before a result is typed; refused after
    assert cli("pair", str(folder), "--redo", "2")[0] == 0
    type_results(folder, 2, "0-1")
    code, out = cli("pair", str(folder), "--redo", "2")
    assert code != 0 and "before any result" in out
    for number in (3, 4):
        code, out = cli("pair", str(folder))
        assert code == 0, out
        type_results(folder, number, "½-½" if number == 3 else "1-0")
    assert "the event is over" in cli("pair", str(folder))[1]
    code, out = cli("build", str(tmp_path / "events"), "-o", str(tmp_path / "out"))
    assert code == 0, out
    assert (tmp_path / "out" / "2026" / "team-swiss" / "index.html").exists()


def test_a_bad_c046_option_is_named(tmp_path: Path) -> None:
    folder = chess_team_event(tmp_path, extra='\n[options]\nteam_colour_preferences = "C"\n'
                              'team_pairing_score = "tp"\n')
    code, out = cli("check", str(folder.parent.parent))
    assert code == 2
    assert "option 'team_colour_preferences' must be \"A\"" in out
    assert "option 'team_pairing_score' must be \"mp\"" in out


def test_game_points_pair_when_declared(tmp_path: Path) -> None:
    folder = chess_team_event(tmp_path, extra='\n[options]\nteam_pairing_score = "gp"\n'
                              'team_colour_preferences = "B"\n')
    code, out = cli("pair", str(folder), "--explain")
    assert code == 0 and "on game points, colour preferences Type B" in out, out


def test_a_team_short_of_a_player_forfeits_the_last_board(tmp_path: Path) -> None:
    folder = chess_team_event(tmp_path)
    text = (folder / "players.csv").read_text(encoding="utf-8")
    (folder / "players.csv").write_text(
        "\n".join(line for line in text.splitlines() if not line.startswith("c3-4,")) + "\n",
        encoding="utf-8")
    assert cli("pair", str(folder))[0] == 0
    games = rows_of(folder / "round-1.csv")
    board4 = [g for g in games if g["player_1"] == "c1-4" or g["player_2"] == "c1-4"]
    assert [(g["player_1"], g["player_2"], g["result"]) for g in board4] == [
        ("c1-4", "BYE", "1-0")]
