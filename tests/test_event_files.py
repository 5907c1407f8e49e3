"""The files of an event (issue #15 items 3, 5 and 6): one definition shared by ``check``,
``build``, ``watch`` and the build state; nothing hangs on a FIFO, nothing is lost to the
case of a name, no event disappears without a word.
"""

from __future__ import annotations

import hashlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from standgen.build import build, check
from standgen.buildstate import folder_fingerprint, folder_signature
from standgen.errors import InputError, Problem
from standgen.load.inputs import event_files, is_litter
from standgen.watch import Watch
from tests.conftest import EVENT_TOML, PLAYERS, ROUND_1, ROUND_HEADER

PROJECT = Path(__file__).resolve().parent.parent
ROUND_2 = ROUND_HEADER + "1,a,d,1-0,3,1,40,20\n2,b,c,0-1,0,2,10,30\n"
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
Tree = Callable[..., Path]


def problems_of(root: Path) -> list[str]:
    """Return the problems ``check`` reports, paths relative to the events root."""
    with pytest.raises(InputError) as found:
        check(root)
    return [str(p).replace(root.as_posix() + "/", "") for p in found.value.problems]


def warnings_of(root: Path) -> list[str]:
    return [str(p).replace(root.as_posix() + "/", "") for p in check(root).warnings]


def digest(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def within(seconds: float, work: Callable[[], object]) -> object:
    """Return what ``work`` returns, failing (not hanging) if it takes over ``seconds``."""
    result: list[object] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            result.append(work())
        except BaseException as exc:  # re-raised below, in the test's thread
            failed.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s: it hangs"
    if failed:
        raise failed[0]
    return result[0]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "standgen", *args], cwd=PROJECT,
                          capture_output=True, text=True, timeout=60)


def old_site(tmp_path: Path) -> Path:
    out = tmp_path / "out"
    out.mkdir()
    (out / "index.html").write_text("<p>the old site</p>")
    return out


# --- item 3: a FIFO, socket or device is never opened -------------------------------------
@needs_fifo
@pytest.mark.parametrize("name", ["round-2.csv", "players.csv", "event.md", "notes"])
def test_fifo_in_event_folder_is_a_problem_not_a_hang(tree: Tree, name: str) -> None:
    root = tree({})
    (root / "ev" / name).unlink(missing_ok=True)
    os.mkfifo(root / "ev" / name)
    found = within(20, lambda: problems_of(root))
    assert f"ev/{name}:1: is not a regular file (a pipe); remove it" in found  # type: ignore[operator]


@needs_fifo
def test_fifo_event_toml_is_a_problem_not_a_lost_event(tree: Tree) -> None:
    root = tree({})
    (root / "ev/event.toml").unlink()
    os.mkfifo(root / "ev/event.toml")
    assert within(20, lambda: problems_of(root)) == [
        "ev/event.toml:1: is not a regular file (a pipe); remove it"]


@needs_fifo
@pytest.mark.parametrize("command", ["check", "build"])
def test_fifo_cli_exits_2_at_once_and_output_untouched(
    tree: Tree, tmp_path: Path, command: str
) -> None:
    root = tree({})
    os.mkfifo(root / "ev/round-2.csv")
    out = old_site(tmp_path)
    before = digest(out)
    done = cli(command, str(root), *(["-o", str(out)] if command == "build" else []))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "round-2.csv:1: is not a regular file (a pipe); remove it" in done.stderr
    assert digest(out) == before


@needs_fifo
def test_fifo_fingerprints_never_open_it(tree: Tree) -> None:
    root = tree({})
    clean = folder_fingerprint(root / "ev")
    os.mkfifo(root / "ev/round-2.csv")
    with_fifo = within(20, lambda: folder_fingerprint(root / "ev"))
    assert with_fifo != clean  # the build state sees the FIFO, so the next build names it
    within(20, lambda: folder_signature(root / "ev", time.time_ns()))
    # watch builds with the build state's fingerprints (standgen.builder.build_held)


