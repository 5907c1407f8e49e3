"""Who is expected in each round: late entries, and players missing from a round.

Issue #19 ("late entry"): a player added after round N needs no made-up rows in the
earlier round files. A player with ``joined = K`` in players.csv, or simply a player with
no row in any round before K (a new row in players.csv), counts as absent in rounds
1 ... K-1: the loader adds an ``ABSENT`` game for them there (numbered after the round's
last table), so standings, tiebreaks and pages treat those rounds as the format treats
an absence. A player who has played and then has no row in a later round is still an
error (data contract section 1: "a player missing from a round is an error").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from standgen.diplomacy.games import ABSENT as ABSENT_RESULT
from standgen.errors import Problem
from standgen.formats.base import Format
from standgen.model import Game, GameKind, Outcome, Player, Round, Seat, Source


def complete_rounds(
    rounds: Sequence[Round], players: Sequence[Player], fmt: Format, players_path: str,
    problems: list[Problem],
) -> tuple[tuple[Round, ...], tuple[Player, ...]]:
    """Return the rounds with an absence for every player who had not joined yet, and the
    players with their ``joined`` round settled; record each player missing from a round
    they are in, and a warning for each late entry found without a ``joined`` value.

    ``joined`` = 0 on a player means "not given": the round of the player's first row,
    or the round after the last round file when they have none yet.
    """
    present = [{pid for game in rnd.games for pid in game.players} for rnd in rounds]
    after_last = (rounds[-1].number if rounds else 0) + 1
    settled: list[Player] = []
    for player in players:
        joined = player.joined
        if not joined:
            joined = next((rnd.number for rnd, ids in zip(rounds, present, strict=True)
                           if player.id in ids), after_last)
            if joined > 1 and (player.dropped_after is None or player.dropped_after >= joined):
                before = "round 1" if joined == 2 else f"rounds 1-{joined - 1}"
                problems.append(Problem(players_path, player.source.line, f"player "
                                        f"'{player.id}' has no row before round {joined}: a "
                                        f"late entry, absent in {before}; write {joined} in "
                                        "the 'joined' column to say so", warning=True))
        settled.append(replace(player, joined=joined))
    done: list[Round] = []
    for rnd, ids in zip(rounds, present, strict=True):
        extra: list[Game] = []
        table = max((game.table for game in rnd.games), default=0)
        for player in settled:
            if player.id in ids:
                continue
            if player.joined > rnd.number and (player.dropped_after is None
                                               or player.dropped_after >= rnd.number):
                table += 1
                extra.append(_absence(rnd, table, player.id, fmt))
            elif player.active_in(rnd.number):
                problems.append(Problem(rnd.source.path, 1, _missing(player, fmt)))
        done.append(replace(rnd, games=rnd.games + tuple(extra)) if extra else rnd)
    return tuple(done), tuple(settled)


def _absence(rnd: Round, table: int, pid: str, fmt: Format) -> Game:
    if fmt.seats > 2:
        seat = Seat(pid, Outcome.LOSS, result=ABSENT_RESULT)
    else:
        seat = Seat(pid, fmt.absent_outcome)
    return Game(rnd.number, table, (seat,), GameKind.ABSENT, source=Source(rnd.source.path))


def _missing(player: Player, fmt: Format) -> str:
    if fmt.seats > 2:
        return (f"player '{player.id}' ({player.source}) is missing from this round; seat "
                "them on a board, add a row with power SITOUT or ABSENT, or set dropped_after "
                "in players.csv")
    return (f"player '{player.id}' ({player.source}) is missing from this round; add them to "
            "a table, as BYE or ABSENT, or set dropped_after in players.csv")


def not_in_round(player: Player, number: int) -> str:
    """Return why ``player`` may not have a row in round ``number`` (dropped or not joined)."""
    if player.joined > number:
        return (f"player '{player.id}' joined in round {player.joined} ({player.source}) but "
                f"is in round {number}; remove the row or correct joined")
    return (f"player '{player.id}' dropped after round {player.dropped_after} "
            f"({player.source}) but is in round {number}; remove the row or correct "
            "dropped_after")
