"""Issue #19 item 1: files as Excel, LibreOffice and Google Sheets save them load with
the same standings as the clean file, each tolerance reported as a warning; what is
still ambiguous is refused with a message."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from standgen import build as lib
from standgen.errors import InputError
from standgen.load import load_tree
from standgen.results import normalise_result

PROJECT = Path(__file__).resolve().parent.parent
SWISS = Path("2026", "club-swiss")
STEAMROLLER = Path("2026", "spring-steamroller")


def standings_of(root: Path, event: Path) -> bytes:
    site = lib.render(load_tree(root))
    return site[f"{event.as_posix()}/standings.json"]


def warnings_of(root: Path) -> list[str]:
    return [str(w) for w in load_tree(root).warnings]


@pytest.fixture
def events(tmp_path: Path) -> Path:
    return Path(shutil.copytree(PROJECT / "events", tmp_path / "events"))


def resave(path: Path, change: Callable[[str], bytes]) -> None:
    path.write_bytes(change(path.read_text(encoding="utf-8")))


EXCEL_WAYS: dict[str, Callable[[str], bytes]] = {
    # Excel "CSV UTF-8 (Comma delimited)": a byte-order mark and CRLF line ends
    "excel-csv-utf8": lambda t: b"\xef\xbb\xbf" + t.replace("\n", "\r\n").encode(),
    # Excel "CSV (Comma delimited)" on Windows: Windows-1252 and CRLF
    "excel-csv-windows": lambda t: t.replace("\n", "\r\n").encode("cp1252"),
    # Excel in most of Europe (decimal comma): semicolons
    "excel-semicolon": lambda t: t.replace(",", ";").encode(),
    # LibreOffice "Text CSV" with tab as field delimiter
    "libreoffice-tab": lambda t: t.replace(",", "\t").encode(),
    # Google Sheets "Download as CSV": UTF-8, CRLF, no BOM
    "google-sheets": lambda t: t.replace("\n", "\r\n").encode(),
}


@pytest.mark.parametrize("way", sorted(EXCEL_WAYS))
def test_spreadsheet_saved_files_give_the_same_standings(events: Path, way: str) -> None:
    clean = {e: standings_of(events, e) for e in (SWISS, STEAMROLLER)}
    for event in (SWISS, STEAMROLLER):
        for path in sorted((events / event).glob("*.csv")):
            resave(path, EXCEL_WAYS[way])
    for event in (SWISS, STEAMROLLER):
        assert standings_of(events, event) == clean[event]
    if way not in ("google-sheets", "excel-csv-windows"):  # ASCII and CRLF need no note
        found = warnings_of(events)
        assert any(f"{SWISS.as_posix()}/players.csv:1: warning:" in w for w in found), found


def test_windows_1252_names_are_read_with_a_warning_naming_the_encoding(events: Path) -> None:
    path = events / SWISS / "players.csv"
    text = path.read_text(encoding="utf-8").replace("Helen Whitaker", "Hélène Whitaker – Jr")
    path.write_bytes(text.encode("cp1252"))
    found = warnings_of(events)
    assert any("players.csv:2: warning: is not UTF-8: read as Windows-1252" in w for w in found)
    site = lib.render(load_tree(events))
    assert "Hélène Whitaker – Jr".encode() in site[f"{SWISS.as_posix()}/index.html"]


SPELLINGS = {
    "1-0": ["1:0", "1 - 0", "1–0", "1—0", "1−0", "1－0", "1-0 "],
    "0-1": ["0:1", "0 – 1", " 0-1"],
    "draw": ["1/2-1/2", "½-½", "½:½", "0.5-0.5", "0,5-0,5", "Draw", "DRAW", "1/2 - 1/2"],
    "+-": ["+–", "+ -"],
    "--": ["– –", "—-"],
}


@pytest.mark.parametrize(("canonical", "typed"),
                         [(c, t) for c, ts in SPELLINGS.items() for t in ts])
def test_result_spellings_read_as_the_canonical_result(canonical: str, typed: str) -> None:
    assert normalise_result(typed.strip()) in (canonical, "0.5-0.5" if canonical == "draw"
                                               else canonical)


def test_every_result_spelling_builds_the_same_standings(events: Path) -> None:
    path = events / SWISS / "round-1.csv"
    clean = standings_of(events, SWISS)
    text = path.read_text(encoding="utf-8")
    respelt = (text.replace(",1-0\n", ",1:0\n").replace(",0-1\n", ",0 – 1\n")
               .replace(",draw\n", ",½-½\n"))
    assert respelt != text
    path.write_text(respelt, encoding="utf-8")
    assert standings_of(events, SWISS) == clean
    found = warnings_of(events)
    assert any("round-1.csv:2: warning: result '0 – 1' read as '0-1' and" in w for w in found)


@pytest.mark.parametrize("typed", ["1-1", "2-0", "1:0:0", "won", "1/2", "0.5"])
def test_results_that_stay_ambiguous_are_refused(events: Path, typed: str) -> None:
    path = events / SWISS / "round-1.csv"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(",0-1\n", f",{typed}\n", 1), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_tree(events)
    assert any(f"result '{typed}' is not one of" in p.message for p in caught.value.problems)


def test_utf16_is_still_refused(events: Path) -> None:
    path = events / SWISS / "players.csv"
    path.write_bytes(path.read_text(encoding="utf-8").encode("utf-16"))
    with pytest.raises(InputError, match="UTF-16"):
        load_tree(events)
