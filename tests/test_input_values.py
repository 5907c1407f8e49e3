"""Bad values in event.toml, season.toml and site.toml are problems, never crashes (issue #15).

Items 5, 7 and 11: every number is finite and in its range (standgen/load/values.py), no
TOML string holds a control character, an overlong ``site_url`` is refused and a QR code
that cannot hold its address is left out, and CSV downloads neutralise every cell a
spreadsheet could run as a formula. Each case runs the real CLI: ``check`` and ``build``
exit 2 with the same one-line ``path:line: message``.
"""

from __future__ import annotations

import re
import time
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from standgen.cli import main
from standgen.load.config import key_line
from standgen.load.values import number_problem
from standgen.site.downloads import csv_bytes, neutralise
from standgen.site.numbers import json_number
from standgen.site.qr import qr_svg
from tests.test_bad_inputs import DIP_TOML, GO_TOML, OW_TOML, write

SEASON = 'name = "Club"\n[points]\n'
INF = "write a finite number (inf and nan are refused)"
CONTROL = "remove it (control characters are refused, typed or written as \\u escapes)"
LONG_URL = "https://club.example/" + "a" * 3000

CASES: list[tuple[str, dict[str, str], list[str]]] = [
    ("season-placings-inf", {"season.toml": SEASON + "placings = [inf]\n"},
     [f"season.toml:3: 'points.placings' is inf; {INF}"]),
    ("season-placings-huge", {"season.toml": SEASON + "placings = [1e308, 1e308]\n"},
     ["season.toml:3: 'placings' must be a list of points for 1st, 2nd, 3rd ... (at most "
      "1,000 places, each 0 to 1,000,000 points), e.g. placings = [25, 18, 15, 12, 10]"]),
    ("season-participation-inf", {"season.toml": SEASON + "participation = inf\n"},
     [f"season.toml:3: 'points.participation' is inf; {INF}"]),
    ("season-participation-huge", {"season.toml": SEASON + "participation = 1e9\n"},
     ["season.toml:3: 'participation' must be a number of points every ranked player gets "
      "per event, from 0 to 1,000,000"]),
    ("season-best-zero", {"season.toml": SEASON + "best = 0\n"},
     ["season.toml:3: 'best' must be a whole number of events (1 to 10,000) that count; "
      "leave it out to count every event"]),
    ("diplomacy-pot-inf", {"dip/event.toml": DIP_TOML + "[options]\npot = inf\n"},
     [f"dip/event.toml:6: 'options.pot' is inf; {INF}"]),
    ("diplomacy-pot-nan", {"dip/event.toml": DIP_TOML + "[options]\npot = nan\n"},
     [f"dip/event.toml:6: 'options.pot' is nan; {INF}"]),
    ("diplomacy-pot-huge", {"dip/event.toml": DIP_TOML + "[options]\npot = 1e308\n"},
     ["dip/event.toml:6: option 'pot' must be a number from 1 to 1,000,000"]),
    ("diplomacy-pot-zero", {"dip/event.toml": DIP_TOML + "[options]\npot = 0\n"},
     ["dip/event.toml:6: option 'pot' must be a number from 1 to 1,000,000"]),
    ("diplomacy-sitout-score-nan",
     {"dip/event.toml": DIP_TOML + '[options]\nscoring = "c-diplo"\nsitout_score = nan\n'},
     [f"dip/event.toml:7: 'options.sitout_score' is nan; {INF}"]),
    ("diplomacy-final-round-negative",
     {"dip/event.toml": DIP_TOML + "[options]\nfinal_round = -1\n"},
     ["dip/event.toml:6: option 'final_round' must be a whole number from 0 to 99"]),
    ("diplomacy-sit-out-nested-list",
     {"dip/event.toml": DIP_TOML + '[options]\nsit_out = { 2 = [["x"]] }\n'},
     ['dip/event.toml:1: [options.sit_out] maps a round number (1 to 99) to a list of player '
      'ids in quotes, e.g. sit_out = { 2 = ["ann"] }']),
    ("diplomacy-sit-out-superscript-round",
     {"dip/event.toml": DIP_TOML + '[options]\nsit_out = { "²" = ["p1"] }\n'},
     ['dip/event.toml:1: [options.sit_out] maps a round number (1 to 99) to a list of player '
      'ids in quotes, e.g. sit_out = { 2 = ["ann"] }']),
    ("mcmahon-komi-nan", {"go/event.toml": GO_TOML + "[options]\nkomi = nan\n"},
     [f"go/event.toml:5: 'options.komi' is nan; {INF}"]),
    ("mcmahon-komi-huge", {"go/event.toml": GO_TOML + "[options]\nhandicap_komi = 1e6\n"},
     ["go/event.toml:5: option 'handicap_komi' must be a number from -100 to 100"]),
    ("mcmahon-time-negative", {"go/event.toml": GO_TOML + "[options]\ntime_minutes = -5\n"},
     ["go/event.toml:5: option 'time_minutes' must be a whole number from 0 to 1,440"]),
    ("mcmahon-handicap-ceiling", {"go/event.toml": GO_TOML + "[options]\nhandicap_ceiling = 10\n"},
     ["go/event.toml:5: option 'handicap_ceiling' must be a whole number from 0 to 9"]),
    ("old-world-game-size-huge",
     {"ow/event.toml": OW_TOML + "[options]\ngame_size = 9223372036854775807\n"},
     ["ow/event.toml:5: option 'game_size' must be a whole number from 1 to 100,000"]),
    ("old-world-band-tp-huge",
     {"ow/event.toml": OW_TOML + '[options]\nbands = [{ from = 0, band = "Draw", '
      "winner = 1e300, loser = 1e300 }]\n"},
     ["ow/event.toml:5: option 'bands': band 1: 'winner' and 'loser' must be the TP each "
      "side scores, numbers from -1,000 to 1,000"]),
    ("old-world-51-bands",
     {"ow/event.toml": OW_TOML + "[options]\nbands = [" + ", ".join(
         f'{{ from = {k}, band = "B{k}", winner = 3, loser = 3 }}' for k in range(51))
      + "]\n"},
     ["ow/event.toml:5: option 'bands': 'bands' has 51 bands; a table has at most 50"]),
    ("old-world-top-tables-nan",
     {"ow/event.toml": OW_TOML + "[options]\ntop_tables_percent = nan\n"},
     [f"ow/event.toml:5: 'options.top_tables_percent' is nan; {INF}"]),
    ("site-url-3000-characters", {"site.toml": f'site_url = "{LONG_URL}"\n'},
     [f"site.toml:1: 'site_url' is {len(LONG_URL):,} characters long, over the limit of "
      "200; give the site's address, e.g. site_url = \"https://club.example/\""]),
    ("toml-escape-escape-character-in-name",
     {"ev/event.toml": 'name = "Spring\\u001bOpen"\ndate = 2026-03-14\nformat = "steamroller"\n'},
     [f"ev/event.toml:1: 'name' holds the control character U+001B; {CONTROL}"]),
    ("toml-newline-in-name",
     {"ev/event.toml": 'name = "Spring\\nOpen"\ndate = 2026-03-14\nformat = "steamroller"\n'},
     [f"ev/event.toml:1: 'name' holds the control character U+000A; {CONTROL}"]),
    ("toml-nul-in-nested-option",
     {"ow/event.toml": OW_TOML + '[options]\nbands = [{ from = 0, band = "Dr\\u0000aw", '
      "winner = 3, loser = 3 }]\n"},
     [f"ow/event.toml:5: 'options.bands.band' holds the control character U+0000; {CONTROL}"]),
    ("toml-noncharacter-in-location",
     {"ev/event.toml": 'name = "S"\ndate = 2026-03-14\nformat = "steamroller"\n'
      'location = "Hall\\uFFFE"\n'},
     [f"ev/event.toml:4: 'location' holds the control character U+FFFE; {CONTROL}"]),
    ("toml-control-in-key",
     {"ev/event.toml": 'name = "S"\ndate = 2026-03-14\nformat = "steamroller"\n'
      '"a\\u0007" = 1\n'},
     ["ev/event.toml:1: a key holds a control character; remove it"]),
    ("toml-control-in-season-description",
     {"season.toml": 'name = "Club"\ndescription = """\nOne\n\nTwo\\u001b"""\n'},
     [f"season.toml:2: 'description' holds the control character U+001B; {CONTROL}"]),
    ("toml-control-in-site-title", {"site.toml": 'title = "Club\\u0085\\u0008"\n'},
     [f"site.toml:1: 'title' holds the control character U+0008; {CONTROL}"]),
    ("toml-array-nested-30-deep",
     {"ev/event.toml": 'name = "S"\ndate = 2026-03-14\nformat = "steamroller"\n'
      "scenarios = " + "[" * 30 + "]" * 30 + "\n"},
     ["ev/event.toml:4: 'scenarios' holds lists or tables nested more than 20 levels deep; "
      "no key needs that"]),
    ("toml-tables-nested-5000-deep",
     {"season.toml": "x = " + "{a=" * 5000 + "1" + "}" * 5000 + "\n"},
     ["season.toml:1: holds lists or tables nested too deeply to read; no key needs more "
      "than 20 levels"]),
    ("toml-array-nested-5000-deep",
     {"site.toml": "title = " + "[" * 5000 + "]" * 5000 + "\n"},
     ["site.toml:1: holds lists or tables nested too deeply to read; no key needs more "
      "than 20 levels"]),
]


