"""The club's ``ratings.json`` rows written in Python (``standgen.site.club_json``) are the
bytes ``dumps_rows`` writes of the documents: with real and hostile names (quotes,
backslashes, control characters, emoji), whole and fractional numbers of any sign,
``-0.0``, FIDE values or none, and no rows at all."""

from __future__ import annotations

import json
import random

import pytest
from markupsafe import Markup

from standgen.site import club_json
from standgen.site.club_ratings import (
    PlayerRatingsPage,
    RatedGame,
    RatingListPage,
    RatingRow,
    player_ratings_document,
    rating_list_document,
)
from standgen.site.contexts import Link, frame
from standgen.site.jsonout import dumps_rows
from tests.realnames import field

ODD = ('Zoë "Z" O\'Neill', "back\\slash", "tab\there", "line\nbreak", "emoji 🎲", "\x01",
       "</script>", "")


def _number(rng: random.Random) -> float:
    return rng.choice((0.0, -0.0, 12.0, -3.0, round(rng.uniform(-50, 50), 2),
                       rng.uniform(-50, 50), 1e-7, -1e-5, 123456.78915))


def _name(rng: random.Random, people: list[str]) -> str:
    return rng.choice(ODD) if rng.random() < 0.2 else rng.choice(people)


def _list_page(rng: random.Random, size: int) -> RatingListPage:
    people = [p.name for p in field(rng, 12)]
    rows = tuple(RatingRow(
        rank, f"p{rank}", Link(_name(rng, people), "x.html"), _number(rng), _number(rng),
        _number(rng), rng.randint(0, 900), rng.choice(("2026-04-11", "")),
        _name(rng, ["2026/open", "2019/spring"]), _number(rng),
        None if rng.random() < 0.5 else _number(rng),
        None if rng.random() < 0.5 else _number(rng), "")
        for rank in range(1, size + 1))
    return RatingListPage(frame("archive/ratings/index.html", "R", "ratings"),
                          _name(rng, people), rows, False, (), "ratings.json")


def _player_page(rng: random.Random, size: int) -> PlayerRatingsPage:
    people = [p.name for p in field(rng, 12)]
    games = tuple(RatedGame(
        rng.choice(("2026-04-11", "2019-12-31")), Link(_name(rng, people), "e.html"),
        rng.randint(1, 12), ", ".join(_name(rng, people) for _ in range(rng.randint(0, 6))),
        rng.random() < 0.2, _name(rng, ["win", "loss", "draw"]), _number(rng), _number(rng),
        _number(rng), None if rng.random() < 0.5 else _number(rng))
        for _ in range(size))
    return PlayerRatingsPage(
        frame("players/p1/ratings/index.html", "P", "ratings"), _name(rng, people),
        _name(rng, people), "1", "", games, games[:200], size, False, Markup(""), "h.html",
        "l.html", "ratings.json")


@pytest.mark.parametrize("seed", range(20))
def test_written_rows_are_the_encoders(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.choice((0, 1, rng.randint(2, 300)))
    page = _list_page(rng, size)
    written = club_json.rating_list_json(page)
    assert written == dumps_rows(rating_list_document(page))
    assert len(json.loads(written)["ratings"]) == size
    player = _player_page(rng, size)
    written = club_json.player_ratings_json(player)
    assert written == dumps_rows(player_ratings_document(player))
    assert len(json.loads(written)["games"]) == size
