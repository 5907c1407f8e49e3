"""Tiebreaks on their rules' own worked examples (seeds 000, 003, 004) and properties."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standgen.formats import FORMATS
from standgen.model import GameKind
from standgen.records import Entry, build_records
from standgen.standings import compute_standings
from standgen.tiebreaks import TIEBREAKS, Context, Part, TiebreakPolicy
from tests.build import make_event, player


def value(event, tiebreak: str, pid: str) -> float:  # type: ignore[no-untyped-def]
    standings = compute_standings(event)
    return TIEBREAKS[tiebreak].compute(standings.context, pid).value


def _four_rounds_losing(round_lost: int):  # type: ignore[no-untyped-def]
    """A 3-1 player ``x`` who lost round ``round_lost``, against fresh opponents."""
    rows = []
    for rnd in range(1, 5):
        rows.append([("x", f"o{rnd}", "0-1" if rnd == round_lost else "1-0")])
    players = ["x", "o1", "o2", "o3", "o4"]
    return make_event(players, rows, rounds=4)


def test_cumulative_seed000_lost_first_round_is_6() -> None:
    """Seed 000: "losing his first game but winning all the rest his cumulative score would
    be 6"."""
    assert value(_four_rounds_losing(1), "cumulative", "x") == 6


def test_cumulative_seed000_lost_last_round_is_9() -> None:
    """Seed 000: "won his first three rounds ... lost in the final round ... 9"."""
    assert value(_four_rounds_losing(4), "cumulative", "x") == 9


@pytest.mark.parametrize(
    ("results", "expected"),
    [
        (["1-0", "1-0", "1-0", "1-0", "0-1", "0-1"], 18),  # Player B: 1+2+3+4+4+4
        (["0-1", "1-0", "1-0", "0-1", "1-0", "1-0"], 12),  # Player A: 0+1+2+2+3+4
    ],
)
def test_cumulative_seed000_players_a_and_b(results: list[str], expected: int) -> None:
    rows = [[("p", f"o{k}", r)] for k, r in enumerate(results, start=1)]
    event = make_event(["p", *(f"o{k}" for k in range(1, 7))], rows, rounds=6)
    standings = compute_standings(event)
    got = TIEBREAKS["cumulative"].compute(standings.context, "p")
    assert got.value == expected
    running = [part.value for part in got.parts]
    assert running == (
        [1, 2, 3, 4, 4, 4] if expected == 18 else [0, 1, 2, 2, 3, 4]
    )


def _large_event() -> object:
    """Seed 000's Player B: six opponents; 1-B went 0-2 and dropped (a 6-round event).

    The others finish on 2, 3, 4, 5 and 5 TP over all six rounds.
    """
    finals = {"o2": 2, "o3": 3, "o4": 4, "o5": 5, "o6": 5}
    rounds: list[list[tuple[str, str, str]]] = [[] for _ in range(6)]
    for k in range(1, 7):
        rounds[k - 1].append(("b", f"o{k}", "1-0" if k <= 4 else "0-1"))
    # o1 loses round 1 to b, loses round 2 to a filler, then drops.
    rounds[1].append(("f1", "o1", "1-0"))
    # every other opponent plays six rounds: vs b once, vs fillers otherwise.
    for opp, final in finals.items():
        k = int(opp[1])
        wins_vs_b = 0 if k <= 4 else 1
        needed = final - wins_vs_b
        filler_rounds = [r for r in range(1, 7) if r != k]
        for n, rnd in enumerate(filler_rounds):
            result = "1-0" if n < needed else "0-1"
            rounds[rnd - 1].append((opp, f"f{opp}{rnd}", result))
    fillers = sorted({row[1] for rows in rounds for row in rows if row[1].startswith("f")}
                     | {"f1"})
    players = ["b", player("o1", dropped_after=2), *finals, *fillers]
    return make_event(players, rounds, rounds=6)


def test_sos_large_seed000_is_3_33() -> None:
    """Seed 000: ".17 ... (.33 + .5 + .66 + .83 + .83) giving him a final SoS of 3.33"."""
    event = _large_event()
    standings = compute_standings(event)  # type: ignore[arg-type]
    got = TIEBREAKS["sos-large"].compute(standings.context, "b")
    assert [round(p.value, 2) for p in got.parts] == [0.17, 0.33, 0.5, 0.67, 0.83, 0.83]
    assert round(got.value, 2) == 3.33
    assert got.value == pytest.approx(20 / 6)


