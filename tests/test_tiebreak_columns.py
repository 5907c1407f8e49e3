"""Every tiebreak's fast path equals the tiebreak's own rule, exactly.

Generated from the registry: each tiebreak of :data:`standgen.tiebreaks.TIEBREAKS` with
a fast path (``Tiebreak.fast``, the whole-field numpy columns of
:mod:`standgen.tiebreaks.columns`) is checked on seeded random events of every format:
where the fast path models the event, each player's value (its type too: ``sum([])``
is the integer 0) equals ``compute(...).value`` under the straightforward context; where
it does not (a game with more than two seats, a per-game adjustment), it returns None.
The grid's size threshold is lowered so it runs on small events. Nothing here lists
tiebreak ids by hand: a tiebreak registered with a fast path is checked by being
registered. The records' fast path (records shared between standings) is checked
against records built afresh the same way.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.synth import FORMATS, make_event, play
from standgen import records
from standgen.model import Event
from standgen.standings import Standings, compute_standings, format_of, pairing_input
from standgen.tiebreaks import TIEBREAKS, columns
from standgen.tiebreaks.base import Tiebreak

FAST = sorted(tb.id for tb in TIEBREAKS.values() if tb.fast is not None)
# every tiebreak with a fast path, and the group tiebreaks (direct encounter) among them
CHAIN = (*FAST, *sorted(tb.id for tb in TIEBREAKS.values() if tb.compute_group is not None))
# formats whose events the grid models (two seats a game, no per-game adjustment)
GRID_FORMATS = ("steamroller", "swiss", "old-world")


@pytest.fixture(autouse=True)
def small_events_use_columns(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(columns, "MIN_ENTRIES", 0)
    records._RECENT.clear()
    yield
    records._RECENT.clear()


def test_the_registry_has_fast_paths() -> None:
    assert FAST, "no tiebreak registers a fast path"
    assert not hasattr(columns, "_COMPUTE") and not hasattr(columns, "values")


def with_options(event: Event, tiebreaks: tuple[str, ...], **options: object) -> Event:
    config = replace(event.config, tiebreaks=tiebreaks,
                     options={**event.config.options, **options})
    return replace(event, config=config)


def fast_equals_rule(tb: Tiebreak, event: Event) -> bool:
    """Assert the fast path's value of every player is the rule's; return whether the
    fast path modelled the event (False: it returned None)."""
    assert tb.fast is not None
    fast_ctx = compute_standings(event).context
    ref_ctx = compute_standings(event, fast=False).context
    field = tb.fast(fast_ctx)
    if field is None:
        return False
    ranked = sorted(pid for pid, rec in ref_ctx.records.items())
    assert sorted(field) == ranked
    got = {pid: repr(field[pid]) for pid in ranked}
    expected = {pid: repr(tb.compute(ref_ctx, pid).value) for pid in ranked}
    assert got == expected, tb.id
    return True


@pytest.mark.parametrize("tiebreak", FAST)
@settings(deadline=None, max_examples=12)
@given(
    fmt=st.sampled_from(FORMATS),
    n=st.integers(min_value=5, max_value=30),
    played=st.integers(min_value=1, max_value=6),
    seed=st.integers(min_value=0, max_value=10_000),
    edition=st.sampled_from(("2023", "2026")),
)
def test_fast_path_equals_the_rule(
    tiebreak: str, fmt: str, n: int, played: int, seed: int, edition: str
) -> None:
    event = with_options(make_event(n, played + 1, fmt, seed=seed, played=played), CHAIN,
                         **({"fide_edition": edition} if fmt == "swiss" else {}))
    modelled = fast_equals_rule(TIEBREAKS[tiebreak], event)
    assert modelled or fmt not in GRID_FORMATS


@pytest.mark.parametrize("tiebreak", FAST)
@settings(deadline=None, max_examples=4)
@given(n=st.integers(min_value=3, max_value=9), seed=st.integers(min_value=0, max_value=999))
def test_fast_path_equals_the_rule_in_round_robins(tiebreak: str, n: int, seed: int) -> None:
    """FIDE C.07 art. 15.2's policy (forfeits are games) under the fast paths too."""
    assert fast_equals_rule(TIEBREAKS[tiebreak], round_robin(n, seed))


