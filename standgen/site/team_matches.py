"""What the site shows of a team-vs-team event (docs/teams.md, "Team matches"): the team
standings on the event page and each match with its games on the round page and the
team's page (:mod:`standgen.site.team_pages`).

Every value is formatted here; names are the TOs' text, escaped by the templates. A team
names only its players published in full (:func:`standgen.site.jsonout.listed`), as the
teams table of an individual event does; a game names each player as every round page
does (:func:`standgen.site.contexts.shown_names_of`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import standgen.site.links as links
from standgen.model import Event, Game, Team
from standgen.pipeline import EventReport
from standgen.site.contexts import Frame, Link, shown_names_of, stat_heading
from standgen.site.i18n import _
from standgen.site.jsonout import listed
from standgen.site.numbers import display_number
from standgen.site.results import result_of
from standgen.standings import format_of
from standgen.teams.matches import MatchResult, match_results
from standgen.teams.ranking import TeamStandings, team_standings
from standgen.teams.tiebreaks import TEAM_TIEBREAKS


def team_page_path(event: Event, team: str) -> str:
    """Return the output path of a team's page in a team event."""
    return links.page(*event.path, "teams", team)


@dataclass(frozen=True)
class TeamColumn:
    """A column of the team standings after Wins: its short heading and its title."""

    short: str
    label: str


@dataclass(frozen=True)
class TeamMatchRow:
    """One team's row of a team event's standings, every value formatted."""

    rank: int
    team: Link
    wins: str  # the score: Wins, or a chess team event's match points
    values: tuple[str, ...]  # SoS, TP, then the format's stats; or the C.07 tie-breaks
    record: str  # matches won-drawn-lost
    members: tuple[Link, ...]  # players published in full
    unlisted: int = 0


@dataclass(frozen=True)
class TeamStandingsView:
    """The team standings of a team event's page."""

    columns: tuple[TeamColumn, ...]
    rows: tuple[TeamMatchRow, ...]
    # the last team round while a match of it is not finished (paired, being drafted)
    current: tuple[MatchView, ...] = ()
    current_round: int = 0
    score: TeamColumn = TeamColumn("", "")  # the score column: Wins, or MP
    caption: str = ""
    legend: str = ""


@dataclass(frozen=True)
class BoardView:
    """One game of a match: its table, each side's player and the result."""

    table: str
    player_1: Link | None  # None: the side has no player (a bye)
    player_2: Link | None
    result: str  # "1-0", "0-1", "draw", "" while unplayed; "bye" for a bye


@dataclass(frozen=True)
class MatchView:
    """One team match: its teams, score and games (each side as seen from ``team_1``)."""

    round: int
    number: int
    team_1: Link
    team_2: Link | None  # None: a team bye
    score: str  # "2-1" once finished, else "" (or the games won so far)
    outcome: str  # team_1's "win", "draw", "loss" once finished, else ""
    boards: tuple[BoardView, ...]
    round_href: str = ""
    # a match settled without games: a bye the team asked for, a double forfeit
    note: str = ""


def event_team_standings(event: Event) -> TeamStandings:
    """Return the team standings of a team event (by Wins, or by match points)."""
    return team_standings(event, tuple(s.id for s in format_of(event).stats))


def score_column(standings: TeamStandings, event: Event | None = None) -> TeamColumn:
    """Return the score's column: Wins, or a team event's match points (as its format
    calls them: a Go team event's team points)."""
    if standings.by_match_points:
        return _labelled(event, "score", "MP", "Match points")
    return TeamColumn(_("Wins"), _("Matches won; a drawn match counts ½"))


def _labelled(event: Event | None, key: str, short: str, label: str) -> TeamColumn:
    """Return the column ``key`` with the format's own heading and label
    (``Format.team_labels``), else ``short`` and ``label``."""
    if event is not None:
        short, label = format_of(event).team_labels.get(key, (short, label))
    return TeamColumn(short, _(label))


def team_columns(event: Event, standings: TeamStandings | None = None
                 ) -> tuple[TeamColumn, ...]:
    """Return the team standings' columns after the score: SoS, TP, the format's stats;
    or a chess team event's C.07 team tie-breaks (by their FIDE codes)."""
    if standings is not None and standings.by_match_points:
        return tuple(_labelled(event, t, TEAM_TIEBREAKS[t].code, TEAM_TIEBREAKS[t].label)
                     for t in standings.ids)
    fmt = format_of(event)
    return (TeamColumn("SoS", _("Sum of the opponents' wins")),
            TeamColumn(_("TP"), _("Games won by the team's players")),
            *(TeamColumn(_(stat_heading(s.id)), _(s.label)) for s in fmt.stats))


