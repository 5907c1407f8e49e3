"""Old World scoring (seed 002 byes and concessions; VP bands), validation, round cells."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standgen.errors import InputError
from standgen.formats.oldworld import (
    OLD_WORLD,
    band_for,
    bands_of,
    default_bands,
    parse_bands,
    points,
    seat_stats,
)
from standgen.load import load_tree
from standgen.model import Event, EventConfig, Game, GameKind, Outcome, Player, Round, Seat
from standgen.records import build_records
from standgen.site.formats.oldworld import VIEWS as OLD_WORLD_VIEWS
from standgen.site.formats.oldworld import seat_cells
from standgen.standings import compute_standings

# ----- building events ------------------------------------------------------------------


def config(**options: Any) -> EventConfig:
    return EventConfig(name="Test", date=dt.date(2026, 5, 1), format="old-world",
                       rounds=options.pop("rounds", 3), seed=1, options=options,
                       tiebreaks=tuple(options.pop("tiebreaks", ())))


def game(number: int, table: int, a: str, b: str, vp_a: float | None, vp_b: float | None,
         result: str = "", cfg: EventConfig | None = None) -> Game:
    """Return a game as the loader builds it: an empty result is derived from the VPs."""
    stats = [{"vp": float(v)} if v is not None else {} for v in (vp_a, vp_b)]
    kind = GameKind.PLAYED
    outcomes: Sequence[Outcome | None] = (None, None)
    codes = {"1-0": (Outcome.WIN, Outcome.LOSS), "0-1": (Outcome.LOSS, Outcome.WIN),
             "draw": (Outcome.DRAW, Outcome.DRAW), "+-": (Outcome.WIN, Outcome.LOSS),
             "-+": (Outcome.LOSS, Outcome.WIN), "--": (Outcome.LOSS, Outcome.LOSS)}
    if result:
        outcomes = codes[result]
        kind = GameKind.FORFEIT if result in ("+-", "-+", "--") else GameKind.PLAYED
    else:
        derived = OLD_WORLD.outcome_from_stats
        assert derived is not None
        outcomes = derived("", stats, cfg or config()) or (None, None)
    return Game(number, table, (Seat(a, outcomes[0], stats[0]), Seat(b, outcomes[1], stats[1])),
                kind)


def bye(number: int, table: int, player: str) -> Game:
    return Game(number, table, (Seat(player, Outcome.WIN),), GameKind.BYE)


def event(players: Sequence[str | Player], rounds: Sequence[Sequence[Game]],
          cfg: EventConfig | None = None) -> Event:
    people = tuple(p if isinstance(p, Player) else Player(p, p.title()) for p in players)
    return Event(path=("test",), config=cfg or config(), players=people,
                 rounds=tuple(Round(k, tuple(gs)) for k, gs in enumerate(rounds, start=1)))


def tp(g: Game, cfg: EventConfig | None = None) -> tuple[float, ...]:
    return tuple(points(seat, g, cfg or config()) for seat in g.seats)


# ----- the band table -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("vp_a", "vp_b", "outcome", "expected"),
    [
        (1000, 1000, Outcome.DRAW, (3, 3)),
        (1300, 1000, Outcome.DRAW, (3, 3)),      # 300: still a draw ("0 to 300")
        (1301, 1000, Outcome.WIN, (4, 2)),       # 301: minor victory ("301 to 600")
        (400, 1000, Outcome.LOSS, (2, 4)),       # 600 the other way round
        (1601, 1000, Outcome.WIN, (5, 1)),       # 601: regular victory ("601 to 950")
        (1950, 1000, Outcome.WIN, (5, 1)),
        (0, 951, Outcome.LOSS, (0, 6)),          # 951: crushing victory ("951 or more")
        (3000, 0, Outcome.WIN, (6, 0)),
    ],
)
def test_default_bands_at_their_boundaries(
    vp_a: int, vp_b: int, outcome: Outcome, expected: tuple[int, int]
) -> None:
    """The default: Old World Rankings' standard table (0-300 draw 3-3, 301-600 4-2,
    601-950 5-1, 951+ 6-0) for 2,000-point games."""
    g = game(1, 1, "a", "b", vp_a, vp_b)
    assert g.seats[0].outcome is outcome
    assert tp(g) == expected


@pytest.mark.parametrize(
    ("size", "starts"),
    [(2000, [0, 301, 601, 951]), (1000, [0, 151, 301, 476]), (1500, [0, 226, 451, 714]),
     (3000, [0, 452, 902, 1427])],
)
def test_default_bands_scale_with_game_size(size: int, starts: list[int]) -> None:
    """Each threshold times game_size / 2000, rounded up to a whole VP."""
    assert [b.start for b in default_bands(size)] == starts
    assert [b.start for b in bands_of(config(game_size=size))] == starts


def test_scaled_bands_decide_tp() -> None:
    cfg = config(game_size=1000)
    assert tp(game(1, 1, "a", "b", 650, 500, cfg=cfg), cfg) == (3, 3)  # 150 of 1000: draw
    assert tp(game(1, 1, "a", "b", 651, 500, cfg=cfg), cfg) == (4, 2)
    assert tp(game(1, 1, "a", "b", 976, 500, cfg=cfg), cfg) == (6, 0)


TWENTY_NIL = [  # a 20-0 pack for 2,000 points (T3 tournament 38526's rules)
    {"from": 0, "band": "Draw", "winner": 10, "loser": 10},
    {"from": 101, "band": "Win 11-9", "winner": 11, "loser": 9},
    {"from": 251, "band": "Win 12-8", "winner": 12, "loser": 8},
    {"from": 401, "band": "Win 13-7", "winner": 13, "loser": 7},
    {"from": 601, "band": "Win 14-6", "winner": 14, "loser": 6},
    {"from": 801, "band": "Win 15-5", "winner": 15, "loser": 5},
    {"from": 1001, "band": "Win 16-4", "winner": 16, "loser": 4},
    {"from": 1201, "band": "Win 17-3", "winner": 17, "loser": 3},
    {"from": 1401, "band": "Win 18-2", "winner": 18, "loser": 2},
    {"from": 1701, "band": "Win 19-1", "winner": 19, "loser": 1},
    {"from": 2001, "band": "Crushing victory", "loss": "Crushing defeat", "winner": 20,
     "loser": 0},
]


@pytest.mark.parametrize(
    ("diff", "expected"),
    [(0, (10, 10)), (100, (10, 10)), (101, (11, 9)), (1000, (15, 5)), (1001, (16, 4)),
     (2000, (19, 1)), (2001, (20, 0))],
)
def test_a_packs_own_table_is_used_as_written(diff: int, expected: tuple[int, int]) -> None:
    """A table in event.toml is the TO's pack: not scaled, even with another game size."""
    cfg = config(bands=TWENTY_NIL, game_size=2500)
    assert tp(game(1, 1, "a", "b", 500 + diff, 500, cfg=cfg), cfg) == expected


