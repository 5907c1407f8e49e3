"""Teams in individual events (issue #34, docs/teams.md): the files, team-mates kept
apart by every format's pairing, team standings, standings.json's "teams", the page.

Fields come from tests/realnames.py (accented, long, two players of one name); team
names from many languages, some typed without a teams.csv.
"""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from standgen.cli import main
from standgen.load.teams import team_slug
from tests.realnames import Person, field

TEAM_NAMES = ("Drużyna Łódź", "Équipe de France", "Team Ødegård", "Los Dragones",
              "Čeští Draci", "Die Zwölf Müller", "O'Neill's Irregulars", "Tokyo Igo Club")
HEADERS = {
    "steamroller": ["id", "name", "faction", "team"],
    "old-world": ["id", "name", "faction", "team"],
    "swiss": ["id", "name", "rating", "team"],
    "mcmahon": ["id", "name", "rank", "team"],
    "diplomacy": ["id", "name", "team"],
}


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def write_csv(path: Path, header: list[str], rows: list[list[str]]) -> None:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, *rows])
    path.write_text(out.getvalue(), encoding="utf-8")


def read_rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def make_event(root: Path, fmt: str, people: list[Person], teams: list[str],
               teams_toml: str = "", extra: str = "") -> Path:
    """Write an event of ``fmt``: ``teams[k]`` is the team cell of ``people[k]``."""
    folder = root / "2026" / "team-cup"
    folder.mkdir(parents=True)
    (folder / "event.toml").write_text(
        f'name = "Team Cup"\ndate = 2026-05-02\nformat = "{fmt}"\nrounds = 3\n{extra}'
        + (f"\n[teams]\n{teams_toml}" if teams_toml else ""), encoding="utf-8")
    rng = random.Random(len(people))
    cells = {"rating": lambda k: str(2400 - 20 * k), "rank": lambda k: rng.choice(
        ("3k", "1d", "2d", "5k")), "faction": lambda k: people[k].faction}
    header = HEADERS[fmt]
    rows = []
    for k, person in enumerate(people):
        row = {"id": person.id, "name": person.name, "team": teams[k]}
        rows.append([row.get(c) or (cells[c](k) if c in cells else "") for c in header])
    write_csv(folder / "players.csv", header, rows)
    return folder


def teamed(rng: random.Random, size: int, n_teams: int) -> tuple[list[Person], list[str]]:
    people = field(rng, size)
    names = rng.sample(TEAM_NAMES, n_teams)
    teams = [names[k % n_teams] for k in range(size)]
    rng.shuffle(teams)
    return people, teams


# -- files -----------------------------------------------------------------------------

def test_team_names_typed_in_players_csv_make_the_teams(tmp_path: Path) -> None:
    people, teams = teamed(random.Random(1), 8, 2)
    folder = make_event(tmp_path / "events", "steamroller", people, teams)
    code, out = cli("pair", str(folder))
    assert code == 0, out
    code, out = cli("build", str(tmp_path / "events"), "-o", str(tmp_path / "site"))
    assert code == 0, out
    document = json.loads((tmp_path / "site/2026/team-cup/standings.json").read_text())
    assert {t["name"] for t in document["teams"]} == set(teams)
    assert {t["id"] for t in document["teams"]} == {team_slug(t) for t in teams}


@pytest.mark.parametrize(("name", "slug"), [
    ("Drużyna Łódź", "druzyna-lodz"), ("Team Ødegård", "team-odegard"),
    ("Die Zwölf Müller", "die-zwolf-muller"), ("O'Neill's Irregulars", "o-neill-s-irregulars"),
    ("東京囲碁", ""),
])
def test_a_team_name_makes_a_slug_or_none(name: str, slug: str) -> None:
    assert team_slug(name) == slug


def test_a_name_with_no_latin_letter_asks_for_teams_csv(tmp_path: Path) -> None:
    people = field(random.Random(2), 4)
    folder = make_event(tmp_path / "events", "swiss", people, ["東京囲碁"] * 2 + [""] * 2)
    code, out = cli("check", str(folder))
    assert code == 2
    assert "players.csv:2: team '東京囲碁' gives no web address (a slug); add teams.csv" in out
    write_csv(folder / "teams.csv", ["id", "name"], [["tokyo", "東京囲碁"]])
    code, out = cli("check", str(folder))  # the advice, followed, works
    assert code == 0, out


