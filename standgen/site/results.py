"""Result words of a game, as a round file writes them (data contract section 1)."""

from __future__ import annotations

from standgen.model import Game, GameKind, Outcome, Seat

_PLAYED = {
    (Outcome.WIN, Outcome.LOSS): "1-0",
    (Outcome.LOSS, Outcome.WIN): "0-1",
    (Outcome.DRAW, Outcome.DRAW): "draw",
}
_FORFEIT = {
    (Outcome.WIN, Outcome.LOSS): "+-",
    (Outcome.LOSS, Outcome.WIN): "-+",
    (Outcome.LOSS, Outcome.LOSS): "--",
    (Outcome.DRAW, Outcome.DRAW): "draw",
}
_SINGLE = {Outcome.WIN: "1-0", Outcome.DRAW: "draw", Outcome.LOSS: "0-1"}
_OUTCOME_WORD = {Outcome.WIN: "win", Outcome.DRAW: "draw", Outcome.LOSS: "loss"}


def result_of(game: Game) -> str | None:
    """Return the game's result as a round file writes it, or None while it has none.

    Two seats: ``1-0``, ``0-1``, ``draw``; forfeits ``+-``, ``-+``, ``--``. A bye or an
    absence: what the player was awarded (``1-0``, ``draw``, ``0-1``). A multi-seat board:
    ``solo`` when a seat won, else ``draw`` when seats shared a draw, else ``complete``.
    """
    if not game.finished:
        return None
    outcomes = tuple(seat.outcome for seat in game.seats)
    if len(game.seats) == 1:
        outcome = outcomes[0]
        assert outcome is not None
        return _SINGLE[outcome]
    if len(game.seats) == 2:
        table = _FORFEIT if game.kind is GameKind.FORFEIT else _PLAYED
        found = table.get((outcomes[0], outcomes[1]))  # type: ignore[arg-type]
        if found is not None:
            return found
        return "-".join(_OUTCOME_WORD[o] for o in outcomes if o is not None)
    if Outcome.WIN in outcomes:
        return "solo"
    if Outcome.DRAW in outcomes:
        return "draw"
    return "complete"


def seat_result(seat: Seat) -> str | None:
    """Return one seat's result word: the format's own (Diplomacy ``solo``) or win/draw/loss."""
    if seat.outcome is None:
        return None
    return seat.result or _OUTCOME_WORD[seat.outcome]


def table_result(game: Game, seat: Seat) -> str | None:
    """Return one seat's result word as a round page shows it: ``win (forfeit)`` for a
    game decided without play (issue #27: a forfeit printed as ``win``)."""
    word = seat_result(seat)
    if word is not None and game.kind is GameKind.FORFEIT:
        return f"{word} (forfeit)"
    return word


def outcome_word(outcome: Outcome) -> str:
    """Return ``win``, ``draw`` or ``loss``."""
    return _OUTCOME_WORD[outcome]
