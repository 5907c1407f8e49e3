"""Result codes and score values: the one table of each (data contract section 1).

A round file's ``result`` cell holds a code of :data:`RESULTS` (or, on a ``BYE`` or
``ABSENT`` row, of :data:`UNPLAYED_RESULTS`); the loader reads it, the site and the desk
write it back with :func:`result_code`, and a win, a draw and a loss share the game as
:data:`SHARE` says. Every floor above reads these from here, so a new spelling or a new
code is one line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from standgen.model import GameKind, Outcome

# code -> (seat 1's outcome, seat 2's outcome, how the game was decided)
RESULTS: Mapping[str, tuple[Outcome, Outcome, GameKind]] = MappingProxyType({
    "1-0": (Outcome.WIN, Outcome.LOSS, GameKind.PLAYED),
    "0-1": (Outcome.LOSS, Outcome.WIN, GameKind.PLAYED),
    "draw": (Outcome.DRAW, Outcome.DRAW, GameKind.PLAYED),
    "½-½": (Outcome.DRAW, Outcome.DRAW, GameKind.PLAYED),
    "0.5-0.5": (Outcome.DRAW, Outcome.DRAW, GameKind.PLAYED),
    "+-": (Outcome.WIN, Outcome.LOSS, GameKind.FORFEIT),
    "-+": (Outcome.LOSS, Outcome.WIN, GameKind.FORFEIT),
    "--": (Outcome.LOSS, Outcome.LOSS, GameKind.FORFEIT),
})
# the other spellings of a draw, read but never written
DRAW_SPELLINGS = ("½-½", "0.5-0.5")
# the codes of a played game and of a forfeit, as the desk offers them
PLAYED_CODES = ("1-0", "0-1", "draw")
FORFEIT_CODES = ("+-", "-+", "--")
# a BYE or ABSENT row: the code -> what the one player is awarded
UNPLAYED_RESULTS: Mapping[str, Outcome] = MappingProxyType({
    "1-0": Outcome.WIN, "draw": Outcome.DRAW, "½-½": Outcome.DRAW, "0.5-0.5": Outcome.DRAW,
    "0-1": Outcome.LOSS,
})
ACCEPTED = "1-0, 0-1, draw (or ½-½, 0.5-0.5), +-, -+, -- or empty"
# the code a one-seat row (a bye, an absence) is written with
SINGLE_CODES: Mapping[Outcome, str] = MappingProxyType({
    Outcome.WIN: "1-0", Outcome.DRAW: "draw", Outcome.LOSS: "0-1",
})
OUTCOME_WORDS: Mapping[Outcome, str] = MappingProxyType({
    Outcome.WIN: "win", Outcome.DRAW: "draw", Outcome.LOSS: "loss",
})
# the share of a game's result a player scored: win 1, draw ½, loss 0 (FIDE C.04.1 e,
# the score of a chess game; the expected score of the Elo and Glicko ratings)
SHARE: Mapping[Outcome, float] = MappingProxyType({
    Outcome.WIN: 1.0, Outcome.DRAW: 0.5, Outcome.LOSS: 0.0,
})
# every dash a keyboard or a spreadsheet's autocorrect types, and the colon of "1:0"
_DASHES = re.compile("[:\u2010-\u2015\u2212\ufe58\ufe63\uff0d]")


def normalise_result(raw: str) -> str:
    """Return a result cell in its canonical spelling, as TOs and spreadsheets type it.

    Issue #19: spaces are dropped, any dash (hyphen, en dash, em dash, minus sign,
    full-width) and the colon of ``1:0`` read as ``-``, ``1/2`` and ``½`` (also with a
    decimal comma) read as ``0.5``, and ``Draw`` in any case as ``draw``. A spelling that
    is still not a result is returned as it was, for the loader's message.
    """
    text = "".join(raw.split())
    if text.lower() == "draw":
        return "draw"
    text = _DASHES.sub("-", text).replace("½", "0.5").replace("1/2", "0.5")
    text = text.replace("0,5", "0.5")
    if text in RESULTS or text in UNPLAYED_RESULTS:
        return text
    return raw


def result_code(outcomes: tuple[Outcome | None, ...], kind: GameKind) -> str:
    """Return the canonical code of a game with one or two seats ('' while unplayed, or
    when no code says it)."""
    if any(o is None for o in outcomes):
        return ""
    if len(outcomes) == 1:
        return SINGLE_CODES[outcomes[0]]  # type: ignore[index]
    for code, (a, b, k) in RESULTS.items():
        if (a, b) == outcomes and k is kind and code not in DRAW_SPELLINGS:
            return code
    return ""


def outcome_word(outcome: Outcome) -> str:
    """Return ``win``, ``draw`` or ``loss``."""
    return OUTCOME_WORDS[outcome]