def test_teams_csv_takes_an_id_or_a_name_and_names_a_near_miss(tmp_path: Path) -> None:
    people = field(random.Random(3), 4)
    folder = make_event(tmp_path / "events", "swiss", people,
                        ["lodz", "Équipe de France", "équipe DE france", "Drużyna Łodź"])
    write_csv(folder / "teams.csv", ["id", "name", "captain"],
              [["lodz", "Drużyna Łódź", people[0].id], ["fra", "Équipe de France", ""]])
    code, out = cli("check", str(folder))
    assert code == 2
    assert ("players.csv:5: team 'Drużyna Łodź' is not in teams.csv; did you mean "
            "'Drużyna Łódź'?; add a row for it") in out
    rows = read_rows(folder / "players.csv")
    rows[3]["team"] = "Drużyna Łódź"
    write_csv(folder / "players.csv", list(rows[0]), [list(r.values()) for r in rows])
    code, out = cli("check", str(folder))
    assert code == 0, out


@pytest.mark.parametrize(("teams_csv", "message"), [
    ([["x y", "A"]], "teams.csv:2: team id 'x y' must be a slug"),
    ([["a", "A"], ["a", "B"]], "teams.csv:3: team id 'a' is already used on line 2"),
    ([["a", "A"], ["b", "a"]], "teams.csv:3: team name 'a' is already used on line 2"),
    ([["a", ""]], "teams.csv:2: team 'a' has no name"),
    ([["a", "A", "nobody"]], "teams.csv:2: captain 'nobody' of team 'a' is no player id"),
])
def test_a_bad_teams_csv_names_the_line(tmp_path: Path, teams_csv: list[list[str]],
                                        message: str) -> None:
    people = field(random.Random(4), 4)
    folder = make_event(tmp_path / "events", "swiss", people, ["a"] * 4)
    header = ["id", "name", "captain"][:max(len(r) for r in teams_csv)]
    write_csv(folder / "teams.csv", header, [r + [""] * (len(header) - len(r))
                                             for r in teams_csv])
    code, out = cli("check", str(folder))
    assert code == 2 and message in out, out
    assert "Traceback" not in out


@pytest.mark.parametrize(("toml", "message"), [
    ('apart = "sometimes"', "event.toml:7: [teams] apart 'sometimes' must be one of"),
    ("counted = 0", "event.toml:7: [teams] counted must be"),
    ("size = 2.5", "event.toml:7: [teams] size must be"),
    ("sizes = 3", "event.toml:7: unknown key 'sizes' under [teams]; did you mean 'size'?"),
])
def test_bad_teams_options_name_the_line(tmp_path: Path, toml: str, message: str) -> None:
    people = field(random.Random(5), 4)
    folder = make_event(tmp_path / "events", "swiss", people, ["A", "A", "B", "B"], toml)
    code, out = cli("check", str(folder))
    assert code == 2 and message in out, out


def test_two_names_of_one_slug_are_refused(tmp_path: Path) -> None:
    people = field(random.Random(6), 4)
    folder = make_event(tmp_path / "events", "swiss", people,
                        ["Čeští Draci", "Cesti Draci", "", ""])
    code, out = cli("check", str(folder))
    assert code == 2
    assert "team 'Cesti Draci' and team 'Čeští Draci'" in out
    assert "both make the address 'cesti-draci'" in out


def test_a_team_of_another_size_is_a_warning(tmp_path: Path) -> None:
    people = field(random.Random(7), 5)
    folder = make_event(tmp_path / "events", "swiss", people, ["A", "A", "A", "B", "B"],
                        "size = 3")
    code, out = cli("check", str(folder))
    assert code == 0
    assert "warning: team 'b' has 2 player(s) and [teams] size is 3" in out


# -- team-mates apart ------------------------------------------------------------------

def team_mate_pairs(folder: Path, teams: dict[str, str], number: int) -> int:
    """Return how many games (boards: pairs on a board) of a round seat team-mates."""
    rows = read_rows(folder / f"round-{number}.csv")
    if "board" in rows[0]:
        boards: dict[str, list[str]] = {}
        for row in rows:
            if row["board"]:
                boards.setdefault(row["board"], []).append(row["player"])
        return sum(1 for board in boards.values() for a in board for b in board
                   if a < b and teams[a] and teams[a] == teams[b])
    return sum(1 for row in rows if row["player_2"] not in ("BYE", "ABSENT")
               and teams[row["player_1"]] and teams[row["player_1"]] == teams[row["player_2"]])


