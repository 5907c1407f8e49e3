"""Issue #15: nothing lost, nothing hung. Each test is named after the case it reproduces:
an output folder that would destroy input, two builds at once, I/O errors half-way, the
machine refusing (full disk, file size limit), killed builds' leftovers, the watcher's
redirects and debounce, and the installed wheel."""

from __future__ import annotations

import errno
import hashlib
import http.client
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from standgen import output as out_mod
from standgen.buildstate import BuildState, state_file
from standgen.cli import main
from standgen.output import writing
from standgen.watch import Watch, same_site_location

PROJECT = Path(__file__).resolve().parent.parent
STEAMROLLER = Path("2026", "spring-steamroller")


def digest(folder: Path) -> dict[str, str]:
    """Return every file (and symlink) below ``folder`` with a hash of its bytes."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A TO's repository: ``.git``, the demo ``events/``; the current folder is its top."""
    top = tmp_path / "club"
    (top / ".git").mkdir(parents=True)
    (top / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    shutil.copytree(PROJECT / "events", top / "events")
    monkeypatch.chdir(top)
    return top


# ----- item 1: an output folder that is, holds or is inside the input ---------------------

@pytest.mark.parametrize("where", [".", "events", "events/2026", "events/2026/club-swiss",
                                   ".git", ".git/site", ".."])
def test_build_refuses_an_output_that_would_replace_input(project: Path, where: str) -> None:
    before = digest(project)
    code, text = cli("build", "events", "-o", where)
    assert code == 2, text
    assert f"{where}:1: " in text and "choose another folder" in text
    assert "Traceback" not in text
    assert digest(project) == before


def test_build_refuses_a_file_and_a_foreign_folder_as_output(project: Path) -> None:
    (project / "notes.txt").write_text("keep me")
    (project / "documents").mkdir()
    (project / "documents" / "cv.odt").write_text("keep me too")
    before = digest(project)
    code, text = cli("build", "events", "-o", "notes.txt")
    assert code == 2 and "is a file, not a folder" in text
    code, text = cli("build", "events", "-o", "documents")
    assert code == 2 and "is not empty and holds no site" in text
    assert digest(project) == before


def test_build_into_a_new_an_empty_or_its_own_folder_works(project: Path) -> None:
    (project / "empty").mkdir()
    for where in ("output", "empty", "output"):
        code, text = cli("build", "events", "-o", where)
        assert code == 0, text
    assert (project / "output" / "index.html").is_file()


def test_watch_refuses_the_same_outputs_as_build(project: Path) -> None:
    from standgen.watch import ServeError

    for where in (project, project / "events"):
        with pytest.raises(ServeError, match="choose another folder"):
            Watch(project / "events", port=0, output=where).start()


# ----- item 2: one writer per output folder -----------------------------------------------

def test_a_second_build_on_a_busy_output_exits_2_naming_the_writer(project: Path) -> None:
    site = project / "output"
    assert cli("build", "events", "-o", "output")[0] == 0
    before = digest(site)
    with writing(site):
        code, text = cli("build", "events", "-o", "output")
    assert code == 2
    assert f"another build is writing output (pid {os.getpid()})" in text
    assert digest(site) == before
    assert cli("build", "events", "-o", "output")[0] == 0  # free again


def test_a_killed_builds_lock_is_taken_over(project: Path) -> None:
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from standgen.output import writing\n"
        "with writing(Path('output')):\n"
        "    print('locked', flush=True)\n"
        "    time.sleep(60)\n")], cwd=project, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(PROJECT)})
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    code, text = cli("build", "events", "-o", "output")
    assert code == 2 and f"(pid {holder.pid})" in text
    holder.kill()
    holder.communicate()
    code, text = cli("build", "events", "-o", "output")  # the stale lock file is still there
    assert code == 0, text


