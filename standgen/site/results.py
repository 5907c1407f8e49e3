"""Result words of a game, as a round file writes them (data contract section 1)."""

from __future__ import annotations

from standgen.formats.base import Format
from standgen.model import EventConfig, Game, GameKind, Outcome, Player, Seat
from standgen.results import outcome_word as outcome_word  # re-exported: pages name it
from standgen.results import result_code
from standgen.site.i18n import _, ngettext
from standgen.site.numbers import display_number


def result_of(game: Game) -> str | None:
    """Return the game's result as a round file writes it, or None while it has none.

    Two seats: ``1-0``, ``0-1``, ``draw``; forfeits ``+-``, ``-+``, ``--``. A bye or an
    absence: what the player was awarded (``1-0``, ``draw``, ``0-1``). A multi-seat board:
    ``solo`` when a seat won, else ``draw`` when seats shared a draw, else ``complete``.
    """
    if not game.finished:
        return None
    outcomes = tuple(seat.outcome for seat in game.seats)
    if len(game.seats) <= 2:
        # a forfeit both sides drew (no round file writes one) still reads "draw"
        kind = GameKind.PLAYED if outcomes == (Outcome.DRAW, Outcome.DRAW) else game.kind
        return result_code(outcomes, kind) or "-".join(
            outcome_word(o) for o in outcomes if o is not None)
    if Outcome.WIN in outcomes:
        return "solo"
    if Outcome.DRAW in outcomes:
        return "draw"
    return "complete"


def seat_result(seat: Seat) -> str | None:
    """Return one seat's result word: the format's own (Diplomacy ``solo``) or win/draw/loss."""
    if seat.outcome is None:
        return None
    return _(seat.result or outcome_word(seat.outcome))


def table_result(game: Game, seat: Seat) -> str | None:
    """Return one seat's result word as a round page shows it: ``win (forfeit)`` for a
    game decided without play (issue #27: a forfeit printed as ``win``)."""
    word = seat_result(seat)
    if word is not None and game.kind is GameKind.FORFEIT:
        return _("{result} (forfeit)").format(result=word)
    return word


_BYE_SIZE = {0.0: "Zero-point", 0.5: "½", 1.0: "Full-point"}


def alone_label(game: Game, fmt: Format, config: EventConfig | None,
                player: Player | None) -> str:
    """Return how a round without an opponent reads, in the format's words: ``Bye``,
    ``Sits out`` (a board format), ``½ bye (requested)`` (FIDE's half-point bye, asked for
    in players.csv ``byes``) or ``Absent``; "" for a game."""
    if game.kind is GameKind.BYE:
        return _("Sits out") if fmt.seats > 2 else _("Bye")
    if game.kind is not GameKind.ABSENT:
        return ""
    if config is None or player is None or game.round not in player.byes or fmt.seats > 2:
        return _("Absent")
    seat = game.seats[0]
    if seat.outcome is None:
        return _("Bye (requested)")
    points = float(fmt.points(seat, game, config))
    size = _BYE_SIZE.get(points, f"{display_number(points)}-point")
    return f"{size} bye (requested)"


def points_words(points: float) -> str:
    """Return ``1 point``, ``½ point``, ``2.5 points``: what a round without a game gave."""
    if points == 0.5:
        return _("½ point")
    return ngettext("{n} point", "{n} points", 1 if points == 1 else 2).format(
        n=display_number(points))