@pytest.mark.parametrize("seed", range(30))
def test_round_1_keeps_team_mates_apart_in_every_format(seed: int, tmp_path: Path) -> None:
    """Property: with no team above half of the players paired, whoever has the bye (so
    a pairing without team-mates exists), round 1 of every two-player format pairs no
    team-mates; Diplomacy seats none on one board when there are at least as many boards
    as any team has players."""
    rng = random.Random(seed)
    fmt = ("steamroller", "old-world", "swiss", "mcmahon", "diplomacy")[seed % 5]
    if fmt == "diplomacy":
        size = 14
        people, cells = teamed(rng, size, 7)  # teams of 2, two boards
    else:
        n_teams = rng.randint(2, 5)
        size = rng.randint(6, 16)
        size += size % 2 if n_teams == 2 else 0  # whoever gets the bye, no team is a majority
        people, cells = teamed(rng, size, n_teams)
    folder = make_event(tmp_path / "events", fmt, people, cells)
    code, out = cli("pair", str(folder))
    assert code == 0, out
    ids = {p.id: team_slug(c) for p, c in zip(people, cells, strict=True)}
    assert team_mate_pairs(folder, ids, 1) == 0, (folder / "round-1.csv").read_text()


@pytest.mark.parametrize("fmt", ["steamroller", "swiss"])
def test_apart_no_leaves_round_1_as_drawn(fmt: str, tmp_path: Path) -> None:
    """``apart = "no"``: the pairing ignores teams, so it is the pairing of the same
    event without a team column."""
    people, cells = teamed(random.Random(11), 10, 2)
    with_teams = make_event(tmp_path / "a" / "events", fmt, people, cells, 'apart = "no"')
    without = make_event(tmp_path / "b" / "events", fmt, people, [""] * 10, extra="seed = 5\n")
    (with_teams / "event.toml").write_text((with_teams / "event.toml").read_text()
                                           .replace("rounds = 3\n", "rounds = 3\nseed = 5\n"))
    for folder in (with_teams, without):
        assert cli("pair", str(folder))[0] == 0
    pairs = [{frozenset((r["player_1"], r["player_2"])) for r in read_rows(f / "round-1.csv")}
             for f in (with_teams, without)]
    assert pairs[0] == pairs[1]


def test_always_keeps_team_mates_apart_in_later_rounds(tmp_path: Path) -> None:
    people, cells = teamed(random.Random(12), 12, 3)
    folder = make_event(tmp_path / "events", "steamroller", people, cells,
                        'apart = "always"')
    ids = {p.id: team_slug(c) for p, c in zip(people, cells, strict=True)}
    for number in (1, 2, 3):
        assert cli("pair", str(folder))[0] == 0
        assert team_mate_pairs(folder, ids, number) == 0
        rows = read_rows(folder / f"round-{number}.csv")
        for row in rows:
            if row["player_2"] not in ("BYE", "ABSENT"):
                row.update(result="1-0", cp_1="3", cp_2="1", apd_1="30", apd_2="10")
        write_csv(folder / f"round-{number}.csv", list(rows[0]),
                  [list(r.values()) for r in rows])


def test_team_mates_paired_by_hand_are_a_warning(tmp_path: Path) -> None:
    people = field(random.Random(13), 4)
    folder = make_event(tmp_path / "events", "swiss", people, ["A", "A", "B", "B"])
    write_csv(folder / "round-1.csv", ["table", "player_1", "player_2", "result"],
              [["1", people[0].id, people[1].id, ""], ["2", people[2].id, people[3].id, ""]])
    code, out = cli("check", str(folder))
    assert code == 0
    assert (f"round-1.csv:2: warning: '{people[0].id}' and '{people[1].id}' are team-mates "
            "(team 'a'), kept apart in round 1 by [teams] apart") in out


# -- team standings ----------------------------------------------------------------------

def north_and_south(tmp_path: Path, counted: int, seed: int,
                    games: list[tuple[int, int, str]]) -> tuple[list[str], dict[str, Any]]:
    """Build a 6-player Swiss, North (players 0-2) against South (3-5), with ``[teams]
    counted`` and round 1's ``games`` (player_1, player_2, result by position); return
    the player ids and standings.json's teams by id."""
    people = field(random.Random(seed), 6, same_name=False)
    cells = ["North", "North", "North", "South", "South", "South"]
    folder = make_event(tmp_path / "events", "swiss", people, cells, f"counted = {counted}")
    p = [person.id for person in people]
    write_csv(folder / "round-1.csv", ["table", "player_1", "player_2", "result"],
              [[str(k), p[a], p[b], result] for k, (a, b, result) in enumerate(games, 1)])
    code, out = cli("build", str(tmp_path / "events"), "-o", str(tmp_path / "site"))
    assert code == 0, out
    document = json.loads((tmp_path / "site/2026/team-cup/standings.json").read_text())
    assert all(set(t) == {"rank", "id", "name", "score", "tiebreaks", "members", "counted",
                                "unlisted"}
               for t in document["teams"])
    return p, {t["id"]: t for t in document["teams"]}


