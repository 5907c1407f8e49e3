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
        if not row.get("name"):
            bad(f"player '{pid}' has no name; fill in the 'name' column")
        lost = [row.get(c) for c in ("name", "faction", "club") if LOST.search(row.get(c))]
        if lost:
            problems.append(Problem(where, row.line, f"'{lost[0]}': the file's encoding lost "
                                    "a letter (a '?' in a name, as Excel's plain CSV writes "
                                    "letters Windows-1252 lacks); type the letter again and "
                                    "save as CSV UTF-8", warning=True))
        _check_numbers(row, bad)
        rank = row.get("rank")
        correction = row.get("mms_correction")
        rating = row.get("rating")
        dropped = row.get("dropped_after")
        joined = row.get("joined")
        byes = row.get("byes").replace(",", " ").split()
        spare = row.get("spare").lower()
        if spare not in ("", "yes", "no"):
            bad(f"spare '{row.get('spare')}' must be 'yes' or empty")
        publish, pseudonym = row.get("publish").lower(), row.get("pseudonym")
        _check_publish(publish, pseudonym, bad)
        list_check = row.get("list_check").lower()
        if list_check and list_check not in LIST_CHECKS:
            bad(f"list_check '{row.get('list_check')}' must be one of "
                + ", ".join(LIST_CHECKS) + ", or empty (no list yet)")
        players.append(Player(
            id=pid, name=row.get("name"), faction=row.get("faction"), club=row.get("club"),
            country=row.get("country"), rank=rank.lower(),
            mms_correction=parse_int(correction) or 0,
            rating=parse_number(rating) if rating else None,
            dropped_after=parse_int(dropped) if dropped else None,
            spare=spare == "yes", source=Source(where, row.line),
            joined=int(joined) if joined and parse_int(joined) else 0,
            byes=tuple(sorted({int(b) for b in byes if parse_int(b)})),
            publish=publish, pseudonym=pseudonym, list_check=list_check, team=row.get("team"),
        ))
    if not rows and not errors_only(problems[start:]):
        problems.append(Problem(where, 1, "no players; add one row per player under the header"))
    if errors_only(problems[start:]):
        return None
    return tuple(players)


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


def _check_numbers(row: Row, bad: Callable[[str], None]) -> None:
    """Record each of a row's rank, mms_correction, rating, dropped_after, joined and
    byes that is not a value the column takes (data contract section 1)."""
    rank = row.get("rank")
    if rank and not RANK.fullmatch(rank):
        bad(f"rank '{rank}' is not a Go rank; use 30k ... 1k, 1d ... 9d or 1p ... 9p")
    correction = row.get("mms_correction")
    if correction and parse_int(correction) is None:
        bad(f"mms_correction '{correction}' must be a whole number such as 1 or -2")
    rating = row.get("rating")
    if rating and (parse_number(rating) is None or float(rating) < 0):
        bad(f"rating '{rating}' must be a number of 0 or more")
    dropped = row.get("dropped_after")
    if dropped and (parse_int(dropped) is None or int(dropped) < 0):
        bad(f"dropped_after '{dropped}' must be the number of the last round played "
            "(0 if the player never played)")
    joined = row.get("joined")
    if joined and (parse_int(joined) is None or int(joined) < 1):
        bad(f"joined '{joined}' must be the number of the player's first round (1 or more)")
    byes = row.get("byes").replace(",", " ").split()
    if any(parse_int(b) is None or int(b) < 1 for b in byes):
        bad(f"byes '{row.get('byes')}' must be round numbers separated by spaces, such as "
            "'3' or '3 5' (the rounds the player asked not to be paired in)")
