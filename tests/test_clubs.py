"""Issue #20: the archive as a tidy table, ratings, the meta, and the export."""

from __future__ import annotations

import math
import random
import shutil
from pathlib import Path

import numpy as np
import openpyxl
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from standgen.cli import main
from standgen.clubs.export import club_tables
from standgen.clubs.games import games_frame
from standgen.clubs.meta import faction_table, matchup_matrix, wilson
from standgen.clubs.plackett_luce import ordinal, rate_pairs
from standgen.clubs.ratings import (
    _rounded,
    fide_change,
    fide_changes,
    fide_expected,
    openskill_ratings,
)
from standgen.load import load_tree
from standgen.pipeline import report

PROJECT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def demo() -> tuple[object, tuple[object, ...]]:
    tree = load_tree(PROJECT / "events")
    return tree, tuple(report(e) for e in tree.events)


def test_the_tidy_table_rebuilds_every_events_standings(demo: tuple) -> None:  # type: ignore[type-arg]
    """Each event's scores come back from its rows: the sum of the points, and for
    McMahon the starting MMS plus the points, byes and absences rounded down together
    (OpenGotha fillBaseScoringInfo, as standgen.formats.mcmahon.total_mms)."""
    tree, reports = demo
    games = games_frame(reports, tree.seasons)
    assert not games.empty and set(games["format"]) == {
        "steamroller", "old-world", "mcmahon", "swiss", "diplomacy"}
    unpaired = games["kind"].isin(["bye", "absent"])
    totals = games.assign(played=games["points"].where(~unpaired, 0.0),
                          unpaired=games["points"].where(unpaired, 0.0)).groupby(
        ["event", "player"]).agg(played=("played", "sum"), unpaired=("unpaired", "sum"),
                                 start=("start", "first"), format=("format", "first"))
    for made in reports:
        for row in made.standings.rows:
            key = (made.event.slug, row.player.id)
            if key not in totals.index:
                assert row.score == 0 or made.event.config.format == "mcmahon"
                continue
            line = totals.loc[key]
            got = line["played"] + line["unpaired"]
            if line["format"] == "mcmahon":
                got = line["start"] + line["played"] + math.floor(line["unpaired"] + 1e-9)
            assert got == pytest.approx(float(row.score)), key


def test_only_formats_with_colours_have_a_colour(demo: tuple) -> None:  # type: ignore[type-arg]
    """docs/clubs.md: ``colour`` is White/Black for chess and Go (``Format.colours``);
    the Old World's round pages have extra seat columns (band, TP) but no colours, so its
    rows have none (they had ``white``/``black`` while clubs asked the pages' views)."""
    tree, reports = demo
    games = games_frame(reports, tree.seasons)
    coloured = set(games.loc[games["colour"] != "", "format"])
    assert coloured == {"swiss", "mcmahon"}


def test_openskill_documented_example() -> None:
    """openskill.py's README: a1, a2 beat b1, b2 (the model without the later tau)."""
    model = PlackettLuce(tau=0)
    a1, a2 = model.rating(), model.rating(mu=32.444, sigma=5.123)
    b1, b2 = model.rating(mu=43.381, sigma=2.421), model.rating(mu=25.188, sigma=6.211)
    [[x1, x2], [y1, y2]] = model.rate([[a1, a2], [b1, b2]])
    assert (x1.mu, x1.sigma) == pytest.approx((28.669648436582808, 8.071520788025197))
    assert (x2.mu, x2.sigma) == pytest.approx((33.83086971107981, 5.062772998705765))
    assert (y1.mu, y1.sigma) == pytest.approx((43.071274808241974, 2.4166900452721256))
    assert (y2.mu, y2.sigma) == pytest.approx((23.149503312339064, 6.1378606973362135))


def _two_player_games(results: list[tuple[str, str, str]]) -> pd.DataFrame:
    rows = []
    for k, (date, a, b) in enumerate(results):
        for pid, other, outcome in ((a, b, "win"), (b, a, "loss")):
            rows.append({"event": f"e{date}", "event_name": "", "date": date, "season": "",
                         "format": "steamroller", "round": 1, "table": k + 1,
                         "kind": "played", "player": pid, "name": pid.upper(),
                         "faction": "", "rank": "", "rating": None, "colour": "",
                         "opponents": other, "opponent_factions": "", "opponent_ranks": "",
                         "opponent_ratings": "", "seats": 2, "outcome": outcome,
                         "result": outcome, "points": 1.0 if outcome == "win" else 0.0,
                         "start": 0.0, "handicap": 0.0})
    return pd.DataFrame(rows)


def test_a_win_raises_the_winner_by_openskills_own_update() -> None:
    listing, changes = openskill_ratings(_two_player_games([("2026-01-01", "a", "b")]))
    model = PlackettLuce()
    [[a], [b]] = model.rate([[model.rating()], [model.rating()]], ranks=[0, 1])
    rating = dict(zip(listing["player"], listing["rating"], strict=True))
    assert rating["a"] == round(a.ordinal(), 2) and rating["b"] == round(b.ordinal(), 2)
    assert list(changes["change"]) == [round(a.ordinal() - model.rating().ordinal(), 2),
                                       round(b.ordinal() - model.rating().ordinal(), 2)]


