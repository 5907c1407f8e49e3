"""The pages above events: home (every season and event), season pages, help pages."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from markupsafe import Markup

import standgen.site.links as links
from standgen.model import LANGUAGES, Season
from standgen.site.charts import FactionResult, faction_chart
from standgen.site.club_scopes import ratings_path
from standgen.site.contexts import Frame, HelpDoc, Link, Site, frame, newest_first
from standgen.site.history import history_page_path
from standgen.site.i18n import ENGLISH, _, current
from standgen.site.markdown import MarkdownRenderer, docs_image_rewrite, docs_link_rewrite
from standgen.site.numbers import display_number
from standgen.site.season import EventResult, Leaderboard, PointsRule, leaderboard, points_rule
from standgen.site.stamp import stamp
from standgen.site.summary import EventSummary, merged_factions
from standgen.site.table_rows import event_items, leaderboard_rows


class EventItem(NamedTuple):  # made by the thousand: a tuple is made fastest
    """An event in a list: name, link, date, format, status, season."""

    name: str
    href: str
    date: str
    format_label: str
    status: str
    season: str


@dataclass(frozen=True)
class SeasonItem:
    """A season in the home page's list."""

    name: str
    href: str
    events: int
    latest: str  # date of its newest event, "" when it has none


@dataclass(frozen=True)
class HomePage:
    """The site's home: every season and every event, newest first."""

    frame: Frame
    seasons: tuple[SeasonItem, ...]
    events: tuple[EventItem, ...]
    now: tuple[NowItem, ...] = ()  # events being played: the home page leads with them
    events_html: Markup | None = None  # the events' items as the template writes them


@dataclass(frozen=True)
class NowItem:
    """An event in progress: its page, status and the page of its current round."""

    name: str
    href: str
    status: str
    round: Link | None  # "Round 4 pairings", the newest round's page


def running(event: EventSummary) -> bool:
    """Return whether ``event`` is being played: started, not finished.

    ``status`` comes from :func:`standgen.site.event_contexts.event_status` (a finished
    event's says "Finished"); ``note`` from :func:`standgen.site.stamp.event_note`.
    """
    return (not event.status.english.startswith("Finished")
            and event.note.english != "no rounds yet")


def current_round(event: EventSummary) -> int | None:
    """Return the number of the newest round an event's pages show (from its note)."""
    found = re.findall(r"round (\d+)", event.note.english)
    return int(found[-1]) if found else None


def _now(page: Frame, events: Sequence[EventSummary]) -> tuple[NowItem, ...]:
    items = []
    for event in newest_first(events):
        if not running(event):
            continue
        number = current_round(event)
        link = None
        if number is not None:
            link = Link(_("Round {number} pairings").format(number=number),
                        page.href(links.page(*event.path, f"round-{number}")))
        items.append(NowItem(event.config.name, page.href(links.event_page(event)),
                             str(event.status), link))
    return tuple(items)


class LeaderCell(NamedTuple):  # made by the thousand: a tuple is made fastest
    """A player's season points from one event; ``counted`` False outside their best N."""

    text: str
    title: str
    counted: bool


class LeaderEntry(NamedTuple):  # made by the thousand: a tuple is made fastest
    """One event a player played, in a long season's leaderboard (no column per event)."""

    event: Link
    cell: LeaderCell


class LeaderRow(NamedTuple):  # made by the thousand: a tuple is made fastest
    rank: int
    player: Link
    total: str
    events: int
    cells: tuple[LeaderCell, ...]  # one per season event (a season of few events)
    entries: tuple[LeaderEntry, ...] = ()  # the events played (a long season)


# A season of more events than this lists each player's own events in one cell instead
# of a column per event: a page that grows with the events played, not with players x
# events (a 90-event season of 1,000 players was 100,000 mostly empty cells; issue #33)
MATRIX_EVENTS = 12


