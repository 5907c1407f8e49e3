"""The club's pages (issue #20): rating lists, the meta of each format, each player's
rating history, and the JSON published beside each: every page of a build, from the
page modules :mod:`standgen.site.club_ratings` and :mod:`standgen.site.club_meta`
(what they share is :mod:`standgen.site.club_scopes`).

Every page is a pure function of :class:`ClubData` (the archive's tidy games table,
:mod:`standgen.clubs`) to a frozen context; numbers are formatted there, templates only
lay them out. The pages of a scope (the whole site, or one season) live below the
reserved ``archive/`` folder, so no event or season folder can take their names:

- ``archive/ratings/index.html``, ``archive/<season>/ratings/index.html``: the OpenSkill
  rating list (``ratings.json`` beside it);
- ``archive/meta-<format>/index.html``, ``archive/<season>/meta-<format>/index.html``:
  the format's meta (``meta.json`` beside it);
- ``players/<id>/ratings/index.html``: a player's rating change in every rated game and
  their rating history chart (``ratings.json`` beside it).

A season's list rates the season's own events from the start (every player at the
package's default rating); the site's list and the players' pages rate every event.
Sources: OpenSkill (openskill.py documentation: ``PlackettLuce``, ``ordinal``), FIDE
Rating Regulations B.02 (art. 8.1.2, 8.3), Wilson (1927) for the intervals.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from standgen.clubs.data import ClubData, club_data
from standgen.site.club_meta import MetaPage, meta_document, meta_page, meta_pages
from standgen.site.club_ratings import (
    PlayerRatingsPage,
    RatingListPage,
    player_ratings_document,
    player_ratings_page,
    player_ratings_pages,
    rating_list_document,
    rating_list_page,
)
from standgen.site.club_scopes import SMALL_SAMPLE, Scope, json_beside, scopes
from standgen.site.contexts import Site

__all__ = [  # the page modules' names a build and the tests use, and what follows
    "SMALL_SAMPLE", "TEMPLATES", "ClubData", "ClubPage", "MetaPage", "PlayerRatingsPage",
    "RatingListPage", "Scope", "club_data", "club_json", "meta_document", "meta_page",
    "metas", "player_ratings", "player_ratings_document", "player_ratings_page",
    "rating_list_document", "rating_list_page", "rating_lists",
]

# ----- every club page of a build: (output path, context) and (output path, JSON) ----------

TEMPLATES = {"ratings": "club_ratings", "meta": "club_meta", "player": "club_player"}


def rating_lists(site: Site, club: ClubData) -> Iterator[tuple[str, RatingListPage]]:
    """Yield the rating list of the site and of every season."""
    for scope in scopes(site.tree):
        page = rating_list_page(site, club, scope)
        yield page.frame.path, page


def metas(site: Site, club: ClubData) -> Iterator[tuple[str, MetaPage]]:
    """Yield the meta page of every format of the site and of every season."""
    for scope in scopes(site.tree):
        for page in meta_pages(site, club, scope):
            yield page.frame.path, page


def player_ratings(site: Site, club: ClubData) -> Iterator[tuple[str, PlayerRatingsPage]]:
    """Yield every rated player's rating history."""
    for page in player_ratings_pages(site, club):
        yield page.frame.path, page


ClubPage = RatingListPage | MetaPage | PlayerRatingsPage


def club_json(pages: Iterable[tuple[str, ClubPage]]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield the JSON document published beside each page, by its output path."""
    for path, page in pages:
        if isinstance(page, RatingListPage):
            yield json_beside(path, "ratings.json"), rating_list_document(page)
        elif isinstance(page, MetaPage):
            yield json_beside(path, "meta.json"), meta_document(page)
        else:
            yield json_beside(path, "ratings.json"), player_ratings_document(page)
