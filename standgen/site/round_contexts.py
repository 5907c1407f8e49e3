"""The round page: tables, players, factions, results and the format's stat columns."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from markupsafe import Markup

import standgen.site.links as links
from standgen.formats.base import Format
from standgen.model import Event, EventConfig, Game, GameKind, Player, Round, RoundState, Seat
from standgen.pipeline import EventReport
from standgen.site.contexts import Frame, Link, Site, shown_names_of, stat_heading
from standgen.site.event_contexts import event_frame, page_status, rounds_of, scenario_of
from standgen.site.formats import views_of
from standgen.site.formats.base import FormatViews
from standgen.site.i18n import _, ngettext
from standgen.site.numbers import display_number
from standgen.site.qr import qr_svg
from standgen.site.results import alone_label, result_of, table_result
from standgen.site.team_matches import MatchView, match_views
from standgen.standings import Standings

_KIND_LABEL = {GameKind.BYE: "Bye", GameKind.ABSENT: "Absent"}
_STATUS_LABEL = {"proposed": "Proposed", "in-progress": "In progress", "complete": "Complete",
                 "paired": "Paired"}


@dataclass(frozen=True)
class Side:
    """One seat at a table: the player's link, faction (or power), stats and seat result."""

    player: Link
    faction: str
    stats: tuple[str, ...]
    result: str
    cells: tuple[str, ...] = ()  # the format's seat_cells, under its seat_headers
    info: tuple[str, ...] = ()  # rating, rank, score before the round (RoundPage.info_labels)
    details: tuple[str, ...] = ()  # every value above as one line's parts, for narrow screens


@dataclass(frozen=True)
class TableRow:
    """One table of a round; a bye or an absence has one side and ``alone`` says which."""

    table: int
    sides: tuple[Side, ...]
    alone: str  # "Bye", "Absent" or ""
    result: str  # as a round file writes it; "" while not played
    forfeit: bool
    extras: tuple[str, ...]  # the format's per-game columns (Go handicap, komi)
    extra_details: tuple[str, ...] = ()  # "handicap 2", "komi 0.5": extras on one line


@dataclass(frozen=True)
class TableLists:
    """The army lists of one table's players (round pages, once lists are public)."""

    label: str  # "Table 3", "Board 2"
    players: tuple[Link, ...]
    lists: tuple[Markup, ...]  # sanitised HTML, one per player with a list


@dataclass(frozen=True)
class RoundPage:
    """Everything a round page shows."""

    frame: Frame
    event_name: str
    event_href: str
    number: int
    status: str  # "proposed", "in-progress", "complete"
    status_label: str
    planned: int
    scenario: str
    stat_labels: tuple[str, ...]  # short stat labels (CP, APD)
    stat_titles: tuple[str, ...]
    extra_labels: tuple[str, ...]
    multi_seat: bool  # boards (Diplomacy) instead of two-player tables
    tables: tuple[TableRow, ...]
    previous: Link | None
    next: Link | None
    pairings_json: str
    pairings_csv: str
    seat_headers: tuple[str, ...]
    rounds: tuple[Link, ...]  # every round page, for round-to-round navigation
    qr: Markup  # printed pairings: a QR code of the event page (site_url configured)
    event_url: str  # the event page's absolute address, "" without site_url
    show_faction: bool = True  # a faction or power column (some seat has one)
    info_labels: tuple[str, ...] = ()  # per-seat columns from players.csv and standings
    info_titles: tuple[str, ...] = ()
    sitting_out: tuple[Side, ...] = ()  # board formats: players without a board this round
    by_name: tuple[NameRow, ...] = ()  # every player by name: where they sit
    slips: str = ""  # the round's result slips page
    note: str = ""  # the format's note on how this round was paired (plain text)
    started: bool = True  # a result is entered (a paired round is "in-progress" in JSON)
    army_lists: tuple[TableLists, ...] = ()  # with ``lists_public`` set, once public
    matches: tuple[MatchView, ...] = ()  # a team event's matches of the round


@dataclass(frozen=True)
class NameRow:
    """A line of the pairing list by name: the player, their table and opponent(s)."""

    player: Link
    table: str  # "3", or "" for a bye or sit-out
    opponent: str  # "Hana Sato (Retribution)", "Bye", "Board 2 (7 players)"
    seat: str  # the format's first seat cell (Colour) or the power