@needs_fifo
def test_fifo_watch_shows_the_problem_then_recovers_when_it_is_gone(
    tree: Tree, tmp_path: Path
) -> None:
    root = tree({})
    os.mkfifo(root / "ev/round-2.csv")
    docs = tmp_path / "help-docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Help\n")
    watch = Watch(root, port=0, debounce=0.05, docs=docs)
    within(60, watch.start)
    try:
        assert [str(p).replace(root.as_posix() + "/", "") for p in watch.problems] == [
            "ev/round-2.csv:1: is not a regular file (a pipe); remove it"]
        since = watch.generation
        (root / "ev/round-2.csv").unlink()
        watch.notice(str(root / "ev/round-2.csv"))
        end = time.monotonic() + 30
        while watch.generation == since or watch.problems:
            assert time.monotonic() < end, "watch did not rebuild after the FIFO went"
            time.sleep(0.05)
        assert watch.has_site
    finally:
        within(30, watch.stop)


@needs_fifo
def test_fifo_watch_stops_on_sigterm(tree: Tree) -> None:
    root = tree({})
    os.mkfifo(root / "ev/round-2.csv")
    proc = subprocess.Popen([sys.executable, "-m", "standgen", "watch", str(root), "--port",
                             "0"], cwd=PROJECT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None
        line = within(60, proc.stdout.readline)
        assert re.search(r"http://127\.0\.0\.1:\d+/", str(line)), line
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    assert "is not a regular file (a pipe); remove it" in err
    assert "Stopped." in out and "Traceback" not in err


# --- item 5: a round file that is a folder ------------------------------------------------
def test_round_file_that_is_a_folder_is_a_problem(tree: Tree, tmp_path: Path) -> None:
    root = tree({})
    (root / "ev/round-2.csv").mkdir()
    assert problems_of(root) == ["ev/round-2.csv:1: is a folder, not a file; round-2.csv must "
                                 "be a file: rename or remove the folder"]
    out = old_site(tmp_path)
    with pytest.raises(InputError):
        build(root, out)
    assert (out / "index.html").read_text() == "<p>the old site</p>"


def test_players_csv_that_is_a_folder_is_a_problem_not_missing(tree: Tree) -> None:
    root = tree({"ev/players.csv": None})
    (root / "ev/players.csv").mkdir()
    assert problems_of(root) == ["ev/players.csv:1: is a folder, not a file; players.csv must "
                                 "be a file: rename or remove the folder"]


def test_lists_that_is_a_file_is_a_problem(tree: Tree) -> None:
    root = tree({"ev/lists": "a: Cygnar\n"})
    assert problems_of(root) == ["ev/lists:1: is a regular file, not a folder; lists/ must be "
                                 "a folder: rename or remove it"]


# --- item 5: event.toml at the events root --------------------------------------------------
def test_event_toml_at_root_is_a_problem_and_other_events_still_checked(tree: Tree) -> None:
    root = tree({"event.toml": EVENT_TOML, "players.csv": PLAYERS,
                 "ev/round-2.csv": ROUND_HEADER + "1,a,zz,,,,,\n"})
    found = problems_of(root)
    assert ("event.toml:1: event.toml at the events root; the root holds event folders: move "
            "this event's files into a folder of its own, e.g. events/<event-slug>/") in found
    assert any(line.startswith("ev/round-2.csv:") for line in found)


def test_event_toml_at_root_build_is_a_problem_not_a_crash(tree: Tree, tmp_path: Path) -> None:
    root = tree({"event.toml": EVENT_TOML})
    out = old_site(tmp_path)
    done = cli("build", str(root), "-o", str(out))
    assert done.returncode == 2, done.stderr
    assert "event.toml at the events root" in done.stderr and "Traceback" not in done.stderr
    assert (out / "index.html").read_text() == "<p>the old site</p>"


def test_event_files_at_root_without_event_toml_are_a_problem(tree: Tree) -> None:
    root = tree({"players.csv": PLAYERS})
    assert problems_of(root) == [
        f"{root.as_posix()}:1: the events root holds players.csv; event files belong in an "
        "event folder: move them into a folder of its own with an event.toml"]


# --- item 6: no event disappears without a word ---------------------------------------------
def test_folder_without_event_toml_is_a_problem(tree: Tree) -> None:
    root = tree({"spring/players.csv": PLAYERS, "spring/round-1.csv": ROUND_1})
    assert problems_of(root) == ["spring:1: has players.csv, round-1.csv but no event.toml; "
                                 "add event.toml or remove the folder"]


def test_folder_with_only_a_csv_is_a_problem(tree: Tree) -> None:
    root = tree({"club/2026/results.CSV": "a,b\n"})
    assert problems_of(root) == ["club/2026:1: has results.CSV but no event.toml; add "
                                 "event.toml or remove the folder"]


def test_link_to_a_missing_event_folder_is_a_problem(tree: Tree, tmp_path: Path) -> None:
    root = tree({})
    (root / "autumn").symlink_to(tmp_path / "unplugged-drive/autumn", target_is_directory=True)
    assert problems_of(root) == ["autumn:1: is a symbolic link to nothing; replace it with the "
                                 "real folder or remove it"]


def test_event_inside_an_event_is_a_problem(tree: Tree) -> None:
    root = tree({"ev/day-2/event.toml": EVENT_TOML})
    assert problems_of(root) == ["ev/day-2:1: is an event inside the event ev, which is never "
                                 "read; move it out of that event's folder"]


@pytest.mark.parametrize("name", ["Event.toml", "event.TOML", "EVENT.TOML"])
def test_event_toml_in_another_case_is_read_with_a_warning(tree: Tree, name: str) -> None:
    root = tree({})
    (root / "ev/event.toml").rename(root / "ev" / name)
    tree_ = check(root)
    assert [e.path for e in tree_.events] == [("ev",)]
    assert warnings_of(root) == [f"ev/{name}:1: warning: file name '{name}' is read as "
                                 "event.toml; rename it event.toml (other tools and "
                                 "case-sensitive disks tell them apart)"]


def test_round_and_players_csv_in_upper_case_are_read(tree: Tree, tmp_path: Path) -> None:
    root = tree({"ev/players.csv": None, "ev/round-2.CSV": ROUND_2, "ev/players.CSV": PLAYERS})
    tree_ = check(root)
    assert [r.number for r in tree_.events[0].rounds] == [1, 2]  # round 2 played, not proposed
    assert warnings_of(root) == [
        "ev/players.CSV:1: warning: file name 'players.CSV' is read as players.csv; rename it "
        "players.csv (other tools and case-sensitive disks tell them apart)",
        "ev/round-2.CSV:1: warning: file name 'round-2.CSV' is read as round-2.csv; rename it "
        "round-2.csv (other tools and case-sensitive disks tell them apart)"]
    build(root, tmp_path / "out")
    assert (tmp_path / "out/ev/round-2/index.html").is_file()


def test_event_md_in_upper_case_is_read(tree: Tree) -> None:
    root = tree({"ev/EVENT.MD": "# Spring\n\nWelcome.\n"})
    assert "Welcome." in check(root).events[0].description


def test_army_list_in_upper_case_is_read(tree: Tree) -> None:
    root = tree({"ev/lists/a.MD": "Cygnar list\n"})
    assert check(root).events[0].lists == {"a": "Cygnar list\n"}


def test_round_file_in_two_cases_is_a_problem_naming_both(tree: Tree) -> None:
    root = tree({"ev/round-1.CSV": ROUND_1})
    if len(list((root / "ev").iterdir())) < 4:
        pytest.skip("this disk does not tell round-1.csv and round-1.CSV apart")
    assert problems_of(root) == ["ev/round-1.csv:1: round-1.CSV and round-1.csv are both "
                                 "round-1.csv; keep one and delete the other"]


# --- litter: one list, skipped by check, build, watch and the build state ---------------
LITTER = [".round-1.csv.swp", ".round-1.csv.swx", "round-1.csv~", "4913", ".#round-1.csv",
          "#round-1.csv#", "x.tmp", ".~lock.round-1.csv#", "._round-1.csv", ".DS_Store",
          "~$players.xlsx", "Thumbs.db", "desktop.ini", "round-1.csv.crswap"]


@pytest.mark.parametrize("name", LITTER)
def test_litter_is_skipped_by_check_build_watch_and_state(
    tree: Tree, tmp_path: Path, name: str
) -> None:
    assert is_litter(name)
    root = tree({})
    before = folder_fingerprint(root / "ev")  # what build and watch compare
    if name.startswith(".#"):  # emacs' lock: a symbolic link to nothing
        (root / "ev" / name).symlink_to("user@host.1234:1700000000")
    else:
        (root / "ev" / name).write_bytes(b"\x00\xff not a CSV")
    assert check(root).warnings == ()
    assert name not in {e.name for e in event_files(root / "ev").entries}
    assert folder_fingerprint(root / "ev") == before
    if name in (".#round-1.csv", "._round-1.csv"):  # the two that used to stop a build
        build(root, tmp_path / "out")


def test_appledouble_file_is_ignored_by_check_and_watch_alike(
    tree: Tree, tmp_path: Path
) -> None:
    root = tree({"ev/._round-1.csv": b"\x00\x05\x16\x07 resource fork"})
    check(root)
    assert "._round-1.csv" not in {e.name for e in event_files(root / "ev").entries}
    watch = Watch(root, port=0, output=tmp_path / "site")
    assert watch.notice(str(root / "ev/._round-1.csv")) is False


@pytest.mark.parametrize("name", ["round-1.csv", "players.csv", "event.toml", "event.md",
                                  "anna-k.md", "4914", "tmp.csv", "lists"])
def test_input_names_are_not_litter(name: str) -> None:
    assert not is_litter(name)


def test_event_files_classifies_the_inputs(tree: Tree) -> None:
    root = tree({"ev/round-2.csv": ROUND_2, "ev/event.md": "# Hi\n", "ev/lists/a.md": "x\n",
                 "ev/photos/table.jpg": b"\xff\xd8"})
    files = event_files(root / "ev", root)
    ev = root / "ev"
    assert files.config == ev / "event.toml" and files.players == ev / "players.csv"
    assert files.description == ev / "event.md"
    assert dict(files.rounds) == {1: ev / "round-1.csv", 2: ev / "round-2.csv"}
    assert dict(files.lists) == {"a": ev / "lists/a.md"}
    assert files.problems == ()
    assert (ev / "photos/table.jpg") in {e.path for e in files.entries}  # by name only
    assert (ev / "photos/table.jpg") not in files.inputs()


def test_missing_players_csv_keeps_its_message(tree: Tree) -> None:
    root = tree({"ev/players.csv": None})
    assert event_files(root / "ev").problems == (Problem(
        (root / "ev/players.csv").as_posix(), 1,
        "players.csv is missing; create it with the header id,name,faction"),)


# --- the build state lists an event's files as the loader does ------------------------------
def test_incremental_build_reads_round_file_saved_in_upper_case(
    tree: Tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from standgen import buildstate

    monkeypatch.setattr(buildstate, "RACY_NS", 0)
    root = tree({})
    out = tmp_path / "out"
    build(root, out)
    proposed = (out / "ev/round-2/index.html").read_text()
    time.sleep(0.05)
    (root / "ev/round-2.CSV").write_text(ROUND_2)
    assert build(root, out).incremental
    played = (out / "ev/round-2/index.html").read_text()
    assert played != proposed
    full = tmp_path / "full"
    build(root, full, full=True)
    assert played == (full / "ev/round-2/index.html").read_text()


def test_litter_written_just_now_keeps_the_folder_signature(
    tree: Tree, monkeypatch: pytest.MonkeyPatch
) -> None:
    from standgen import buildstate

    root = tree({})
    now = time.time_ns() + 3_000_000_000
    before = folder_signature(root / "ev", now)
    assert before != ""
    (root / "ev/.round-1.csv.swp").write_bytes(b"vim")
    (root / "ev/._round-1.csv").write_bytes(b"\x00\x05\x16\x07")
    assert folder_signature(root / "ev", now) == before
    monkeypatch.setattr(buildstate, "RACY_NS", 0)
    (root / "ev/notes.csv").write_text("a\n")
    assert folder_signature(root / "ev", now) != before  # an unexpected file counts


@needs_fifo
def test_fifo_added_after_a_build_is_named_by_the_next_build(
    tree: Tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from standgen import buildstate

    monkeypatch.setattr(buildstate, "RACY_NS", 0)
    root = tree({})
    out = tmp_path / "out"
    build(root, out)
    before = digest(out)
    os.mkfifo(root / "ev/round-2.csv")
    with pytest.raises(InputError) as found:
        within(30, lambda: build(root, out))
    assert [p.message for p in found.value.problems] == [
        "is not a regular file (a pipe); remove it"]
    assert digest(out) == before
