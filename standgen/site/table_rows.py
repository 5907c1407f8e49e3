"""The rows of a player's history and of a season's leaderboard as HTML, written in
Python: the quicker way to the bytes the templates' row loops write
(``site_templates/history.html``, ``site_templates/season.html``).

A result typed in changes the history page of every player of its event (a regular's
has a row for each of hundreds of events, and one per opponent met) and its season's
leaderboard (a row per player of the season, about 1,000); Jinja2 spends some 20
microseconds on such a row (an attribute lookup, a call and an escape per cell). This
writes the same rows with f-strings, the same escaping (MarkupSafe's, as
:mod:`standgen.site.club_rows`), the same ``localdate`` filter and the same gettext.

The templates' loops stay the reference: a page made with ``Site.fast`` off carries no
HTML rows (``None``) and the template writes them itself; ``tests/test_table_rows.py``
renders pages both ways, in every language of the catalogues, and requires the same
bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from markupsafe import Markup

from standgen.site.club_rows import escape_text as _escape  # MarkupSafe's (one home)
from standgen.site.contexts import Link
from standgen.site.i18n import gettext, localdate


def _text(message: str) -> str:
    """Return ``_("message")`` as the template writes it: the translation marked safe
    and put through ``%`` with nothing to fill in (Jinja2's new-style gettext)."""
    return str(Markup(gettext(message)) % {})


class HistoryEvent(Protocol):
    """What an events row shows (:class:`standgen.site.history.HistoryEvent`)."""

    @property
    def event(self) -> Link: ...
    @property
    def player_page(self) -> str: ...
    @property
    def date(self) -> str: ...
    @property
    def faction(self) -> str: ...
    @property
    def rank(self) -> str: ...
    @property
    def score(self) -> str: ...
    @property
    def record(self) -> str: ...
    @property
    def place(self) -> int | None: ...


class HeadToHead(Protocol):
    """What a head-to-head row shows (:class:`standgen.site.history.HeadToHead`)."""

    @property
    def opponent(self) -> Link: ...
    @property
    def games(self) -> int: ...
    @property
    def record(self) -> str: ...


def history_rows(rows: Sequence[HistoryEvent], factions: bool) -> Markup:
    """Return the ``<tr>`` rows of a history page's events table as the template's loop
    writes them, in the active language (``factions``: with the Faction column)."""
    date = _text("Date")
    games = _text("games")
    faction = _text("Faction")
    wdl = _text("W-D-L")
    out = []
    for row in rows:
        event = row.event
        place = row.place
        cells = (
            f'<tr>\n<td data-label="{date}"><time datetime="{_escape(row.date)}">'
            f'{_escape(localdate(row.date))}</time></td>\n'
            f'<th scope="row" class="grow" data-key="event"><a href="{_escape(event.href)}">'
            f'{_escape(event.label)}</a> · <a href="{_escape(row.player_page)}">{games}</a>'
            '</th>\n'
        )
        if factions:
            cells += f'<td data-label="{faction}">{_escape(row.faction)}</td>'
        sort = "" if place is None else f' data-sort-value="{int(place)}"'
        out.append(
            f'{cells}<td class="num" data-key="place"{sort}><span class="stack-only">#</span>'
            f'{_escape(row.rank)}</td>\n'
            f'<td class="num score" data-key="score">{_escape(row.score)}</td>\n'
            f'<td class="num" data-label="{wdl}">{_escape(row.record)}</td>\n</tr>\n'
        )
    return Markup("".join(out))


def head_to_head_rows(rows: Sequence[HeadToHead]) -> Markup:
    """Return the ``<tr>`` rows of a history page's head-to-head table as the template's
    loop writes them."""
    return Markup("".join(
        f'<tr>\n<th scope="row" class="name"><a href="{_escape(row.opponent.href)}">'
        f'{_escape(row.opponent.label)}</a></th>\n'
        f'<td class="num">{int(row.games)}</td>\n'
        f'<td class="num">{_escape(row.record)}</td>\n</tr>\n'
        for row in rows
    ))


class LeaderCell(Protocol):
    """A player's points from one event (:class:`standgen.site.index_contexts.LeaderCell`)."""

    @property
    def text(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def counted(self) -> bool: ...


class LeaderEntry(Protocol):
    """An event a player played (:class:`standgen.site.index_contexts.LeaderEntry`)."""

    @property
    def event(self) -> Link: ...
    @property
    def cell(self) -> LeaderCell: ...


class LeaderRow(Protocol):
    """A leaderboard row (:class:`standgen.site.index_contexts.LeaderRow`)."""

    @property
    def rank(self) -> int: ...
    @property
    def player(self) -> Link: ...
    @property
    def total(self) -> str: ...
    @property
    def events(self) -> int: ...
    @property
    def cells(self) -> Sequence[LeaderCell]: ...
    @property
    def entries(self) -> Sequence[LeaderEntry]: ...


def _points(cell: LeaderCell) -> str:
    """Return a cell's points as the template writes them: struck through when not
    counted."""
    if cell.counted:
        return f'<span title="{_escape(cell.title)}">{_escape(cell.text)}</span>'
    return f'<del title="{_escape(cell.title)}">{_escape(cell.text)}</del>'


def _matrix_cells(row: LeaderRow, labels: Sequence[str]) -> str:
    """Return a row's cells, a column per event (``labels``: the columns' escaped labels)."""
    out = []
    for index, cell in enumerate(row.cells):
        label = labels[index]  # as the template's page.columns[loop.index0]
        if not cell.text:
            out.append(f'<td class="num no-entry" data-label="{label}:"><span class="pending"'
                       f' title="{_escape(cell.title)}">–</span></td>\n')
        else:
            out.append(f'<td class="num" data-label="{label}:">{_points(cell)}</td>\n')
    return "".join(out)


def _entries(row: LeaderRow, results: str, links: dict[int, str]) -> str:
    """Return a row's one cell listing the events played (``links``: each event's
    escaped link by the id of its ``Link``, filled in as met)."""
    out = []
    for entry in row.entries:
        event = entry.event
        anchor = links.get(id(event))
        if anchor is None:
            anchor = links[id(event)] = (f'<a href="{_escape(event.href)}">'
                                         f'{_escape(event.label)}</a> ')
        out.append(f"<li>{anchor}{_points(entry.cell)}</li>")
    return f'<td class="season-results" data-label="{results}:"><ul>{"".join(out)}</ul></td>\n'


def leaderboard_rows(rows: Sequence[LeaderRow], columns: Sequence[Link] | None) -> Markup:
    """Return the ``<tr>`` rows of a season's leaderboard as the template's loop writes
    them, in the active language (``columns``: the events' columns of a season of few
    events, None for a long season's one cell of events per row)."""
    events = _text("Events")
    results = _text("Results")
    labels = [_escape(column.label) for column in columns or ()]
    links: dict[int, str] = {}
    out = []
    for row in rows:
        player = row.player
        cells = (_matrix_cells(row, labels) if columns is not None
                 else _entries(row, results, links))
        out.append(
            f'<tr>\n<td class="num stick stick-rank" data-key="rank">{int(row.rank)}</td>\n'
            f'<th scope="row" class="name stick stick-name grow" data-key="name">'
            f'<a href="{_escape(player.href)}">{_escape(player.label)}</a></th>\n'
            f'<td class="num score stick stick-score" data-key="score">{_escape(row.total)}'
            f'</td>\n<td class="num" data-label="{events}">{int(row.events)}</td>\n'
            f'{cells}</tr>\n'
        )
    return Markup("".join(out))


class EventItem(Protocol):
    """An event in a list (:class:`standgen.site.index_contexts.EventItem`)."""

    @property
    def name(self) -> str: ...
    @property
    def href(self) -> str: ...
    @property
    def date(self) -> str: ...
    @property
    def format_label(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def season(self) -> str: ...


def event_items(items: Sequence[EventItem]) -> Markup:
    """Return the ``<li>`` items of a list of events (``site_templates/_events.html``: the
    home page lists every event, a season page its own) as the template's loop writes
    them, in the active language."""
    labels: dict[str, str] = {}  # a format's label, translated, escaped
    out = []
    for item in items:
        label = labels.get(item.format_label)
        if label is None:
            label = labels[item.format_label] = _escape(gettext(item.format_label))
        season = f" · {_escape(item.season)}" if item.season else ""
        out.append(
            f'<li>\n<a href="{_escape(item.href)}">{_escape(item.name)}</a>\n'
            f'<span class="meta"><time datetime="{_escape(item.date)}">'
            f'{_escape(localdate(item.date))}</time> · {label}{season}</span>\n'
            f'<span class="status">{_escape(item.status)}</span>\n</li>\n'
        )
    return Markup("".join(out))
