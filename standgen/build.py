"""The library's entry points behind the CLI: build, check, pair, new."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from standgen.errors import InputError, Problem
from standgen.formats import FORMATS
from standgen.load import load_event, load_tree
from standgen.load.files import SLUG, display, read_text, suggest
from standgen.model import Event, EventConfig, EventsTree, GameKind, Round

if TYPE_CHECKING:
    from standgen.builder import Built
from standgen.output import write_atomic
from standgen.pipeline import EventReport, pair_round
from standgen.roundfile import RoundFileRefused, write_round
from standgen.standings import compute_standings, format_of

PACKAGE = Path(__file__).resolve().parent
PROJECT = PACKAGE.parent


def shipped(name: str) -> Path:
    """Return the folder ``name`` (``site_templates`` or ``docs``): inside the installed
    package (a wheel carries both as ``standgen/_data/``, see setup.py), else at the top
    of the source tree (a checkout, an editable install)."""
    inside = PACKAGE / "_data" / name
    return inside if inside.is_dir() else PROJECT / name


TEMPLATES = shipped("site_templates")
DOCS = shipped("docs")


Progress = Callable[[str, int, int], None]  # (stage, done, total) -> None


def render(tree: EventsTree, progress: Progress | None = None) -> dict[str, bytes]:
    """Return every file of the site for a loaded tree.

    ``progress`` is told ("standings", k, n) after each event's report and ("pages", 0, 1)
    before the site is rendered.
    """
    from standgen import perf
    from standgen.pipeline import report
    from standgen.site.renderer import render_site

    total = len(tree.events)
    done: list[EventReport] = []
    for event in tree.events:
        done.append(report(event))
        if progress is not None:
            progress("standings", len(done), total)
    if progress is not None:
        progress("pages", 0, 1)
    return render_site(tree, tuple(done), DOCS, TEMPLATES, fast=perf.enabled())


def build(
    events: Path, output: Path, progress: Progress | None = None, full: bool = False,
    jobs: int | None = None,
) -> Built:
    """Validate ``events``, render the site and put it in ``output``.

    Raises InputError (nothing written) on bad input. A full build renders on every core
    into a staging folder swapped in whole; with the build state of the last build and a
    few event folders changed, only what they touch is rendered and rewritten
    (:mod:`standgen.builder`). ``full`` forces a full build. ``progress`` hears each stage:
    ("events", k, n) after each event, ("pages", 0, 1), ("writing", 0, 1), ("done", 1, 1).
    """
    from standgen.builder import build as build_site

    return build_site(events, output, DOCS, TEMPLATES, progress, full=full, jobs=jobs)


def check(events: Path) -> EventsTree:
    """Validate ``events``; raise InputError listing every problem."""
    from standgen.audit import audit, deviations

    tree = load_tree(events)
    found: list[Problem] = []
    for event in tree.events:
        compute_standings(event)
        found.extend(audit(event))
        found.extend(deviations(event))  # check only: the Dutch engine is slow on large fields
    return replace(tree, warnings=(*tree.warnings, *found))


def event_slugs(event_dir: Path, events_root: Path) -> tuple[str, ...]:
    """Return the event's path of slugs below the events root (as ``build`` sees it)."""
    try:
        rel = event_dir.resolve().relative_to(events_root.resolve())
        return tuple(rel.parts)
    except ValueError:
        return (event_dir.resolve().name,)


@dataclass(frozen=True)
class Paired:
    """What ``pair`` wrote."""

    path: Path
    event: Event
    text: str
    notes: tuple[str, ...]
    round: Round  # the round written


