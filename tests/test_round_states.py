"""Issue #27: every event-day action in every round state, through the CLI.

Each test is one numbered failure of the issue (what a new TO met following the docs),
replayed on realistic names (tests/realnames.py). The round states and what each action
does in them: docs/running-an-event.md, "Round states".
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from standgen.cli import main
from tests.realnames import Person, field
from tests.test_event_day import rows, write_rows


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def ok(*args: str) -> str:
    code, out = cli(*args)
    assert code == 0, out
    return out


def play(path: Path) -> None:
    """Enter a result at every table without one: player_1 wins."""
    table = rows(path)
    for row in table:
        if row["player_2"] not in ("BYE", "ABSENT") and not row["result"]:
            row["result"] = "1-0"
    write_rows(path, table)


def seated(path: Path) -> set[str]:
    """Return the players with a row in a round file (at a table, a bye or absent)."""
    return {p for row in rows(path) for p in (row["player_1"], row["player_2"])} - {
        "BYE", "ABSENT"}


def at_tables(path: Path) -> set[str]:
    """Return the players paired against an opponent in a round file."""
    return {p for row in rows(path) if row["player_2"] not in ("BYE", "ABSENT")
            for p in (row["player_1"], row["player_2"])}


def add_player(folder: Path, cells: dict[str, str]) -> None:
    table = rows(folder / "players.csv")
    table.append({c: cells.get(c, "") for c in table[0]})
    write_rows(folder / "players.csv", table)


def start_round_1(folder: Path) -> list[dict[str, str]]:
    """Pair round 1 and enter table 1's result; return the round's rows."""
    ok("pair", str(folder))
    table = rows(folder / "round-1.csv")
    table[0]["result"] = "1-0"
    write_rows(folder / "round-1.csv", table)
    return table


@pytest.fixture
def steamroller(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[Person]]:
    """A 9-player Steamroller event with real names, 4 rounds planned, created by ``new``."""
    monkeypatch.chdir(tmp_path)
    ok("new", "events/2026/spring-open", "--format", "steamroller")
    folder = Path("events/2026/spring-open")
    toml = folder / "event.toml"
    toml.write_text(toml.read_text().replace("# rounds = 3", "rounds = 4 #"))
    people = field(random.Random(27), 9)
    header = (folder / "players.csv").read_text().strip().split(",")
    table = [dict(zip(header, [p.id, p.name, p.faction, p.club] + [""] * 10, strict=False))
             for p in people]
    write_rows(folder / "players.csv", table)
    return folder, people


def test_redo_after_a_drop_in_a_paired_round(steamroller: tuple[Path, list[Person]]) -> None:
    """Issue #27 failure 1: drop with the round paired, then pair --redo refused."""
    folder, _ = steamroller
    for n in (1, 2):
        ok("pair", str(folder))
        play(folder / f"round-{n}.csv")
    ok("pair", str(folder))
    leaving = rows(folder / "round-3.csv")[0]["player_1"]
    said = ok("drop", str(folder), leaving)
    assert f"{leaving} dropped after round 2" in said
    assert f"standgen pair {folder.as_posix()} --redo 3" in said  # what it did to round 3
    checked = ok("check", str(folder))  # the files stay valid meanwhile
    assert "--redo 3" in checked
    ok("pair", str(folder), "--redo", "3")
    assert leaving not in seated(folder / "round-3.csv")
    assert len(seated(folder / "round-3.csv")) == 8


def test_redo_places_a_late_entry_with_joined(steamroller: tuple[Path, list[Person]]) -> None:
    """Issue #27 failure 1: a late entry with a ``joined`` column and ``--redo``."""
    folder, _ = steamroller
    ok("pair", str(folder))
    play(folder / "round-1.csv")
    ok("pair", str(folder))
    add_player(folder, {"id": "zed-n", "name": "Zed Nowak", "faction": "Cryx", "joined": "2"})
    assert "--redo 2" in ok("check", str(folder))
    ok("pair", str(folder), "--redo", "2")
    assert "zed-n" in seated(folder / "round-2.csv")


