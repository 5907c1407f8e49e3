"""The tiebreak interface: each tiebreak returns a value and how it was summed.

A tiebreak is one module that builds a :class:`Tiebreak` and one line in
``standgen.tiebreaks.TIEBREAKS``. How byes, forfeits, drops and unplayed rounds count
is the format's :class:`TiebreakPolicy`, never a special case inside a tiebreak.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from standgen.model import Event
from standgen.records import Record


@dataclass(frozen=True)
class TiebreakPolicy:
    """How a format wants unplayed rounds treated by opponent-based tiebreaks.

    ``bye_is_opponent``: False means a bye or absence adds nothing to SoS-like sums
    (Steamroller, seed 004: a bye "sits out"). True with ``dummy_opponent`` means FIDE
    C.07 art. 16: each unplayed round counts as a game against a virtual opponent.
    ``forfeit_is_opponent``: whether a forfeit's opponent counts as an opponent.
    """

    bye_is_opponent: bool = False
    forfeit_is_opponent: bool = True
    dummy_opponent: bool = False
    extra: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Part:
    """One contribution to a tiebreak value: the round, the opponent (None: no opponent)."""

    round: int
    opponent: str | None
    value: float
    note: str = ""  # "bye", "forfeit", "cut", "dropped after R2" ...
    counted: bool = True  # False for a contribution a cut removed (shown struck out)


@dataclass(frozen=True)
class Value:
    """A tiebreak's value for one player, with its breakdown."""

    value: float
    parts: tuple[Part, ...] = ()
    note: str = ""  # how the parts combine when not a plain sum ("÷ 6 rounds")


@dataclass(frozen=True)
class Context:
    """What a tiebreak may look at: the event, the format's points and policy, every record."""

    event: Event
    records: Mapping[str, Record]
    policy: TiebreakPolicy
    rounds_counted: int  # rounds whose games standings count
    planned_rounds: int
    scores: Mapping[str, float]  # each player's primary score, computed once
    memo: dict[str, Mapping[str, float]] = field(default_factory=dict, compare=False, repr=False)

    def every(self, key: str, compute: ComputeFn) -> Mapping[str, float]:
        """Return every player's value of ``compute``, computed once per context.

        For tiebreaks over opponents' tiebreaks (SOSOS, cumulative SoS).
        """
        if key not in self.memo:
            self.memo[key] = {pid: compute(self, pid).value for pid in self.records}
        return self.memo[key]

    def score(self, player: str) -> float:
        return self.scores[player]

    def name(self, player: str) -> str:
        return self.records[player].player.name


ComputeFn = Callable[[Context, str], Value]
GroupFn = Callable[[Context, str, frozenset[str]], Value]


@dataclass(frozen=True)
class Tiebreak:
    """A registry entry: id (contract section 4), label, help page, and the computation.

    ``group`` tiebreaks (direct encounter) are computed among the players still tied,
    so ``compute_group`` receives the tied group.
    """

    id: str
    label: str
    short: str  # column heading
    compute: ComputeFn
    help: str = ""  # slug of docs/tiebreaks/<help>.md; defaults to the id
    compute_group: GroupFn | None = None

    @property
    def page(self) -> str:
        return self.help or self.id


def summed(parts: list[Part], note: str = "") -> Value:
    """Return a Value that is the sum of the counted parts."""
    return Value(value=sum(p.value for p in parts if p.counted), parts=tuple(parts), note=note)
