"""Issue #20 on the site: the rating lists, the meta pages and the players' rating
histories of the demo events, their contexts, their HTML and the JSON beside each."""

from __future__ import annotations

import json
import pickle
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from standgen.clubs.data import club_data_of
from standgen.clubs.games import event_games
from standgen.clubs.meta import wilson
from standgen.clubs.ratings import openskill_ratings
from standgen.load import load_tree
from standgen.model import EventsTree
from standgen.pipeline import EventReport, report
from standgen.site import club_contexts as cc
from standgen.site import pages
from standgen.site.club_pages import ClubInputs, _moved_in_listing
from standgen.site.contexts import Site
from standgen.site.jsonout import dumps
from standgen.site.renderer import SiteRenderer
from standgen.site.scopes import Depends

REPO = Path(__file__).resolve().parents[1]
TEMPLATES = REPO / "site_templates"


def club_files(tree: EventsTree, reports: tuple[EventReport, ...]) -> dict[str, bytes]:
    """Return every club page and its JSON as the builds render them: the registry's
    ``club`` page types, through ``SiteRenderer``."""
    renderer = SiteRenderer(tree, REPO / "docs", TEMPLATES)
    files: dict[str, bytes] = {}
    for path, made in renderer.club_files([event_games(m, tree.seasons) for m in reports]):
        assert path not in files, path
        files[path] = made
    return files


@pytest.fixture(scope="module")
def demo() -> tuple[EventsTree, tuple[EventReport, ...]]:
    tree = load_tree(REPO / "events")
    return tree, tuple(report(e) for e in tree.events)


@pytest.fixture(scope="module")
def club(demo: tuple[EventsTree, tuple[EventReport, ...]]) -> tuple[Site, cc.ClubData]:
    tree, reports = demo
    return Site(tree=tree, docs={}), cc.club_data(reports, tree)


@pytest.fixture(scope="module")
def files(demo: tuple[EventsTree, tuple[EventReport, ...]]) -> dict[str, bytes]:
    return club_files(*demo)


SEASON = cc.Scope(("2026",), "Example Club 2026 season")


def test_every_page_has_its_json_beside_it_and_the_paths_are_reserved(
        files: dict[str, bytes]) -> None:
    pages = [p for p in files if p.endswith("/index.html")]
    assert {"archive/ratings/index.html", "archive/2026/ratings/index.html",
            "archive/meta-steamroller/index.html", "archive/2026/meta-diplomacy/index.html",
            "players/dev-p/ratings/index.html"} <= set(pages)
    for page in pages:
        name = "meta.json" if "/meta-" in page else "ratings.json"
        assert page.replace("index.html", name) in files
        assert page.startswith(("archive/", "players/"))  # folders no event may take
    for path, content in files.items():
        if path.endswith(".json"):
            json.loads(content)


def test_the_rating_list_is_openskills_list_of_the_scope(
        club: tuple[Site, cc.ClubData]) -> None:
    site, data = club
    page = cc.rating_list_page(site, data, SEASON)
    listing, _ = openskill_ratings(data.games[data.games["event"].str.startswith("2026/")],
                                   data.opted_out)
    assert [r.id for r in page.rows] == list(listing["player"])
    assert [r.rating for r in page.rows] == list(listing["rating"])
    assert [r.rank for r in page.rows] == list(range(1, len(page.rows) + 1))
    ratings = [r.rating for r in page.rows]
    assert ratings == sorted(ratings, reverse=True)
    chess = {r.id: r for r in page.rows if r.fide_rating is not None}
    assert page.fide and chess["helen-w"].fide_rating == 2215  # players.csv's rating
    games = data.games
    helen = games[(games["player"] == "helen-w") & games["fide_change"].notna()]
    assert chess["helen-w"].fide_change == round(float(helen["fide_change"].sum()), 1)
    assert {link.label for link in page.meta} >= {"Diplomacy", "Swiss (chess)"}


def test_last_change_is_the_change_over_the_players_last_event(
        club: tuple[Site, cc.ClubData]) -> None:
    site, data = club
    page = cc.rating_list_page(site, data, cc.Scope((), "All events"))
    dev = next(r for r in page.rows if r.id == "dev-p")
    _, changes = data.ratings
    mine = changes[(changes["player"] == "dev-p") & (changes["event"] == dev.last_event)]
    assert dev.last_event == "2026/old-world-open"  # after Diplomacy on the same date
    assert dev.last_change == round(mine["after"].iloc[-1] - mine["before"].iloc[0], 2)