def test_custom_bye_scores_the_top_band_and_game_size() -> None:
    cfg = config(bands=TWENTY_NIL, game_size=2500)
    g = bye(1, 1, "a")
    assert tp(g, cfg) == (20,)
    assert seat_stats(g.seats[0], g, cfg) == {"vp": 2500}


@pytest.mark.parametrize(
    ("bands", "error"),
    [
        ("draw", "'bands' must be a list of tables"),
        ([], "'bands' must be a list of tables"),
        ([1, 2], "band 1 must be a table"),
        ([{"from": 0, "band": "Draw", "winner": 3, "loser": 3, "points": 1}],
         "band 1 has unknown key(s) points"),
        ([{"from": -1, "band": "Draw", "winner": 3, "loser": 3}], "band 1: 'from' must be"),
        ([{"from": 0, "band": "", "winner": 3, "loser": 3}], "band 1: 'band' must be"),
        ([{"from": 0, "band": "Draw", "winner": "3", "loser": 3}],
         "band 1: 'winner' and 'loser' must be"),
        ([{"from": 0, "band": "Draw", "winner": 3, "loser": 3},
          {"from": 200, "band": "Win", "winner": 1, "loser": 5}],
         "band 2: 'winner' (1) is less than 'loser' (5)"),
        ([{"from": 10, "band": "Draw", "winner": 3, "loser": 3}],
         "the first band must start at 0"),
        ([{"from": 0, "band": "Win", "winner": 4, "loser": 2}], "the first band must start at 0"),
        ([{"from": 0, "band": "Draw", "winner": 3, "loser": 3},
          {"from": 500, "band": "Major", "winner": 5, "loser": 1},
          {"from": 300, "band": "Minor", "winner": 4, "loser": 2}],
         "band 'Minor' starts at 300, not above 'Major' (500)"),
    ],
)
def test_bad_band_tables_are_explained(bands: object, error: str) -> None:
    parsed, errors = parse_bands(bands)
    assert parsed == ()
    assert any(e.startswith(error) for e in errors), errors


