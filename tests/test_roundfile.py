"""The one reader and writer of round files (standgen/roundfile/, issue #28).

Files as spreadsheets save them are read as the loader reads them and written back in
their own form; every write is a compare-and-swap; editors' lock files stop writes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from standgen.errors import Problem
from standgen.formats import FORMATS
from standgen.load import load_event
from standgen.load.config import load_event_config
from standgen.load.rounds import has_result
from standgen.roundfile import (
    Form,
    RoundFileRefused,
    editor_lock,
    read_round_file,
    remove_row,
    replace_row,
    round_csv,
)
from tests.conftest import ROUND_HEADER

STEAMROLLER = FORMATS["steamroller"]
ROUND_2 = ROUND_HEADER + "1,a,c,,,,,\n2,b,d,,,,,\n"


def read(path: Path):  # type: ignore[no-untyped-def]
    problems: list[Problem] = []
    found = read_round_file(path, STEAMROLLER, problems)
    assert found is not None, problems
    return found


def valid(root: Path) -> bool:
    problems: list[Problem] = []
    event = load_event(root / "ev", ("ev",), problems, root)
    return event is not None and not [p for p in problems if not p.warning]


SPREADSHEET_FORMS = {
    "comma LF": (ROUND_2.encode(), ",", "\n", False, "utf-8"),
    "Excel CSV UTF-8 (BOM, CRLF)": (b"\xef\xbb\xbf" + ROUND_2.replace("\n", "\r\n").encode(),
                                    ",", "\r\n", True, "utf-8"),
    "semicolons, Windows-1252": (ROUND_2.replace(",", ";").encode("cp1252"), ";", "\n", False,
                                 "utf-8"),
    "tabs": (ROUND_2.replace(",", "\t").encode(), "\t", "\n", False, "utf-8"),
    "spaces in the header": (ROUND_2.replace(",", ", ", 7).encode(), ",", "\n", False,
                             "utf-8"),
    "no end on the last line": (ROUND_2.rstrip("\n").encode(), ",", "\n", False, "utf-8"),
}


@pytest.mark.parametrize("name", list(SPREADSHEET_FORMS))
def test_a_row_is_replaced_in_the_files_own_form(name: str,
                                                 tree: Callable[..., Path]) -> None:
    data, delimiter, newline, bom, encoding = SPREADSHEET_FORMS[name]
    root = tree({"ev/round-2.csv": data})
    path = root / "ev" / "round-2.csv"
    current = read(path)
    assert current.form == Form(delimiter, newline, bom, encoding)
    assert current.header[:4] == ("table", "player_1", "player_2", "result")
    row = current.row(1)
    assert row is not None and row.cells["player_2"] == "c"
    change = replace_row(path, STEAMROLLER, 1, {"result": "1-0", "cp_1": "3"}, row.tag)
    assert change.changed and change.new["result"] == "1-0" and change.old["result"] == ""
    after = path.read_bytes()
    before_lines = data.split(b"\n")
    after_lines = after.split(b"\n")
    assert len(after_lines) == len(before_lines)
    assert after_lines[0] == before_lines[0] and after_lines[2:] == before_lines[2:]
    d = delimiter.encode()
    assert after_lines[1] == d.join([b"1", b"a", b"c", b"1-0", b"3", b"", b"", b""]) + (
        b"\r" if newline == "\r\n" else b"")
    assert after.startswith(b"\xef\xbb\xbf") == bom
    assert valid(root)
    again = read(path).row(1)
    assert again is not None and again.cells["result"] == "1-0"


def test_a_cp1252_file_is_written_back_as_such_or_refused(tree: Callable[..., Path]) -> None:
    """Excel's plain "CSV" (Windows-1252): the en dash 0x96 of '1–0' reads as a dash."""
    cp = ROUND_2.encode().replace(b"1,a,c,,", b"1,a,c,1\x960,")
    root = tree({"ev/round-2.csv": cp})
    path = root / "ev" / "round-2.csv"
    current = read(path)
    assert current.form.encoding == "cp1252"
    row = current.row(2)
    assert row is not None
    replace_row(path, STEAMROLLER, 2, {"result": "½-½"}, row.tag)
    assert path.read_bytes() == cp.replace(b"2,b,d,,", b"2,b,d,\xbd-\xbd,")
    assert valid(root)
    row = read(path).row(2)
    assert row is not None
    with pytest.raises(RoundFileRefused) as refused:
        replace_row(path, STEAMROLLER, 2, {"cp_1": "\u22123"}, row.tag)  # a minus sign
    assert refused.value.reason == "form"
    assert "is saved as Windows-1252, which cannot hold" in str(refused.value)
    assert "save it as CSV UTF-8" in str(refused.value)
    assert path.read_bytes() == cp.replace(b"2,b,d,,", b"2,b,d,\xbd-\xbd,")