def _side(
    site_page: Frame,
    event: Event,
    players: Mapping[str, Player],
    game: Game,
    index: int,
    stats: tuple[str, ...],
    fmt: Format | None = None,
    info: Info | None = None,
) -> Side:
    seat = game.seats[index]
    player = players.get(seat.player)
    name = shown_names_of(event).get(seat.player, seat.player)
    views = views_of(fmt) if fmt is not None else None
    cells = _seat_cells(views, game, seat, event.config)
    faction = seat.power or (player.faction if player is not None else "")
    values = tuple(display_number(seat.stats[s]) if s in seat.stats else "" for s in stats)
    infos = info.values(seat.player, player) if info is not None else ()
    details = _details(faction, _info_details(infos, info.inline) if info is not None else [],
                       values, stats, cells, views)
    return Side(
        player=Link(name, site_page.href(links.player_page(event, seat.player))),
        faction=faction,
        stats=values,
        result=_alone_label(game, fmt, event) or table_result(game, seat) or "",
        cells=cells,
        info=infos,
        details=details,
    )


def _details(faction: str, infos: list[str], values: tuple[str, ...], stats: tuple[str, ...],
             cells: tuple[str, ...], views: FormatViews | None) -> tuple[str, ...]:
    """Return a seat's values as one line's parts, for narrow screens: the faction, the
    per-seat columns, the stats and the format's cells, each with its heading."""
    details = [faction] if faction else []
    details += infos
    details += [f"{v} {_(stat_heading(s))}" for v, s in zip(values, stats, strict=True) if v]
    if views is not None:
        details += [_inline(v, h) for v, h in zip(cells, views.seat_headers, strict=False) if v]
    return tuple(details)


def _seat_cells(views: FormatViews | None, game: Game, seat: Seat,
                config: EventConfig) -> tuple[str, ...]:
    """Return a seat's cells under the format's seat headers (Colour, power), padded."""
    if views is None or not views.seat_headers:
        return ()
    found = tuple(views.seat_cells(game, seat, config)) if views.seat_cells else ()
    cells = tuple(str(c) for c in found[: len(views.seat_headers)])
    return cells + ("",) * (len(views.seat_headers) - len(cells))


def _info_details(infos: tuple[str, ...], inline: tuple[str, ...]) -> list[str]:
    """Return the per-seat columns for one line, each with its word after ("12 Pts")."""
    return [f"{v} {label}".strip() if label else v
            for v, label in zip(infos, inline, strict=True) if v]


def _inline(value: str, header: str) -> str:
    """Return a seat cell for one line: numbers with their heading ("3 TP"), words alone."""
    return f"{value} {header}" if value[:1].isdigit() or value[:1] in "-+" else value


@dataclass(frozen=True)
class Info:
    """The per-seat columns a round page adds from players.csv and the standings.

    Rating (chess) and rank (Go) when some player has one; the score before the round
    (from the standings after the previous round) from round 2 on.
    """

    labels: tuple[str, ...]
    titles: tuple[str, ...]
    inline: tuple[str, ...]  # the word after a value on one line ("Pts"), "" for none
    rating: bool
    rank: bool
    before: Mapping[str, str] | None

    def values(self, player_id: str, player: Player | None) -> tuple[str, ...]:
        found: list[str] = []
        if self.rating:
            found.append(display_number(player.rating)
                         if player is not None and player.rating is not None else "")
        if self.rank:
            found.append(player.rank if player is not None else "")
        if self.before is not None:
            found.append(self.before.get(player_id, "0"))
        return tuple(found)


def round_info(report: EventReport, number: int) -> Info:
    """Return the per-seat columns of round ``number``'s page (see :class:`Info`)."""
    event, fmt = report.event, report.standings.format
    labels: list[str] = []
    titles: list[str] = []
    inline: list[str] = []
    rating = any(p.rating is not None for p in event.players)
    rank = any(p.rank for p in event.players)
    for shown, label, title in ((rating, "Rtg", "Rating"), (rank, "Rank", "Rank")):
        if shown:
            labels.append(_(label))
            titles.append(_(title))
            inline.append("")
    before: dict[str, str] | None = None
    if number > 1 and fmt.seats <= 2 and len(report.by_round) >= number - 1:
        after = report.by_round[number - 2]
        before = {row.player.id: display_number(row.score) for row in after.rows}
        so_far = _("{score} so far").format(score=_(fmt.score_short))
        labels.append(so_far)
        titles.append(_("{score} before this round").format(score=_(fmt.score_label)))
        inline.append(so_far)
    return Info(tuple(labels), tuple(titles), tuple(inline), rating, rank, before)


