"""Forbidden pairs (issue #17 item 4): ``[options] forbidden`` of the ``swiss`` format and
the TRF ``XXP`` record. Players the regulations keep apart (a family, clubmates in a
junior event) are never paired, as if they had met (C.04.3 art. C.1's absolute
criterion), by the Dutch engine and the standgen engine alike."""

from __future__ import annotations

from dataclasses import replace

import pytest

from standgen.errors import InputError
from standgen.formats.swiss import validate_event
from standgen.model import Event, Player
from standgen.pipeline import pair_round
from standgen.standings import compute_standings
from standgen.trf import event_files, export_event, parse_trf
from tests.build import make_event
from tests.dutch_trf import pair_from_trf, state_from_trf


def field(options: dict[str, object]) -> Event:
    people = [Player(id=f"p{k}", name=f"Player {k}", rating=2000.0 - 10 * k) for k in range(8)]
    event = make_event(people, [], fmt="swiss", rounds=5)
    return replace(event, config=replace(event.config, options=options))


def pairs(event: Event, number: int = 1) -> set[frozenset[str]]:
    games = pair_round(event, compute_standings(event), number).round.games
    return {frozenset(g.players) for g in games if len(g.seats) == 2}


@pytest.mark.parametrize("engine", ["dutch", "standgen"])
def test_forbidden_players_are_not_paired(engine: str) -> None:
    """Round 1 pairs 1-5, 2-6, 3-7, 4-8 (top half against bottom half); forbidding p0
    and p4 (numbers 1 and 5) moves them apart, and nothing else is forbidden."""
    plain = pairs(field({"pairing_engine": engine}))
    assert frozenset(("p0", "p4")) in plain
    kept_apart = pairs(field({"pairing_engine": engine, "forbidden": [["p0", "p4"]]}))
    assert frozenset(("p0", "p4")) not in kept_apart
    family = pairs(field({"pairing_engine": engine, "forbidden": [["p0", "p4", "p5"]]}))
    assert not any(pair <= {"p0", "p4", "p5"} for pair in family)


def test_bad_forbidden_options_are_named() -> None:
    assert validate_event(field({"forbidden": [["p0", "p1"]]}), "e.toml") == []
    problems = validate_event(field({"forbidden": [["p0", "zed"], "p1"]}), "e.toml")
    said = [p.message for p in problems]
    assert any("names 'zed', who is not in players.csv" in m for m in said)
    assert any("must be a list of lists of player ids" in m for m in said)


def test_the_trf_carries_forbidden_pairs_both_ways() -> None:
    event = field({"forbidden": [["p0", "p4"]]})
    text = export_event(event)
    assert "XXP 1 5" in text.splitlines()
    tournament = parse_trf(text, "f.trf")
    assert tournament.forbidden == (((1, 5), (1, 99)),)
    made = pair_from_trf(text, 1)
    assert (1, 5) not in made.pairs and (5, 1) not in made.pairs
    files, _ = event_files(tournament, "f.trf", "f")
    assert 'forbidden = [["player-0", "player-4"]]' in files["event.toml"]


def test_a_bad_xxp_record_is_named() -> None:
    with pytest.raises(InputError, match="XXP 'x' must be two or more start ranks"):
        parse_trf("XXP x\n001    1      A A                               2000\n", "t.trf")


def test_a_group_kept_apart_in_some_rounds_only() -> None:
    """``{ players = [...], rounds = [first, last] }``: apart in those rounds, free to
    meet in the others; TRF-2026's ``260`` record carries it both ways."""
    limited = [{"players": ["p0", "p4"], "rounds": [2, 3]}]
    assert frozenset(("p0", "p4")) in pairs(field({"forbidden": limited}), 1)
    event = field({"forbidden": limited})
    assert validate_event(event, "e.toml") == []
    text = export_event(event)
    assert "260   2   3    1    5" in text.splitlines()
    tournament = parse_trf(text, "r.trf")
    assert tournament.forbidden == (((1, 5), (2, 3)),)
    assert state_from_trf(text, 1).forbidden == ()
    assert state_from_trf(text, 2).forbidden == (frozenset((1, 5)),)
    files, _ = event_files(tournament, "r.trf", "r")
    assert ('forbidden = [{ players = ["player-0", "player-4"], rounds = [2, 3] }]'
            in files["event.toml"])
    bad = validate_event(field({"forbidden": [{"players": ["p0", "p4"], "rounds": [4, 2]}]}),
                         "e.toml")
    assert any("'rounds' must be the first and last round" in p.message for p in bad)


def test_check_names_a_round_file_pairing_players_kept_apart() -> None:
    from standgen.audit import audit

    event = make_event([Player(id=f"p{k}", name=f"P{k}", rating=2000.0 - k) for k in range(4)],
                       [[("p0", "p1", "1-0"), ("p2", "p3", "draw")]], fmt="swiss")
    event = replace(event, config=replace(event.config, options={"forbidden": [["p0", "p1"]]}))
    (warning,) = audit(event)
    assert "'p0' and 'p1' are kept apart by [options] forbidden in round 1" in warning.message
