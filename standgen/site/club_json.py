"""The club's ``ratings.json`` rows written in Python, a line each: the bytes
:func:`standgen.site.jsonout.dumps_rows` writes for the documents of
:func:`~standgen.site.club_ratings.rating_list_document` and
:func:`~standgen.site.club_ratings.player_ratings_document` (data contract section 3),
without making a dict per row for the encoder.

A result typed in writes a rating list's ``ratings.json`` again (2,000 rows at 1,000 club
events, each list of its scopes); a new round writes the ``ratings.json`` of each of its
players (every rated game, hundreds each). Each row is one f-string of the same parts the
encoder writes: strings as ``json.encoder.encode_basestring`` (``ensure_ascii=False``)
writes them, numbers as ``repr`` of :func:`~standgen.site.numbers.json_number`, ``null``
for None. ``tests/test_club_json.py`` compares both ways on random rows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from standgen.site.club_ratings import (
    PlayerRatingsPage,
    RatedGame,
    RatingListPage,
    RatingRow,
    player_ratings_document,
    rating_list_document,
)
from standgen.site.jsonout import dumps_rows
from standgen.site.numbers import json_number

_string = json.encoder.encode_basestring  # as the encoder writes a str (ensure_ascii=False)


def _number(value: float | None) -> str:
    return "null" if value is None else repr(json_number(value))


def rating_rows(rows: Sequence[RatingRow]) -> list[str]:
    """Return each row of a rating list as :func:`rating_list_document` makes it, a line."""
    return [
        f'{{"rank": {r.rank!r}, "id": {_string(r.id)}, "name": {_string(r.player.label)}, '
        f'"rating": {json_number(r.rating)!r}, "mu": {json_number(r.mu)!r}, '
        f'"sigma": {json_number(r.sigma)!r}, "games": {r.games!r}, '
        f'"last_game": {_string(r.last)}, "last_event": {_string(r.last_event)}, '
        f'"last_change": {json_number(r.last_change)!r}, '
        f'"fide_rating": {_number(r.fide_rating)}, "fide_change": {_number(r.fide_change)}}}'
        for r in rows]


def game_rows(games: Sequence[RatedGame]) -> list[str]:
    """Return each rated game as :func:`player_ratings_document` makes it, a line."""
    return [
        f'{{"date": {_string(g.date)}, "event": {_string(g.event.label)}, '
        f'"round": {g.round!r}, "opponents": {_string(g.opponents)}, '
        f'"result": {_string(g.result)}, "before": {json_number(g.before)!r}, '
        f'"after": {json_number(g.after)!r}, "change": {json_number(g.change)!r}, '
        f'"fide_change": {_number(g.fide_change)}}}'
        for g in games]


def rating_list_json(page: RatingListPage) -> bytes:
    """Return ``ratings.json`` of a rating list, as ``dumps_rows`` of its document."""
    lines = page.json_rows if page.json_rows is not None else rating_rows(page.rows)
    return dumps_rows(rating_list_document(page, rows=False), {"ratings": lines})


def player_ratings_json(page: PlayerRatingsPage) -> bytes:
    """Return ``ratings.json`` of a player, as ``dumps_rows`` of its document."""
    lines = page.json_rows if page.json_rows is not None else game_rows(page.games)
    return dumps_rows(player_ratings_document(page, games=False), {"games": lines})
