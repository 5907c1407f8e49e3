"""Tiebreaks over a player's own results: the primary score, wins, and stat sums."""

from __future__ import annotations

from typing import TYPE_CHECKING

from standgen.model import GameKind, Outcome
from standgen.tiebreaks import columns
from standgen.tiebreaks.base import ComputeFn, Context, Part, Tiebreak, Value, from_items

if TYPE_CHECKING:
    from standgen.records import Entry


def _kind_note(entry: Entry) -> str:
    return entry.kind.value if not entry.played else ""


def score(ctx: Context, player: str) -> Value:
    """Return the format's primary score, one part per round (contract section 4, ``score``)."""
    return from_items(
        ctx.records[player].entries, _points,
        lambda e, v: Part(e.round, e.opponent, v, note=_kind_note(e)),
    )


def _points(entry: Entry) -> float:
    return entry.points


def _one(entry: Entry) -> float:
    return 1.0


def wins(ctx: Context, player: str) -> Value:
    """Return the rounds scored as wins, played or not (FIDE C.07 art. 7.1, WIN).

    Seed 004 scores a bye as a win (1 TP), so it counts here; so does a forfeit win.
    """
    return from_items(
        [e for e in ctx.records[player].entries if e.seat.outcome is Outcome.WIN], _one,
        lambda e, v: Part(e.round, e.opponent, v, note=_kind_note(e)),
    )


def won(ctx: Context, player: str) -> Value:
    """Return the games won over the board (FIDE C.07 art. 7.2, WON).

    Byes, absences and forfeit wins are not games won: only played games count.
    """
    return from_items(
        [e for e in ctx.records[player].entries
         if e.game.kind is GameKind.PLAYED and e.seat.outcome is Outcome.WIN], _one,
        lambda e, v: Part(e.round, e.opponent, v),
    )


def stat_sum(stat: str) -> ComputeFn:
    """Return a tiebreak function summing a per-seat stat column over the player's games."""

    def compute(ctx: Context, player: str) -> Value:
        return from_items(
            ctx.records[player].entries, lambda e: float(e.stats.get(stat, 0.0)),
            lambda e, v: Part(e.round, e.opponent, v, note=_kind_note(e)),
        )

    compute.__doc__ = f"Return the sum of the player's ``{stat}`` over every game."
    return compute


def vp_diff(ctx: Context, player: str) -> Value:
    """Return victory points scored minus conceded, one part per game.

    Data contract section 4 (``vp-diff``). The format's ``seat_stats`` decides a bye's
    VP (Old World: a bye scores as a crushing victory); a bye concedes nothing.
    """
    return from_items(
        ctx.records[player].entries,
        lambda e: float(e.stats.get("vp", 0.0)) - float(e.against.get("vp", 0.0)),
        lambda e, v: Part(e.round, e.opponent, v,
                          note=_diff_note(e.stats.get("vp", 0.0), e.against.get("vp", 0.0),
                                          _kind_note(e))),
    )


def _diff_note(scored: float, conceded: float, kind: str) -> str:
    note = f"{scored:g} - {conceded:g}"
    return f"{kind}: {note}" if kind else note


SCORE = Tiebreak("score", "Score", "Pts", score)
WINS = Tiebreak("wins", "Wins (played or not)", "W", wins, fast=columns.wins)
WON = Tiebreak("won", "Games won over the board", "Won", won, fast=columns.won)
VP = Tiebreak("vp", "Victory points", "VP", stat_sum("vp"))
VP_DIFF = Tiebreak("vp-diff", "Victory points difference", "VP±", vp_diff)
CENTRES = Tiebreak("centres", "Supply centres", "SC", stat_sum("centres"))
CP = Tiebreak("cp", "Control points", "CP", stat_sum("cp"))
APD = Tiebreak("apd", "Army points destroyed", "APD", stat_sum("apd"))
