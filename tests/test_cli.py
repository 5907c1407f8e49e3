"""The commands of data contract section 2, run as a TO runs them."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from standgen.cli import main
from tests.conftest import ROUND_HEADER

PROJECT = Path(__file__).resolve().parent.parent


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def digest(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_build_writes_contract_pages_and_json(tree: Callable[..., Path], tmp_path: Path) -> None:
    root = tree({})
    out = tmp_path / "site"
    code, stdout, stderr = run("build", str(root), "-o", str(out))
    assert code == 0, stderr
    for rel in ("index.html", "ev/index.html", "ev/standings.json", "ev/round-1/index.html",
                "ev/round-1/pairings.json", "ev/round-2/index.html", "ev/round-2/pairings.json",
                "ev/players/a/index.html"):
        assert (out / rel).is_file(), rel


def test_bad_input_exits_2_lists_problems_and_leaves_output_untouched(
    tree: Callable[..., Path], tmp_path: Path
) -> None:
    root = tree({})
    out = tmp_path / "site"
    assert run("build", str(root), "-o", str(out))[0] == 0
    before = digest(out)
    (root / "ev/round-2.csv").write_text(ROUND_HEADER + "1,a,zed,1-0,,,,\n2,b,b,W,,,,\n")
    code, _, stderr = run("build", str(root), "-o", str(out))
    assert code == 2
    lines = [line for line in stderr.splitlines() if "round-2.csv:" in line]
    assert any(":2: unknown player id 'zed'" in line for line in lines)
    assert any(":3: player 'b' is on both sides" in line for line in lines)
    assert "Traceback" not in stderr
    assert digest(out) == before
    assert run("check", str(root))[0] == 2


def test_check_ok_exits_0(tree: Callable[..., Path]) -> None:
    code, stdout, _ = run("check", str(tree({})))
    assert code == 0 and "no problems" in stdout


def test_pair_writes_next_round_and_never_overwrites_results(tree: Callable[..., Path]) -> None:
    root = tree({})
    code, stdout, stderr = run("pair", str(root / "ev"), "--events", str(root))
    assert code == 0, stderr
    text = (root / "ev/round-2.csv").read_text()
    lines = text.splitlines()
    assert lines[0] == ROUND_HEADER.strip()
    assert len(lines) == 3 and all(line.split(",")[3] == "" for line in lines[1:])
    # pairing again while round 2 has no results is refused without --force
    assert run("pair", str(root / "ev"), "--events", str(root))[0] == 2
    assert run("pair", str(root / "ev"), "--events", str(root), "--force")[0] == 0
    assert (root / "ev/round-2.csv").read_text() == text  # same seed, same pairing
    # a round holding results is never overwritten
    played = text.replace(",,,,,", ",1-0,,,,", 1)
    (root / "ev/round-2.csv").write_text(played)
    code, _, stderr = run("pair", str(root / "ev"), "--events", str(root))
    assert code == 2 and "without results" in stderr
    assert (root / "ev/round-2.csv").read_text() == played


def test_new_scaffolds_an_event_that_checks(tmp_path: Path) -> None:
    target = tmp_path / "events" / "club-night"
    assert run("new", str(target), "--format", "steamroller")[0] == 0
    assert (target / "event.toml").is_file() and (target / "players.csv").is_file()
    assert run("new", str(target), "--format", "steamroller")[0] == 2  # never overwrites
    (target / "players.csv").write_text("id,name,faction\na,Ann,Cryx\nb,Bob,Cygnar\n")
    assert run("check", str(tmp_path / "events"))[0] == 0


def test_demo_events_build_byte_identical_twice_and_across_hash_seeds(tmp_path: Path) -> None:
    """Deterministic: the same events tree gives a byte-identical site."""
    outs = []
    for k, hashseed in enumerate(("0", "12345")):
        out = tmp_path / f"out{k}"
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        subprocess.run(
            [sys.executable, "-m", "standgen", "build", "events", "-o", str(out)],
            cwd=PROJECT, env=env, check=True, capture_output=True,
        )
        outs.append(digest(out))
    assert outs[0] == outs[1]
    assert "2026/spring-steamroller/round-4/pairings.json" in outs[0]


ROWS = {
    "steamroller": ["a,Ann,Cryx,,,", "b,Bob,Cygnar,,,"],
    "swiss": ["a,Ann,,,1800,", "b,Bob,,,1650,"],
    "mcmahon": ["a,Ann,,,3k,,", "b,Bob,,,1d,,"],
    "old-world": ["a,Ann,Empire,,,", "b,Bob,Orcs,,,"],
    "diplomacy": [f"p{k},P{k},,," for k in range(7)],
}


@pytest.mark.parametrize("fmt", sorted(ROWS))
def test_new_scaffolds_the_format_s_players_columns(tmp_path: Path, fmt: str) -> None:
    target = tmp_path / "events" / "night"
    assert run("new", str(target), "--format", fmt)[0] == 0
    header = (target / "players.csv").read_text().splitlines()[0]
    assert header.split(",")[:2] == ["id", "name"]
    # the scaffold ends with the event-day columns joined, byes (and dropped_after)
    assert header.endswith(",joined,byes,dropped_after")
    rows = [row + ",," for row in ROWS[fmt]]
    (target / "players.csv").write_text("\n".join([header, *rows]) + "\n")
    code, _, stderr = run("check", str(tmp_path / "events"))
    assert code == 0, stderr
    assert run("pair", str(target), "--events", str(tmp_path / "events"))[0] == 0
    assert (target / "round-1.csv").is_file()
