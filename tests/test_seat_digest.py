"""Issue #33: a player's rated seats resumed from the digest the last build kept
(:mod:`standgen.clubs.seat_digest`) are the seats read back in full, and the site is
byte for byte the straightforward render, after the random edits a TO makes: results
typed in or corrected in the newest and the oldest event, a player renamed, a date
moved, an event left out of the ratings, removed and added back.

The limits are lowered (a digest keeps 20 seats, a page shows 8, a chart has a point per
event past 8 games) so that small archives take every path: a tail cut short, a chart
of events, too few seats left to show."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from benchmarks.synth import write_archive
from standgen import build as lib
from standgen.buildstate import BuildState, state_file
from standgen.clubs import seat_digest
from standgen.clubs.seat_digest import RatedSeats, rated_games, seats_of
from standgen.clubs.summary import SITE, ClubKept, ClubTables, SeatDigest
from standgen.load import load_tree
from standgen.site import club_ratings
from tests.test_club_rebuild import apply_edit, built_archive, files_of


def _plain(seats: RatedSeats) -> tuple[object, ...]:
    """``seats`` with each event named by its path (two builds' summaries compared)."""
    return (seats.games, None if seats.first is None else (seats.first[0].path, seats.first[1]),
            [(e.path, s) for e, s in seats.tail],
            [(e.path, *rest) for e, *rest in seats.events], seats.fresh)


def _checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Check every digest resumed against the player's seats read back in full; return
    the ids of the players whose pages were made (``made <id>``), each followed by
    itself when made from a digest."""
    used: list[str] = []
    real = seat_digest.resumed

    def resumed(tables: ClubTables, pid: str, digest: SeatDigest) -> RatedSeats | None:
        found = real(tables, pid, digest)
        if found is not None:
            whole = seats_of(rated_games(tables, pid), tables.ratings(SITE[0]).redone)
            shown = _plain(found)
            full = _plain(whole)
            tail = shown[2]
            assert isinstance(tail, list)
            assert full[2][len(full[2]) - len(tail):] == tail  # type: ignore[index]
            assert len(tail) == found.games or len(tail) > seat_digest.SHOWN
            assert (shown[:2], shown[3:]) == (full[:2], full[3:]), pid
            used.append(pid)
        return found

    def made(tables: ClubTables, pid: str) -> RatedSeats:
        used.append(f"made {pid}")
        return real_seats(tables, pid)

    real_seats = club_ratings.rated_seats
    monkeypatch.setattr(seat_digest, "resumed", resumed)
    monkeypatch.setattr(club_ratings, "rated_seats", made)
    monkeypatch.setattr(seat_digest, "KEEP", 20)
    monkeypatch.setattr(seat_digest, "SHOWN", 8)
    monkeypatch.setattr(club_ratings, "CHART_GAMES", 8)
    monkeypatch.setattr(club_ratings, "TABLE_GAMES", 8)
    return used


@pytest.mark.parametrize(("seed", "pool"), [(3, 0), (11, 20), (17, 30)])
def test_digests_resumed_after_random_edits_are_the_seats_read_in_full(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, pool: int) -> None:
    used = _checked(monkeypatch)
    events, out, by_date = built_archive(tmp_path, seed, pool, events=7, high=16)
    rng = random.Random(seed)
    edits = ["oldest", "rename", "date", "unrated", "remove", "newest", "newest"]
    rng.shuffle(edits)
    aside = tmp_path / "aside"
    edits = ["newest", "newest", *edits, "newest"]
    for k, edit in enumerate(edits):
        before = len(used)
        gone = apply_edit(edit, events, rng, by_date, aside, last=rng.random() < 0.7)
        assert lib.build(events, out).incremental, edit
        pages = used[before:]  # the build's (the render below makes every page)
        assert files_of(out) == lib.render(load_tree(events)), edit
        if edit == "newest" and edits[k - 1] == "newest" or k == 0:
            # results typed in one after another: every page made from a digest
            assert pages == [made for pid in pages if not pid.startswith("made ")
                             for made in (f"made {pid}", pid)], pages
        if edit == "remove":
            shutil.move(aside, gone)
            lib.build(events, out)
            assert files_of(out) == lib.render(load_tree(events)), "added back"
    assert any(not pid.startswith("made ") for pid in used)  # some pages from digests


def test_a_full_build_keeps_every_rated_players_digest(tmp_path: Path) -> None:
    events = write_archive(tmp_path / "events", events=4, seed=5, low=10, high=14)
    out = tmp_path / "out"
    lib.build(events, out)
    state = BuildState.open(state_file(out))
    try:
        rated = {pid for path in state.club_events()
                 for pid in state.seats_in(path)}
        assert rated
        for pid in rated:
            digest = state.digest_of(pid)
            assert digest is not None, pid
            assert sum(part[1] for part in digest.events) == sum(
                len(seats) for seats in state.seats_of(pid).values())
    finally:
        state.close()


def test_a_digest_names_the_events_its_players_seats_changed_in_since(
        tmp_path: Path) -> None:
    """The state never hands out a digest of seats it no longer holds without saying so:
    seats of an event rated again, or of an event dropped, mark the digests of their
    players with that event (``stale``) unless the build made new ones; a new digest has
    no mark."""
    state = BuildState.open(tmp_path / "state.sqlite")
    a, b = ("2026", "a"), ("2026", "b")
    seat = (1, 1, "p1", (25.0, 8.0), (27.0, 7.5), "p2", 2, "win", None)
    other = (1, 1, "p2", (25.0, 8.0), (23.0, 7.5), "p1", 2, "loss", None)
    digest = SeatDigest(((a, 1, False, 1, (27.0, 7.5)),), (a, seat), ((a, seat),))
    try:
        state.save({}, [], [], True, kept=ClubKept(
            {}, frozenset(), {}, {a: {"p1": (seat,), "p2": (other,)}}, None,
            digests={"p1": digest, "p2": digest}))
        assert state.digest_of("p1") == digest
        # the event rated again, p1's digest made again, p2's not: p2's is marked
        state.save({}, [], [], False, kept=ClubKept(
            {}, frozenset({a}), {}, {a: {"p1": (seat,), "p2": (other,)}}, None,
            digests={"p1": digest}))
        assert state.digest_of("p1") == digest
        assert state.digest_of("p2") == digest._replace(stale=frozenset({a}))
        # another event rated, p2 in it: both marks; the first event dropped: p1's mark
        state.save({}, [], [], False, kept=ClubKept(
            {}, frozenset({b}), {}, {b: {"p2": (other,)}}, None))
        assert state.digest_of("p2") == digest._replace(stale=frozenset({a, b}))
        state.save({}, [], [], False, kept=ClubKept({}, frozenset({a}), {}, {}, None))
        assert state.digest_of("p1") == digest._replace(stale=frozenset({a}))
        # a new digest has no mark
        state.save({}, [], [], False, kept=ClubKept(
            {}, frozenset(), {}, {}, None, digests={"p2": digest}))
        assert state.digest_of("p2") == digest
    finally:
        state.close()


def test_a_digest_keeps_room_for_a_pages_table() -> None:
    """A digest keeps more seats than a page shows, and a page shows at most that many
    besides its chart."""
    assert club_ratings.TABLE_GAMES <= seat_digest.SHOWN < seat_digest.KEEP
    assert club_ratings.CHART_GAMES <= seat_digest.SHOWN
