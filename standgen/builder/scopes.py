"""The build's scopes: each kind of page, what it is made from, how a build tells it is
stale, and how it is made, whole or in part (issue #30 item 2).

A scope is one class here and one line in :data:`SCOPES`; its pages are the page types
of its :class:`~standgen.site.scopes.Depends` in the page registry
(:mod:`standgen.site.pages`). Full builds, incremental builds and ``standgen watch`` are
one loop over :data:`SCOPES` (:func:`build_scopes`), as Lektor's build programs declare
their artifacts: a full build calls each scope's :meth:`Scope.whole`, an incremental
build its :meth:`Scope.update`, which decides from the build state what of it is stale.

Scopes run in order; a scope that works in forked processes returns a join, and the loop
goes on with the next scopes that do not read its results meanwhile (:attr:`Scope.reads`):
the help pages are rendered while the workers build the events, the club pages while
they render the players' histories.
"""

from __future__ import annotations

import gc
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from standgen import perf
from standgen.audit import audit
from standgen.builder.forked import Forked
from standgen.builder.run import Join, Run, Scope
from standgen.builder.writers import Changes, StagingWriter
from standgen.buildstate import BuildState, EventPath
from standgen.clubs.games import EventGames, event_games
from standgen.clubs.seat_digest import keep_every
from standgen.clubs.summary import ClubTables
from standgen.errors import InputError, Problem, errors_only
from standgen.load import load_event
from standgen.model import Event, Season
from standgen.pipeline import report
from standgen.site import pages as site_pages
from standgen.site.club_pages import club_paths, club_selection
from standgen.site.history import Appearance
from standgen.site.history_splice import LineChange
from standgen.site.index_contexts import events_in
from standgen.site.player_search import SEARCH_INDEX
from standgen.site.scopes import Depends, PageType
from standgen.site.summary import EventSummary, PlayerLine, summarise

PARALLEL_HISTORIES = 64  # fewer players' histories are not worth forking for
# fewer events are made in this process: two forked workers cost a build about 0.1 CPU s
# more, which a handful of events does not win back (the demo's 6 events: 1.16 CPU s and
# 3.9 wall s forked, 1.07 and 3.3 in one process, the median of 7 each, load 7-8)
PARALLEL_EVENTS = 8

# ----- events --------------------------------------------------------------------------


@dataclass(frozen=True)
class EventDone:
    """What building one event folder gave."""

    index: int
    problems: tuple[Problem, ...]
    summary: EventSummary | None  # None when the event has errors
    written: int
    files: int = 0  # files the event has (written, or linked unchanged)
    games: EventGames | None = None  # its part of the club's games table (issue #20)


def _event_job(run: Run, index: int) -> EventDone:
    """Load, check, rank and render event folder ``index``; write its files (a full
    build, in this process or a forked worker).

    The garbage collector is paused meanwhile: an event's objects live until its last
    page is written and then die together (reference counting frees them), so the
    collections an event's allocations would trigger only walk live objects again and
    again (a tenth of an archive build's time).
    """
    with perf.collector_paused():
        done = _event(run, index)
    if perf.enabled():
        # a worker forked from the paused parent never collects by itself: free the
        # reference cycles this event left (what survives it is small)
        gc.collect(0)
    return done


def _event(run: Run, index: int) -> EventDone:
    folder, slugs = run.found.folders[index]
    problems: list[Problem] = []
    event = load_event(folder, slugs, problems, run.root)
    if event is None or errors_only(problems):
        return EventDone(index, tuple(problems), None, 0)
    made = report(event)
    problems.extend(audit(event, made.by_round))
    writer = run.writer
    assert isinstance(writer, StagingWriter)
    before = writer.files
    written = writer.write(run.renderer.event_files(made))
    return EventDone(index, tuple(problems), summarise(made), written, writer.files - before,
                     event_games(made, run.found.seasons))


