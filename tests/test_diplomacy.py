"""Diplomacy: scoring systems on their published examples, MCS (seed 001), round files."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standgen.diplomacy.mcs import mcs_table, player_score, power_averages
from standgen.diplomacy.scoring import (
    POWERS,
    BoardSeat,
    c_diplo,
    carnage,
    draw_size,
    shared_rank_points,
    sum_of_squares,
)
from standgen.errors import InputError
from standgen.formats import FORMATS
from standgen.load import load_tree
from standgen.model import Event, EventConfig, Game, GameKind, Outcome, Player, Round, Seat
from standgen.pipeline import report
from standgen.site.formats.diplomacy import awards, final_table, player_games, power_statistics
from standgen.standings import compute_standings

OUTCOME = {"solo": Outcome.WIN, "draw": Outcome.DRAW, "loss": Outcome.LOSS,
           "eliminated": Outcome.LOSS}


def seats(centres: Sequence[int], results: Sequence[str] | None = None,
          years: dict[int, int] | None = None) -> list[BoardSeat]:
    """Return a board in POWERS order (A E F G I R T); survivors draw unless told."""
    results = results or ["draw" if c else "eliminated" for c in centres]
    years = years or {}
    return [BoardSeat(p, c, r, years.get(k)) for k, (p, c, r) in
            enumerate(zip(POWERS, centres, results, strict=True))]


# --- published worked examples -------------------------------------------------------


def test_c_diplo_world_diplomacy_database_examples() -> None:
    """WDD "C-Diplo 100": A4 E0 F9 G7 I7 R3 T4 -> 5, 1, 48, 18.5, 18.5, 4, 5 and
    A5 E9 F4 G5 I3 R1 T7 -> 9.5, 48, 5, 9.5, 4, 2, 22; each game totals 100."""
    first = c_diplo(seats([4, 0, 9, 7, 7, 3, 4]), {})
    assert first == (5, 1, 48, 18.5, 18.5, 4, 5)
    second = c_diplo(seats([5, 9, 4, 5, 3, 1, 7]), {})
    assert second == (9.5, 48, 5, 9.5, 4, 2, 22)
    assert sum(first) == sum(second) == 100


def test_c_diplo_solo_scores_100_and_nothing_else() -> None:
    """WDD: "The player who solos ... scores 100 points. The other player score no point"."""
    board = seats([0, 3, 18, 4, 3, 3, 3], ["eliminated", "loss", "solo"] + ["loss"] * 4)
    assert c_diplo(board, {}) == (0, 0, 100, 0, 0, 0, 0)


def test_carnage_webdiplomacy_examples() -> None:
    """webDiplomacy forum, Carnage: R14 T7 F6 G4 E3 I0 (2nd out) A0 (1st out) scores
    7014, 6007, 5006, 4004, 3003, 2000, 1000; E8 R8 F7 T6 I4 A1 G0 -> 6508, 6508, 5007,
    4006, 3004, 2001, 1000; a solo takes 28,034."""
    # powers in POWERS order: A E F G I R T
    board = seats([0, 3, 6, 4, 0, 14, 7], years={0: 1905, 4: 1907})
    scores = dict(zip(POWERS, carnage(board, {}), strict=True))
    assert [scores[p] for p in ("Russia", "Turkey", "France", "Germany", "England", "Italy",
                                "Austria")] == [7014, 6007, 5006, 4004, 3003, 2000, 1000]
    tied = dict(zip(POWERS, carnage(seats([1, 8, 7, 0, 4, 8, 6]), {}), strict=True))
    assert [tied[p] for p in ("England", "Russia", "France", "Turkey", "Italy", "Austria",
                              "Germany")] == [6508, 6508, 5007, 4006, 3004, 2001, 1000]
    solo = seats([0, 4, 0, 18, 0, 5, 7], ["eliminated", "loss", "eliminated", "solo",
                                          "eliminated", "loss", "loss"])
    assert carnage(solo, {}) == (0, 0, 0, 28034, 0, 0, 0)


def test_carnage_eliminated_without_years_share_the_places_left() -> None:
    """dipvis "Carnage with dead equal": 17/7/5/5 and three eliminated -> (3000+2000+1000)/3."""
    board = seats([0, 5, 0, 17, 0, 5, 7])
    assert carnage(board, {}) == (2000, 4505, 2000, 7017, 2000, 4505, 6007)


def test_sum_of_squares_five_and_four_centres() -> None:
    """Sum of squares (dipvis test_sum_of_squares): centres 5,4,5,5,4,5,4: the board's
    sum of squares is 148, so 5 centres score 2500/148 = 16.89, 4 centres 1600/148 = 10.81."""
    scores = sum_of_squares(seats([5, 4, 5, 5, 4, 5, 4]), {})
    assert [round(s, 2) for s in scores] == [16.89, 10.81, 16.89, 16.89, 10.81, 16.89, 10.81]
    assert sum(scores) == pytest.approx(100)


def test_sum_of_squares_solo() -> None:
    board = seats([0, 4, 0, 18, 0, 5, 7], ["eliminated", "loss", "eliminated", "solo",
                                           "eliminated", "loss", "loss"])
    assert sum_of_squares(board, {}) == (0, 0, 0, 100, 0, 0, 0)


def test_draw_size_seed_001_game_points() -> None:
    """Seed 001: "A solo scores 420 pts; everyone else scores 0"; "Draws are scored by
    dividing 420 by the number of players in the draw" (140 = a 3-way, 105 = a 4-way)."""
    three_way = seats([10, 10, 10, 2, 2, 0, 0], ["draw"] * 3 + ["loss"] * 2 + ["eliminated"] * 2)
    assert draw_size(three_way, {}) == (140, 140, 140, 0, 0, 0, 0)
    four_way = seats([8, 8, 8, 8, 2, 0, 0], ["draw"] * 4 + ["loss"] + ["eliminated"] * 2)
    assert draw_size(four_way, {})[:4] == (105, 105, 105, 105)
    solo = seats([18, 4, 4, 4, 4, 0, 0], ["solo"] + ["loss"] * 4 + ["eliminated"] * 2)
    assert draw_size(solo, {}) == (420, 0, 0, 0, 0, 0, 0)
    assert draw_size(three_way, {"pot": 300})[:3] == (100, 100, 100)


