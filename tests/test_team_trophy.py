"""A Diplomacy team trophy (issue #34: "a team's score is the sum of its members' best
results as the event declares (for example the best three); no team pairing"):
``[teams] best = N``, the worked example of docs/teams.md, the page and standings.json."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from standgen.errors import InputError
from standgen.eventday import load
from standgen.standings import compute_standings
from standgen.teams.standings import best_results, team_standings
from tests.test_diplomacy import FOURTEEN, POWERS, draw3, solo_for_france
from tests.test_teams import cli, write_csv

HEADER = ["board", "player", "power", "centres", "result", "eliminated_year"]
NORTH, SOUTH = FOURTEEN[:3], FOURTEEN[7:10]


def diplomacy_cup(root: Path, teams_toml: str = "best = 3") -> Path:
    """Fourteen players, two boards a round, draw-size scoring with a pot of 300 (a
    three-way draw 100 each, a solo 300). North is p00-p02, South p07-p09. Round 1: p00,
    p01, p02 draw on board 1, p09 solos on board 2. Round 2: p07, p08, p00 draw on board
    1, p01 solos on board 2."""
    folder = root / "events" / "2026" / "dip-cup"
    folder.mkdir(parents=True)
    (folder / "event.toml").write_text(
        'name = "Dip Cup"\ndate = 2026-05-01\nformat = "diplomacy"\nrounds = 2\n\n'
        '[options]\nscoring = "draw-size"\npot = 300\n\n' f"[teams]\n{teams_toml}\n",
        encoding="utf-8")
    team = {**dict.fromkeys(NORTH, "North"), **dict.fromkeys(SOUTH, "South")}
    write_csv(folder / "players.csv", ["id", "name", "team"],
              [[p, p.title(), team.get(p, "")] for p in FOURTEEN])
    rounds = {1: (FOURTEEN[:7], FOURTEEN[7:]),
              2: (["p07", "p08", "p00", "p03", "p04", "p05", "p06"],
                  ["p02", "p09", "p01", "p10", "p11", "p12", "p13"])}
    for number, (one, two) in rounds.items():
        rows = []
        for b, seated in ((1, draw3(one)), (2, solo_for_france(two))):
            for (pid, centres, result), power in zip(seated, POWERS, strict=True):
                rows.append([str(b), pid, power, str(centres), result,
                             "1905" if result == "eliminated" else ""])
        write_csv(folder / f"round-{number}.csv", HEADER, rows)
    return folder


def test_the_best_three_results_make_a_teams_score(tmp_path: Path) -> None:
    """North's results: 100, 100, 100 (round 1), 100 and p01's solo 300 (round 2): best
    three 300 + 100 + 100 = 500. South's: p09's solo 300, p07's and p08's draws 100 each
    (round 2): 500 too. Tied: All, every member's score, splits them: North 200 + 400 +
    100 = 700, South 500. ([teams] counted = 3 would give 700 and 500.)"""
    event = load(diplomacy_cup(tmp_path))[0]
    rows = team_standings(compute_standings(event))
    assert [(r.rank, r.team.id, r.score, r.all) for r in rows] == [
        (1, "north", 500, 700), (2, "south", 500, 500)]
    assert [m.player.id for m in rows[0].counted] == ["p01", "p00"]


def test_the_page_and_standings_json_show_the_trophy(tmp_path: Path) -> None:
    diplomacy_cup(tmp_path)
    site = tmp_path / "site"
    code, out = cli("build", str(tmp_path / "events"), "-o", str(site))
    assert code == 0, out
    document = json.loads((site / "2026/dip-cup/standings.json").read_text(encoding="utf-8"))
    assert [(t["rank"], t["id"], t["name"], t["score"], t["tiebreaks"]["all"])
            for t in document["teams"]] == [(1, "north", "North", 500, 700),
                                            (2, "south", "South", 500, 500)]
    page = (site / "2026/dip-cup/index.html").read_text(encoding="utf-8")
    assert "Teams: the best 3 results of the players count" in page


@pytest.mark.parametrize("seed", range(20))
def test_best_results_is_the_sum_of_the_n_highest(seed: int, tmp_path: Path) -> None:
    """Property: the team's score is at most ``best`` times its best result, at least any
    single result, never more than every result summed, and grows with ``best``."""
    rng = random.Random(seed)
    n = rng.randint(1, 6)
    event = load(diplomacy_cup(tmp_path, f"best = {n}"))[0]
    standings = compute_standings(event)
    for row in team_standings(standings):
        results = [e.points for m in row.members for e in m.record.entries]
        assert row.score == sum(sorted(results, reverse=True)[:n])
        assert row.score <= n * max(results) and row.score >= max(results)
        more, _ = best_results(row.members, n + 1)
        assert more >= row.score


@pytest.mark.parametrize(("toml", "words"), [
    ("best = 0", "[teams] best must be"),
    ("best = 3\ncounted = 2", "cannot go with counted"),
])
def test_bad_best_is_a_problem(tmp_path: Path, toml: str, words: str) -> None:
    with pytest.raises(InputError) as raised:
        load(diplomacy_cup(tmp_path, toml))
    assert words in str(raised.value)
