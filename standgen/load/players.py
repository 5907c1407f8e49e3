"""players.csv: one row per player (data contract section 1)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from standgen.errors import Problem, errors_only
from standgen.load.files import SLUG, Row, display, parse_int, parse_number, read_csv
from standgen.model import LIST_CHECKS, PUBLISH_LEVELS, Player, Source

COLUMNS = ("id", "name", "faction", "club", "country", "rank", "mms_correction", "rating",
           "dropped_after", "spare", "joined", "byes", "publish", "pseudonym", "list_check",
           "team")
RANK = re.compile(r"([1-9]|[12][0-9]|30)k|[1-9]d|[1-9]p\Z")
RESERVED = {"bye", "absent"}
# a '?' next to a letter: what a spreadsheet writes for a letter its encoding lacks
LOST = re.compile(r"\w\?|\?\w")


def load_players(path: Path, problems: list[Problem]) -> tuple[Player, ...] | None:
    """Return the players, or None if the file cannot be used; every problem is recorded."""
    start = len(problems)
    table = read_csv(path, ("id", "name"), COLUMNS, problems)
    if table is None:
        return None
    _, rows = table
    where = display(path)
    players: list[Player] = []
    first_line: dict[str, int] = {}
    for row in rows:
        def bad(message: str, line: int = row.line) -> None:
            problems.append(Problem(where, line, message))

        pid = row.get("id")
        _check_id(pid, first_line, bad)
        first_line.setdefault(pid, row.line)
        _check_words(row, where, bad, problems)
        _check_numbers(row, bad)
        _check_choices(row, bad)
        players.append(_player(row, where))
    if not rows and not errors_only(problems[start:]):
        problems.append(Problem(where, 1, "no players; add one row per player under the header"))
    if errors_only(problems[start:]):
        return None
    return tuple(players)


def _check_words(row: Row, where: str, bad: Callable[[str], None],
                 problems: list[Problem]) -> None:
    """Record a row without a name, and warn of a letter the file's encoding lost."""
    if not row.get("name"):
        bad(f"player '{row.get('id')}' has no name; fill in the 'name' column")
    lost = [row.get(c) for c in ("name", "faction", "club") if LOST.search(row.get(c))]
    if lost:
        problems.append(Problem(where, row.line, f"'{lost[0]}': the file's encoding lost "
                                "a letter (a '?' in a name, as Excel's plain CSV writes "
                                "letters Windows-1252 lacks); type the letter again and "
                                "save as CSV UTF-8", warning=True))


def _check_choices(row: Row, bad: Callable[[str], None]) -> None:
    """Record a value outside its column's choices: ``spare``, ``publish`` (with
    ``pseudonym``) and ``list_check``."""
    if row.get("spare").lower() not in ("", "yes", "no"):
        bad(f"spare '{row.get('spare')}' must be 'yes' or empty")
    _check_publish(row.get("publish").lower(), row.get("pseudonym"), bad)
    list_check = row.get("list_check").lower()
    if list_check and list_check not in LIST_CHECKS:
        bad(f"list_check '{row.get('list_check')}' must be one of "
            + ", ".join(LIST_CHECKS) + ", or empty (no list yet)")


def _player(row: Row, where: str) -> Player:
    """Return the player of a players.csv row (its values as the checks left them)."""
    rating, dropped, joined = row.get("rating"), row.get("dropped_after"), row.get("joined")
    byes = row.get("byes").replace(",", " ").split()
    return Player(
        id=row.get("id"), name=row.get("name"), faction=row.get("faction"),
        club=row.get("club"), country=row.get("country"), rank=row.get("rank").lower(),
        mms_correction=parse_int(row.get("mms_correction")) or 0,
        rating=parse_number(rating) if rating else None,
        dropped_after=parse_int(dropped) if dropped else None,
        spare=row.get("spare").lower() == "yes", source=Source(where, row.line),
        joined=int(joined) if joined and parse_int(joined) else 0,
        byes=tuple(sorted({int(b) for b in byes if parse_int(b)})),
        publish=row.get("publish").lower(), pseudonym=row.get("pseudonym"),
        list_check=row.get("list_check").lower(), team=row.get("team"),
    )


def _check_id(pid: str, first_line: dict[str, int], bad: Callable[[str], None]) -> None:
    """Record an id that is not a slug, is reserved, or is already used on an earlier line
    (``first_line``: the line each id was first seen on); data contract section 1."""
    if not SLUG.match(pid) or len(pid) > 64:
        bad(f"id '{pid}' must be a slug: lower-case letters, digits and hyphens, "
            "starting with a letter or digit (e.g. 'anna-k')")
    elif pid in RESERVED:
        bad(f"id '{pid}' is reserved (BYE / ABSENT); choose another")
    elif pid in first_line:
        bad(f"id '{pid}' is already used on line {first_line[pid]}; ids must be unique")


def _check_publish(publish: str, pseudonym: str, bad: Callable[[str], None]) -> None:
    """Record a ``publish`` cell that is no level, and a pseudonym missing or not asked
    for (docs/privacy.md)."""
    if publish and publish not in PUBLISH_LEVELS:
        bad(f"publish '{publish}' must be one of " + ", ".join(PUBLISH_LEVELS)
            + ", or empty for the event's default")
    elif publish == "pseudonym" and not pseudonym:
        bad("publish 'pseudonym' needs the name to show in the 'pseudonym' column")
    elif pseudonym and publish != "pseudonym":
        bad(f"pseudonym '{pseudonym}' is shown only with publish 'pseudonym'; "
            "set it, or empty the cell")


# a number column of players.csv: its name, whether a (non-empty) value is valid, and
# what it must be
_NUMBERS: tuple[tuple[str, Callable[[str], bool], str], ...] = (
    ("mms_correction", lambda v: parse_int(v) is not None, "a whole number such as 1 or -2"),
    ("rating", lambda v: parse_number(v) is not None and float(v) >= 0,
     "a number of 0 or more"),
    ("dropped_after", lambda v: parse_int(v) is not None and int(v) >= 0,
     "the number of the last round played (0 if the player never played)"),
    ("joined", lambda v: parse_int(v) is not None and int(v) >= 1,
     "the number of the player's first round (1 or more)"),
)


def _check_numbers(row: Row, bad: Callable[[str], None]) -> None:
    """Record each of a row's rank, mms_correction, rating, dropped_after, joined and
    byes that is not a value the column takes (data contract section 1)."""
    rank = row.get("rank")
    if rank and not RANK.fullmatch(rank):
        bad(f"rank '{rank}' is not a Go rank; use 30k ... 1k, 1d ... 9d or 1p ... 9p")
    for column, check, what in _NUMBERS:
        value = row.get(column)
        if value and not check(value):
            bad(f"{column} '{value}' must be {what}")
    byes = row.get("byes").replace(",", " ").split()
    if any(parse_int(b) is None or int(b) < 1 for b in byes):
        bad(f"byes '{row.get('byes')}' must be round numbers separated by spaces, such as "
            "'3' or '3 5' (the rounds the player asked not to be paired in)")
