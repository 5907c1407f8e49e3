"""TRF-2026 team records read by ``standgen import-trf`` (issue #34): ``240`` (the byes
teams asked for), ``330 --`` (double forfeits), and a team file's records standgen does
not carry (``260`` between teams, ``250``, ``299``), each named in a warning."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from tests.team_sample import HERE, REQUESTED
from tests.test_teams import cli


def sample_with(tmp_path: Path, *extra: str) -> Path:
    """Return a copy of the generated team sample's ``.trf`` with ``extra`` lines."""
    text = (HERE / "team-sample.trf").read_text(encoding="utf-8")
    path = tmp_path / "sample.trf"
    path.write_text(text + "".join(f"{line}\r\n" for line in extra), encoding="utf-8")
    return path


def test_the_byes_teams_asked_for_become_bye_rows_with_their_result(tmp_path: Path) -> None:
    folder = tmp_path / "events" / "2026" / "cup"
    code, out = cli("import-trf", str(HERE / "team-sample.trf"), str(folder))
    assert code == 0, out
    for number, byes in REQUESTED.items():
        rows = list(csv.DictReader(io.StringIO((folder / f"teams-round-{number}.csv")
                                               .read_text(encoding="utf-8"))))
        got = {(r["team_1"], r["result"]) for r in rows if not r["team_2"] and r["result"]}
        assert got == {(f"team-{k:02d}", result) for k, result in byes}
    doubles = [r for n in range(1, 15) for r in csv.DictReader(io.StringIO(
        (folder / f"teams-round-{n}.csv").read_text(encoding="utf-8"))) if r.get("result") == "--"]
    assert len(doubles) == 1 and doubles[0]["team_2"]


def test_a_bad_240_record_is_named(tmp_path: Path) -> None:
    code, out = cli("import-trf", str(sample_with(tmp_path, "240 X   3    4")),
                    str(tmp_path / "events" / "2026" / "cup"))
    assert code == 2
    assert "240 'X   3    4' must be a bye (F, H or Z), a round and team numbers" in out


def test_records_a_team_file_does_not_carry_are_named(tmp_path: Path) -> None:
    """A team file's 260 names teams, not players: not read as players' forbidden pairs
    but named, as 250 and 299 are."""
    path = sample_with(tmp_path, "260   1  14    1   11   16",
                       "250  2.0        1   1    1    2", "299 -  0.0  1.5")
    folder = tmp_path / "events" / "2026" / "cup"
    code, out = cli("import-trf", str(path), str(folder))
    assert code == 0, out
    assert "record 260 of a team file (teams not to be paired with each other)" in out
    assert "record 250 (accelerated rounds) is not carried" in out
    assert "record 299 (abnormal points assignments) is not carried" in out
    assert "forbidden" not in (folder / "event.toml").read_text(encoding="utf-8")
