"""The model's boards as the scoring systems see them, and each seat's game score."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standgen.diplomacy.scoring import Board, BoardSeat, ScoringSystem
from standgen.model import Game, GameKind, Seat

SITOUT = "sitout"  # Seat.result of a sit-out (a one-seat game of kind BYE)
ABSENT = "absent"  # Seat.result of an absence (a one-seat game of kind ABSENT)


def is_board(game: Game) -> bool:
    """Return whether ``game`` is a board played over the table (not a sit-out)."""
    return game.kind is GameKind.PLAYED and len(game.seats) > 1


def board_of(game: Game) -> Board:
    """Return a finished board's seats as the scoring systems read them."""
    return tuple(board_seat(seat) for seat in game.seats)


def board_seat(seat: Seat) -> BoardSeat:
    """Return one seat as a :class:`BoardSeat` (missing centres count 0)."""
    year = seat.stats.get("eliminated_year")
    last = seat.stats.get("end_year")
    return BoardSeat(seat.power, int(seat.stats.get("centres", 0)), seat.result,
                     None if year is None else int(year), None if last is None else int(last))


def game_scores(game: Game, system: ScoringSystem, options: Mapping[str, Any]) -> dict[str, float]:
    """Return each player's game score on a finished board (MCS: the game points p)."""
    scores = system.score(board_of(game), options)
    return {seat.player: score for seat, score in zip(game.seats, scores, strict=True)}
