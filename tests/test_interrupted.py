"""Interrupted builds (issue 9.4): ``output/`` is always the old site or the new one.

``standgen build`` runs as a real process on a synthetic event big enough to take about
a second, and is killed with SIGKILL after a seeded random delay. After every kill of a
full build the output folder must hold exactly the old site or exactly the new, complete
site (same file hashes). An incremental build changes a few pages in place through a
journal: after its kill, once the journal is recovered (what the next build does first),
the folder is again exactly the old or the new site. The next complete build succeeds
and leaves no staging folder or journal behind.
Each build runs under its own ``PYTHONHASHSEED``, so every completed build is also a
determinism check against the reference site.
"""

from __future__ import annotations

import hashlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from standgen import output
from tests.test_properties import play_event

KILLS = 20
PROJECT = Path(__file__).resolve().parent.parent


def digest(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def start_build(root: Path, out: Path, hashseed: int,
                full: bool = False) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONHASHSEED": str(hashseed)}
    return subprocess.Popen([sys.executable, "-m", "standgen", "build", str(root), "-o",
                             str(out), *(["--full"] if full else [])], cwd=PROJECT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def build(root: Path, out: Path, hashseed: int) -> float:
    began = time.monotonic()
    proc = start_build(root, out, hashseed)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()
    return time.monotonic() - began


def leftovers(out: Path) -> list[str]:
    """Return what a build left next to ``out`` besides its build state."""
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.")
                  and p.name != f".{out.name}.standgen-state.sqlite")


def wait_for_writing(out: Path, proc: subprocess.Popen[bytes]) -> None:
    """Return as soon as the build's staging folder or journal exists (or the build ended)."""
    marks = {f".{out.name}.tmp-{proc.pid}", f".{out.name}.standgen-journal"}
    while proc.poll() is None:
        if marks & set(leftovers(out)):
            return
        time.sleep(0.0005)


def test_sigkill_at_random_moments_leaves_the_old_or_the_new_site(tmp_path: Path) -> None:
    rng = random.Random(9)
    root = tmp_path / "events"
    folder = play_event(root, "steamroller", 30, 4, seed=2026)
    last = folder / "round-4.csv"
    texts = {"old": last.read_text()}
    texts["new"] = texts["old"].replace(",1-0,", ",0-1,", 1)
    assert texts["new"] != texts["old"]
    sites: dict[str, dict[str, str]] = {}
    durations = []
    for name in ("old", "new"):
        last.write_text(texts[name])
        durations.append(build(root, tmp_path / f"ref-{name}", hashseed=rng.randrange(2**32)))
        sites[name] = digest(tmp_path / f"ref-{name}")
    assert sites["old"] != sites["new"] and len(sites["new"]) > 100
    out = tmp_path / "output"
    last.write_text(texts["old"])
    durations.append(build(root, out, hashseed=rng.randrange(2**32)))
    assert digest(out) == sites["old"]
    typical = sorted(durations)[1]
    current, outcomes = "old", {"old": 0, "new": 0, "finished": 0, "while writing": 0}
    for kill in range(KILLS):
        target = "new" if current == "old" else "old"
        last.write_text(texts[target])
        full = kill % 4 < 2  # two full builds, then two incremental ones
        proc = start_build(root, out, hashseed=rng.randrange(2**32), full=full)
        if kill % 2:
            time.sleep(rng.uniform(0.3, 1.05) * typical)  # anywhere in the build
        else:  # while the site is written: once the staging folder or journal appears
            wait_for_writing(out, proc)
            time.sleep(rng.uniform(0, 0.06 if full else 0.003))
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
        if proc.returncode == 0:
            outcomes["finished"] += 1
        left = set(leftovers(out))
        if full:  # a full build swaps the site whole: no recovery needed
            assert f".{out.name}.standgen-journal" not in left
            assert digest(out) in (sites[current], sites[target]), "output/ is neither site"
        output.recover(out)  # what the next build does first
        now = digest(out)
        assert now in (sites[current], sites[target]), "output/ is neither site"
        state = "old" if now == sites[current] else "new"
        if left & {f".{out.name}.tmp-{proc.pid}", f".{out.name}.standgen-journal"}:
            outcomes["while writing"] += 1  # its staging folder or journal was left behind
        outcomes[state] += 1
        current = target if state == "new" else current
    last.write_text(texts["new"])
    build(root, out, hashseed=rng.randrange(2**32))
    assert digest(out) == sites["new"]
    assert leftovers(out) == []
    print(f"{KILLS} kills: {outcomes}")
    assert outcomes["old"] + outcomes["new"] == KILLS
    assert outcomes["old"] > 0  # some kills really landed inside a build
    assert outcomes["while writing"] > 0  # and some while the new site was being written


def test_recovery_when_killed_between_the_two_renames(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without RENAME_EXCHANGE the swap is two renames; a crash between them leaves
    ``.output.old-PID`` and no output: the next publish puts the old site back first."""
    out = tmp_path / "output"
    output.publish({"index.html": b"old"}, out)
    monkeypatch.setattr(output, "_exchange", lambda a, b: False)
    real_replace = os.replace
    calls = []

    def crash_on_second(src: object, dst: object) -> None:
        calls.append(src)
        if len(calls) == 2:
            raise KeyboardInterrupt  # stands in for the kill: nothing after it runs
        real_replace(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(output.os, "replace", crash_on_second)
    with pytest.raises(KeyboardInterrupt):
        output.publish({"index.html": b"new"}, out)
    monkeypatch.setattr(output.os, "replace", real_replace)
    assert not out.exists() and leftovers(out) == [f".output.old-{os.getpid()}"]
    output.clean_stale(tmp_path, "output")  # what the next build does first
    assert (out / "index.html").read_bytes() == b"old" and leftovers(out) == []
    output.publish({"index.html": b"new"}, out)
    assert (out / "index.html").read_bytes() == b"new" and leftovers(out) == []


# --- standgen pair (issue 9.5): never overwrites results, atomic, refuses unfinished ---
def pair_cli(*args: str) -> tuple[int, str]:
    from click.testing import CliRunner

    from standgen.cli import main

    result = CliRunner().invoke(main, ["pair", *args])
    return result.exit_code, result.output


def test_pair_with_a_bye_can_be_repaired_and_never_overwrites_results(tmp_path: Path) -> None:
    """A freshly paired round with a BYE row holds no result the TO entered: pairing
    again is refused without --force and re-pairs the same round with it."""
    root = tmp_path / "events"
    folder = root / "five"
    folder.mkdir(parents=True)
    (folder / "event.toml").write_text('name = "Five"\ndate = 2026-03-14\nformat = "swiss"\n'
                                       "rounds = 3\n")
    (folder / "players.csv").write_text("id,name\na,A\nb,B\nc,C\nd,D\ne,E\n")
    assert pair_cli(str(folder), "--events", str(root))[0] == 0
    first = (folder / "round-1.csv").read_text()
    assert "BYE" in first
    code, text = pair_cli(str(folder), "--events", str(root))
    assert code == 2 and "already paired and has no results yet" in text
    assert pair_cli(str(folder), "--events", str(root), "--force")[0] == 0
    assert sorted(p.name for p in folder.iterdir()) == ["event.toml", "players.csv",
                                                        "round-1.csv"]
    assert (folder / "round-1.csv").read_text() == first  # same seed, same pairing
    lines = first.splitlines()
    lines[1] = lines[1] + "1-0"
    played = "\n".join(lines) + "\n"
    (folder / "round-1.csv").write_text(played)
    code, text = pair_cli(str(folder), "--events", str(root))
    assert code == 2 and "games without results" in text
    assert pair_cli(str(folder), "--events", str(root), "--force")[0] == 0
    assert (folder / "round-1.csv").read_text() == played  # results kept
    assert (folder / "round-2.csv").is_file()


def test_pair_writes_atomically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """If the write fails half-way, the round file is as before and no temporary is left."""
    target = tmp_path / "round-2.csv"
    target.write_text("old\n")

    def fail(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(output.os, "replace", fail)
    with pytest.raises(OSError):
        output.write_atomic(target, "new\n")
    assert target.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == [
        "round-2.csv"]
