"""The bracket page of an event with stages (issue #31), and its JSON beside it.

A cut after the Swiss (``[options.cut]``) shows its bracket, a round per column on wide
screens and a list per round on narrow ones; an in-round final (Steamroller's top two,
Diplomacy's top board: :class:`standgen.formats.base.InRoundFinal`) shows its one game.
The winner is at the top; the event page links here with the winner's name.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import standgen.site.links as links
from standgen.model import Event, Game, GameKind, Outcome
from standgen.pipeline import EventReport
from standgen.site.contexts import Frame, Link, Site
from standgen.site.event_contexts import event_frame
from standgen.site.i18n import ENGLISH, _, current
from standgen.site.jsonout import dumps
from standgen.stages.bracket import FINAL, LOSERS, RESET, THIRD
from standgen.stages.progress import BracketState, MatchState
from standgen.standings import cut_state

SLUG = "bracket"
JSON = "bracket.json"
CSS = "assets/bracket.css"


@dataclass(frozen=True)
class Side:
    """One player of a match: seed, name, link, and whether they won it."""

    id: str
    seed: int
    name: str
    href: str
    won: bool


@dataclass(frozen=True)
class MatchView:
    """One match: its label, its players, and a note (a bye, not played yet ...)."""

    id: str
    label: str
    sides: tuple[Side, ...]
    note: str = ""


@dataclass(frozen=True)
class ColumnView:
    """One round of the stage: the event round, its title, its matches."""

    round: int
    title: str
    href: str
    matches: tuple[MatchView, ...]


@dataclass(frozen=True)
class StageView:
    """What the bracket page and its JSON show."""

    kind: str  # "single", "double" or "in-round final"
    title: str
    rule: str
    champion: Side | None
    columns: tuple[ColumnView, ...]


@dataclass(frozen=True)
class BracketPage:
    frame: Frame
    view: StageView
    json_href: str
    css_href: str  # the bracket's own small stylesheet (assets/bracket.css)


def stage_view(report: EventReport) -> StageView | None:
    """Return the event's stage as the page shows it, or None (no stage yet)."""
    state = cut_state(report.event)
    if state is not None:
        return _cut_view(report, state)
    return _final_view(report)


def stage_link(report: EventReport, page: Frame) -> Link | None:
    """Return the event page's link to the bracket: the winner's name once there is one."""
    view = stage_view(report)
    if view is None:
        return None
    href = page.href(links.page(*report.event.path, SLUG))
    if view.champion is not None:
        return Link(_("Winner: {name} ({title})").format(name=view.champion.name,
                                                           title=_lower(_(view.title))), href)
    return Link(_(view.title), href)


def _side(event: Event, pid: str, seed: int, won: bool, page: str) -> Side:
    player = event.player_by_id.get(pid)
    return Side(pid, seed, player.name if player else pid,
                links.relative(page, links.player_page(event, pid)), won)


def _cut_view(report: EventReport, state: BracketState) -> StageView:
    event = report.event
    page = links.page(*event.path, SLUG)
    bracket = state.bracket
    columns = []
    for number in range(1, bracket.rounds + 1):
        matches = [m for m in state.matches if m.match.round == number]
        if all(m.skipped for m in matches):
            continue
        views = tuple(_match_view(event, state, m, page) for m in matches if not m.skipped)
        event_round = state.after_round + number
        columns.append(ColumnView(
            event_round, f"Round {event_round}: {_round_title(state, number)}",
            links.relative(page, links.round_page(event, event_round)), views))
    champion = state.champion
    kind = f"{bracket.kind}-elimination"
    return StageView(
        bracket.kind, f"Top {len(state.seeds)} cut",
        f"A {kind} bracket of the top {len(state.seeds)} after the Swiss's round "
        f"{state.after_round}, seeded by the Swiss standings: 1v{bracket.size}, ... as Magic "
        "Tournament Rules 10.4, byes to the top seeds.",
        _side(event, champion, state.seed_of(champion), True, page) if champion else None,
        tuple(columns))


def _round_title(state: BracketState, number: int) -> str:
    matches = [m.match for m in state.matches if m.match.round == number]
    sections = {m.section for m in matches}
    if state.bracket.kind == "single":
        left = len([m for m in matches if m.section != THIRD])
        names = {1: "the final", 2: "semi-finals", 4: "quarter-finals"}
        return names.get(left, f"round of {2 * left}")
    parts = (("winners", "winners' side"), (LOSERS, "losers' side"), (FINAL, "grand final"),
             (RESET, "grand final, second game"))
    return " and ".join(name for section, name in parts if section in sections)


def _match_view(event: Event, state: BracketState, m: MatchState, page: str) -> MatchView:
    sides = tuple(
        _side(event, pid, state.seed_of(pid), m.winner == pid, page)
        for pid in (m.a, m.b) if pid)
    return MatchView(m.match.id, _match_label(state, m), sides, _match_note(m, bool(sides)))


_SIDE_PREFIX = {"winners": "Winners' side, match ", LOSERS: "Losers' side, match "}