def test_redo_places_a_plain_new_row(steamroller: tuple[Path, list[Person]]) -> None:
    """A late entry as a plain new row while the round is paired joins that round."""
    folder, _ = steamroller
    ok("pair", str(folder))
    play(folder / "round-1.csv")
    ok("pair", str(folder))
    add_player(folder, {"id": "zed-n", "name": "Zed Nowak", "faction": "Cryx"})
    ok("check", str(folder))
    ok("pair", str(folder), "--redo", "2")
    assert "zed-n" in seated(folder / "round-2.csv")


def test_a_bye_asked_for_a_paired_round_says_what_to_do(
        steamroller: tuple[Path, list[Person]]) -> None:
    folder, people = steamroller
    ok("pair", str(folder))
    asking = rows(folder / "round-1.csv")[0]["player_2"]
    said = ok("bye", str(folder), asking, "--round", "1")
    assert f"standgen pair {folder.as_posix()} --redo 1" in said
    ok("pair", str(folder), "--redo", "1")
    assert asking not in at_tables(folder / "round-1.csv")
    assert asking in seated(folder / "round-1.csv")  # an ABSENT row: the requested bye


def test_a_bye_for_a_started_round_is_refused_with_the_forfeit_to_enter(
        steamroller: tuple[Path, list[Person]]) -> None:
    folder, _ = steamroller
    table = start_round_1(folder)
    asking = table[1]["player_1"]
    code, out = cli("bye", str(folder), asking, "--round", "1")
    assert code == 2 and "-+" in out and "Traceback" not in out


def test_a_drop_in_a_started_round_names_the_forfeit(
        steamroller: tuple[Path, list[Person]]) -> None:
    folder, _ = steamroller
    table = start_round_1(folder)
    leaving, other = table[1]["player_2"], table[1]["player_1"]
    said = ok("drop", str(folder), leaving)
    assert "dropped after round 1" in said and "enter +-" in said and other in said
    table = rows(folder / "round-1.csv")
    table[1]["result"] = "+-"  # the advice, followed
    write_rows(folder / "round-1.csv", table)
    play(folder / "round-1.csv")
    ok("pair", str(folder))
    assert leaving not in seated(folder / "round-2.csv")


def test_a_corrected_result_says_whether_the_paired_round_changes(
        steamroller: tuple[Path, list[Person]]) -> None:
    folder, _ = steamroller
    ok("pair", str(folder))
    play(folder / "round-1.csv")
    ok("pair", str(folder))
    assert "as paired is not the pairing" not in ok("check", str(folder))
    table = rows(folder / "round-1.csv")
    for row in table:  # every result of round 1 was entered the wrong way round
        if row["result"] == "1-0":
            row["result"] = "0-1"
    write_rows(folder / "round-1.csv", table)
    said = ok("check", str(folder))
    assert "round 2 as paired is not the pairing the files give now" in said
    assert f"standgen pair {folder.as_posix()} --redo 2" in said
    ok("pair", str(folder), "--redo", "2")
    assert "as paired is not the pairing" not in ok("check", str(folder))


def test_commands_take_an_event_folder_or_the_events_root(
        steamroller: tuple[Path, list[Person]], tmp_path: Path) -> None:
    """Issue #27 failure 2: ``check EVENT`` (docs step 3), ``build EVENT``, ``status
    events`` and ``pair events``."""
    folder, _ = steamroller
    assert "1 event(s) checked" in ok("check", str(folder))
    assert "event.toml at the events root" not in ok("check", str(folder))
    ok("build", str(folder), "-o", "site")
    assert Path("site/2026/spring-open/index.html").is_file()
    code, out = cli("pair", "events")
    assert code == 2 and "standgen pair events/2026/spring-open" in out
    assert "is missing" not in out
    ok("pair", "events/2026/spring-open")  # the advice, followed
    assert "Spring Open: round 1 is paired" in ok("status", "events")
    assert "Spring Open: round 1" in ok("status", str(folder))


def test_drop_takes_a_unique_name_and_refuses_a_shared_one(
        steamroller: tuple[Path, list[Person]]) -> None:
    folder, people = steamroller
    ok("pair", str(folder))
    play(folder / "round-1.csv")
    unique = next(p for p in people if p.name != "Oliver Smith")
    assert f"{unique.name} dropped after round 1" in ok("drop", str(folder), unique.name)
    assert rows(folder / "players.csv")[people.index(unique)]["dropped_after"] == "1"
    code, out = cli("drop", str(folder), "oliver  smith")
    twins = [p.id for p in people if p.name == "Oliver Smith"]
    assert code == 2 and all(f"'{pid}'" in out for pid in twins)