def pair(event_dir: Path, events_root: Path, force: bool = False,
         redo: int | None = None) -> Paired:
    """Write the next round file of the event in ``event_dir`` (or, with ``redo``, pair
    round ``redo`` again: the last round file, holding no result yet, is replaced, with
    whoever joined, dropped or asked for a bye since).

    Never overwrites a round file holding any result; refuses while the previous round
    has games without results unless ``force``. Raises InputError with the reason.
    """
    problems: list[Problem] = []
    slugs = event_slugs(event_dir, events_root)
    event = load_event(event_dir, slugs, problems)
    if event is None or any(not p.warning for p in problems):
        raise InputError(problems)
    where = display(event_dir / "event.toml")
    last = event.rounds[-1] if event.rounds else None
    if redo is not None:
        if last is None or redo != last.number:
            raise InputError([Problem(where, 1, f"--redo {redo}: only the last round file "
                                      f"(round-{last.number if last else 1}) can be paired "
                                      "again")])
        if _has_results(last):
            raise InputError([Problem(display(Path(last.source.path)), 1, f"round {redo} "
                                      "holds results; pair it again only before any result "
                                      "is entered (clear them first)")])
        event = load_event(event_dir, slugs, problems, upto=redo - 1)
        assert event is not None
        last = event.rounds[-1] if event.rounds else None
    elif last is not None and not _has_results(last) and not force:
        raise InputError([Problem(display(Path(last.source.path)), 1, f"round {last.number} is "
                                  "already paired and has no results yet; enter results, or "
                                  f"use --redo {last.number} to pair it again")])
    elif last is not None and not _has_results(last) and force:
        event = replace(event, rounds=event.rounds[:-1])
        last = event.rounds[-1] if event.rounds else None
    if last is not None and not last.finished and not force:
        missing = [str(g.table) for g in last.games if not g.finished]
        raise InputError([Problem(display(Path(last.source.path)), 1, f"round {last.number} has "
                                  f"games without results (table {', '.join(missing)}); enter "
                                  "them first, or use --force to pair anyway")])
    standings = compute_standings(event)
    number = (last.number if last else 0) + 1
    if standings.finished and last is not None and last.finished:
        raise InputError([Problem(where, 1, _over(event, standings.planned_rounds))])
    proposal = pair_round(event, standings, number)
    target = event_dir / f"round-{number}.csv"
    try:
        text = write_round(target, format_of(event), proposal.round)
    except RoundFileRefused as exc:
        raise InputError(exc.problems) from exc
    return Paired(target, event, text,
                  (*proposal.notes, *_sitout_hint(event, proposal.round)), proposal.round)


def _over(event: Event, planned: int) -> str:
    """Return why no further round is paired, saying which option to change."""
    played = event.rounds[-1].number if event.rounds else 0
    if played < planned:  # Steamroller: a clear winner before the planned rounds
        return (f"the event is over after round {played} of {planned}: a clear winner "
                "(seed 004); to play on, set clear_winner = false under [options] in "
                "event.toml")
    return (f"the event is over: its {planned} planned rounds are played; raise 'rounds' in "
            "event.toml to play on")


def pairing_lines(event: Event, rnd: Round) -> list[str]:
    """Return the round as a TO reads it out: one line a table, with names."""
    names = event.player_by_id

    def who(pid: str) -> str:
        player = names.get(pid)
        if player is None:
            return pid
        extra = player.faction or player.club
        return f"{player.name} ({extra})" if extra else player.name

    lines = [f"Round {rnd.number}:"]
    for game in sorted(rnd.games, key=lambda g: g.table):
        if game.kind is GameKind.BYE:
            lines.append(f"  table {game.table}: {who(game.players[0])}: bye")
        elif game.kind is GameKind.ABSENT:
            lines.append(f"  table {game.table}: {who(game.players[0])}: not paired (asked "
                         "for a bye, or absent)")
        else:
            lines.append(f"  table {game.table}: " + " vs ".join(who(p) for p in game.players))
    return lines


def status(event_dir: Path, events_root: Path) -> list[str]:
    """Return the state of the event's current round: which tables have no result yet."""
    problems: list[Problem] = []
    event = load_event(event_dir, event_slugs(event_dir, events_root), problems)
    if event is None or any(not p.warning for p in problems):
        raise InputError(problems)
    if not event.rounds:
        return [f"{event.config.name}: no round paired yet; run standgen pair"]
    rnd = event.rounds[-1]
    open_games = [g for g in rnd.games if not g.finished]
    if not open_games:
        return [f"{event.config.name}: round {rnd.number} is complete; run standgen pair "
                "for the next round"]
    lines = [f"{event.config.name}: round {rnd.number}, {len(open_games)} of "
             f"{len(rnd.games)} table(s) without a result:"]
    shown = pairing_lines(event, replace(rnd, games=tuple(open_games)))
    return lines + shown[1:]


