"""The tiebreak interface: each tiebreak returns a value and how it was summed.

A tiebreak is one module that builds a :class:`Tiebreak` and one line in
``standgen.tiebreaks.TIEBREAKS``. How byes, forfeits, drops and unplayed rounds count
is the format's :class:`TiebreakPolicy`, never a special case inside a tiebreak.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from typing import Any, TypeVar

from standgen.model import EMPTY, Event, Game, GameKind, Outcome, Seat
from standgen.records import Entry, Record
from standgen.results import SHARE

UnplayedFn = Callable[["Context", str, "Entry"], "float | None"]
StartScoreFn = Callable[["Context", str], float]
OpponentScoreFn = Callable[["Context", str], float]
GameAdjustmentFn = Callable[["Context", str, "Entry"], "Adjustment | None"]
VoluntaryFn = Callable[["Entry"], bool]
T = TypeVar("T")


def voluntary_unplayed(entry: Entry) -> bool:
    """Return whether a round is a voluntary unplayed round (VUR).

    FIDE C.07 art. 16: half- and zero-point byes and absences (``ABSENT`` scored as a
    draw or nothing, and every round after a withdrawal) and forfeit losses are
    voluntary; a pairing-allocated bye (``BYE``), a full-point bye (``ABSENT`` scored
    ``1-0``) and a forfeit win are not.
    """
    if entry.kind in (GameKind.ABSENT, GameKind.FORFEIT):
        return entry.outcome is not Outcome.WIN
    return False


@dataclass(frozen=True)
class Adjustment:
    """A change one game makes to the opponent's score a player's SoS reads.

    ``value`` is added to the opponent's score for this game only (negative lowers it);
    ``note`` names why, for the breakdown: ``"handicap as White"`` shows as
    ``32 + 2 handicap as White``.
    """

    value: float
    note: str

    def text(self, score: float) -> str:
        """Return the adjusted score as the breakdown shows it: ``32 + 2 handicap as White``."""
        sign = "+" if self.value >= 0 else "−"
        return f"{score:g} {sign} {abs(self.value):g} {self.note}"


@dataclass(frozen=True)
class TiebreakPolicy:
    """How a format wants unplayed rounds treated by opponent-based tiebreaks.

    ``bye_is_opponent``: False means a bye or absence adds nothing to SoS-like sums
    (Steamroller, seed 004: a bye "sits out").
    ``forfeit_is_opponent``: whether a forfeit's opponent counts as an opponent. False
    makes a forfeit an unplayed round, as FIDE C.07 art. 16 does.
    ``dummy_opponent``: unplayed rounds count as games against a dummy opponent (FIDE
    C.07 art. 16.4); informational, the value comes from ``unplayed_opponent_score``.
    ``unplayed_opponent_score``: what an unplayed round (bye, absence, withdrawn round, a
    forfeit when ``forfeit_is_opponent`` is False) contributes to SoS / Buchholz as the
    score of its (virtual) opponent; None, or the function returning None, adds 0.
    ``unplayed_opponent_sos``: the same for SOSOS (the virtual opponent's SOS).
    ``opponent_score``: an opponent's score as opponent-based tiebreaks read it (FIDE
    art. 16.3 adjusts it for a withdrawn player); None reads the plain score. It depends
    on the opponent only, so :meth:`Context.opponent_value` computes it once per opponent.
    ``game_adjustment``: a change one game makes to that opponent score, for the player
    who played it (``game_adjustment(ctx, player, entry)``, None or an
    :class:`Adjustment`): OpenGotha's handicap correction of SOS in Go (McMahon). It is
    applied on top of ``opponent_score`` by SoS and its cuts and by SODOS /
    Sonneborn-Berger (so SOSOS reads adjusted SoS values), never to an unplayed round's
    virtual opponent; None (every format but McMahon) adjusts nothing.
    ``voluntary``: which unplayed rounds are voluntary (FIDE art. 16, VUR).
    ``cut_unplayed_first``: cut-1 / cut-2 cut voluntary unplayed rounds first (art. 16.5).
    ``missing_rounds_unplayed``: a round a player is missing from (withdrawn, dropped)
    counts as an unplayed, voluntary round scoring 0 (FIDE); False ignores it (Steamroller).
    ``edition``: the FIDE C.07 edition, ``"2023"`` or ``"2026"`` (event option
    ``fide_edition`` overrides it).
    ``win_points``, ``draw_points``: the format's points for a win and a draw (Koya's 50 %
    mark, FIDE's draw for a withdrawn player's later rounds).
    ``share_from_points``: Sonneborn-Berger / SODOS weigh an opponent by the points scored
    / ``win_points`` (FIDE: a half-point bye weighs ½ even when entered as a bye "won");
    False weighs by the outcome (win 1, draw ½, loss 0), whatever the format's points.
    """

    bye_is_opponent: bool = False
    forfeit_is_opponent: bool = True
    dummy_opponent: bool = False
    unplayed_opponent_score: UnplayedFn | None = None
    unplayed_opponent_sos: UnplayedFn | None = None
    # SODOS / Sonneborn-Berger weigh an unplayed round's virtual opponent too (FIDE);
    # OpenGotha's SODOS adds 0 for a bye or absence (False)
    defeated_counts_unplayed: bool = True
    # the score a player starts from, for the cumulative score (OpenGotha's CUSSM sums
    # the McMahon score after each round, starting score included); None starts at 0
    start_score: StartScoreFn | None = None
    opponent_score: OpponentScoreFn | None = None
    game_adjustment: GameAdjustmentFn | None = None
    voluntary: VoluntaryFn = voluntary_unplayed
    cut_unplayed_first: bool = False
    missing_rounds_unplayed: bool = False
    edition: str = "2026"
    win_points: float = 1.0
    draw_points: float = 0.5
    share_from_points: bool = False
    extra: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Part:
    """One contribution to a tiebreak value: the round, the opponent (None: no opponent)."""

    round: int
    opponent: str | None
    value: float
    note: str = ""  # "bye", "forfeit", "cut", "dropped after R2" ...
    counted: bool = True  # False for a contribution a cut removed (shown struck out)


class Value:
    """A tiebreak's value for one player, with its breakdown.

    ``parts`` is the breakdown, one :class:`Part` per contribution; ``note`` says how the
    parts combine when not a plain sum ("÷ 6 rounds"). Ranking reads only ``value``, and a
    breakdown is shown on one page, so the breakdown may come later: ``build`` makes the
    parts the first time they are read, ``source`` makes the whole value (parts and note)
    the first time either is read, when ``value`` came from elsewhere (the whole field's
    values at once, :mod:`standgen.tiebreaks.columns`). 4,096 players × 12 rounds × every
    tiebreak is about 300,000 parts and their notes, most of the cost of the standings,
    which ranking never reads. Read-only (its attributes are properties), and equal by
    value, parts and note, like the frozen dataclasses around it.
    """

    __slots__ = ("_value", "_note", "_parts", "_build", "_source")

    def __init__(
        self, value: float, parts: tuple[Part, ...] = (), note: str = "",
        build: Callable[[], Sequence[Part]] | None = None,
        source: Callable[[], Value] | None = None,
    ) -> None:
        self._value = value
        self._note = note
        self._parts = parts if type(parts) is tuple else tuple(parts)
        self._build = build
        self._source = source

    @property
    def value(self) -> float:
        """Return the tiebreak's value."""
        return self._value

    @property
    def parts(self) -> tuple[Part, ...]:
        """Return the breakdown, building it on first use."""
        if self._source is not None:
            self._resolve()
        build = self._build
        if build is not None:
            self._parts = tuple(build())
            self._build = None
        return self._parts

    @property
    def note(self) -> str:
        """Return how the parts combine when not a plain sum (``÷ 6 rounds``)."""
        if self._source is not None:
            self._resolve()
        return self._note

    def _resolve(self) -> None:
        assert self._source is not None
        whole = self._source()
        self._note = whole.note
        self._parts = whole.parts
        self._source = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Value):
            return NotImplemented
        return (self.value, self.parts, self.note) == (other.value, other.parts, other.note)

    def __hash__(self) -> int:
        return hash((self.value, self.parts, self.note))

    def __repr__(self) -> str:
        return f"Value(value={self.value!r}, parts={self.parts!r}, note={self.note!r})"

    def __reduce__(self) -> tuple[type[Value], tuple[float, tuple[Part, ...], str]]:
        return (Value, (self.value, self.parts, self.note))