def _match_label(state: BracketState, m: MatchState) -> str:
    """Return a match's name: the final's, third place's, or its side's and number.

    A double-elimination bracket's grand final ("final") and its second game ("reset")
    are named by their section; only a winners' or losers' side match has a side and a
    number (docs/stages.md)."""
    double = state.bracket.kind == "double"
    section = m.match.section
    named = {FINAL: "Grand final" if double else "Final",
             RESET: "Grand final, second game", THIRD: "Third place"}
    if section in named:
        return named[section]
    number = m.match.id.rpartition("-")[2]
    return (_SIDE_PREFIX[section] if double else "Match ") + number


def _match_note(m: MatchState, seated: bool) -> str:
    """Return what a match waits for: a bye, the winners or losers of earlier matches,
    its game or its winner; "" once decided."""
    if m.walkover:
        return "bye" if seated else "no player"
    if m.a is None or m.b is None:
        return _waiting_for(m)
    if not m.decided:
        return "to play" if m.game is None or not m.game.finished else "no winner entered"
    return ""


def _final_view(report: EventReport) -> StageView | None:
    event, standings = report.event, report.standings
    final = standings.format.in_round_final
    if final is None:
        return None
    number = final.round_of(event.config, standings.planned_rounds)
    game = _final_game(event, number, final.players)
    if game is None:
        return None
    ranks = _ranks_before(report, number)
    if final.players == 2 and sorted(ranks.get(p, 99) for p in game.players) != [1, 2]:
        return None  # seed 004's top two had met: no final was played
    page = links.page(*event.path, SLUG)
    champion = _final_champion(report, game)
    sides = tuple(_side(event, s.player, ranks.get(s.player, 0), s.player == champion, page)
                  for s in sorted(game.seats, key=lambda s: ranks.get(s.player, 99)))
    note = "" if game.finished else _("to play")
    column = ColumnView(number, _("Round {number}: {what}").format(
                            number=number, what=_lower(_(final.label))),
                        links.relative(page, links.round_page(event, number)),
                        (MatchView("F", _(final.label), sides, note),))
    won = next((s for s in sides if s.won), None)
    return StageView("in-round final", _(final.label), _(final.rule), won, (column,))


def _waiting_for(m: MatchState) -> str:
    """Return which earlier matches' winners or losers a match waits for."""
    return "waiting for " + " and ".join(
        f"the {'winner' if s.winner_of else 'loser'} of {s.winner_of or s.loser_of}"
        for s, pid in ((m.match.a, m.a), (m.match.b, m.b)) if pid is None)


def _final_game(event: Event, number: int, players: int) -> Game | None:
    """Return table 1 of round ``number`` when it is a played game of ``players`` seats
    (the in-round final), else None."""
    rnd = next((r for r in event.rounds if r.number == number), None)
    game = next((g for g in rnd.games if g.table == 1), None) if rnd else None
    if game is None or game.kind is not GameKind.PLAYED or len(game.seats) != players:
        return None
    return game


def _ranks_before(report: EventReport, number: int) -> dict[str, int]:
    """Return each player's rank in the standings before round ``number`` (none known
    before round 1, or without those standings)."""
    before = report.by_round[number - 2] if 0 < number - 1 <= len(report.by_round) else None
    return {row.player.id: row.rank for row in before.rows} if before else {}


def _lower(label: str) -> str:
    """Return a label inside a sentence: lower case in English ("top board"), as written in
    the languages whose nouns keep their capital ("Finaltisch") or have no case."""
    return label.lower() if current() == ENGLISH else label


def _final_champion(report: EventReport, game: Game) -> str | None:
    """Return the final's winner: the seat that won it (two players), else the first of the
    standings among the finalists (Diplomacy's top board: seed 001's own table)."""
    if not game.finished:
        return None
    if len(game.seats) == 2:
        return next((s.player for s in game.seats if s.outcome is Outcome.WIN), None)
    finalists = set(game.players)
    return next((row.player.id for row in report.standings.rows
                 if row.player.id in finalists), None)


def bracket_document(report: EventReport, view: StageView) -> dict[str, Any]:
    """Return the bracket as JSON: the stage, its winner and every match by round."""

    def side(s: Side) -> dict[str, Any]:
        return {"id": s.id, "name": s.name, "seed": s.seed, "won": s.won}

    return {
        "event": report.event.config.name,
        "kind": view.kind,
        "title": view.title,
        "rule": view.rule,
        "winner": side(view.champion) if view.champion else None,
        "rounds": [
            {"round": c.round, "title": c.title, "matches": [
                {"id": m.id, "label": m.label, "note": m.note,
                 "players": [side(s) for s in m.sides]} for m in c.matches]}
            for c in view.columns
        ],
    }


def bracket_pages(site: Site, report: EventReport) -> Iterator[tuple[str, BracketPage]]:
    """Yield the event's bracket page, when it has a stage."""
    view = stage_view(report)
    if view is None:
        return
    event = report.event
    path = links.page(*event.path, SLUG)
    crumbs: Sequence[tuple[str, str]] = site.event_crumbs(event)
    frame = event_frame(site, report, path, f"{event.config.name}: {view.title}", "bracket",
                        crumbs)
    yield path, BracketPage(frame, view, frame.href(links.event_file(event, JSON)),
                            frame.href(CSS))


def bracket_json(report: EventReport, fast: bool) -> Iterator[tuple[str, bytes]]:
    """Yield the event's bracket.json beside its bracket page."""
    view = stage_view(report)
    if view is not None:
        yield links.event_file(report.event, JSON), dumps(bracket_document(report, view), fast)


