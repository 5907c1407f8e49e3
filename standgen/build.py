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
from standgen.load.files import SLUG, display
from standgen.model import Event, EventsTree, GameKind, Round

if TYPE_CHECKING:
    from standgen.builder import Built
from standgen.output import write_atomic
from standgen.pipeline import EventReport, pair_round
from standgen.roundfile import round_csv
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
    from standgen.pipeline import report
    from standgen.site import render_site

    total = len(tree.events)
    done: list[EventReport] = []
    for event in tree.events:
        done.append(report(event))
        if progress is not None:
            progress("standings", len(done), total)
    if progress is not None:
        progress("pages", 0, 1)
    return render_site(tree, tuple(done), DOCS, TEMPLATES)


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
    tree = load_tree(events)
    for event in tree.events:
        compute_standings(event)
    return tree


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


def pair(event_dir: Path, events_root: Path, force: bool = False) -> Paired:
    """Write the next round file of the event in ``event_dir``.

    Never overwrites a round file holding any result; refuses while the previous round
    has games without results unless ``force``. Raises InputError with the reason.
    """
    problems: list[Problem] = []
    event = load_event(event_dir, event_slugs(event_dir, events_root), problems)
    if event is None or any(not p.warning for p in problems):
        raise InputError(problems)
    where = display(event_dir / "event.toml")
    last = event.rounds[-1] if event.rounds else None
    if last is not None and not _has_results(last) and not force:
        raise InputError([Problem(display(Path(last.source.path)), 1, f"round {last.number} is "
                                  "already paired and has no results yet; enter results, or "
                                  "use --force to pair it again")])
    if last is not None and not _has_results(last) and force:
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
        raise InputError([Problem(where, 1, "the event is over (planned rounds played or a clear "
                                  "winner); raise 'rounds' in event.toml to play on")])
    proposal = pair_round(event, standings, number)
    target = event_dir / f"round-{number}.csv"
    text = round_csv(format_of(event), proposal.round)
    write_atomic(target, text)
    return Paired(target, event, text, proposal.notes)


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
                       f'format = "{format_id}"\n# rounds = 4\n# seed = 1234\n'
                       f'# tiebreaks = {list(fmt.default_tiebreaks)!r}\n'.replace("'", '"')),
        "players.csv": SCAFFOLD_PLAYERS.get(format_id, "id,name,faction,club,country,"
                                            "dropped_after") + "\n",
        "event.md": f"# {title}\n\nWelcome! Describe the venue, schedule and prizes here.\n",
    }
    written = []
    for name_, text in files.items():
        path = event_dir / name_
        if not path.exists():
            write_atomic(path, text)
            written.append(path)
    return written


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
    text = read_text(trf_file, problems)
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
    return Imported(event_dir, tuple(written), tuple(warnings))
