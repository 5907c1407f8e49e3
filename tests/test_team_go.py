"""Go team events (issue #34; docs/teams.md, "Go team events"; sources in
standgen/teams/go.py): the team tie-breaks SOS and SODOS of team points on a worked
example and as properties, the board order by rank, the nigiri and alternating colours,
the team Swiss on team points, and a Go team cup run through the CLI round after round
with a drop and ``pair --redo``, checked and built.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from standgen.formats import FORMATS
from standgen.model import Event, TeamMatch, TeamRound
from standgen.teams import go
from standgen.teams.pairing import met_before
from standgen.teams.propose import board_games, propose_team_round, writes_boards
from standgen.teams.ranking import team_standings
from standgen.teams.tiebreaks import TEAM_TIEBREAKS
from standgen.teams.tiebreaks.table import TeamRoundEntry, TeamTable
from tests.test_team_matches import loaded, rows_of
from tests.test_teams import cli, write_csv

SOS, SODOS = TEAM_TIEBREAKS["sos"], TEAM_TIEBREAKS["sodos"]


def table_of(rounds: list[list[tuple[str, str, float, float]]],
             teams: tuple[str, ...], size: int = 4) -> TeamTable:
    """Return a team table from matches (team_1, team_2, board wins 1, board wins 2) by
    round, match points 2/1/0; ``team_2`` "" is a bye won by every board."""
    entries: dict[str, list[TeamRoundEntry]] = {t: [] for t in teams}

    def mp(mine: float, theirs: float) -> float:
        return 2.0 if mine > theirs else 1.0 if mine == theirs else 0.0

    for number, matches in enumerate(rounds, start=1):
        for a, b, pa, pb in matches:
            if not b:
                entries[a].append(TeamRoundEntry(number, "", 2.0, size))
                continue
            entries[a].append(TeamRoundEntry(number, b, mp(pa, pb), pa))
            entries[b].append(TeamRoundEntry(number, a, mp(pb, pa), pb))
    return TeamTable({t: tuple(e) for t, e in entries.items()}, len(rounds), 1.0, size / 2)


# The worked example of docs/teams.md, "Go team events": teams of four, two rounds.
# Round 1: Łódź beat Praha 3-1, Tokyo and Seoul drew 2-2; round 2: Łódź beat Tokyo
# 4-0, Praha beat Seoul 3-1.
EXAMPLE = [[("lodz", "praha", 3, 1), ("tokyo", "seoul", 2, 2)],
           [("lodz", "tokyo", 4, 0), ("praha", "seoul", 3, 1)]]
TEAMS = ("lodz", "praha", "tokyo", "seoul")


def test_the_worked_example_of_sos_and_sodos() -> None:
    table = table_of(EXAMPLE, TEAMS)
    assert {t: table.total(t, "mp") for t in TEAMS} == {
        "lodz": 4, "praha": 2, "tokyo": 1, "seoul": 1}
    # SOS: the team points of the teams met
    assert SOS.compute(table) == {"lodz": 3, "praha": 5, "tokyo": 5, "seoul": 3}
    # SODOS: of the teams beaten, half of those drawn with
    assert SODOS.compute(table) == {"lodz": 3, "praha": 1, "tokyo": 0.5, "seoul": 0.5}
    assert SOS.terms is not None and SODOS.terms is not None
    assert SODOS.terms(table, "lodz") == ((2.0, 1.0), (1.0, 1.0))
    assert SODOS.terms(table, "tokyo") == ((1.0, 0.5),)
    assert (SOS.code, SODOS.code) == ("SOS", "SODOS")


def test_a_bye_adds_nothing_to_sos_or_sodos() -> None:
    table = table_of([[("lodz", "praha", 3, 1), ("tokyo", "", 0, 0)],
                      [("tokyo", "lodz", 1, 3), ("praha", "", 0, 0)]],
                     ("lodz", "praha", "tokyo"))
    # Tokyo: a bye (adds nothing), then lost to Łódź (4): SOS 4, SODOS 0
    assert SOS.compute(table)["tokyo"] == 4
    assert SODOS.compute(table)["tokyo"] == 0
    # Łódź beat Praha (2 after its bye) and Tokyo (2 from its bye)
    assert SOS.compute(table)["lodz"] == 4
    assert SODOS.compute(table)["lodz"] == 4


@pytest.mark.parametrize("seed", range(30))
def test_sos_and_sodos_properties(seed: int) -> None:
    """On random round robins of random results: SOS is the sum of the opponents'
    totals, SODOS at most SOS, equal to it for a team that won every match, 0 for one
    that lost every match; the sum of SOS over all teams is each team's total times
    the matches it played."""
    draw = random.Random(seed)
    teams = tuple(f"t{k}" for k in range(draw.choice((4, 6))))
    rounds = []
    for number in range(len(teams) - 1):  # the circle method
        rotated = (teams[0], *teams[1:][number:], *teams[1:][:number])
        half = len(teams) // 2
        matches = []
        for a, b in zip(rotated[:half], reversed(rotated[half:]), strict=True):
            pa = float(draw.randint(0, 4))
            matches.append((a, b, pa, 4 - pa))
        rounds.append(matches)
    table = table_of(rounds, teams)
    sos, sodos = SOS.compute(table), SODOS.compute(table)
    for team in teams:
        met = [e.opponent for e in table.entries[team]]
        assert sos[team] == sum(table.total(o, "mp") for o in met)
        assert 0 <= sodos[team] <= sos[team]
        results = {e.mp for e in table.entries[team]}
        if results == {2.0}:
            assert sodos[team] == sos[team]
        if results == {0.0}:
            assert sodos[team] == 0
    assert sum(sos.values()) == sum(table.total(t, "mp") * (len(teams) - 1) for t in teams)


def test_the_format_declares_its_team_facts() -> None:
    fmt = FORMATS["mcmahon"]
    assert fmt.team_pairing == go.SYSTEM
    assert fmt.team_tiebreaks == ("sos", "sodos", "gp")
    assert writes_boards(fmt)
    assert not writes_boards(FORMATS["steamroller"])


JAPAN = [("ja-1", "山田 太郎", "2d"), ("ja-2", "佐藤 花子", "5d"), ("ja-3", "鈴木 一郎", "1k"),
         ("ja-4", "高橋 美咲", "15k")]
KOREA = [("ko-1", "김민준", "6d"), ("ko-2", "이서연", "3d"), ("ko-3", "박지훈", "3d")]
POLAND = [("pl-1", "Łukasz Wiśniewski", "4d"), ("pl-2", "Zofia Żółkiewska", "2k"),
          ("pl-3", "Grzegorz Brzęczyszczykiewicz", "1d")]
GERMANY = [("de-1", "Maximilian Müller-Lüdenscheidt-Schönfeld", "3d"),
           ("de-2", "Anna Schmidt", "5k"), ("de-3", "Jürgen Groß", "1d")]
CZECHIA = [("cz-1", "Jiří Novák", "2d"), ("cz-2", "Petra Dvořáková", "4k"),
           ("cz-3", "Tomáš Černý", "1k"), ("cz-4", "Ondřej Svoboda", "10k")]
SQUADS = {"jpn": ("日本棋院チーム", JAPAN), "kor": ("한국기원", KOREA),
          "pol": ("Drużyna Łódź", POLAND), "deu": ("Team Württemberg-Baden", GERMANY),
          "cze": ("Česká republika", CZECHIA)}


def go_team_event(root: Path, rounds: int = 4, seed: int = 7) -> Path:
    folder = root / "events" / "2026" / "go-team-cup"
    folder.mkdir(parents=True)
    (folder / "event.toml").write_text(
        f'name = "Go Team Cup"\ndate = 2026-07-25\nformat = "mcmahon"\nrounds = {rounds}\n'
        f"seed = {seed}\n\n[teams]\nmatches = true\nsize = 3\n", encoding="utf-8")
    write_csv(folder / "teams.csv", ["id", "name"],
              [[tid, name] for tid, (name, _) in SQUADS.items()])
    write_csv(folder / "players.csv", ["id", "name", "rank", "team"],
              [[pid, name, rank, tid] for tid, (_, squad) in SQUADS.items()
               for pid, name, rank in squad])
    return folder


def event_of(folder: Path) -> Event:
    event, problems = loaded(folder)
    assert event is not None and not [p for p in problems if not p.warning], problems
    return event


def test_boards_by_rank_strongest_first(tmp_path: Path) -> None:
    event = event_of(go_team_event(tmp_path))
    # Japan: 5d, 2d, 1k; its 15k is the reserve
    assert [p.id for p in go.lineup(event, "jpn", 1)] == ["ja-2", "ja-1", "ja-3"]
    # Korea: two 3d in players.csv order
    assert [p.id for p in go.lineup(event, "kor", 1)] == ["ko-1", "ko-2", "ko-3"]
    # Czechia: 2d, 1k, 4k; the 10k is the reserve
    assert [p.id for p in go.lineup(event, "cze", 1)] == ["cz-1", "cz-3", "cz-2"]


def test_colours_by_nigiri_then_alternating_even_games(tmp_path: Path) -> None:
    event = event_of(go_team_event(tmp_path))
    rnd = TeamRound(1, (TeamMatch(1, "jpn", "kor"), TeamMatch(2, "pol", "deu"),
                        TeamMatch(3, "cze", "")))
    games = board_games(event, rnd).games
    assert [g.table for g in games] == list(range(1, 10))
    for match, first in ((1, "ja"), (2, "pl")):
        boards = games[(match - 1) * 3:match * 3]
        white_first = go.first_white(event, 1, match)
        for board, game in enumerate(boards):
            white = game.seats[0].player
            assert white.startswith(first) == (white_first == (board % 2 == 0))
            assert game.extra == {"handicap": 0.0}
    assert [g.players for g in games[6:]] == [("cz-1",), ("cz-3",), ("cz-2",)]
    # the nigiri is the seed's: both colours come up over many matches, the same each time
    draws = {go.first_white(event, number, match) for number in range(1, 6)
             for match in range(1, 5)}
    assert draws == {True, False}
    assert go.first_white(event, 2, 1) == go.first_white(event, 2, 1)


def test_an_empty_board_is_forfeited(tmp_path: Path) -> None:
    event = event_of(go_team_event(tmp_path))
    rnd = TeamRound(1, (TeamMatch(1, "kor", "jpn"),))
    short = event.__class__(**{**event.__dict__, "players": tuple(
        p for p in event.players if p.id != "ko-3")})
    games = go.board_round(short, rnd).games
    assert len(games) == 3
    assert games[2].players == ("ja-3",) and games[2].seats[0].outcome is not None


def type_go_results(folder: Path, number: int, draw: random.Random) -> None:
    """Type a random result into every board of round ``number`` (BYE rows kept)."""
    path = folder / f"round-{number}.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    out = [lines[0]]
    for line in lines[1:]:
        cells = line.split(",")
        if cells[header.index("player_2")] != "BYE":
            cells[header.index("result")] = draw.choice(("1-0", "0-1"))
        out.append(",".join(cells))
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def test_a_go_team_cup_through_the_cli(tmp_path: Path) -> None:
    folder = go_team_event(tmp_path)
    draw = random.Random(5)
    for number in range(1, 5):
        code, out = cli("pair", str(folder))
        assert code == 0, out
        assert "by rank, strongest first" in out
        if number == 2:
            # a Korean player drops after round 2 is paired: pair --redo, as advised
            code, out = cli("drop", str(folder), "ko-3")
            assert code == 0, out
            assert f"--redo {number}" in out
            code, out = cli("pair", str(folder), "--redo", str(number))
            assert code == 0, out
            games = rows_of(folder / f"round-{number}.csv")
            assert all("ko-3" not in (g["player_1"], g["player_2"]) for g in games)
        type_go_results(folder, number, draw)
        code, out = cli("check", str(tmp_path / "events"))
        assert code == 0 and "no problems" in out, out
    event = event_of(folder)
    # five teams, four rounds: every pair met at most once, no team had two byes
    met = met_before(event, 5)
    assert len(met) == sum(1 for r in event.team_rounds for m in r.matches if m.team_2)
    byes = [m.team_1 for r in event.team_rounds for m in r.matches if not m.team_2]
    assert len(byes) == len(set(byes)) == 4
    # Korea, short of a player from round 3, forfeits its third board
    for number in (3, 4):
        match = next(m for r in event.team_rounds if r.number == number
                     for m in r.matches if "kor" in (m.team_1, m.team_2))
        if match.team_2:
            games = rows_of(folder / f"round-{number}.csv")
            assert sum(1 for g in games if g["player_2"] == "BYE"
                       and g["result"] == "1-0") >= 1
    assert propose_team_round(event, 4).round.number == 4
    code, out = cli("pair", str(folder))
    assert code == 2 and "over" in out
    out_dir = tmp_path / "site"
    code, out = cli("build", str(tmp_path / "events"), "-o", str(out_dir))
    assert code == 0, out
    site = out_dir / "2026" / "go-team-cup"
    document = json.loads((site / "standings.json").read_text(encoding="utf-8"))
    assert document["team_tiebreaks"] == ["sos", "sodos", "gp"]
    teams = document["teams"]
    assert {t["id"] for t in teams} == set(SQUADS)
    assert all(set(t["tiebreaks"]) == {"sos", "sodos", "gp"} for t in teams)
    scores = [(t["score"], t["tiebreaks"]["sos"], t["tiebreaks"]["sodos"],
               t["tiebreaks"]["gp"]) for t in teams]
    assert scores == sorted(scores, reverse=True)
    page = (site / "index.html").read_text(encoding="utf-8")
    assert "SODOS" in page and "Drużyna Łódź" in page and "한국기원" in page
    assert "on board wins (European Go Congress team tournament)" in page
    # a Go team event's words (Format.team_labels), not the chess team's MP and GP
    assert "Team points" in page and "Board points" in page
    assert "Teams by team points" in page and "A team scores team points" in page
    assert not re.search(r"match points|Match points|Game points", page)
    team_page = (site / "teams" / "deu" / "index.html").read_text(encoding="utf-8")
    assert "Maximilian Müller-Lüdenscheidt-Schönfeld" in team_page
    assert re.search(r"SOS", team_page)
    round_page = next(site.glob("round-1/index.html")).read_text(encoding="utf-8")
    assert "日本棋院チーム" in round_page


def test_the_egc_winning_points_pair_and_rank_the_same(tmp_path: Path) -> None:
    """``[teams] match_points = [1, 0.5, 0]`` (the EGC's winning points) halves every
    score and SOS: the same pairings, the same order."""
    seen = []
    for points in ("", "match_points = [1, 0.5, 0]\n"):
        folder = go_team_event(tmp_path / (points[:5] or "default"), rounds=3)
        toml = folder / "event.toml"
        toml.write_text(toml.read_text(encoding="utf-8") + points, encoding="utf-8")
        draw = random.Random(11)
        for number in (1, 2):
            assert cli("pair", str(folder))[0] == 0
            type_go_results(folder, number, draw)
        assert cli("pair", str(folder))[0] == 0
        event = event_of(folder)
        ranked = team_standings(event, (), upto=2)
        seen.append(([(r.number, m.team_1, m.team_2) for r in event.team_rounds
                      for m in r.matches],
                     [(row.team.id, row.rank) for row in ranked.rows],
                     [row.score for row in ranked.rows]))
    assert seen[0][0] == seen[1][0]
    assert seen[0][1] == seen[1][1]
    assert seen[1][2] == [s / 2 for s in seen[0][2]]


def test_a_result_corrected_after_the_next_round_is_paired_asks_for_a_redo(
        tmp_path: Path) -> None:
    """``check`` compares a Go team round paired and not started with the pairing made
    now (standgen/audit.py, as for a chess team round): a corrected result that changes
    it names ``pair --redo``; once a result of the round is typed, it says nothing."""
    folder = go_team_event(tmp_path, rounds=3)
    assert cli("pair", str(folder))[0] == 0
    path = folder / "round-1.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    at = header.index("result")
    typed = [lines[0]]
    for k, line in enumerate(lines[1:]):
        cells = line.split(",")
        if cells[header.index("player_2")] != "BYE":
            cells[at] = "1-0" if k < 3 else "0-1"
        typed.append(",".join(cells))
    path.write_text("\n".join(typed) + "\n", encoding="utf-8")
    assert cli("pair", str(folder))[0] == 0
    before = rows_of(folder / "teams-round-2.csv")
    # every board of round 1 the other way round: other winners, other score groups
    flipped = [typed[0]] + [line.replace(",1-0,", ",X,").replace(",0-1,", ",1-0,")
                            .replace(",X,", ",0-1,") for line in typed[1:]]
    path.write_text("\n".join(flipped) + "\n", encoding="utf-8")
    event = event_of(folder)
    now = propose_team_round(
        event.__class__(**{**event.__dict__, "team_rounds": event.team_rounds[:1],
                           "rounds": event.rounds[:1]}), 2).round.matches
    code, out = cli("check", str(tmp_path / "events"))
    assert code == 0
    assert {(m.team_1, m.team_2) for m in now} != {(r["team_1"], r["team_2"])
                                                   for r in before}
    assert "--redo 2" in out, out
    type_go_results(folder, 2, random.Random(1))
    code, out = cli("check", str(tmp_path / "events"))
    assert code == 0 and "--redo" not in out, out
