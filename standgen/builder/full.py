"""The full build: every event on every core, into a staging folder swapped in whole."""

from __future__ import annotations

import gc
import multiprocessing
import os
import shutil
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from standgen import perf
from standgen.audit import audit
from standgen.builder.record import Built, Progress, invalidate, save
from standgen.buildstate import (
    EventPath,
    iter_files,
)
from standgen.clubs.games import EventGames, event_games
from standgen.clubs.summary import ClubTables
from standgen.errors import InputError, Problem, errors_only
from standgen.load import Found, load_event
from standgen.load.files import display
from standgen.output import (
    clean_stale,
    exchange_into,
    link_same,
)
from standgen.pipeline import report
from standgen.site.renderer import SiteRenderer
from standgen.site.summary import EventSummary, summarise

REMOVE_LATER = 4096  # files: a full build's old site this large is removed in the background


@dataclass(frozen=True)
class EventDone:
    """What building one event folder gave."""

    index: int
    problems: tuple[Problem, ...]
    summary: EventSummary | None  # None when the event has errors
    written: int
    files: int = 0  # files the event has (written, or linked unchanged)
    games: EventGames | None = None  # its part of the club's games table (issue #20)


_JOB: dict[str, Any] = {}  # set before the workers fork: what every event job reads


def _event_job(index: int) -> EventDone:
    """Load, check, rank and render event folder ``index``; write its files.

    The garbage collector is paused meanwhile: an event's objects live until its last
    page is written and then die together (reference counting frees them), so the
    collections an event's allocations would trigger only walk live objects again and
    again (a tenth of an archive build's time).
    """
    with perf.collector_paused():
        done = _event(index)
    if perf.enabled():
        # a worker forked from the paused parent never collects by itself: free the
        # reference cycles this event left (what survives it is small)
        gc.collect(0)
    return done


def _event(index: int) -> EventDone:
    found: Found = _JOB["found"]
    folder, slugs = found.folders[index]
    problems: list[Problem] = []
    event = load_event(folder, slugs, problems, _JOB["root"])
    if event is None or errors_only(problems):
        return EventDone(index, tuple(problems), None, 0)
    made = report(event)
    problems.extend(audit(event, made.by_round))
    renderer: SiteRenderer = _JOB["renderer"]
    writer: _StagingWriter = _JOB["writer"]
    before = writer.files
    written = writer.write(renderer.event_files(made))
    return EventDone(index, tuple(problems), summarise(made), written, writer.files - before,
                     event_games(made, found.seasons))


# ----- full build -------------------------------------------------------------------------


def full_build(
    found: Found, prints: Sequence[str], output: Path, renderer: SiteRenderer, key: str,
    progress: Progress | None, jobs: int, optimised: bool, signatures: Mapping[EventPath, str],
    track: bool = False,
) -> Built:
    parent = output.parent
    parent.mkdir(parents=True, exist_ok=True)
    clean_stale(parent, output.name)
    staging = parent / f".{output.name}.tmp-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    previous = output if output.is_dir() and optimised else None
    writer = _StagingWriter(staging, previous, track)
    try:
        _JOB.update(found=found, root=Path(renderer.site.tree.root), renderer=renderer,
                    writer=writer)
        total = len(found.folders)
        done: list[EventDone | None] = [None] * total
        if jobs > 1 and total > 1:
            renderer.preload()
            context = multiprocessing.get_context("fork")
            # the workers' collections leave the objects they share with this process
            # alone (no copy-on-write of their pages; Python's gc.freeze documentation)
            gc.freeze()
            with ProcessPoolExecutor(max_workers=min(jobs, total), mp_context=context) as pool:
                futures: list[Future[EventDone]] = [pool.submit(_event_job, k)
                                                    for k in range(total)]
                gc.unfreeze()  # the workers have forked (at the first submit)
                writer.write(renderer.help_files())  # meanwhile, in this process
                for count, future in enumerate(futures, start=1):
                    result = future.result()
                    done[result.index] = result
                    writer.written += result.written
                    writer.files += result.files
                    if progress is not None:
                        progress("events", count, total)
        else:
            for k in range(total):
                result = _event_job(k)
                done[k] = result
                if progress is not None:
                    progress("events", k + 1, total)
            writer.write(renderer.help_files())
        results = [r for r in done if r is not None]
        problems = found.all_problems([r.problems for r in results])
        if errors_only(problems):
            raise InputError(problems)
        summaries = [r.summary for r in results if r.summary is not None]
        if progress is not None:
            progress("pages", 0, 1)
        _pages_above_events(renderer, writer, summaries, jobs)
        parts = [r.games for r in results if r.games is not None]
        tables = ClubTables(parts, optimised) if optimised else None
        club = dict(renderer.club_files(parts, tables))
        writer.write(club.items())
        if progress is not None:
            progress("writing", 0, 1)
        if track and output.is_dir():  # the files the new site no longer has
            writer.changed.extend(rel for rel in iter_files(output) if rel not in writer.seen)
        invalidate(output)
        removed = exchange_into(staging, output,
                                background=optimised and writer.files >= REMOVE_LATER)
    finally:
        _JOB.clear()
        shutil.rmtree(staging, ignore_errors=True)
    after: list[Problem] = []
    if not removed:
        after.append(Problem(display(output), 1, "the new site is in place, but the old one "
                             f"could not be deleted from {display(output.parent)}; the next "
                             "build deletes it", warning=True))
    if optimised:
        after += save(output, key, [(prints[r.index], r.summary, r.problems) for r in results
                                     if r.summary is not None], (), full=True,
                       signatures=signatures,
                       games={r.games.path: r.games for r in results if r.games is not None},
                       club=club, kept=None if tables is None else tables.kept_state())
    if progress is not None:
        progress("done", 1, 1)
    warnings = tuple(p for p in problems if p.warning) + tuple(after)
    return Built(len(summaries), warnings, False, len(summaries), writer.written,
                 tuple(sorted(writer.changed)))