@dataclass(frozen=True)
class Context:
    """What a tiebreak may look at: the event, the format's points and policy, every record."""

    event: Event
    records: Mapping[str, Record]
    policy: TiebreakPolicy
    rounds_counted: int  # rounds whose games standings count
    planned_rounds: int
    scores: Mapping[str, float]  # each player's primary score, computed once
    # share work between tiebreaks and use the whole-field fast paths (``Tiebreak.fast``);
    # False is the straightforward reference the equivalence tests compare with
    fast: bool = True
    memo: dict[str, Mapping[str, float]] = field(default_factory=dict, compare=False, repr=False)
    rounds_memo: dict[str, tuple[Entry, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    # player -> rounds they have a seat in (any game, finished or not), built once
    seated_memo: dict[str, frozenset[int]] = field(
        default_factory=dict, compare=False, repr=False
    )
    # per-player work several tiebreaks share ((what, player) -> result), see ``shared``
    shared_memo: dict[tuple[str, str], Any] = field(
        default_factory=dict, compare=False, repr=False
    )
    opponent_memo: dict[str, float] = field(default_factory=dict, compare=False, repr=False)

    def every(self, key: str, compute: ComputeFn) -> Mapping[str, float]:
        """Return every player's value of ``compute``, computed once per context.

        For tiebreaks over opponents' tiebreaks (SOSOS, cumulative SoS).
        """
        if key not in self.memo:
            self.memo[key] = {pid: compute(self, pid).value for pid in sorted(self.records)}
        return self.memo[key]

    def score(self, player: str) -> float:
        return self.scores[player]

    def opponent_value(self, opponent: str) -> float:
        """Return an opponent's score as opponent-based tiebreaks read it (the policy's)."""
        if self.policy.opponent_score is None:
            return self.scores[opponent]
        if not self.fast:
            return self.policy.opponent_score(self, opponent)
        value = self.opponent_memo.get(opponent)
        if value is None:
            value = self.opponent_memo[opponent] = self.policy.opponent_score(self, opponent)
        return value

    def shared(self, what: str, player: str, compute: Callable[[Context, str], T]) -> T:
        """Return ``compute(self, player)``, computed once per context for ``what``.

        For work several tiebreaks repeat (SoS and its cuts share the contributions).
        The result must not be mutated by callers.
        """
        if not self.fast:
            return compute(self, player)
        key = (what, player)
        if key not in self.shared_memo:
            self.shared_memo[key] = compute(self, player)
        return self.shared_memo[key]  # type: ignore[no-any-return]

    def name(self, player: str) -> str:
        return self.records[player].player.name

    def entries(self, player: str) -> tuple[Entry, ...]:
        """Return the player's rounds, with a withdrawn round as an unplayed 0 (policy).

        With ``missing_rounds_unplayed`` every counted round the player is in no game of
        (withdrawn, dropped) is an ``ABSENT`` round scoring 0 (FIDE C.07 art. 16: a
        withdrawal's rounds are voluntary unplayed rounds).
        """
        if player not in self.rounds_memo:
            entries = list(self.records[player].entries)
            if self.policy.missing_rounds_unplayed:
                have = {e.round for e in entries}
                # a player in every round so far is missing none (most of the field)
                if not (len(have) >= self.rounds_counted
                        and have.issuperset(range(1, self.rounds_counted + 1))):
                    entries.extend(self._missing(player, have))
                entries.sort(key=_round_of)
            self.rounds_memo[player] = tuple(entries)
        return self.rounds_memo[player]

    def _missing(self, player: str, have: set[int]) -> list[Entry]:
        seated: Set[int] = self._seated().get(player, frozenset())
        missing: list[Entry] = []
        for number in range(1, self.rounds_counted + 1):
            if number in have or number in seated:
                continue
            seat = Seat(player, Outcome.LOSS, result="withdrawn")
            game = Game(number, 0, (seat,), GameKind.ABSENT)
            missing.append(Entry(number, game, seat, (), 0.0, EMPTY, EMPTY))
        return missing

    def _seated(self) -> Mapping[str, frozenset[int]]:
        """Return each player's rounds with a seat, one pass over the rounds per context."""
        if not self.seated_memo and self.event.rounds:
            seated: dict[str, set[int]] = {}
            for rnd in self.event.rounds:
                for game in rnd.games:
                    for seat in game.seats:
                        seated.setdefault(seat.player, set()).add(rnd.number)
            self.seated_memo.update({pid: frozenset(r) for pid, r in seated.items()})
        return self.seated_memo


def _round_of(entry: Entry) -> int:
    return entry.round


ComputeFn = Callable[[Context, str], Value]
GroupFn = Callable[[Context, str, frozenset[str]], Value]
# every player's value at once, or None where the event is outside what the fast path models
FieldFn = Callable[[Context], "Mapping[str, float] | None"]


@dataclass(frozen=True)
class Tiebreak:
    """A registry entry: id (contract section 4), label, help page, and the computation.

    ``group`` tiebreaks (direct encounter) are computed among the players still tied,
    so ``compute_group`` receives the tied group. ``fast`` is an optional fast path:
    every player's value at once (:mod:`standgen.tiebreaks.columns`), exactly the
    ``compute(...).value`` of each player, or None for an event it does not model;
    ranking uses it when the context is ``fast``, and ``tests/test_tiebreak_columns.py``
    checks every registered one against ``compute`` on random events.
    """

    id: str
    label: str
    short: str  # column heading
    compute: ComputeFn
    help: str = ""  # slug of docs/tiebreaks/<help>.md; defaults to the id
    compute_group: GroupFn | None = None
    fast: FieldFn | None = None

    @property
    def page(self) -> str:
        return self.help or self.id


def summed(parts: list[Part], note: str = "") -> Value:
    """Return a Value that is the sum of the counted parts."""
    return Value(value=sum(p.value for p in parts if p.counted), parts=tuple(parts), note=note)


def from_items(
    items: Sequence[T], value_of: Callable[[T], float], part_of: Callable[[T, float], Part],
    note: str = "",
) -> Value:
    """Return the sum of ``value_of(item)`` over ``items`` (in order, from 0), and as its
    breakdown ``part_of(item, value)`` for each item, built when it is read.

    One pass makes the values; the parts carry the same values, so a tiebreak's value
    and its breakdown come from the same per-round contributions.
    """
    values = [value_of(item) for item in items]
    return Value(sum(values), note=note,
                 build=lambda: [part_of(item, v) for item, v in zip(items, values, strict=True)])


def outcome_share(outcome: Outcome) -> float:
    """Return the share of a game's result a player scored: win 1, draw ½, loss 0."""
    return SHARE[outcome]


def result_share(policy: TiebreakPolicy, entry: Entry) -> float:
    """Return the share of a round's result a player scored, as the policy reads it."""
    if policy.share_from_points and policy.win_points > 0:
        return min(1.0, max(0.0, entry.points / policy.win_points))
    return outcome_share(entry.outcome)


def is_withdrawn(entry: Entry) -> bool:
    """Return whether an entry is a round the player was missing from (see Context.entries)."""
    return entry.game.table == 0 and entry.seat.result == "withdrawn"
