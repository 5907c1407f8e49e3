"""``standgen new``: scaffold an event folder."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from standgen.errors import InputError, Problem
from standgen.formats import FORMATS
from standgen.load.config import unknown_format
from standgen.load.files import SLUG, display, slug_for
from standgen.model import EventConfig
from standgen.output import write_atomic

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
