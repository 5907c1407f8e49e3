"""The player page: every game with its result, stats and points, and how each tiebreak
was summed, as ``SoS 9 = 3 (Bob, R1) + 2 (Carol, R2) + 0 (bye, R3)``."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from markupsafe import Markup

import standgen.site.links as links
from standgen.formats.base import Format
from standgen.model import Event, Game, GameKind, Player, Round, Seat
from standgen.pipeline import EventReport
from standgen.records import Entry, Record
from standgen.site.charts import score_chart
from standgen.site.contexts import Frame, Link, Site, shown_names_of, stat_heading
from standgen.site.event_contexts import (
    Column,
    dropped_note,
    event_frame,
    rounds_of,
    tiebreak_columns,
)
from standgen.site.formats import views_of
from standgen.site.formats.base import FormatViews
from standgen.site.history import history_page_path
from standgen.site.hook_contexts import TableView, table_views
from standgen.site.i18n import ENGLISH, _, current, decimal
from standgen.site.jsonout import listed
from standgen.site.markdown import MarkdownRenderer
from standgen.site.numbers import display_number
from standgen.site.results import alone_label, outcome_word, points_words
from standgen.standings import Standing
from standgen.tiebreaks.base import Part, Value

# players.csv list_check as a player page says it (shown once lists are public)
LIST_CHECK_LABELS = {"submitted": "List submitted; not checked yet",
                     "checked": "List checked by the organiser",
                     "needs-fix": "The organiser asked for a change to this list"}


@dataclass(frozen=True)
class PlayerGame:
    """One round of the player: opponents, result, own stats, points, running score, rank."""

    round: int
    round_href: str
    table: str  # "" for a round without a game (no table to sit at)
    opponents: tuple[Link, ...]
    alone: str  # "Bye", "½ bye (requested)", "Absent", "Sits out" or ""
    result: str  # "win", "loss (forfeit)", "not played yet", "proposed" ...
    stats: tuple[str, ...]
    points: str
    running: str
    rank_after: str


@dataclass(frozen=True)
class Addend:
    """One part of a tiebreak's sum: ``3 (Bob, R1)``; ``counted`` False when a cut removed it."""

    text: str
    counted: bool


@dataclass(frozen=True)
class Breakdown:
    """How one tiebreak value was summed."""

    short: str
    label: str
    href: str
    value: str
    parts: tuple[Addend, ...]
    note: str  # how the parts combine when not a plain sum ("÷ 6")

    @property
    def text(self) -> str:
        """Return the breakdown as plain text (cut parts in brackets)."""
        terms = [p.text if p.counted else f"[cut: {p.text}]" for p in self.parts]
        sum_text = " + ".join(terms) if terms else "0 (no games yet)"
        return " ".join(x for x in (f"{self.short} {self.value} =", sum_text, self.note) if x)


@dataclass(frozen=True)
class PlayerPage:
    """Everything a player page shows."""

    frame: Frame
    name: str
    faction: str
    club: str
    event_name: str
    team: str  # the player's team (docs/teams.md), "" for none or not named
    event_href: str
    rank: str  # "" for an unranked (spare) player
    score: str
    score_label: str
    score_short: str
    dropped: str
    spare: bool
    stat_labels: tuple[str, ...]
    games: tuple[PlayerGame, ...]
    breakdowns: tuple[Breakdown, ...]
    army_list: Markup
    chart: Markup  # the running score after each complete round, as SVG
    tables: tuple[TableView, ...]  # the format's player_tables
    history: str  # the player's page across every event
    list_check: str = ""  # players.csv list_check, once lists are public
    list_check_label: str = ""


@dataclass(frozen=True)
class SharedLinks:
    """The links every player page of one event has in common, computed once per event.

    An event's player pages sit side by side (``<event>/players/<id>/index.html``), so a
    link from one of them to anything outside its own folder (the stylesheet, the event,
    a round, another player) is the same text on every one of them: it is computed from
    a stand-in page in the same place, whose id (``-``) is no slug, so no real page.
    """

    frame: Frame  # the stand-in page's frame; each page puts in its path and title
    event: str
    rounds: Mapping[int, str]  # round number -> link
    players: Mapping[str, str]  # player id -> link
    columns: tuple[Column, ...]  # the tiebreak chain's columns, linked to their help


STAND_IN = "-"  # the stand-in player page's folder (never a player id: not a slug)