@settings(deadline=None)
@given(st.lists(st.integers(0, 12), min_size=7, max_size=7).filter(lambda c: 0 < sum(c) <= 34))
def test_rank_systems_hand_out_a_fixed_total_when_all_centres_are_owned(
    centres: list[int],
) -> None:
    """C-Diplo 100 and Carnage split their place points whatever the ties."""
    board = seats(centres)
    owned = sum(centres)
    assert sum(c_diplo(board, {})) == pytest.approx(7 + owned + 38 + 14 + 7)
    assert sum(carnage(board, {})) == pytest.approx(28000 + owned)
    ranks = shared_rank_points([float(c) for c in centres], [3.0, 2.0, 1.0])
    for a, b in zip(centres, ranks, strict=True):
        for c, d in zip(centres, ranks, strict=True):
            assert (a > c) <= (b >= d)  # more centres never fewer points


# --- MCS (seed 001) -------------------------------------------------------------------


def test_mcs_seed_example_minus_40_over_4_is_minus_10() -> None:
    """Seed 001: p 140, 105, 0, 105 against aveE 95, aveF 150, aveA 63, aveR 82 gives
    s = 45, -45, -63, 23; Sc = -40; Pts = -40 / 4 = -10."""
    score = player_score([(140, 95), (105, 150), (0, 63), (105, 82)])
    assert score.s == (45, -45, -63, 23)
    assert score.sc == -40 and score.rounds == 4 and score.pts == -10


def test_mcs_drawn_final_counts_double_over_one_more_round() -> None:
    """Seed 001: a drawn final's score is doubled and Pts divided by 5 rounds after 4."""
    score = player_score([(140, 95), (105, 150), (0, 63), (105, 82), (140, 100)],
                         [1, 1, 1, 1, 2])
    assert score.s[-1] == 80 and score.sc == 40 and score.rounds == 5 and score.pts == 8


def test_power_averages_over_every_game() -> None:
    """Seed 001 steps 1-2: T per power over every game, aveT = T / g."""
    averages = power_averages([("England", 140), ("England", 0), ("England", 105),
                               ("France", 420)])
    assert averages["England"].games == 3 and averages["England"].total == 245
    assert averages["England"].average == pytest.approx(245 / 3)
    assert averages["France"].average == 420 and averages["Italy"].games == 0


# --- events built from the model ------------------------------------------------------

Row = tuple[Any, ...]  # (player, centres, result[, eliminated_year]) in POWERS order