def _alone_label(game: Game, fmt: Format | None, event: Event | None = None) -> str:
    """Return how a one-seat row reads, in the format's words (see ``alone_label``)."""
    if len(game.seats) != 1 or game.kind not in (GameKind.BYE, GameKind.ABSENT):
        return ""
    if fmt is None:
        return _KIND_LABEL.get(game.kind, "")
    if event is None:
        return alone_label(game, fmt, None, None)
    return alone_label(game, fmt, event.config, event.player_by_id.get(game.seats[0].player))


def table_row(
    page: Frame,
    event: Event,
    players: Mapping[str, Player],
    game: Game,
    stats: tuple[str, ...],
    extras: tuple[str, ...],
    fmt: Format | None = None,
    info: Info | None = None,
) -> TableRow:
    """Return one table of a round page, every value formatted."""
    values = tuple(display_number(game.extra[c]) if c in game.extra else "" for c in extras)
    return TableRow(
        table=game.table,
        sides=tuple(
            _side(page, event, players, game, i, stats, fmt, info)
            for i in range(len(game.seats))
        ),
        alone=_alone_label(game, fmt, event),
        result=result_of(game) or "",
        forfeit=game.kind is GameKind.FORFEIT,
        extras=values,
        extra_details=tuple(f"{_(c)} {v}" for c, v in zip(extras, values, strict=True) if v),
    )


def round_page(site: Site, report: EventReport, rnd: Round, proposed: bool,
               untrusted: Callable[[str], Markup] | None = None) -> RoundPage:
    """Return the context of a round's page (a round file's, or the proposed round's).
    ``untrusted`` renders army lists (a TO's or player's Markdown) for the tables.

    Games of more than two seats (Diplomacy boards) are laid out as boards: the board
    number, then one row per seat (player, power, stats, result).
    """
    event = report.event
    standings: Standings = report.standings
    fmt = standings.format
    path = links.round_page(event, rnd.number)
    status = page_status(rnd, proposed)
    title = _("Round {number}").format(number=rnd.number) + f" · {event.config.name}"
    page = event_frame(site, report, path, title, "round", site.event_crumbs(event))
    event_url = site.site_url + links.event_page(event) if site.site_url else ""
    numbers = [r.number for r, _ in rounds_of(report)]
    where = numbers.index(rnd.number)
    stats = tuple(s.id for s in fmt.stats)
    players = event.player_by_id
    info = round_info(report, rnd.number)
    multi_seat = fmt.seats > 2 or any(len(g.seats) > 2 for g in rnd.games)
    rows = tuple(
        table_row(page, event, players, game, stats, fmt.game_columns, fmt, info)
        for game in sorted(rnd.games, key=lambda g: g.table)
    )
    views = views_of(fmt)
    seat_headers = views.seat_headers
    rows, stat_keep, cell_keep = _drop_empty_columns(rows, len(stats), len(seat_headers))
    rows, extra_keep = _drop_empty_extras(rows, len(fmt.game_columns))
    started = rnd.state is not RoundState.PAIRED
    rows, sitting_out = _sitting_out(rows, multi_seat)
    previous, following = _neighbour_links(page, event, numbers, where)
    return RoundPage(
        matches=match_views(report, page, rnd.number) if event.config.teams.matches else (),
        note=views.round_note(report, rnd.number) if views.round_note else "",
        frame=page,
        event_name=event.config.name,
        event_href=page.href(links.event_page(event)),
        number=rnd.number,
        status=status,
        status_label=_status_label(status, started),
        started=started,
        planned=standings.planned_rounds,
        scenario=scenario_of(event, rnd.number),
        stat_labels=tuple(_(stat_heading(s.id)) for s in _kept(fmt.stats, stat_keep)),
        stat_titles=tuple(_(s.label) for s in _kept(fmt.stats, stat_keep)),
        extra_labels=tuple(_(c.capitalize()) for c in _kept(fmt.game_columns, extra_keep)),
        multi_seat=multi_seat,
        tables=rows,
        previous=previous,
        next=following,
        pairings_json=page.href(links.event_file(event, f"round-{rnd.number}", "pairings.json")),
        pairings_csv=page.href(links.event_file(event, f"round-{rnd.number}", "pairings.csv")),
        seat_headers=_kept(seat_headers, cell_keep),
        rounds=tuple(_round_link(page, event, n) for n in numbers),
        qr=_event_qr(event, event_url),
        event_url=event_url,
        show_faction=any(side.faction for row in rows for side in row.sides),
        info_labels=() if multi_seat else info.labels,
        info_titles=() if multi_seat else info.titles,
        sitting_out=sitting_out,
        by_name=by_name(rows, sitting_out, multi_seat),
        slips=page.href(slips_path(event, rnd.number)),
        army_lists=table_lists(page, event, rnd, untrusted, multi_seat),
    )


