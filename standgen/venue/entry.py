"""An entry at the desk: values as typed (trimmed, digits of any script made ASCII), what
is wrong with it in the TO's words (a column the desk does not enter, a value that is not
one short line, a stat that is not a number, stats without a result, a table the round
does not hold once, a round or table changed since the page was loaded), the players'
names as the desk shows them, and what makes two players' agreeing reports worth the
TO's look."""

from __future__ import annotations

import hmac
import unicodedata
from collections.abc import Mapping, Sequence

from standgen.formats.base import Stat
from standgen.load.files import CONTROL, display, parse_int, parse_number
from standgen.roundfile import RoundFile, RoundRow
from standgen.venue.guard import MAX_VALUE
from standgen.venue.rounds import EventInfo, Outcome, Report

QUICK = 10.0  # seconds: a table confirmed by both players within this is marked


def stat_problem(stat: Stat, value: str) -> str:
    """Return what is wrong with an entered stat ("must be a whole number (not 'x')",
    "cannot be negative"), or "" (for an empty field too)."""
    if not value:
        return ""
    number = parse_int(value) if stat.integer else parse_number(value)
    if number is None:
        kind = "a whole number" if stat.integer else "a number"
        return f"must be {kind} (not '{value}')"
    return f"cannot be negative (not '{value}')" if number < 0 else ""


def stat_problems(stats: Sequence[Stat], table: int, who: Mapping[int, str],
                   new: Mapping[str, str]) -> dict[str, str]:
    """Return each entered stat's problem by column, in the TO's words ("Table 2: control
    points of Dan O'Neill must be a whole number")."""
    found: dict[str, str] = {}
    for stat in stats:
        for k in (1, 2):
            column = f"{stat.id}_{k}"
            wrong = stat_problem(stat, new.get(column, ""))
            if wrong:
                found[column] = f"Table {table}: {stat.label.lower()} of {who[k]} {wrong}"
    return found



def no_result(table: int, stats: Sequence[Stat], derived: bool) -> str:
    """Return the problem of a save that gives ``stats`` but no result: with a result
    ``derived`` from stats, those for both players are needed."""
    labels = " and ".join(s.label.lower() for s in stats)
    if derived:
        return (f"Table {table}: choose the result, or enter what it is "
                f"derived from for both players ({labels} alone are not enough)")
    return (f"Table {table}: choose the result; the {labels} alone "
            "do not say who won (or clear them to leave the table open)")


def changed_since(current: RoundFile, row: RoundRow, table: int, pairing: str | None,
                   expect: str | None) -> str:
    """Return why an entry is refused when the round's pairing (``pairing``) or the
    table's row (``expect``) changed since the page was loaded; "" when neither did."""
    path = current.path
    if pairing is not None and not hmac.compare_digest(pairing, current.pairing_tag):
        return (f"{display(path)}:1: the tables or players of this round "
                "changed since this page was loaded (a new pairing, a row "
                "added or removed, or the file being saved); nothing was "
                "written: check the round and enter it again")
    if expect is not None and not hmac.compare_digest(expect, row.tag):
        return (f"{display(path)}:{row.line}: table {table} changed since "
                f"this page was loaded (it now reads '{row.text}'); check "
                "it and enter the result again")
    return ""


def suspicious(other: Report, mine: Report) -> list[str]:
    """Return what makes two agreeing reports worth the TO's look: one address, or
    within :data:`QUICK` seconds of each other."""
    why = []
    if other.client == mine.client:
        why.append("from one address")
    if abs(mine.time - other.time) < QUICK:
        why.append(f"within {QUICK:.0f} seconds of each other")
    return why


def as_typed(values: Mapping[str, str]) -> dict[str, str]:
    """Return entered values trimmed, their digits ASCII, and a draw written "draw"."""
    typed = {k: ascii_digits(v.strip()) for k, v in values.items()}
    if typed.get("result", "").lower() == "draw":
        typed["result"] = "draw"
    return typed


def ascii_digits(text: str) -> str:
    """Return ``text`` with every decimal digit of any script as its ASCII digit (``５``,
    ``٣``), so that the round file holds what ``check`` and spreadsheets read."""
    if text.isascii():
        return text
    return "".join(str(unicodedata.decimal(c)) if unicodedata.decimal(c, None) is not None
                   else c for c in text)


def player_names(rows: list[list[str]]) -> dict[str, str]:
    """Return players.csv's names by id, as the desk shows them: a row's id where it has
    no name, the id beside a name two players share."""
    return _told_apart(_names_by_id(rows))


def _told_apart(found: dict[str, str]) -> dict[str, str]:
    """Return the names with the id beside each name two players share (two Oliver
    Smiths)."""
    seen: dict[str, int] = {}
    for name in found.values():
        seen[name] = seen.get(name, 0) + 1
    return {pid: f"{name} ({pid})" if seen[name] > 1 else name
            for pid, name in found.items()}


def no_such_table(current: RoundFile, table: int) -> Outcome:
    """Return the 404 of an entry for a table the round file does not hold once: none, or
    on several rows (each table is numbered once in a round file)."""
    many = sum(1 for r in current.rows if r.table == table)
    return Outcome(404, [f"{display(current.path)}:1: " + (
        f"table {table} is on {many} rows; number each table once in the file"
        if many else f"no table {table} in this round")])


def refused_values(info: EventInfo, values: Mapping[str, str]) -> Outcome | None:
    """Return the refusal of values the desk may not enter for ``info``'s tables, or None."""
    allowed = info.columns()
    for column, value in values.items():
        if column not in allowed:
            return Outcome(400, [f"'{column}' cannot be entered at the desk"])
        if CONTROL.search(value) or len(value) > MAX_VALUE or "\u2028" in value \
                or "\u2029" in value or "\x85" in value:
            return Outcome(400, [f"{column}: enter one short line (at most {MAX_VALUE} "
                                 "characters)"], fields={column: "Enter one short line."})
    return None


def _names_by_id(rows: list[list[str]]) -> dict[str, str]:
    """Return players.csv's names by id (the id where a row has no name); rows without an
    id are left out."""
    header = [name.strip() for name in rows[0]]
    found = {}
    for row in rows[1:]:
        cells = dict(zip(header, (c.strip() for c in row), strict=False))
        if cells.get("id"):
            found[cells["id"]] = cells.get("name") or cells["id"]
    return found