def board(number: int, table: int, rows: Sequence[Row]) -> Game:
    out = []
    for (pid, centres, result, *year), power in zip(rows, POWERS, strict=True):
        stats = {"centres": float(centres)}
        if year:
            stats["eliminated_year"] = float(year[0])
        out.append(Seat(pid, OUTCOME.get(result), stats, power=power, result=result))
    return Game(number, table, tuple(out))


def make_event(players: Sequence[str], played: Sequence[Sequence[Game]],
               planned: int | None = None, **options: Any) -> Event:
    config = EventConfig("Dip", dt.date(2026, 5, 1), "diplomacy", seed=7, rounds=planned,
                         options=options)
    return Event(("dip",), config, tuple(Player(p, p.title()) for p in players),
                 tuple(Round(k, tuple(games)) for k, games in enumerate(played, start=1)))


FOURTEEN = [f"p{k:02}" for k in range(14)]


def draw3(ids: Sequence[str]) -> list[Row]:
    """A, E, F draw on 10 each; G, I survive on 2; R, T eliminated."""
    results = ["draw"] * 3 + ["loss"] * 2 + ["eliminated"] * 2
    return list(zip(ids, [10, 10, 10, 2, 2, 0, 0], results, strict=True))


def solo_for_france(ids: Sequence[str]) -> list[Row]:
    results = ["loss", "loss", "solo", "loss", "loss", "eliminated", "eliminated"]
    return list(zip(ids, [4, 4, 18, 4, 4, 0, 0], results, strict=True))


def two_rounds() -> Event:
    r1 = [board(1, 1, draw3(FOURTEEN[:7])), board(1, 2, solo_for_france(FOURTEEN[7:]))]
    order = FOURTEEN[7:] + FOURTEEN[:7]
    r2 = [board(2, 1, draw3(order[:7])), board(2, 2, draw3(order[7:]))]
    return make_event(FOURTEEN, [r1, r2])


def test_mcs_standings_are_sc_over_rounds_from_the_whole_event() -> None:
    """Seed 001: aveT over every game; Pts = Sc / R. France drew 3-way three times and
    soloed once: aveF = (140 + 420 + 140 + 140) / 4 = 210."""
    event = two_rounds()
    table = mcs_table(event.rounds, {})
    assert table.powers["France"].average == 210
    assert table.powers["Russia"].average == 0
    standings = compute_standings(event)
    scores = standings.context.scores
    # p09 soloed as France in round 1 (s = 420 - 210) and drew as France in round 2
    # (s = 140 - 210): Pts = (210 - 70) / 2 = 70.
    assert scores["p09"] == pytest.approx(70)
    # p00 drew as Austria twice: aveA = (140 + 0 + 140 + 140) / 4 = 105, s = 35 twice
    assert scores["p00"] == pytest.approx(35)
    assert standings.rows[0].player.id == "p09"
    assert sum(scores.values()) == pytest.approx(0)  # every s is measured from the mean


def test_player_page_shows_p_avet_and_s_per_game() -> None:
    rep = report(two_rounds())
    (table,) = player_games(rep, "p09")
    assert table.headers[-3:] == ("p", "aveT", "s")
    assert [c.text for c in table.rows[0][4:]] == ["420", "210", "210"]
    assert "Sc = 140; R = 2; Pts = Sc / R = 70" in table.note


def test_power_statistics_page_and_awards() -> None:
    rep = report(two_rounds())
    (page,) = power_statistics(rep)
    assert page.slug == "powers"
    france = next(r for r in page.tables[0].rows if r[0].text == "France")
    assert [c.text for c in france[1:4]] == ["4", "1", "3"]  # games, solos, draws
    assert france[7].text == "210"  # aveT
    (best,) = awards(rep)
    best_france = [r for r in best.rows if r[0].text == "Best France"]
    assert [r[1].text for r in best_france] == ["P09"]


def test_awards_ties_split_by_centres_then_shared() -> None:
    """Seed 001: "Any ties could be split by how many SCs they held"."""
    ids = FOURTEEN
    r1 = [board(1, 1, draw3(ids[:7])), board(1, 2, draw3(ids[7:]))]
    rows = draw3(ids[7:])
    rows[0] = (rows[0][0], 11, "draw")
    rows[3] = (rows[3][0], 1, "loss")
    r1[1] = board(1, 2, rows)
    (best,) = awards(report(make_event(ids, [r1])))
    austria = [r[1].text for r in best.rows if r[0].text == "Best Austria"]
    assert austria == ["P07"]  # both drew 3-way; 11 centres beat 10
    england = [r[1].text for r in best.rows if r[0].text == "Best England"]
    assert england == ["P01", "P08"]  # same s, same centres: shared


