"""Issue #22 benchmark: a 600-player McMahon round paired in at most 5 s, whole process.

600 players is OpenGotha's largest single matching (``Pairing.PAIRING_GROUP_MAX_SIZE``):
every pair's cost (179,700 pairs) and one maximum-weight matching. The event (3 rounds
played) is written as an events folder and ``python -m standgen pair`` is timed from
start to exit, loading and writing included.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from benchmarks.synth import make_event, write_event

BUDGET = 5.0  # seconds, whole process


def test_600_players_round_in_5_seconds(tmp_path: Path) -> None:
    event = make_event(600, 5, "mcmahon", pairing="fast", played=3)
    write_event(event, tmp_path / "go")
    start = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "standgen", "pair", str(tmp_path / "go"),
                          "--events", str(tmp_path)], capture_output=True, text=True,
                         check=False)
    elapsed = time.perf_counter() - start
    assert run.returncode == 0, run.stderr
    rows = (tmp_path / "go" / "round-4.csv").read_text().splitlines()[1:]
    seated = [cell for row in rows for cell in row.split(",")[1:3] if cell not in ("", "BYE")]
    assert len(seated) == len(set(seated)) == sum(
        1 for p in event.players if p.active_in(4))
    assert elapsed <= BUDGET, f"{elapsed:.2f} s for a 600-player round"