def _drop_empty_extras(rows: tuple[TableRow, ...],
                       columns: int) -> tuple[tuple[TableRow, ...], tuple[bool, ...]]:
    """Return ``rows`` without the per-game columns (Go handicap, komi) no table has a
    value in, and which of the ``columns`` are kept."""
    keep = tuple(any(row.extras[i] for row in rows if len(row.extras) > i)
                 for i in range(columns))
    return tuple(replace(row, extras=tuple(v for v, k in zip(row.extras, keep, strict=False)
                                           if k))
                 for row in rows), keep


def _sitting_out(rows: tuple[TableRow, ...],
                 multi_seat: bool) -> tuple[tuple[TableRow, ...], tuple[Side, ...]]:
    """Return the tables and, on a page laid out as boards, the one-seat rows (byes,
    sit-outs) taken out of them to be listed apart."""
    if not multi_seat:
        return rows, ()
    return (tuple(row for row in rows if not row.alone),
            tuple(row.sides[0] for row in rows if row.alone))


def _neighbour_links(page: Frame, event: Event, numbers: list[int],
                     where: int) -> tuple[Link | None, Link | None]:
    """Return the links to the rounds before and after the one at ``where`` in ``numbers``."""
    previous = _round_link(page, event, numbers[where - 1]) if where > 0 else None
    following = _round_link(page, event, numbers[where + 1]) if where + 1 < len(numbers) \
        else None
    return previous, following


def _status_label(status: str, started: bool) -> str:
    """Return the round's status in words: "Paired" for a round in progress with no result."""
    return _("Paired" if status == "in-progress" and not started else _STATUS_LABEL[status])


def _event_qr(event: Event, event_url: str) -> Markup:
    """Return the QR code of the event's address, or nothing without a site address."""
    if not event_url:
        return Markup("")
    return qr_svg(event_url, f"QR code: {event.config.name}, {event_url}")


T = TypeVar("T")


def _kept(values: Sequence[T], keep: Sequence[bool]) -> tuple[T, ...]:
    return tuple(v for v, k in zip(values, keep, strict=True) if k)


def _drop_empty_columns(
    rows: tuple[TableRow, ...], stats: int, cells: int
) -> tuple[tuple[TableRow, ...], tuple[bool, ...], tuple[bool, ...]]:
    """Return the rows without the stat and seat columns no seat has a value in (a
    proposed round's CP and APD), and which of those columns are kept."""
    sides = [side for row in rows for side in row.sides]
    stat_keep = tuple(any(side.stats[i] for side in sides) for i in range(stats))
    cell_keep = tuple(any(side.cells[i] for side in sides) for i in range(cells))
    if all(stat_keep) and all(cell_keep):
        return rows, stat_keep, cell_keep
    trimmed = tuple(
        replace(row, sides=tuple(
            replace(side, stats=_kept(side.stats, stat_keep), cells=_kept(side.cells, cell_keep))
            for side in row.sides))
        for row in rows
    )
    return trimmed, stat_keep, cell_keep