@pytest.mark.parametrize(("name", "files", "expected"), CASES, ids=[c[0] for c in CASES])
def test_bad_value_is_a_problem_in_check_and_build(
    tmp_path: Path, name: str, files: dict[str, str], expected: list[str]
) -> None:
    root = tmp_path / "events"
    write(root, tmp_path / "outside", files)
    for command in (["check", str(root)], ["build", str(root), "-o", str(tmp_path / "out")]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 2, result.output
        assert isinstance(result.exception, SystemExit)
        *lines, _summary = result.stderr.splitlines()
        assert [line.replace(root.as_posix() + "/", "") for line in lines] == expected


def test_season_description_keeps_its_line_breaks_and_feed_is_xml(tmp_path: Path) -> None:
    root = tmp_path / "events"
    write(root, tmp_path / "outside", {
        "season.toml": 'name = "Club"\ndescription = """\nOne\r\n\n\tTwo"""\n',
        "site.toml": 'site_url = "https://club.example/"\n',
    })
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(root), "-o", str(out)])
    assert result.exit_code == 0, result.output
    for feed in out.rglob("*.xml"):
        ET.parse(feed)  # well-formed


@pytest.mark.parametrize(
    ("value", "low", "high", "integer", "ok"),
    [(1, 1, 99, True, True), (99, 1, 99, True, True), (0, 1, 99, True, False),
     (1.5, 0, 9, True, False), (True, 0, 9, False, False), ("3", 0, 9, False, False),
     (float("inf"), 0, 1e308, False, False), (float("nan"), -1e9, 1e9, False, False),
     (-0.5, -1, 0, False, True), (2**63, 0, 100, True, False)],
)
def test_number_problem_table(
    value: object, low: float, high: float, integer: bool, ok: bool
) -> None:
    assert (number_problem(value, low, high, integer) is None) == ok