class Events(Scope):
    """Each event's folder: its page, JSON, CSV, feed, downloads, round, player, team and
    bracket pages (``Depends.EVENT``). Stale when the event folder's files changed (its
    fingerprint, :func:`standgen.buildstate.folder_fingerprint`); any error in any event
    stops the build before anything is written."""

    name = "events"

    def whole(self, run: Run) -> Join | None:
        total = len(run.found.folders)
        if run.jobs > 1 and total >= max(2, PARALLEL_EVENTS):
            run.renderer.preload()
            pool = Forked(run, min(run.jobs, total))
            try:
                futures = pool.map(_event_job, range(total))
            except BaseException:
                pool.close()
                raise

            def join() -> None:
                try:
                    done = []
                    for count, future in enumerate(futures, start=1):
                        result: EventDone = future.result()
                        done.append(result)
                        assert isinstance(run.writer, StagingWriter)
                        run.writer.written += result.written
                        run.writer.files += result.files
                        run.tell("events", count, total)
                finally:
                    pool.close()
                self._take(run, done)
            return join
        done = []
        for k in range(total):
            done.append(_event_job(run, k))
            run.tell("events", k + 1, total)
        self._take(run, done)
        return None

    @staticmethod
    def _take(run: Run, done: Sequence[EventDone]) -> None:
        problems = run.found.all_problems([r.problems for r in done])
        if errors_only(problems):
            raise InputError(problems)
        run.problems = problems
        for result in done:
            if result.summary is not None:
                slugs = run.found.folders[result.index][1]
                run.summaries[slugs] = result.summary
                run.saved.append((run.prints[result.index], result.summary, result.problems))
                if result.games is not None:
                    run.games[result.games.path] = result.games

    def update(self, run: Run) -> None:
        """Load, check and rank the changed events; with :attr:`Run.early` (``standgen
        watch``), put the page and ``pairings.json`` of the rounds written, and the
        event's ``standings.json``, in place before the event's other pages are made."""
        per_event: list[list[Problem]] = []
        loaded: dict[int, Event] = {}
        for k, (folder, slugs) in enumerate(run.found.folders):
            if k in run.changed:
                problems: list[Problem] = []
                event = load_event(folder, slugs, problems, run.root)
                if event is not None and not errors_only(problems):
                    loaded[k] = event
            else:
                problems = list(run.stored[slugs].warnings)
            per_event.append(problems)
        if errors_only(run.found.all_problems(per_event)):
            for k, event in loaded.items():  # the warnings a full build gives beside
                per_event[k].extend(audit(event))
            raise InputError(run.found.all_problems(per_event))  # nothing written yet
        made = {}
        for k, event in sorted(loaded.items()):
            made[k] = report(event)  # the standings after each round, shared with audit
            per_event[k].extend(audit(event, made[k].by_round))
        run.problems = run.found.all_problems(per_event)
        writer = run.writer
        assert isinstance(writer, Changes)
        early = run.early is not None and bool(made)
        parts = {k: run.renderer.event_parts(m, _first_rounds(m.event, run.touched))
                 if early else ((), run.renderer.event_files(m)) for k, m in made.items()}
        first = {k: writer.write(part) for k, (part, _) in parts.items()}
        if early and run.early is not None:
            run.early()
        for count, (k, (_, rest)) in enumerate(sorted(parts.items()), start=1):
            path = made[k].event.path
            writer.replace_folder(path, rest, first[k])
            run.summaries[path] = summarise(made[k])
            run.games[path] = event_games(made[k], run.found.seasons)
            run.saved.append((run.prints[k], run.summaries[path], tuple(per_event[k])))
            run.tell("events", count, len(made))
        for path in run.removed:
            writer.remove_folder(path)


def _first_rounds(event: Event, touched: Collection[Path]) -> set[int]:
    """Return the rounds whose pages a build under ``standgen watch`` puts in place
    first: those whose file is among ``touched`` (the desk's write), else the newest."""
    written = {rnd.number for rnd in event.rounds
               if Path(rnd.source.path).absolute() in touched}
    return written or ({event.rounds[-1].number} if event.rounds else set())