@dataclass(frozen=True)
class SeasonPage:
    """A season folder's page: its description, leaderboard, faction results and events."""

    frame: Frame
    name: str
    description: Markup
    events: tuple[EventItem, ...]
    columns: tuple[Link, ...]  # the leaderboard's events, oldest first (few events only)
    leaders: tuple[LeaderRow, ...]
    rule: str  # the points rule in words
    factions: tuple[FactionResult, ...]
    faction_chart: Markup
    ratings: str = ""  # the season's rating list (and from it, its meta pages; issue #20)
    matrix: bool = True  # a column per event (at most MATRIX_EVENTS events)
    leaders_html: Markup | None = None  # the leaderboard's rows as the template writes them
    events_html: Markup | None = None  # the events' items as the template writes them
    # (Site.fast, standgen.site.table_rows), or None


@dataclass(frozen=True)
class HelpItem:
    """A help page in the help index."""

    title: str
    href: str
    slug: str


@dataclass(frozen=True)
class HelpPage:
    """A rendered help page; the help home also lists every page."""

    frame: Frame
    body: Markup
    pages: tuple[HelpItem, ...]


def events_in(season: Season, events: Sequence[EventSummary]) -> list[EventSummary]:
    """Return the events held in a season's folder (at any depth)."""
    n = len(season.path)
    return [e for e in events if len(e.path) > n and e.path[:n] == season.path]


def _items(site: Site, page: Frame, events: Sequence[EventSummary]) -> tuple[EventItem, ...]:
    items = []
    for event in newest_first(events):
        season = site.season_of(event)
        items.append(
            EventItem(
                name=event.config.name,
                href=page.href(links.event_page(event)),
                date=event.config.date.isoformat(),
                format_label=event.format_label,
                status=str(event.status),
                season=season.name if season is not None else "",
            )
        )
    return tuple(items)


def home_page(site: Site, events: Sequence[EventSummary]) -> HomePage:
    """Return the context of the home page: seasons and events, newest first."""
    events = newest_first(events)  # once: every list below keeps this order
    page = frame(links.INDEX, site.tree.site.title, "home")
    page = replace(page, stamp=stamp(_newest_note(events), site.built))
    seasons = []
    for season in site.tree.seasons:
        held = events_in(season, events)
        latest = held[0].config.date.isoformat() if held else ""
        seasons.append(
            SeasonItem(season.name, page.href(links.season_page(season.path)), len(held), latest)
        )
    seasons.sort(key=lambda s: (-_ordinal(s.latest), s.name.casefold(), s.href))
    items = _items(site, page, events)
    return HomePage(page, tuple(seasons), items, _now(page, events),
                    event_items(items) if site.fast else None)


def _newest_note(events: Sequence[EventSummary]) -> str:
    """Return the home page's stamp note: the event being played, else the newest one."""
    ordered = newest_first(events)
    newest = [e for e in ordered if running(e)] or ordered
    if not newest:
        return ""
    return f"{newest[0].config.name}, {newest[0].note}"


def _ordinal(date: str) -> int:
    return int(date.replace("-", "")) if date else 0


def season_page(
    site: Site, season: Season, events: Sequence[EventSummary], renderer: MarkdownRenderer
) -> SeasonPage:
    """Return the context of a season folder's page (``events``: every event, or at least
    the season's)."""
    path = links.season_page(season.path)
    page = frame(path, season.name, "season")
    mine = events_in(season, events)
    rule = points_rule(season.points)
    board = leaderboard(mine, rule)
    matrix = len(board.events) <= MATRIX_EVENTS
    columns = tuple(Link(e.config.name, page.href(links.event_page(e))) for e in board.events)
    leaders = tuple(
        LeaderRow(
            rank=row.rank,
            player=Link(row.name, page.href(history_page_path(row.player))),
            total=display_number(row.total),
            events=len(row.results),
            cells=_leader_cells(row.results, len(board.events), board) if matrix else (),
            entries=() if matrix else tuple(
                LeaderEntry(columns[r.event], _leader_cell(r, board)) for r in row.results),
        )
        for row in board.rows
    )
    factions = merged_factions(e.factions for e in board.events)
    items = _items(site, page, mine)
    return SeasonPage(
        frame=page,
        name=season.name,
        description=renderer.untrusted(season.description),
        events=items,
        columns=columns if matrix else (),
        leaders=leaders,
        rule=rule_text(rule),
        factions=factions,
        faction_chart=faction_chart(factions, _("{season}: win rate by faction").format(
            season=season.name)),
        ratings=page.href(ratings_path(season.path)),
        matrix=matrix,
        leaders_html=leaderboard_rows(leaders, columns if matrix else None) if site.fast else None,
        events_html=event_items(items) if site.fast else None,
    )


