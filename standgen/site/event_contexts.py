"""The event page: details, status, the standings table with its tiebreak columns, rounds."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from markupsafe import Markup

import standgen.site.links as links
import standgen.site.stamp as stamp
from standgen.formats.base import Proposal
from standgen.model import Event, Game, GameKind, Player, Round, Seat
from standgen.pipeline import EventReport
from standgen.site.charts import FactionResult, faction_chart, faction_results
from standgen.site.contexts import Frame, Link, Site, frame, shown_names_of, web_url
from standgen.site.crosstable import Crosstable, crosstable
from standgen.site.formats import views_of
from standgen.site.hook_contexts import TableView, download_links, table_views
from standgen.site.i18n import Text, _
from standgen.site.jsonout import round_status
from standgen.site.markdown import MarkdownRenderer
from standgen.site.numbers import display_number
from standgen.site.team_contexts import TeamRow, team_rows
from standgen.site.team_matches import TeamStandingsView, team_standings_view
from standgen.standings import Standings
from standgen.tiebreaks import TIEBREAKS

_STATUS_LABEL = {"proposed": "proposed", "in-progress": "in progress", "complete": "complete",
                 "paired": "paired, not started"}


def page_status(rnd: Round, proposed: bool) -> str:
    """Return the round's status as pages show it: ``round_status`` (the JSON's), but
    ``paired`` for a round file whose games have no result yet, printed before the round
    starts: it is not "in progress" on the wall (byes and absences do not count)."""
    status = round_status(rnd, proposed)
    if status == "in-progress" and not any(
            seat.outcome is not None for game in rnd.games if len(game.seats) > 1
            for seat in game.seats):
        return "paired"
    return status


@dataclass(frozen=True)
class Column:
    """A standings column heading: short text, full label, help link (``""``: none)."""

    id: str
    short: str
    label: str
    href: str


@dataclass(frozen=True)
class StandingRow:
    """One standings row, every value formatted."""

    rank: int
    player: Link
    dropped: str  # "dropped after R2" or ""
    faction: str
    score: str
    values: tuple[str, ...]  # in the columns' order
    record: str  # W-D-L
    rating: str = ""  # players.csv rating (chess), "" for none
    grade: str = ""  # players.csv rank (Go: "4d", "3k"), "" for none
    grade_order: str = ""  # the rank as a sortable text


@dataclass(frozen=True)
class RoundLink:
    """A link to a round page with the round's status."""

    number: int
    href: str
    status: str  # "proposed", "in-progress", "complete"
    status_label: str
    scenario: str


@dataclass(frozen=True)
class EventPage:
    """Everything the event page shows."""

    frame: Frame
    name: str
    date: str
    location: str
    organiser: str
    url: str
    format_label: str
    format_href: str
    description: Markup
    status: str
    score_column: Column
    columns: tuple[Column, ...]
    rows: tuple[StandingRow, ...]
    rounds: tuple[RoundLink, ...]
    standings_json: str
    caption: str
    crosstable: Crosstable
    factions: tuple[FactionResult, ...]
    faction_chart: Markup
    faction_word: str  # "Faction", or "Power" for boards
    tables: tuple[TableView, ...]  # the format's event_tables
    pages: tuple[Link, ...]  # the format's extra pages and the tiebreak lab
    downloads: tuple[Link, ...]
    show_faction: bool = True  # some player has a faction (or power): no empty column
    show_rating: bool = False  # some player has a rating (chess)
    show_grade: bool = False  # some player has a rank (Go)
    follow: Mapping[str, object] | None = None  # "follow a player": see follow_data
    stage: Link | None = None  # the bracket page (issue #31): the winner's name once decided
    now: RoundLink | None = None  # the round being played (or proposed) while not finished
    podium: tuple[StandingRow, ...] = ()  # a finished event's first three
    teams: tuple[TeamRow, ...] = ()  # the team standings (docs/teams.md), if any teams
    teams_counted: int | None = None  # [teams] counted: the best N members make a team's
    teams_best: int | None = None  # [teams] best: the best N results make a team's
    team_matches: TeamStandingsView | None = None  # a team event's team standings


def _seat_followed(game: Game, seat: Seat, seats: int,
                   label: Callable[[str, str], str]) -> str:
    """Return where a followed player sits in the round: alone (sitting out in a game of
    more than two seats, else a bye or absent), on a board (as their power, if any), or at
    a table against their opponent (``label``: the opponent's name and faction)."""
    if len(game.seats) == 1:
        if seats > 2:
            return _("sitting out")
        return _("bye") if game.kind is GameKind.BYE else _("absent")
    if len(game.seats) > 2:
        if seat.power:
            return _("board {table} as {power}").format(table=game.table, power=seat.power)
        return _("board {table}").format(table=game.table)
    other = next(s for s in game.seats if s is not seat)
    return _("table {table} against {name}").format(
        table=game.table, name=label(other.player, other.power))


