"""The round page: tables, players, factions, results and the format's stat columns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from markupsafe import Markup

from standgen.formats.base import Format
from standgen.model import Event, Game, GameKind, Player, Round
from standgen.pipeline import EventReport
from standgen.site import links
from standgen.site.contexts import Frame, Link, Site, stat_heading
from standgen.site.event_contexts import event_frame, rounds_of, scenario_of
from standgen.site.jsonout import round_status
from standgen.site.numbers import display_number
from standgen.site.qr import qr_svg
from standgen.site.results import result_of, seat_result
from standgen.standings import Standings

_KIND_LABEL = {GameKind.BYE: "Bye", GameKind.ABSENT: "Absent"}
_STATUS_LABEL = {"proposed": "Proposed", "in-progress": "In progress", "complete": "Complete"}


@dataclass(frozen=True)
class Side:
    """One seat at a table: the player's link, faction (or power), stats and seat result."""

    player: Link
    faction: str
    stats: tuple[str, ...]
    result: str
    cells: tuple[str, ...] = ()  # the format's seat_cells, under its seat_headers


@dataclass(frozen=True)
class TableRow:
    """One table of a round; a bye or an absence has one side and ``alone`` says which."""

    table: int
    sides: tuple[Side, ...]
    alone: str  # "Bye", "Absent" or ""
    result: str  # as a round file writes it; "" while not played
    forfeit: bool
    extras: tuple[str, ...]  # the format's per-game columns (Go handicap, komi)


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
    notes: tuple[str, ...]
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


def _side(
    site_page: Frame,
    event: Event,
    players: Mapping[str, Player],
    game: Game,
    index: int,
    stats: tuple[str, ...],
    fmt: Format | None = None,
) -> Side:
    seat = game.seats[index]
    player = players.get(seat.player)
    name = player.name if player is not None else seat.player
    cells: tuple[str, ...] = ()
    if fmt is not None and fmt.seat_headers:
        found = tuple(fmt.seat_cells(game, seat, event.config)) if fmt.seat_cells else ()
        cells = tuple(str(c) for c in found[: len(fmt.seat_headers)])
        cells += ("",) * (len(fmt.seat_headers) - len(cells))
    return Side(
        player=Link(name, site_page.href(links.player_page(event, seat.player))),
        faction=seat.power or (player.faction if player is not None else ""),
        stats=tuple(display_number(seat.stats[s]) if s in seat.stats else "" for s in stats),
        result=(_alone_label(game, fmt) if len(game.seats) == 1 else "")
        or seat_result(seat) or "",
        cells=cells,
    )


def _alone_label(game: Game, fmt: Format | None) -> str:
    """Return how a one-seat row reads: "Bye", "Absent", or "Sits out" on a board format."""
    if game.kind is GameKind.BYE and fmt is not None and fmt.seats > 2:
        return "Sits out"
    return _KIND_LABEL.get(game.kind, "")


def table_row(
    page: Frame,
    event: Event,
    players: Mapping[str, Player],
    game: Game,
    stats: tuple[str, ...],
    extras: tuple[str, ...],
    fmt: Format | None = None,
) -> TableRow:
    """Return one table of a round page, every value formatted."""
    return TableRow(
        table=game.table,
        sides=tuple(
            _side(page, event, players, game, i, stats, fmt) for i in range(len(game.seats))
        ),
        alone=_alone_label(game, fmt),
        result=result_of(game) or "",
        forfeit=game.kind is GameKind.FORFEIT,
        extras=tuple(display_number(game.extra[c]) if c in game.extra else "" for c in extras),
    )


def round_page(site: Site, report: EventReport, rnd: Round, proposed: bool) -> RoundPage:
    """Return the context of a round's page (a round file's, or the proposed round's).

    Games of more than two seats (Diplomacy boards) are laid out as boards: the board
    number, then one row per seat (player, power, stats, result).
    """
    event = report.event
    standings: Standings = report.standings
    fmt = standings.format
    path = links.round_page(event, rnd.number)
    status = round_status(rnd, proposed)
    title = f"Round {rnd.number} · {event.config.name}"
    page = event_frame(site, report, path, title, "round", site.event_crumbs(event))
    event_url = site.site_url + links.event_page(event) if site.site_url else ""
    numbers = [r.number for r, _ in rounds_of(report)]
    where = numbers.index(rnd.number)
    stats = tuple(s.id for s in fmt.stats)
    players = event.player_by_id
    notes = report.proposal.notes if proposed and report.proposal is not None else ()
    return RoundPage(
        frame=page,
        event_name=event.config.name,
        event_href=page.href(links.event_page(event)),
        number=rnd.number,
        status=status,
        status_label=_STATUS_LABEL[status],
        planned=standings.planned_rounds,
        scenario=scenario_of(event, rnd.number),
        notes=tuple(notes),
        stat_labels=tuple(stat_heading(s.id) for s in fmt.stats),
        stat_titles=tuple(s.label for s in fmt.stats),
        extra_labels=tuple(c.capitalize() for c in fmt.game_columns),
        multi_seat=fmt.seats > 2 or any(len(g.seats) > 2 for g in rnd.games),
        tables=tuple(
            table_row(page, event, players, game, stats, fmt.game_columns, fmt)
            for game in sorted(rnd.games, key=lambda g: g.table)
        ),
        previous=_round_link(page, event, numbers[where - 1]) if where > 0 else None,
        next=_round_link(page, event, numbers[where + 1]) if where + 1 < len(numbers) else None,
        pairings_json=page.href(links.event_file(event, f"round-{rnd.number}", "pairings.json")),
        pairings_csv=page.href(links.event_file(event, f"round-{rnd.number}", "pairings.csv")),
        seat_headers=fmt.seat_headers,
        rounds=tuple(_round_link(page, event, n) for n in numbers),
        qr=qr_svg(event_url, f"QR code: {event.config.name}, {event_url}") if event_url
        else Markup(""),
        event_url=event_url,
    )


def _round_link(page: Frame, event: Event, number: int) -> Link:
    return Link(f"Round {number}", page.href(links.round_page(event, number)))
