"""``standgen import-trf``: an event folder from a FIDE TRF16 file."""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from standgen.errors import InputError, Problem
from standgen.eventday import event_slugs
from standgen.load import load_event
from standgen.load.files import SLUG, display, read_text
from standgen.standings import compute_standings
from standgen.trf import event_files, parse_trf


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