# ----- help ----------------------------------------------------------------------------


class Help(Scope):
    """The help pages (``docs/``) and the assets (``Depends.HELP``). Never stale in an
    incremental build: the help, the templates and standgen's code are in the build
    state's key, so a change to them makes the next build a full one."""

    name = "help"

    def whole(self, run: Run) -> Join | None:
        run.writer.write(run.renderer.help_files())
        return None

    def update(self, run: Run) -> None:
        return None


# ----- home and archive ------------------------------------------------------------------


class Lists(Scope):
    """Home and archive (``Depends.SITE``): they read each event's head only
    (:meth:`EventSummary.head`), so they are stale when an event is added or removed
    or its head changed."""

    name = "lists"
    reads = frozenset({"events"})

    def whole(self, run: Run) -> Join | None:
        run.writer.write(run.renderer.list_files(list(run.summaries.values())))
        return None

    def update(self, run: Run) -> None:
        stale = self.stale(run)
        if stale:
            run.writer.write(run.renderer.list_files(run.heads(), stale))

    @staticmethod
    def stale(run: Run) -> set[str]:
        """Return the ``SITE`` page types to make again: every one when an event came or
        went; else those that read something of a changed event's head that changed
        (``PageType.reads``: all of the head, when it does not say)."""
        types = site_pages.of(Depends.SITE)
        stored = run.stored
        if run.removed or any(path not in stored for path in run.summaries):
            return {page_type.name for page_type in types}
        changed = [(stored[path].head, summary.head()) for path, summary in run.summaries.items()
                   if stored[path].head != summary.head()]
        return {page_type.name for page_type in types
                if any(_reads_changed(page_type, was, now) for was, now in changed)}


def _reads_changed(page_type: PageType, was: EventSummary, now: EventSummary) -> bool:
    """Return whether what ``page_type`` reads of an event's head changed."""
    if page_type.reads is None:
        return was != now
    return page_type.reads(was) != page_type.reads(now)


# ----- seasons ----------------------------------------------------------------------------


class Seasons(Scope):
    """Each season's page (``Depends.SEASON``): its events' heads, rankings and faction
    results. A season is stale when one of its events was added or removed, or changed
    its head, ranking or faction results (the state keeps the last two per event)."""

    name = "seasons"
    reads = frozenset({"events"})

    def whole(self, run: Run) -> Join | None:
        run.writer.write(run.renderer.season_files(list(run.summaries.values())))
        return None

    def update(self, run: Run) -> None:
        state, stored, fresh = run.the_state(), run.stored, run.summaries
        parts = state.season_parts(path for path in fresh if path in stored)
        touched = set(run.removed) | {
            path for path, summary in fresh.items()
            if path not in stored or stored[path].head != summary.head()
            or parts.get(path) != (summary.ranking, summary.factions)}
        seasons = [s for s in run.found.seasons if any(_below(p, s.path) for p in touched)]
        if seasons:
            run.writer.write(run.renderer.season_files(
                _with_seasons(state, run.heads(), seasons, fresh), {s.path for s in seasons}))


def _below(path: EventPath, folder: EventPath) -> bool:
    return len(path) > len(folder) and path[: len(folder)] == folder


def _with_seasons(
    state: BuildState, heads: Sequence[EventSummary], seasons: Sequence[Season],
    fresh: Mapping[EventPath, EventSummary],
) -> list[EventSummary]:
    """Return the heads, with the ranking and factions filled in for the events of
    ``seasons`` (the season pages to render again)."""
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


# ----- players' histories ---------------------------------------------------------------


def _history_job(run: Run, players: Sequence[str]) -> tuple[int, int]:
    """Render and write the history pages of ``players`` (in a worker); return how many
    files were written and how many there are."""
    writer = run.writer
    assert isinstance(writer, StagingWriter)
    before = writer.files
    written = writer.write(run.renderer.history_files(list(run.summaries.values()),
                                                      set(players)))
    return written, writer.files - before


