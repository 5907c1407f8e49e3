"""Tiebreaks over a player's own results: the primary score, wins, and stat sums."""

from __future__ import annotations

from standgen.model import GameKind, Outcome
from standgen.tiebreaks.base import ComputeFn, Context, Part, Tiebreak, Value, summed_lazily


def score(ctx: Context, player: str) -> Value:
    """Return the format's primary score, one part per round (contract section 4, ``score``)."""
    entries = ctx.records[player].entries
    return summed_lazily(
        lambda: sum(e.points for e in entries),
        lambda: [
            Part(e.round, e.opponent, e.points, note=e.kind.value if not e.played else "")
            for e in entries
        ],
    )


def wins(ctx: Context, player: str) -> Value:
    """Return the rounds scored as wins, played or not (FIDE C.07 art. 7.1, WIN).

    Seed 004 scores a bye as a win (1 TP), so it counts here; so does a forfeit win.
    """
    entries = ctx.records[player].entries
    return summed_lazily(
        lambda: sum(1.0 for e in entries if e.seat.outcome is Outcome.WIN),
        lambda: [
            Part(e.round, e.opponent, 1.0, note=e.kind.value if not e.played else "")
            for e in entries
            if e.outcome is Outcome.WIN
        ],
    )


def won(ctx: Context, player: str) -> Value:
    """Return the games won over the board (FIDE C.07 art. 7.2, WON).

    Byes, absences and forfeit wins are not games won: only played games count.
    """
    entries = ctx.records[player].entries
    return summed_lazily(
        lambda: sum(1.0 for e in entries
                    if e.game.kind is GameKind.PLAYED and e.seat.outcome is Outcome.WIN),
        lambda: [
            Part(e.round, e.opponent, 1.0)
            for e in entries
            if e.played and e.outcome is Outcome.WIN
        ],
    )


def stat_sum(stat: str) -> ComputeFn:
    """Return a tiebreak function summing a per-seat stat column over the player's games."""

    def compute(ctx: Context, player: str) -> Value:
        entries = ctx.records[player].entries
        return summed_lazily(
            lambda: sum(float(e.stats.get(stat, 0.0)) for e in entries),
            lambda: [
                Part(e.round, e.opponent, float(e.stats.get(stat, 0.0)),
                     note=e.kind.value if not e.played else "")
                for e in entries
            ],
        )

    compute.__doc__ = f"Return the sum of the player's ``{stat}`` over every game."
    return compute


def vp_diff(ctx: Context, player: str) -> Value:
    """Return victory points scored minus conceded, one part per game.

    Data contract section 4 (``vp-diff``). The format's ``seat_stats`` decides a bye's
    VP (Old World: a bye scores as a crushing victory); a bye concedes nothing.
    """
    entries = ctx.records[player].entries
    return summed_lazily(
        lambda: sum(float(e.stats.get("vp", 0.0)) - float(e.against.get("vp", 0.0))
                    for e in entries),
        lambda: [
            Part(e.round, e.opponent,
                 float(e.stats.get("vp", 0.0)) - float(e.against.get("vp", 0.0)),
                 note=_diff_note(e.stats.get("vp", 0.0), e.against.get("vp", 0.0),
                                 "" if e.played else e.kind.value))
            for e in entries
        ],
    )


def _diff_note(scored: float, conceded: float, kind: str) -> str:
    note = f"{scored:g} - {conceded:g}"
    return f"{kind}: {note}" if kind else note


SCORE = Tiebreak("score", "Score", "Pts", score)
WINS = Tiebreak("wins", "Wins (played or not)", "W", wins)
WON = Tiebreak("won", "Games won over the board", "Won", won)
VP = Tiebreak("vp", "Victory points", "VP", stat_sum("vp"))
VP_DIFF = Tiebreak("vp-diff", "Victory points difference", "VP±", vp_diff)
CENTRES = Tiebreak("centres", "Supply centres", "SC", stat_sum("centres"))
CP = Tiebreak("cp", "Control points", "CP", stat_sum("cp"))
APD = Tiebreak("apd", "Army points destroyed", "APD", stat_sum("apd"))
