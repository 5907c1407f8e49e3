"""load: every bad input gives ``path:line: message``, all problems in one run."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from standgen.errors import InputError
from standgen.load import load_tree
from tests.conftest import EVENT_TOML, PLAYERS, ROUND_1, ROUND_HEADER

R = ROUND_HEADER
CASES: list[tuple[str, dict[str, str | bytes], list[str]]] = [
    ("bad toml", {"ev/event.toml": 'name = "Test\ndate = 2026-03-14\n'},
     ["ev/event.toml:1: is not valid TOML"]),
    ("date as text", {"ev/event.toml": EVENT_TOML.replace("2026-03-14", '"14 March"')},
     ["ev/event.toml:2: 'date' is required and must be a date without quotes"]),
    ("unknown format", {"ev/event.toml": EVENT_TOML.replace("steamroller", "steamrolller")},
     ["ev/event.toml:3: unknown format 'steamrolller'"]),
    ("unknown tiebreak", {"ev/event.toml": EVENT_TOML + 'tiebreaks = ["cumulativ"]\n'},
     ["ev/event.toml:4: unknown tiebreak 'cumulativ'; did you mean 'cumulative'?"]),
    ("unknown key", {"ev/event.toml": EVENT_TOML + 'organizer = "Sam"\n'},
     ["ev/event.toml:4: unknown key 'organizer'; did you mean 'organiser'?"]),
    ("unknown option", {"ev/event.toml": EVENT_TOML + "[options]\nclear_winer = false\n"},
     ["ev/event.toml:5: unknown option 'clear_winer' for format steamroller; did you mean "
      "'clear_winner'?"]),
    ("option type", {"ev/event.toml": EVENT_TOML + '[options]\nclear_winner = "no"\n'},
     ["ev/event.toml:5: option 'clear_winner' must be true or false"]),
    ("missing players", {"ev/players.csv": None},  # type: ignore[dict-item]
     ["ev/players.csv:1: players.csv is missing"]),
    ("duplicate id", {"ev/players.csv": PLAYERS + "a,Another,Cryx\n"},
     ["ev/players.csv:6: id 'a' is already used on line 2; ids must be unique"]),
    ("id not a slug", {"ev/players.csv": PLAYERS + "Eve K,Eve,Cryx\n"},
     ["ev/players.csv:6: id 'Eve K' must be a slug"]),
    ("misspelt column", {"ev/players.csv": "id,name,factoin\na,Ann,Cygnar\n"},
     ["ev/players.csv:1: unknown column 'factoin'; did you mean 'faction'?"]),
    ("missing column", {"ev/round-1.csv": "table,player_1,player_2,cp_1,cp_2,apd_1,apd_2\n"},
     ["ev/round-1.csv:1: missing column(s) 'result'"]),
    ("unknown player", {"ev/round-1.csv": R + "1,a,bob,1-0,3,1,40,20\n2,c,d,0-1,0,2,10,30\n"},
     ["ev/round-1.csv:2: unknown player id 'bob' in player_2"]),
    ("player twice", {"ev/round-1.csv": R + "1,a,b,1-0,,,,\n2,c,a,0-1,,,,\n3,d,BYE,,,,,\n"},
     ["ev/round-1.csv:3: player 'a' is already in this round on line 2"]),
    ("table twice", {"ev/round-1.csv": R + "1,a,b,1-0,,,,\n1,c,d,0-1,,,,\n"},
     ["ev/round-1.csv:3: table 1 is already used on line 2"]),
    ("bad result", {"ev/round-1.csv": R + "1,a,b,W,,,,\n2,c,d,0-1,,,,\n"},
     ["ev/round-1.csv:2: result 'W' is not one of: 1-0, 0-1, draw"]),
    ("negative stat", {"ev/round-1.csv": R + "1,a,b,1-0,-3,1,,\n2,c,d,0-1,,,,\n"},
     ["ev/round-1.csv:2: cp_1 '-3' cannot be negative"]),
    ("text stat", {"ev/round-1.csv": R + "1,a,b,1-0,3,1,lots,\n2,c,d,0-1,,,,\n"},
     ["ev/round-1.csv:2: apd_1 'lots' must be a whole number"]),
    ("blank line", {"ev/round-1.csv": R + "1,a,b,1-0,,,,\n\n2,c,d,0-1,,,,\n"},
     ["ev/round-1.csv:3: blank line; delete it"]),
    ("field count", {"ev/round-1.csv": R + "1,a,b,1-0\n2,c,d,0-1,,,,\n"},
     ["ev/round-1.csv:2: has 4 fields but the header has 8"]),
    ("gap in rounds", {"ev/round-3.csv": ROUND_1},
     ["ev/round-3.csv:1: round-2.csv is missing"]),
    ("missing player", {"ev/round-2.csv": R + "1,a,b,1-0,,,,\n"},
     ["ev/round-2.csv:1: player 'c' (", "ev/round-2.csv:1: player 'd' ("]),
    ("bom in event.toml", {"ev/event.toml": b"\xef\xbb\xbf" + EVENT_TOML.encode()},
     ["ev/event.toml:1: file starts with a byte-order mark (BOM)"]),
    ("dropped player plays", {
        "ev/players.csv": PLAYERS.replace("d,Dan,Legion", "d,Dan,Legion").replace(
            "id,name,faction", "id,name,faction,dropped_after").replace(
            "Cygnar\n", "Cygnar,\n").replace("Khador\n", "Khador,\n").replace(
            "Cryx\n", "Cryx,\n").replace("Legion\n", "Legion,1\n"),
        "ev/round-2.csv": R + "1,a,c,1-0,,,,\n2,b,d,1-0,,,,\n"},
     ["ev/round-2.csv:3: player 'd' dropped after round 1"]),
    ("utf-16", {"ev/players.csv": PLAYERS.encode("utf-16")},
     ["ev/players.csv:1: file is UTF-16; save it as UTF-8"]),
    ("empty file", {"ev/players.csv": ""},
     ["ev/players.csv:1: file is empty; it needs a header row: id,name"]),
    ("folder not a slug", {"Spring Open/event.toml": EVENT_TOML},
     ["Spring Open:1: folder name 'Spring Open' is not a slug"]),
    ("bye with result for two", {"ev/round-1.csv": R + "1,a,b,1-0,,,,\n2,c,d,0-1,,,,\n"
                                 "3,a,BYE,+-,,,,\n"},
     ["ev/round-1.csv:4: result '+-' cannot be given on a BYE row"]),
]


@pytest.mark.parametrize(("name", "files", "expected"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_reported_with_path_and_line(
    tree: Callable[..., Path], name: str, files: dict[str, str | bytes], expected: list[str]
) -> None:
    root = tree(files)
    with pytest.raises(InputError) as caught:
        load_tree(root)
    messages = [str(p).replace(root.as_posix() + "/", "") for p in caught.value.problems]
    for want in expected:
        assert any(m.startswith(want) for m in messages), (want, messages)


def test_every_problem_of_a_run_is_reported_together(tree: Callable[..., Path]) -> None:
    root = tree({
        "ev/players.csv": PLAYERS + "a,Again,Cryx\n",
        "other/event.toml": EVENT_TOML.replace("steamroller", "chess"),
        "other/players.csv": PLAYERS,
    })
    with pytest.raises(InputError) as caught:
        load_tree(root)
    assert len(caught.value.problems) >= 2
    paths = {Path(p.path).relative_to(root).as_posix() for p in caught.value.problems}
    assert {"ev/players.csv", "other/event.toml"} <= paths


def test_valid_tree_loads(tree: Callable[..., Path]) -> None:
    loaded = load_tree(tree({}))
    (event,) = loaded.events
    assert event.path == ("ev",)
    assert [p.id for p in event.players] == ["a", "b", "c", "d"]
    (rnd,) = event.rounds
    assert rnd.finished and [g.table for g in rnd.games] == [1, 2]
    assert event.rounds[0].games[0].seats[0].stats == {"cp": 3.0, "apd": 40.0}


def test_round_in_progress_loads_with_unfinished_games(tree: Callable[..., Path]) -> None:
    loaded = load_tree(tree({"ev/round-2.csv": R + "1,a,c,,,,,\n2,b,d,1-0,,,,\n"}))
    rnd = loaded.events[0].rounds[1]
    assert rnd.started and not rnd.finished


def test_default_seed_is_derived_from_the_path(tree: Callable[..., Path]) -> None:
    first = load_tree(tree({})).events[0].config.seed
    assert first == load_tree(tree({})).events[0].config.seed
    assert isinstance(first, int) and first > 0