def test_ratings_do_not_depend_on_the_order_of_events_on_one_date() -> None:
    rng = random.Random(7)
    players = [f"p{k}" for k in range(8)]
    results = []
    for day in ("2026-01-01", "2026-01-01", "2026-02-01"):
        field = players[:]
        rng.shuffle(field)
        results += [(day, field[k], field[k + 1]) for k in range(0, 8, 2)]
    games = _two_player_games(results)
    first, _ = openskill_ratings(games)
    for seed in range(5):
        shuffled = games.sample(frac=1, random_state=seed).reset_index(drop=True)
        again, _ = openskill_ratings(shuffled)
        pd.testing.assert_frame_equal(first, again)


def test_fide_expected_score_table_and_rating_change() -> None:
    """FIDE B.02 art. 8.1.2's table and art. 8.3's K x (W - We)."""
    assert fide_expected(2000, 2000) == 0.50
    assert fide_expected(2004, 2000) == 0.51 and fide_expected(2000, 2004) == 0.49
    assert fide_expected(2200, 2000) == 0.76  # D = 200: 198-206 -> 0.76
    assert fide_expected(2600, 2000) == 0.92  # over 400 counts as 400: 392-411 -> 0.92
    assert fide_change(2200, 2000, 1.0) == pytest.approx(20 * 0.24)
    assert fide_change(2000, 2200, 0.5) == pytest.approx(20 * (0.5 - 0.24))
    assert fide_change(2450, 2300, 0.0) == pytest.approx(10 * -0.70)  # D 150: 0.70, K 10


