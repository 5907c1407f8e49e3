"""Issue #19: an event day run through the CLI as a TO runs it, with the usual changes.

13 chess players in five rounds: a late entry after round 1, a drop, a half-point bye
request, a re-pair of round 3 after a second request, a rematch made by hand that
``check`` flags, results typed as a spreadsheet types them, to the final standings.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from standgen.cli import main
from tests.conftest import EVENT_TOML, ROUND_HEADER
from tests.conftest import PLAYERS as FOUR_PLAYERS

CLUB = [("ana", "Ana Lopes", 2210), ("ben", "Ben Ortiz", 2150), ("cai", "Cai Wen", 2090),
           ("dee", "Dee Hart", 2040), ("eli", "Eli Moss", 1985), ("fay", "Fay Quinn", 1930),
           ("gus", "Gus Lind", 1880), ("hal", "Hal Berg", 1820), ("ivy", "Ivy Shaw", 1775),
           ("jon", "Jon Kerr", 1710), ("kim", "Kim Roth", 1650), ("lou", "Lou Vance", 1600)]


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def write_rows(path: Path, table: list[dict[str, str]]) -> None:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(table[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(table)
    path.write_text(out.getvalue(), encoding="utf-8")


def play(path: Path, spellings: tuple[str, ...] = ("1-0",)) -> None:
    """Enter a result at every paired table: the first player wins (typed as given)."""
    table = rows(path)
    for k, row in enumerate(table):
        if row["player_2"] not in ("BYE", "ABSENT") and not row["result"]:
            row["result"] = spellings[k % len(spellings)]
    write_rows(path, table)


def ids_in(path: Path) -> set[str]:
    """Return the players paired against an opponent in a round file."""
    return {p for row in rows(path) if row["player_2"] not in ("BYE", "ABSENT")
            for p in (row["player_1"], row["player_2"])}


@pytest.fixture
def event(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    run("new", "events/2026/club-night", "--format", "swiss", "--name", "Club Night")
    folder = tmp_path / "events/2026/club-night"
    toml = folder / "event.toml"
    toml.write_text(toml.read_text().replace("# rounds = ", "rounds = 5 #"))
    lines = ["id,name,club,country,rating,dropped_after"]
    lines += [f"{pid},{name},,,{rating}," for pid, name, rating in CLUB]
    (folder / "players.csv").write_text("\n".join(lines) + "\n")
    return folder


def test_a_scripted_event_day(event: Path) -> None:
    rnd = {n: event / f"round-{n}.csv" for n in range(1, 6)}
    out = run("pair", str(event))
    assert "Round 1:" in out and "table 1: Ana Lopes vs" in out or "table 1:" in out
    play(rnd[1], ("1:0", "1 - 0", "1–0"))  # as typed at the desk
    # a late entry: a new row in players.csv, no made-up rows in round 1
    with (event / "players.csv").open("a") as players:
        players.write("max,Max Late,,,1900,\n")
    check = run("check", "events")
    assert "player 'max' has no row before round 2: a late entry" in check
    run("pair", str(event))
    assert "max" in ids_in(rnd[2])
    play(rnd[2])
    # a drop after round 2, and a half-point bye asked for round 3
    assert "dropped after round 2" in run("drop", str(event), "lou")
    run("bye", str(event), "kim", "--round", "3")
    run("pair", str(event))
    assert "lou" not in rnd[3].read_text() and "kim" not in ids_in(rnd[3])
    assert {"player_1": "kim", "result": "draw"}.items() <= next(
        r for r in rows(rnd[3]) if r["player_1"] == "kim").items()
    # a second request before round 3 starts: the round is paired again
    run("bye", str(event), "jon", "--round", "3")
    out = run("pair", str(event), "--redo", "3")
    assert "not paired (asked for a bye, or absent): Jon Kerr (1710), Kim Roth (1650)" in out
    assert "Not paired, as they asked" not in out  # the pairing's notes: with --explain
    assert "jon" not in ids_in(rnd[3])
    status = run("status", str(event))
    assert "round 3" in status and "without a result" in status
    play(rnd[3])
    assert "round 3 is complete" in run("status", str(event))
    run("pair", str(event))
    # a rematch made by hand: round 4's first table swapped against a round 1 opponent
    first = rows(rnd[1])[0]
    table4 = rows(rnd[4])
    a, b = first["player_1"], first["player_2"]
    row_a = next(r for r in table4 if a in (r["player_1"], r["player_2"]))
    row_b = next(r for r in table4 if b in (r["player_1"], r["player_2"]))
    if row_a is not row_b and "BYE" not in (row_a["player_2"], row_b["player_2"]):
        other_a = row_a["player_2"] if row_a["player_1"] == a else row_a["player_1"]
        row_b_side = "player_1" if row_b["player_1"] == b else "player_2"
        row_a_side = "player_1" if row_a["player_1"] == other_a else "player_2"
        row_b[row_b_side], row_a[row_a_side] = other_a, b
        write_rows(rnd[4], table4)
    check = run("check", "events")
    assert "already met in round 1: a rematch" in check
    play(rnd[4])
    run("pair", str(event))
    play(rnd[5])
    assert "the event is over" in CliRunner().invoke(main, ["pair", str(event)]).output
    run("build", "events", "-o", "site")
    standings = json.loads(Path("site/2026/club-night/standings.json").read_text())
    score = {row["id"]: row["score"] for row in standings["standings"]}
    expected = {pid: 0.0 for pid in score}
    for n in range(1, 6):
        for row in rows(rnd[n]):
            one, two, result = row["player_1"], row["player_2"], row["result"]
            if two == "BYE":
                expected[one] += 1.0  # a pairing-allocated bye scores a win
            elif two == "ABSENT":
                expected[one] += {"draw": 0.5, "1-0": 1.0}.get(result, 0.0)
            else:
                expected[one if normalised(result) == "1-0" else two] += 1.0
    assert score == expected
    assert expected["max"] <= 4.0  # absent in round 1, without a row
    assert "lou" in score and "max" in score


def normalised(result: str) -> str:
    from standgen.results import normalise_result

    return normalise_result(result)


def test_publish_next_false_keeps_the_proposed_round_off_the_site(tree: Any) -> None:
    from standgen import build as lib
    from standgen.load import load_tree

    shown = lib.render(load_tree(tree({})))
    assert "ev/round-2/index.html" in shown
    hidden = lib.render(load_tree(tree({"ev/event.toml": EVENT_TOML
                                        + "[options]\npublish_next = false\n"})))
    assert "ev/round-2/index.html" not in hidden
    assert "ev/round-1/index.html" in hidden


def test_a_clear_winner_says_which_option_plays_on(tree: Any) -> None:
    root = tree({"ev/round-2.csv": ROUND_HEADER + "1,a,c,1-0,3,1,40,20\n2,b,d,1-0,2,0,30,10\n"})
    result = CliRunner().invoke(main, ["pair", str(root / "ev"), "--events", str(root)])
    assert result.exit_code == 2
    assert "over after round 2 of 3: a clear winner" in result.output
    assert "clear_winner = false" in result.output


def test_check_flags_a_second_bye_and_empty_stats(tree: Any) -> None:
    root = tree({
        "ev/players.csv": FOUR_PLAYERS + "e,Eve,Cryx\n",
        "ev/round-1.csv": ROUND_HEADER + "1,a,b,1-0,3,1,40,20\n2,c,d,0-1,,,,\n3,e,BYE,,,,,\n",
        "ev/round-2.csv": ROUND_HEADER + "1,a,d,1-0,3,1,40,20\n2,b,c,0-1,1,2,10,30\n"
                          "3,e,BYE,,,,,\n",
    })
    result = CliRunner().invoke(main, ["check", str(root)])
    assert result.exit_code == 0, result.output
    assert "round-2.csv:4: warning: 'e' gets a second bye (the first in round 1)" in result.output
    assert "round-1.csv:3: warning: table 2: CP/APD left empty count as 0" in result.output \
        or "left empty count as 0" in result.output
    assert "the bye went to 'e' on 1, but" in result.output


def test_new_event_scaffold_states_defaults_and_publishes_no_placeholder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    run("new", "events/2026/dip", "--format", "diplomacy")
    assert "# rounds = 3  # the default" in Path("events/2026/dip/event.toml").read_text()
    (Path("events/2026/dip/players.csv")).write_text(
        "id,name\n" + "".join(f"p{k},Player {k}\n" for k in range(1, 12)))
    out = run("pair", "events/2026/dip")
    assert "players sit out this round" in out and "two_boards" in out
    run("build", "events", "-o", "site")
    page = Path("site/2026/dip/index.html").read_text()
    assert "Describe the venue" not in page