def follow_data(page: Frame, report: EventReport) -> dict[str, object] | None:
    """Return what the script shows a reader who follows a player, for the newest round.

    ``{"round": 4, "href": ..., "status": "proposed", "players": {id: "Round 4: table 6
    against Lena Berg (Mercenaries)"}}``; None before the first round.
    """
    rounds = rounds_of(report)
    if not rounds:
        return None
    rnd, proposed = rounds[-1]
    event = report.event
    names = event.player_by_id
    fmt = report.standings.format

    shown = shown_names_of(event)

    def label(player_id: str, power: str) -> str:
        player = names.get(player_id)
        name = shown.get(player_id, player_id)
        faction = power or (player.faction if player is not None else "")
        return f"{name} ({faction})" if faction else name

    lines: dict[str, str] = {}
    for game in rnd.games:
        for seat in game.seats:
            what = _seat_followed(game, seat, fmt.seats, label)
            lines[seat.player] = _("Round {number}: {what}").format(number=rnd.number, what=what)
    return {
        "round": rnd.number,
        "href": page.href(links.round_page(event, rnd.number)),
        "status": _STATUS_LABEL[page_status(rnd, proposed)],  # the script's key (i18n.SCRIPT)
        "players": lines,
    }


def rounds_of(report: EventReport) -> list[tuple[Round, bool]]:
    """Return every round with a page: the round files, then the proposed round if any."""
    rounds = [(rnd, False) for rnd in report.event.rounds]
    if report.proposal is not None:
        rounds.append((report.proposal.round, True))
    return rounds


def scenario_of(event: Event, number: int) -> str:
    """Return the scenario of round ``number`` from event.toml ``scenarios``, or ``""``."""
    scenarios = event.config.scenarios
    return scenarios[number - 1] if 0 < number <= len(scenarios) else ""


def event_status(event: Event, standings: Standings, proposal: Proposal | None) -> str:
    """Return where the event stands: finished, a round in progress or proposed, not started."""
    return str(status_text(event, standings, proposal))


def status_text(event: Event, standings: Standings, proposal: Proposal | None) -> Text:
    """Return :func:`event_status` as text shown in the language active when shown."""
    planned, played = standings.planned_rounds, standings.rounds_complete
    if standings.finished:
        if played < planned:
            return Text.of("Finished after round {played} ({planned} planned): a clear winner.",
                           played=played, planned=planned)
        return Text.of("Finished: {played} of {planned} rounds played.", played=played,
                       planned=planned)
    if event.rounds and not event.rounds[-1].finished:
        return Text.of("Round {number} of {planned} in progress.",
                       number=event.rounds[-1].number, planned=planned)
    if proposal is not None:
        return Text.of("{played} of {planned} rounds played; round {number} proposed.",
                       played=played, planned=planned, number=proposal.round.number)
    return Text.of("{played} of {planned} rounds played.", played=played, planned=planned)


def dropped_note(player: Player) -> str:
    """Return ``dropped after R2`` for a player who dropped, else ``""``."""
    return "" if player.dropped_after is None else _("dropped after R{number}").format(
        number=player.dropped_after)


def tiebreak_columns(site: Site, page: str, tiebreaks: tuple[str, ...]) -> tuple[Column, ...]:
    """Return the standings columns of the tiebreak chain, each linked to its help page."""
    columns = []
    for tb_id in tiebreaks:
        tb = TIEBREAKS[tb_id]
        target = site.help_path(f"tiebreaks/{tb.page}")
        href = links.relative(page, target) if target else ""
        columns.append(Column(tb.id, _(tb.short), _(tb.label), href))
    return tuple(columns)


def event_frame(
    site: Site, report: EventReport, path: str, title: str, kind: str,
    crumbs: Sequence[tuple[str, str]],
) -> Frame:
    """Return the frame of a page of an event: its feed link and last-updated stamp."""
    page = frame(path, title, kind, crumbs)
    return replace(
        page,
        stamp=stamp.stamp(stamp.event_note(report), site.built),
        feed=page.href(links.event_file(report.event, "feed.xml")),
    )


def _standing_rows(event: Event, standings: Standings, page: Frame,
                   columns: Sequence[Column]) -> tuple[StandingRow, ...]:
    """Return the event page's standings rows: each player's rank, linked name, drop note,
    faction, score, tiebreak ``columns``, record, rating and grade."""
    shown = shown_names_of(event)
    return tuple(
        StandingRow(
            rank=row.rank,
            player=Link(shown[row.player.id],
                        page.href(links.player_page(event, row.player.id))),
            dropped=dropped_note(row.player),
            faction=row.player.faction,
            score=display_number(row.score),
            values=tuple(display_number(row.values[c.id].value) for c in columns),
            record=f"{row.wins}-{row.draws}-{row.losses}",
            rating=display_number(row.player.rating) if row.player.rating is not None else "",
            grade=row.player.rank,
            grade_order=_grade_order(row.player.rank),
        )
        for row in standings.rows
    )


