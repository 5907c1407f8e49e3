"""The page registry: every kind of output file of the site, what it is made from, and how.

Each :class:`PageType` names its template (None for a file whose bytes its function makes:
JSON, CSV, the feed, assets), its context function, and what it depends on
(:class:`Depends`): one event, one season, one player's lines, the list of events
(site-wide) or the help pages. Full builds, incremental builds and ``standgen watch``
all render through :class:`standgen.site.renderer.SiteRenderer`, which renders every
registered type of a scope from this one table, so no build can forget a page:

- ``EVENT``: rendered again when the event's folder changes; its files live below the
  event's folder (an incremental build removes the ones it no longer has);
- ``SEASON``: when an event of the season changes its head, ranking or faction results;
- ``SITE``: when any event's head (:meth:`EventSummary.head`) changes, or an event is
  added or removed (home, archive);
- ``PLAYER``: when the player's line in some event changes (their history page);
- ``HELP``: only in a full build (the help pages, templates and assets are in the build
  state's key: any change to them makes the next build a full one).

Adding a page type: its module, its template and one line here. A site-wide page of the
largest events, say, is ``standgen/site/largest.py``::

    from collections.abc import Iterator
    from dataclasses import dataclass

    import standgen.site.links as links
    from standgen.site.contexts import Frame, frame
    from standgen.site.scopes import ListInputs

    @dataclass(frozen=True)
    class LargestPage:
        frame: Frame
        events: tuple[tuple[str, int], ...]  # (name, players), largest first

    def largest_pages(inputs: ListInputs) -> Iterator[tuple[str, LargestPage]]:
        path = links.page("largest")
        events = sorted(inputs.events, key=lambda e: (-e.field, e.path))[:10]
        yield path, LargestPage(frame(path, "Largest events", "largest"),
                                tuple((e.config.name, e.field) for e in events))

with ``site_templates/largest.html`` (it sees the context as ``page``; ``{% extends
"base.html" %}`` gives it the site's frame), and in :data:`PAGES` below::

    PageType("largest", Depends.SITE, largest.largest_pages, "largest"),

That is all: full builds, incremental builds and ``watch`` render it from here (the
build's scopes, :mod:`standgen.builder.scopes`, make every page type of their scope; a
new scope is one class there, and page types here naming it;
``tests/test_pages.py`` builds exactly this example). A ``SITE`` page reads only each
event's head (:meth:`~standgen.site.summary.EventSummary.head`: its path, ``event.toml``,
format, status, note and field), since an incremental build renders it again only when a
head changes; a page that shows rankings belongs to ``SEASON``, one that shows a player's
results to ``PLAYER`` (or its data goes into the head). :class:`~standgen.site.scopes.PageType`,
:class:`~standgen.site.scopes.Depends` and the inputs of each scope are in
:mod:`standgen.site.scopes`, which page modules import (the registry imports the page
modules, never the reverse).

The context function takes the inputs of its scope (:class:`EventInputs`,
:class:`SeasonInputs`, :class:`ListInputs`, :class:`PlayerInputs`,
:class:`HelpInputs`) and yields (output path, context) pairs, or (output path, bytes)
without a template. ``tests/test_pages.py`` builds the demo full, incrementally and
under ``watch`` and checks, for every registered type, that its files are there and
equal in all three.
"""

from __future__ import annotations

from collections.abc import Iterator

import standgen.site.links as links
from standgen.model import Player
from standgen.site import club_pages, player_search, stages, team_pages
from standgen.site.downloads import pairings_csv, standings_csv
from standgen.site.feed import atom_feed, feed_path
from standgen.site.history import (
    ARCHIVE,
    archive_page,
    archive_reads,
    history_page,
    history_page_path,
)
from standgen.site.history_splice import spliced_history
from standgen.site.hook_contexts import extra_page
from standgen.site.index_contexts import help_pages, home_page, season_page
from standgen.site.jsonout import dumps, pairings_document, standings_document
from standgen.site.markdown import help_asset
from standgen.site.player_contexts import player_page
from standgen.site.round_contexts import round_page, slips_page
from standgen.site.scopes import (
    Depends,
    EventInputs,
    HelpInputs,
    ListInputs,
    Output,
    PageType,
    PlayerInputs,
    SeasonInputs,
)

# ----- the context functions of the built-in pages ----------------------------------------

def _event(inputs: EventInputs) -> Iterator[Output]:
    yield links.event_page(inputs.report.event), inputs.front


def _standings_json(inputs: EventInputs) -> Iterator[Output]:
    event = inputs.report.event
    yield (links.event_file(event, "standings.json"),
           dumps(standings_document(event, inputs.report.standings), inputs.site.fast))


def _standings_csv(inputs: EventInputs) -> Iterator[Output]:
    yield (links.event_file(inputs.report.event, "standings.csv"),
           standings_csv(inputs.report.standings))


def _feed(inputs: EventInputs) -> Iterator[Output]:
    site = inputs.site
    yield feed_path(inputs.report), atom_feed(inputs.report, site.tree.site.site_url, site.built)


def _downloads(inputs: EventInputs) -> Iterator[Output]:
    for name, content in inputs.downloads.items():
        yield links.event_file(inputs.report.event, name), content


def _extras(inputs: EventInputs) -> Iterator[Output]:
    site, report = inputs.site, inputs.report
    crumbs = site.event_crumbs(report.event)
    for extra in inputs.extras:
        context = extra_page(site, report, extra, crumbs, inputs.front.frame.stamp)
        yield context.frame.path, context


def _rounds(inputs: EventInputs) -> Iterator[Output]:
    for rnd, proposed in inputs.rounds:
        yield (links.round_page(inputs.report.event, rnd.number),
               round_page(inputs.site, inputs.report, rnd, proposed, inputs.renderer.untrusted))


