"""The library's entry points behind the CLI: build, check, pair, new."""

from __future__ import annotations

import datetime as dt
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from standgen import perf
from standgen.audit import audit, deviations, over_before_paired_round, stale_pairing
from standgen.builder import Built
from standgen.builder import build as build_site
from standgen.errors import InputError, Problem
from standgen.eventday import Paired as Paired  # the event-day commands' home
from standgen.eventday import drop_player as drop_player
from standgen.eventday import event_slugs, events_root_of, is_one_event, load
from standgen.eventday import pair as pair
from standgen.eventday import request_bye as request_bye
from standgen.eventday import status as status
from standgen.formats import FORMATS
from standgen.load import load_event, load_tree
from standgen.load.config import unknown_format
from standgen.load.files import SLUG, display, read_text, slug_for
from standgen.model import EventConfig, EventsTree
from standgen.output import write_atomic
from standgen.pipeline import EventReport, report
from standgen.site.renderer import render_site
from standgen.standings import compute_standings
from standgen.trf import event_files, parse_trf

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
    events = tree_root(events)
    return build_site(events, output, DOCS, TEMPLATES, progress, full=full, jobs=jobs)


def tree_root(path: Path) -> Path:
    """Return the events root for a command that works on the whole tree: ``path``
    itself, or the root that holds it when ``path`` is an event folder (issue #27 item 2:
    every command takes the events root or an event folder)."""
    return (events_root_of(path) or path) if is_one_event(path) else path


def check(events: Path) -> EventsTree:
    """Validate ``events`` (the events root, or one event folder); raise InputError
    listing every problem."""
    if is_one_event(events):
        event, warnings = load(events)
        tree = EventsTree(root=display(events), events=(event,),
                          warnings=tuple(p for p in warnings if p.warning))
    else:
        tree = load_tree(events)
    found: list[Problem] = []
    unneeded: set[str] = set()  # paired rounds the event no longer needs
    for event in tree.events:
        compute_standings(event)
        found.extend(audit(event))
        found.extend(deviations(event))  # check only: the Dutch engine is slow on large fields
        found.extend(stale_pairing(event))  # check only: it pairs the last round again
        if over_before_paired_round(event):
            unneeded.add(event.rounds[-1].source.path)
    # a round the event no longer needs: its one warning says what to do; the loader's
    # "run pair --redo" (which refuses while the event is over) would mislead (issue #27)
    kept = tuple(p for p in tree.warnings if p.path not in unneeded or "--redo" not in p.message)
    return replace(tree, warnings=(*kept, *found))


# the event-day columns (joined, byes, dropped_after) end every scaffold (issue #27)
DAY_COLUMNS = "joined,byes,dropped_after"


def new_event(event_dir: Path, format_id: str, name: str | None = None) -> list[Path]:
    """Scaffold an event folder: event.toml, players.csv, event.md. Never overwrites."""
    if format_id not in FORMATS:
        raise InputError([Problem(display(event_dir), 1, unknown_format(format_id))])
    if not SLUG.match(event_dir.name):
        better = slug_for(event_dir.name)
        example = (f", e.g. standgen new {display(event_dir.with_name(better))} --format "
                   f"{format_id}" if better else "")
        raise InputError([Problem(display(event_dir), 1, f"'{event_dir.name}' is not a slug; use "
                                  f"lower-case letters, digits and hyphens{example}")])
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
        "players.csv": ",".join(FORMATS[format_id].player_columns) + f",{DAY_COLUMNS}\n",
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


def export_club(events: Path, target: Path) -> list[Path]:
    """Write the club's tables (games, standings, ratings, meta) of ``events`` to
    ``target`` (:mod:`standgen.clubs.export`); refuse a target inside ``events``."""
    from standgen.clubs.export import club_tables, export  # loads pandas: tests DEFERRED

    if target.resolve().is_relative_to(events.resolve()):
        raise InputError([Problem(display(target), 1, "is inside the events folder; write "
                                  "the export somewhere else")])
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
