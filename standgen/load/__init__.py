"""load: the events tree -> the model, with all validation (data contract section 1).

Every problem is collected and raised together as an :class:`~standgen.errors.InputError`,
so a TO sees all of them in one run. Nothing here writes anything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from standgen.errors import InputError, Problem, errors_only
from standgen.formats import FORMATS
from standgen.formats.base import Format
from standgen.load.boards import load_boards
from standgen.load.config import load_event_config, load_season
from standgen.load.files import FOLDER, SLUG, display, read_text, slug_for
from standgen.load.inputs import (
    BROKEN,
    EVENT_TOML,
    SEASON_TOML,
    Entry,
    EventFiles,
    event_files,
    inside,
    is_event_file,
    pick,
    scan,
)
from standgen.load.late import complete_rounds
from standgen.load.markdown_limits import check_markdown
from standgen.load.players import load_players
from standgen.load.rounds import load_round
from standgen.load.site_config import load_site, site_publish
from standgen.load.team_rounds import load_team_round, team_round_name
from standgen.load.teams import load_teams, resolve_teams
from standgen.model import (
    Event,
    EventConfig,
    EventsTree,
    Player,
    Round,
    Season,
    SiteConfig,
    Source,
    Team,
    TeamRound,
)
from standgen.stages.cut import cut_of
from standgen.teams.check import team_match_problems
from standgen.teams.matches import games_waiting

RESERVED_TOP = {"help", "assets"}

__all__ = ["Found", "InputError", "find_events", "load_event", "load_tree"]


def load_tree(root: Path) -> EventsTree:
    """Return every event and season under ``root``; raise InputError listing every problem."""
    problems: list[Problem] = []
    if not root.is_dir():
        raise InputError([Problem(display(root), 1, "events folder not found; run standgen in "
                                  "the folder that holds events/ or name it")])
    events: list[Event] = []
    seasons: list[Season] = []

    def load(folder: Path, slugs: tuple[str, ...], _: Sequence[Entry]) -> None:
        event = load_event(folder, slugs, problems, root)
        if event is not None:
            events.append(event)

    _walk(root, root, (), problems, load, seasons)
    site = load_site(root, seasons, problems)
    if errors_only(problems):
        raise InputError(problems)
    events.sort(key=lambda e: e.path)
    seasons.sort(key=lambda s: s.path)
    return EventsTree(root=display(root), events=tuple(events), seasons=tuple(seasons),
                      warnings=tuple(p for p in problems if p.warning), site=site)


@dataclass(frozen=True)
class Found:
    """The events tree walked without loading its events (see :func:`find_events`)."""

    folders: tuple[tuple[Path, tuple[str, ...]], ...]  # event folders and their slugs
    seasons: tuple[Season, ...]
    site: SiteConfig
    problems: tuple[Problem, ...]  # the tree's own problems (folders, seasons, site.toml)
    at: tuple[int, ...]  # where each folder's own problems go among ``problems``
    # each event folder's own entries, as the walk listed them (the build state's
    # signatures and the army lists' moments read them, not listing the folders again)
    listed: tuple[tuple[Entry, ...], ...] = field(default=(), compare=False, repr=False)

    def all_problems(self, per_event: Sequence[Sequence[Problem]]) -> list[Problem]:
        """Return every problem in the order :func:`load_tree` reports them, given each
        event folder's problems (as :func:`load_event` records them)."""
        merged: list[Problem] = []
        start = 0
        for position, found in zip(self.at, per_event, strict=True):
            merged.extend(self.problems[start:position])
            merged.extend(found)
            start = position
        merged.extend(self.problems[start:])
        return merged


def find_events(root: Path) -> Found:
    """Walk ``root`` as :func:`load_tree` does, but only find the event folders; each is
    loaded (and checked) later with :func:`load_event`, perhaps in another process, or not
    at all when an earlier build already has it. Raise InputError for a missing root."""
    if not root.is_dir():
        raise InputError([Problem(display(root), 1, "events folder not found; run standgen in "
                                  "the folder that holds events/ or name it")])
    problems: list[Problem] = []
    folders: list[tuple[Path, tuple[str, ...]]] = []
    at: list[int] = []
    seasons: list[Season] = []
    listed: list[tuple[Entry, ...]] = []

    def found(folder: Path, slugs: tuple[str, ...], entries: Sequence[Entry]) -> None:
        folders.append((folder, slugs))
        at.append(len(problems))
        listed.append(tuple(entries))

    _walk(root, root, (), problems, found, seasons)
    site = load_site(root, seasons, problems)
    seasons.sort(key=lambda s: s.path)
    return Found(tuple(folders), tuple(seasons), site, tuple(problems), tuple(at),
                 tuple(listed))


