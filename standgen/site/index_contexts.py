"""The pages above events: home (every season and event), season pages, help pages."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup

from standgen.model import Event, Season
from standgen.pipeline import EventReport
from standgen.site import links
from standgen.site.contexts import Frame, HelpDoc, Site, frame, newest_first
from standgen.site.event_contexts import event_status
from standgen.site.markdown import MarkdownRenderer, docs_link_rewrite


@dataclass(frozen=True)
class EventItem:
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


@dataclass(frozen=True)
class SeasonPage:
    """A season folder's page: its description and events (a leaderboard comes later)."""

    frame: Frame
    name: str
    description: Markup
    events: tuple[EventItem, ...]


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


def _events_in(season: Season, events: Sequence[Event]) -> list[Event]:
    n = len(season.path)
    return [e for e in events if len(e.path) > n and e.path[:n] == season.path]


def _items(site: Site, page: Frame, reports: Sequence[EventReport]) -> tuple[EventItem, ...]:
    by_path = {r.event.path: r for r in reports}
    items = []
    for event in newest_first([r.event for r in reports]):
        report = by_path[event.path]
        season = site.season_of(event)
        items.append(
            EventItem(
                name=event.config.name,
                href=page.href(links.event_page(event)),
                date=event.config.date.isoformat(),
                format_label=report.standings.format.label,
                status=event_status(event, report.standings, report.proposal),
                season=season.name if season is not None else "",
            )
        )
    return tuple(items)


def home_page(site: Site, reports: Sequence[EventReport]) -> HomePage:
    """Return the context of the home page."""
    page = frame(links.INDEX, "Events", "home")
    events = [r.event for r in reports]
    seasons = []
    for season in site.tree.seasons:
        held = newest_first(_events_in(season, events))
        latest = held[0].config.date.isoformat() if held else ""
        seasons.append(
            SeasonItem(season.name, page.href(links.season_page(season.path)), len(held), latest)
        )
    seasons.sort(key=lambda s: (-_ordinal(s.latest), s.name.casefold(), s.href))
    return HomePage(page, tuple(seasons), _items(site, page, reports))


def _ordinal(date: str) -> int:
    return int(date.replace("-", "")) if date else 0


def season_page(
    site: Site, season: Season, reports: Sequence[EventReport], renderer: MarkdownRenderer
) -> SeasonPage:
    """Return the context of a season folder's page."""
    path = links.season_page(season.path)
    page = frame(path, season.name, "season")
    held = {e.path for e in _events_in(season, [r.event for r in reports])}
    return SeasonPage(
        frame=page,
        name=season.name,
        description=renderer.untrusted(season.description),
        events=_items(site, page, [r for r in reports if r.event.path in held]),
    )


def help_pages(site: Site, renderer: MarkdownRenderer) -> list[HelpPage]:
    """Return every help page: one per ``docs/`` file, and the help home listing them all."""
    docs = sorted(site.docs.values(), key=lambda d: (d.slug != "index", d.slug.count("/"), d.slug))
    home_path = links.help_page("index")
    pages: list[HelpPage] = []
    home_doc: HelpDoc | None = site.docs.get("index")
    home_frame = frame(home_path, home_doc.title if home_doc else "Help", "help")
    listing = tuple(
        HelpItem(d.title, home_frame.href(d.path), d.slug) for d in docs if d.slug != "index"
    )
    home_body = _render_doc(home_doc, renderer) if home_doc else Markup("")
    pages.append(HelpPage(home_frame, home_body, listing))
    for doc in docs:
        if doc.slug == "index":
            continue
        page = frame(doc.path, doc.title, "help", [("Help", home_path)])
        pages.append(HelpPage(page, _render_doc(doc, renderer), ()))
    return pages


def _render_doc(doc: HelpDoc, renderer: MarkdownRenderer) -> Markup:
    rewrite = docs_link_rewrite(doc.slug, doc.path, links.help_page, links.relative)
    return renderer.help_page(doc.text, rewrite)