def test_a_season_rates_only_its_own_events(tmp_path: Path) -> None:
    events = Path(shutil.copytree(REPO / "events", tmp_path / "events"))
    shutil.copytree(events / "2026", events / "2025")
    (events / "2025" / "season.toml").write_text('name = "2025 season"\n')
    for toml in (events / "2025").glob("*/event.toml"):
        toml.write_text(toml.read_text().replace("2026-", "2025-"))
    tree = load_tree(events)
    data = cc.club_data([report(e) for e in tree.events], tree)
    site = Site(tree=tree, docs={})
    one = cc.rating_list_page(site, data, cc.Scope(("2025",), "2025 season"))
    other = cc.rating_list_page(site, data, cc.Scope(("2026",), "2026 season"))
    both = cc.rating_list_page(site, data, cc.Scope((), "All events"))
    assert [r.rating for r in one.rows] == [r.rating for r in other.rows]  # same games
    assert max(r.games for r in both.rows) == 2 * max(r.games for r in one.rows)


def test_meta_page_shares_intervals_and_the_matchup_matrix(
        club: tuple[Site, cc.ClubData]) -> None:
    site, data = club
    page = cc.meta_page(site, data.within(SEASON.path), SEASON, "steamroller")
    # the spring open's 15 games and the team championship's 27 (6 teams of 3, 3 rounds)
    assert page.what == "Faction" and page.games == 15 + 27
    for faction in page.factions:
        wins = faction.wins + 0.5 * faction.draws
        assert (faction.share.low, faction.share.high) == wilson(wins, faction.share.games)
        assert faction.share.small == (faction.share.games < cc.SMALL_SAMPLE)  # greyed
    assert len(page.matrix) == len(page.columns)
    assert all(len(row.cells) == len(page.columns) for row in page.matrix)
    index = {name: i for i, name in enumerate(page.columns)}
    met = 0
    for row in page.matrix:
        for against, cell in zip(page.columns, row.cells, strict=True):
            if cell.share is None:
                continue
            met += cell.share.games
            mirror = page.matrix[index[against]].cells[index[row.faction]].share
            assert mirror is not None and mirror.games == cell.share.games
            assert cell.share.score + mirror.score == pytest.approx(1.0)
    assert met == 2 * page.games  # every game once from each side


def test_go_chess_and_diplomacy_have_their_own_breakdowns(
        club: tuple[Site, cc.ClubData]) -> None:
    site, data = club
    season = data.within(SEASON.path)
    go = cc.meta_page(site, season, SEASON, "mcmahon")
    assert [b.id for b in go.breakdowns] == ["rank-difference", "handicap"]
    assert sum(r.share.games for r in go.breakdowns[0].rows) == go.games
    chess = cc.meta_page(site, season, SEASON, "swiss")
    colour, rating = chess.breakdowns
    assert colour.id == "colour" and [r.label for r in colour.rows] == ["White", "Black"]
    white, black = colour.rows
    assert white.wins == black.losses and white.share.games == chess.games
    assert rating.expected and all(r.expected.endswith("%") for r in rating.rows)
    diplomacy = cc.meta_page(site, season, SEASON, "diplomacy")
    assert diplomacy.what == "Power" and diplomacy.diplomacy
    assert sum(row.solos for row in diplomacy.factions) >= 1
    # power x power: how often the row power finished above the column's on one board
    assert len(diplomacy.columns) == 7
    for row in diplomacy.matrix:
        for against, cell in zip(diplomacy.columns, row.cells, strict=True):
            if against == row.faction:
                assert cell.share is None  # a power never shares a board with itself
            else:
                assert cell.share is not None and cell.share.games == diplomacy.games


def test_a_players_rating_history_adds_up(club: tuple[Site, cc.ClubData]) -> None:
    site, data = club
    page = cc.player_ratings_page(site, data, "dev-p")
    assert page.rank == f"1 of {len(data.ratings[0])}" or page.rank.endswith(
        f" of {len(data.ratings[0])}")
    oldest = page.games[-1]
    assert oldest.before == 0.0  # a new player's ordinal: 25 - 3 x 25/3
    for newer, older in zip(page.games, page.games[1:], strict=False):
        assert newer.before == older.after
        assert abs(newer.change - (newer.after - newer.before)) < 0.0101  # each rounded
    assert page.rating == f"{page.games[0].after:.2f}"
    assert page.chart.count("<circle") == len(page.games) + 1  # the start and each game
    chess = cc.player_ratings_page(site, data, "helen-w")
    assert chess.fide and all(g.fide_change is not None for g in chess.games)


