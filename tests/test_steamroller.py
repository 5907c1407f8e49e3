"""The Steamroller format (seed 004): rounds, scoring, clear winner, standings order."""

from __future__ import annotations

import pytest

from standgen.formats.steamroller import planned_rounds
from standgen.pipeline import report
from standgen.standings import compute_standings
from tests.build import make_event, player


@pytest.mark.parametrize(
    ("players", "rounds"),
    [(2, 3), (8, 3), (9, 4), (16, 4), (17, 5), (32, 5), (33, 6), (64, 6), (65, 7),
     (128, 7), (129, 8), (1000, 8)],
)
def test_planned_rounds_by_player_count(players: int, rounds: int) -> None:
    """Seed 004 "Steamroller Rules": <= 8: 3, 9-16: 4, 17-32: 5; then doubling."""
    event = make_event([f"p{k}" for k in range(players)], [])
    assert planned_rounds(players, event.config) == rounds
    assert compute_standings(event).planned_rounds == rounds


def test_rounds_in_event_toml_override_the_player_count() -> None:
    event = make_event([f"p{k}" for k in range(6)], [], rounds=5)
    assert compute_standings(event).planned_rounds == 5


def test_points_win_1_loss_0_draw_0_forfeit_win_1_bye_1() -> None:
    """Seed 004: "1 tournament point for a win and 0 for a loss or draw"; a bye 1 TP."""
    rows = [[("a", "b", "1-0"), ("c", "d", "draw"), ("e", "f", "+-"), ("g", "BYE", "")]]
    standings = compute_standings(make_event("abcdefg", rows, rounds=3))
    scores = {row.player.id: row.score for row in standings.rows}
    assert scores == {"a": 1, "b": 0, "c": 0, "d": 0, "e": 1, "f": 0, "g": 1}


def _three_rounds(last: str) -> object:
    rows = [
        [("a", "b", "1-0"), ("c", "d", "1-0")],
        [("a", "c", last), ("b", "d", "1-0")],
    ]
    return make_event("abcd", rows, rounds=3)


def test_clear_winner_ends_the_event_early() -> None:
    """Seed 004: "Once a clear winner emerges, the event ends without additional matches"."""
    done = report(_three_rounds("1-0"))  # type: ignore[arg-type]
    assert done.standings.finished
    assert done.proposal is None


def test_no_clear_winner_means_the_next_round_is_proposed() -> None:
    rows = [[("a", "b", "1-0"), ("c", "d", "1-0"), ("e", "f", "1-0"), ("g", "h", "1-0")]]
    r = report(make_event("abcdefgh", rows))
    assert not r.standings.finished
    assert r.proposal is not None and r.proposal.round.number == 2


def test_clear_winner_option_off_plays_every_round() -> None:
    rows = [
        [("a", "b", "1-0"), ("c", "d", "1-0")],
        [("a", "c", "1-0"), ("b", "d", "1-0")],
    ]
    event = make_event("abcd", rows, rounds=3, options={"clear_winner": False})
    r = report(event)
    assert not r.standings.finished
    assert r.proposal is not None and r.proposal.round.number == 3


def test_never_more_rounds_than_planned() -> None:
    rows = [[("a", "b", "1-0"), ("c", "d", "1-0")], [("a", "c", "0-1"), ("b", "d", "1-0")]]
    r = report(make_event("abcd", rows, rounds=2))
    assert r.standings.finished and r.proposal is None


def test_default_order_tp_then_sos_then_cp_then_apd_and_shared_ranks() -> None:
    """Seed 004: SoS first; "If this number is the same ... the most control points"."""
    rows = [[
        ("a", "b", "1-0", {"cp": (3, 0), "apd": (50, 10)}),
        ("c", "d", "1-0", {"cp": (3, 0), "apd": (50, 10)}),
        ("e", "f", "1-0", {"cp": (5, 0), "apd": (10, 10)}),
        ("g", "h", "1-0", {"cp": (5, 0), "apd": (10, 10)}),
    ]]
    standings = compute_standings(make_event("abcdefgh", rows))
    ranks = [(row.rank, row.player.id) for row in standings.rows]
    # all winners have SoS 0; e, g lead on CP; a, c tie on everything -> share rank 3
    assert ranks[:4] == [(1, "e"), (1, "g"), (3, "a"), (3, "c")]
    assert standings.tiebreaks == ("sos", "cp", "apd")


def test_configured_chain_is_used() -> None:
    rows = [[("a", "b", "1-0", {"cp": (1, 0), "apd": (90, 0)}),
             ("c", "d", "1-0", {"cp": (5, 0), "apd": (10, 0)})]]
    event = make_event("abcd", rows, tiebreaks=("apd", "cp"))
    standings = compute_standings(event)
    assert [row.player.id for row in standings.rows][:2] == ["a", "c"]
    assert standings.tiebreaks == ("apd", "cp")


def test_dropped_player_is_ranked_and_not_paired_again() -> None:
    rows = [[("a", "b", "1-0"), ("c", "d", "1-0"), ("e", "f", "1-0")]]
    event = make_event(["a", "b", "c", "d", "e", player("f", dropped_after=1)], rows)
    r = report(event)
    assert r.standings.row("f") is not None
    assert r.proposal is not None
    paired = {p for g in r.proposal.round.games for p in g.players}
    assert paired == set("abcde")
    byes = [g for g in r.proposal.round.games if len(g.seats) == 1]
    assert len(byes) == 1 and byes[0].players[0] in {"b", "d"}  # lowest TP