def round_robin(n: int, seed: int) -> Event:
    base = make_event(n, n - 1 if n % 2 == 0 else n, "swiss", seed=seed, played=0)
    event = with_options(base, CHAIN, pairing="round-robin")
    rng = random.Random(seed)
    for number in range(1, min(4, event.config.rounds or 1) + 1):
        standings = pairing_input(compute_standings(event))
        paired = format_of(event).pair(event, standings, number).round
        event = replace(event, rounds=(*event.rounds, play(paired, rng, "swiss", event)))
    return event


def shown(standings: Standings) -> list[object]:
    """Return every rank, value (with its type), note and breakdown of the standings."""
    return [
        (row.rank, row.player.id, repr(row.score),
         [(tb, repr(v.value), v.note, v.parts) for tb, v in row.values.items()])
        for row in standings.rows
    ]


@settings(deadline=None, max_examples=10)
@given(
    fmt=st.sampled_from(FORMATS),
    n=st.integers(min_value=5, max_value=30),
    played=st.integers(min_value=1, max_value=5),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_standings_with_fast_paths_equal_the_straightforward_ones(
    fmt: str, n: int, played: int, seed: int
) -> None:
    """Ranks, values, notes and breakdowns, whole standings: fast and straightforward."""
    chain = CHAIN if fmt != "diplomacy" else ()
    event = with_options(make_event(n, played + 1, fmt, seed=seed, played=played), chain)
    fast = compute_standings(event)
    assert columns._grid(fast.context) is not None or fmt not in GRID_FORMATS
    assert shown(fast) == shown(compute_standings(event, fast=False))


@settings(deadline=None, max_examples=10)
@given(
    fmt=st.sampled_from(FORMATS),
    n=st.integers(min_value=5, max_value=30),
    played=st.integers(min_value=1, max_value=5),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_shared_records_equal_records_built_afresh(
    fmt: str, n: int, played: int, seed: int
) -> None:
    """The records' fast path (the records over every round, shared, and those over
    fewer rounds taken from them) equals building them for each ``upto``."""
    event = make_event(n, played + 1, fmt, seed=seed, played=played)
    fmt_obj = format_of(event)
    for upto in (*range(1, played + 1), None):
        assert records.build_records(event, fmt_obj, upto) == \
            records.build_records(event, fmt_obj, upto, shared=False)


def test_small_events_do_not_import_numpy_for_the_columns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(columns, "MIN_ENTRIES", 4096)
    event = with_options(make_event(20, 4, "swiss", seed=1), CHAIN)
    standings = compute_standings(event)
    assert columns._grid(standings.context) is None
    assert all(TIEBREAKS[tb].fast(standings.context) is None  # type: ignore[misc]
               for tb in FAST)


def test_a_value_read_from_the_columns_builds_its_breakdown_when_read() -> None:
    event = with_options(make_event(24, 5, "swiss", seed=9), CHAIN)
    standings = compute_standings(event)
    row = standings.rows[0]
    raw = row.values.raw()  # type: ignore[attr-defined]
    # what ranking needed (the players still tied) is kept as numbers, the rest not made
    group = {tb for tb in CHAIN if TIEBREAKS[tb].compute_group is not None}
    assert raw and all(isinstance(v, float | int) for tb, v in raw.items() if tb not in group)
    assert list(row.values) == [tb for tb in CHAIN if tb not in group] + sorted(group)
    sos = row.values["sos"]
    assert sos is row.values["sos"]  # made once
    assert sum(p.value for p in sos.parts if p.counted) == sos.value
    assert len(sos.parts) == 5