def edit_player(event_dir: Path, player_id: str, column: str,
                change: Callable[[str], str]) -> Path:
    """Set one cell of players.csv (``byes``, ``dropped_after``) for ``player_id`` and
    write the file back atomically; return its path. The file keeps its rows, columns,
    separator and line ends; it is written as UTF-8. Raises InputError when the player
    or the file is not there."""
    import csv
    import io

    from standgen.load.files import read_csv
    from standgen.load.players import COLUMNS

    path = event_dir / "players.csv"
    problems: list[Problem] = []
    table = read_csv(path, ("id", "name"), COLUMNS, problems) if path.is_file() else None
    text = read_text(path, problems, spreadsheet=True) if path.is_file() else None
    if table is None or text is None:
        raise InputError(problems or [Problem(display(path), 1, "players.csv is missing")])
    crlf = "\r\n" in text
    delimiter = next((d for d in (",", ";", "\t") if d in text.split("\n", 1)[0]), ",")
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    header = [name.strip() for name in rows[0]]
    if column not in header:
        header.append(column)
        rows = [rows[0] + [column]] + [row + [""] for row in rows[1:] if row]
    at, key = header.index(column), header.index("id")
    hits = [row for row in rows[1:] if len(row) > key and row[key].strip() == player_id]
    if not hits:
        ids = [row[key].strip() for row in rows[1:] if len(row) > key]
        raise InputError([Problem(display(path), 1, f"no player '{player_id}' in players.csv"
                                  + suggest(player_id, ids))])
    for row in hits:
        row[at] = change(row[at].strip())
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n" if crlf else "\n"
               ).writerows(rows)
    write_atomic(path, out.getvalue())
    return path


def request_bye(event_dir: Path, player_id: str, round_number: int) -> Path:
    """Record that ``player_id`` asks not to be paired in ``round_number`` (players.csv
    ``byes``); the pairing gives them the format's requested bye (chess: half a point)."""
    def add(cell: str) -> str:
        rounds = {int(r) for r in cell.replace(",", " ").split() if r.isdigit()}
        return " ".join(str(r) for r in sorted(rounds | {round_number}))

    return edit_player(event_dir, player_id, "byes", add)


def drop_player(event_dir: Path, events_root: Path, player_id: str,
                after: int | None = None) -> tuple[Path, int]:
    """Set ``dropped_after`` of ``player_id`` (default: the last round with a result for
    them, so they are not paired again); return the file and the round."""
    if after is None:
        problems: list[Problem] = []
        event = load_event(event_dir, event_slugs(event_dir, events_root), problems)
        if event is None or any(not p.warning for p in problems):
            raise InputError(problems)
        played = [r.number for r in event.rounds
                  if any(player_id in g.players and g.finished for g in r.games)]
        after = max(played, default=0)
    last = after
    return edit_player(event_dir, player_id, "dropped_after", lambda _: str(last)), last


SCAFFOLD_PLAYERS = {
    "swiss": "id,name,club,country,rating,dropped_after",
    "mcmahon": "id,name,club,country,rank,mms_correction,dropped_after",
    "old-world": "id,name,faction,club,spare,dropped_after",
    "diplomacy": "id,name,club,country,dropped_after",
}


def _has_results(rnd: Round) -> bool:
    """Return whether any game of ``rnd`` holds a result entered by the TO.

    A bye or sit-out row carries the outcome the pairing gave it, not an entered result,
    so a freshly paired round with a bye still counts as "no results yet".
    """
    return any(game.kind not in (GameKind.BYE, GameKind.ABSENT)
               and any(seat.outcome is not None for seat in game.seats)
               for game in rnd.games)


def new_event(event_dir: Path, format_id: str, name: str | None = None) -> list[Path]:
    """Scaffold an event folder: event.toml, players.csv, event.md. Never overwrites."""
    if format_id not in FORMATS:
        raise InputError([Problem(display(event_dir), 1, f"unknown format '{format_id}'; use one "
                                  "of: " + ", ".join(sorted(FORMATS)))])
    if not SLUG.match(event_dir.name):
        raise InputError([Problem(display(event_dir), 1, f"'{event_dir.name}' is not a slug; use "
                                  "lower-case letters, digits and hyphens")])
    if (event_dir / "event.toml").exists():
        raise InputError([Problem(display(event_dir / "event.toml"), 1, "already exists; "
                                  "standgen new never overwrites an event")])
    fmt = FORMATS[format_id]
    title = name or event_dir.name.replace("-", " ").title()
    event_dir.mkdir(parents=True, exist_ok=True)
    files = {
        "event.toml": (f'name = "{title}"\ndate = {dt.date.today().isoformat()}\n'
                       f'format = "{format_id}"\n{_rounds_comment(format_id)}\n'
                       "# seed = 1234\n"
                       f'# tiebreaks = {list(fmt.default_tiebreaks)!r}\n'.replace("'", '"')),
        "players.csv": SCAFFOLD_PLAYERS.get(format_id, "id,name,faction,club,country,"
                                            "dropped_after") + "\n",
        # a comment only: nothing reaches the event page until the TO writes something
        "event.md": "<!-- Describe the venue, the schedule and the prizes here, in Markdown; "
                    "it is shown on the event page under its title. -->\n",
    }
    written = []
    for name_, text in files.items():
        path = event_dir / name_
        if not path.exists():
            write_atomic(path, text)
            written.append(path)
    return written


