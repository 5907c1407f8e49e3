"""Team-vs-team events (issue #34, docs/teams.md "Team matches"): the rules' worked
examples (a match won 3-2, a drawn match, a team bye, SoS), a brute-force property test
of the team Swiss on small fields, ``standgen check``'s messages on bad files, a CLI day
(pair, results typed, pair again, a correction) and standings.json's ``"teams"``.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import random
from pathlib import Path

import pytest

from standgen.errors import Problem
from standgen.eventday import load
from standgen.load import load_event
from standgen.model import Event
from standgen.site.jsonout import standings_document
from standgen.standings import compute_standings
from standgen.teams.matches import match_results, team_match_standings
from standgen.teams.pairing import pair_teams, swiss
from tests.test_teams import cli, write_csv

TEAMS = (("pol", "Drużyna Łódź"), ("fra", "Équipe de France « Les Pénitents »"),
         ("deu", "Team Württemberg-Süd"), ("jpn", "東京鉄騎団"), ("cze", "Tým Šumava"),
         ("esp", "Los Conquistadores de Añorbe"), ("irl", "Ó Conchúir's Irregulars"))
STATS = ("cp", "apd")
ROUND_HEADER = ["table", "player_1", "player_2", "result", "cp_1", "cp_2", "apd_1", "apd_2"]


def team_event(root: Path, n_teams: int, size: int, rounds: int = 3, seed: int = 7,
               matches: bool = True) -> Path:
    """Write a Steamroller team event of ``n_teams`` teams of ``size`` players; player
    ``<team>-<k>`` is member k (1..size) of a team."""
    folder = root / "events" / "2026" / "team-cup"
    folder.mkdir(parents=True)
    (folder / "event.toml").write_text(
        f'name = "Team Cup"\ndate = 2026-05-02\nformat = "steamroller"\nrounds = {rounds}\n'
        f"seed = {seed}\n\n[teams]\nsize = {size}\n"
        + ("matches = true\n" if matches else ""), encoding="utf-8")
    write_csv(folder / "teams.csv", ["id", "name"], [list(t) for t in TEAMS[:n_teams]])
    write_csv(folder / "players.csv", ["id", "name", "faction", "team"],
              [[f"{tid}-{k}", f"{name} {k}", "Cygnar", tid]
               for tid, name in TEAMS[:n_teams] for k in range(1, size + 1)])
    return folder


def team_round(folder: Path, number: int, matches: list[tuple[str, str]]) -> None:
    write_csv(folder / f"teams-round-{number}.csv", ["match", "team_1", "team_2"],
              [[str(k), a, b] for k, (a, b) in enumerate(matches, start=1)])


def games(folder: Path, number: int, rows: list[tuple[str, str, str]],
          cp: tuple[int, int] = (3, 1), apd: tuple[int, int] = (40, 10)) -> None:
    """Write round ``number``'s games: (player_1, player_2, result) each."""
    write_csv(folder / f"round-{number}.csv", ROUND_HEADER, [
        [str(k), a, b, result, *(map(str, cp) if b != "BYE" else ("", "")),
         *(map(str, apd) if b != "BYE" else ("", ""))]
        for k, (a, b, result) in enumerate(rows, start=1)])


