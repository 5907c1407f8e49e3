"""Links between pages: ``links.pages_in`` (the quick way to many pages of one folder) is
``links.relative`` for every page and name, the page's own folders' names too."""

from __future__ import annotations

import random

import pytest

from standgen.site import links

FOLDERS = ("players", "archive", "2026", "2026/spring-open", "2026/spring-open/players")
NAMES = ("bob", "anna-k", "players", "2026", "spring-open", "index.html", "x", "ratings")


def _page(rng: random.Random) -> str:
    parts = [rng.choice(NAMES + ("players", "2026")) for _ in range(rng.randint(0, 4))]
    return links.page(*parts)


@pytest.mark.parametrize("seed", range(30))
def test_pages_in_is_relative(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(50):
        here, folder = _page(rng), rng.choice(FOLDERS)
        link = links.pages_in(here, folder)
        for name in (*NAMES, *here.split("/")):
            assert link(name) == links.relative(here, links.page(folder, name)), (here, name)


def test_a_history_links_to_another_players_history_beside_it() -> None:
    link = links.pages_in("players/bob/index.html", "players")
    assert link("anna-k") == "../anna-k/index.html"
    assert link("bob") == "index.html"
    assert links.pages_in("players/bob/ratings/index.html", "players")("bob") == "../index.html"
