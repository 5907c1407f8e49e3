"""The chess Swiss format: points, rounds, options, colour rules (FIDE C.04.1 / C.04.3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from standgen.build import check
from standgen.errors import InputError
from standgen.formats import ROUND_ROBIN_FORMATS
from standgen.formats.swiss import SWISS, planned_rounds
from standgen.model import EventConfig, Player
from standgen.pairing.swiss import (
    ABSOLUTE,
    BLACK,
    MILD,
    NONE,
    STRONG,
    WHITE,
    breaks_colour_rules,
    high_gets_white,
    preference,
)
from standgen.pipeline import report
from standgen.site.formats.swiss import VIEWS as SWISS_VIEWS
from standgen.standings import compute_standings
from standgen.tiebreaks import TIEBREAKS
from tests.build import make_event

CONFIG = EventConfig(name="T", date=__import__("datetime").date(2026, 1, 1), format="swiss")


def test_points_one_half_zero_forfeits_and_byes() -> None:
    event = make_event(
        ["a", "b", "c", "d", "e", "f", "g"],
        [[("a", "b", "1-0"), ("c", "d", "draw"), ("e", "f", "+-"), ("g", "BYE", "")]],
        fmt="swiss",
    )
    scores = compute_standings(event).context.scores
    assert dict(scores) == {"a": 1.0, "b": 0.0, "c": 0.5, "d": 0.5, "e": 1.0, "f": 0.0,
                            "g": 1.0}


def test_bye_points_option_and_absences() -> None:
    event = make_event(
        ["a", "b", "c", "d", "e"],
        [[("a", "b", "1-0"), ("c", "BYE", ""), ("d", "ABSENT", "draw"), ("e", "ABSENT", "")]],
        fmt="swiss", options={"bye_points": 0.5},
    )
    scores = compute_standings(event).context.scores
    assert (scores["c"], scores["d"], scores["e"]) == (0.5, 0.5, 0.0)


@pytest.mark.parametrize("players, rounds", [(2, 1), (3, 2), (4, 3), (8, 4), (9, 5), (14, 5),
                                             (16, 5), (17, 6), (100, 8)])
def test_planned_rounds(players: int, rounds: int) -> None:
    assert planned_rounds(players, CONFIG) == rounds


def test_planned_rounds_round_robin() -> None:
    config = EventConfig(name="T", date=CONFIG.date, format="swiss",
                         options={"pairing": "round-robin"})
    fmt = ROUND_ROBIN_FORMATS["swiss"]
    assert (fmt.planned_rounds(6, config), fmt.planned_rounds(7, config)) == (5, 7)


def test_default_tiebreaks_exist_and_follow_fide() -> None:
    """FIDE C.02 13.16.4 (individual Swiss): Buchholz cut 1, Buchholz, Sonneborn-Berger,
    cumulative, direct encounter, wins."""
    assert SWISS.default_tiebreaks[:3] == ("sos-cut1", "sos", "sb")
    assert all(t in TIEBREAKS for t in SWISS.default_tiebreaks)


# ----- colour preferences, FIDE C.04.3 A.6 -----------------------------------------------

@pytest.mark.parametrize("colours, expected", [
    ("", (None, NONE)),
    ("w", (BLACK, STRONG)),  # difference +1 after one game
    ("wb", (WHITE, MILD)),
    ("wbw", (BLACK, STRONG)),
    ("bwb", (WHITE, STRONG)),
    ("ww", (BLACK, ABSOLUTE)),  # two in a row
    ("wbb", (WHITE, ABSOLUTE)),  # two in a row, difference -1
    ("wwbw", (BLACK, ABSOLUTE)),  # difference +2
    ("bwbbw", (WHITE, STRONG)),
])
def test_colour_preference(colours: str, expected: tuple[str | None, int]) -> None:
    assert preference(tuple(colours)) == expected


@pytest.mark.parametrize("colours, broken", [
    ("wbwb", False), ("wwb", False), ("www", True), ("bwbbb", True), ("wwbwbww", True),
    ("wwbw", False),
])
def test_colour_rules(colours: str, broken: bool) -> None:
    """FIDE C.04.1 f-g: never three of one colour in a row, difference at most 2."""
    assert breaks_colour_rules(tuple(colours)) is broken


@pytest.mark.parametrize("high, low, number, initial, white", [
    ("b", "w", 1, WHITE, True),  # E.1: both preferences granted
    ("wbw", "bw", 1, WHITE, False),  # E.2: the strong preference (high, Black) wins
    ("bw", "wbw", 1, WHITE, True),  # E.2: low's strong Black wins over high's mild
    ("ww", "bww", 1, WHITE, False),  # E.2: both absolute Black; wider difference: high
    ("bwwb", "wbwb", 1, WHITE, False),  # E.3: last differing round high had White
    ("wb", "bwwb", 1, WHITE, True),  # E.4: no difference found: the higher ranked's wish
    ("", "", 1, WHITE, True),  # E.5: odd pairing number gets the initial colour
    ("", "", 2, WHITE, False),
    ("", "", 3, BLACK, False),
    ("", "w", 4, WHITE, True),  # E.1: only the lower player has a preference
])
def test_colour_allocation(high: str, low: str, number: int, initial: str, white: bool) -> None:
    assert high_gets_white(tuple(high), tuple(low), number, initial) is white


# ----- hooks and options ----------------------------------------------------------------

def test_seat_colours_player_tables_and_trf_download() -> None:
    people = [Player(id=p, name=p.title(), rating=2000.0 - k) for k, p in enumerate("abcd")]
    event = make_event(people, [[("a", "c", "1-0"), ("d", "b", "draw")]], fmt="swiss")
    rep = report(event)
    game = event.rounds[0].games[0]
    assert SWISS_VIEWS.seat_cells is not None and SWISS_VIEWS.player_tables is not None
    assert [SWISS_VIEWS.seat_cells(game, s, event.config) for s in game.seats] == [("White",),
                                                                             ("Black",)]
    (table,) = SWISS_VIEWS.player_tables(rep, "a")
    assert [c.text for c in table.rows[0]] == ["W", "+1", "Black (strong)"]
    assert SWISS_VIEWS.downloads is not None
    trf = SWISS_VIEWS.downloads(rep)["results.trf"].decode()
    assert trf.startswith("012 Test Event\r\n") and "XXR " in trf


EVENT = 'name = "Chess"\ndate = 2026-03-14\nformat = "swiss"\n'
PLAYERS = "id,name,rating\na,Ann,2100\nb,Bob,2000\nc,Cat,1900\nd,Dan,1800\n"


@pytest.mark.parametrize("option, text", [
    ("bye_points = 2", "bye_points"),
    ('initial_colour = "red"', "initial_colour"),
    ('start_order = "random"', "start_order"),
    ('fide_edition = "2019"', "fide_edition"),
])
def test_bad_option_values_are_problems(tree: object, option: str, text: str) -> None:
    assert callable(tree)
    root: Path = tree({"ev/event.toml": EVENT + f"[options]\n{option}\n",
                       "ev/players.csv": PLAYERS, "ev/round-1.csv": None})
    with pytest.raises(InputError) as caught:
        check(root)
    assert f"option '{text}'" in str(caught.value)
    assert "ev/event.toml:" in str(caught.value)