def team_standings_view(report: EventReport, page: Frame) -> TeamStandingsView | None:
    """Return the team standings of a team event's page; None for any other event."""
    event = report.event
    if not event.config.teams.matches:
        return None
    standings = event_team_standings(event)
    names = shown_names_of(event)
    by_team: dict[str, list[Link]] = {}
    hidden: dict[str, int] = {}
    for player in event.players:
        if not player.team:
            continue
        if listed(player, event):
            by_team.setdefault(player.team, []).append(
                Link(names[player.id], page.href(links.player_page(event, player.id))))
        else:
            hidden[player.team] = hidden.get(player.team, 0) + 1
    rows = tuple(TeamMatchRow(
        rank=row.rank, team=Link(row.team.name, page.href(team_page_path(event, row.team.id))),
        wins=display_number(row.score),
        values=tuple(display_number(v) for v in row.values),
        record="-".join(str(n) for n in row.record),
        members=tuple(by_team.get(row.team.id, ())), unlisted=hidden.get(row.team.id, 0))
        for row in standings.rows)
    last = event.team_rounds[-1].number if event.team_rounds else 0
    current = match_views(report, page, last) if last else ()
    if all(m.outcome for m in current):
        current = ()  # every match of the last round is finished: its round page shows it
    by_mp = standings.by_match_points
    return TeamStandingsView(
        team_columns(event, standings), rows, current, last if current else 0,
        score_column(standings, event),
        _labelled(event, "heading", "", "Teams by match points").label if by_mp
        else _("Teams by matches won"),
        _team_note(event, by_mp))


def _team_note(event: Event, by_mp: bool) -> str:
    """Return the sentence above a team event's tie-breaks: how a match scores (a Go team
    event's by board wins, docs/teams.md "Go team events"; a chess one's by C.07)."""
    own = format_of(event).team_labels.get("note")
    if own is not None:
        return _(own[1])
    if by_mp:
        return _("A team scores match points for each match it wins, draws or loses on "
                 "game points (FIDE C.07). Ties are split by, in order:")
    return _("A team wins its match by winning more than half of its games; a team bye is "
             "a match won by every game. Ties are split by, in order:")


def match_views(report: EventReport, page: Frame, number: int | None = None,
                team: str = "") -> tuple[MatchView, ...]:
    """Return the matches of round ``number`` (every round when None), or of ``team``
    only (its side first), each with its games by table."""
    event = report.event
    names = shown_names_of(event)
    teams = {t.id: t for t in event.teams}
    views: list[MatchView] = []
    for result in match_results(event):
        if number is not None and result.round != number:
            continue
        if team and team not in (result.match.team_1, result.match.team_2):
            continue
        views.append(_match_view(event, page, result, teams, names,
                                 swap=bool(team) and result.match.team_2 == team))
    return tuple(views)


def _match_view(event: Event, page: Frame, result: MatchResult, teams: Mapping[str, Team],
                names: Mapping[str, str], swap: bool) -> MatchView:
    """Return one match as the pages show it (``swap``: team_2's side first)."""
    one, two = result.match.team_1, result.match.team_2
    points = (result.points_1, result.points_2)
    score = (result.score_1, result.score_2)
    if swap:
        one, two, points, score = two, one, points[::-1], score[::-1]

    def team_link(tid: str) -> Link:
        team = teams.get(tid)
        return Link(team.name if team else tid, page.href(team_page_path(event, tid)))

    def player(pid: str) -> Link:
        return Link(names.get(pid, pid), page.href(links.player_page(event, pid)))

    boards: list[BoardView] = []
    for game in sorted(result.games, key=lambda g: g.table):
        boards.append(_board(game, player, one, event))
    finished = result.finished
    said = (display_number(points[0]) + "-" + display_number(points[1])
            if result.games and not result.bye else "")
    outcome = ""
    if finished:
        outcome = (_("win") if score[0] == 1.0 else _("draw") if score[0] == 0.5
                   else _("loss"))
    return MatchView(result.round, result.match.number, team_link(one),
                     team_link(two) if two else None, said, outcome, tuple(boards),
                     page.href(links.round_page(event, result.round)), _settled_note(result))


def _settled_note(result: MatchResult) -> str:
    """Return what a match settled without games was (docs/teams.md): a bye the team
    asked for, by its result, or a double forfeit; "" for any other."""
    if result.double_forfeit:
        return _("Both teams forfeited the match.")
    return {"1-0": _("A full-point bye the team asked for."),
            "draw": _("A half-point bye the team asked for."),
            "0-1": _("A zero-point bye the team asked for.")}.get(result.match.result, "")


def _board(game: Game, make: Callable[[str], Link], side: str, event: Event) -> BoardView:
    """Return one game of a match with ``side``'s player first."""
    team_of = {p.id: p.team for p in event.players}
    if len(game.seats) == 1:  # a team bye's game, or a game conceded by a team short
        alone = make(game.players[0])
        mine = team_of.get(game.players[0]) == side
        return BoardView(str(game.table), alone if mine else None, None if mine else alone,
                         "bye")
    seats = game.seats
    code = result_of(game) or ""
    if team_of.get(seats[0].player) != side:
        seats = seats[::-1]
        code = {"1-0": "0-1", "0-1": "1-0", "+-": "-+", "-+": "+-"}.get(code, code)
    return BoardView(str(game.table), make(seats[0].player), make(seats[1].player), code)