def _rounds_comment(format_id: str) -> str:
    """Return the scaffold's commented ``rounds`` line, stating the format's default."""
    fmt = FORMATS[format_id]
    config = EventConfig(name="", date=dt.date.today(), format=format_id)
    small, large = fmt.planned_rounds(8, config), fmt.planned_rounds(32, config)
    if small == large:
        return f"# rounds = {small}  # the default"
    return (f"# rounds = {small}  # default: by the number of players ({small} for 8, "
            f"{large} for 32)")


def _sitout_hint(event: Event, rnd: Round) -> list[str]:
    """Return a hint for the TO (not the site) when a Diplomacy round leaves more than
    three players sitting out and the event does not let anyone play two boards."""
    if format_of(event).seats <= 2 or event.config.options.get("two_boards"):
        return []
    out = sum(1 for game in rnd.games if game.kind is GameKind.BYE)
    if out <= 3:
        return []
    return [f"Hint: {out} players sit out this round. [options.two_boards] in event.toml "
            "lets some players play two boards instead (see the Diplomacy help page)."]


def export_club(events: Path, target: Path) -> list[Path]:
    """Write the club's tables (games, standings, ratings, meta) of ``events`` to
    ``target`` (:mod:`standgen.clubs.export`); refuse a target inside ``events``."""
    from standgen.clubs.export import club_tables, export

    if target.resolve().is_relative_to(events.resolve()):
        raise InputError([Problem(display(target), 1, "is inside the events folder; write "
                                  "the export somewhere else")])
    from standgen import perf

    tree = check(events)
    with perf.collector_paused():  # the games table's rows live until the export ends
        return export(club_tables(tree, fast=perf.enabled()), target)


@dataclass(frozen=True)
class Imported:
    """What ``import-trf`` wrote, and what it could not carry over."""

    event_dir: Path
    files: tuple[Path, ...]
    warnings: tuple[Problem, ...]


def import_trf(trf_file: Path, event_dir: Path, events_root: Path) -> Imported:
    """Write an event folder (event.toml, players.csv, round-N.csv) from a TRF16 file.

    The folder must not hold an event yet. The files are checked with the same loader
    as ``check`` before anything is written; raises InputError with every problem.
    """
    import shutil
    import tempfile

    from standgen.load.files import read_text
    from standgen.trf import event_files, parse_trf

    problems: list[Problem] = []
    # Latin-1 / Windows-1252 files (older pairing programs) are read with a warning
    text = read_text(trf_file, problems, spreadsheet=True)
    if text is None:
        raise InputError(problems)
    if not SLUG.match(event_dir.name):
        raise InputError([Problem(display(event_dir), 1, f"'{event_dir.name}' is not a slug; "
                                  "use lower-case letters, digits and hyphens")])
    if event_dir.exists() and any(event_dir.iterdir()):
        raise InputError([Problem(display(event_dir), 1, "folder is not empty; import-trf "
                                  "writes a new event folder and never overwrites one")])
    tournament = parse_trf(text, display(trf_file))
    files, warnings = event_files(tournament, display(trf_file), event_dir.name)
    event_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".import-", dir=event_dir.parent))
    try:
        for name, content in files.items():
            (staging / name).write_text(content, encoding="utf-8")
        found: list[Problem] = []
        event = load_event(staging, event_slugs(event_dir, events_root), found)
        if event is None or any(not p.warning for p in found):
            raise InputError(found or [Problem(display(trf_file), 1, "the imported event "
                                               "does not load; please report this file")])
        compute_standings(event)
        event_dir.mkdir(parents=True, exist_ok=True)
        written = []
        for name in files:
            (staging / name).replace(event_dir / name)
            written.append(event_dir / name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return Imported(event_dir, tuple(written), (*problems, *warnings))
