"""What a build did (:class:`Built`) and what it records in the build state."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from standgen.buildstate import (
    VERSION,
    BuildState,
    EventPath,
    output_identity,
    state_file,
)
from standgen.clubs.summary import ClubKept
from standgen.errors import Problem
from standgen.load.files import display
from standgen.site.summary import EventSummary

Progress = Callable[[str, int, int], None]  # (stage, done, total) -> None


@dataclass(frozen=True)
class Built:
    """What a build did."""

    events: int
    warnings: tuple[Problem, ...]
    incremental: bool
    rebuilt: int  # events loaded and rendered
    written: int  # files written (the rest are unchanged)
    # the files written or removed (``standgen watch`` reloads on them): always for an
    # incremental build, for a full one with ``track``
    changed: tuple[str, ...] = ()


def invalidate(output: Path) -> None:
    """Mark an existing build state stale before the output folder changes."""
    path = state_file(output)
    if path.is_file():
        state = BuildState.open(path)
        try:
            state.invalidate()
        finally:
            state.close()


def save(
    output: Path, key: str, put: Sequence[tuple[str, EventSummary | None, Sequence[Problem]]],
    remove: Iterable[EventPath], full: bool, signatures: Mapping[EventPath, str],
    games: Mapping[EventPath, object] | None = None, club: Iterable[str] | None = None,
    kept: ClubKept | None = None,
) -> list[Problem]:
    """Record the build in the state file (a full build writes a new one); return a
    warning when that failed: it only costs the next build its speed (the state was
    marked stale before the site changed, so the next build is a full one)."""
    try:
        _save_state(output, key, put, remove, full, signatures, games, club, kept)
    except (OSError, sqlite3.Error) as exc:
        return [Problem(display(state_file(output)), 1, f"the build state could not be saved "
                        f"({exc}); the next build is a full one", warning=True)]
    return []


def _save_state(
    output: Path, key: str, put: Sequence[tuple[str, EventSummary | None, Sequence[Problem]]],
    remove: Iterable[EventPath], full: bool, signatures: Mapping[EventPath, str],
    games: Mapping[EventPath, object] | None = None, club: Iterable[str] | None = None,
    kept: ClubKept | None = None,
) -> None:

    def write(state: BuildState) -> None:
        state.save({"version": VERSION, "key": key, "output": output_identity(output)},
                   [(fp, s, tuple(p for p in w if p.warning)) for fp, s, w in put
                    if s is not None], remove, full, signatures, games, club, kept)

    if full:
        BuildState.replace(state_file(output), write)
        return
    state = BuildState.open(state_file(output))
    try:
        write(state)
    finally:
        state.close()
