"""What ``pair``, ``drop`` and ``bye`` may do in each state of the current round (issue
#27): the table of docs/running-an-event.md, "Round states", for :mod:`standgen.eventday`'s
commands.

A round is *paired* (its file written, no result entered), *started* (some results) or
*complete* (:class:`~standgen.model.RoundState`). Each function here applies one line
of that table: it refuses the action with the reason and the command that works
(:class:`~standgen.errors.InputError`, ``path:line: what is wrong, what to do``), or
returns what the TO reads on the command line.
"""

from __future__ import annotations

from pathlib import Path

from standgen.audit import over_before_paired_round
from standgen.errors import InputError, Problem
from standgen.load.files import display
from standgen.model import Event, Game, GameKind, Round, RoundState


def check_redo(event_dir: Path, event: Event, last: Round | None, redo: int) -> None:
    """Raise InputError unless round ``redo`` can be paired again: only the last round
    file, only while it holds no result, and only when the rounds before it do not end
    the event (docs/running-an-event.md, "Round states": ``pair --redo N``)."""
    where = display(event_dir / "event.toml")
    if last is None or redo != last.number:
        now = (f"round {last.number} is the last round file" if last
               else "no round is paired yet")
        raise InputError([Problem(where, 1, f"--redo {redo}: only the last round file "
                                  f"can be paired again and {now}; run standgen pair "
                                  f"{display(event_dir)}" + (f" --redo {last.number}"
                                                             if last else ""))])
    if last.state is not RoundState.PAIRED:
        raise InputError([Problem(display(Path(last.source.path)), 1, f"round {redo} "
                                  "holds results; pair it again only before any result "
                                  "is entered (clear them first)")])
    ended = over_before_paired_round(event)
    if ended:  # the rounds before it now end the event: say both ways on (issue #27)
        raise InputError([Problem(display(Path(last.source.path)), 1,
                                  f"round {redo} cannot be paired again: {ended}")])


def check_not_paired(event_dir: Path, last: Round | None) -> None:
    """Raise InputError when the last round is paired and holds no result yet: ``pair``
    never writes over a round file; ``pair --redo`` pairs it again
    (docs/running-an-event.md, "Round states")."""
    if last is not None and last.state is RoundState.PAIRED:
        raise InputError([Problem(display(Path(last.source.path)), 1, f"round {last.number} is "
                                  "already paired and has no results yet; enter results, or "
                                  f"run standgen pair {display(event_dir)} --redo "
                                  f"{last.number} to pair it again")])


def refuse_unfinished(last: Round) -> None:
    """Raise InputError naming the tables of ``last`` without a result: the next round
    is paired after every result is in, unless the TO forces it
    (docs/running-an-event.md, "Round states")."""
    missing = [str(g.table) for g in last.games if not g.finished]
    raise InputError([Problem(display(Path(last.source.path)), 1, f"round {last.number} has "
                              f"games without results (table {', '.join(missing)}); enter "
                              "them first, or use --force to pair anyway")])


def seat_of(rnd: Round, player_id: str) -> Game | None:
    """Return the game of ``rnd`` in which the player sits, or None."""
    return next((g for g in rnd.games if player_id in g.players), None)


def refuse_bye_in_started_round(rnd: Round, player_id: str) -> None:
    """Refuse a bye for a round that has started: a bye is asked for before a round is
    paired or started (players.csv ``byes``); a player who does not play loses by forfeit."""
    game = seat_of(rnd, player_id)
    where = f" at table {game.table}" if game is not None else ""
    raise InputError([Problem(rnd.source.path, game.source.line if game else 1,
                              f"round {rnd.number} has started; a bye is asked for "
                              f"before a round is paired or started. If '{player_id}' "
                              f"does not play{where}, enter their game as lost by "
                              "forfeit (-+ when they are player_1, +- when player_2)")])


def in_paired_round(event: Event, event_dir: Path, player_id: str, at: str) -> str:
    """Say what a drop or a bye means for the round paired and not started in which the
    player sits (``event`` as loaded after the change): ``pair --redo`` pairs it again
    without them, unless the rounds before it now end the event (issue #27)."""
    last = event.rounds[-1]
    head = f"Round {last.number} is paired and not started, with {player_id} at {at}"
    ended = over_before_paired_round(event)
    if ended:
        return f"{head}; but {ended}"
    return (f"{head}; to pair it again without them run: standgen pair "
            f"{display(event_dir)} --redo {last.number}")


def default_drop_round(event: Event, player_id: str) -> int:
    """Return the round a drop is after by default: the last round with a result
    entered in which the player sits (a round paired and not started does not count:
    ``pair --redo`` takes them out of it), or the round started, when they sit in it
    (docs/running-an-event.md, "Round states": ``drop``)."""
    last = event.rounds[-1] if event.rounds else None
    after = max((r.number for r in event.rounds if r.state is not RoundState.PAIRED
                 and seat_of(r, player_id) is not None), default=0)
    if last is not None and last.state is RoundState.STARTED and seat_of(
            last, player_id) is not None:
        after = last.number
    return after


def dropped_before(event: Event, event_dir: Path, player_id: str, last: Round) -> list[str]:
    """Return what dropping the player before ``last`` (the last round, in which they
    may sit) means: in a round paired and not started, ``pair --redo`` pairs it again
    without them; a round with results keeps them, so the drop is refused
    (docs/running-an-event.md, "Round states": ``drop``)."""
    game = seat_of(last, player_id)
    if game is None or game.kind is GameKind.ABSENT:
        return []
    if last.state is RoundState.PAIRED:
        return [in_paired_round(event, event_dir, player_id, f"table {game.table}")]
    raise InputError([Problem(last.source.path, game.source.line or 1,
                              f"'{player_id}' has a row in round {last.number}, "
                              "which has results; drop them after round "
                              f"{last.number} (--after {last.number})")])


def forfeit_to_enter(last: Round, player_id: str) -> list[str]:
    """Return the result to enter for the player's game without a result in ``last``,
    the started round they drop after: the format's forfeit win for the opponent, ``-+``
    when they are player_1, ``+-`` when player_2 (docs/running-an-event.md, "Round
    states": ``drop`` in a started round); none for a board of more than two seats."""
    game = seat_of(last, player_id)
    if game is None or game.finished or len(game.seats) != 2:
        return []
    first = game.seats[0].player == player_id
    code, other = ("-+", game.seats[1].player) if first else ("+-", game.seats[0].player)
    return [f"{player_id}'s game at table {game.table} of round {last.number} has "
            f"no result: enter {code} there (a forfeit win for {other}), or the "
            "result they played"]
