"""The site stage: contract JSON, pages, breakdowns, links, escaping, determinism."""

from __future__ import annotations

import datetime as dt
import json
import posixpath
import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from standgen.model import (
    Event,
    EventConfig,
    EventsTree,
    Game,
    GameKind,
    Outcome,
    Player,
    Round,
    Season,
    Seat,
)
from standgen.pipeline import reports
from standgen.site.jsonout import pairings_document
from standgen.site.links import relative
from standgen.site.renderer import render_site
from standgen.tiebreaks import TIEBREAKS

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
TEMPLATES = REPO / "site_templates"

W, D, L = Outcome.WIN, Outcome.DRAW, Outcome.LOSS
RESULTS = {
    "1-0": (W, L, GameKind.PLAYED),
    "0-1": (L, W, GameKind.PLAYED),
    "draw": (D, D, GameKind.PLAYED),
    "+-": (W, L, GameKind.FORFEIT),
    "-+": (L, W, GameKind.FORFEIT),
    "--": (L, L, GameKind.FORFEIT),
}


def game(
    rnd: int,
    table: int,
    one: str,
    two: str,
    result: str = "",
    stats: tuple[Mapping[str, float], Mapping[str, float]] = ({}, {}),
) -> Game:
    """Return a game as a round-file row would load: ``two`` may be ``BYE`` or ``ABSENT``."""
    if two in ("BYE", "ABSENT"):
        kind = GameKind.BYE if two == "BYE" else GameKind.ABSENT
        default = W if kind is GameKind.BYE else L
        outcome = {"": default, "1-0": W, "draw": D, "0-1": L}[result]
        return Game(rnd, table, (Seat(one, outcome),), kind=kind)
    if not result:
        return Game(rnd, table, (Seat(one, stats=stats[0]), Seat(two, stats=stats[1])))
    a, b, kind = RESULTS[result]
    return Game(rnd, table, (Seat(one, a, stats[0]), Seat(two, b, stats[1])), kind=kind)


def event(
    path: tuple[str, ...],
    name: str,
    players: list[Player],
    played: list[list[Game]],
    date: dt.date = dt.date(2026, 3, 1),
    **config: object,
) -> Event:
    """Return a Steamroller event with the given rounds (lists of games, round 1 first)."""
    return Event(
        path=path,
        config=EventConfig(name=name, date=date, format="steamroller", **config),  # type: ignore[arg-type]
        players=tuple(players),
        rounds=tuple(Round(n, tuple(games)) for n, games in enumerate(played, start=1)),
    )


def tied_event() -> Event:
    """Return a finished 2-round event where Bob and Carol tie on TP and SoS: ranks 1, 2, 2, 4."""
    players = [
        Player("alice", "Alice", "Cygnar"),
        Player("bob", "Bob", "Khador"),
        Player("carol", "Carol", "Cryx"),
        Player("dan", "Dan", "Legion", dropped_after=2),
    ]
    rounds = [
        [
            game(1, 1, "alice", "bob", "1-0", ({"cp": 3, "apd": 25}, {"cp": 1, "apd": 10})),
            game(1, 2, "carol", "dan", "1-0"),
        ],
        [game(2, 1, "alice", "carol", "1-0"), game(2, 2, "bob", "dan", "1-0")],
    ]
    return event(("2026", "tied"), "Tied Open", players, rounds, rounds=2, tiebreaks=("sos",))


def long_event() -> Event:
    """Return a 5-player event: byes, a forfeit, and round 5 in progress."""
    players = [
        Player("alice", "Alice"),
        Player("bob", "Bob"),
        Player("carol", "Carol"),
        Player("dan", "Dan"),
        Player("eve", "Eve"),
    ]
    rounds = [
        [
            game(1, 1, "alice", "bob", "1-0"),
            game(1, 2, "carol", "dan", "0-1"),
            game(1, 3, "eve", "BYE"),
        ],
        [
            game(2, 1, "alice", "carol", "1-0"),
            game(2, 2, "dan", "eve", "1-0"),
            game(2, 3, "bob", "BYE"),
        ],
        [
            game(3, 1, "dan", "alice", "1-0"),
            game(3, 2, "bob", "eve", "1-0"),
            game(3, 3, "carol", "BYE"),
        ],
        [
            game(4, 1, "bob", "carol", "1-0"),
            game(4, 2, "dan", "eve", "+-"),
            game(4, 3, "alice", "BYE"),
        ],
        [
            game(5, 1, "dan", "bob", "1-0"),
            game(5, 2, "alice", "carol"),
            game(5, 3, "eve", "ABSENT"),
        ],
    ]
    return event(
        ("2026", "long"),
        "Long Weekend",
        players,
        rounds,
        date=dt.date(2026, 5, 2),
        rounds=6,
        scenarios=("Convergence", "Overrun"),
        options={"clear_winner": False},
    )


