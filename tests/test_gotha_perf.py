"""Issue #22: a 600-player McMahon round, OpenGotha's largest single matching
(``Pairing.PAIRING_GROUP_MAX_SIZE``: every pair's cost, 179,700 pairs, and one
maximum-weight matching), paired by ``python -m standgen pair`` with everyone seated once.
Its time budget (5 s, whole process) lives in ``benchmarks/`` ("pair mcmahon, whole
process"), not here: a timed unit test fails on a busy machine."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from benchmarks.synth import make_event, write_event


def test_a_600_player_round_seats_everyone_once(tmp_path: Path) -> None:
    event = make_event(600, 5, "mcmahon", pairing="fast", played=3)
    write_event(event, tmp_path / "go")
    run = subprocess.run([sys.executable, "-m", "standgen", "pair", str(tmp_path / "go"),
                          "--events", str(tmp_path)], capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0, run.stderr
    rows = (tmp_path / "go" / "round-4.csv").read_text().splitlines()[1:]
    seated = [cell for row in rows for cell in row.split(",")[1:3] if cell not in ("", "BYE")]
    assert len(seated) == len(set(seated)) == sum(
        1 for p in event.players if p.active_in(4))