def test_final_solo_wins_the_event_and_finalists_rank_together() -> None:
    """Seed 001: a finalist "could still win the tournament by winning the game"."""
    ids = FOURTEEN
    r1 = [board(1, 1, draw3(ids[:7])), board(1, 2, draw3(ids[7:]))]
    final_ids = ids[3:10]
    results = ["loss", "loss", "loss", "loss", "loss", "eliminated", "solo"]
    final = board(2, 1, list(zip(final_ids, [4, 4, 4, 2, 2, 0, 18], results, strict=True)))
    event = make_event(ids, [r1, [final]], planned=2, final_round=2)
    table = final_table(report(event))
    assert table is not None
    assert table.rows[0][1].text == ids[9].title() and table.rows[0][3].text == "solo"
    assert len(table.rows) == 7


def test_best_n_counts_only_the_best_games_with_other_systems() -> None:
    event = two_rounds()
    config = EventConfig("Dip", dt.date(2026, 5, 1), "diplomacy", seed=7,
                         options={"scoring": "c-diplo", "best": 1})
    event = Event(event.path, config, event.players, event.rounds)
    scores = compute_standings(event).context.scores
    # p09: France solo (100) in round 1, France in a 10/10/10 draw (1 + 10 + 59/3) in round 2
    assert scores["p09"] == 100
    (table,) = player_games(report(event), "p09")
    assert [r[-1].text for r in table.rows] == ["yes", "no"]


# --- round files ----------------------------------------------------------------------

PLAYERS = "id,name\n" + "".join(f"{p},{p.title()}\n" for p in FOURTEEN)
HEADER = "board,player,power,centres,result,eliminated_year\n"


def round_text(rows: Sequence[tuple[Any, ...]]) -> str:
    return HEADER + "".join(",".join(str(c) for c in row) + "\n" for row in rows)


def good_round() -> list[tuple[Any, ...]]:
    rows: list[tuple[Any, ...]] = []
    for b, ids in ((1, FOURTEEN[:7]), (2, FOURTEEN[7:])):
        for (pid, centres, result), power in zip(draw3(ids), POWERS, strict=True):
            rows.append((b, pid, power, centres, result, 1905 if result == "eliminated" else ""))
    return rows


EVENT = 'name = "Dip"\ndate = 2026-05-01\nformat = "diplomacy"\nrounds = 3\n'


def load(tree: Callable[..., Path], rows: Sequence[tuple[Any, ...]], **extra: str) -> Any:
    root = tree({"dip/event.toml": EVENT + extra.get("options", ""),
                 "dip/players.csv": PLAYERS, "dip/round-1.csv": round_text(rows)},
                base=False)
    return load_tree(root)


def messages(tree: Callable[..., Path], rows: Sequence[tuple[Any, ...]], **extra: str) -> str:
    with pytest.raises(InputError) as info:
        load(tree, rows, **extra)
    return "\n".join(str(p) for p in info.value.problems)


