"""Start-up of ``standgen build`` (issue #33): a build imports what it uses. A build of
one steamroller event forks no workers, pairs no round and writes no TRF file, so it
imports neither multiprocessing, the pairing engines' matching, nor the TRF modules;
the collector is paused over the command's imports and what they made is frozen, only
with optimisations on (:func:`standgen.perf.start_up`)."""

from __future__ import annotations

import gc
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from standgen import perf

PROJECT = Path(__file__).resolve().parent.parent

_BUILD = r"""
import json, sys
from standgen import cli
sys.argv = ["standgen", "build", sys.argv[1], "-o", sys.argv[2]]
try:
    cli.main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""

NOT_IMPORTED = ("multiprocessing", "concurrent.futures", "rustworkx", "standgen.trf",
                "standgen.pairing.dutch", "standgen.commands.import_trf")


def test_a_one_event_build_imports_no_engine_workers_or_trf(tmp_path: Path) -> None:
    events = tmp_path / "events"
    shutil.copytree(PROJECT / "events" / "2026" / "spring-steamroller",
                    events / "spring-steamroller")
    done = subprocess.run([sys.executable, "-c", _BUILD, str(events), str(tmp_path / "out")],
                          cwd=PROJECT, check=True, capture_output=True, text=True)
    modules = set(json.loads(done.stdout.splitlines()[-1]))
    assert "standgen.builder.scopes" in modules  # it did build
    assert (tmp_path / "out" / "index.html").exists()
    assert not [m for m in NOT_IMPORTED if m in modules]


def test_start_up_freezes_the_collector_only_when_optimised() -> None:
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    try:
        with perf.straightforward(), perf.start_up():
            assert gc.isenabled()
        assert gc.get_freeze_count() == frozen
        with perf.start_up():
            assert not gc.isenabled()
            made = [[] for _ in range(10)]
        assert gc.isenabled()
        assert gc.get_freeze_count() >= frozen + len(made)
    finally:
        gc.unfreeze()


def test_bytecode_is_kept_where_pythondontwritebytecode_is_set(tmp_path: Path) -> None:
    # an editable install compiles every module at every run unless its bytecode is kept
    prefix = tmp_path / "pycache"
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": str(prefix)}
    subprocess.run([sys.executable, "-m", "standgen", "--help"], cwd=PROJECT, env=env,
                   check=True, capture_output=True)
    kept = {p.name.split(".")[0] for p in prefix.rglob("*.pyc")
            if "standgen" in p.parent.parts}
    assert {"cli", "errors", "perf"} <= kept
