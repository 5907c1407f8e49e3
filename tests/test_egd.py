"""The EGD ``.h9`` results file: the export round-trips the results it was built from."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standgen.egd import egd_name, export_h9, parse_h9
from standgen.model import Event, GameKind, Outcome
from standgen.pipeline import report
from standgen.site.formats.mcmahon import VIEWS as MCMAHON_VIEWS
from tests.build import make_event, player

SYMBOL = {Outcome.WIN: "+", Outcome.DRAW: "=", Outcome.LOSS: "-"}


def go_event(rounds: list[list[tuple[Any, ...]]], **options: Any) -> Event:
    people = [
        player("ann", name="Ann Lee", rank="5d", club="Camb", country="GB"),
        player("ben", name="Ben de Vries", rank="3d", club="Ams", country="NL"),
        player("cat", name="Cat", rank="1d", club="", country="FR"),
        player("dan", name="Dan Oak", rank="2k", club="Paris Go", country="FR"),
        player("eve", name="Eve Ng", rank="8k", club="Camb", country="GB"),
    ]
    return make_event(people, rounds, fmt="mcmahon", rounds=3, location="Leeds",
                      options={"bar": "3d", **options})


ROUNDS: list[list[tuple[Any, ...]]] = [
    [("ann", "ben", "1-0"), ("cat", "dan", "draw"), ("eve", "BYE", "")],
    [("ann", "cat", "0-1"), ("dan", "eve", "+-"), ("ben", "ABSENT", "")],
    [("ann", "dan", "1-0"), ("ben", "eve", "0-1"), ("cat", "ABSENT", "")],
]


def check_round_trip(event: Event) -> None:
    """Every player's line names the same opponents, results, colours and handicaps."""
    rep = report(event)
    parsed = parse_h9(export_h9(rep))
    standings = rep.by_round[-1]
    by_place = {line.place: line for line in parsed.players}
    assert sorted(by_place) == list(range(1, len(event.players) + 1))
    place_of = {}
    for line in parsed.players:
        matches = [p for p in event.players if egd_name(p.name) == line.name]
        assert len(matches) == 1
        place_of[matches[0].id] = line.place
    for p in event.players:
        line = by_place[place_of[p.id]]
        assert line.rank == p.rank
        assert line.criteria[0] == standings.context.scores[p.id]
        entries = {e.round: e for e in standings.records[p.id].entries}
        assert len(line.results) == standings.rounds_complete
        for number, got in enumerate(line.results, start=1):
            entry = entries.get(number)
            if entry is None:
                assert (got.opponent, got.result) == (0, "-")
            elif entry.kind in (GameKind.BYE, GameKind.ABSENT):
                symbol = "+" if entry.points >= 1 else "=" if entry.points else "-"
                assert (got.opponent, got.result, got.colour) == (0, symbol, "")
            else:
                assert entry.opponent is not None
                assert got.opponent == place_of[entry.opponent]
                assert got.result == SYMBOL[entry.outcome]
                assert got.colour == ("w" if entry.game.seats[0].player == p.id else "b")
                assert got.handicap == int(entry.game.extra.get("handicap", 0))
                assert got.forfeit == (entry.kind is GameKind.FORFEIT)


def test_round_trip_with_bye_absence_jigo_and_forfeit() -> None:
    check_round_trip(go_event(ROUNDS))


def test_header_and_a_line() -> None:
    rep = report(go_event(ROUNDS, egd_class="B", time_minutes=90, komi=6.5))
    parsed = parse_h9(export_h9(rep))
    assert parsed.header["CL"] == "B"
    assert parsed.header["EV"] == "Test Event"
    assert parsed.header["DT"] == "2026-01-01,2026-01-01"
    assert parsed.header["KM"] == "6.5"
    assert parsed.header["TM"] == "90"
    assert parsed.header["PC"] == "FR,Leeds"  # the commonest country (FR and GB: 2 each)
    top = parsed.players[0]
    assert (top.name, top.rank, top.country, top.club) == ("Lee Ann", "5d", "GB", "Camb")
    dan = next(line for line in parsed.players if line.name == "Oak Dan")
    assert dan.club == "Pari"  # EGD club codes are at most four characters
    cat = next(line for line in parsed.players if line.name == "Cat x")
    assert cat.club == "xxxx"