def test_sos_large_dropout_counts_1_tp_over_the_total_games() -> None:
    """Seed 000: a dropped opponent "would be given 1TP divided by the number of total
    games". A 3-round event: d wins rounds 1 and 2 (beating x in round 2) and drops, 2-0;
    u wins all three (beating x in round 3). x's share of d is 1 / 3, not 2 / 2; u's
    is 3 / 3; f2 (0 TP, every round played) adds 0."""
    rows = [
        [("d", "f1", "1-0"), ("x", "f2", "1-0"), ("u", "f3", "1-0")],
        [("d", "x", "1-0"), ("u", "f1", "1-0"), ("f2", "f3", "0-1")],
        [("u", "x", "1-0"), ("f1", "f2", "1-0"), ("f3", "BYE", "")],
    ]
    event = make_event(["x", player("d", dropped_after=2), "u", "f1", "f2", "f3"], rows,
                       rounds=3)
    standings = compute_standings(event)
    got = TIEBREAKS["sos-large"].compute(standings.context, "x")
    assert [(p.round, p.opponent, p.value) for p in got.parts] == [
        (1, "f2", 0.0), (2, "d", 1 / 3), (3, "u", 1.0),
    ]
    assert got.value == pytest.approx(4 / 3)
    # plain SoS (seed 004) keeps counting the dropout's two points
    assert TIEBREAKS["sos"].compute(standings.context, "x").value == 0 + 2 + 3


def test_sos_dropped_opponent_keeps_counting_and_bye_adds_nothing() -> None:
    """Seed 004 "Strength of Schedule System"; a bye is not an opponent (seed 004 "Byes")."""
    rows = [
        [("a", "b", "1-0"), ("c", "d", "1-0"), ("e", "BYE", "")],
        [("a", "c", "1-0"), ("e", "b", "1-0"), ("d", "BYE", "")],
        [("a", "BYE", ""), ("c", "e", "0-1")],
    ]
    event = make_event(["a", player("b", dropped_after=2), "c", player("d", dropped_after=2), "e"],
                       rows, rounds=3)
    standings = compute_standings(event)
    sos = TIEBREAKS["sos"].compute(standings.context, "a")
    # b: 0 TP, c: 1 TP (beat d), bye: 0
    assert [(p.round, p.opponent, p.value, p.note) for p in sos.parts] == [
        (1, "b", 0.0, ""), (2, "c", 1.0, ""), (3, None, 0.0, "bye"),
    ]
    assert sos.value == 1
    # d dropped after round 2 with 1 TP (a bye); c's SoS still counts d's point.
    assert TIEBREAKS["sos"].compute(standings.context, "c").value == 1 + 3 + 3


def test_cumulative_sos_sums_opponents_cumulative() -> None:
    rows = [
        [("a", "b", "1-0"), ("c", "d", "1-0")],
        [("a", "c", "1-0"), ("b", "d", "1-0")],
    ]
    event = make_event(["a", "b", "c", "d"], rows, rounds=2)
    standings = compute_standings(event)
    # b: 0 then 1 -> 1; c: 1 then 1 -> 2
    got = TIEBREAKS["cumulative-sos"].compute(standings.context, "a")
    assert [(p.opponent, p.value) for p in got.parts] == [("b", 1.0), ("c", 2.0)]
    assert got.value == 3


def test_cp_apd_and_wins_count_a_bye_as_a_win_with_zero_stats() -> None:
    """Seed 004: a bye "receives 1 tournament point and 0 control points"."""
    rows = [
        [("a", "b", "1-0", {"cp": (3, 1), "apd": (50, 20)}), ("c", "BYE", "")],
        [("a", "c", "0-1", {"cp": (2, 4), "apd": (35, 60)}), ("b", "BYE", "")],
    ]
    event = make_event(["a", "b", "c"], rows, rounds=2)
    standings = compute_standings(event)
    ctx = standings.context
    assert TIEBREAKS["cp"].compute(ctx, "a").value == 5
    assert TIEBREAKS["apd"].compute(ctx, "a").value == 85
    assert TIEBREAKS["cp"].compute(ctx, "c").value == 4
    assert TIEBREAKS["wins"].compute(ctx, "c").value == 2  # the bye and the win
    assert ctx.score("c") == 2  # 1 TP for the bye


