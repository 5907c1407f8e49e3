"""Optimisations change no byte: the optimised build equals the straightforward one.

``standgen.perf.straightforward()`` turns every optimisation off: the pipeline passes it
down to the standings (``compute_standings(..., fast=False)``: no shared records, no
memoised tiebreak work, no fast paths, every value computed up front), and the site
and the builder read it themselves (linking unchanged files, caches); the same code then
runs the unoptimised reference paths.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.synth import FORMATS, make_event, write_archive
from standgen import build, perf
from standgen.load import load_tree
from standgen.output import publish
from standgen.pipeline import report
from standgen.standings import compute_standings
from standgen.tiebreaks import TIEBREAKS
from standgen.tiebreaks.diplomacy import DIPLOMACY_TIEBREAKS

PROJECT = Path(__file__).resolve().parent.parent
# every registered tiebreak but Diplomacy's own (they read boards of seven)
EVERY_TWO_PLAYER_TIEBREAK = tuple(
    tb for tb in TIEBREAKS if tb not in {t.id for t in DIPLOMACY_TIEBREAKS}
)


def manifest(files: Mapping[str, bytes]) -> dict[str, str]:
    """Return path -> sha256 of every file of a rendered site."""
    return {path: hashlib.sha256(data).hexdigest() for path, data in sorted(files.items())}


def both_ways(events: Path) -> tuple[dict[str, str], dict[str, str]]:
    """Return the manifests of the optimised and the straightforward build of ``events``."""
    fast = manifest(build.render(load_tree(events)))
    with perf.straightforward():
        slow = manifest(build.render(load_tree(events)))
    return fast, slow


def test_demo_site_is_byte_identical() -> None:
    fast, slow = both_ways(PROJECT / "events")
    assert len(fast) > 50
    assert fast == slow


def test_synthetic_archive_is_byte_identical(tmp_path: Path) -> None:
    events = write_archive(tmp_path / "events", events=6, seed=3, low=12, high=40)
    fast, slow = both_ways(events)
    assert sum(1 for p in fast if p.endswith(".html")) > 100
    assert fast == slow


def snapshot(event: object) -> list[object]:
    """Return everything the standings and the next pairing show, as plain values."""
    made = report(event)  # type: ignore[arg-type]
    rows: list[object] = []
    for standings in (made.standings, *made.by_round):
        for row in standings.rows:
            rows.append((row.rank, row.player.id, row.score,
                         sorted((k, repr(v.value), v.note, v.parts)
                                for k, v in row.values.items())))
    rows.append(made.proposal)
    return rows


@settings(deadline=None, max_examples=12)
@given(
    fmt=st.sampled_from(FORMATS),
    n=st.integers(min_value=7, max_value=40),
    played=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=10_000),
    every=st.booleans(),
)
def test_standings_and_pairings_match_the_straightforward_code(
    fmt: str, n: int, played: int, seed: int, every: bool
) -> None:
    from dataclasses import replace

    event = make_event(n, played + 1, fmt, seed=seed, played=played)
    if every and fmt != "diplomacy":
        event = replace(event, config=replace(event.config,
                                              tiebreaks=EVERY_TWO_PLAYER_TIEBREAK))
    fast = snapshot(event)
    with perf.straightforward():
        slow = snapshot(event)
    assert fast == slow


def test_standings_after_each_round_share_records_correctly() -> None:
    event = make_event(30, 5, "steamroller", seed=4)
    for upto in (1, 3, None):
        fast = compute_standings(event, upto)
        slow = compute_standings(event, upto, fast=False)
        assert [(r.rank, r.player.id, r.score) for r in fast.rows] == \
            [(r.rank, r.player.id, r.score) for r in slow.rows]
        assert fast.records == slow.records


@pytest.mark.parametrize("optimised", [True, False])
def test_rebuild_rewrites_only_changed_files(tmp_path: Path, optimised: bool) -> None:
    out = tmp_path / "site"
    first = {"index.html": b"home", "a/index.html": b"a", "b/index.html": b"b"}
    assert publish(first, out) == 3
    before = {p: (out / p).stat().st_ino for p in first}
    second = {"index.html": b"home", "a/index.html": b"A!", "c/index.html": b"c"}
    if optimised:
        written = publish(second, out)
        assert written == 2  # a changed, c is new; index.html is linked from the old site
        assert (out / "index.html").stat().st_ino == before["index.html"]
    else:
        with perf.straightforward():
            assert publish(second, out) == 3
    assert {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()} == set(second)
    assert all((out / p).read_bytes() == data for p, data in second.items())


def test_values_ranking_does_not_need_are_made_when_read() -> None:
    from dataclasses import replace

    event = make_event(40, 5, "swiss", seed=2)
    event = replace(event, config=replace(event.config, tiebreaks=EVERY_TWO_PLAYER_TIEBREAK))
    after_three = report(event).by_round[2]  # after round 3
    made = sum(len(row.values.raw()) for row in after_three.rows)  # type: ignore[attr-defined]
    assert made < len(after_three.rows) * len(after_three.tiebreaks) / 2  # most never made
    slow = compute_standings(event, upto=3, fast=False)

    def shown(standings: object) -> list[object]:
        return [(r.rank, r.player.id, list(r.values),
                 [(v.value, v.note, v.parts) for v in r.values.values()])
                for r in standings.rows]  # type: ignore[attr-defined]

    assert shown(after_three) == shown(slow)