def _slips(inputs: EventInputs) -> Iterator[Output]:
    for rnd, proposed in inputs.rounds:
        slips = slips_page(inputs.site, inputs.report, rnd, proposed)
        yield slips.frame.path, slips


def _pairings_json(inputs: EventInputs) -> Iterator[Output]:
    for rnd, proposed in inputs.rounds:
        yield (links.event_file(inputs.report.event, f"round-{rnd.number}", "pairings.json"),
               dumps(pairings_document(rnd, proposed), inputs.site.fast))


def _bracket(inputs: EventInputs) -> Iterator[Output]:
    yield from stages.bracket_pages(inputs.site, inputs.report)


def _bracket_json(inputs: EventInputs) -> Iterator[Output]:
    yield from stages.bracket_json(inputs.report, inputs.site.fast)


def _pairings_csv(inputs: EventInputs) -> Iterator[Output]:
    event = inputs.report.event
    for rnd, _ in inputs.rounds:
        yield (links.event_file(event, f"round-{rnd.number}", "pairings.csv"),
               pairings_csv(rnd, event.player_by_id))


def _players(inputs: EventInputs) -> Iterator[Output]:
    event = inputs.report.event
    player: Player
    for player in event.players:
        yield (links.player_page(event, player.id),
               player_page(inputs.site, inputs.report, player, inputs.index, inputs.renderer))


def _teams(inputs: EventInputs) -> Iterator[Output]:
    yield from team_pages.team_pages(inputs.site, inputs.report)


def _home(inputs: ListInputs) -> Iterator[Output]:
    yield links.INDEX, home_page(inputs.site, inputs.events)


def _archive(inputs: ListInputs) -> Iterator[Output]:
    yield ARCHIVE, archive_page(inputs.events)


def _season(inputs: SeasonInputs) -> Iterator[Output]:
    yield (links.season_page(inputs.season.path),
           season_page(inputs.site, inputs.season, inputs.events, inputs.renderer))


def _history(inputs: PlayerInputs) -> Iterator[Output]:
    page = history_page(inputs.player, inputs.appearances, inputs.site.fast)
    yield page.frame.path, page


def _help(inputs: HelpInputs) -> Iterator[Output]:
    for page in help_pages(inputs.site, inputs.renderer):
        yield page.frame.path, page


def _help_images(inputs: HelpInputs) -> Iterator[Output]:
    for name, path in inputs.images.items():
        yield help_asset(name), path.read_bytes()


def _assets(inputs: HelpInputs) -> Iterator[Output]:
    assets = inputs.templates_dir / "assets"
    for asset in sorted(assets.rglob("*")):
        if asset.is_file():
            yield "assets/" + asset.relative_to(assets).as_posix(), asset.read_bytes()


# ----- the registry ------------------------------------------------------------------------

PAGES: tuple[PageType, ...] = (
    PageType("event", Depends.EVENT, _event, "event"),
    PageType("standings.json", Depends.EVENT, _standings_json),
    PageType("standings.csv", Depends.EVENT, _standings_csv),
    PageType("feed", Depends.EVENT, _feed),
    PageType("downloads", Depends.EVENT, _downloads),
    PageType("extra", Depends.EVENT, _extras, "extra"),
    PageType("round", Depends.EVENT, _rounds, "round"),
    PageType("slips", Depends.EVENT, _slips, "slips"),
    PageType("pairings.json", Depends.EVENT, _pairings_json),
    PageType("bracket", Depends.EVENT, _bracket, "bracket"),
    PageType("bracket.json", Depends.EVENT, _bracket_json),
    PageType("pairings.csv", Depends.EVENT, _pairings_csv),
    PageType("player", Depends.EVENT, _players, "player"),
    PageType("team", Depends.EVENT, _teams, "team"),
    PageType("home", Depends.SITE, _home, "home"),
    PageType("archive", Depends.SITE, _archive, "archive", reads=archive_reads),
    PageType("season", Depends.SEASON, _season, "season"),
    PageType("history", Depends.PLAYER, _history, "history", path=history_page_path,
             splice=spliced_history),
    PageType("help", Depends.HELP, _help, "help"),
    PageType("help images", Depends.HELP, _help_images),
    PageType("assets", Depends.HELP, _assets),
    PageType("club ratings", Depends.CLUB, club_pages.rating_lists, "club_ratings"),
    PageType("club ratings.json", Depends.CLUB, club_pages.rating_lists_json),
    PageType("club meta", Depends.CLUB, club_pages.metas, "club_meta"),
    PageType("club meta.json", Depends.CLUB, club_pages.metas_json),
    PageType("club player", Depends.CLUB, club_pages.player_ratings, "club_player"),
    PageType("club player.json", Depends.CLUB, club_pages.player_ratings_json),
    PageType("player search", Depends.CLUB, player_search.player_search),
)

# What a player reads for a result just typed in (issue #33): ``standgen watch`` puts
# these in place first, the page and ``pairings.json`` of the rounds written with the
# event's ``standings.json``, then the event's other files
# (:meth:`standgen.site.renderer.SiteRenderer.event_parts`).
FIRST_OF_ROUND = ("round", "pairings.json")
FIRST_OF_EVENT = ("standings.json",)


def of(depends: Depends | str) -> tuple[PageType, ...]:
    """Return the registered page types that depend on ``depends`` (a built-in scope, or
    the name of a scope added to the build's), in registry order."""
    return tuple(p for p in PAGES if p.depends == depends)


def templates() -> tuple[str, ...]:
    """Return the template of every registered page type, once each."""
    return tuple(dict.fromkeys(p.template for p in PAGES if p.template is not None))