def _walk(
    root: Path, folder: Path, slugs: tuple[str, ...], problems: list[Problem],
    on_event: Callable[[Path, tuple[str, ...], Sequence[Entry]], None], seasons: list[Season],
) -> None:
    """Find the events and seasons below ``folder``: a folder holding ``event.toml`` (in
    any case) is an event; event files anywhere else are an error, never ignored."""
    entries, trouble = scan(folder)
    if trouble is not None:
        problems.append(trouble)
        return
    marks = [e for e in entries if e.name.lower() == EVENT_TOML]
    if marks and slugs:
        if inside(root, marks[0], problems):
            on_event(folder, slugs, entries)
        return
    if marks:
        problems.append(Problem(display(marks[0].path), 1, "event.toml at the events root; the "
                                "root holds event folders: move this event's files into a "
                                "folder of its own, e.g. events/<event-slug>/"))
    else:
        _stray_files(folder, entries, slugs, problems)
    _season(root, entries, slugs, problems, seasons)
    for child in entries:
        if _walkable(root, child, slugs, problems):
            _walk(root, child.path, (*slugs, child.name), problems, on_event, seasons)


def _season(root: Path, entries: Sequence[Entry], slugs: tuple[str, ...],
            problems: list[Problem], seasons: list[Season]) -> None:
    """Add the folder's season (its season.toml, in any case) to ``seasons``."""
    season = pick(entries, SEASON_TOML, problems)
    if season is not None and inside(root, season, problems):
        found = load_season(season.path, slugs, problems)
        if found is not None:
            seasons.append(found)


def _walkable(root: Path, child: Entry, slugs: tuple[str, ...],
              problems: list[Problem]) -> bool:
    """Return whether ``child`` is a folder to walk: inside ``root``, named as a slug and
    not reserved; record a symbolic link to nothing."""
    if child.kind == BROKEN:  # perhaps an event folder on a drive that is not there
        problems.append(Problem(display(child.path), 1, "is a symbolic link to nothing; "
                                "replace it with the real folder or remove it"))
    if child.kind != FOLDER or not inside(root, child, problems):
        return False
    return not _bad_folder_name(child, slugs, problems)


def _stray_files(folder: Path, entries: Sequence[Entry], slugs: tuple[str, ...],
                 problems: list[Problem]) -> None:
    """Record event files in a folder without event.toml: never ignored."""
    stray = [e.name for e in entries if is_event_file(e.name)]
    if not stray:
        return
    names = ", ".join(stray[:3]) + (", ..." if len(stray) > 3 else "")
    problems.append(Problem(display(folder), 1, (
        f"the events root holds {names}; event files belong in an event folder: "
        "move them into a folder of its own with an event.toml" if not slugs else
        f"has {names} but no event.toml; add event.toml or remove the folder")))


def _bad_folder_name(child: Entry, slugs: tuple[str, ...], problems: list[Problem]) -> bool:
    """Record and return whether a folder's name is not a slug, or is reserved at the top."""
    if not SLUG.match(child.name):
        better = slug_for(child.name)
        problems.append(Problem(display(child.path), 1, f"folder name '{child.name}' is "
                                "not a slug; use lower-case letters, digits and hyphens"
                                + (f": rename it '{better}'" if better else "")))
        return True
    if not slugs and child.name in RESERVED_TOP:
        problems.append(Problem(display(child.path), 1, f"folder name '{child.name}' is "
                                "reserved for the site's own pages; rename it"))
        return True
    return False


