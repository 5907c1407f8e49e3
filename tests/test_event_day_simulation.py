"""Issue #27 item 6: 200 seeded, randomised event days through the real CLI.

Each day (:mod:`tests.eventday_sim`) runs an event of a random format with realistic
names while a TO drops players, adds late entries, asks for byes, pairs again, corrects
results and re-saves files from spreadsheets, in random order at random moments. After
every action ``check`` passes; at the end the standings equal a recount from the files,
and one day in ten builds the site. A failure names its seed: run it alone with
``python -m tests.eventday_sim --first SEED --days 1``. The 5,000-day run is described in
docs/reliability.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.eventday_sim import FORMATS, Day, run_day

DAYS = 200


@pytest.mark.parametrize("seed", range(DAYS))
def test_an_event_day(seed: int, tmp_path: Path) -> None:
    run_day(seed, tmp_path)


def test_the_days_cover_every_format(tmp_path: Path) -> None:
    """The 200 days are not all one format."""
    formats = {Day(seed, tmp_path).fmt for seed in range(DAYS)}
    assert formats == set(FORMATS)
