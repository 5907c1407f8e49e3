"""``standgen build`` on disk: the parallel full build and the incremental build give the
same bytes as the in-memory render, and a bad change writes nothing."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from standgen import build as lib
from standgen.buildstate import state_file
from standgen.errors import InputError
from standgen.load import load_tree

PROJECT = Path(__file__).resolve().parent.parent
STEAMROLLER = Path("2026", "spring-steamroller")


def files_of(folder: Path) -> dict[str, bytes]:
    """Return every file below ``folder`` by relative POSIX path."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def in_memory(events: Path) -> dict[str, bytes]:
    """Return the site as the straightforward in-memory render makes it."""
    return lib.render(load_tree(events))


@pytest.fixture
def events(tmp_path: Path) -> Path:
    """A copy of the demo events a test may change."""
    return Path(shutil.copytree(PROJECT / "events", tmp_path / "events"))


@pytest.mark.parametrize("jobs", [1, 2])
def test_full_build_writes_the_in_memory_site(events: Path, tmp_path: Path, jobs: int,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from standgen.builder import scopes

    monkeypatch.setattr(scopes, "PARALLEL_EVENTS", 2)  # the demo's events in workers too
    built = lib.build(events, tmp_path / "out", jobs=jobs)
    assert not built.incremental and built.events == len(load_tree(events).events) >= 5
    assert files_of(tmp_path / "out") == in_memory(events)
    assert state_file(tmp_path / "out").is_file()
    assert not any(p.name.startswith(".out.tmp") for p in tmp_path.iterdir())


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def check_incremental(events: Path, out: Path, rebuilt: int) -> None:
    """Build incrementally and compare with the in-memory render of the changed tree."""
    built = lib.build(events, out)
    assert built.incremental and built.rebuilt == rebuilt
    assert files_of(out) == in_memory(events)


def test_a_corrected_result_rewrites_only_what_it_touches(events: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    lib.build(events, out)
    assert lib.build(events, out).written == 0  # nothing changed: nothing written
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    edit(events / STEAMROLLER / "round-1.csv", "1,emma-w,lena-b,1-0,5,1,46,12",
         "1,emma-w,lena-b,0-1,1,5,12,46")
    check_incremental(events, out, rebuilt=1)
    touched = {p.relative_to(out).as_posix() for p, t in before.items()
               if not p.exists() or p.stat().st_mtime_ns != t}
    assert touched and all(t.startswith(("2026/spring-steamroller/", "players/", "index.html",
                                         "archive/", "2026/index.html")) for t in touched)
    assert not any(t.startswith("2026/club-swiss/") for t in touched)


def test_renamed_player_reaches_their_history(events: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    lib.build(events, out)
    edit(events / STEAMROLLER / "players.csv", "Anna Kowalski", "Anna K. <Kowalska>")
    check_incremental(events, out, rebuilt=1)
    assert b"Anna K. &lt;Kowalska&gt;" in (out / "players" / "anna-k" / "index.html").read_bytes()


def test_event_removed_and_added(events: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    lib.build(events, out)
    moved = tmp_path / "aside"
    shutil.move(events / "2026" / "club-swiss", moved)
    check_incremental(events, out, rebuilt=0)
    assert not (out / "2026" / "club-swiss").exists()
    shutil.move(moved, events / "2025-club-swiss")
    check_incremental(events, out, rebuilt=1)


def test_bad_change_writes_nothing(events: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    lib.build(events, out)
    before = files_of(out)
    stamps = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    edit(events / STEAMROLLER / "round-1.csv", "1,emma-w,lena-b,1-0", "1,emma-w,nobody,1-0")
    with pytest.raises(InputError) as caught:
        lib.build(events, out)
    assert any("round-1.csv:2" in str(p) for p in caught.value.problems)
    assert files_of(out) == before
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == stamps


def test_warnings_of_unchanged_events_are_still_reported(events: Path, tmp_path: Path) -> None:
    edit(events / STEAMROLLER / "round-1.csv", "1,emma-w,lena-b,1-0,5,1,46,12",
         "1,emma-w,lena-b,,,,,")
    out = tmp_path / "out"
    first = lib.build(events, out)
    assert first.warnings
    edit(events / "2026" / "club-swiss" / "event.md", "", "\nMore text.\n")
    again = lib.build(events, out)
    assert again.incremental and again.warnings == first.warnings


def test_a_foreign_output_or_new_templates_mean_a_full_build(events: Path,
                                                             tmp_path: Path) -> None:
    out = tmp_path / "out"
    lib.build(events, out)
    (out / "index.html").write_text("someone else's page")
    assert not lib.build(events, out).incremental
    assert lib.build(events, out).incremental
    assert not lib.build(events, out, full=True).incremental
    docs = Path(shutil.copytree(lib.DOCS, tmp_path / "docs"))
    (docs / "extra.md").write_text("# Extra\n")
    from standgen.builder import build as build_site

    assert not build_site(events, out, docs, lib.TEMPLATES).incremental
    assert (out / "help" / "extra" / "index.html").is_file()


def test_unchanged_folders_are_not_read_again(events: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder whose files' signature (names, sizes, inodes, times) is the last build's
    keeps its fingerprint without being read; a changed file is still found."""
    from standgen import buildstate
    from standgen.builder import core as builder

    monkeypatch.setattr(buildstate, "RACY_NS", 0)  # the files here are seconds old
    out = tmp_path / "out"
    lib.build(events, out)
    read: list[Path] = []
    real = builder.folder_fingerprint
    monkeypatch.setattr(builder, "folder_fingerprint",
                        lambda folder: read.append(folder) or real(folder))
    assert lib.build(events, out).written == 0
    assert read == []
    time.sleep(0.05)  # past the file system's timestamp tick
    edit(events / STEAMROLLER / "round-1.csv", "1,emma-w,lena-b,1-0,5,1,46,12",
         "1,emma-w,lena-b,0-1,1,5,12,46")
    check_incremental(events, out, rebuilt=1)
    assert read == [events / STEAMROLLER]


def test_a_change_that_keeps_size_and_modification_time_is_found(
    events: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same size, modification time set back (cp -p, rsync -t): the change time moved."""
    from standgen import buildstate

    monkeypatch.setattr(buildstate, "RACY_NS", 0)
    out = tmp_path / "out"
    lib.build(events, out)
    target = events / STEAMROLLER / "round-1.csv"
    stat = target.stat()
    time.sleep(0.05)
    edit(target, "1,emma-w,lena-b,1-0,5,1,46,12", "1,emma-w,lena-b,0-1,1,5,12,46")
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert target.stat().st_size == stat.st_size
    check_incremental(events, out, rebuilt=1)


def test_files_changed_just_before_a_build_are_hashed_by_the_next(
    events: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Within two seconds of the look a file may change again in the same timestamp
    tick, so its folder keeps no signature: the next build reads it. (The window is
    widened here so that a build slowed by a loaded machine still falls inside it.)"""
    from standgen import buildstate
    from standgen.buildstate import BuildState, folder_signature

    monkeypatch.setattr(buildstate, "RACY_NS", 600_000_000_000)
    out = tmp_path / "out"
    lib.build(events, out)
    assert folder_signature(events / STEAMROLLER, time.time_ns()) == ""
    state = BuildState.open(state_file(out))
    try:
        assert state.signatures() == {}
    finally:
        state.close()
    assert folder_signature(events / STEAMROLLER, time.time_ns() + 601_000_000_000) != ""


def test_history_pages_rendered_by_workers_are_the_same(
    events: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from standgen.builder import scopes

    monkeypatch.setattr(scopes, "PARALLEL_HISTORIES", 0)
    lib.build(events, tmp_path / "out", jobs=2)
    assert files_of(tmp_path / "out") == in_memory(events)


def wait_gone(parent: Path, pattern: str, seconds: float = 30.0) -> list[Path]:
    """Return what still matches ``pattern`` in ``parent`` once it is gone (or time is up)."""
    deadline = time.monotonic() + seconds
    while (left := sorted(parent.glob(pattern))) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_large_old_site_is_removed_in_the_background(
    events: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    from standgen import output
    from standgen.builder import core as builder

    spawned: list[Path] = []
    remove_later = output.remove_later

    def spy(folder: Path) -> None:
        spawned.append(folder)
        assert folder.is_dir() and (folder / "index.html").is_file()  # the old site, whole
        remove_later(folder)

    monkeypatch.setattr(output, "remove_later", spy)
    monkeypatch.setattr(builder, "REMOVE_LATER", 1)  # every site counts as large
    out = tmp_path / "out"
    lib.build(events, out, jobs=jobs)
    assert spawned == []  # the first build replaces no site
    edit(events / STEAMROLLER / "event.toml", 'name = "', 'name = "Big ')
    lib.build(events, out, full=True, jobs=jobs)
    assert len(spawned) == 1 and spawned[0].name.startswith(".out.gone-")
    assert files_of(out) == in_memory(events)  # the new site is whole at once
    assert wait_gone(tmp_path, ".out.gone-*") == []


def test_a_small_old_site_is_removed_before_the_build_returns(
    events: Path, tmp_path: Path
) -> None:
    lib.build(events, tmp_path / "out")
    lib.build(events, tmp_path / "out", full=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".out.standgen-state.sqlite", "events", "out"]


def test_an_old_site_whose_removal_was_killed_is_removed_by_the_next_build(
    events: Path, tmp_path: Path
) -> None:
    left = tmp_path / ".out.gone-123-456"
    (left / "a" / "b").mkdir(parents=True)
    (left / "a" / "b" / "index.html").write_text("old")
    lib.build(events, tmp_path / "out")
    assert wait_gone(tmp_path, ".out.gone-*") == []
    assert files_of(tmp_path / "out") == in_memory(events)


def test_a_full_build_writes_a_new_state_file(events: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    lib.build(events, out)
    left = state_file(out).with_name(state_file(out).name + ".new-99999")
    left.write_bytes(b"what a killed build left")
    before = state_file(out).stat().st_ino
    lib.build(events, out, full=True)
    assert state_file(out).stat().st_ino != before  # replaced whole, not rewritten
    assert not left.exists()
    assert not list(tmp_path.glob("*.new-*"))
    edit(events / STEAMROLLER / "event.toml", 'name = "', 'name = "New ')
    check_incremental(events, out, rebuilt=1)  # the new file serves the next build


def test_a_state_that_fails_to_save_leaves_the_old_file(tmp_path: Path) -> None:
    from standgen.buildstate import BuildState

    path = tmp_path / ".out.standgen-state.sqlite"
    state = BuildState.open(path)
    state.save({"version": "old"}, [], [], full=True)
    state.close()

    def broken(state: BuildState) -> None:
        state.save({"version": "new"}, [], [], full=True)
        raise OSError("disk full")

    with pytest.raises(OSError):
        BuildState.replace(path, broken)
    assert not list(tmp_path.glob("*.new-*"))
    state = BuildState.open(path)
    assert state.meta("version") == "old"
    state.close()


def test_a_change_that_keeps_ranking_and_head_leaves_the_season_page(
    events: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import standgen.site.pages as site

    out = tmp_path / "out"
    lib.build(events, out)
    rendered: list[object] = []
    season_page = site.season_page

    def counted(*args: object) -> object:
        rendered.append(args[1])
        return season_page(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(site, "season_page", counted)
    (events / STEAMROLLER / "event.md").write_text("A new description.\n")
    assert lib.build(events, out).rebuilt == 1
    assert rendered == []  # same head, ranking and factions: the season page stands
    edit(events / STEAMROLLER / "event.toml", 'name = "', 'name = "Renamed ')
    assert lib.build(events, out).rebuilt == 1
    assert len(rendered) == 1  # its head changed
    monkeypatch.undo()
    assert files_of(out) == in_memory(events)


def test_the_code_is_hashed_once_a_process_to_the_same_key() -> None:
    """``standgen watch`` builds in one process: standgen's code is hashed once there,
    to what hashing it each build gives (the straightforward path)."""
    from standgen import perf
    from standgen.builder import core

    with perf.straightforward():
        each = core.code_hash()
    assert core.code_hash() == core.code_hash() == each


@pytest.mark.parametrize("written", [True, False])
def test_the_first_commit_holds_the_round_written_else_the_newest(
    tree: Callable[..., Path], tmp_path: Path, written: bool
) -> None:
    """An incremental build with ``first`` puts the page and pairings.json of the round
    whose file changed (told in ``touched``; else the event's newest round) and the
    event's standings.json in place before the event's other pages; it ends as a full
    build does."""
    from standgen.build import DOCS, TEMPLATES
    from standgen.builder import build_held
    from standgen.output import writing
    from tests.conftest import ROUND_1, ROUND_HEADER

    root = tree({"ev/round-2.csv": ROUND_HEADER + "1,a,d,1-0,3,1,40,20\n2,b,c,0-1,0,2,10,30\n"})
    out = tmp_path / "out"
    lib.build(root, out)
    path = root / "ev" / "round-1.csv"
    path.write_text(ROUND_1.replace("1,a,b,1-0", "1,a,b,0-1"))
    told: list[tuple[str, ...]] = []
    with writing(out):
        build_held(root, out, DOCS, TEMPLATES, track=True, first=lambda f: told.append(tuple(f)),
                   touched=[path] if written else [])
    number = 1 if written else 2
    assert "ev/standings.json" in told[0] and "ev/index.html" not in told[0]
    assert set(told[0]) <= {f"ev/round-{number}/index.html",
                            f"ev/round-{number}/pairings.json", "ev/standings.json"}
    if written:
        assert "ev/round-1/pairings.json" in told[0]
    assert "ev/index.html" in told[1]
    assert files_of(out) == in_memory(root)


def test_the_archive_is_made_again_only_when_what_it_lists_changed(
    events: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The archive lists each event's name and date (``PageType.reads``): a result typed
    in changes the event's status, which the home page shows and the archive does not;
    a new name or date makes it again. Each time the site is the in-memory render."""
    import standgen.site.pages as site

    out = tmp_path / "out"
    lib.build(events, out)
    made: list[str] = []
    archive, home = site.archive_page, site.home_page

    def counted_archive(*args: object) -> object:
        made.append("archive")
        return archive(*args)  # type: ignore[arg-type]

    def counted_home(*args: object) -> object:
        made.append("home")
        return home(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(site, "archive_page", counted_archive)
    monkeypatch.setattr(site, "home_page", counted_home)

    def made_again() -> list[str]:
        made.clear()
        built = lib.build(events, out)
        assert built.incremental and built.rebuilt == 1
        found = list(made)
        assert files_of(out) == in_memory(events)
        return found

    rounds = sorted((events / STEAMROLLER).glob("round-*.csv"))
    edit(rounds[-1], ",1-0,", ",,")  # a result not typed in yet: the status changes
    assert made_again() == ["home"]
    edit(events / STEAMROLLER / "event.toml", 'name = "', 'name = "Renamed ')
    assert made_again() == ["home", "archive"]
    edit(events / STEAMROLLER / "event.toml", "date = 2026-03-14", "date = 2026-02-14")
    assert made_again() == ["home", "archive"]
    monkeypatch.undo()
    assert files_of(out) == in_memory(events)


@pytest.mark.parametrize("seed", range(6))
def test_an_incremental_save_leaves_the_signatures_the_ones_given(tmp_path: Path,
                                                                   seed: int) -> None:
    """Only the changed rows are written by an incremental save (BuildState.save); the
    state holds exactly the signatures given, none where it is "", as a full save does."""
    import random

    from standgen.buildstate import BuildState

    rng = random.Random(seed)
    paths = [("2026", f"event-{k}") for k in range(30)]
    state = BuildState.open(tmp_path / "state.sqlite")
    try:
        for step in range(8):
            given = {path: rng.choice(["", "a", "b", f"s{step}"]) for path in paths
                     if rng.random() < 0.9}
            state.save({"version": "x"}, [], [], full=step == 0 or rng.random() < 0.2,
                       signatures=given)
            assert state.signatures() == {p: s for p, s in given.items() if s}
    finally:
        state.close()