def test_free_rounds_written_as_0_plus_equal_minus() -> None:
    """EGF format: ``0+`` a free win, ``0=`` a free round worth ½, ``0-`` a free round. The
    bye scores 1 (``0+``); Ben's single absence is ½, rounded down to 0 in the MMS, but the
    round itself is written as it was awarded (``0=``)."""
    parsed = parse_h9(export_h9(report(go_event(ROUNDS))))
    eve = next(line for line in parsed.players if line.name == "Ng Eve")
    ben = next(line for line in parsed.players if line.name == "Vries Ben_de")
    assert (eve.results[0].opponent, eve.results[0].result) == (0, "+")
    assert (ben.results[1].opponent, ben.results[1].result) == (0, "=")


def test_parse_reads_opengotha_style_lines() -> None:
    text = (
        "; CL[A]\n; EV[Spring Cup]\n; KM[7.5]\n;\n"
        "   1 Kowalska Anna              4D PL Wars   33  75  2+/w0    3+/b0\n"
        "     Nowak Jan                  2D PL Krak   31  70  1-/b0    0=\n"
        "   3 Smith John                 3K GB Camb   29  71  0+       1-!w2\n"
    )
    parsed = parse_h9(text)
    assert parsed.header == {"CL": "A", "EV": "Spring Cup", "KM": "7.5"}
    assert [p.place for p in parsed.players] == [1, 2, 3]
    assert parsed.players[1].results[1].opponent == 0
    smith = parsed.players[2]
    assert (smith.rank, smith.criteria) == ("3k", (29.0, 71.0))
    assert smith.results[1].forfeit and smith.results[1].handicap == 2


def test_parse_rejects_a_line_without_rank() -> None:
    with pytest.raises(ValueError, match="line 1"):
        parse_h9("1 Name Only\n")


def test_every_mcmahon_event_offers_the_h9_download() -> None:
    assert MCMAHON_VIEWS.downloads is not None
    files = MCMAHON_VIEWS.downloads(report(go_event(ROUNDS)))
    assert list(files) == ["results.h9"]
    assert files["results.h9"].decode().startswith("; EV[")


@settings(deadline=None, max_examples=40)
@given(st.integers(3, 9), st.integers(1, 4), st.integers(0, 10**6), st.booleans())
def test_round_trip_random_events(n: int, rounds: int, seed: int, handicap: bool) -> None:
    rng = random.Random(seed)
    names = ["Ann Lee", "Bo Li", "Cy Twombly", "Di Ro", "Ed Wu", "Flo Ma", "Gus Ek",
             "Hal Po", "Ida B Wells"]
    ranks = ["10k", "5k", "1k", "1d", "3d"]
    people = [player(f"p{k}", name=names[k], rank=rng.choice(ranks)) for k in range(n)]
    schedule = []
    for _ in range(rounds):
        ids = [p.id for p in people]
        rng.shuffle(ids)
        rows: list[tuple[Any, ...]] = []
        if len(ids) % 2:
            rows.append((ids.pop(), rng.choice(["BYE", "ABSENT"]), ""))
        while ids:
            rows.append((ids.pop(), ids.pop(), rng.choice(["1-0", "0-1", "draw", "+-"])))
        schedule.append(rows)
    event = make_event(people, schedule, fmt="mcmahon", rounds=rounds,
                       options={"handicap": handicap})
    check_round_trip(event)


def test_round_trip_keeps_handicaps() -> None:
    """A handicap game's stones come back on both lines (White gave them)."""
    event = go_event(ROUNDS, handicap=True)
    first = event.rounds[0]
    game = replace(first.games[1], extra={"handicap": 3.0, "komi": 0.5})
    event = replace(event, rounds=(replace(first, games=(first.games[0], game,
                                                          *first.games[2:])),
                                   *event.rounds[1:]))
    check_round_trip(event)
    parsed = parse_h9(export_h9(report(event)))
    cat = next(line for line in parsed.players if line.name == "Cat x")
    assert (cat.results[0].colour, cat.results[0].handicap) == ("w", 3)