def test_team_standings_worked_example(tmp_path: Path) -> None:
    """Docs/teams.md's example: a Swiss of 6 players in two teams of three, [teams]
    counted = 2: team scores are the sums of each team's best two."""
    p, teams = north_and_south(tmp_path, 2, 14, [(0, 3, "1-0"), (4, 1, "1-0"), (2, 5, "½-½")])
    north, south = teams["north"], teams["south"]
    # North: 1, 0, 0.5 -> best two 1 + 0.5; South: 0, 1, 0.5 -> 1 + 0.5: a tie on score
    assert north["score"] == south["score"] == 1.5
    assert north["tiebreaks"]["all"] == south["tiebreaks"]["all"] == 1.5
    # the best placed players are both on 1 point and share rank 1: the teams share too
    assert north["rank"] == south["rank"] == 1
    assert north["counted"] == [p[0], p[2]] and south["counted"][0] == p[4]


def test_a_count_of_best_n_ranks_teams(tmp_path: Path) -> None:
    """counted = 1: best one each is 1 and 1; all: North 2, South 1, so North first."""
    _, teams = north_and_south(tmp_path, 1, 15, [(0, 3, "1-0"), (1, 4, "1-0"), (5, 2, "1-0")])
    assert teams["north"]["score"] == teams["south"]["score"] == 1
    assert (teams["north"]["rank"], teams["south"]["rank"]) == (1, 2)


def test_an_event_without_teams_has_no_teams_key(tmp_path: Path) -> None:
    people = field(random.Random(16), 4)
    make_event(tmp_path / "events", "swiss", people, [""] * 4)
    assert cli("build", str(tmp_path / "events"), "-o", str(tmp_path / "site"))[0] == 0
    document = json.loads((tmp_path / "site/2026/team-cup/standings.json").read_text())
    assert "teams" not in document
    assert 'id="teams"' not in (tmp_path / "site/2026/team-cup/index.html").read_text()


def test_the_event_page_shows_the_teams_escaped(tmp_path: Path) -> None:
    people = field(random.Random(17), 4)
    folder = make_event(tmp_path / "events", "swiss", people,
                        ["x", "x", "y", "y"])
    write_csv(folder / "teams.csv", ["id", "name"],
              [["x", "<script>alert(1)</script> Łódź"], ["y", "Équipe d'Été"]])
    assert cli("build", str(tmp_path / "events"), "-o", str(tmp_path / "site"))[0] == 0
    page = (tmp_path / "site/2026/team-cup/index.html").read_text()
    assert 'id="teams"' in page and "<script>alert(1)" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; Łódź" in page
    assert "Équipe d&#39;Été" in page


def test_forget_replaces_a_captain_in_teams_csv(tmp_path: Path) -> None:
    """``standgen forget`` of a team's captain changes teams.csv too, so the archive
    still loads (the captain cell names a player id)."""
    people = field(random.Random(18), 4)
    folder = make_event(tmp_path / "events", "swiss", people, ["a", "a", "b", "b"])
    write_csv(folder / "teams.csv", ["id", "name", "captain"],
              [["a", "Drużyna Łódź", people[0].id], ["b", "Équipe", people[2].id]])
    code, out = cli("forget", people[0].id, "--events", str(tmp_path / "events"))
    assert code == 0, out
    assert "teams.csv" in out
    assert people[0].id not in (folder / "teams.csv").read_text(encoding="utf-8")
    code, out = cli("check", str(tmp_path / "events"))
    assert code == 0, out