def load_event(
    folder: Path, slugs: tuple[str, ...], problems: list[Problem], root: Path | None = None,
    upto: int | None = None,
) -> Event | None:
    """Return the event in ``folder``, or None after recording its problems.

    Its files are those :func:`~standgen.load.inputs.event_files` lists (data contract
    section 1): nothing else is opened. With ``upto``, the rounds after it are left out
    (``standgen pair --redo``: as if their files were not there yet).
    """
    start = len(problems)
    files = event_files(folder, root or folder)
    problems.extend(files.problems)
    config = (load_event_config(files.config, slugs, problems)
              if files.config is not None else None)
    players, teams = _players_and_teams(files, problems,
                                        config.teams.column if config else "team")
    description = _description(files, problems)
    lists = _lists(files, players, problems)
    if config is None or players is None:
        return None
    config = _with_publish(config, root)
    fmt = FORMATS[config.format]
    rounds, players = _rounds_of(files, folder, fmt, config, players, problems, upto)
    if len(problems) > start and errors_only(problems[start:]):
        return None
    where = display(files.config or folder / EVENT_TOML)
    event = _with_team_rounds(Event(
        path=slugs, config=config, players=players, rounds=rounds,
        description=description, lists=lists, source=Source(where), teams=teams),
        files, upto, problems)
    if event is None:
        return None
    if fmt.validate_event is None:
        return event
    found = fmt.validate_event(event, where)
    problems.extend(found)
    return None if errors_only(found) else event


def _description(files: EventFiles, problems: list[Problem]) -> str:
    """Return the event's description (its Markdown file, checked), or ""."""
    return _markdown(files.description, problems) if files.description is not None else ""


def _with_publish(config: EventConfig, root: Path | None) -> EventConfig:
    """Return ``config`` with ``publish`` settled: players.csv's default is event.toml's,
    else site.toml's (else "full")."""
    if config.publish:
        return config
    return replace(config, publish=site_publish(root) if root is not None else "full")


def _rounds_of(files: EventFiles, folder: Path, fmt: Format, config: EventConfig,
               players: tuple[Player, ...], problems: list[Problem],
               upto: int | None) -> tuple[tuple[Round, ...], tuple[Player, ...]]:
    """Return the event's rounds, each with an absence for every player who had not
    joined yet, and the players with their ``joined`` round settled
    (:func:`~standgen.load.late.complete_rounds`; in a team event nobody is a late entry
    unless players.csv says so: :func:`_expected`), recording what they find."""
    rounds = _read_rounds(files, fmt, config, {p.id: p for p in players}, problems, upto)
    players, unchecked = _expected(config, players)
    completed, settled = complete_rounds(rounds, players, fmt,
                                         display(files.players or folder), problems,
                                         unchecked)
    _unfinished_and_unplanned(completed, config, cut_of(config) is not None, problems)
    return completed, settled


def _read_rounds(files: EventFiles, fmt: Format, config: EventConfig,
                 by_id: Mapping[str, Player], problems: list[Problem],
                 upto: int | None) -> list[Round]:
    """Return the event's round files read in order (boards for games of more than two
    seats), recording a gap in the numbers; with ``upto``, none after it."""
    round_files = files.rounds
    load = load_boards if fmt.seats > 2 else load_round
    rounds: list[Round] = []
    for number in sorted(round_files):
        if upto is not None and number > upto:
            break  # ``pair --redo``: a round to pair again is not read at all
        path = round_files[number]
        if number > 1 and number - 1 not in round_files:
            if number - 1 not in files.named_rounds:  # else refused; its own problem says why
                problems.append(Problem(display(path), 1, f"round-{number - 1}.csv is missing; "
                                        "round files must run 1, 2, 3 ... without gaps"))
            continue
        rnd = load(path, number, fmt, config, by_id, problems)
        if rnd is not None:
            rounds.append(rnd)
    return rounds


def _unfinished_and_unplanned(rounds: Sequence[Round], config: EventConfig, cut: bool,
                              problems: list[Problem]) -> None:
    """Warn of a round with games without results before a later round; record a round
    past event.toml's ``rounds`` (with a cut, its bracket sets the last round)."""
    for earlier, later in zip(rounds, rounds[1:], strict=False):
        if not earlier.finished:
            problems.append(Problem(later.source.path, 1, f"round {earlier.number} still has "
                                    "games without results; they count once entered",
                                    warning=True))
    if (config.rounds is not None and not cut and rounds
            and rounds[-1].number > config.rounds):
        problems.append(Problem(rounds[-1].source.path, 1, f"event.toml plans {config.rounds} "
                                "rounds; raise 'rounds' or remove this file"))