@dataclass(frozen=True)
class EventIndex:
    """Look-ups every player page of one event shares, built once per event."""

    names: Mapping[str, str]  # player id -> name
    games: Mapping[tuple[int, str], Game]  # (round, player id) -> the player's game
    rounds: tuple[tuple[Round, bool], ...]  # rounds with a page, proposed flag
    rank_after: Mapping[int, Mapping[str, int]]  # complete round -> player id -> rank after it
    rows: Mapping[str, Standing]  # player id -> standings row
    scores: tuple[float, float]  # the lowest and the highest score in the standings
    shared: SharedLinks | None = None  # None: every page computes its own links


def index_event(report: EventReport, site: Site | None = None) -> EventIndex:
    """Return the look-ups the player pages of an event share (with ``site``, and
    optimisations on, the links they share too)."""
    event = report.event
    rounds = tuple(rounds_of(report))
    games = _games_by_player(rounds)
    finished = [rnd.number for rnd in event.rounds if rnd.finished]
    rank_after = {
        number: {row.player.id: row.rank for row in after.rows}
        for number, after in zip(finished, report.by_round, strict=True)
    }
    rows = report.standings.rows
    scores = _score_range(rows)
    shared = shared_links(site, report, rounds) if site is not None and site.fast else None
    return EventIndex(shown_names_of(event), games, rounds, rank_after,
                      {row.player.id: row for row in rows}, scores, shared)


def _games_by_player(rounds: Sequence[tuple[Round, bool]]) -> dict[tuple[int, str], Game]:
    """Return each player's game in each round, by (round, player)."""
    return {(rnd.number, pid): game
            for rnd, _ in rounds for game in rnd.games for pid in game.players}


def _score_range(rows: Sequence[Standing]) -> tuple[float, float]:
    """Return the lowest and highest score of the standings (0 and 0 for none): the
    score charts' scale."""
    return (min((row.score for row in rows), default=0.0),
            max((row.score for row in rows), default=0.0))


def shared_links(
    site: Site, report: EventReport, rounds: Sequence[tuple[Round, bool]]
) -> SharedLinks:
    """Return the links every player page of the event shares (:class:`SharedLinks`)."""
    event = report.event
    path = links.player_page(event, STAND_IN)
    page = event_frame(site, report, path, "", "player", site.event_crumbs(event))
    return SharedLinks(
        frame=page,
        event=page.href(links.event_page(event)),
        rounds={rnd.number: page.href(links.round_page(event, rnd.number)) for rnd, _ in rounds},
        players={p.id: page.href(links.player_page(event, p.id)) for p in event.players},
        columns=tiebreak_columns(site, path, report.standings.tiebreaks),
    )


# the tiebreaks' notes with numbers in them (standgen/tiebreaks, written in English)
_NOTE_FORMS = tuple((re.compile(pattern), message) for pattern, message in (
    (r"board (\d+)", "board {0}"),
    (r"lowest (\d+) cut", "lowest {0} cut"),
    (r"highest (\d+) cut", "highest {0} cut"),
    (r"scored ([\d.]+)", "scored {0}"),
    (r"÷ (\d+) rated games, rounded", "÷ {0} rated games, rounded"),
    (r"opponent ([\d.]+) (≥|<) ([\d.]+)", "opponent {0} {1} {2}"),
    (r"against opponents with at least ([\d.]+)", "against opponents with at least {0}"),
    (r"(.+): virtual opponent", "{0}: virtual opponent"),
    (r"(.+): virtual opponent ([\d.]+) × ([\d.]+)", "{0}: virtual opponent {1} × {2}"),
    (r"([a-z]+): (-?[\d.]+ - -?[\d.]+)", "{0}: {1}"),  # VP± of a forfeit: "forfeit: 0 - 2000"
    (r"([\d.]+) \+ ([\d.]+) handicap as White", "{0} + {1} handicap as White"),
    (r"([\d.]+) \+ ([\d.]+) handicap as Black", "{0} + {1} handicap as Black"),
    (r"([\d.]+) − ([\d.]+) handicap as White", "{0} − {1} handicap as White"),
    (r"([\d.]+) − ([\d.]+) handicap as Black", "{0} − {1} handicap as Black"),
    *((rf"{word}{how}: (\(.+\)|[\d.]+) × ([\d.]+)", f"{word}{how}: {{0}} × {{1}}")
      for word in ("won", "drew", "lost", "scored") for how in ("", " by forfeit")),
))