def test_status_after_the_last_round_agrees_with_pair(
        steamroller: tuple[Path, list[Person]]) -> None:
    folder, _ = steamroller
    toml = folder / "event.toml"
    toml.write_text(toml.read_text().replace("rounds = 4", "rounds = 1"))
    ok("pair", str(folder))
    open_tables = ok("status", str(folder))  # 9 players: the bye is no table
    assert "paired and not started, 4 tables without a result" in open_tables
    play(folder / "round-1.csv")
    said = ok("status", str(folder))
    assert "the event is over" in said and "run standgen pair" not in said
    code, out = cli("pair", str(folder))
    assert code == 2 and "the event is over" in out


def test_new_names_the_next_step_and_the_day_columns(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = ok("new", "events/club-night", "--format", "swiss")
    assert "standgen pair events/club-night" in out
    header = Path("events/club-night/players.csv").read_text().strip().split(",")
    assert {"joined", "byes", "dropped_after"} <= set(header)


def test_new_suggests_a_slug_and_a_format(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = cli("new", "events/Spring Open", "--format", "steamroller")
    assert code == 2 and "standgen new events/spring-open --format steamroller" in out
    ok("new", "events/spring-open", "--format", "steamroller")  # the advice, followed
    code, out = cli("new", "events/other", "--format", "warmachine")
    assert code == 2 and "did you mean 'steamroller'" in out
    Path("events/Winter Cup").mkdir()
    code, out = cli("check", "events")
    assert "rename it 'winter-cup'" in out


def test_check_says_nothing_about_writing() -> None:
    code, out = cli("check", "no-such-folder")
    assert code == 2 and "nothing was written" not in out and "check again" in out


def test_a_near_miss_keeps_the_choice_s_case(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue #27 failure 6: 'Germny' got "did you mean 'germany'" (lower case)."""
    monkeypatch.chdir(tmp_path)
    people = field(random.Random(9), 7, same_name=False)
    folder = make_event("diplomacy", "id,name", [f"{p.id},{p.name}" for p in people])
    ok("pair", str(folder))
    rnd = folder / "round-1.csv"
    rnd.write_text(rnd.read_text().replace(",Germany,", ",Germny,"))
    code, out = cli("check", str(folder))
    assert code == 2 and "did you mean 'Germany'?" in out


def make_event(fmt: str, header: str, people: list[str], options: str = "") -> Path:
    """Write an event of ``fmt`` under ./events/day/ with ``people`` rows; return it."""
    ok("new", "events/day", "--format", fmt)
    folder = Path("events/day")
    if options:
        toml = folder / "event.toml"
        toml.write_text(toml.read_text() + options)
    (folder / "players.csv").write_text("\n".join([header, *people]) + "\n", encoding="utf-8")
    return folder


def test_chess_pair_reads_out_colours_and_ratings(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue #27 failure 5: chess ``pair`` showed clubs, not colours or ratings."""
    monkeypatch.chdir(tmp_path)
    people = field(random.Random(5), 5, same_name=False)
    folder = make_event("swiss", "id,name,club,rating", [
        f"{p.id},{p.name},{p.club},{2200 - 50 * k}" for k, p in enumerate(people)])
    out = ok("pair", str(folder))
    table_1 = next(line for line in out.splitlines() if line.startswith("  table 1:"))
    assert "(White, " in table_1 and "(Black, " in table_1
    assert not any(p.club in out for p in people)
    assert "bye: " in out and "table 3:" not in out  # the bye has no table number
    assert "score group" not in out.lower() and "seed" not in out


def test_go_pair_reads_out_colours_handicap_and_komi(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue #27 failure 5: Go ``pair`` said nothing of who takes Black, and printed a
    paragraph per table before the list."""
    monkeypatch.chdir(tmp_path)
    people = field(random.Random(6), 6, same_name=False)
    ranks = ["3d", "1d", "2k", "5k", "8k", "12k"]
    folder = make_event("mcmahon", "id,name,rank", [
        f"{p.id},{p.name},{r}" for p, r in zip(people, ranks, strict=True)],
        "\n[options]\nhandicap = true\n")
    out = ok("pair", str(folder))
    lines = [line for line in out.splitlines() if line.startswith("  table")]
    assert len(lines) == 3 and all("White" in line and "Black" in line for line in lines)
    assert any("komi" in line for line in lines)
    assert "Table 1:" not in out  # the per-table explanations: behind --explain
    ok("pair", str(folder), "--redo", "1")
    assert "Table 1:" in ok("pair", str(folder), "--redo", "1", "--explain")


def test_diplomacy_pair_reads_out_powers_and_who_sits_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue #27 failure 5: Diplomacy ``pair`` listed no powers and called a sit-out
    ``table 3: ...: bye``."""
    monkeypatch.chdir(tmp_path)
    people = field(random.Random(7), 9, same_name=False)
    folder = make_event("diplomacy", "id,name", [f"{p.id},{p.name}" for p in people])
    out = ok("pair", str(folder))
    board = next(line for line in out.splitlines() if line.startswith("  board 1:"))
    for power in ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"):
        assert power in board
    assert "sitting out: " in out and ": bye" not in out


def test_requested_byes_and_absences_get_no_table_number(
        steamroller: tuple[Path, list[Person]]) -> None:
    folder, people = steamroller
    ok("bye", str(folder), people[2].id, "--round", "1")
    out = ok("pair", str(folder))
    assert f"not paired (asked for a bye, or absent): {people[2].name}" in out
    assert "not paired" not in next(line for line in out.splitlines() if "table" in line)


def test_a_lost_letter_is_a_warning_on_each_line_it_is_on(
        steamroller: tuple[Path, list[Person]]) -> None:
    """Issue #27 failure 3: Excel's plain CSV wrote 'Hana Sat?', 'V?ra'; the one warning
    named the first non-ASCII line only."""
    folder, people = steamroller
    path = folder / "players.csv"
    text = path.read_text(encoding="utf-8")
    for person, name in zip(people[1:4], ("Hana Satō", "Olúwaṣeun Brennan", "Věra Dubois"),
                            strict=True):
        text = text.replace(f",{person.name},", f",{name},", 1)
    lost = "".join(c if c.encode("cp1252", "replace") != b"?" else "?" for c in text)
    path.write_bytes(lost.encode("cp1252"))
    out = ok("check", str(folder))
    flagged = [line for line in out.splitlines() if "encoding lost a letter" in line]
    expected = [k for k, row in enumerate(lost.splitlines(), start=1) if re.search(
        r"\w\?|\?\w", row)]
    assert expected and [int(line.split(":")[1]) for line in flagged] == expected
    assert all("save as CSV UTF-8" in line for line in flagged)


def test_notices_are_shown_once_in_file_and_line_order(
        steamroller: tuple[Path, list[Person]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue #27 failure 4: 'nothing to do' warnings on every check, in changing order."""
    monkeypatch.setenv("STANDGEN_CACHE", str(tmp_path / "cache"))
    folder, _ = steamroller
    ok("pair", str(folder))
    players = folder / "players.csv"
    players.write_bytes(b"\xef\xbb\xbf" + players.read_text().replace(",", ";").encode())
    rnd = folder / "round-1.csv"
    rnd.write_bytes(b"\xef\xbb\xbf" + rnd.read_bytes())
    first = [line for line in ok("check", str(folder)).splitlines() if ": warning: " in line]
    assert any("byte-order mark" in line for line in first)
    assert any("separated by semicolons" in line for line in first)
    where = [(line.split(":")[0], int(line.split(":")[1])) for line in first]
    assert where == sorted(where)
    again = ok("check", str(folder))
    assert "byte-order mark" not in again and "semicolons" not in again
    assert "no problems" in again
    players.write_bytes(players.read_bytes().replace(b";", b","))  # a new form: no ';'
    assert "semicolons" not in ok("check", str(folder))


def test_the_watch_problem_box_shows_errors_first_and_no_notices() -> None:
    from types import SimpleNamespace

    from standgen.errors import Problem
    from standgen.watch.core import Watch

    problems = (Problem("a.csv", 1, "starts with a byte-order mark; nothing to do",
                        warning=True, notice=True),
                Problem("a.csv", 2, "a rematch", warning=True),
                Problem("b.csv", 3, "unknown player id 'x'"))
    box = Watch._banner(SimpleNamespace(internal_error="", problems=problems))  # type: ignore[arg-type]
    assert "byte-order" not in box
    assert box.index("unknown player id") < box.index("a rematch")


def test_standgen_s_own_trf_comes_back_with_a_word_on_long_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue #27 failure 6: TRF out and back in cut 40-character names without a word and
    warned about record 062 (the number of players, which the 001 lines give)."""
    from standgen.eventday import load
    from standgen.pipeline import report
    from standgen.trf import export_trf

    monkeypatch.chdir(tmp_path)
    people = field(random.Random(40), 6, same_name=False)
    longest = max(people, key=lambda p: len(p.name))
    assert len(longest.name) > 33
    folder = make_event("swiss", "id,name,rating", [
        f"{p.id},{p.name},{2000 - k}" for k, p in enumerate(people)])
    ok("pair", str(folder))
    play(folder / "round-1.csv")
    event, _ = load(folder)
    (tmp_path / "out.trf").write_text(export_trf(report(event)), encoding="utf-8")
    out = ok("import-trf", str(tmp_path / "out.trf"), "events/again")
    assert "record 062" not in out
    assert f"'{longest.name[:33]}' fills the 33 columns" in out


def test_pages_show_go_colours_and_no_table_for_players_without_a_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue #27 failures 5 and 6 on the pages: Go colours, no empty Handicap/Komi
    columns, no table number for a late entry's absence, an unstarted round is not
    "In progress"."""
    from standgen import build as lib
    from standgen.load import load_tree

    monkeypatch.chdir(tmp_path)
    people = field(random.Random(8), 5, same_name=False)
    folder = make_event("mcmahon", "id,name,rank,joined", [
        f"{p.id},{p.name},{r}," for p, r in zip(people, RANKS_5, strict=True)])
    ok("pair", str(folder))
    rnd = folder / "round-1.csv"
    rnd.write_text(rnd.read_text().replace(",0.5\n", ",\n").replace(",7.5\n", ",\n"))
    site = lib.render(load_tree(Path("events")))
    page = site["day/round-1/index.html"].decode()
    assert "White" in page and "Black" in page
    assert "Handicap" not in page and "Komi" not in page
    assert ">Paired<" in page and "In progress" not in page
    play(rnd)
    late = Person("zed-n", "Zed Nowak", "", "")
    add_player(folder, {"id": late.id, "name": late.name, "rank": "2k"})
    ok("pair", str(folder))
    site = lib.render(load_tree(Path("events")))
    player = site["day/players/zed-n/index.html"].decode()
    row = re.search(r"<tr>\s*<th scope=\"row\"[^>]*><a [^>]*>R1</a></th>\s*"
                    r"<td class=\"num\"[^>]*>(.*?)</td>", player, re.S)
    assert row is not None and row.group(1) == ""  # absent in round 1: no table


RANKS_5 = ("3d", "1d", "2k", "5k", "8k")


def test_a_dead_end_is_told_in_plain_words() -> None:
    """Issue #27 failure 6: 'The written procedure dead-ended; paired by matching (last
    4).' was jargon."""
    from standgen.pairing.common import _matched

    note = _matched("matching (last 4)")
    assert "the last 4 players" in note and "paired by matching" not in note
    assert "the field" in _matched("matching (whole field)")


def test_a_forfeit_shows_as_a_forfeit_on_the_round_page(
        steamroller: tuple[Path, list[Person]]) -> None:
    """Issue #27 failure 6: a forfeit printed as 'win'."""
    from standgen import build as lib
    from standgen.load import load_tree

    folder, _ = steamroller
    table = start_round_1(folder)
    table[1]["result"] = "+-"
    write_rows(folder / "round-1.csv", table)
    page = lib.render(load_tree(Path("events")))["2026/spring-open/round-1/index.html"]
    assert "win (forfeit)" in page.decode()


def test_a_drop_before_round_1_says_before_round_1(
        steamroller: tuple[Path, list[Person]]) -> None:
    """A player who withdraws before anything is paired is dropped 'before round 1', not
    'after round 0' (dropped_after 0), and is not paired."""
    folder, people = steamroller
    said = ok("drop", str(folder), people[0].id)
    assert f"{people[0].id} dropped before round 1" in said and "round 0" not in said.split(";")[0]
    ok("pair", str(folder))
    assert people[0].id not in seated(folder / "round-1.csv")