def test_qr_code_too_long_for_any_version_is_left_out() -> None:
    assert qr_svg("https://club.example/" + "a" * 3000, "x") == ""
    assert qr_svg("https://club.example/", "x").startswith("<svg")


def test_site_url_at_the_limit_builds_its_printed_pairings(tmp_path: Path) -> None:
    url = "https://club.example/" + "a" * (200 - len("https://club.example/") - 1) + "/"
    root = tmp_path / "events"
    write(root, tmp_path / "outside", {"site.toml": f'site_url = "{url}"\n'})
    result = CliRunner().invoke(main, ["build", str(root), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output


# --- CSV downloads: OWASP "CSV Injection" -------------------------------------------------

NEUTRALISED = ["=1+1", "+1+1", "-1+2", "@SUM(1)", "\tx", "\rx", "-Infinity", "+infinity",
               "-inf", "-nan", "-1_0", "+3x", "- 3", "-3 ", "-0x10", "-1e", "-٣",
               "＝1+1", "＋1", "－1", "＠SUM(1)", "﹦1", "﹢1", "﹣1", "﹫x"]
KEPT = ["-3", "-0.5", "+3.5", "3", "0", "-1e-05", "-12.25", "+-", "-+", "--", "", "Ann", "1-0",
        "draw", "x=1", "'=1"]


@pytest.mark.parametrize("cell", NEUTRALISED)
def test_formula_cell_is_prefixed(cell: str) -> None:
    assert neutralise(cell) == "'" + cell


@pytest.mark.parametrize("cell", KEPT)
def test_plain_number_or_text_is_kept(cell: str) -> None:
    assert neutralise(cell) == cell


@given(st.text(max_size=12))
def test_no_neutralised_cell_starts_a_formula(cell: str) -> None:
    out = neutralise(cell)
    first = unicodedata.normalize("NFKC", out[:1])[:1]
    if first in ("=", "+", "-", "@", "\t", "\r"):
        # only plain numbers and the forfeit results may start with a sign
        assert out in ("+-", "-+", "--") or re.fullmatch(
            r"[-+][0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?", out), out


@given(st.floats(allow_nan=False, allow_infinity=False) | st.integers(-10**9, 10**9))
def test_numbers_stay_numbers_in_csv(number: float) -> None:
    cell = csv_bytes(["n"], [[number]]).decode().splitlines()[1]
    assert not cell.startswith("'")
    assert float(cell) == json_number(float(number))  # the number written, 4 decimals


def test_key_line_after_a_million_blank_lines_is_fast_and_exact() -> None:
    text = "\n" * 1_000_000 + "name = 1\n"
    start = time.process_time()
    assert key_line(text, "name") == 1_000_001
    assert key_line(text, "missing") == 1
    assert time.process_time() - start < 1.0
    assert key_line("a = 1\n\nname = 2\n", "name") == 3  # not the blank line before it