def test_a_member_not_published_in_full_counts_but_is_not_named(tmp_path: Path) -> None:
    """Privacy (docs/privacy.md): like the club, a team names only players published in
    full; a hidden member's score still counts for the team."""
    people = field(random.Random(19), 4, same_name=False)
    folder = make_event(tmp_path / "events", "swiss", people, ["North", "North", "South",
                                                               "South"])
    rows = read_rows(folder / "players.csv")
    header = [*rows[0], "publish"]
    write_csv(folder / "players.csv", header,
              [[*r.values(), "hidden" if k == 0 else ""] for k, r in enumerate(rows)])
    p = [person.id for person in people]
    write_csv(folder / "round-1.csv", ["table", "player_1", "player_2", "result"],
              [["1", p[0], p[2], "1-0"], ["2", p[3], p[1], "1-0"]])
    assert cli("build", str(tmp_path / "events"), "-o", str(tmp_path / "site"))[0] == 0
    document = json.loads((tmp_path / "site/2026/team-cup/standings.json").read_text())
    north = {t["id"]: t for t in document["teams"]}["north"]
    assert north["score"] == 1 and north["unlisted"] == 1 and north["members"] == [p[1]]
    page = (tmp_path / "site/2026/team-cup/index.html").read_text()
    teams_html = page[page.index('id="teams"'):page.index('id="rounds"')]
    assert "1 more not named" in teams_html and "Player 1" not in teams_html
    assert people[0].name not in page
    site = tmp_path / "site/2026/team-cup"
    shown = (site / f"players/{p[1]}/index.html")
    assert ">North</a></dd>" in shown.read_text()  # the player page names the team
    hidden = [f for f in (site / "players").rglob("index.html") if "Player 1" in f.read_text()]
    assert hidden and all(">North</a>" not in f.read_text() for f in hidden)


def test_club_mates_kept_apart_and_ranked_as_teams(tmp_path: Path) -> None:
    """``[teams] column = "club"``: each club is a team (no team column), so club-mates
    are kept apart in round 1 and the clubs are ranked as teams."""
    people = field(random.Random(20), 8)
    folder = tmp_path / "events" / "2026" / "club-cup"
    folder.mkdir(parents=True)
    (folder / "event.toml").write_text('name = "Club Cup"\ndate = 2026-05-02\nformat = '
                                       '"steamroller"\n\n[teams]\ncolumn = "club"\n',
                                       encoding="utf-8")
    clubs = ["Łódź Gamers", "Kraków Wargames"] * 4
    write_csv(folder / "players.csv", ["id", "name", "faction", "club"],
              [[p.id, p.name, p.faction, clubs[k]] for k, p in enumerate(people)])
    code, out = cli("pair", str(folder))
    assert code == 0, out
    by_club = {p.id: clubs[k] for k, p in enumerate(people)}
    assert team_mate_pairs(folder, by_club, 1) == 0
    assert cli("build", str(tmp_path / "events"), "-o", str(tmp_path / "site"))[0] == 0
    document = json.loads((tmp_path / "site/2026/club-cup/standings.json").read_text())
    assert {t["name"] for t in document["teams"]} == {"Łódź Gamers", "Kraków Wargames"}


def test_a_bad_teams_column_names_the_line(tmp_path: Path) -> None:
    people = field(random.Random(21), 4)
    folder = make_event(tmp_path / "events", "swiss", people, [""] * 4, 'column = "country"')
    code, out = cli("check", str(folder))
    assert code == 2
    assert "event.toml:7: [teams] column 'country' must be \"team\"" in out


@pytest.mark.parametrize(("apart", "record"), [("round-1", "260   1   1"), ("always", "XXP")])
def test_the_trf_download_keeps_team_mates_apart(tmp_path: Path, apart: str,
                                                 record: str) -> None:
    """The .trf download of a Swiss with teams carries the teams as forbidden pairs
    (TRF-2026 ``260`` for round 1, ``XXP`` for every round), so another pairing program
    pairs the next round as standgen does."""
    people = field(random.Random(22), 6)
    make_event(tmp_path / "events", "swiss", people, ["A", "B", "A", "B", "A", ""],
               f'apart = "{apart}"')
    assert cli("build", str(tmp_path / "events"), "-o", str(tmp_path / "site"))[0] == 0
    (trf,) = (tmp_path / "site/2026/team-cup").glob("*.trf")
    lines = [line for line in trf.read_text().splitlines() if line.startswith(record)]
    ranks = {line[4:8].strip(): line for line in trf.read_text().splitlines()
             if line.startswith("001")}
    assert len(lines) == 2 and len(ranks) == 6  # teams A (3 players) and B (2)
    assert sorted(len(line.split()) - (3 if record.startswith("260") else 1)
                  for line in lines) == [2, 3]
