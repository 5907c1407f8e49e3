"""The scopes of the page registry (:mod:`standgen.site.pages`): what a page type depends on
(:class:`Depends`), the registry's entry (:class:`PageType`) and the inputs a context
function of each scope is given. A page module imports these; the registry imports the
page modules."""

from __future__ import annotations

import copy
import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from standgen.model import Round, Season
from standgen.pipeline import EventReport
from standgen.site.contexts import Site
from standgen.site.event_contexts import EventPage, event_page, rounds_of
from standgen.site.feed import FEED
from standgen.site.history import Appearance
from standgen.site.hook_contexts import extra_pages, format_downloads
from standgen.site.markdown import MarkdownRenderer
from standgen.site.player_contexts import EventIndex, index_event
from standgen.site.stages import stage_link
from standgen.site.summary import EventSummary
from standgen.tables import Page


class Depends(enum.Enum):
    """What a page type's files are made from: when a build renders them again."""

    EVENT = "an event"
    SEASON = "a season's events"
    SITE = "the list of events"
    PLAYER = "a player's lines"
    HELP = "the help pages and assets"
    CLUB = "every event's games"  # issue #20: ratings and meta (standgen.site.club_pages)


Output = tuple[str, Any]  # (output path, context), or (output path, bytes) without a template


@dataclass(frozen=True)
class PageType:
    """One kind of output file: its name, what it depends on, its context function, and its
    template (``site_templates/<template>.html``; None: the function yields the bytes).

    ``path`` (``PLAYER`` types only) returns the file of a player with no events left, so an
    incremental build removes it.

    ``reads`` (``SITE`` types only) returns what the page reads of an event's head, when
    not all of it: an incremental build makes the page again only when that changed for
    an event, or an event came or went (the archive reads each event's name, date and
    path; a result typed in changes the event's status, which the home page shows).

    ``splice`` (``PLAYER`` types with a ``path`` only) makes a player's page from the page
    the last build wrote and the lines that changed
    (:class:`standgen.site.history_splice.HistorySplice`), or returns None when it cannot:
    the page is then made in full. An incremental build uses it when the events loaded
    again are steady for the player, and the tests require the page made in full."""

    name: str
    depends: Depends | str  # a built-in scope, or the name of a scope added to the build's
    make: Callable[[Any], Iterable[Output]]
    template: str | None = None
    path: Callable[[str], str] | None = None
    reads: Callable[[Any], object] | None = None
    splice: Callable[[Any], bytes | None] | None = None


class EventInputs:
    """What an event's pages are made from: its report, and what its pages share (made
    once, when first asked for)."""

    def __init__(self, site: Site, renderer: MarkdownRenderer, report: EventReport) -> None:
        self.site = site
        self.renderer = renderer
        self.report = report

    @cached_property
    def extras(self) -> tuple[Page, ...]:
        return tuple(extra_pages(self.report))

    @cached_property
    def downloads(self) -> Mapping[str, bytes]:
        return format_downloads(self.report)

    @cached_property
    def front(self) -> EventPage:
        names = ["standings.json", "standings.csv", FEED, *self.downloads]
        page = event_page(self.site, self.report, self.renderer,
                          [(p.slug, p.title) for p in self.extras], names)
        return replace(page, stage=stage_link(self.report, page.frame))

    @cached_property
    def rounds(self) -> list[tuple[Round, bool]]:
        return rounds_of(self.report)

    @cached_property
    def index(self) -> EventIndex:
        return index_event(self.report, self.site)

    def with_rounds(self, keep: Callable[[int], bool]) -> EventInputs:
        """Return these inputs with only the rounds whose number ``keep`` accepts (for
        the page types of one round each: its page, its ``pairings.json``), sharing
        what is made already."""
        view = copy.copy(self)
        view.__dict__["rounds"] = [(rnd, proposed) for rnd, proposed in self.rounds
                                   if keep(rnd.number)]
        return view


@dataclass(frozen=True)
class SeasonInputs:
    """A season page's inputs: the season and every event's summary (those of its events
    with their rankings and faction results)."""

    site: Site
    renderer: MarkdownRenderer
    season: Season
    events: Sequence[EventSummary]


@dataclass(frozen=True)
class ListInputs:
    """A site-wide page's inputs: every event's summary (at least its head)."""

    site: Site
    renderer: MarkdownRenderer
    events: Sequence[EventSummary]


@dataclass(frozen=True)
class PlayerInputs:
    """A player's pages' inputs: the player's line in each of their events."""

    site: Site
    player: str
    appearances: Sequence[Appearance]


@dataclass(frozen=True)
class HelpInputs:
    """The help pages' inputs: ``docs/`` (in ``site``), its pictures, the templates' assets."""

    site: Site
    renderer: MarkdownRenderer
    images: Mapping[str, Path]
    templates_dir: Path
