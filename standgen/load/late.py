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
from pathlib import PurePosixPath

from standgen.diplomacy.games import ABSENT as ABSENT_RESULT
from standgen.errors import Problem
from standgen.formats.base import Format
from standgen.model import Game, GameKind, Outcome, Player, Round, RoundState, Seat, Source


def complete_rounds(
    rounds: Sequence[Round], players: Sequence[Player], fmt: Format, players_path: str,
    problems: list[Problem], cut_from: int | None = None,
) -> tuple[tuple[Round, ...], tuple[Player, ...]]:
    """Return the rounds with an absence for every player who had not joined yet, and the
    players with their ``joined`` round settled; record each player missing from a round
    they are in or in a round they are not in, and a warning for each late entry found
    without a ``joined`` value.

    ``joined`` = 0 on a player means "not given": the round of the player's first row,
    or else the first round without a result entered (a round paired and not started
    takes the newcomer once it is paired again). In a round paired and not started
    (:attr:`~standgen.model.RoundState.PAIRED`) a newcomer left out or a dropped player
    still seated is a warning that names ``standgen pair --redo``, the action that
    settles it (docs/running-an-event.md, "Round states"); in a started round it is an
    error. Rounds from ``cut_from`` on are a cut's (issue #31): only its players play
    them, so nobody is missing from them.
    """
    present = [{pid for game in rnd.games for pid in game.players} for rnd in rounds]
    after_last = (rounds[-1].number if rounds else 0) + 1
    if rounds and rounds[-1].state is RoundState.PAIRED:
        after_last -= 1
    settled = tuple(_settle_joined(player, rounds, present, after_last, players_path, problems)
                    for player in players)
    done = tuple(_complete_round(rnd, ids, settled, fmt, problems, cut_from)
                 for rnd, ids in zip(rounds, present, strict=True))
    return done, settled


def _not_dropped_by(player: Player, number: int) -> bool:
    """Return whether ``player`` had not dropped before round ``number``."""
    return player.dropped_after is None or player.dropped_after >= number


def _settle_joined(player: Player, rounds: Sequence[Round], present: Sequence[set[str]],
                   after_last: int, players_path: str, problems: list[Problem]) -> Player:
    """Return ``player`` with ``joined`` settled: when not given, the round of their first
    row (else ``after_last``), with a warning for a late entry found that way."""
    if player.joined:
        return player
    joined = next((rnd.number for rnd, ids in zip(rounds, present, strict=True)
                   if player.id in ids), after_last)
    if joined > 1 and _not_dropped_by(player, joined):
        before = "round 1" if joined == 2 else f"rounds 1-{joined - 1}"
        problems.append(Problem(players_path, player.source.line, f"player "
                                f"'{player.id}' has no row before round {joined}: a "
                                f"late entry, absent in {before}; write {joined} in "
                                "the 'joined' column to say so", warning=True))
    return replace(player, joined=joined)


def _complete_round(rnd: Round, ids: set[str], settled: Sequence[Player], fmt: Format,
                    problems: list[Problem], cut_from: int | None) -> Round:
    """Return ``rnd`` with an absence for each player who had not joined yet; record each
    player seated who is not in the round, and each missing who is (not in a cut's round)."""
    extra: list[Game] = []
    table = max((game.table for game in rnd.games), default=0)
    paired = rnd.state is RoundState.PAIRED
    before_cut = cut_from is None or rnd.number < cut_from
    for player in settled:
        if player.id in ids:
            if not player.active_in(rnd.number):
                problems.append(_seated(rnd, player, paired))
        elif player.joined > rnd.number and _not_dropped_by(player, rnd.number):
            table += 1
            extra.append(_absence(rnd, table, player.id, fmt))
        elif player.active_in(rnd.number) and before_cut:
            problems.append(Problem(rnd.source.path, 1, _missing(player, rnd, fmt, paired),
                                    warning=paired))
    return replace(rnd, games=rnd.games + tuple(extra)) if extra else rnd


def _seated(rnd: Round, player: Player, paired: bool) -> Problem:
    """Return the problem of a player seated in a round they are not in (dropped, or
    not joined yet), at their game's line: a warning in a round not started yet."""
    line = next(g.source.line for g in rnd.games if player.id in g.players)
    return Problem(rnd.source.path, line or 1, not_in_round(player, rnd, paired),
                   warning=paired)


def redo_hint(rnd: Round) -> str:
    """Return the command that pairs ``rnd`` (a round file) again, for messages."""
    folder = PurePosixPath(rnd.source.path).parent
    return f"standgen pair {folder} --redo {rnd.number}"


def _absence(rnd: Round, table: int, pid: str, fmt: Format) -> Game:
    if fmt.seats > 2:
        seat = Seat(pid, Outcome.LOSS, result=ABSENT_RESULT)
    else:
        seat = Seat(pid, fmt.absent_outcome)
    return Game(rnd.number, table, (seat,), GameKind.ABSENT, source=Source(rnd.source.path))


def _missing(player: Player, rnd: Round, fmt: Format, paired: bool) -> str:
    if paired:
        return (f"player '{player.id}' ({player.source}) is not in round {rnd.number}, "
                "which is paired and not started: run "
                f"{redo_hint(rnd)} to pair it again with them (or write "
                f"{rnd.number + 1} in their 'joined' column if they start next round)")
    if fmt.seats > 2:
        return (f"player '{player.id}' ({player.source}) is missing from this round; seat "
                "them on a board, add a row with power SITOUT or ABSENT, or set dropped_after "
                "in players.csv")
    return (f"player '{player.id}' ({player.source}) is missing from this round; add them to "
            "a table, as BYE or ABSENT, or set dropped_after in players.csv")


def not_in_round(player: Player, rnd: Round, paired: bool = False) -> str:
    """Return why ``player`` may not have a row in ``rnd`` (dropped or not joined), and
    what to do: in a round paired and not started, pair it again."""
    number = rnd.number
    if player.joined > number:
        why = f"player '{player.id}' joined in round {player.joined} ({player.source})"
        fix = "remove the row or correct joined"
    else:
        why = (f"player '{player.id}' dropped after round {player.dropped_after} "
               f"({player.source})")
        fix = "remove the row or correct dropped_after"
    if paired:
        return (f"{why} but is paired in round {number}, which is not started: run "
                f"{redo_hint(rnd)} to pair it again without them")
    return f"{why} but is in round {number}; {fix}"