def test_a_valid_round_file_loads(tree: Callable[..., Path]) -> None:
    loaded = load(tree, good_round())
    (rnd,) = loaded.events[0].rounds
    assert [len(g.seats) for g in rnd.games] == [7, 7]
    assert rnd.games[0].seats[5].stats == {"centres": 0.0, "eliminated_year": 1905.0}


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda r: r[:6] + r[7:], "board 1: has 6 seats"),
        (lambda r: [r[0], (1, r[1][1], "Austria", *r[1][3:])] + r[2:], "Austria is already"),
        (lambda r: [(1, "p00", "Austria", 30, "draw", "")] + r[1:], "add up to 54"),
        (lambda r: [(1, "p00", "Austria", 35, "draw", "")] + r[1:], "from 0 to 34"),
        (lambda r: [(1, "p00", "Austria", 10, "", "")] + r[1:], "result is empty"),
        (lambda r: [(1, "p00", "Austria", 10, "solo", "")] + r[1:], "solo has no draw"),
        (lambda r: [(1, "p00", "Austria", 10, "won", "")] + r[1:], "'won' is not one of"),
        (lambda r: [(1, "p00", "Prussia", 10, "draw", "")] + r[1:], "'Prussia' is not one"),
        (lambda r: [(1, "p00", "Austria", 0, "draw", "")] + r[1:], "holds no centre"),
        (lambda r: [(1, "pxx", "Austria", 10, "draw", "")] + r[1:], "unknown player id 'pxx'"),
        (lambda r: r[:7] + [(2, "p00", *r[7][2:])] + r[8:], "already in this round"),
        (lambda r: r + [("", "p03", "SITOUT", "", "", "")], "already in this round"),
        (lambda r: [(r[0][0], r[0][1], r[0][2], r[0][3], "loss", "")] + r[1:],
         "needs one solo or a draw of two"),
    ],
)
def test_bad_board_files_name_the_problem(
    tree: Callable[..., Path], change: Callable[[list[Any]], list[Any]], expected: str,
) -> None:
    rows = good_round()
    if expected == "needs one solo or a draw of two":
        rows = [(b, p, pw, c, "loss" if r == "draw" and pw != "Austria" else r, y)
                for b, p, pw, c, r, y in rows]
        rows[0] = (*rows[0][:4], "draw", "")
    else:
        rows = change(rows)
    assert expected in messages(tree, rows)


def test_sit_out_rows_and_two_board_players(tree: Callable[..., Path]) -> None:
    rows = good_round()
    rows[-1] = (2, "p00", "Turkey", 0, "eliminated", "")  # p00 plays boards 1 and 2
    rows.append(("", "p13", "SITOUT", "", "", ""))
    assert "unless [options.two_boards]" in messages(tree, rows)
    loaded = load(tree, rows, options="[options.two_boards]\n1 = [\"p00\"]\n")
    games = loaded.events[0].rounds[0].games
    assert games[-1].kind is GameKind.BYE and games[-1].players == ("p13",)


def test_pair_writes_boards_that_load_back(tree: Callable[..., Path]) -> None:
    from standgen.build import pair

    root = tree({"dip/event.toml": EVENT, "dip/players.csv": PLAYERS + "p14,P14\n"}, base=False)
    paired = pair(root / "dip", root)
    lines = paired.text.splitlines()
    assert lines[0] == HEADER.strip() and len(lines) == 1 + 15
    assert lines[-1].endswith(",SITOUT,,,")
    (rnd,) = load_tree(root).events[0].rounds
    assert sorted(len(g.seats) for g in rnd.games) == [1, 7, 7]
    assert FORMATS["diplomacy"].seats == 7


def test_final_groups_put_the_final_soloist_first_then_the_finalists() -> None:
    from standgen.diplomacy.points import final_groups

    ids = FOURTEEN
    r1 = [board(1, 1, draw3(ids[:7])), board(1, 2, draw3(ids[7:]))]
    results = ["loss", "loss", "loss", "loss", "loss", "eliminated", "solo"]
    final = board(2, 1, list(zip(ids[3:10], [4, 4, 4, 2, 2, 0, 18], results, strict=True)))
    event = make_event(ids, [r1, [final]], planned=2, final_round=2)
    groups = final_groups(event)
    assert groups[ids[9]] == 2 and sorted(groups.values()).count(1) == 6
    assert final_groups(event, upto=1) == {}


def test_diplomacy_tiebreaks_best_game_solos_draws() -> None:
    from standgen.tiebreaks.diplomacy import BEST_GAME, DRAWS, SOLOS

    ctx = compute_standings(two_rounds()).context
    assert BEST_GAME.compute(ctx, "p09").value == 420  # the solo's game points
    assert SOLOS.compute(ctx, "p09").value == 1 and DRAWS.compute(ctx, "p09").value == 1
    assert DRAWS.compute(ctx, "p00").value == 2 and SOLOS.compute(ctx, "p00").value == 0
    assert BEST_GAME.compute(ctx, "p05").value == 0  # eliminated twice


# --- tournament aggregation (issue #31) -----------------------------------------------