def test_band_for_takes_the_last_band_reached() -> None:
    bands = default_bands(2000)
    assert [band_for(d, bands).name for d in (0, 300, 301, -700, 951, 5000)] == [
        "Draw", "Draw", "Minor victory", "Regular victory", "Crushing victory",
        "Crushing victory"]


# ----- byes and concessions (seed 002) -------------------------------------------------


def test_bye_is_a_crushing_victory_with_vp_equal_to_the_game_size() -> None:
    """Seed 002, "Byes": "A Bye counts as having won a Crushing Victory, and the player
    counts as having won a number of VP equal to the size of the games being played"."""
    cfg = config(game_size=1500, tiebreaks=["vp", "vp-diff"])
    ev = event("abc", [[game(1, 1, "a", "b", 900, 800, cfg=cfg), bye(1, 2, "c")]], cfg)
    standings = compute_standings(ev)
    row = standings.row("c")
    assert row is not None and row.score == 6 and row.wins == 1
    assert row.values["vp"].value == 1500
    assert row.values["vp-diff"].value == 1500
    entry = standings.records["c"].entries[0]
    assert entry.stats == {"vp": 1500}


@pytest.mark.parametrize("code", ["+-", "-+"])
def test_concession_gives_the_opponent_a_crushing_victory_and_game_size_vp(code: str) -> None:
    """Seed 002, "Concession": "their opponent is considered to have won a Crushing Victory,
    and the player counts as having won a number of VP equal to the size of the games"."""
    cfg = config(tiebreaks=["vp", "vp-diff"])
    g = game(1, 1, "a", "b", None, None, result=code)
    winner, loser = ("a", "b") if code == "+-" else ("b", "a")
    standings = compute_standings(event("ab", [[g]], cfg))
    won, lost = standings.row(winner), standings.row(loser)
    assert won is not None and lost is not None
    assert (won.score, lost.score) == (6, 0)
    assert (won.values["vp"].value, won.values["vp-diff"].value) == (2000, 2000)
    assert (lost.values["vp"].value, lost.values["vp-diff"].value) == (0, -2000)


def test_conceding_side_keeps_the_vp_written() -> None:
    g = game(1, 1, "a", "b", 2000, 450, result="+-")
    cfg = config()
    assert seat_stats(g.seats[1], g, cfg) == {"vp": 450}
    assert seat_stats(g.seats[0], g, cfg) == {"vp": 2000}


def test_double_forfeit_and_absence_score_the_top_bands_loser_tp() -> None:
    g = game(1, 1, "a", "b", None, None, result="--")
    assert tp(g) == (0, 0)
    absent = Game(1, 2, (Seat("c", Outcome.LOSS),), GameKind.ABSENT)
    assert tp(absent) == (0,)
    drawn = Game(1, 2, (Seat("c", Outcome.DRAW),), GameKind.ABSENT)
    assert tp(drawn) == (3,)


# ----- round pages ----------------------------------------------------------------------


def test_round_page_cells_show_band_and_tp_per_side() -> None:
    """Issue 4: round pages show VPs (the vp stat column), the band and TP per side."""
    cfg = config()
    g = game(1, 1, "a", "b", 1250, 900)
    assert OLD_WORLD_VIEWS.seat_headers == ("Band", "TP")
    assert [list(seat_cells(g, s, cfg)) for s in g.seats] == [
        ["Minor victory", "4"], ["Minor loss", "2"]]
    drawn = game(1, 1, "a", "b", 800, 900)
    assert [seat_cells(drawn, s, cfg)[0] for s in drawn.seats] == ["Draw", "Draw"]
    b = bye(1, 2, "c")
    assert list(seat_cells(b, b.seats[0], cfg)) == ["Crushing victory", "6"]
    conceded = game(1, 3, "d", "e", None, None, result="-+")
    assert [list(seat_cells(conceded, s, cfg)) for s in conceded.seats] == [
        ["Crushing loss", "0"], ["Crushing victory", "6"]]
    unplayed = game(2, 1, "a", "b", None, None)
    assert list(seat_cells(unplayed, unplayed.seats[0], cfg)) == ["", ""]


# ----- standings --------------------------------------------------------------------------


