"""A player's history page made from the page the last build wrote (issue #33).

A result typed in changes the line of each player of its event: their score, perhaps
their placing, their record and the opponent they met. A regular's history page has a
row for each of hundreds of events and one for each of hundreds of opponents, and making
it again means reading their line in every event they played. When the events a build
loaded again are *steady* for the player (each was there at the last build and still is,
with the same name, date and field, the player in it before and after, under the same
name and faction; see ``Histories.update``), everything else on the page is as before:

- the events table: the row of each changed event is made anew
  (:func:`standgen.site.history.event_row`) and put where the row made from the old line
  was; the old row must be found exactly once, else the page is made in full;
- the overall record: the old one, less the old lines' games, plus the new lines';
- the head-to-head table: its rows are read back (and must write the same bytes again),
  each opponent's record is put right by the meetings the changed lines lost and gained,
  and the rows are sorted again as :func:`standgen.site.history.history_page` sorts them
  (most games first, then by name, then by link).

An opponent's name on that table is their name in the newest event the two met. It is
known without reading the other events only when the opponent keeps a meeting in each
changed event where they had one, under the name the table already shows, or is met for
the first time; anything else (a pairing corrected away, a renamed opponent) makes the
page in full. So does a page not found, or not as the template writes it.

``tests/test_history_splice.py`` compares the page made this way with the page made in
full, on random histories and random changes, in every language.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import standgen.site.links as links
from standgen.site.contexts import Link, frame
from standgen.site.history import (
    HeadToHead,
    HistoryEvent,
    event_row,
    history_page_path,
    wdl,
)
from standgen.site.summary import EventSummary, PlayerLine
from standgen.site.table_rows import head_to_head_rows, history_rows


class LineChange(NamedTuple):
    """A player's line in an event loaded again: the event's head (the same as at the
    last build), the line the last build kept, and the line now."""

    summary: EventSummary
    old: PlayerLine
    new: PlayerLine


@dataclass(frozen=True)
class HistorySplice:
    """What :func:`spliced_history` makes a page from (a ``PageType.splice``'s inputs)."""

    player: str
    old: bytes  # the page the last build wrote
    changes: Sequence[LineChange]


_EVENTS = '<table class="history stack"'
_OPPONENTS = '<table class="head-to-head"'
_BODY, _BODY_END = "<tbody>\n", "</tbody>"
_RECORD = re.compile(r"(\d+)-(\d+)-(\d+)")
_OPPONENT = re.compile(
    r'<tr>\n<th scope="row" class="name"><a href="([^"<>]*)">([^<>]*)</a></th>\n'
    r'<td class="num">(\d+)</td>\n<td class="num">(\d+)-(\d+)-(\d+)</td>\n</tr>\n')


def spliced_history(inputs: HistorySplice) -> bytes | None:
    """Return ``inputs.player``'s history page with the changed lines put in, made from
    the page the last build wrote, or None when it cannot be (the page is then made in
    full). Run with the page's language active."""
    changes = inputs.changes
    if any(c.old.name != c.new.name or c.old.faction != c.new.faction for c in changes):
        return None  # the page's name, or whether it has a Faction column, may change
    try:
        text = inputs.old.decode("utf-8")
    except UnicodeDecodeError:
        return None
    pid = inputs.player
    path = history_page_path(pid)
    page = frame(path, "", "history")  # only its links are read
    parts = _split(text)
    if parts is None:
        return None
    head, events, middle, opponents, tail = parts
    rows = _events(events, [(event_row(page, c.summary, c.old, pid),
                             event_row(page, c.summary, c.new, pid)) for c in changes])
    record = _record(head, changes) if rows is not None else None
    if rows is None or record is None:
        return None
    met = ""
    if opponents is not None:
        spliced = _opponents(opponents, changes, links.pages_in(path, "players"))
        if spliced is None:
            return None
        met = spliced
    elif any(c.old.meetings or c.new.meetings for c in changes):
        return None  # "No finished games yet" may become a table
    return "".join((record, rows, middle, met, tail)).encode("utf-8")


def _split(text: str) -> tuple[str, str, str, str | None, str] | None:
    """Return the page cut around its two tables' rows: what comes before the events
    rows (with the overall record), the rows, what comes between, the head-to-head rows
    (None when the page has no such table) and the rest."""
    table = text.find(_EVENTS)
    start = text.find(_BODY, table) + len(_BODY) if table >= 0 else -1
    end = text.find(_BODY_END, start) if start >= len(_BODY) else -1
    if end < 0:
        return None
    table = text.find(_OPPONENTS, end)
    if table < 0:
        return text[:start], text[start:end], text[end:], None, ""
    second = text.find(_BODY, table) + len(_BODY)
    second_end = text.find(_BODY_END, second) if second >= len(_BODY) else -1
    if second_end < 0:
        return None
    return (text[:start], text[start:end], text[end:second], text[second:second_end],
            text[second_end:])


def _events(rows: str, changed: Sequence[tuple[HistoryEvent, HistoryEvent]]) -> str | None:
    """Return the events table's rows with each changed row put in place of the row the
    old line made (with the Faction column if the table has one)."""
    for old, new in changed:
        for factions in (True, False):
            before = str(history_rows([old], factions))
            at = rows.find(before)
            if at >= 0:
                break
        else:
            return None
        if rows.find(before, at + 1) >= 0:
            return None
        after = str(history_rows([new], factions))
        rows = rows[:at] + after + rows[at + len(before):]
    return rows


def _record(head: str, changes: Sequence[LineChange]) -> str | None:
    """Return the page's head with the overall record put right."""
    lead = head.find('<p class="lead">')
    start = head.find("<strong>", lead) + len("<strong>") if lead >= 0 else -1
    end = head.find("</strong>", start) if start >= len("<strong>") else -1
    found = _RECORD.fullmatch(head, start, end) if end >= 0 else None
    if found is None:
        return None
    totals = [int(n) for n in found.groups()]
    for change in changes:
        totals = [t - a + b for t, a, b in zip(totals, change.old.counts, change.new.counts,
                                                strict=True)]
    if min(totals) < 0:
        return None
    return head[:start] + wdl(totals) + head[end:]


def _read_opponents(rows: str) -> dict[str, tuple[str, list[int]]] | None:
    """Return the head-to-head rows read back, by link: the name shown and the W-D-L;
    None unless they write the same bytes again."""
    table: dict[str, tuple[str, list[int]]] = {}
    for found in _OPPONENT.finditer(rows):
        href, label, games, *counts = found.groups()
        record = [int(n) for n in counts]
        if href in table or sum(record) != int(games):
            return None
        table[href] = (html.unescape(label), record)
    named = [HeadToHead(Link(name, href), sum(r), wdl(r), "") for href, (name, r) in table.items()]
    return table if head_to_head_rows(named) == rows else None


def _opponents(rows: str, changes: Sequence[LineChange], history_of: Callable[[str], str]
               ) -> str | None:
    """Return the head-to-head rows with the changed lines' meetings taken out and put
    in, sorted again, or None when an opponent's name on the table might change."""
    table = _read_opponents(rows)
    if table is None:
        return None
    names: dict[str, set[str]] = {}
    for change in changes:
        before = {o for o, _name, _column in change.old.meetings}
        after = {o for o, _name, _column in change.new.meetings}
        for opponent, name, column in change.old.meetings:
            href = history_of(opponent)
            if href not in table:
                return None
            table[href][1][column] -= 1
            # gone from this event: their name may come from another event now
            names.setdefault(href, set()).add(name if opponent in after else "\0gone")
        for opponent, name, column in change.new.meetings:
            href = history_of(opponent)
            if href not in table:
                if opponent in before:
                    return None
                table[href] = (name, [0, 0, 0])
            table[href][1][column] += 1
            names.setdefault(href, set()).add(name)
    for href, seen in names.items():
        name, record = table[href]
        if min(record) < 0:
            return None
        if sum(record) == 0:
            del table[href]
        elif seen != {name}:
            return None
    rows_now = [HeadToHead(Link(name, href), sum(r), wdl(r), name.casefold())
                for href, (name, r) in table.items()]
    rows_now.sort(key=_order)
    return str(head_to_head_rows(rows_now)) if rows_now else None  # else "No finished games"


def _order(row: HeadToHead) -> tuple[int, str, str]:
    """The head-to-head table's order (:func:`standgen.site.history.history_page`'s)."""
    return -row.games, row.sort_key, row.opponent.href
