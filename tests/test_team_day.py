"""A chess team event's day through the CLI, in random order: a drop after the pairings
are out, a reserve entered late, a result corrected after the next round was paired.
``standgen check``'s advice for each is right for a team event (its boards follow its
matches: no individual Dutch deviation, a stale *team* round named with the command that
pairs it again), and following the advice leaves ``check`` clean."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tests.test_team_c046 import chess_team_event, type_results
from tests.test_team_matches import rows_of
from tests.test_teams import cli


def _matches(folder: Path, number: int) -> set[frozenset[str]]:
    return {frozenset(t for t in (m["team_1"], m["team_2"]) if t)
            for m in rows_of(folder / f"teams-round-{number}.csv")}


def _flip_first_result(folder: Path, number: int) -> None:
    path = folder / f"round-{number}.csv"
    text = path.read_text(encoding="utf-8")
    flipped = {"1-0": "0-1", "0-1": "1-0", "½-½": "1-0"}
    lines = text.splitlines()
    for k, line in enumerate(lines[1:], start=1):
        cells = line.split(",")
        if cells[2] != "BYE" and cells[3] in flipped:
            cells[3] = flipped[cells[3]]
            lines[k] = ",".join(cells)
            break
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_reserve_is_no_team_size_warning_and_a_short_team_is(tmp_path: Path) -> None:
    folder = chess_team_event(tmp_path)
    players = folder / "players.csv"
    players.write_text(players.read_text(encoding="utf-8")
                       + "c2-9,Jean-Baptiste d'Ornano-Lefèvre de Saint-Exupéry,2200,c2\n",
                       encoding="utf-8")
    code, out = cli("check", str(tmp_path / "events"))
    assert code == 0 and "team 'c2'" not in out, out  # a reserve
    lines = players.read_text(encoding="utf-8").splitlines()
    players.write_text("\n".join(line for line in lines if not line.startswith("c3-"))
                       + "\n", encoding="utf-8")
    code, out = cli("check", str(tmp_path / "events"))
    assert "team 'c3' has 0 player(s) and [teams] size is 4" in out, out


@pytest.mark.parametrize("seed", range(3))
def test_a_team_day_in_random_order_gets_advice_that_works(tmp_path: Path, seed: int
                                                           ) -> None:
    rng = random.Random(seed)
    folder = chess_team_event(tmp_path, rounds=3)
    events = str(tmp_path / "events")
    for number in range(1, 4):
        code, out = cli("pair", str(folder))
        assert code == 0, out
        actions = ["drop", "late", "correct"] if number > 1 else ["drop", "late"]
        rng.shuffle(actions)
        for action in actions[: rng.randint(1, len(actions))]:
            if action == "drop":  # after the pairings are read out
                team = rng.choice("12345")
                player = f"c{team}-{rng.randint(1, 4)}"
                code, out = cli("drop", str(folder), player)
                assert code == 0, out
            elif action == "late":  # a reserve arrives
                players = folder / "players.csv"
                header = players.read_text(encoding="utf-8").splitlines()[0].split(",")
                cells = [f"c1-r{number}", f"Zoë O'Brien-Łukasiewicz {number}", "2100", "c1"]
                cells += [""] * (len(header) - len(cells))
                with players.open("a", encoding="utf-8") as out_file:
                    out_file.write(",".join(cells) + "\n")
            else:  # a result of the round before, corrected now
                _flip_first_result(folder, number - 1)
            code, out = cli("check", events)
            assert code == 0, out
            assert "not the Dutch system's pairing" not in out, out
            assert "[teams] size is" not in out or "has 3 player" in out, out
            for advice in [line for line in out.splitlines() if "--redo" in line]:
                found = re.search(r"standgen pair (\S+) --redo (\d+)", advice)
                assert found is not None, advice
                code, said = cli("pair", found.group(1), "--redo", found.group(2))
                assert code == 0, (advice, said)
            code, out = cli("check", events)
            assert code == 0 and "--redo" not in out, out
        type_results(folder, number, rng.choice(["1-0", "0-1", "½-½"]))
    assert all(len(_matches(folder, n)) == 3 for n in range(1, 4))
    code, out = cli("build", events, "-o", str(tmp_path / "out"))
    assert code == 0, out