def _leader_cells(
    results: Sequence[EventResult], width: int, board: Leaderboard
) -> tuple[LeaderCell, ...]:
    by_event = {r.event: r for r in results}
    cells = []
    for index in range(width):
        found = by_event.get(index)
        if found is None:
            cells.append(LeaderCell("", _("did not play"), True))
            continue
        cells.append(_leader_cell(found, board))
    return tuple(cells)


def _leader_cell(found: EventResult, board: Leaderboard) -> LeaderCell:
    name = board.events[found.event].config.name
    title = _("{name}: placed {rank}").format(name=name, rank=found.rank)
    if not found.counted:
        title += _(", not among the best results counted")
    return LeaderCell(display_number(found.points), title, found.counted)


def rule_text(rule: PointsRule) -> str:
    """Return the points rule in words: ``1st 25, 2nd 18, ... ; +1 per event; best 5``."""
    shown = ", ".join(
        f"{_ordinal_word(i)} {display_number(p)}" for i, p in enumerate(rule.placings, start=1)
    )
    words = [_("Points per placing: {points}").format(points=shown) if shown
             else _("No points for placings")]
    if rule.participation:
        words.append(_("{points} for taking part").format(
            points=display_number(rule.participation)))
    words.append(_("best {number} events count").format(number=rule.best) if rule.best
                 else _("every event counts"))
    return "; ".join(words) + "."


def _ordinal_word(n: int) -> str:
    if current() != ENGLISH:
        return _("place {number}").format(number=n)  # "1.", "1er" ... "1位"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def help_pages(site: Site, renderer: MarkdownRenderer) -> list[HelpPage]:
    """Return every help page: one per ``docs/`` file, and the help home listing them all.

    A page written in the site's language too (``docs/<language>/players.md``, the help
    for players) is shown in it at the English page's address; the others stay English.
    """
    docs = sorted((_in_language(site, d) for d in site.docs.values()
                   if not translated_doc(d.slug)),
                  key=lambda d: (d.slug != "index", d.slug.count("/"), d.slug))
    home_path = links.help_page("index")
    pages: list[HelpPage] = []
    home_doc: HelpDoc | None = next((d for d in docs if d.slug == "index"), None)
    home_frame = frame(home_path, home_doc.title if home_doc else "Help", "help")
    listing = tuple(
        HelpItem(d.title, home_frame.href(d.path), d.slug) for d in docs if d.slug != "index"
    )
    home_body = _render_doc(site, home_doc, renderer) if home_doc else Markup("")
    pages.append(HelpPage(home_frame, home_body, listing))
    for doc in docs:
        if doc.slug == "index":
            continue
        page = frame(doc.path, doc.title, "help", [(_("Help"), home_path)])
        pages.append(HelpPage(page, _render_doc(site, doc, renderer), ()))
    return pages


def translated_doc(slug: str) -> bool:
    """Return whether a docs/ slug is a page's translation (``de/players``)."""
    first = slug.split("/", 1)[0]
    return "/" in slug and first != ENGLISH and first in LANGUAGES


def _in_language(site: Site, doc: HelpDoc) -> HelpDoc:
    """Return ``doc`` in the active language when docs/<language>/ has it."""
    found = site.docs.get(f"{current()}/{doc.slug}")
    return doc if found is None else replace(found, slug=doc.slug, source=found.slug)


def _help_path(slug: str) -> str:
    """Return the help page of a slug a translated page links to (the page's address)."""
    return links.help_page(slug.split("/", 1)[1] if translated_doc(slug) else slug)


def _render_doc(site: Site, doc: HelpDoc, renderer: MarkdownRenderer) -> Markup:
    source = doc.source or doc.slug  # a translation's links are relative to its folder
    rewrite = docs_link_rewrite(source, doc.path, _help_path, links.relative)
    pictures = docs_image_rewrite(source, doc.path, links.help_page, links.relative,
                                  site.images.__contains__)
    return renderer.help_page(doc.text, rewrite, pictures)