def proposed_event() -> Event:
    """Return an event after round 1 of 3, so round 2 is proposed."""
    players = [
        Player(p, p.title(), f)
        for p, f in [
            ("alice", "Cygnar"),
            ("bob", "Khador"),
            ("carol", "Cryx"),
            ("dan", "Legion"),
            ("eve", "Trollbloods"),
        ]
    ]
    rounds = [
        [
            game(1, 1, "alice", "bob", "1-0"),
            game(1, 2, "carol", "dan", "0-1"),
            game(1, 3, "eve", "BYE"),
        ]
    ]
    return event(("club", "proposed"), "Club Night", players, rounds, date=dt.date(2025, 11, 5))


def hostile_event() -> Event:
    """Return an event whose names, description, url and army list try to inject HTML."""
    evil = "<script>alert(1)</script>"
    players = [
        Player("mallory", evil, faction='"><img src=x onerror=alert(2)>'),
        Player("trent", "Trent"),
    ]
    rounds = [[game(1, 1, "mallory", "trent", "draw")]]
    base = event(
        ("evil",),
        f"Evil {evil}",
        players,
        rounds,
        rounds=1,
        url="javascript:alert(3)",
        location=evil,
    )
    return Event(
        path=base.path,
        config=base.config,
        players=base.players,
        rounds=base.rounds,
        description=(
            f"Hello {evil}\n\n[click](javascript:alert(4)) "
            '<a href="https://example.org" onclick="alert(5)">site</a>\n\n'
            '<iframe src="https://example.org"></iframe><style>p{}</style>'
            '<img src="https://example.org/x.png" onerror="alert(6)">'
        ),
        lists={"mallory": f"# List\n\n{evil} <b onmouseover=alert(7)>Caine</b>"},
    )


def build(*events: Event, seasons: tuple[Season, ...] = ()) -> dict[str, bytes]:
    tree = EventsTree("events", tuple(events), seasons)
    return render_site(tree, reports(tree), DOCS, TEMPLATES)


@pytest.fixture(scope="module")
def site() -> dict[str, bytes]:
    return build(
        tied_event(),
        long_event(),
        proposed_event(),
        hostile_event(),
        seasons=(Season(("2026",), "Season 2026", description="**Twenty-six**"),),
    )


def text(site: Mapping[str, bytes], path: str) -> str:
    return site[path].decode()


def load(site: Mapping[str, bytes], path: str) -> object:
    return json.loads(site[path])


def test_standings_json_matches_the_contract(site: dict[str, bytes]) -> None:
    assert load(site, "2026/tied/standings.json") == {
        "event": "Tied Open",
        "format": "steamroller",
        "rounds_played": 2,
        "finished": True,
        "tiebreaks": ["sos"],
        "standings": [
            {"rank": 1, "id": "alice", "name": "Alice", "score": 2, "tiebreaks": {"sos": 2}},
            {"rank": 2, "id": "bob", "name": "Bob", "score": 1, "tiebreaks": {"sos": 2}},
            {"rank": 2, "id": "carol", "name": "Carol", "score": 1, "tiebreaks": {"sos": 2}},
            {"rank": 4, "id": "dan", "name": "Dan", "score": 0, "tiebreaks": {"sos": 2}},
        ],
    }


def test_json_is_formatted_as_agreed(site: dict[str, bytes]) -> None:
    raw = text(site, "2026/tied/standings.json")
    assert raw.endswith("}\n")
    assert raw.startswith('{\n  "event": "Tied Open",\n  "format"')
    assert ".0," not in raw and ".0\n" not in raw  # integral numbers are ints


def test_standings_json_of_an_event_in_progress(site: dict[str, bytes]) -> None:
    doc = load(site, "2026/long/standings.json")
    assert isinstance(doc, dict)
    assert doc["rounds_played"] == 4
    assert doc["finished"] is False
    assert doc["tiebreaks"] == ["sos", "cp", "apd"]
    scores = {row["id"]: row["score"] for row in doc["standings"]}
    # round 5's one finished game counts (Dan beat Bob), the unfinished one does not
    assert scores == {"dan": 5, "alice": 3, "bob": 3, "carol": 1, "eve": 1}
    assert [row["rank"] for row in doc["standings"]] == [1, 2, 3, 4, 5]


