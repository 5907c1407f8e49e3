"""The incremental build: only the changed events, and the pages above events that show
them, rendered again; the changed files replaced through a journal."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from standgen.audit import audit
from standgen.builder.record import Built, Progress, save
from standgen.buildstate import (
    BuildState,
    EventPath,
    Stored,
    iter_files,
    state_file,
)
from standgen.clubs.games import EventGames, event_games
from standgen.clubs.summary import ClubKept, ClubTables
from standgen.errors import InputError, Problem, errors_only
from standgen.load import Found, load_event
from standgen.load.files import SLUG
from standgen.model import Event
from standgen.output import (
    apply_changes,
)
from standgen.pipeline import report
from standgen.site.club_pages import club_paths, club_selection
from standgen.site.history import Appearance
from standgen.site.index_contexts import events_in
from standgen.site.renderer import SiteRenderer
from standgen.site.summary import EventSummary, summarise

# ----- loading a changed event ---------------------------------------------------------


def load_checked(folder: Path, slugs: EventPath, problems: list[Problem], root: Path
          ) -> Event | None:
    """Return the event in ``folder`` as :func:`load_event` does, adding the warnings of
    :func:`standgen.audit.audit` (rematches, byes, empty stats) to ``problems``."""
    event = load_event(folder, slugs, problems, root)
    if event is not None and not errors_only(problems):
        problems.extend(audit(event))
    return event


# ----- incremental build ------------------------------------------------------------------


def incremental_build(
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
            event = load_checked(folder, slugs, problems, root)
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
    games: dict[EventPath, EventGames] = {}
    club_written: set[str] | None = None  # the club pages, when made again
    kept: ClubKept | None = None  # the club's numbers, when made again
    for count, (_, (event, _)) in enumerate(sorted(loaded.items()), start=1):
        made = report(event)
        writer.replace_folder(event.path, renderer.event_files(made))
        fresh[event.path] = summarise(made)
        games[event.path] = event_games(made, found.seasons)
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
        before = state.games(games)
        new_games = {p: g for p, g in games.items() if before.get(p) != g}
        if removed or new_games:
            # ratings resume from the first changed event; the pages whose numbers
            # changed are made again (a corrected CP or a new note leaves them alone)
            club_written, kept = _club(renderer, state, new_games, removed, writer)
        state.invalidate()  # the site is about to change: the state is stale until saved
    finally:
        state.close()
    written = writer.commit()
    changes = tuple(sorted(writer.writes.keys() | writer.removes))
    after = save(output, key, [(prints[k], fresh[event.path], warnings)
                                for k, (event, warnings) in loaded.items()], removed,
                  full=False, signatures=signatures, games=games, club=club_written, kept=kept)
    if progress is not None:
        progress("done", 1, 1)
    warnings = tuple(p for p in problems if p.warning) + tuple(after)
    return Built(len(found.folders), warnings, True, len(loaded), written, changes)


def _club(renderer: SiteRenderer, state: BuildState, changed: Mapping[EventPath, EventGames],
          removed: Sequence[EventPath], writer: _Changes) -> tuple[set[str], ClubKept]:
    """Write the club pages whose numbers ``changed`` and ``removed`` events changed
    (:func:`standgen.site.club_pages.club_selection`), from the summaries the state kept;
    remove the pages of formats and players gone. Return every club page's path and what
    to keep."""
    before = state.club_events()
    events = {p: e for p, e in before.items() if p not in removed}
    paths = {*changed, *removed}

    def games(path: EventPath) -> EventGames:
        return state.games([path])[path]  # type: ignore[return-value]

    tables = ClubTables(changed.values(), True, events=events, games=games,
                        kept=state.club_ratings, seats=state.seats_of, changed=paths)
    only = club_selection(renderer.site, tables, before, paths, state.club_list(()),
                          state.seats_in)
    made = dict(renderer.club_files((), tables, only))
    writer.write(made.items())
    expected = club_paths(renderer.site, tables) | made.keys()
    for rel in state.club_files() - expected:  # pages of a format or player gone
        writer.remove_file(rel)
    return expected, tables.kept_state(removed)


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


