"""Issue #33: the club pages from small per-event summaries (:mod:`standgen.clubs.summary`)
equal the tidy table's computation (pandas, :mod:`standgen.clubs.data`), page context by
page context, on the demo events and on random archives with random edits; and ratings
resumed from what a build kept equal ratings made from the first game."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from benchmarks.synth import archive_event
from standgen.buildstate import BuildState
from standgen.clubs.data import club_data_of
from standgen.clubs.games import EventGames, event_games
from standgen.clubs.plackett_luce import rate_pair, rate_pairs
from standgen.clubs.summary import (
    ClubTables,
    EventRatings,
    club_event,
    fide_change_of,
    rating_order,
    scope_ratings,
)
from standgen.load import load_tree
from standgen.model import EventsTree, Season
from standgen.pipeline import report
from standgen.site import club_contexts as cc
from standgen.site.club_meta import meta_pages_of
from standgen.site.club_ratings import player_ratings_pages_of, rating_list_page_of
from standgen.site.club_scopes import scopes
from standgen.site.contexts import Site

REPO = Path(__file__).resolve().parents[1]
FORMATS = ("steamroller", "old-world", "swiss", "mcmahon", "diplomacy")


def reference(site: Site, parts: Sequence[EventGames]) -> dict[str, object]:
    """Return every club page's context as the tidy table (pandas) makes it."""
    data = club_data_of(list(parts))
    return {**dict(cc.rating_lists(site, data)), **dict(cc.metas(site, data)),
            **dict(cc.player_ratings(site, data))}


def summarised(site: Site, tables: ClubTables) -> dict[str, object]:
    """Return every club page's context from the events' summaries."""
    found: dict[str, object] = {}
    for scope in scopes(site.tree):
        page = rating_list_page_of(site, tables, scope)
        found[page.frame.path] = page
        for meta in meta_pages_of(site, tables, scope):
            found[meta.frame.path] = meta
    for player in player_ratings_pages_of(site, tables):
        found[player.frame.path] = player
    return found


def assert_same(expected: dict[str, object], got: dict[str, object]) -> None:
    assert expected.keys() == got.keys()
    for path, page in expected.items():
        assert got[path] == page, path


def test_the_demo_pages_are_the_tidy_tables_pages() -> None:
    tree = load_tree(REPO / "events")
    parts = [event_games(report(e), tree.seasons) for e in tree.events]
    site = Site(tree=tree, docs={})
    assert_same(reference(site, parts), summarised(site, ClubTables(parts)))


def archive(seed: int, events: int) -> tuple[EventsTree, list[EventGames]]:
    """Return a small random archive of every format over two seasons, as each event's
    part of the games table (what a build keeps)."""
    rng = random.Random(seed)
    seasons = (Season(("2024",), "Season 2024"), Season(("2025",), "Season 2025"))
    parts = []
    for k in range(events):
        fmt = FORMATS[rng.randrange(len(FORMATS))]
        n = 14 if fmt == "diplomacy" else rng.randint(6, 14)
        event = archive_event(2024 + k % 2, f"{fmt}-{k:02d}", fmt, n, seed * 100 + k)
        parts.append(event_games(report(event), seasons))
    tree = EventsTree(root="events", events=(), seasons=seasons)
    return tree, parts


def edited(part: EventGames, rng: random.Random) -> EventGames:
    """Return ``part`` with one random edit a TO makes: a result corrected, a faction or
    a name changed, the date moved, the event left out of the ratings."""
    rows = [list(row) for row in part.rows]
    kind = rng.randrange(5)
    played = [i for i, row in enumerate(rows) if row[2] == "played" and row[13] == 2]
    if kind == 0 and played:  # a corrected result: the two seats swap outcome and points
        first = rng.choice(played)
        mate = next(i for i in played if i != first and rows[i][0:2] == rows[first][0:2])
        for column in (14, 15, 16):
            rows[first][column], rows[mate][column] = rows[mate][column], rows[first][column]
    elif kind == 1 and rows:
        rows[rng.randrange(len(rows))][5] = rng.choice(("Khador", "Cryx", "", "Élan"))
    elif kind == 2 and rows:
        rows[rng.randrange(len(rows))][4] = "Renamed Player"
    elif kind == 3:
        return replace(part, head=(*part.head[:2], f"{part.head[2][:4]}-0{rng.randint(1, 9)}-15",
                                   *part.head[3:]))
    else:
        return replace(part, rated=not part.rated)
    return replace(part, rows=tuple(tuple(row) for row in rows))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_archives_with_random_edits_make_the_tidy_tables_pages(seed: int) -> None:
    tree, parts = archive(seed, 7)
    site = Site(tree=tree, docs={})
    rng = random.Random(seed)
    for _ in range(2):
        assert_same(reference(site, parts), summarised(site, ClubTables(parts)))
        k = rng.randrange(len(parts))
        parts[k] = edited(parts[k], rng)


@pytest.mark.parametrize("seed", range(6))
def test_ratings_resumed_from_the_kept_ones_equal_ratings_from_the_first_game(
        seed: int) -> None:
    tree, parts = archive(seed + 10, 8)
    rng = random.Random(seed)
    before = scope_ratings([club_event(p) for p in parts], games(parts))
    kept: dict[tuple[str, ...], EventRatings] = {r.path: r for r in before.events}
    k = rng.randrange(len(parts))
    parts[k] = edited(parts[k], rng)
    events = [club_event(p) for p in parts]
    resumed = scope_ratings(events, games(parts), kept=kept, changed=[parts[k].path])
    fresh = scope_ratings(events, games(parts))
    assert resumed.events == fresh.events
    assert resumed.listing == fresh.listing


