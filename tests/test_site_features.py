"""Site features of issue 7: sorting markup, crosstable, downloads, feeds, QR, seasons,
histories, charts, format hooks, the last-updated stamp."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standgen.errors import InputError
from standgen.load import load_tree
from standgen.model import EventsTree, Player, Season, SiteConfig
from standgen.pipeline import report, reports
from standgen.site.downloads import neutralise, standings_csv
from standgen.site.renderer import render_site
from standgen.site.season import PointsRule, leaderboard, points_rule
from standgen.site.summary import summarise
from standgen.tables import Cell, Page, Table
from tests.test_site import DOCS, TEMPLATES, event, game, hostile_event, long_event, tied_event

ATOM = "{http://www.w3.org/2005/Atom}"


def build(*events, seasons=(), site=None):  # type: ignore[no-untyped-def]
    tree = EventsTree("events", tuple(events), seasons, site=site or SiteConfig())
    return render_site(tree, reports(tree), DOCS, TEMPLATES)


@pytest.fixture(scope="module")
def site() -> dict[str, bytes]:
    return build(tied_event(), long_event(), hostile_event())


def text(site: dict[str, bytes], path: str) -> str:
    return site[path].decode()


def test_standings_are_sortable_with_aria_sort_on_the_sorted_column_only(site):  # type: ignore[no-untyped-def]
    page = text(site, "2026/long/index.html")
    table = page[page.index('<table class="standings"'):page.index("</table>")]
    assert "data-sortable" in table
    head = table[table.index("<thead>"):table.index("</thead>")]
    assert head.count("aria-sort=") == 1
    rank = r'<th scope="col" class="num stick stick-rank" data-sort="num" aria-sort="ascending">'
    assert re.search(rank, head)
    assert "<button" not in head  # the script adds the buttons: the table works without it
    assert head.count('data-sort="num"') >= 5  # rank, score, SoS, CP, APD
    assert text(site, "assets/site.js").count("aria-sort") >= 2


def cross_row(page: str, name: str) -> list[str]:
    body = page[page.index('<table class="crosstable"'):]
    body = body[: body.index("</table>")]
    row = next(r for r in body.split("<tr>") if f">{name}</a></th>" in r)
    cells = re.findall(r'<td class="num cross">(.*?)</td>', row)
    return [re.sub(r"<span class=\"vh\">.*?</span>|<[^>]+>", "", c) for c in cells]


def test_crosstable_cells(site):  # type: ignore[no-untyped-def]
    page = text(site, "2026/long/index.html")
    ranks = {
        row["id"]: row["rank"]
        for row in __import__("json").loads(site["2026/long/standings.json"])["standings"]
    }
    assert cross_row(page, "Alice") == [
        f"W{ranks['bob']}", f"W{ranks['carol']}", f"L{ranks['dan']}", "B",
        f"…{ranks['carol']}",
    ]
    assert cross_row(page, "Eve") == [
        "B", f"L{ranks['dan']}", f"L{ranks['bob']}", f"-{ranks['dan']}", "A",
    ]
    assert cross_row(page, "Dan")[3] == f"+{ranks['eve']}"
    assert 'title="R1: win against Bob"' in page


@pytest.mark.parametrize(
    ("cell", "safe"),
    [("=1+1", "'=1+1"), ("+SUM(A1)", "'+SUM(A1)"), ("-2+3", "'-2+3"), ("@cmd", "'@cmd"),
     ("\t=x", "'\t=x"), ("-2", "-2"), ("+3.5", "+3.5"), ("Anna", "Anna"), ("", "")],
)
def test_csv_cells_are_neutralised(cell: str, safe: str) -> None:
    assert neutralise(cell) == safe


def test_standings_csv_neutralises_names() -> None:
    base = tied_event()
    players = (replace(base.players[0], name="=HYPERLINK(\"http://x\")"), *base.players[1:])
    rows = list(csv.reader(io.StringIO(standings_csv(report(replace(base, players=players))
                                                     .standings).decode())))
    assert rows[0] == ["rank", "id", "name", "faction", "score", "sos", "wins", "draws",
                       "losses"]
    assert rows[1][:5] == ["1", "alice", "'=HYPERLINK(\"http://x\")", "Cygnar", "2"]


def test_pairings_csv(site):  # type: ignore[no-untyped-def]
    rows = list(csv.reader(io.StringIO(text(site, "2026/long/round-4/pairings.csv"))))
    assert rows == [
        ["table", "player_1", "name_1", "faction_1", "player_2", "name_2", "faction_2", "result"],
        ["1", "bob", "Bob", "", "carol", "Carol", "", "1-0"],
        ["2", "dan", "Dan", "", "eve", "Eve", "", "+-"],
        ["3", "alice", "Alice", "", "BYE", "", "", "1-0"],
    ]
    assert 'href="pairings.csv"' in text(site, "2026/long/round-4/index.html")
    assert 'href="standings.csv"' in text(site, "2026/long/index.html")


def test_atom_feed_has_an_entry_per_published_round(site):  # type: ignore[no-untyped-def]
    feed = ET.fromstring(site["2026/long/feed.xml"])
    assert feed.tag == f"{ATOM}feed"
    entries = feed.findall(f"{ATOM}entry")
    titles = [e.findtext(f"{ATOM}title") for e in entries]
    # rounds 1-4 complete: pairings and results; round 5 in progress: pairings only
    assert titles[0] == "Round 5 pairings" and "Round 5 results" not in titles
    assert sorted(titles) == sorted(
        [f"Round {n} pairings" for n in range(1, 6)] + [f"Round {n} results" for n in range(1, 5)]
    )
    ids = [e.findtext(f"{ATOM}id") for e in entries]
    assert len(set(ids)) == len(ids) and all(i and i.startswith("urn:standgen:") for i in ids)
    for element in (feed, *entries):
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", element.findtext(f"{ATOM}updated"))
    link = entries[0].find(f"{ATOM}link")
    assert link is not None and link.get("href") == "round-5/index.html"
    assert 'type="application/atom+xml"' in text(site, "2026/long/index.html")
    evil = ET.fromstring(site["evil/feed.xml"])  # names with markup stay text
    assert evil.findtext(f"{ATOM}title") == "Evil <script>alert(1)</script>"


def test_qr_code_and_absolute_feed_only_with_site_url() -> None:
    plain = build(tied_event())
    assert "<svg" not in text(plain, "2026/tied/round-1/index.html")
    hosted = build(tied_event(), site=SiteConfig("Club", "https://club.example/events/"))
    page = text(hosted, "2026/tied/round-1/index.html")
    assert page.count('class="qr-code"') == 1
    assert "https://club.example/events/2026/tied/index.html" in page
    feed = ET.fromstring(hosted["2026/tied/feed.xml"])
    assert feed.findtext(f"{ATOM}id") == "https://club.example/events/2026/tied/index.html"
    self_link = [x for x in feed.findall(f"{ATOM}link") if x.get("rel") == "self"]
    assert self_link[0].get("href") == "https://club.example/events/2026/tied/feed.xml"
    assert "<h1>Club</h1>" in text(hosted, "index.html")


def season_events() -> list:  # type: ignore[type-arg]
    """Three events: Ann wins two, Bob one; Cat plays only the last."""
    people = {p: Player(p, p.title()) for p in ("ann", "bob", "cat", "dan")}
    one = event(("s", "one"), "One", [people["ann"], people["bob"]],
                [[game(1, 1, "ann", "bob", "1-0")]], date=dt.date(2026, 1, 1), rounds=1)
    two = event(("s", "two"), "Two", [people["ann"], people["bob"]],
                [[game(1, 1, "bob", "ann", "1-0")]], date=dt.date(2026, 2, 1), rounds=1)
    three = event(("s", "three"), "Three", [people[p] for p in ("ann", "bob", "cat", "dan")],
                  [[game(1, 1, "ann", "cat", "1-0"), game(1, 2, "bob", "dan", "0-1")],
                   [game(2, 1, "ann", "dan", "1-0"), game(2, 2, "cat", "bob", "1-0")]],
                  date=dt.date(2026, 3, 1), rounds=2, tiebreaks=("sos",))
    return [one, two, three]


def test_season_leaderboard_counts_the_best_events() -> None:
    rule = points_rule({"placings": [10, 6, 4], "participation": 1, "best": 2})
    board = leaderboard([summarise(report(e)) for e in season_events()], rule)
    assert [e.config.name for e in board.events] == ["One", "Two", "Three"]
    by_id = {row.player: row for row in board.rows}
    ranks = {row.player.id: row.rank for row in report(season_events()[2]).standings.rows}
    assert ranks["ann"] == 1
    # Ann: 11, 7, 11 -> best two 22; Bob: 7, 11, then his rank in Three
    assert by_id["ann"].total == 22
    assert [r.counted for r in by_id["ann"].results] == [True, False, True]
    bob_three = rule.for_rank(ranks["bob"])
    assert by_id["bob"].total == 11 + max(7, bob_three)
    assert board.rows[0].player == "ann" and board.rows[0].rank == 1
    assert points_rule({}) == PointsRule()


@settings(deadline=None, max_examples=40)
@given(
    placings=st.lists(st.integers(0, 30), max_size=5),
    participation=st.integers(0, 3),
    best=st.one_of(st.none(), st.integers(1, 3)),
)
def test_leaderboard_totals_are_the_best_n_sums(placings, participation, best):  # type: ignore[no-untyped-def]
    rule = PointsRule(tuple(float(p) for p in placings), float(participation), best)
    board = leaderboard([summarise(report(e)) for e in season_events()], rule)
    for row in board.rows:
        points = sorted((r.points for r in row.results), reverse=True)
        assert row.total == sum(points[:best] if best else points)
        assert sum(r.counted for r in row.results) == min(len(points), best or len(points))
    totals = [row.total for row in board.rows]
    assert totals == sorted(totals, reverse=True)
    for a, b in zip(board.rows, board.rows[1:], strict=False):
        assert (a.rank == b.rank) == (a.total == b.total)


def test_season_page_and_player_history() -> None:
    season = Season(("s",), "Club season", points={"placings": [10, 6], "best": 2})
    out = build(*season_events(), seasons=(season,))
    page = text(out, "s/index.html")
    assert "Points per placing: 1st 10, 2nd 6; best 2 events count." in page
    assert '<a href="../players/ann/index.html">Ann</a>' in page
    assert "<del" in page  # a result outside Ann's best two
    history = text(out, "players/ann/index.html")
    plain = re.sub(r"<[^>]+>", "", history)
    assert plain.index("Three") < plain.index("Two") < plain.index("One")  # newest first
    assert re.search(r'<a href="../bob/index.html">Bob</a></th>\s*<td class="num">2</td>\s*'
                     r'<td class="num">1-0-1</td>', history)
    assert "Overall record (wins-draws-losses): <strong>3-0-1</strong>" in history
    assert 'href="../../../../players/ann/index.html"' in text(out, "s/one/players/ann/index.html")
    archive = text(out, "archive/index.html")
    assert '<h2 id="y2026">2026</h2>' in archive and 'href="../s/three/index.html"' in archive


def test_a_long_season_lists_each_players_own_events() -> None:
    """Past MATRIX_EVENTS events the leaderboard has no column per event: each row lists
    the events the player played, with the same points, titles and strike-throughs, so
    the page grows with the results, not with players x events (issue #33)."""
    from standgen.site.index_contexts import MATRIX_EVENTS

    people = [Player(f"p{k}", f"Zoë O'Brien-Łukasiewicz {k}")
              for k in range(2 * MATRIX_EVENTS + 4)]
    events = [
        event(("s", f"e{k:02d}"), f"Événement {k}", people[2 * k: 2 * k + 4],
              [[game(1, 1, people[2 * k].id, people[2 * k + 1].id, "1-0"),
                game(1, 2, people[2 * k + 2].id, people[2 * k + 3].id, "0-1")]],
              date=dt.date(2026, 1, 1) + dt.timedelta(days=k), rounds=1)
        for k in range(MATRIX_EVENTS + 1)
    ]
    season = Season(("s",), "Long season", points={"placings": [10, 6], "best": 1})
    page = text(build(*events, seasons=(season,)), "s/index.html")
    board = page[page.index('<table class="leaderboard'):page.index("</table>")]
    assert 'class="no-entry"' not in board and "did not play" not in board
    assert "<th scope=\"col\">Results</th>" in board
    # p2 played events 0 and 1 (lost in 0, then won in 1): two entries, one struck through
    row = board[board.index('>Zoë O&#39;Brien-Łukasiewicz 2<'):]
    row = row[:row.index("</tr>")]
    assert row.count("<li>") == 2
    assert re.search(r'<a href="e00/index.html">Événement 0</a> <del title="Événement 0: '
                     r'placed \d, not among the best results counted">\d+</del>', row)
    assert ('<a href="e01/index.html">Événement 1</a> '
            '<span title="Événement 1: placed 1">10</span>') in row
    assert board.count("<li>") == sum(len(e.players) for e in events)
    short = text(build(*events[:MATRIX_EVENTS], seasons=(season,)), "s/index.html")
    assert short.count('<th scope="col" class="num"><a href=') == MATRIX_EVENTS  # a column each


def test_charts_are_inline_svg_and_escaped(site):  # type: ignore[no-untyped-def]
    player = text(site, "2026/long/players/alice/index.html")
    chart = player[player.index('<svg class="chart chart-line"'):]
    chart = chart[: chart.index("</svg>")]
    assert chart.count("<circle") == 4  # four complete rounds
    assert "<title>After round 3: 2</title>" in chart
    evil = text(site, "evil/index.html")
    bars = evil[evil.index('<svg class="chart chart-bars"'):]
    bars = bars[: bars.index("</svg>")]
    assert "&lt;img src=x" in bars and "<img" not in bars
    assert "1/" not in bars or "0/1 (0%)" in bars
    tied = text(site, "2026/tied/index.html")
    assert re.search(r'<th scope="row">Cygnar</th>\s*<td class="num">2</td>\s*'
                     r'<td class="num">2</td>', tied)


def test_format_hooks_render_escaped(monkeypatch: pytest.MonkeyPatch) -> None:
    from standgen.formats import FORMATS
    from standgen.formats.steamroller import STEAMROLLER
    from standgen.site.formats import VIEWS, FormatViews

    hooked = replace(STEAMROLLER, id="hooked")
    views = FormatViews(
        event_tables=lambda r: [Table("Awards <b>", ("Award", "Player"), (
            (Cell("Best <painted>"), Cell("Alice", "players/alice/index.html")),))],
        player_tables=lambda r, pid: [Table(f"Notes for {pid}", ("Note",), ((Cell("x"),),))],
        pages=lambda r: [Page("powers", "Powers", (Table("By power", ("Power", "Best"), (
            (Cell("France"), Cell("Alice", "players/alice/index.html")),)),), "Intro")],
        downloads=lambda r: {"results.txt": b"data"},
        seat_headers=("Band",),
        seat_cells=lambda g, s, c: [f"band-{s.player}"],
    )
    monkeypatch.setitem(FORMATS, "hooked", hooked)  # type: ignore[arg-type]
    monkeypatch.setitem(VIEWS, "hooked", views)  # type: ignore[arg-type]
    base = tied_event()
    out = build(replace(base, config=replace(base.config, format="hooked")))
    page = text(out, "2026/tied/index.html")
    assert "Awards &lt;b&gt;" in page and "Best &lt;painted&gt;" in page
    assert '<a href="players/alice/index.html">Alice</a>' in page
    assert '<a href="powers/index.html">Powers</a>' in page
    assert 'href="results.txt"' in page and out["2026/tied/results.txt"] == b"data"
    powers = text(out, "2026/tied/powers/index.html")
    assert '<a href="../players/alice/index.html">Alice</a>' in powers
    assert "Notes for bob" in text(out, "2026/tied/players/bob/index.html")
    round_page = text(out, "2026/tied/round-1/index.html")
    assert round_page.count('<th scope="col" class="detail">Band</th>') == 2
    assert '<td class="detail">band-bob</td>' in round_page


def test_stamp_comes_from_the_input(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    plain = build(long_event())
    front = text(plain, "2026/long/index.html")
    assert "Last updated: round 5 in progress: 1 of 2 results in" in front
    assert "built" not in text(plain, "2026/long/index.html")
    assert build(long_event()) == plain
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1773500000")
    stamped = build(long_event())
    assert "Last updated 2026-03-14 at 14:53 UTC: round " in text(
        stamped, "2026/long/round-2/index.html")
    assert b"<updated>2026-03-14T14:53:20Z</updated>" in stamped["2026/long/feed.xml"]


def test_site_toml_and_season_points_are_validated(tree) -> None:  # type: ignore[no-untyped-def]
    root = tree({"site.toml": 'title = "Club"\nsite_url = "https://club.example"\n'})
    assert load_tree(root).site == SiteConfig("Club", "https://club.example/")
    bad = tree({"site.toml": 'title = "Club"\nsite_url = "ftp://x"\ncolour = 1\n',
                "s/season.toml": 'name = "S"\n[points]\nplacings = [10, "x"]\nbest = 0\n',
                "players/x.txt": "x"})
    with pytest.raises(InputError) as caught:
        load_tree(bad)
    messages = sorted(str(p) for p in caught.value.problems)
    assert any(m.startswith(f"{bad.as_posix()}/site.toml:2: 'site_url'") for m in messages)
    where = bad.as_posix()
    assert any(m.startswith(f"{where}/site.toml:3: unknown key 'colour'") for m in messages)
    assert any(m.startswith(f"{bad.as_posix()}/s/season.toml:3: 'placings'") for m in messages)
    assert any(m.startswith(f"{bad.as_posix()}/s/season.toml:4: 'best'") for m in messages)
    assert f"{where}/players:1: folder name 'players' is reserved" in "\n".join(messages)


def test_demo_site_builds(tmp_path: Path) -> None:
    from standgen.build import build as build_site

    root = Path(__file__).resolve().parents[1] / "events"
    build_site(root, tmp_path / "out")
    assert (tmp_path / "out" / "archive" / "index.html").is_file()