def four_rounds_for_p00() -> Event:
    """p00 plays France in four rounds under C-Diplo: a solo (100), a 3-way draw on 10
    (1 + 10 + 59 / 3), Austria 4 in a solo game (0), Russia eliminated (1)."""
    ids = FOURTEEN
    r1 = board(1, 1, solo_for_france([ids[1], ids[2], ids[0], *ids[3:7]]))
    r2 = board(2, 1, draw3([ids[1], ids[2], ids[0], *ids[3:7]]))
    r3 = board(3, 1, solo_for_france(ids[:7]))
    r4 = board(4, 1, draw3([*ids[1:6], ids[0], ids[6]]))
    others = [board(k, 2, draw3(ids[7:])) for k in range(1, 5)]
    return make_event(ids, [[r1, others[0]], [r2, others[1]], [r3, others[2]],
                            [r4, others[3]]], scoring="c-diplo")


def with_options(event: Event, **options: Any) -> Event:
    config = EventConfig("Dip", dt.date(2026, 5, 1), "diplomacy", seed=7,
                         options={**event.config.options, **options})
    return Event(event.path, config, event.players, event.rounds)


def test_weighted_best_rounds_as_wdc_2019() -> None:
    """WDC 2019 rules: "Best score 100% + Second score 80% + Third score 40 %": p00's
    games 100, 1 + 10 + 59/3, 0 and 1 count 100 + 0.8 x (11 + 59/3) + 0.4 x 1."""
    event = with_options(four_rounds_for_p00(), weights=[1, 0.8, 0.4])
    draw = 1 + 10 + 59 / 3
    assert compute_standings(event).context.scores["p00"] == pytest.approx(
        100 + 0.8 * draw + 0.4 * 1)
    (table,) = player_games(report(event), "p00")
    assert [r[-1].text for r in table.rows] == ["yes", "x0.8", "no", "x0.4"]
    assert "weights 1, 0.8, 0.4" in (table.note or "")


def test_final_weight_doubles_the_final_board_and_final_order_board() -> None:
    """Seed 001: "the score for the final would be doubled" (final_weight = 2); WDC 2019:
    "World Champion : 1st of the Top Board" (final_order = "board")."""
    event = with_options(four_rounds_for_p00(), final_round=4, final_weight=2)
    draw = 1 + 10 + 59 / 3
    # round 4 board 1: p00 is Russia, eliminated (1 point, doubled)
    assert compute_standings(event).context.scores["p00"] == pytest.approx(
        100 + draw + 0 + 2 * 1)
    ranked = compute_standings(with_options(event, final_order="board"))
    finalists = [row.player.id for row in ranked.rows[:7]]
    # the final: A E F draw on 10 (p01 p02 p03), G I on 2 (p04 p05), R T out (p00 p06)
    assert set(finalists[:3]) == {"p01", "p02", "p03"}
    assert set(finalists[5:]) == {"p00", "p06"}


@pytest.mark.parametrize(("options", "expected"), [
    ('weights = [1, "x"]\n', "weights is a list of numbers from 0 to 100"),
    ("weights = [1, 1]\nbest = 2\n", "keep one"),
    ('scoring = "mcs"\nweights = [1]\n', "do not apply to mcs"),
    ('final_weight = 2\n', "need a final"),
    ('final_round = 3\nfinal_order = "first"\n', "final_order 'first' is unknown"),
    ('final_weight = 200\n', "final_weight"),
])
def test_bad_aggregation_options_say_what_to_do(
    tree: Callable[..., Path], options: str, expected: str,
) -> None:
    extra = "" if "scoring" in options else 'scoring = "c-diplo"\n'
    text = messages(tree, good_round(), options="[options]\n" + extra + options)
    assert expected in text and "event.toml:" in text


def test_end_year_column_loads_and_is_checked(tree: Callable[..., Path]) -> None:
    header = HEADER.strip() + ",end_year\n"
    rows = [(*row, 1908) for row in good_round()]
    root = tree({"dip/event.toml": EVENT, "dip/players.csv": PLAYERS,
                 "dip/round-1.csv": header + "".join(",".join(map(str, r)) + "\n"
                                                    for r in rows)}, base=False)
    (rnd,) = load_tree(root).events[0].rounds
    assert rnd.games[0].seats[5].stats["end_year"] == 1908
    from standgen.roundfile import boards_csv
    assert boards_csv(rnd).splitlines()[0].endswith(",eliminated_year,end_year")
    bad = [(*row, 1904) for row in good_round()]  # eliminated in 1905, ended 1904
    (root / "dip" / "round-1.csv").write_text(
        header + "".join(",".join(map(str, r)) + "\n" for r in bad), encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_tree(root)
    assert "is after the board's end_year 1904" in str(info.value.problems[0])