def test_pairings_json_of_complete_and_in_progress_rounds(site: dict[str, bytes]) -> None:
    assert load(site, "2026/long/round-1/pairings.json") == {
        "round": 1,
        "status": "complete",
        "bye": "eve",
        "byes": ["eve"],
        "tables": [
            {"table": 1, "players": ["alice", "bob"], "result": "1-0"},
            {"table": 2, "players": ["carol", "dan"], "result": "0-1"},
        ],
    }
    assert load(site, "2026/long/round-4/pairings.json") == {
        "round": 4,
        "status": "complete",
        "bye": "alice",
        "byes": ["alice"],
        "tables": [
            {"table": 1, "players": ["bob", "carol"], "result": "1-0"},
            {"table": 2, "players": ["dan", "eve"], "result": "+-"},
        ],
    }
    assert load(site, "2026/long/round-5/pairings.json") == {
        "round": 5,
        "status": "in-progress",
        "bye": None,
        "byes": [],
        "tables": [
            {"table": 1, "players": ["dan", "bob"], "result": "1-0"},
            {"table": 2, "players": ["alice", "carol"], "result": None},
        ],
    }


def test_proposed_round_has_json_and_page(site: dict[str, bytes]) -> None:
    doc = load(site, "club/proposed/round-2/pairings.json")
    assert isinstance(doc, dict)
    assert doc["round"] == 2 and doc["status"] == "proposed"
    seated = [p for t in doc["tables"] for p in t["players"]] + [doc["bye"]]
    assert sorted(seated) == ["alice", "bob", "carol", "dan", "eve"]
    assert all(t["result"] is None for t in doc["tables"])
    page = text(site, "club/proposed/round-2/index.html")
    assert "Proposed" in page
    assert 'href="../round-1/index.html"' in page
    assert "1 of 3 rounds played; round 2 proposed." in text(site, "club/proposed/index.html")


def test_multi_seat_boards_list_seats() -> None:
    powers = ["England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey"]
    seats = tuple(
        Seat(f"p{i}", W if i == 2 else L, power=power, result="solo" if i == 2 else "loss")
        for i, power in enumerate(powers)
    )
    board = Game(1, 1, seats)
    doc = pairings_document(Round(1, (board,)), proposed=False)
    assert doc["tables"][0]["result"] == "solo"
    assert doc["tables"][0]["seats"][0] == {"player": "p0", "power": "England", "result": "loss"}
    unfinished = Game(1, 1, tuple(Seat(s.player, power=s.power) for s in seats))
    doc = pairings_document(Round(1, (unfinished,)), proposed=False)
    assert doc["status"] == "in-progress"
    assert doc["tables"] == [
        {
            "table": 1,
            "seats": [{"player": f"p{i}", "power": p} for i, p in enumerate(powers)],
            "result": None,
        }
    ]


def test_event_page(site: dict[str, bytes]) -> None:
    page = text(site, "2026/tied/index.html")
    assert "<h1>Tied Open</h1>" in page
    assert '<a href="players/bob/index.html">Bob</a>' in page
    assert "(dropped after R2)" in page
    assert 'href="../../help/tiebreaks/sos/index.html"' in page
    assert 'href="../../help/formats/steamroller/index.html"' in page
    assert "Finished: 2 of 2 rounds played." in page
    assert '<th scope="col"' in page and "<caption" in page
    assert 'class="scroll" tabindex="0" role="region" aria-labelledby="standings-caption"' in page
    long = text(site, "2026/long/index.html")
    assert "Round 5 of 6 in progress." in long
    assert "Convergence" in long


def test_round_page(site: dict[str, bytes]) -> None:
    page = text(site, "2026/long/round-1/index.html")
    assert "Scenario: <strong>Convergence</strong>" in page
    assert '<a href="../players/alice/index.html">Alice</a>' in page
    assert "<em>Bye</em>" in page
    assert 'rel="next"' in page and 'rel="prev"' not in page
    five = text(site, "2026/long/round-5/index.html")
    assert "In progress" in five and "<em>Absent</em>" in five
    assert 'rel="next"' not in five
    tied = text(site, "2026/tied/round-1/index.html")
    cp_apd = r"<td class=\"num detail\">3</td>\s*<td class=\"num detail\">25</td>"
    assert re.search(cp_apd, tied)  # CP, APD


