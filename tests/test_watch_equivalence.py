"""``standgen watch`` builds what ``standgen build`` builds: the same function, the same bytes.

The watcher builds into the folder it serves with :func:`standgen.builder.build_held`;
the banner and the reload script are added to pages as they are served, never on disk.
Here the demo events are watched, one event is changed (an incremental build under
watch), and the served folder is compared, file by file, with a full ``standgen build``
of the same events.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from standgen import build as lib
from standgen.watch import Watch

PROJECT = Path(__file__).resolve().parent.parent
STEAMROLLER = Path("2026", "spring-steamroller")


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def until(condition: Callable[[], object], timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


def test_watch_serves_the_bytes_standgen_build_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")
    events = tmp_path / "events"
    shutil.copytree(PROJECT / "events", events)
    with Watch(events, port=0, output=tmp_path / "served", debounce=0.05) as watch:
        assert not watch.problems and watch.has_site
        lib.build(events, tmp_path / "built")
        assert files_of(watch.output) == files_of(tmp_path / "built")
        computed, generation = watch.reports_computed, watch.generation
        toml = events / STEAMROLLER / "event.toml"
        text = toml.read_text().replace('name = "', 'name = "Renamed ', 1)
        tmp = toml.with_name(".event.toml.swp")
        tmp.write_text(text)
        os.replace(tmp, toml)
        until(lambda: watch.generation != generation and not watch.pending
              and not watch.building)
        assert watch.reports_computed == computed + 1  # only that event, incrementally
        assert watch.last_written
        lib.build(events, tmp_path / "again", full=True)
        assert files_of(watch.output) == files_of(tmp_path / "again")
