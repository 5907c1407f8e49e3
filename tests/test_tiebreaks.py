"""Tiebreaks on their rules' own worked examples (seed 000, seed 004)."""

from __future__ import annotations

import pytest

from standgen.standings import compute_standings
from standgen.tiebreaks import TIEBREAKS
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
    """Seed 000: "losing his first game but winning all the rest his cumulative score would be 6"."""
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