def _expected(config: EventConfig, players: tuple[Player, ...],
              ) -> tuple[tuple[Player, ...], int | None]:
    """Return the players and the first round in which a player without a row is not
    missing (:func:`complete_rounds`): a cut's rounds; every round of a team event,
    whose check counts each match's games (docs/teams.md), and where nobody is a late
    entry unless players.csv's ``joined`` says so."""
    cut = cut_of(config)
    if config.teams.matches:
        return tuple(replace(p, joined=p.joined or 1) for p in players), 1
    return players, cut.after_round + 1 if cut is not None else None


def _with_team_rounds(
    event: Event, files: EventFiles, upto: int | None, problems: list[Problem],
) -> Event | None:
    """Return the event with a team event's ``teams-round-N.csv`` (docs/teams.md, "Team
    matches") and its games checked against them, or None after recording errors; in any
    other event such a file is an error saying how to make the event a team event."""
    start = len(problems)
    team_rounds = _team_rounds(files, event.config.teams.matches, event.teams, upto,
                               problems)
    if errors_only(problems[start:]):
        return None
    if not event.config.teams.matches:
        return event
    event = replace(event, team_rounds=team_rounds)
    found = team_match_problems(event, {r.number: display(files.folder / team_round_name(
        r.number)) for r in event.rounds})
    problems.extend(found)
    if errors_only(found):
        return None
    # a round is complete only when every match has all its games (Round.finished)
    waiting = games_waiting(event)
    return replace(event, rounds=tuple(replace(r, waiting=waiting.get(r.number, 0))
                                       for r in event.rounds))


def _team_rounds(
    files: EventFiles, matches: bool, teams: tuple[Team, ...], upto: int | None,
    problems: list[Problem],
) -> tuple[TeamRound, ...]:
    """Return the loaded ``teams-round-N.csv`` of a team event, recording problems."""
    loaded: list[TeamRound] = []
    for number, path in sorted(files.team_rounds.items()):
        if not matches:
            problems.append(Problem(display(path), 1, "team pairings belong to a team event; "
                                    "set matches = true under [teams] in event.toml, or "
                                    "remove this file"))
            continue
        if upto is not None and number > upto:
            break
        found = load_team_round(path, number, teams, problems)
        if found is not None:
            loaded.append(found)
    return tuple(loaded)


def _players_and_teams(
    files: EventFiles, problems: list[Problem], column: str = "team",
) -> tuple[tuple[Player, ...] | None, tuple[Team, ...]]:
    """Return players.csv's players, their ``team`` cells made team ids, and the event's
    teams (teams.csv's, else those the cells name: :mod:`standgen.load.teams`). With
    ``column`` "club" (``[teams] column``), each player's club is their team."""
    players = load_players(files.players, problems) if files.players is not None else None
    if players is None:
        return None, ()
    if column == "club":
        players = tuple(replace(p, team=p.club) for p in players)
    listed = load_teams(files.teams, problems) if files.teams is not None else None
    if files.teams is not None and listed is None:
        return players, ()  # teams.csv's own problems say why
    return resolve_teams(players, listed, problems)


def _lists(
    files: EventFiles, players: tuple[Player, ...] | None, problems: list[Problem]
) -> dict[str, str]:
    """Return the army lists by player id (``lists/<player-id>.md``)."""
    ids = {p.id for p in players or ()}
    lists: dict[str, str] = {}
    for pid, path in files.lists.items():
        if players is not None and pid not in ids:
            problems.append(Problem(display(path), 1, f"no player '{pid}' in players.csv; "
                                    "name the file after a player id"))
            continue
        text = _markdown(path, problems)
        if text:
            lists[pid] = text
    return lists


def _markdown(path: Path, problems: list[Problem]) -> str:
    """Return an untrusted Markdown file's text, or "" after recording why it is refused
    (its size, nesting or costly constructs: :func:`check_markdown`)."""
    text = read_text(path, problems) or ""
    return text if check_markdown(text, display(path), problems) else ""