def test_pages_are_html_with_every_table_in_a_scrolling_region(
        files: dict[str, bytes]) -> None:
    for path, content in files.items():
        if not path.endswith(".html"):
            continue
        text = content.decode()
        tables = text.count("<table")
        assert tables == len(re.findall(r'<div class="scroll[^"]*" tabindex="0" role="region"'
                                        r' aria-labelledby="[^"]+">\s*<table', text)), path
    matrix = files["archive/2026/meta-steamroller/index.html"].decode()
    assert '<table class="matchups">' in matrix and "n=" in matrix and "–" in matrix
    assert re.search(r'<td class="num shade-\w+ pending" title="[^"]+">\d+%<br><small>n=\d+</small>'
                     r"<br><small>\d+–\d+%</small></td>", matrix)  # small samples greyed
    player = files["players/dev-p/ratings/index.html"].decode()
    assert '<svg class="chart chart-line chart-rating"' in player
    assert 'href="../index.html"' in player  # the history page


def test_untrusted_names_are_escaped(tmp_path: Path) -> None:
    events = Path(shutil.copytree(REPO / "events", tmp_path / "events"))
    players = events / "2026/spring-steamroller/players.csv"
    players.write_text(players.read_text().replace("Anna Kowalski", "<script>x</script>")
                       .replace("Cygnar", "<b>Cyg</b>"))
    tree = load_tree(events)
    files = club_files(tree, tuple(report(e) for e in tree.events))
    for path, content in files.items():
        text = content.decode()
        if path.endswith(".html"):  # JSON holds the text as it is, as standings.json does
            assert "<script>x" not in text and "<b>Cyg" not in text, path
    assert "&lt;script&gt;x&lt;/script&gt;" in files["archive/ratings/index.html"].decode()
    chart = files["players/anna-k/ratings/index.html"].decode()
    assert "Rating of &lt;script&gt;" in chart


def test_same_events_same_bytes_whatever_order_the_events_come_in(
        demo: tuple[EventsTree, tuple[EventReport, ...]], files: dict[str, bytes]) -> None:
    tree, reports = demo
    assert club_files(tree, tuple(reversed(reports))) == files


def test_json_holds_the_numbers_of_the_page(club: tuple[Site, cc.ClubData]) -> None:
    site, data = club
    page = cc.meta_page(site, data.within(SEASON.path), SEASON, "steamroller")
    document = json.loads(dumps(cc.meta_document(page)))
    first = document["factions"][0]
    assert first["faction"] == page.factions[0].faction
    assert first["games"] == page.factions[0].share.games
    assert len(document["matchups"]) == sum(c.share is not None for r in page.matrix
                                            for c in r.cells)
    ratings = json.loads(dumps(cc.rating_list_document(
        cc.rating_list_page(site, data, SEASON))))
    assert ratings["ratings"][0]["rank"] == 1 and "OpenSkill" in ratings["model"]


def _frames(data: cc.ClubData) -> Iterator[pd.DataFrame]:
    yield from data.ratings


def test_club_data_leaves_out_rated_false_events(tmp_path: Path) -> None:
    events = Path(shutil.copytree(REPO / "events", tmp_path / "events"))
    toml = events / "2026/club-swiss/event.toml"
    toml.write_text(toml.read_text().replace("[options]\n", "[options]\nrated = false\n"))
    tree = load_tree(events)
    data = cc.club_data([report(e) for e in tree.events], tree)
    assert data.opted_out == ("2026/club-swiss",)
    site = Site(tree=tree, docs={})
    page: Any = cc.rating_list_page(site, data, SEASON)
    assert "helen-w" not in {r.id for r in page.rows} and not page.fide
    assert all("2026/club-swiss" not in set(f.get("event", pd.Series(dtype=str)))
               for f in _frames(data))


def test_each_events_part_of_the_games_kept_between_builds_makes_the_same_data(
        demo: tuple[EventsTree, tuple[EventReport, ...]],
        club: tuple[Site, cc.ClubData]) -> None:
    """What a build may keep per event (pickled, as the build state keeps summaries)
    gives the same games and ratings as the reports themselves."""
    tree, reports = demo
    parts = pickle.loads(pickle.dumps([event_games(m, tree.seasons) for m in reports]))
    again = club_data_of(list(reversed(parts)))
    _, data = club
    pd.testing.assert_frame_equal(again.games, data.games, check_exact=True)
    for got, want in zip(again.ratings, data.ratings, strict=True):
        pd.testing.assert_frame_equal(got, want, check_exact=True)