# --- seed 003: SODOS and SOS under two McMahon scales --------------------------------

SEED003_ROUNDS = [
    [("alan", "bob", "0-1"), ("juliet", "karen", "1-0")],
    [("alan", "cath", "1-0"), ("juliet", "lionel", "1-0")],
    [("alan", "dave", "1-0"), ("juliet", "martin", "1-0")],
]
# Seed 003's tables: final McMahon scores on the UK scale (0 at shodan) and the EU scale
# (0 at 20 kyu). Alan and Juliet both finish on MMS 2 (UK) / 22 (EU).
SEED003_UK = {"alan": 2, "juliet": 2, "bob": 1, "cath": 1, "dave": 1,
              "karen": 0, "lionel": 1, "martin": 1}
SEED003_EU = {p: s + 20 for p, s in SEED003_UK.items()}


def mcmahon_context(scores: Mapping[str, float], policy: TiebreakPolicy | None = None) -> Context:
    """Return a context over seed 003's games where each player's score is their MMS."""
    event = make_event(sorted(scores), SEED003_ROUNDS, rounds=3)
    records = build_records(event, FORMATS["steamroller"])
    return Context(event=event, records=records, policy=policy or TiebreakPolicy(),
                   rounds_counted=3, planned_rounds=3, scores=dict(scores))


@pytest.mark.parametrize(("scale", "alan", "juliet"), [("uk", 2, 2), ("eu", 42, 62)])
def test_sodos_seed003_alan_and_juliet(scale: str, alan: int, juliet: int) -> None:
    """Seed 003: UK scale "Juliet 0+1+1=2, Alan 1+1=2"; EU scale "20+21+21=62", "21+21=42"."""
    ctx = mcmahon_context(SEED003_UK if scale == "uk" else SEED003_EU)
    got_alan = TIEBREAKS["sodos"].compute(ctx, "alan")
    got_juliet = TIEBREAKS["sodos"].compute(ctx, "juliet")
    assert (got_alan.value, got_juliet.value) == (alan, juliet)
    # Alan's loss to Bob contributes nothing; Cath and Dave contribute their MMS.
    assert [(p.opponent, p.value) for p in got_alan.parts] == [
        ("bob", 0.0), ("cath", alan / 2), ("dave", alan / 2)]


def test_sos_seed003_difference_does_not_depend_on_the_scale() -> None:
    """Seed 003: "if you use SOS ... this effect does not happen"."""
    uk, eu = mcmahon_context(SEED003_UK), mcmahon_context(SEED003_EU)
    sos = TIEBREAKS["sos"].compute
    assert (sos(uk, "alan").value, sos(uk, "juliet").value) == (3, 2)
    assert (sos(eu, "alan").value, sos(eu, "juliet").value) == (63, 62)


@settings(deadline=None, max_examples=40)
@given(shift=st.integers(min_value=-30, max_value=30))
def test_shifting_the_origin_moves_sos_by_opponents_and_sodos_by_wins(shift: int) -> None:
    """Seed 003's point: SOS moves by shift × games, SODOS by shift × wins."""
    base, moved = mcmahon_context(SEED003_UK), mcmahon_context(
        {p: s + shift for p, s in SEED003_UK.items()})
    for pid, wins in (("alan", 2), ("juliet", 3)):
        sos_gap = TIEBREAKS["sos"].compute(moved, pid).value - TIEBREAKS["sos"].compute(
            base, pid).value
        sodos_gap = TIEBREAKS["sodos"].compute(moved, pid).value - TIEBREAKS["sodos"].compute(
            base, pid).value
        assert sos_gap == 3 * shift
        assert sodos_gap == wins * shift


def test_sosos_sums_opponents_sos() -> None:
    # UK scale: Bob's only game is vs Alan (2) -> SOS 2; Cath 2; Dave 2.
    ctx = mcmahon_context(SEED003_UK)
    got = TIEBREAKS["sosos"].compute(ctx, "alan")
    assert [(p.opponent, p.value) for p in got.parts] == [("bob", 2), ("cath", 2), ("dave", 2)]
    assert got.value == 6