def test_wilson_interval() -> None:
    """Wilson (1927); e.g. 8 of 10: (0.4902, 0.9433), as in Brown, Cai and DasGupta."""
    low, high = wilson(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(0, 5)
    assert low == 0.0 and 0.4 < high < 0.45


def test_meta_keeps_small_samples_with_their_intervals(demo: tuple) -> None:  # type: ignore[type-arg]
    tree, reports = demo
    games = games_frame(reports, tree.seasons)
    table = faction_table(games)
    assert {"Cygnar", "Austria"} <= set(table["faction"])  # factions and powers
    fewest = table.loc[table["games"].idxmin()]
    most = table.loc[table["games"].idxmax()]
    assert fewest["games"] < most["games"]
    assert fewest["high"] - fewest["low"] > most["high"] - most["low"]  # shown, wider
    matrix = matchup_matrix(games, "steamroller")
    assert not matrix.empty and any("(" in cell for cell in matrix.to_numpy().ravel())


@pytest.mark.parametrize("suffix", [".xlsx", ".csv", ".parquet"])
def test_export_writes_every_table_readable_back(tmp_path: Path, suffix: str) -> None:
    events = Path(shutil.copytree(PROJECT / "events", tmp_path / "events"))
    players = events / "2026/spring-steamroller/players.csv"
    players.write_text(players.read_text().replace("Anna Kowalski", "=HYPERLINK(1)"))
    target = tmp_path / "out" / f"club{suffix}"
    result = CliRunner().invoke(main, ["export", str(events), "-o", str(target)])
    assert result.exit_code == 0, result.output
    expected = club_tables(load_tree(events))
    if suffix == ".xlsx":
        book = openpyxl.load_workbook(target)
        assert {"games", "standings", "ratings", "meta"} <= set(book.sheetnames)
        sheet = book["games"]
        assert sheet.max_row == len(expected["games"]) + 1
        names = [c.value for c in sheet[1]]
        cells = [row[names.index("name")] for row in sheet.iter_rows(min_row=2, values_only=True)]
        assert "'=HYPERLINK(1)" in cells and "=HYPERLINK(1)" not in cells
    else:
        read = pd.read_csv if suffix == ".csv" else pd.read_parquet
        for name in ("games", "standings", "ratings", "meta"):
            path = target if name == "games" else target.with_name(f"club.{name}{suffix}")
            assert len(read(path)) == len(expected[name]), name


def test_export_refuses_a_file_inside_events_or_an_unknown_kind(tmp_path: Path) -> None:
    events = Path(shutil.copytree(PROJECT / "events", tmp_path / "events"))
    result = CliRunner().invoke(main, ["export", str(events), "-o", str(events / "x.csv")])
    assert result.exit_code == 2 and "inside the events folder" in result.output
    result = CliRunner().invoke(main, ["export", str(events), "-o", str(tmp_path / "x.ods")])
    assert result.exit_code == 2 and "name a .xlsx, .csv or .parquet file" in result.output


def test_an_event_with_rated_false_is_left_out_of_the_ratings(tmp_path: Path) -> None:
    events = Path(shutil.copytree(PROJECT / "events", tmp_path / "events"))
    toml = events / "2026/club-swiss/event.toml"
    assert "[options]\n" in toml.read_text()
    toml.write_text(toml.read_text().replace("[options]\n", "[options]\nrated = false\n"))
    tables = club_tables(load_tree(events))
    rated_events = set(tables["rating_changes"]["event"])
    assert "2026/club-swiss" not in rated_events and "2026/spring-steamroller" in rated_events
    assert "2026/club-swiss" in set(tables["games"]["event"])  # still in the games


@settings(deadline=None)  # pandas on a loaded machine: an example took 0.36 s
@given(st.lists(st.tuples(st.integers(1000, 2900), st.integers(1000, 2900),
                          st.sampled_from(["win", "draw", "loss"])), min_size=1, max_size=30))
def test_fide_changes_of_a_column_equal_the_rule_game_by_game(
        games: list[tuple[int, int, str]]) -> None:
    frame = pd.DataFrame({"format": "swiss", "kind": "played",
                          "rating": [float(a) for a, _, _ in games],
                          "opponent_ratings": [str(b) for _, b, _ in games],
                          "outcome": [o for _, _, o in games]})
    column = fide_changes(frame)
    for (a, b, outcome), got in zip(games, column, strict=True):
        assert got == round(fide_change(a, b, {"win": 1.0, "draw": 0.5, "loss": 0.0}[outcome]),
                            1)


@settings(deadline=None)  # the package's objects on a loaded machine
@given(st.lists(st.tuples(st.floats(-20, 80), st.floats(0.05, 12), st.floats(-20, 80),
                          st.floats(0.05, 12), st.booleans()), min_size=1, max_size=12))
def test_the_two_player_fast_path_equals_openskill_bit_for_bit(
        games: list[tuple[float, float, float, float, bool]]) -> None:
    """standgen.clubs.plackett_luce.rate_pairs, a round's games at once, against the
    package's own rate() game by game (the winner first; a draw ranks both 0)."""
    model = PlackettLuce()
    mu_a, sigma_a, mu_b, sigma_b, draw = (np.array(c) for c in zip(*games, strict=True))
    got = rate_pairs(mu_a, sigma_a, mu_b, sigma_b, draw.astype(bool))
    for k, (m1, s1, m2, s2, drawn) in enumerate(games):
        [[a], [b]] = model.rate([[model.rating(mu=m1, sigma=s1)],
                                 [model.rating(mu=m2, sigma=s2)]],
                                ranks=[0.0, 0.0] if drawn else [0.0, 1.0])
        assert (got[0][k], got[1][k], got[2][k], got[3][k]) == (a.mu, a.sigma, b.mu, b.sigma)
        assert ordinal((float(got[0][k]), float(got[1][k]))) == a.ordinal()


@settings(deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(
    [0.125, 2.675, -2.675, 1.005, 0.5, -0.5, 12.345, 1e15 + 0.5, 2.0**30 / 100]),
    min_size=1, max_size=40), st.sampled_from([2, 4]))
def test_rounding_a_column_equals_pythons_round(values: list[float], digits: int) -> None:
    """ratings._rounded, numpy with a fallback, against round() value by value."""
    got = _rounded(np.array(values, dtype="float64"), digits)
    for value, rounded in zip(values, got, strict=True):
        want = round(value, digits) if math.isfinite(value) else value
        assert rounded == want or (math.isnan(rounded) and math.isnan(want)), value
        assert math.copysign(1, rounded) == math.copysign(1, want) or math.isnan(want)


def test_ratings_are_the_same_with_the_fast_path_off(demo: tuple) -> None:  # type: ignore[type-arg]
    """The two-player fast path gives the package's own numbers: every rating and
    change equal with it off (the export passes standgen.perf's switch)."""
    tree, reports = demo
    games = games_frame(reports, tree.seasons)
    fast = openskill_ratings(games)
    slow = openskill_ratings(games, fast=False)
    for got, want in zip(fast, slow, strict=True):
        pd.testing.assert_frame_equal(got, want, check_exact=True)
    assert set(games["seats"]) >= {2, 7}  # two-player games and Diplomacy boards both rated


def test_fide_changes_of_an_archive_without_a_game() -> None:
    """An archive whose only event has no finished game yet (a round file deleted while
    ``watch`` runs) gives an empty tidy table, whose columns hold no strings: no FIDE
    change, and no error."""
    from standgen.model import Player
    from tests.build import make_event

    event = make_event([Player(id=p, name=p) for p in "abcd"], [], fmt="swiss")
    games = games_frame([report(event)])
    assert games.empty and fide_changes(games).empty
    played = make_event([Player(id=p, name=p) for p in "abcd"],
                        [[("a", "b", "1-0"), ("c", "d", "0-1")]])
    assert fide_changes(games_frame([report(played)])).isna().all()  # no chess, no change