def test_two_builds_at_once_leave_one_complete_site(project: Path) -> None:
    reference = project / "reference"
    assert cli("build", "events", "-o", "reference")[0] == 0
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    command = [sys.executable, "-m", "standgen", "build", "events", "-o", "output", "--full"]
    for _ in range(3):
        procs = [subprocess.Popen(command, cwd=project, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(2)]
        results = [(p.returncode, p.communicate(timeout=120)[1]) for p in procs]
        results = [(p.returncode, err) for p, (_, err) in zip(procs, results, strict=True)]
        for code, err in results:
            assert code in (0, 2), err
            assert "Traceback" not in err
            if code == 2:
                assert "another build is writing" in err
        assert any(code == 0 for code, _ in results)
        assert digest(project / "output") == digest(reference)
    code, text = cli("build", "events", "-o", "output")  # the state still matches the site
    assert code == 0 and "incremental" in text


# ----- item 4: I/O errors half-way leave exactly the old site ------------------------------

def _change_a_result(project: Path) -> None:
    path = project / "events" / STEAMROLLER / "round-3.csv"
    text = path.read_text()
    assert ",1-0," in text
    path.write_text(text.replace(",1-0,", ",0-1,", 1))


def _site_and_siblings(project: Path) -> tuple[dict[str, str], list[str]]:
    site = project / "output"
    return digest(site), sorted(p.name for p in project.iterdir() if p.name.startswith("."))


@pytest.mark.parametrize("failing", ["write", "rename"])
def test_an_incremental_build_that_fails_half_way_leaves_the_old_site(
    project: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    assert cli("build", "events", "-o", "output")[0] == 0
    before = _site_and_siblings(project)
    _change_a_result(project)
    calls = {"n": 0}
    if failing == "write":
        real = Path.write_bytes

        def full_disk(self: Path, data: bytes) -> int:
            if self.name.endswith(".standgen-new"):
                calls["n"] += 1
                if calls["n"] == 3:
                    raise OSError(errno.ENOSPC, "No space left on device", str(self))
            return real(self, data)

        monkeypatch.setattr(Path, "write_bytes", full_disk)
    else:
        real_replace = os.replace

        def read_only(src: object, dst: object) -> None:
            if str(src).endswith(".standgen-new"):
                calls["n"] += 1
                if calls["n"] == 3:
                    raise OSError(errno.EROFS, "Read-only file system", str(dst))
            real_replace(src, dst)  # type: ignore[arg-type]

        monkeypatch.setattr(out_mod.os, "replace", read_only)
    code, text = cli("build", "events", "-o", "output")
    assert calls["n"] >= 3
    assert code == 2, text
    assert "Traceback" not in text and len(text.strip().splitlines()) == 1
    assert ("No space left" if failing == "write" else "Read-only") in text
    after = _site_and_siblings(project)
    assert after[0] == before[0]  # exactly the old site: no .standgen-new, no .standgen-old
    assert ".output.standgen-journal" not in after[1]
    calls["n"] = -1_000_000  # the disk has room again
    code, text = cli("build", "events", "-o", "output")
    assert code == 0, text


def test_a_full_build_whose_old_site_cannot_be_deleted_warns_and_exits_0(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cli("build", "events", "-o", "output")[0] == 0
    _change_a_result(project)
    real = shutil.rmtree

    def immutable(path: object, *args: object, **kwargs: object) -> None:
        if Path(str(path)).name.startswith(".output.tmp-") and not kwargs.get("ignore_errors"):
            raise OSError(errno.EPERM, "Operation not permitted", str(path))
        real(path, *args, **kwargs)  # type: ignore[arg-type]

    with monkeypatch.context() as patch:
        patch.setattr(out_mod.shutil, "rmtree", immutable)
        code, text = cli("build", "events", "-o", "output", "--full")
    assert code == 0, text
    assert "the old one could not be deleted" in text
    fresh = project / "fresh"
    assert cli("build", "events", "-o", "fresh")[0] == 0
    assert digest(project / "output") == digest(fresh)  # the new site is live
    assert cli("build", "events", "-o", "output")[0] == 0
    assert not list(project.glob(".output.tmp-*"))  # the next build removed the old one


def test_a_state_that_cannot_be_saved_names_the_real_error(tmp_path: Path) -> None:
    """``BuildState.save`` no longer hides a full disk behind "cannot rollback"."""
    state = BuildState.open(tmp_path / "state.sqlite")
    try:
        pages = state.db.execute("PRAGMA page_count").fetchone()[0]
        state.db.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(sqlite3.OperationalError, match="full"):
            state.save({"version": "x" * 100_000}, [], [], full=True,
                       signatures={("e",): "y" * 100_000})
    finally:
        state.close()


def _limited(limit: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


@pytest.mark.parametrize("full", [True, False])
def test_a_file_size_limit_is_one_line_exit_2_and_the_old_site(project: Path,
                                                                 full: bool) -> None:
    assert cli("build", "events", "-o", "output")[0] == 0
    before = _site_and_siblings(project)
    _change_a_result(project)
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    proc = subprocess.run([sys.executable, "-m", "standgen", "build", "events", "-o", "output",
                           *(["--full"] if full else [])], cwd=project, env=env,
                          capture_output=True, text=True, timeout=120,
                          preexec_fn=_limited(4096))
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "ulimit -f" in lines[0], lines
    assert "File too large" in lines[0] or "build state" in lines[0]
    assert _site_and_siblings(project)[0] == before[0]


# ----- item 10: what killed builds leave behind --------------------------------------------

def test_killed_builds_journal_temporaries_are_removed(project: Path) -> None:
    assert cli("build", "events", "-o", "output")[0] == 0
    left = project / f"..output.standgen-journal.tmp-{os.getpid() + 1}"
    left.write_text("{")
    assert cli("build", "events", "-o", "output")[0] == 0
    assert not left.exists()


def test_a_hot_journal_beside_a_replaced_state_file_is_not_played_back(project: Path) -> None:
    assert cli("build", "events", "-o", "output")[0] == 0
    state = state_file(project / "output")
    hot = state.with_name(state.name + "-journal")
    hot.write_bytes(b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7" + b"\0" * 600)  # a journal header
    assert cli("build", "events", "-o", "output", "--full")[0] == 0
    assert not hot.exists()
    _change_a_result(project)
    code, text = cli("build", "events", "-o", "output")
    assert code == 0 and "incremental" in text, text


def test_a_damaged_state_file_means_a_full_build(project: Path) -> None:
    assert cli("build", "events", "-o", "output")[0] == 0
    state_file(project / "output").write_bytes(b"SQLite format 3\0" + b"\xff" * 5000)
    code, text = cli("build", "events", "-o", "output")
    assert code == 0 and "incremental" not in text, text


# ----- item 8: the machine refusing is one line, exit 2 ------------------------------------

def test_a_full_disk_during_a_full_build_is_one_line(project: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    assert cli("build", "events", "-o", "output")[0] == 0
    before = digest(project / "output")
    _change_a_result(project)
    real = Path.write_bytes

    def full_disk(self: Path, data: bytes) -> int:
        if ".output.tmp-" in str(self):
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", full_disk)
    code, text = cli("build", "events", "-o", "output", "--full")
    assert code == 2
    assert text.count("\n") == 1 and "the disk is full" in text and "Traceback" not in text
    assert digest(project / "output") == before


def test_an_unwritable_output_parent_is_one_line(project: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    real = Path.mkdir

    def refuse(self: Path, *args: object, **kwargs: object) -> None:
        if self.name == "site":
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "mkdir", refuse)
    code, text = cli("build", "events", "-o", "deep/site")
    assert code == 2 and "Permission denied" in text and "permissions" in text


# ----- item 9: the watcher ----------------------------------------------------------------

@pytest.mark.parametrize("path", ["/\\evil.example/%2f..", "//evil.example", "/\\/evil",
                                  "\\\\evil.example", "/%5Cevil.example"])
def test_watch_redirects_stay_on_this_server(path: str) -> None:
    location = same_site_location(path, "")
    assert location.startswith("/") and location[1:2] not in ("/", "\\")
    assert "\\" not in location


@pytest.fixture
def watching(project: Path) -> Iterator[Watch]:
    watch = Watch(project / "events", port=0, debounce=0.2)
    watch.start()
    try:
        yield watch
    finally:
        watch.stop()


def test_watch_open_redirect_is_closed(watching: Watch) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", watching.port, timeout=10)
    try:
        connection.request("GET", "/\\evil.example/%2f..")
        answer = connection.getresponse()
        answer.read()
        location = answer.getheader("Location") or ""
    finally:
        connection.close()
    assert answer.status == 301
    assert location.startswith("/") and not location.startswith(("//", "/\\"))


def test_watch_builds_a_burst_of_saves_within_a_second(watching: Watch,
                                                       project: Path) -> None:
    builds = watching.builds
    target = str(project / "events" / STEAMROLLER / "round-3.csv")
    first = time.monotonic()
    started: list[float] = []

    def note_start() -> None:
        while not started and time.monotonic() - first < 5:
            if watching.builds > builds:
                started.append(time.monotonic())
            time.sleep(0.01)

    spy = threading.Thread(target=note_start)
    spy.start()
    while time.monotonic() - first < 2.5:  # a save every 0.1 s, for 2.5 s
        watching.notice(target)
        time.sleep(0.1)
    spy.join()
    assert started and started[0] - first < 1.0


def test_watch_holds_the_output_lock(project: Path) -> None:
    site = project / "live"
    with Watch(project / "events", port=0, output=site):
        code, text = cli("build", "events", "-o", "live")
        assert code == 2 and "another build is writing live" in text
    assert cli("build", "events", "-o", "live")[0] == 0


# ----- item 13: the installed wheel carries templates and help pages -----------------------

def test_the_wheel_builds_the_demo_site_outside_the_repository(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    made = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                           str(wheels), str(PROJECT)], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    (wheel,) = wheels.glob("standgen-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert "standgen/_data/site_templates/base.html" in names
        assert "standgen/_data/docs/index.md" in names
        archive.extractall(tmp_path / "installed")
    shutil.rmtree(PROJECT / "build", ignore_errors=True)  # pip's in-tree build folder
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "installed"), "PYTHONSAFEPATH": "1"}
    run = subprocess.run([sys.executable, "-c", (
        "import sys, standgen.build as b\n"
        "print(b.TEMPLATES)\n"
        "from standgen.cli import main\n"
        "sys.exit(main(['build', sys.argv[1], '-o', 'site']))\n"), str(PROJECT / "events")],
        capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)
    assert run.returncode == 0, run.stderr
    assert str(tmp_path / "installed") in run.stdout
    assert (tmp_path / "site" / "help" / "index.html").is_file()
    assert (tmp_path / "site" / "index.html").is_file()
