"""An entry at the desk: values as typed (trimmed, digits of any script made ASCII), what
is wrong with it in the TO's words (a stat that is not a number, stats without a result,
a round or table changed since the page was loaded), and what makes two players'
agreeing reports worth the TO's look."""

from __future__ import annotations

import hmac
import unicodedata
from collections.abc import Mapping, Sequence

from standgen.formats.base import Stat
from standgen.load.files import display, parse_int, parse_number
from standgen.roundfile import RoundFile, RoundRow
from standgen.venue.rounds import Report

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