def test_default_tiebreaks_wins_then_vp_difference_then_sos() -> None:
    """Issue 4: tournament points, then wins, vp-diff, sos."""
    assert OLD_WORLD.default_tiebreaks == ("wins", "vp-diff", "sos")
    rounds = [
        [game(1, 1, "a", "b", 2000, 0), game(1, 2, "c", "d", 1000, 1000),
         game(1, 3, "e", "f", 1100, 1000)],
        [game(2, 1, "a", "c", 1000, 1000), game(2, 2, "b", "e", 1200, 1000),
         game(2, 3, "d", "f", 1000, 900)],
    ]
    standings = compute_standings(event("abcdef", rounds))
    scores = {r.player.id: r.score for r in standings.rows}
    assert scores == {"a": 9, "b": 3, "c": 6, "d": 6, "e": 6, "f": 6}
    six = [r.player.id for r in standings.rows if r.score == 6]
    # no one on 6 TP has a win; vp-diff: d +100, c 0, e +100-200, f -100-100
    assert six == ["d", "c", "e", "f"]


def test_wins_break_a_tie_before_vp_difference() -> None:
    # a: minor win (4) and minor loss (2), vp-diff +50; c: two draws (3 + 3), vp-diff +600
    rounds = [[game(1, 1, "a", "b", 1400, 1000), game(1, 2, "c", "d", 1300, 1000)],
              [game(2, 1, "a", "d", 1000, 1350), game(2, 2, "c", "b", 1300, 1000)]]
    standings = compute_standings(event("abcd", rounds))
    rows = {r.player.id: r for r in standings.rows}
    assert rows["a"].score == rows["c"].score == 6
    assert (rows["a"].values["vp-diff"].value, rows["c"].values["vp-diff"].value) == (50, 600)
    assert rows["a"].rank < rows["c"].rank  # a has a win, c none


def test_the_spare_player_is_never_ranked_but_their_opponents_score() -> None:
    """Seed 002, "Spare Player": the spare plays and records results like anyone."""
    players = [Player("a", "A"), Player("b", "B"), Player("c", "C"),
               Player("s", "Spare", spare=True)]
    ev = event(players, [[game(1, 1, "a", "b", 1500, 500), game(1, 2, "c", "s", 800, 1900)]])
    standings = compute_standings(ev)
    assert [r.player.id for r in standings.rows] == ["a", "b", "c"]
    assert {r.player.id: r.score for r in standings.rows} == {"a": 6, "b": 0, "c": 0}
    assert standings.records["s"].score == 6  # recorded, just not ranked


@settings(deadline=None, max_examples=40)
@given(st.integers(2, 9), st.lists(st.integers(0, 2500), min_size=20, max_size=20),
       st.integers(0, 8))