def note_words(note: str) -> str:
    """Return a tiebreak's note in the page's language: ``board 3`` as ``Brett 3``; the
    parts of a note joined by ``; `` or ``, `` each."""
    if current() == ENGLISH or not note:
        return note
    for joint in ("; ", ", "):
        if joint in note:
            return joint.join(note_words(part) for part in note.split(joint))
    for pattern, message in _NOTE_FORMS:
        found = pattern.fullmatch(note)
        if found:
            values = [decimal(v) if v[:1].isdigit() else
                      f"({note_words(v[1:-1])})" if v.startswith("(") else note_words(v)
                      for v in found.groups()]
            return _(message).format(*values)
    return _(note)


def addend(part: Part, names: Mapping[str, str]) -> Addend:
    """Return one part as ``3 (Bob, R1)``, ``0 (bye, R4)`` or ``1 (Dan, R2, forfeit)``."""
    if part.opponent is not None:
        words = [names.get(part.opponent, part.opponent), f"R{part.round}"]
        if part.note:
            words.append(note_words(part.note))
    else:
        words = [note_words(part.note or "no opponent"), f"R{part.round}"]
    return Addend(f"{display_number(part.value)} ({', '.join(words)})", part.counted)


def breakdown(
    short: str, label: str, href: str, value: Value, names: Mapping[str, str]
) -> Breakdown:
    """Return a tiebreak's breakdown, its parts in round order as the tiebreak gave them."""
    return Breakdown(
        short=short,
        label=label,
        href=href,
        value=display_number(value.value),
        parts=tuple(addend(part, names) for part in value.parts),
        note=note_words(value.note),
    )


def _result(entry: Entry | None, proposed: bool, alone: str) -> str:
    if entry is None:
        return _("proposed") if proposed else _("not played yet")
    if alone:
        return points_words(entry.points)
    word = _(entry.seat.result or outcome_word(entry.outcome))
    if entry.kind is GameKind.FORFEIT:
        return _("{result} (forfeit)").format(result=word)
    return word


def player_page(
    site: Site, report: EventReport, player: Player, index: EventIndex, renderer: MarkdownRenderer
) -> PlayerPage:
    """Return the context of a player's page in an event."""
    event: Event = report.event
    standings = report.standings
    fmt = standings.format
    views = views_of(fmt)
    path = links.player_page(event, player.id)
    title = f"{player.name} · {event.config.name}"
    shared = index.shared
    if shared is not None:
        page = replace(shared.frame, path=path, title=title)
        rounds, players, columns = shared.rounds, shared.players, shared.columns
    else:
        page = event_frame(site, report, path, title, "player", site.event_crumbs(event))
        rounds, players = {}, {}
        columns = tiebreak_columns(site, path, standings.tiebreaks)

    hrefs = _Hrefs(page, event, rounds, players)
    names = index.names
    record = standings.records.get(player.id)
    chart_scores = running_scores(report, player.id, site.fast)
    after = dict(chart_scores) if shared is not None else {}
    games = [
        _player_game(report, player, index, hrefs, record, after, rnd, proposed, game)
        for rnd, proposed in index.rounds
        if (game := index.games.get((rnd.number, player.id))) is not None
    ]
    standing = index.rows.get(player.id)
    return PlayerPage(
        frame=page,
        name=player.name,
        faction=player.faction,
        club=player.club,
        event_name=event.config.name,
        team=_team_name(player, event),
        event_href=shared.event if shared is not None else page.href(links.event_page(event)),
        rank=str(standing.rank) if standing is not None else "",
        score=display_number(record.score if record is not None else 0.0),
        score_label=fmt.score_label,
        score_short=fmt.score_short,
        dropped=dropped_note(player),
        spare=player.spare,
        stat_labels=tuple(_(stat_heading(s.id)) for s in fmt.stats),
        games=tuple(games),
        breakdowns=_breakdowns(standing, columns, names),
        army_list=renderer.untrusted(event.lists.get(player.id, "")),
        list_check=player.list_check,
        list_check_label=_(LIST_CHECK_LABELS.get(player.list_check, "")),
        chart=score_chart(
            chart_scores,
            index.scores[1],
            _("{name}: score after each round").format(name=player.name),
            index.scores[0],
        ),
        tables=_format_tables(views, report, player.id, page),
        history=page.href(history_page_path(player.id)),
    )