def by_name(
    rows: tuple[TableRow, ...], sitting_out: tuple[Side, ...], multi_seat: bool
) -> tuple[NameRow, ...]:
    """Return every player of the round by name: their table and whom they play."""
    found: list[NameRow] = []
    for row in rows:
        for i, side in enumerate(row.sides):
            if row.alone:
                against = row.alone
            elif multi_seat:
                seats = ngettext("{n} player", "{n} players", len(row.sides)).format(
                    n=len(row.sides))
                against = f"{side.faction}, {seats}" if side.faction else seats
            else:
                other = row.sides[1 - i]
                against = other.player.label + (f" ({other.faction})" if other.faction else "")
            found.append(NameRow(side.player, "" if row.alone else str(row.table), against, ""))
    found += [NameRow(side.player, "", _("Sits out"), "") for side in sitting_out]
    return tuple(sorted(found, key=lambda r: (r.player.label.casefold(), r.player.href)))


def _round_link(page: Frame, event: Event, number: int) -> Link:
    return Link(_("Round {number}").format(number=number),
                page.href(links.round_page(event, number)))


@dataclass(frozen=True)
class SlipsPage:
    """A round's result slips: one per table (or board) to fill in and hand to the TO."""

    frame: Frame
    event_name: str
    number: int
    round_href: str
    tables: tuple[TableRow, ...]  # tables with two or more players (no byes)
    boxes: tuple[str, ...]  # what each player writes: "Result", then the format's stats
    box_titles: tuple[str, ...]
    multi_seat: bool
    qr: Markup  # the round page's QR code (site_url configured)
    round_url: str


def slips_path(event: Event, number: int) -> str:
    """Return the output path of round ``number``'s result slips."""
    return links.page(*event.path, f"round-{number}", "slips")


def slips_page(site: Site, report: EventReport, rnd: Round, proposed: bool) -> SlipsPage:
    """Return the context of a round's result slips (print them, cut, one per table)."""
    event, fmt = report.event, report.standings.format
    path = slips_path(event, rnd.number)
    title = _("Result slips · Round {number} · {event}").format(number=rnd.number,
                                                               event=event.config.name)
    crumbs = (*site.event_crumbs(event), (_("Round {number}").format(number=rnd.number),
                                          links.round_page(event, rnd.number)))
    page = event_frame(site, report, path, title, "slips", crumbs)
    round_url = site.site_url + links.round_page(event, rnd.number) if site.site_url else ""
    stats = tuple(s.id for s in fmt.stats)
    info = round_info(report, rnd.number)
    rows = tuple(
        table_row(page, event, event.player_by_id, game, stats, fmt.game_columns, fmt, info)
        for game in sorted(rnd.games, key=lambda g: g.table) if len(game.seats) > 1
    )
    return SlipsPage(
        frame=page,
        event_name=event.config.name,
        number=rnd.number,
        round_href=page.href(links.round_page(event, rnd.number)),
        tables=rows,
        boxes=(_("Result"), *(_(stat_heading(s.id)) for s in fmt.stats)),
        box_titles=(_("Result"), *(_(s.label) for s in fmt.stats)),
        multi_seat=fmt.seats > 2 or any(len(g.seats) > 2 for g in rnd.games),
        qr=qr_svg(round_url, _("QR code: round {number}, {url}").format(number=rnd.number,
                                                                        url=round_url))
        if round_url
        else Markup(""),
        round_url=round_url,
    )


def table_lists(page: Frame, event: Event, rnd: Round,
                untrusted: Callable[[str], Markup] | None, boards: bool
                ) -> tuple[TableLists, ...]:
    """Return each table's army lists, for an event that sets ``lists_public`` (an event
    without it shows lists on player pages only, as before); the published event holds
    its lists only once they are public (standgen.armylists)."""
    if untrusted is None or not event.config.lists_public or not event.lists:
        return ()
    names = shown_names_of(event)
    found = []
    for game in sorted(rnd.games, key=lambda g: g.table):
        listed = [p for p in game.players if event.lists.get(p, "").strip()]
        if listed and game.kind not in (GameKind.BYE, GameKind.ABSENT):
            found.append(_lists_at(page, event, game.table, listed, names, untrusted, boards))
    return tuple(found)


def _lists_at(page: Frame, event: Event, table: int, listed: Sequence[str],
              names: Mapping[str, str], untrusted: Callable[[str], Markup],
              boards: bool) -> TableLists:
    """Return one table's (or board's) army lists of the ``listed`` players."""
    return TableLists(
        (_("Board {number}") if boards else _("Table {number}")).format(number=table),
        tuple(Link(names.get(p, p), page.href(links.player_page(event, p)) + "#army-list")
              for p in listed),
        tuple(untrusted(event.lists[p]) for p in listed))