def test_spare_never_ranked_whatever_the_results(n: int, vps: list[int], where: int) -> None:
    ids = [f"p{k}" for k in range(n)]
    spare = ids[where % n]
    players = [Player(p, p, spare=p == spare) for p in ids]
    games = [game(1, k // 2 + 1, ids[k], ids[k + 1], vps[k], vps[k + 1])
             for k in range(0, n - 1, 2)]
    if n % 2:
        games.append(bye(1, n, ids[-1]))
    standings = compute_standings(event(players, [games]))
    ranked = [r.player.id for r in standings.rows]
    assert spare not in ranked
    assert sorted(ranked) == sorted(p for p in ids if p != spare)
    assert sorted(r.rank for r in standings.rows)[0] == 1


# ----- files: deriving and checking results --------------------------------------------

OW_TOML = 'name = "Old World"\ndate = 2026-05-01\nformat = "old-world"\n'
OW_PLAYERS = "id,name,faction,spare\na,Ann,Empire,\nb,Bob,Dwarfs,\nc,Cat,Orcs,\nd,Dan,Elves,\n"
OW_HEADER = "table,player_1,player_2,result,vp_1,vp_2\n"


def load(tree: Callable[..., Path], files: Mapping[str, str]) -> Any:
    return load_tree(tree({"ev/event.toml": OW_TOML, "ev/players.csv": OW_PLAYERS, **files},
                          base=False))


def problems(tree: Callable[..., Path], files: Mapping[str, str]) -> list[str]:
    root = tree({"ev/event.toml": OW_TOML, "ev/players.csv": OW_PLAYERS, **files}, base=False)
    with pytest.raises(InputError) as caught:
        load_tree(root)
    return [str(p).replace(root.as_posix() + "/", "") for p in caught.value.problems]


def test_empty_result_is_derived_from_the_vps(tree: Callable[..., Path]) -> None:
    loaded = load(tree, {"ev/round-1.csv": OW_HEADER + "1,a,b,,1400,1000\n2,c,d,,1000,1300\n"})
    games = loaded.events[0].rounds[0].games
    assert [s.outcome for s in games[0].seats] == [Outcome.WIN, Outcome.LOSS]
    assert [s.outcome for s in games[1].seats] == [Outcome.DRAW, Outcome.DRAW]


def test_a_result_that_agrees_with_the_vps_loads(tree: Callable[..., Path]) -> None:
    loaded = load(tree, {"ev/round-1.csv": OW_HEADER + "1,a,b,1-0,1400,1000\n"
                         "2,c,d,draw,1000,1300\n"})
    assert loaded.events[0].rounds[0].finished


def test_check_names_the_row_whose_result_disagrees(tree: Callable[..., Path]) -> None:
    found = problems(tree, {"ev/round-1.csv": OW_HEADER + "1,a,b,1-0,1400,1000\n"
                            "2,c,d,1-0,1250,1000\n"})
    assert found == ["ev/round-1.csv:3: result '1-0' disagrees with the victory points "
                     "1250-1000: a difference of 250 is a Draw (from 0); write 'draw', leave "
                     "the result empty to derive it, or correct vp_1/vp_2"]


def test_a_played_result_needs_both_vps(tree: Callable[..., Path]) -> None:
    found = problems(tree, {"ev/round-1.csv": OW_HEADER + "1,a,b,1-0,,\n2,c,d,,1000,\n"})
    assert found == [
        "ev/round-1.csv:2: result '1-0' has no victory points; enter vp_1 and vp_2 (the "
        "tournament points follow from their difference)",
        "ev/round-1.csv:3: only one side's victory points are given; enter both vp_1 and "
        "vp_2 (or neither while the game is unplayed)",
    ]


def test_concession_and_bye_rows_need_no_vps(tree: Callable[..., Path]) -> None:
    players = OW_PLAYERS + "e,Eve,Skaven,\n"
    loaded = load_tree(tree({"ev/event.toml": OW_TOML, "ev/players.csv": players,
                             "ev/round-1.csv": OW_HEADER + "1,a,b,+-,,\n2,c,d,-+,,\n"
                             "3,e,BYE,,,\n"}, base=False))
    standings = compute_standings(loaded.events[0])
    assert {r.player.id: r.score for r in standings.rows} == {
        "a": 6, "b": 0, "c": 0, "d": 6, "e": 6}


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ("game_size = 0\n", "ev/event.toml:5: option 'game_size' must be a whole number from 1"),
        ("top_tables_percent = 150\n",
         "ev/event.toml:5: option 'top_tables_percent' must be a number from 0 to 100"),
        ('bands = [{ from = 0, band = "Draw", winner = 3, loser = 3 },\n'
         '         { from = 0, band = "Win", winner = 4, loser = 2 }]\n',
         "ev/event.toml:5: option 'bands': band 'Win' starts at 0, not above 'Draw' (0)"),
        ('bands = "20-0"\n', "ev/event.toml:5: option 'bands' must be a list"),
        ("game_sise = 2000\n", "ev/event.toml:5: unknown option 'game_sise' for format "
         "old-world; did you mean 'game_size'?"),
    ],
)
def test_bad_options_are_reported(
    tree: Callable[..., Path], options: str, expected: str
) -> None:
    found = problems(tree, {"ev/event.toml": OW_TOML + "[options]\n" + options})
    assert any(f.startswith(expected) for f in found), found


def test_only_one_spare_player(tree: Callable[..., Path]) -> None:
    players = OW_PLAYERS.replace("c,Cat,Orcs,", "c,Cat,Orcs,yes").replace(
        "d,Dan,Elves,", "d,Dan,Elves,yes")
    found = problems(tree, {"ev/players.csv": players})
    assert found == ["ev/players.csv:5: 'd' is a second spare player (the first is 'c'); "
                     "mark one player spare = yes"]


def test_bands_given_in_event_toml_load(tree: Callable[..., Path]) -> None:
    toml = OW_TOML + "[options]\nbands = [\n" + "".join(
        "  { " + ", ".join(f"{k} = {v!r}".replace("'", '"') for k, v in row.items()) + " },\n"
        for row in TWENTY_NIL) + "]\n"
    loaded = load(tree, {"ev/event.toml": toml,
                         "ev/round-1.csv": OW_HEADER + "1,a,b,,1500,400\n2,c,d,,900,1000\n"})
    standings = compute_standings(loaded.events[0])
    assert {r.player.id: r.score for r in standings.rows} == {"a": 16, "b": 4, "c": 10, "d": 10}


def test_records_count_byes_as_wins_for_the_wins_tiebreak() -> None:
    ev = event("abc", [[game(1, 1, "a", "b", 1400, 1000), bye(1, 2, "c")]])
    records = build_records(ev, OLD_WORLD)
    assert records["c"].count(Outcome.WIN) == 1 and records["c"].score == 6