def _round_links(report: EventReport, page: Frame) -> tuple[RoundLink, ...]:
    """Return the event page's link to each round, with its status (a proposed round's
    too) and scenario."""
    event = report.event
    return tuple(
        RoundLink(
            number=rnd.number,
            href=page.href(links.round_page(event, rnd.number)),
            status=(status := page_status(rnd, proposed)),
            status_label=_(_STATUS_LABEL[status]),
            scenario=scenario_of(event, rnd.number),
        )
        for rnd, proposed in rounds_of(report)
    )


def _standings_after(event: Event, standings: Standings) -> str:
    """Return when the standings stand: with the last round in progress while it has games
    without a result, else after the last complete round ("" before any)."""
    if event.rounds and not event.rounds[-1].finished:
        return _("with round {number} in progress").format(number=event.rounds[-1].number)
    if standings.rounds_complete:
        return _("after round {number}").format(number=standings.rounds_complete)
    return ""


def event_page(
    site: Site,
    report: EventReport,
    renderer: MarkdownRenderer,
    pages: Sequence[tuple[str, str]] = (),
    downloads: Sequence[str] = (),
) -> EventPage:
    """Return the context of an event's page.

    ``pages`` are the extra pages (slug, title) and ``downloads`` the file names in the
    event folder that the page links to under "Downloads".
    """
    event, standings = report.event, report.standings
    config, fmt = event.config, standings.format
    views = views_of(fmt)
    path = links.event_page(event)
    page = event_frame(site, report, path, config.name, "event", site.event_crumbs(event)[:-1])
    format_target = site.help_path(fmt.help)
    columns = tiebreak_columns(site, path, standings.tiebreaks)
    rows = _standing_rows(event, standings, page, columns)
    rounds = _round_links(report, page)
    after = _standings_after(event, standings)
    return EventPage(
        frame=page,
        name=config.name,
        date=config.date.isoformat(),
        location=config.location,
        organiser=config.organiser,
        url=web_url(config.url),
        format_label=fmt.label,
        format_href=page.href(format_target) if format_target else "",
        description=renderer.untrusted(event.description),
        status=event_status(event, standings, report.proposal),
        score_column=Column("score", fmt.score_short, fmt.score_label, ""),
        columns=columns,
        rows=rows,
        rounds=rounds,
        standings_json=page.href(links.event_file(event, "standings.json")),
        caption=_("Standings {after}").format(after=after).strip(),
        crosstable=crosstable(report, page),
        factions=(factions := faction_results([event])),
        faction_chart=faction_chart(factions, _(f"Win rate by {fmt_faction(report)}")),
        faction_word=fmt_faction(report).capitalize(),
        tables=table_views(
            tuple(views.event_tables(report)) if views.event_tables else (),
            page, event.path, "format-table",
        ),
        pages=tuple(Link(_(title), page.href(links.page(*event.path, slug)))
                    for slug, title in pages),
        downloads=download_links(page, event.path, downloads),
        show_faction=any(row.faction for row in rows),
        show_rating=any(row.rating for row in rows),
        show_grade=any(row.grade for row in rows),
        now=rounds[-1] if rounds and not standings.finished else None,
        # a team event's winner is a team: its team standings come first instead
        podium=tuple(row for row in rows if row.rank <= 3)[:3]
        if standings.finished and not config.teams.matches else (),
        follow=follow_data(page, report),
        teams=() if config.teams.matches else team_rows(standings, page,
                                                         shown_names_of(event)),
        teams_counted=config.teams.counted,
        teams_best=config.teams.best,
        team_matches=team_standings_view(report, page),
    )


def _grade_order(rank: str) -> str:
    """Return a Go rank as text that sorts strongest first: 9p, 1p, 9d ... 1d, 1k ... 30k."""
    text = rank.strip().lower()
    digits = "".join(ch for ch in text if ch.isdigit())
    if not digits or text[-1:] not in ("p", "d", "k"):
        return "z" + text
    value = int(digits)
    kind = text[-1]
    if kind == "p":
        return f"a{99 - value:02d}"
    if kind == "d":
        return f"b{99 - value:02d}"
    return f"c{value:02d}"


def fmt_faction(report: EventReport) -> str:
    """Return what a seat plays in this event's words: ``power`` (boards) or ``faction``."""
    fmt = report.standings.format
    boards = fmt.seats > 2 or any(len(g.seats) > 2 for r in report.event.rounds for g in r.games)
    return "power" if boards else "faction"
