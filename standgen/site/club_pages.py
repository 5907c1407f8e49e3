"""The club pages as page types of the registry (:mod:`standgen.site.pages`), issue #20.

Each function takes :class:`ClubInputs` and yields (output path, context) for its
template, or (output path, bytes) for its JSON, as every registered page type does. The
contexts are :mod:`standgen.site.club_contexts`'; the templates ``club_ratings``,
``club_meta`` and ``club_player``.

These pages read every event's games: a rating moves with every game of the archive, and
a season's meta counts all its events. None of the registry's scopes hands a context
function that (``SITE`` and ``SEASON`` give each event's summary; ``PLAYER`` one
player's lines), so they need a scope of their own, rendered again whenever an event's
games change, whose inputs are :class:`ClubInputs`: the site, and each event's part of
the games table (:class:`standgen.clubs.games.EventGames`, made by
:func:`standgen.clubs.games.event_games` from the event's report, small and picklable to
keep in the build state beside its summary). With that scope (``Depends.CLUB`` below),
the registry's lines are::

    PageType("club ratings", Depends.CLUB, club_pages.rating_lists, "club_ratings"),
    PageType("club ratings.json", Depends.CLUB, club_pages.rating_lists_json),
    PageType("club meta", Depends.CLUB, club_pages.metas, "club_meta"),
    PageType("club meta.json", Depends.CLUB, club_pages.metas_json),
    PageType("club player", Depends.CLUB, club_pages.player_ratings, "club_player"),
    PageType("club player.json", Depends.CLUB, club_pages.player_ratings_json),
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from standgen.clubs.games import EventGames
from standgen.clubs.summary import ClubTables
from standgen.site.club_meta import MetaPage, meta_document, meta_pages_of
from standgen.site.club_ratings import (
    PlayerRatingsPage,
    RatingListPage,
    player_ratings_document,
    player_ratings_pages_of,
    rating_list_document,
    rating_list_page_of,
)
from standgen.site.club_scopes import json_beside, scopes
from standgen.site.contexts import Site
from standgen.site.jsonout import dumps

if TYPE_CHECKING:  # pandas loads only for the reference path (a site not ``fast``)
    from standgen.clubs.data import ClubData

ClubPage = RatingListPage | MetaPage | PlayerRatingsPage

Output = tuple[str, object]


@dataclass(frozen=True)
class ClubSelection:
    """The club pages an incremental build makes again (the others are as they were):
    the rating lists of ``lists`` (scopes' folders), the meta pages of ``metas`` (scope,
    format), the rating pages of ``players`` and the ``ratings.json`` of ``player_json``."""

    lists: frozenset[tuple[str, ...]]
    metas: frozenset[tuple[tuple[str, ...], str]]
    players: frozenset[str]
    player_json: frozenset[str]


@dataclass(frozen=True)
class ClubInputs:
    """What the club pages are made from: the site and each event's part of the games
    table (or the summaries a build kept, ``given``); the archive's data (the ratings,
    the meta) is made once, when first asked for, and shared by every club page type of
    the build. ``only``: the pages to make (all of them without it)."""

    site: Site
    parts: Sequence[EventGames]
    given: ClubTables | None = None
    only: ClubSelection | None = None

    @cached_property
    def club(self) -> ClubData:
        """The tidy table's data (pandas): the reference path, when the site is not
        ``fast`` (:func:`standgen.perf.straightforward`)."""
        from standgen.clubs.data import club_data_of

        return club_data_of(self.parts, self.site.fast)

    @cached_property
    def tables(self) -> ClubTables:
        """The events' summaries (plain Python): the path of a ``fast`` site."""
        return self.given if self.given is not None else ClubTables(self.parts,
                                                                     self.site.fast)

    # each page's context is made once, for its page and for its JSON
    @cached_property
    def rating_lists(self) -> list[tuple[str, RatingListPage]]:
        if self.site.fast:
            lists = None if self.only is None else self.only.lists
            return [(page.frame.path, page) for page in
                    (rating_list_page_of(self.site, self.tables, scope)
                     for scope in scopes(self.site.tree)
                     if lists is None or scope.path in lists)]
        from standgen.site import club_contexts as cc

        return list(cc.rating_lists(self.site, self.club))

    @cached_property
    def metas(self) -> list[tuple[str, MetaPage]]:
        if self.site.fast:
            metas = None if self.only is None else self.only.metas
            return [(page.frame.path, page) for scope in scopes(self.site.tree)
                    for page in meta_pages_of(self.site, self.tables, scope, metas)]
        from standgen.site import club_contexts as cc

        return list(cc.metas(self.site, self.club))

    @cached_property
    def player_ratings(self) -> list[tuple[str, PlayerRatingsPage]]:
        if self.site.fast:
            only = None if self.only is None else self.only.players | self.only.player_json
            return [(page.frame.path, page)
                    for page in player_ratings_pages_of(self.site, self.tables, only)]
        from standgen.site import club_contexts as cc

        return list(cc.player_ratings(self.site, self.club))


def rating_lists(inputs: ClubInputs) -> Iterator[Output]:
    """The rating list of the site (``archive/ratings/``) and of every season."""
    yield from inputs.rating_lists


def metas(inputs: ClubInputs) -> Iterator[Output]:
    """The meta page of every format, site-wide and per season."""
    yield from inputs.metas


def player_ratings(inputs: ClubInputs) -> Iterator[Output]:
    """Every rated player's rating history (``players/<id>/ratings/``)."""
    players = None if inputs.only is None else inputs.only.players
    for path, page in inputs.player_ratings:
        if players is None or page.id in players:
            yield path, page


def rating_lists_json(inputs: ClubInputs) -> Iterator[Output]:
    """``ratings.json`` beside each rating list."""
    yield from _json(inputs, inputs.rating_lists)


def metas_json(inputs: ClubInputs) -> Iterator[Output]:
    """``meta.json`` beside each meta page."""
    yield from _json(inputs, inputs.metas)


def player_ratings_json(inputs: ClubInputs) -> Iterator[Output]:
    """``ratings.json`` beside each player's rating history."""
    players = None if inputs.only is None else inputs.only.player_json
    yield from _json(inputs, [(path, page) for path, page in inputs.player_ratings
                              if players is None or page.id in players])


def _json(inputs: ClubInputs, pages: Iterable[tuple[str, ClubPage]]) -> Iterator[Output]:
    for path, page in pages:
        if isinstance(page, RatingListPage):
            yield json_beside(path, "ratings.json"), dumps(rating_list_document(page),
                                                           inputs.site.fast)
        elif isinstance(page, MetaPage):
            yield json_beside(path, "meta.json"), dumps(meta_document(page), inputs.site.fast)
        else:
            yield json_beside(path, "ratings.json"), dumps(player_ratings_document(page),
                                                           inputs.site.fast)
