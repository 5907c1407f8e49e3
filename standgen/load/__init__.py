"""load: the events tree -> the model, with all validation (data contract section 1).

Every problem is collected and raised together as an :class:`~standgen.errors.InputError`,
so a TO sees all of them in one run. Nothing here writes anything.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from standgen.errors import InputError, Problem, errors_only
from standgen.formats import FORMATS
from standgen.load.boards import load_boards
from standgen.load.config import load_event_config, load_season
from standgen.load.files import SLUG, display, read_text
from standgen.load.markdown_limits import check_markdown
from standgen.load.players import load_players
from standgen.load.rounds import load_round
from standgen.load.site_config import load_site
from standgen.model import Event, EventsTree, Player, Round, Season, SiteConfig, Source

ROUND_FILE = re.compile(r"round-([1-9][0-9]{0,2})\.csv\Z")
EVENT_FILES = {"event.toml", "event.md", "players.csv", "lists"}
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

    def load(folder: Path, slugs: tuple[str, ...]) -> None:
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

    def found(folder: Path, slugs: tuple[str, ...]) -> None:
        folders.append((folder, slugs))
        at.append(len(problems))

    _walk(root, root, (), problems, found, seasons)
    site = load_site(root, seasons, problems)
    seasons.sort(key=lambda s: s.path)
    return Found(tuple(folders), tuple(seasons), site, tuple(problems), tuple(at))


def _walk(
    root: Path, folder: Path, slugs: tuple[str, ...], problems: list[Problem],
    on_event: Callable[[Path, tuple[str, ...]], None], seasons: list[Season],
) -> None:
    if (folder / "event.toml").is_file():
        if not _inside(root, folder / "event.toml", problems):
            return
        on_event(folder, slugs)
        return
    if (folder / "season.toml").is_file() and _inside(root, folder / "season.toml", problems):
        season = load_season(folder / "season.toml", slugs, problems)
        if season is not None:
            seasons.append(season)
    for child in sorted(folder.iterdir()):
        if child.name.startswith(".") or not child.is_dir():
            continue
        if not _inside(root, child, problems):
            continue
        if not SLUG.match(child.name):
            problems.append(Problem(display(child), 1, f"folder name '{child.name}' is not a "
                                    "slug; use lower-case letters, digits and hyphens"))
            continue
        if not slugs and child.name in RESERVED_TOP:
            problems.append(Problem(display(child), 1, f"folder name '{child.name}' is reserved "
                                    "for the site's own pages; rename it"))
            continue
        _walk(root, child, (*slugs, child.name), problems, on_event, seasons)


def _inside(root: Path, path: Path, problems: list[Problem]) -> bool:
    """Return whether ``path`` stays inside the events root (symlinks may not lead out)."""
    if path.is_symlink():
        try:
            path.resolve().relative_to(root.resolve())
        except ValueError:
            problems.append(Problem(display(path), 1, "is a symbolic link leading outside the "
                                    "events folder; replace it with the real file"))
            return False
    return True


def load_event(
    folder: Path, slugs: tuple[str, ...], problems: list[Problem], root: Path | None = None
) -> Event | None:
    """Return the event in ``folder``, or None after recording its problems."""
    root = root or folder
    start = len(problems)
    config = load_event_config(folder / "event.toml", slugs, problems)
    players_path = folder / "players.csv"
    players = None
    if not players_path.is_file():
        problems.append(Problem(display(players_path), 1, "players.csv is missing; create it "
                                "with the header id,name,faction"))
    elif _inside(root, players_path, problems):
        players = load_players(players_path, problems)
    round_files: dict[int, Path] = {}
    for child in sorted(folder.iterdir()):
        match = ROUND_FILE.fullmatch(child.name)
        if match:
            if _inside(root, child, problems):
                round_files[int(match.group(1))] = child
        elif child.name.endswith((".csv", ".toml")) and child.name not in EVENT_FILES:
            problems.append(Problem(display(child), 1, f"unexpected file '{child.name}'; round "
                                    "files are named round-1.csv, round-2.csv, ..."))
    description = _optional_text(folder / "event.md", root, problems)
    lists = _lists(folder / "lists", root, players, problems)
    if config is None or players is None:
        return None
    fmt = FORMATS[config.format]
    by_id = {p.id: p for p in players}
    rounds: list[Round] = []
    for number in sorted(round_files):
        path = round_files[number]
        if number > 1 and number - 1 not in round_files:
            problems.append(Problem(display(path), 1, f"round-{number - 1}.csv is missing; round "
                                    "files must run 1, 2, 3 ... without gaps"))
            continue
        load = load_boards if fmt.seats > 2 else load_round
        rnd = load(path, number, fmt, config, by_id, problems)
        if rnd is not None:
            rounds.append(rnd)
    for earlier, later in zip(rounds, rounds[1:], strict=False):
        if not earlier.finished:
            problems.append(Problem(later.source.path, 1, f"round {earlier.number} still has "
                                    "games without results; they count once entered",
                                    warning=True))
    if config.rounds is not None and rounds and rounds[-1].number > config.rounds:
        problems.append(Problem(rounds[-1].source.path, 1, f"event.toml plans {config.rounds} "
                                "rounds; raise 'rounds' or remove this file"))
    if len(problems) > start and errors_only(problems[start:]):
        return None
    event = Event(path=slugs, config=config, players=players, rounds=tuple(rounds),
                  description=description, lists=lists,
                  source=Source(display(folder / "event.toml")))
    if fmt.validate_event is not None:
        found = fmt.validate_event(event, display(folder / "event.toml"))
        problems.extend(found)
        if errors_only(found):
            return None
    return event


def _optional_text(path: Path, root: Path, problems: list[Problem]) -> str:
    if not path.is_file() or not _inside(root, path, problems):
        return ""
    text = read_text(path, problems) or ""
    return text if check_markdown(text, display(path), problems) else ""


def _lists(
    folder: Path, root: Path, players: tuple[Player, ...] | None, problems: list[Problem]
) -> dict[str, str]:
    """Return the army lists by player id (``lists/<player-id>.md``)."""
    if not folder.is_dir() or not _inside(root, folder, problems):
        return {}
    ids = {p.id for p in players or ()}
    lists: dict[str, str] = {}
    for child in sorted(folder.iterdir()):
        if child.name.startswith("."):
            continue
        pid = child.name.removesuffix(".md")
        if not child.name.endswith(".md") or not SLUG.match(pid):
            problems.append(Problem(display(child), 1, "army lists are named <player-id>.md"))
        elif players is not None and pid not in ids:
            problems.append(Problem(display(child), 1, f"no player '{pid}' in players.csv; "
                                    "name the file after a player id"))
        else:
            text = _optional_text(child, root, problems)
            if text:
                lists[pid] = text
    return lists