@dataclass(frozen=True)
class _Hrefs:
    """The links of a player's page to rounds and opponents: the event's shared ones
    when they are made once for every player's page, else each made here."""

    page: Frame
    event: Event
    rounds: Mapping[int, str]
    players: Mapping[str, str]

    def round(self, number: int) -> str:
        href = self.rounds.get(number)
        return href if href is not None else self.page.href(links.round_page(self.event, number))

    def player(self, pid: str) -> str:
        href = self.players.get(pid)
        return href if href is not None else self.page.href(links.player_page(self.event, pid))


def _player_game(report: EventReport, player: Player, index: EventIndex, hrefs: _Hrefs,
                 record: Record | None, after: Mapping[int, float], rnd: Round,
                 proposed: bool, game: Game) -> PlayerGame:
    """Return one line of a player's games: the round, table, opponents, result, stats,
    points, score after the round and rank after it."""
    fmt, event = report.standings.format, report.event
    entry = record.entry(rnd.number) if record is not None and not proposed else None
    running = after.get(rnd.number) if entry is not None else 0.0
    if running is None:  # a round in progress, or optimisations off
        running = score_after(report, player.id, rnd.number)
    alone = alone_label(game, fmt, event.config, player)
    rank = index.rank_after.get(rnd.number, {}).get(player.id)
    return PlayerGame(
        round=rnd.number,
        round_href=hrefs.round(rnd.number),
        table="" if alone else str(game.table),
        opponents=tuple(
            Link(index.names.get(o, o), hrefs.player(o)) for o in game.opponents_of(player.id)
        ),
        alone=alone,
        result=_result(entry, proposed, alone),
        stats=_game_stats(entry, game.seat_of(player.id), fmt),
        points=display_number(entry.points) if entry is not None else "",
        running=display_number(running) if entry is not None else "",
        rank_after=str(rank) if rank is not None else "",
    )


def _game_stats(entry: Entry | None, seat: Seat, fmt: Format) -> tuple[str, ...]:
    """Return the seat's values of the format's stats, blank for a game not played yet."""
    return tuple(
        display_number(seat.stats[s.id]) if entry is not None and s.id in seat.stats else ""
        for s in fmt.stats
    )


def _breakdowns(standing: Standing | None, columns: Sequence[Column],
                names: Mapping[str, str]) -> tuple[Breakdown, ...]:
    """Return each tiebreak's breakdown of a player's standing (none when not ranked)."""
    if standing is None:
        return ()
    return tuple(breakdown(c.short, c.label, c.href, standing.values[c.id], names)
                 for c in columns)


def _format_tables(views: FormatViews, report: EventReport, player: str,
                   page: Frame) -> tuple[TableView, ...]:
    """Return the format's own tables on a player's page (Diplomacy's powers played)."""
    found = tuple(views.player_tables(report, player)) if views.player_tables else ()
    return table_views(found, page, report.event.path, "format-table")


def running_scores(report: EventReport, player: str, fast: bool = True
                   ) -> list[tuple[int, float]]:
    """Return (round, score after it) for each complete round the player has a game in
    (``fast``: summed in one pass, the same additions in the same order)."""
    complete = [rnd.number for rnd in report.event.rounds if rnd.finished]
    record = report.standings.records.get(player)
    if record is None:
        return []
    if report.standings.format.total_score is None and fast:
        # the points summed round by round: the same additions, in the same order, as
        # summing each round's prefix of the entries (score_after)
        scores = []
        total: float = 0
        entries = record.entries
        k = 0
        for number in complete:
            while k < len(entries) and entries[k].round <= number:
                total += entries[k].points
                k += 1
            scores.append((number, total))
        return scores
    return [(number, score_after(report, player, number)) for number in complete]


def score_after(report: EventReport, player: str, round_number: int) -> float:
    """Return the player's score after ``round_number`` as the format totals it.

    The sum of the points, or the format's own total (McMahon: the starting McMahon
    score plus the points, as OpenGotha shows it).
    """
    fmt = report.standings.format
    record = report.standings.records[player]
    upto = Record(record.player, tuple(e for e in record.entries if e.round <= round_number))
    if fmt.total_score is not None:
        return fmt.total_score(upto, report.event.config)
    return upto.score


def _team_name(player: Player, event: Event) -> str:
    """Return the name of ``player``'s team, or "": no team, or the player not published
    in full (a team, like a club, is named only for them: docs/teams.md)."""
    if not player.team or not listed(player, event):
        return ""
    return next((t.name for t in event.teams if t.id == player.team), "")
