"""The whole-field (numpy) tiebreak values equal the per-player functions' exactly.

:mod:`standgen.tiebreaks.columns` computes ranking values for large events; here its
size threshold is lowered so it runs on small random events of every format, and every
value (its type too: ``sum([])`` is the integer 0), rank, note and breakdown is compared
with the straightforward per-player code (``perf.straightforward()``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.synth import make_event
from standgen import perf, records
from standgen.model import Event
from standgen.standings import Standings, compute_standings, pairing_input
from standgen.tiebreaks import columns

EVERY = (
    "sos-cut1", "sos", "sos-cut2", "sos-median", "sos-large", "sosos", "sodos", "sb",
    "sb-cut1", "cumulative", "cumulative-sos", "direct", "aro", "tpr", "koya", "wins", "won",
)


@pytest.fixture(autouse=True)
def small_events_use_columns(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(columns, "MIN_ENTRIES", 0)
    records._RECENT.clear()
    yield
    records._RECENT.clear()


def shown(standings: Standings) -> list[object]:
    """Return every rank, value (with its type), note and breakdown of the standings."""
    return [
        (row.rank, row.player.id, repr(row.score),
         [(tb, repr(v.value), v.note, v.parts) for tb, v in row.values.items()])
        for row in standings.rows
    ]


def both_ways(event: Event) -> tuple[Standings, list[object], list[object]]:
    fast = compute_standings(event)
    with perf.straightforward():
        slow = compute_standings(event)
    return fast, shown(fast), shown(slow)


def with_options(event: Event, tiebreaks: tuple[str, ...], **options: object) -> Event:
    config = replace(event.config, tiebreaks=tiebreaks,
                     options={**event.config.options, **options})
    return replace(event, config=config)


@settings(deadline=None, max_examples=25)
@given(
    fmt=st.sampled_from(("steamroller", "swiss", "old-world")),
    n=st.integers(min_value=5, max_value=36),
    played=st.integers(min_value=1, max_value=6),
    seed=st.integers(min_value=0, max_value=10_000),
    edition=st.sampled_from(("2023", "2026")),
)
def test_columns_equal_the_per_player_values(
    fmt: str, n: int, played: int, seed: int, edition: str
) -> None:
    event = with_options(make_event(n, played + 1, fmt, seed=seed, played=played), EVERY,
                         **({"fide_edition": edition} if fmt == "swiss" else {}))
    fast, got, expected = both_ways(event)
    assert columns._grid(fast.context) is not None  # the columns did compute the values
    assert got == expected


@settings(deadline=None, max_examples=8)
@given(n=st.integers(min_value=3, max_value=9), seed=st.integers(min_value=0, max_value=999))
def test_columns_in_round_robins(n: int, seed: int) -> None:
    """FIDE C.07 art. 15.2's policy (forfeits are games) under the columns too."""
    base = make_event(n, n - 1 if n % 2 == 0 else n, "swiss", seed=seed, played=0)
    event = with_options(base, EVERY, pairing="round-robin")
    from benchmarks.synth import play
    from standgen.standings import format_of

    for number in range(1, min(4, event.config.rounds or 1) + 1):
        paired = format_of(event).pair(event, pairing_input(compute_standings(event)), number).round
        event = replace(event, rounds=(*event.rounds, play(paired, _rng(seed), "swiss", event)))
    fast, got, expected = both_ways(event)
    assert columns._grid(fast.context) is not None
    assert got == expected


def _rng(seed: int) -> object:
    import random

    return random.Random(seed)


@pytest.mark.parametrize("fmt", ["mcmahon", "diplomacy"])
def test_events_outside_the_grid_fall_back_to_the_per_player_functions(fmt: str) -> None:
    """A handicap correction (McMahon) or a seven-seat board (Diplomacy) is not modelled:
    the per-player functions give the values, and they are the same as before."""
    event = make_event(14, 4, fmt, seed=3)
    fast, got, expected = both_ways(event)
    assert columns._grid(fast.context) is None
    assert got == expected


def test_small_events_do_not_import_numpy_for_the_columns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(columns, "MIN_ENTRIES", 4096)
    event = with_options(make_event(20, 4, "swiss", seed=1), EVERY)
    standings = compute_standings(event)
    assert columns._grid(standings.context) is None
    assert columns.values(standings.context, "sos") is None


def test_a_value_read_from_the_columns_builds_its_breakdown_when_read() -> None:
    event = with_options(make_event(24, 5, "swiss", seed=9), EVERY)
    standings = compute_standings(event)
    row = standings.rows[0]
    raw = row.values.raw()  # type: ignore[attr-defined]
    # what ranking needed (the players still tied) is kept as numbers, the rest not made
    assert raw and all(isinstance(v, float | int) for tb, v in raw.items() if tb != "direct")
    assert list(row.values) == [tb for tb in EVERY if tb != "direct"] + ["direct"]
    sos = row.values["sos"]
    assert sos is row.values["sos"]  # made once
    assert sum(p.value for p in sos.parts if p.counted) == sos.value
    assert len(sos.parts) == 5