def test_player_breakdown(site: dict[str, bytes]) -> None:
    page = text(site, "2026/long/players/alice/index.html")
    plain = re.sub(r"<[^>]+>", "", page)
    assert "SoS 9 = 3 (Bob, R1) + 1 (Carol, R2) + 5 (Dan, R3) + 0 (bye, R4)" in plain
    assert "Alice" in page and "not played yet" in page
    eve = text(site, "2026/long/players/eve/index.html")
    assert "5 (Dan, R4, forfeit)" in eve
    assert "loss (forfeit)" in eve
    assert "0 (absent, R5)" in eve  # finished games of a round in progress count
    rows = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip()
            for row in re.findall(r"<tr>\s*<th scope=\"row\" data-key=\"round\">.*?</tr>", eve,
                                  re.S)]
    assert rows[0] == "R1 Bye 1 point 1 1 1"  # no table to sit at; the points it gave
    assert rows[-1] == "R5 Absent 0 points 0 1"


def test_links_are_relative_and_resolve(site: dict[str, bytes]) -> None:
    for path, content in site.items():
        if not path.endswith(".html"):
            continue
        html = content.decode()
        assert 'href="/' not in html and 'src="/' not in html, path
        for href in re.findall(r'(?:href|src)="([^"]*)"', html):
            if href.startswith("#"):
                assert f'id="{href[1:]}"' in html, (path, href)
                continue
            if href.startswith(("https://", "http://", "mailto:")):
                assert path.startswith(("evil/", "help/")), (path, href)
                continue
            local = href.split("#")[0].split("?")[0]  # "index.html?screen": the page itself
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), local))
            assert target in site, (path, href)


def test_every_page_links_home_and_to_its_event(site: dict[str, bytes]) -> None:
    for path in site:
        if path.endswith(".html"):
            assert f'href="{relative(path, "index.html")}"' in text(site, path), path
    assert 'href="../../index.html">Long Weekend' in text(site, "2026/long/players/bob/index.html")
    assert 'href="../index.html">Long Weekend' in text(site, "2026/long/round-2/index.html")


def test_hostile_input_is_escaped(site: dict[str, bytes]) -> None:
    for path, content in site.items():
        if not path.endswith(".html"):
            continue  # JSON carries names as data, not markup
        html = content.decode()
        own_script = f'<script src="{relative(path, "assets/site.js")}" defer></script>'
        assert html.count(own_script) == 1, path  # the site's own script, and no other
        html = html.replace(own_script, "")
        assert "<script" not in html, path
        assert "javascript:" not in html, path
        # no element carries an event handler (escaped text may mention one)
        assert not re.search(r"<[a-zA-Z][^>]*\son[a-z]+\s*=", html), path
        assert "<iframe" not in html and "<style" not in html, path
    page = text(site, "evil/index.html")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert '<a href="https://example.org" rel="nofollow noopener">site</a>' in page
    assert "onclick" not in page and "<img" not in page
    player = text(site, "evil/players/mallory/index.html")
    assert "<b>Caine</b>" in player and "onmouseover" not in player


def test_home_and_season_pages(site: dict[str, bytes]) -> None:
    home = text(site, "index.html")
    listed = home[home.index('<h2 id="events">'):]
    order = [listed.index(name) for name in ("Long Weekend", "Tied Open", "Club Night")]
    assert order == sorted(order)  # newest first
    now = home[home.index('<h2 id="now">'):home.index('<h2 id="events">')]
    assert "Long Weekend" in now and "Tied Open" not in now  # events being played lead
    assert '<a href="2026/index.html">Season 2026</a>' in home
    season = text(site, "2026/index.html")
    assert "<strong>Twenty-six</strong>" in season
    assert '<a href="long/index.html">Long Weekend</a>' in season
    assert "Club Night" not in season


def test_help_pages(site: dict[str, bytes]) -> None:
    for tb in TIEBREAKS.values():
        assert f"help/tiebreaks/{tb.page}/index.html" in site, tb.id
    assert "help/formats/steamroller/index.html" in site
    index = text(site, "help/index.html")
    assert 'href="tiebreaks/sos/index.html"' in index
    sos = text(site, "help/tiebreaks/sos/index.html")
    assert "A bye is not an opponent and adds nothing to SoS" in sos
    assert 'href="../cp/index.html"' in sos
    assert "help/index/index.html" not in site