class Histories(Scope):
    """Each player's history across events (``Depends.PLAYER``). A player's pages are
    stale when their line in an event changed, or an event they played was added,
    removed or renamed, re-dated or resized; a player left without events loses them.
    A full build renders them in forked workers, a share of the players each, past
    :data:`PARALLEL_HISTORIES` players (a club's regulars have hundreds of events each)."""

    name = "histories"
    reads = frozenset({"events"})

    def whole(self, run: Run) -> Join | None:
        summaries = list(run.summaries.values())
        players = sorted({line.id for summary in summaries for line in summary.players})
        if run.jobs < 2 or len(players) < PARALLEL_HISTORIES:
            run.writer.write(run.renderer.history_files(summaries))
            return None
        shares = [players[k::run.jobs * 4] for k in range(run.jobs * 4)]
        pool = Forked(run, run.jobs)
        try:
            futures = pool.map(_history_job, shares)
        except BaseException:
            pool.close()
            raise

        def join() -> None:
            try:
                writer = run.writer
                assert isinstance(writer, StagingWriter)
                for future in futures:
                    written, files = future.result()
                    writer.written += written
                    writer.files += files
            finally:
                pool.close()
        return join

    def update(self, run: Run) -> None:
        state, fresh = run.the_state(), run.summaries
        head_of = {h.path: h for h in run.heads()}
        writer = run.writer
        assert isinstance(writer, Changes)
        files: list[tuple[str, bytes]] = []
        old_lines = {path: state.lines_in(path) for path in fresh}
        steady = _steady(run)
        for pid in sorted(_affected(run, state, old_lines)):
            changes = _line_changes(pid, fresh, old_lines) if steady else None
            spliced = (None if changes is None
                       else run.renderer.player_spliced(pid, changes, writer.current))
            if spliced is not None:  # the page the last build wrote, put right
                files.extend(spliced)
                continue
            lines = {p: line for p, line in state.lines_of(pid).items()
                     if p in head_of and p not in fresh}
            for path, summary in fresh.items():
                for line in summary.players:
                    if line.id == pid:
                        lines[path] = line
            appearances: list[Appearance] = [(head_of[p], line) for p, line in lines.items()]
            if not appearances:
                for rel in run.renderer.player_paths(pid):
                    writer.remove_file(rel)
                continue
            files.extend(run.renderer.player_files(pid, appearances))
        writer.write(files)


def _steady(run: Run) -> bool:
    """Return whether the events loaded again are steady for the histories: none removed,
    each there at the last build with the same name, date and field (a player's page may
    then be made from the one the last build wrote, ``PageType.splice``)."""
    return run.optimised and not run.removed and all(
        path in run.stored and _history_head(run.stored[path].head) == _history_head(summary)
        for path, summary in run.summaries.items())


def _line_changes(pid: str, fresh: Mapping[EventPath, EventSummary],
                  old_lines: Mapping[EventPath, Mapping[str, PlayerLine]]
                  ) -> list[LineChange] | None:
    """Return ``pid``'s lines in the events loaded again, as the last build kept them and
    now; None when the player came into one or left it."""
    changes = []
    for path, summary in fresh.items():
        old = old_lines[path].get(pid)
        new = next((line for line in summary.players if line.id == pid), None)
        if (old is None) != (new is None):
            return None
        if old is not None and new is not None and old != new:
            changes.append(LineChange(summary, old, new))
    return changes