PARALLEL_HISTORIES = 64  # fewer players' histories are not worth forking for


def _pages_above_events(
    renderer: SiteRenderer, writer: _StagingWriter, summaries: Sequence[EventSummary],
    jobs: int,
) -> None:
    """Write home, seasons, archive and every history page; with ``jobs`` > 1 the
    history pages (a club's regulars have hundreds of events each) are rendered by
    forked workers, a share of the players each, while this process renders the rest."""
    players = sorted({line.id for summary in summaries for line in summary.players})
    if jobs < 2 or len(players) < PARALLEL_HISTORIES:
        writer.write(renderer.index_files(summaries))
        writer.write(renderer.history_files(summaries))
        return
    _JOB.update(summaries=summaries)
    shares = [players[k::jobs * 4] for k in range(jobs * 4)]
    context = multiprocessing.get_context("fork")
    gc.freeze()
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = [pool.submit(_history_job, share) for share in shares]
        gc.unfreeze()  # the workers have forked
        writer.write(renderer.index_files(summaries))  # meanwhile, in this process
        for future in futures:
            written, files = future.result()
            writer.written += written
            writer.files += files


def _history_job(players: Sequence[str]) -> tuple[int, int]:
    """Render and write the history pages of ``players`` (in a worker); return how many
    files were written and how many there are."""
    renderer: SiteRenderer = _JOB["renderer"]
    writer: _StagingWriter = _JOB["writer"]
    before = writer.files
    written = writer.write(renderer.history_files(_JOB["summaries"], set(players)))
    return written, writer.files - before


class _StagingWriter:
    """Writes files into the staging folder, linking those unchanged in the old site."""

    def __init__(self, staging: Path, previous: Path | None, track: bool = False) -> None:
        self.staging = staging
        self.previous = previous
        self.track = track
        self.changed: list[str] = []  # with ``track``: the files written
        self.made: set[Path] = set()
        self.seen: set[str] = set()
        self.written = 0
        self.files = 0  # written or linked, here and (when added up) in the workers

    def write(self, files: Iterable[tuple[str, bytes]]) -> int:
        count = 0
        for rel, data in files:
            if rel in self.seen:
                raise ValueError(f"two outputs at {rel}")
            self.seen.add(rel)
            self.files += 1
            target = self.staging / rel
            if target.parent not in self.made:
                target.parent.mkdir(parents=True, exist_ok=True)
                self.made.add(target.parent)
            if target.exists():
                raise ValueError(f"two outputs at {rel}")
            if self.previous is not None and link_same(self.previous / rel, target, data):
                continue
            target.write_bytes(data)
            count += 1
            if self.track:
                self.changed.append(rel)
        self.written += count
        return count


