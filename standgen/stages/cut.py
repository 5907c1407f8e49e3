"""The cut after the Swiss: ``[options.cut]`` in event.toml, and who goes through.

Magic Tournament Rules 10.4: the players of a single-elimination cut are "paired based on
their final standings in the Swiss rounds". The issue's rules: who goes through (the top
N, or everyone with at least X points) with the tie at the cut line stated, the bracket
(single or double elimination), byes to the top seeds, and the Swiss tiebreaks stop
counting once the cut starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from standgen.formats.base import Option
from standgen.model import EventConfig

BRACKETS = ("single", "double")
TIES = ("tiebreaks", "score")
KEYS = ("after_round", "top", "min_score", "ties", "bracket", "third_place")
MAX_CUT = 128

CUT_OPTION = Option(
    "cut", dict, {},
    "The cut after the Swiss: after_round, top or min_score, ties, bracket, third_place "
    "(docs/stages.md).",
)


@dataclass(frozen=True)
class Cut:
    """``[options.cut]``: the Swiss ends after ``after_round``; then an elimination bracket."""

    after_round: int
    top: int = 0  # the top N of the Swiss standings go through ...
    min_score: float | None = None  # ... or everyone with at least this score
    ties: str = "tiebreaks"  # at the cut line: the standings order decides, or "score"
    bracket: str = "single"
    third_place: bool = False  # the semi-finals' losers play for third (single only)


def cut_of(config: EventConfig) -> Cut | None:
    """Return the event's cut, or None (load has checked ``[options.cut]``)."""
    table = config.options.get("cut")
    if not isinstance(table, Mapping) or not table:
        return None
    min_score = table.get("min_score")
    return Cut(
        after_round=int(table["after_round"]), top=int(table.get("top", 0)),
        min_score=None if min_score is None else float(min_score),
        ties=str(table.get("ties", "tiebreaks")), bracket=str(table.get("bracket", "single")),
        third_place=bool(table.get("third_place", False)),
    )


def cut_problems(table: Mapping[str, Any], rounds: int | None) -> list[tuple[str, str]]:
    """Return (key, what is wrong and what to do) for each problem of ``[options.cut]``."""
    if not table:
        return []
    found = [(key, f"[options.cut] has no key '{key}'; its keys are: " + ", ".join(KEYS))
             for key in table if key not in KEYS]
    after = table.get("after_round")
    if not _whole(after, 1, 99):
        found.append(("after_round", "[options.cut] after_round must be the last Swiss round, "
                      "a whole number from 1 to 99, e.g. after_round = 5"))
    found += _who_goes_through(table.get("top"), table.get("min_score"))
    found += _choices(table)
    if rounds is not None and isinstance(after, int) and _whole(after, 1, 99) and after >= rounds:
        found.append(("after_round", f"[options.cut] after_round {after} leaves no round for "
                      f"the cut: event.toml plans {rounds} rounds; raise 'rounds' (the Swiss "
                      "rounds and the cut's) or lower after_round"))
    return found


def _who_goes_through(top: object, min_score: object) -> list[tuple[str, str]]:
    """Return the problems of ``top`` and ``min_score``: exactly one of them, each valid."""
    found: list[tuple[str, str]] = []
    if (top is None) == (min_score is None):
        found.append(("options.cut", "[options.cut] needs one of top = N (the top N go "
                      "through) or min_score = X (everyone with at least X points)"))
    if top is not None and not _whole(top, 2, MAX_CUT):
        found.append(("top", f"[options.cut] top must be a whole number from 2 to {MAX_CUT}"))
    if min_score is not None and (isinstance(min_score, bool)
                                  or not isinstance(min_score, (int, float))):
        found.append(("min_score", "[options.cut] min_score must be a number of points"))
    return found


def _choices(table: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Return the problems of ``ties``, ``bracket`` and ``third_place`` (only beside a
    single-elimination bracket)."""
    found = [(key, f"[options.cut] {key} '{table[key]}' is unknown; use "
              + " or ".join(f'"{a}"' for a in allowed))
             for key, allowed in (("ties", TIES), ("bracket", BRACKETS))
             if key in table and table[key] not in allowed]
    third = table.get("third_place", False)
    if not isinstance(third, bool):
        found.append(("third_place", "[options.cut] third_place must be true or false"))
    elif third and table.get("bracket", "single") != "single":
        found.append(("third_place", "[options.cut] third_place is for a single-elimination "
                      "bracket; a double-elimination bracket places third itself"))
    return found


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def qualifiers(cut: Cut, order: Sequence[str], scores: Mapping[str, float],
               ranks: Mapping[str, int]) -> tuple[str, ...]:
    """Return the players who go through, best Swiss rank first (their seeds 1, 2, ...).

    ``order``: the Swiss standings after ``after_round``, best first, with ``ranks`` (equal
    ranks: tied on score and every tiebreak) and ``scores``. ``top = N``: the first N;
    ``min_score = X``: everyone with at least X. At the cut line, ``ties = "tiebreaks"``
    (the default) lets the standings order decide, as MTR 10.4 seeds by the final
    standings; players still tied on every tiebreak with the last one in all go through;
    ``ties = "score"`` takes everyone level on score with the last one in.
    """
    if cut.min_score is not None:
        return tuple(p for p in order if scores[p] >= cut.min_score - 1e-9)
    chosen = list(order[:cut.top])
    if not chosen:
        return ()
    last = chosen[-1]
    for pid in order[cut.top:]:
        level = (abs(scores[pid] - scores[last]) < 1e-9 if cut.ties == "score"
                 else ranks[pid] == ranks[last])
        if not level:
            break
        chosen.append(pid)
    return tuple(chosen)