def test_a_stale_row_or_file_is_refused_not_overwritten(tree: Callable[..., Path]) -> None:
    root = tree({"ev/round-2.csv": ROUND_2})
    path = root / "ev" / "round-2.csv"
    current = read(path)
    row = current.row(1)
    assert row is not None
    replace_row(path, STEAMROLLER, 1, {"result": "0-1"}, row.tag)
    with pytest.raises(RoundFileRefused) as refused:
        replace_row(path, STEAMROLLER, 1, {"result": "1-0"}, row.tag)
    assert refused.value.reason == "changed"
    assert "round-2.csv:2: table 1 changed since it was read" in str(refused.value)
    with pytest.raises(RoundFileRefused) as refused:
        other = current.row(2)
        assert other is not None
        replace_row(path, STEAMROLLER, 2, {"result": "1-0"}, other.tag, current.tag)
    assert refused.value.reason == "changed"
    assert "1,a,c,0-1" in path.read_text() and "2,b,d,," in path.read_text()
    with pytest.raises(RoundFileRefused) as refused:
        replace_row(path, STEAMROLLER, 9, {"result": "1-0"}, None)
    assert refused.value.reason == "missing" and "no table 9" in str(refused.value)


def test_nothing_changed_is_not_a_write(tree: Callable[..., Path]) -> None:
    root = tree({"ev/round-2.csv": ROUND_2})
    path = root / "ev" / "round-2.csv"
    row = read(path).row(1)
    assert row is not None
    stamp = path.stat().st_mtime_ns, path.stat().st_ino
    assert not replace_row(path, STEAMROLLER, 1, {"result": ""}, row.tag).changed
    assert (path.stat().st_mtime_ns, path.stat().st_ino) == stamp


@pytest.mark.parametrize("lock", [".~lock.round-2.csv#", ".round-2.csv.swp", "~$round-2.csv",
                                  ".#round-2.csv"])
def test_an_editors_lock_file_stops_writes(lock: str, tree: Callable[..., Path]) -> None:
    root = tree({"ev/round-2.csv": ROUND_2})
    path = root / "ev" / "round-2.csv"
    (path.parent / lock).write_text("sam,host,123;\n")
    assert editor_lock(path) == path.parent / lock
    row = read(path).row(1)
    assert row is not None
    with pytest.raises(RoundFileRefused) as refused:
        replace_row(path, STEAMROLLER, 1, {"result": "1-0"}, row.tag)
    assert refused.value.reason == "locked" and "is open in an editor" in str(refused.value)
    assert path.read_text() == ROUND_2
    (path.parent / lock).unlink()
    replace_row(path, STEAMROLLER, 1, {"result": "1-0"}, row.tag)
    assert "1,a,c,1-0" in path.read_text()


def test_remove_row_keeps_every_other_line(tree: Callable[..., Path]) -> None:
    data = ROUND_2.replace("\n", "\r\n").replace(",", ";")
    root = tree({"ev/round-2.csv": data.encode()})
    path = root / "ev" / "round-2.csv"
    row = read(path).row(1)
    assert row is not None
    change = remove_row(path, STEAMROLLER, 1, row.tag)
    assert change.old["player_1"] == "a" and change.changed
    assert path.read_bytes() == (data.split("\r\n")[0] + "\r\n2;b;d;;;;;\r\n").encode()


def test_concurrent_row_edits_from_threads_lose_nothing(tree: Callable[..., Path]) -> None:
    rows = "".join(f"{t},p{2 * t},p{2 * t + 1},,,,,\n" for t in range(1, 21))
    players = "id,name,faction\n" + "".join(f"p{i},P {i},Cygnar\n" for i in range(2, 42))
    root = tree({"ev/players.csv": players, "ev/round-1.csv": ROUND_HEADER + rows})
    path = root / "ev" / "round-1.csv"

    def enter(table: int) -> None:
        for _ in range(50):
            row = read(path).row(table)
            assert row is not None
            try:
                replace_row(path, STEAMROLLER, table, {"result": "1-0"}, row.tag)
                return
            except RoundFileRefused as exc:
                assert exc.reason == "changed"

    threads = [threading.Thread(target=enter, args=(t,)) for t in range(1, 21)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    current = read(path)
    assert [r.cells["result"] for r in current.rows] == ["1-0"] * 20


def test_has_result_is_the_loaders_answer() -> None:
    problems: list[Problem] = []
    old_world = FORMATS["old-world"]
    events = Path(__file__).resolve().parent.parent / "events" / "2026" / "old-world-open"
    config = load_event_config(events / "event.toml", ("old-world-open",), problems)
    assert config is not None
    vp_only = {"table": "1", "player_1": "a", "player_2": "b", "result": "", "vp_1": "2100",
               "vp_2": "900"}
    assert has_result(vp_only, old_world, config)
    assert not has_result({**vp_only, "vp_2": ""}, old_world, config)
    assert has_result({**vp_only, "vp_1": "", "result": "draw"}, old_world, config)
    assert not has_result({"result": "", "cp_1": "3"}, STEAMROLLER, config)
    assert has_result({"result": "", "player_2": "BYE"}, STEAMROLLER, config)


def test_round_csv_is_what_pair_wrote_before() -> None:
    from standgen.model import Game, GameKind, Outcome, Round, Seat

    game = Game(1, 1, (Seat("a", Outcome.WIN, {"cp": 3.0}), Seat("b, c", Outcome.LOSS, {})),
                GameKind.PLAYED)
    rnd = Round(1, (game,))
    assert round_csv(STEAMROLLER, rnd) == (ROUND_HEADER + '1,a,"b, c",1-0,3,,,\n')
