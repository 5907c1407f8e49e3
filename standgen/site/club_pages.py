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
from standgen.site.contexts import Site
from standgen.site.jsonout import dumps

if TYPE_CHECKING:  # pandas, openskill and the contexts load only when a club page is made
    from standgen.clubs.data import ClubData
    from standgen.site import club_contexts as cc

Output = tuple[str, object]


@dataclass(frozen=True)
class ClubInputs:
    """What the club pages are made from: the site and each event's part of the games
    table; the archive's data (the games table, the ratings) is made once, when first
    asked for, and shared by every club page type of the build."""

    site: Site
    parts: Sequence[EventGames]

    @cached_property
    def club(self) -> ClubData:
        from standgen.clubs.data import club_data_of

        return club_data_of(self.parts, self.site.fast)

    # each page's context is made once, for its page and for its JSON
    @cached_property
    def rating_lists(self) -> list[tuple[str, cc.RatingListPage]]:
        from standgen.site import club_contexts as cc

        return list(cc.rating_lists(self.site, self.club))

    @cached_property
    def metas(self) -> list[tuple[str, cc.MetaPage]]:
        from standgen.site import club_contexts as cc

        return list(cc.metas(self.site, self.club))

    @cached_property
    def player_ratings(self) -> list[tuple[str, cc.PlayerRatingsPage]]:
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
    yield from inputs.player_ratings


def rating_lists_json(inputs: ClubInputs) -> Iterator[Output]:
    """``ratings.json`` beside each rating list."""
    yield from _json(inputs, inputs.rating_lists)


def metas_json(inputs: ClubInputs) -> Iterator[Output]:
    """``meta.json`` beside each meta page."""
    yield from _json(inputs, inputs.metas)


def player_ratings_json(inputs: ClubInputs) -> Iterator[Output]:
    """``ratings.json`` beside each player's rating history."""
    yield from _json(inputs, inputs.player_ratings)


def _json(inputs: ClubInputs, pages: Iterable[tuple[str, cc.ClubPage]]) -> Iterator[Output]:
    from standgen.site import club_contexts as cc

    for path, document in cc.club_json(pages):
        yield path, dumps(document, inputs.site.fast)