def test_policy_supplies_what_an_unplayed_round_adds_to_sos() -> None:
    """A McMahon-like policy: a bye counts as an opponent with the player's own score."""
    def own_score(ctx: Context, player: str, entry: Entry) -> float | None:
        return ctx.score(player) if entry.kind is GameKind.BYE else None

    rows = [[("a", "b", "1-0"), ("c", "BYE", "")], [("a", "c", "1-0"), ("b", "BYE", "")],
            [("a", "ABSENT", ""), ("b", "c", "0-1")]]
    event = make_event(["a", "b", "c"], rows, rounds=3)
    policy = TiebreakPolicy(unplayed_opponent_score=own_score)
    ctx = Context(event=event, records=build_records(event, FORMATS["steamroller"]),
                  policy=policy, rounds_counted=3, planned_rounds=3,
                  scores={"a": 2, "b": 1, "c": 2})
    got = TIEBREAKS["sos"].compute(ctx, "c")
    assert [(p.round, p.opponent, p.value, p.note) for p in got.parts] == [
        (1, None, 2, "bye: virtual opponent"), (2, "a", 2, ""), (3, "b", 1, "")]
    assert got.value == 5
    # the absence returns None: it adds 0
    assert TIEBREAKS["sos"].compute(ctx, "a").parts[-1] == Part(3, None, 0.0, note="absent")
    # Steamroller's own policy is unchanged: a bye adds 0
    plain = compute_standings(event).context
    assert TIEBREAKS["sos"].compute(plain, "c").parts[0].value == 0


# --- cuts ----------------------------------------------------------------------------


def _five_opponents() -> Context:
    """x plays o1..o4 (o_k finishes on k-1 TP... built by fillers) and has a bye in R5."""
    rows: list[list[tuple[str, str, str]]] = [[] for _ in range(5)]
    for k in range(1, 5):
        rows[k - 1].append(("x", f"o{k}", "1-0"))
    rows[4].append(("x", "BYE", ""))
    event = make_event(["x", "o1", "o2", "o3", "o4"], rows, rounds=5)
    return Context(event=event, records=build_records(event, FORMATS["steamroller"]),
                   policy=TiebreakPolicy(), rounds_counted=5, planned_rounds=5,
                   scores={"x": 5, "o1": 3, "o2": 1, "o3": 4, "o4": 2})


@pytest.mark.parametrize(
    ("tiebreak", "expected", "cut_rounds"),
    [
        ("sos", 10, []),
        ("sos-cut1", 10, [5]),  # the bye's 0 is the lowest contribution
        ("sos-cut2", 9, [5, 2]),
        ("sos-median", 6, [5, 3]),
    ],
)
def test_sos_cuts_mark_the_cut_parts(tiebreak: str, expected: float, cut_rounds: list[int]) -> None:
    got = TIEBREAKS[tiebreak].compute(_five_opponents(), "x")
    assert got.value == expected
    assert [p.round for p in got.parts if not p.counted] == sorted(cut_rounds)
    assert all("cut" in p.note for p in got.parts if not p.counted)
    assert got.value == sum(p.value for p in got.parts if p.counted)


# --- direct encounter ----------------------------------------------------------------


def _ranked(event) -> list[tuple[int, str]]:  # type: ignore[no-untyped-def]
    return [(row.rank, row.player.id) for row in compute_standings(event).rows]


def test_direct_two_tied_players_the_winner_of_their_game_ranks_higher() -> None:
    # a and b both 2-1; b beat a in round 1. SoS would put a first (a's opponents 2+1+...).
    rows = [[("b", "a", "1-0"), ("c", "d", "1-0")],
            [("a", "c", "1-0"), ("b", "d", "0-1")],
            [("a", "d", "1-0"), ("b", "c", "1-0")]]
    event = make_event(["a", "b", "c", "d"], rows, rounds=3, tiebreaks=("direct", "sos"))
    assert _ranked(event)[:2] == [(1, "b"), (2, "a")]
    ctx = compute_standings(event).context
    got = TIEBREAKS["direct"].compute_group(ctx, "b", frozenset({"a", "b"}))  # type: ignore[misc]
    assert got.value == 1 and [(p.opponent, p.value) for p in got.parts] == [("a", 1.0)]


