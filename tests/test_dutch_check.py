"""Issue #17 item 3: ``standgen check`` tells an arbiter whether each Swiss round file is
the Dutch system's pairing, and names the first difference (a warning, never a refusal)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from click.testing import CliRunner

from standgen.cli import main
from tests.test_dutch_corpus import CORPUS

FILES = ("clean-029-n11-r6.trf", "rtg-172-n17-r6.trf", "clean-016-n30-r7.trf")


def imported(tmp_path: Path, name: str) -> Path:
    trf = CORPUS / name
    if not trf.is_file():
        pytest.skip(f"the Dutch corpus is not beside the repository ({CORPUS})")
    root = tmp_path / "events"
    result = CliRunner().invoke(main, ["import-trf", str(trf), str(root / "open"),
                                       "--events", str(root)])
    assert result.exit_code == 0, result.output
    return root


@pytest.mark.parametrize("name", FILES)
def test_the_corpus_rounds_are_the_dutch_pairing(tmp_path: Path, name: str) -> None:
    root = imported(tmp_path, name)
    result = CliRunner().invoke(main, ["check", str(root)])
    assert result.exit_code == 0, result.output
    assert "is not the Dutch system's pairing" not in result.output


def test_a_pair_swapped_by_hand_is_named(tmp_path: Path) -> None:
    root = imported(tmp_path, FILES[0])
    path = root / "open" / "round-3.csv"
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    first, second = [r for r in rows if r["player_2"] not in ("BYE", "ABSENT")][:2]
    first["player_2"], second["player_2"] = second["player_2"], first["player_2"]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(root)])
    assert result.exit_code == 0, result.output  # a warning: the TO may still edit a round
    assert "round-3.csv:1: warning: round 3 is not the Dutch system's pairing: table 1: " \
           "the rules pair" in result.output
    assert "the file pairs" in result.output


def test_the_demo_swiss_event_is_the_dutch_pairing() -> None:
    events = Path(__file__).resolve().parent.parent / "events"
    result = CliRunner().invoke(main, ["check", str(events)])
    assert result.exit_code == 0 and "Dutch system" not in result.output
