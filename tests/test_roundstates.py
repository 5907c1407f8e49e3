"""The round-state table's lines as functions (standgen/roundstates.py, issue #30's split
of ``pair`` and ``drop``): docs/running-an-event.md, "Round states". The commands
themselves, in every state, are tests/test_round_states.py's; these check the lines on
their own, on every seat order."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from standgen.errors import InputError
from standgen.model import Game, Outcome, Round, Seat, Source
from standgen.roundstates import check_not_paired, forfeit_to_enter, refuse_unfinished

EVENT = Path("events/2026/open")
SOURCE = Source("events/2026/open/round-3.csv", 1)


def two_seat_round(first: str, second: str, table: int, result: bool = False) -> Round:
    outcomes = (Outcome.WIN, Outcome.LOSS) if result else (None, None)
    game = Game(3, table, (Seat(first, outcomes[0]), Seat(second, outcomes[1])),
                source=Source(SOURCE.path, table + 1))
    return Round(3, (game,), SOURCE)


@given(st.booleans(), st.integers(min_value=1, max_value=40))
def test_a_drop_in_a_started_round_names_the_forfeit_win_for_the_opponent(
        dropping_first: bool, table: int) -> None:
    """``drop`` in a started round: a game of theirs without a result is the opponent's
    forfeit win, ``-+`` when they are player_1, ``+-`` when player_2 (the table's
    "started" cell); the line names the table, the round and the opponent."""
    rnd = two_seat_round("ana", "ben", table)
    leaving, other = ("ana", "ben") if dropping_first else ("ben", "ana")
    (said,) = forfeit_to_enter(rnd, leaving)
    code = "-+" if dropping_first else "+-"
    assert f"enter {code} there (a forfeit win for {other})" in said
    assert f"table {table} of round 3" in said and said.startswith(f"{leaving}'s game")


def test_no_forfeit_to_enter_for_a_finished_game_a_board_or_a_player_not_seated() -> None:
    assert forfeit_to_enter(two_seat_round("ana", "ben", 1, result=True), "ana") == []
    assert forfeit_to_enter(two_seat_round("ana", "ben", 1), "cleo") == []
    board = Round(3, (Game(3, 1, tuple(Seat(p) for p in ("ana", "ben", "cleo"))),), SOURCE)
    assert forfeit_to_enter(board, "ana") == []


def test_pair_refuses_a_paired_round_and_names_redo() -> None:
    """``pair`` on a paired round: refused, with ``--redo N`` (the table's "paired"
    cell of ``pair EVENT``)."""
    with pytest.raises(InputError) as raised:
        check_not_paired(EVENT, two_seat_round("ana", "ben", 1))
    (problem,) = raised.value.problems
    assert "already paired and has no results yet" in problem.message
    assert problem.message.endswith("--redo 3 to pair it again")
    check_not_paired(EVENT, two_seat_round("ana", "ben", 1, result=True))  # complete: passes


def test_pair_before_every_result_names_the_tables_without_one() -> None:
    games = tuple(Game(3, t, (Seat(f"p{t}", Outcome.WIN if t % 2 else None),
                              Seat(f"q{t}", Outcome.LOSS if t % 2 else None)))
                  for t in range(1, 6))
    with pytest.raises(InputError) as raised:
        refuse_unfinished(Round(3, games, SOURCE))
    (problem,) = raised.value.problems
    assert "(table 2, 4)" in problem.message and "--force" in problem.message