def test_the_page_types_render_through_the_registrys_renderer(
        demo: tuple[EventsTree, tuple[EventReport, ...]], files: dict[str, bytes]) -> None:
    """Each registered club page type, rendered on its own by ``SiteRenderer``, gives
    the same files as the club scope renders together."""
    tree, reports = demo
    renderer = SiteRenderer(tree, REPO / "docs", TEMPLATES)
    inputs = ClubInputs(renderer.site, [event_games(m, tree.seasons) for m in reports])
    made: dict[str, bytes] = {}
    for page_type in pages.of(Depends.CLUB):
        made.update(renderer._render(page_type, inputs))
    assert made.keys() == files.keys()
    assert made["archive/2026/ratings/ratings.json"] == files["archive/2026/ratings/ratings.json"]


def test_every_player_of_every_event_has_a_rating_page(tmp_path: Path) -> None:
    """So each history page can link to its player's: one who never played a rated game
    (only forfeits here) has a page saying so."""
    events = Path(shutil.copytree(REPO / "events", tmp_path / "events"))
    toml = events / "2026/club-swiss/event.toml"
    toml.write_text(toml.read_text().replace("[options]\n", "[options]\nrated = false\n"))
    tree = load_tree(events)
    reports = tuple(report(e) for e in tree.events)
    files = club_files(tree, reports)
    for made in reports:
        for player in made.event.players:
            assert f"players/{player.id}/ratings/index.html" in files, player.id
    page = files["players/helen-w/ratings/index.html"].decode()  # chess only: not rated
    assert "No rated games." in page and "<svg" not in page
    assert json.loads(files["players/helen-w/ratings/ratings.json"])["games"] == []


def test_an_incremental_build_makes_the_club_pages_only_when_the_games_change(
        tmp_path: Path) -> None:
    """The club pages read every event's part of the games table: a corrected CP leaves
    them as they are (not rendered again), a corrected result makes them again, and
    either way they equal a full build of the same events (issue #20)."""
    import shutil

    from standgen import build as lib

    events = tmp_path / "events"
    shutil.copytree(Path(__file__).resolve().parent.parent / "events", events)
    out = tmp_path / "out"
    lib.build(events, out)
    ratings = out / "archive" / "ratings" / "index.html"
    first = ratings.stat().st_mtime_ns
    round_file = events / "2026" / "spring-steamroller" / "round-1.csv"
    lines = round_file.read_text().splitlines()
    cells = lines[1].split(",")
    cells[4], cells[5] = cells[5], cells[4]  # swap table 1's control points
    lines[1] = ",".join(cells)
    round_file.write_text("\n".join(lines) + "\n")
    assert lib.build(events, out).incremental
    assert ratings.stat().st_mtime_ns == first  # not written again
    unchanged = ratings.read_bytes()

    def club_pages(folder: Path) -> dict[str, bytes]:
        return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*")
                if p.is_file() and ("ratings" in p.parts or any(
                    part.startswith("meta-") for part in p.parts))}

    cells[3] = "0-1" if cells[3] == "1-0" else "1-0"  # correct table 1's result
    lines[1] = ",".join(cells)
    round_file.write_text("\n".join(lines) + "\n")
    assert lib.build(events, out).incremental
    full = tmp_path / "full"
    lib.build(events, full, full=True)
    assert club_pages(out) == club_pages(full)
    assert ratings.read_bytes() != unchanged  # the corrected result moved the ratings


@given(st.permutations([f"p{k}" for k in range(8)]), st.integers(min_value=0, max_value=8))
def test_a_rating_page_is_made_again_when_its_place_in_the_list_moves(
        ranked: list[str], cut: int) -> None:
    """club_selection's last rule: a player's rating page (not its JSON) is made again
    when their place in the site rating list, or its length, changed since the build
    before; every page when that list is not known."""
    listing = [f"p{k}" for k in range(8)]
    moved = _moved_in_listing(listing, ranked)
    assert moved == {pid for k, pid in enumerate(ranked) if listing[k] != pid}
    assert _moved_in_listing(listing, listing) == set()
    shorter = ranked[:cut]
    assert _moved_in_listing(listing, shorter) == (
        set(shorter) if cut < 8 else moved)
    assert _moved_in_listing(None, ranked) == set(ranked)