def test_direct_three_tied_players_in_a_cycle_stay_tied() -> None:
    rows = [[("a", "b", "1-0"), ("c", "x", "1-0")],
            [("b", "c", "1-0"), ("a", "x", "1-0")],
            [("c", "a", "1-0"), ("b", "x", "1-0")]]
    event = make_event(["a", "b", "c", "x"], rows, rounds=3, tiebreaks=("direct",))
    assert _ranked(event)[:3] == [(1, "a"), (1, "b"), (1, "c")]


def test_direct_three_tied_players_all_met() -> None:
    """a beat b and c; b and c then compare on their own game (FIDE C.07 art. 6)."""
    rows = [[("a", "b", "1-0"), ("c", "x", "1-0"), ("y", "z", "1-0")],
            [("a", "c", "1-0"), ("b", "x", "1-0"), ("y", "z", "0-1")],
            [("a", "y", "0-1"), ("c", "b", "1-0"), ("x", "z", "1-0")],
            [("a", "z", "0-1"), ("b", "y", "1-0"), ("c", "x", "0-1")],
            [("a", "x", "1-0"), ("b", "z", "1-0"), ("c", "y", "1-0")]]
    event = make_event(["a", "b", "c", "x", "y", "z"], rows, rounds=5, tiebreaks=("direct",))
    standings = compute_standings(event)
    assert {standings.context.scores[p] for p in "abc"} == {3}
    assert _ranked(event)[:3] == [(1, "a"), (2, "c"), (3, "b")]
    values = {row.player.id: row.values["direct"].value for row in standings.rows}
    assert (values["a"], values["c"], values["b"]) == (2, 1, 0)


def _not_all_met(rows: list[list[tuple[str, str, str]]]) -> Context:
    event = make_event(["a", "b", "c", "x", "y"], rows, rounds=len(rows))
    return compute_standings(event).context


def test_direct_when_not_all_met_the_top_player_must_be_out_of_reach() -> None:
    """FIDE C.07 art. 6: a beat b; c met neither and could still reach 2 points."""
    ctx = _not_all_met([[("a", "b", "1-0"), ("c", "x", "1-0")]])
    tied = frozenset({"a", "b", "c"})
    direct = TIEBREAKS["direct"].compute_group
    assert direct is not None
    assert [direct(ctx, p, tied).value for p in "abc"] == [0, 0, 0]


def test_direct_when_not_all_met_a_player_out_of_reach_ranks_first() -> None:
    """a beat b and c (2 points); b and c did not meet: at most 1 each. b, c stay tied."""
    ctx = _not_all_met([[("a", "b", "1-0"), ("c", "x", "1-0")],
                        [("a", "c", "1-0"), ("b", "y", "1-0")]])
    tied = frozenset({"a", "b", "c"})
    direct = TIEBREAKS["direct"].compute_group
    assert direct is not None
    assert [direct(ctx, p, tied).value for p in "abc"] == [2, 0, 0]


# --- stat sums ------------------------------------------------------------------------


def test_vp_vp_diff_centres_and_won() -> None:
    """vp-diff: each game adds my VP minus the opponent's; a bye concedes nothing."""
    rows = [
        [("dana", "eli", "1-0", {"vp": (1450, 300), "centres": (7, 3)})],
        [("dana", "fay", "0-1", {"vp": (900, 1200), "centres": (12, 5)})],
        [("dana", "BYE", "", {"vp": (2000, 0)}), ("eli", "fay", "+-")],
    ]
    event = make_event(["dana", "eli", "fay"], rows, rounds=3)
    ctx = compute_standings(event).context
    assert TIEBREAKS["vp"].compute(ctx, "dana").value == 4350
    got = TIEBREAKS["vp-diff"].compute(ctx, "dana")
    assert [p.value for p in got.parts] == [1150, -300, 2000]
    assert got.value == 2850
    assert TIEBREAKS["centres"].compute(ctx, "dana").value == 19
    assert TIEBREAKS["won"].compute(ctx, "dana").value == 1  # the bye is not a game won
    assert TIEBREAKS["wins"].compute(ctx, "dana").value == 2
    assert TIEBREAKS["won"].compute(ctx, "eli").value == 0  # a forfeit win is not either
    # Koya: half of 3 rounds is 1.5; dana (2 TP) counts, eli (1 TP) does not
    koya = TIEBREAKS["koya"].compute(ctx, "fay")
    assert [(p.opponent, p.value, p.counted) for p in koya.parts] == [
        ("dana", 1, True), ("eli", 0, False)]
    assert koya.value == 1