def rows_of(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def loaded(folder: Path) -> tuple[Event | None, list[Problem]]:
    problems: list[Problem] = []
    return load_event(folder, ("2026", "team-cup"), problems), problems


def event_of(folder: Path) -> Event:
    event, problems = loaded(folder)
    assert event is not None, [str(p) for p in problems]
    return event


def said(problems: list[Problem]) -> list[str]:
    return [f"{p.path.rsplit('/', 1)[-1]}:{p.line}: {p.message}" for p in problems]


# -- worked examples -------------------------------------------------------------------

def test_a_match_won_three_games_to_two(tmp_path: Path) -> None:
    """docs/teams.md: a team wins its match by winning more than half of its games."""
    folder = team_event(tmp_path, 2, 5)
    team_round(folder, 1, [("pol", "fra")])
    games(folder, 1, [(f"pol-{k}", f"fra-{k}", "1-0" if k <= 3 else "0-1")
                      for k in range(1, 6)])
    event = event_of(folder)
    (result,) = match_results(event)
    assert (result.points_1, result.points_2, result.score_1, result.score_2) == (3, 2, 1, 0)
    assert result.finished
    rows = {r.team.id: r for r in team_match_standings(event, STATS)}
    assert (rows["pol"].rank, rows["pol"].wins, rows["pol"].tp) == (1, 1, 3)
    assert (rows["fra"].rank, rows["fra"].wins, rows["fra"].tp) == (2, 0, 2)
    # CP and APD: each game's cp_1 3 / cp_2 1, apd_1 40 / apd_2 10, summed over the match
    assert rows["pol"].stats == {"cp": 15, "apd": 200}
    assert rows["fra"].stats == {"cp": 5, "apd": 50}
    assert rows["pol"].record == (1, 0, 0) and rows["fra"].record == (0, 0, 1)


def test_a_drawn_match_is_half_a_win_each(tmp_path: Path) -> None:
    """An even team size can draw a match 2-2: half a win to each team (docs/teams.md)."""
    folder = team_event(tmp_path, 2, 4)
    team_round(folder, 1, [("pol", "fra")])
    games(folder, 1, [(f"pol-{k}", f"fra-{k}", "1-0" if k <= 2 else "0-1")
                      for k in range(1, 5)])
    rows = {r.team.id: r for r in team_match_standings(event_of(folder), STATS)}
    assert rows["pol"].wins == rows["fra"].wins == 0.5
    assert rows["pol"].record == rows["fra"].record == (0, 1, 0)


def test_a_team_bye_is_a_match_won_by_every_game(tmp_path: Path) -> None:
    """Three teams: ``pair`` gives the team bye, writes its players' BYE rows, and the bye
    team has a match won with every game (TP = team size)."""
    folder = team_event(tmp_path, 3, 3, seed=11)
    code, out = cli("pair", str(folder))
    assert code == 0, out
    paired = rows_of(folder / "teams-round-1.csv")
    byes = [m for m in paired if not m["team_2"]]
    assert len(paired) == 2 and len(byes) == 1
    bye = byes[0]["team_1"]
    rows = rows_of(folder / "round-1.csv")
    assert [(r["player_1"], r["player_2"]) for r in rows] == [
        (f"{bye}-{k}", "BYE") for k in range(1, 4)]
    assert "team bye" in out
    event = event_of(folder)
    standing = {r.team.id: r for r in team_match_standings(event, STATS)}
    assert (standing[bye].wins, standing[bye].tp, standing[bye].sos) == (1, 3, 0)
    # the match of the other two is not in yet: pair waits for it
    code, out = cli("pair", str(folder))
    assert code != 0 and "do not have all their games" in out


def sos_example(folder: Path) -> None:
    """Write docs/teams.md's example: pol beats fra 3-0 and deu 2-1, deu beats jpn 3-0,
    jpn beats fra 3-0."""
    team_round(folder, 1, [("pol", "fra"), ("deu", "jpn")])
    games(folder, 1, [*((f"pol-{k}", f"fra-{k}", "1-0") for k in (1, 2, 3)),
                      *((f"deu-{k}", f"jpn-{k}", "1-0") for k in (1, 2, 3))])
    team_round(folder, 2, [("pol", "deu"), ("fra", "jpn")])
    games(folder, 2, [*((f"pol-{k}", f"deu-{k}", "1-0" if k < 3 else "0-1")
                        for k in (1, 2, 3)),
                      *((f"fra-{k}", f"jpn-{k}", "0-1") for k in (1, 2, 3))])


def test_sos_is_the_sum_of_the_opponents_wins(tmp_path: Path) -> None:
    """Four teams, two rounds: pol beats fra then deu; fra beats jpn, deu beats jpn ...
    SoS of pol = Wins(fra) + Wins(deu)."""
    folder = team_event(tmp_path, 4, 3)
    sos_example(folder)
    rows = {r.team.id: r for r in team_match_standings(event_of(folder), STATS)}
    assert {t: r.wins for t, r in rows.items()} == {"pol": 2, "deu": 1, "jpn": 1, "fra": 0}
    assert rows["pol"].sos == 0 + 1  # fra 0, deu 1
    assert rows["deu"].sos == 1 + 2  # jpn 1, pol 2
    assert rows["jpn"].sos == 1 + 0  # deu 1, fra 0
    assert rows["pol"].rank == 1 and rows["fra"].rank == 4
    # deu and jpn: 1 win each; SoS 3 against 1 splits them
    assert rows["deu"].rank == 2 and rows["jpn"].rank == 3


# -- pairing: a brute-force property test ----------------------------------------------

def fewest_rematches(teams: list[str], met: set[frozenset[str]], byes: set[str]) -> int:
    """Return the fewest rematches of any pairing (the bye among those without one)."""
    candidates = [""] if len(teams) % 2 == 0 else ([t for t in teams if t not in byes]
                                                   or teams)
    best = len(teams)
    for bye in candidates:
        rest = [t for t in teams if t != bye]
        best = min(best, _fewest(rest, met))
    return best


def _fewest(rest: list[str], met: set[frozenset[str]]) -> int:
    if not rest:
        return 0
    top, others = rest[0], rest[1:]
    return min((frozenset((top, o)) in met) + _fewest(others[:k] + others[k + 1:], met)
               for k, o in enumerate(others))


@pytest.mark.parametrize("n", range(2, 10))
def test_team_swiss_pairs_everyone_once_and_avoids_every_avoidable_rematch(n: int) -> None:
    rng = random.Random(n)
    teams = [f"t{k}" for k in range(n)]
    for _ in range(60):
        pairs = [frozenset(p) for p in itertools.combinations(teams, 2)]
        met = set(rng.sample(pairs, rng.randint(0, len(pairs))))
        byes = set(rng.sample(teams, rng.randint(0, n)))
        order = rng.sample(teams, n)
        ranked = rng.sample(teams, n)
        found, bye, rematches, complete = swiss(order, ranked, met, byes)
        assert complete
        seen = [t for pair in found for t in pair] + ([bye] if bye else [])
        assert sorted(seen) == sorted(teams)  # each team once: in one match or the bye
        assert bool(bye) == (n % 2 == 1)
        if bye and any(t not in byes for t in teams):
            assert bye not in byes  # the bye to a team that has not had one
        assert len(rematches) == sum(frozenset(p) in met for p in found)
        assert len(rematches) == fewest_rematches(teams, met, byes)
        assert swiss(order, ranked, met, byes) == (found, bye, rematches, complete)


def test_team_swiss_is_deterministic_from_the_seed(tmp_path: Path) -> None:
    folder = team_event(tmp_path, 7, 3, seed=5)
    event = event_of(folder)
    first = pair_teams(event, 1, STATS).round.matches
    assert pair_teams(event, 1, STATS).round.matches == first
    others = set()
    for seed in range(1, 8):
        other = Event(event.path, event.config.__class__(
            **{**event.config.__dict__, "seed": seed}), event.players, event.rounds,
            teams=event.teams)
        others.add(pair_teams(other, 1, STATS).round.matches)
    assert len(others) > 1  # round 1 is a random draw from the seed


def test_the_bye_goes_to_the_lowest_team_without_one(tmp_path: Path) -> None:
    """Three teams after round 1 (pol beat fra, deu had the bye): the bye goes to fra,
    the lowest-ranked team that has not had one, and pol meets deu."""
    folder = team_event(tmp_path, 3, 3)
    team_round(folder, 1, [("pol", "fra"), ("deu", "")])
    games(folder, 1, [*((f"pol-{k}", f"fra-{k}", "1-0") for k in (1, 2, 3)),
                      *((f"deu-{k}", "BYE", "") for k in (1, 2, 3))])
    matches = pair_teams(event_of(folder), 2, STATS).round.matches
    assert {(m.team_1, m.team_2) for m in matches} in (
        {("pol", "deu"), ("fra", "")}, {("deu", "pol"), ("fra", "")})


# -- check's messages ------------------------------------------------------------------

def test_a_game_between_teams_not_matched_is_named(tmp_path: Path) -> None:
    folder = team_event(tmp_path, 4, 3)
    team_round(folder, 1, [("pol", "fra"), ("deu", "jpn")])
    games(folder, 1, [("pol-1", "fra-1", "1-0"), ("pol-2", "deu-2", "1-0"),
                      ("deu-1", "jpn-1", "1-0"), ("fra-2", "jpn-2", "0-1")])
    event, problems = loaded(folder)
    assert event is None
    first, second = problems
    assert first.line == 3 and "'pol-2' (team 'pol') and 'deu-2' (team 'deu') are not in " \
        "one match" in first.message and "matches 'pol' with 'fra'" in first.message
    assert "pair each game inside one match" in first.message
    assert second.line == 5 and "'fra-2' (team 'fra') and 'jpn-2'" in second.message


def test_team_mates_a_bye_row_and_a_player_twice_are_named(tmp_path: Path) -> None:
    folder = team_event(tmp_path, 2, 3)
    team_round(folder, 1, [("pol", "fra")])
    games(folder, 1, [("pol-1", "pol-2", "1-0"), ("fra-1", "BYE", ""),
                      ("pol-3", "fra-2", "1-0"), ("pol-3", "fra-3", "1-0")])
    event, problems = loaded(folder)
    assert event is None
    lines = said(problems)
    assert any(line.startswith("round-1.csv:5: player 'pol-3' is already in this round")
               for line in lines), lines
    problems = [p for p in problems if "already in this round" not in p.message]
    assert not problems or all(p.path.endswith("round-1.csv") for p in problems)


def test_team_mates_and_a_stray_bye_row(tmp_path: Path) -> None:
    folder = team_event(tmp_path, 2, 3)
    team_round(folder, 1, [("pol", "fra")])
    games(folder, 1, [("pol-1", "pol-2", "1-0"), ("fra-1", "BYE", ""),
                      ("pol-3", "fra-2", "1-0")])
    event, problems = loaded(folder)
    assert event is None
    lines = said(problems)
    assert lines[0].startswith("round-1.csv:2: 'pol-1' and 'pol-2' are team-mates "
                               "(team 'pol'); a game of a team match pairs players of its "
                               "two teams"), lines
    assert lines[1].startswith("round-1.csv:3: a BYE row for 'fra-1' of team 'fra', which "
                               "has no team bye in round 1"), lines


def test_a_match_with_the_wrong_number_of_games(tmp_path: Path) -> None:
    """Fewer games than [teams] size: a warning while the draft is typed; more: an error."""
    folder = team_event(tmp_path, 2, 3)
    team_round(folder, 1, [("pol", "fra")])
    games(folder, 1, [("pol-1", "fra-1", "1-0")])
    event, problems = loaded(folder)
    assert event is not None
    assert said(problems) == ["teams-round-1.csv:2: match 1 (pol v fra) has 1 of its 3 games "
                              "in round-1.csv; type the other 2 drafted games there"]
    assert problems[0].warning
    (folder / "players.csv").write_text(
        (folder / "players.csv").read_text(encoding="utf-8")
        + "pol-4,Extra 4,Khador,pol\nfra-4,Extra 4,Cryx,fra\n", encoding="utf-8")
    games(folder, 1, [(f"pol-{k}", f"fra-{k}", "1-0") for k in range(1, 5)])
    event, problems = loaded(folder)
    assert event is None
    errors = [s for s, p in zip(said(problems), problems, strict=True) if not p.warning]
    assert errors == ["round-1.csv:5: match 1 (pol v fra) has 4 games, more than [teams] "
                      "size 3; a team match is one game per player: remove a game or raise "
                      "size"]


def test_a_round_without_team_pairings_and_bad_team_pairings(tmp_path: Path) -> None:
    folder = team_event(tmp_path, 3, 3)
    games(folder, 1, [("pol-1", "fra-1", "1-0")])
    event, problems = loaded(folder)
    assert event is None
    assert said(problems)[0].startswith("round-1.csv:1: round 1 has no team pairings: ")
    assert "teams-round-1.csv is missing; run standgen pair" in problems[0].message
    (folder / "round-1.csv").unlink()
    write_csv(folder / "teams-round-1.csv", ["match", "team_1", "team_2"],
              [["1", "pol", "fra"], ["2", "pol", "Tym Sumava"], ["2", "deu", "deu"]])
    event, problems = loaded(folder)
    assert event is None
    assert said(problems) == [
        "teams-round-1.csv:3: team 'pol' is already matched on line 2; a team plays one "
        "match a round",
        "teams-round-1.csv:3: team_2 'Tym Sumava' is no team of this event; write a team id "
        "of teams.csv (or a team name of players.csv's team column)",
        "teams-round-1.csv:4: match 2 is already on line 3; number each match once",
        "teams-round-1.csv:4: team 'deu' is matched against itself; name two teams",
    ]


def test_team_pairings_in_an_individual_event_and_matches_without_size(
        tmp_path: Path) -> None:
    folder = team_event(tmp_path, 2, 2, matches=False)
    team_round(folder, 1, [("pol", "fra")])
    event, problems = loaded(folder)
    assert event is None
    assert said(problems) == ["teams-round-1.csv:1: team pairings belong to a team event; "
                              "set matches = true under [teams] in event.toml, or remove "
                              "this file"]
    (folder / "teams-round-1.csv").unlink()
    (folder / "event.toml").write_text(
        'name = "Team Cup"\ndate = 2026-05-02\nformat = "steamroller"\nrounds = 3\n\n'
        "[teams]\nmatches = true\n", encoding="utf-8")
    event, problems = loaded(folder)
    assert event is None
    assert any("[teams] matches = true needs [teams] size" in p.message for p in problems)


# -- a CLI day -------------------------------------------------------------------------

def type_games(folder: Path, number: int, winner_first: bool = True) -> None:
    """Type the drafted games of round ``number``: member k of team_1 against member k of
    team_2 (team_1 wins every game when ``winner_first``), the bye rows kept."""
    path = folder / f"round-{number}.csv"
    kept = [(r["player_1"], r["player_2"], r["result"])
            for r in (rows_of(path) if path.exists() else [])]
    rows = []
    for match in rows_of(folder / f"teams-round-{number}.csv"):
        if match["team_2"]:
            rows += [(f"{match['team_1']}-{k}", f"{match['team_2']}-{k}",
                      "1-0" if winner_first else "0-1") for k in (1, 2, 3)]
    games(folder, number, rows + kept)


def test_a_day_pair_type_results_pair_again_and_correct(tmp_path: Path) -> None:
    folder = team_event(tmp_path, 4, 3, rounds=3)
    code, out = cli("pair", str(folder))
    assert code == 0, out
    assert "Round 1, team matches:" in out and "teams-round-1.csv" in out
    assert not (folder / "round-1.csv").exists()  # no bye: the captains' draft comes first
    code, out = cli("pair", str(folder))
    assert code != 0 and "round 1's matches 1, 2 do not have all their games" in out
    code, out = cli("status", str(folder))
    assert "round 1, 2 match(es) not complete" in out and "0 of 3 games typed in" in out
    type_games(folder, 1)
    code, out = cli("status", str(folder))
    assert "round 1's matches are complete; run standgen pair" in out
    assert cli("check", str(folder.parent.parent))[0] == 0
    code, out = cli("pair", str(folder))
    assert code == 0, out
    first = [tuple(r.values()) for r in rows_of(folder / "teams-round-1.csv")]
    second = [tuple(r.values()) for r in rows_of(folder / "teams-round-2.csv")]
    met = {frozenset(m[1:]) for m in first}
    assert not any(frozenset(m[1:]) in met for m in second)  # no rematch
    winners = {m[1] for m in first}
    assert {frozenset(m[1:]) for m in second} == {frozenset(winners),
                                                  frozenset({m[2] for m in first})}
    # a correction: round 1's first match was won by team_2 after all
    event, _ = load(folder)
    before = {r.team.id: r.wins for r in team_match_standings(event, STATS)}
    text = (folder / "round-1.csv").read_text(encoding="utf-8").splitlines()
    fixed = [text[0], *(line.replace(",1-0,", ",0-1,") for line in text[1:4]), *text[4:]]
    (folder / "round-1.csv").write_text("\n".join(fixed) + "\n", encoding="utf-8")
    event, _ = load(folder)
    after = {r.team.id: r.wins for r in team_match_standings(event, STATS)}
    one, two = first[0][1], first[0][2]
    assert (before[one], before[two]) == (1, 0) and (after[one], after[two]) == (0, 1)
    # pair --redo 2 pairs round 2 again from the corrected standings
    code, out = cli("pair", str(folder), "--redo", "2")
    assert code == 0, out
    type_games(folder, 2)
    assert cli("pair", str(folder))[0] == 0
    type_games(folder, 3)
    code, out = cli("pair", str(folder))
    assert code != 0 and "the event is over" in out


# -- standings.json --------------------------------------------------------------------

def test_standings_json_teams_in_the_shape_of_standings(tmp_path: Path) -> None:
    folder = team_event(tmp_path, 4, 3)
    team_round(folder, 1, [("pol", "fra"), ("deu", "jpn")])
    games(folder, 1, [*((f"pol-{k}", f"fra-{k}", "1-0") for k in (1, 2, 3)),
                      *((f"deu-{k}", f"jpn-{k}", "0-1" if k > 1 else "1-0")
                        for k in (1, 2, 3))])
    event = event_of(folder)
    document = json.loads(json.dumps(standings_document(event, compute_standings(event))))
    assert set(document) >= {"event", "format", "standings", "tiebreaks", "teams",
                             "team_tiebreaks"}
    assert document["team_tiebreaks"] == ["sos", "tp", "cp", "apd"]
    first = document["teams"][0]
    assert set(first) == {"rank", "id", "name", "score", "tiebreaks", "members",
                          "counted", "unlisted", "matches"}
    assert first == {"rank": 1, "id": "pol", "name": "Drużyna Łódź", "score": 1,
                     "tiebreaks": {"sos": 0, "tp": 3, "cp": 9, "apd": 120},
                     "members": ["pol-1", "pol-2", "pol-3"],
                     "counted": ["pol-1", "pol-2", "pol-3"], "unlisted": 0,
                     "matches": {"won": 1, "drawn": 0, "lost": 0}}
    assert [t["id"] for t in document["teams"]][1] == "jpn"
    assert set(document["standings"][0]) == {"rank", "id", "name", "score", "tiebreaks"}


def test_the_site_has_team_pages_and_team_rows(tmp_path: Path) -> None:
    folder = team_event(tmp_path, 3, 3, seed=11)
    assert cli("pair", str(folder))[0] == 0
    type_games(folder, 1)
    site = tmp_path / "site"
    code, out = cli("build", str(tmp_path / "events"), "-o", str(site))
    assert code == 0, out
    event_page = (site / "2026/team-cup/index.html").read_text(encoding="utf-8")
    assert 'id="team-standings"' in event_page
    assert "Équipe de France « Les Pénitents »" in event_page
    round_page = (site / "2026/team-cup/round-1/index.html").read_text(encoding="utf-8")
    assert 'id="team-matches"' in round_page and "Team bye" in round_page
    for tid, _ in TEAMS[:3]:
        page = (site / f"2026/team-cup/teams/{tid}/index.html").read_text(encoding="utf-8")
        assert 'id="matches"' in page and "Round 1" in page


def test_a_team_page_explains_its_tiebreaks(tmp_path: Path) -> None:
    """The SoS example above, on pol's page: SoS 1 = 0 + 1 (fra, deu), TP 5 = 3 + 2."""
    folder = team_event(tmp_path, 4, 3)
    sos_example(folder)
    site = tmp_path / "site"
    assert cli("build", str(tmp_path / "events"), "-o", str(site))[0] == 0
    page = (site / "2026/team-cup/teams/pol/index.html").read_text(encoding="utf-8")
    facts = page.split('class="facts team-tiebreaks"')[1].split("</dl>")[0]
    assert "<strong>1</strong> <span class=\"meta\">= 0 + 1</span>" in facts
    assert "<strong>5</strong> <span class=\"meta\">= 3 + 2</span>" in facts


def test_the_demo_team_event_loads() -> None:
    event, _ = load(Path(__file__).resolve().parent.parent / "events" / "2026"
                    / "team-championship")
    assert event.config.teams.matches and len(event.team_rounds) == 3
    assert all(r.finished for r in match_results(event))


def test_the_event_page_shows_the_round_being_drafted(tmp_path: Path) -> None:
    """A team round paired and not yet typed in: its matches are on the event page, each
    waiting for the captains' draft; once typed, the round page has them instead."""
    folder = team_event(tmp_path, 4, 3)
    assert cli("pair", str(folder))[0] == 0
    site = tmp_path / "site"
    assert cli("build", str(tmp_path / "events"), "-o", str(site))[0] == 0
    page = (site / "2026/team-cup/index.html").read_text(encoding="utf-8")
    assert 'id="team-matches-now"' in page
    assert page.count("The captains have not drafted this match") == 2
    type_games(folder, 1)
    assert cli("build", str(tmp_path / "events"), "-o", str(site))[0] == 0
    page = (site / "2026/team-cup/index.html").read_text(encoding="utf-8")
    assert 'id="team-matches-now"' not in page


@pytest.mark.parametrize("fmt", ["old-world", "swiss"])
def test_other_two_player_formats_play_team_matches(tmp_path: Path, fmt: str) -> None:
    """The Old World (and a chess-style Swiss) falls out: the same files and rules."""
    folder = team_event(tmp_path, 3, 3, seed=3)
    toml = (folder / "event.toml").read_text(encoding="utf-8")
    (folder / "event.toml").write_text(toml.replace('"steamroller"', f'"{fmt}"'),
                                       encoding="utf-8")
    if fmt == "swiss":
        write_csv(folder / "players.csv", ["id", "name", "rating", "team"],
                  [[f"{tid}-{k}", f"{name} {k}", "2000", tid]
                   for tid, name in TEAMS[:3] for k in range(1, 4)])
    code, out = cli("pair", str(folder))
    assert code == 0, out
    path = folder / "round-1.csv"
    if fmt == "swiss":  # pair wrote the boards (FIDE C.04.6): team_1's player wins each
        firsts = {m["team_1"] for m in rows_of(folder / "teams-round-1.csv")}
        write_csv(path, ["table", "player_1", "player_2", "result"],
                  [[r["table"], r["player_1"], r["player_2"],
                    r["result"] or ("1-0" if r["player_1"][:3] in firsts else "0-1")]
                   for r in rows_of(path)])
    else:
        type_games(folder, 1)
    typed = rows_of(path)
    vp = ["vp_1", "vp_2"] if fmt == "old-world" else []  # the Old World's VP columns
    write_csv(path, ["table", "player_1", "player_2", "result", *vp],
              [[r["table"], r["player_1"], r["player_2"], r["result"],
                *(("1500", "200") if r["player_2"] != "BYE" else ("", ""))[:len(vp)]]
               for r in typed])
    code, out = cli("check", str(folder.parent.parent))
    assert code == 0, out
    event = event_of(folder)
    rows = team_match_standings(event, ())
    assert [r.wins for r in rows] == [1, 1, 0]
    assert cli("pair", str(folder))[0] == 0


def test_a_team_short_of_a_player_concedes_that_game(tmp_path: Path) -> None:
    """pol-3 dropped: fra-3 has a BYE row (a game won) and the match is complete, 2-1."""
    folder = team_event(tmp_path, 2, 3)
    text = (folder / "players.csv").read_text(encoding="utf-8").splitlines()
    rows = [text[0] + ",dropped_after", *(line + (",0" if line.startswith("pol-3,") else ",")
                                          for line in text[1:])]
    (folder / "players.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    team_round(folder, 1, [("pol", "fra")])
    games(folder, 1, [("pol-1", "fra-1", "1-0"), ("pol-2", "fra-2", "1-0"),
                      ("fra-3", "BYE", "")])
    event, problems = loaded(folder)
    assert event is not None, said(problems)
    (result,) = match_results(event)
    assert result.finished and (result.points_1, result.points_2) == (2, 1)
    assert (result.score_1, result.score_2) == (1, 0)
    site = tmp_path / "site"
    assert cli("build", str(tmp_path / "events"), "-o", str(site))[0] == 0
    page = (site / "2026/team-cup/teams/pol/index.html").read_text(encoding="utf-8")
    conceded = page.split("<tr><td class=\"num\">3</td>")[1].split("</tr>")[0]
    assert conceded.startswith('<td class="name"></td>') and "fra-3" in conceded


def test_the_last_round_is_not_finished_while_its_draft_is_typed_in(tmp_path: Path) -> None:
    """The last round with match 1 typed in and two of match 2's three games: every game
    in round-1.csv has a result, yet the round is not complete (its matches lack a game),
    so status waits, the event page does not say finished and pair refuses."""
    folder = team_event(tmp_path, 4, 3, rounds=1, seed=5)
    assert cli("pair", str(folder))[0] == 0
    type_games(folder, 1)
    whole = (folder / "round-1.csv").read_text(encoding="utf-8")
    (folder / "round-1.csv").write_text(whole.rsplit("\n", 2)[0] + "\n", encoding="utf-8")
    event = event_of(folder)
    (rnd,) = event.rounds
    assert all(g.finished for g in rnd.games) and rnd.waiting == 1
    assert not rnd.finished and rnd.state == "started"
    assert not compute_standings(event).finished
    code, out = cli("status", str(folder))
    assert "event is over" not in out and "1 match(es) not complete" in out
    assert "2 of 3 games typed in" in out
    code, out = cli("pair", str(folder))
    assert code != 0 and "round 1's matches 2 do not have all their games" in out
    site = tmp_path / "site"
    assert cli("build", str(tmp_path / "events"), "-o", str(site))[0] == 0
    page = (site / "2026/team-cup/index.html").read_text(encoding="utf-8")
    assert "Finished" not in page and "Round 1 of 1 in progress." in page
    (folder / "round-1.csv").write_text(whole, encoding="utf-8")  # the last game typed in
    assert compute_standings(event_of(folder)).finished
    code, out = cli("status", str(folder))
    assert "the event is over" in out
    assert cli("build", str(tmp_path / "events"), "-o", str(site))[0] == 0
    page = (site / "2026/team-cup/index.html").read_text(encoding="utf-8")
    assert "Finished: 1 of 1 rounds played." in page


@pytest.mark.parametrize("seed", range(20))
def test_the_match_index_finds_what_the_rule_finds(seed: int) -> None:
    """matches._MatchIndex (each match's games without reading the whole round) gives, for
    every pair of sides, the games matches._in_match selects, in the same order: random
    rounds of played games, BYE and absent rows, team-mates, players without a team."""
    from standgen.model import Game, GameKind, Seat
    from standgen.teams.matches import _in_match, _MatchIndex

    rng = random.Random(seed)
    team_ids = ["a", "b", "c", "d", ""]
    teams = {f"p{k}": rng.choice(team_ids) for k in range(24)}
    players = list(teams) + ["stranger"]
    games = []
    for table in range(1, rng.randint(2, 30)):
        kind = rng.choice([GameKind.PLAYED, GameKind.PLAYED, GameKind.BYE, GameKind.ABSENT])
        count = 2 if kind is GameKind.PLAYED else 1
        seats = tuple(Seat(p) for p in rng.sample(players, count))
        games.append(Game(1, table, seats, kind))
    index = _MatchIndex(games, teams)
    for sides in itertools.product(team_ids, repeat=2):
        if sides[0] == sides[1] or not sides[0]:
            continue
        want = tuple(g for g in games if _in_match(g, sides, teams))
        assert index.of(sides) == want, sides