def test_pages_are_valid_html5_shells(site: dict[str, bytes]) -> None:
    for path, content in site.items():
        if path.endswith(".html"):
            html = content.decode()
            assert html.startswith('<!doctype html>\n<html lang="en">'), path
            assert '<meta name="viewport"' in html and "<title>" in html, path


def test_assets_are_self_contained(site: dict[str, bytes]) -> None:
    css = text(site, "assets/style.css")
    assert "prefers-color-scheme: dark" in css and "@media print" in css
    assert "url(" not in css and "@import" not in css


def test_output_is_deterministic(site: dict[str, bytes]) -> None:
    again = build(
        tied_event(),
        long_event(),
        proposed_event(),
        hostile_event(),
        seasons=(Season(("2026",), "Season 2026", description="**Twenty-six**"),),
    )
    assert again == site
    assert list(again) == sorted(again)


def test_multi_seat_round_page(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from standgen.formats import FORMATS
    from standgen.formats.base import Stat
    from standgen.formats.steamroller import STEAMROLLER

    board_format = replace(
        STEAMROLLER, id="boards", seats=7, stats=(Stat("centres", "Supply centres"),)
    )
    monkeypatch.setitem(FORMATS, "boards", board_format)  # type: ignore[arg-type]
    powers = ["England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey"]
    players = [Player(f"p{i}", f"Player {i}") for i in range(7)]
    seats = tuple(
        Seat(
            f"p{i}",
            D if i < 2 else L,
            {"centres": 17 - i},
            power=p,
            result="draw" if i < 2 else "loss",
        )
        for i, p in enumerate(powers)
    )
    board = Event(
        path=("dip",),
        config=EventConfig("Boards", dt.date(2026, 1, 1), "boards", rounds=1),
        players=tuple(players),
        rounds=(Round(1, (Game(1, 1, seats),)),),
    )
    site = build(board)
    page = text(site, "dip/round-1/index.html")
    assert ('<th scope="rowgroup" colspan="4" class="table-no" id="board-1" data-key="table">'
            'Board 1</th>') in page
    assert '<td class="detail">France</td>' in page
    assert '<td class="seat-result" data-key="result">draw</td>' in page
    assert load(site, "dip/round-1/pairings.json") == {
        "round": 1,
        "status": "complete",
        "bye": None,
        "byes": [],
        "tables": [
            {
                "table": 1,
                "seats": [
                    {"player": f"p{i}", "power": p, "result": "draw" if i < 2 else "loss"}
                    for i, p in enumerate(powers)
                ],
                "result": "draw",
            }
        ],
    }


def test_pairings_json_lists_every_bye_when_a_round_has_several() -> None:
    """Diplomacy sit-outs: ``bye`` keeps the contract's single id, ``byes`` lists all."""
    from standgen.model import Game, GameKind, Outcome, Round, Seat
    from standgen.site.jsonout import pairings_document

    rnd = Round(4, (
        Game(4, 1, (Seat("ann", Outcome.WIN), Seat("bob", Outcome.LOSS))),
        Game(4, 2, (Seat("cat", Outcome.WIN),), GameKind.BYE),
        Game(4, 3, (Seat("dan", Outcome.WIN),), GameKind.BYE),
        Game(4, 4, (Seat("eve", Outcome.LOSS),), GameKind.ABSENT),
    ))
    document = pairings_document(rnd, proposed=False)
    assert document["bye"] == "cat"
    assert document["byes"] == ["cat", "dan"]
    assert [t["table"] for t in document["tables"]] == [1]


def test_a_sit_out_reads_sits_out_on_a_board_format_and_bye_elsewhere() -> None:
    from standgen.formats import FORMATS
    from standgen.model import Game, GameKind, Outcome, Seat
    from standgen.site.round_contexts import _alone_label

    rest = Game(4, 5, (Seat("cat", Outcome.LOSS),), GameKind.BYE)
    assert _alone_label(rest, FORMATS["diplomacy"]) == "Sits out"
    assert _alone_label(rest, FORMATS["steamroller"]) == "Bye"
    absent = Game(4, 6, (Seat("dan", Outcome.LOSS),), GameKind.ABSENT)
    assert _alone_label(absent, FORMATS["diplomacy"]) == "Absent"