@pytest.mark.parametrize("seed", range(4))
def test_lists_resumed_from_the_kept_folds_equal_lists_from_the_first_event(
        tmp_path: Path, seed: int) -> None:
    """The rating lists' and FIDE sums' folds a build keeps (over every event but the
    newest, in a build state) give, after random edits (mostly in the newest event, as
    a TO types results in; an event removed), every club page's context as the folds
    from the first event do, to the last bit."""
    tree, parts = archive(seed + 20, 9)
    site = Site(tree=tree, docs={})
    state = BuildState.open(tmp_path / "state.sqlite")
    tables = ClubTables(parts)
    summarised(site, tables)
    state.save({}, [], [], True, games={p.path: p for p in parts}, kept=tables.kept_state())
    rng = random.Random(seed)
    resumed = 0
    for step in range(5):
        newest = max(range(len(parts)), key=lambda k: rating_order(parts[k]))
        k = newest if rng.random() < 0.7 else rng.randrange(len(parts))
        removed = []
        if step == 3:
            removed = [parts.pop(k).path]
        else:
            parts[k] = edited(parts[k], rng)
        changed = [parts[k].path] if not removed else removed
        known = {p: e for p, e in state.club_events().items() if p not in removed}
        tables = ClubTables([] if removed else [parts[k]], events=known,
                            games=stored_part(state),
                            kept=state.club_ratings, seats=state.seats_of, changed=changed,
                            folds=state.club_folds)
        assert_same(summarised(site, ClubTables(parts)), summarised(site, tables))
        resumed += tables.ratings(()).base is not None
        state.save({}, [], removed, False, games={} if removed else {parts[k].path: parts[k]},
                   kept=tables.kept_state(removed))
    state.close()
    assert resumed


def stored_part(state: BuildState) -> Callable[[tuple[str, ...]], EventGames]:
    def part(path: tuple[str, ...]) -> EventGames:
        found = state.games([path])[path]
        assert isinstance(found, EventGames)
        return found

    return part


def games(parts: Sequence[EventGames]) -> Callable[[tuple[str, ...]], EventGames]:
    return {part.path: part for part in parts}.__getitem__


def test_one_pair_rated_in_python_floats_equals_the_column_path() -> None:
    import numpy as np

    rng = random.Random(5)
    for _ in range(2000):
        a = (rng.uniform(-10, 60), rng.uniform(0.01, 9))
        b = (rng.uniform(-10, 60), rng.uniform(0.01, 9))
        draw = rng.random() < 0.3
        columns = rate_pairs(np.array([a[0]]), np.array([a[1]]), np.array([b[0]]),
                             np.array([b[1]]), np.array([draw]))
        (mu_a, sigma_a), (mu_b, sigma_b) = rate_pair(a, b, draw)
        assert (mu_a, sigma_a, mu_b, sigma_b) == tuple(float(c[0]) for c in columns)


def test_a_fide_change_row_by_row_equals_the_column() -> None:
    import pandas as pd

    from standgen.clubs.games import COLUMNS
    from standgen.clubs.ratings import fide_changes

    rng = random.Random(3)
    rows = []
    for _ in range(3000):
        rating = float(rng.randint(1000, 2800))
        other = rng.randint(900, 2900)
        rows.append((1, 1, "played", "a", "A", "", "", rating, "white", "b", "", "",
                     f"{other:g}", 2, rng.choice(("win", "draw", "loss")), "", 1.0, 0.0, 0.0))
    frame = pd.DataFrame([("e", "E", "2026-01-01", "", "swiss", *row) for row in rows],
                         columns=list(COLUMNS))
    column = fide_changes(frame).tolist()
    assert [fide_change_of(row, "swiss") for row in rows] == column


@pytest.mark.parametrize("table_games, chart_games", [(3, 4), (200, 200)])
def test_a_page_made_without_its_json_renders_as_the_whole_one(
        monkeypatch: pytest.MonkeyPatch, table_games: int, chart_games: int) -> None:
    """A player whose place moved but none of whose games changed gets their rating page
    made from the table's games alone (``json_for``); the chart, the count, the rating
    and FIDE's column come from every rated seat: the page is the same, to the byte,
    with a chart of a point per game or per event (the limits lowered to reach both)."""
    from standgen.site import club_ratings
    from standgen.site.render import Templates

    monkeypatch.setattr(club_ratings, "TABLE_GAMES", table_games)
    monkeypatch.setattr(club_ratings, "CHART_GAMES", chart_games)
    tree, parts = archive(5, 10)
    site = Site(tree=tree, docs={})
    tables = ClubTables(parts)
    templates = Templates(REPO / "site_templates")
    whole = list(player_ratings_pages_of(site, tables))
    alone = list(player_ratings_pages_of(site, tables, json_for=()))
    assert [p.frame.path for p in whole] == [p.frame.path for p in alone]
    assert any(p.count > chart_games for p in whole) == (chart_games < 10)
    for full, part in zip(whole, alone, strict=True):
        assert part.games == full.games[:table_games] == part.table
        assert part.count == len(full.games)
        assert templates.render("club_player", part) == templates.render("club_player", full)