def _affected(run: Run, state: BuildState,
              lines_in: Mapping[EventPath, Mapping[str, PlayerLine]]) -> set[str]:
    """Return the players whose history page may show something new: each player of an
    event loaded again whose line changed (every player of it when its name, date or
    field changed), and every player of a removed event."""
    affected: set[str] = set()
    for path, summary in run.summaries.items():
        old = run.stored.get(path)
        old_lines = lines_in[path]
        same_head = old is not None and _history_head(old.head) == _history_head(summary)
        new_lines = {line.id: line for line in summary.players}
        for pid in set(old_lines) | set(new_lines):
            if not same_head or old_lines.get(pid) != new_lines.get(pid):
                affected.add(pid)
    for path in run.removed:
        affected.update(state.lines_in(path))
    return affected


def _history_head(head: EventSummary) -> tuple[object, ...]:
    return (head.config.name, head.config.date, head.field)


# ----- the club's ratings and meta --------------------------------------------------------


class Club(Scope):
    """The club's rating lists, players' rating pages and the meta (``Depends.CLUB``),
    made from every event's games. Stale when an event's games changed, or an event was
    removed: ratings resume from the first changed event, and only the pages whose
    numbers changed are made again (:func:`standgen.site.club_pages.club_selection`;
    a corrected CP or a new note leaves them alone)."""

    name = "club"
    reads = frozenset({"events"})

    def whole(self, run: Run) -> Join | None:
        parts = list(run.games.values())
        tables = ClubTables(parts, True) if run.optimised else None
        club = dict(run.renderer.club_files(parts, tables))
        run.writer.write(club.items())
        run.club = club
        if tables is not None:
            keep_every(tables)
        run.kept = None if tables is None else tables.kept_state()
        return None

    def update(self, run: Run) -> None:
        state = run.the_state()
        before = state.games(run.games)
        changed = {p: g for p, g in run.games.items() if before.get(p) != g}
        if not run.removed and not changed:
            return
        known = state.club_events()
        events = {p: e for p, e in known.items() if p not in run.removed}
        paths = {*changed, *run.removed}

        def games(path: EventPath) -> EventGames:
            return state.games([path])[path]  # type: ignore[return-value]

        tables = ClubTables(changed.values(), True, events=events, games=games,
                            kept=state.club_ratings, seats=state.seats_of, changed=paths,
                            folds=state.club_folds, digests=state.digest_of)
        only = club_selection(run.renderer.site, tables, known, paths, state.club_list(()),
                              state.seats_in)
        writer = run.writer
        assert isinstance(writer, Changes)
        made = dict(run.renderer.club_files((), tables, only, writer.current,
                                            writer if perf.in_place() else None))
        writer.write(made.items())
        before_files = state.club_files()
        expected = club_paths(run.renderer.site, tables) | made.keys()
        if not only.search:  # the player search as it was
            expected |= before_files & {SEARCH_INDEX}
        for rel in before_files - expected:  # pages of a format or player gone
            writer.remove_file(rel)
        run.club, run.kept = expected, tables.kept_state(run.removed)


# ----- the registry and the loop ------------------------------------------------------------

SCOPES: tuple[Scope, ...] = (Events(), Help(), Lists(), Seasons(), Histories(), Club())


def build_scopes(run: Run) -> None:
    """Make every scope of :data:`SCOPES`, in order, whole or updated as ``run`` says.

    A scope that returned a join (its work goes on in forked processes) is joined before
    the first scope that reads its results, and at the end; on an error every join
    still pending is run so that no worker outlives the build."""
    pending: dict[str, Join] = {}
    try:
        for scope in SCOPES:
            for name in sorted(scope.reads & pending.keys()):
                pending.pop(name)()
            if not run.whole:
                scope.update(run)
                if run.updated is not None:
                    run.updated(scope)
                continue
            join = scope.whole(run)
            if join is not None:
                pending[scope.name] = join
        while pending:
            pending.pop(next(iter(pending)))()
    finally:
        for join in pending.values():
            try:
                join()
            except Exception:  # noqa: BLE001, S112 - the first error is the one raised
                continue


def scope_names() -> list[str]:
    """Return the scopes' names, in build order (for the docs and tests)."""
    return [scope.name for scope in SCOPES]

