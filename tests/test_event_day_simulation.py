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


def test_a_correction_that_ends_the_event_is_advised_as_such(tmp_path: Path) -> None:
    """Seed 3386 of the long run (Steamroller): a corrected round-2 result made a clear
    winner while round 3 was paired. ``check`` used to advise ``pair --redo 3``, which then
    refused (the event is over); now it says the event is over and how to play on."""
    day = run_day(3386, tmp_path)
    said = "\n".join(day.log)
    assert "is paired, but with the results as they are now the event is over" in said
    assert "set clear_winner = false" in said


@pytest.mark.parametrize(("seed", "action"), [(2107, "drop"), (2671, "bye")])
def test_a_drop_or_bye_after_the_event_ended_names_both_ways_on(
        seed: int, action: str, tmp_path: Path) -> None:
    """Seeds 2107 and 2671 of the long run (Steamroller): a correction made a clear winner
    while the next round was paired, and then a player dropped (2107) or asked for a bye
    (2671). ``drop`` and ``bye`` advised ``pair --redo N`` alone, which refuses while the
    event is over, and the TO typed results into a round the event no longer needed. Now
    they say the event is over, with both ways on (delete the round, or set
    clear_winner = false and pair it again), and each way, followed, works (the day
    passes)."""
    day = run_day(seed, tmp_path)
    said = [entry for entry in day.log if entry.startswith(f"$ standgen {action} ")]
    told = [entry for entry in said if "the event is over" in entry]
    assert told, said
    for entry in told:
        assert "delete round-" in entry and "set clear_winner = false" in entry
        assert "to pair it again without them" not in entry
