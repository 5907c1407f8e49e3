"""Diplomacy tiebreaks after ``centres``: best single game, solos, draws (the issue's list).

Registered in ``standgen.tiebreaks.TIEBREAKS`` under the ids ``best-game``, ``solos`` and
``draws``; each has a help page in ``docs/tiebreaks/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standgen.diplomacy.games import game_scores, is_board
from standgen.diplomacy.scoring import DRAW, SOLO
from standgen.diplomacy.systems import SYSTEMS
from standgen.tiebreaks.base import Context, Part, Tiebreak, Value, summed


def _options(ctx: Context) -> Mapping[str, Any]:
    return ctx.event.config.options


def best_game(ctx: Context, player: str) -> Value:
    """Return the player's best single game score under the event's scoring system.

    The issue's tiebreak "best single game". Under MCS the game score is the game points
    p (seed 001: solo 420, draw 420 / draw size); a sit-out is not a game.
    """
    system = SYSTEMS[str(_options(ctx).get("scoring", "mcs"))]
    parts = [
        Part(e.round, None, game_scores(e.game, system, _options(ctx))[player],
             note=f"board {e.game.table}", counted=False)
        for e in ctx.records[player].entries if is_board(e.game)
    ]
    if not parts:
        return Value(0.0, note="no game played")
    best = max(range(len(parts)), key=lambda k: (parts[k].value, -k))
    parts[best] = Part(parts[best].round, None, parts[best].value, parts[best].note)
    return Value(parts[best].value, tuple(parts), note="the best game counts")


def _count(result: str) -> Any:
    def compute(ctx: Context, player: str) -> Value:
        return summed([
            Part(e.round, None, 1.0, note=f"board {e.game.table}")
            for e in ctx.records[player].entries
            if is_board(e.game) and e.seat.result == result
        ])

    compute.__doc__ = (f"Return how many boards the player ended with result '{result}' "
                       "(the issue's tiebreaks 'number of solos', 'number of draws').")
    return compute


BEST_GAME = Tiebreak("best-game", "Best single game", "Best", best_game)
SOLOS = Tiebreak("solos", "Solos", "Solos", _count(SOLO))
DRAWS = Tiebreak("draws", "Draws", "Draws", _count(DRAW))

DIPLOMACY_TIEBREAKS = (BEST_GAME, SOLOS, DRAWS)
