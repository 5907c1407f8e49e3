"""``standgen build``: the events tree -> the site folder, on every core, and incrementally.

Two ways to the same bytes (``tests/test_builder.py`` compares them with the in-memory
:func:`standgen.build.render`):

- **Full build.** Events are loaded, checked, ranked and rendered one at a time in
  worker processes (one per core), each writing its pages straight into a staging
  folder, so memory holds one event's pages per worker, never the whole site. The pages
  above events (home, seasons, archive, player histories) are rendered from each event's
  small summary. Any problem anywhere: the staging folder is dropped and ``output/``
  is untouched. Otherwise the staging folder is swapped in whole (MkDocs' serve loop),
  unchanged files hard-linked from the old site so they keep their modification time.
- **Incremental build.** With a build state from the last build of the same output
  (:mod:`standgen.buildstate`) and only a few event folders changed, only those events
  are loaded and rendered, and only the pages above events that show them (home,
  archive, their season, the histories of players whose line changed) are rendered
  again. Every changed event is checked before anything is written; then the files
  whose bytes changed are replaced through a journal (:func:`standgen.output.apply_changes`):
  a page is always whole, and a build killed half-way is finished or undone by the next.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import pickle
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from standgen import perf
from standgen.audit import audit
from standgen.buildstate import (
    VERSION,
    BuildState,
    EventPath,
    Stored,
    clean_new,
    folder_fingerprint,
    folder_signature,
    iter_files,
    output_identity,
    state_file,
    tree_hash,
)
from standgen.errors import InputError, Problem, errors_only
from standgen.load import Found, find_events, load_event
from standgen.load.files import SLUG, display
from standgen.model import Event, EventsTree
from standgen.output import (
    apply_changes,
    clean_stale,
    exchange_into,
    link_same,
    place_problems,
    recover,
    writing,
)
from standgen.pipeline import report
from standgen.site.history import Appearance
from standgen.site.index_contexts import events_in
from standgen.site.renderer import SiteRenderer
from standgen.site.summary import EventSummary, summarise

Progress = Callable[[str, int, int], None]  # (stage, done, total) -> None
INCREMENTAL_LIMIT = 8  # more changed event folders than this: a full (parallel) build
REMOVE_LATER = 4096  # files: a full build's old site this large is removed in the background


@dataclass(frozen=True)
class Built:
    """What a build did."""

    events: int
    warnings: tuple[Problem, ...]
    incremental: bool
    rebuilt: int  # events loaded and rendered
    written: int  # files written (the rest are unchanged)
    # with ``track``: the files written or removed (``standgen watch`` reloads on them)
    changed: tuple[str, ...] = ()


def build(
    events: Path, output: Path, docs: Path, templates: Path,
    progress: Progress | None = None, full: bool = False, jobs: int | None = None,
) -> Built:
    """Build the site of ``events`` into ``output``; raise InputError (nothing written) on
    any problem. ``full`` ignores the build state; ``jobs`` caps the worker processes."""
    refused = place_problems(output, (events, docs, templates))
    if refused:
        raise InputError(refused)
    with writing(output):
        return build_held(events, output, docs, templates, progress, full, jobs)


def build_held(
    events: Path, output: Path, docs: Path, templates: Path,
    progress: Progress | None = None, full: bool = False, jobs: int | None = None,
    track: bool = False,
) -> Built:
    """Build as :func:`build` does, for a caller that has checked the place of ``output``
    and holds its writing lock (``standgen watch`` holds it while it runs, and builds
    here into the folder it serves, as MkDocs' ``serve`` calls its ``build``).

    ``track`` fills :attr:`Built.changed` with the files written or removed; it renders
    in this process only (``jobs`` 1: no fork of a process running threads).
    """
    # this process keeps what it makes (every event's summary, for the pages above the
    # events): collections would walk it again and again while the workers need the CPU
    with perf.collector_paused():
        return _build(events, output, docs, templates, progress, full,
                      1 if track else jobs, track)


def _build(
    events: Path, output: Path, docs: Path, templates: Path,
    progress: Progress | None, full: bool, jobs: int | None, track: bool,
) -> Built:
    output = output.absolute()
    if output.parent.is_dir():  # what killed builds left: staging folders, a journal
        clean_stale(output.parent, output.name)
        clean_new(output)
        recover(output)
    found = find_events(events)
    key = _global_key(found, events, docs, templates)
    optimised = perf.enabled()
    renderer = SiteRenderer(EventsTree(root=display(events), events=(), seasons=found.seasons,
                                       site=found.site), docs, templates, fast=optimised)
    now = time.time_ns()
    signatures = {slugs: folder_signature(folder, now) if optimised else ""
                  for folder, slugs in found.folders}
    stored, stored_signatures = (_stored(output, key) if optimised and not full
                                 else (None, {}))
    # a folder whose files' signature is the last build's keeps its fingerprint unread
    prints = [stored[slugs].fingerprint
              if stored is not None and slugs in stored and signatures[slugs]
              and stored_signatures.get(slugs) == signatures[slugs]
              else folder_fingerprint(folder)
              for folder, slugs in found.folders]
    if stored is not None:
        changed = [k for k, (_, slugs) in enumerate(found.folders)
                   if slugs not in stored or stored[slugs].fingerprint != prints[k]]
        present = {slugs for _, slugs in found.folders}
        removed = [path for path in stored if path not in present]
        if len(changed) + len(removed) <= INCREMENTAL_LIMIT:
            return _incremental(found, prints, stored, changed, removed, output, renderer,
                                key, progress, signatures)
    return _full(found, prints, output, renderer, key, progress,
                 jobs if jobs is not None else (_cores() if optimised else 1), optimised,
                 signatures, track)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _global_key(found: Found, events: Path, docs: Path, templates: Path) -> str:
    """Return the key over everything an event's pages depend on besides its own folder."""
    import hashlib

    digest = hashlib.sha256(VERSION.encode())
    package = Path(__file__).resolve().parent
    for part in (tree_hash(package, (".py",)), tree_hash(docs), tree_hash(templates)):
        digest.update(part.encode())
    # problems and seasons name files as the events folder was given (events/... or an
    # absolute path): a build spelling it differently starts afresh
    digest.update(repr((display(events), found.seasons, found.site)).encode())
    digest.update(os.environ.get("SOURCE_DATE_EPOCH", "").encode())
    return digest.hexdigest()


def _stored(output: Path, key: str
            ) -> tuple[dict[EventPath, Stored] | None, dict[EventPath, str]]:
    """Return the stored events and folder signatures when the state describes this
    output and key, else (None, {})."""
    path = state_file(output)
    if not path.is_file() or not output.is_dir():
        return None, {}
    try:
        state = BuildState.open(path)
        try:
            if (state.meta("version") != VERSION or state.meta("key") != key
                    or state.meta("output") != output_identity(output)):
                return None, {}
            return state.events(), state.signatures()
        finally:
            state.close()
    except (sqlite3.Error, OSError, pickle.UnpicklingError, EOFError):
        return None, {}  # a damaged state file: a full build writes a new one


# ----- one event: load, check, rank, render, write --------------------------------------

def _load(folder: Path, slugs: EventPath, problems: list[Problem], root: Path
          ) -> Event | None:
    """Return the event in ``folder`` as :func:`load_event` does, adding the warnings of
    :func:`standgen.audit.audit` (rematches, byes, empty stats) to ``problems``."""
    event = load_event(folder, slugs, problems, root)
    if event is not None and not errors_only(problems):
        problems.extend(audit(event))
    return event


@dataclass(frozen=True)
class EventDone:
    """What building one event folder gave."""

    index: int
    problems: tuple[Problem, ...]
    summary: EventSummary | None  # None when the event has errors
    written: int
    files: int = 0  # files the event has (written, or linked unchanged)


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
    return EventDone(index, tuple(problems), summarise(made), written, writer.files - before)


# ----- full build -------------------------------------------------------------------------

def _full(
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
        if progress is not None:
            progress("writing", 0, 1)
        if track and output.is_dir():  # the files the new site no longer has
            writer.changed.extend(rel for rel in iter_files(output) if rel not in writer.seen)
        _invalidate(output)
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
        after += _save(output, key, [(prints[r.index], r.summary, r.problems) for r in results
                                     if r.summary is not None], (), full=True,
                       signatures=signatures)
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


# ----- incremental build ------------------------------------------------------------------

def _incremental(
    found: Found, prints: Sequence[str], stored: Mapping[EventPath, Stored],
    changed: Sequence[int], removed: Sequence[EventPath], output: Path,
    renderer: SiteRenderer, key: str, progress: Progress | None,
    signatures: Mapping[EventPath, str],
) -> Built:
    root = Path(renderer.site.tree.root)
    per_event: list[Sequence[Problem]] = []
    loaded = {}
    for k, (folder, slugs) in enumerate(found.folders):
        if k in changed:
            problems: list[Problem] = []
            event = _load(folder, slugs, problems, root)
            per_event.append(problems)
            if event is not None and not errors_only(problems):
                loaded[k] = (event, tuple(problems))
        else:
            per_event.append(stored[slugs].warnings)
    problems = found.all_problems(per_event)
    if errors_only(problems):
        raise InputError(problems)  # nothing written yet
    writer = _Changes(output)
    fresh: dict[EventPath, EventSummary] = {}
    for count, (_, (event, _)) in enumerate(sorted(loaded.items()), start=1):
        made = report(event)
        writer.replace_folder(event.path, renderer.event_files(made))
        fresh[event.path] = summarise(made)
        if progress is not None:
            progress("events", count, len(loaded))
    for path in removed:
        writer.remove_folder(path)
    state = BuildState.open(state_file(output))
    try:
        heads = [fresh.get(slugs) or stored[slugs].head for _, slugs in found.folders]
        # a season page shows its events' heads, rankings and faction results: an event
        # whose three are as the state has them leaves its season's page as it is
        parts = state.season_parts(path for path in fresh if path in stored)
        touched = set(removed) | {
            path for path, summary in fresh.items()
            if path not in stored or stored[path].head != summary.head()
            or parts.get(path) != (summary.ranking, summary.factions)}
        seasons = [s for s in found.seasons if any(_below(p, s.path) for p in touched)]
        # home and archive read only each event's head: unchanged heads, unchanged pages
        lists = bool(removed) or any(path not in stored or stored[path].head != summary.head()
                                     for path, summary in fresh.items())
        writer.write(renderer.index_files(_with_seasons(state, heads, seasons, fresh),
                                          {s.path for s in seasons}, lists))
        affected = _affected_players(state, stored, fresh, removed)
        writer.write(_histories(renderer, state, heads, fresh, affected, writer))
        state.invalidate()  # the site is about to change: the state is stale until saved
    finally:
        state.close()
    written = writer.commit()
    changes = tuple(sorted(writer.writes.keys() | writer.removes))
    after = _save(output, key, [(prints[k], fresh[event.path], warnings)
                                for k, (event, warnings) in loaded.items()], removed,
                  full=False, signatures=signatures)
    if progress is not None:
        progress("done", 1, 1)
    warnings = tuple(p for p in problems if p.warning) + tuple(after)
    return Built(len(found.folders), warnings, True, len(loaded), written, changes)


def _below(path: EventPath, folder: EventPath) -> bool:
    return len(path) > len(folder) and path[: len(folder)] == folder


def _with_seasons(
    state: BuildState, heads: Sequence[EventSummary], seasons: Sequence[Any],
    fresh: Mapping[EventPath, EventSummary],
) -> list[EventSummary]:
    """Return the heads, with the ranking and factions filled in for the events of
    ``seasons`` (the season pages to render again); other seasons are left out of
    :meth:`SiteRenderer.index_files` by the caller's filter."""
    wanted = {h.path for s in seasons for h in events_in(s, heads)}
    parts = state.season_parts(p for p in wanted if p not in fresh)
    full = []
    for head in heads:
        if head.path in fresh:
            full.append(fresh[head.path])
        elif head.path in parts:
            ranking, factions = parts[head.path]
            full.append(replace(head, ranking=ranking, factions=factions))  # type: ignore[arg-type]
        else:
            full.append(head)
    return full


def _affected_players(
    state: BuildState, stored: Mapping[EventPath, Stored],
    fresh: Mapping[EventPath, EventSummary], removed: Sequence[EventPath],
) -> set[str]:
    """Return the players whose history page may show something new."""
    affected: set[str] = set()
    for path, summary in fresh.items():
        old = stored.get(path)
        old_lines = state.lines_in(path)
        same_head = old is not None and _history_head(old.head) == _history_head(summary)
        new_lines = {line.id: line for line in summary.players}
        for pid in set(old_lines) | set(new_lines):
            if not same_head or old_lines.get(pid) != new_lines.get(pid):
                affected.add(pid)
    for path in removed:
        affected.update(state.lines_in(path))
    return affected


def _history_head(head: EventSummary) -> tuple[object, ...]:
    return (head.config.name, head.config.date, head.field)


def _histories(
    renderer: SiteRenderer, state: BuildState, heads: Sequence[EventSummary],
    fresh: Mapping[EventPath, EventSummary], affected: set[str], writer: _Changes,
) -> list[tuple[str, bytes]]:
    """Return the ``PLAYER`` pages of ``affected`` players; remove those left without events."""
    head_of = {h.path: h for h in heads}
    files: list[tuple[str, bytes]] = []
    for pid in sorted(affected):
        lines = {p: line for p, line in state.lines_of(pid).items()
                 if p in head_of and p not in fresh}
        for path, summary in fresh.items():
            for line in summary.players:
                if line.id == pid:
                    lines[path] = line
        appearances: list[Appearance] = [(head_of[p], line) for p, line in lines.items()]
        if not appearances:
            for rel in renderer.player_paths(pid):
                writer.remove_file(rel)
            continue
        files.extend(renderer.player_files(pid, appearances))
    return files


class _Changes:
    """The changes to the live site an incremental build makes: files whose bytes differ
    and files to remove, applied together at the end (:func:`standgen.output.apply_changes`)."""

    def __init__(self, output: Path) -> None:
        self.output = output
        self.writes: dict[str, bytes] = {}
        self.removes: set[str] = set()

    def write(self, files: Iterable[tuple[str, bytes]]) -> set[str]:
        wrote: set[str] = set()
        for rel, data in files:
            if rel in wrote or rel in self.writes:
                raise ValueError(f"two outputs at {rel}")
            wrote.add(rel)
            target = self.output / rel
            try:
                if target.stat().st_size == len(data) and target.read_bytes() == data:
                    continue
            except OSError:
                pass
            self.writes[rel] = data
        return wrote

    def replace_folder(self, path: EventPath, files: Iterable[tuple[str, bytes]]) -> None:
        """Write an event's files; remove the files of its folder it no longer has."""
        kept = self.write(files)
        prefix = "/".join(path) + "/"
        for rel in iter_files(self.output.joinpath(*_safe(path))):
            if prefix + rel not in kept:
                self.removes.add(prefix + rel)

    def remove_folder(self, path: EventPath) -> None:
        prefix = "/".join(path) + "/"
        self.removes.update(prefix + rel for rel in iter_files(self.output.joinpath(*_safe(path))))

    def remove_file(self, rel: str) -> None:
        if (self.output / rel).is_file():
            self.removes.add(rel)

    def commit(self) -> int:
        return apply_changes(self.output, self.writes, self.removes)


def _safe(path: EventPath) -> EventPath:
    if not path or not all(SLUG.match(part) for part in path):
        raise ValueError(f"not an event path: {path!r}")
    return path


def _invalidate(output: Path) -> None:
    """Mark an existing build state stale before the output folder changes."""
    path = state_file(output)
    if path.is_file():
        state = BuildState.open(path)
        try:
            state.invalidate()
        finally:
            state.close()


def _save(
    output: Path, key: str, put: Sequence[tuple[str, EventSummary | None, Sequence[Problem]]],
    remove: Iterable[EventPath], full: bool, signatures: Mapping[EventPath, str],
) -> list[Problem]:
    """Record the build in the state file (a full build writes a new one); return a
    warning when that failed: it only costs the next build its speed (the state was
    marked stale before the site changed, so the next build is a full one)."""
    try:
        _save_state(output, key, put, remove, full, signatures)
    except (OSError, sqlite3.Error) as exc:
        return [Problem(display(state_file(output)), 1, f"the build state could not be saved "
                        f"({exc}); the next build is a full one", warning=True)]
    return []


def _save_state(
    output: Path, key: str, put: Sequence[tuple[str, EventSummary | None, Sequence[Problem]]],
    remove: Iterable[EventPath], full: bool, signatures: Mapping[EventPath, str],
) -> None:

    def write(state: BuildState) -> None:
        state.save({"version": VERSION, "key": key, "output": output_identity(output)},
                   [(fp, s, tuple(p for p in w if p.warning)) for fp, s, w in put
                    if s is not None], remove, full, signatures)

    if full:
        BuildState.replace(state_file(output), write)
        return
    state = BuildState.open(state_file(output))
    try:
        write(state)
    finally:
        state.close()
